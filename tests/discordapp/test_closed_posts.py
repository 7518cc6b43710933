"""A question asked with buttons is closed once answered (``service.settled``): the
challenge, lobby, draw offer, takeback and pause posts lose their buttons and say what
became of them, in the post's own language, whichever way the answer came (a button, a
slash command, the console or the web: the service called directly), through the outbox
like every other post: a restart between the answer and the edit still edits, and a
post that is gone holds nothing up. A four-player draw one more player agreed to is
told in the thread."""

from __future__ import annotations

from typing import Any

import pytest

from service import GuildSettings
from tests.discordapp.conftest import World, make_bot
from tests.discordapp.helpers import (
    FOUR_PLAYER_GAME,
    buttons,
    pinged,
    reply,
    start_four_player_match,
    start_match,
)

pytestmark = pytest.mark.simcord(settle_timeout=30.0)


def now_of(channel: Any, post: Any) -> Any:
    """``post`` as it is now (after any edit)."""
    return next(m for m in channel.history() if m.id == post.id)


def closed(channel: Any, post: Any, says: str) -> str:
    """The closed post's words, checked: no buttons left, the outcome on its last line."""
    shown = now_of(channel, post)
    assert buttons(shown) == [], shown.components
    assert shown.content.splitlines()[-1] == says, shown.content
    assert shown.content.startswith(post.content)  # its own words are kept above
    return str(shown.content)


def match_of(post: Any) -> int:
    """The match a post's buttons are for (``tablero:ACTION:MATCH:PLY``)."""
    return int(str(buttons(post)[0].custom_id).split(":")[2])


async def drain(w: World) -> None:
    cog: Any = w.bot.get_cog("Deliveries")
    await cog.notifier.drain()


async def test_a_challenge_accepted_by_button_loses_its_buttons(world: World) -> None:
    w = world
    await w.alice.slash(w.channel, "challenge", game="xiangqi", opponent=w.bob)
    post = w.channel.last_message
    assert [b.label for b in buttons(post)] == ["Accept", "Decline", "Cancel"]
    await w.bob.click(post, label="Accept")
    await drain(w)
    closed(w.channel, post, f"✅ Accepted by {w.bob.mention}.")
    # the edit pings nobody again
    assert not [r for r in w.env.http_requests if r.method == "PATCH"
                and (r.json or {}).get("allowed_mentions", {}).get("users")]


async def test_declined_and_withdrawn_challenges_from_the_console_or_web(world: World) -> None:
    w = world
    await w.alice.slash(w.channel, "challenge", game="damas", opponent=w.bob)
    declined = w.channel.last_message
    match_id = match_of(declined)
    await w.service.decline(match_id, w.bob.id)  # no Discord interaction at all
    await drain(w)
    closed(w.channel, declined, f"❌ Declined by {w.bob.mention}.")
    await w.alice.slash(w.channel, "challenge", game="damas", opponent=w.carol)
    withdrawn = w.channel.last_message
    await w.alice.click(withdrawn, label="Cancel")
    await drain(w)
    closed(w.channel, withdrawn, f"↩ Withdrawn by {w.alice.mention}.")


async def test_a_lobby_filled_says_the_match_started(world: World) -> None:
    w = world
    await w.alice.slash(w.channel, "challenge", game=FOUR_PLAYER_GAME)  # open: join
    lobby = w.channel.last_message
    for actor in (w.bob, w.carol):
        await actor.click(lobby, label="Join")
    assert "Join" in [b.label for b in buttons(now_of(w.channel, lobby))]  # still open
    await w.dave.click(lobby, label="Join")
    await drain(w)
    closed(w.channel, lobby, "✅ The lobby is full: the match has started.")


async def test_draw_offers_close_however_they_are_answered(world: World) -> None:
    w = world
    m, thread = await start_match(w, w.alice, w.bob, seat=0)
    await w.alice.slash(thread, "move", move="h3-e3")
    await w.bob.slash(thread, "move", move="h8-e8")
    await w.alice.slash(thread, "draw", action="offer")
    offer = thread.last_message
    assert [b.label for b in buttons(offer)] == ["Accept draw", "Decline draw"]
    await w.bob.click(offer, label="Decline draw")
    await drain(w)
    closed(thread, offer, f"❌ Declined by {w.bob.mention}.")

    await w.alice.slash(thread, "draw", action="offer")
    withdrawn = thread.last_message
    await w.alice.slash(thread, "draw", action="decline")  # the offerer takes it back
    await drain(w)
    closed(thread, withdrawn, f"↩ Withdrawn by {w.alice.mention}.")

    await w.alice.slash(thread, "draw", action="offer")
    lapsed = thread.last_message
    await w.alice.slash(thread, "move", move="b1-c3")  # her move keeps it...
    await w.bob.slash(thread, "move", move="b10-c8")  # ...bob's move instead of answering
    await drain(w)
    closed(thread, lapsed, "⌛ Lapsed: a move was played first.")

    await w.bob.slash(thread, "draw", action="offer")
    agreed = thread.last_message
    await w.alice.slash(thread, "draw", action="accept")
    await drain(w)
    closed(thread, agreed, "🤝 Draw agreed.")
    assert (await w.service.get_match(m.id)).status.value == "finished"


