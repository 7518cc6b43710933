"""An option's value outside the ones it takes is refused by the option's name, never read
as one of them: ``rated:maybe`` made a rated match, ``/stats game:xiangqi`` showed a
player called "game:xiangqi", ``/tournament create ... rated:no`` was refused as an
option of the game, ``/fill levle:3`` filled at level 5, ``/challenge @computer ...
clock:...`` dropped the clock in silence, ``/sweep +1e2`` moved a hundred days. The
documented values keep working as before."""

from __future__ import annotations

import asyncio
import io

import pytest

from bot.console import open_console
from storage import MemoryRepository
from tests.console.test_computer import session as with_computer
from tests.console.test_messages import after, play


@pytest.mark.parametrize("value", ["maybe", "0", "1", "si", "rated"])
async def test_challenge_refuses_a_rated_value_it_does_not_take(value: str) -> None:
    command = f"/challenge @bob xiangqi rated:{value}"
    out = await play(f"as alice\n{command}\n/games")
    assert after(out, command).strip() == f"! rated must be yes or no, not '{value}'"
    assert "#1" not in after(out, "/games")  # nothing was created


@pytest.mark.parametrize(("words", "terms"), [
    ("rated:no", "casual"), ("rated=false", "casual"), ("rated:off", "casual"),
    ("rated:NO", "casual"), ("casual", "casual"), ("unrated", "casual"),
    ("rated:yes", "rated"), ("rated:true", "rated"), ("rated:on", "rated"),
    ("rated", "rated"), ("", "rated")])
async def test_the_documented_rated_values_keep_their_meaning(words: str, terms: str) -> None:
    command = f"/challenge @bob xiangqi {words}".strip()
    out = await play(f"as alice\n{command}")
    assert f"created #1 Xiangqi ({terms}, 3d/move)" in after(out, command)


async def test_claim_is_refused_by_name_as_before() -> None:
    out = await play("as alice\n/challenge @bob xiangqi claim:perhaps")
    assert after(out, "/challenge @bob xiangqi claim:perhaps").strip() == \
        "! claim must be yes or no, not 'perhaps'"


def _tournament(lines: list[str]) -> tuple[str, bool | None]:
    """What the console said, and whether tournament #1 (if any) is rated."""
    async def run() -> tuple[str, bool | None]:
        out = io.StringIO()
        console = open_console(MemoryRepository(), out)
        for line in lines:
            out.write(f"> {line}\n")
            await console.handle(line)
        found = await console.service.tournaments(1)
        return out.getvalue(), (found[-1].rated if found else None)
    return asyncio.run(run())


@pytest.mark.parametrize(("words", "rated"), [
    ("rated:no", False), ("rated=false", False), ("casual", False), ("rated:yes", True),
    ("", True), ("rated", True), ("rated:yes casual", False)])
def test_tournament_create_reads_rated_as_challenge_does(words: str, rated: bool) -> None:
    out, found = _tournament(["as alice", f"/tournament create xiangqi rr {words}"])
    assert "created tournament #1" in out
    assert found is rated


@pytest.mark.parametrize(("option", "value"), [
    ("rated", "maybe"), ("claim", "later"), ("vacation", "2")])
def test_tournament_create_refuses_a_yes_no_value_it_does_not_take(option: str,
                                                                   value: str) -> None:
    command = f"/tournament create xiangqi rr {option}:{value}"
    out, found = _tournament(["as alice", command])
    assert after(out, command).strip() == f"! {option} must be yes or no, not '{value}'"
    assert found is None


@pytest.mark.parametrize("option", ["game:xiangqi", "game=xiangqi", "page:2", "season:1"])
async def test_stats_refuses_an_option_it_does_not_take(option: str) -> None:
    """/stats shows one player's results and his rank on every ladder: it takes no game
    (the option was read as a player's name)."""
    out = await play(f"as alice\n/stats {option}")
    name = option.split(":")[0].split("=")[0]
    assert after(out, f"/stats {option}").strip() == \
        f"! /stats takes no option {name}: it shows a player's results and their rank " \
        "in every game (/stats [@user])"


async def test_stats_takes_one_player_at_most() -> None:
    out = await play("as alice\n/stats @alice @bob\n/stats alice\n/stats player:bob\n/stats")
    assert after(out, "/stats @alice @bob").strip() == \
        "! /stats [@user]: one player at most, not '@alice @bob'"
    assert after(out, "/stats alice").strip() == "alice: 0W 0L 0D, 0 active"
    assert after(out, "/stats player:bob").strip() == "bob: 0W 0L 0D, 0 active"
    assert after(out, "/stats").strip() == "alice: 0W 0L 0D, 0 active"


@pytest.mark.parametrize(("words", "option"), [
    ("clock:3d+1d/10d", "clock"), ("claim:yes", "claim"), ("weekends:off", "weekends"),
    ("on_timeout:end", "on_timeout"), ("rated:yes", "rated"), ("rated", "rated")])
def test_a_game_with_the_computer_refuses_what_it_would_drop(words: str,
                                                             option: str) -> None:
    command = f"/challenge @computer xiangqi {words}"
    out = with_computer(["as alice", command, "/games"])
    assert after(out, command).strip() == \
        f"! a game against the computer takes no {option}: it is casual, paced by " \
        "days:N (/challenge @computer GAME [level:1-8] [days:N] [seat:NAME] " \
        "[option:value ...])"
    assert "#1" not in after(out, "/games")


