"""Spanish draughts' fast move generator: the square geometry on bit boards, capture
sequences with the quantity and quality rules, quiet moves and perft, for
:mod:`rules.damas` (positions, notation, PDN).

The core works on ``(own, opp, kings)`` bit boards of the side to move (``white`` saying
which way its men go) and ignores the draw rules; the position class adds them.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from rules.core import Point
from rules.notation import point_name

# --------------------------------------------------------------------------- geometry
#
# Internally a square is a single bit of a 35-bit "padded" layout: square (x, y) sits at
# bit 4*y + j + y//2 where j = 0..3 counts the playing squares of the rank from the left.
# Bits 8, 17 and 26 are never squares ("ghosts"), which makes every diagonal step a
# uniform shift: +4 up-left, +5 up-right, -4 down-right, -5 down-left. A step off the
# board lands on a ghost, past bit 34 or below bit 0, and masking with VALID drops it.


def _square_point(n: int) -> Point:
    y, k = divmod(n - 1, 4)
    return 7 - 2 * k - (y % 2), y


def _square_bit(n: int) -> int:
    y, k = divmod(n - 1, 4)
    return 1 << (4 * y + (3 - k) + y // 2)


SQUARES = range(1, 33)
BIT: tuple[int, ...] = (0, *(_square_bit(n) for n in SQUARES))
"""``BIT[n]`` is the internal bit of PDN square ``n`` (``BIT[0]`` is unused)."""
SQUARE_OF: dict[int, int] = {BIT[n]: n for n in SQUARES}
POINT: tuple[Point, ...] = ((-1, -1), *(_square_point(n) for n in SQUARES))
SQUARE_AT: dict[Point, int] = {POINT[n]: n for n in SQUARES}
NAME: tuple[str, ...] = ("", *(point_name(*POINT[n]) for n in SQUARES))
VALID = sum(BIT[1:])
RANK1 = BIT[1] | BIT[2] | BIT[3] | BIT[4]
RANK8 = BIT[29] | BIT[30] | BIT[31] | BIT[32]
LONG_DIAGONAL = sum(BIT[n] for n in SQUARES if sum(POINT[n]) == 7)
START_WHITE = sum(BIT[1:13])
START_BLACK = sum(BIT[21:33])
UP = (4, 5)


def _step(bit: int, shift: int) -> int:
    moved = bit << shift if shift > 0 else bit >> -shift
    return moved & VALID


def _ray(bit: int, shift: int) -> tuple[int, ...]:
    out = []
    bit = _step(bit, shift)
    while bit:
        out.append(bit)
        bit = _step(bit, shift)
    return tuple(out)


RAYS: dict[int, tuple[tuple[int, ...], ...]] = {
    BIT[n]: tuple(r for r in (_ray(BIT[n], s) for s in (4, 5, -4, -5)) if r) for n in SQUARES}
"""The four diagonals leading away from each square (empty ones left out), nearest first."""


def _jumps(shifts: tuple[int, int]) -> dict[int, tuple[tuple[int, int], ...]]:
    table = {}
    for n in SQUARES:
        b = BIT[n]
        pairs = []
        for s in shifts:
            over = _step(b, s)
            land = _step(over, s) if over else 0
            if land:
                pairs.append((over, land))
        table[b] = tuple(pairs)
    return table


MAN_JUMPS = (_jumps((4, 5)), _jumps((-4, -5)))
"""``MAN_JUMPS[seat][bit]``: the (jumped, landing) bit pairs of a man's forward captures."""
FAR_RANK = (RANK8, RANK1)
BETWEEN: dict[tuple[int, int], tuple[int, ...]] = {}
"""Squares strictly between two squares on a common diagonal (bits, nearest first)."""
for _b, _rays in RAYS.items():
    for _r in _rays:
        for _i, _t in enumerate(_r):
            BETWEEN[_b, _t] = _r[:_i]


def _bits(mask: int) -> Iterable[int]:
    while mask:
        low = mask & -mask
        yield low
        mask ^= low


# --------------------------------------------------------------------------- fast core


def _man_dfs(bit: int, path: tuple[int, ...], taken: int, opp: int, empty: int,
             jumps: dict[int, tuple[tuple[int, int], ...]],
             out: list[tuple[tuple[int, ...], int]]) -> None:
    extended = False
    for over, land in jumps[bit]:
        if over & opp and not over & taken and land & empty:
            extended = True
            _man_dfs(land, (*path, land), taken | over, opp, empty, jumps, out)
    if not extended and taken:
        out.append((path, taken))


def _king_can_take(bit: int, taken: int, opp: int, empty: int) -> bool:
    for ray in RAYS[bit]:
        for i, sq in enumerate(ray):
            if sq & empty:
                continue
            if sq & opp and not sq & taken and i + 1 < len(ray) and ray[i + 1] & empty:
                return True
            break
    return False


