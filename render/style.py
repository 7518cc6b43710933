"""Colours, fonts and per-game board descriptions: the data the renderers are driven by.

Everything a board family needs to know about one game lives in a :class:`BoardSpec`
(:func:`spec_for`: the facts the game declares, ``Variant.board_facts``, in its family's
colours); seat colours come from the game's own
``seat_name`` (``'Red'``, ``'Turquoise'`` ...) through :data:`SEAT_LOOKS`, so a new colour
name only needs a new entry there.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass, field
from functools import cache, lru_cache
from importlib import resources
from io import BytesIO
from pathlib import Path

from PIL import ImageFont

import rules
from locales.i18n import DEFAULT_LOCALE, Words, render

RGB = tuple[int, int, int]

# --------------------------------------------------------------------------- fonts


@cache
def _font_bytes(name: str) -> bytes:
    return resources.files("render").joinpath("fonts", name).read_bytes()


@cache
def coverage() -> frozenset[str]:
    """Every character the bundled Sans fonts draw (``fonts/coverage.txt``, written by
    ``scripts/make_font_subset.sh`` with the subsets; a test checks it against them)."""
    text = resources.files("render").joinpath("fonts", "coverage.txt").read_text("utf-8")
    return frozenset(text.replace("\n", ""))


def covers(text: str) -> bool:
    """Whether the bundled fonts have a glyph for every character of ``text``."""
    have = coverage()
    return all(ch in have or ch.isspace() for ch in text)


def drawn_words(words: Words, locale: str) -> str:
    """``words`` in ``locale`` as drawn into an image; in English when the bundled fonts
    lack a glyph they need (never a row of empty boxes), and what English still lacks (a
    player's name in letters the fonts do not have) as :func:`drawable` draws it."""
    said = render(words, locale)
    return said if covers(said) else drawable(render(words, DEFAULT_LOCALE))


def drawable(text: str) -> str:
    """``text`` in the glyphs the bundled fonts have (``style.coverage``): a character
    they lack loses its accents (``ŷ`` -> ``y``), anything else without a glyph is shown
    as ``?``, control characters are removed.

    >>> drawable("Zoë ŷ 🎲\\n李小龍 राम")
    'Zoë y ? 李小龍 ???'
    """
    have = coverage()
    out = []
    for ch in text:
        if ch in "\t\n\r":
            out.append(" ")
        elif ch in have:
            out.append(ch)
        elif unicodedata.category(ch).startswith("C"):
            continue
        else:
            bare = "".join(c for c in unicodedata.normalize("NFKD", ch)
                           if not unicodedata.combining(c))
            out.append(bare if bare and all(c in have for c in bare) else "?")
    return "".join(out)


@cache
def _font_file(name: str) -> str | None:
    """The bundled font file's path when the package lies in a directory (not a zip)."""
    found = resources.files("render").joinpath("fonts", name)
    return str(found) if isinstance(found, Path) and found.is_file() else None


@lru_cache(maxsize=256)
def font(kind: str, px: int) -> ImageFont.FreeTypeFont:
    """A bundled font at ``px`` pixels: ``'han'`` (Xiangqi characters and the river
    label), ``'bold'`` or ``'regular'`` (text and numbers, players' names included).

    Opened from its file when there is one: FreeType maps it, so the faces of every size
    share one copy of the 2.5 MB Sans files in memory; from bytes, Pillow copies the
    whole file into each face (2.5 MB per size, 15 times the time to open)."""
    name = {"han": "TableroHan-Bold.otf", "bold": "TableroSans-Bold.otf",
            "regular": "TableroSans-Regular.otf"}[kind]
    return ImageFont.truetype(_font_file(name) or BytesIO(_font_bytes(name)), max(6, px))


# --------------------------------------------------------------------------- colours

PAPER: RGB = (244, 236, 220)        # page and header background
INK: RGB = (52, 40, 30)             # text and board lines
INK_SOFT: RGB = (108, 92, 76)       # secondary text, coordinates: 4.5:1 on every panel
FRAME: RGB = (133, 94, 58)          # the wooden rim around a board
LAST_MOVE: RGB = (222, 178, 40)     # last-move highlight (warm yellow)
LAST_MOVE_PATH: RGB = (214, 150, 20)
CAPTURE_MARK: RGB = (200, 40, 36)   # the cross on a captured point
ARROW: RGB = (38, 104, 196)         # the explorer's arrows (the moves most played)
REMOVED_MARK: RGB = (60, 96, 170)   # a Querni removal / a huff
CHECK_GLOW: RGB = (230, 30, 30)
CHECK_RING: RGB = (190, 20, 24)     # the ring round a general in check, over the glow
TURN_BG: RGB = (255, 247, 214)      # header chip of the seat to move
TURN_EDGE: RGB = (214, 150, 20)


@dataclass(frozen=True, slots=True)
class SeatLook:
    """How a seat's pieces look: body colour, rim colour, text/emblem colour."""

    body: RGB
    rim: RGB
    ink: RGB
    highlight: RGB  # the lighter top of the disc


SEAT_LOOKS: dict[str, SeatLook] = {
    "white": SeatLook((240, 234, 220), (150, 138, 120), (70, 60, 50), (255, 253, 248)),
    "black": SeatLook((46, 42, 40), (14, 12, 12), (236, 228, 210), (92, 86, 82)),
    # turquoise and red chosen so every pair of a four-player game's seats stays apart
    # for colour-blind eyes (protan-, deuter-, tritanopia): tests/render/test_legibility
    "turquoise": SeatLook((30, 146, 166), (10, 84, 98), (255, 255, 255), (112, 200, 214)),
    "red": SeatLook((220, 70, 40), (128, 30, 14), (255, 255, 255), (246, 136, 108)),
    "blue": SeatLook((44, 98, 196), (20, 48, 116), (255, 255, 255), (116, 160, 236)),
    "pink": SeatLook((246, 160, 196), (186, 74, 124), (90, 18, 52), (255, 212, 230)),
}
FALLBACK_LOOKS = ("white", "black", "red", "blue")

# Xiangqi: Red's characters are red on ivory discs, Black's ivory on black lacquer. On
# discs of one colour the two sides differed by the characters' hue alone, which a
# protanope reads as two dark inks; light against dark tells them apart for every eye.
XIANGQI_INK: dict[str, RGB] = {"red": (196, 30, 28), "black": (240, 226, 196)}
XIANGQI_DISC = SeatLook((246, 228, 190), (150, 108, 62), (28, 28, 30), (255, 246, 222))
XIANGQI_DISCS: dict[str, SeatLook] = {
    "red": XIANGQI_DISC,
    "black": SeatLook((44, 40, 38), (150, 108, 62), (240, 226, 196), (86, 78, 72)),
}
XIANGQI_CHARS: dict[str, dict[str, str]] = {
    "red": {"K": "帥", "A": "仕", "B": "相", "N": "傌", "R": "俥", "C": "炮", "P": "兵"},
    "black": {"K": "將", "A": "士", "B": "象", "N": "馬", "R": "車", "C": "砲", "P": "卒"},
}


def look_name(seat_name: str, seat: int) -> str:
    """The SEAT_LOOKS key for a seat named ``seat_name`` ('Red' -> 'red')."""
    key = seat_name.strip().lower()
    return key if key in SEAT_LOOKS else FALLBACK_LOOKS[seat % len(FALLBACK_LOOKS)]


# --------------------------------------------------------------------------- board specs


@dataclass(frozen=True, slots=True)
class BoardSpec:
    """What a board family needs to draw one game's board.

    ``family``: ``'lines'`` (points joined by lines, pieces on intersections),
    ``'river'`` (points, river, palaces), ``'squares'`` (checkered squares) or
    ``'cells'`` (a grid of cells with marked cells).
    """

    family: str
    piece: str                      # sprite style: 'stone', 'characters', 'draughts', 'numbered'
    piece_scale: float              # piece diameter as a fraction of the point spacing
    plate: RGB                      # board surface colour
    line: RGB = INK
    dark: RGB = (0, 0, 0)           # squares: the non-playing squares
    marked: tuple[tuple[int, int], ...] = ()          # cells: marked cells
    areas: tuple[tuple[int, tuple[tuple[int, int], ...]], ...] = ()  # (seat, cells) tints
    area_tints: tuple[RGB, ...] = ((208, 220, 240), (246, 216, 226))
    square_numbers: bool = False    # squares: PDN numbers in the playing squares
    diagonals: bool = False         # lines: diagonals through points with x + y even
    kinds: tuple[str, ...] = ("stone",)  # piece kinds (to build the colour palette)
    kind_names: dict[str, str] = field(default_factory=dict)  # alt text: kind -> word


@dataclass(frozen=True, slots=True)
class FamilyLook:
    """The colours of one board family (:attr:`rules.BoardFacts.family`)."""

    plate: RGB                      # board surface colour
    line: RGB = INK
    dark: RGB = (0, 0, 0)           # squares: the non-playing squares


FAMILY_LOOKS: dict[str, FamilyLook] = {
    "lines": FamilyLook(plate=(226, 196, 150)),
    "river": FamilyLook(plate=(232, 196, 136), line=(92, 52, 28)),
    "squares": FamilyLook(plate=(238, 218, 180), dark=(150, 104, 70)),
    "cells": FamilyLook(plate=(236, 226, 204), line=(176, 160, 136)),
}
"""Each board family's colours: what the game declares (:class:`rules.BoardFacts`) is
drawn in these."""


@cache
def spec_for(key: str) -> BoardSpec:
    """The board description of variant ``key``: the facts the game declares
    (``Variant.board_facts``) in its family's colours (:data:`FAMILY_LOOKS`).

    >>> spec_for("querni").marked
    ((1, 1), (8, 1), (1, 5), (8, 5))
    """
    facts = rules.variant(key).board_facts
    look = FAMILY_LOOKS[facts.family]
    return BoardSpec(facts.family, facts.pieces, facts.piece_scale, plate=look.plate,
                     line=look.line, dark=look.dark, marked=facts.marked, areas=facts.areas,
                     square_numbers=facts.square_numbers, diagonals=facts.diagonals,
                     kinds=facts.kinds, kind_names=dict(facts.kind_names))
