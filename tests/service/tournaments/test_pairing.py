"""Round robin (Berger tables), Swiss specifics, knockout brackets and the formats."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest

from locales.i18n import render
from service import tournaments
from service.tournaments import (
    Format,
    Game,
    Result,
    TournamentError,
    bracket_order,
    check_players,
    check_seat_count,
    colour_states,
    forfeit_unfinished,
    knockout_round,
    next_replay,
    parse_format,
    round_robin,
    swiss_round,
    tie_winner,
    timed_out_twice,
)

# FIDE Handbook C.05, Annex 1: the Berger table for 5 or 6 players (seat 0 first).
BERGER_6 = [
    {(1, 6), (2, 5), (3, 4)},
    {(6, 4), (5, 3), (1, 2)},
    {(2, 6), (3, 1), (4, 5)},
    {(6, 5), (1, 4), (2, 3)},
    {(3, 6), (4, 2), (5, 1)},
]


def pairs(rnd: list[Game]) -> set[tuple[int, int | None]]:
    return {(g.first, g.second) for g in rnd}


def colour_runs(rounds: list[list[Game]]) -> dict[int, list[int]]:
    hist: dict[int, list[int]] = {}
    for rnd in rounds:
        for g in rnd:
            if g.second is not None:
                hist.setdefault(g.first, []).append(0)
                hist.setdefault(g.second, []).append(1)
    return hist


def longest_run(h: list[int]) -> int:
    best = run = 0
    for i, c in enumerate(h):
        run = run + 1 if i and h[i - 1] == c else 1
        best = max(best, run)
    return best


def test_round_robin_follows_the_fide_berger_table() -> None:
    assert [pairs(r) for r in round_robin([1, 2, 3, 4, 5, 6])] == BERGER_6


def test_round_robin_with_an_odd_count_rests_each_player_once() -> None:
    rounds = round_robin([1, 2, 3, 4, 5])
    assert [pairs(r) - {(p, None) for p in range(1, 6)} for r in rounds] == \
        [{(a, b) for a, b in r if 6 not in (a, b)} for r in BERGER_6]
    rests = Counter(g.first for r in rounds for g in r if g.second is None)
    assert rests == dict.fromkeys(range(1, 6), 1)
    assert all(g.result is Result.REST for r in rounds for g in r if g.second is None)


@pytest.mark.parametrize("n", range(2, 15))
@pytest.mark.parametrize("double", [False, True])
def test_round_robin_meets_everyone_with_balanced_colours(n: int, double: bool) -> None:
    players = [100 + 7 * i for i in range(n)]  # ids unrelated to Berger numbers
    rounds = round_robin(players, double=double)
    assert len(rounds) == (n - 1 + n % 2) * (2 if double else 1)
    meetings = Counter(frozenset(g.players) for r in rounds for g in r if g.second)
    assert set(meetings.values()) == {2 if double else 1}
    assert len(meetings) == n * (n - 1) // 2
    for r in rounds:
        assert sorted(p for g in r for p in g.players) == sorted(players)
    for player, h in colour_runs(rounds).items():
        diff = h.count(0) - h.count(1)
        assert diff == 0 if double else abs(diff) <= 1, (player, h)
        if double:
            assert longest_run(h) <= 2, (player, h)
    if double:  # each pair once with each colour
        seats = Counter((g.first, g.second) for r in rounds for g in r if g.second)
        assert set(seats.values()) == {1}


def test_round_robin_refuses_bad_lists() -> None:
    with pytest.raises(TournamentError):
        round_robin([1])
    with pytest.raises(TournamentError) as e:
        round_robin([1, 2, 1])
    assert e.value.value == [1, 2, 1]


def test_swiss_round_one_is_top_half_against_bottom_half_alternating_colours() -> None:
    r1 = swiss_round([1, 2, 3, 4, 5, 6, 7, 8], [], 1)
    assert [(g.first, g.second) for g in r1] == [(1, 5), (6, 2), (3, 7), (8, 4)]


def test_swiss_gives_the_bye_to_the_lowest_score_and_never_twice() -> None:
    players = [1, 2, 3, 4, 5]
    games = [Game(1, 1, 4, Result.FIRST_WINS), Game(1, 5, 2, Result.SECOND_WINS),
             Game(1, 3, None, Result.BYE)]
    r2 = swiss_round(players, games, 2)
    bye = [g.first for g in r2 if g.second is None]
    assert bye in ([4], [5])  # a zero, never player 3 again
    assert sorted(tuple(sorted(g.players)) for g in r2 if g.second) != []


def test_swiss_repeats_a_pairing_only_when_nothing_else_is_possible() -> None:
    games = [Game(1, 1, 2, Result.DRAW)]
    r2 = swiss_round([1, 2], games, 2)
    assert [sorted(g.players) for g in r2] == [[1, 2]]
    assert (r2[0].first, r2[0].second) == (2, 1)  # and the colours alternate


def test_swiss_skips_withdrawn_players_and_needs_a_finished_round() -> None:
    games = [Game(1, 1, 2, Result.DRAW), Game(1, 3, 4)]
    with pytest.raises(TournamentError, match="not finished"):
        swiss_round([1, 2, 3, 4], games, 2)
    games[1] = Game(1, 3, 4, Result.FIRST_WINS)
    r2 = swiss_round([1, 2, 3, 4], games, 2, withdrawn={4})
    assert sorted(p for g in r2 for p in g.players) == [1, 2, 3]


def test_colour_state_reads_limits() -> None:
    games = [Game(1, 1, 2, Result.DRAW), Game(2, 1, 3, Result.DRAW),
             Game(3, 4, 1, Result.FIRST_WINS_FORFEIT)]  # a forfeit has no colour
    s = colour_states(games)[1]
    assert (s.diff, s.history, s.must()) == (2, (0, 0), 1)
    assert not s.allows(0) and s.allows(1)


def test_withdrawals_forfeit_their_unfinished_games_only() -> None:
    games = [Game(1, 1, 2, Result.DRAW), Game(2, 1, 3), Game(2, 4, 2), Game(3, 1, 2)]
    out = forfeit_unfinished(games, {1, 2})
    assert [g.result for g in out] == [Result.DRAW, Result.SECOND_WINS_FORFEIT,
                                       Result.FIRST_WINS_FORFEIT, Result.BOTH_FORFEIT]
    assert out[1].points_of(3) == 1.0 and out[3].points_of(1) == out[3].points_of(2) == 0


def test_two_timeouts_withdraw_a_player() -> None:
    one = [Game(1, 1, 2, Result.SECOND_WINS, timed_out=1)]
    assert timed_out_twice(one) == frozenset()
    two = [*one, Game(2, 3, 1, Result.FIRST_WINS, timed_out=1)]
    assert timed_out_twice(two) == {1}


def test_bracket_order_keeps_top_seeds_apart() -> None:
    assert bracket_order(4) == [0, 3, 1, 2]
    order = bracket_order(16)
    assert sorted(order) == list(range(16))
    # seeds 0 and 1 are in different halves, 0-3 in different quarters
    assert {order.index(s) // 8 for s in (0, 1)} == {0, 1}
    assert {order.index(s) // 4 for s in (0, 1, 2, 3)} == {0, 1, 2, 3}
    with pytest.raises(TournamentError):
        bracket_order(6)


def test_knockout_runs_to_a_champion_with_drawn_games_replayed_swapped() -> None:
    players = [11, 12, 13, 14, 15]  # seeding order; 3 byes in a bracket of 8
    r1 = knockout_round(players, [], 1)
    assert sorted(g.first for g in r1 if g.second is None) == [11, 12, 13]
    [tie] = [g for g in r1 if g.second is not None]
    assert (tie.first, tie.second) == (14, 15)  # the higher seed sits first
    drawn = Game(1, 14, 15, Result.DRAW)
    assert tie_winner([drawn]) is None
    again = next_replay([drawn])
    assert again is not None and (again.first, again.second, again.replay) == (15, 14, 1)
    won = Game(1, 15, 14, Result.SECOND_WINS, replay=1)
    assert tie_winner([drawn, won]) == 14 and next_replay([drawn, won]) is None
    games = [g for g in r1 if g.second is None] + [drawn, won]
    with pytest.raises(TournamentError, match="not decided"):
        knockout_round(players, [*games[:-1]], 2)
    r2 = knockout_round(players, games, 2)
    assert {frozenset(g.players) for g in r2} == {frozenset({11, 14}), frozenset({12, 13})}
    games += [Game(2, 11, 14, Result.SECOND_WINS), Game(2, 12, 13, Result.FIRST_WINS)]
    [final] = knockout_round(players, games, 3)
    assert (final.first, final.second) == (12, 14)
    games.append(Game(3, 12, 14, Result.SECOND_WINS))
    with pytest.raises(TournamentError, match="over"):
        knockout_round(players, games, 4)
    # a draw agreed before every player had moved decides no tie either: played again
    early = Game(1, 14, 15, Result.DRAW_UNPLAYED)
    assert tie_winner([early]) is None and next_replay([early]) == again
    table = tournaments.standings(players, games, Format.KNOCKOUT)
    assert table[0].player == 14 and table[1].player == 12


def test_formats_and_creation_checks() -> None:
    assert parse_format("RR") is Format.ROUND_ROBIN
    assert parse_format("double-round-robin") is Format.DOUBLE_ROUND_ROBIN
    with pytest.raises(TournamentError, match="no tournament format 'arena'"):
        parse_format("arena")
    check_seat_count(2, "Xiangqi")
    with pytest.raises(TournamentError, match="two-player games: Alquerque grande for 4"):
        check_seat_count(4, "Alquerque grande")


def test_a_four_player_game_refused_says_how_to_choose_it_in_any_client() -> None:
    """The refusal names no console syntax (``players=2``): Discord's game menu has no
    such thing; "for 2 players" reads right in the console and in the menu alike."""
    with pytest.raises(TournamentError) as refused:
        check_seat_count(4, "Alquerque grande")
    assert "choose it for 2 players" in str(refused.value)
    for locale, said in (("de", "wähle es für 2 Spieler"), ("zh-CN", "选择 2 人玩法")):
        text = render(refused.value.text, locale)
        assert said in text and "players=" not in text, text
    check_players(Format.SWISS, 8, 5)
    with pytest.raises(TournamentError, match="at least 2"):
        check_players(Format.ROUND_ROBIN, 1)
    with pytest.raises(TournamentError, match="1 to 30 rounds"):
        check_players(Format.SWISS, 8, 0)


def test_networkx_is_loaded_by_a_swiss_round_only() -> None:
    """No product module imports networkx at its top (a line of its own, unindented):
    every process that imports the service (the bot, its engine workers, each command)
    would load it, 0.2 s of CPU time each, and only ``swiss_round`` needs it."""
    root = Path(__file__).resolve().parents[3]
    top = re.compile(r"^(import|from) networkx\b", re.MULTILINE)
    found = [str(path.relative_to(root))
             for package in ("rules", "engine", "render", "service", "storage", "bot",
                             "locales")
             for path in sorted((root / package).rglob("*.py"))
             if top.search(path.read_text("utf-8"))]
    assert found == []
    assert top.search("import re\nimport networkx as nx\n")
    assert not top.search("def f():\n    import networkx as nx\n")
