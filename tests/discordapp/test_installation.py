"""Commands and installation (issue 12): guild install only, DMs only where meaningful,
one scope of commands at a time (no duplicates), ``--clear``, and a stale command
answered with "being updated" rather than an apology."""

from __future__ import annotations

from typing import Any

import discord
import pytest
from discord import app_commands

from bot.discordapp.errors import COMMANDS_UPDATING
from bot.discordapp.sync import clear_commands, publish, sync_at_start, tree_payload
from tests.discordapp.conftest import World, make_bot
from tests.discordapp.helpers import reply, start_match

GUILD, BOT_DM = 0, 1  # Discord's interaction context types
GUILD_INSTALL = 0  # Discord's integration type for a server install


def test_installed_in_servers_only_and_usable_in_dms_only_where_meaningful(
        world: World) -> None:
    payload = tree_payload(world.bot.tree)
    assert payload, "the tree has commands"
    contexts = {c["name"]: sorted(c["contexts"]) for c in payload}
    assert all(c["integration_types"] == [GUILD_INSTALL] for c in payload)
    in_dms = {name for name, where in contexts.items() if BOT_DM in where}
    assert in_dms == {"rules", "notify", "timezone"}  # a person's own settings, and rules
    assert all(where == [GUILD] for name, where in contexts.items() if name not in in_dms)
    assert contexts["rules"] == [GUILD, BOT_DM]  # never in group DMs or other people's


def visible(w: World) -> list[str]:
    return [c["name"] for c in w.env.backend.visible_commands(user_id=w.alice.id,
                                                              channel_id=w.channel.id)]


async def test_development_sync_leaves_no_duplicates(world: World) -> None:
    w = world
    state = w.bot.sync_state
    assert state is not None
    everywhere = sorted(visible(w))
    assert len(everywhere) == len(set(everywhere)) > 5  # registered globally at start
    await publish(w.bot, w.bot.tree, state, guild_id=w.guild.id, force=True)
    assert sorted(visible(w)) == everywhere  # in the server, once each
    assert w.env.backend.commands.get(None) == {}  # the global copy is gone
    # a restart in development keeps syncing to the development server, not globally
    fresh = make_bot(w.tmp_path, w.repository)

    @fresh.tree.command(name="ping", description="A new command")
    async def ping(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("pong", ephemeral=True)
    await w.env.restart_bot(fresh)
    assert w.env.backend.commands.get(None) == {}
    assert sorted(visible(w)) == sorted([*everywhere, "ping"])
    # back to global: the development copy is removed
    await publish(fresh, fresh.tree, fresh.sync_state, force=True)
    assert w.env.backend.commands.get(w.guild.id) == {}
    assert sorted(visible(w)) == sorted([*everywhere, "ping"])


async def test_clear_removes_one_scope(world: World) -> None:
    w = world
    state = w.bot.sync_state
    await publish(w.bot, w.bot.tree, state, guild_id=w.guild.id, force=True)
    await clear_commands(w.bot, state, guild_id=w.guild.id)
    assert visible(w) == []
    await publish(w.bot, w.bot.tree, state, force=True)
    assert visible(w)
    await clear_commands(w.bot, state)
    assert visible(w) == []
    assert state is not None and state.stored(w.bot.application_id or 0) is None
    await sync_at_start(w.bot, w.bot.tree, state)  # nothing stored: syncs again
    assert visible(w)


async def test_a_stale_command_gets_being_updated(world: World) -> None:
    w = world
    _, thread = await start_match(w, w.alice, w.bob, seat=0)
    # Discord still has the old commands: one the new version removed, one it changed
    w.bot.tree.remove_command("board")
    tree: app_commands.CommandTree[Any] = w.bot.tree
    old_move = tree.get_command("move")
    assert isinstance(old_move, app_commands.Command)
    tree.remove_command("move")

    @tree.command(name="move", description="Play a move")
    async def move(interaction: discord.Interaction, text: str) -> None:
        await interaction.response.send_message("moved", ephemeral=True)

    gone = reply(await w.alice.slash(thread, "board"))
    changed = reply(await w.alice.slash(thread, "move", move="h3-e3"))
    for answer in (gone, changed):
        assert answer.ephemeral and answer.content == COMMANDS_UPDATING.render("en-US")
    # what discord.py hands the tree's on_error (SimCord records it; acknowledged here)
    assert [type(e) for e in w.env.errors] == [app_commands.CommandNotFound,
                                               app_commands.CommandSignatureMismatch]


async def test_in_a_dm_only_rules_notify_and_timezone(world: World) -> None:
    w = world
    erin = w.env.create_user("erin")
    assert sorted(erin.available_commands()) == ["notify", "rules", "timezone"]
    zone = reply(await erin.slash("timezone", zone="europe/madrid"))
    assert "Europe/Madrid" in zone.content
    told = reply(await erin.slash("notify", mode="dm"))
    assert "direct message" in told.content
    shown = reply(await erin.slash("rules", game="xiangqi"))
    assert shown.embeds and shown.embeds[0].title == "Xiangqi"


def test_tablero_sync_takes_clear_and_guild() -> None:
    from bot.__main__ import build_parser

    args = build_parser().parse_args(["sync", "--clear", "--guild", "5"])
    assert args.clear and args.guild == 5
    assert not build_parser().parse_args(["sync"]).clear


def test_the_db_commands_help_names_each_of_its_commands() -> None:
    import argparse

    from bot.__main__ import build_parser

    def commands(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
        found = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
        return dict(found.choices)

    shown = next(a.help for a in next(
        a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction)
    )._choices_actions if a.dest == "db")
    named = commands(commands(build_parser())["db"])
    assert named and all(name in str(shown) for name in named), (shown, sorted(named))


@pytest.mark.parametrize("failure, said", [
    (discord.LoginFailure("Improper token has been passed."),
     "tablero run: Discord refused the token: check DISCORD_TOKEN (Developer Portal -> Bot "
     "-> Reset Token)"),
    (ConnectionRefusedError(111, "Connection refused"),
     "tablero run: cannot reach Discord (ConnectionRefusedError): check the network "
     "connection"),
])
def test_tablero_run_says_why_discord_refused_it_on_standard_error(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        failure: Exception, said: str) -> None:
    """What ended ``tablero run`` goes where every other refusal of the command line goes,
    standard error, as one line: it was printed on standard output, which a service
    manager or a redirect may keep apart from the errors (or drop)."""
    from pydantic import SecretStr

    from bot.discordapp import cli

    async def refused(*_: object, **__: object) -> None:
        raise failure

    monkeypatch.setattr(cli, "run_bot", refused)
    assert cli.run(SecretStr("abc.def.ghi"), "t.db") == 1
    out, err = capsys.readouterr()
    assert out == "" and err.splitlines() == [said]