def test_a_game_with_the_computer_still_takes_its_options() -> None:
    command = "/challenge @computer xiangqi level:2 days:4 seat:red casual rated:no"
    out = with_computer(["as alice", command])
    assert "created #1 Xiangqi (casual, 4d/move)" in after(out, command)


def test_fill_refuses_an_option_it_does_not_take() -> None:
    out = with_computer(["as alice", "/challenge alquerque-grande players:4",
                          "/fill levle:3", "/games"])
    assert after(out, "/fill levle:3").strip() == \
        "! /fill takes no option levle: /fill [#N] [level:1-8]"
    assert "Tablero" not in after(out, "/games")  # no seat was filled


@pytest.mark.parametrize("words", ["+1e2", "inf", "nan", "+1_0", "+٣", "+2 +3", "2x"])
async def test_sweep_refuses_days_it_does_not_take(words: str) -> None:
    out = await play(f"as alice\n/sweep {words}")
    assert after(out, f"/sweep {words}").strip() == "! /sweep +DAYS, e.g. /sweep +3"


@pytest.mark.parametrize("words", ["+2", "2", "+1.5", "+3d", "days:2", "+0", "+.5"])
async def test_sweep_takes_days_as_documented(words: str) -> None:
    out = await play(f"as alice\n/sweep {words}")
    assert after(out, f"/sweep {words}").strip() == "sweep: 0 events"


async def test_settings_language_keep_is_no_language() -> None:
    """"keep" was the service's word for "not given": typed, it changed nothing."""
    out = await play("as alice\n/settings language:keep\n/settings language:de")
    assert after(out, "/settings language:keep").strip() == \
        "! there is no language 'keep' (languages: en-US, en-GB, de, es-ES, es-419, " \
        "sv-SE, zh-CN, zh-TW)"
    assert after(out, "/settings language:de").startswith("Einstellungen:")


@pytest.mark.parametrize(("command", "refused"), [
    ("/history 1", "! a match is written with #: #1"),
    ("/history #2 x", "! there is no match x"),
    ("/analysis 1", "! a match is written with #: #1"),
    ("/analysis #1 #2", "! there is no match #2"),
    ("/resign 2", "! a match is written with #: #2")])
async def test_a_word_meant_as_the_match_is_refused(command: str, refused: str) -> None:
    """/history 3 and /analysis 3 showed the current match, not match 3."""
    out = await play("as alice\n/challenge @bob xiangqi\n/challenge @bob damas\nas bob\n"
                     f"/accept #1\n/accept #2\n{command}\n/history #1")
    assert after(out, command).strip() == refused
    assert "[Red \"alice\"]" in after(out, "/history #1")  # the match named with # shows


GAMES = "it lists your live matches"
NEXT = "it shows the next match waiting on you"
OPEN = "it lists the open challenges"


@pytest.mark.parametrize(("command", "refused"), [
    ("/games x", f"! /games takes nothing after it ('x'): {GAMES}"),
    ("/games 2", f"! /games takes no match: {GAMES}; /board #2 shows match #2"),
    ("/games #1", f"! /games takes no match: {GAMES}; /board #1 shows match #1"),
    ("/games match:1", f"! /games takes no match: {GAMES}; /board #1 shows match #1"),
    ("/games x:1", f"! /games takes nothing after it ('x:1'): {GAMES}"),
    ("/next x", f"! /next takes nothing after it ('x'): {NEXT}"),
    ("/next 2", f"! /next takes no match: {NEXT}; /board #2 shows match #2"),
    ("/next #2", f"! /next takes no match: {NEXT}; /board #2 shows match #2"),
    ("/open x", f"! /open takes nothing after it ('x'): {OPEN}"),
    ("/open #1", f"! /open takes no match: {OPEN}; /board #1 shows match #1")])
async def test_a_command_without_parameters_refuses_words(command: str,
                                                          refused: str) -> None:
    """/games x, /next 2 and /open x answered as if the word were not there (/next 2
    went to another match than 2); then "there is no match #1" of /games #1 while match
    #1 exists: a command that takes nothing says so, and where a match is shown."""
    out = await play("as alice\n/challenge @bob xiangqi\n/challenge @bob damas\n"
                     "/challenge xiangqi\nas bob\n/accept #1\n/accept #2\n"
                     f"{command}\n/games")
    assert after(out, command).strip() == refused
    assert "#1" in after(out, "/games")  # the same command without the word answers


@pytest.mark.parametrize("locale", [None, "de", "es-ES", "es-419", "sv-SE", "zh-CN", "zh-TW",
                                    "en-GB"])
async def test_help_names_rated_yes_or_no_beside_casual(locale: str | None) -> None:
    """/help did not list rated:yes|no, the values rated: takes (casual stays, as the
    README documents it): for /challenge and /tournament create, in every language."""
    out = io.StringIO()
    console = open_console(MemoryRepository(), out, locale=locale)
    await console.handle("/help")
    printed = out.getvalue()
    assert "  /challenge [@user ...] GAME [option:value ...] [days:N] [seat:NAME]\n" \
           "             [casual | rated:yes|no]\n" in printed
    assert "              [registration_days:DAYS] [casual | rated:yes|no] [clock:3d+1d/10d]\n" \
           "              [claim_win:yes|no] [option:value ...]\n" in printed
    # and the help is translated still (a msgid without its translation reads English)
    english = locale in (None, "en-GB")
    assert ("Commands (a #<match> argument" in printed) is english

