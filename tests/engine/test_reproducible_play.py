"""The engine's play is pinned: short fixed-seed games in every configuration must play
the moves, with the node counts, recorded in ``data/reproducible_play.json``.

Levels 1-6 stop on node budgets and levels 7-8 (with a tiny time budget) on node floors,
so for a seed the engine's play is fully determined; the strength ladder
(``bench/bench_ladder.py``) relies on that. A speed-up must not change a single move or
the nodes a search visits. A change meant to change play (an evaluation, a level's
settings) regenerates the fixture, and says so in its commit::

    .venv/bin/python tests/engine/test_reproducible_play.py

The time budget of levels 1-6 is made huge here: a Querni search's first iteration
ignores the node budget, so a busy machine could otherwise cut it on time.
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path
from typing import Any

import pytest

import rules
from engine import choose_move
from engine.models import model_for

FIXTURE = Path(__file__).parent / "data" / "reproducible_play.json"
PLIES = 10
LEVELS = (5, 3)
"""Alternating by seat (5, 3, 5, 3 with four seats): both search and sometimes slip."""
NO_TIME_LIMIT = 1e6
FLOOR_GAME = "xiangqi"
"""Where level 7 is also played with a tiny time budget, so it stops on its node floor."""


def _label(key: str, options: dict[str, object]) -> str:
    return key + "".join(f" {k}={v}" for k, v in options.items())


def configurations() -> list[tuple[str, dict[str, object]]]:
    return [(key, opts) for key, v in rules.VARIANTS.items() for opts in v.option_sets()]


def play(key: str, options: dict[str, object]) -> dict[str, Any]:
    """``'move nodes'`` (canonical text) of :data:`PLIES` engine moves from the start
    (set-up arrangements first), and in :data:`FLOOR_GAME` a level-7 move on its floor."""
    v = rules.variant(key)
    p = v.start(**options)
    moves: list[str] = []
    ply = 0
    while p.outcome() is None and ply < PLIES:
        seat = min(p.to_move)
        level = LEVELS[seat % 2]
        choice = choose_move(p, level, seed=1000 * ply + seat, seconds=NO_TIME_LIMIT,
                             seat=seat, fairy=False)
        moves.append(f"{choice.text} {choice.nodes}")
        p = p.play(choice.move)
        ply += 1
    played: dict[str, Any] = {"moves": moves}
    if key == FLOOR_GAME and p.outcome() is None:
        choice = choose_move(p, 7, seed=7, seconds=1e-6, fairy=False, floors=True)
        played["floor"] = f"{choice.text} {choice.nodes}"
    return played


def record() -> dict[str, dict[str, Any]]:
    return {_label(key, opts): play(key, opts) for key, opts in configurations()}


@pytest.fixture(scope="module")
def expected() -> dict[str, dict[str, Any]]:
    loaded: dict[str, dict[str, Any]] = json.loads(FIXTURE.read_text())
    return loaded


@pytest.mark.parametrize(("key", "options"), configurations(),
                         ids=[_label(k, o) for k, o in configurations()])
def test_engine_plays_the_recorded_moves(key: str, options: dict[str, object],
                                         expected: dict[str, dict[str, Any]]) -> None:
    assert play(key, options) == expected[_label(key, options)]


def test_every_configuration_is_recorded(expected: dict[str, dict[str, Any]]) -> None:
    assert sorted(expected) == sorted(_label(k, o) for k, o in configurations())
    assert "floor" in expected[FLOOR_GAME]


@pytest.mark.parametrize(("key", "options"), configurations(),
                         ids=[_label(k, o) for k, o in configurations()])
def test_tactical_gains_agree_with_is_tactical_and_gain(key: str,
                                                       options: dict[str, object]) -> None:
    """The search asks ``tactical_gains`` once per node; the models' one-loop versions
    must answer what ``is_tactical`` and ``gain`` answer move by move."""
    v = rules.variant(key)
    rng = random.Random(key)
    p = v.start(**options)
    while p.in_setup:
        p = p.play(choose_move(p, 0, seed=1, seat=min(p.to_move)).move)
    tactical_seen = 0
    for _ in range(40):
        if p.outcome() is not None:
            break
        model, pieces, moves = model_for(v, p), p.pieces(), p.legal_moves()
        expected = [model.gain(p, pieces, m) if model.is_tactical(p, pieces, m) else None
                    for m in moves]
        assert model.tactical_gains(p, pieces, moves) == expected
        tactical_seen += sum(g is not None for g in expected)
        p = p.play(rng.choice(moves))
    assert tactical_seen  # the sample met captures (or removals)


if __name__ == "__main__":
    FIXTURE.parent.mkdir(exist_ok=True)
    FIXTURE.write_text(json.dumps(record(), indent=1) + "\n")
    print(f"wrote {FIXTURE}", file=sys.stderr)
