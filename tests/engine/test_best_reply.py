"""Best-reply search (Alquerque grande's level 8 with four individual seats): the board
hands the move to any seat exactly as the rules would have it moving, and the search's
values are those of best-reply minimax written out from its definition on the rules'
own positions."""

from __future__ import annotations

import dataclasses
import random
from typing import Any

import pytest

import rules
from engine.levels import LEVELS
from engine.models import model_at_level
from engine.models.alquerque_grande import (
    AlquerqueGrandeBestReplyModel,
    AlquerqueGrandeTopModel,
)
from engine.search import WIN, Limits, Search, place_share
from rules import Outcome, Position
from tests.engine.test_boards import (
    agree,
    best_tactical,
    grande_captures,
    on_positions,
    tactical_order,
)

GRANDE = rules.variant("alquerque-grande")


def _game(mode: str, seed: int, plies: int) -> Position[Any]:
    """A position ``plies`` into a seeded game of ``mode`` (captures taken mostly)."""
    p = GRANDE.start(players=4, mode=mode)
    rng = random.Random(f"{mode}:{seed}")
    for _ in range(plies):
        moves = p.legal_moves()
        if p.outcome() is not None:
            break
        board = AlquerqueGrandeTopModel().board(p)
        assert board is not None
        p = p.play(moves[grande_captures(board, board.moves(), [], rng)])
    assert p.outcome() is None
    return p


def _as_mover(position: Position[Any], seat: int) -> Position[Any]:
    """``position`` with ``seat`` to move (the seats between passing)."""
    return dataclasses.replace(position, turn=seat)  # type: ignore[type-var]


@pytest.mark.parametrize("mode", ["fast", "slow"])
def test_the_grande_board_hands_the_move_to_any_seat_as_the_rules_would(mode: str) -> None:
    """After ``pass_to(seat)`` the board answers as the rules' position with that seat
    to move (moves, key, evaluation), a move made from there as the rules' ``play`` of
    it, and taking both back restores the position; a seat without a move is refused
    and nothing changes."""
    model = AlquerqueGrandeBestReplyModel()
    rng = random.Random(mode)
    for seed in range(4):
        root = _game(mode, seed, 6 + 5 * seed)
        board = model.board(root)
        assert board is not None and board.plays_out_of_turn()
        positions = [root]
        for _ in range(60):
            position = positions[-1]
            if position.outcome() is not None:
                board.unmake()
                positions.pop()
                continue
            seat = rng.randrange(4)
            passed = board.pass_to(seat)
            there = _as_mover(position, seat)
            assert passed == (seat not in position.out_seats()
                              and bool(there.legal_moves()))
            if not passed:
                agree(board, position, model)
                continue
            agree(board, there, model)
            i = grande_captures(board, board.moves(), [], rng)
            board.make(board.moves()[i])
            positions.append(there.play(there.legal_moves()[i]))
            agree(board, positions[-1], model)
            if rng.random() < 0.3:
                board.unmake()
                positions.pop()
                board.unmake()
                agree(board, positions[-1], model)
        board.rewind()
        agree(board, root, model)


def _reference(model: Any, root: Position[Any], depth: int) -> dict[Any, int]:
    """Per root move, its best-reply minimax value for the seat to move, written out
    on the rules' positions: the seat's move, then the one strongest reply of any rival
    while the other rivals, in turn order, take their best capture or pass (a rival's
    moves are listed as they stand when its turn comes), then the seat again, and so
    on; a leaf is the evaluation (own minus the rivals' mean), a finish a win or its
    place."""
    me = root.mover
    rivals = [(me + i) % 4 for i in (1, 2, 3)]

    def terminal(outcome: Outcome, ply: int) -> int:
        if me in outcome.winners:
            return WIN - ply
        share = place_share(outcome.ranking, me, 3)
        return round(model.place_value * (share - 0.5))

    def static(p: Position[Any]) -> int:
        scores = model.evaluate(p, p.pieces())
        return scores[me] - sum(scores[s] for s in rivals) // 3

    def moving(p: Position[Any], seat: int) -> Position[Any] | None:
        """``p`` with ``seat`` to move, None when it is out or has no move."""
        if seat in p.out_seats():
            return None
        there = _as_mover(p, seat)
        return there if there.legal_moves() else None

    def capture(p: Position[Any]) -> Any:
        moves = p.legal_moves()
        return best_tactical(tactical_order(moves, model.tactical_gains(p, p.pieces(), moves)),
                             None)

    def mine(p: Position[Any], depth: int, ply: int) -> int:
        if depth == 0:
            return static(p)
        return max(after_mine(p.play(m), depth - 1, ply + 1) for m in p.legal_moves())

    def after_mine(p: Position[Any], depth: int, ply: int) -> int:
        outcome = p.outcome()
        if outcome is not None:
            return terminal(outcome, ply)
        return mine(p, depth, ply) if p.mover == me else theirs(p, depth, ply)

    def theirs(p: Position[Any], depth: int, ply: int) -> int:
        if depth == 0:
            return static(p)
        values = []
        q = p
        for i, seat in enumerate(rivals):
            there = moving(q, seat)
            if there is None:
                continue
            values += [reply(p, seat, m, depth - 1, ply + 1) for m in there.legal_moves()]
            taken = capture(there)
            if i < 2 and taken is not None:
                q = there.play(taken)
                if q.outcome() is not None:
                    break
        return min(values) if values else static(p)

    def reply(p: Position[Any], replier: int, move: Any, depth: int, ply: int) -> int:
        for seat in rivals:
            there = moving(p, seat)
            if there is None:
                continue
            chosen = move if seat == replier else capture(there)
            if chosen is None:
                continue
            p = there.play(chosen)
            outcome = p.outcome()
            if outcome is not None:
                return terminal(outcome, ply)
        back = moving(p, me)
        return mine(back, depth, ply) if back is not None else theirs(p, depth, ply)

    return {m: after_mine(root.play(m), depth - 1, 1) for m in root.legal_moves()}


