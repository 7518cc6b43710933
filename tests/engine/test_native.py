"""The compiled core and the pure-Python modules: the one that runs says so, a stale or
foreign build is never used, and both play the moves the reproducible-play fixture pins.

``scripts/bootstrap`` builds the compiled core where there is a C compiler, so this suite
runs on it in-process (``test_reproducible_play``) and here runs the fixture once more in
a process held to pure Python: both paths, in one run.
"""

from __future__ import annotations

import io
import json
import os
import random
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import redirect_stdout
from pathlib import Path
from typing import Any

import pytest

import rules
from bot.__main__ import main as tablero
from engine import choose_move
from engine.models import GameModel, Pieces, model_for
from engine.search import Limits, Search
from engine.selfplay import play_game, run
from rules import Position, native

ROOT = Path(__file__).resolve().parents[2]
FIXTURE = Path(__file__).parent / "data" / "reproducible_play.json"


@pytest.fixture
def cpu_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    """The engine's clock (``time.perf_counter``, read at every call, by the compiled
    modules too) is this process's CPU time, as the tests read it: a budget is kept or
    not whatever else the machine runs (a loaded machine stretched the wall clock past
    these tests' margins)."""
    monkeypatch.setattr(time, "perf_counter", time.process_time)


@pytest.fixture
def fresh_choice() -> Iterator[None]:
    """:func:`native.compiled` decided afresh, and remembered as it was afterwards."""
    native.compiled.cache_clear()
    yield
    native.compiled.cache_clear()


def test_version_says_which_engine_core_runs() -> None:
    """``tablero --version`` names the core: compiled when a fresh build is used, else
    pure Python, as the hot modules' files show."""
    out = io.StringIO()
    with redirect_stdout(out):
        assert tablero(["--version"]) == 0
    import engine.search

    expected = "compiled (mypyc)" if native.compiled() else "pure Python"
    assert native.running() == expected
    assert out.getvalue().strip().endswith(f"engine core: {expected}")
    assert engine.search.__file__.endswith(".py") == (expected == "pure Python")


def test_a_stale_foreign_or_refused_build_is_not_used(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fresh_choice: None) -> None:
    """The core is used only when its manifest matches the sources as they are now and
    this Python, and ``TABLERO_ENGINE_CORE=python`` is not set."""
    manifest = tmp_path / "manifest.json"
    monkeypatch.setattr(native, "MANIFEST", manifest)
    monkeypatch.delenv(native.ENVIRONMENT, raising=False)
    assert not native.compiled()  # never built
    native.compiled.cache_clear()
    manifest.write_text(json.dumps(native.fingerprint()))
    assert native.compiled()
    native.compiled.cache_clear()
    stale = {**native.fingerprint(), "engine.search": "0" * 64}  # a source edited since
    manifest.write_text(json.dumps(stale))
    assert not native.compiled()
    native.compiled.cache_clear()
    foreign = {**native.fingerprint(), "python": "cpython-99"}
    manifest.write_text(json.dumps(foreign))
    assert not native.compiled()
    native.compiled.cache_clear()
    manifest.write_text("{not json")
    assert not native.compiled()
    native.compiled.cache_clear()
    manifest.write_text(json.dumps(native.fingerprint()))
    monkeypatch.setenv(native.ENVIRONMENT, "python")
    assert not native.compiled()


def test_pure_python_plays_the_fixture_moves_too() -> None:
    """In a process held to pure Python, the engine plays the fixture's moves with its
    node counts, as the compiled core does in this one (``test_reproducible_play``)."""
    script = ("import json, sys; sys.path.insert(0, sys.argv[1]); "
              "from tests.engine.test_reproducible_play import record; "
              "from rules import native; import engine.search; "
              "print(json.dumps({'core': native.running(), 'played': record()}))")
    env = {**os.environ, native.ENVIRONMENT: "python"}
    done = subprocess.run([sys.executable, "-c", script, str(ROOT)], env=env,
                          capture_output=True, text=True, check=True, timeout=1800)
    answer = json.loads(done.stdout.strip().splitlines()[-1])
    assert answer["core"] == "pure Python"
    assert answer["played"] == json.loads(FIXTURE.read_text())


