"""Xiangqi's fast move generator: board tables, attack tests and legal move generation
on a mutable board, for :mod:`rules.xiangqi` (positions, notation) and perft.

Points are numbered ``sq = y * 9 + x``; a piece is a small int, ``kind | 8`` for Black;
a move is the int ``source << 7 | target``.
"""

from __future__ import annotations

from collections.abc import Iterable

from rules.core import Point

# --------------------------------------------------------------------------- board tables

WIDTH, HEIGHT = 9, 10
RED, BLACK = 0, 1
KING, ADVISOR, ELEPHANT, HORSE, CHARIOT, CANNON, SOLDIER = 1, 2, 3, 4, 5, 6, 7
BLACK_BIT = 8

POINTS: tuple[Point, ...] = tuple((sq % WIDTH, sq // WIDTH) for sq in range(WIDTH * HEIGHT))


def square(x: int, y: int) -> int:
    return y * WIDTH + x


def on_board(x: int, y: int) -> bool:
    return 0 <= x < WIDTH and 0 <= y < HEIGHT


def in_palace(side: int, x: int, y: int) -> bool:
    return 3 <= x <= 5 and (0 <= y <= 2 if side == RED else 7 <= y <= 9)


def own_half(side: int, y: int) -> bool:
    return y <= 4 if side == RED else y >= 5


def crossed(side: int, y: int) -> bool:
    return not own_half(side, y)


ORTHO = ((0, 1), (0, -1), (-1, 0), (1, 0))  # ray directions 0 up, 1 down, 2 left, 3 right
DIAG = ((1, 1), (1, -1), (-1, 1), (-1, -1))
ALL = range(WIDTH * HEIGHT)

KING_STEPS = tuple(
    tuple(tuple(square(x + dx, y + dy) for dx, dy in ORTHO if in_palace(s, x + dx, y + dy))
          for x, y in POINTS)
    for s in (RED, BLACK))
ADVISOR_STEPS = tuple(
    tuple(tuple(square(x + dx, y + dy) for dx, dy in DIAG if in_palace(s, x + dx, y + dy))
          for x, y in POINTS)
    for s in (RED, BLACK))
# (target, eye): the eye is the midpoint that blocks the elephant
ELEPHANT_STEPS = tuple(
    tuple(tuple((square(x + 2 * dx, y + 2 * dy), square(x + dx, y + dy)) for dx, dy in DIAG
                if on_board(x + 2 * dx, y + 2 * dy) and own_half(s, y + 2 * dy))
          for x, y in POINTS)
    for s in (RED, BLACK))


def _horse_steps(x: int, y: int) -> tuple[tuple[int, int], ...]:
    """(target, leg) pairs: one point along a line to the leg, then one diagonally outward."""
    out = []
    for dx, dy in ORTHO:
        leg = square(x + dx, y + dy) if on_board(x + dx, y + dy) else -1
        for side in (-1, 1):
            tx, ty = (x + 2 * dx, y + side) if dx else (x + side, y + 2 * dy)
            if on_board(tx, ty):
                out.append((square(tx, ty), leg))
    return tuple(out)


HORSE_STEPS = tuple(_horse_steps(x, y) for x, y in POINTS)
# the seven points each side's elephants can ever stand on
ELEPHANT_POINTS = tuple(frozenset(square(x, y if s == RED else HEIGHT - 1 - y)
                                  for x, y in ((2, 0), (6, 0), (0, 2), (4, 2), (8, 2), (2, 4),
                                               (6, 4)))
                        for s in (RED, BLACK))


# (horse square, leg) pairs from which a horse attacks a point
def _horse_attackers(t: int) -> tuple[tuple[int, int], ...]:
    # a horse's step is not symmetric (the leg sits next to the horse), so invert the table
    return tuple((h, leg) for h, x in zip(ALL, POINTS, strict=True)
                 if abs(x[0] - POINTS[t][0]) + abs(x[1] - POINTS[t][1]) == 3
                 for to, leg in HORSE_STEPS[h] if to == t)


HORSE_ATTACKERS = tuple(_horse_attackers(t) for t in ALL)


def _soldier_steps(side: int, x: int, y: int) -> tuple[int, ...]:
    forward = 1 if side == RED else -1
    out = []
    if on_board(x, y + forward):
        out.append(square(x, y + forward))
    if crossed(side, y):
        out += [square(x + dx, y) for dx in (-1, 1) if on_board(x + dx, y)]
    return tuple(out)


SOLDIER_STEPS = tuple(tuple(_soldier_steps(s, x, y) for x, y in POINTS) for s in (RED, BLACK))
# squares from which an enemy soldier attacks the general of side s standing on a point
SOLDIER_ATTACKERS = tuple(
    tuple(tuple(q for q in (t - 1, t + 1, t - WIDTH, t + WIDTH)
                if q in ALL and t in SOLDIER_STEPS[1 - s][q]) for t in ALL)
    for s in (RED, BLACK))
RAYS = tuple(
    tuple(tuple(square(x + dx * i, y + dy * i) for i in range(1, 10) if on_board(x + dx * i,
                                                                            y + dy * i))
          for dx, dy in ORTHO)
    for x, y in POINTS)

# For a general on k: the ray direction from k of every point (-1 if none), the horse
# squares whose attack on k runs through a given leg point, and the points a move must
# touch (leave or enter) to be able to expose k when k is not in check. Every chariot,
# cannon, soldier and flying-general attack runs along k's file or rank; a horse attack
# needs a free leg, and the legs of horses attacking k are the 4 points diagonally next
# to k. Only the 18 palace points get tables: a general never stands anywhere else.
PALACE_POINTS = frozenset(sq for sq in ALL for s in (RED, BLACK) if in_palace(s, *POINTS[sq]))


def _line_dirs(k: int) -> tuple[int, ...]:
    dirs = [-1] * len(ALL)
    for d, ray in enumerate(RAYS[k]):
        for q in ray:
            dirs[q] = d
    return tuple(dirs)


def _leg_horses(k: int) -> tuple[tuple[int, ...], ...]:
    found: list[list[int]] = [[] for _ in ALL]
    for h, leg in HORSE_ATTACKERS[k]:
        found[leg].append(h)
    return tuple(tuple(horses) for horses in found)


LINE_DIR = tuple(_line_dirs(k) if k in PALACE_POINTS else () for k in ALL)
LEG_HORSES = tuple(_leg_horses(k) if k in PALACE_POINTS else () for k in ALL)
DANGER = tuple(tuple(LINE_DIR[k][t] >= 0 or bool(LEG_HORSES[k][t]) for t in ALL)
               if k in PALACE_POINTS else () for k in ALL)
# may a piece of side s land on a point holding piece code p (empty or enemy)?
LANDS = (tuple(p == 0 or p & BLACK_BIT != 0 for p in range(16)),
         tuple(p & BLACK_BIT == 0 for p in range(16)))


def colour_of(p: int) -> int:
    return p >> 3


# --------------------------------------------------------------------------- attacks


def attacked(b: list[int] | tuple[int, ...], k: int, s: int) -> bool:
    """Whether the general of side ``s`` standing on ``k`` is attacked (flying general too)."""
    e = 0 if s else BLACK_BIT
    er, ec, ek = CHARIOT | e, CANNON | e, KING | e
    for ray in RAYS[k]:
        screened = False
        for q in ray:
            p = b[q]
            if p:
                if screened:
                    if p == ec:
                        return True
                    break
                if p == er or p == ek:  # noqa: SIM109 (a tuple per test is slower)
                    return True
                screened = True
    en = HORSE | e
    for h, leg in HORSE_ATTACKERS[k]:
        if b[h] == en and not b[leg]:
            return True
    ep = SOLDIER | e
    for q in SOLDIER_ATTACKERS[s][k]:  # noqa: SIM110 (any() makes a generator: hot path)
        if b[q] == ep:
            return True
    return False


def _ray_attacked(b: list[int], ray: tuple[int, ...], e: int) -> bool:
    """Whether an enemy (colour bit ``e``) chariot, cannon or general hits along ``ray``."""
    screened = False
    for q in ray:
        p = b[q]
        if p:
            if screened:
                return p == CANNON | e
            if p == CHARIOT | e or p == KING | e:
                return True
            screened = True
    return False


def generals_face(b: list[int] | tuple[int, ...], k: int) -> bool:
    """Whether nothing stands between the general on ``k`` and the other general."""
    for d in (0, 1):
        for q in RAYS[k][d]:
            p = b[q]
            if p:
                if p & 7 == KING:
                    return True
                break
    return False


# --------------------------------------------------------------------------- move generation
#
# The fast path works on a mutable board list, one list of occupied points per side and the
# two generals' points. A move is the int ``source << 7 | target``.


def pseudo_moves(b: list[int], mine: Iterable[int], s: int) -> list[int]:
    """Every move of side ``s`` that obeys the pieces' movement, ignoring the own general."""
    lands = LANDS[s]
    out: list[int] = []
    add = out.append
    for fr in mine:
        kind = b[fr] & 7
        base = fr << 7
        if kind == CHARIOT:
            for ray in RAYS[fr]:
                for to in ray:
                    t = b[to]
                    if t:
                        if lands[t]:
                            add(base | to)
                        break
                    add(base | to)
        elif kind == CANNON:
            for ray in RAYS[fr]:
                screened = False
                for to in ray:
                    t = b[to]
                    if screened:
                        if t:
                            if lands[t]:
                                add(base | to)
                            break
                    elif t:
                        screened = True
                    else:
                        add(base | to)
        elif kind == HORSE:
            for to, leg in HORSE_STEPS[fr]:
                if not b[leg] and lands[b[to]]:
                    add(base | to)
        elif kind == SOLDIER:
            for to in SOLDIER_STEPS[s][fr]:
                if lands[b[to]]:
                    add(base | to)
        elif kind == ELEPHANT:
            for to, eye in ELEPHANT_STEPS[s][fr]:
                if not b[eye] and lands[b[to]]:
                    add(base | to)
        elif kind == ADVISOR:
            for to in ADVISOR_STEPS[s][fr]:
                if lands[b[to]]:
                    add(base | to)
        else:
            for to in KING_STEPS[s][fr]:
                if lands[b[to]]:
                    add(base | to)
    return out


def _illegal(b: list[int], pseudo: list[int], k: int, s: int,
             checked: bool | None = None) -> list[int]:
    """The moves of ``pseudo`` (side ``s``, general on ``k``) that would expose the general.

    A move gets a full test only when the side is in check or the general moves;
    otherwise only moves that leave or enter the general's file or rank, or leave a horse
    leg next to it, are tested, and only along the lines they touch. Most moves are
    therefore accepted without being made. ``checked`` is whether the general is in
    check, when the caller knows it already (None: test it here).
    """
    bad: list[int] = []
    if checked is None:
        checked = attacked(b, k, s)
    if checked:
        for m in pseudo:
            fr = m >> 7
            to = m & 127
            p = b[fr]
            t = b[to]
            b[to] = p
            b[fr] = 0
            if attacked(b, to if fr == k else k, s):
                bad.append(m)
            b[fr] = p
            b[to] = t
        return bad
    e = 0 if s else BLACK_BIT
    danger = DANGER[k]
    line_dir = LINE_DIR[k]
    leg_horses = LEG_HORSES[k]
    rays = RAYS[k]
    en = HORSE | e
    for m in pseudo:
        fr = m >> 7
        to = m & 127
        if fr == k:
            p = b[fr]
            t = b[to]
            b[to] = p
            b[fr] = 0
            if attacked(b, to, s):
                bad.append(m)
            b[fr] = p
            b[to] = t
        elif danger[fr] or danger[to]:
            p = b[fr]
            t = b[to]
            b[to] = p
            b[fr] = 0
            d1 = line_dir[fr]
            d2 = line_dir[to]
            if ((d1 >= 0 and _ray_attacked(b, rays[d1], e))
                    or (d2 >= 0 and d2 != d1 and _ray_attacked(b, rays[d2], e))):
                bad.append(m)
            else:
                for h in leg_horses[fr]:  # a loop, not any(): no generator per move
                    if b[h] == en:
                        bad.append(m)
                        break
            b[fr] = p
            b[to] = t
    return bad


def _legal(b: list[int], mine: Iterable[int], k: int, s: int,
           checked: bool | None = None) -> list[int]:
    """The legal moves of side ``s`` whose general stands on ``k`` (in check or not, when
    ``checked`` says so)."""
    pseudo = pseudo_moves(b, mine, s)
    bad = _illegal(b, pseudo, k, s, checked)
    if not bad:
        return pseudo
    drop = set(bad)
    return [m for m in pseudo if m not in drop]


class Board:
    """The mutable fast path: board list, occupied points per side, generals, side to move."""

    __slots__ = ("b", "kings", "pieces", "side")

    def __init__(self, board: tuple[int, ...], side: int,
                 points: tuple[list[int], list[int]] | None = None) -> None:
        """``points``: each side's occupied points in ascending order, when the caller
        knows them (copied: :meth:`perft` changes them); else read from ``board``."""
        self.b = list(board)
        self.side = side
        if points is not None:
            self.pieces = (list(points[RED]), list(points[BLACK]))
            self.kings = [board.index(KING), board.index(KING | BLACK_BIT)]
            return
        pieces: tuple[list[int], list[int]] = ([], [])
        kings = [0, 0]
        for sq, p in enumerate(board):  # colour_of inlined: this runs at every search node
            if p:
                pieces[p >> 3].append(sq)
                if p & 7 == KING:
                    kings[p >> 3] = sq
        self.pieces = pieces
        self.kings = kings

    def legal(self, checked: bool | None = None) -> list[int]:
        """The side to move's legal moves; ``checked``: whether it is in check, if known."""
        s = self.side
        return _legal(self.b, self.pieces[s], self.kings[s], s, checked)

    def perft(self, depth: int) -> int:
        b = self.b
        pieces = self.pieces
        kings = self.kings

        def walk(s: int, depth: int) -> int:
            mine = pieces[s]
            if depth == 1:  # count the leaves without making them
                pseudo = pseudo_moves(b, mine, s)
                return len(pseudo) - len(_illegal(b, pseudo, kings[s], s))
            moves = _legal(b, mine, kings[s], s)
            theirs = pieces[s ^ 1]
            total = 0
            for m in moves:
                fr = m >> 7
                to = m & 127
                p = b[fr]
                t = b[to]
                b[to] = p
                b[fr] = 0
                mine[mine.index(fr)] = to
                if t:
                    theirs.remove(to)
                is_king = p & 7 == KING
                if is_king:
                    kings[s] = to
                total += walk(s ^ 1, depth - 1)
                if is_king:
                    kings[s] = fr
                if t:
                    theirs.append(to)
                # not a saved index: deeper captures reorder the lists
                mine[mine.index(to)] = fr
                b[fr] = p
                b[to] = t
            return total

        if depth <= 0:
            return 1
        return walk(self.side, depth)
