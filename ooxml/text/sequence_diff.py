"""Opcodes between two token lists in bounded work (the word diff of tracked edits and docx_compare).

difflib's SequenceMatcher is cubic where a token is common on both sides (every space of a long
paragraph whose every second word changed: 1,000 words took minutes). It is kept where it is
cheap, measured before it runs: the sum over ``a`` of each token's occurrences in ``b`` (what
one of its longest-match scans costs). Past that budget the range is cut at anchors first,
patience-style: tokens once on each side (or, with none, the k-th occurrence of a token on
each side), the longest run of them in order on both sides, and each gap between anchors is
diffed again the same way. Past a depth the rest is one replacement.
"""
from __future__ import annotations

from bisect import bisect_left
from collections import Counter
from difflib import SequenceMatcher
from operator import lt
from typing import Hashable, Sequence

BUDGET = 20_000  # SequenceMatcher's scan cost allowed for one range
_DEPTH = 48

Block = tuple[int, int, int]  # (start in a, start in b, length): a run of equal tokens


def opcodes(a: Sequence[Hashable], b: Sequence[Hashable]) -> list[tuple]:
    """SequenceMatcher-style opcodes (equal / replace / delete / insert) covering ``a`` and ``b``."""
    blocks: list[Block] = []
    _match(a, b, 0, len(a), 0, len(b), blocks, 0)
    out: list[tuple] = []
    i = j = 0
    for bi, bj, size in [*_merged(blocks), (len(a), len(b), 0)]:
        tag = "replace" if i < bi and j < bj else "delete" if i < bi else "insert" if j < bj else ""
        if tag:
            out.append((tag, i, bi, j, bj))
        if size:
            out.append(("equal", bi, bi + size, bj, bj + size))
        i, j = bi + size, bj + size
    return out


def _merged(blocks: list[Block]) -> list[Block]:
    out: list[Block] = []
    for i, j, n in blocks:
        if n and out and out[-1][0] + out[-1][2] == i and out[-1][1] + out[-1][2] == j:
            out[-1] = (out[-1][0], out[-1][1], out[-1][2] + n)
        elif n:
            out.append((i, j, n))
    return out


def _match(a, b, lo_a, hi_a, lo_b, hi_b, out: list[Block], depth: int) -> None:
    """Append the equal blocks of a[lo_a:hi_a] and b[lo_b:hi_b], in order."""
    sa, sb = a[lo_a:hi_a], b[lo_b:hi_b]  # (zip over slices: a third of indexing both in Python)
    head = 0
    for x, y in zip(sa, sb):
        if x != y:
            break
        head += 1
    out.append((lo_a, lo_b, head))
    lo_a, lo_b = lo_a + head, lo_b + head
    tail, most = 0, min(hi_a - lo_a, hi_b - lo_b)
    for x, y in zip(reversed(sa), reversed(sb)):
        if tail == most or x != y:
            break
        tail += 1
    hi_a, hi_b = hi_a - tail, hi_b - tail
    if lo_a < hi_a and lo_b < hi_b:
        _middle(a, b, lo_a, hi_a, lo_b, hi_b, out, depth)
    out.append((hi_a, hi_b, tail))


def _middle(a, b, lo_a, hi_a, lo_b, hi_b, out: list[Block], depth: int) -> None:
    if hi_a - lo_a == 1 == hi_b - lo_b:  # one token for another (they differ: _match took equal ends)
        return  # (what SequenceMatcher finds, without making one: the usual word edit)
    if hi_a - lo_a == 1 or hi_b - lo_b == 1:  # one token against several: its first place on the other side
        _one(a, b, lo_a, hi_a, lo_b, hi_b, out)  # (SequenceMatcher's answer, without making one: 10x cheaper)
        return
    if _scan_cost(a, b, lo_a, hi_a, lo_b, hi_b) <= BUDGET:
        matcher = SequenceMatcher(None, a[lo_a:hi_a], b[lo_b:hi_b], autojunk=False)
        out.extend((lo_a + i, lo_b + j, n) for i, j, n in matcher.get_matching_blocks())
        return
    anchors = _anchors(a, b, lo_a, hi_a, lo_b, hi_b) if depth < _DEPTH else []
    pa, pb = lo_a, lo_b
    for i, j in anchors:
        _match(a, b, pa, i, pb, j, out, depth + 1)
        out.append((i, j, 1))
        pa, pb = i + 1, j + 1
    if anchors:
        _match(a, b, pa, hi_a, pb, hi_b, out, depth + 1)
    # no anchor: nothing in common worth the search; the range is one replacement


def _one(a, b, lo_a, hi_a, lo_b, hi_b, out: list[Block]) -> None:
    """The equal block of a range where one side is one token: SequenceMatcher's longest match is
    that token where it first is on the other side (earliest in ``a``, then in ``b``)."""
    try:
        if hi_a - lo_a == 1:
            out.append((lo_a, b.index(a[lo_a], lo_b, hi_b), 1))
        else:
            out.append((a.index(b[lo_b], lo_a, hi_a), lo_b, 1))
    except ValueError:  # not there: the range is one replacement
        pass


def _scan_cost(a, b, lo_a, hi_a, lo_b, hi_b) -> int:
    count_b = Counter(b[lo_b:hi_b])
    return sum(count_b.get(x, 0) for x in a[lo_a:hi_a])


def _anchors(a, b, lo_a, hi_a, lo_b, hi_b) -> list[tuple[int, int]]:
    """Tokens once on each side, matched and kept in order; with none, k-th occurrences."""
    count_a, count_b = Counter(a[lo_a:hi_a]), Counter(b[lo_b:hi_b])
    where_b = {b[j]: j for j in range(lo_b, hi_b) if count_b[b[j]] == 1}
    pairs = [(i, where_b[a[i]]) for i in range(lo_a, hi_a) if count_a[a[i]] == 1 and a[i] in where_b]
    if not pairs:
        seen_b: dict = {}
        for j in range(lo_b, hi_b):
            seen_b.setdefault(b[j], []).append(j)
        nth: Counter = Counter()
        for i in range(lo_a, hi_a):
            js = seen_b.get(a[i])
            if js and nth[a[i]] < len(js):
                pairs.append((i, js[nth[a[i]]]))
                nth[a[i]] += 1
    return longest_increasing(pairs)


def longest_increasing(pairs: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """The longest subsequence of ``pairs`` (in order of their first item) rising in the second."""
    second = [j for _, j in pairs]
    if all(map(lt, second, second[1:])):  # in order already (a C loop: whole bodies come here)
        return pairs
    tails: list[int] = []
    tail_at: list[int] = []
    back = [-1] * len(pairs)
    for k, (_, j) in enumerate(pairs):
        n = bisect_left(tails, j)
        if n == len(tails):
            tails.append(j)
            tail_at.append(k)
        else:
            tails[n] = j
            tail_at[n] = k
        back[k] = tail_at[n - 1] if n else -1
    run = []
    k = tail_at[-1] if tail_at else -1
    while k >= 0:
        run.append(pairs[k])
        k = back[k]
    return run[::-1]
