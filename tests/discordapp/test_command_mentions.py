"""In a server, a text names a command by Discord's mention, ``</move:ID>`` with the id
the sync gave (every reader's Discord shows it in his language; a click fills it in), an
option after it in the text's words; before the ids are known, and in a direct message,
by its name as before (``/move``). The ids are learnt again at each start: from the sync's
answer, or fetched when the tree is unchanged (``bot.discordapp.mentions``)."""

from __future__ import annotations

import logging
from typing import Any

import aiohttp
import discord
import pytest

from bot.discordapp.cogs import DeadlinesCog
from bot.discordapp.mentions import CommandIds, mentionable, mentioning, plain_commands
from bot.discordapp.sync import (
    REFRESH_SECONDS,
    RETRY_SECONDS,
    IdsRefresh,
    publish,
    sync_commands,
)
from locales.i18n import _, command, command_mentions, from_data, person, to_data
from tests.discordapp.conftest import World, make_bot
from tests.discordapp.helpers import mention, registered_id, reply, start_match


async def refusal_naming_move(w: World, thread: Any) -> str:
    """Alice's /setup in a xiangqi match: refused, naming /move (the service's text)."""
    said = reply(await w.alice.slash(thread, "setup", arrangement="1 2 3"))
    assert said.ephemeral and said.content.startswith("This match is not in its setup")
    return str(said.content)


async def test_a_refusal_and_a_post_name_commands_by_the_id_the_sync_gave(
        world: World) -> None:
    w = world
    _m, thread = await start_match(w, w.alice, w.bob, seat=0)
    move = registered_id(w, "move")  # what the bot's sync was answered
    assert mention(w, "move") == f"</move:{move}>"
    refusal = await refusal_naming_move(w, thread)
    assert refusal.endswith(f"play moves with </move:{move}>.") and "/move" not in \
        refusal.replace(f"</move:{move}>", "")
    # a public post: the pause agreed in the thread, its option in the post's words
    await w.bob.slash(thread, "pause", days=3)
    await w.alice.slash(thread, "pause", action="accept")
    await w.env.settle()
    post = thread.last_message.content
    assert "⏸" in post and f"</pause:{registered_id(w, 'pause')}> action:resume" in post
    # a subcommand is mentioned by its path, with its top command's id
    assert mention(w, "puzzle next") == f"</puzzle next:{registered_id(w, 'puzzle')}>"


async def test_before_the_ids_are_known_a_command_is_named_as_before(
        world: World) -> None:
    """A start whose tree is unchanged fetches the ids (no sync, no command created); when
    that fetch fails the texts name commands by name, and nothing else changes."""
    w = world
    _m, thread = await start_match(w, w.alice, w.bob, seat=0)
    move = registered_id(w, "move")

    unknown = make_bot(w.tmp_path, w.repository)

    async def refused(*, guild: object = None) -> list[Any]:
        raise discord.HTTPException(_Response(503), "unavailable")

    unknown.tree.fetch_commands = refused  # type: ignore[method-assign]
    await w.env.restart_bot(unknown)
    assert not unknown.command_ids.of_place(w.guild.id)
    said = await refusal_naming_move(w, thread)
    assert said.endswith("play moves with /move.") and "</" not in said

    fetched = make_bot(w.tmp_path, w.repository)
    await w.env.restart_bot(fetched)
    assert sum(1 for r in w.env.http_requests if r.method == "PUT"
               and r.path.endswith("/commands")) == 1  # the first start's sync only
    assert any(r.method == "GET" and r.path.endswith("/commands")
               for r in w.env.http_requests)
    assert (await refusal_naming_move(w, thread)).endswith(f"play moves with </move:{move}>.")


class _Response:
    """What ``discord.HTTPException`` reads of a refused request."""

    def __init__(self, status: int) -> None:
        self.status = status
        self.reason = "Service Unavailable"


async def test_a_server_synced_alone_mentions_its_own_copies(world: World) -> None:
    """Commands synced to one (development) server have other ids there than the global
    ones: that server's texts mention its copies."""
    w = world
    _m, thread = await start_match(w, w.alice, w.bob, seat=0)
    assert await sync_commands(w.bot, w.bot.tree, w.bot.sync_state, guild_id=w.guild.id,
                               known=w.bot.command_ids)
    own = registered_id(w, "move", guild_id=w.guild.id)
    assert own != registered_id(w, "move")
    assert (await refusal_naming_move(w, thread)).endswith(f"</move:{own}>.")


