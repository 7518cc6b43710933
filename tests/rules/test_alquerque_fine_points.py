"""Fine points of RULES §1 (Alquerque): scenarios for clauses the main test file
checks only through the brute-force reference, or not at all. See RULES_COVERAGE.md."""

from __future__ import annotations

import pytest

import rules
from tests.rules.test_alquerque import V, moves, play, pos, refused


def point(name: str) -> tuple[int, int]:
    return "abcde".index(name[0]), int(name[1]) - 1


# --------------------------------------------------------------------------- Black's mirror

def test_black_first_jump_goes_forward_diagonally_forward_or_sideways() -> None:
    # c3xc5 would start backwards for Black: there is no capture, so Black steps
    p = pos("c4 e1", "c3", "b")
    assert moves(p) == ["c3-b2", "c3-b3", "c3-c2", "c3-d2", "c3-d3"]
    assert refused(p, "c3xc5") == "the first jump must go forward, diagonally forward or sideways"


def test_black_later_jumps_may_go_backwards() -> None:
    # e3xc1 goes diagonally forward; c1xc3 goes back towards rank 5 and must follow
    p = pos("c2 d2 a5", "e3", "b")
    assert moves(p) == ["e3xc1xc3"]
    assert refused(p, "e3xc1") == "a capture must continue: e3xc1 can go on to c3"


def test_a_black_piece_on_rank_one_starts_a_capture_only_sideways() -> None:
    assert moves(pos("b1 c2 e5", "c1 a5", "b")) == ["c1xa1"]  # not c1xc3 (backwards)
    # with only the backward jump there, no capture exists: Black steps with another piece
    p = pos("c2 e5", "c1 a5", "b")
    assert moves(p) == ["a5-a4", "a5-b4", "a5-b5"]
    assert refused(p, "c1-b1") == "a piece on rank 1 cannot step any more"


def test_a_sequence_ending_on_the_far_rank_freezes_the_piece_again() -> None:
    # White ends b3xb5 on rank 5: afterwards that piece makes no step
    p = play(pos("b3 e1", "b4 c4 a4"), "b3xb5", "a4-a3")
    assert "b5" not in {m.split("-")[0] for m in moves(p)}
    assert moves(p) == ["e1-d1", "e1-d2", "e1-e2"]


# --------------------------------------------------------------------------- memory

def test_memory_is_replaced_by_each_new_move_of_the_piece() -> None:
    # the piece came b3 -> c3; after c3-d3 it remembers c3 only (its most recent start)
    p = play(pos("c3 a1", "a5", memories="b3>c3"), "c3-d3", "a5-a4")
    assert p.memories == {point("d3"): point("c3"), point("a4"): point("a5")}
    assert refused(p, "d3-c3") == "this piece came from c3 and may not return there"
    p = play(p, "d3-d4", "a4-a3")  # c3 is free again once the piece has moved on
    assert p.memories[point("d4")] == point("d3")


def test_the_memory_of_a_capture_is_its_start_and_bars_a_later_first_jump() -> None:
    # White c3xe3 remembers c3; when Black puts a piece back on d3, the sideways jump
    # e3xc3 would return there: no capture exists, so White steps
    p = play(pos("c3 e1", "d3 d4 c5"), "c3xe3", "d4-d3")
    assert p.memories[point("e3")] == point("c3")
    assert moves(p) == ["e1-d1", "e1-d2", "e1-e2", "e3-d4", "e3-e4"]
    assert refused(p, "e3xc3") == "this piece came from c3 and may not return there"


def test_the_first_jump_direction_and_memory_together_decide_whether_a_capture_exists() -> None:
    # c3xc5 lands on c3's memory, e5xe3 would start backwards: no capture exists, so
    # White's steps are legal; with either bar lifted the capture is compulsory
    p = pos("c3 e5 a1", "c4 e4 a4", memories="c5>c3")
    assert moves(p) == ["a1-a2", "a1-b1", "a1-b2", "c3-b3", "c3-b4", "c3-d3", "c3-d4"]
    assert moves(pos("c3 e5 a1", "c4 e4 a4")) == ["c3xc5"]
    assert moves(pos("c3 e5 a1", "c4 d5 a4", memories="c5>c3")) == ["e5xc5"]


# --------------------------------------------------------------------------- notation

def test_an_ambiguous_abbreviation_lists_every_candidate_in_its_message() -> None:
    p = pos("e1", "b4 d4 d3 d2 e2")
    with pytest.raises(rules.AmbiguousMoveError, match="e1xc3xa5 or e1xe3xc3xa5"):
        V.parse_move(p, "e1xa5")
    # the abbreviation is accepted where one sequence matches, however long it is
    assert V.format_move(p, V.parse_move(p, "e1 x c1")) == "e1xe3xc1"


def test_there_is_no_pass() -> None:
    p = V.start()
    with pytest.raises(rules.NotationError):
        V.parse_move(p, "pass")
    assert all(m.path[0] != m.path[-1] or m.captured for m in p.legal_moves())
