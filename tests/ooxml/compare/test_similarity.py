"""surely_similar settles "at least half alike" only where counting the words agrees."""
from __future__ import annotations

import random
from collections import Counter

from ooxml.compare.similarity import WORDS, counts, share, surely_similar


def counted(x: str, y: str) -> float:
    return share(counts(x, "word"), counts(y, "word"))


def test_a_word_replaced_in_a_long_paragraph_is_settled_without_counting():
    x = "Report on the chapter in milestone revenue by section, as the figure shows."
    y = x.replace("revenue", "edited")
    assert surely_similar(x, y) and counted(x, y) >= 0.5


def test_a_paragraph_mostly_rewritten_is_left_to_the_count():
    x = "Report on the chapter in milestone revenue by section."
    y = "Report on a new plan for next year and its budget."
    assert counted(x, y) < 0.5
    assert not surely_similar(x, y)


def test_a_word_cut_at_the_common_start_is_no_shared_word():
    # "abc" and "abd" share "ab": no whole chunk in common, nothing to settle on
    assert not surely_similar("abc", "abd")
    assert Counter(WORDS.findall("abc")) != Counter(WORDS.findall("abd"))


def test_never_sure_where_the_count_says_less_than_half():
    rng = random.Random(29)
    pieces = ["a", "b", "ab", " ", "  ", ".", ",", "\u00e9", "\t", "\n", "x1", "\u00a0", "\u2003", "\u2014"]
    sure = 0
    for _ in range(50_000):
        x = "".join(rng.choice(pieces) for _ in range(rng.randrange(25)))
        y = list(x)
        for _ in range(rng.randrange(1, 4)):
            k = rng.randrange(len(y) + 1)
            if rng.random() < 0.5 or k == len(y):
                y.insert(k, rng.choice(pieces))
            else:
                del y[k]
        y = "".join(y)
        if surely_similar(x, y):
            sure += 1
            assert counted(x, y) >= 0.5, (x, y)
    assert sure > 5_000  # (the bound settles many: it is no test that never says yes)
