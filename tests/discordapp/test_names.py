"""Names seen on Discord outlive a restart (issue 20 §2): the bot has no member intent, so
after a restart its caches are empty and boards would show seat colours."""

from __future__ import annotations

from tests.discordapp.conftest import World, make_bot
from tests.discordapp.test_flow import start_xiangqi


async def test_names_seen_in_interactions_are_stored_per_server(world: World) -> None:
    w = world
    await start_xiangqi(w)  # alice challenges bob; bob accepts
    # carol never uses a command: the challenge naming her hands her name with it
    await w.alice.slash(w.channel, "challenge", game="damas", opponent=w.carol)
    restarted = make_bot(w.tmp_path, w.repository)  # a new process: empty caches
    assert restarted.get_user(w.alice.id) is None
    assert restarted.names(w.guild.id, w.alice.id) == ""
    await restarted.names.book.load()
    assert restarted.names(w.guild.id, w.alice.id) == "alice"
    assert restarted.names(w.guild.id, w.bob.id) == "bob"
    assert restarted.names(w.guild.id, w.carol.id) == "carol"  # never "that player"
    assert restarted.names(w.guild.id + 1, w.alice.id) == ""  # per server
