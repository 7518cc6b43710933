"""What a new player tripped over, through SimCord: a withdrawn draw offer told as
declined, a cancelled challenge's empty seats, tournaments without their kind."""

from __future__ import annotations

from tests.discordapp.conftest import World
from tests.discordapp.helpers import post_text, reply, start_match


async def test_the_offerer_withdrawing_his_draw_offer_is_told_so(world: World) -> None:
    w = world
    _m, thread = await start_match(w, w.alice, w.bob, seat=0)
    await w.alice.slash(thread, "draw", action="offer")
    offer = thread.last_message
    withdrawn = await w.alice.slash(thread, "draw", action="decline")
    assert reply(withdrawn).ephemeral
    assert reply(withdrawn).content == "You withdrew your draw offer."
    told = post_text(thread.last_message)
    assert "withdrew the draw offer" in told and "declined" not in told
    await w.alice.slash(thread, "draw", action="offer")
    offer = thread.last_message
    declined = await w.bob.click(offer, label="Decline draw")
    assert reply(declined).content == "You declined the draw."
    assert "declined the draw offer" in post_text(thread.last_message)


async def test_a_cancelled_challenge_says_so_without_empty_seats(world: World) -> None:
    w = world
    asked = await w.alice.slash(w.channel, "challenge", game="xiangqi", opponent=w.bob)
    assert reply(asked).ephemeral
    post = w.channel.last_message
    cancelled = await w.alice.click(post, label="Cancel")
    assert reply(cancelled).content == "Challenge cancelled."
    told = post_text(w.channel.last_message)
    assert "cancelled the Xiangqi challenge (match 1)" in told
    assert "open seat" not in told and "empty" not in told
