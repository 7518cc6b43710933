"""The analysis on a finished match's page (issue 40): the evaluation graph as inline SVG,
drawn from the stored numbers the Discord picture is drawn from (``render.graph``: the
same scale, cap, band of forced ends, colours, words and alt text), so it is sharp at any
width, costs no request and needs nothing the strict CSP forbids (presentation attributes,
no inline style or script). The costly moves are ringed on it and listed under it, each
linked to its ply: the stepper shows the board after it.

The SVG is an image with its alt text (``render.graph.graph_alt``); the links on its marks
are a pointer's shortcut (out of the tab order), the list under it is the way for a
keyboard and a screen reader.
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape
from urllib.parse import urlencode

from locales.analysis import graph_caption, nothing_lost, worth_unit
from locales.i18n import Words, _, _n, capitalized, decimal, render
from locales.terms import game_name, seat_colour
from service.computer_seats import computer_title, computer_user, is_computer
from service.imported_seats import imported_title, is_imported
from service.views import AnalysedMove, MatchAnalysis
from service.web import WebMatch

ANALYSIS_MARKED = 3
"""The costly moves the page marks: the worst three, as ``/analysis`` answers."""
WIDTH, HEIGHT = 480, 276
"""The graph's own units: it is drawn at the page's width (at most 600 px), its text
about 11 px on a 390 px phone."""
LEFT, RIGHT, TOP, BOTTOM = 34, 472, 8, 250


MARK = "\ue000"
"""Stands for markup inside a translated sentence until it is escaped (private use)."""


def _esc(text: object) -> str:
    return escape(str(text), quote=True)


def _rgb(colour: tuple[int, int, int]) -> str:
    return "#{:02x}{:02x}{:02x}".format(*colour)


def _c(value: float) -> str:
    """A coordinate, short."""
    return f"{value:.1f}".rstrip("0").rstrip(".")


def _player(found: WebMatch, move: AnalysedMove) -> Words:
    """Who played a costly move, as the page names players (never a user id): the seat's
    player at that ply (a continued match's first moves are the imported record's)."""
    if move.user is not None and is_computer(move.user):
        return computer_title(move.user)
    held = found.record.holder(move.seat, move.ply)
    if held is not None and is_imported(held.user_id):
        return imported_title(held.player, held.name)
    names = found.names
    if move.seat < len(names) and names[move.seat]:
        return names[move.seat]
    return seat_colour(held.name) if held is not None else "?"


def evaluation_svg(found: WebMatch, analysis: MatchAnalysis, marked: Sequence[AnalysedMove],
                   link: str, locale: str) -> str:
    """The graph as an ``<svg>``: ``link`` is the page's address before ``?ply=``."""
    from render.graph import BAND, CAP, area_colour, axis_step, point_value, seat_words
    from render.style import CAPTURE_MARK, INK, INK_SOFT, PAPER

    record = found.record
    variant, seats = record.variant, record.match.seat_count
    names = list(found.names) if any(found.names) else None
    last = max([p.ply + 1 for p in analysis.curve] or [1])
    span = CAP + BAND
    ink, soft = _rgb(INK), _rgb(INK_SOFT)

    def x_of(ply_after: float) -> float:
        return LEFT + (RIGHT - LEFT) * ply_after / max(1, last)

    def y_of(value: float) -> float:
        return TOP + (BOTTOM - TOP) * (span - value) / (2 * span)

    parts = [f'<rect width="{WIDTH}" height="{HEIGHT}" fill="{_rgb(PAPER)}" rx="6"/>']
    for edge in (1, -1):  # the bands of forced ends, and what they mean
        y0, y1 = sorted((y_of(span * edge), y_of(CAP * edge)))
        parts.append(f'<rect x="{LEFT}" y="{_c(y0)}" width="{RIGHT - LEFT}" '
                     f'height="{_c(y1 - y0)}" fill="{soft}" fill-opacity="0.12"/>')
    if seats == 2:
        up = _("forced win for {seat}", seat=seat_words(variant, 0, seats, names))
        down = _("forced win for {seat}", seat=seat_words(variant, 1, seats, names))
    else:
        up, down = _("forced win"), _("forced loss")
    for words, value in ((up, CAP + BAND / 2), (down, -CAP - BAND / 2)):
        parts.append(f'<text x="{LEFT + 6}" y="{_c(y_of(value))}" dominant-baseline="middle" '
                     f'font-size="14" fill="{soft}">{_esc(render(words, locale))}</text>')
    for value in (-CAP, -CAP / 2, 0.0, CAP / 2, CAP):  # the grid, labelled in the game's pieces
        gy = _c(y_of(value))
        parts.append(f'<line x1="{LEFT}" y1="{gy}" x2="{RIGHT}" y2="{gy}" '
                     f'stroke="{ink if value == 0 else soft}" '
                     f'stroke-opacity="{1 if value == 0 else 0.35}" '
                     f'stroke-width="{1.5 if value == 0 else 1}"/>')
        label = render(decimal(value, signed=value != 0, places=0), locale)
        parts.append(f'<text x="{LEFT - 5}" y="{gy}" text-anchor="end" '
                     f'dominant-baseline="middle" font-size="14" fill="{soft}">'
                     f'{_esc(label)}</text>')
    step = axis_step(last)
    for n in range(0, last + 1, step):
        gx = _c(x_of(n))
        parts.append(f'<line x1="{gx}" y1="{BOTTOM}" x2="{gx}" y2="{BOTTOM + 5}" '
                     f'stroke="{soft}"/><text x="{gx}" y="{BOTTOM + 19}" text-anchor="middle" '
                     f'font-size="14" fill="{soft}">{n}</text>')

    where: dict[int, tuple[float, float]] = {}  # ply -> its point on the graph
    if seats == 2:
        line = [(x_of(0), y_of(0))]
        for p in analysis.curve:
            value = point_value(p.centipawns, p.end) * (1 if p.seat == 0 else -1)
            line.append((x_of(p.ply + 1), y_of(value)))
            where[p.ply] = line[-1]
        zero = y_of(0)
        for seat, keep in ((0, min), (1, max)):
            shape = [(line[0][0], zero), *((x, keep(y, zero)) for x, y in line),
                     (line[-1][0], zero)]
            points = " ".join(f"{_c(x)},{_c(y)}" for x, y in shape)
            parts.append(f'<polygon points="{points}" '
                         f'fill="{_rgb(area_colour(variant, seat, seats))}"/>')
        points = " ".join(f"{_c(x)},{_c(y)}" for x, y in line)
        parts.append(f'<polyline points="{points}" fill="none" stroke="{ink}" '
                     f'stroke-width="2.5" stroke-linejoin="round"/>')
    else:
        from render.graph import line_colour
        for seat in range(seats):
            own = [(x_of(p.ply + 1), y_of(point_value(p.centipawns, p.end)))
                   for p in analysis.curve if p.seat == seat]
            where.update({p.ply: (x_of(p.ply + 1), y_of(point_value(p.centipawns, p.end)))
                          for p in analysis.curve if p.seat == seat})
            colour = _rgb(line_colour(variant, seat, seats))
            if len(own) > 1:
                points = " ".join(f"{_c(x)},{_c(y)}" for x, y in own)
                parts.append(f'<polyline points="{points}" fill="none" stroke="{colour}" '
                             f'stroke-width="2.5" stroke-linejoin="round"/>')
            parts.extend(f'<circle cx="{_c(x)}" cy="{_c(y)}" r="2.5" fill="{colour}"/>'
                         for x, y in own)
    mark = _rgb(CAPTURE_MARK)
    lang = urlencode({"lang": locale})
    for move in marked:
        if move.ply not in where:
            continue
        x, y = where[move.ply]
        above = y > TOP + 30
        ty = y - 13 if above else y + 13
        said = render(capitalized(move.line(_player(found, move), game=variant.key)), locale)
        parts.append(
            f'<a class="goto" href="{_esc(link)}?ply={move.ply + 1}&amp;{lang}" '
            f'data-ply="{move.ply + 1}" tabindex="-1"><title>{_esc(said)}</title>'
            f'<circle cx="{_c(x)}" cy="{_c(y)}" r="7" fill="none" stroke="{mark}" '
            f'stroke-width="2.5"/><circle cx="{_c(x)}" cy="{_c(y)}" r="13" '
            f'fill="transparent"/>'
            f'<text x="{_c(x)}" y="{_c(ty)}" text-anchor="middle" '
            f'dominant-baseline="{"auto" if above else "hanging"}" font-size="15" '
            f'font-weight="700" fill="{mark}" stroke="{_rgb(PAPER)}" stroke-width="3" '
            f'paint-order="stroke">{move.ply + 1}</text></a>')
    title = _("{game}, match {match}: the analysis",
              game=game_name(variant.key, variant.name), match=record.match.id)
    alt = _graph_alt(found, analysis, marked, title, locale)
    return (f'<svg class="graph" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" '
            f'aria-label="{_esc(alt)}" xmlns="http://www.w3.org/2000/svg">'
            f'{"".join(parts)}</svg>')


