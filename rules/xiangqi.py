"""Xiangqi (Chinese chess), RULES.md §3.

Position text is FEN with the six standard fields, Red in uppercase, ``w`` = Red to move::

    rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1

Ranks run from rank 10 (Black's edge) down to rank 1; pieces ``K A B N R C P`` (general,
advisor, elephant, horse, chariot, cannon, soldier). On input ``h`` is read as a horse and
``e`` as an elephant, ``r`` as Red to move, and the last four fields may be left out
(``- - 0 1``). The fifth field counts the plies since the last capture (the 100-ply rule);
the sixth is the move number. The repetition history is not part of the text: it lives in
the position object and is rebuilt by replaying the record (RULES §7). A position read
from text starts a fresh history in which it has occurred once.

Moves are :class:`XiangqiMove` values ``(source, target)`` of points (``a1 = (0, 0)``); the
canonical string is ``h3-e3``, or ``h3xh10`` for a capture. Input also takes ``h3e3`` and
WXF (``C2.5``, ``C2=5``, ``H8+7``, ``R1-1``, ``C+.5`` / ``+C.5`` for the front of two cannons
on a file, the WXF tandem-pawn forms). Writing ``-`` for a capture is accepted; writing
``x`` for a move that captures nothing is refused, because the player has misread the
board. Bare ICCS with ranks 0-9 (``h2e2`` meaning h3-e3) is not accepted: ``h2e2`` is
read 1-based like every other point name. WXF output uses the WXF letters
``K A E H R C P`` and, for tandem pieces, the WXF forms (``C+.5``; pawns ``P+``, ``P7``
for the middle one of three, ``++``/``--`` for the outer of four or five, ``7+`` when
two files hold tandem pawns).

Rule details RULES §3 leaves open: a side with no legal move loses even if the position
is also a third repetition or the 100th ply (the position is lost before it can be
drawn); repetition is judged before the 100-ply rule. A capture or a soldier's step
forward can never be undone, so the repetition history restarts after one. ``perft``
counts the bare move tree, without the draw rules, as published perft tables do. The
move generator behind positions and perft is :mod:`rules.xiangqi_board`.

>>> import rules
>>> v = rules.variant("xiangqi")
>>> p = v.start()
>>> m = v.parse_move(p, "C2.5")
>>> v.display_move(p, m)
'h3-e3 (C2.5)'
>>> p.play(m).to_text()
'rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1'
>>> v.perft(p, 2)
1920
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, NamedTuple

from rules.core import (
    N_,
    BoardFacts,
    Detail,
    GameRecord,
    IllegalMoveError,
    MoveMarks,
    NotationError,
    Outcome,
    Piece,
    Point,
    Position,
    PositionError,
    Variant,
    detail,
    register,
)
from rules.notation import normalize, parse_point, point_name, resolve, tokenize
from rules.records import RecordWriter, closing_words, register_writer, tag_pair
from rules.xiangqi_board import (
    ADVISOR,
    BLACK,
    BLACK_BIT,
    CANNON,
    CHARIOT,
    ELEPHANT,
    ELEPHANT_POINTS,
    HEIGHT,
    HORSE,
    KING,
    POINTS,
    RED,
    SOLDIER,
    WIDTH,
    Board,
    attacked,
    colour_of,
    crossed,
    generals_face,
    in_palace,
    on_board,
    own_half,
    pseudo_moves,
    square,
)

KIND_LETTERS = " KABNRCP"  # pieces() kinds and FEN letters
KIND_NAMES = ("", "general", "advisor", "elephant", "horse", "chariot", "cannon", "soldier")
WXF_LETTERS = " KAEHRCP"
SIDE_NAMES = ("Red", "Black")
FEN_PIECES = {"k": KING, "a": ADVISOR, "b": ELEPHANT, "e": ELEPHANT, "n": HORSE, "h": HORSE,
              "r": CHARIOT, "c": CANNON, "p": SOLDIER}
MAX_COUNT = (0, 1, 2, 2, 2, 2, 2, 5)

START_FEN = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"

NAMES: tuple[str, ...] = tuple(point_name(x, y) for x, y in POINTS)
_PIECE_OF_CODE: tuple[Piece, ...] = tuple(Piece(colour_of(p), KIND_LETTERS[p & 7])
                                          for p in range(16))
"""The piece each board code shows (empty codes unused), made once: ``pieces()`` runs at
every node of an engine search."""

# --------------------------------------------------------------------------- moves


class XiangqiMove(NamedTuple):
    """A Xiangqi move: the point a piece leaves and the point it goes to.

    >>> XiangqiMove((7, 2), (4, 2))
    XiangqiMove(source=(7, 2), target=(4, 2))
    """

    source: Point
    target: Point


_MOVES: dict[int, XiangqiMove] = {
    fr << 7 | to: XiangqiMove(POINTS[fr], POINTS[to])
    for fr in range(len(POINTS)) for to in range(len(POINTS))}
"""Every (source, target) pair's move value, made once: ``legal_moves`` hands out these."""
_INTS: dict[XiangqiMove, int] = {mv: m for m, mv in _MOVES.items()}


