"""The analysis as a picture (issue 42): the engine's evaluation over a whole game.

Two seats: one line, the first seat's advantage in the game's own pieces (its
``worth_unit``: above the middle line the first seat is better, below it the second),
the area between it and the middle line in the colour of the side that is better. Four
seats: one line per seat, each seat's own view (it against the other three). The scale
is capped at ``CAP`` pieces so one lopsided position does not flatten the rest; a forced
win or loss the engine sees goes into a band beyond the cap, labelled, so a decisive
swing reads as a swing. The costly moves are ringed and numbered on the line.

    >>> import rules
    >>> v = rules.variant("xiangqi")
    >>> g = evaluation_graph(v, 2, [(0, 0, 30, None), (1, 1, -20, None), (2, 0, 250, None),
    ...                             (3, 1, None, -1)], marked={3: "4"},
    ...                      names=["alice", "bob"], title="Xiangqi · match 7")
    >>> g.png[:8] == b"\\x89PNG\\r\\n\\x1a\\n", (g.width, g.height)
    (True, (800, 460))
    >>> print(g.alt_text)  # doctest: +NORMALIZE_WHITESPACE
    Xiangqi · match 7: the engine's evaluation after each of 4 moves, in soldiers, above the
    middle line Red (alice) better, below it Black (bob). Largest swing: move 4, from +2.5
    to a forced win for Red (alice). Marked: move 4.
"""

from __future__ import annotations

import io
import itertools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from PIL import Image, ImageDraw

from locales.analysis import graph_caption, units, worth_unit
from locales.i18n import DEFAULT_LOCALE, Words, _, _n, capitalized, decimal, joined, render
from locales.terms import seat_colour
from render.draw import PNG_LEVEL
from render.style import (
    CAPTURE_MARK,
    INK,
    INK_SOFT,
    PAPER,
    RGB,
    SEAT_LOOKS,
    drawn_words,
    font,
    look_name,
)
from rules import Variant

__all__ = ["BAND", "CAP", "GraphPoint", "RenderedGraph", "area_colour", "axis_step",
           "evaluation_graph", "graph_alt", "line_colour", "point_value", "seat_words"]

CAP = 10.0
"""Pawns: the scale ends here; beyond it lies the band of forced ends."""
BAND = 3.0
"""Pawns of height the band of forced ends takes beyond the cap."""
WIDTH, HEIGHT = 800, 460
"""Twice a phone's width in CSS pixels: sharp on a phone, small as a file."""
SCALE = 2
"""Drawn at twice the size and scaled down: smooth lines without antialiasing."""
MAX_ALT = 1000

GraphPoint = tuple[int, int, int | None, int | None]
"""``(ply, seat, centipawns, forced end)`` after one move, for its mover: ``ply`` 0 is
the first move; ``centipawns`` None where only the forced end counts; the forced end in
moves of the side that ends it, > 0 the mover wins by force, < 0 he loses by force."""


@dataclass(frozen=True, slots=True)
class RenderedGraph:
    png: bytes
    alt_text: str
    width: int
    height: int


def line_colour(v: Variant, seat: int, seats: int) -> RGB:
    """A seat's line colour: its pieces' body, the rim where the body is pale."""
    look = SEAT_LOOKS[look_name(v.seat_name(seat, seats), seat)]
    return look.rim if sum(look.body) > 600 else look.body


def area_colour(v: Variant, seat: int, seats: int) -> RGB:
    """The colour of the area where ``seat`` is better: its pieces' body, lightened; a
    pale body (white) as pure white, which stands out from the paper."""
    look = SEAT_LOOKS[look_name(v.seat_name(seat, seats), seat)]
    return (255, 255, 255) if sum(look.body) > 600 else _mix(look.body, PAPER, 0.45)


def _mix(a: RGB, b: RGB, t: float) -> RGB:
    return (round(a[0] * t + b[0] * (1 - t)), round(a[1] * t + b[1] * (1 - t)),
            round(a[2] * t + b[2] * (1 - t)))


def point_value(centipawns: int | None, end: int | None) -> float:
    """A point's height for its mover, in the game's pieces (a hundred centipawns each):
    capped, a forced end in the band."""
    if end is not None:
        return (CAP + BAND / 2) * (1 if end > 0 else -1)
    pawns = (centipawns or 0) / 100
    return max(-CAP, min(CAP, pawns))


