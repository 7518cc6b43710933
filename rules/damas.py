"""Spanish draughts (damas españolas), key ``damas``: RULES.md §4, §6 and §7.

Board and numbering. Only the squares with ``(file + rank)`` odd (1-based) are used, so
``h1`` is a playing square and the long diagonal runs ``h1``-``a8``. The squares are
numbered 1-32 as the Spanish federation and PDN do: from White's bottom right, right to
left, bottom to top (``h1=1 f1=2 d1=3 b1=4 g2=5 … a8=32``). White (seat 0) starts on 1-12
and moves first; Black (seat 1) starts on 21-32.

>>> import rules
>>> v = rules.variant("damas")
>>> p = v.start()
>>> m = v.parse_move(p, "11-15")
>>> v.format_move(p, m), v.display_move(p, m)
('d3-c4', 'd3-c4 (11-15)')
>>> p.play(m).to_text()
'B:W1,2,3,4,5,6,7,8,9,10,12,15:B21,22,23,24,25,26,27,28,29,30,31,32'

Moves. A :class:`DamasMove` is the path (start square, then every landing square, as PDN
numbers) and the captured squares in the order they were jumped. Two capture paths with the
same start, end and captured set are one move (RULES §6); the move keeps the path whose
algebraic string is alphabetically smallest, which is its canonical string (``f3xd5xf7``;
``d3-c4`` for a plain move). Input also takes every other path of the move, PDN numbers
(``11-15``, ``10x19x26``) and start/end alone (``10x26``, ``f3xf7``) when that names one
legal move.

Position text: PDN FEN plus draw-counter fields, colon separated::

    W:W1,2,3,4,5,6,7,8,9,10,11,12:B21,22,23,24,25,26,27,28,29,30,31,32   the start
    B:W18,K30:BK5,K9:H12                 Black to move; 12 king plies in a row
    W:WK3,K14,K28:BK20:T4                three kings vs one, 4 moves of the count made

* field 1: the side to move, ``W`` or ``B``;
* fields 2 and 3: ``W`` then White's squares, ``B`` then Black's squares, ascending,
  a ``K`` before a king's square;
* ``H<n>`` (only when n > 0): consecutive plies in which a king moved without capturing
  (the game is drawn at 40);
* ``T<n>`` (only while it runs): the moves the strong side has made since the three-kings
  count started (drawn after 13).

Input is forgiving: either piece list may come first, ranges (``1-12``), lower case, spaces
and a trailing ``.`` are accepted, and a plain PDN FEN loads with both counters at 0 (the
three-kings count starts at 0 if its condition holds). A man on its promotion rank, two
pieces on a square, more than 12 pieces a side or a counter out of range is a
PositionError. Repetition history is not part of the text (RULES §7 lets the move record
hold it): a position keeps the positions met since the last man move or capture, and one
read from text starts fresh, counting itself as the first occurrence.

The move generator behind positions and perft is :mod:`rules.damas_board`.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

from rules.core import (
    N_,
    BoardFacts,
    Detail,
    GameRecord,
    IllegalMoveError,
    MoveMarks,
    NotationError,
    Outcome,
    PathMove,
    Piece,
    Point,
    Position,
    PositionError,
    Variant,
    detail,
    register,
)
from rules.damas_board import (
    BETWEEN,
    BIT,
    FAR_RANK,
    LONG_DIAGONAL,
    NAME,
    POINT,
    RANK1,
    RANK8,
    RAYS,
    SQUARE_AT,
    SQUARE_OF,
    SQUARES,
    START_BLACK,
    START_WHITE,
    VALID,
    best_captures,
    capture_sequences,
    perft_bits,
    quiet_moves,
)
from rules.notation import (
    normalize,
    parse_point,
    path_matches,
    resolve,
    tokenize,
)
from rules.records import (
    COMMON_TAGS,
    ImportedGame,
    RecordError,
    RecordWriter,
    closing_words,
    read_standard_record,
    read_tags,
    register_reader,
    register_writer,
    tag_pair,
)

WHITE, BLACK = 0, 1
_PIECES = tuple((Piece(seat, "man"), Piece(seat, "king")) for seat in (WHITE, BLACK))
"""Per seat, its man and its king as ``pieces()`` shows them, made once: ``pieces()`` runs
at every node of an engine search."""
KING_PLY_LIMIT = 40  # 20 king moves a side without capture or man move
THREE_KINGS_LIMIT = 13  # moves of the strong side in three kings vs one
MAX_PIECES = 12

def perft(position: DamasPosition, depth: int) -> int:
    """Leaf count of the move tree from ``position`` by the movement rules alone (moves
    identified as RULES §6 says; draw rules not applied), as published perft tables count.

    >>> perft(DAMAS.start(), 3)
    302
    """
    if depth <= 0:
        return 1
    white = position.turn == WHITE
    own, opp = (position.white, position.black) if white else (position.black, position.white)
    return perft_bits(own, opp, position.kings, white, depth)


# --------------------------------------------------------------------------- moves


class DamasMove(PathMove):
    """A move (:class:`rules.core.PathMove`): ``path`` is the start square then every
    landing square (PDN numbers); ``captured`` the squares of the captured pieces in the
    order they were jumped.

    >>> DamasMove((10, 19, 26), (15, 23)).is_capture
    True
    """

    __slots__ = ()

    def algebraic(self) -> str:
        """``d3-c4`` or ``f3xd5xf7`` (the canonical string when the move is legal)."""
        return ("x" if self.captured else "-").join(NAME[n] for n in self.path)

    def numeric(self) -> str:
        """PDN numbers: ``11-15`` or ``10x19x26``."""
        return ("x" if self.captured else "-").join(str(n) for n in self.path)


def _path_text(path: Sequence[int]) -> str:
    return "x".join(NAME[SQUARE_OF[b]] for b in path)


def _captured_in_order(path: Sequence[int], taken: int) -> tuple[int, ...]:
    order = []
    for a, b in itertools.pairwise(path):
        for sq in BETWEEN[a, b]:
            if sq & taken:
                order.append(SQUARE_OF[sq])
                break
    return tuple(order)


@dataclass(frozen=True, slots=True)
class _Legal:
    """The legal moves of a position with every path each can be written as."""

    moves: tuple[DamasMove, ...]
    paths: dict[DamasMove, tuple[tuple[int, ...], ...]]

    def find(self, move: DamasMove) -> DamasMove | None:
        """The legal move with ``move``'s start, end and captured pieces, if any."""
        key = (move.start, move.end, frozenset(move.captured))
        return next((m for m in self.moves
                     if (m.start, m.end, frozenset(m.captured)) == key), None)


