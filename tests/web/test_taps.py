"""Tapping the board picture: each legal move's taps, and the spots where the renderer
really drew those points (from every seat, the 4-player board turned a quarter)."""

from __future__ import annotations

import json

import pytest

import rules
from bot.web.taps import board_taps
from render import draw_board
from rules.notation import point_name

GAMES = [("alquerque", {}), ("alquerque-grande", {}),
         ("alquerque-grande", {"players": 4, "mode": "teams"}), ("xiangqi", {}),
         ("damas", {}), ("querni", {})]


def choices_of(p: rules.Position) -> list[tuple[str, str]]:
    v = p.variant
    return [(v.format_move(p, m), v.display_move(p, m)) for m in p.legal_moves()]


@pytest.mark.parametrize(("key", "options"), GAMES, ids=[
    "alquerque", "grande", "grande-4", "xiangqi", "damas", "querni"])
def test_every_spot_is_where_the_renderer_drew_its_point(
        key: str, options: dict[str, object]) -> None:
    v = rules.variant(key)
    p = v.start(**options)
    for seat in range(p.seat_count):
        taps = board_taps(p, choices_of(p), seat)
        assert taps is not None
        drawn = draw_board(p, perspective=seat)
        points = {point_name(*q): q for q in {q for m in p.legal_moves()
                                               for q in v.move_marks(p, m).path}}
        assert set(points) <= set(taps.spots)
        for name, (left, top) in taps.spots.items():
            if name in points:
                x, y = drawn.point_centre(points[name])
                assert abs(left - 100 * x / drawn.width) < 0.01
                assert abs(top - 100 * y / drawn.height) < 0.01
        assert abs(taps.size - 100 * drawn.layout.step / drawn.width) < 0.01


def test_a_move_is_tapped_by_its_start_and_end_and_a_removal_by_its_ends() -> None:
    v = rules.variant("querni")
    p = v.start()
    taps = board_taps(p, choices_of(p), 0)
    assert taps is not None
    by_move = {m[0]: m[2] for m in taps.moves}
    assert by_move["a1-b2"] == ("a1", "b2")
    removal = next(m for m in by_move if m.startswith("r"))
    marks = v.move_marks(p, v.parse_move(p, removal))
    assert by_move[removal] == (point_name(*marks.removed[0]), point_name(*marks.removed[-1]))
    combined = next(m for m in by_move if " r" in m)
    assert len(by_move[combined]) == 4
    data = taps.attributes()
    assert [m[0] for m in json.loads(data["data-taps"])] == [m[0] for m in taps.moves]


def test_only_the_services_moves_are_offered_and_a_pass_is_not_on_the_board() -> None:
    v = rules.variant("damas")
    p = v.start()
    one = choices_of(p)[:1]
    taps = board_taps(p, one, 0)
    assert taps is not None and [m[0] for m in taps.moves] == [one[0][0]]
    assert board_taps(p, [("pass", "pass")], 0) is None


def test_a_huff_is_the_rules_not_a_tap() -> None:
    """Alquerque grande's huff (a step while a capture was there: the rules take the
    stone off) is tapped as the step alone, start and end; the page asked for a third tap
    on the huffed stone and said 'to take a chain off, tap its first and last stone'
    (Querni's words) above a grande board."""
    v = rules.variant("alquerque-grande")
    p = v.start(players=4, mode="teams")
    for move in ("c3-d4", "e3xc3", "e5xe3", "c4xe4", "b2xd4"):
        p = p.play(v.parse_move(p, move))
    taps = board_taps(p, choices_of(p), 1)
    assert taps is not None
    assert {m[1]: m[2] for m in taps.moves} == {
        "f3xd3": ("f3", "d3"), "f4-e5 (huff f3)": ("f4", "e5"),
        "f5-e5 (huff f3)": ("f5", "e5")}
    assert not taps.removals  # nothing is said of chains
