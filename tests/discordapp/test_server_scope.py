"""A match, a tournament and a season belong to their server (issue 21, defect 7; issue
36, part 1). A member of another server naming a number from this one, even with Manage
Server there and even as one of its players, is told there is no such match or
tournament, privately, and nothing changes. The slash commands that take a match or a
tournament are enumerated from the bot's command tree and the buttons from the button
templates, so one added later is tried too."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands

from bot.discordapp import TableroBot
from bot.discordapp.components import MATCH_ACTIONS, match_buttons, tournament_buttons
from service import Caller
from tests.discordapp.conftest import World
from tests.discordapp.helpers import reply, start_match
from tests.discordapp.test_outbox_delivery import notifier_of

SESSION_TABLES = {"clock_beats", "names", "shard_leases"}
"""What the bot writes while it runs whoever acts (its heartbeat, names it saw)."""

NOT_AN_ID = {"next"}
"""Buttons whose number is not acted on: Next game's number is a cursor among the
clicker's own games in his own server (``next_game``), it reads nothing of that match."""


async def dump(w: World, *actors: Any) -> dict[str, list[str]]:
    """Every row of the bot's database, after the deliveries under way are done; the
    ``actors``' own preference rows aside (an interaction remembers its user's language,
    wherever he acts)."""
    from storage.copy import TABLE_ORDER

    await notifier_of(w).drain()
    repo: Any = w.repository
    rows = {t: await repo._all(f"SELECT * FROM {t}") for t in TABLE_ORDER
            if t not in SESSION_TABLES}
    mine = {a.id for a in actors}
    rows["user_prefs"] = [r for r in rows["user_prefs"] if r[0] not in mine]
    return {t: sorted(map(repr, held)) for t, held in rows.items()}


def commands_taking(bot: TableroBot, name: str) -> list[app_commands.Command[Any, ..., Any]]:
    return [c for c in bot.tree.walk_commands() if isinstance(c, app_commands.Command)
            and any(p.name == name for p in c.parameters)]


class Elsewhere:
    """A second server where alice (a player of the first server's match and
    tournament) and mallory both have Manage Server."""

    def __init__(self, w: World) -> None:
        self.guild = w.env.create_guild("elsewhere")
        self.channel = self.guild.create_text_channel("games")
        admins = self.guild.create_role("admins",
                                        permissions=discord.Permissions(manage_guild=True))
        self.mallory = self.guild.add_member(w.env.create_user("mallory"), roles=[admins])
        self.alice = self.guild.add_member(w.alice.user, roles=[admins])


def options_for(command: app_commands.Command[Any, ..., Any], **given: Any) -> dict[str, Any]:
    """``given``, and for every other required option a value the command accepts."""
    plausible: dict[str, Any] = {"move": "h8-e8", "arrangement": "1 2 3"}
    options = dict(given)
    for p in command.parameters:
        if p.name in options or not p.required:
            continue
        if p.choices:
            options[p.name] = p.choices[0].value
        elif p.name in plausible:
            options[p.name] = plausible[p.name]
        else:
            raise AssertionError(f"/{command.qualified_name}: give the test a {p.name!r}")
    return options


def refused(result: Any, sentence: str) -> None:
    answer = reply(result)
    assert answer.ephemeral, answer.content
    assert sentence in answer.content, answer.content
    assert not answer.embeds and not answer.attachments, answer.content


async def test_every_command_and_button_refuses_another_servers_numbers(world: World) -> None:
    w = world
    match, thread = await start_match(w, w.alice, w.bob, seat=0)
    await w.alice.slash(thread, "move", move="h3-e3")
    await w.bob.slash(thread, "draw", action="offer")
    s = w.service
    cup = await s.create_tournament(w.guild.id, w.channel.id, w.carol.id, "damas",
                                    fmt="round robin", name="Club cup")
    for member in (w.alice, w.bob, w.dave):
        await s.join_tournament(cup.id, member.id)
    cup = await s.start_tournament(cup.id, w.carol.id)
    far = Elsewhere(w)
    player = far.guild.add_member(w.bob.user)  # a member there to name in /tournament remove
    no_match = f"There is no match #{match.id}."
    no_cup = f"There is no tournament #{cup.id} here."
    before = await dump(w, far.mallory)
    tried = refusals = 0

    match_commands = commands_taking(w.bot, "match")
    cup_commands = commands_taking(w.bot, "tournament")
    assert {c.qualified_name for c in match_commands} >= {
        "move", "board", "resign", "hint", "analysis", "draw", "history", "rematch",
        "takeback", "premove", "note", "follow", "unfollow", "fill", "continue"}
    assert {c.qualified_name for c in cup_commands} == {
        "tournament start", "tournament cancel", "tournament remove",
        "tournament standings", "tournament pairings", "tournament mine"}
    for actor in (far.mallory, far.alice):
        for command in match_commands:
            named: dict[str, Any] = {"match": match.id}
            if any(p.name == "opponent" for p in command.parameters):
                named["opponent"] = player  # /continue: someone there to invite
            result = await actor.slash(far.channel, command.qualified_name,
                                       **options_for(command, **named))
            tried += 1
            refused(result, no_match)
            refusals += 1
        for command in cup_commands:
            given: dict[str, Any] = {"tournament": cup.id}
            if any(p.name == "player" for p in command.parameters):
                given["player"] = player
            if any(p.name == "export" for p in command.parameters):
                given["export"] = True
            result = await actor.slash(far.channel, command.qualified_name,
                                       **options_for(command, **given))
            tried += 1
            refused(result, no_cup)
            refusals += 1

    # Buttons: a click names its match or tournament in the custom id. Discord shows a
    # button only under the bot's own post, so these are posts in the other server
    # that carry this server's numbers (a forged or misdirected custom id).
    channel: Any = w.bot.get_channel(far.channel.id)
    for action in MATCH_ACTIONS:
        if action in NOT_AN_ID:
            continue
        post = await channel.send("?", view=match_buttons(match.id, match.ply + 1, [action]))
        for actor in (far.mallory, far.alice):
            tried += 1
            refused(await actor.click(post, custom_id=f"tablero:{action}:{match.id}:"
                                                      f"{match.ply + 1}"), no_match)
            refusals += 1
    post = await channel.send("?", view=tournament_buttons(cup.id))
    for action in ("join", "leave"):
        for actor in (far.mallory, far.alice):
            tried += 1
            refused(await actor.click(post, custom_id=f"tablero:t{action}:{cup.id}"), no_cup)
            refusals += 1
    assert await dump(w, far.mallory) == before  # nothing in the first server changed
    print(f"Discord: forbidden calls refused / tried: {refusals} / {tried}")
    assert refusals == tried >= 2 * (len(match_commands) + len(cup_commands)
                                     + len(MATCH_ACTIONS) - len(NOT_AN_ID) + 2)
    # in its own server the same numbers work
    shown = reply(await w.carol.slash(w.channel, "tournament pairings", tournament=cup.id))
    assert "Round 1" in shown.content
    board = reply(await w.carol.slash(w.channel, "board", match=match.id))
    assert board.embeds
    assert (await s.get_match(match.id, Caller(w.guild.id, w.carol.id))).ply == 1


