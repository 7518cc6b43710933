"""Sharding: the bot runs on ``AutoShardedBot`` (two shards in these tests), and a server
on either shard gets the same service."""

from __future__ import annotations

import discord

from tests.discordapp.conftest import SHARDS, World
from tests.discordapp.helpers import reply


async def test_servers_on_each_shard_play(world: World) -> None:
    w = world
    assert isinstance(w.bot, discord.AutoShardedClient) and w.bot.shard_count == SHARDS
    places = {}
    for n in range(16):
        await w.env.advance_time(0.001)  # a server's shard comes from its id's timestamp
        guild = w.env.create_guild(f"server {n}")
        shard = w.bot.get_guild(guild.id).shard_id  # type: ignore[union-attr]
        places.setdefault(shard, guild)
        if len(places) == SHARDS:
            break
    assert sorted(places) == list(range(SHARDS))
    for guild in places.values():
        channel = guild.create_text_channel("games")
        alice = guild.add_member(w.env.create_user(f"alice-{guild.id}"))
        bob = guild.add_member(w.env.create_user(f"bob-{guild.id}"))
        posted = reply(await alice.slash(channel, "challenge", game="xiangqi", opponent=bob))
        assert "Challenge posted" in posted.content
        assert "accepted" in reply(await bob.click(channel.last_message,
                                                   label="Accept")).content
        (thread,) = channel.threads
        assert (await w.service.match_in_thread(thread.id)) is not None
