"""Piece and overlay sprites: drawn four times larger, reduced (anti-aliased), cached.

Every sprite is an RGBA image whose centre is the point it marks; it is pasted with its
own alpha. Piece sprites carry their soft shadow.
"""

from __future__ import annotations

from functools import lru_cache

from PIL import Image, ImageChops, ImageDraw, ImageFilter

from render.style import (
    CAPTURE_MARK,
    CHECK_GLOW,
    CHECK_RING,
    LAST_MOVE,
    LAST_MOVE_PATH,
    REMOVED_MARK,
    RGB,
    SEAT_LOOKS,
    XIANGQI_CHARS,
    XIANGQI_DISCS,
    XIANGQI_INK,
    SeatLook,
    font,
)

SS = 4  # supersampling factor


def _canvas(d: int, pad: float = 0.16) -> tuple[Image.Image, int, float]:
    """A transparent canvas for a disc of diameter ``d`` with room for its shadow;
    returns the image, its side and the disc's top-left offset (all at SS scale)."""
    side = round(d * (1 + 2 * pad)) * SS
    return Image.new("RGBA", (side, side), (0, 0, 0, 0)), side, d * pad * SS


def _finish(img: Image.Image) -> Image.Image:
    return img.reduce(SS)


def _shadow(img: Image.Image, box: tuple[float, float, float, float], d: int) -> None:
    sh = Image.new("L", img.size, 0)
    off = d * 0.05 * SS
    ImageDraw.Draw(sh).ellipse((box[0] + off * 0.5, box[1] + off, box[2] + off * 0.5,
                                box[3] + off), fill=110)
    sh = sh.filter(ImageFilter.GaussianBlur(d * 0.02 * SS))  # a tight blur compresses well
    black = Image.new("RGBA", img.size, (30, 20, 10, 255))
    black.putalpha(sh)
    img.alpha_composite(black)


def _disc(img: Image.Image, box: tuple[float, float, float, float], look: SeatLook,
          d: int, rim_width: float = 0.06) -> None:
    """A lit disc: rim, body, and a soft lighter top-left area."""
    dr = ImageDraw.Draw(img)
    dr.ellipse(box, fill=look.rim)
    w = d * rim_width * SS
    inner = (box[0] + w, box[1] + w, box[2] - w, box[3] - w)
    dr.ellipse(inner, fill=look.body)
    # highlight: a lighter blurred blob towards the top left, clipped to the body
    glow = Image.new("L", img.size, 0)
    gw = (inner[2] - inner[0])
    gd = ImageDraw.Draw(glow)
    gd.ellipse((inner[0] + gw * 0.12, inner[1] + gw * 0.08, inner[0] + gw * 0.68,
                inner[1] + gw * 0.56), fill=150)
    glow = glow.filter(ImageFilter.GaussianBlur(gw * 0.12))
    clip = Image.new("L", img.size, 0)
    ImageDraw.Draw(clip).ellipse(inner, fill=255)
    glow = ImageChops.multiply(glow, clip)
    light = Image.new("RGBA", img.size, (*look.highlight, 255))
    light.putalpha(glow)
    img.alpha_composite(light)


def _text(img: Image.Image, centre: tuple[float, float], text: str, kind: str, px: float,
          fill: RGB, stroke: RGB | None = None) -> None:
    dr = ImageDraw.Draw(img)
    f = font(kind, round(px))
    if stroke is not None:
        dr.text(centre, text, font=f, fill=fill, anchor="mm", stroke_width=max(1, round(px / 14)),
                stroke_fill=stroke)
    else:
        dr.text(centre, text, font=f, fill=fill, anchor="mm")


def _crown(img: Image.Image, centre: tuple[float, float], size: float, fill: RGB,
           edge: RGB) -> None:
    """A small three-pointed crown (draughts kings)."""
    cx, cy = centre
    w, h = size, size * 0.72
    x0, x1 = cx - w / 2, cx + w / 2
    top, base = cy - h / 2, cy + h / 2
    pts = [(x0, base), (x0 - w * 0.04, top + h * 0.18), (cx - w * 0.25, top + h * 0.55),
           (cx, top), (cx + w * 0.25, top + h * 0.55), (x1 + w * 0.04, top + h * 0.18),
           (x1, base)]
    dr = ImageDraw.Draw(img)
    dr.polygon(pts, fill=fill, outline=edge, width=max(1, round(size * 0.06)))
    band = h * 0.2
    dr.rectangle((x0, base - band * 0.2, x1, base + band), fill=fill, outline=edge,
                 width=max(1, round(size * 0.06)))
    r = size * 0.075
    for px, py in ((x0 - w * 0.04, top + h * 0.18), (cx, top), (x1 + w * 0.04, top + h * 0.18)):
        dr.ellipse((px - r, py - r, px + r, py + r), fill=fill, outline=edge)


