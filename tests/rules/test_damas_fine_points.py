"""Spanish draughts (RULES §4): the fine points test_damas.py leaves uncaught.

Each test names the clause it guards; tests/rules/RULES_COVERAGE.md maps every clause.
Positions are written with square names (``"d3"``, ``"Kh1"`` for a king).
"""

from __future__ import annotations

import pytest

import rules
from rules import AmbiguousMoveError, IllegalMoveError
from rules.notation import point_name
from tests.rules.helpers.damas import V, kinds, legal, play, pos

# --------------------------------------------------------------------------- captures


def test_a_king_may_cross_the_same_empty_square_twice_mid_move() -> None:
    # g4xd7 passes f5; after a4 and c2 the king passes f5 again on its way to h7
    p = pos("W", ["Kg4"], ["h3", "b3", "b5", "g6", "e6", "a8"])
    assert legal(p) == ["g4xd7xa4xc2xh7"]
    after = play(p, "g4xd7xa4xc2xh7")
    assert kinds(after) == {"h7": (0, "king"), "h3": (1, "man"), "a8": (1, "man")}


def test_quality_rule_counts_kings_for_a_capturing_king() -> None:
    # h7 can take two pieces either way: e4 (king) + c4 (man), or e4 + b3 (both kings)
    p = pos("W", ["Kh7"], ["Kb3", "Ke4", "c4", "a8"])
    assert legal(p) == ["h7xc2xa4"]
    with pytest.raises(IllegalMoveError, match="must take the most kings"):
        V.parse_move(p, "h7xd3xb5")


def test_a_king_cannot_jump_its_own_piece() -> None:
    p = pos("W", ["Kh1", "f3"], ["d5", "a8"])
    assert not any("x" in m for m in legal(p))
    with pytest.raises(IllegalMoveError, match="cannot jump your own piece on f3"):
        V.parse_move(p, "h1xe4")


def test_a_black_man_capturing_onto_rank_one_is_crowned_and_stops() -> None:
    p = pos("B", ["c2", "Kg8"], ["d3"])
    assert legal(p) == ["d3xb1"]
    after = play(p, "d3xb1")
    assert kinds(after)["b1"] == (1, "king") and after.to_move == {0}


def test_pdn_short_capture_form_that_fits_two_moves_is_ambiguous() -> None:
    p = pos("W", ["e2"], ["f3", "f5", "d3", "d5"])
    with pytest.raises(AmbiguousMoveError) as err:
        V.parse_move(p, "6x22")
    assert set(err.value.candidates) == {"e2xc4xe6", "e2xg4xe6"}
    assert V.format_move(p, V.parse_move(p, "6x15x22")) == "e2xc4xe6"


# --------------------------------------------------------------------------- repetition


def test_repetition_needs_the_same_side_to_move() -> None:
    # White's king goes round d1 -> c2 -> b3 -> d1 (three plies) while Black's swings
    # a8 <-> b7: the placement returns with Black to move.
    start = pos("W", ["Kd1"], ["Ka8"])
    p = play(start, "d1-c2", "a8-b7", "c2-b3", "b7-a8", "b3-d1")
    assert p.pieces() == start.pieces() and p.turn != start.turn
    p = play(p, "a8-b7", "d1-c2", "b7-a8", "c2-d1")
    # three times the same placement, but only twice with Black to move
    assert p.pieces() == start.pieces() and p.outcome() is None


# --------------------------------------------------------------------------- 40 king plies


def test_the_opponents_man_move_resets_the_king_ply_count() -> None:
    p = pos("W", ["Kb1"], ["Ka8", "h5"], ":H38")
    p = play(p, "b1-c2")
    assert p.king_plies == 39
    p = play(p, "h5-g4")
    assert p.king_plies == 0 and p.outcome() is None


def test_a_man_capture_resets_the_king_ply_count() -> None:
    p = pos("W", ["c4", "Kb1"], ["d5", "Ka8"], ":H38")
    assert play(p, "c4xe6").king_plies == 0


# --------------------------------------------------------------------------- three kings


def test_three_kings_count_starts_when_a_king_reaches_the_long_diagonal() -> None:
    p = pos("W", ["Ke6", "Kb1", "Kd1"], ["Ka6"])
    assert p.three_kings is None
    p = play(p, "e6-d5")  # now the condition holds: the count starts at 0
    assert p.three_kings == 0
    p = play(p, "a6-b5")
    assert p.three_kings == 0
    p = play(p, "b1-a2")
    assert p.three_kings == 1


def test_the_lone_king_on_the_long_diagonal_does_not_start_the_count() -> None:
    assert pos("W", ["Ke6", "Kb1", "Kd1"], ["Kc6"]).three_kings is None


