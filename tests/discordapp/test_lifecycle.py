"""Deadlines on the virtual clock, restarts, draws, resignations, leaderboards."""

from __future__ import annotations

import pytest

from service.views import RATING_MEANING
from tests.discordapp.conftest import (
    SWEEP_SECONDS,
    World,
    make_bot,
    make_repository,
    service_of,
    sweeps_of,
)
from tests.discordapp.helpers import posts_left_open, reply, result_post, start_match

HOUR = 3600.0


async def test_reminder_then_timeout_on_the_virtual_clock(world: World) -> None:
    w = world
    match, thread = await start_match(w, w.alice, w.bob, seat=0, days=1)
    await w.alice.slash(thread, "move", move="h3-e3")
    await w.bob.slash(thread, "move", move="h8-e8")
    # alice (Red) must move within a day; the reminder comes with half of it left.
    await w.env.advance_time(13 * HOUR)
    reminder = thread.last_message
    assert "⏰" in reminder.content and [u.id for u in reminder.mentions] == [w.alice.id]
    assert "<t:" in reminder.content
    await w.env.advance_time(12 * HOUR)
    end = result_post(thread)
    assert "won" in end.content and w.bob.mention in end.content
    done = await w.service.get_match(match.id)
    assert done.is_over and done.result is not None
    assert done.result.winners == (w.bob.id,)
    assert sweeps_of(w.bot) >= 25 * HOUR / SWEEP_SECONDS - 1


async def test_sweep_failures_are_logged_and_the_loop_keeps_running(world: World,
                                                                   caplog) -> None:
    w = world
    real = w.service.sweep
    calls = 0

    async def broken(now=None):  # type: ignore[no-untyped-def]
        nonlocal calls
        calls += 1
        raise RuntimeError("database is locked")

    w.service.sweep = broken
    await w.env.advance_time(3 * HOUR)
    assert calls == 3 and "deadline sweep failed" in caplog.text
    w.service.sweep = real
    runs = sweeps_of(w.bot)
    await w.env.advance_time(HOUR)
    assert sweeps_of(w.bot) == runs + 1


async def test_buttons_still_work_after_a_restart(world: World) -> None:
    w = world
    await w.alice.slash(w.channel, "challenge", game="xiangqi", opponent=w.bob)
    challenge = w.channel.last_message
    syncs = [r for r in w.env.http_requests if r.method == "PUT" and "commands" in r.path]
    assert len(syncs) == 1
    # A new process: a new client over a new connection to the same SQLite file.
    repository = await make_repository(w.tmp_path / "tablero.db")
    fresh = make_bot(w.tmp_path, repository)
    await w.env.restart_bot(fresh)
    # Same command tree: the stored hash says no sync is needed.
    syncs = [r for r in w.env.http_requests if r.method == "PUT" and "commands" in r.path]
    assert len(syncs) == 1
    accepted = await w.bob.click(challenge, label="Accept")
    assert reply(accepted).ephemeral and "accepted" in reply(accepted).content.lower()
    (thread,) = w.channel.threads
    moved = await w.alice.slash(thread, "move", move="h3-e3") if (
        await service_of(fresh).match_in_thread(thread.id)).to_move == (w.alice.id,) else \
        await w.bob.slash(thread, "move", move="h3-e3")
    assert "h3-e3" in reply(moved).content
    await repository.close()


async def test_a_stale_or_foreign_click_is_refused(world: World,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    w = world
    # the answer closes the post (test_closed_posts); these clicks race that edit
    posts_left_open(monkeypatch)
    await w.alice.slash(w.channel, "challenge", game="xiangqi", opponent=w.bob)
    challenge = w.channel.last_message
    foreign = await w.carol.click(challenge, label="Accept")
    assert reply(foreign).ephemeral and "invited" in reply(foreign).content
    own = await w.alice.click(challenge, label="Accept")
    assert reply(own).ephemeral and "own challenge" in reply(own).content
    await w.bob.click(challenge, label="Accept")
    again = await w.bob.click(challenge, label="Accept")
    assert reply(again).ephemeral and "already started" in reply(again).content


async def test_draw_offer_buttons_and_lapse(world: World) -> None:
    w = world
    match, thread = await start_match(w, w.alice, w.bob, seat=0)
    await w.alice.slash(thread, "draw", action="offer")
    offer = thread.last_message
    assert offer.content.startswith(w.bob.mention) and "offers a draw" in offer.content
    declined = await w.bob.click(offer, label="Decline draw")
    assert "declined" in reply(declined).content
    await w.alice.slash(thread, "draw", action="offer")
    stale_offer = thread.last_message
    await w.alice.slash(thread, "move", move="h3-e3")
    lapsed = await w.bob.click(stale_offer, label="Accept draw")
    assert reply(lapsed).ephemeral and "out of date" in reply(lapsed).content
    await w.bob.slash(thread, "move", move="h8-e8")
    await w.bob.slash(thread, "draw", action="offer")
    offer = thread.last_message
    accepted = await w.alice.click(offer, label="Accept draw")
    assert reply(accepted).ephemeral
    done = await w.service.get_match(match.id)
    assert done.is_over and done.result is not None and done.result.winners == ()
    assert "draw" in result_post(thread).content


async def test_resign_and_leaderboard_pages(world: World) -> None:
    w = world
    people = [w.alice, w.bob, w.carol, w.dave]
    people += [w.guild.add_member(w.env.create_user(f"p{i}")) for i in range(8)]
    for a, b in zip(people[::2], people[1::2], strict=True):
        _, thread = await start_match(w, a, b, seat=0)
        await a.slash(thread, "move", move="h3-e3")  # both move: the result is rated
        await b.slash(thread, "move", move="h8-e8")
        result = await b.slash(thread, "resign")
        assert reply(result).ephemeral
        result_message, replay = thread.history()[-2:]
        assert "won" in result_message.content
        assert "rating" in result_message.content.lower()
        assert [a.filename for a in result_message.attachments] == ["board.png"]
        assert result_message.embeds[0].image.url == "attachment://board.png"
        assert [a.filename for a in replay.attachments] == ["replay.gif"]
    board = await w.alice.slash(w.channel, "leaderboard", game="xiangqi")
    page1 = board.response
    assert not page1.ephemeral
    embed = page1.embeds[0]
    assert "Page 1 of 2" in embed.footer.text and "12 rated players" in embed.footer.text
    ranked, meaning = embed.description.split("\n\n")
    assert ranked.count("\n") == 9 and meaning == RATING_MEANING.render("en-US")  # its meaning
    assert ranked.split("\n")[0].endswith("? (1W 0L 0D)")  # one game: provisional
    winners = {p.id for p in people[::2]}
    top = embed.description.split("\n")[0]
    assert any(f"<@{u}>" in top for u in winners)
    turned = await w.bob.click(page1, label="Next ▶")
    assert "Page 2 of 2" in turned.response.embeds[0].footer.text
    stats = await w.alice.slash(w.channel, "stats")
    assert "1 win, 0 losses, 0 draws" in reply(stats).embeds[0].description
