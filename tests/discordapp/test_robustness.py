"""Unexpected errors, other bots, command sync by hash, the invite URL."""

from __future__ import annotations

import logging

import discord
import pytest
from pydantic import SecretStr

from bot.discordapp import cli
from bot.discordapp.errors import GENERIC_APOLOGY
from bot.discordapp.permissions import REQUIRED_PERMISSIONS, application_id_from_token
from bot.discordapp.sync import sync_commands, tree_hash
from tests.discordapp.conftest import World, make_bot
from tests.discordapp.helpers import board_urls, is_turn_post, reply, start_match, words


async def test_an_unexpected_error_gets_a_generic_apology_and_is_logged(
        world: World, caplog: pytest.LogCaptureFixture) -> None:
    w = world
    _, thread = await start_match(w, w.alice, w.bob)

    async def broken(thread_id: int) -> None:
        raise RuntimeError("disk on fire")

    w.service.match_in_thread = broken  # type: ignore[method-assign,assignment]
    with caplog.at_level(logging.ERROR, logger="tablero.discord"):
        answer = reply(await w.alice.slash(thread, "board"))
    assert answer.ephemeral and answer.content == GENERIC_APOLOGY.render("en-US")
    assert "disk on fire" in caplog.text and "unexpected error" in caplog.text


async def test_other_bots_are_ignored(world: World) -> None:
    w = world
    await w.alice.slash(w.channel, "challenge", game="xiangqi")
    robot = w.guild.add_member(w.env.create_user("robot", bot=True))
    result = await robot.click(w.channel.last_message, label="Join")
    assert not result.acknowledged
    match = await w.service.get_match(1)
    assert match.status.is_waiting


async def test_commands_are_synced_again_only_when_the_tree_changes(world: World) -> None:
    w = world

    def syncs() -> int:
        return sum(1 for r in w.env.http_requests
                   if r.method == "PUT" and r.path.endswith("/commands"))

    assert syncs() == 1
    same = make_bot(w.tmp_path, w.repository)
    await w.env.restart_bot(same)
    assert syncs() == 1
    changed = make_bot(w.tmp_path, w.repository)

    @changed.tree.command(name="ping", description="A new command")
    async def ping(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("pong", ephemeral=True)

    assert tree_hash(changed.tree) != tree_hash(same.tree)
    await w.env.restart_bot(changed)
    assert syncs() == 2
    assert reply(await w.alice.slash(w.channel, "ping")).content == "pong"


def test_invite_url_has_exactly_the_needed_permissions(capsys: pytest.CaptureFixture[str]
                                                       ) -> None:
    token = SecretStr("MTIzNDU2Nzg5MDEyMzQ1Njc4.Gabcde.secret-part-never-printed")
    assert application_id_from_token(token.get_secret_value()) == 123456789012345678
    url = cli.invite(token, None)
    assert "client_id=123456789012345678" in url
    assert f"permissions={REQUIRED_PERMISSIONS.value}" in url
    assert "secret-part" not in url and "scope=bot+applications.commands" in url
    granted = {name for name, on in REQUIRED_PERMISSIONS if on}
    assert granted == {"read_messages", "send_messages", "send_messages_in_threads",
                       "read_message_history",
                       "create_public_threads", "embed_links", "attach_files"}
    assert not REQUIRED_PERMISSIONS.administrator and not REQUIRED_PERMISSIONS.manage_threads


async def test_sync_to_one_guild(world: World) -> None:
    w = world
    synced = await sync_commands(w.bot, w.bot.tree, w.bot.sync_state, guild_id=w.guild.id)
    assert synced
    puts = [r.path for r in w.env.http_requests if r.method == "PUT"]
    assert puts[-1].endswith(f"/guilds/{w.guild.id}/commands")
    again = await sync_commands(w.bot, w.bot.tree, w.bot.sync_state, guild_id=w.guild.id)
    assert not again
    forced = await sync_commands(w.bot, w.bot.tree, w.bot.sync_state, guild_id=w.guild.id,
                                 force=True)
    assert forced


async def test_a_board_that_cannot_be_drawn_still_gets_its_turn_message(
        world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    w = world
    _, thread = await start_match(w, w.alice, w.bob, seat=0)

    def broken(*args: object, **kwargs: object) -> bytes:
        raise ValueError("no pen")

    # The renderer create_bot hands to the service and to the notifier that posts boards.
    monkeypatch.setattr(w.service.renderer, "render", broken)
    await w.alice.slash(thread, "move", move="h3-e3")
    last = thread.last_message
    assert words(last).startswith(f"alice played **h3-e3 (C2.5)** — {w.bob.mention}")
    assert last.attachments == []
    assert is_turn_post(last) and board_urls(last) == []


def test_tablero_invite_command(capsys: pytest.CaptureFixture[str],
                                monkeypatch: pytest.MonkeyPatch) -> None:
    from bot.__main__ import main

    monkeypatch.delenv("DISCORD_TOKEN", raising=False)
    assert main(["invite", "--client-id", "42"]) == 0
    out = capsys.readouterr().out.strip()
    assert out == ("https://discord.com/oauth2/authorize?client_id=42&scope=bot+"
                   f"applications.commands&permissions={REQUIRED_PERMISSIONS.value}")
