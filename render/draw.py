"""Composing a position: cached board layer, overlays, pieces, the header panel; then a
palette PNG.

Speed comes from caching everything that does not change between moves (the board layer
per game/perspective/size, the piece and mark sprites, the colour palette) and only
pasting sprites per render; the RGB frame is mapped onto the cached palette without
dithering and written as an 8-bit PNG.
"""

from __future__ import annotations

import io
import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from PIL import Image, ImageDraw

from locales.i18n import DEFAULT_LOCALE, Words, _, capitalized
from locales.terms import option_word, seat_colour
from render.alt import describe, seat_label, status_words
from render.board import Layout, layout, square_number_colour, static_layer
from render.sprites import mark, piece, segment
from render.style import (
    ARROW,
    CAPTURE_MARK,
    CHECK_GLOW,
    CHECK_RING,
    FRAME,
    INK,
    INK_SOFT,
    LAST_MOVE,
    LAST_MOVE_PATH,
    PAPER,
    REMOVED_MARK,
    RGB,
    SEAT_LOOKS,
    TURN_BG,
    TURN_EDGE,
    XIANGQI_DISCS,
    XIANGQI_INK,
    BoardSpec,
    drawable,
    drawn_words,
    font,
    look_name,
    spec_for,
)
from rules import MoveMarks, Position, Variant

Point = tuple[int, int]
PNG_LEVEL = 4  # zlib level: 6 is about twice as slow for ~10% smaller files
PALETTE_COLOURS = 48  # fewer colours compress better; 48 still keep discs and text smooth


@dataclass(frozen=True, slots=True)
class RenderedBoard:
    """A drawn board: the PNG bytes, its alt text and size, and where each point is."""

    png: bytes
    alt_text: str
    width: int
    height: int
    layout: Layout

    def point_centre(self, point: Point) -> tuple[int, int]:
        """Pixel centre of a board point in this image (for tests and image maps)."""
        return self.layout.centre(point)


def default_perspective(position: Position) -> int:
    """The seat to move (the lowest of several), else seat 0."""
    movers = sorted(position.to_move)
    return movers[0] if movers else 0


def _looks(v: Variant, seat_count: int) -> tuple[str, ...]:
    return tuple(look_name(v.seat_name(s, seat_count), s) for s in range(seat_count))


def _diameter(spec: BoardSpec, lay: Layout) -> int:
    return max(8, round(lay.step * spec.piece_scale))


@lru_cache(maxsize=32)
def _base(key: str, board_size: tuple[int, int], seat_count: int, perspective: int,
          size: int) -> Image.Image:
    lay = layout(key, board_size, seat_count, perspective, size)
    img = Image.new("RGB", (lay.width, lay.height), PAPER)
    img.paste(static_layer(key, board_size, seat_count, perspective, size), (0, lay.header))
    return img