def _move_of(m: int) -> XiangqiMove:
    return _MOVES[m]


def _known_int(move: object) -> int | None:
    """The int of a move value that :meth:`XiangqiPosition.legal_moves` handed out (the
    engine's and the service's case), without validating it again; None otherwise."""
    if type(move) is XiangqiMove:
        try:
            m = _INTS.get(move)
        except TypeError:  # unhashable parts: not one of ours
            return None
        if m is not None and _MOVES[m] is move:
            return m
    return None


def _int_of(move: object) -> int | None:
    """The fast-path int of a ``(source, target)`` pair of points, or None if it is not one."""
    if not (isinstance(move, tuple) and len(move) == 2):
        return None
    coords: list[int] = []
    for point in move:
        if not (isinstance(point, tuple) and len(point) == 2
                and all(type(c) is int for c in point)):
            return None
        coords += point
    sx, sy, tx, ty = coords
    if not (on_board(sx, sy) and on_board(tx, ty)):
        return None
    return square(sx, sy) << 7 | square(tx, ty)


# --------------------------------------------------------------------------- position


class _Seen(NamedTuple):
    """A position met earlier in the game and whether the move played from it gave check."""

    board: tuple[int, ...]
    side: int
    gave_check: bool


@dataclass(frozen=True, slots=True)
class XiangqiPosition(Position[XiangqiMove]):
    """An immutable Xiangqi position.

    ``board`` holds 90 piece codes (``sq = y * 9 + x``; ``kind | 8`` for Black, 0 empty),
    ``side`` the side to move (0 Red, 1 Black), ``halfmove`` the plies since the last
    capture, ``fullmove`` the FEN move number, and ``history`` the positions met since
    the last irreversible move (a capture or a soldier's step forward), for the
    repetition rule.
    """

    board: tuple[int, ...]
    side: int = RED
    halfmove: int = 0
    fullmove: int = 1
    history: tuple[_Seen, ...] = ()
    _cache: dict[str, Any] = field(default_factory=dict, init=False, compare=False,
                                   repr=False)

    @property
    def variant(self) -> XiangqiVariant:
        return XIANGQI

    @property
    def to_move(self) -> frozenset[int]:
        return frozenset() if self.outcome() is not None else frozenset([self.side])

    # ---- moves

    def _moves(self) -> list[int]:
        """Legal moves ignoring the draw rules (the raw move tree)."""
        moves: list[int] | None = self._cache.get("moves")
        if moves is None:
            board = Board(self.board, self.side, self._cache.get("points"))
            self._cache["points"] = board.pieces
            moves = self._cache["moves"] = board.legal(self.in_check())
        return moves

    def legal_moves(self) -> tuple[XiangqiMove, ...]:
        """Every legal move, or ``()`` once the game is over."""
        if self.outcome() is not None:
            return ()
        moves: tuple[XiangqiMove, ...] | None = self._cache.get("legal")
        if moves is None:
            moves = self._cache["legal"] = tuple(map(_MOVES.__getitem__, self._moves()))
        return moves

    def play(self, move: XiangqiMove) -> XiangqiPosition:
        """The position after ``move``; raises IllegalMoveError saying why it is illegal."""
        m = _known_int(move)
        if m is None:
            m = _int_of(move)
        if self.outcome() is not None:
            raise IllegalMoveError(detail("game_over"))
        if m is None:
            raise IllegalMoveError(detail("not_a_move_value", value=repr(move), game="xiangqi"))
        if m not in self._move_set():
            raise IllegalMoveError(_why(self, m >> 7, m & 127), text=_canonical(self, m))
        return self._after(m)

    def _move_set(self) -> frozenset[int]:
        moves: frozenset[int] | None = self._cache.get("move_set")
        if moves is None:
            moves = self._cache["move_set"] = frozenset(self._moves())
        return moves

    def _after(self, m: int) -> XiangqiPosition:
        fr, to = m >> 7, m & 127
        board = list(self.board)
        p = board[fr]
        captured = board[to]
        board[to] = p
        board[fr] = 0
        new_board = tuple(board)
        other = self.side ^ 1
        their_king = new_board.index(KING | (BLACK_BIT if other else 0))
        gives_check = attacked(new_board, their_king, other)
        forward = p & 7 == SOLDIER and to // WIDTH != fr // WIDTH
        if captured or forward:
            history: tuple[_Seen, ...] = ()
        else:
            history = (*self.history, _Seen(self.board, self.side, gives_check))
        child = XiangqiPosition(
            new_board, other,
            0 if captured else self.halfmove + 1,
            self.fullmove + (1 if self.side == BLACK else 0),
            history)
        # what the child's in_check() and move generator would work out again
        child._cache["check"] = gives_check
        points: tuple[list[int], list[int]] | None = self._cache.get("points")
        if points is not None:
            mine, theirs = list(points[self.side]), points[other]
            mine[mine.index(fr)] = to
            mine.sort()
            if captured:
                theirs = [sq for sq in theirs if sq != to]
            child._cache["points"] = (mine, theirs) if other else (theirs, mine)
        return child

    # ---- state

    def king_point(self, seat: int) -> Point:
        """The point of ``seat``'s general."""
        return POINTS[self.board.index(KING | (BLACK_BIT if seat else 0))]

    def in_check(self) -> bool:
        """Whether the side to move is in check."""
        checked: bool | None = self._cache.get("check")
        if checked is None:
            k = self.board.index(KING | (BLACK_BIT if self.side else 0))
            checked = self._cache["check"] = attacked(self.board, k, self.side)
        return checked

    def checked_point(self) -> Point | None:
        """The point of the general in check (the side to move's), or None."""
        return self.king_point(self.side) if self.in_check() else None

    def captured_counts(self) -> tuple[int, int]:
        """Per side, the enemy pieces it has taken (16 minus the enemy's pieces)."""
        black = sum(1 for p in self.board if p & BLACK_BIT)
        red = sum(1 for p in self.board if p) - black
        return max(0, 16 - black), max(0, 16 - red)

    def repetitions(self) -> int:
        """How often this position (same side to move) has occurred, this time included."""
        return 1 + sum(1 for seen in self.history
                       if seen.side == self.side and seen.board == self.board)

    def outcome(self) -> Outcome | None:
        if "outcome" not in self._cache:
            self._cache["outcome"] = self._decide()
        result: Outcome | None = self._cache["outcome"]
        return result

    def _decide(self) -> Outcome | None:
        # No legal move loses, and takes precedence over the draw rules: the position
        # that would be drawn is already lost.
        if not self._moves():
            reason = "checkmate" if self.in_check() else "stalemate"
            return Outcome.win(self.side ^ 1, seats=2, reason=reason)
        if self.repetitions() >= 3:
            first = next(i for i, seen in enumerate(self.history)
                         if seen.side == self.side and seen.board == self.board)
            window = self.history[first:]
            always = [all(seen.gave_check for seen in window if seen.side == s)
                      for s in (RED, BLACK)]
            if always[RED] != always[BLACK]:
                checker = RED if always[RED] else BLACK
                return Outcome.win(checker ^ 1, seats=2, reason="perpetual-check")
            return Outcome.draw(seats=2, reason="repetition")
        if self.halfmove >= 100:
            return Outcome.draw(seats=2, reason="move-limit")
        return None

    # ---- views

    def to_text(self) -> str:
        rows = []
        for y in range(HEIGHT - 1, -1, -1):
            row = ""
            empty = 0
            for x in range(WIDTH):
                p = self.board[square(x, y)]
                if not p:
                    empty += 1
                    continue
                if empty:
                    row += str(empty)
                    empty = 0
                letter = KIND_LETTERS[p & 7]
                row += letter.lower() if p & BLACK_BIT else letter
            if empty:
                row += str(empty)
            rows.append(row)
        side = "b" if self.side else "w"
        return f"{'/'.join(rows)} {side} - - {self.halfmove} {self.fullmove}"

    def pieces(self) -> Mapping[Point, Piece]:
        piece_of = _PIECE_OF_CODE
        return {POINTS[sq]: piece_of[p] for sq, p in enumerate(self.board) if p}

    def __str__(self) -> str:
        return self.to_text()


