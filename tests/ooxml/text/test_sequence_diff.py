"""sequence_diff's opcodes: common ends, then SequenceMatcher's blocks in between (its shortcuts
answer as SequenceMatcher would)."""
from __future__ import annotations

import random
from difflib import SequenceMatcher

from ooxml.text.sequence_diff import opcodes


def reference(a: list[str], b: list[str]) -> list[tuple]:
    """Common start and end taken, SequenceMatcher on the rest (short lists: within its budget)."""
    head = 0
    while head < min(len(a), len(b)) and a[head] == b[head]:
        head += 1
    tail = 0
    while tail < min(len(a), len(b)) - head and a[-1 - tail] == b[-1 - tail]:
        tail += 1
    middle = SequenceMatcher(None, a[head:len(a) - tail], b[head:len(b) - tail], autojunk=False)
    blocks = [(0, 0, head), *((i + head, j + head, n) for i, j, n in middle.get_matching_blocks() if n),
              (len(a) - tail, len(b) - tail, tail)]
    out, i, j = [], 0, 0
    for bi, bj, n in blocks:
        tag = "replace" if i < bi and j < bj else "delete" if i < bi else "insert" if j < bj else ""
        if tag:
            out.append((tag, i, bi, j, bj))
        if n:
            if out and out[-1][0] == "equal":
                out[-1] = ("equal", out[-1][1], bi + n, out[-1][3], bj + n)
            else:
                out.append(("equal", bi, bi + n, bj, bj + n))
        i, j = bi + n, bj + n
    return out


def test_one_word_against_several_is_kept_where_it_first_is():
    a = "x cat y".split()
    b = "x dog cat dog cat cow y".split()
    assert opcodes(a, b) == [("equal", 0, 1, 0, 1), ("insert", 1, 1, 1, 2), ("equal", 1, 2, 2, 3),
                             ("insert", 2, 2, 3, 6), ("equal", 2, 3, 6, 7)]
    assert opcodes(a, b) == [tuple(op) for op in SequenceMatcher(None, a, b, autojunk=False).get_opcodes()]


def test_small_edits_of_token_lists_give_sequencematchers_opcodes():
    rng = random.Random(18)
    for _ in range(20_000):
        a = [rng.choice("ab c") for _ in range(rng.randrange(12))]
        b = list(a)
        for _ in range(rng.randrange(1, 4)):
            k = rng.randrange(len(b) + 1)
            if rng.random() < 0.5 or not b or k == len(b):
                b.insert(k, rng.choice("abd "))
            else:
                del b[k]
        if rng.random() < 0.5:
            a, b = b, a
        assert opcodes(a, b) == reference(a, b), (a, b)
