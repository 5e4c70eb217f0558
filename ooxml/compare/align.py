"""Aligning two sequences of keys: anchors on keys unique to both sides, the gaps paired by similarity.

Patience-style: the common head and tail match first; keys that occur once on each side are
anchors when they keep their order (the longest increasing run of them); each gap between
anchors is aligned again the same way, and what still has no anchor is paired by similarity
(a bounded dynamic programme) or falls back to delete + insert. Time grows with the sizes of
the gaps, not with the product of the sequences' sizes.
"""
from __future__ import annotations

from typing import Callable, Hashable, Sequence

import numpy as np

from ooxml.text.sequence_diff import longest_increasing

Pair = tuple[int | None, int | None]  # (index in a, index in b); None: only on the other side
# Gaps whose product of sizes is over this are not paired by similarity (delete + insert).
DP_CELLS = 40_000


def align(a: Sequence[Hashable], b: Sequence[Hashable],
          similar: Callable[[int, int], float] | None = None, threshold: float = 0.5) -> list[Pair]:
    """The alignment of ``a`` and ``b`` in order: equal keys matched, others paired when
    ``similar(i, j) >= threshold``, the rest alone."""
    out: list[Pair] = []
    _align_range(a, b, 0, len(a), 0, len(b), similar, threshold, out, 0)
    return out


def align_numbers(a: np.ndarray, b: np.ndarray) -> list[Pair]:
    """``align(a.tolist(), b.tolist())`` for numbers (ints >= 0): the first level's common head and
    tail, anchors and gaps found by numpy, each gap aligned as ``align`` aligns it."""
    keys_a, keys_b = a.tolist(), b.tolist()
    n, m = len(a), len(b)
    head = _same_for(a, b)
    tail = _same_for(a[head:][::-1], b[head:][::-1])
    hi_a, hi_b = n - tail, m - tail
    out: list[Pair] = list(zip(range(head), range(head)))
    i, j = _once_each(a, b, head, hi_a, hi_b)
    anchors = longest_increasing(list(zip(i.tolist(), j.tolist())))
    if not anchors:
        _pair_gap(head, hi_a, head, hi_b, None, 0.5, out)
    else:
        if len(anchors) < len(i):
            i, j = np.array(anchors).T
        gaps = np.flatnonzero((np.diff(i, prepend=head - 1) > 1) | (np.diff(j, prepend=head - 1) > 1)).tolist()
        pa, pb, done = head, head, 0
        for k in gaps:  # (most anchors follow one another: no gap)
            out.extend(anchors[done:k])
            if k:
                pa, pb = anchors[k - 1][0] + 1, anchors[k - 1][1] + 1
            _gap(keys_a, keys_b, pa, anchors[k][0], pb, anchors[k][1], out)
            done = k
        out.extend(anchors[done:])
        _gap(keys_a, keys_b, anchors[-1][0] + 1, hi_a, anchors[-1][1] + 1, hi_b, out)
    out.extend(zip(range(hi_a, n), range(hi_b, m)))
    return out


def _same_for(a: np.ndarray, b: np.ndarray) -> int:
    """How many of the first items are equal in ``a`` and ``b``."""
    k = min(len(a), len(b))
    differ = np.flatnonzero(a[:k] != b[:k])
    return int(differ[0]) if len(differ) else k


def _once_each(a, b, lo, hi_a, hi_b) -> tuple[np.ndarray, np.ndarray]:
    """The places (``a``'s in order, ``b``'s) of the numbers once in ``a[lo:hi_a]`` and once in ``b[lo:hi_b]``."""
    part_a, part_b = a[lo:hi_a], b[lo:hi_b]
    top = int(max(part_a.max(initial=0), part_b.max(initial=0))) + 1
    once = (np.bincount(part_a, minlength=top) == 1) & (np.bincount(part_b, minlength=top) == 1)
    at_b = np.zeros(top, np.int64)
    at_b[part_b] = np.arange(lo, hi_b)
    i = np.flatnonzero(once[part_a]) + lo
    return i, at_b[a[i]]


def _gap(a, b, lo_a, hi_a, lo_b, hi_b, out) -> None:
    """``_align_range`` one level down, what it gives one or no item a side written at once."""
    if hi_a - lo_a > 1 or hi_b - lo_b > 1:
        _align_range(a, b, lo_a, hi_a, lo_b, hi_b, None, 0.5, out, 1)
    elif lo_a < hi_a and lo_b < hi_b and a[lo_a] == b[lo_b]:
        out.append((lo_a, lo_b))
    else:
        out.extend([(lo_a, None)] if lo_a < hi_a else [])
        out.extend([(None, lo_b)] if lo_b < hi_b else [])


def refine(pairs: list[Pair], realign: Callable[[int, int, int, int], list[Pair]]) -> list[Pair]:
    """``pairs`` with each stretch of unmatched items that has both sides aligned again by
    ``realign(lo_a, hi_a, lo_b, hi_b)`` (a coarse alignment made finer where it found nothing)."""
    out: list[Pair] = []
    gap: list[Pair] = []
    for pair in [*pairs, (-1, -1)]:  # a sentinel closes the last gap
        if pair[0] is None or pair[1] is None:
            gap.append(pair)
            continue
        if gap:
            a = [i for i, _ in gap if i is not None]
            b = [j for _, j in gap if j is not None]
            out.extend(realign(a[0], a[-1] + 1, b[0], b[-1] + 1) if a and b else gap)
            gap = []
        out.append(pair)
    out.pop()
    return out


