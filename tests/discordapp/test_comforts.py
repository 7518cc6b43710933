"""The comforts through SimCord (the real discord.py code paths): the takeback and
rematch buttons, /premove, /note with /history, /follow with its DMs and their fallback;
restarts in the middle."""

from __future__ import annotations

from typing import Any

import pytest

from tests.discordapp.conftest import World, make_bot, make_repository, service_of
from tests.discordapp.faults import FaultyHTTP
from tests.discordapp.helpers import (
    pinged,
    post_text,
    posts_left_open,
    reply,
    result_post,
    start_match,
)
from tests.discordapp.test_outbox_delivery import Inbox, notifier_of


async def restart(w: World) -> Any:
    """A new process: a new client over a new connection to the same SQLite file."""
    repository = await make_repository(w.tmp_path / "tablero.db")
    fresh = make_bot(w.tmp_path, repository)
    await w.env.restart_bot(fresh)
    return fresh, repository


async def test_takeback_is_asked_and_accepted_with_buttons_across_a_restart(
        world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    w = world
    # the answer closes the post (test_closed_posts); these clicks race that edit
    posts_left_open(monkeypatch)
    m, thread = await start_match(w, w.alice, w.bob, "xiangqi", rated=False, seat=0)
    await w.alice.slash(thread, "move", move="h3-e3")
    early = await w.bob.slash(thread, "takeback")
    assert reply(early).ephemeral and "Only the last move" in reply(early).content
    asked = await w.alice.slash(thread, "takeback")
    assert reply(asked).ephemeral and reply(asked).content == (
        "Takeback asked; your opponent answers. It lapses if they move instead.")  # not "he"
    post = thread.last_message
    assert "asks to take back" in post.content and w.bob.mention in post.content
    fresh, repository = await restart(w)
    try:
        nosy = await w.carol.click(post, label="Accept takeback")
        assert reply(nosy).ephemeral and "not playing" in reply(nosy).content
        mine = await w.alice.click(post, label="Accept takeback")
        assert "your opponent answers it" in reply(mine).content
        done = await w.bob.click(post, label="Accept takeback")
        assert reply(done).ephemeral and "taken back" in reply(done).content
        back = await service_of(fresh).get_match(m.id)
        assert back.ply == 0 and back.to_move == (w.alice.id,)
        told = thread.last_message
        assert "taken back" in told.content and w.alice.mention in told.content
        # the moment keeps its own brackets: "your move again, <t:R> (<t:f>)", not nested
        # in "your move again (<t:R> (<t:f>))"
        assert f"{w.alice.mention}, your move again, <t:" in told.content, told.content
        assert ":f>))" not in told.content
        assert told.attachments  # the board as it is again
        stale = await w.bob.click(post, label="Decline takeback")
        assert reply(stale).ephemeral  # the match moved on: the button is stale
        assert (await service_of(fresh).get_match(m.id)).ply == 0
    finally:
        await repository.close()


async def test_rated_games_refuse_takebacks_until_the_server_allows(world: World) -> None:
    w = world
    _match, thread = await start_match(w, w.alice, w.bob, "xiangqi", seat=0)
    await w.alice.slash(thread, "move", move="h3-e3")
    refused = await w.alice.slash(thread, "takeback")
    assert "does not allow takebacks in rated games" in reply(refused).content
    await w.service.update_guild_settings(w.guild.id, takebacks_rated=True)
    asked = await w.alice.slash(thread, "takeback")
    assert "Takeback asked" in reply(asked).content
    declined = await w.bob.click(thread.last_message, label="Decline takeback")
    assert "declined" in reply(declined).content
    assert "declined the takeback" in thread.last_message.content


async def test_the_rematch_button_swaps_colours(world: World) -> None:
    w = world
    m, thread = await start_match(w, w.alice, w.bob, "xiangqi", seat=0, days=4)
    await w.alice.slash(thread, "move", move="h3-e3")
    await w.bob.slash(thread, "move", move="h10-g8")
    await w.alice.slash(thread, "resign")
    result = result_post(thread)
    nosy = await w.carol.click(result, label="Rematch")
    assert reply(nosy).ephemeral and "Only the players" in reply(nosy).content
    asked = await w.bob.click(result, label="Rematch")
    assert reply(asked).ephemeral and "Rematch asked" in reply(asked).content
    again = await w.bob.slash(thread, "rematch")  # its button went once asked
    assert "already under way" in reply(again).content
    challenge = w.channel.last_message
    assert f"Rematch of match {m.id}" in challenge.content
    assert w.alice.mention in challenge.content
    fresh, repository = await restart(w)
    try:
        accepted = await w.alice.click(challenge, label="Accept")
        assert reply(accepted).ephemeral
        (new,) = await service_of(fresh).active_matches_of(w.guild.id, w.alice.id)
        assert new.id != m.id and new.seat_of(w.alice.id) == 1 and new.seat_of(w.bob.id) == 0
        assert new.days_per_move == 4 and new.rated
    finally:
        await repository.close()


async def test_premove_answers_at_once_and_bad_lines_are_named(world: World) -> None:
    w = world
    m, thread = await start_match(w, w.alice, w.bob, "xiangqi", rated=False, seat=0)
    await w.alice.slash(thread, "move", move="h3-e3")
    bad = await w.alice.slash(thread, "premove", action="add", line="h10-g8 b1-b5")
    assert reply(bad).ephemeral
    assert "move 2 (your move b1-b5) cannot be played there" in reply(bad).content
    ok = await w.alice.slash(thread, "premove", action="add",
                             line="h10-g8 b1-c3; c7-c6 h1-g3")
    assert reply(ok).ephemeral and "`h10-g8` → `b1-c3`" in reply(ok).content
    theirs = await w.bob.slash(thread, "premove")
    assert "You have no conditional moves" in reply(theirs).content  # private
    assert not any("b1-c3" in post_text(msg) for msg in thread.history())
    fresh, repository = await restart(w)  # the lines are stored, not remembered
    try:
        await w.bob.slash(thread, "move", move="h10-g8")
        assert any("conditional move" in msg.content and "answers at once" in msg.content
                   for msg in thread.history())
        after = await service_of(fresh).get_match(m.id)
        assert after.ply == 3 and after.to_move == (w.bob.id,)
        assert pinged(w, thread.last_message) == [w.bob.id]  # his turn
        left = await w.alice.slash(thread, "premove")
        assert "You have no conditional moves" in reply(left).content  # played, cancelled
    finally:
        await repository.close()


async def test_notes_are_ephemeral_and_come_with_the_authors_history(world: World) -> None:
    w = world
    m, thread = await start_match(w, w.alice, w.bob, "xiangqi", rated=False, seat=0)
    kept = await w.alice.slash(thread, "note", action="set", text="Centre cannon first.")
    assert reply(kept).ephemeral and "only you see it" in reply(kept).content
    assert not any("Centre cannon" in post_text(msg) for msg in thread.history())
    shown = await w.alice.slash(thread, "note")
    assert reply(shown).ephemeral and "Centre cannon first." in reply(shown).content
    bobs = await w.bob.slash(thread, "note")
    assert "You have no note" in reply(bobs).content
    nosy = await w.carol.slash(thread, "note", action="set", text="x")
    assert "Only the players" in reply(nosy).content
    history = await w.alice.slash(thread, "history")
    files = [a.filename for a in reply(history).attachments]
    assert f"match-{m.id}-note.txt" in files
    other = await w.bob.slash(thread, "history")
    assert f"match-{m.id}-note.txt" not in [a.filename for a in reply(other).attachments]
    # a note typed without the action is kept: it was thrown away ("You have no note")
    typed = await w.bob.slash(thread, "note", text="Watch the horse.")  # no action
    assert "Note kept on match" in reply(typed).content
    assert "Watch the horse." in reply(await w.bob.slash(thread, "note")).content


async def test_followers_get_a_dm_or_a_mention_when_their_dms_are_closed(
        world: World) -> None:
    w = world
    inbox = Inbox(w)
    notifier = notifier_of(w)
    m, thread = await start_match(w, w.alice, w.bob, "xiangqi", rated=False, seat=0)
    following = await w.carol.slash(w.channel, "follow", match=m.id)
    assert reply(following).ephemeral and "Following" in reply(following).content
    await w.dave.slash(w.channel, "follow", player=w.alice)
    twice = await w.carol.slash(w.channel, "follow", match=m.id)
    assert "already" in reply(twice).content
    own = await w.alice.slash(w.channel, "follow", match=m.id)
    assert "You play in match" in reply(own).content
    faults = FaultyHTTP.install(w.bot)
    faults.add("POST", "/channels/*/messages", "dms-closed",
               when=lambda path: int(path.split("/")[2]) == inbox.dm_channel(w.dave.id))
    await w.alice.slash(thread, "move", move="h3-e3")
    await notifier.drain()
    assert inbox.told(w.carol.id, "which you follow") == "dm"
    assert inbox.told(w.dave.id, "which you follow") == "mention"  # the ladder's fallback
    listed = await w.carol.slash(w.channel, "follow")
    assert f"match {m.id}" in reply(listed).content
    await w.carol.slash(w.channel, "unfollow", match=m.id)
    before = len(inbox.dms_to(w.carol.id))
    await w.bob.slash(thread, "move", move="h10-g8")
    await notifier.drain()
    assert len(inbox.dms_to(w.carol.id)) == before
    w.env.raise_errors()
