"""A table as a PNG (tournament standings, for example): plain rows of text in, an image
and its alt text out. Knows nothing of tournaments: the caller turns its data into
strings (``service.tournaments.table`` does it for standings).

    >>> t = draw_table(["#", "Player", "Pts"], [["1", "alice", "2.5"], ["2", "bob", "1"]],
    ...                title="Spring Swiss", subtitle="Xiangqi · round 3 of 5",
    ...                align="rlr", top_rows=[0])
    >>> t.png[:8] == b"\\x89PNG\\r\\n\\x1a\\n", t.width < 800
    (True, True)
    >>> t.alt_text
    'Spring Swiss. Xiangqi · round 3 of 5. #, Player, Pts: 1, alice, 2.5; 2, bob, 1.'
"""

from __future__ import annotations

import io
from collections.abc import Collection, Sequence
from dataclasses import dataclass

from PIL import Image, ImageDraw, ImageFont

from locales.i18n import DEFAULT_LOCALE, _n, negotiate, render
from render.style import INK, INK_SOFT, PAPER, RGB, TURN_BG, TURN_EDGE, drawable, font

__all__ = ["RenderedTable", "draw_table", "drawable"]

HEADER_BG: RGB = (226, 214, 192)
STRIPE: RGB = (250, 245, 234)
RULE: RGB = (205, 190, 166)
FADED: RGB = (140, 128, 114)  # a withdrawn player: greyed, still 3:1 on every row
MAX_ALT = 1000


@dataclass(frozen=True, slots=True)
class RenderedTable:
    png: bytes
    alt_text: str
    width: int
    height: int


def _fit(text: str, f: ImageFont.FreeTypeFont, width: float) -> str:
    if f.getlength(text) <= width:
        return text
    while text and f.getlength(text + "…") > width:
        text = text[:-1]
    return text + "…"


