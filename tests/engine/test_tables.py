"""Transposition tables kept between a time-bound level's searches (engine/tables.py)."""

from __future__ import annotations

import itertools
import time
from typing import Any

import pytest

import rules
from engine import choose_move
from engine.tables import KEPT, KeptTables


@pytest.fixture
def tables_handed(monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    """The table each search of engine.player is handed (None: a fresh one). The time
    bound searches here read a clock that moves on 0.1 ms a reading (a time-bound search
    reads it at every node), so each searches a few hundred nodes however loaded the
    machine is: on the real clock, a loaded machine left a 0.05 s search too little time
    to store a position."""
    import engine.player
    from engine.search import Search

    handed: list[Any] = []

    def spy(model: Any, root: Any, limits: Any, table: Any = None) -> Search:
        # a function, not a subclass: the compiled Search cannot be subclassed here
        handed.append(table)
        return Search(model, root, limits, table=table)

    readings = itertools.count()
    KEPT.clear()
    monkeypatch.setattr(engine.player, "Search", spy)
    monkeypatch.setattr(time, "perf_counter", lambda: 1000.0 + next(readings) * 1e-4)
    return handed


def test_a_time_bound_level_hands_its_table_to_its_next_search(
        tables_handed: list[Any]) -> None:
    v = rules.variant("alquerque")
    p = v.start()
    first = choose_move(p, 8, seed=1, seconds=0.05)
    p = p.play(first.move)
    p = p.play(choose_move(p, 8, seed=2, seconds=0.05).move)
    choose_move(p, 8, seed=3, seconds=0.05)
    own, other, again = tables_handed
    assert own is not None and own is again and other is not own
    # what the first search stored is there for the third: the positions it weighed,
    # the one the game reached among them
    assert len(own) > 0


def test_node_bound_and_noisy_searches_start_afresh(tables_handed: list[Any]) -> None:
    p = rules.variant("xiangqi").start()
    choose_move(p, 8, seed=1, nodes=300, fairy=False)  # a node budget: reproducible, no history
    choose_move(p, 5, seed=1, fairy=False)  # level 5 stops on nodes and misjudges by its noise
    choose_move(p, 8, seed=1, seconds=0.05, fairy=False)
    assert tables_handed[:2] == [None, None] and tables_handed[2] is not None


def test_a_table_is_shared_only_where_its_values_mean_the_same(
        tables_handed: list[Any]) -> None:
    v = rules.variant("alquerque-grande")
    # fast and slow start alike and their keys agree, but they judge differently; in a
    # four-seat game each seat searches against the others (paranoid): its own table
    fast, slow = v.start(players=4, mode="fast"), v.start(players=4, mode="slow")
    choose_move(fast, 8, seed=1, seconds=0.05)
    choose_move(slow, 8, seed=1, seconds=0.05)
    after = fast.play(choose_move(fast, 8, seed=1, seconds=0.05).move)
    choose_move(after, 8, seed=1, seconds=0.05)
    fast_0, slow_0, fast_0_again, fast_1 = tables_handed
    assert fast_0 is fast_0_again
    assert len({id(fast_0), id(slow_0), id(fast_1)}) == 3


def test_a_process_keeps_a_few_tables_of_bounded_size() -> None:
    tables = KeptTables(keep=2, max_entries=2)
    table = tables.table("a")
    table.update({1: (1, 0, 0, None), 2: (1, 0, 0, None)})
    assert tables.table("a") is table  # at the bound: kept
    table[3] = (1, 0, 0, None)
    assert tables.table("a") == {}  # past it: cleared before the next search
    tables.table("b")
    tables.table("c")
    assert tables.table("a") == {}  # the least recently used of three went


def test_a_time_bound_search_runs_with_the_cycle_collector_held_off(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A full collection walks the kept tables too (80-110 ms measured in the middle of
    a 100 ms damas search): the search and the writing out of its line run without it,
    and the caller gets it back after."""
    import gc

    import engine.player
    from engine.search import Search

    collecting: list[bool] = []

    class Spy:
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            self.search = Search(*args, **kwargs)

        def run(self) -> Any:
            collecting.append(gc.isenabled())
            return self.search.run()

    line = engine.player._line

    def spied_line(*args: Any) -> Any:
        collecting.append(gc.isenabled())
        return line(*args)

    monkeypatch.setattr(engine.player, "Search", Spy)
    monkeypatch.setattr(engine.player, "_line", spied_line)
    p = rules.variant("damas").start()
    assert gc.isenabled()
    choose_move(p, 8, seed=1, seconds=0.05)  # by time: held off, the line written too
    choose_move(p, 8, seed=1, nodes=200)  # by nodes: nothing to keep
    assert collecting == [False, False, True, True] and gc.isenabled()
    gc.disable()
    try:
        choose_move(p, 8, seed=1, seconds=0.05)
        assert not gc.isenabled()  # the caller's choice stands
    finally:
        gc.enable()