# --------------------------------------------------------------------------- FEN


def _read_fen(text: str) -> XiangqiPosition:
    if not isinstance(text, str):
        raise PositionError(detail("position_not_text"), text=str(text))
    if len(text) > 200:
        raise PositionError(detail("position_too_long", length=len(text)), text=text[:200])
    fields = text.split()
    if not 2 <= len(fields) <= 6:
        raise PositionError(detail("xiangqi_fen_fields", example=START_FEN), text=text)
    ranks = fields[0].split("/")
    if len(ranks) != HEIGHT:
        raise PositionError(detail("fen_rank_count", ranks=HEIGHT, count=len(ranks)),
                            text=text)
    board = [0] * (WIDTH * HEIGHT)
    for i, row in enumerate(ranks):
        y = HEIGHT - 1 - i
        x = 0
        for c in row:
            if c in "123456789":
                x += int(c)
            elif c.isascii() and c.lower() in FEN_PIECES:
                if x >= WIDTH:
                    break
                board[square(x, y)] = FEN_PIECES[c.lower()] | (BLACK_BIT if c.islower() else 0)
                x += 1
            else:
                raise PositionError(detail("not_a_piece_letter", input=c,
                                           letters=("KABNRCP", "kabnrcp")), text=text)
        if x != WIDTH:
            raise PositionError(detail("rank_width", rank=y + 1, row=row, count=x, width=WIDTH),
                                text=text)
    side_field = fields[1].lower()
    if side_field not in ("w", "r", "b"):
        raise PositionError(detail("side_letter", input=fields[1], letters=("'w'", "'b'")),
                            text=text)
    side = BLACK if side_field == "b" else RED
    for extra in fields[2:4]:
        if extra != "-":
            raise PositionError(detail("fen_dash_fields", input=extra), text=text)
    numbers = []
    for value, low in ((fields[4:5], 0), (fields[5:6], 1)):
        if not value:
            numbers.append(low)
            continue
        digits = value[0]
        if not (digits.isascii() and digits.isdigit()) or len(digits) > 6 or int(digits) < low:
            raise PositionError(detail("halfmove_clock_number" if low == 0
                                       else "move_number_number", input=value[0]), text=text)
        numbers.append(int(value[0]))
    _check_placement(board, side, text)
    return XiangqiPosition(tuple(board), side, numbers[0], numbers[1])


