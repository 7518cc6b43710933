"""The analysis as a picture (issue 42): the evaluation graph of a decisive game, a drawn
game and a four-seat game; the scale capped with forced ends in a labelled band; the
costly moves ringed; the sheet of costly moves with the move played and the better move
as arrows. Within the budget: 800 × 460 px, at most 80 KB."""

from __future__ import annotations

import io

from PIL import Image

import rules
from render import evaluation_graph, flagged_sheet
from render.graph import BAND, CAP, HEIGHT, WIDTH
from render.replay import BETTER_ARROW, PLAYED_ARROW
from render.style import CAPTURE_MARK, INK

XIANGQI = rules.variant("xiangqi")
GRANDE = rules.variant("alquerque-grande")
MAX_BYTES = 80 * 1024


def picture(png: bytes) -> Image.Image:
    img = Image.open(io.BytesIO(png)).convert("RGB")
    assert img.size == (WIDTH, HEIGHT)
    assert len(png) <= MAX_BYTES
    return img


def rows_of(img: Image.Image, x: int, colour: tuple[int, int, int], near: int = 40
            ) -> list[int]:
    """The rows of column ``x`` whose pixel is within ``near`` of ``colour``."""
    return [y for y in range(img.height)
            if sum(abs(a - b) for a, b in zip(img.getpixel((x, y)), colour, strict=True))
            <= near]


# the graph's frame (render.graph): left 62, right WIDTH - 18, top 74 (104 with four
# seats), bottom HEIGHT - 52, CAP + BAND pawns either side of the middle
def y_of(value: float, top: int = 74) -> float:
    bottom, span = HEIGHT - 52, CAP + BAND
    return top + (bottom - top) * (span - value) / (2 * span)


def test_a_decisive_game_swings_into_the_band_of_forced_ends() -> None:
    points = [(0, 0, 20, None), (1, 1, -10, None), (2, 0, 60, None), (3, 1, -80, None),
              (4, 0, None, 2), (5, 1, None, -1)]  # move 5 finds a forced win for Red
    g = evaluation_graph(XIANGQI, 2, points, marked={3: "4"}, names=["alice", "bob"],
                         title="Xiangqi, match 3")
    img = picture(g.png)
    x_last = round(62 + (WIDTH - 18 - 62) * 6 / 6) - 2  # just left of the last point
    band = [y for y in rows_of(img, x_last, INK, 90) if y < y_of(CAP)]
    assert band, "the line climbs into the band above the cap"
    assert all(y >= y_of(CAP + BAND) - 2 for y in band)
    assert "Largest swing: move 5, from +0.8 to a forced win for Red (alice)." in g.alt_text
    assert g.alt_text.startswith("Xiangqi, match 3: the engine's evaluation after each of "
                                 "6 moves, in soldiers, above the middle line Red (alice) "
                                 "better, below it Black (bob).")
    assert g.alt_text.endswith("Marked: move 4.")
    x_mark = round(62 + (WIDTH - 18 - 62) * 4 / 6)
    assert rows_of(img, x_mark, CAPTURE_MARK, 60), "move 4 is ringed"


def test_a_drawn_game_stays_near_the_middle_and_is_capped() -> None:
    points = [(i, i % 2, (-1) ** i * 15, None) for i in range(40)]
    points[20] = (20, 0, 5000, None)  # fifty pawns: drawn at the cap, not off the scale
    g = evaluation_graph(XIANGQI, 2, points, title="Xiangqi, match 4", locale="en-US")
    img = picture(g.png)
    x_spike = round(62 + (WIDTH - 18 - 62) * 21 / 40)
    line = rows_of(img, x_spike, INK, 90)
    assert line and min(line) >= y_of(CAP) - 4  # capped at +10
    quiet = round(62 + (WIDTH - 18 - 62) * 8 / 40)
    inked = [y for y in rows_of(img, quiet, INK, 90) if y_of(2) < y < y_of(-2)]
    assert inked and abs(sum(inked) / len(inked) - y_of(0)) < 8  # near the middle line
    assert "Largest swing: move 21, from +0.1 to +10.0." in g.alt_text
    assert "Marked" not in g.alt_text


def test_a_four_seat_game_has_a_line_per_seat() -> None:
    points = [(i, i % 4, 40 * (i % 5) - 80, None) for i in range(24)]
    g = evaluation_graph(GRANDE, 4, points, marked={9: "10"},
                         names=["ann", "ben", "cid", "dan"], title="Alquerque grande, match 5")
    img = picture(g.png)
    colours = {c for _n, c in img.getcolors(1 << 16) or []}

    def present(target: tuple[int, int, int]) -> bool:
        return any(sum(abs(a - b) for a, b in zip(c, target, strict=True)) < 30
                   for c in colours)
    looks = [rules.variant("alquerque-grande").seat_name(s, 4) for s in range(4)]
    from render.graph import line_colour
    for seat in range(4):
        assert present(line_colour(GRANDE, seat, 4)), looks[seat]
    assert "each player's own view" in g.alt_text and "Marked: move 10." in g.alt_text
    assert "Largest swing" not in g.alt_text


def test_the_graph_speaks_the_readers_language() -> None:
    points = [(0, 0, 20, None), (1, 1, None, 1)]
    g = evaluation_graph(XIANGQI, 2, points, names=["alice", "bob"], locale="de")
    assert g.alt_text.startswith("Die Bewertung der Engine nach jedem von 2 Zügen")
    assert "von +0,2 zu einem erzwungenen Sieg für Schwarz (bob)." in g.alt_text


def test_costly_moves_are_drawn_with_the_played_and_the_better_move_as_arrows() -> None:
    p = XIANGQI.start()
    moves = [XIANGQI.parse_move(p, "h3-e3")]
    p1 = p.play(moves[0])
    moves.append(XIANGQI.parse_move(p1, "h8-e8"))
    better = {2: XIANGQI.parse_move(p1, "b8-e8")}
    sheet = flagged_sheet(XIANGQI, p, moves, {2: "move 2, bob: h8-e8; better b8-e8"},
                          better=better)
    img = Image.open(io.BytesIO(sheet.png)).convert("RGB")
    colours = {c for _n, c in img.getcolors(1 << 20) or []}
    assert PLAYED_ARROW in colours and BETTER_ARROW in colours
    plain = flagged_sheet(XIANGQI, p, moves, {2: "move 2, bob: h8-e8; better b8-e8"})
    plain_img = Image.open(io.BytesIO(plain.png)).convert("RGB")
    assert PLAYED_ARROW not in {c for _n, c in plain_img.getcolors(1 << 20) or []}
    assert img.height > plain_img.height  # the legend saying which arrow is which
    assert sheet.alt_text == plain.alt_text == "move 2, bob: h8-e8; better b8-e8"
