"""Issue 36 §4: each message reaches its reader once. The outbox delivers at least once; a
crash between Discord accepting a post and the entry's deletion used to post it again
after the restart. Every outbox post now carries a nonce derived from its entry, step and
destination, with ``enforce_nonce``; SimCord answers a repeated nonce as Discord does
(``tests/discordapp/nonces.py``), so the redelivery finds the message already posted.
"""

from __future__ import annotations

import functools
from datetime import timedelta
from typing import Any

import discord
import pytest

import rules
from bot.discordapp.notifier import DiscordNotifier
from service import Repository
from tests.discordapp.conftest import World, make_bot
from tests.discordapp.helpers import buttons, start_match, words
from tests.discordapp.nonces import NONCE_WINDOW, NonceLedger


def notifier_of(w: World) -> DiscordNotifier:
    cog: Any = w.bot.get_cog("Deliveries")
    notifier: DiscordNotifier = cog.notifier
    return notifier


def messages_in(w: World) -> int:
    """Every message in SimCord: channels, threads and DMs."""
    return sum(len(found) for found in w.env.backend.messages.values())


class DiesBeforeDeleting:
    """The repository as a process that is killed right after Discord accepted an
    entry's posts sees it: the entry is never deleted (nor is anything after it)."""

    def __init__(self, inner: Repository) -> None:
        self.inner = inner
        self.killed = 0

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)

    async def mark_delivered(self, entry_id: int) -> None:
        self.killed += 1
        raise RuntimeError("killed between the post and the deletion")


async def crash_after_posting(w: World) -> DiesBeforeDeleting:
    """From now on this process posts and dies before deleting what it posted."""
    dying = DiesBeforeDeleting(w.repository)
    notifier_of(w).relay.repository = dying  # type: ignore[assignment]
    return dying


async def first_move(w: World, match_id: int) -> tuple[int, str]:
    """(who is to move, his first legal move in notation order)."""
    match = await w.service.get_match(match_id)
    p, _marks = await w.service.position(match_id)
    v = rules.variant(match.game)
    return match.to_move[0], min(v.format_move(p, mv) for mv in p.legal_moves())


async def restart(w: World) -> None:
    w.bot = make_bot(w.tmp_path, w.repository)
    await w.env.restart_bot(w.bot)
    await w.env.settle()
    await notifier_of(w).drain()


async def test_simcord_answers_a_repeated_nonce_with_the_first_message(
        world: World, nonces: NonceLedger) -> None:
    """As Discord documents ``enforce_nonce``: same author, channel and nonce within the
    window -> the earlier message, nothing new; another channel, another nonce, or the
    window passed -> a new message. Direct messages are channels too."""
    w = world
    channel = w.bot.get_channel(w.channel.id)
    assert isinstance(channel, discord.TextChannel)
    first = await channel.send("your turn", nonce="entry-1")
    again = await channel.send("your turn", nonce="entry-1")
    assert again.id == first.id and nonces.returned == 1
    other = await channel.send("your turn", nonce="entry-2")
    assert other.id != first.id
    assert [m.content for m in w.channel.history()] == ["your turn", "your turn"]
    dm = await w.bot.create_dm(discord.Object(w.alice.id))
    in_dm = await dm.send("your turn", nonce="entry-1")  # another channel: a new message
    assert in_dm.id != first.id
    assert (await dm.send("your turn", nonce="entry-1")).id == in_dm.id
    await w.env.advance_time((NONCE_WINDOW + timedelta(seconds=1)).total_seconds())
    late = await channel.send("your turn", nonce="entry-1")
    assert late.id != first.id and len(w.channel.history()) == 3


async def test_a_crash_between_delivery_and_deletion_shows_the_message_once(
        world: World, nonces: NonceLedger) -> None:
    """The bot posts Bob's turn and dies before deleting the entry; the next start
    delivers the entry again and the thread still holds the post once."""
    w = world
    m, thread = await start_match(w, w.alice, w.bob)
    await notifier_of(w).drain()
    mover, text = await first_move(w, m.id)
    dying = await crash_after_posting(w)
    await w.service.move(m.id, mover, text)
    await notifier_of(w).drain()
    assert dying.killed >= 1
    posts = [words(msg) for msg in thread.history()]
    assert sum("played **" in c for c in posts) == 1, posts
    # the new turn's post, which then closes the last turn's card (its buttons removed)
    assert [e.kind for e in await w.repository.pending_outbox()] == ["turn"]
    returned = nonces.returned

    await restart(w)
    assert await w.repository.pending_outbox() == []  # redelivered and deleted
    assert nonces.returned > returned  # the redelivery was answered with the old post
    assert [words(msg) for msg in thread.history()] == posts