def _step_entry(start: int, end: int) -> tuple[str, DamasMove, tuple[tuple[int, ...], ...]]:
    move = DamasMove((SQUARE_OF[start], SQUARE_OF[end]))
    return move.algebraic(), move, (move.path,)


_STEPS = {(b, sq): _step_entry(b, sq) for b in BIT[1:] for ray in RAYS[b] for sq in ray}
"""Every step (from bit, to bit) along a diagonal: its canonical string, its move and
that move's one path, made once (a search generates the moves at every node)."""


def _legal(own: int, opp: int, kings: int, white: bool) -> _Legal:
    sequences = capture_sequences(own, opp, kings, white)
    if not sequences:
        # sorted by canonical string, as below (the strings differ: tuples never compare
        # further)
        steps = sorted(map(_STEPS.__getitem__, quiet_moves(own, opp, kings, white)))
        return _Legal(tuple([move for _, move, _ in steps]),
                      {move: paths for _, move, paths in steps})
    paths: dict[DamasMove, tuple[tuple[int, ...], ...]] = {}
    for (_, _, taken), bit_paths in best_captures(sequences, kings).items():
        canonical = min(bit_paths, key=_path_text)
        move = DamasMove(tuple(SQUARE_OF[b] for b in canonical),
                         _captured_in_order(canonical, taken))
        paths[move] = tuple(sorted({tuple(SQUARE_OF[b] for b in p) for p in bit_paths}))
    return _Legal(tuple(sorted(paths, key=DamasMove.algebraic)), paths)


_NO_MOVES = _Legal((), {})