def seat_words(v: Variant, seat: int, seats: int, names: Sequence[str] | None) -> Words:
    """``'Red (alice)'`` with names, else ``'Red'`` (the board's words)."""
    english = v.seat_name(seat, seats)
    colour = seat_colour(english)
    if names and seat < len(names) and names[seat] and names[seat] != english:
        return _("{seat} ({player})", seat=colour, player=names[seat])
    return colour


def _said(value: float) -> Words:
    """A height as the alt text says it: "+2.5", or a forced end."""
    if abs(value) > CAP:
        return _("a forced win") if value > 0 else _("a forced loss")
    return decimal(value, signed=True)


def axis_step(plies: int) -> int:
    """Move numbers written on the axis: at most about ten."""
    for step in (1, 2, 5, 10, 20, 25, 50, 100, 200, 500):
        if plies / step <= 10:
            return step
    return 1000


def evaluation_graph(variant: Variant, seats: int, points: Sequence[GraphPoint], *,
                     marked: Mapping[int, str] | None = None,
                     names: Sequence[str] | None = None, title: Words = "",
                     locale: str = DEFAULT_LOCALE) -> RenderedGraph:
    """Draw the evaluation after each move (``points``, in record order) as a palette
    PNG of ``WIDTH`` × ``HEIGHT`` with its alt text, both in ``locale``. ``marked`` maps
    the plies of costly moves to their label on the graph (the move's number);
    ``names`` names the seats; ``title`` heads it.
    """
    marked = dict(marked or {})
    s = SCALE
    img = Image.new("RGB", (WIDTH * s, HEIGHT * s), PAPER)
    dr = ImageDraw.Draw(img)
    title_f, label_f, small_f = font("bold", 22 * s), font("regular", 17 * s), \
        font("regular", 15 * s)
    two = seats == 2
    left, right, bottom = 62 * s, (WIDTH - 18) * s, (HEIGHT - 52) * s
    top = (74 if two else 104) * s  # four seats: a row of the seats' colours first
    last = max([p[0] + 1 for p in points] or [1])
    span = CAP + BAND

    def x_of(ply_after: float) -> float:
        return left + (right - left) * ply_after / max(1, last)

    def y_of(value: float) -> float:
        return top + (bottom - top) * (span - value) / (2 * span)

    dr.text((left, 14 * s), drawn_words(title, locale), font=title_f, fill=INK)
    # the bands of forced ends, and what they mean
    band_fill = _mix(INK_SOFT, PAPER, 0.12)
    for edge in (1, -1):
        ys = sorted((y_of(span * edge), y_of(CAP * edge)))
        dr.rectangle((left, ys[0], right, ys[1]), fill=band_fill)
    if two:
        up = _("forced win for {seat}", seat=seat_words(variant, 0, seats, names))
        down = _("forced win for {seat}", seat=seat_words(variant, 1, seats, names))
    else:
        up, down = _("forced win"), _("forced loss")
    for words, value in ((up, CAP + BAND / 2), (down, -CAP - BAND / 2)):
        dr.text((left + 8 * s, y_of(value)), drawn_words(words, locale), font=small_f,
                fill=INK_SOFT, anchor="lm")
    # the grid: the middle line, ±5 and the cap, labelled in the game's pieces
    for value in (-CAP, -CAP / 2, 0.0, CAP / 2, CAP):
        y = y_of(value)
        dr.line((left, y, right, y), fill=INK if value == 0 else _mix(INK_SOFT, PAPER, 0.35),
                width=(2 if value == 0 else 1) * s)
        dr.text((left - 8 * s, y), render(decimal(value, signed=value != 0, places=0),
                                          locale),
                font=small_f, fill=INK_SOFT, anchor="rm")
    unit = worth_unit(variant.key)
    caption = graph_caption(unit, seat_words(variant, 0, seats, names),
                            seat_words(variant, 1, seats, names)) if two else \
        graph_caption(unit)
    dr.text((left, 48 * s), drawn_words(caption, locale), font=label_f, fill=INK_SOFT)
    step = axis_step(last)
    for n in range(0, last + 1, step):
        dr.line((x_of(n), bottom, x_of(n), bottom + 6 * s), fill=INK_SOFT, width=s)
        dr.text((x_of(n), bottom + 8 * s), str(n), font=small_f, fill=INK_SOFT, anchor="mt")
    dr.text((right, HEIGHT * s - 6 * s), drawn_words(_("move number"), locale), font=small_f,
            fill=INK_SOFT, anchor="rd")

    where: dict[int, tuple[float, float]] = {}  # ply -> its point on the graph
    if two:
        line = [(x_of(0), y_of(0))]
        for ply, seat, cp, end in points:
            value = point_value(cp, end) * (1 if seat == 0 else -1)
            line.append((x_of(ply + 1), y_of(value)))
            where[ply] = line[-1]
        zero = y_of(0)
        for seat, keep in ((0, min), (1, max)):
            shape = [(line[0][0], zero), *((x, keep(y, zero)) for x, y in line),
                     (line[-1][0], zero)]
            dr.polygon(shape, fill=area_colour(variant, seat, seats))
        dr.line(line, fill=INK, width=3 * s, joint="curve")
    else:
        for seat in range(seats):
            own = [(x_of(ply + 1), y_of(point_value(cp, end))) for ply, who, cp, end in points
                   if who == seat]
            where.update({ply: (x_of(ply + 1), y_of(point_value(cp, end)))
                          for ply, who, cp, end in points if who == seat})
            if len(own) > 1:
                dr.line(own, fill=line_colour(variant, seat, seats), width=3 * s, joint="curve")
            for x, y in own:
                r = 3 * s
                dr.ellipse((x - r, y - r, x + r, y + r), fill=line_colour(variant, seat, seats))
        legend_x = left
        for seat in range(seats):
            said = drawn_words(seat_words(variant, seat, seats, names), locale)
            colour = line_colour(variant, seat, seats)
            y = 84 * s
            dr.rectangle((legend_x, y - 5 * s, legend_x + 18 * s, y + 5 * s), fill=colour)
            dr.text((legend_x + 24 * s, y), said, font=small_f, fill=INK, anchor="lm")
            legend_x += round(24 * s + small_f.getlength(said) + 18 * s)
    for ply, label in marked.items():
        if ply not in where:
            continue
        x, y = where[ply]
        r = 9 * s
        dr.ellipse((x - r, y - r, x + r, y + r), outline=CAPTURE_MARK, width=3 * s)
        above = y - r - 4 * s if y > top + 30 * s else y + r + 4 * s
        anchor = "md" if y > top + 30 * s else "ma"
        dr.text((x, above), label, font=label_f, fill=CAPTURE_MARK, anchor=anchor,
                stroke_width=3 * s, stroke_fill=PAPER)  # readable over the lines
    out = img.reduce(SCALE)  # a box filter: smooth enough for lines, and fast
    buf = io.BytesIO()
    out.quantize(colors=64, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE
                 ).save(buf, "PNG", compress_level=PNG_LEVEL)
    alt = graph_alt(variant, seats, points, marked, names, title, locale)
    return RenderedGraph(buf.getvalue(), alt, WIDTH, HEIGHT)


