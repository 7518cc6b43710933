"""Querni (RULES §5): scenario tests for every rule, the setup phase, notation and text.

Positions are built with ``make(blue={...}, pink={...})`` (cell name -> stone number).
Slow reference implementations at the bottom cross-check the fast move generator.
"""

from __future__ import annotations

import random
from itertools import pairwise

import pytest

import rules
from rules import IllegalMoveError, NotationError, OptionError, PositionError
from rules.notation import point_name
from rules.querni import (
    MARKED_CELLS,
    START_CELLS,
    Arrangement,
    QuerniPosition,
    QuerniSetupPosition,
    Turn,
    deal,
    splitmix64,
)
from tests.rules.helpers.querni import make, play, pt, v

assert rules.variant("querni") is v
IDENTITY = tuple(range(1, 17))


# Pink keeps a far-away chain so that "no-chains" does not end test positions early.
PINK_CHAIN = {"h7": 1, "i7": 2, "j7": 3}


def moves(p: rules.Position) -> set[str]:
    return {v.format_move(p, m) for m in p.legal_moves()}


def illegal(p: rules.Position, text: str, match: str) -> None:
    with pytest.raises(IllegalMoveError, match=match):
        v.parse_move(p, text)


# --------------------------------------------------------------------------- board and start


def test_variant_identity() -> None:
    assert v.key == "querni" and v.name == "Querni" and v.board_size == (10, 7)
    assert (v.seat_name(0), v.seat_name(1)) == ("Blue", "Pink")
    assert rules.variant("querni") is v