def piece_moves(white: int, black: int, kings: int, turn: int) -> tuple[DamasMove, ...]:
    """The moves the pieces (bit boards) allow ``turn``, in the order of
    :meth:`DamasPosition.legal_moves`, without the draw rules (an engine's board keeps
    those itself).

    >>> start = DAMAS.start()
    >>> piece_moves(start.white, start.black, start.kings, 0) == start.legal_moves()
    True
    """
    own, opp = (white, black) if turn == WHITE else (black, white)
    return _legal(own, opp, kings, turn == WHITE).moves

# --------------------------------------------------------------------------- position


@dataclass(frozen=True, slots=True)
class DamasPosition(Position[DamasMove]):
    """A position of Spanish draughts. ``white``, ``black`` and ``kings`` are bit boards in
    the module's internal layout (use :meth:`pieces` or :data:`BIT` to read them);
    ``turn`` is the seat to move; ``king_plies`` and ``three_kings`` are the draw counters
    of the position text; ``history`` holds the (white, black, kings, turn) keys of the
    earlier positions since the last man move or capture, for threefold repetition.
    """

    white: int
    black: int
    kings: int
    turn: int = WHITE
    king_plies: int = 0
    three_kings: int | None = None
    history: tuple[tuple[int, int, int, int], ...] = ()
    _cache: list[Any] = field(default_factory=list, compare=False, repr=False, hash=False)

    # -- the Position API

    @property
    def variant(self) -> DamasVariant:
        return DAMAS

    @property
    def to_move(self) -> frozenset[int]:
        return frozenset() if self.outcome() is not None else frozenset([self.turn])

    def legal_moves(self) -> tuple[DamasMove, ...]:
        """Every legal move, sorted by canonical string; empty once the game is over."""
        return self._legal().moves

    def play(self, move: DamasMove) -> DamasPosition:
        """The position after ``move`` (a :class:`DamasMove`; any path of a legal move is
        accepted). Raises IllegalMoveError saying why when it is not legal."""
        legal = self._legal()
        found = None
        if isinstance(move, DamasMove) and move.path:
            if move in legal.paths:  # a move as legal_moves() hands it out
                found = move
            else:
                found = legal.find(move)
                if found is not None and move.path not in legal.paths[found]:
                    found = None
        if found is None:
            text = move.algebraic() if isinstance(move, DamasMove) else repr(move)
            if isinstance(move, DamasMove) and move.path and all(
                    n in SQUARES for n in move.path):
                reason = _why_illegal(self, move.path)
            else:
                reason = detail("not_a_move_value", value=text, game="damas")
            raise IllegalMoveError(reason, text=text)
        return self._after(found)

    def outcome(self) -> Outcome | None:
        """No pieces or no legal move to play loses; then repetition, the 40-ply king
        rule and three kings vs one draw (a win takes precedence)."""
        cache = self._cache
        if len(cache) < 2:
            self._raw_legal()
            cache.append(self._decide())
        result: Outcome | None = cache[1]
        return result

    def to_text(self) -> str:
        def side(letter: str, mask: int) -> str:
            return letter + ",".join(
                ("K" if BIT[n] & self.kings else "") + str(n) for n in SQUARES if BIT[n] & mask)

        fields = ["W" if self.turn == WHITE else "B", side("W", self.white),
                  side("B", self.black)]
        if self.king_plies:
            fields.append(f"H{self.king_plies}")
        if self.three_kings is not None:
            fields.append(f"T{self.three_kings}")
        return ":".join(fields)

    def pieces(self) -> dict[Point, Piece]:
        out = {}
        white, kings = self.white, self.kings
        occupied = white | self.black
        for n in SQUARES:
            b = BIT[n]
            if b & occupied:
                out[POINT[n]] = _PIECES[WHITE if b & white else BLACK][bool(b & kings)]
        return out

    def captured_counts(self) -> tuple[int, int]:
        """Per side, the enemy pieces it has taken (12 minus the enemy's pieces)."""
        return (max(0, MAX_PIECES - self.black.bit_count()),
                max(0, MAX_PIECES - self.white.bit_count()))

    # -- helpers

    @property
    def key(self) -> tuple[int, int, int, int]:
        """What makes two positions the same for repetition: pieces and side to move."""
        return self.white, self.black, self.kings, self.turn

    def _sides(self) -> tuple[int, int]:
        if self.turn == WHITE:
            return self.white, self.black
        return self.black, self.white

    def _raw_legal(self) -> _Legal:
        cache = self._cache
        if not cache:
            own, opp = self._sides()
            cache.append(_legal(own, opp, self.kings, self.turn == WHITE))
        result: _Legal = cache[0]
        return result

    def _legal(self) -> _Legal:
        return _NO_MOVES if self.outcome() is not None else self._raw_legal()

    def _decide(self) -> Outcome | None:
        own, _ = self._sides()
        other = 1 - self.turn
        if not own:
            return Outcome.win(other, seats=2, reason="no-pieces")
        if not self._raw_legal().moves:
            return Outcome.win(other, seats=2, reason="no-moves")
        if self.history.count(self.key) >= 2:
            return Outcome.draw(seats=2, reason="repetition")
        if self.king_plies >= KING_PLY_LIMIT:
            return Outcome.draw(seats=2, reason="move-limit")
        if self.three_kings is not None and self.three_kings >= THREE_KINGS_LIMIT:
            return Outcome.draw(seats=2, reason="three-kings")
        return None

    def _after(self, move: DamasMove) -> DamasPosition:
        start, end = BIT[move.start], BIT[move.end]
        taken = sum(BIT[n] for n in move.captured)
        white_moves = self.turn == WHITE
        own, opp = self._sides()
        is_king = bool(start & self.kings)
        own = (own & ~start) | end
        opp &= ~taken
        kings = self.kings & ~taken
        if is_king:
            kings = (kings & ~start) | end
        elif end & FAR_RANK[self.turn]:
            kings |= end
        white, black = (own, opp) if white_moves else (opp, own)
        reversible = is_king and not taken
        return DamasPosition(
            white, black, kings, 1 - self.turn,
            king_plies=self.king_plies + 1 if reversible else 0,
            three_kings=_three_kings_count(white, black, kings, self.three_kings, self.turn),
            history=(*self.history, self.key) if reversible else ())


