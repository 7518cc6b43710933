"""Xiangqi (RULES §3): the fine points test_xiangqi.py leaves uncaught.

Each test names the clause it guards; tests/rules/RULES_COVERAGE.md maps every clause.
"""

from __future__ import annotations

import pytest

import rules
from rules import IllegalMoveError
from rules.xiangqi import format_wxf
from tests.rules.helpers.xiangqi import V, canonical, play, pos

# --------------------------------------------------------------------------- repetition


# Red's horse and Black's horse each step on and off the two cannon lines: every move
# answers a cannon check and opens the other cannon's line (one screen), so both sides
# check with every move: a8 cannon -> e9 general along rank 9, d10 cannon -> d2 down file d.
MUTUAL = "3c5/C3k4/1n1N5/9/9/9/9/9/3K5/9 w - - 0 1"
MUTUAL_CYCLE = ("d8-b9", "b8-d9", "b9-d8", "d9-b8")


def test_perpetual_check_by_both_sides_is_a_draw() -> None:
    p = pos(MUTUAL)
    assert p.in_check()
    for text in MUTUAL_CYCLE * 2:
        p = play(p, text)
        assert p.in_check(), text  # every move of both sides gives check
    assert p.repetitions() == 3
    outcome = p.outcome()
    assert outcome is not None
    assert outcome.reason == "repetition" and outcome.is_draw
    assert outcome.ranking == (frozenset({0, 1}),)


def test_perpetual_check_counts_only_the_moves_since_the_first_occurrence() -> None:
    # Red's quiet move f2-f1 comes before the repeated position first occurs, so it does
    # not save Red: from there on Red checked with every move and Black never did.
    p = pos("3k5/R8/9/9/9/9/9/9/5K3/9 w - - 0 1")
    p = play(p, "f2-f1", "d10-e10")
    cycle = ("a9-a10", "e10-e9", "a10-a9", "e9-e10")
    p = play(p, *cycle, *cycle)
    assert p.repetitions() == 3
    outcome = p.outcome()
    assert outcome is not None
    assert outcome.reason == "perpetual-check" and outcome.winners == {1}


def test_chasing_is_not_a_rule_only_check_decides() -> None:
    # Red's chariot attacks Black's horse with every move (a chase), never the general:
    # the third occurrence is a plain draw, not a loss for the chaser.
    p = pos("1n7/4k4/R8/9/9/9/9/9/9/5K3 w - - 0 1")
    chase = ("a8-a10", "b10-c8", "a10-a8", "c8-b10")
    for _ in range(2):
        for text in chase:
            p = play(p, text)
            if p.side == 1:  # after Red's move: the chariot could take the horse next
                again = pos(p.to_text().replace(" b ", " w "))
                assert any(m.startswith("a") and "x" in m for m in canonical(again))
                assert not p.in_check()
    assert p.repetitions() == 3
    outcome = p.outcome()
    assert outcome is not None and outcome.reason == "repetition" and outcome.is_draw


def test_a_soldier_stepping_sideways_can_repeat_a_position() -> None:
    # only a soldier's step forward is irreversible; sideways steps come and go
    p = pos("3k5/9/9/2P6/9/9/9/9/9/5K3 w - - 0 1")
    cycle = ("c7-b7", "d10-e10", "b7-c7", "e10-d10")
    p = play(p, *cycle, *cycle)
    assert p.repetitions() == 3
    outcome = p.outcome()
    assert outcome is not None and outcome.reason == "repetition"


def test_the_same_placement_with_the_other_side_to_move_is_not_a_repetition() -> None:
    # Red's chariot goes round a1 -> a3 -> a2 -> a1 (three plies) while Black's general
    # swings d10 <-> e10: the placement comes back with Black to move.
    start = pos("3k5/9/9/9/9/9/9/9/9/R4K3 w - - 0 1")
    p = play(start, "a1-a3", "d10-e10", "a3-a2", "e10-d10", "a2-a1")
    assert p.board == start.board and p.side != start.side
    assert p.repetitions() == 1
    p = play(p, "d10-e10", "a1-a2", "e10-d10", "a2-a1")
    # the placement has now stood three times, but only twice with Black to move
    assert p.board == start.board and p.repetitions() == 2
    assert p.outcome() is None


# --------------------------------------------------------------------------- 100 plies


def test_a_soldier_move_does_not_reset_the_hundred_ply_count() -> None:
    p = pos("3k5/9/9/9/9/9/P8/9/9/4K4 w - - 99 60")
    p = play(p, "a4-a5")
    assert p.halfmove == 100
    outcome = p.outcome()
    assert outcome is not None and outcome.reason == "move-limit"


def test_checkmate_on_the_hundredth_ply_wins() -> None:
    p = pos("4k4/1R7/R8/9/9/9/9/9/9/3K5 w - - 99 50")
    p = play(p, "a8-a10")
    assert p.halfmove == 100
    outcome = p.outcome()
    assert outcome is not None and outcome.reason == "checkmate" and outcome.winners == {0}