def _align_range(a, b, lo_a, hi_a, lo_b, hi_b, similar, threshold, out, depth) -> None:
    head = []
    while lo_a < hi_a and lo_b < hi_b and a[lo_a] == b[lo_b]:
        head.append((lo_a, lo_b))
        lo_a, lo_b = lo_a + 1, lo_b + 1
    tail = []
    while hi_a > lo_a and hi_b > lo_b and a[hi_a - 1] == b[hi_b - 1]:
        hi_a, hi_b = hi_a - 1, hi_b - 1
        tail.append((hi_a, hi_b))
    out.extend(head)
    anchors = _anchors(a, b, lo_a, hi_a, lo_b, hi_b) if depth < 64 else []
    if not anchors:
        _pair_gap(lo_a, hi_a, lo_b, hi_b, similar, threshold, out)
    else:
        pa, pb = lo_a, lo_b
        for i, j in anchors:
            if i > pa or j > pb:  # most anchors follow one another: no gap to align
                _align_range(a, b, pa, i, pb, j, similar, threshold, out, depth + 1)
            out.append((i, j))
            pa, pb = i + 1, j + 1
        _align_range(a, b, pa, hi_a, pb, hi_b, similar, threshold, out, depth + 1)
    out.extend(reversed(tail))


def _anchors(a, b, lo_a, hi_a, lo_b, hi_b) -> list[tuple[int, int]]:
    """Keys once in each range, matched, then the longest run of them increasing on both sides."""
    if lo_a >= hi_a or lo_b >= hi_b:
        return []
    part_a, part_b = a[lo_a:hi_a], b[lo_b:hi_b]
    last_a, last_b = _places(part_a, lo_a, False), _places(part_b, lo_b, False)
    first_a = last_a if len(last_a) == len(part_a) else _places(part_a, lo_a, True)
    first_b = last_b if len(last_b) == len(part_b) else _places(part_b, lo_b, True)
    # keys once on each side (first place = last place), in a's order (a key's first place is its only one)
    pairs = [(i, j) for x, i in last_a.items()
             if first_a[x] == i and (j := last_b.get(x, -1)) >= 0 and first_b[x] == j]
    return longest_increasing(pairs)


def _places(part, lo: int, first: bool) -> dict:
    """Each key's last (or first) index, the dict built in C."""
    if first:
        return dict(zip(reversed(part), range(lo + len(part) - 1, lo - 1, -1)))
    return dict(zip(part, range(lo, lo + len(part))))


def _pair_gap(lo_a, hi_a, lo_b, hi_b, similar, threshold, out) -> None:
    """A gap with no anchor: pair by similarity (best monotonic pairing), or delete + insert."""
    n, m = hi_a - lo_a, hi_b - lo_b
    if n and m and similar is not None:
        if n * m <= DP_CELLS:
            out.extend(_best_pairs(lo_a, hi_a, lo_b, hi_b, similar, threshold))
            return
        # Too big to pair every item with every other: pair in order, position by position.
        k = 0
        while k < n and k < m:
            if similar(lo_a + k, lo_b + k) < threshold:
                break
            k += 1
        out.extend((lo_a + x, lo_b + x) for x in range(k))
        lo_a, lo_b = lo_a + k, lo_b + k
    out.extend((i, None) for i in range(lo_a, hi_a))
    out.extend((None, j) for j in range(lo_b, hi_b))


def _best_pairs(lo_a, hi_a, lo_b, hi_b, similar, threshold) -> list[Pair]:
    """The monotonic pairing with the greatest total similarity (pairs at or above ``threshold``)."""
    n, m = hi_a - lo_a, hi_b - lo_b
    memo: dict = {}
    raw = similar

    def similar(i, j):  # noqa: F811 (each pair's similarity once: the walk back asks again)
        if (i, j) not in memo:
            memo[i, j] = raw(i, j)
        return memo[i, j]
    score = [[0.0] * (m + 1) for _ in range(n + 1)]
    for x in range(n - 1, -1, -1):
        row, below = score[x], score[x + 1]
        for y in range(m - 1, -1, -1):
            best = max(below[y], row[y + 1])
            s = similar(lo_a + x, lo_b + y)
            if s >= threshold:
                best = max(best, s + below[y + 1])
            row[y] = best
    out: list[Pair] = []
    x = y = 0
    while x < n and y < m:
        s = similar(lo_a + x, lo_b + y)
        if s >= threshold and score[x][y] == s + score[x + 1][y + 1]:
            out.append((lo_a + x, lo_b + y))
            x, y = x + 1, y + 1
        elif score[x][y] == score[x + 1][y]:
            out.append((lo_a + x, None))
            x += 1
        else:
            out.append((None, lo_b + y))
            y += 1
    out.extend((lo_a + k, None) for k in range(x, n))
    out.extend((None, lo_b + k) for k in range(y, m))
    return out