def test_three_kings_count_starts_when_a_capture_makes_the_material() -> None:
    # White still has a man: no count; Black's king takes it, leaving three kings
    # (b7 on the long diagonal) against one
    p = pos("B", ["Kb7", "Kb1", "Kd1", "g4"], ["Ke6"])
    assert p.three_kings is None
    p = play(p, "e6xh3")
    assert p.three_kings == 0
    p = play(p, "b1-a2")
    assert p.three_kings == 1


def test_three_kings_count_for_black_as_the_strong_side() -> None:
    p = pos("B", ["Ka2"], ["Kc6", "Kg8", "Ke8"], ":T12")
    assert p.outcome() is None
    p = play(p, "g8-h7")
    assert p.three_kings == 13
    assert p.outcome() == rules.Outcome.draw(seats=2, reason="three-kings")


# --------------------------------------------------------------------------- reference


def _reference_moves(board: dict[tuple[int, int], tuple[int, bool]],
                     turn: int) -> set[tuple[tuple[int, int], tuple[int, int],
                                             frozenset[tuple[int, int]]]]:
    """RULES §4 rules 1-6 written out directly on a dict board (slow, obvious)."""
    forward = 1 if turn == 0 else -1
    diagonals = ((1, 1), (1, -1), (-1, 1), (-1, -1))

    def on(q: tuple[int, int]) -> bool:
        return 0 <= q[0] < 8 and 0 <= q[1] < 8

    found: list[tuple[tuple[int, int], tuple[int, int], frozenset[tuple[int, int]]]] = []
    for start, (seat, king) in board.items():
        if seat != turn:
            continue

        def empty(q: tuple[int, int], start: tuple[int, int] = start) -> bool:
            return on(q) and (q not in board or q == start)

        def enemy(q: tuple[int, int], taken: frozenset[tuple[int, int]]) -> bool:
            return q in board and board[q][0] != turn and q not in taken

        def jumps(at: tuple[int, int], taken: frozenset[tuple[int, int]],
                  king: bool = king) -> list[tuple[tuple[int, int], tuple[int, int]]]:
            """(victim, landing) pairs from ``at``."""
            out = []
            for dx, dy in diagonals:
                if not king:
                    if dy != forward:
                        continue
                    over, land = (at[0] + dx, at[1] + dy), (at[0] + 2 * dx, at[1] + 2 * dy)
                    if enemy(over, taken) and empty(land):
                        out.append((over, land))
                    continue
                q = (at[0] + dx, at[1] + dy)
                while empty(q):
                    q = (q[0] + dx, q[1] + dy)
                if not enemy(q, taken):
                    continue  # off the board, own piece, or a piece already taken
                land = (q[0] + dx, q[1] + dy)
                while empty(land):
                    out.append((q, land))
                    land = (land[0] + dx, land[1] + dy)
            return out

        def walk(at: tuple[int, int], taken: frozenset[tuple[int, int]],
                 start: tuple[int, int] = start) -> None:
            options = jumps(at, taken)
            if not options:
                if taken:
                    found.append((start, at, taken))
                return
            going_on = [(v, land) for v, land in options if jumps(land, taken | {v})]
            for victim, land in going_on or options:
                walk(land, taken | {victim})

        walk(start, frozenset())
    if found:
        def score(move: tuple[object, object, frozenset[tuple[int, int]]]) -> tuple[int, int]:
            return len(move[2]), sum(1 for q in move[2] if board[q][1])
        best = max(score(m) for m in found)
        return {m for m in found if score(m) == best}
    quiet = set()
    for start, (seat, king) in board.items():
        if seat != turn:
            continue
        for dx, dy in diagonals:
            if not king and dy != forward:
                continue
            q = (start[0] + dx, start[1] + dy)
            while on(q) and q not in board:
                quiet.add((start, q, frozenset()))
                if not king:
                    break
                q = (q[0] + dx, q[1] + dy)
    return quiet


def test_move_generation_matches_a_direct_reference_in_king_rich_positions() -> None:
    import random

    from rules.damas import POINT

    rng = random.Random(2024)
    squares = [POINT[n] for n in range(1, 33)]
    checked = 0
    while checked < 3000:
        chosen = rng.sample(squares, rng.randint(3, 11))
        board: dict[tuple[int, int], tuple[int, bool]] = {}
        for i, q in enumerate(chosen):
            seat = i % 2
            king = rng.random() < 0.5 or q[1] == (7 if seat == 0 else 0)
            board[q] = (seat, king)
        if {s for s, _ in board.values()} != {0, 1}:
            continue
        white = [("K" if k else "") + point_name(*q) for q, (s, k) in board.items() if s == 0]
        black = [("K" if k else "") + point_name(*q) for q, (s, k) in board.items() if s == 1]
        turn = rng.randrange(2)
        p = pos("WB"[turn], white, black)
        got = {(POINT[m.start], POINT[m.end], frozenset(POINT[c] for c in m.captured))
               for m in p.legal_moves()}
        assert got == _reference_moves(board, turn), p.to_text()
        checked += 1
