"""Issue 12: every notification reaches its person whatever Discord answers.

For each failure Discord (or the network) can answer with, a whole match runs through
every kind of notification (challenge, turn, draw offer and its refusal, reminder,
clocks extended, result and replay; the 4-player ones in a second test), and for each
the person it is for is told by some route: a post that mentions him in the thread or
its channel, or a direct message. Nothing raises, and the outbox is empty at the end.

Retries sleep through a recording ``sleep`` (no real waiting): a 429 is retried after
exactly its ``retry_after``.
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
from collections.abc import Callable
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest

from bot.discordapp import TableroBot, embeds
from bot.discordapp.dispatcher import DMS_CLOSED_NOTICE
from bot.discordapp.notifier import DiscordNotifier
from locales.i18n import _, command_mentions, render
from service import GuildSettings
from tests.discordapp.conftest import DELIVERY, SWEEP_SECONDS, World, make_bot
from tests.discordapp.faults import RETRY_AFTER, FaultyHTTP
from tests.discordapp.helpers import (
    FOUR_PLAYER_GAME,
    body_words,
    registered_id,
    reply,
    start_match,
    words,
)

slept: list[float] = []


async def recording_sleep(seconds: float) -> None:
    slept.append(seconds)
    await asyncio.sleep(0)


@pytest.fixture
def simcord_bot(tmp_path: Path, repository: Any) -> TableroBot:
    slept.clear()
    return make_bot(tmp_path, repository,
                    delivery=dataclasses.replace(DELIVERY, sleep=recording_sleep))


def closed_notice(w: World) -> str:
    """The word to a user whose DMs are closed, as a reply in the server says it: its
    command by the mention the server knows."""
    with command_mentions({"notify": registered_id(w, "notify")}):
        return DMS_CLOSED_NOTICE.render("en-US")


def notifier_of(w: World) -> DiscordNotifier:
    cog: Any = w.bot.get_cog("Deliveries")
    notifier: DiscordNotifier = cog.notifier
    return notifier


class Inbox:
    """Who was told what: every message SimCord accepted, read from its request log."""

    def __init__(self, w: World) -> None:
        self.w = w

    def dm_channel(self, user_id: int) -> int:
        return int(self.w.env.backend.get_dm_channel(user_id).id)

    def told(self, user_id: int, needle: str, *, ping: bool = True) -> str | None:
        """The route by which ``user_id`` got a message containing ``needle``: "dm", or
        "mention" (a post in the match's place that pings him; with ``ping`` False any
        post there: news for nobody in particular), or None."""
        dm = f"/channels/{self.dm_channel(user_id)}/messages"
        for r in self.w.env.http_requests:
            if r.method != "POST" or not r.path.endswith("/messages"):
                continue
            body = r.json if isinstance(r.json, dict) else {}
            content = body_words(body)
            if needle.lower() not in content.lower():
                continue
            if r.path == dm:
                return "dm"
            pinged = (body.get("allowed_mentions") or {}).get("users") or []
            if not ping and r.path.startswith("/channels/") and not self.is_dm(r.path):
                return "mention"
            if str(user_id) in map(str, pinged) and f"<@{user_id}>" in content:
                return "mention"
        return None

    def is_dm(self, path: str) -> bool:
        return any(path == f"/channels/{self.dm_channel(u.id)}/messages"
                   for u in (self.w.alice, self.w.bob, self.w.carol, self.w.dave))

    def dms_to(self, user_id: int) -> list[str]:
        dm = f"/channels/{self.dm_channel(user_id)}/messages"
        return [json.dumps(r.json) for r in self.w.env.http_requests
                if r.method == "POST" and r.path == dm]


# ------------------------------------------------------------------ failure cases

def thread_refuses(kind: str) -> Callable[[FaultyHTTP, World, int | None], None]:
    def install(faults: FaultyHTTP, w: World, thread: int | None) -> None:
        faults.add("POST", f"/channels/{thread}/messages", kind)
    return install


def archived_reopenable(faults: FaultyHTTP, w: World, thread: int | None) -> None:
    # every post first finds the thread archived; the bot reopens it and posts again
    faults.add("POST", f"/channels/{thread}/messages", "archived", every=2)


def archived_locked(faults: FaultyHTTP, w: World, thread: int | None) -> None:
    faults.add("POST", f"/channels/{thread}/messages", "archived")
    faults.add("PATCH", f"/channels/{thread}", "missing-access")


def place_refuses(faults: FaultyHTTP, w: World, thread: int | None) -> None:
    faults.add("POST", f"/channels/{w.channel.id}/messages", "missing-access")
    faults.add("POST", f"/channels/{thread}/messages", "missing-access")


def dms_closed(faults: FaultyHTTP, w: World, thread: int | None) -> None:
    inbox = Inbox(w)
    closed = {inbox.dm_channel(u.id) for u in (w.alice, w.bob, w.carol, w.dave)}
    faults.add("POST", "/channels/*/messages", "dms-closed",
               when=lambda path: int(path.split("/")[2]) in closed)


def flaky(kind: str) -> Callable[[FaultyHTTP, World, int | None], None]:
    def install(faults: FaultyHTTP, w: World, thread: int | None) -> None:
        faults.add("POST", "/channels/*/messages", kind, every=2)
    return install


CASES = {
    "403 Missing Access on the thread": thread_refuses("missing-access"),
    "404 Unknown Channel (thread deleted)": thread_refuses("unknown-channel"),
    "50083 archived thread, reopened": archived_reopenable,
    "50083 archived and locked thread": archived_locked,
    "403 on the thread and its channel": place_refuses,
    "50007 DMs closed": dms_closed,
    "429 with retry_after": flaky("rate-limited"),
    "500 server error": flaky("server-error"),
    "connection reset": flaky("connection-reset"),
}


EARLY = {"403 on the thread and its channel", "50007 DMs closed", "429 with retry_after",
         "500 server error", "connection reset"}
"""Failures of the channel, of DMs and of the network apply from the challenge on; the
others are the match thread's, from its start."""


