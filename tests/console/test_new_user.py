"""Issue 21 in the console (defects 4-6 and the clarity items): bad setting values,
repeated options, pages out of range and over-long names are refused with what is
accepted; ``=`` works like ``:``; ``/rules``; ``/moves`` says how many there are and keeps
Xiangqi's cannon moves; ladders show ``?`` and say what the number means; the Querni
``arrangement`` option is not advertised."""

from __future__ import annotations

import pytest

from locales.summaries import plain
from service.views import RATING_MEANING
from tests.console.test_messages import after, play


@pytest.mark.parametrize(("line", "said"), [
    ("/settings reminders:maybe", "! reminders must be on or off, not 'maybe'"),
    ("/settings threads:banana", "! threads must be on or off, not 'banana'"),
    ("/settings reminders:on reminders:off", "! reminders is given twice: say it once"),
    ("/settings colour:red", "! unknown setting 'colour' (settings: days, reminders, "
                             "threads, language, clock, claim_win, vacation, "
                             "auto_vacation, takebacks_rated, web, weekends, pauses, "
                             "seasons, timezone)"),
    ("/settings weekends:sometimes", "! weekends must be on or off, not 'sometimes'"),
    ("/settings pauses:11", "! pauses in a rated match must be from 0 to 10"),
    ("/settings pauses:-1", "! pauses is a number of pauses a rated match allows, from 0 "
                            "to 10"),
    ("/settings timezone:Europe/Nowhere", "! “Europe/Nowhere” is not a time zone: give its "
                                          "IANA name, such as Europe/Madrid or "
                                          "America/New_York"),
    ("/settings clock:3d+1d/2d", "! the cap (2 days) must be at least the starting bank "
                                 "(3 days)"),
    ("/settings vacation:99", "! the yearly vacation must be from 0 to 60 days"),
])
async def test_bad_setting_values_are_refused_and_change_nothing(line: str, said: str) -> None:
    out = await play(f"as alice\n/settings reminders:on threads:on\n{line}\n/settings")
    assert after(out, line).strip() == said
    assert after(out, "/settings").strip() == \
        "settings: 3 days per move, reminders on, threads on, claim win on time off, " \
        "14 days of vacation a year, automatic vacation off"


@pytest.mark.parametrize("line", [
    "/challenge @bob xiangqi seat:red seat:black",
    "/challenge alquerque-grande mode:teams mode:fast",
    "/challenge alquerque-grande mode=teams mode:fast",
    "/challenge @bob xiangqi days:3 days=4",
])
async def test_a_repeated_option_is_refused(line: str) -> None:
    out = await play(f"as alice\n{line}\n/games")
    assert after(out, line).strip().endswith("is given twice: say it once")
    assert after(out, "/games").strip() == "no live matches (/challenge someone)"


async def test_options_are_written_with_a_colon_or_an_equals_sign() -> None:
    out = await play("as alice\n/challenge alquerque-grande players=4 mode=slow days=5\n")
    made = after(out, "/challenge alquerque-grande players=4 mode=slow days=5")
    assert "created #1 Alquerque grande players:4 mode:slow" in made
    assert "5d/move" in made


@pytest.mark.parametrize("page", ["-1", "abc", "0", "99", "99999999999999999999", "２"])
async def test_every_page_out_of_range_is_refused_alike(page: str) -> None:
    out = await play(f"as alice\n/leaderboard xiangqi {page}")
    assert after(out, f"/leaderboard xiangqi {page}").strip() == \
        f"! there is no page {page!r}: pages go from 1 to 1"


async def test_console_names_are_capped_like_discord() -> None:
    out = await play(f"as {'a' * 32}\nas {'b' * 33}\n/challenge @{'c' * 40} xiangqi")
    assert after(out, f"as {'a' * 32}").strip() == f"you are {'a' * 32}"
    assert after(out, f"as {'b' * 33}").strip() == \
        "! names are at most 32 characters (33 given)"
    assert after(out, f"/challenge @{'c' * 40} xiangqi").strip() == \
        "! names are at most 32 characters (40 given)"


async def test_rules_explains_each_game_and_the_four_player_modes() -> None:
    out = await play("/rules alquerque-grande\n/rules xiangqi\n/rules chess")
    grande = after(out, "/rules alquerque-grande")
    for mode in ("teams:", "fast:", "slow:"):
        assert mode in grande
    assert "**" not in grande and "`" not in grande
    assert "Red moves first" in after(out, "/rules xiangqi")
    assert after(out, "/rules chess").startswith("! there is no game called 'chess'")


async def test_moves_says_how_many_and_keeps_the_common_opening_moves() -> None:
    out = await play("as alice\n/challenge @bob xiangqi seat:red\nas bob\n/accept\n"
                     "as alice\n/moves")
    listed, count = after(out, "/moves").strip().split("\n")
    assert len(listed.split(", ")) == 25 and "h3-e3 (C2.5)" in listed
    assert count == "25 of 44, type a prefix to narrow (/moves h3)"


async def test_ladders_show_provisional_players_and_what_the_number_means() -> None:
    out = await play("as alice\n/challenge @bob xiangqi seat:red\nas bob\n/accept\n"
                     "as alice\n/move h3-e3\nas bob\n/move h8-e8\n/resign\n"
                     "/leaderboard xiangqi\n/stats alice")
    board = after(out, "/leaderboard xiangqi")
    assert "alice" in board and "?" in board.split("\n")[1]
    assert plain(RATING_MEANING.render("en-US")) in board
    assert "?" in after(out, "/stats alice")


async def test_games_list_does_not_advertise_what_challenge_refuses() -> None:
    out = await play("/games-list")
    assert "arrangement" not in after(out, "/games-list")
    assert "setup:random|choose" in after(out, "/games-list")


async def test_team_mates_are_shown_from_the_start() -> None:
    out = await play("as alice\n/challenge @bob @carol @dave alquerque-grande players:4 "
                     "mode:teams seat:white\nas bob\n/accept\nas carol\n/accept\nas dave\n"
                     "/accept\n/games")
    games = after(out, "/games")
    assert games.count("(with ") == 4
    mates = {line.split(": ")[1].split(" (with ")[0]: line.split(" (with ")[1].split(")")[0]
             for line in games.split(" - ")[1].split("; ")}
    assert mates["alice"] in ("bob", "carol", "dave") and mates[mates["alice"]] == "alice"