def _check_placement(board: list[int], side: int, text: str) -> None:
    """Refuse placements no game can reach, which the move generator relies on."""
    kings = [-1, -1]
    for s in (RED, BLACK):
        counts = [0] * 8
        for p in board:
            if p and colour_of(p) == s:
                counts[p & 7] += 1
        for kind in range(1, 8):
            if counts[kind] > MAX_COUNT[kind]:
                raise PositionError(detail("too_many_of_kind", seat=SIDE_NAMES[s],
                                           count=counts[kind], piece=KIND_NAMES[kind],
                                           most=MAX_COUNT[kind]), text=text)
        if counts[KING] != 1:
            raise PositionError(detail("one_general", seat=SIDE_NAMES[s], count=counts[KING]),
                                text=text)
    for sq, p in enumerate(board):
        if not p:
            continue
        s, kind = colour_of(p), p & 7
        x, y = POINTS[sq]
        if kind in (KING, ADVISOR) and not in_palace(s, x, y):
            raise PositionError(detail("outside_palace", seat=SIDE_NAMES[s],
                                       piece=KIND_NAMES[kind], point=NAMES[sq]), text=text)
        if kind == KING:
            kings[s] = sq
        if kind == ADVISOR and (x + y) % 2 != (1 if s == RED else 0):
            raise PositionError(detail("advisor_point", seat=SIDE_NAMES[s], point=NAMES[sq]),
                                text=text)
        if kind == ELEPHANT and sq not in ELEPHANT_POINTS[s]:
            raise PositionError(detail("unreachable_point", seat=SIDE_NAMES[s],
                                       piece=KIND_NAMES[kind], point=NAMES[sq]), text=text)
        if kind == SOLDIER:
            start_rank = 3 if s == RED else 6
            behind = y < start_rank if s == RED else y > start_rank
            if behind or (not crossed(s, y) and x % 2):
                raise PositionError(detail("unreachable_point", seat=SIDE_NAMES[s],
                                           piece=KIND_NAMES[kind], point=NAMES[sq]), text=text)
    other = side ^ 1
    if attacked(board, kings[other], other):
        if generals_face(board, kings[other]):
            raise PositionError(detail("generals_face_on_turn", seat=SIDE_NAMES[side]),
                                text=text)
        raise PositionError(detail("check_on_turn", other=SIDE_NAMES[other],
                                   seat=SIDE_NAMES[side]), text=text)


# --------------------------------------------------------------------------- notation


def _canonical(p: XiangqiPosition, m: int) -> str:
    to = m & 127
    return f"{NAMES[m >> 7]}{'x' if p.board[to] else '-'}{NAMES[to]}"


def _wxf_file(side: int, x: int) -> int:
    """WXF files count 1-9 from each player's own right."""
    return WIDTH - x if side == RED else x + 1


def _tandem(p: XiangqiPosition, sq: int) -> list[int]:
    """The points of the mover's pieces of the kind on ``sq`` standing on its file,
    frontmost first (front = nearer the opponent)."""
    piece = p.board[sq]
    x = sq % WIDTH
    same = [square(x, y) for y in range(HEIGHT) if p.board[square(x, y)] == piece]
    return same[::-1] if colour_of(piece) == RED else same


