"""Board images for every Tablero game, with Pillow (imports ``rules`` only).

>>> import rules, render
>>> v = rules.variant("xiangqi")
>>> p = v.start()
>>> m = v.parse_move(p, "h3-e3")
>>> board = render.draw_board(p.play(m), last_move=v.move_marks(p, m), perspective=0,
...                           names=["alice", "bob"], deadline="due Friday 18:00 UTC")
>>> board.png[:8] == b"\\x89PNG\\r\\n\\x1a\\n", board.width <= 700 and board.height <= 700
(True, True)
>>> "Black (bob) to move" in board.alt_text
True

API
---

``draw_board(position, *, last_move=None, perspective=None, names=None, deadline=None,
caption=None, before=None, size=700) -> RenderedBoard``
    Draw a position as an 8-bit palette PNG whose long side is about ``size`` pixels.

    * ``last_move``: the :class:`rules.MoveMarks` of the move that led here
      (``variant.move_marks(previous, move)``): its start and every landing point are
      highlighted and joined (multi-jumps), captured points get a red cross, removed
      points (a Querni removal, an Alquerque grande huff) a blue dashed ring.
    * ``before``: the position the move was played from; when given, captured and
      removed pieces are drawn faded under their marks.
    * ``perspective``: the seat whose edge is at the bottom (default: the seat to move).
      Two seats turn the board half a turn for seat 1, four seats a quarter turn per
      seat; the coordinates on the edges turn with it.
    * ``names``: display names per seat (default: the seat colours); ``deadline``: any
      text for the header (e.g. ``"due Fri 18:00 UTC"``); ``caption``: the last move as
      text (e.g. ``variant.display_move(previous, move)``).

    Returns :class:`RenderedBoard` ``(png, alt_text, width, height, layout)``;
    ``point_centre(point)`` gives a point's pixel centre.

``alt_text(position, *, last_move=None, perspective=None, names=None, deadline=None,
caption=None) -> str``
    The image description alone (at most 1000 characters): game, viewpoint, whose turn
    or the result, check, last move, deadline, and every piece by point.

``replay_gif(variant, start, moves, *, perspective=0, names=None, size=560,
frame_ms=None, hold_ms=4000) -> bytes``
    An animated GIF of a record: the start and one frame per ply (the move highlighted
    and written in the header; 900 ms each, faster in a game of over 100 moves so the
    whole plays for about 90 s at most, 450 ms at the fastest), the last frame held.
    ``moves`` are Move objects or
    move strings (read with ``variant.parse_move`` ply by ply, so a stored record of
    canonical strings replays directly), or a ``render.replay.SeatLeft`` (a seat that
    resigned, ran out of time or is skipped in a 4-player game that went on: the
    position it left, the seat and how; its frame's caption says so) or the bare
    ``Position`` so reached; ``MatchService.record`` gives them all
    (``bot.boards.replay_frames``).

    ``flagged={ply: note}`` (an analysis's marked moves, ply 1 = the first move): those
    frames get a red frame and the note in the header, and stay up longer.

``flagged_sheet(variant, start, moves, flagged, *, perspective=0, names=None, size=400,
columns=3) -> RenderedSheet``
    The boards right after each flagged ply, framed in red with the note, side by side
    in one PNG (``png, alt_text, width, height``): an analysis at a glance.

``flagged_sheet(..., better={ply: move})``
    The boards before each flagged ply instead, with the move played (orange) and the
    better move (blue) drawn as arrows, and a legend: the analysis's costly moves.

``evaluation_graph(variant, seats, points, *, marked=None, names=None, title="")
-> RenderedGraph``
    The engine's evaluation after every move of a game (``render.graph``): two seats
    one line (the first seat's advantage, capped at 10 pawns, forced ends in a labelled
    band beyond), four seats a line each; the costly moves ringed and numbered.

``board_grid(tiles, *, title="", columns=3) -> RenderedGrid``
    Up to nine boards in one PNG (``render.grid``), two lines under each (which match,
    whose move with the time left), the reader's own moves marked: games at a glance.

``draw_table(headers, rows, *, title, subtitle=None, align=None, top_rows=(),
faded_rows=()) -> RenderedTable``
    A table of plain text as a palette PNG with alt text (``png, alt_text, width,
    height``): tournament standings (``service.tournaments.table`` makes the rows).

``python -m render.gallery --out DIR`` writes start, middlegame and finished boards of
every registered game and variant, plus replay GIFs, to look at them all at once.

Design: one renderer per board family (``board.py``: point-and-line, Xiangqi, draughts
squares, Querni cells) driven by per-game data (``style.py``); sprites supersampled and
cached (``sprites.py``); game facts (check, captures, seats out, a setup phase...) are
the rules API's typed members.
Fonts are bundled OFL subsets of Noto CJK (``fonts/README.md``); no system font is used.
"""

from __future__ import annotations

from collections.abc import Sequence

from render.alt import describe
from render.draw import RenderedBoard, compose, draw_board
from render.graph import RenderedGraph, evaluation_graph
from render.grid import GridTile, RenderedGrid, board_grid
from render.replay import RenderedSheet, flagged_sheet, replay_gif
from render.table import RenderedTable, draw_table
from rules import MoveMarks, Position


def alt_text(position: Position, *, last_move: MoveMarks | None = None,
             perspective: int | None = None, names: Sequence[str] | None = None,
             deadline: str | None = None, caption: str | None = None) -> str:
    """A short description of the position for screen readers (see the module doc)."""
    return describe(position, last_move=last_move, perspective=perspective, names=names,
                    deadline=deadline, caption=caption)


__all__ = ["GridTile", "RenderedBoard", "RenderedGraph", "RenderedGrid", "RenderedSheet",
           "RenderedTable", "alt_text", "board_grid", "compose", "draw_board", "draw_table",
           "evaluation_graph", "flagged_sheet", "replay_gif"]
