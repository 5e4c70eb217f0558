"""How alike two blocks' texts are: the words they share (``Comparer.similar``), and a bound that
settles "alike enough" for two paragraphs without counting their words.

Similarity is 2 x shared words / all words (words: ``WORDS`` tokens, counted with repeats).
"""
from __future__ import annotations

import re
from collections import Counter

WORDS = re.compile(r"\w+|[^\w\s\x00-\x1f]", re.U)  # what similarity counts (not spaces, not our separators)


def counts(text: str, granularity: str) -> Counter:
    """A block's words (granularity "word"), else its characters, with their counts."""
    return Counter(WORDS.findall(text) if granularity == "word" else text)


def share(ca: Counter, cb: Counter) -> float:
    """2 x the words ``ca`` and ``cb`` share / all their words (1.0 when neither has any)."""
    total = ca.total() + cb.total()
    if not total:
        return 1.0
    return 2.0 * sum(min(n, cb[k]) for k, n in ca.items() if k in cb) / total  # (ca & cb).total(), no Counter made


def surely_similar(x: str, y: str) -> bool:
    """Whether two paragraphs' texts are surely at least half alike, from their common start and
    end alone (False: not sure; count). A whitespace-delimited chunk wholly inside the common start
    or end is the same words in both (one or more); every other word takes a character of its own
    that is no space. Paragraph text only: XML holds no control character but tab and line ends."""
    n = min(len(x), len(y))
    head = _common_head(x, y, n)
    tail = _common_tail(x, y, n - head)
    start = x[:head].split()
    if start and not x[head - 1].isspace():  # its chunk may go on
        start.pop()
    end = x[len(x) - tail:].split() if tail else []
    if end and not x[len(x) - tail].isspace():  # its chunk may start earlier
        end.pop(0)
    shared = len(start) + len(end)
    if not shared:
        return False
    chars = sum(map(len, start)) + sum(map(len, end))
    others = len("".join(x.split())) + len("".join(y.split())) - 2 * chars  # at most this many words more
    return 2 * shared >= others  # 2 shared / (2 shared + others) >= 1/2


def _common_head(x: str, y: str, n: int) -> int:
    """The length of the common start of ``x`` and ``y`` (``n``: the shorter's length): slices
    compared in C, halving."""
    if x[:n] == y[:n]:
        return n
    lo, hi = 0, n  # x[:lo] == y[:lo], x[:hi] != y[:hi]
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if x[lo:mid] == y[lo:mid]:
            lo = mid
        else:
            hi = mid
    return lo


def _common_tail(x: str, y: str, n: int) -> int:
    """The length of the common end of ``x`` and ``y``, at most ``n``."""
    lx, ly = len(x), len(y)
    if x[lx - n:] == y[ly - n:]:
        return n
    lo, hi = 0, n
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if x[lx - mid:lx - lo] == y[ly - mid:ly - lo]:
            lo = mid
        else:
            hi = mid
    return lo
