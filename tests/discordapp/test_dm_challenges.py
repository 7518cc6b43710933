"""A challenge sent by direct message (``/notify mode:dm``) carries Accept and Decline,
which work from the DM itself (a DM has no server: the click is answered in the match's
own server), are for the invited player alone, and close as the challenge's post closes
once it is settled, whichever way."""

from __future__ import annotations

from typing import Any

import pytest

from bot.discordapp.components import match_buttons
from tests.discordapp.conftest import World
from tests.discordapp.helpers import FOUR_PLAYER_GAME, buttons, posts_left_open, reply

pytestmark = pytest.mark.simcord(settle_timeout=30.0)


async def dm_challenge(w: World) -> Any:
    """Alice challenges Bob, who chose DMs: the DM he gets."""
    await w.service.update_user_prefs(w.bob.id, "dm")
    await w.alice.slash(w.channel, "challenge", game="xiangqi", opponent=w.bob, seat=0)
    return w.bob.user.dm_channel.history()[-1]


def labels(message: Any) -> list[str]:
    return [b.label for b in buttons(message)]


async def test_a_dm_challenge_is_accepted_from_the_dm_by_the_invited_player_only(
        world: World) -> None:
    w = world
    dm = await dm_challenge(w)
    assert "challenges you" in dm.content and labels(dm) == ["Accept", "Decline"]
    post = w.channel.last_message
    # the same buttons in Carol's DMs (a forged or misdirected copy): not hers to press
    bot_dm: Any = await w.bot.create_dm(w.bot.get_user(w.carol.id) or await
                                        w.bot.fetch_user(w.carol.id))
    await bot_dm.send("?", view=match_buttons(int(str(buttons(dm)[0].custom_id)
                                                  .split(":")[2]), 0, ["accept"]))
    forged = w.carol.user.dm_channel.history()[-1]
    refused = reply(await w.carol.user.click(forged, label="Accept"))
    assert refused.ephemeral and "There is no match" in refused.content, refused.content
    assert w.channel.threads == []

    accepted = reply(await w.bob.user.click(dm, label="Accept"))
    assert accepted.ephemeral and accepted.content == "Challenge accepted."
    (thread,) = w.channel.threads
    m = await w.service.match_in_thread(thread.id)
    assert m is not None and m.guild_id == w.guild.id
    dm_now = next(d for d in w.bob.user.dm_channel.history() if d.id == dm.id)
    post_now = next(p for p in w.channel.history() if p.id == post.id)
    assert buttons(dm_now) == [] and buttons(post_now) == []
    assert dm_now.content.splitlines()[-1] == f"✅ Accepted by {w.bob.mention}."


async def test_a_dm_challenge_closes_when_declined_from_the_channel(world: World) -> None:
    w = world
    dm = await dm_challenge(w)
    declined = reply(await w.bob.click(w.channel.last_message, label="Decline"))
    assert declined.content == "Challenge declined."
    dm_now = next(d for d in w.bob.user.dm_channel.history() if d.id == dm.id)
    assert buttons(dm_now) == []
    assert dm_now.content.splitlines()[-1] == f"❌ Declined by {w.bob.mention}."


async def test_a_stale_dm_press_is_refused_in_clear_words(
        world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    """Pressed before the edit that closes it reached him (the challenge withdrawn)."""
    w = world
    posts_left_open(monkeypatch)
    dm = await dm_challenge(w)
    await w.alice.click(w.channel.last_message, label="Cancel")
    refused = reply(await w.bob.user.click(dm, label="Accept"))
    assert refused.ephemeral and "Match #1 is over" in refused.content, refused.content


async def test_a_lobby_invitation_by_dm_closes_on_his_own_answer(world: World) -> None:
    """In a 4-player lobby the invitation's DM closes once he answered from it; the
    lobby waits on for the others."""
    w = world
    await w.service.update_user_prefs(w.bob.id, "dm")
    await w.alice.slash(w.channel, "challenge", game=FOUR_PLAYER_GAME, opponent=w.bob,
                        opponent2=w.carol, opponent3=w.dave)
    dm = w.bob.user.dm_channel.history()[-1]
    assert labels(dm) == ["Accept", "Decline"]
    accepted = reply(await w.bob.user.click(dm, label="Accept"))
    assert accepted.content == "You're in; waiting for the other players."
    dm_now = next(d for d in w.bob.user.dm_channel.history() if d.id == dm.id)
    assert buttons(dm_now) == [] and w.channel.threads == []
    assert dm_now.content.splitlines()[-1] == f"✅ Accepted by {w.bob.mention}."
