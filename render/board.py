"""Geometry (which pixel a point lands on, seen from a seat) and the static board layer.

One drawing routine per board family, all driven by :class:`~render.style.BoardSpec` and
the variant's ``board_size``. The static layer (surface, lines, marks, coordinates) depends
only on (game, seat count, perspective, size) and is cached; it is drawn three times
larger and reduced, so diagonals and circles are smooth.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from PIL import Image, ImageDraw

from render.style import FRAME, INK, INK_SOFT, PAPER, RGB, BoardSpec, font, spec_for
from rules.notation import FILES

Point = tuple[int, int]
SUPER = 3  # supersampling factor of the static layer

HEADER_FRACTION = {2: 0.132, 4: 0.204}
MARGIN = 0.56  # coordinate band left of and below the board, in point spacings
EDGE = 0.24    # the frame's width above and right of the board, in point spacings


@dataclass(frozen=True, slots=True)
class Layout:
    """Where everything goes in one image.

    ``turns`` is the number of clockwise quarter turns applied to the board so the chosen
    seat's edge is at the bottom. View coordinates ``(vx, vy)`` have ``(0, 0)`` at the
    bottom left of the image's board.
    """

    key: str
    files: int
    ranks: int
    seat_count: int
    turns: int
    step: int
    header: int
    margin: int
    edge: int
    width: int
    height: int

    @property
    def view_size(self) -> tuple[int, int]:
        return (self.ranks, self.files) if self.turns % 2 else (self.files, self.ranks)

    def view(self, p: Point) -> tuple[int, int]:
        """Board point -> view coordinates."""
        x, y = p
        w, h = self.files, self.ranks
        return [(x, y), (y, w - 1 - x), (w - 1 - x, h - 1 - y), (h - 1 - y, x)][self.turns]

    def board_point(self, vx: int, vy: int) -> Point:
        """View coordinates -> board point (inverse of :meth:`view`)."""
        w, h = self.files, self.ranks
        return [(vx, vy), (w - 1 - vy, vx), (w - 1 - vx, h - 1 - vy), (vy, h - 1 - vx)][
            self.turns]

    @property
    def origin(self) -> tuple[int, int]:
        """Top-left pixel of the board's cells (the plate extends to the cell edges)."""
        return self.margin, self.header + self.edge

    def cell_box(self, p: Point) -> tuple[int, int, int, int]:
        vx, vy = self.view(p)
        ox, oy = self.origin
        vh = self.view_size[1]
        x0 = ox + vx * self.step
        y0 = oy + (vh - 1 - vy) * self.step
        return x0, y0, x0 + self.step, y0 + self.step

    def centre(self, p: Point) -> tuple[int, int]:
        """Pixel centre of board point ``p``."""
        x0, y0, _, _ = self.cell_box(p)
        return x0 + self.step // 2, y0 + self.step // 2


def quarter_turns(seat_count: int, perspective: int) -> int:
    """Clockwise quarter turns that put ``perspective``'s edge at the bottom: half a turn
    per seat with two seats, a quarter turn per seat with four (seats sit
    counter-clockwise, RULES §2.1)."""
    return (perspective % seat_count) * 4 // seat_count % 4 if seat_count in (2, 4) else 0


@lru_cache(maxsize=128)
def layout(key: str, board_size: tuple[int, int], seat_count: int, perspective: int,
           size: int) -> Layout:
    """The layout of a ``size``-pixel image (its long side) of game ``key``."""
    turns = quarter_turns(seat_count, perspective)
    files, ranks = board_size
    vw, vh = (ranks, files) if turns % 2 else (files, ranks)
    header = round(size * HEADER_FRACTION.get(seat_count, 0.165))
    step = int(min(size / (vw + MARGIN + EDGE), (size - header) / (vh + MARGIN + EDGE)))
    margin, edge = round(step * MARGIN), round(step * EDGE)
    # A phone shows a picture as wide as its screen, so the header's words are read at
    # the picture's width: a wide board (Querni's 10 x 7) leaves height to spare, and
    # its header grows into it, as large against the width as a square board's.
    spare = size - (header + vh * step + margin + edge)
    wanted = round((vw * step + margin + edge) * HEADER_FRACTION.get(seat_count, 0.165) * 1.25)
    header += max(0, min(wanted - header, spare))
    return Layout(key, files, ranks, seat_count, turns, step, header, margin, edge,
                  vw * step + margin + edge, header + vh * step + margin + edge)


