"""Issue 21, defect 7: a match is visible from its own server only. A member of another
server naming its number in ``/board``, ``/history`` or ``/move`` is told there is no
such match (no board, move list, export file or replay), and autocomplete offers it
nowhere else."""

from __future__ import annotations

from tests.discordapp.conftest import World
from tests.discordapp.helpers import reply, start_match


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
