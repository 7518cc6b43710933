"""The game facts every caller may ask of the rules API (issue 19): each typed member of
``Variant``/``Position`` on every variant and configuration, with real values (captured
counts after a capture, seats out after an elimination, the checked general, the huff).

Defaults live in the bases; a game that has the fact overrides them. Nothing here is
asked by attribute name: the members are part of the API (``test_api_consumers.py``
keeps consumers from probing).
"""

from __future__ import annotations

import pytest

import rules
from rules.alquerque import AlquerquePosition
from rules.damas import DamasMove
from rules.lattice import Move as LatticeMove
from rules.querni import Arrangement, QuerniPosition, QuerniSetupPosition, Turn
from rules.xiangqi import XiangqiMove
from tests.rules.helpers.damas import pos as damas_pos
from tests.rules.test_alquerque_grande import duel, gpos

CONFIGURATIONS = [(key, dict(options)) for key, v in rules.VARIANTS.items()
                  for options in (*v.example_options, *v.option_sets())]
IDENTITY = " ".join(map(str, range(1, 17)))


def play(p: rules.Position, *texts: str) -> rules.Position:
    for text in texts:
        p = p.play(p.variant.parse_move(p, text))
    return p


# --------------------------------------------------------------------------- every variant


@pytest.mark.parametrize("key, options", CONFIGURATIONS)
def test_variant_facts_agree_with_the_position_they_start(key: str,
                                                          options: dict[str, object]) -> None:
    v = rules.variant(key)
    p = v.start(**options)
    # issue 18 changed the rules of two games: version 2, version 1 kept for old matches
    assert v.rules_version == {"alquerque-grande": "2", "querni": "2"}.get(key, "1")
    assert v.recorded_versions[-1] == v.rules_version
    assert v.seat_count(**options) == p.seat_count
    assert v.teams(**options) == p.teams
    assert p.captured_counts() in (None, (0,) * p.seat_count)
    assert p.out_seats() == frozenset() and p.last_removal() == ()
    assert p.checked_point() is None
    assert p.view_for(0).to_text() == p.to_text()
    if not p.in_setup:
        assert not any(p.has_submitted(s) for s in range(p.seat_count))


@pytest.mark.parametrize("key", list(rules.VARIANTS))
def test_option_sets_start_and_lead_with_the_defaults(key: str) -> None:
    v = rules.variant(key)
    sets = v.option_sets()
    for options in sets:
        v.start(**options)
    # the defaults of every option that applies (``rules`` is for 2 players only)
    assert sets[0] == v.check_options({})
    assert len({tuple(sorted(o.items())) for o in sets}) == len(sets)


def test_option_sets_and_seat_counts_of_each_game() -> None:
    grande = rules.variant("alquerque-grande")
    assert grande.option_sets() == ({"players": 4, "mode": "teams"},
                                     {"players": 4, "mode": "fast"},
                                     {"players": 4, "mode": "slow"},
                                     {"players": 2, "rules": "alquerque"},
                                     {"players": 2, "rules": "grande"})
    assert [grande.seat_count(**o) for o in grande.option_sets()] == [4, 4, 4, 2, 2]
    assert rules.variant("querni").option_sets() == ({"setup": "random"},
                                                     {"setup": "choose"})
    for key in ("alquerque", "xiangqi", "damas"):
        assert rules.variant(key).option_sets() == ({},)
        assert rules.variant(key).seat_count() == 2
    with pytest.raises(rules.OptionError):
        grande.seat_count(players=2, mode="teams")
    with pytest.raises(rules.OptionError):
        rules.variant("xiangqi").seat_count(players=4)


def test_option_and_variant_errors_are_rules_errors() -> None:
    with pytest.raises(rules.RulesError) as unknown:
        rules.variant("chess")
    assert isinstance(unknown.value, rules.UnknownVariantError | ValueError)
    with pytest.raises(rules.RulesError) as bad:
        rules.variant("alquerque-grande").start(players=3)
    assert isinstance(bad.value, rules.OptionError) and isinstance(bad.value, ValueError)