def _graph_alt(found: WebMatch, analysis: MatchAnalysis, marked: Sequence[AnalysedMove],
               title: Words, locale: str) -> str:
    from render.graph import graph_alt

    record = found.record
    names = list(found.names) if any(found.names) else None
    return graph_alt(record.variant, record.match.seat_count,
                     [(p.ply, p.seat, p.centipawns, p.end) for p in analysis.curve],
                     {m.ply: str(m.ply + 1) for m in marked}, names, title, locale)


def analysis_section(found: WebMatch, *, link: str, locale: str) -> str:
    """The analysis of a finished match as its page shows it, or nothing when none is
    stored (``WebMatch.analysis``: never while the match is live)."""
    analysis = found.analysis
    if analysis is None or not analysis.curve:
        return ""
    record = found.record
    variant, seats = record.variant, record.match.seat_count
    names = list(found.names) if any(found.names) else None
    marked = analysis.costly[:ANALYSIS_MARKED]
    from render.graph import seat_words

    heading = render(_("Analysis"), locale)
    unit = worth_unit(variant.key)
    caption = graph_caption(unit, seat_words(variant, 0, seats, names),
                            seat_words(variant, 1, seats, names)) if seats == 2 else \
        graph_caption(unit)
    day = analysis.made_at.strftime("%Y-%m-%d")
    when = f'<time datetime="{_esc(analysis.made_at.isoformat(timespec="seconds"))}">' \
        f'{_esc(day)}</time>'
    # the computer named as everywhere else (``computer_seats``: "Tablero level 8")
    weigher = computer_title(computer_user(analysis.level))
    engine: Words = _n("Weighed by {computer}, {count} position a search, on {day}.",
                       "Weighed by {computer}, {count} positions a search, on {day}.",
                       analysis.nodes, computer=weigher, day=MARK) \
        if analysis.nodes is not None else \
        _("Weighed by {computer} on {day}.", computer=weigher, day=MARK)
    lang = urlencode({"lang": locale})
    lines = [render(capitalized(m.line(_player(found, m), game=variant.key)), locale)
             for m in marked]
    items = "".join(
        f'<li><a class="goto" href="{_esc(link)}?ply={m.ply + 1}&amp;{lang}" '
        f'data-ply="{m.ply + 1}">{_esc(said)}</a></li>'
        for m, said in zip(marked, lines, strict=True))
    costly = ""
    if items:
        said = render(_("The costliest moves"), locale)
        costly = f'<h3>{_esc(said)}</h3><ol class="costly">{items}</ol>'
    else:
        said = render(nothing_lost(unit), locale)
        costly = f"<p>{_esc(said)}</p>"
    return (f'<section class="analysis" aria-labelledby="analysis-h">'
            f'<h2 id="analysis-h">{_esc(heading)}</h2>'
            f'<p class="caption">{_esc(render(capitalized(caption), locale))}</p>'
            f'{evaluation_svg(found, analysis, marked, link, locale)}{costly}'
            f'<p class="engine">{_esc(render(engine, locale)).replace(MARK, when)}</p>'
            f'</section>')
