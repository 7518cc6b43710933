"""A question asked with buttons is closed once answered (``service.settled``): the
challenge, lobby, draw offer, takeback and pause posts, the claim-win card and the
result's "Rematch" lose their buttons and say what became of them (a turn's card only
loses its buttons once the turn is over), in the post's own language, whichever way
the answer came (a button, a slash command, the console or the web: the service called
directly), through the outbox like every other post: a restart between the answer and
the edit still edits, and a post that is gone holds nothing up. A four-player draw one
more player agreed to is told in the thread."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable
from typing import Any

import pytest

from bot.discordapp.dispatcher import LAYOUT, remembered_layout
from service import GuildSettings
from tests.discordapp.conftest import World, make_bot
from tests.discordapp.faults import FaultyHTTP
from tests.discordapp.helpers import (
    FOUR_PLAYER_GAME,
    buttons,
    is_card,
    pinged,
    play_some_moves,
    post_text,
    reply,
    result_post,
    shows_board,
    start_four_player_match,
    start_match,
)
from tests.discordapp.test_delivered_once import crash_after_posting
from tests.discordapp.test_match_cards import carded_bot

pytestmark = pytest.mark.simcord(settle_timeout=30.0)

HOUR = 3600.0


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


def dies_before_delivering(w: World, monkeypatch: pytest.MonkeyPatch) -> None:
    """From now on the process stores changes but dies before it delivers them (their
    entries wait in the outbox for the next start)."""
    cog: Any = w.bot.get_cog("Deliveries")

    async def crashed(event: Any) -> None:
        return None

    monkeypatch.setattr(cog.notifier.relay, "notify", crashed)


async def restarted(w: World) -> None:
    """A new process over the same database, started and done with what it found."""
    w.bot = make_bot(w.tmp_path, w.repository)
    await w.env.restart_bot(w.bot)
    await w.env.settle()
    await drain(w)


async def test_a_restart_between_the_answer_and_the_edit_still_edits(
        world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    w = world
    m, thread = await start_match(w, w.alice, w.bob, seat=0)
    await w.alice.slash(thread, "move", move="h3-e3")
    await w.bob.slash(thread, "draw", action="offer")
    offer = thread.last_message
    await drain(w)
    dies_before_delivering(w, monkeypatch)
    await w.service.decline_draw(m.id, w.alice.id)
    assert [e.kind for e in await w.repository.pending_outbox()] == \
        ["draw-declined", "offer-settled"]
    assert buttons(now_of(thread, offer))  # not edited yet
    await restarted(w)
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


def card_closed(channel: Any, post: Any, says: str | None = None) -> Any:
    """A closed card: still a card with its board and words, no buttons, and ``says``
    as its last line of text before its footer (None: nothing added)."""
    shown = now_of(channel, post)
    assert is_card(shown) and buttons(shown) == [], shown.components
    before, after = post_text(post).splitlines(), post_text(shown).splitlines()
    if says is None:
        assert after == before
    else:
        assert after == [*before[:-1], says, before[-1]], after
    assert shows_board(shown) == shows_board(post)
    return shown


def turn_cards(thread: Any) -> list[Any]:
    return [m for m in thread.history() if is_card(m) and "to move" in post_text(m)]


async def test_a_turn_card_loses_its_buttons_once_the_turn_is_over(world: World) -> None:
    """Each move closes the card before it (after posting the next one: one small
    edit, no upload, pinging nobody); a takeback and the match's end close the last."""
    w = world
    m, thread = await start_match(w, w.alice, w.bob, seat=0, rated=False)
    await w.alice.slash(thread, "move", move="h3-e3")
    first = thread.last_message
    assert [b.label for b in buttons(first)] == ["+1 day", "Take back"]
    requests = len(w.env.http_requests)
    await w.bob.slash(thread, "move", move="h8-e8")
    await drain(w)
    card_closed(thread, first)
    second = thread.last_message
    assert second.id != first.id and buttons(second)
    made = [r for r in w.env.http_requests[requests:] if r.method in ("POST", "PATCH")
            and "/messages" in r.path]
    posted = next(i for i, r in enumerate(made) if r.method == "POST")
    (edit,) = [(i, r) for i, r in enumerate(made) if r.method == "PATCH"
               and r.path.endswith(f"/messages/{first.id}")]
    assert posted < edit[0]  # the next turn's card went out first
    assert edit[1].json is not None and "attachments" not in edit[1].json  # no upload
    assert edit[1].json["allowed_mentions"] == {"parse": []}
    await w.service.request_takeback(m.id, w.bob.id)
    await w.service.accept_takeback(m.id, w.alice.id)  # back to bob's turn
    await drain(w)
    card_closed(thread, second)
    await w.bob.slash(thread, "move", move="h8-e8")
    again = thread.last_message
    assert buttons(again)
    await w.alice.slash(thread, "resign")
    await drain(w)
    card_closed(thread, again)
    assert all(buttons(c) == [] for c in turn_cards(thread))