# --------------------------------------------------------------------------- static layer


class _Pen:
    """Draws on the supersampled canvas in final-image pixel units."""

    def __init__(self, lay: Layout, spec: BoardSpec) -> None:
        self.lay = lay
        self.spec = spec
        self.img = Image.new("RGB", (lay.width * SUPER, (lay.height - lay.header) * SUPER),
                             PAPER)
        self.draw = ImageDraw.Draw(self.img)

    def xy(self, x: float, y: float) -> tuple[float, float]:
        return x * SUPER, (y - self.lay.header) * SUPER

    def pt(self, p: Point) -> tuple[float, float]:
        cx, cy = self.lay.centre(p)
        return self.xy(cx, cy)

    def line(self, a: Point, b: Point, width: float, fill: RGB) -> None:
        self.draw.line((self.pt(a), self.pt(b)), fill=fill, width=max(1, round(width * SUPER)))

    def rect(self, box: tuple[float, float, float, float], fill: RGB | None = None,
             outline: RGB | None = None, width: float = 1, radius: float = 0) -> None:
        x0, y0 = self.xy(box[0], box[1])
        x1, y1 = self.xy(box[2], box[3])
        self.draw.rounded_rectangle((x0, y0, x1 - 1, y1 - 1), radius=radius * SUPER,
                                    fill=fill, outline=outline,
                                    width=max(1, round(width * SUPER)))

    def circle(self, c: tuple[float, float], r: float, fill: RGB | None = None,
               outline: RGB | None = None, width: float = 1) -> None:
        x, y = c
        self.draw.ellipse((x - r * SUPER, y - r * SUPER, x + r * SUPER, y + r * SUPER),
                          fill=fill, outline=outline, width=max(1, round(width * SUPER)))


def _plate(pen: _Pen) -> None:
    """The wooden frame and the board surface around the cells."""
    lay = pen.lay
    ox, oy = lay.origin
    vw, vh = lay.view_size
    s = lay.step
    rim = max(3, round(s * 0.085))
    inner = (ox - rim, oy - rim, ox + vw * s + rim, oy + vh * s + rim)
    shadow = 0.05 * s
    pen.rect((inner[0] - rim + shadow, inner[1] - rim + shadow * 1.4,
              inner[2] + rim + shadow, inner[3] + rim + shadow * 1.4),
             fill=(214, 202, 182), radius=rim * 1.2)
    pen.rect((inner[0] - rim, inner[1] - rim, inner[2] + rim, inner[3] + rim),
             fill=FRAME, radius=rim * 1.2)
    pen.rect(inner, fill=pen.spec.plate, radius=rim * 0.4)


def _draw_lines(pen: _Pen) -> None:
    lay, spec = pen.lay, pen.spec
    w, h = lay.files, lay.ranks
    lw = max(1.5, lay.step * 0.035)
    for y in range(h):
        pen.line((0, y), (w - 1, y), lw, spec.line)
    for x in range(w):
        pen.line((x, 0), (x, h - 1), lw, spec.line)
    if spec.diagonals:
        for x in range(w):
            for y in range(h):
                if (x + y) % 2:
                    continue
                for dx, dy in ((1, 1), (1, -1)):
                    if 0 <= x + dx < w and 0 <= y + dy < h:
                        pen.line((x, y), (x + dx, y + dy), lw, spec.line)
    for x in range(w):
        for y in range(h):
            pen.circle(pen.pt((x, y)), lay.step * 0.07, fill=spec.line)