@lru_cache(maxsize=512)
def piece(style: str, look_name: str, kind: str, d: int, ghost: bool = False) -> Image.Image:
    """The sprite of one piece, diameter ``d`` pixels.

    ``style``: ``'stone'`` (Alquerque), ``'draughts'`` (man, or king with a crown),
    ``'characters'`` (Red: a red character on ivory; Black: ivory on black) or ``'numbered'``
    (coloured stone with its number; an empty ``kind`` hides the number).
    ``ghost`` gives a faded version (a piece that has just left the board).
    """
    img, _side, o = _canvas(d)
    box = (o, o, o + d * SS, o + d * SS)
    c = (o + d * SS / 2, o + d * SS / 2)
    _shadow(img, box, d)
    if style == "characters":
        ink = XIANGQI_INK.get(look_name, XIANGQI_INK["black"])
        _disc(img, box, XIANGQI_DISCS.get(look_name, XIANGQI_DISCS["black"]), d,
              rim_width=0.075)
        r = d * SS * 0.39
        ImageDraw.Draw(img).ellipse((c[0] - r, c[1] - r, c[0] + r, c[1] + r), outline=ink,
                                    width=max(1, round(d * SS * 0.03)))
        char = XIANGQI_CHARS.get(look_name, XIANGQI_CHARS["black"]).get(kind, kind)
        _text(img, (c[0], c[1] + d * SS * 0.01), char, "han", d * SS * 0.56, ink)
    else:
        look = SEAT_LOOKS[look_name]
        if style == "draughts":
            _disc(img, box, look, d, rim_width=0.07)
            dr = ImageDraw.Draw(img)
            for frac in (0.34, 0.24):
                r = d * SS * frac
                dr.ellipse((c[0] - r, c[1] - r, c[0] + r, c[1] + r), outline=look.rim,
                           width=max(1, round(d * SS * 0.022)))
            if kind == "king":
                _crown(img, (c[0], c[1] + d * SS * 0.01), d * SS * 0.46, (232, 186, 48),
                       (110, 74, 10))
        elif style == "numbered":
            _disc(img, box, look, d, rim_width=0.06)
            if kind:
                px = d * SS * (0.58 if len(kind) == 1 else 0.5)
                _text(img, (c[0], c[1] - d * SS * 0.02), kind, "bold", px, look.ink)
        else:
            _disc(img, box, look, d, rim_width=0.07)
    out = _finish(img)
    if ghost:
        alpha = out.getchannel("A").point(lambda a: a * 50 // 100)
        out.putalpha(alpha)
    return out


@lru_cache(maxsize=256)
def mark(name: str, d: int) -> Image.Image:
    """Overlay sprites, ``d`` pixels across: ``'ring'`` (around the piece that moved),
    ``'from'`` (the point a move started from / an intermediate landing),
    ``'capture'`` (a red cross), ``'removed'`` (a blue dashed ring), ``'check'`` (a red
    glow under a general in check), ``'square'`` (a square tint for cell boards)."""
    side = d * SS
    img = Image.new("RGBA", (side, side), (0, 0, 0, 0))
    dr = ImageDraw.Draw(img)
    if name == "ring":
        w = side * 0.11
        dr.ellipse((0, 0, side - 1, side - 1), outline=(*LAST_MOVE, 235), width=round(w))
    elif name == "from":
        dr.ellipse((side * 0.04, side * 0.04, side * 0.96, side * 0.96),
                   fill=(*LAST_MOVE, 105), outline=(*LAST_MOVE_PATH, 220),
                   width=round(side * 0.05))
    elif name == "square":
        dr.rectangle((0, 0, side, side), fill=(*LAST_MOVE, 120))
    elif name == "check":
        glow = Image.new("L", img.size, 0)
        ImageDraw.Draw(glow).ellipse((side * 0.06, side * 0.06, side * 0.94, side * 0.94),
                                     fill=250)
        glow = glow.filter(ImageFilter.GaussianBlur(side * 0.035))
        img = Image.new("RGBA", img.size, (*CHECK_GLOW, 255))
        img.putalpha(glow)
        # and a solid ring hugging the disc (the glow alone faded into the wood at a
        # phone's size, fainter than the last move's yellow ring)
        ImageDraw.Draw(img).ellipse((side * 0.075, side * 0.075, side * 0.925, side * 0.925),
                                    outline=(*CHECK_RING, 255), width=round(side * 0.08))
    elif name == "capture":
        w = side * 0.15
        a, b = side * 0.2, side * 0.8
        for colour, width in (((255, 255, 255, 230), w * 1.7), ((*CAPTURE_MARK, 255), w)):
            dr.line((a, a, b, b), fill=colour, width=round(width))
            dr.line((a, b, b, a), fill=colour, width=round(width))
    elif name == "removed":  # a dashed ring: the faded piece inside stays readable
        w = side * 0.07
        box = (side * 0.06, side * 0.06, side * 0.94, side * 0.94)
        dr.ellipse(box, outline=(255, 255, 255, 190), width=round(w * 2))
        for start in range(0, 360, 30):
            dr.arc(box, start, start + 18, fill=(*REMOVED_MARK, 255), width=round(w * 1.3))
    else:
        raise ValueError(f"no mark {name!r}")
    return img.reduce(SS)


@lru_cache(maxsize=512)
def segment(dx: int, dy: int, width: int) -> tuple[Image.Image, int, int]:
    """An anti-aliased stroke from (0, 0) to (dx, dy) pixels with round ends; returns the
    sprite and the offset of (0, 0) within it."""
    pad = width
    x0, y0 = min(0, dx) - pad, min(0, dy) - pad
    wpx, hpx = abs(dx) + 2 * pad, abs(dy) + 2 * pad
    img = Image.new("RGBA", (wpx * SS, hpx * SS), (0, 0, 0, 0))
    dr = ImageDraw.Draw(img)
    a = ((-x0) * SS, (-y0) * SS)
    b = ((dx - x0) * SS, (dy - y0) * SS)
    colour = (*LAST_MOVE_PATH, 215)
    dr.line((a, b), fill=colour, width=width * SS)
    r = width * SS / 2
    for p in (a, b):
        dr.ellipse((p[0] - r, p[1] - r, p[0] + r, p[1] + r), fill=colour)
    return img.reduce(SS), -x0, -y0