def _paste_centred(img: Image.Image, sprite: Image.Image, centre: tuple[int, int]) -> None:
    w, h = sprite.size
    img.paste(sprite, (centre[0] - w // 2, centre[1] - h // 2), sprite)


# --------------------------------------------------------------------------- overlays


def _draw_last_move(img: Image.Image, lay: Layout, spec: BoardSpec, marks: MoveMarks,
                    occupied: set[Point]) -> None:
    """Under the pieces: where the move started, each landing point, the path."""
    path = [p for p in marks.path if 0 <= p[0] < lay.files and 0 <= p[1] < lay.ranks]
    if not path:
        return
    cells = spec.family in ("squares", "cells")
    if cells:
        tint = mark("square", lay.step)
        for p in dict.fromkeys(path):
            x0, y0, _, _ = lay.cell_box(p)
            img.paste(tint, (x0, y0), tint)
    long_jump = any(max(abs(a[0] - b[0]), abs(a[1] - b[1])) > 1
                    for a, b in itertools.pairwise(path))
    if len(path) > 2 or marks.captured or long_jump:
        width = max(2, round(lay.step * 0.085))
        for a, b in itertools.pairwise(path):
            ca, cb = lay.centre(a), lay.centre(b)
            sprite, ox, oy = segment(cb[0] - ca[0], cb[1] - ca[1], width)
            img.paste(sprite, (ca[0] - ox, ca[1] - oy), sprite)
    if not cells:
        d = _diameter(spec, lay)
        dot = mark("from", round(d * 0.8))
        for p in path[:-1]:
            if p not in occupied:
                _paste_centred(img, dot, lay.centre(p))
        _paste_centred(img, mark("ring", d + max(6, round(lay.step * 0.14))),
                       lay.centre(path[-1]))


def draw_arrow(img: Image.Image, lay: Layout, path: Sequence[tuple[int, int]],
               colour: RGB, width: int | None = None) -> None:
    """An arrow along a move's path (start, each landing point), its head at the end,
    half transparent so the pieces under it still show; ``width`` in pixels (default:
    about an eighth of a step)."""
    if len(path) < 2:
        return
    layer = Image.new("RGBA", img.size, (0, 0, 0, 0))
    dr = ImageDraw.Draw(layer)
    width = width or max(3, round(lay.step * 0.13))
    head = max(8, round(lay.step * 0.38), 2 * width)
    points = [lay.centre(p) for p in path]
    ink = (*colour, 205)
    for (x0, y0), (x1, y1) in itertools.pairwise(points):
        length = math.hypot(x1 - x0, y1 - y0) or 1.0
        ux, uy = (x1 - x0) / length, (y1 - y0) / length
        last = (x1, y1) == points[-1]
        end = (x1 - ux * head * 0.8, y1 - uy * head * 0.8) if last else (x1, y1)
        dr.line((x0, y0, *end), fill=ink, width=width)
        r = width / 2
        dr.ellipse((x0 - r, y0 - r, x0 + r, y0 + r), fill=ink)
        if last:
            bx, by = x1 - ux * head, y1 - uy * head
            dr.polygon([(x1, y1), (bx - uy * head * 0.55, by + ux * head * 0.55),
                        (bx + uy * head * 0.55, by - ux * head * 0.55)], fill=ink)
    img.paste(layer, (0, 0), layer)


def _draw_arrows(img: Image.Image, lay: Layout, arrows: Sequence[tuple[MoveMarks, float]]
                 ) -> None:
    """Over the pieces: an arrow along each move's path, as thick as its share (0..1,
    the most played move 1); thickest drawn last (on top)."""
    for marks, share in sorted(arrows, key=lambda a: a[1]):
        share = min(1.0, max(0.0, share))
        path = [p for p in marks.path if 0 <= p[0] < lay.files and 0 <= p[1] < lay.ranks]
        draw_arrow(img, lay, path, ARROW, max(3, round(lay.step * (0.06 + 0.12 * share))))


def _draw_pieces(img: Image.Image, lay: Layout, spec: BoardSpec, looks: Sequence[str],
                 pieces: dict[Point, tuple[int, str]], ghost: bool = False) -> None:
    d = _diameter(spec, lay)
    for p, (seat, kind) in pieces.items():
        look = looks[seat] if 0 <= seat < len(looks) else "white"
        _paste_centred(img, piece(spec.piece, look, kind, d, ghost), lay.centre(p))


# --------------------------------------------------------------------------- header


CHIPS: dict[str, tuple[RGB, RGB, float]] = {
    "turn": (TURN_BG, TURN_EDGE, 0.06),
    "win": ((252, 240, 200), (196, 150, 30), 0.06),
    "out": ((232, 226, 216), (200, 192, 180), 0.03),
    "plain": ((250, 246, 238), (214, 204, 188), 0.03),
}
"""Each seat panel's fill, edge and edge width (of its height), by state."""


@lru_cache(maxsize=64)
def _chip(w: int, h: int, state: str) -> Image.Image:
    """A rounded panel behind one seat: ``'turn'``, ``'win'``, ``'out'`` or ``'plain'``."""
    ss = 4
    img = Image.new("RGBA", (w * ss, h * ss), (0, 0, 0, 0))
    dr = ImageDraw.Draw(img)
    fill, edge, ew = CHIPS[state]
    dr.rounded_rectangle((0, 0, w * ss - 1, h * ss - 1), radius=h * ss * 0.22, fill=fill,
                         outline=edge, width=max(ss, round(h * ss * ew)))
    return img.reduce(ss)


@lru_cache(maxsize=512)
def _text_mask(text: str, kind: str, px: int, anchor: str) -> tuple[Image.Image, int, int]:
    """Anti-aliased text as a cached mask and its offset from the anchor point."""
    f = font(kind, px)
    left, top, right, bottom = (round(v) for v in f.getbbox(text, anchor=anchor))
    mask = Image.new("L", (max(1, right - left), max(1, bottom - top)), 0)
    ImageDraw.Draw(mask).text((-left, -top), text, font=f, fill=255, anchor=anchor)
    return mask, left, top


def _text(img: Image.Image, xy: tuple[float, float], text: str, kind: str, px: int,
          fill: RGB, anchor: str) -> None:
    mask, left, top = _text_mask(text, kind, px, anchor)
    img.paste(fill, (round(xy[0]) + left, round(xy[1]) + top), mask)


def _fit(text: str, f: object, width: float) -> str:
    length = getattr(f, "getlength")  # noqa: B009  (FreeTypeFont.getlength)
    if length(text) <= width:
        return text
    while text and length(text + "…") > width:
        text = text[:-1]
    return text + "…"


def _header(img: Image.Image, lay: Layout, spec: BoardSpec, position: Position,
            looks: Sequence[str], names: Sequence[str] | None, deadline: str | None,
            caption: Words | None, result: Words | None = None,
            locale: str = DEFAULT_LOCALE) -> None:
    def say(words: Words) -> str:
        return drawn_words(words, locale)
    v = position.variant
    n = position.seat_count
    u = lay.header / (3.3 if n <= 2 else 5.1)
    pad = round(u * 0.3)
    chip_h = round(u * 1.6)
    cols = 2
    chip_w = (lay.width - pad * (cols + 1)) // cols
    outcome = position.outcome()
    winners = outcome.winners if outcome is not None else frozenset()
    out = position.out_seats()
    captured = position.captured_counts()
    removed = position.removed_counts()
    name_px, sub_px = round(chip_h * 0.36), round(chip_h * 0.29)
    name_font, sub_font = font("bold", name_px), font("regular", sub_px)
    icon_d = round(chip_h * 0.74)
    icon_kind = {"characters": "K", "draughts": "man", "numbered": ""}.get(spec.piece, "stone")
    for seat in range(n):
        row, col = divmod(seat, cols)
        x0 = pad + col * (chip_w + pad)
        y0 = pad + row * (chip_h + round(u * 0.2))
        if seat in winners:
            state = "win"
        elif seat in out:
            state = "out"
        elif outcome is None and result is None and seat in position.to_move:
            state = "turn"
        else:
            state = "plain"
        chip = _chip(chip_w, chip_h, state)
        img.paste(chip, (x0, y0), chip)
        icon = piece(spec.piece, looks[seat], icon_kind, icon_d, state == "out")
        _paste_centred(img, icon, (x0 + round(chip_h * 0.52), y0 + chip_h // 2))
        english = v.seat_name(seat, n)
        colour = say(seat_colour(english))
        name = drawable(names[seat]) if names and seat < len(names) and names[seat] \
            else colour
        tx = x0 + round(chip_h * 1.02)
        room = chip_w - (tx - x0) - round(chip_h * 0.2)
        if state == "turn":
            name = "▶ " + name
        _text(img, (tx, y0 + chip_h * 0.42), _fit(name, name_font, room), "bold", name_px,
              INK if state != "out" else INK_SOFT, "ls")
        sub = [colour] if names else []
        if state == "win":
            sub.append(say(_("winner")))
        elif state == "out":
            sub.append(say(_("out")))
        if position.in_setup:
            sub.append(say(_("handed in") if position.has_submitted(seat) else _("arranging")))
        if captured is not None:
            sub.append(say(_("{count} captured", count=captured[seat])))
        if removed is not None:
            sub.append(say(_("{count} of 16 removed", count=removed[seat])))
        mate = position.team_mate(seat)
        if mate is not None:
            sub.append(say(_("with {seat}", seat=seat_colour(v.seat_name(mate, n)))))
        while len(sub) > 1 and sub_font.getlength(" · ".join(sub)) > room:
            sub.pop()  # least important last: drop whole items rather than cut words
        _text(img, (tx, y0 + chip_h * 0.8), _fit(" · ".join(sub), sub_font, room), "regular",
              sub_px, INK_SOFT, "ls")
    rows = (n + cols - 1) // cols
    sy = pad + rows * chip_h + (rows - 1) * round(u * 0.2) + round(u * 0.62)
    first = drawn_words(result or capitalized(status_words(position)), locale)
    if position.checked_point() is not None:
        first += " · " + say(_("check!"))
    parts = [(0, first)]
    mode = _mode_text(position)
    if mode:
        parts.append((3, say(mode)))
    if caption:
        parts.append((1, say(_("last: {move}", move=caption))))
    if deadline:
        parts.append((2, deadline))
    text, px = status_line(parts, lay.width - 2 * pad, u)
    _text(img, (lay.width // 2, sy), text, "regular", px, INK, "mm")


def status_line(parts: Sequence[tuple[int, str]], width: float, u: float
                ) -> tuple[str, int]:
    """The header's status line and its font size: ``parts`` (each with its rank: 0
    is never left out, the highest goes first) joined in the largest of three sizes
    it fits ``width`` in; when it fits in none, whole parts are left out, the highest
    rank first (the end rule of a four-player game, then the deadline, then the last
    move), before what is left is cut (a four-player header cut the last move in the
    middle for the end rule's sake)."""
    kept = list(parts)
    while True:
        text = "  ·  ".join(t for _rank, t in kept)
        for scale in (0.62, 0.56, 0.5):  # shrink a long line a little before leaving out
            px = round(u * scale)
            sf = font("regular", px)
            if sf.getlength(text) <= width:
                return text, px
        spare = [part for part in kept if part[0] > 0]
        if not spare:
            return _fit(text, sf, width), px
        kept.remove(max(spare, key=lambda part: part[0]))


def _mode_text(position: Position) -> Words | None:
    """A game of several players each for himself: which end rule is played."""
    if position.mode is None or position.teams:
        return None
    return _("each for themselves, {mode} end", mode=option_word(position.mode))



def _visible_pieces(position: Position) -> dict[Point, tuple[int, str]]:
    """``{point: (seat, kind)}`` as drawn: during a setup phase nobody may see the
    numbers, so stones are drawn blank."""
    hide = position.in_setup
    return {p: (pc.seat, "" if hide else pc.kind) for p, pc in position.pieces().items()}


# --------------------------------------------------------------------------- compose


def compose(position: Position, *, last_move: MoveMarks | None = None,
            perspective: int | None = None, names: Sequence[str] | None = None,
            deadline: str | None = None, caption: Words | None = None,
            before: Position | None = None, size: int = 700,
            result: Words | None = None, locale: str = DEFAULT_LOCALE,
            arrows: Sequence[tuple[MoveMarks, float]] = ()
            ) -> tuple[Image.Image, Layout]:
    """The RGB image of a position (see :func:`render.draw_board`) and its layout; its
    words in ``locale``."""
    v = position.variant
    n = position.seat_count
    seat = default_perspective(position) if perspective is None else perspective % n
    args = (v.key, tuple(v.board_size), n, seat, size)
    lay = layout(*args)
    spec = spec_for(v.key)
    looks = _looks(v, n)
    img = _base(*args).copy()
    pieces = _visible_pieces(position)
    if last_move is not None:
        _draw_last_move(img, lay, spec, last_move, set(pieces))
    general = position.checked_point()
    if general is not None:
        _paste_centred(img, mark("check", round(lay.step * 1.3)), lay.centre(general))
    gone: dict[Point, tuple[int, str]] = {}
    if last_move is not None and before is not None:
        was = _visible_pieces(before)
        if last_move.path and last_move.path[0] in was:  # the mover may be huffed at its end
            was.setdefault(last_move.path[-1], was[last_move.path[0]])
        gone = {p: was[p] for p in (*last_move.captured, *last_move.removed)
                if p in was and p not in pieces}
        _draw_pieces(img, lay, spec, looks, gone, ghost=True)
    _draw_pieces(img, lay, spec, looks, pieces)
    if last_move is not None:
        d = _diameter(spec, lay)
        for p in last_move.captured:
            if p not in pieces:
                _paste_centred(img, mark("capture", round(d * 0.5)), lay.centre(p))
        for p in last_move.removed:
            if p not in pieces:
                _paste_centred(img, mark("removed", round(d * 1.08)), lay.centre(p))
    else:
        for p in position.last_removal():
            if p not in pieces:
                _paste_centred(img, mark("removed", round(_diameter(spec, lay) * 1.08)),
                               lay.centre(p))
    _draw_arrows(img, lay, arrows)
    _header(img, lay, spec, position, looks, names, deadline, caption, result, locale)
    return img, lay


@lru_cache(maxsize=32)
def palette(key: str, board_size: tuple[int, int], seat_count: int, size: int,
            looks: tuple[str, ...]) -> Image.Image:
    """A 256-colour palette image for one game and size, made once from a sample of
    everything that can appear: the board, every piece sprite, the marks and panels."""
    spec = spec_for(key)
    lay = layout(key, board_size, seat_count, 0, size)
    board = static_layer(key, board_size, seat_count, 0, size)
    d = _diameter(spec, lay)
    sprites = [piece(spec.piece, look, kind, d) for look in dict.fromkeys(looks)
               for kind in spec.kinds]
    sprites += [piece(spec.piece, looks[0], spec.kinds[0], d, True)]
    sprites += [mark(m, d) for m in ("ring", "from", "check", "capture", "removed")]
    sprites += [_chip(d * 3, d, s) for s in ("turn", "win", "out", "plain")]
    cell = d + d // 2
    strip = Image.new("RGB", (cell * len(sprites), cell * 2), spec.plate)
    strip.paste(PAPER, (0, cell, strip.width, strip.height))
    tint = mark("square", cell)
    for i, sprite in enumerate(sprites):
        for row in (0, 1):
            if i % 2 and row == 0:
                strip.paste(tint, (i * cell, 0), tint)
            strip.paste(sprite, (i * cell, row * cell), sprite)
    sample = Image.new("RGB", (max(board.width, strip.width), board.height + strip.height * 3),
                       PAPER)
    sample.paste(board, (0, 0))
    for k in range(3):  # weight the pieces' colours against the large flat board
        sample.paste(strip, (0, board.height + k * strip.height))
    fixed = list(dict.fromkeys(_key_colours(spec, looks)))
    q = sample.quantize(colors=PALETTE_COLOURS - len(fixed), method=Image.Quantize.MEDIANCUT,
                        dither=Image.Dither.NONE)
    used = len(q.getcolors() or [])
    flat = (q.getpalette() or [])[:3 * used]
    for colour in fixed:
        flat.extend(colour)
    pal = Image.new("P", (1, 1))
    pal.putpalette(flat)
    return pal


def _key_colours(spec: BoardSpec, looks: tuple[str, ...]) -> list[RGB]:
    """Colours that must come out exactly: text, lines, surfaces, piece bodies."""
    colours = [PAPER, INK, INK_SOFT, FRAME, spec.plate, spec.line, spec.dark, LAST_MOVE, ARROW,
               LAST_MOVE_PATH, CAPTURE_MARK, REMOVED_MARK, TURN_BG, TURN_EDGE,
               (255, 255, 255), *spec.area_tints]
    for name in looks:
        look = SEAT_LOOKS[name]
        colours += [look.body, look.rim, look.ink]
    if spec.square_numbers:
        colours.append(square_number_colour(spec))
    if spec.piece == "characters":
        colours += [*XIANGQI_INK.values()]
        colours += [c for disc in XIANGQI_DISCS.values() for c in (disc.body, disc.rim)]
        colours += [CHECK_RING, *(_mix(CHECK_GLOW, spec.plate, t) for t in (0.3, 0.55, 0.8))]
    return colours


def _mix(a: RGB, b: RGB, t: float) -> RGB:
    """``t`` of ``a`` over ``b``."""
    return (round(a[0] * t + b[0] * (1 - t)), round(a[1] * t + b[1] * (1 - t)),
            round(a[2] * t + b[2] * (1 - t)))


def to_palette(img: Image.Image, position: Position, size: int) -> Image.Image:
    v = position.variant
    pal = palette(v.key, tuple(v.board_size), position.seat_count, size,
                  _looks(v, position.seat_count))
    return img.quantize(palette=pal, dither=Image.Dither.NONE)


def draw_board(position: Position, *, last_move: MoveMarks | None = None,
               perspective: int | None = None, names: Sequence[str] | None = None,
               deadline: str | None = None, caption: Words | None = None,
               before: Position | None = None, size: int = 700,
               result: Words | None = None, locale: str = DEFAULT_LOCALE,
               arrows: Sequence[tuple[MoveMarks, float]] = ()) -> RenderedBoard:
    """Draw ``position`` as a palette PNG; see the package docstring. ``result``: how the
    match ended, in words, when something outside the rules ended it (a resignation, a
    timeout, an agreed draw); it replaces the "to move" status line and the turn mark.
    ``locale``: the language of the words drawn and of the alt text. ``arrows``: moves
    drawn as arrows over the board, each with its weight (0..1: the arrow's thickness),
    e.g. the explorer's most played moves (their words are the caller's to add to the
    alt text)."""
    img, lay = compose(position, last_move=last_move, perspective=perspective, names=names,
                       deadline=deadline, caption=caption, before=before, size=size,
                       result=result, locale=locale, arrows=arrows)
    buf = io.BytesIO()
    to_palette(img, position, size).save(buf, "PNG", compress_level=PNG_LEVEL)
    alt = describe(position, last_move=last_move, perspective=lay_seat(lay, position),
                   names=names, deadline=deadline, caption=caption, result=result,
                   locale=locale)
    return RenderedBoard(buf.getvalue(), alt, lay.width, lay.height, lay)


def lay_seat(lay: Layout, position: Position) -> int:
    """The seat a layout is seen from."""
    n = position.seat_count
    return lay.turns * n // 4 if n in (2, 4) else 0


__all__ = ["RenderedBoard", "compose", "draw_board", "seat_label"]
