"""The console writes every command a text names as its reader types it there: a
message shared with Discord (``/history match:1`` there) says ``/history #1`` in the
console, as the console's own lines and its /help do, and typing what it says works.

Before, a shared text wrote Discord's options (``/history match:1``, ``/pause
action:resume``) in the console."""

from __future__ import annotations

import asyncio
import json
import re
from pathlib import Path

import pytest

from bot.console_args import CONSOLE_SYNTAX
from locales.i18n import (
    Command,
    command,
    commands_written,
    from_data,
    option,
    render,
    to_data,
)
from tests.console.test_languages import play
from tests.locales.test_command_names import YES_OR_NO

RECORDS = Path(__file__).parents[1] / "rules" / "records"


def refusals(said: list[str]) -> list[str]:
    return [line for line in said if line.startswith("! ")]


@pytest.mark.parametrize("locale", [None, "de"])
def test_the_duplicate_import_names_the_history_command_as_it_is_typed(
        locale: str | None) -> None:
    wxf = RECORDS / "liu-dianzhong-liu-dahua-1997.wxf"
    iccs = RECORDS / "liu-dianzhong-liu-dahua-1997.iccs.pgn"
    said = asyncio.run(play(["as alice", f"/import {wxf}", "as bob", f"/import {iccs}"],
                            locale))
    refused = refusals(said)
    if locale is None:
        assert refused == ["! this game is imported in this server already, as match 1: "
                           "see it with /history #1"], said
    assert len(refused) == 1 and "match:" not in refused[0] and "partie:" not in refused[0]
    typed = re.findall(r"/\w+ \S+", refused[0])  # what it says, typed as it says it
    assert typed == ["/history #1"], refused
    shown = asyncio.run(play(["as alice", f"/import {wxf}", typed[0]], locale))
    assert not refusals(shown) and '[Red "Liu Dianzhong"]' in shown, shown


def test_a_refusal_while_paused_names_the_resume_as_it_is_typed() -> None:
    lines = ["as alice", "/challenge @bob xiangqi casual seat:red", "as bob", "/accept",
             "as alice", "/pause 3 exams", "as bob", "/pause accept", "as alice",
             "/move h3-e3"]
    said = asyncio.run(play(lines, None))
    assert refusals(said) == ["! match #1 is paused until 2026-01-04 12:00 UTC "
                              "(/pause resume ends the pause)"], said
    resumed = asyncio.run(play([*lines, "/pause resume", "/move h3-e3"], None))
    assert refusals(resumed) == refusals(said)  # the resume and the move went through
    assert "#1: the pause is over; due 2026-01-04 12:00 UTC" in resumed
    assert "played h3-e3 (C2.5)" in resumed


@pytest.mark.parametrize(("named", "written"), [
    # a match, a tournament, a puzzle by number; a person by @name
    (command("history", match=7), "/history #7"),
    (command("analysis", match=7), "/analysis #7"),
    (command("continue", match=3, opponent="@…"), "/continue #3 @…"),
    (command("tournament standings", tournament=2), "/tournament standings #2"),
    (command("puzzle next", puzzle=12), "/puzzle next #12"),
    (command("follow", match=""), "/follow #N"),  # left to the reader
    (command("follow", player=""), "/follow @NAME"),
    # a positional parameter in its place (an earlier one missing: named in capitals)
    (command("pause", action="resume"), "/pause resume"),
    (command("leaderboard", game="xiangqi", page=2), "/leaderboard xiangqi 2"),
    (command("leaderboard", page=2), "/leaderboard GAME 2"),
    # what the command cannot go without, whenever anything follows it
    (command("leaderboard", season=2), "/leaderboard GAME season:2"),
    (command("leaderboard", game="", season=2), "/leaderboard GAME season:2"),
    (command("challenge", rated=False), "/challenge GAME rated:no"),
    (command("leaderboard"), "/leaderboard"),  # named alone
    (command("vacation", days=5), "/vacation start 5"),
    # an action the console takes without its word
    (command("pause", days=3), "/pause 3"),
    (command("pause", match=4, days=3), "/pause #4 3"),
    (command("note", action="set"), "/note TEXT"),
    # a switch; an option the console reads by name, or writes so (ply:K)
    (command("web", revoke=True), "/web revoke"),
    (command("follow", digest="off"), "/follow digest:off"),
    (command("leaderboard", game="damas", season=2), "/leaderboard damas season:2"),
    (command("join", seat="red"), "/join seat:red"),
    (command("board", match=2, ply=5), "/board #2 ply:5"),
])
def test_each_kind_of_option_is_written_as_the_console_reads_it(named: Command,
                                                                 written: str) -> None:
    with commands_written(CONSOLE_SYNTAX):
        assert named.render("de") == written


def test_an_option_named_alone_keeps_the_name_the_console_reads() -> None:
    with commands_written(CONSOLE_SYNTAX):
        assert option("season").render("de") == "season"
        assert option("match").render("sv-SE") == "match"


def test_a_yes_or_no_is_written_as_the_console_reads_it_even_kept_in_a_store() -> None:
    """A yes/no option a shared text names is written as the console's commands read
    it: ``/web revoke`` (its word), ``/settings threads:yes``, ``reminders:no``; kept
    in a store first (the outbox's way) or not. Typing what it says works. Before,
    True was always the bare word (``/settings threads``, which /settings refuses), and
    a stored one came back as the text "True" (``/web revoke:True``: "no match")."""
    stored = from_data(json.loads(json.dumps(to_data(YES_OR_NO))))
    with commands_written(CONSOLE_SYNTAX):
        written = render(stored, "en-US").split("; ")
    said = asyncio.run(play(["as alice", *written], None))
    assert not refusals(said), said
    assert said[1].startswith("your web links no longer work")
    assert "reminders on, threads on" in said[2] and "reminders off, threads on" in said[3]
