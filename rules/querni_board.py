"""Querni's board (RULES §5) on cell arrays, for :mod:`rules.querni` (positions, notation,
the variant): the 10×7 cells and their neighbours, stone codes, the seeded deal, removable
runs, and the jump paths a movement may take.

A board is a sequence of 70 cell values, ``y * 10 + x``: 0 for empty or a stone code
``seat * 16 + number`` (1..16 Blue, 17..32 Pink).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from functools import lru_cache

from rules.core import Piece, Point
from rules.notation import point_name

WIDTH, HEIGHT = 10, 7
SIZE = WIDTH * HEIGHT
STONES = 16
MIN_CHAIN = 3

POINTS: tuple[Point, ...] = tuple((i % WIDTH, i // WIDTH) for i in range(SIZE))
NAMES: tuple[str, ...] = tuple(point_name(x, y) for x, y in POINTS)
_INDEX: dict[str, int] = {name: i for i, name in enumerate(NAMES)}


def _cells(names: str) -> tuple[int, ...]:
    return tuple(_INDEX[n] for n in names.split())


START_CELLS: tuple[tuple[int, ...], tuple[int, ...]] = (
    _cells("a1 b1 c1 h1 i1 j1 a2 c2 h2 j2 a3 b3 c3 h3 i3 j3"),
    _cells("a5 b5 c5 h5 i5 j5 a6 c6 h6 j6 a7 b7 c7 h7 i7 j7"),
)
"""Each seat's start cells (as cell indices ``y * 10 + x``) in arrangement order."""
MARKED_CELLS: tuple[Point, ...] = ((1, 1), (8, 1), (1, 5), (8, 5))
"""The marked corner cells ``b2 i2 b6 i6`` (empty at the start; drawn specially)."""

_DIRECTIONS = ((1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1))


def is_on_board(x: int, y: int) -> bool:
    return 0 <= x < WIDTH and 0 <= y < HEIGHT


NEIGHBOURS: tuple[tuple[int, ...], ...] = tuple(
    tuple((y + dy) * WIDTH + x + dx for dx, dy in _DIRECTIONS if is_on_board(x + dx, y + dy))
    for x, y in POINTS)
ADJACENT: tuple[int, ...] = tuple(sum(1 << n for n in ns) for ns in NEIGHBOURS)
"""Bit masks: bit j of ``ADJACENT[i]`` is set when cells i and j touch."""
_JUMPS: tuple[tuple[tuple[int, int], ...], ...] = tuple(
    tuple(((y + dy) * WIDTH + x + dx, (y + 2 * dy) * WIDTH + x + 2 * dx)
          for dx, dy in _DIRECTIONS if is_on_board(x + 2 * dx, y + 2 * dy))
    for x, y in POINTS)
"""Per cell: (jumped cell, landing cell) for every straight jump that stays on the board."""

# A cell holds 0 (empty) or a stone code: seat * 16 + number (1..16 Blue, 17..32 Pink).


def seat_of(code: int) -> int:
    return (code - 1) >> 4


def number_of(code: int) -> int:
    return ((code - 1) & 15) + 1


PIECE_OF_CODE: tuple[Piece, ...] = tuple(Piece(seat_of(code), str(number_of(code)))
                                          for code in range(33))
"""The piece each stone code shows (index 0 unused), made once: ``pieces()`` runs at every
node of an engine search."""


# --------------------------------------------------------------------------- the deal

_MASK64 = (1 << 64) - 1


def splitmix64(state: int) -> tuple[int, int]:
    """One SplitMix64 step: ``(new state, 64-bit output)``.

    >>> hex(splitmix64(0)[1])
    '0xe220a8397b1dcdaf'
    """
    state = (state + 0x9E3779B97F4A7C15) & _MASK64
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
    return state, z ^ (z >> 31)


