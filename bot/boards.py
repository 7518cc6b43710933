"""Composition-root glue between the service and ``render`` (the service never imports
render): a ``BoardRenderer`` over ``render.draw_board`` when the render package offers it,
and a text board for terminals."""

from __future__ import annotations

import importlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from locales.i18n import DEFAULT_LOCALE, Words, _, listing
from locales.terms import game_name, seat_colour
from rules import MoveMarks, Position, RulesError
from rules.notation import FILES
from service import BoardRenderer, DrawnBoard
from service.records import SPECIAL_PREFIX
from service.texts import duration
from service.views import EvalPoint, GameRecord, GlanceBoard, MatchView, PlyView


class DrawBoardRenderer:
    """``BoardRenderer`` over ``render.draw_board(position, last_move=, perspective=,
    names=)``: its ``RenderedBoard`` carries the PNG and render's alt text."""

    def __init__(self, draw_board: Any) -> None:
        self._draw_board = draw_board

    def render(self, position: Position, *, last_move: MoveMarks | None = None,
               perspective: int | None = None,
               names: Sequence[str] | None = None, result: str | None = None,
               locale: str = "en-US") -> DrawnBoard:
        extra: dict[str, object] = {"result": result} if result is not None else {}
        if locale != "en-US":
            extra["locale"] = locale
        drawn: DrawnBoard = self._draw_board(position, last_move=last_move,
                                             perspective=perspective, names=names, **extra)
        return drawn


def load_renderer() -> BoardRenderer | None:
    """The PNG renderer if the render package provides ``draw_board``, else None."""
    try:
        module = importlib.import_module("render")
    except ImportError:
        return None
    draw_board = getattr(module, "draw_board", None)
    if draw_board is None:
        try:
            draw_board = getattr(importlib.import_module("render.draw"), "draw_board", None)
        except ImportError:
            return None
    return DrawBoardRenderer(draw_board) if callable(draw_board) else None


def piece_label(v_seat_name: str, seat: int, kind: str) -> str:
    """A short label for a piece: Xiangqi letters (Red upper, Black lower), Querni numbers
    with the seat's initial, draughts kings in capitals, stones by the seat's initial."""
    initial = v_seat_name[:1] or str(seat)
    if len(kind) == 1 and kind.isalpha():
        return kind.upper() if seat == 0 else kind.lower()
    if kind.isdigit():
        return f"{kind}{initial.lower()}"
    if kind == "king":
        return initial.upper() + "K"
    return initial.lower()


def text_board(position: Position, last_move: MoveMarks | None = None) -> str:
    """The position as text, rank by rank from the top, seen by seat 0; points of the last
    move are bracketed. Works for every game through ``pieces()`` and ``board_size``.

    >>> import rules
    >>> print(text_board(rules.variant("xiangqi").start()).splitlines()[0])
    10   r   n   b   a   k   a   b   n   r
    """
    v = position.variant
    width, height = v.board_size
    n = position.seat_count
    pieces = position.pieces()
    labels = {pt: piece_label(v.seat_name(pc.seat, n), pc.seat, pc.kind)
              for pt, pc in pieces.items()}
    cell = max([1, *(len(s) for s in labels.values())]) + 3
    marked = set(last_move.path) if last_move else set()
    lines = []
    for y in range(height - 1, -1, -1):
        row = []
        for x in range(width):
            label = labels.get((x, y), ".")
            if (x, y) in marked:
                label = f"[{label}]"
            row.append(label.rjust(cell))
        lines.append(f"{y + 1:>2}" + "".join(row))
    lines.append("  " + "".join(FILES[x].rjust(cell) for x in range(width)))
    return "\n".join(lines)


def replay_frames(record: GameRecord) -> tuple[list[Any], dict[int, int]]:
    """The moves of ``render.replay_gif`` for a record, as the service parsed them (a
    Querni arrangement carries its seat; a seat leaving a 4-player game that went on is
    a ``SeatLeft``: the position it left behind, the seat and how it left, so the frame
    says so), and which replay frame shows each record ply (frame 0 is the start;
    special entries that change nothing have none)."""
    frames: list[Any] = []
    frame_of: dict[int, int] = {}
    previous = record.start
    for ply in record.plies:
        if ply.move is not None:
            frames.append(ply.move)
            frame_of[ply.ply] = len(frames)
        elif ply.position is not previous:
            frames.append(_left(ply))
            frame_of[ply.ply] = len(frames)
        previous = ply.position
    return frames, frame_of


def _left(ply: PlyView) -> Any:
    """A record entry that changed the position without a move (``#resign 2``,
    ``#timeout 2``, ``#skip 2``: a seat left a 4-player game that went on) as a
    ``render.replay.SeatLeft``; the bare position when the entry says no seat."""
    word, _sep, seat = ply.canonical.removeprefix(SPECIAL_PREFIX).partition(" ")
    if not ply.canonical.startswith(SPECIAL_PREFIX) or not seat.isdigit():
        return ply.position
    try:  # render is imported only where a picture is drawn (as above)
        seat_left = importlib.import_module("render.replay").SeatLeft
    except ImportError:
        return ply.position
    return seat_left(ply.position, int(seat), word)