def _wxf_designator(p: XiangqiPosition, sq: int) -> str:
    """The first two characters of a WXF move: piece letter and file, or the tandem forms."""
    piece = p.board[sq]
    kind = piece & 7
    side = colour_of(piece)
    letter = WXF_LETTERS[kind]
    file = _wxf_file(side, sq % WIDTH)
    column = _tandem(p, sq)
    n = len(column)
    if n == 1:
        return f"{letter}{file}"
    i = column.index(sq)
    if kind != SOLDIER:
        return f"{letter}{'+' if i == 0 else '-'}"
    tandem_files = {POINTS[q][0] for q in range(WIDTH * HEIGHT)
                    if p.board[q] == piece and len(_tandem(p, q)) >= 2}
    if len(tandem_files) > 1:
        # pawns doubled on two files: the file digit replaces the letter
        mark = "+" if i == 0 else "-" if i == n - 1 else str(file)
        return f"{file}{mark}"
    marks = {2: ("P+", "P-"), 3: ("P+", f"P{file}", "P-"), 4: ("++", "P+", "P-", "--"),
             5: ("++", "P+", f"P{file}", "P-", "--")}[n]
    return marks[i]


def format_wxf(p: XiangqiPosition, move: XiangqiMove | Any) -> str:
    """The WXF notation of a legal move, e.g. ``C2.5``, ``H8+7``, ``R+.3``.

    >>> import rules
    >>> v = rules.variant("xiangqi")
    >>> p = v.start()
    >>> format_wxf(p, v.parse_move(p, "b1-c3"))
    'H8+7'
    """
    m = _int_of(move)
    if m is None:
        raise IllegalMoveError(detail("not_a_move_value", value=repr(move), game="xiangqi"))
    fr, to = m >> 7, m & 127
    piece = p.board[fr]
    kind = piece & 7
    side = colour_of(piece)
    (_, fy), (tx, ty) = POINTS[fr], POINTS[to]
    ahead = (ty - fy) if side == RED else (fy - ty)
    if ahead == 0:
        op, number = ".", _wxf_file(side, tx)
    else:
        op = "+" if ahead > 0 else "-"
        number = _wxf_file(side, tx) if kind in (ADVISOR, ELEPHANT, HORSE) else abs(ahead)
    return f"{_wxf_designator(p, fr)}{op}{number}"


_WXF = re.compile(r"([kaebhnrcp][1-9+\-]|[+\-][kaebhnrcp]|[+\-]{2}|[1-9][1-9+\-])"
                  r"([+\-.=])([1-9])")
_WXF_ALIASES = {"b": "e", "n": "h"}


