"""``/follow`` alone (issue 42, SimCord): what you follow in words, and the followed and
your own live games at a glance in one picture, privately."""

from __future__ import annotations

import io

from PIL import Image

from tests.discordapp.conftest import World
from tests.discordapp.helpers import reply, start_match


async def test_follow_alone_shows_the_games_at_a_glance(world: World) -> None:
    w = world
    nothing = reply(await w.alice.slash(w.channel, "follow"))
    assert nothing.ephemeral and "You follow nothing yet" in nothing.content
    assert not nothing.attachments  # no game, no picture
    mine, thread = await start_match(w, w.alice, w.bob, seat=0)
    await w.alice.slash(thread, "move", move="h3-e3")
    theirs, _thread = await start_match(w, w.carol, w.dave, seat=0)
    followed = reply(await w.alice.slash(w.channel, "follow", match=theirs.id))
    assert "Following" in followed.content

    shown = reply(await w.alice.slash(w.channel, "follow"))
    assert shown.ephemeral and shown.content == f"You follow:\nmatch {theirs.id}"
    (picture,) = shown.attachments
    assert picture.filename == "glance.png"
    assert picture.description == (
        f"Your games at a glance: #{mine.id} Xiangqi, bob to move, 3 days left; "
        f"#{theirs.id} Xiangqi, carol to move, 3 days left.")
    image = Image.open(io.BytesIO(await picture.read()))
    assert image.width > 400  # two boards side by side

    alone = reply(await w.bob.slash(w.channel, "follow"))  # follows nothing, plays one
    assert "You follow nothing yet" in alone.content
    (own,) = alone.attachments
    assert own.description == (f"Your games at a glance: #{mine.id} Xiangqi, your move, "
                               "3 days left.")