def graph_alt(v: Variant, seats: int, points: Sequence[GraphPoint],
              marked: Mapping[int, str], names: Sequence[str] | None, title: Words,
              locale: str) -> str:
    """The graph in words: what it shows, its largest swing, the marked moves."""
    moves = len(points)
    if seats == 2:
        what = _n("the engine's evaluation after {count} move, in {units}, above the "
                  "middle line {first} better, below it {second}.",
                  "the engine's evaluation after each of {count} moves, in {units}, above "
                  "the middle line {first} better, below it {second}.", moves,
                  units=units(worth_unit(v.key)), first=seat_words(v, 0, seats, names),
                  second=seat_words(v, 1, seats, names))
    else:
        what = _n("the engine's evaluation after {count} move, in {units}, each player's "
                  "own view.",
                  "the engine's evaluation after each of {count} moves, in {units}, each "
                  "player's own view.", moves, units=units(worth_unit(v.key)))
    parts: list[Words] = [_("{title}: {what}", title=title, what=what) if title
                          else capitalized(what)]
    if seats == 2 and points:
        values = [0.0] + [point_value(cp, end) * (1 if seat == 0 else -1)
                          for _p, seat, cp, end in points]
        jumps = [abs(b - a) for a, b in itertools.pairwise(values)]
        k = max(range(len(jumps)), key=jumps.__getitem__)
        after = values[k + 1]
        to: Words = _said(after) if abs(after) <= CAP else _(
            "a forced win for {seat}", seat=seat_words(v, 0 if after > 0 else 1, seats, names))
        parts.append(_("Largest swing: move {number}, from {before} to {after}.",
                       number=points[k][0] + 1, before=_said(values[k]), after=to))
    if marked:
        numbers = joined(*(str(ply + 1) for ply in sorted(marked)), separator=", ")
        parts.append(_n("Marked: move {numbers}.", "Marked: moves {numbers}.", len(marked),
                        numbers=numbers))
    return render(joined(*parts), locale)[:MAX_ALT]
