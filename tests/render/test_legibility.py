"""The pictures as a demanding player sees them in Discord: colours told apart by
colour-blind eyes, text dark enough to read, the important words never cut.

Colour blindness is simulated with Machado, Oliveira and Fernandes' matrices (2009,
severity 1.0) on linear RGB; colours are compared in CIELAB (CIE76 ΔE)."""

from __future__ import annotations

import io
import itertools
import math

import pytest
from PIL import Image

import render
import rules
from locales.i18n import _
from render import draw, graph, sprites, style, table
from render.board import EDGE, MARGIN, coordinate_px, layout
from render.draw import status_line
from render.replay import BETTER_ARROW, PLAYED_ARROW, frame_time

Colour = tuple[int, int, int]

_SIMULATIONS: dict[str, tuple[tuple[float, float, float], ...]] = {
    "normal": ((1, 0, 0), (0, 1, 0), (0, 0, 1)),
    "protanopia": ((0.152286, 1.052583, -0.204868), (0.114503, 0.786281, 0.099216),
                   (-0.003882, -0.048116, 1.051998)),
    "deuteranopia": ((0.367322, 0.860646, -0.227968), (0.280085, 0.672501, 0.047413),
                     (-0.011820, 0.042940, 0.968881)),
    "tritanopia": ((1.255528, -0.076749, -0.178779), (-0.078411, 0.930809, 0.147602),
                   (0.004733, 0.691367, 0.303900)),
}


def _linear(c: float) -> float:
    c /= 255
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


def _encoded(c: float) -> float:
    c = min(1.0, max(0.0, c))
    return 255 * (c * 12.92 if c <= 0.0031308 else 1.055 * c ** (1 / 2.4) - 0.055)


def seen(colour: Colour, vision: str) -> tuple[float, float, float]:
    """``colour`` as seen with ``vision`` (sRGB, 0..255)."""
    lin = [_linear(v) for v in colour]
    m = _SIMULATIONS[vision]
    r, g, b = (_encoded(sum(m[i][j] * lin[j] for j in range(3))) for i in range(3))
    return r, g, b


def lab(colour: tuple[float, float, float]) -> tuple[float, float, float]:
    r, g, b = (_linear(v) for v in colour)
    x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883

    def f(t: float) -> float:
        return t ** (1 / 3) if t > 0.008856 else 7.787 * t + 16 / 116
    return 116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))


def delta_e(a: Colour, b: Colour, vision: str) -> float:
    la, lb = lab(seen(a, vision)), lab(seen(b, vision))
    return math.dist(la, lb)


def contrast(a: Colour, b: Colour) -> float:
    """WCAG 2 contrast ratio of two colours (1..21)."""
    def luminance(c: Colour) -> float:
        r, g, b = (_linear(v) for v in c)
        return 0.2126 * r + 0.7152 * g + 0.0722 * b
    dark, light = sorted((luminance(a), luminance(b)))
    return (light + 0.05) / (dark + 0.05)


def _seat_sets() -> list[tuple[str, tuple[str, ...]]]:
    found = []
    for key, v in rules.VARIANTS.items():
        for options in [*v.example_options, *v.option_sets()]:
            n = v.start(**options).seat_count
            looks = tuple(style.look_name(v.seat_name(s, n), s) for s in range(n))
            if (key, looks) not in found:
                found.append((key, looks))
    return found


@pytest.mark.parametrize("vision", list(_SIMULATIONS))
def test_every_pair_of_seat_colours_in_a_game_stays_apart_for_colour_blind_eyes(
        vision: str) -> None:
    # The four-player Alquerque grande seats (white, turquoise, black, red) were 25 apart
    # under protanopia (turquoise read as a light grey beside white) and red read as a
    # dark olive beside black; 40 tells stones apart at a glance on a phone.
    for key, looks in _seat_sets():
        for a, b in itertools.combinations(looks, 2):
            gap = delta_e(style.SEAT_LOOKS[a].body, style.SEAT_LOOKS[b].body, vision)
            assert gap >= 40, (key, a, b, vision, round(gap))


def _body_colour(sprite: Image.Image, d: int) -> Colour:
    """The colour of a piece's disc of diameter ``d`` (between its character and its
    rim, bottom right: away from the lit top left)."""
    c = sprite.width / 2 + 0.24 * d
    r, g, b = sprite.convert("RGB").resize((1, 1), box=(round(c), round(c), round(c) + 1,
                                                        round(c) + 1)).tobytes()
    return r, g, b