def _draw_xiangqi(pen: _Pen) -> None:
    lay, spec = pen.lay, pen.spec
    s = lay.step
    lw = max(1.2, s * 0.03)
    for y in range(10):
        pen.line((0, y), (8, y), lw, spec.line)
    for x in range(9):
        if x in (0, 8):
            pen.line((x, 0), (x, 9), lw, spec.line)
        else:
            pen.line((x, 0), (x, 4), lw, spec.line)
            pen.line((x, 5), (x, 9), lw, spec.line)
    for y0 in (0, 7):  # palaces
        pen.line((3, y0), (5, y0 + 2), lw, spec.line)
        pen.line((5, y0), (3, y0 + 2), lw, spec.line)
    # outer border, a little outside the edge lines
    corners = [lay.centre(p) for p in ((0, 0), (8, 0), (0, 9), (8, 9))]
    xs = [c[0] for c in corners]
    ys = [c[1] for c in corners]
    gap = s * 0.12
    pen.rect((min(xs) - gap, min(ys) - gap, max(xs) + gap + 1, max(ys) + gap + 1),
             outline=spec.line, width=lw * 2.2)
    # soldier and cannon points: small corner brackets in every quadrant on the board
    marks = [(1, 2), (7, 2), (1, 7), (7, 7)] + [(x, y) for x in (0, 2, 4, 6, 8) for y in (3, 6)]
    off, arm = s * 0.08, s * 0.17
    vw = lay.view_size[0]
    for p in marks:
        cx, cy = lay.centre(p)
        vx, _vy = lay.view(p)
        for sx in (-1, 1):
            if not 0 <= vx + sx < vw:
                continue
            for sy in (-1, 1):
                bx, by = cx + sx * off, cy + sy * off
                pen.draw.line((pen.xy(bx + sx * arm, by), pen.xy(bx, by),
                               pen.xy(bx, by + sy * arm)), fill=spec.line,
                              width=max(1, round(lw * SUPER)), joint="curve")


def _river_label(img: Image.Image, lay: Layout, spec: BoardSpec) -> None:
    """楚河 on the viewer's left, 漢界 on the right, upright, in the river."""
    s = lay.step
    d = ImageDraw.Draw(img)
    f = font("han", round(s * 0.56))
    vw, vh = lay.view_size
    ox, oy = lay.origin
    y = oy - lay.header + (vh / 2) * s
    colour = tuple(round(c * 0.55 + p * 0.45) for c, p in zip(spec.line, spec.plate,
                                                                strict=True))
    for text, fx in (("楚河", 2.0), ("漢界", 7.0)):
        x = ox + fx / 9 * vw * s
        d.text((x, y), text, font=f, fill=colour, anchor="mm")


def _draw_squares(pen: _Pen) -> None:
    lay, spec = pen.lay, pen.spec
    for x in range(lay.files):
        for y in range(lay.ranks):
            playing = (x + y) % 2 == 1  # RULES §4: (file + rank) odd, 1-based
            if not playing:
                pen.rect(lay.cell_box((x, y)), fill=spec.dark)


def square_number_colour(spec: BoardSpec) -> RGB:
    """The square numbers' colour: the playing squares' darkened to 3:1 against them (at
    the 1.6:1 they had, an empty square's number was hard to make out even at full
    size)."""
    r, g, b = (round(c * 0.55) for c in spec.plate)
    return r, g, b


def _square_numbers(img: Image.Image, lay: Layout, spec: BoardSpec) -> None:
    """PDN square numbers (RULES §4) in a corner of each playing square, quietly but
    legibly: the moves are written with them too ("h7xf5 (25x18)")."""
    d = ImageDraw.Draw(img)
    f = font("regular", round(lay.step * 0.17))
    colour = square_number_colour(spec)
    for x in range(lay.files):
        for y in range(lay.ranks):
            if (x + y) % 2 == 1:
                n = y * 4 + (7 - x) // 2 + 1
                x0, y0, _, _ = lay.cell_box((x, y))
                d.text((x0 + lay.step * 0.06, y0 - lay.header + lay.step * 0.04), str(n),
                       font=f, fill=colour, anchor="la")