@pytest.mark.parametrize("case", list(CASES))
async def test_every_notification_reaches_its_person_whatever_discord_answers(
        world: World, case: str) -> None:
    w = world
    notifier = notifier_of(w)
    inbox = Inbox(w)
    faults = FaultyHTTP.install(w.bot)
    install = CASES[case]
    early = case in EARLY
    await w.service.update_user_prefs(w.bob.id, "dm")  # Bob's pings come as DMs
    if early:  # failures of the channel and of DMs apply from the challenge on
        install(faults, w, None)

    async def step(act: Any) -> Any:
        result = await act
        await notifier.drain()
        return result

    told: dict[str, str | None] = {}
    m = await step(w.service.challenge(w.guild.id, w.channel.id, w.alice.id, "xiangqi",
                                       opponents=[w.bob.id], seat=0))
    told["challenge"] = inbox.told(w.bob.id, "challenge")  # DMs closed: a short reply
    m = await step(w.service.accept(m.id, w.bob.id))
    told["start"] = inbox.told(w.alice.id, "your move")
    if not early:
        install(faults, w, m.thread_id)
    await step(w.service.move(m.id, w.alice.id, "h3-e3"))
    told["turn"] = inbox.told(w.bob.id, "your move")
    await step(w.service.offer_draw(m.id, w.alice.id))
    told["draw offer"] = inbox.told(w.bob.id, "offers a draw")
    await step(w.service.decline_draw(m.id, w.bob.id))
    told["draw declined"] = inbox.told(w.alice.id, "declined the draw", ping=False)
    m = await w.service.get_match(m.id)
    assert m.deadline is not None
    await step(w.service.sweep(m.deadline - timedelta(hours=12)))
    told["reminder"] = inbox.told(w.bob.id, "time runs out")
    now = m.deadline - timedelta(hours=11)
    await w.service.resume(now=now)
    await step(w.service.resume(now=now + timedelta(days=2)))
    told["clocks extended"] = inbox.told(w.alice.id, "offline for 2 days", ping=False)
    await step(w.service.move(m.id, w.bob.id, "h8-e8"))  # both moved: a rated result
    await step(w.service.resign(m.id, w.bob.id))
    told["result"] = inbox.told(w.alice.id, f"match {m.id}")

    assert all(told.values()), (case, told, faults.failed)
    assert await w.repository.pending_outbox() == []  # the outbox drained
    assert faults.failed, "the failure was exercised"
    w.env.raise_errors()  # nothing raised in the bot

    if case.startswith("429"):
        assert RETRY_AFTER in slept  # retried after exactly Discord's retry_after
    if case.startswith(("403", "404", "50083")) and case != "403 on the thread and its channel":
        assert told["turn"] == "dm" and told["start"] == "mention"
        assert any(r.path == f"/channels/{w.channel.id}/messages" and "Replay of match"
                   in str(r.json) for r in w.env.http_requests) or "reopened" in case
    if case == "50083 archived thread, reopened":
        assert any(r.method == "PATCH" and r.path == f"/channels/{m.thread_id}"
                   for r in w.env.http_requests)
        assert told["start"] == "mention"
    if case == "403 on the thread and its channel":
        assert told["start"] == "dm" and told["draw declined"] == "dm"
        owner = w.guild.owner.id
        notices = [d for d in inbox.dms_to(owner) if "cannot post in" in d]
        assert notices and ("Send Messages" in notices[0] or "Missing Access" in notices[0])
    if case == "50007 DMs closed":
        assert told["turn"] == "mention" and told["draw offer"] == "mention"
        # the next command Bob uses tells him, once, ephemerally
        first = await w.bob.slash(w.channel, "games")
        notes = [f for f in first.followups if f.content == closed_notice(w)]
        assert len(notes) == 1 and notes[0].ephemeral
        again = await w.bob.slash(w.channel, "games")
        assert not [f for f in again.followups if f.content == closed_notice(w)]
        assert reply(again).ephemeral


