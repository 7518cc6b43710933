"""Skipping a seat (issue 43): ``Variant.skip_seat`` puts a seat out while the others play
on. RULES.md is silent on a player who is gone; the decisions (rules/alquerque_grande.py's
docstring): four players only; his turns are skipped, his stones stay where the others may
capture them (a team-mate may not jump them), he ranks last; ``fast`` goes on until one
seat is left; ``teams`` keep their rules (the partner plays on, the team's result is both
partners')."""

from __future__ import annotations

import random

import pytest

import rules
from rules.alquerque_grande import AlquerqueGrandePosition
from tests.rules.test_alquerque_grande import G, at, gpos, moves, play

W, T, B, R = 0, 1, 2, 3


def skip(p: rules.Position, seat: int) -> AlquerqueGrandePosition:
    after = G.skip_seat(p, seat)
    assert isinstance(after, AlquerqueGrandePosition)
    assert G.from_text(after.to_text()) == after  # the text keeps the skipped seats
    return after


@pytest.mark.parametrize("key", sorted(rules.VARIANTS))
def test_a_two_seat_game_cannot_skip_a_seat(key: str) -> None:
    v = rules.variant(key)
    starts = [v.start(**o) for o in v.example_options]
    for p in (s for s in starts if s.seat_count == 2):
        assert p.skipped_seats() == frozenset()
        with pytest.raises(rules.SeatSkipError) as info:
            v.skip_seat(p, 1)
        assert isinstance(info.value, ValueError) and isinstance(info.value, rules.RulesError)
        assert info.value.code == "no_seat_skipping"
        assert info.value.params["game"] == key


def test_skipping_the_seat_to_move_passes_the_turn_and_leaves_the_position_as_it_was() -> None:
    p = G.start(mode="fast")
    after = skip(p, W)
    assert p.skipped_seats() == frozenset() and p.to_move == {W}  # p unchanged
    assert after.to_move == {T} and after.skipped_seats() == {W} == after.out_seats()
    assert at(after) == at(p) and after.outcome() is None
    assert after.to_text().split()[4] == "w"
    # a seat that is not to move: the turn stays where it was
    other = skip(p, B)
    assert other.to_move == {W} and other.to_text().split()[4] == "b"


def test_turn_order_never_comes_back_to_a_skipped_seat() -> None:
    rng = random.Random(43)
    for mode in ("fast", "slow", "teams"):
        for game in range(6):
            p: rules.Position = G.start(mode=mode)
            for _ in range(rng.randrange(0, 12)):
                if p.outcome() is not None:
                    break
                p = p.play(rng.choice(list(p.legal_moves())))
            if p.outcome() is not None:
                continue
            gone = rng.choice(sorted(set(range(4)) - p.out_seats()))
            p = skip(p, gone)
            for _ in range(150):
                if p.outcome() is not None:
                    break
                assert gone not in p.to_move, (mode, game)
                p = p.play(rng.choice(list(p.legal_moves())))
                assert G.from_text(p.to_text()).to_text() == p.to_text()
                assert gone in p.skipped_seats() and gone in p.out_seats()
            outcome = p.outcome()
            if outcome is not None and mode != "teams":
                assert gone in outcome.ranking[-1], (mode, game, outcome)
                assert gone not in outcome.winners


def test_a_skipped_seats_stones_stay_and_the_others_capture_them() -> None:
    p = gpos({"W": "c3 a1", "T": "g7", "B": "e7", "R": "d4 a7"}, "r", mode="fast")
    after = skip(p, R)
    assert after.to_move == {W}
    assert at(after)["d4"] == "R"  # the stone on d4 is still there
    assert "c3xe5" in moves(after)  # ... and White may capture it
    taken = play(after, "c3xe5")
    assert "d4" not in at(taken) and taken.captured_counts()[W] == 1


def test_emptying_a_skipped_seat_does_not_end_fast_and_he_ranks_last() -> None:
    p = gpos({"W": "c3 a1", "T": "g7 g6", "B": "e7 d7", "R": "d4"}, "r", mode="fast",
             captures="0,0,0,5")
    after = play(skip(p, R), "c3xe5")  # Red's last stone goes: the game goes on
    assert after.outcome() is None and after.to_move == {T}
    assert R not in {piece.seat for piece in after.pieces().values()}
    # the game ends by the fast rules among those who play: Red led on captures (5)
    # but ranks last
    ended = G.resign(after, T)
    assert isinstance(ended, AlquerqueGrandePosition)
    outcome = ended.outcome()
    assert outcome is not None and outcome.ranking[-1] == {R}
    assert R not in outcome.winners


def test_fast_ends_when_one_seat_is_left_and_he_wins() -> None:
    p = skip(skip(G.start(mode="fast"), T), W)
    assert p.outcome() is None and p.to_move == {B}
    last = skip(p, R)
    outcome = last.outcome()
    assert outcome is not None and outcome.reason == "last-player"
    assert outcome.winners == {B} and outcome.ranking == ({B}, {W, T, R})
    assert G.from_text(last.to_text()).outcome() == outcome