def _three_kings_strong_side(white: int, black: int, kings: int) -> int | None:
    """The seat with three kings against a lone king (no men anywhere), else None."""
    if (white | black) & ~kings:
        return None
    w, b = white.bit_count(), black.bit_count()
    if (w, b) == (3, 1):
        return WHITE
    if (w, b) == (1, 3):
        return BLACK
    return None


def _three_kings_count(white: int, black: int, kings: int, before: int | None,
                       mover: int) -> int | None:
    strong = _three_kings_strong_side(white, black, kings)
    if strong is None:
        return None  # the material changed: the count stops for good
    if before is not None:
        return before + (1 if mover == strong else 0)
    strong_pieces = white if strong == WHITE else black
    return 0 if strong_pieces & LONG_DIAGONAL else None


# --------------------------------------------------------------------------- why illegal


def _side_name(seat: int) -> str:
    return "White" if seat == WHITE else "Black"


def _list_moves(moves: Sequence[DamasMove], limit: int = 6) -> tuple[str, ...]:
    """The moves' names for a message: the first ``limit``, then "…" for the rest."""
    names = [m.algebraic() for m in moves]
    return (*names[:limit], "…") if len(names) > limit else tuple(names)


def _why_illegal(pos: DamasPosition, path: Sequence[int]) -> Detail:
    """Why the written ``path`` (PDN squares) is not a legal move in ``pos``."""
    outcome = pos.outcome()
    if outcome is not None:
        return detail("game_over_because", ending=outcome.reason)
    written = "-".join(NAME[n] for n in path)
    own, opp = pos._sides()
    start = BIT[path[0]]
    if not start & (own | opp):
        return detail("empty_point", point=NAME[path[0]], piece="piece")
    if start & opp:
        return detail("opponents_piece", point=NAME[path[0]], other=_side_name(1 - pos.turn),
                      seat=_side_name(pos.turn))
    legal = pos.legal_moves()
    must_capture = legal[0].is_capture
    white = pos.turn == WHITE
    is_king = bool(start & pos.kings)
    # a complete capture sequence the quantity or quality rule excludes
    bit_path = [BIT[n] for n in path]
    for seq, taken in capture_sequences(own, opp, pos.kings, white):
        if path_matches([POINT[SQUARE_OF[b]] for b in bit_path],
                        [POINT[SQUARE_OF[b]] for b in seq]):
            best = max(len(m.captured) for m in legal)
            if taken.bit_count() < best:
                return detail("take_most", count=best, moves=_list_moves(legal))
            return detail("take_most_kings", moves=_list_moves(legal))
    # walk the written path step by step
    empty = VALID & ~(own | opp) | start
    taken = 0
    for a, b in itertools.pairwise(bit_path):
        step = f"{NAME[SQUARE_OF[a]]}-{NAME[SQUARE_OF[b]]}"
        between = BETWEEN.get((a, b))
        if between is None:
            if len(bit_path) == 2 and must_capture:
                return detail("no_capture_must_capture", start=NAME[path[0]],
                              end=NAME[path[-1]], moves=_list_moves(legal))
            return detail("not_diagonal", move=step)
        if not b & empty:
            return detail("occupied", point=NAME[SQUARE_OF[b]])
        pieces = [sq for sq in between if not sq & empty]
        upward = SQUARE_OF[b] > SQUARE_OF[a]
        ahead = upward == white
        if not pieces:
            if len(bit_path) > 2:
                return detail("step_then_more", move=step)
            if not is_king:
                if not ahead:
                    return detail("men_forwards")
                if between:
                    return detail("men_one_square")
            if must_capture:
                return detail("must_capture", moves=_list_moves(legal))
            break
        victim = pieces[0]
        if len(pieces) > 1:
            return detail("jumps_several", move=step, count=len(pieces),
                          points=", ".join(NAME[SQUARE_OF[p]] for p in pieces))
        if victim & own:
            return detail("jumps_own_piece", point=NAME[SQUARE_OF[victim]], piece="piece")
        if victim & taken:
            return detail("taken_twice", point=NAME[SQUARE_OF[victim]])
        if not is_king:
            if not ahead:
                return detail("men_capture_forwards")
            if len(between) != 1:
                return detail("man_jump_adjacent")
        taken |= victim
    if taken and must_capture:
        best = max(len(m.captured) for m in legal)
        if taken.bit_count() < best:
            return detail("take_most", count=best, moves=_list_moves(legal))
    if taken:
        written = "x".join(NAME[n] for n in path)
    return detail("not_legal_try", move=written, moves=_list_moves(legal))