@pytest.mark.parametrize("case", ["403 Missing Access on the thread", "50007 DMs closed",
                                  "500 server error", "403 on the thread and its channel"])
async def test_lobby_and_player_out_reach_their_people(world: World, case: str) -> None:
    w = world
    notifier = notifier_of(w)
    inbox = Inbox(w)
    faults = FaultyHTTP.install(w.bot)
    for u in (w.carol, w.dave):
        await w.service.update_user_prefs(u.id, "dm")
    if case in EARLY:
        CASES[case](faults, w, None)
    game, options = FOUR_PLAYER_GAME.split(":")
    lobby = await w.service.challenge(
        w.guild.id, w.channel.id, w.alice.id, game,
        options=dict(o.split("=") for o in options.split(",")), rated=False)
    for u in (w.bob, w.carol):
        await w.service.join(lobby.id, u.id)
    await notifier.drain()
    assert inbox.told(w.alice.id, "joined the", ping=False), faults.failed
    m = await w.service.join(lobby.id, w.dave.id)
    await notifier.drain()
    if case not in EARLY:
        CASES[case](faults, w, m.thread_id)
    for _turn in range(4):  # everyone moves once: leaving then puts a player out
        (mover,) = m.to_move
        m = (await w.service.move(m.id, mover, (await w.service.suggest_moves(
            m.id, mover))[0][0])).match
    (first,) = m.to_move
    others = [u for u in m.players() if u != first]
    await w.service.resign(m.id, first)
    await notifier.drain()
    for player in others:
        assert inbox.told(player, "is out", ping=False), (case, player, faults.failed)
    assert await w.repository.pending_outbox() == []
    w.env.raise_errors()