def test_start_cells_surround_the_marked_corners() -> None:
    marked = {pt(n) for n in ("b2", "i2", "b6", "i6")}
    assert set(MARKED_CELLS) == marked
    for seat, corners in ((0, ("b2", "i2")), (1, ("b6", "i6"))):
        ring = set()
        for c in corners:
            x, y = pt(c)
            ring |= {(x + dx, y + dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1) if dx or dy}
        assert {(i % 10, i // 10) for i in START_CELLS[seat]} == ring
    # rank-major order, as RULES §5 lists it
    assert " ".join(point_name(i % 10, i // 10) for i in START_CELLS[1]) == \
        "a5 b5 c5 h5 i5 j5 a6 c6 h6 j6 a7 b7 c7 h7 i7 j7"


def test_an_arrangement_is_placed_in_cell_order() -> None:
    blue = (5, 1, 9, 2, 3, 4, 6, 7, 8, 10, 11, 13, 14, 15, 16, 12)
    pink = tuple(reversed(IDENTITY))
    p = v.start(arrangement=(blue, pink))
    pieces = p.pieces()
    assert pieces[pt("a1")] == rules.Piece(0, "5")
    assert pieces[pt("b1")] == rules.Piece(0, "1")
    assert pieces[pt("j3")] == rules.Piece(0, "12")
    assert pieces[pt("a5")] == rules.Piece(1, "16")
    assert pieces[pt("j7")] == rules.Piece(1, "1")
    assert len(pieces) == 32
    empty = {pt(n) for n in ("b2", "i2", "b6", "i6")} | {(x, 3) for x in range(10)} | \
        {(x, y) for x in range(3, 7) for y in range(7)}
    assert not empty & set(pieces)
    assert p.to_move == {0} and p.outcome() is None


def test_splitmix64_matches_the_reference_outputs() -> None:
    # the first outputs of Vigna's splitmix64.c seeded with 0
    state, out = splitmix64(0)
    assert out == 0xE220A8397B1DCDAF
    state, out = splitmix64(state)
    assert out == 0x6E789E6AA1B965F4
    assert splitmix64(state)[1] == 0x06C45D188009454F


def test_the_deal_is_pinned_and_reproducible() -> None:
    # Pinned: changing the shuffle would silently change every stored random match.
    assert deal(12345) == ((2, 5, 9, 10, 12, 14, 16, 8, 15, 7, 11, 4, 3, 6, 13, 1),
                           (13, 16, 10, 11, 9, 2, 3, 12, 6, 14, 4, 15, 5, 1, 8, 7))
    assert v.start(seed=12345) == v.start(arrangement=deal(12345))
    assert v.start(seed=7).to_text() == v.start(seed=7).to_text()
    assert v.start() == v.start(seed=0)  # the documented default seed
    deals = {deal(s) for s in range(50)}
    assert len(deals) == 50
    for d in deals:
        assert sorted(d[0]) == sorted(d[1]) == list(IDENTITY)
        assert d[0] != d[1]


def test_an_arrangement_wins_over_a_seed() -> None:
    arr = (IDENTITY, IDENTITY)
    assert v.start(seed=99, arrangement=arr) == v.start(arrangement=arr)


@pytest.mark.parametrize(("options", "match"), [
    ({"setup": "draft"}, "setup='draft' is not allowed"),
    ({"seed": "7"}, "seed must be an integer"),
    ({"seed": 1.5}, "seed must be an integer"),
    ({"seed": True}, "seed must be an integer"),
    ({"arrangement": IDENTITY}, "a pair"),
    ({"arrangement": "1 2 3"}, "a pair"),
    ({"arrangement": (IDENTITY, IDENTITY[:15])},
     "Pink's arrangement: the arrangement lists 15 numbers"),
    ({"arrangement": ((1, *IDENTITY[:15]), IDENTITY)}, "number 1 appears twice"),
    ({"arrangement": (IDENTITY, (17, *IDENTITY[1:]))}, "17 is not a stone number"),
    ({"arrangement": ([str(n) for n in IDENTITY], IDENTITY)}, "must be 16 integers"),
    ({"setup": "choose", "arrangement": (IDENTITY, IDENTITY)}, "cannot be given"),
    ({"colour": "red"}, "no option 'colour'"),
])
def test_invalid_options_are_refused_clearly(options: dict[str, object], match: str) -> None:
    with pytest.raises(OptionError, match=match):
        v.start(**options)
    assert issubclass(OptionError, ValueError)


def test_arrangement_lists_are_accepted_like_tuples() -> None:
    assert v.start(arrangement=[list(IDENTITY), list(IDENTITY)]) == \
        v.start(arrangement=(IDENTITY, IDENTITY))


# --------------------------------------------------------------------------- movement


def test_a_stone_steps_in_all_eight_directions_onto_empty_cells() -> None:
    p = make({"e4": 1, "a1": 2, "b1": 3, "f5": 4}, PINK_CHAIN)
    steps = {m.split("-")[1] for m in moves(p) if m.startswith("e4-") and " " not in m}
    # f5 is occupied by an own stone, so the stone jumps over it to g6 instead
    assert steps == {"d3", "e3", "f3", "d4", "f4", "d5", "e5", "g6"}
    illegal(p, "e4-f5", "f5 is occupied")


def test_stones_at_the_edge_only_step_onto_the_board() -> None:
    p = make({"a1": 1, "c1": 2, "e1": 3}, PINK_CHAIN)
    assert set(p.reachable(pt("a1"))) == {pt("a2"), pt("b1"), pt("b2")}


def test_a_jump_goes_over_one_adjacent_stone_of_either_colour() -> None:
    p = make({"c3": 1, "d3": 2, "a1": 5, "b1": 6, "c1": 7},
             {"c4": 9, **PINK_CHAIN})
    reach = set(p.reachable(pt("c3")))
    assert pt("e3") in reach  # over its own stone 2
    assert pt("c5") in reach  # over pink 9
    assert pt("e5") not in reach  # d4 is empty: no jump


def test_a_jump_must_go_over_exactly_one_stone() -> None:
    p = make({"c3": 1, "d3": 2, "e3": 3, "a1": 5, "b1": 6, "c1": 7}, PINK_CHAIN)
    illegal(p, "c3-c5", "a jump must go over exactly one stone: c4 is empty")
    # two stones in a row cannot be jumped at once
    assert pt("f3") not in p.reachable(pt("c3"))
    illegal(p, "c3-f3", "no step or jump sequence takes c3 to f3")
    illegal(p, "c3-f3-h3", "c3-f3 is not a jump")


def test_jumps_chain_and_jumped_stones_stay() -> None:
    # a1 over b2 (own) to c3, then over d3 (own) to e3; nothing is captured
    p = make({"a1": 1, "b2": 2, "d3": 3, "e6": 7}, {"d5": 4, **PINK_CHAIN})
    assert {pt("c3"), pt("e3")} <= set(p.reachable(pt("a1")))
    q = play(p, "a1-c3-e3")
    assert q.stone_at(pt("e3")) == (0, 1)
    assert q.stone_at(pt("b2")) == (0, 2)
    assert q.stone_at(pt("d3")) == (0, 3)
    assert play(p, "a1-e3") == q  # start and end identify the movement


def test_a_direction_change_within_a_sequence() -> None:
    # c3 over d4 north-east to e5, then east over f5 to g5
    p = make({"c3": 1, "d4": 2, "f5": 3, "a1": 8, "b1": 9, "c1": 10}, PINK_CHAIN)
    assert pt("g5") in p.reachable(pt("c3"))
    assert v.parse_move(p, "c3-e5-g5") == Turn((pt("c3"), pt("g5")))


def test_no_landing_cell_twice() -> None:
    p = make({"c2": 1, "d2": 2, "f2": 3}, PINK_CHAIN)
    assert v.parse_move(p, "c2-e2-g2") == Turn((pt("c2"), pt("g2")))
    illegal(p, "c2-e2-g2-e2", "e2 was already landed on")


def test_a_sequence_never_returns_to_its_start_cell() -> None:
    # a ring of four stones around the cycle c3 -> e3 -> e5 -> c5 -> c3
    p = make({"c3": 1, "d3": 2, "e4": 3, "d5": 4, "c4": 5}, PINK_CHAIN)
    illegal(p, "c3-e3-e5-c5-c3", "may not return to its start cell c3")
    assert pt("c3") not in p.reachable(pt("c3"))
    assert {pt("e3"), pt("e5"), pt("c5")} <= set(p.reachable(pt("c3")))


def test_no_cell_is_jumped_over_twice_in_one_sequence() -> None:
    # RULES §5: d3 over e4 to f5, over f4 to f3, over e4 again to d5 jumps e4 twice
    p = make({"d3": 1, "e4": 2, "f4": 3}, PINK_CHAIN)
    illegal(p, "d3-f5-f3-d5", "e4 was already jumped over: no cell is passed over twice")
    illegal(p, "d3-d5", r"every jump path from d3 to d5 jumps a cell twice \(d3-f5-f3-d5 "
                        r"jumps e4 twice\)")
    assert pt("d5") not in p.reachable(pt("d3"))
    assert "d3-d5" not in moves(p)
    assert {"d3-f5", "d3-f3"} <= moves(p)  # the first two jumps alone stay legal


def test_the_issue_example_a1_a3_is_illegal_a1_c1_legal() -> None:
    # issue 18: blue 1 on a1, pink 5 on b2, blue 9 on c2. a3 is only reachable as
    # a1-c3-c1-a3, which jumps b2 twice; c1 is reachable as a1-c3-c1 (b2, then c2).
    p = make({"a1": 1, "c2": 9, "a7": 2, "b7": 3, "c7": 4},
             {"b2": 5, **PINK_CHAIN})
    illegal(p, "a1-a3", "jumps b2 twice")
    illegal(p, "a1-c3-c1-a3", "b2 was already jumped over")
    assert v.parse_move(p, "a1-c1") == Turn((pt("a1"), pt("c1")))
    assert v.parse_move(p, "a1-c3-c1") == Turn((pt("a1"), pt("c1")))
    assert "a1-c1" in moves(p) and "a1-a3" not in moves(p)
    assert pt("a3") not in p.reachable(pt("a1")) and pt("c1") in p.reachable(pt("a1"))
    assert v.move_marks(p, v.parse_move(p, "a1-c1")).path == (pt("a1"), pt("c3"), pt("c1"))
    assert play(p, "a1-c1").stone_at(pt("c1")) == (0, 1)


def test_a_destination_is_legal_when_some_path_jumps_no_cell_twice() -> None:
    # The shortest path to a3, a1-c3-c1-a3, jumps b2 twice; the longer a1-c3-c5-a5-a3
    # (over b2, c4, b5, a4) jumps every cell once, so a3 is a legal destination.
    p = make({"a1": 1, "c2": 9}, {"b2": 5, "c4": 6, "b5": 7, "a4": 8, **PINK_CHAIN})
    assert v.parse_move(p, "a1-a3") == Turn((pt("a1"), pt("a3")))
    assert "a1-a3" in moves(p) and pt("a3") in p.reachable(pt("a1"))
    illegal(p, "a1-c3-c1-a3", "b2 was already jumped over")
    assert v.parse_move(p, "a1-c3-c5-a5-a3") == Turn((pt("a1"), pt("a3")))
    # the abbreviated move is drawn along a path that respects the limits
    path = v.move_marks(p, v.parse_move(p, "a1-a3")).path
    assert path == tuple(map(pt, ("a1", "c3", "c5", "a5", "a3")))


def test_rules_version_1_still_jumps_a_cell_twice() -> None:
    # matches stored before issue 18 keep their rules (RULES §2.5's note, issue 18)
    p = make({"d3": 1, "e4": 2, "f4": 3}, PINK_CHAIN, rules_version="1")
    assert v.parse_move(p, "d3-f5-f3-d5") == Turn((pt("d3"), pt("d5")))
    assert pt("d5") in p.reachable(pt("d3"))
    after = play(p, "d3-d5")
    assert after.stone_at(pt("d5")) == (0, 1) and after.rules_version == "1"


def test_a_movement_is_one_kind_steps_and_jumps_do_not_mix() -> None:
    p = make({"c2": 1, "d2": 2, "a1": 3}, PINK_CHAIN)
    illegal(p, "c2-c3-c5", "is a step: a movement is one step or a sequence of jumps")
    illegal(p, "c2-e2-e3", "is a step")


def test_only_own_stones_move() -> None:
    p = make({"a1": 1, "b1": 2, "c1": 3}, {"e4": 5, **PINK_CHAIN})
    illegal(p, "e4-e5", "e4 is not your stone")
    illegal(p, "d4-d5", "there is no stone on d4")
    illegal(p, "a1-a1", "a move must leave a1")


# --------------------------------------------------------------------------- chains


def test_a_chain_is_consecutive_numbers_each_next_to_the_one_below() -> None:
    # 1 and 3 need not touch; each stone touches its predecessor (diagonals count)
    p = make({"a1": 1, "b2": 2, "c1": 3, "e4": 7}, PINK_CHAIN)
    assert p.removable_runs() == ((1, 3),)
    q = play(p, "r1-3")
    assert q.removed_counts()[0] == p.removed_counts()[0] + 3
    assert q.stone_at(pt("e4")) == (0, 7)
    assert {pt("a1"), pt("b2"), pt("c1")}.isdisjoint(q.pieces())


def test_any_part_of_a_longer_chain_may_be_removed() -> None:
    p = make({"a1": 1, "b1": 2, "c1": 3, "d1": 4, "e1": 5}, PINK_CHAIN)
    assert set(p.removable_runs()) == {(1, 3), (1, 4), (1, 5), (2, 4), (2, 5), (3, 5)}
    q = play(p, "r2-4")
    assert q.stone_at(pt("a1")) == (0, 1) and q.stone_at(pt("e1")) == (0, 5)
    assert q.removed_counts()[0] == p.removed_counts()[0] + 3


def test_a_removal_takes_at_least_three_stones() -> None:
    p = make({"a1": 1, "b1": 2, "c1": 3, "d1": 4}, PINK_CHAIN)
    illegal(p, "r3-4", "r3-4 removes only 2 stones")
    illegal(p, "r3-3", "removes only 1 stone")
    illegal(p, "r4-2", "write the lower number first: r2-4")


def test_a_removal_needs_every_stone_and_every_link() -> None:
    p = make({"a1": 5, "b1": 6, "d1": 7, "f1": 9, "g1": 10, "h1": 11}, PINK_CHAIN)
    illegal(p, "r5-7", "stone 7 is not next to stone 6")
    illegal(p, "r10-12", "you have no stone 12 on the board")
    illegal(p, "r8-10", "you have no stone 8 on the board")
    with pytest.raises(NotationError, match="numbered 1 to 16"):
        v.parse_move(p, "r15-17")


def test_the_opponent_numbers_never_join_a_chain() -> None:
    # blue 1 and 3 with pink 2 between them: not a chain
    p = make({"a1": 1, "c1": 3, "d1": 4, "e1": 5}, {"b1": 2, **PINK_CHAIN})
    illegal(p, "r1-3", "stone 2 is not next to stone 1|no stone 2")
    assert p.removable_runs() == ((3, 5),)


def test_only_one_removal_per_turn() -> None:
    p = make({"a1": 1, "b1": 2, "c1": 3, "h1": 7, "i1": 8, "j1": 9}, PINK_CHAIN)
    assert {"r1-3", "r7-9"} <= moves(p)
    with pytest.raises(NotationError):
        v.parse_move(p, "r1-3 r7-9")


def test_a_movement_may_complete_a_chain_removed_in_the_same_turn() -> None:
    p = make({"a1": 1, "b1": 2, "d1": 3}, PINK_CHAIN)
    assert p.removable_runs() == ()
    illegal(p, "r1-3", "stone 3 is not next to stone 2")
    q = play(p, "d1-c2 r1-3")
    assert q.removed_counts()[0] == p.removed_counts()[0] + 3
    assert {"d1-c2 r1-3", "d1-c1 r1-3"} <= moves(p)
    assert "d1-e1 r1-3" not in moves(p)


def test_the_removal_is_judged_after_the_movement() -> None:
    p = make({"a1": 1, "b1": 2, "c1": 3, "h4": 9}, PINK_CHAIN)
    # moving stone 3 away breaks the chain it was part of
    illegal(p, "c1-d1 r1-3", "stone 3 is not next to stone 2")
    assert "c1-d1 r1-3" not in moves(p) and "c1-d1" in moves(p)
    assert "h4-h5 r1-3" in moves(p)  # another stone moving keeps the chain
    with pytest.raises(NotationError):
        v.parse_move(p, "r1-3 h4-h5")  # the removal comes second


# A position where Blue can neither move nor remove: his stones 1 and 3 in the corners are
# walled in, every jump lands off the board or on a stone, and 1, 3 form no chain.
WALLS = {"a2": 4, "b2": 5, "b1": 6, "j2": 7, "i2": 8, "i1": 9, "a3": 10, "c3": 11,
         "c1": 12, "j3": 13, "h3": 14, "h1": 15, "h7": 1, "i7": 2, "j7": 3}


def blocked(quiet: int = 0) -> QuerniPosition:
    return make({"a1": 1, "j1": 3}, WALLS, quiet=quiet)


def test_no_voluntary_pass() -> None:
    # RULES §5: a pass only when the player can neither move nor remove
    p = make({"a1": 1, "b1": 2, "c1": 3}, PINK_CHAIN)
    assert "pass" not in moves(p)
    assert p.forced_move() is None
    illegal(p, "pass", "you may pass only when you can neither move nor remove a chain")
    with pytest.raises(IllegalMoveError, match="only when"):
        p.play(Turn())
    assert "pass" not in moves(v.start(seed=3))


def test_a_pass_is_forced_only_when_neither_movement_nor_removal_exists() -> None:
    p = blocked()
    assert p.outcome() is None
    assert [v.format_move(p, m) for m in p.legal_moves()] == ["pass"]
    assert p.forced_move() == Turn()
    q = play(p, "PASS")
    assert q.quiet == 1 and q.to_move == {1}
    assert q.forced_move() is None  # Pink can move
    # a removal alone is enough not to be forced: give Blue a removable chain
    chain = make({"a1": 1, "b1": 2, "c1": 3}, {"a2": 4, "b2": 5, "c2": 6, "d2": 7,
                                               "d1": 8, "a3": 9, "c3": 10, "e3": 11,
                                               "h7": 1, "i7": 2, "j7": 3})
    assert chain.forced_move() is None and "r1-3" in moves(chain)


def test_rules_version_1_keeps_the_voluntary_pass() -> None:
    p = make({"a1": 1, "b1": 2, "c1": 3}, PINK_CHAIN, rules_version="1")
    assert "pass" in moves(p)
    q = play(p, "pass")
    assert q.quiet == 1 and q.to_move == {1} and q.rules_version == "1"
    old = v.start_recorded("1", seed=3)
    assert old.rules_version == "1" and "pass" in moves(old)
    assert old.to_text() == v.start(seed=3).to_text()
    choose = v.start_recorded("1", setup="choose")
    assert choose.play(Arrangement(0, IDENTITY)).play(Arrangement(1, IDENTITY)).rules_version \
        == "1"
    with pytest.raises(OptionError, match="no rules version '9'"):
        v.start_recorded("9")


# --------------------------------------------------------------------------- endings


def test_removing_the_last_stone_wins_at_once() -> None:
    p = make({"a1": 1, "b1": 2, "c1": 3}, {"h7": 4, "i7": 5, "j7": 6}, quiet=12)
    q = play(p, "r1-3")
    out = q.outcome()
    assert out is not None and out.winners == {0} and out.reason == "all-removed"
    assert out.ranking == (frozenset({0}), frozenset({1}))
    assert q.to_move == frozenset() and q.legal_moves() == ()
    with pytest.raises(IllegalMoveError, match="over"):
        v.parse_move(q, "pass")


def test_the_win_is_judged_before_no_chains() -> None:
    # after Blue takes its last three, Pink has no three consecutive numbers either
    p = make({"a1": 1, "b1": 2, "c1": 3}, {"h7": 4, "i7": 5, "j7": 9})
    out = play(p, "r1-3").outcome()
    assert out is not None and out.winners == {0} and out.reason == "all-removed"


def test_draw_when_neither_player_has_three_consecutive_numbers_left() -> None:
    p = make({"a1": 1, "b1": 2, "c1": 3, "j1": 9, "j2": 10},
             {"h7": 4, "i7": 5, "j5": 7, "a7": 8})
    assert p.outcome() is None
    q = play(p, "r1-3")
    out = q.outcome()
    assert out is not None and out.reason == "no-chains" and out.is_draw
    assert out.ranking == (frozenset({0, 1}),)
    # scattered numbers still count: three consecutive anywhere keep the game going
    far = make({"a1": 1, "b1": 2, "c1": 3, "j1": 9, "e4": 10, "a7": 11}, {"h7": 4, "a4": 6})
    assert play(far, "r1-3").outcome() is None


def test_draw_on_the_thirtieth_turn_without_a_removal() -> None:
    p = make({"a1": 1, "b1": 2, "c1": 3}, {**PINK_CHAIN, "a7": 9}, quiet=28)
    q = play(p, "a1-a2")
    assert q.outcome() is None and q.quiet == 29
    r = play(q, "a7-a6")
    out = r.outcome()
    assert out is not None and out.reason == "move-limit" and out.is_draw
    # a removal on the 30th turn resets the count instead
    again = play(q, "r1-3")
    assert again.outcome() is None and again.quiet == 0


def test_thirty_passes_from_the_start_draw_under_rules_version_1() -> None:
    p = v.start_recorded("1", seed=5)
    for ply in range(30):
        assert p.outcome() is None, ply
        p = play(p, "pass")
    assert p.outcome() == rules.Outcome.draw(seats=2, reason="move-limit")


def test_forced_passes_count_towards_the_move_limit() -> None:
    p = blocked(28)
    q = play(play(p, "pass"), "h7-g6")
    assert q.outcome() == rules.Outcome.draw(seats=2, reason="move-limit")


def test_no_chains_is_judged_before_the_move_limit() -> None:
    p = v.from_text("10/10/10/10/10/10/B1,B3,P5,P7,6 b 30 14,14")
    out = p.outcome()
    assert out is not None and out.reason == "no-chains"


# --------------------------------------------------------------------------- notation


def test_canonical_strings() -> None:
    p = make({"c2": 1, "d3": 2, "a1": 3, "b1": 4}, {"a2": 8, **PINK_CHAIN})
    assert v.format_move(p, Turn((pt("c2"), pt("e4")))) == "c2-e4"
    assert v.format_move(p, Turn(None, (3, 5))) == "r3-5"
    assert v.format_move(p, Turn((pt("c2"), pt("e4")), (3, 5))) == "c2-e4 r3-5"
    assert v.format_move(p, Turn()) == "pass"


@pytest.mark.parametrize("text", ["c2-e4 r1-3", "C2-E4 R1-3", " c2 - e4   r 1 - 3 ", "c2e4 r1-3",
                                  "c2-e4 r1–3"])
def test_forgiving_input(text: str) -> None:
    p = make({"c2": 1, "d3": 2, "c4": 3}, PINK_CHAIN)
    assert v.parse_move(p, text) == Turn((pt("c2"), pt("e4")), (1, 3))


@pytest.mark.parametrize("text", ["hello", "c2", "r3", "r3-", "pass r1-3", "c2-e4 r1-3 x",
                                  "z9-a1", "", "5 1 9"])
def test_malformed_turns_are_notation_errors(text: str) -> None:
    p = make({"c2": 1, "d3": 2, "f5": 3}, PINK_CHAIN)
    with pytest.raises(NotationError):
        v.parse_move(p, text)


def test_move_marks_show_path_and_removed_cells() -> None:
    p = make({"d3": 1, "e4": 2, "f4": 3, "a1": 5, "a2": 6, "a3": 7, "f2": 8}, PINK_CHAIN)
    typed = v.parse_move(p, "d3-f5-f3-f1")
    assert v.move_marks(p, typed).path == tuple(map(pt, ("d3", "f5", "f3", "f1")))
    # abbreviated: a shortest path, each landing listed
    marks = v.move_marks(p, v.parse_move(p, "d3-f1"))
    assert marks.path[0] == pt("d3") and marks.path[-1] == pt("f1") and len(marks.path) == 4
    step = v.move_marks(p, v.parse_move(p, "d3-d2 r5-7"))
    assert step.path == (pt("d3"), pt("d2"))
    assert step.removed == (pt("a1"), pt("a2"), pt("a3")) and step.captured == ()
    # the moved stone is removed from where it arrived
    q = make({"a1": 1, "b1": 2, "d1": 3}, PINK_CHAIN)
    assert v.move_marks(q, v.parse_move(q, "d1-c2 r1-3")).removed == \
        (pt("a1"), pt("b1"), pt("c2"))
    assert v.move_marks(q, Turn()) == rules.MoveMarks(())


def test_reachable_and_removable_runs_helpers() -> None:
    p = make({"c3": 1, "d3": 2, "e3": 3, "a7": 9}, PINK_CHAIN)
    assert p.removable_runs() == ((1, 3),)
    assert p.reachable(pt("f6")) == ()
    reach = p.reachable(pt("c3"))
    assert list(reach) == sorted(reach, key=lambda q: (q[1], q[0]))
    assert set(reach) == {pt(n) for n in ("b2", "c2", "d2", "b3", "b4", "c4", "d4")}
    assert p.where(0, 2) == pt("d3") and p.where(0, 4) is None


# --------------------------------------------------------------------------- position text


def test_text_round_trips_and_holds_everything() -> None:
    p = v.start(seed=4)
    p = play(p, "c3-d4")
    text = p.to_text()
    q = v.from_text(text)
    assert q == p and q.to_text() == text
    assert text.endswith(" p 1 0,0")
    mid = make({"a1": 1, "b1": 2, "c1": 3, "j7": 16}, {"e4": 4, "f4": 5, "g5": 6}, turn=1,
               quiet=7)
    assert mid.to_text() == "9,B16/10/6,P6,3/4,P4,P5,4/10/10/B1,B2,B3,7 p 7 12,13"
    assert v.from_text(mid.to_text()) == mid


@pytest.mark.parametrize(("text", "match"), [
    ("10/10/10/10/10/10 b 0 16,16", "7 ranks"),
    ("B1,B2,B3,7/10/10/10/10/10/P1,P2,P3,6 b 0 13,13 x", "4 fields"),
    ("B1,B2,B3,8/10/10/10/10/10/P1,P2,P3,7 b 0 13,13", "rank 7 must describe 10 cells"),
    ("B1,B2,B3,7,B4/10/10/10/10/10/P1,P2,P3,7 b 0 13,13", "rank 7 must describe"),
    ("B1,B1,B3,7/10/10/10/10/10/P1,P2,P3,7 b 0 13,13", "Blue stone 1 appears twice"),
    ("B1,B2,B17,7/10/10/10/10/10/P1,P2,P3,7 b 0 13,13", "numbered 1 to 16"),
    ("B1,B2,Q3,7/10/10/10/10/10/P1,P2,P3,7 b 0 13,13", "is not B<n>"),
    ("B1,B2,B3,7/10/10/10/10/10/P1,P2,P3,7 w 0 13,13", "side to move"),
    ("B1,B2,B3,7/10/10/10/10/10/P1,P2,P3,7 b 31 13,13", "0 to 30"),
    ("B1,B2,B3,7/10/10/10/10/10/P1,P2,P3,7 b 0 12,13", "disagree with the board"),
    ("10/10/10/10/10/10/P1,P2,P3,7 b 0 16,13", "Blue has no stones left"),
    ("setup 1,2", "setup <blue> <pink>"),
    ("setup 1,2,3 -", "lists 3 numbers"),
    ("setup " + ",".join(map(str, IDENTITY)) + " " + ",".join(map(str, IDENTITY)),
     "both have submitted"),
    ("", "empty"),
])
def test_bad_position_texts_say_why(text: str, match: str) -> None:
    with pytest.raises(PositionError, match=match):
        v.from_text(text)


# --------------------------------------------------------------------------- setup phase


def test_choose_setup_has_both_seats_to_move() -> None:
    s = v.start(setup="choose", seed=5)  # the service always passes a seed: ignored here
    assert isinstance(s, QuerniSetupPosition) and s.in_setup
    assert s.to_move == {0, 1} and s.outcome() is None
    assert s.pieces() == {} and s.to_text() == "setup - -"
    assert v.from_text("setup - -") == s


def test_setup_legal_moves_are_every_arrangement_lazily() -> None:
    s = v.start(setup="choose")
    assert isinstance(s, QuerniSetupPosition)
    all_moves = s.legal_moves()
    assert len(all_moves) == 2 * 20922789888000  # 2 × 16!
    assert all_moves[0] == Arrangement(0, IDENTITY)
    assert all_moves[-1] == Arrangement(1, tuple(reversed(IDENTITY)))
    assert all_moves[20922789888000] == Arrangement(1, IDENTITY)
    assert Arrangement(1, deal(3)[1]) in all_moves
    assert Arrangement(0, IDENTITY[:15]) not in all_moves
    picked = random.Random(1).choice(all_moves)
    assert sorted(picked.numbers) == list(IDENTITY)
    assert list(all_moves[1:3]) == [Arrangement(0, (*IDENTITY[:14], 16, 15)),
                                    Arrangement(0, (*IDENTITY[:13], 15, 14, 16))]
    with pytest.raises(IndexError):
        all_moves[len(all_moves)]
    half = s.play(Arrangement(0, IDENTITY))
    assert len(half.legal_moves()) == 20922789888000
    assert Arrangement(0, IDENTITY) not in half.legal_moves()


def test_parse_move_in_setup_needs_a_single_pending_seat() -> None:
    s = v.start(setup="choose")
    with pytest.raises(IllegalMoveError, match="parse_arrangement"):
        v.parse_move(s, "1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16")
    pink = v.parse_arrangement(s, 1, "16 15 14 13 12 11 10 9 8 7 6 5 4 3 2 1")
    assert pink == Arrangement(1, tuple(reversed(IDENTITY)))
    assert v.format_move(s, pink) == "16 15 14 13 12 11 10 9 8 7 6 5 4 3 2 1"
    half = s.play(pink)
    assert half.to_move == {0}
    # now only Blue is pending, so plain parse_move knows whose it is
    blue = v.parse_move(half, "5, 1, 9, 2, 3, 4, 6, 7, 8, 10, 11, 13, 14, 15, 16, 12")
    assert blue == Arrangement(0, (5, 1, 9, 2, 3, 4, 6, 7, 8, 10, 11, 13, 14, 15, 16, 12))
    game = half.play(blue)
    assert isinstance(game, QuerniPosition) and game.to_move == {0} and not game.in_setup
    assert game == v.start(arrangement=(blue.numbers, pink.numbers))


def test_submission_order_does_not_matter() -> None:
    a0, a1 = Arrangement(0, deal(8)[0]), Arrangement(1, deal(8)[1])
    s = v.start(setup="choose")
    assert s.play(a0).play(a1) == s.play(a1).play(a0) == v.start(seed=8)


def test_a_pending_arrangement_stays_hidden_from_the_opponent() -> None:
    s = v.start(setup="choose")
    secret = deal(11)[1]
    half = s.play(Arrangement(1, secret))
    assert isinstance(half, QuerniSetupPosition)
    assert half.pieces() == {}  # nothing on the board until both have submitted
    blue_view = half.view_for(0)
    assert blue_view.to_text() == "setup - ?"
    assert blue_view.arrangement(1) is None and blue_view.has_submitted(1)
    assert blue_view.to_move == {0}
    assert ",".join(map(str, secret)) not in repr(blue_view)
    assert v.from_text("setup - ?") == blue_view
    pink_view = half.view_for(1)
    assert pink_view == half and pink_view.arrangement(1) == secret
    # the hidden view cannot start the game: the numbers are unknown there
    with pytest.raises(IllegalMoveError, match="hidden"):
        blue_view.play(Arrangement(0, IDENTITY))
    assert half.play(Arrangement(0, IDENTITY)).view_for(0).pieces()[pt("a5")] == \
        rules.Piece(1, str(secret[0]))


@pytest.mark.parametrize(("text", "error", "match"), [
    ("1 2 3", IllegalMoveError, "lists 3 numbers, not 16"),
    # nothing given is said so, not counted as zero numbers
    ("", IllegalMoveError, "^the arrangement is empty: it needs 16 numbers$"),
    (" , ;", IllegalMoveError, "^the arrangement is empty: it needs 16 numbers$"),
    ("1 1 3 4 5 6 7 8 9 10 11 12 13 14 15 16", IllegalMoveError, "number 1 appears twice"),
    ("17 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16", IllegalMoveError, "17 is not a stone number"),
    ("c2-e4", NotationError, "is not a number"),
])
def test_bad_arrangements_say_why(text: str, error: type[Exception], match: str) -> None:
    half = v.start(setup="choose").play(Arrangement(1, IDENTITY))
    with pytest.raises(error, match=match):
        v.parse_move(half, text)


def test_setup_refuses_double_submissions_and_turns() -> None:
    s = v.start(setup="choose")
    half = s.play(Arrangement(0, IDENTITY))
    with pytest.raises(IllegalMoveError, match="Blue has already submitted"):
        half.play(Arrangement(0, IDENTITY))
    with pytest.raises(IllegalMoveError, match="already submitted"):
        v.parse_arrangement(half, 0, " ".join(map(str, IDENTITY)))
    with pytest.raises(IllegalMoveError, match="setup phase"):
        s.play(Turn())
    with pytest.raises(IllegalMoveError):
        s.play(Arrangement(0, (1, 2, 3)))
    game = half.play(Arrangement(1, IDENTITY))
    with pytest.raises(IllegalMoveError, match="setup phase is over"):
        v.parse_arrangement(game, 0, " ".join(map(str, IDENTITY)))
    assert v.move_marks(s, Arrangement(0, IDENTITY)) == rules.MoveMarks(())
    assert isinstance(v.resign(s, 1), rules.Outcome)


# --------------------------------------------------------------------------- cross-checks


def _reference_reachable(p: QuerniPosition, start: tuple[int, int]) -> set[tuple[int, int]]:
    """Every end of a step or a jump path landing on no cell twice and (rules version 2)
    jumping no cell twice, by plain recursion over the rules."""
    board = {q: s for q, s in p.pieces().items()}
    del board[start]  # the start counts as empty while jumping
    dirs = [(dx, dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1) if dx or dy]

    def on(q: tuple[int, int]) -> bool:
        return 0 <= q[0] < 10 and 0 <= q[1] < 7

    ends = {(start[0] + dx, start[1] + dy) for dx, dy in dirs
            if on((start[0] + dx, start[1] + dy)) and (start[0] + dx, start[1] + dy) not in board}

    once = p.rules_version == "2"

    def jump(at: tuple[int, int], landed: frozenset[tuple[int, int]],
             jumped: frozenset[tuple[int, int]]) -> None:
        for dx, dy in dirs:
            over, land = (at[0] + dx, at[1] + dy), (at[0] + 2 * dx, at[1] + 2 * dy)
            if on(land) and over in board and land not in board and land != start \
                    and land not in landed and not (once and over in jumped):
                ends.add(land)
                jump(land, landed | {land}, jumped | {over})

    jump(start, frozenset(), frozenset())
    return ends


def _reference_runs(pieces: dict[tuple[int, int], rules.Piece], seat: int) -> set[tuple[int, int]]:
    at = {int(pc.kind): q for q, pc in pieces.items() if pc.seat == seat}

    def touch(a: tuple[int, int], b: tuple[int, int]) -> bool:
        return max(abs(a[0] - b[0]), abs(a[1] - b[1])) == 1

    # each number's facts once, for the 105 runs that hold it
    present = [n in at for n in range(17)]
    touches = [False] + [present[n] and present[n - 1] and touch(at[n], at[n - 1])
                         for n in range(1, 17)]
    return {(lo, hi) for lo in range(1, 15) for hi in range(lo + 2, 17)
            if all(present[lo:hi + 1]) and all(touches[lo + 1:hi + 1])}


def _sample_positions() -> list[QuerniPosition]:
    out = []
    for seed in range(6):
        rng = random.Random(seed)
        p = v.start(seed=seed)
        for _ in range(25):
            assert isinstance(p, QuerniPosition)
            if p.outcome():
                break
            out.append(p)
            choices = [m for m in p.legal_moves() if m.movement] or list(p.legal_moves())
            p = p.play(rng.choice(choices))
    return out


SAMPLES = _sample_positions()


@pytest.mark.parametrize("rules_version", ["2", "1"])
def test_generator_matches_a_reference_over_sampled_positions(rules_version: str) -> None:
    for sample in SAMPLES:
        p = QuerniPosition(sample.cells, sample.turn, sample.quiet, rules_version)
        pieces = dict(p.pieces())
        expected: set[str] = {f"r{lo}-{hi}" for lo, hi in _reference_runs(pieces, p.turn)}
        for start, pc in pieces.items():
            reachable = _reference_reachable(p, start)
            assert set(p.reachable(start)) == reachable, p.to_text()
            if pc.seat != p.turn:
                continue
            for end in reachable:
                mv = f"{point_name(*start)}-{point_name(*end)}"
                expected.add(mv)
                after = dict(pieces)
                after[end] = after.pop(start)
                expected |= {f"{mv} r{lo}-{hi}" for lo, hi in _reference_runs(after, p.turn)}
        if rules_version == "1" or not expected:
            expected.add("pass")
        listed = [v.format_move(p, m) for m in p.legal_moves()]
        assert len(listed) == len(set(listed))
        assert set(listed) == expected, p.to_text()


MAZE = ("10/1,B11,1,B12,1,B13,1,B14,1,B15/3,P16,6/2,P12,B7,P13,B8,P14,B9,P15,B10/"
        "3,P8,1,P9,1,P10,1,P11/1,B2,P4,B3,P5,B4,P6,B5,P7,B6/B1,2,B16,1,P1,1,P2,1,P3 b 0 0,0")
"""Every diagonal crossing of a1's landing class holds a stone; a3 is reachable only as
a1-c3-c1-a3 (bench/bench_querni.py's maze)."""


def _scattered_positions() -> list[QuerniPosition]:
    """Random boards of 20 to 32 stones, many with stones on diagonal crossings."""
    out = []
    rng = random.Random(18)
    for _ in range(60):
        cells = [0] * 70
        count = rng.randint(10, 16)
        for seat in (0, 1):
            for number, cell in zip(range(1, count + 1),
                                    rng.sample([i for i in range(70) if not cells[i]], count),
                                    strict=False):
                cells[cell] = seat * 16 + number
        for version in ("2", "1"):
            out.append(QuerniPosition(tuple(cells), rng.randint(0, 1), 0, version))
    return out


def test_jump_search_matches_the_reference_on_crowded_and_scattered_boards() -> None:
    maze = v.from_text(MAZE)
    assert isinstance(maze, QuerniPosition)
    boards = [maze, *_scattered_positions()]
    doubles = 0
    for p in boards:
        for start in p.pieces():
            got = set(p.reachable(start))
            assert got == _reference_reachable(p, start), (p.to_text(), p.rules_version, start)
            if p.rules_version == "2":
                old = QuerniPosition(p.cells, p.turn, p.quiet, "1")
                doubles += len(set(old.reachable(start)) - got)
    assert doubles > 0  # the boards do reach cells only a double jump would reach


def test_targeted_validation_agrees_with_the_listing() -> None:
    names = [point_name(x, y) for y in range(7) for x in range(10)]
    for p in SAMPLES[::7]:
        legal = moves(p)
        own = [point_name(*q) for q, pc in p.pieces().items() if pc.seat == p.turn]
        for a in own:
            for b in names:
                for text in (f"{a}-{b}", f"{a}-{b} r1-3"):
                    try:
                        v.parse_move(p, text)
                        accepted = True
                    except IllegalMoveError:
                        accepted = False
                    assert accepted == (text in legal), (text, p.to_text())


def test_every_typed_jump_path_of_a_legal_movement_is_accepted() -> None:
    for p in SAMPLES[::5]:
        for m in p.legal_moves():
            if m.movement and not m.removal:
                path = v.move_marks(p, m).path
                text = "-".join(point_name(*q) for q in path)
                assert v.parse_move(p, text) == m
                for a, b in pairwise(path):
                    assert max(abs(a[0] - b[0]), abs(a[1] - b[1])) in (1, 2)