@dataclass(frozen=True, slots=True)
class AnalysisPictures:
    """An analysis drawn: the marked moves on one sheet (PNG, with its alt text: the
    boards after them, or with ``better`` the boards before them with the move played
    and the better move as arrows), the whole replay with those moves framed in red
    (GIF) and, given the evaluations, the graph of the whole game (PNG and alt text;
    issue 42)."""

    sheet: bytes
    alt_text: str
    replay: bytes
    graph: bytes | None = None
    graph_alt: str = ""


def analysis_pictures(record: GameRecord, notes: Mapping[int, Words],
                      names: Sequence[str] | None = None,
                      locale: str = DEFAULT_LOCALE, *,
                      better: Mapping[int, str] | None = None,
                      curve: Sequence[EvalPoint] = ()) -> AnalysisPictures | None:
    """``notes`` maps record plies (``PlyView.ply``) to what the analysis says of them,
    in the reader's words; ``better`` the better move there, as the analysis writes it
    (``AnalysedMove.better``); ``curve`` the evaluation after every move weighed
    (``GameAnalysis.curve``). None when the render package is missing or no noted ply
    is a move of the record. Slow (a frame per ply): run it off the event loop."""
    try:
        render = importlib.import_module("render")
    except ImportError:
        return None
    frames, frame_of = replay_frames(record)
    marks = {frame_of[ply]: note for ply, note in notes.items() if ply in frame_of}
    if not marks:
        return None
    arrows: dict[int, Any] | None = None
    if better is not None:
        arrows = {}
        for ply, text in better.items():
            if ply not in frame_of or not 0 <= ply < len(record.plies):
                continue
            before = record.plies[ply - 1].position if ply > 0 else record.start
            try:
                arrows[frame_of[ply]] = record.variant.parse_noted_move(before, text)
            except (RulesError, ValueError):
                continue  # no arrow rather than no picture
    sheet = render.flagged_sheet(record.variant, record.start, frames, marks, names=names,
                                 locale=locale, better=arrows)
    replay = render.replay_gif(record.variant, record.start, frames, names=names,
                               flagged=marks, locale=locale)
    graph = None
    if curve:
        title = _("{game}, match {match}: the analysis",
                  game=game_name(record.variant.key, record.variant.name),
                  match=record.match.id)
        graph = render.evaluation_graph(
            record.variant, record.match.seat_count,
            [(p.ply, p.seat, p.centipawns, p.end) for p in curve],
            marked={ply: str(ply + 1) for ply in notes}, names=names, title=title,
            locale=locale)
    return AnalysisPictures(bytes(sheet.png), str(sheet.alt_text), bytes(replay),
                            None if graph is None else bytes(graph.png),
                            "" if graph is None else str(graph.alt_text))


def glance_status(m: MatchView, user: int, names: Sequence[str] | None,
                  now: datetime) -> tuple[Words, bool]:
    """The line under a glanced board: whose move it is (``user``'s own: "your move")
    and the time left; and whether it is ``user``'s move."""
    mine = user in m.to_move
    due = m.due_for(user) if mine else m.due
    left: Words | None = None
    if due is not None:
        left = duration(due - now) if due > now else None
    if mine:
        if due is None:
            return _("your move"), True
        return (_("your move, {time} left", time=left) if left is not None
                else _("your move, your time is up")), True
    movers: list[Words] = [  # no name known: the seat's colour, never the user's id
        names[s.seat] if names is not None and s.seat is not None and s.seat < len(names)
        else seat_colour(s.name) for s in m.seats if s.user_id in m.to_move]
    who = listing(movers) if movers else "?"
    if due is None:
        return _("{players} to move", players=who), False
    return (_("{players} to move, {time} left", players=who, time=left)
            if left is not None else _("{players} to move, their time is up", players=who)
            ), False


def glance_picture(boards: Sequence[GlanceBoard], user: int, now: datetime,
                   locale: str = DEFAULT_LOCALE) -> tuple[bytes, str] | None:
    """``MatchService.glance``'s boards as one grid picture (PNG) and its alt text,
    each board seen from ``user``'s seat where he plays, with its match and whose move
    it is under it; None without the render package or without boards. Run it off the
    event loop."""
    if not boards:
        return None
    try:
        render = importlib.import_module("render")
    except ImportError:
        return None
    tiles = []
    for b in boards:
        m = b.match
        status, mine = glance_status(m, user, b.names, now)
        seat = m.seat_of(user)
        tiles.append(render.GridTile(
            b.board.position, b.board.last_marks, seat if seat is not None else 0,
            list(b.names) if b.names is not None else None,
            _("#{match} {game}", match=m.id, game=game_name(m.game, m.game_name)),
            status, mine))
    grid = render.board_grid(tiles, title=_("Your games at a glance"), locale=locale)
    return bytes(grid.png), str(grid.alt_text)