async def test_a_challenge_whose_dm_is_refused_is_posted_once_and_answered_briefly(
        world: World) -> None:
    """Bob takes his pings as DMs, and his DMs turn out closed: the challenge is in the
    channel once (not reposted with his mention), and one short reply to it, in the
    server's language, mentions him and points at it."""
    w = world
    await w.repository.save_guild_settings(GuildSettings(w.guild.id, language="de"))
    await w.service.update_user_prefs(w.bob.id, "dm")
    dms_closed(FaultyHTTP.install(w.bot), w, None)
    m = await w.service.challenge(w.guild.id, w.channel.id, w.alice.id, "xiangqi",
                                  opponents=[w.bob.id], seat=0)
    await notifier_of(w).drain()
    posts = w.channel.history()
    challenge = render(embeds.challenge_text(m, w.alice.id, [w.bob.id]), "de")
    carrying = [p for p in posts if challenge in words(p)]
    assert len(carrying) == 1, [words(p) for p in posts]
    (short,) = [p for p in posts if p.reference is not None]
    assert short.reference.message_id == carrying[0].id
    assert words(short) == render(_(
        "{player}, you have a challenge from {challenger}: accept or decline it above.",
        player=f"<@{w.bob.id}>", challenger=f"<@{w.alice.id}>"), "de")
    assert Inbox(w).told(w.bob.id, words(short)) == "mention"  # it pings him
    assert len(posts) == 2


async def test_a_restart_delivers_what_a_crash_left_undelivered_once(
        world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    """The process dies right after committing a move and a resignation (nothing was
    handed to Discord); the next start posts the turn, the result and the replay (read
    again from the database), each once, and a later poll repeats nothing."""
    w = world
    m, thread = await start_match(w, w.alice, w.bob)
    people = {w.alice.id: w.alice, w.bob.id: w.bob}
    other = m.to_move[0]
    mover = next(u for u in people if u != other)
    await w.service.move(m.id, other, "h1-g3")  # both move: the resignation is a result
    await notifier_of(w).drain()

    async def crashed(event: Any) -> None:
        return None

    monkeypatch.setattr(notifier_of(w).relay, "notify", crashed)
    await w.service.move(m.id, mover, "h8-e8")
    await w.service.resign(m.id, other)
    # the turn closes the card before it; the result, with no next turn, has a closing
    assert [e.kind for e in await w.repository.pending_outbox()] == \
        ["turn", "result", "offer-settled"]
    posted_before = len(thread.history())

    w.bot = make_bot(w.tmp_path, w.repository)
    await w.env.restart_bot(w.bot)
    await w.env.settle()
    await notifier_of(w).drain()
    new = [words(msg) for msg in thread.history()[posted_before:]]
    assert len(new) == 3, new
    assert "played **h8-e8" in new[0] and f"match {m.id}" in new[1]
    assert new[2] == f"Replay of match {m.id}:"
    assert await w.repository.pending_outbox() == []
    await w.env.advance_time(SWEEP_SECONDS + 1)  # a poll: nothing twice
    await notifier_of(w).drain()
    assert len(thread.history()) == posted_before + 3


async def test_closed_dms_are_remembered_across_a_restart(world: World) -> None:
    """A refusal stored before a restart is still told, once, after it."""
    w = world
    await w.repository.set_dms_closed(w.carol.id, True)  # refused by the previous run
    w.bot = make_bot(w.tmp_path, w.repository)
    await w.env.restart_bot(w.bot)
    await w.env.settle()
    first = await w.carol.slash(w.channel, "games")
    notice = closed_notice(w)
    assert [f.content for f in first.followups if f.ephemeral].count(notice) == 1
    assert "</notify:" in notice  # the server's reply names the command by its mention
    assert await w.repository.dms_closed_untold() == []
    again = await w.carol.slash(w.channel, "games")
    assert notice not in [f.content for f in again.followups]
