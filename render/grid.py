"""Followed games at a glance (issue 42): up to nine boards in one picture, each with two
lines under it (which match, and whose move it is with the time left), the ones waiting
on the reader marked. Knows nothing of matches: the caller gives positions and words.

    >>> import rules
    >>> v = rules.variant("xiangqi")
    >>> tiles = [GridTile(v.start(), title="#1 Xiangqi", status="your move, 2 days left",
    ...                   mine=True), GridTile(rules.variant("damas").start(),
    ...                   title="#2 Spanish draughts", status="their move, 5 hours left")]
    >>> g = board_grid(tiles, title="Your games")
    >>> g.png[:8] == b"\\x89PNG\\r\\n\\x1a\\n", g.width <= 800
    (True, True)
    >>> g.alt_text
    'Your games: #1 Xiangqi, your move, 2 days left; #2 Spanish draughts, their move, 5 hours left.'
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import dataclass

from PIL import Image, ImageDraw, ImageFont

from locales.i18n import DEFAULT_LOCALE, Words, render
from render.draw import PNG_LEVEL, compose
from render.style import INK, INK_SOFT, PAPER, TURN_BG, TURN_EDGE, drawable, drawn_words, font
from rules import MoveMarks, Position

__all__ = ["MAX_TILES", "GridTile", "RenderedGrid", "board_grid"]

MAX_TILES = 9
TILE = 250
"""Each board's long side in pixels: three across make 800 px, twice a phone's width."""
MAX_ALT = 1000


@dataclass(frozen=True, slots=True)
class GridTile:
    """One board of the grid: the position (as anybody may see it), its last move, the
    seat at the bottom, the seats' names, and the two lines under it; ``mine``: it is
    the reader's move there (the lines are marked)."""

    position: Position
    last_move: MoveMarks | None = None
    perspective: int | None = None
    names: Sequence[str] | None = None
    title: Words = ""
    status: Words = ""
    mine: bool = False


@dataclass(frozen=True, slots=True)
class RenderedGrid:
    png: bytes
    alt_text: str
    width: int
    height: int


def board_grid(tiles: Sequence[GridTile], *, title: Words = "", columns: int = 3,
               locale: str = DEFAULT_LOCALE) -> RenderedGrid:
    """The first ``MAX_TILES`` of ``tiles`` as one palette PNG, ``columns`` a row, in
    order, with their alt text (the title, then each tile's lines); words in
    ``locale``."""
    tiles = list(tiles)[:MAX_TILES]
    if not tiles:
        raise ValueError("a grid needs at least one board")
    boards = [compose(t.position, last_move=t.last_move, perspective=t.perspective,
                      names=t.names, size=TILE, locale=locale)[0] for t in tiles]
    cols = min(columns, len(tiles))
    rows = (len(tiles) + cols - 1) // cols
    cell_w = max(b.width for b in boards)
    board_h = max(b.height for b in boards)
    px = 15
    bold, regular = font("bold", px), font("regular", px)
    caption_h = round(px * 3.3)
    gap, margin = 12, 14
    title_h = round(px * 2.4) if title else 0
    width = margin * 2 + cols * cell_w + (cols - 1) * gap
    height = margin * 2 + title_h + rows * (board_h + caption_h) + (rows - 1) * gap
    img = Image.new("RGB", (width, height), PAPER)
    dr = ImageDraw.Draw(img)
    if title:
        dr.text((margin, margin), drawable(drawn_words(title, locale)), font=font("bold", 20),
                fill=INK)
    for i, (tile, board) in enumerate(zip(tiles, boards, strict=True)):
        r, c = divmod(i, cols)
        x = margin + c * (cell_w + gap)
        y = margin + title_h + r * (board_h + caption_h + gap)
        img.paste(board, (x + (cell_w - board.width) // 2, y + (board_h - board.height) // 2))
        top = y + board_h + 2
        if tile.mine:
            dr.rectangle((x, top, x + cell_w - 1, top + caption_h - 4), fill=TURN_BG,
                         outline=TURN_EDGE, width=2)
        for k, (words, f, ink) in enumerate(((tile.title, bold, INK),
                                             (tile.status, regular,
                                              INK if tile.mine else INK_SOFT))):
            said = _fit(drawable(drawn_words(words, locale)), f, cell_w - 12)
            dr.text((x + 6, top + 4 + k * round(px * 1.45)), said, font=f, fill=ink)
    buf = io.BytesIO()
    img.quantize(colors=96, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE
                 ).save(buf, "PNG", compress_level=PNG_LEVEL)
    return RenderedGrid(buf.getvalue(), _alt(tiles, title, locale), width, height)


def _fit(text: str, f: ImageFont.FreeTypeFont, width: float) -> str:
    """``text`` cut with an ellipsis to ``width`` pixels."""
    length = f.getlength
    if length(text) <= width:
        return text
    while text and length(text + "…") > width:
        text = text[:-1]
    return text + "…"


def _alt(tiles: Sequence[GridTile], title: Words, locale: str) -> str:
    parts = [f"{render(t.title, locale)}, {render(t.status, locale)}" for t in tiles]
    head = render(title, locale)
    text = "; ".join(parts) + "."
    return (f"{head}: {text}" if head else text)[:MAX_ALT]
