"""The Alquerque boards' move generators, on plain ints (the compiled core holds them:
:mod:`rules.native`): the capture search of :class:`rules.lattice.MoveTable`, and the
whole move list of a seat by the original rules (:func:`original_moves`, Alquerque on
either board) and by Alquerque grande's (:func:`grande_moves`).

They run at every node of an engine search, whose boards (:mod:`engine.board`) call
them directly, as the rules' positions do: one generator for both, so the search and
the referee cannot disagree on a move.

Moves are :class:`rules.core.PathMove` values, put in a dict (move -> note) in the order
the rules list them; the note is 1 for a capture that could go on (a stopped sequence),
else 0.

>>> from rules.lattice import Lattice
>>> grid = Lattice(5)
>>> cells = [0] * 25
>>> cells[0], cells[6], cells[18] = 1, 2, 2  # a1 White; b2, d4 Black
>>> moves: dict[Move, int] = {}
>>> capture_search(moves, grid.bits[6] | grid.bits[18], sum(grid.bits[i] for i in (0, 6, 18)),
...                0, grid.jumps, grid.jumps, -1, True)
2
>>> [grid.move_text(m) for m in moves]
['a1xc3', 'a1xc3xe5']
"""

from __future__ import annotations

from collections.abc import Sequence

from rules.core import PathMove

Move = PathMove
JumpTable = tuple[tuple[tuple[int, int, int, int], ...], ...]
"""Per point: ``(over, land, 1 << over, 1 << land)`` for every jump along a line (in the
allowed directions), rows sorted by the landing point's name (see :func:`capture_search`)."""
StepTable = tuple[tuple[int, ...], ...]
"""Per point: the points one step away along a line (in the allowed directions)."""
StepMoves = tuple[dict[int, Move], ...]
"""Per start point, per end point: the step's move value, made once."""


def capture_search(moves: dict[Move, int], enemies: int, occupied: int, start: int,
                   first: JumpTable, later: JumpTable, avoid: int, prefixes: bool) -> int:
    """Add the capture moves of the piece on ``start`` to ``moves``; return the most
    pieces one of its sequences takes (0: it cannot capture). ``enemies`` and
    ``occupied`` are the bits of the points holding pieces it may jump, and of every
    occupied point; the first jump uses ``first``, the later ones ``later``.

    Jumped pieces leave the board at once, so a later jump may cross or land on their
    points, and the start point is empty once the piece has left it. No jump lands on
    ``avoid``. With ``prefixes`` every sequence of one jump or more is a move, else
    only complete ones (the piece cannot jump again).

    The search runs over states (point reached, pieces captured): paths reaching the
    same state have the same future and are the same move (RULES §6), so each state is
    expanded once, level by level. The canonical path of a move is the smallest (RULES
    §6; point names are two characters, so comparing strings is comparing points
    file-major): a level lists its states in the order of their smallest paths and jump
    rows are sorted by landing point, so the first path found to a state of the next
    level is its smallest.
    """
    new = tuple.__new__  # Move(...) without the Python-level __new__
    occupied &= ~(1 << start)
    barred = 1 << avoid if avoid >= 0 else 0
    # a state is keyed (captured mask << 6) | point reached; the captured points are
    # enemies, so "mask removed" is "xor mask"
    level: dict[int, tuple[tuple[int, ...], tuple[int, ...]]] = {start: ((start,), ())}
    table = first
    depth = 0
    while level:
        deeper: dict[int, tuple[tuple[int, ...], tuple[int, ...]]] = {}
        for state, (path, captured) in level.items():
            mask = state >> 6
            at = state & 63
            more = 0
            live = enemies ^ mask
            full = (occupied ^ mask) | barred
            for over, land, over_bit, land_bit in table[at]:
                if over_bit & live and not full & land_bit:
                    more = 1
                    key = ((mask | over_bit) << 6) | land
                    if key not in deeper:  # the first path found is the smallest
                        deeper[key] = ((*path, land), (*captured, over))
            if mask and (prefixes or not more):
                moves[new(Move, (path, captured))] = more
        if deeper:
            depth += 1
        level = deeper
        table = later
    return depth


def masks(cells: Sequence[int], enemy: Sequence[bool]) -> tuple[int, int]:
    """The bits of the points holding pieces ``enemy`` (by cell value) says may be
    jumped, and of the occupied points."""
    enemies = occupied = 0
    for i, value in enumerate(cells):
        if value:
            occupied |= 1 << i
            if enemy[value]:
                enemies |= 1 << i
    return enemies, occupied


def original_moves(cells: Sequence[int], memory: Sequence[int], seat: int,
                   enemy: Sequence[bool], first: JumpTable, later: JumpTable,
                   steps: StepTable, step_moves: StepMoves) -> dict[Move, int]:
    """The legal moves of ``seat`` by the original Alquerque rules (RULES §1): complete
    capture sequences when there is one (compulsory), else steps; no piece goes back to
    the point its last move started from (``memory``). ``first``: the first jump's
    directions of this seat, ``steps`` its steps (none from the far rank)."""
    moves: dict[Move, int] = {}
    me = seat + 1
    own = [i for i, v in enumerate(cells) if v == me]
    enemies, occupied = masks(cells, enemy)
    if enemies:
        for s in own:
            avoid = memory[s]
            for over, land, _, _ in first[s]:
                if land != avoid and enemy[cells[over]] and not cells[land]:
                    capture_search(moves, enemies, occupied, s, first, later, avoid, False)
                    break
    if not moves:
        for s in own:
            avoid = memory[s]
            row = step_moves[s]
            for j in steps[s]:
                if not cells[j] and j != avoid:
                    moves[row[j]] = 0
    return moves


def grande_moves(cells: Sequence[int], seat: int, came: int, stone: int,
                 enemy: Sequence[bool], jumps: JumpTable, steps: StepTable,
                 step_moves: StepMoves) -> tuple[dict[Move, int], dict[int, int]]:
    """The legal moves of ``seat`` by Alquerque grande's rules (RULES §2.3): per stone in
    point order, its capture sequences (every prefix a move), then its steps, but not
    back from ``stone`` to ``came`` (the no-return marker; -1, -1 for none); and per
    stone that can capture, the most stones one of its sequences takes (what huffing
    needs)."""
    moves: dict[Move, int] = {}
    best: dict[int, int] = {}
    me = seat + 1
    enemies, occupied = masks(cells, enemy)
    for s, value in enumerate(cells):
        if value != me:
            continue
        if enemies:
            for over, land, _, _ in jumps[s]:
                if enemy[cells[over]] and not cells[land]:
                    best[s] = capture_search(moves, enemies, occupied, s, jumps, jumps, -1,
                                             True)
                    break
        row = step_moves[s]
        for j in steps[s]:
            if not cells[j] and not (s == stone and j == came):
                moves[row[j]] = 0
    return moves, best
