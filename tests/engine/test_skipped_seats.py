"""The computer copes with skipped seats (issue 43, ``on_timeout:skip``): the rules'
positions carry them (``Position.skipped_seats``), so the search plays on for the seat to
move, never for a skipped one, at every level; and a board of the engine's own for
Alquerque grande (where a model offers one) must walk such positions exactly as the rules
do, turn order and endings included."""

from __future__ import annotations

import random

import pytest

import engine
import rules
from engine.board import PositionBoard
from engine.models import model_for
from tests.engine.test_boards import agree

G = rules.variant("alquerque-grande")


def skipped_position(mode: str, seed: int) -> rules.Position:
    """A four-player game a few moves in, one seat skipped, still running."""
    rng = random.Random(seed)
    while True:
        p: rules.Position = G.start(players=4, mode=mode)
        for _ in range(rng.randrange(2, 10)):
            if p.outcome() is not None:
                break
            p = p.play(rng.choice(list(p.legal_moves())))
        if p.outcome() is None:
            p = G.skip_seat(p, rng.choice(sorted(set(range(4)) - p.out_seats())))
            if p.outcome() is None and p.skipped_seats():
                return p


@pytest.mark.parametrize("mode", ["fast", "slow", "teams"])
@pytest.mark.parametrize("level", [1, 4, 8])
def test_the_computer_plays_the_seat_to_move_and_never_a_skipped_one(mode: str,
                                                                    level: int) -> None:
    for seed in range(3):
        p = skipped_position(mode, seed)
        for _ in range(6):  # a few moves on, each chosen by the engine
            if p.outcome() is not None:
                break
            choice = engine.choose_move(p, level, seed=seed, nodes=400, seconds=5)
            assert choice.seat == p.mover and choice.seat not in p.skipped_seats()
            assert choice.move in p.legal_moves()
            p = p.play(choice.move)


@pytest.mark.parametrize("mode", ["fast", "slow", "teams"])
def test_the_searchs_board_walks_skipped_seats_as_the_rules_do(mode: str) -> None:
    for seed in range(4):
        root = skipped_position(mode, seed)
        model = model_for(root.variant, root)
        # the board the search walks: the model's own where it offers one
        board = model.board(root) or PositionBoard(model, root)
        rng = random.Random(seed)
        positions = [root]
        for _ in range(120):
            position = positions[-1]
            agree(board, position, model)
            if position.outcome() is None:
                assert not position.to_move & root.skipped_seats()
            if len(positions) > 1 and (position.outcome() is not None or rng.random() < 0.2):
                board.unmake()
                positions.pop()
                continue
            moves = board.moves()
            move = rng.choice(list(moves))
            board.make(move)
            positions.append(position.play(board.rules_move(move)))
