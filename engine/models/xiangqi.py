"""Xiangqi: material, soldiers across the river, horse centrality, general safety."""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import Any, ClassVar, cast

from engine.board import SearchBoard
from engine.models.base import GameModel, Pieces, forward, register
from engine.zobrist import mover_key, piece_key
from rules import Outcome, Piece, Position
from rules.xiangqi import KIND_LETTERS, XiangqiMove, XiangqiPosition, XiangqiVariant
from rules.xiangqi_board import KING, POINTS, SOLDIER, WIDTH, Board, attacked


class XiangqiModel(GameModel):
    """Material, soldiers across the river, horse centrality, general safety (the palace
    shield of advisors and elephants against attackers on its half) and mobility."""

    key = "xiangqi"
    fairy_stockfish = True
    mobility_weight = 3
    VALUES: ClassVar[dict[str, int]] = {
        "K": 0, "A": 200, "B": 200, "N": 400, "R": 900, "C": 450, "P": 100}
    DANGER: ClassVar[dict[str, int]] = {"R": 40, "N": 30, "C": 30, "P": 15}

    def evaluate(self, position: Position[Any], pieces: Pieces) -> tuple[int, ...]:
        # per seat: the pieces' values, the weight of enemy attackers on its half and
        # its palace's defenders; in plain locals, not lists (this runs at every leaf)
        red = black = 0
        red_danger = black_danger = 0
        red_shield = black_shield = 1
        terms = _XIANGQI_TERMS
        for point, piece in pieces.items():
            seat = piece.seat
            found = terms.get(piece.kind)
            value, threat, guard = (found[seat][point] if found is not None
                                    else self.terms(point, seat, piece.kind))
            if seat:
                black += value
                red_danger += threat
                black_shield += guard
            else:
                red += value
                black_danger += threat
                red_shield += guard
        return (red - red_danger * 6 // red_shield,
                black - black_danger * 6 // black_shield)

    @classmethod
    def terms(cls, point: tuple[int, int], seat: int, kind: str) -> tuple[int, int, int]:
        """One piece's share of :meth:`evaluate`: its value, the danger it puts the enemy
        seat in, and what it adds to its own palace's shield (tabled once per point)."""
        x, y = point
        ahead = forward(seat, y, 10)
        value = cls.VALUES.get(kind, 0)
        guard = 0
        if kind == "P":
            if ahead >= 5:  # across the river: steps sideways too
                value += 90 + 15 * min(ahead - 5, 3) - 15 * max(ahead - 8, 0)
                value += 10 if 3 <= x <= 5 else 0
        elif kind == "N":
            value += 12 * (4 - abs(x - 4)) // 2 + 8 * min(ahead, 6)
        elif kind == "C":
            value += 20 if x == 4 else 0
        elif kind in ("A", "B"):
            guard = 2 if kind == "A" else 1
        elif kind == "K":
            value -= 20 * ahead + (10 if x != 4 else 0)  # a raised general is exposed
        threat = cls.DANGER[kind] if ahead >= 5 and kind in cls.DANGER else 0
        return value, threat, guard

    def is_tactical(self, position: Position[Any], pieces: Pieces, move: Hashable) -> bool:
        return move[1] in pieces  # type: ignore[index]

    def gain(self, position: Position[Any], pieces: Pieces, move: Hashable) -> int:
        victim = pieces.get(move[1])  # type: ignore[index]
        if victim is None:
            return 0
        return self._capture_gain(victim, pieces.get(move[0]))  # type: ignore[index]

    def _capture_gain(self, victim: Piece, mover: Piece | None) -> int:
        return 10 * self.VALUES.get(victim.kind, 0) + 1000 - (
            self.VALUES.get(mover.kind, 0) if mover else 0) // 10

    def board(self, position: Position[Any]) -> SearchBoard | None:
        """The search's board (:class:`XiangqiBoard`) for this model's own evaluation."""
        if type(self) is XiangqiModel and isinstance(position, XiangqiPosition):
            return XiangqiBoard(position)
        return None

    def key_change(self, pieces: Pieces, move: Hashable) -> int | None:
        # the piece leaves its source for the target, taking what stands there
        source: tuple[int, int] = move[0]  # type: ignore[index]
        target: tuple[int, int] = move[1]  # type: ignore[index]
        mover = pieces[source]
        change = piece_key(source, mover.seat, mover.kind) \
            ^ piece_key(target, mover.seat, mover.kind)
        victim = pieces.get(target)
        if victim is not None:
            change ^= piece_key(target, victim.seat, victim.kind)
        return change

    def tactical_gains(self, position: Position[Any], pieces: Pieces,
                       moves: Sequence[Hashable]) -> list[int | None]:
        at = pieces.get
        capture_gain = self._capture_gain
        out: list[int | None] = []
        add = out.append
        for move in moves:
            victim = at(move[1])  # type: ignore[index]
            add(None if victim is None else capture_gain(victim, at(move[0])))  # type: ignore[index]
        return out


_XIANGQI_TERMS: dict[str, tuple[dict[tuple[int, int], tuple[int, int, int]], ...]] = {
    kind: tuple({(x, y): XiangqiModel.terms((x, y), seat, kind)
                 for x in range(9) for y in range(10)} for seat in (0, 1))
    for kind in XiangqiModel.VALUES}
"""Per kind, per seat, per point: :meth:`XiangqiModel.terms` (the evaluation runs at every
leaf of a search)."""


_CODES = range(16)
"""Board codes (:mod:`rules.xiangqi_board`): ``kind | 8`` for Black; kind 0 unused."""


def _per_code_and_point(term: int) -> tuple[tuple[int, ...], ...]:
    """Per board code, per point: one of :meth:`XiangqiModel.terms`' three numbers."""
    return tuple(tuple(XiangqiModel.terms(point, code >> 3, KIND_LETTERS[code & 7])[term]
                       if code & 7 else 0 for point in POINTS) for code in _CODES)


_VALUE, _THREAT, _GUARD = (_per_code_and_point(term) for term in range(3))
_ZOBRIST: tuple[tuple[int, ...], ...] = tuple(
    tuple(piece_key(point, code >> 3, KIND_LETTERS[code & 7]) if code & 7 else 0
          for point in POINTS) for code in _CODES)
"""Per board code, per point: the piece's Zobrist number (:func:`engine.zobrist.piece_key`)."""
_MOVERS = (mover_key(frozenset([0])), mover_key(frozenset([1])))
_SWAP = _MOVERS[0] ^ _MOVERS[1]
_GAIN: tuple[tuple[int, ...], ...] = tuple(
    tuple(10 * XiangqiModel.VALUES[KIND_LETTERS[victim & 7]] + 1000
          - XiangqiModel.VALUES[KIND_LETTERS[mover & 7]] // 10
          if victim & 7 and mover & 7 else 0 for mover in _CODES) for victim in _CODES)
"""Per victim's and mover's code: :meth:`XiangqiModel.gain` of the capture."""
_NO_MOVE = tuple(tuple(Outcome.win(side ^ 1, seats=2, reason=reason) for side in (0, 1))
                 for reason in ("stalemate", "checkmate"))
"""Per whether in check, per side to move: the outcome of having no legal move."""
_PERPETUAL = tuple(Outcome.win(winner, seats=2, reason="perpetual-check") for winner in (0, 1))
_REPETITION = Outcome.draw(seats=2, reason="repetition")
_MOVE_LIMIT = Outcome.draw(seats=2, reason="move-limit")


class XiangqiBoard(SearchBoard):
    """Xiangqi for the search (:mod:`engine.board`): the rules' own move generator
    (:class:`rules.xiangqi_board.Board`: a board list, each side's points in ascending
    order, the generals' points) with moves made and unmade in place. A move is the
    generator's int ``source << 7 | target``. The Zobrist key and the evaluation's sums
    (per side its pieces' values, the danger they put the enemy general in and the
    shield around its own: :meth:`XiangqiModel.evaluate`) follow each move.

    The draw rules are the rules' (:meth:`rules.xiangqi.XiangqiPosition.outcome`): the
    positions since the last capture or soldier's step forward are remembered by their
    keys (the root's history included), with whether the move played from each gave
    check, for repetitions and perpetual check; the plies since the last capture for the
    100-ply limit.

    >>> import rules
    >>> p = rules.variant("xiangqi").start()
    >>> board = XiangqiBoard(p)
    >>> move = board.moves()[0]
    >>> board.rules_move(move) == p.legal_moves()[0]
    True
    >>> board.make(move); board.evaluate() == XiangqiModel().evaluate(
    ...     p.play(p.legal_moves()[0]), p.play(p.legal_moves()[0]).pieces())
    True
    """

    def __init__(self, position: XiangqiPosition) -> None:
        generator = Board(position.board, position.side)
        self.generator = generator
        b = self.b = generator.b
        values, threats, guards = [0, 0], [0, 0], [0, 0]
        key = _MOVERS[position.side]
        for point, code in enumerate(b):
            if code:
                side = code >> 3
                values[side] += _VALUE[code][point]
                threats[side] += _THREAT[code][point]
                guards[side] += _GUARD[code][point]
                key ^= _ZOBRIST[code][point]
        self.values, self.threats, self.guards = values, threats, guards
        # per ply (the root's first): key, in check, legal moves and outcome once known,
        # plies since a capture, where the repetition window starts
        self._keys = [key]
        self._checks = [attacked(b, generator.kings[position.side], position.side)]
        self._legal: list[list[int] | None] = [None]
        self._decided = [False]
        self._outcomes: list[Outcome | None] = [None]
        self._halfmoves = [position.halfmove]
        self._starts = [0]
        # per move made: the move and the code it took (0: none)
        self._made: list[int] = []
        self._taken: list[int] = []
        # the earlier positions (the root's history, then the parent of each move made):
        # key, side to move, whether the move played from it gave check
        self._seen_keys: list[int] = []
        self._seen_sides: list[int] = []
        self._seen_checks: list[bool] = []
        for seen in position.history:
            seen_key = _MOVERS[seen.side]
            for point, code in enumerate(seen.board):
                if code:
                    seen_key ^= _ZOBRIST[code][point]
            self._seen_keys.append(seen_key)
            self._seen_sides.append(seen.side)
            self._seen_checks.append(seen.gave_check)

    def moves(self) -> list[int]:
        legal = self._legal[-1]
        if legal is None:
            legal = self._legal[-1] = self.generator.legal(self._checks[-1])
        return legal

    def make(self, move: Hashable) -> None:
        m = cast(int, move)
        fr = m >> 7
        to = m & 127
        b = self.b
        generator = self.generator
        p = b[fr]
        t = b[to]
        s = p >> 3
        other = s ^ 1
        b[to] = p
        b[fr] = 0
        mine = generator.pieces[s]
        mine[mine.index(fr)] = to
        mine.sort()
        parent_key = self._keys[-1]
        zobrist = _ZOBRIST[p]
        key = parent_key ^ zobrist[fr] ^ zobrist[to] ^ _SWAP
        self.values[s] += _VALUE[p][to] - _VALUE[p][fr]
        self.threats[s] += _THREAT[p][to] - _THREAT[p][fr]
        self.guards[s] += _GUARD[p][to] - _GUARD[p][fr]
        if t:
            generator.pieces[other].remove(to)
            key ^= _ZOBRIST[t][to]
            self.values[other] -= _VALUE[t][to]
            self.threats[other] -= _THREAT[t][to]
            self.guards[other] -= _GUARD[t][to]
        kind = p & 7
        if kind == KING:
            generator.kings[s] = to
        generator.side = other
        check = attacked(b, generator.kings[other], other)
        self._seen_keys.append(parent_key)
        self._seen_sides.append(s)
        self._seen_checks.append(check)
        if t or (kind == SOLDIER and to // WIDTH != fr // WIDTH):
            self._starts.append(len(self._seen_keys))  # irreversible: a new window
        else:
            self._starts.append(self._starts[-1])
        self._halfmoves.append(0 if t else self._halfmoves[-1] + 1)
        self._keys.append(key)
        self._checks.append(check)
        self._legal.append(None)
        self._decided.append(False)
        self._outcomes.append(None)
        self._made.append(m)
        self._taken.append(t)

    def unmake(self) -> None:
        m = self._made.pop()
        t = self._taken.pop()
        fr = m >> 7
        to = m & 127
        b = self.b
        generator = self.generator
        p = b[to]
        s = p >> 3
        b[fr] = p
        b[to] = t
        mine = generator.pieces[s]
        mine[mine.index(to)] = fr
        mine.sort()
        self.values[s] -= _VALUE[p][to] - _VALUE[p][fr]
        self.threats[s] -= _THREAT[p][to] - _THREAT[p][fr]
        self.guards[s] -= _GUARD[p][to] - _GUARD[p][fr]
        if t:
            theirs = generator.pieces[s ^ 1]
            theirs.append(to)
            theirs.sort()
            self.values[s ^ 1] += _VALUE[t][to]
            self.threats[s ^ 1] += _THREAT[t][to]
            self.guards[s ^ 1] += _GUARD[t][to]
        if p & 7 == KING:
            generator.kings[s] = fr
        generator.side = s
        self._seen_keys.pop()
        self._seen_sides.pop()
        self._seen_checks.pop()
        self._starts.pop()
        self._halfmoves.pop()
        self._keys.pop()
        self._checks.pop()
        self._legal.pop()
        self._decided.pop()
        self._outcomes.pop()

    def rewind(self) -> None:
        while self._made:
            self.unmake()

    def outcome(self) -> Outcome | None:
        if not self._decided[-1]:
            self._outcomes[-1] = self._decide()
            self._decided[-1] = True
        return self._outcomes[-1]

    def _decide(self) -> Outcome | None:
        side = self.generator.side
        if not self.moves():
            return _NO_MOVE[1 if self._checks[-1] else 0][side]
        key = self._keys[-1]
        start = self._starts[-1]
        keys = self._seen_keys
        if key in (keys[start:] if start else keys):
            # the key holds the side to move: equal keys, the same position
            first = -1
            count = 1
            for i in range(start, len(keys)):
                if keys[i] == key:
                    count += 1
                    if first < 0:
                        first = i
            if count >= 3:
                always = [True, True]
                for i in range(first, len(keys)):
                    if not self._seen_checks[i]:
                        always[self._seen_sides[i]] = False
                if always[0] != always[1]:
                    checker = 0 if always[0] else 1
                    return _PERPETUAL[checker ^ 1]
                return _REPETITION
        if self._halfmoves[-1] >= 100:
            return _MOVE_LIMIT
        return None

    def mover(self) -> int:
        return self.generator.side

    def key(self) -> int:
        return self._keys[-1]

    def in_check(self) -> bool:
        return self._checks[-1]

    def evaluate(self) -> tuple[int, ...]:
        values, threats, guards = self.values, self.threats, self.guards
        return (values[0] - threats[1] * 6 // (1 + guards[0]),
                values[1] - threats[0] * 6 // (1 + guards[1]))

    def tactical_gains(self, moves: Sequence[Hashable]) -> list[int | None]:
        b = self.b
        out: list[int | None] = []
        add = out.append
        for move in moves:
            m = cast(int, move)
            victim = b[m & 127]
            add(_GAIN[victim][b[m >> 7]] if victim else None)
        return out

    def is_tactical(self, move: Hashable) -> bool:
        return self.b[cast(int, move) & 127] != 0

    def gain(self, move: Hashable) -> int:
        m = cast(int, move)
        return _GAIN[self.b[m & 127]][self.b[m >> 7]]

    def rules_move(self, move: Hashable) -> Hashable:
        m = cast(int, move)
        return XiangqiMove(POINTS[m >> 7], POINTS[m & 127])


_XIANGQI = XiangqiModel()


@register(XiangqiVariant, XiangqiPosition)
def _choose(position: Position[Any] | None) -> GameModel:
    return _XIANGQI