async def test_takebacks_and_pauses_close_too(world: World) -> None:
    w = world
    m, thread = await start_match(w, w.alice, w.bob, seat=0, rated=False)
    await w.alice.slash(thread, "move", move="h3-e3")
    await w.service.request_takeback(m.id, w.alice.id)  # asked on the web
    await drain(w)
    asked = thread.last_message
    assert [b.label for b in buttons(asked)] == ["Accept takeback", "Decline takeback"]
    await w.bob.click(asked, label="Accept takeback")
    await drain(w)
    closed(thread, asked, f"✅ Accepted by {w.bob.mention}: the move is taken back.")
    await w.alice.slash(thread, "move", move="h3-e3")
    await w.service.request_takeback(m.id, w.alice.id)
    await drain(w)
    refused = thread.last_message
    await w.service.decline_takeback(m.id, w.bob.id)
    await drain(w)
    closed(thread, refused, f"❌ Declined by {w.bob.mention}.")
    await w.service.propose_pause(m.id, w.bob.id, 2)
    await drain(w)
    pause = thread.last_message
    await w.service.accept_pause(m.id, w.alice.id)
    await drain(w)
    closed(thread, pause, f"⏸ Accepted by {w.alice.mention}: the match is paused.")


async def test_the_closing_line_speaks_the_posts_language(world: World) -> None:
    """Posted in German, closed in German, though the server speaks English since."""
    w = world
    await w.repository.save_guild_settings(GuildSettings(w.guild.id, language="de"))
    await w.alice.slash(w.channel, "challenge", game="xiangqi", opponent=w.bob)
    post = w.channel.last_message
    await w.repository.save_guild_settings(GuildSettings(w.guild.id, language="en-US"))
    cog: Any = w.bot.get_cog("Deliveries")
    cog.notifier.routes.forget_place(w.guild.id)
    await w.bob.click(post, label="Annehmen")
    await drain(w)
    said = now_of(w.channel, post).content.splitlines()[-1]
    assert said == f"✅ Angenommen von {w.bob.mention}.", said


async def test_a_restart_between_the_answer_and_the_edit_still_edits(
        world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    w = world
    m, thread = await start_match(w, w.alice, w.bob, seat=0)
    await w.alice.slash(thread, "move", move="h3-e3")
    await w.bob.slash(thread, "draw", action="offer")
    offer = thread.last_message
    await drain(w)
    cog: Any = w.bot.get_cog("Deliveries")

    async def crashed(event: Any) -> None:  # the process dies once the answer is stored
        return None

    monkeypatch.setattr(cog.notifier.relay, "notify", crashed)
    await w.service.decline_draw(m.id, w.alice.id)
    assert [e.kind for e in await w.repository.pending_outbox()] == \
        ["draw-declined", "offer-settled"]
    assert buttons(now_of(thread, offer))  # not edited yet
    w.bot = make_bot(w.tmp_path, w.repository)
    await w.env.restart_bot(w.bot)
    await w.env.settle()
    await drain(w)
    closed(thread, offer, f"❌ Declined by {w.alice.mention}.")
    assert await w.repository.pending_outbox() == []
    assert await w.repository.post_of(m.id, "draw") is None  # done with it


async def test_a_post_that_is_gone_holds_nothing_up(world: World) -> None:
    w = world
    await w.alice.slash(w.channel, "challenge", game="xiangqi", opponent=w.bob)
    post = w.channel.last_message
    match_id = match_of(post)
    await w.bot.http.delete_message(w.channel.id, post.id)  # a moderator deleted it
    await w.service.accept(match_id, w.bob.id)
    await drain(w)
    assert await w.repository.pending_outbox() == []
    (thread,) = w.channel.threads
    assert thread.history(), "the match's first turn went out all the same"
    assert await w.repository.post_of(match_id, "challenge") is None


async def test_a_four_player_draw_agreed_by_one_is_told_in_the_thread(world: World) -> None:
    w = world
    m, thread = await start_four_player_match(w)
    await w.bob.slash(thread, "draw", action="offer")
    offer = thread.last_message
    answered = reply(await w.carol.click(offer, label="Accept draw"))
    assert answered.ephemeral
    await drain(w)
    told = thread.last_message
    waiting = [u for u in (w.alice, w.dave)]
    order = [s.user_id for s in sorted(m.seats, key=lambda s: s.seat)
             if s.user_id in (w.alice.id, w.dave.id)]
    names = [next(a for a in waiting if a.id == u).mention for u in order]
    assert told.content == (f"🤝 {w.carol.mention} agreed to the draw; waiting for "
                            f"{names[0]} and {names[1]}.")
    assert sorted(pinged(w, told)) == sorted([w.alice.id, w.dave.id])
    assert buttons(now_of(thread, offer))  # the others still answer under the offer
    await w.alice.slash(thread, "draw", action="accept")
    await w.dave.click(offer, label="Accept draw")
    await drain(w)
    closed(thread, offer, "🤝 Draw agreed.")