def test_parse_move_returns_the_games_own_move_type() -> None:
    expected = {"alquerque": LatticeMove, "alquerque-grande": LatticeMove,
                "xiangqi": XiangqiMove, "damas": DamasMove, "querni": Turn}
    for key, kind in expected.items():
        v = rules.variant(key)
        p = v.start(**v.example_options[0])
        move = v.parse_move(p, v.format_move(p, p.legal_moves()[0]))
        assert isinstance(move, kind), key


# --------------------------------------------------------------------------- captures


def test_captured_counts_after_captures() -> None:
    p = play(rules.variant("alquerque").start(), "d3-c3", "b3xd3")
    assert isinstance(p, AlquerquePosition) and p.captured_counts() == (0, 1)
    xq = play(rules.variant("xiangqi").start(), "h3xh10")
    assert xq.captured_counts() == (1, 0)
    assert play(xq, "i10xh10").captured_counts() == (1, 1)
    dm = damas_pos("W", ["c6"], ["d7", "f7"])
    assert dm.captured_counts() == (10, 11)  # 12 minus the opponent's pieces on the board
    assert play(dm, "c6xe8").captured_counts() == (11, 11)
    duo = play(duel("d3", "d4 a7"), "d3xd5")
    assert duo.captured_counts() == (1, 0)
    four = play(rules.variant("alquerque-grande").start(players=4, mode="fast"),
                "d3-d4", "e3-d3", "e5xe3")
    assert four.captured_counts() == (0, 0, 1, 0)


def test_querni_counts_removals_not_captures() -> None:
    v = rules.variant("querni")
    p = v.start(arrangement=(tuple(range(1, 17)),) * 2)
    assert p.captured_counts() is None and p.removed_counts() == (0, 0)
    after = play(p, "r1-3")
    assert after.removed_counts() == (3, 0) and after.captured_counts() is None
    assert v.start(setup="choose").removed_counts() is None
    assert rules.variant("xiangqi").start().removed_counts() is None


# --------------------------------------------------------------------------- seats and teams


@pytest.mark.parametrize("mode", ["teams", "slow"])
def test_out_seats_after_an_elimination_in_a_four_player_game(mode: str) -> None:
    v = rules.variant("alquerque-grande")
    after = v.resign(v.start(players=4, mode=mode), 1)
    assert isinstance(after, rules.Position) and after.outcome() is None
    assert after.out_seats() == {1}
    stone_lost = play(gpos({"W": "a1", "T": "a2 g1", "B": "g7", "R": "a7"}), "a1-b1")
    assert stone_lost.out_seats() == {0}  # huffed its last stone: out (RULES §2.3)


def test_teams_are_the_facing_seats_in_teams_mode_only() -> None:
    v = rules.variant("alquerque-grande")
    teams = v.start(players=4, mode="teams")
    assert teams.teams == (frozenset({0, 2}), frozenset({1, 3}))
    assert [teams.team_mate(s) for s in range(4)] == [2, 3, 0, 1]
    assert v.teams() == teams.teams and v.teams(players=4, mode="teams") == teams.teams
    for options in ({"players": 4, "mode": "fast"}, {"players": 4, "mode": "slow"},
                    {"players": 2}):
        p = v.start(**options)
        assert p.teams == () and p.team_mate(0) is None and v.teams(**options) == ()
    assert rules.variant("xiangqi").start().teams == ()


def test_mode_names_the_rule_set_in_force() -> None:
    v = rules.variant("alquerque-grande")
    assert [v.start(players=4, mode=m).mode for m in ("teams", "fast", "slow")] == \
        ["teams", "fast", "slow"]
    assert v.start(players=2).mode is None
    assert all(rules.variant(k).start(**rules.variant(k).example_options[0]).mode is None
               for k in ("alquerque", "xiangqi", "damas", "querni"))


# --------------------------------------------------------------------------- check and huffs


