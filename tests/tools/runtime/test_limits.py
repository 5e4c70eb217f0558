"""tools/runtime/sessions/limits.py reads the settings the model and the renderer are given per call
(issue 30: never read from the environment inside ooxml/ or render/)."""
from __future__ import annotations

from ooxml.model.undo_limits import DEFAULT_UNDO_LIMITS, UndoLimits
from tools.runtime.sessions.limits import check_drawn, undo_limits


def test_undo_limits_come_from_the_environment_given():
    env = {"OOXML_MCP_UNDO_STEPS": "2", "OOXML_MCP_UNDO_BYTES": "4096", "OOXML_MCP_CHECK_UNDO": "1"}
    assert undo_limits(env) == UndoLimits(max_steps=2, max_bytes=4096, check=True)


def test_unset_or_unreadable_undo_limits_are_the_defaults():
    assert undo_limits({}) == DEFAULT_UNDO_LIMITS
    assert undo_limits({"OOXML_MCP_UNDO_STEPS": "many"}).max_steps == DEFAULT_UNDO_LIMITS.max_steps
    assert undo_limits({"OOXML_MCP_UNDO_STEPS": "0"}).max_steps == 1  # at least the step just made


def test_the_drawn_box_check_is_on_only_when_asked():
    assert check_drawn({"OOXML_MCP_CHECK_DRAWN": "1"}) and not check_drawn({})

