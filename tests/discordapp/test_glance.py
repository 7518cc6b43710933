"""``/follow`` alone (issue 42, SimCord): what you follow in words, and the followed and
your own live games at a glance in one picture, privately."""

from __future__ import annotations

import io
from typing import Any

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


HOUR = 3600.0


def digests(actor: Any) -> list[Any]:
    """The daily digests in ``actor``'s DMs."""
    channel = getattr(actor.user, "dm_channel", None)
    if channel is None:
        return []
    return [m for m in channel.history() if m.content.startswith("Your daily digest")]


async def test_the_daily_digest_arrives_once_a_day_and_survives_a_restart(
        world: World) -> None:
    from tests.discordapp.conftest import make_bot, make_repository

    w = world
    mine, _thread = await start_match(w, w.alice, w.bob, seat=0)
    on = reply(await w.alice.slash(w.channel, "follow", digest="on"))
    assert on.ephemeral and on.content.startswith("Daily digest on: your games here at a "
                                                  "glance by DM, the first <t:")
    both = reply(await w.alice.slash(w.channel, "follow", digest="on", match=mine.id))
    assert both.ephemeral and "Give `digest` alone" in both.content
    await w.env.advance_time(23 * HOUR)
    assert digests(w.alice) == []  # not before a day
    await w.env.advance_time(2 * HOUR)  # the sweep runs every hour
    (first,) = digests(w.alice)
    assert first.content == ("Your daily digest: 1 game at a glance. (`/follow digest:off` "
                             "stops it.)")
    (picture,) = first.attachments
    assert picture.filename == "digest.png"
    assert picture.description == (f"Your games at a glance: #{mine.id} Xiangqi, your "
                                   "move, 2 days left.")  # sent a day after asked
    assert digests(w.bob) == []  # asked for by alice only

    repository = await make_repository(w.tmp_path / "tablero.db")  # a new process
    fresh = make_bot(w.tmp_path, repository)
    await w.env.restart_bot(fresh)
    w.bot = fresh
    await w.env.advance_time(12 * HOUR)
    assert len(digests(w.alice)) == 1  # once a day
    await w.env.advance_time(13 * HOUR)
    assert len(digests(w.alice)) == 2  # the next day's, sent by the new process
    off = reply(await w.alice.slash(w.channel, "follow", digest="off"))
    assert off.content == "Daily digest off."
    await w.env.advance_time(25 * HOUR)
    assert len(digests(w.alice)) == 2
    await repository.close()
