"""The board at any ply of a match's record (issue 42: the replay stepper in Discord and
the console's ``/board #N ply:K``).

A picture is drawn from stored facts only (DESIGN §10): the replayed record (kept in
``states.Replays``, so a click is a lookup and one drawing, never a replay from the
start; a match that moved on is played on by its new entries) and a ply. Nothing hidden
leaves: the record is ``GameRecord``'s (a Querni arrangement stays hidden until both are
in) and the position is ``public_view``'s.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass

from locales.i18n import DEFAULT_LOCALE, Words, _, _n
from locales.terms import move_display
from rules import MoveMarks, Position
from service import texts
from service.boards import draw_board
from service.errors import InvalidOption
from service.ports import BoardRenderer
from service.records import MatchStatus
from service.states import public_view
from service.views import BoardImage, BoardState, GameRecord, MatchView, PlyView, SeatView


@dataclass(frozen=True, slots=True)
class PlyBoard:
    """The board after ``ply`` plies of a match's record (0: the start; ``last``: the
    plies recorded): the position as anybody may see it, the marks of the move that led
    there, the moves played until then (as players count them), the record entry that
    led there (``step``, None at the start: its mover and how the move reads) and the
    picture (None without a renderer), and ``note``: what the bare board of a set-up phase
    means (:func:`setting_up`). ``match`` is the match as it stood at that ply
    (:func:`as_it_stood`: who held each seat, who was out, who was to move), as the
    picture's words show it: only the last ply's says how the match ended. ``live``: the
    match goes on (its latest ply moves on). ``total``: the moves of the whole record (as
    players count them); ``setup``: ``step`` is a set-up arrangement (Querni ``choose``).

    A ply is an entry of the record, the ``ply:`` option's unit (``/board ply:K``, the
    console's ``/board #N K``, a page's ``?ply=K``): a move, and also what is no move (a
    set-up arrangement, a resignation, a timeout, a skip, an agreed draw). What the
    stepper says of one counts moves as everything else does (:func:`headline`)."""

    match: MatchView
    ply: int
    last: int
    position: Position
    marks: MoveMarks | None
    moves: int
    step: PlyView | None
    live: bool
    image: BoardImage | None = None
    note: Words | None = None
    total: int = 0
    setup: bool = False


def at_ply(record: GameRecord, ply: int) -> PlyBoard:
    """The board after ``ply`` plies of ``record`` (without its picture); ``InvalidOption``
    naming the plies there are when the record has no such ply."""
    last = len(record.plies)
    if isinstance(ply, bool) or not isinstance(ply, int) or not 0 <= ply <= last:
        raise InvalidOption(_("match #{match} has plies 0 to {last}; there is no ply {ply}",
                              match=record.match.id, last=last, ply=str(ply)[:20]))
    step = record.plies[ply - 1] if ply > 0 else None
    position = step.position if step is not None else record.start
    marks = None
    before = record.plies[ply - 2].position if ply > 1 else record.start
    # an arrangement handed in moves nothing on the board (as its turn post shows it)
    if step is not None and step.move is not None and not before.in_setup:
        marks = record.variant.move_marks(before, step.move)
    view = record.match
    moves = record.moves_at(ply)
    if ply < last:
        view = as_it_stood(view, position, moves, record.seats_at(ply), step)
    return PlyBoard(view, ply, last, public_view(position), marks, moves, step,
                    record.match.status.is_live, total=record.moves_at(last),
                    setup=step is not None and before.in_setup)


def headline(board: PlyBoard, who: Words | None, move: Words | None = None, *,
             total: object = None) -> Words:
    """What a stepped board shows, as players count moves (``MatchView.moves_played``,
    "Move N" and "after N moves" everywhere): the start position, the position after
    move N of the moves recorded and who played it, or what the entry that is no move
    was: a set-up arrangement (before the first move), a resignation, a timeout, a skip
    or an agreed draw (after the move before it). ``who``: the entry's player as the
    adapter names him (None: not known); ``move``: how the entry reads there (Discord's
    bold), its display in words by default; ``total``: what stands for the record's moves
    after a move (``board.total`` by default; the web keeps each ply's line with a mark
    there, filled as the record grows). The same words in Discord, the console and on
    the web. No final stop: each adapter sets the line as it sets its others."""
    step = board.step
    total = board.total if total is None else total
    if step is None:
        return _n("Start position ({count} move played)",
                  "Start position ({count} moves played)", board.total)
    shown = move if move is not None else move_display(step.display)
    if board.setup:
        if not who:
            return _("Set-up, before the first move: {move}", move=shown)
        if step.move is None:  # handed in, hidden until every arrangement is in
            return _("Set-up, before the first move: {player} handed in an arrangement, "
                     "hidden until both are in", player=who)
        return _("Set-up, before the first move: {player} arranged their stones: {move}",
                 player=who, move=shown)
    if step.move is None:  # a resignation, a timeout, a skip, an agreed draw
        if board.moves == 0:
            return _("Before the first move: {entry}", entry=move_display(step.display))
        return _("After move {number} of {total}: {entry}", number=board.moves,
                 total=total, entry=move_display(step.display))
    if not who:
        return _("After move {number} of {total}: {move}", number=board.moves,
                 total=total, move=shown)
    return _("After move {number} of {total}: {player} played {move}", number=board.moves,
             total=total, player=who, move=shown)


def as_it_stood(view: MatchView, position: Position, moves: int,
                held: Sequence[SeatView], step: PlyView | None) -> MatchView:
    """The match as it stood at an earlier ply (``position``, after ``moves`` moves,
    reached by the record's ``step``; None: the start): the seats as they were ``held``
    then (``GameRecord.seats_at``: a continued match's plies of the imported record were
    its players'), the seats out then, the players to move then, the seats skipped then
    (by the position's own account), the seats the computer had played by then (a
    stand-in shows from its first move on) and the ply and its last entry; a finished
    game is not over yet (its picture does not tell the end). The ratings stay today's
    (the stepper shows them only while the match is live).
    """
    out = position.out_seats()
    skipped = position.skipped_seats()
    seats = tuple(dataclasses.replace(s, out=s.seat in out) for s in held)
    user_at = {s.seat: s.user_id for s in seats if s.user_id is not None}
    seat_of = {user: seat for seat, user in user_at.items()}
    status = view.status if view.status.is_live else MatchStatus.ACTIVE
    ply = 0 if step is None else step.ply + 1
    arranged = min(view.arranged, ply)
    return dataclasses.replace(
        view, seats=seats, status=status, result=None, ply=ply, arranged=arranged,
        specials=ply - arranged - moves,  # what is neither: its moves are ``moves``
        last_move=None if step is None else step.display,
        last_move_by=None if step is None else step.user_id,
        to_move=tuple(user_at[s] for s in sorted(position.to_move) if s in user_at),
        skipped=tuple((u, n) for u, n in view.skipped if seat_of.get(u) in skipped),
        stand_ins=tuple((u, n) for u, n in view.stand_ins if n <= moves))


def setting_up(board: PlyBoard, names: Sequence[str] | None) -> PlyBoard:
    """``board`` with its ``note`` when it is of a set-up phase that goes on at that ply
    (Querni ``choose``): who still arranges his stones, and that no stone is on the board
    until both arrangements are in, so a bare board is never shown without a word;
    ``names`` by seat (``texts.seat_names``)."""
    if not board.position.in_setup or not board.match.status.is_live \
            or not board.position.to_move:
        return board
    return dataclasses.replace(board, note=texts.arranging(board.match, board.position, names))


def drawn(board: PlyBoard, renderer: BoardRenderer | None, names: Sequence[str] | None,
          perspective: int | None, locale: str = DEFAULT_LOCALE) -> PlyBoard:
    """``board`` with its picture, seen from seat ``perspective``, its words in
    ``locale``. Synchronous (the renderer is): run it in a thread."""
    if renderer is None:
        return board
    image = draw_board(renderer, board.match,
                       BoardState(board.position, board.marks, board.moves), names,
                       perspective, locale)
    return dataclasses.replace(board, image=image)


def reader_seat(match: MatchView, user: int | None) -> int:
    """The seat a stepped board is seen from: the reader's own when he plays, else the
    first (one way round for every ply: the board does not turn at each click)."""
    if user is not None:
        seat = match.seat_of(user)
        if seat is not None:
            return seat
    return 0