async def test_seasons_are_the_servers_own(world: World) -> None:
    """``/leaderboard season`` and ``/season list`` read the caller's server only; its
    manager's ``/season reset`` ends nothing here."""
    w = world
    s = w.service
    await s.configure_seasons(w.guild.id, w.channel.id, "monthly")
    await s.reset_season(w.guild.id, w.channel.id)
    far = Elsewhere(w)
    before = await dump(w, far.mallory, far.alice)
    # /leaderboard answers in public (its board is for everyone), its refusals too
    board = reply(await far.alice.slash(far.channel, "leaderboard", game="xiangqi", season=1))
    assert "this server has no seasons yet" in board.content.lower(), board.content
    assert not board.embeds
    listed = reply(await far.mallory.slash(far.channel, "season list"))
    assert "#2" not in listed.content and "Season 2" not in listed.content, listed.content
    reset = reply(await far.mallory.slash(far.channel, "season reset"))
    assert reset.ephemeral and "no seasons" in reset.content.lower(), reset.content
    assert await dump(w, far.mallory, far.alice) == before
    assert [x.number for x in await s.seasons(w.guild.id)] == [2, 1]


async def test_another_server_cannot_read_a_match(world: World) -> None:
    w = world
    match, thread = await start_match(w, w.alice, w.bob, seat=0)
    await w.alice.slash(thread, "move", move="h3-e3")
    other = w.env.create_guild("elsewhere")
    channel = other.create_text_channel("games")
    mallory = other.add_member(w.env.create_user("mallory"))
    also_alice = other.add_member(w.env.create_user("alice2"))
    for command in ("board", "history", "resign"):
        answer = reply(await mallory.slash(channel, command, match=match.id))
        assert answer.ephemeral
        assert f"no match #{match.id}" in answer.content.lower(), answer.content
        assert not answer.embeds and not answer.attachments
        assert "h3-e3" not in answer.content
    moved = reply(await mallory.slash(channel, "move", move="h8-e8", match=match.id))
    assert f"no match #{match.id}" in moved.content.lower()
    assert await also_alice.autocomplete(channel, "board", "match", "") == []
    # in its own server the same command shows it
    shown = reply(await w.carol.slash(w.channel, "board", match=match.id))
    assert shown.embeds


async def test_continue_suggests_no_other_servers_imports(world: World) -> None:
    """/continue's suggestions are the server's own imported games: alice, a member of
    both servers, sees in each only the games imported there, and the number of the
    other server's game is refused as unknown there."""
    from tests.discordapp.test_school_walk import RECORDS
    w = world
    elsewhere = Elsewhere(w)
    wxf = (RECORDS / "liu-dianzhong-liu-dahua-1997.wxf").read_bytes()
    reply(await w.alice.slash(w.channel, "import", file=("liu.wxf", wxf)))
    far = reply(await elsewhere.alice.slash(elsewhere.channel, "import",
                                            file=("liu.wxf", wxf)))
    assert far.content.startswith("Imported as match 2 ")  # another server may hold it
    assert [c["value"] for c in await w.alice.autocomplete(
        w.channel, "continue", "match", "")] == [1]
    assert [c["value"] for c in await elsewhere.alice.autocomplete(
        elsewhere.channel, "continue", "match", "")] == [2]
    assert await elsewhere.mallory.autocomplete(elsewhere.channel, "continue", "match",
                                                "1") == []
    refused = reply(await elsewhere.mallory.slash(elsewhere.channel, "continue", match=1,
                                                  opponent=elsewhere.alice))
    assert "no match #1" in refused.content.lower(), refused.content