# --------------------------------------------------------------------------- the variant

_PDN_MOVE = re.compile(r"\d+(\s*[-x:*×–—]\s*\d+)+")
_PDN_SQUARE = re.compile(r"\d+")


class DamasVariant(Variant[DamasPosition, DamasMove]):
    """Spanish draughts: 8×8, flying kings, quantity and quality capture rules."""

    key: ClassVar[str] = "damas"
    worth_unit: ClassVar[str] = "man"
    name: ClassVar[str] = N_("Spanish draughts")
    summary: ClassVar[str] = N_(
        "**Spanish draughts** (damas) on the light squares of an 8×8 board. White moves "
        "first. Men move and capture diagonally forward only; kings fly along diagonals. "
        "Capturing is compulsory, and you must take the most pieces, then the most "
        "kings. A man reaching the far rank becomes a king. You win when your opponent "
        "has no pieces or no legal move.\n"
        "Moves: `d3-c4`, captures list every landing square: `f3xd5xf7`.")
    board_size: ClassVar[tuple[int, int]] = (8, 8)
    board_facts: ClassVar[BoardFacts] = BoardFacts(
        "squares", "draughts", 0.80, kinds=("man", "king"), square_numbers=True)
    options: ClassVar[Mapping[str, tuple[object, ...]]] = {}
    example_options: ClassVar[tuple[Mapping[str, object], ...]] = ({},)

    def start(self, **options: Any) -> DamasPosition:
        self.check_options(options)
        return DamasPosition(START_WHITE, START_BLACK, 0, WHITE)

    def from_text(self, text: str) -> DamasPosition:
        return _read_position(text)

    def format_move(self, position: DamasPosition, move: DamasMove) -> str:
        pos = _own(position)
        legal = pos._legal()
        if not isinstance(move, DamasMove) or move not in legal.paths:
            raise IllegalMoveError(detail("not_legal", move=repr(move)), text=repr(move))
        return move.algebraic()

    def parse_move(self, position: DamasPosition, text: str) -> DamasMove:
        pos = _own(position)
        written = _read_squares(text)
        points = [POINT[n] for n in written]
        legal = pos._legal()
        found = resolve(
            text, legal.moves,
            matches=lambda m: any(path_matches(points, [POINT[n] for n in p])
                                  for p in legal.paths[m]),
            format_move=DamasMove.algebraic)
        if found is None:
            raise IllegalMoveError(_why_illegal(pos, written), text=text)
        return found

    def move_marks(self, position: DamasPosition, move: DamasMove) -> MoveMarks:
        self.format_move(position, move)  # refuses a move that is not legal here
        return MoveMarks(tuple(POINT[n] for n in move.path),
                         tuple(POINT[n] for n in move.captured))

    def display_move(self, position: DamasPosition, move: DamasMove) -> str:
        """``d3-c4 (11-15)``; a man's move onto the far rank adds ``crowned``."""
        text = f"{self.format_move(position, move)} ({move.numeric()})"
        pos = _own(position)
        if not BIT[move.start] & pos.kings and BIT[move.end] & FAR_RANK[pos.turn]:
            text += " crowned"
        return text

    def seat_name(self, seat: int, seat_count: int = 2) -> str:
        return _side_name(seat)

    def perft(self, position: DamasPosition, depth: int) -> int:
        return perft(_own(position), depth)

    record_format = "pdn"

    def export_record(self, record: GameRecord) -> str:
        """PDN (:func:`export_pdn`) with the players, the event and the date (written
        by :data:`PDN`)."""
        return PDN.export(record).text