def _draw_cells(pen: _Pen) -> None:
    lay, spec = pen.lay, pen.spec
    for seat, cells in spec.areas:
        fill = spec.area_tints[seat % len(spec.area_tints)]
        for c in cells:
            pen.rect(lay.cell_box(c), fill=fill)
    for c in spec.marked:
        x0, y0, x1, y1 = lay.cell_box(c)
        pen.rect((x0, y0, x1, y1), fill=(206, 190, 160))
        cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
        r = lay.step * 0.28
        diamond = [pen.xy(cx, cy - r), pen.xy(cx + r, cy), pen.xy(cx, cy + r),
                   pen.xy(cx - r, cy)]
        pen.draw.polygon(diamond, fill=(188, 168, 132))
    lw = max(1.0, lay.step * 0.025)
    ox, oy = lay.origin
    vw, vh = lay.view_size
    s = lay.step
    for i in range(vw + 1):
        pen.draw.line((pen.xy(ox + i * s, oy), pen.xy(ox + i * s, oy + vh * s)),
                      fill=spec.line, width=max(1, round(lw * SUPER)))
    for j in range(vh + 1):
        pen.draw.line((pen.xy(ox, oy + j * s), pen.xy(ox + vw * s, oy + j * s)),
                      fill=spec.line, width=max(1, round(lw * SUPER)))


def coordinate_px(lay: Layout) -> int:
    """The coordinates' font size: a quarter of a step, at most 3% of the picture's long
    side; at least 2.7% of its width, as far as the band beside the board holds it (a
    phone shows the picture as wide as its screen: Querni's small steps across its wide
    board gave letters a tenth smaller there than the other boards')."""
    px = min(lay.step * 0.26, max(lay.width, lay.height) * 0.03)
    return round(max(px, min(lay.width * 0.027, lay.margin * 0.6)))


def _coordinates(img: Image.Image, lay: Layout) -> None:
    """File letters under the board and rank numbers to its left, as seen from the
    viewer: after a quarter turn the bottom edge shows ranks and the side shows files."""
    d = ImageDraw.Draw(img)
    f = font("bold", coordinate_px(lay))
    vw, vh = lay.view_size
    ox, oy = lay.origin
    top = oy - lay.header
    s = lay.step

    def label(vx: int, vy: int, along_x: bool) -> str:
        a = lay.board_point(vx, vy)
        b = lay.board_point(vx + (0 if along_x else 1), vy + (1 if along_x else 0))
        return FILES[a[0]] if a[0] == b[0] else str(a[1] + 1)

    for vx in range(vw):
        text = label(vx, 0, True)
        d.text((ox + (vx + 0.5) * s, top + vh * s + lay.margin * 0.64), text, font=f,
               fill=INK_SOFT, anchor="mm")
    for vy in range(vh):
        text = label(0, vy, False)
        d.text((ox - lay.margin * 0.64, top + (vh - vy - 0.5) * s), text, font=f,
               fill=INK_SOFT, anchor="mm")


@lru_cache(maxsize=16)
def static_layer(key: str, board_size: tuple[int, int], seat_count: int, perspective: int,
                 size: int) -> Image.Image:
    """The board without pieces or overlays, below the header (RGB, cached)."""
    lay = layout(key, board_size, seat_count, perspective, size)
    spec = spec_for(key)
    pen = _Pen(lay, spec)
    _plate(pen)
    {"lines": _draw_lines, "river": _draw_xiangqi, "squares": _draw_squares,
     "cells": _draw_cells}[spec.family](pen)
    img = pen.img.reduce(SUPER)
    if spec.family == "river":
        _river_label(img, lay, spec)
    if spec.square_numbers:
        _square_numbers(img, lay, spec)
    _coordinates(img, lay)
    return img


__all__ = ["INK", "Layout", "coordinate_px", "layout", "quarter_turns", "square_number_colour",
           "static_layer"]
