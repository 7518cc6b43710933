"""A display name is the member's own text: where the bot writes it into words Discord
reads as markdown (a move's post, a reply), it shows as typed, never as a link, a
heading, bold or a mention of somebody else."""

from __future__ import annotations

from tests.discordapp.conftest import World
from tests.discordapp.helpers import words

HOSTILE = "[Nitro](https://x.co) **<@1>**"  # (32 characters at most)


async def test_a_display_name_written_as_markdown_shows_as_typed_in_a_move_post(
        world: World) -> None:
    w = world
    mallory = w.guild.add_member(w.env.create_user(HOSTILE))
    await mallory.slash(w.channel, "challenge", game="xiangqi", opponent=w.bob, seat=0)
    await w.bob.click(w.channel.last_message, label="Accept")
    (thread,) = w.channel.threads
    await mallory.slash(thread, "move", move="h3-e3")
    said = words(thread.last_message)
    assert said.startswith(
        r"\[Nitro](https://x.co) \*\*\<@1>\*\* played **h3-e3")