def _own(position: Position) -> DamasPosition:
    if not isinstance(position, DamasPosition):
        raise TypeError(f"not a Spanish draughts position: {position!r}")
    return position


def _read_squares(text: str) -> tuple[int, ...]:
    """The PDN squares a move text names: algebraic (``d3-c4``) or numbers (``11-15``)."""
    s = normalize(text)
    if s[:1].isdigit():
        if not _PDN_MOVE.fullmatch(s):
            raise NotationError(detail("damas_move_syntax", input=text.strip()), text=text)
        numbers = [int(t) for t in _PDN_SQUARE.findall(s)]
        for n in numbers:
            if n not in SQUARES:
                raise NotationError(detail("no_such_square", number=n, last=32), text=text)
        return tuple(numbers)
    squares = []
    for token in tokenize(text).points:
        point = parse_point(token, width=8, height=8)
        if point not in SQUARE_AT:
            raise NotationError(detail("not_a_playing_square", point=token), text=text)
        squares.append(SQUARE_AT[point])
    return tuple(squares)


_FEN_SQUARE = re.compile(r"(K?)(\d+)(?:-(K?)(\d+))?")


def _read_position(text: str) -> DamasPosition:
    raw = text
    if not isinstance(text, str):
        raise PositionError(detail("position_not_text"), text=repr(text))
    s = "".join(text.split()).upper().rstrip(".")
    fields = s.split(":")
    if len(fields) < 3 or fields[0] not in ("W", "B"):
        raise PositionError(detail("not_pdn_fen", input=raw.strip()), text=raw)
    turn = WHITE if fields[0] == "W" else BLACK
    boards = {"W": 0, "B": 0}
    kings = 0
    seen = set()
    for part in fields[1:3]:
        color, body = part[:1], part[1:]
        if color not in boards or color in seen:
            raise PositionError(detail("pdn_piece_lists", input=part), text=raw)
        seen.add(color)
        for item in filter(None, body.split(",")):
            m = _FEN_SQUARE.fullmatch(item)
            if not m:
                raise PositionError(detail("pdn_square", input=item), text=raw)
            low, high = int(m.group(2)), int(m.group(4) or m.group(2))
            king = bool(m.group(1) or m.group(3))
            for n in (low, high):
                if n not in SQUARES:
                    raise PositionError(detail("no_such_square", number=n, last=32), text=raw)
            if high < low:
                raise PositionError(detail("empty_range", input=item), text=raw)
            for n in range(low, high + 1):
                b = BIT[n]
                if b & (boards["W"] | boards["B"]):
                    raise PositionError(detail("square_twice", number=n), text=raw)
                if not king and b & (RANK8 if color == "W" else RANK1):
                    raise PositionError(detail("man_on_crowning_row",
                                               seat="White" if color == "W" else "Black",
                                               number=n, point=NAME[n]), text=raw)
                boards[color] |= b
                if king:
                    kings |= b
    white, black = boards["W"], boards["B"]
    for name, mask in (("White", white), ("Black", black)):
        if mask.bit_count() > MAX_PIECES:
            raise PositionError(detail("too_many_pieces", seat=name, count=MAX_PIECES),
                                text=raw)
    king_plies = 0
    three: int | None = None
    counters: set[str] = set()
    for extra in fields[3:]:
        m = re.fullmatch(r"([HT])(\d{1,3})", extra)
        if not m or m.group(1) in counters:
            raise PositionError(detail("pdn_counter_field", input=extra), text=raw)
        value = int(m.group(2))
        counters.add(m.group(1))
        if m.group(1) == "H":
            if value > KING_PLY_LIMIT:
                raise PositionError(detail("king_ply_limit", count=value,
                                           limit=KING_PLY_LIMIT), text=raw)
            king_plies = value
        else:
            if value > THREE_KINGS_LIMIT:
                raise PositionError(detail("three_kings_limit", count=value,
                                           limit=THREE_KINGS_LIMIT), text=raw)
            if _three_kings_strong_side(white, black, kings) is None:
                raise PositionError(detail("three_kings_material", count=value), text=raw)
            three = value
    if three is None:
        three = _three_kings_count(white, black, kings, None, turn)
    return DamasPosition(white, black, kings, turn, king_plies=king_plies, three_kings=three)