@pytest.mark.parametrize("vision", list(_SIMULATIONS))
def test_xiangqi_red_and_black_pieces_differ_by_more_than_the_characters_hue(
        vision: str) -> None:
    # On ivory discs for both sides, only the characters' ink told the sides apart: a
    # protanope reads red ink as dark as black (both discs ivory, ΔE 0).
    d = 56
    for kind in ("K", "R", "P"):
        red = _body_colour(sprites.piece("characters", "red", kind, d), d)
        black = _body_colour(sprites.piece("characters", "black", kind, d), d)
        assert delta_e(red, black, vision) >= 40, (kind, vision, red, black)
    for side, ink in style.XIANGQI_INK.items():  # and each side's characters stay legible
        assert contrast(ink, style.XIANGQI_DISCS[side].body) >= 4.5, side


@pytest.mark.parametrize("vision", list(_SIMULATIONS))
def test_the_analysis_arrows_stand_apart_from_each_other_and_from_every_board(
        vision: str) -> None:
    # The better move was a green arrow beside the orange one of the move played: ΔE 19
    # apart under protanopia, and 23 from the Xiangqi board's wood.
    assert delta_e(PLAYED_ARROW, BETTER_ARROW, vision) >= 40
    for family, look in style.FAMILY_LOOKS.items():
        for arrow in (PLAYED_ARROW, BETTER_ARROW):
            for ground in {look.plate, look.dark} - {(0, 0, 0)}:
                assert delta_e(arrow, ground, vision) >= 30, (family, arrow, ground)


def test_a_long_four_player_status_line_leaves_out_the_end_rule_not_half_the_move() -> None:
    # Before, the line was cut at the picture's edge whatever it held: "Black to move ·
    # each for themselves, slow end · last: f4-e4 (huff d3) · dead…", or "last: b6-c…".
    v = rules.variant("alquerque-grande")
    lay = layout(v.key, tuple(v.board_size), 4, 0, 700)
    u = lay.header / 5.1
    width = lay.width - 2 * round(u * 0.3)
    mode, move, due = ("each for themselves, slow end", "last: f4-e4xc4xe2 (huff d3)",
                       "due Friday 18:00 UTC")
    text, px = status_line([(0, "Black to move"), (3, mode), (1, move), (2, due)], width, u)
    assert move in text and "…" not in text and mode not in text
    assert style.font("regular", px).getlength(text) <= width
    short, _px = status_line([(0, "White to move"), (3, "fast end"), (1, "last: d3-d4")],
                             width, u)
    assert short == "White to move  ·  fast end  ·  last: d3-d4"  # nothing left out needlessly
    cut, _px = status_line([(0, "Red wins: " + "a very long reason " * 8), (1, move)],
                           width, u)
    assert cut.endswith("…") and move not in cut  # only what has rank 0 is ever cut


def test_a_name_in_letters_the_fonts_lack_is_drawn_as_the_standings_draw_it() -> None:
    # The board header drew a name's missing glyphs as nothing ("राम" as "", "Zoë ŷ" as
    # "Zoë "); the standings and the glance grid already drew "???" and "Zoë y". (Chinese
    # names have their glyphs now: tests/render/test_names.py)
    p = rules.variant("damas").start()
    odd = render.draw_board(p, names=["Zoë ŷ 🎲", "李小龍 राम"], perspective=0)
    plain = render.draw_board(p, names=["Zoë y ?", "李小龍 ???"], perspective=0)
    assert odd.png == plain.png
    assert "White (Zoë ŷ 🎲) to move" in odd.alt_text  # read out as it is
    # words drawn in English for want of a glyph keep no glyph the fonts lack either
    said = style.drawn_words(_("{seat} ({player})", seat="Red", player="李小龍 🎲"), "en")
    assert style.covers(said) and said == "Red (李小龍 ?)"


def test_a_wide_board_header_is_as_legible_at_a_phone_width_as_a_square_board() -> None:
    # A phone shows a picture as wide as its screen: Querni's header (10 x 7 cells) was
    # 0.133 of its width, its words a fifth smaller there than on the other boards.
    for key, v in rules.VARIANTS.items():
        for options in [*v.example_options, *v.option_sets()]:
            n = v.start(**options).seat_count
            lay = layout(key, tuple(v.board_size), n, 0, 700)
            assert lay.header >= 0.15 * lay.width, (key, n, lay.header, lay.width)
            assert max(lay.width, lay.height) <= 700
    querni = layout("querni", (10, 7), 2, 0, 700)
    assert querni.step == int(700 / (10 + MARGIN + EDGE))  # the board itself no smaller