def deal(seed: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The random arrangements of ``setup="random"``, reproducible everywhere.

    The state starts as ``seed mod 2**64``. For Blue, then Pink (one continuing stream),
    the list 1..16 is Fisher–Yates shuffled: for i = 15 down to 1, swap entries i and
    ``splitmix64_output mod (i + 1)`` (the modulo bias is below 1e-17).

    >>> deal(0)[0]
    (3, 11, 15, 12, 7, 2, 6, 14, 9, 4, 5, 8, 13, 10, 1, 16)
    """
    state = seed & _MASK64
    result: list[tuple[int, ...]] = []
    for _ in range(2):
        numbers = list(range(1, STONES + 1))
        for i in range(STONES - 1, 0, -1):
            state, out = splitmix64(state)
            j = out % (i + 1)
            numbers[i], numbers[j] = numbers[j], numbers[i]
        result.append(tuple(numbers))
    return result[0], result[1]




# --------------------------------------------------------------------------- chain helpers


@lru_cache(maxsize=1 << 15)
def runs_of_links(links: int) -> tuple[tuple[int, int], ...]:
    """Every removable run for a link mask (bit n: stones n and n+1 both there, touching)."""
    runs: list[tuple[int, int]] = []
    n = 1
    while n < STONES:
        if links >> n & 1:
            top = n
            while top < STONES and links >> top & 1:
                top += 1
            # stones n..top form a maximal chain; every sub-run of >= 3 is removable
            for low in range(n, top - 1):
                for high in range(low + MIN_CHAIN - 1, top + 1):
                    runs.append((low, high))
            n = top
        n += 1
    return tuple(runs)


def link_mask(where: Sequence[int]) -> int:
    links = 0
    for n in range(1, STONES):
        a, b = where[n], where[n + 1]
        if a >= 0 and b >= 0 and ADJACENT[a] >> b & 1:
            links |= 1 << n
    return links


def has_three_in_a_row(present: int) -> bool:
    """Whether a number mask (bit n = number n on the board) holds n, n+1, n+2."""
    return bool(present & (present >> 1) & (present >> 2))


def _jumps_from(cells: Sequence[int], start: int) -> dict[int, tuple[int, int, bool]]:
    """Breadth-first jump search from ``start`` with the landing limits only: for every
    cell reached, ``(parent, jumped cells of its tree path as a bit mask, whether that
    path jumps some cell twice)``. The start is included as its own parent.

    The start cell is empty while the stone jumps, so there is nothing there to jump over,
    and landing on it is forbidden (it holds the stone in ``cells``, so it is not 0).
    """
    tree: dict[int, tuple[int, int, bool]] = {start: (start, 0, False)}
    queue = [start]
    for c in queue:
        _, jumped, twice = tree[c]
        for over, land in _JUMPS[c]:
            if not cells[land] and cells[over] and over != start and land not in tree:
                bit = 1 << over
                tree[land] = (c, jumped | bit, twice or bool(jumped & bit))
                queue.append(land)
    return tree


def _open_reach(cells: Sequence[int], start: int, at: int, landed: int, jumped: int) -> int:
    """Bit mask of the cells a sequence standing on ``at`` could still land on if from now
    on only the cells already landed on (``landed``) and jumped over (``jumped``) were
    barred: an upper bound on what it can reach, which prunes the search below."""
    seen = 0
    stack = [at]
    while stack:
        c = stack.pop()
        for over, land in _JUMPS[c]:
            bit = 1 << land
            if cells[land] or not cells[over] or over == start or (landed | seen) & bit \
                    or jumped >> over & 1:
                continue
            seen |= bit
            stack.append(land)
    return seen


def _paths_once(cells: Sequence[int], start: int, wanted: int,
                end: int = -1) -> tuple[int, tuple[int, ...] | None]:
    """Depth-first search of the jump sequences from ``start`` that land on no cell twice
    (nor on the start) and jump no cell twice (RULES §5). Returns the bit mask of the
    ``wanted`` cells found reachable (it stops once all are found), and the path found to
    ``end`` if one is asked for (then it stops there).

    Only the cells whose shortest path jumps a cell twice need this: within one landing
    parity class a cell can be jumped along two lines only where two diagonals cross
    (``a1-c3`` and ``c1-a3`` over ``b2``). A branch is cut as soon as none of the cells
    still wanted can be reached from it even ignoring the limits still to come
    (:func:`_open_reach`), so a cell that is out of reach does not cost a walk over every
    path of a crowded board.
    """
    if end >= 0:
        wanted = 1 << end
    found = 0
    stack: list[tuple[int, int, int, tuple[int, ...]]] = [(start, 1 << start, 0, (start,))]
    while stack:
        c, landed, jumped, path = stack.pop()
        for over, land in _JUMPS[c]:
            land_bit, over_bit = 1 << land, 1 << over
            if cells[land] or not cells[over] or over == start or landed & land_bit \
                    or jumped & over_bit:
                continue
            if land == end:
                return found | land_bit, (*path, land)
            found |= land_bit
            missing = wanted & ~found
            if not missing:
                return found & wanted, None
            now_landed, now_jumped = landed | land_bit, jumped | over_bit
            if _open_reach(cells, start, land, now_landed, now_jumped) & missing:
                stack.append((land, now_landed, now_jumped, (*path, land)))
    return found & wanted, None


_CROSSINGS: tuple[tuple[int, int] | None, ...] = tuple(
    ((y + 1) * WIDTH + x + 1,
     (1 << (y * WIDTH + x)) | (1 << (y * WIDTH + x + 2)) | (1 << ((y + 2) * WIDTH + x))
     | (1 << ((y + 2) * WIDTH + x + 2)))
    if x + 2 < WIDTH and y + 2 < HEIGHT else None
    for x, y in POINTS)
"""Per cell ``i``: the crossing of two diagonal jumps whose lower left corner ``i`` is, as
``(centre, bit mask of its four corners)`` (None at the top and right edges)."""


def _jump_ends(cells: Sequence[int], start: int) -> int:
    """Bit mask of the start and every cell a jump sequence from it can land on with the
    landing limits only (none twice, never the start)."""
    seen = 1 << start
    frontier = [start]
    while frontier:
        c = frontier.pop()
        for over, land in _JUMPS[c]:
            # the start cell is empty while jumping: nothing there to jump over, and
            # landing on it is forbidden (it holds the stone in ``cells``, so it is not 0).
            if not cells[land] and cells[over] and over != start and not seen >> land & 1:
                seen |= 1 << land
                frontier.append(land)
    return seen


def destination_mask(cells: Sequence[int], start: int, *, once: bool = True) -> int:
    """Bit mask of every cell the stone on ``start`` can move to (steps and jump ends).

    ``once``: no cell may be jumped over twice in one sequence (RULES §5, rules version
    2); without it only the landing limits hold (version 1, kept for stored matches).

    A cell can be jumped twice only where two diagonal jumps cross over a stone, and a
    sequence jumping it twice lands on all four corners of that crossing. So when no such
    crossing has every corner among the cells reachable with the landing limits alone,
    those cells are the answer; otherwise the cells whose shortest path jumps a cell
    twice are searched again path by path (:func:`_paths_once`).
    """
    dests = 0
    for n in NEIGHBOURS[start]:
        if not cells[n]:
            dests |= 1 << n
    seen = _jump_ends(cells, start)
    # (Jumps keep the parity of x and y, so a sequence never stands next to its start,
    # and a jump end is never also a step end.)
    jumps = seen & ~(1 << start)
    if not once or not jumps:
        return dests | jumps
    for i in cells_of(seen):
        crossing = _CROSSINGS[i]
        if crossing is not None and cells[crossing[0]] and seen & crossing[1] == crossing[1]:
            break
    else:
        return dests | jumps
    tree = _jumps_from(cells, start)
    good = doubtful = 0
    for land, (_, _, twice) in tree.items():
        if land == start:
            continue
        if twice:
            doubtful |= 1 << land
        else:
            good |= 1 << land
    if doubtful:
        good |= _paths_once(cells, start, doubtful)[0]
    return dests | good


def can_move(cells: Sequence[int], start: int) -> bool:
    """Whether the stone on ``start`` has any step or jump (a first jump is always a
    legal sequence on its own)."""
    return any(not cells[n] for n in NEIGHBOURS[start]) or any(
        cells[over] and not cells[land] for over, land in _JUMPS[start])


def cells_of(mask: int) -> Iterator[int]:
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def jump_path(cells: Sequence[int], start: int, end: int, *,
               once: bool = True) -> tuple[int, ...] | None:
    """A jump path start..end respecting the limits (see :func:`destination_mask`):
    the shortest one (breadth first, fixed direction order) when it jumps no cell
    twice, else one found depth first; None if there is none."""
    tree = _jumps_from(cells, start)
    if end not in tree or end == start:
        return None
    if tree[end][2] and once:
        return _paths_once(cells, start, 1 << end, end)[1]
    path = [end]
    while path[-1] != start:
        path.append(tree[path[-1]][0])
    return tuple(reversed(path))