async def test_a_turn_card_closes_after_a_restart(
        world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    w = world
    m, thread = await start_match(w, w.alice, w.bob, seat=0)
    await w.alice.slash(thread, "move", move="h3-e3")
    card = thread.last_message
    assert buttons(card)
    dies_before_delivering(w, monkeypatch)
    await w.service.move(m.id, w.bob.id, "h8-e8")
    (turn,) = await w.repository.pending_outbox()  # the next turn, closing the card
    assert turn.kind == "turn" and f'"closes":{m.ply + 1}' in turn.payload
    await restarted(w)
    card_closed(thread, card)
    assert buttons(thread.last_message)  # the new turn's card, posted after the restart
    assert await w.repository.pending_outbox() == []


def made_on(w: World, since: int, thread: Any, post: Any) -> tuple[int, int]:
    """(new posts in ``thread``, edits of ``post``) that reached Discord since the
    ``since``-th request."""
    made = w.env.http_requests[since:]
    return (sum(r.method == "POST" and r.path == f"/channels/{thread.id}/messages"
                for r in made),
            sum(r.method == "PATCH" and r.path == f"/channels/{thread.id}/messages/{post.id}"
                for r in made))


async def test_a_turn_cards_edit_retried_posts_the_next_turn_once(world: World) -> None:
    """The next turn's post closes the card before it: when that edit fails on a 5xx
    the entry is retried, and the retry edits again without posting the turn again."""
    w = world
    _m, thread = await start_match(w, w.alice, w.bob, seat=0)
    await w.alice.slash(thread, "move", move="h3-e3")
    await drain(w)
    card = thread.last_message
    faults = FaultyHTTP.install(w.bot)
    edit = f"/channels/{thread.id}/messages/{card.id}"
    faults.add("PATCH", edit, "server-error", every=2)  # the first edit fails, then passes
    since = len(w.env.http_requests)
    await w.bob.slash(thread, "move", move="h8-e8")
    await drain(w)
    assert faults.failed == [("PATCH", edit, "server-error")]
    card_closed(thread, card)
    assert made_on(w, since, thread, card) == (1, 1)  # one turn post, one edit through
    assert "h8-e8" in post_text(thread.last_message) and buttons(thread.last_message)
    assert await w.repository.pending_outbox() == []


async def test_a_turn_redelivered_after_a_crash_closes_the_card_once(world: World) -> None:
    """The process dies after the next turn's post and the card's edit, before the entry
    is deleted: the next start delivers it again, finds the post already made (its
    nonce) and the card already closed (forgotten): nothing posted or edited twice."""
    w = world
    m, thread = await start_match(w, w.alice, w.bob, seat=0)
    await w.alice.slash(thread, "move", move="h3-e3")
    await drain(w)
    card = thread.last_message
    dying = await crash_after_posting(w)
    since = len(w.env.http_requests)
    await w.service.move(m.id, w.bob.id, "h8-e8")
    await drain(w)
    assert dying.killed >= 1 and [e.kind for e in await w.repository.pending_outbox()] \
        == ["turn"]
    card_closed(thread, card)
    await restarted(w)
    assert await w.repository.pending_outbox() == []
    assert made_on(w, since, thread, card) == (2, 1)  # the post redelivered, no new edit
    assert sum("h8-e8" in post_text(p) for p in thread.history()) == 1
    assert await w.repository.post_of(m.id, f"turn:{m.ply + 1}") is None


async def test_a_skipped_seats_card_and_a_draw_offer_he_made_moot_close(
        world: World) -> None:
    w = world
    m, thread = await start_four_player_match(w, game="alquerque-grande:players=4,mode=fast",
                                              on_timeout="skip")
    await play_some_moves(w, thread, m.id, 4)  # everyone moved: a skip ends nothing
    card = thread.last_message
    assert buttons(card)
    m = await w.service.get_match(m.id)
    late = next(a for a in (w.alice, w.bob, w.carol, w.dave) if a.id == m.to_move[0])
    offerer = next(a for a in (w.alice, w.bob, w.carol, w.dave) if a.id != late.id)
    await offerer.slash(thread, "draw", action="offer")
    offer = thread.last_message
    await w.env.advance_time(25 * HOUR)  # the seat to move is skipped
    await drain(w)
    assert (await w.service.get_match(m.id)).status.value == "active"
    card_closed(thread, card)
    closed(thread, offer, f"⌛ Lapsed: {late.mention} is out of the game.")


async def claim_walk(w: World, check: Callable[[Any, Any, str], object],
                     lapsed_is: Callable[[Any], bool]) -> Any:
    """A lapsed clock's "Claim win" / "Keep waiting" asked three times: kept waiting
    (settles nothing) then given a day, moot (the late player moved), claimed; each post
    checked closed by ``check`` (the thread, the post, its outcome line). The match, the
    claimed post."""
    m, thread = await start_match(w, w.alice, w.bob, seat=0, days=1, claim_win=True)
    await w.alice.slash(thread, "move", move="h3-e3")
    await w.bob.slash(thread, "move", move="h8-e8")
    await w.env.advance_time(25 * HOUR)  # alice's day runs out
    lapsed = thread.last_message
    assert lapsed_is(lapsed)
    assert [b.label for b in buttons(lapsed)] == ["Claim win", "Keep waiting"]
    await w.bob.click(lapsed, label="Keep waiting")  # settles nothing
    await drain(w)
    assert buttons(now_of(thread, lapsed))
    await w.service.give_time(m.id, w.bob.id)  # +1 day (the old turn card's is gone)
    await drain(w)
    check(thread, lapsed, f"⏳ {w.bob.mention} gave one more day instead.")

    await w.env.advance_time(25 * HOUR)
    moot = thread.last_message
    assert [b.label for b in buttons(moot)] == ["Claim win", "Keep waiting"]
    await w.alice.slash(thread, "move", move="b1-c3")  # moves before anyone claims
    await drain(w)
    check(thread, moot, "⌛ Moot: a move was played before anyone claimed.")

    await w.env.advance_time(25 * HOUR)
    claimed = thread.last_message
    await w.alice.click(claimed, label="Claim win")
    await drain(w)
    check(thread, claimed, f"🏁 Claimed by {w.alice.mention}.")
    assert (await w.service.get_match(m.id)).status.value == "finished"
    return claimed


async def test_a_claim_win_card_closes_once_claimed_given_a_day_or_moot(
        world: World) -> None:
    await claim_walk(world, card_closed, is_card)


async def finished(w: World) -> tuple[Any, Any, Any]:
    m, thread = await start_match(w, w.alice, w.bob, seat=0)
    await w.alice.slash(thread, "move", move="h3-e3")
    await w.bob.slash(thread, "move", move="h10-g8")
    await w.alice.slash(thread, "resign")
    await drain(w)
    result = result_post(thread)
    assert [b.label for b in buttons(result)] == ["Rematch"]
    return m, thread, result


async def test_a_results_rematch_shows_where_the_rematch_stands(world: World) -> None:
    """Asked, the result's "Rematch" goes (a click would be refused: one live rematch
    at a time) and a line names the new match; started or declined, the line says so;
    withdrawn, "Rematch" is back and the line gone (one may ask again)."""
    w = world
    m, thread, result = await finished(w)
    await w.bob.click(result, label="Rematch")
    challenge = w.channel.last_message
    rematch = match_of(challenge)
    await drain(w)
    closed(thread, result, f"🔁 Rematch asked by {w.bob.mention}: match #{rematch}.")
    await w.alice.click(challenge, label="Accept")
    await drain(w)
    closed(thread, result, f"🔁 Rematch started: match #{rematch}.")
    assert now_of(thread, result).embeds  # the result's board stays
    assert await w.repository.post_of(m.id, "rematch") is None  # settled: done

    _, thread, result = await finished(w)
    await w.alice.click(result, label="Rematch")
    withdrawn = w.channel.last_message
    await drain(w)
    assert buttons(now_of(thread, result)) == []
    await w.alice.click(withdrawn, label="Cancel")  # withdrawn: one may ask again
    await drain(w)
    again = now_of(thread, result)
    assert [b.label for b in buttons(again)] == ["Rematch"]
    assert again.content == result.content and again.embeds
    await w.alice.click(result, label="Rematch")
    await w.bob.click(w.channel.last_message, label="Decline")
    await drain(w)
    closed(thread, result, f"❌ Rematch declined by {w.bob.mention}.")


async def test_a_rematch_settled_before_its_result_went_out_shows_on_it(
        world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    """The process dies before the result's post; the rematch is asked and accepted
    (the console, the web) and told meanwhile, with no result post to show it on: the
    next start posts the result with its line, not a "Rematch" that would be refused."""
    w = world
    m, thread = await start_match(w, w.alice, w.bob, seat=0)
    await w.alice.slash(thread, "move", move="h3-e3")
    await drain(w)
    cog: Any = w.bot.get_cog("Deliveries")
    notify = cog.notifier.relay.notify
    dies_before_delivering(w, monkeypatch)
    await w.service.resign(m.id, w.bob.id)
    monkeypatch.setattr(cog.notifier.relay, "notify", notify)
    rematch = await w.service.rematch(m.id, w.alice.id)
    await w.service.accept(rematch.id, w.bob.id)
    await drain(w)
    assert {e.match_id for e in await w.repository.pending_outbox()} == {m.id}
    await restarted(w)
    closed(thread, result_post(thread), f"🔁 Rematch started: match #{rematch.id}.")
    assert await w.repository.post_of(m.id, "rematch") is None


async def test_a_result_remembered_by_an_older_tablero_keeps_rematch_till_settled(
        world: World) -> None:
    """Remembered without its button (before a withdrawn rematch could give it back), a
    result is not closed while its rematch is only asked; answered, it is."""
    w = world
    m, thread, result = await finished(w)
    kept = await w.repository.post_of(m.id, "rematch")
    data = json.loads(kept.content[len(LAYOUT):])
    await w.repository.remember_post(m.id, "rematch", dataclasses.replace(
        kept, content=remembered_layout(data["components"], data["content"])))
    rematch = await w.service.rematch(m.id, w.bob.id)
    await drain(w)
    assert [b.label for b in buttons(now_of(thread, result))] == ["Rematch"]
    await w.service.accept(rematch.id, w.alice.id)
    await drain(w)
    closed(thread, result, f"🔁 Rematch started: match #{rematch.id}.")


async def test_a_draw_offer_a_takeback_made_moot_says_so(world: World) -> None:
    w = world
    m, thread = await start_match(w, w.alice, w.bob, seat=0, rated=False)
    await w.alice.slash(thread, "move", move="h3-e3")
    await w.bob.slash(thread, "draw", action="offer")
    offer = thread.last_message
    await w.service.request_takeback(m.id, w.alice.id)
    await w.service.accept_takeback(m.id, w.bob.id)
    await drain(w)
    closed(thread, offer, "⌛ Lapsed: a move was taken back.")


async def test_an_embed_turn_post_loses_its_buttons_and_keeps_its_words(
        world: World) -> None:
    """Without cards (TABLERO_MATCH_CARDS=off) the turn post is words and an embed: the
    edit sends its components only, and both stay as they were."""
    w = world
    w.bot = carded_bot(w.tmp_path, w.repository, cards=False)
    await w.env.restart_bot(w.bot)
    _, thread = await start_match(w, w.alice, w.bob, seat=0)
    await w.alice.slash(thread, "move", move="h3-e3")
    post = thread.last_message
    assert post.embeds and not is_card(post) and buttons(post)
    await w.bob.slash(thread, "move", move="h8-e8")
    await drain(w)
    shown = now_of(thread, post)
    assert buttons(shown) == [] and shown.content == post.content
    assert [e.to_dict() for e in shown.embeds] == [e.to_dict() for e in post.embeds]


async def test_a_turn_post_redelivered_before_it_was_remembered_still_closes(
        world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    """The process dies after the turn's post went out, before the card was remembered:
    the next start delivers the entry again, gets the post already made (its nonce),
    and remembers that post, so the next move still closes it."""
    w = world
    m, thread = await start_match(w, w.alice, w.bob, seat=0)
    await drain(w)
    dying = await crash_after_posting(w)
    remember = w.repository.remember_post

    async def killed(*args: Any) -> None:
        raise RuntimeError("killed between the post and remembering it")

    monkeypatch.setattr(w.repository, "remember_post", killed)
    await w.service.move(m.id, w.alice.id, "h3-e3")
    await drain(w)
    card = thread.last_message
    assert buttons(card) and dying.killed >= 1
    assert await w.repository.post_of(m.id, f"turn:{m.ply + 1}") is None
    monkeypatch.setattr(w.repository, "remember_post", remember)
    await restarted(w)
    assert await w.repository.pending_outbox() == []
    assert thread.last_message.id == card.id  # not posted twice
    assert await w.repository.post_of(m.id, f"turn:{m.ply + 1}") is not None
    await w.bob.slash(thread, "move", move="h8-e8")
    await drain(w)
    card_closed(thread, card)


async def test_an_embed_claim_win_post_closes_with_its_words_kept(world: World) -> None:
    """Without cards (TABLERO_MATCH_CARDS=off) a lapsed clock's "Claim win" / "Keep
    waiting" is a plain post: closing it removes its buttons and adds what became of it
    under its words, whichever way the question ended."""
    w = world
    w.bot = carded_bot(w.tmp_path, w.repository, cards=False)
    await w.env.restart_bot(w.bot)
    claimed = await claim_walk(w, closed, lambda post: not is_card(post)
                               and "claim the win" in post.content)
    edits = [r for r in w.env.http_requests if r.method == "PATCH"
             and r.path.endswith(f"/messages/{claimed.id}")]
    assert edits and all(r.json is not None and r.json["allowed_mentions"] == {"parse": []}
                         for r in edits)  # the edit pings nobody again
