"""Transposition tables kept from one move's search to the next.

A search fills its table with the positions it weighed; two plies later (its own move
and the reply) the next search starts from one of them, usually on the line it expected,
with whole subtrees already weighed a few plies deep. Handing it the same table lets its
first iterations end almost at once, so the time goes to the plies beyond (what a
chess engine's hash table does between moves).

A table is only shared between searches that would store the same values for the same
position: the same game and options (the Zobrist keys do not tell Alquerque grande's
``fast`` from ``slow``, whose evaluations differ), the same model, the same team
searching (a four-seat search is paranoid: its values are the searching seat's against
the rest), the same quiescence, and no evaluation noise (a noisy level's values are its
own seed's). Only time-bound levels (7 and 8) hand their tables on; searches bound by
nodes (levels 1-6, analyses, puzzles) never share one: their moves must not depend on
what the process searched before, and a time-bound search already does.

A process keeps a few tables, the most recently used, and clears a table that has grown
past :data:`MAX_ENTRIES` before a search starts with it (a worker process serves many
matches: its memory stays bounded, about 40 MB).

>>> tables = KeptTables(keep=2, max_entries=3)
>>> a = tables.table(("alquerque", 0))
>>> a[1] = (1, 0, 0, None)
>>> tables.table(("alquerque", 0)) is a
True
>>> _ = tables.table(("damas", 0)), tables.table(("xiangqi", 0))
>>> tables.table(("alquerque", 0)) is a  # the oldest of three was dropped
False
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Hashable

Entry = tuple[int, int, int, Hashable | None]
"""A table entry: depth, bound flag, value, best move (:class:`engine.search.Search`)."""

KEEP = 4
"""Tables a process keeps (a four-seat game's engine plays two seats in some matches)."""
MAX_ENTRIES = 200_000
"""A kept table larger than this is cleared before its next search (level 8 stores about
a fifth of its nodes: 2 s at 100 000-250 000 nodes a second fills half of it)."""


class KeptTables:
    """The tables a process keeps between searches, by what makes them shareable."""

    def __init__(self, keep: int = KEEP, max_entries: int = MAX_ENTRIES) -> None:
        self._tables: OrderedDict[Hashable, dict[int, Entry]] = OrderedDict()
        self._keep = keep
        self._max_entries = max_entries

    def table(self, key: Hashable) -> dict[int, Entry]:
        """The table for searches described by ``key`` (a new, empty one the first time
        or once it grew too large)."""
        table = self._tables.pop(key, None)
        if table is None or len(table) > self._max_entries:
            table = {}
        self._tables[key] = table
        while len(self._tables) > self._keep:
            self._tables.popitem(last=False)
        return table

    def clear(self) -> None:
        self._tables.clear()


KEPT = KeptTables()
"""This process's kept tables (:func:`engine.player.choose_move` uses them)."""