def _king_dfs(bit: int, path: tuple[int, ...], taken: int, opp: int, empty: int,
              out: list[tuple[tuple[int, ...], int]]) -> None:
    extended = False
    for ray in RAYS[bit]:
        n = len(ray)
        i = 0
        while i < n and ray[i] & empty:
            i += 1
        # a piece must stand on the ray with an empty square right behind it
        if i >= n - 1:
            continue
        victim = ray[i]
        if not victim & opp or victim & taken or not ray[i + 1] & empty:
            continue
        now_taken = taken | victim
        landings = []
        i += 1
        while i < n and ray[i] & empty:
            landings.append(ray[i])
            i += 1
        extended = True
        # RULES §4.3: where the capture can go on, the king must land where it does
        going_on = [sq for sq in landings if _king_can_take(sq, now_taken, opp, empty)]
        if going_on:
            for sq in going_on:
                _king_dfs(sq, (*path, sq), now_taken, opp, empty, out)
        else:
            for sq in landings:
                out.append(((*path, sq), now_taken))
    if not extended and taken:
        out.append((path, taken))


def capture_sequences(own: int, opp: int, kings: int,
                      white: bool) -> list[tuple[tuple[int, ...], int]]:
    """Every complete capture sequence (bit path, captured mask) of the side owning ``own``,
    before the quantity and quality rules choose among them."""
    empty = VALID & ~(own | opp)
    out: list[tuple[tuple[int, ...], int]] = []
    men = own & ~kings
    if white:
        first = ((((empty >> 4) & opp) >> 4) | (((empty >> 5) & opp) >> 5)) & men
    else:
        first = ((((empty << 4) & opp) << 4) | (((empty << 5) & opp) << 5)) & men
    if first:
        jumps = MAN_JUMPS[0 if white else 1]
        for b in _bits(first):
            _man_dfs(b, (b,), 0, opp, empty | b, jumps, out)
    for b in _bits(own & kings):
        _king_dfs(b, (b,), 0, opp, empty | b, out)
    return out


def best_captures(sequences: Sequence[tuple[tuple[int, ...], int]],
                  kings: int) -> dict[tuple[int, int, int], list[tuple[int, ...]]]:
    """The sequences the quantity then quality rule allow, grouped into moves: key
    (start bit, end bit, captured mask) -> its paths."""
    best = -1
    moves: dict[tuple[int, int, int], list[tuple[int, ...]]] = {}
    for path, taken in sequences:
        score = taken.bit_count() * 16 + (taken & kings).bit_count()
        if score < best:
            continue
        if score > best:
            best = score
            moves = {}
        key = (path[0], path[-1], taken)
        if key in moves:
            moves[key].append(path)
        else:
            moves[key] = [path]
    return moves


def quiet_moves(own: int, opp: int, kings: int, white: bool) -> list[tuple[int, int]]:
    """Every non-capturing (from bit, to bit) step; only legal when no capture exists."""
    empty = VALID & ~(own | opp)
    men = own & ~kings
    out: list[tuple[int, int]] = []
    for s in UP:
        if white:
            targets = (men << s) & empty
            out.extend((t >> s, t) for t in _bits(targets))
        else:
            targets = (men >> s) & empty
            out.extend((t << s, t) for t in _bits(targets))
    for b in _bits(own & kings):
        for ray in RAYS[b]:
            for sq in ray:
                if not sq & empty:
                    break
                out.append((b, sq))
    return out


def _count_quiet(own: int, opp: int, kings: int, white: bool) -> int:
    empty = VALID & ~(own | opp)
    men = own & ~kings
    if white:
        total = ((men << 4) & empty).bit_count() + ((men << 5) & empty).bit_count()
    else:
        total = ((men >> 4) & empty).bit_count() + ((men >> 5) & empty).bit_count()
    for b in _bits(own & kings):
        for ray in RAYS[b]:
            for sq in ray:
                if not sq & empty:
                    break
                total += 1
    return total


def perft_bits(own: int, opp: int, kings: int, white: bool, depth: int) -> int:
    sequences = capture_sequences(own, opp, kings, white)
    far = RANK8 if white else RANK1
    total = 0
    if sequences:
        moves = best_captures(sequences, kings)
        if depth == 1:
            return len(moves)
        for start, end, taken in moves:
            new_kings = kings & ~taken
            if start & kings:
                new_kings = (new_kings & ~start) | end
            elif end & far:
                new_kings |= end
            total += perft_bits(opp & ~taken, (own & ~start) | end, new_kings, not white,
                            depth - 1)
        return total
    if depth == 1:
        return _count_quiet(own, opp, kings, white)
    for start, end in quiet_moves(own, opp, kings, white):
        if start & kings:
            new_kings = (kings & ~start) | end
        elif end & far:
            new_kings = kings | end
        else:
            new_kings = kings
        total += perft_bits(opp, own ^ start ^ end, new_kings, not white, depth - 1)
    return total