def test_the_fast_limit_counts_only_the_seats_that_play() -> None:
    stones = {"W": "a1", "T": "g1", "B": "g7", "R": "a7"}
    # 50 rounds of the three seats left: 150 quiet moves end the game, 149 do not
    p = skip(gpos(stones, "w", mode="fast", quiet=148), R)
    p = play(p, "a1-b1")
    assert p.outcome() is None
    p = play(p, "g1-f1")
    outcome = p.outcome()
    assert outcome is not None and outcome.reason == "move-limit"
    assert outcome.ranking[-1] == {R}


def test_slow_keeps_a_skipped_seats_stones_and_ranks_him_below_the_eliminated() -> None:
    p = G.start(mode="slow")
    resigned = G.resign(p, R)
    assert isinstance(resigned, AlquerqueGrandePosition)
    assert R not in {x.seat for x in resigned.pieces().values()}  # resigning removes them
    skipped = skip(p, R)
    assert at(skipped) == at(p)  # skipping keeps them
    # Red skipped, then Turquoise resigns (eliminated): Red still ranks last
    later = G.resign(skipped, T)
    assert isinstance(later, AlquerqueGrandePosition)
    assert later.to_text().split()[4] == "T,r"
    ended = G.resign(later, B)
    assert isinstance(ended, AlquerqueGrandePosition)
    outcome = ended.outcome()
    assert outcome is not None and outcome.reason == "last-player"
    assert outcome.ranking == ({W}, {B}, {T}, {R})


def test_the_slow_limit_ranks_a_skipped_seat_last_whatever_his_stones() -> None:
    stones = {"W": "a1", "T": "g1", "B": "g7", "R": "a7 b7 c7"}
    p = skip(gpos(stones, "w", mode="slow", quiet=148), R)
    p = play(p, "a1-b1", "g1-f1")
    outcome = p.outcome()
    assert outcome is not None and outcome.reason == "move-limit"
    assert outcome.ranking == ({W, T, B}, {R})


def test_teams_keep_their_rules_the_partner_plays_on() -> None:
    p = gpos({"W": "c3", "T": "g7", "B": "d4", "R": "e5 a7"}, "w", mode="teams")
    after = skip(p, B)
    assert after.to_move == {W} and after.outcome() is None
    assert "c3xe5" not in moves(after)  # White may still not jump his partner's stone
    # the other team may capture it
    q = skip(gpos({"W": "a1", "T": "g7", "B": "d4", "R": "c3 a7"}, "r", mode="teams"), B)
    assert "c3xe5" in moves(q)
    # both partners gone: the other team wins, the skipped seat's result is his team's
    both = skip(after, W)
    outcome = both.outcome()
    assert outcome == rules.Outcome.win({T, R}, seats=4, reason="resignation")


@pytest.mark.parametrize(("seat", "code"), [
    (4, "no_such_seat"), (-1, "no_such_seat"), (True, "no_such_seat"), ("1", "no_such_seat"),
])
def test_a_seat_that_is_none_is_refused(seat: object, code: str) -> None:
    with pytest.raises(rules.SeatSkipError) as info:
        G.skip_seat(G.start(mode="fast"), seat)  # type: ignore[arg-type]
    assert info.value.code == code


def test_a_seat_out_already_or_a_finished_game_is_refused() -> None:
    p = skip(G.start(mode="slow"), T)
    with pytest.raises(rules.SeatSkipError, match="Turquoise is out already"):
        G.skip_seat(p, T)
    resigned = G.resign(G.start(mode="teams"), R)
    assert isinstance(resigned, AlquerqueGrandePosition)
    with pytest.raises(rules.SeatSkipError, match="Red is out already"):
        G.skip_seat(resigned, R)
    over = G.resign(G.start(mode="fast"), W)
    assert isinstance(over, AlquerqueGrandePosition) and over.outcome() is not None
    with pytest.raises(rules.SeatSkipError) as info:
        G.skip_seat(over, T)
    assert info.value.code == "game_over"


@pytest.mark.parametrize("out", [
    "tR",  # a group mixing cases
    "t,R",  # the skipped group not last
    "tt",  # a seat skipped twice
    "R,r",  # out and skipped at once
    "x",  # no seat letter
    "T",  # fast has no seats out but skipped ones
])
def test_position_texts_with_bad_skipped_groups_are_refused(out: str) -> None:
    with pytest.raises(rules.PositionError):
        gpos({"W": "a1", "T": "g1", "B": "g7", "R": "a7"}, "w", mode="fast", out=out)


def test_two_players_have_no_skipped_group() -> None:
    with pytest.raises(rules.PositionError):
        gpos({"W": "a1", "B": "g7"}, "w", players=2, out="b")


def test_a_skipped_seat_may_keep_stones_in_slow_but_an_eliminated_one_may_not() -> None:
    stones = {"W": "a1", "T": "g1", "B": "g7", "R": "a7"}
    assert gpos(stones, "w", mode="slow", out="r").skipped_seats() == {R}
    with pytest.raises(rules.PositionError):
        gpos(stones, "w", mode="slow", out="R")