class _Plain(AlquerqueGrandeBestReplyModel):
    """Best reply without the mobility term (the reference leaves it out)."""

    mobility_weight = 0


@pytest.mark.parametrize(("mode", "seed", "plies", "depth"), [
    ("fast", 0, 6, 2), ("fast", 1, 11, 3), ("slow", 2, 9, 2), ("slow", 3, 20, 3),
])
def test_best_reply_search_finds_the_values_of_best_reply_minimax(
        mode: str, seed: int, plies: int, depth: int) -> None:
    """The search's score is the best root value of the reference, its move one of the
    root moves with that value, and a root move searched alone scores its value."""
    model = _Plain()
    root = _game(mode, seed, plies)
    values = _reference(model, root, depth)
    result = Search(model, root, Limits(depth=depth, quiescence=0)).run()
    assert result.depth == depth
    assert result.score == max(values.values())
    assert values[result.move] == result.score
    for move in list(values)[:8]:  # each move's own value, searched alone
        alone = Search(model, root, Limits(depth=depth, quiescence=0), root_moves=[move])
        assert alone.run().score == values[move], move


def test_best_reply_and_paranoid_search_are_different_trees() -> None:
    """The same positions searched paranoid (the level-7 model) reach other values:
    the reference is not a tree the paranoid search would also match."""
    differ = 0
    for mode, seed, plies in (("fast", 1, 11), ("slow", 3, 20), ("fast", 0, 6)):
        root = _game(mode, seed, plies)
        brs = Search(_Plain(), root, Limits(depth=3, quiescence=0)).run()

        class Paranoid(AlquerqueGrandeTopModel):
            mobility_weight = 0

        paranoid = Search(Paranoid(), root, Limits(depth=3, quiescence=0)).run()
        differ += brs.score != paranoid.score
    assert differ


def test_a_board_that_cannot_pass_the_move_is_searched_paranoid() -> None:
    """Where the board cannot play a move out of turn (the rules' positions), the
    best-reply model searches as the paranoid one: same move, score and nodes."""
    root = _game("fast", 1, 11)
    limits = Limits(nodes=2000, depth=4)
    plain = Search(on_positions(AlquerqueGrandeBestReplyModel()), root, limits).run()
    paranoid = Search(on_positions(AlquerqueGrandeTopModel()), root, limits).run()
    assert (plain.move, plain.score, plain.nodes) == (
        paranoid.move, paranoid.score, paranoid.nodes)


@pytest.mark.parametrize(("options", "best_reply"), [
    ({"players": 4, "mode": "fast"}, True), ({"players": 4, "mode": "slow"}, True),
    ({"players": 4, "mode": "teams"}, False), ({"players": 2}, False),
])
def test_only_level_8_of_four_rivals_searches_best_reply(options: dict[str, object],
                                                         best_reply: bool) -> None:
    """Level 8 of ``fast`` and ``slow``; two sides (teams, two players) have no rivals
    to choose a reply among, and level 7 stays paranoid (the ladder below is kept)."""
    p = GRANDE.start(**options)
    assert model_at_level(p, LEVELS[8])[0].best_reply is best_reply
    assert model_at_level(p, LEVELS[7])[0].best_reply is False


def test_a_search_told_to_keep_turn_order_is_paranoid() -> None:
    """``Limits(best_reply=False)`` (puzzles: their lines are played in turn order) makes
    the best-reply model search as the paranoid one."""
    root = _game("slow", 2, 9)
    told = Search(AlquerqueGrandeBestReplyModel(), root,
                  Limits(nodes=2000, best_reply=False)).run()
    paranoid = Search(AlquerqueGrandeTopModel(), root, Limits(nodes=2000)).run()
    assert (told.move, told.score, told.nodes, told.pv) == (
        paranoid.move, paranoid.score, paranoid.nodes, paranoid.pv)


def test_puzzles_are_searched_in_turn_order(monkeypatch: pytest.MonkeyPatch) -> None:
    """The puzzle miner's searches of a four-rival position keep turn order."""
    import engine.puzzles

    told: list[bool] = []

    def recorded(model: Any, root: Position[Any], limits: Limits, *args: Any,
                 **kwargs: Any) -> Search:
        told.append(limits.best_reply)
        return Search(model, root, limits, *args, **kwargs)

    monkeypatch.setattr(engine.puzzles, "Search", recorded)
    for seed in range(3):
        engine.puzzles.find_tactic(_game("fast", seed, 8 + seed), nodes=300)
    assert told and not any(told)
