"""Standings and tie-breaks, worked out by hand."""

from __future__ import annotations

from service.tournaments import Format, Game, Result, standings

W, D, L = Result.FIRST_WINS, Result.DRAW, Result.SECOND_WINS


def test_round_robin_sonneborn_berger_breaks_a_tie() -> None:
    # 4 players. A beats B, draws C, loses to D -> 1.5; B loses to A, beats C and D -> 2;
    # C draws A, loses B, beats D -> 1.5; D beats A, loses B, loses C -> 1.
    a, b, c, d = 1, 2, 3, 4
    games = [Game(1, a, b, W), Game(1, c, d, W), Game(2, a, c, D), Game(2, b, d, W),
             Game(3, d, a, W), Game(3, b, c, W)]
    rows = standings([a, b, c, d], games, Format.ROUND_ROBIN)
    by = {r.player: r for r in rows}
    assert [r.player for r in rows] == [b, a, c, d]
    assert (by[b].points, by[a].points, by[c].points, by[d].points) == (2.0, 1.5, 1.5, 1.0)
    # SB(A) = B's 2 (beaten) + C's 1.5 / 2 = 2.75; SB(C) = D's 1 + A's 1.5 / 2 = 1.75
    assert by[a].tiebreaks == (2.75, 1.0) and by[c].tiebreaks == (1.75, 1.0)
    assert [r.place for r in rows] == [1, 2, 3, 4]
    assert (by[a].played, by[a].wins, by[a].draws, by[a].losses) == (3, 1, 1, 1)


def test_swiss_buchholz_median_and_wins_with_a_bye_against_a_virtual_opponent() -> None:
    # round 1: 1-2 1-0, 3-4 1/2, 5 bye; round 2: 3-1 0-1, 5-4 1-0, 2 bye
    games = [Game(1, 1, 2, W), Game(1, 3, 4, D), Game(1, 5, None, Result.BYE),
             Game(2, 3, 1, L), Game(2, 5, 4, W), Game(2, 2, None, Result.BYE)]
    rows = standings([1, 2, 3, 4, 5], games, Format.SWISS, withdrawn={4})
    by = {r.player: r for r in rows}
    pts = {p: by[p].points for p in by}
    assert pts == {1: 2.0, 2: 1.0, 3: 0.5, 4: 0.5, 5: 2.0}
    # Buchholz(1) = 2's 1 + 3's 0.5. FIDE's virtual opponent of 5's round-1 bye: 0 points
    # before it + 0 (5 scored the point) + a draw in round 2 = 0.5; + 4's 0.5. Of 2's
    # round-2 bye (the round being played): 0 + 0 + nothing yet = 0; + 1's 2
    assert by[1].tiebreaks == (1.5, 0.0, 2.0)
    assert by[5].tiebreaks == (1.0, 0.0, 1.0)
    assert by[2].tiebreaks == (2.0, 0.0, 0.0)
    assert [r.player for r in rows[:2]] == [1, 5]  # the bye no longer lifts 5 above 1
    assert by[4].withdrawn and not by[1].withdrawn
    assert (by[5].played, by[5].wins, by[5].byes) == (1, 1, 1)  # the bye: its own column


def test_median_buchholz_drops_the_best_and_worst_opponent() -> None:
    games = [Game(1, 1, 2, W), Game(1, 3, 4, W), Game(2, 1, 3, D), Game(2, 2, 4, W),
             Game(3, 4, 1, L), Game(3, 2, 3, D)]
    rows = standings([1, 2, 3, 4], games, Format.SWISS)
    by = {r.player: r for r in rows}
    # 1: 2.5 (opp 2: 1.5, 3: 2, 4: 0); Buchholz 3.5, median 1.5 (only 2's)
    assert by[1].points == 2.5 and by[1].tiebreaks == (3.5, 1.5, 2.0)


def test_level_players_share_a_place_and_unfinished_games_do_not_count() -> None:
    games = [Game(1, 1, 2, D), Game(1, 3, 4, D), Game(2, 1, 3)]
    rows = standings([1, 2, 3, 4], games, Format.ROUND_ROBIN)
    assert {r.place for r in rows} == {1}
    assert all(r.points == 0.5 and r.played == 1 for r in rows)


def test_forfeits_score_but_count_as_unplayed_in_tiebreaks() -> None:
    games = [Game(1, 1, 2, Result.FIRST_WINS_FORFEIT), Game(1, 3, 4, W), Game(2, 1, 3, D),
             Game(2, 2, 4, Result.SECOND_WINS_FORFEIT)]
    rows = standings([1, 2, 3, 4], games, Format.ROUND_ROBIN, withdrawn={2})
    by = {r.player: r for r in rows}
    assert by[1].points == 1.5 and by[1].played == 1 and by[1].draws == 1
    assert by[1].wins == 0 and by[1].forfeits_won == 1  # W counts games over the board
    # SB(1): the forfeit is a win over FIDE's virtual opponent (0 before round 1, 0 for
    # the round it lost, a draw in round 2: 0.5) -> 0.5 + 3's 1.5 / 2; the Wins
    # tie-break counts the forfeit win
    assert by[1].tiebreaks == (0.5 + 0.75, 1.0)
    assert by[2].points == 0 and by[2].losses == 0 and by[2].forfeits_lost == 2
    assert by[2].played == 0


def test_a_knockout_won_by_forfeits_shows_no_games_played() -> None:
    """Issue 38: a row read "Games 0, W 2" when both rounds were won by forfeit."""
    games = [Game(1, 1, 2, Result.FIRST_WINS_FORFEIT), Game(1, 3, 4, W),
             Game(2, 1, 3, Result.FIRST_WINS_FORFEIT)]
    rows = standings([1, 2, 3, 4], games, Format.KNOCKOUT)
    first = rows[0]
    assert first.player == 1 and first.points == 2.0
    assert (first.played, first.wins, first.forfeits_won) == (0, 0, 2)
    assert first.played == first.wins + first.draws + first.losses
    third = {r.player: r for r in rows}[3]
    assert (third.played, third.wins, third.forfeits_lost) == (1, 1, 1)


def test_an_early_agreed_draw_scores_a_half_but_is_no_game_played() -> None:
    """A draw agreed before every player had moved (``Result.DRAW_UNPLAYED``): half a
    point each, counted apart from the games played (W + D + L stays the games played),
    weighed against FIDE's virtual opponent in the tie-breaks, and no colour."""
    games = [Game(1, 1, 2, Result.DRAW_UNPLAYED), Game(1, 3, 4, W), Game(2, 1, 3, W),
             Game(2, 2, 4, D)]
    rows = standings([1, 2, 3, 4], games, Format.SWISS)
    by = {r.player: r for r in rows}
    assert by[1].points == 1.5 and by[2].points == 1.0
    assert (by[1].played, by[1].wins, by[1].draws, by[1].draws_unplayed) == (1, 1, 0, 1)
    assert (by[2].played, by[2].draws, by[2].draws_unplayed) == (1, 1, 1)
    # Buchholz(1): 3's 1 + the virtual opponent of round 1 (0 before + the half not
    # scored + a draw in round 2) = 1 + 1.0
    assert by[1].tiebreaks[0] == 2.0
    assert games[0].colour_of(1) is None and games[0].colour_of(2) is None
    assert Game(1, 1, 2, D).colour_of(1) == 0  # a draw over the board gives colours