def draw_table(headers: Sequence[str], rows: Sequence[Sequence[str]], *, title: str,
               subtitle: str | None = None, align: str | None = None,
               top_rows: Collection[int] = (), faded_rows: Collection[int] = (),
               px: int = 20, max_cell: int = 280,
               locale: str = DEFAULT_LOCALE) -> RenderedTable:
    """Draw ``rows`` under ``headers`` as a palette PNG (the words of its alt text in
    ``locale``).

    ``align``: one letter per column, ``l``/``r``/``c`` (default: the second column left,
    the others right, as in standings); ``top_rows``: row indices drawn highlighted (the
    leaders); ``faded_rows``: row indices drawn greyed (withdrawn players); a cell wider
    than ``max_cell`` pixels is cut with an ellipsis. Every text goes through
    :func:`drawable`.
    """
    cols = len(headers)
    if any(len(r) != cols for r in rows):
        raise ValueError(f"every row needs {cols} cells")
    align = align or "".join("l" if i == 1 else "r" for i in range(cols))
    if len(align) != cols or set(align) - set("lrc"):
        raise ValueError(f"align needs one of l, r, c per column: {align!r}")
    regular, bold = font("regular", px), font("bold", px)
    head = [drawable(h) for h in headers]
    body = [[drawable(c) for c in r] for r in rows]
    pad, row_h = px * 0.7, round(px * 1.7)
    widths = []
    for i in range(cols):
        w = max([bold.getlength(head[i])] +
                [(bold if j in top_rows else regular).getlength(r[i])
                 for j, r in enumerate(body)])
        widths.append(min(max_cell, w))
    body = [[_fit(c, bold if j in top_rows else regular, widths[i]) for i, c in enumerate(r)]
            for j, r in enumerate(body)]
    margin = round(px * 1.2)
    width = round(sum(widths) + 2 * pad * cols) + 2 * margin
    title_f, sub_f = font("bold", round(px * 1.35)), font("regular", round(px * 0.85))
    title_text = drawable(title)
    sub_text = drawable(subtitle) if subtitle else None
    width = max(width, round(title_f.getlength(title_text)) + 2 * margin,
                round(sub_f.getlength(sub_text)) + 2 * margin if sub_text else 0)
    width = min(width, 1600)
    top = margin + round(px * 1.7) + (round(px * 1.3) if sub_text else 0)
    height = top + row_h * (len(body) + 1) + margin
    img = Image.new("RGB", (width, height), PAPER)
    dr = ImageDraw.Draw(img)
    dr.text((margin, margin), _fit(title_text, title_f, width - 2 * margin), font=title_f,
            fill=INK)
    if sub_text:
        dr.text((margin, margin + round(px * 1.75)),
                _fit(sub_text, sub_f, width - 2 * margin), font=sub_f, fill=INK_SOFT)
    left, right = margin, width - margin
    xs = [float(left)]
    for w in widths:
        xs.append(xs[-1] + w + 2 * pad)

    def cell(y: int, i: int, text: str, f: ImageFont.FreeTypeFont, fill: RGB) -> None:
        mid = y + row_h / 2
        if align[i] == "l":
            dr.text((xs[i] + pad, mid), text, font=f, fill=fill, anchor="lm")
        elif align[i] == "r":
            dr.text((xs[i + 1] - pad, mid), text, font=f, fill=fill, anchor="rm")
        else:
            dr.text(((xs[i] + xs[i + 1]) / 2, mid), text, font=f, fill=fill, anchor="mm")

    dr.rectangle((left, top, right, top + row_h), fill=HEADER_BG)
    for i, h in enumerate(head):
        cell(top, i, _fit(h, bold, widths[i]), bold, INK)
    for j, r in enumerate(body):
        y = top + row_h * (j + 1)
        if j in top_rows:
            dr.rectangle((left, y, right, y + row_h), fill=TURN_BG)
            dr.line((left, y + row_h - 1, right, y + row_h - 1), fill=TURN_EDGE, width=1)
        elif j % 2:
            dr.rectangle((left, y, right, y + row_h), fill=STRIPE)
        f = bold if j in top_rows else regular
        fill = FADED if j in faded_rows else INK
        for i, c in enumerate(r):
            cell(y, i, c, f, fill)
        if j in faded_rows:  # a line through the name as well as the grey
            x0, x1 = xs[1] + pad, xs[1] + pad + regular.getlength(r[1])
            dr.line((x0, y + row_h / 2, x1, y + row_h / 2), fill=FADED, width=max(1, px // 12))
    dr.line((left, top + row_h, right, top + row_h), fill=RULE, width=max(1, px // 10))
    dr.rectangle((left, top, right, top + row_h * (len(body) + 1)), outline=RULE,
                 width=max(1, px // 10))
    buf = io.BytesIO()
    img.quantize(colors=64, dither=Image.Dither.NONE).save(buf, "PNG", optimize=True)
    return RenderedTable(buf.getvalue(), _alt(title, subtitle, headers, rows, locale),
                         width, height)


def _alt(title: str, subtitle: str | None, headers: Sequence[str],
         rows: Sequence[Sequence[str]], locale: str = DEFAULT_LOCALE) -> str:
    """The table as one line of text for screen readers (at most ``MAX_ALT``), with the
    language's punctuation (Chinese: ``。，：；`` and no spaces between).

    >>> _alt("Cup", None, ["#", "Player"], [["1", "ann"], ["2", "bo"]])
    'Cup. #, Player: 1, ann; 2, bo.'
    >>> _alt("杯賽", None, ["#", "玩家"], [["1", "ann"], ["2", "bo"]], "zh-TW")
    '杯賽。#，玩家：1，ann；2，bo。'
    """
    stop, comma, colon, semi, space = ("。", "，", "：", "；", "") \
        if negotiate(locale).startswith("zh") else (".", ", ", ":", "; ", " ")

    def more(n: int) -> str:
        return render(_n("; and {count} more.", "; and {count} more.", n), locale)
    parts = [f"{title}{stop}", f"{subtitle}{stop}" if subtitle else "",
             f"{comma.join(headers)}{colon}"]
    text = space.join(p for p in parts if p)
    shown: list[str] = []
    for k, r in enumerate(rows):
        line = comma.join(r)
        rest = len(rows) - k - 1
        tail = more(rest) if rest else stop
        if len(text) + 1 + len(semi.join([*shown, line])) + len(tail) > MAX_ALT:
            return f"{text}{space}{semi.join(shown)}{more(len(rows) - k)}"[:MAX_ALT]
        shown.append(line)
    return f"{text}{space}{semi.join(shown)}{stop}"[:MAX_ALT]
