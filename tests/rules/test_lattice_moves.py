"""The Alquerque boards' capture search (rules/lattice_moves.py, compiled in the core)
against a plain walk of every jump sequence: the same moves, each written by its smallest
path (RULES §6), the same notes (whether the sequence could go on) and the same most
captures, on random boards of either size."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from rules.lattice import Lattice, Move
from rules.lattice_moves import capture_search, masks

GRIDS = {5: Lattice(5), 7: Lattice(7)}


Sequence = tuple[tuple[int, ...], tuple[int, ...]]
"""A jump sequence: its path and the points of the pieces it takes, in order."""


def every_sequence(grid: Lattice, cells: list[int], start: int, avoid: int,
                   ) -> dict[tuple[int, frozenset[int]], list[Sequence]]:
    """Per (point reached, pieces taken): every jump sequence of the piece on ``start``
    reaching it (path, captured in order), taken pieces leaving the board at once."""
    found: dict[tuple[int, frozenset[int]], list[Sequence]] = {}

    def walk(at: int, path: tuple[int, ...], taken: tuple[int, ...]) -> None:
        for over, land, _, _ in grid.jumps[at]:
            free = land == start or land in taken or not cells[land]
            if cells[over] == 2 and over not in taken and free and land != avoid:
                longer, more = (*path, land), (*taken, over)
                found.setdefault((land, frozenset(more)), []).append((longer, more))
                walk(land, longer, more)

    walk(start, (start,), ())
    return found


def can_go_on(grid: Lattice, cells: list[int], start: int, at: int, taken: frozenset[int],
              avoid: int) -> bool:
    return any(cells[over] == 2 and over not in taken and land != avoid
               and (land == start or land in taken or not cells[land])
               for over, land, _, _ in grid.jumps[at])


@settings(max_examples=300, deadline=None)
@given(size=st.sampled_from([5, 7]), data=st.data(), prefixes=st.booleans())
def test_the_capture_search_finds_every_sequence_by_its_smallest_path(
        size: int, data: st.DataObject, prefixes: bool) -> None:
    grid = GRIDS[size]
    cells = data.draw(st.lists(st.sampled_from([0, 0, 2, 2, 1]), min_size=grid.count,
                               max_size=grid.count))
    start = data.draw(st.integers(0, grid.count - 1))
    cells[start] = 1
    avoid = data.draw(st.sampled_from([-1, *range(grid.count)]))
    enemy = (False, False, True)
    moves: dict[Move, int] = {}
    enemies, occupied = masks(cells, enemy)
    most = capture_search(moves, enemies, occupied, start, grid.jumps, grid.jumps, avoid,
                          prefixes)

    def text(path: tuple[int, ...]) -> str:
        return "x".join(grid.names[i] for i in path)

    expected: dict[Sequence, int] = {}
    for (at, taken), ways in every_sequence(grid, cells, start, avoid).items():
        more = can_go_on(grid, cells, start, at, taken, avoid)
        if prefixes or not more:
            path, captured = min(ways, key=lambda way: text(way[0]))
            expected[path, captured] = int(more)
    assert {(m[0], m[1]): note for m, note in moves.items()} == expected
    assert most == max((len(c) for _, c in expected), default=0)
    assert len(moves) == len(expected)
