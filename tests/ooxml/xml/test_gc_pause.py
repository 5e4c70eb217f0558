"""The collector paused around docx_check comes back as it was: on after the call (also when the
call raises, and only when the last of nested pauses ends), still off when it was off."""
from __future__ import annotations

import gc

import pytest

from ooxml.xml import gc_pause


@pytest.fixture(autouse=True)
def _collector_restored():
    was = gc.isenabled()
    yield
    (gc.enable if was else gc.disable)()


def test_back_on_after_nested_pauses_and_an_error():
    gc.enable()
    with pytest.raises(RuntimeError):
        with gc_pause.paused():
            with gc_pause.paused():
                assert not gc.isenabled()
            assert not gc.isenabled()  # the outer pause still holds
            raise RuntimeError("boom")
    assert gc.isenabled()


def test_left_off_when_it_was_off():
    gc.disable()
    with gc_pause.paused():
        pass
    assert not gc.isenabled()