@pytest.mark.parametrize("dm", [False, True], ids=["mentions", "dms"])
async def test_killed_after_every_delivery_of_a_match_nothing_is_shown_twice(
        world: World, nonces: NonceLedger, dm: bool) -> None:
    """A whole match (turns, a draw offer and its refusal, a resignation with its result
    and replay; with ``dms`` Bob hears of his turns by DM), the process killed after the
    posts of every action and before their deletion, restarted each time: after each
    restart the messages in SimCord are exactly those before it."""
    w = world
    if dm:
        await w.service.update_user_prefs(w.bob.id, "dm")
    m, thread = await start_match(w, w.alice, w.bob)
    await notifier_of(w).drain()
    kills = duplicated = 0

    async def killed_after(action: Any) -> None:
        nonlocal kills, duplicated
        await crash_after_posting(w)
        await action()
        await notifier_of(w).drain()
        assert await w.repository.pending_outbox(), "the kill left the entries behind"
        before = messages_in(w)
        await restart(w)
        kills += 1
        duplicated += messages_in(w) - before
        assert await w.repository.pending_outbox() == []

    for _ in range(6):
        mover, text = await first_move(w, m.id)
        await killed_after(functools.partial(w.service.move, m.id, mover, text))
    await killed_after(lambda: w.service.offer_draw(m.id, w.alice.id))
    await killed_after(lambda: w.service.decline_draw(m.id, w.bob.id))
    await killed_after(lambda: w.service.resign(m.id, w.alice.id))
    assert (kills, duplicated) == (9, 0)
    assert nonces.returned >= kills
    history = [msg.content for msg in thread.history()]
    assert sum(c.startswith("Replay of match") for c in history) == 1
    if dm:
        bobs = w.env.backend.messages.get(w.env.backend.get_dm_channel(w.bob.id).id, {})
        turns = [msg.content for msg in bobs.values() if msg.content.startswith("Your move")]
        assert len(turns) == len(set(turns)) == 3, turns  # each with its own post's link


async def test_a_turn_redelivered_past_the_nonce_window_is_found_not_posted_again(
        world: World, nonces: NonceLedger) -> None:
    """Killed after Bob's turn went out (his card in the thread, his DM) and before its
    entry was deleted, the bot comes back after Discord stopped answering the nonces:
    it reads the thread's and the DM's latest messages once each, finds its posts there
    and takes them as made (the card is remembered, so the next move closes it). No
    history is read on the normal path, nor for a redelivery within the window."""
    w = world
    await w.service.update_user_prefs(w.bob.id, "dm")
    m, thread = await start_match(w, w.alice, w.bob, seat=0)
    await notifier_of(w).drain()
    dying = await crash_after_posting(w)
    await w.service.move(m.id, w.alice.id, "h3-e3")
    await notifier_of(w).drain()
    card = thread.last_message
    assert dying.killed >= 1 and [e.kind for e in await w.repository.pending_outbox()] \
        == ["turn"]
    assert buttons(card)
    dm = w.env.backend.get_dm_channel(w.bob.id).id
    posts, dms = thread.history(), dict(w.env.backend.messages.get(dm, {}))
    await w.env.advance_time((NONCE_WINDOW + timedelta(seconds=1)).total_seconds())
    since, returned = len(w.env.http_requests), nonces.returned

    def reads(start: int = 0, stop: int | None = None) -> list[str]:
        return [r.path for r in w.env.http_requests[start:stop]
                if r.method == "GET" and r.path.endswith("/messages")]

    await restart(w)
    assert await w.repository.pending_outbox() == []
    assert nonces.returned == returned  # Discord forgot the nonces: no help from them
    assert [p.id for p in thread.history()] == [p.id for p in posts]
    assert w.env.backend.messages.get(dm, {}).keys() == dms.keys()
    assert sorted(reads(since)) == sorted([f"/channels/{thread.id}/messages",
                                           f"/channels/{dm}/messages"])
    assert reads(0, since) == []  # the normal path reads no history
    assert await w.repository.post_of(m.id, f"turn:{m.ply + 1}") is not None
    await w.bob.slash(thread, "move", move="h8-e8")
    await notifier_of(w).drain()
    assert buttons(next(p for p in thread.history() if p.id == card.id)) == []