# --------------------------------------------------------------------------- PDN export

PDN_GAME_TYPE = "24"
"""PDN ``GameType`` of Spanish draughts; its full form is ``24,W,8,8,N1,1`` (White starts,
8×8, numeric notation, bottom-left corner not a playing square). Source: the PDN 3.0
standard's GameType table, https://pdn.fmjd.org/gametype.html."""

def result_token(outcome: Outcome | None) -> str:
    """PDN result: ``1-0`` White won, ``0-1`` Black won, ``1/2-1/2`` drawn, ``*`` going on."""
    if outcome is None:
        return "*"
    if outcome.is_draw:
        return "1/2-1/2"
    return "1-0" if WHITE in outcome.winners else "0-1"


def export_pdn(moves: Sequence[str], *, outcome: Outcome | None = None,
               headers: Mapping[str, str] | None = None, start: str | None = None,
               width: int = 79) -> str:
    """A finished (or running) game as PDN: the seven-tag roster, ``GameType "24"``,
    ``SetUp``/``FEN`` when it did not start from the usual position, then the moves in
    PDN numbers and the result.

    ``moves`` are the recorded move strings (any notation ``parse_move`` accepts);
    ``outcome`` is how the game ended when the rules alone do not say (resignation,
    agreement, time), otherwise the final position's outcome is used. ``headers`` fill or
    override tags (``White``, ``Black``, ``Date`` ...). Raises RulesError on a bad record.

    >>> print(export_pdn(["11-15", "22-18"], headers={"White": "Ana", "Black": "Luis"}))
    ... # doctest: +NORMALIZE_WHITESPACE
    [Event "?"]
    [Site "?"]
    [Date "????.??.??"]
    [Round "?"]
    [White "Ana"]
    [Black "Luis"]
    [Result "*"]
    [GameType "24"]
    <BLANKLINE>
    1. 11-15 22-18 *
    """
    first = DAMAS.from_text(start) if start is not None else DAMAS.start()
    position: Position = first
    written: list[str] = []
    for text in moves:
        said, position = _pdn_move(position, text)
        written.append(said)
    return _pdn_file(written, first, position, outcome, headers or {}, width)