def _wxf_sources(p: XiangqiPosition, designator: str) -> list[int]:
    """The mover's points a WXF designator (``C2``, ``C+``, ``+C``, ``++``, ``3+``) names."""
    side = p.side
    colour = BLACK_BIT if side else 0
    d = designator
    if d[0] in "+-" and d[1] not in "+-":
        d = d[1] + d[0]  # '+C' is 'C+'
    head, mark = d[0], d[1]
    if head in "+-" or head.isdigit():
        kind = SOLDIER
    else:
        head = _WXF_ALIASES.get(head, head)
        kind = WXF_LETTERS.index(head.upper())
    piece = kind | colour
    own = [q for q in range(WIDTH * HEIGHT) if p.board[q] == piece]
    if head.isdigit():
        own = [q for q in own if _wxf_file(side, q % WIDTH) == int(head)]
    columns: dict[int, list[int]] = {}  # file -> the pieces on it, frontmost first
    for q in own:
        if q % WIDTH not in columns:
            columns[q % WIDTH] = _tandem(p, q)
    found: list[int] = []
    for column in columns.values():
        n = len(column)
        if mark.isdigit():
            if _wxf_file(side, column[0] % WIDTH) != int(mark):
                continue
            # the middle one of three or five tandem pawns, else any piece on the file
            found += [column[n // 2]] if kind == SOLDIER and n in (3, 5) else column
            continue
        if n < 2:
            continue
        sign = 0 if mark == "+" else -1
        if head in "+-":  # '++' / '--': the outermost of four or five
            if n >= 4 and head == mark:
                found.append(column[sign])
        elif kind == SOLDIER and n >= 4 and not head.isdigit():
            found.append(column[1] if mark == "+" else column[-2])
        else:
            found.append(column[sign])
    return found


def _wxf_target(p: XiangqiPosition, fr: int, op: str, number: int) -> int | Detail:
    """Where a WXF operator and number send the piece on ``fr``, or why they cannot."""
    piece = p.board[fr]
    kind = piece & 7
    side = colour_of(piece)
    name = KIND_NAMES[kind]
    fx, fy = POINTS[fr]
    forward = 1 if side == RED else -1
    tx = WIDTH - number if side == RED else number - 1
    if op == ".":
        if kind in (ADVISOR, ELEPHANT, HORSE):
            return detail("never_sideways", piece=name, point=NAMES[fr])
        if tx == fx:
            return detail("sideways_same_file", file=number)
        return square(tx, fy)
    sign = forward if op == "+" else -forward
    if kind in (ADVISOR, ELEPHANT, HORSE):
        dx = abs(tx - fx)
        dy = {ADVISOR: {1: 1}, ELEPHANT: {2: 2}, HORSE: {1: 2, 2: 1}}[kind].get(dx)
        if dy is None:
            return detail("cannot_reach_file", piece=name, point=NAMES[fr], file=number,
                          letter=WXF_LETTERS[kind])
        ty = fy + sign * dy
    else:
        tx, ty = fx, fy + sign * number
    if not on_board(tx, ty):
        return detail("would_leave_board", piece=name, point=NAMES[fr])
    return square(tx, ty)


def _parse_wxf(p: XiangqiPosition, text: str, compact: str) -> XiangqiMove | None:
    """The move WXF text names, or None when ``compact`` is not WXF."""
    match = _WXF.fullmatch(compact)
    if not match:
        return None
    designator, op, number = match.group(1), match.group(2), int(match.group(3))
    op = "." if op == "=" else op
    sources = _wxf_sources(p, designator)
    if not sources:
        raise IllegalMoveError(detail("wxf_no_piece", input=text.strip(),
                                      seat=SIDE_NAMES[p.side], designator=designator.upper()),
                               text=text)
    targets = [(fr, _wxf_target(p, fr, op, number)) for fr in sources]
    shaped = [(fr, to) for fr, to in targets if isinstance(to, int)]
    if not shaped:
        refused = targets[0][1]
        assert isinstance(refused, Detail)
        raise IllegalMoveError(detail("input_refused", input=text.strip(), reason=refused),
                               text=text)
    legal = p._move_set()
    found = resolve(text, [fr << 7 | to for fr, to in shaped],
                    matches=lambda m: m in legal, format_move=lambda m: _canonical(p, m))
    if found is None:
        fr, to = shaped[0]
        raise IllegalMoveError(detail("wxf_refused", input=text.strip(),
                                      move=_canonical(p, fr << 7 | to), reason=_why(p, fr, to)),
                               text=text)
    return _move_of(found)


def _why(p: XiangqiPosition, fr: int, to: int) -> Detail:
    """Why the move from ``fr`` to ``to`` is not legal in ``p`` (the failure path only)."""
    b = p.board
    piece = b[fr]
    s = p.side
    if fr == to:
        return detail("null_move", point=NAMES[fr])
    if not piece:
        return detail("empty_point", point=NAMES[fr], piece="piece")
    if colour_of(piece) != s:
        return detail("opponents_piece", point=NAMES[fr], other=SIDE_NAMES[s ^ 1],
                      seat=SIDE_NAMES[s])
    kind = piece & 7
    target = b[to]
    if target and colour_of(target) == s:
        return detail("own_piece_on", piece=KIND_NAMES[target & 7], point=NAMES[to])
    (fx, fy), (tx, ty) = POINTS[fr], POINTS[to]
    dx, dy = tx - fx, ty - fy
    ax, ay = abs(dx), abs(dy)
    between = [q for q in _between(fr, to) if b[q]] if (dx == 0) != (dy == 0) else []
    reason: Detail | None = None
    name = KIND_NAMES[kind]
    if kind == KING:
        if ax + ay != 1:
            reason = detail("general_step")
        elif not in_palace(s, tx, ty):
            reason = detail("stay_in_palace", piece=name)
    elif kind == ADVISOR:
        if ax != 1 or ay != 1:
            reason = detail("advisor_step")
        elif not in_palace(s, tx, ty):
            reason = detail("stay_in_palace", piece=name)
    elif kind == ELEPHANT:
        if ax != 2 or ay != 2:
            reason = detail("elephant_step")
        elif not own_half(s, ty):
            reason = detail("elephant_river")
        elif b[square(fx + dx // 2, fy + dy // 2)]:
            reason = detail("blocked", piece=name,
                            point=NAMES[square(fx + dx // 2, fy + dy // 2)])
    elif kind == HORSE:
        if sorted((ax, ay)) != [1, 2]:
            reason = detail("horse_step")
        else:
            leg = square(fx + (dx // 2 if ax == 2 else 0), fy + (dy // 2 if ay == 2 else 0))
            if b[leg]:
                reason = detail("blocked", piece=name, point=NAMES[leg])
    elif kind == CHARIOT:
        if dx and dy:
            reason = detail("moves_straight", piece=name)
        elif between:
            reason = detail("blocked", piece=name, point=NAMES[between[0]])
    elif kind == CANNON:
        if dx and dy:
            reason = detail("moves_straight", piece=name)
        elif target and not between:
            reason = detail("cannon_no_screen")
        elif target and len(between) != 1:
            reason = detail("cannon_screens", count=len(between))
        elif not target and between:
            reason = detail("cannon_blocked", point=NAMES[between[0]])
    else:
        ahead = dy if s == RED else -dy
        if ahead < 0:
            reason = detail("soldier_backwards")
        elif ax + ay != 1:
            reason = detail("soldier_step")
        elif dx and not crossed(s, fy):
            reason = detail("soldier_sideways")
    if reason is not None:
        return reason
    board = list(b)
    board[to] = piece
    board[fr] = 0
    k = to if kind == KING else b.index(KING | (BLACK_BIT if s else 0))
    if generals_face(board, k):
        return detail("generals_would_face")
    return _in_check(board, k, s)


def _between(fr: int, to: int) -> list[int]:
    (fx, fy), (tx, ty) = POINTS[fr], POINTS[to]
    sx, sy = (tx > fx) - (tx < fx), (ty > fy) - (ty < fy)
    out = []
    x, y = fx + sx, fy + sy
    while (x, y) != (tx, ty):
        out.append(square(x, y))
        x, y = x + sx, y + sy
    return out


def _in_check(board: list[int], k: int, s: int) -> Detail:
    """The general on ``k`` would be in check, naming one attacker when there is one."""
    for q in range(WIDTH * HEIGHT):
        piece = board[q]
        if piece and colour_of(piece) != s:
            moves = pseudo_moves(board, [q], s ^ 1)
            if any(m & 127 == k for m in moves):
                return detail("in_check_from", piece=KIND_NAMES[piece & 7], point=NAMES[q])
    return detail("in_check")


_ICCS_RANK_0 = re.compile(r"[a-i]0(?!\d)")


def as_xiangqi_position(position: Position) -> XiangqiPosition:
    """``position`` itself when it is a Xiangqi position (the variant's methods take any
    position the API hands them); a ``TypeError`` otherwise."""
    if not isinstance(position, XiangqiPosition):
        raise TypeError(f"not a xiangqi position: {position!r}")
    return position


class XiangqiVariant(Variant[XiangqiPosition, XiangqiMove]):
    """Xiangqi, RULES.md §3: seat 0 is Red and moves first, seat 1 is Black."""

    key: ClassVar[str] = "xiangqi"
    worth_unit: ClassVar[str] = "soldier"
    name: ClassVar[str] = N_("Xiangqi")
    summary: ClassVar[str] = N_(
        "**Xiangqi** (Chinese chess) on 9×10 points with a river and two palaces. Red "
        "moves first. General and advisors stay in the palace, elephants never cross the "
        "river, horses and elephants can be blocked, cannons capture by jumping exactly "
        "one piece, soldiers move sideways after crossing the river. The generals may "
        "never face each other on an open file. A player with no legal move loses "
        "(checkmate or stalemate); perpetual check loses; other repetitions draw.\n"
        "Moves: `h3-e3`, captures `h3xh10`; WXF input like `C2.5` works too.")
    board_size: ClassVar[tuple[int, int]] = (WIDTH, HEIGHT)
    board_facts: ClassVar[BoardFacts] = BoardFacts(
        "river", "characters", 0.90, kinds=tuple("KABNRCP"),
        kind_names={"K": "general", "A": "advisor", "B": "elephant", "N": "horse",
                    "R": "chariot", "C": "cannon", "P": "soldier"})
    options: ClassVar[Mapping[str, tuple[object, ...]]] = {}
    example_options: ClassVar[tuple[Mapping[str, object], ...]] = ({},)

    def start(self, **options: Any) -> XiangqiPosition:
        self.check_options(options)
        return _read_fen(START_FEN)

    def from_text(self, text: str) -> XiangqiPosition:
        return _read_fen(text)

    def format_move(self, position: XiangqiPosition, move: XiangqiMove) -> str:
        p = as_xiangqi_position(position)
        m = _int_of(move)
        if m is None or m not in p._move_set():
            raise IllegalMoveError(detail("not_legal", move=repr(move)))
        return _canonical(p, m)

    def parse_move(self, position: XiangqiPosition, text: str) -> XiangqiMove:
        p = as_xiangqi_position(position)
        s = normalize(text)
        if p.outcome() is not None:
            raise IllegalMoveError(detail("game_over"), text=text)
        compact = "".join(s.split())
        wxf = _parse_wxf(p, text, compact)
        if wxf is not None:
            return wxf
        try:
            written = tokenize(s)
        except NotationError as err:
            raise NotationError(detail("xiangqi_move_syntax", input=text.strip()),
                                text=text) from err
        if len(written.points) != 2:
            raise NotationError(detail("two_points_move", input=text.strip()), text=text)
        if _ICCS_RANK_0.search(compact):
            raise NotationError(detail("iccs_rank_zero", input=text.strip()), text=text)
        fr, to = (square(*parse_point(t, width=WIDTH, height=HEIGHT)) for t in written.points)
        m = fr << 7 | to
        if m not in p._move_set():
            raise IllegalMoveError(detail("move_refused", move=f"{NAMES[fr]}-{NAMES[to]}",
                                          reason=_why(p, fr, to)), text=text)
        if written.is_capture and not p.board[to]:
            raise IllegalMoveError(detail("captures_nothing", move=f"{NAMES[fr]}x{NAMES[to]}",
                                          point=NAMES[to], instead=f"{NAMES[fr]}-{NAMES[to]}"),
                                   text=text)
        return _move_of(m)

    def move_marks(self, position: XiangqiPosition, move: XiangqiMove) -> MoveMarks:
        p = as_xiangqi_position(position)
        m = _int_of(move)
        if m is None:
            raise IllegalMoveError(detail("not_a_move_value", value=repr(move), game="xiangqi"))
        fr, to = m >> 7, m & 127
        captured = (POINTS[to],) if p.board[to] else ()
        return MoveMarks((POINTS[fr], POINTS[to]), captured)

    def display_move(self, position: XiangqiPosition, move: XiangqiMove) -> str:
        p = as_xiangqi_position(position)
        return f"{self.format_move(p, move)} ({format_wxf(p, move)})"

    def seat_name(self, seat: int, seat_count: int = 2) -> str:
        return SIDE_NAMES[seat]

    def perft(self, position: XiangqiPosition, depth: int) -> int:
        """Leaf count of the move tree from ``position``, with the fast path. Like the
        published tables it ignores the draw rules (repetition, 100 plies)."""
        p = as_xiangqi_position(position)
        return Board(p.board, p.side).perft(depth)

    record_format = "wxf"

    def export_record(self, record: GameRecord) -> str:
        """WXF with the start as FEN: the players, the result, the moves in WXF
        notation two a line, the final position (written by :data:`WXF`).

        >>> import rules
        >>> print(rules.variant("xiangqi").export_record(GameRecord(
        ...     start=rules.variant("xiangqi").start().to_text(), moves=("h3-e3",),
        ...     players={0: 'Ana "the Red"'})).splitlines()[1:4])
        ['[Red "Ana \\\\"the Red\\\\""]', '[Black "?"]', '[Result "*"]']
        """
        return WXF.export(record).text


def _wxf_move(p: Position, text: str) -> tuple[str, Position]:
    """A stored move of a record (any notation Xiangqi reads) played at ``p``: in WXF,
    and the position after it."""
    at = as_xiangqi_position(p)
    move = XIANGQI.parse_move(at, text)
    return format_wxf(at, move), at.play(move)


def _wxf_text(record: GameRecord, written: Sequence[str], start: Position,
              end: Position) -> str:
    """The WXF file of ``record``, its moves ``written`` in WXF, ``end`` the position
    after them: the tags (the players' escaped, as PDN's), two moves a line, the words
    of an end outside the rules, the final position."""
    outcome = record.outcome
    result = "*"
    if outcome is not None:
        result = "1/2-1/2" if outcome.is_draw else ("1-0" if 0 in outcome.winners
                                                   else "0-1")
    lines = ['[Game "Chinese Chess"]', tag_pair("Red", record.players.get(0, "?")),
             tag_pair("Black", record.players.get(1, "?")), f'[Result "{result}"]',
             f'[FEN "{record.start}"]', '[Format "WXF"]',
             *(tag_pair(name, value) for name, value in record.tags.items()), "", "START{"]
    lines += [f"{i // 2 + 1:3d}. " + "  ".join(written[i:i + 2])
              for i in range(0, len(written), 2)]
    said = closing_words(XIANGQI, outcome)  # an end outside the rules, as Tablero says it
    if said is not None:
        lines.append(f"{{{said}}}")
    lines += ["}END", f"FINAL FEN: {end.to_text()}"]
    return "\n".join(lines) + "\n"


WXF = RecordWriter(_read_fen, _wxf_move, _wxf_text)
"""How a Xiangqi record is written in WXF (:meth:`XiangqiVariant.export_record`; the
web's match page writes it on move by move: ``rules.records.RecordExport``)."""

XIANGQI = register(XiangqiVariant())
register_writer("wxf", WXF)
