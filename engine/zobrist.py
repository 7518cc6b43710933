"""Zobrist keys of positions, for the transposition table.

A key is the XOR of one fixed 64-bit number per (point, seat, kind) on the board and
one per seat to move. The keys are computed from ``pieces()`` where the search cannot
follow them from the move: the public rules API does not say cheaply what a move changed
(a promotion, a huff, a Querni removal; :meth:`rules.Variant.move_marks` costs more than
rehashing the at most 48 pieces). A model that knows (xiangqi: one piece moves, the
target's is taken) gives the change a move makes to the key
(:meth:`engine.models.GameModel.key_change`), and the search follows it incrementally.
State beyond the pieces (no-return markers, draw counters, repetition history) is not in
the key, as chess engines leave out the fifty-move counter: the table's move is only
ever used when it is legal in the position at hand, and its score is a guess the search
refines.

The numbers come from BLAKE2b of the entry's name, so keys are the same in every
process and on every machine (Python's ``hash`` of strings is not).

>>> import rules
>>> p = rules.variant("damas").start()
>>> position_key(p, p.pieces()) == position_key(p, p.pieces())
True
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from typing import Any

from rules import Piece, Position

_TABLE: dict[tuple[tuple[int, int], int, str], int] = {}
_MOVERS: dict[frozenset[int], int] = {}


def _number(label: str) -> int:
    return int.from_bytes(hashlib.blake2b(label.encode(), digest_size=8).digest(), "big")


def piece_key(point: tuple[int, int], seat: int, kind: str) -> int:
    """The fixed number of ``kind`` of ``seat`` standing on ``point``."""
    entry = (point, seat, kind)
    key = _TABLE.get(entry)
    if key is None:
        key = _TABLE[entry] = _number(f"{point[0]},{point[1]}:{seat}:{kind}")
    return key


def position_key(position: Position[Any], pieces: Mapping[tuple[int, int], Piece]) -> int:
    """The Zobrist key of ``position`` whose ``pieces()`` are ``pieces``."""
    key = 0
    table = _TABLE
    for point, piece in pieces.items():
        entry = (point, piece.seat, piece.kind)
        number = table.get(entry)
        if number is None:
            number = piece_key(point, piece.seat, piece.kind)
        key ^= number
    return key ^ mover_key(position.to_move)


def mover_key(movers: frozenset[int]) -> int:
    """The fixed number of ``movers`` being the seats to move (part of every key)."""
    key = _MOVERS.get(movers)
    if key is None:
        key = _MOVERS[movers] = _number("to-move:" + ",".join(map(str, sorted(movers))))
    return key