def test_only_commands_discord_runs_are_mentioned() -> None:
    """A command with subcommands is mentioned by each of them (its group alone is no
    command: it keeps its name); a context menu has no mention; a direct message none."""
    def option(kind: int, name: str, children: list[dict[str, Any]] | None = None
               ) -> dict[str, Any]:
        return {"type": kind, "name": name, "description": "x", "options": children or []}

    def app(name: str, options: list[dict[str, Any]], kind: int = 1, id_: int = 5
            ) -> discord.app_commands.AppCommand:
        return discord.app_commands.AppCommand(data={  # type: ignore[arg-type]
            "id": str(id_), "type": kind, "name": name, "description": "x",
            "application_id": "1", "options": options, "version": "1"}, state=None)

    commands = [
        app("move", [option(3, "move")], id_=11),
        app("tournament", [option(1, "create"),
                           option(2, "admin", [option(1, "kick", [option(6, "player")])])],
            id_=12),
        app("Report", [], kind=2, id_=13),
    ]
    assert [p for c in commands for p in mentionable(c)] == [
        ("move", 11), ("tournament create", 12), ("tournament admin kick", 12)]
    ids = CommandIds()
    ids.learn(commands)
    place = ids.of_place(42)
    assert place is not None and ids.of_place(None) is None
    with command_mentions(place):
        assert command("tournament create").render("de") == "</tournament create:12>"
        assert command("tournament").render("de") == "/turnier"
        assert command("history", match=3).render("de") == "/verlauf partie:3"


@pytest.mark.parametrize("path", ["move", "puzzle next"])
async def test_a_direct_message_names_commands_by_name(world: World, path: str) -> None:
    """A DM is no server: Tablero's commands do not run there (a mention clicked in a DM
    is not typed in), so ``Routes.for_dm`` names them as before."""
    w = world
    notifier = w.bot.get_cog("Deliveries")
    routes = notifier.notifier.routes  # type: ignore[union-attr]
    with mentioning(w.bot.command_ids, w.guild.id):
        in_server = command(path).render("en-US")
        in_dm = await routes.for_dm(w.alice.id, _("use {c}", c=command(path)))
    assert in_server == mention(w, path) and in_dm == f"use /{path}"


# ---------------------------------------------------------------- fetched again

def deadlines(w: World) -> DeadlinesCog:
    cog = w.bot.get_cog("Deadlines")
    assert isinstance(cog, DeadlinesCog)
    return cog


async def test_a_sync_run_elsewhere_is_followed_at_the_sweeps_next_tick(world: World) -> None:
    """``tablero sync`` runs in another process (here ``publish``, what it does, without
    a word to the running bot): to the development server, which clears the global
    commands the texts mention, then globally again, which creates them anew (new ids)
    and clears the server's copies. The running bot mentions the commands that exist
    from the sweep's next tick on (the sync-state file changed: it fetches its ids
    again), and forgets the scope left empty. Before, it kept the ids of its start,
    dead mentions, until a restart."""
    w = world
    _m, thread = await start_match(w, w.alice, w.bob, seat=0)
    first = registered_id(w, "move")
    await publish(w.bot, w.bot.tree, w.bot.sync_state, guild_id=w.guild.id, force=True)
    assert not w.env.backend.commands.get(None)  # the mentioned commands are gone
    own = registered_id(w, "move", guild_id=w.guild.id)
    assert (await refusal_naming_move(w, thread)).endswith(f"</move:{first}>.")  # stale

    async def broken() -> None:
        raise RuntimeError("another chore fails")

    sweep = deadlines(w)
    sweep.chores = (broken, *sweep.chores)  # it stops neither the tick nor the others
    await sweep.sweep_once()
    assert (await refusal_naming_move(w, thread)).endswith(f"</move:{own}>.")
    assert w.bot.command_ids.scopes() == [w.guild.id]

    await publish(w.bot, w.bot.tree, w.bot.sync_state, force=True)
    anew = registered_id(w, "move")
    assert anew != first and not w.env.backend.commands.get(w.guild.id)
    sweeps = sweep.sweeps
    sweep.backoff.failed()  # the database is out: no sweep, the ids are refreshed still
    await sweep.sweep_once()
    assert sweep.sweeps == sweeps
    assert (await refusal_naming_move(w, thread)).endswith(f"</move:{anew}>.")
    assert w.bot.command_ids.scopes() == [None]
    assert w.bot.ids_refresh.refreshes == 2


