"""Querni (RULES §5): the fine points test_querni.py leaves uncaught.

Each test names the clause it guards; tests/rules/RULES_COVERAGE.md maps every clause.
"""

from __future__ import annotations

import pytest

import rules
from rules import IllegalMoveError
from rules.querni import QuerniPosition
from tests.rules.helpers.querni import make, play, v


def test_a_movement_followed_by_a_removal_resets_the_quiet_count() -> None:
    p = make({"a1": 1, "b1": 2, "d1": 3, "j1": 9}, {"h7": 1, "i7": 2, "j7": 3}, quiet=29)
    after = play(p, "d1-c2 r1-3")
    assert after.quiet == 0 and after.outcome() is None
    # the count then runs again from the next turn, whoever plays it
    assert play(after, "h7-g6").quiet == 1
    # the same movement without the removal is the 30th quiet turn: a draw
    drawn = play(p, "d1-c2")
    assert drawn.outcome() == rules.Outcome.draw(seats=2, reason="move-limit")


def test_pink_removing_its_last_stones_wins_for_pink() -> None:
    # Pink completes its last chain with a movement and takes it off in the same turn
    p = make({"a1": 1, "b1": 2, "c1": 3}, {"h7": 4, "i7": 5, "j5": 6}, turn=1)
    after = play(p, "j5-j6 r4-6")
    outcome = after.outcome()
    assert outcome is not None and outcome.reason == "all-removed"
    assert outcome.winners == {1} and outcome.ranking == (frozenset({1}), frozenset({0}))
    assert after.removed_counts() == (p.removed_counts()[0], 16)


def test_the_win_is_judged_before_no_chains_for_pink_too() -> None:
    # after Pink's last removal Blue has no three consecutive numbers: still Pink's win
    p = make({"a1": 1, "b1": 2, "c1": 9}, {"h7": 4, "i7": 5, "j7": 6}, turn=1)
    outcome = play(p, "r4-6").outcome()
    assert outcome is not None and outcome.reason == "all-removed" and outcome.winners == {1}


def test_a_stone_is_never_removed_by_the_other_player() -> None:
    # Blue cannot name Pink's numbers: removals read the mover's own stones only
    p = make({"a1": 7, "b1": 8, "j1": 1}, {"h7": 1, "i7": 2, "j7": 3})
    with pytest.raises(IllegalMoveError, match="no stone 2"):
        v.parse_move(p, "r1-3")
    assert all(t.removal is None for t in p.legal_moves())


def test_jump_sequences_keep_both_coordinates_parity() -> None:
    # RULES: while a stone jumps its start cell counts as empty. A jump moves two cells
    # along a line, so every landing cell shares the start's x and y parity and the
    # jumping stone never stands next to its start: the start cell can never be the
    # jumped-over cell, only a landing cell, which is refused. Pinned here so a change
    # to the board geometry or jump shape re-opens the question.
    p = v.start(seed=9)
    assert isinstance(p, QuerniPosition)
    for start in p.pieces():
        for end in p.reachable(start):
            if max(abs(end[0] - start[0]), abs(end[1] - start[1])) > 1:
                assert (end[0] - start[0]) % 2 == 0 and (end[1] - start[1]) % 2 == 0