def test_levels_7_and_8_keep_to_the_time_budget_unless_asked_for_their_floors(
        cpu_clock: None) -> None:
    """Querni's level 8 has an 80 000-node floor (the ladder's setting); at a 0.3 s budget
    it stops on time, far short of it: the time promised per move is kept."""
    p = rules.variant("querni").start(seed=5)
    started = time.perf_counter()
    eight = choose_move(p, 8, seed=1, seconds=0.3, fairy=False)
    took = time.perf_counter() - started
    assert 0 < eight.nodes < 80_000
    assert took < 1.0
    assert eight.move in p.legal_moves()


def test_where_time_is_kept_the_search_stops_a_slow_node_early_enough(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A node that takes long (here 0.1 s: a Querni node ordering thousands of moves on
    a loaded machine) would carry the search past its time; where time is kept the
    search stops when the longest stretch seen between two clock readings would end
    past it. The clock is a fake one (each reading a microsecond on, each evaluation
    0.1 s), so a loaded machine cannot make the search late or early."""
    now = [1000.0]

    def clock() -> float:
        now[0] += 1e-6
        return now[0]

    class Slow(GameModel):
        def evaluate(self, position: Position[Any], pieces: Pieces) -> tuple[int, ...]:
            now[0] += 0.1
            return super().evaluate(position, pieces)

    monkeypatch.setattr(time, "perf_counter", clock)
    p = rules.variant("alquerque").start()
    started = clock()
    result = Search(Slow(), p, Limits(seconds=0.55, ceiling=0.55)).run()
    took = clock() - started
    assert result.stopped and result.nodes >= 3
    assert took < 0.55 + 0.01  # without the look ahead: up to 0.65


def test_a_time_bound_level_arranges_its_querni_stones_within_its_time(
        cpu_clock: None) -> None:
    """Level 8's arrangement (6 000 rounds of hill climbing, about half a second) stops
    at its deadline: at a 0.05 s budget it is chosen within it, still a legal
    arrangement; levels 1-6 (node-bound) and the ladder's floors do all their rounds
    whatever the time (the same arrangement for a seed)."""
    v = rules.variant("querni")
    p = v.start(setup="choose")
    started = time.perf_counter()
    eight = choose_move(p, 8, seat=0, seconds=0.05, fairy=False)
    assert time.perf_counter() - started < 0.5
    assert p.play(eight.move).in_setup  # a legal arrangement: the other seat's turn
    model = model_for(v, p)
    rounds = [model.arrange(p, 0, random.Random(4), 6000, 16, deadline)
              for deadline in (None, time.perf_counter() + 600, time.perf_counter())]
    assert rounds[0] == rounds[1] != rounds[2]
    six = [choose_move(p, 6, seat=0, seconds=seconds, fairy=False).move
           for seconds in (0.001, 60.0)]
    assert six[0] == six[1]


def test_selfplay_keeps_the_movetime_and_hands_on_floors_when_asked(
        monkeypatch: pytest.MonkeyPatch, cpu_clock: None) -> None:
    """``selfplay --movetime`` is kept by level 8 (Alquerque's floor: 48 000 nodes, about
    2 s here); ``floors`` (the ladder's reproducible setting) reaches every search."""
    record = play_game("alquerque", {}, [8, 0], seed=3, seconds=0.05, fairy=False,
                       opening=False)
    eights = [secs for level, secs in record.move_seconds if level == 8]
    assert eights and max(eights) < 0.5
    import engine.selfplay

    asked: list[bool] = []

    def spy(*args: Any, **kwargs: Any) -> Any:
        asked.append(kwargs["floors"])
        return choose_move(*args, **{**kwargs, "seconds": 60, "nodes": 50})

    monkeypatch.setattr(engine.selfplay, "choose_move", spy)
    run("alquerque", {}, [8, 0], games=1, seed=1, seconds=0.001, fairy=False, floors=True)
    assert asked and all(asked)