async def test_a_refresh_that_fails_keeps_the_ids_it_knew(
        world: World, caplog: pytest.LogCaptureFixture) -> None:
    """Discord or the network down while the ids are fetched again: the ids known are
    kept (never none on a passing failure), a line without a trace says so, and it is
    tried again. A server that refuses (the bot is no longer in it) has no commands for
    the bot: its scope is forgotten, its texts mention the global commands."""
    w = world
    _m, thread = await start_match(w, w.alice, w.bob, seat=0)
    await sync_commands(w.bot, w.bot.tree, w.bot.sync_state, guild_id=w.guild.id,
                        known=w.bot.command_ids)
    own = registered_id(w, "move", guild_id=w.guild.id)
    failures: list[Exception] = [discord.HTTPException(_Response(503), "unavailable"),
                                 aiohttp.ClientConnectionError("connection reset"),
                                 TimeoutError()]

    async def failing(*, guild: discord.abc.Snowflake | None = None) -> list[Any]:
        raise failures[0]

    w.bot.tree.fetch_commands = failing  # type: ignore[method-assign]
    for _failure in list(failures):
        with caplog.at_level(logging.INFO, "tablero.discord"):
            assert not await w.bot.ids_refresh.refresh()
        assert (await refusal_naming_move(w, thread)).endswith(f"</move:{own}>.")
        failures.pop(0)
    warned = [r for r in caplog.records if "keeping those known" in r.getMessage()]
    assert len(warned) == 6 and all(r.levelno == logging.WARNING and r.exc_info is None
                                    for r in warned)  # two scopes, three times
    assert "of server" in warned[1].getMessage() and "TimeoutError" in warned[-1].getMessage()

    async def not_there(*, guild: discord.abc.Snowflake | None = None) -> list[Any]:
        if guild is None:
            raise discord.HTTPException(_Response(503), "unavailable")
        raise discord.Forbidden(_Response(403), "Missing Access")

    w.bot.tree.fetch_commands = not_there  # type: ignore[method-assign]
    assert not await w.bot.ids_refresh.refresh()  # the global fetch failed
    assert w.bot.command_ids.scopes() == [None]
    assert (await refusal_naming_move(w, thread)).endswith(
        f"</move:{registered_id(w, 'move')}>.")


async def test_the_ids_are_fetched_again_hourly_or_once_a_sync_wrote_its_file(
        world: World) -> None:
    """The cadence (``IdsRefresh``), on a fake clock: nothing before the hour is out;
    at once when the sync-state file changed; a failed refresh is tried again within
    five minutes, not an hour."""
    w = world
    now = [0.0]
    refresh = IdsRefresh(w.bot, w.bot.tree, w.bot.sync_state, w.bot.command_ids,
                         monotonic=lambda: now[0])
    refresh.started()
    fetched = lambda: sum(1 for r in w.env.http_requests  # noqa: E731
                          if r.method == "GET" and r.path.endswith("/commands"))
    before = fetched()
    for now[0] in (0.0, 60.0, REFRESH_SECONDS - 1):
        await refresh.tick()
    assert (refresh.refreshes, fetched()) == (0, before)
    now[0] = REFRESH_SECONDS
    await refresh.tick()
    await refresh.tick()
    assert (refresh.refreshes, fetched()) == (1, before + 1)  # the global scope: one read
    assert w.bot.sync_state is not None and w.bot.application_id is not None
    w.bot.sync_state.remember(w.bot.application_id, "another tree")  # a sync elsewhere
    await refresh.tick()
    await refresh.tick()
    assert refresh.refreshes == 2

    async def failing(*, guild: discord.abc.Snowflake | None = None) -> list[Any]:
        raise discord.HTTPException(_Response(503), "unavailable")

    w.bot.tree.fetch_commands = failing  # type: ignore[method-assign]
    now[0] += REFRESH_SECONDS
    await refresh.tick()
    now[0] += RETRY_SECONDS - 1
    await refresh.tick()
    assert refresh.refreshes == 3
    now[0] += 1
    await refresh.tick()
    assert refresh.refreshes == 4 and w.bot.command_ids.of_place(w.guild.id)

    # a start that learnt no ids (its sync or fetch failed) tries again within minutes
    unknown = IdsRefresh(w.bot, w.bot.tree, w.bot.sync_state, CommandIds(),
                         monotonic=lambda: now[0])
    unknown.started()
    now[0] += RETRY_SECONDS
    await unknown.tick()
    assert unknown.refreshes == 1


def test_a_person_nobody_has_seen_is_mentioned_where_discord_shows_mentions() -> None:
    """``locales.i18n.Person`` (a name never seen): a message's content names him by his
    mention, which Discord shows as his name, in a server or a DM; a title, footer or
    button (plain text, where a mention is written out) and other media in words."""
    who = person(42)
    with mentioning(None, 1):
        assert who.render("en-US") == "<@42>"
        with plain_commands():
            assert who.render("de") == "dieser Spieler"
    with mentioning(None, None):  # a DM
        assert who.render("en-US") == "<@42>"
    assert who.render("en-US") == "that player"
    assert from_data(to_data(_("{player} is here", player=who))) == \
        _("{player} is here", player=who)  # kept through the outbox