def _pdn_move(p: Position, text: str) -> tuple[str, Position]:
    """A stored move of a record (any notation damas reads) played at ``p``: in PDN
    numbers, and the position after it."""
    move = DAMAS.parse_move(_own(p), text)
    return move.numeric(), p.play(move)


def _pdn_text(record: GameRecord, written: Sequence[str], start: Position,
              end: Position) -> str:
    """The PDN file of ``record`` (its players, event, date and tags), its moves
    ``written`` in PDN numbers, ``end`` the position after them."""
    return _pdn_file(written, start, end, record.outcome,
                     {"White": record.players.get(0, "?"), "Black": record.players.get(1, "?"),
                      "Event": record.event, "Date": record.date, **record.tags})


def _pdn_file(written: Sequence[str], start: Position, end: Position,
              outcome: Outcome | None, headers: Mapping[str, str], width: int = 79) -> str:
    """PDN of the moves ``written`` (PDN numbers) from ``start`` to ``end``: the tags
    (``headers`` fill or override them), the moves numbered (a move alternates the sides:
    White's moves take the numbers, a game Black starts begins ``1...``) and wrapped at
    ``width``, the words of an end outside the rules, the result."""
    first, last = _own(start), _own(end)
    white_first = first.turn == WHITE
    tokens: list[str] = []
    for ply, move in enumerate(written):
        number = ply // 2 + 1 if white_first else (ply + 1) // 2 + 1
        if (ply % 2 == 0) == white_first:
            tokens.append(f"{number}.")
        elif ply == 0:
            tokens.append(f"{number}...")
        tokens.append(move)
    result = result_token(outcome if outcome is not None else last.outcome())
    said = closing_words(DAMAS, outcome)  # an end outside the rules, as Tablero says it
    if said is not None:
        tokens.append(f"{{{said}}}")
    tokens.append(result)
    tags: dict[str, str] = {"Event": "?", "Site": "?", "Date": "????.??.??", "Round": "?",
                            "White": "?", "Black": "?", "Result": result}
    tags["GameType"] = PDN_GAME_TYPE
    if first.to_text() != DAMAS.start().to_text():
        tags["SetUp"] = "1"
        tags["FEN"] = first.to_text()
    for name, value in headers.items():
        if name != "Result":
            tags[name] = value
    lines = [tag_pair(name, value) for name, value in tags.items()]
    lines.append("")
    line = ""
    for token in tokens:
        if line and len(line) + 1 + len(token) > width:
            lines.append(line)
            line = token
        else:
            line = f"{line} {token}" if line else token
    lines.append(line)
    return "\n".join(lines) + "\n"


def _pdn_start(text: str) -> Position:
    return DAMAS.from_text(text)


PDN = RecordWriter(_pdn_start, _pdn_move, _pdn_text)
"""How a Spanish draughts record is written in PDN (:meth:`DamasVariant.export_record`;
the web's match page writes it on move by move: ``rules.records.RecordExport``)."""
def read_pdn(v: Variant[Any, Any], text: str) -> ImportedGame:
    """A PDN record (``GameType "24"`` or none; moves in numbers, ``11-15``,
    ``10x19x26``, or points), the counterpart of :func:`export_pdn`.

    >>> import rules
    >>> game = read_pdn(rules.variant("damas"),
    ...     '[White "Ana"]\\n[Black "Luis"]\\n1. 9-13 24-20 2. 13-17 20-16 0-1')
    >>> game.moves, game.players, game.outcome.winners
    (('h3-g4', 'a6-b5', 'g4-h5', 'b5-a4'), {0: 'Ana', 1: 'Luis'}, frozenset({1}))
    """
    tags, movetext = read_tags(text, COMMON_TAGS | {"White", "Black", "GameType"})
    kind = tags.get("GameType", PDN_GAME_TYPE).split(",")[0].strip()
    if kind != PDN_GAME_TYPE:
        raise RecordError(detail("record_game_type", value=kind))
    return read_standard_record(v, text, tags, movetext)


DAMAS = register(DamasVariant())
register_reader("pdn", read_pdn)
register_writer("pdn", PDN)
