"""Followed games at a glance (issue 42): one picture of 1, 4 and 9 boards, three a row,
each with its match and whose move it is under it, the reader's own moves marked; at
most nine; within the budget (at most 80 KB, 800 px wide)."""

from __future__ import annotations

import dataclasses
import io

import pytest
from PIL import Image

import rules
from render import GridTile, board_grid
from render.gallery import playout
from render.style import TURN_BG

GAMES = ("xiangqi", "damas", "alquerque", "querni", "xiangqi", "alquerque-grande", "damas",
         "xiangqi", "querni", "damas")


def tiles(count: int) -> list[GridTile]:
    out = []
    for i, key in enumerate(GAMES[:count]):
        v = rules.variant(key)
        start = v.start(**({"players": 4} if key == "alquerque-grande" else {}))
        before, move, after = list(playout(v, start, i, 12))[-1]
        out.append(GridTile(after, v.move_marks(before, move), 0,
                            ["ann", "ben", "cid", "dan"][:after.seat_count],
                            title=f"#{i + 1} {v.name}",
                            status="your move, 2 days left" if i % 3 == 0
                            else "ben to move, 5 hours left", mine=i % 3 == 0))
    return out


@pytest.mark.parametrize(("count", "rows", "columns"), [(1, 1, 1), (4, 2, 3), (9, 3, 3)])
def test_a_grid_of_one_four_and_nine_boards(count: int, rows: int, columns: int) -> None:
    g = board_grid(tiles(count), title="Your games at a glance")
    img = Image.open(io.BytesIO(g.png)).convert("RGB")
    assert img.size == (g.width, g.height) and g.width <= 800
    assert len(g.png) <= 80 * 1024
    # the reader's own moves are marked: a yellow band under each of them (a board
    # of 250 px with two lines under it: about 250 x 45 pixels each)
    marked = sum(1 for i in range(count) if i % 3 == 0)
    plain = board_grid([dataclasses.replace(t, mine=False) for t in tiles(count)],
                       title="Your games at a glance")
    extra = _yellow(img) - _yellow(Image.open(io.BytesIO(plain.png)).convert("RGB"))
    assert marked * 6000 <= extra <= marked * 14000, (extra, marked)
    assert g.alt_text.startswith("Your games at a glance: #1 Xiangqi, your move, 2 days left")
    assert g.alt_text.count("; ") == count - 1
    if count > 1:
        assert "#2 Spanish draughts, ben to move, 5 hours left" in g.alt_text
    # three a row: one board is one board wide, four and nine are three wide; a row of
    # boards (about 300 px with the lines under them, under the title) per three
    assert (g.width > 700) == (columns == 3) and g.width < 330 * columns
    assert 290 * rows < g.height < 40 + 340 * rows


def _yellow(img: Image.Image) -> int:
    """Pixels of the marked band's colour (as near as the palette keeps it)."""
    return sum(n for n, c in img.getcolors(1 << 20) or []
               if sum(abs(a - b) for a, b in zip(c, TURN_BG, strict=True)) <= 12)


def test_at_most_nine_boards_and_never_none() -> None:
    ten = board_grid(tiles(10))
    nine = board_grid(tiles(9))
    assert ten.png == nine.png and ten.alt_text.count("; ") == 8
    with pytest.raises(ValueError):
        board_grid([])