def _ring(img: Image.Image, centre: tuple[int, int], r0: float, r1: float) -> list[Colour]:
    """The pixels between ``r0`` and ``r1`` pixels from ``centre``."""
    x, y = centre
    found = []
    for dx in range(-round(r1), round(r1) + 1):
        for dy in range(-round(r1), round(r1) + 1):
            if r0 <= math.hypot(dx, dy) <= r1:
                r, g, b = img.getpixel((x + dx, y + dy))  # type: ignore[misc]
                found.append((r, g, b))
    return found


def test_a_general_in_check_is_ringed_as_plainly_as_the_last_move() -> None:
    # The check was a soft red glow peeking a few pixels out of the disc, fading into
    # the wood: at a phone's size fainter than the last move's yellow ring.
    v = rules.variant("xiangqi")
    plate = style.spec_for("xiangqi").plate
    for text, checked in (("4k4/9/9/9/9/9/9/9/4R4/3K5 b - - 0 1", True),
                          ("4k4/9/9/9/9/9/9/9/3R5/3K5 b - - 0 1", False)):
        board = render.draw_board(v.from_text(text), perspective=0)
        img = Image.open(io.BytesIO(board.png)).convert("RGB")
        s = board.layout.step
        ring = _ring(img, board.point_centre((4, 9)), 0.47 * s, 0.53 * s)
        plain = [c for c in ring if contrast(c, plate) >= 3 and c[0] > c[1] + 100]
        assert (len(plain) >= 0.8 * len(ring)) is checked, (len(plain), len(ring))


def test_secondary_text_reads_at_4_5_to_1_on_every_ground_it_is_drawn_on() -> None:
    # INK_SOFT draws the coordinates, the seat panels' second lines, a seat that is out,
    # the standings' subtitle and the graph's labels: on an out seat's panel it was 4.2:1.
    grounds = {"paper": style.PAPER, **{f"{state} panel": fill
                                        for state, (fill, _e, _w) in draw.CHIPS.items()},
               "graph band": graph._mix(style.INK_SOFT, style.PAPER, 0.12)}
    for name, ground in grounds.items():
        assert contrast(style.INK_SOFT, ground) >= 4.5, name


def test_an_empty_draughts_square_shows_its_number_at_3_to_1() -> None:
    # The PDN numbers (the moves are written with them: "h7xf5 (25x18)") were drawn at
    # 1.6:1 against their square, hard to make out even at full size.
    v = rules.variant("damas")
    board = render.draw_board(v.start(), perspective=0)
    img = Image.open(io.BytesIO(board.png)).convert("RGB")
    plate = style.spec_for("damas").plate
    x0, y0, x1, y1 = board.layout.cell_box((4, 3))  # square 14: empty at the start
    corner = img.crop((x0, y0, (x0 + x1) // 2, (y0 + y1) // 2))
    raw = corner.tobytes()
    colours = {(raw[i], raw[i + 1], raw[i + 2]) for i in range(0, len(raw), 3)}
    assert plate in colours
    assert max(contrast(c, plate) for c in colours) >= 3


def test_a_long_game_replays_in_about_a_minute_and_a_half_a_short_one_as_before() -> None:
    # Every move stayed 900 ms: a 190-move four-player game played for nearly 3 minutes.
    assert frame_time(190) * 190 <= 90_000 and frame_time(190) >= 450
    assert frame_time(100) == 900  # up to 100 moves: as before
    assert frame_time(1000) == 450  # never a flicker
    v = rules.variant("alquerque")
    gif = Image.open(io.BytesIO(render.replay_gif(v, v.start(), ["b2-c3", "d4xb2"],
                                                  size=200)))
    durations = []
    for frame in range(gif.n_frames):
        gif.seek(frame)
        durations.append(gif.info["duration"])
    assert durations[:2] == [900, 900] and durations[-1] >= 4000


def test_the_coordinates_are_as_large_against_the_width_on_every_board() -> None:
    # Querni's wide board of small steps drew its letters at 2.5% of the picture's width
    # (7 px on a phone), the other boards at 2.7% or more.
    for key, v in rules.VARIANTS.items():
        for options in [*v.example_options, *v.option_sets()]:
            n = v.start(**options).seat_count
            lay = layout(key, tuple(v.board_size), n, 0, 700)
            px = coordinate_px(lay)
            assert px >= 0.0265 * lay.width, (key, n, px, lay.width)
            assert px <= lay.margin * 0.6  # still inside the band beside the board


def test_a_withdrawn_player_in_the_standings_is_greyed_yet_readable() -> None:
    # The greyed rows read at 2.5:1 on the paper: a withdrawn player's name and points
    # faded nearly out on a phone.
    for ground in (style.PAPER, table.STRIPE):
        assert contrast(table.FADED, ground) >= 3
    assert contrast(table.FADED, style.INK) >= 3  # and still plainly greyed