def test_perpetual_check_on_the_hundredth_ply_still_loses() -> None:
    # repetition is judged before the 100-ply rule (the module's documented decision)
    p = pos("3k5/R8/9/9/9/9/9/9/9/5K3 w - - 92 1")
    cycle = ("a9-a10", "d10-d9", "a10-a9", "d9-d10")
    p = play(p, *cycle, *cycle)
    assert p.halfmove == 100 and p.repetitions() == 3
    outcome = p.outcome()
    assert outcome is not None and outcome.reason == "perpetual-check"


# --------------------------------------------------------------------------- pieces


def test_black_soldier_sideways_only_after_crossing_and_never_back() -> None:
    p = pos("3k5/9/9/9/2p6/9/9/9/9/5K3 b - - 0 1")  # c6: Black's own half
    assert {m for m in canonical(p) if m.startswith("c6")} == {"c6-c5"}
    with pytest.raises(IllegalMoveError, match="sideways only after crossing the river"):
        V.parse_move(p, "c6-b6")
    p = pos("3k5/9/9/9/9/2p6/9/9/9/5K3 b - - 0 1")  # c5: crossed
    assert {m for m in canonical(p) if m.startswith("c5")} == {"c5-c4", "c5-b5", "c5-d5"}
    with pytest.raises(IllegalMoveError, match="cannot move backwards"):
        V.parse_move(p, "c5-c6")


def test_a_soldier_on_the_last_rank_is_not_promoted() -> None:
    p = play(pos("3k5/4P4/9/9/9/9/9/9/9/5K3 w - - 0 1"), "e9-e10")
    assert p.pieces()[(4, 9)] == rules.Piece(0, "P")


def test_cannon_screen_may_be_of_either_colour() -> None:
    # own chariot b3 as the screen for the cannon on b1
    p = pos("3k5/1r7/9/9/9/9/9/1R7/9/1C2K4 w - - 0 1")
    assert "b1xb9" in canonical(p)
    # an enemy screen works too (the start position's h3xh10 goes over Black's cannon)
    assert "h3xh10" in canonical(V.start())


def test_black_elephant_stays_on_its_side_and_is_blocked_by_the_eye() -> None:
    p = pos("3k5/9/9/9/2b6/9/9/9/9/5K3 b - - 0 1")  # elephant c6 on the river bank
    assert {m for m in canonical(p) if m.startswith("c6")} == {"c6-a8", "c6-e8"}
    p = pos("3k5/9/9/3r5/2b6/9/9/9/9/5K3 b - - 0 1")  # d7 is the eye towards e8
    assert {m for m in canonical(p) if m.startswith("c6")} == {"c6-a8"}


def test_black_general_and_advisor_stay_in_their_palace() -> None:
    p = pos("3ak4/9/9/9/9/9/9/9/9/5K3 b - - 0 1")
    assert {m for m in canonical(p) if m.startswith("d10")} == {"d10-e9"}
    # e10 -> f10 would face Red's general on f1
    assert {m for m in canonical(p) if m.startswith("e10")} == {"e10-e9"}


def test_no_capture_duty() -> None:
    p = pos("3k5/9/9/9/9/9/9/9/r8/R3K4 w - - 0 1")
    # the chariot may take a2 or simply move on; the general may step aside (e2 is
    # covered by the black chariot, so only f1 is open)
    assert {"a1xa2", "a1-b1", "e1-f1"} <= canonical(p)
    assert play(p, "a1-b1").outcome() is None


def test_the_side_in_check_may_also_capture_the_checker_with_the_general() -> None:
    p = pos("3k5/9/9/9/9/9/9/9/4r4/4K4 w - - 0 1")
    # e1-d1 would face Black's general on d10
    assert p.in_check() and canonical(p) == {"e1xe2", "e1-f1"}


# --------------------------------------------------------------------------- WXF


def test_wxf_sideways_and_backward_numbers_for_black() -> None:
    # Black's chariot on a10 is on Black's file 1; going down the board is '+' for Black
    p = pos("r2k5/9/9/9/9/9/9/9/9/5K3 b - - 0 1")
    assert format_wxf(p, V.parse_move(p, "a10-a7")) == "R1+3"
    assert format_wxf(p, V.parse_move(p, "a10-c10")) == "R1.3"
    p = pos("3k5/9/9/9/9/9/9/r8/9/5K3 b - - 0 1")
    assert format_wxf(p, V.parse_move(p, "a3-a6")) == "R1-3"
    assert V.format_move(p, V.parse_move(p, "R1-3")) == "a3-a6"


def test_a_check_is_shown_beside_the_move_not_in_its_canonical_string() -> None:
    # RULES §6: side effects such as a check are not part of the canonical string
    p = pos("3k5/R8/9/9/9/9/9/9/9/5K3 w - - 0 1")
    m = V.parse_move(p, "a9-a10")
    assert p.play(m).in_check()
    assert V.format_move(p, m) == "a9-a10"
    assert V.display_move(p, m) == "a9-a10 (R9+1)"