def test_checked_point_in_a_xiangqi_check_and_after_checkmate() -> None:
    v = rules.variant("xiangqi")
    check = v.from_text("4k4/9/9/9/9/9/9/9/4R4/3K5 b - - 0 1")
    assert check.checked_point() == (4, 9) and check.outcome() is None
    mate = v.from_text("R3k4/1R7/9/9/9/9/9/9/9/3K5 b - - 0 1")
    assert mate.outcome() is not None and mate.checked_point() == (4, 9)
    red = v.from_text("3k5/9/9/9/9/9/9/9/4r4/4K4 w - - 0 1")
    assert red.checked_point() == (4, 0)
    assert play(red, "e1-f1").checked_point() is None  # stepped out of it; Black not in check
    assert v.start().checked_point() is None
    assert rules.variant("damas").start().checked_point() is None


def test_last_removal_after_a_huff() -> None:
    p = duel("d3 g1", "d4 a7")
    huffed = play(p, "g1-f1")  # d3 could capture: the stepping g1 stone is fine, d3 goes
    assert huffed.last_removal() == ((3, 2),)
    assert rules.variant("alquerque-grande").removal_word == "huffed"
    assert play(p, "d3xd5").last_removal() == ()
    assert play(huffed, "a7-a6").last_removal() == ()


# --------------------------------------------------------------------------- setup phase


def test_the_setup_protocol() -> None:
    v = rules.variant("querni")
    setup = v.start(setup="choose")
    assert isinstance(setup, QuerniSetupPosition) and setup.in_setup
    assert not setup.has_submitted(0) and not setup.has_submitted(1)
    move = v.parse_arrangement(setup, 1, IDENTITY)
    assert move == Arrangement(1, tuple(range(1, 17)))
    half = setup.play(move)
    assert half.in_setup and half.has_submitted(1) and not half.has_submitted(0)
    assert half.view_for(0).to_text() == "setup - ?"  # Pink's numbers hidden from Blue
    assert half.view_for(1).to_text() == half.to_text()
    game = half.play(v.parse_arrangement(half, 0, IDENTITY))
    assert isinstance(game, QuerniPosition) and not game.in_setup
    assert game.view_for(0) is game and not game.has_submitted(0)
    with pytest.raises(rules.IllegalMoveError, match="setup phase is over"):
        v.parse_arrangement(game, 0, IDENTITY)


@pytest.mark.parametrize("key", ["alquerque", "alquerque-grande", "xiangqi", "damas"])
def test_games_without_a_setup_phase(key: str) -> None:
    v = rules.variant(key)
    p = v.start()
    assert not p.in_setup and p.view_for(1) is p
    with pytest.raises(rules.IllegalMoveError, match="no setup phase"):
        v.parse_arrangement(p, 0, IDENTITY)


# --------------------------------------------------------------------------- noted moves


@pytest.mark.parametrize("key, start, copied, canonical", [
    ("xiangqi", None, "h3-e3 (C2.5)", "h3-e3"),
    ("xiangqi", None, "H3-E3  (c2.5)", "h3-e3"),
    ("damas", "W:W28:B21", "b7-a8 (28-32) crowned", "b7-a8"),
    ("alquerque-grande",
     "......./......./......./...B.../...W.../......./......W w -,- 0,0 - 0 - players=2 -",
     "g1-f1 (huff d3)", "g1-f1"),
    ("alquerque", None, "d3-c3", "d3-c3"),
])
def test_a_move_copied_with_its_display_note_is_read(key: str, start: str | None,
                                                     copied: str, canonical: str) -> None:
    v = rules.variant(key)
    p = v.from_text(start) if start else v.start()
    assert v.format_move(p, v.parse_noted_move(p, copied)) == canonical


def test_a_wrong_or_missing_note_is_refused_naming_the_right_one() -> None:
    v = rules.variant("xiangqi")
    with pytest.raises(rules.NotationError, match=r"written h3-e3 \(C2\.5\)"):
        v.parse_noted_move(v.start(), "h3-e3 (C2.4)")
    a = rules.variant("alquerque")
    with pytest.raises(rules.NotationError, match="with no note"):
        a.parse_noted_move(a.start(), "d3-c3 (huff)")
    with pytest.raises(rules.NotationError):
        v.parse_noted_move(v.start(), "no move at all")
