"""ooxml/compare/align.py: aligning two sequences of keys (compare's paragraphs, docx_changes' blocks):
anchors on keys unique to both sides, gaps paired by similarity, the rest alone."""
from __future__ import annotations

import random
from difflib import SequenceMatcher

import numpy as np

from ooxml.compare.align import align, align_numbers, refine
from ooxml.model.document import Document
from ooxml.text import body as B
from tests.builders import build_docx, p


def texts(tmp_path, name: str, paragraphs: list[str]) -> list[str]:
    doc = Document.open(build_docx(tmp_path / name, "".join(p(t) for t in paragraphs)))
    return [B.paragraph_text(el) for el in B.iter_blocks(doc.body)]


def matched(pairs) -> list[tuple[int, int]]:
    return [(i, j) for i, j in pairs if i is not None and j is not None]


def test_a_paragraph_inserted_between_two_documents_paragraphs_is_the_only_one_alone(tmp_path):
    a = texts(tmp_path, "a.docx", ["Title", "First point.", "Second point.", "End."])
    b = texts(tmp_path, "b.docx", ["Title", "First point.", "A new point.", "Second point.", "End."])
    assert align(a, b) == [(0, 0), (1, 1), (None, 2), (2, 3), (3, 4)]


def test_a_moved_key_is_not_an_anchor_the_others_keep_their_order():
    pairs = align(["A", "B", "C", "D"], ["D", "A", "B", "C"])
    assert matched(pairs) == [(0, 1), (1, 2), (2, 3)]
    assert (3, None) in pairs and (None, 0) in pairs


def test_keys_repeated_on_a_side_match_in_order_around_the_unique_ones():
    pairs = align(["x", "x", "U", "x"], ["x", "U", "x", "x"])
    assert (2, 1) in pairs and matched(pairs) == sorted(matched(pairs))


def test_an_edited_paragraph_pairs_with_its_old_text_by_similarity(tmp_path):
    a = texts(tmp_path, "a.docx", ["Intro", "The cat sat on the mat.", "Outro"])
    b = texts(tmp_path, "b.docx", ["Intro", "The cat sat on the red mat.", "Outro"])

    def similar(i, j):
        return SequenceMatcher(None, a[i], b[j]).ratio()

    assert align(a, b, similar) == [(0, 0), (1, 1), (2, 2)]
    assert align(a, b) == [(0, 0), (1, None), (None, 1), (2, 2)]  # no similarity: delete + insert


def test_pairs_below_the_threshold_stay_apart():
    pairs = align(["k", "abc"], ["k", "xyz"], lambda i, j: 0.2, threshold=0.5)
    assert pairs == [(0, 0), (1, None), (None, 1)]


def test_every_index_of_each_side_appears_once_and_in_order():
    rng = random.Random(30)
    for _ in range(200):
        a = [rng.choice("abcdefg") for _ in range(rng.randint(0, 30))]
        b = [rng.choice("abcdefg") for _ in range(rng.randint(0, 30))]
        pairs = align(a, b)
        assert [i for i, _ in pairs if i is not None] == list(range(len(a)))
        assert [j for _, j in pairs if j is not None] == list(range(len(b)))
        assert all(a[i] == b[j] for i, j in matched(pairs))


def test_refine_realigns_only_the_stretches_left_alone():
    asked = []

    def realign(lo_a, hi_a, lo_b, hi_b):
        asked.append((lo_a, hi_a, lo_b, hi_b))
        return [(lo_a + k, lo_b + k) for k in range(hi_a - lo_a)]

    coarse = [(0, 0), (1, None), (2, None), (None, 1), (None, 2), (3, 3), (None, 4)]
    assert refine(coarse, realign) == [(0, 0), (1, 1), (2, 2), (3, 3), (None, 4)]
    assert asked == [(1, 3, 1, 3)]


def test_numbers_align_with_numpy_as_align_aligns_them():
    """align_numbers (byte_align's first pass: 50,000 blocks) finds the first level in numpy."""
    rnd = random.Random(5)
    for case in range(300):
        a = [rnd.randrange(10**6) for _ in range(rnd.randrange(0, 60))]
        a += [rnd.randrange(4) for _ in range(rnd.randrange(0, 6))]  # repeated keys
        rnd.shuffle(a)
        b = list(a)
        for _ in range(rnd.randrange(0, 8)):  # edits, inserts, deletes, moves
            k = rnd.randrange(len(b) + 1)
            op = rnd.randrange(4)
            if op == 0 and k < len(b):
                b[k] = rnd.randrange(10**6)
            elif op == 1:
                b.insert(k, rnd.choice([rnd.randrange(10**6), 1, 2]))
            elif op == 2 and k < len(b):
                del b[k]
            elif k < len(b):
                b.insert(rnd.randrange(len(b)), b.pop(k))
        want = align(a, b)
        assert align_numbers(np.array(a, np.int64), np.array(b, np.int64)) == want, case
