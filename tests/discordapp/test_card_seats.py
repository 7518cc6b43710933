"""The match card's seats and buttons (issue 42, SimCord): each seat says its player's
rating on the match's ladder as it was when the move was played (or that he has none
yet; the computer's seats are not rated: ``test_computer``), in the card and in the
embed of ``TABLERO_MATCH_CARDS=off``; the card's Take back button (where /takeback
would let its player ask) and Claim win (once a claim-win clock lapsed) act for the
match's players alone, strangers and the wrong player refused privately."""

from __future__ import annotations

from typing import Any

import discord

from locales.i18n import decimal, render
from tests.discordapp.conftest import World, make_bot, make_repository, service_of
from tests.discordapp.helpers import (
    buttons,
    is_card,
    post_text,
    reply,
    result_post,
    start_match,
)
from tests.discordapp.test_match_cards import carded_bot

HOUR = 3600.0


def labels(message: Any) -> list[str]:
    return [b.label for b in buttons(message)]


async def restart(w: World, *, cards: bool = True) -> Any:
    """A new process over the same SQLite file (``cards``: TABLERO_MATCH_CARDS)."""
    repository = await make_repository(w.tmp_path / "tablero.db")
    fresh = make_bot(w.tmp_path, repository) if cards else \
        carded_bot(w.tmp_path, repository, cards=False)
    await w.env.restart_bot(fresh)
    w.bot = fresh
    return repository


async def rated_game(w: World, winner: Any, loser: Any) -> None:
    """A rated Xiangqi game that ``loser`` resigns after a move each (so it counts)."""
    _m, thread = await start_match(w, winner, loser, seat=0)
    await winner.slash(thread, "move", move="h3-e3")
    await loser.slash(thread, "move", move="h8-e8")
    await loser.slash(thread, "resign")
    assert "won" in result_post(thread).content


async def shown_rating(w: World, user: Any) -> str:
    """``user``'s rating on the Xiangqi ladder as the seat lines write it."""
    found = await w.service.repository.rank_of(w.guild.id, "xiangqi", user.id)
    assert found is not None
    rating = found[1]
    return render(decimal(rating.ordinal), "en-US") + ("?" if rating.provisional else "")


async def test_each_seat_says_its_rating_when_the_move_is_played(world: World) -> None:
    w = world
    await rated_game(w, w.alice, w.bob)
    alice_then, bob_then = await shown_rating(w, w.alice), await shown_rating(w, w.bob)
    assert alice_then != bob_then and alice_then.endswith("?")  # one game: provisional
    match, thread = await start_match(w, w.alice, w.bob, seat=0)
    await w.alice.slash(thread, "move", move="h3-e3")
    first = thread.last_message
    assert is_card(first)
    said = post_text(first)
    assert f"**Red**: {w.alice.mention} · rating {alice_then}" in said
    assert f"▶ **Black**: {w.bob.mention} · rating {bob_then}" in said
    # a casual game shows the ladder's rating too; carol has none yet
    _casual, other = await start_match(w, w.alice, w.carol, seat=0, rated=False)
    await w.alice.slash(other, "move", move="h3-e3")
    said = post_text(other.last_message)
    assert f"**Red**: {w.alice.mention} · rating {alice_then}" in said
    assert f"**Black**: {w.carol.mention} · no rating yet" in said

    await rated_game(w, w.alice, w.carol)  # alice's rating moves on meanwhile
    alice_now = await shown_rating(w, w.alice)
    assert alice_now != alice_then
    await w.bob.slash(thread, "move", move="h8-e8")
    said = post_text(thread.last_message)
    assert f"▶ **Red**: {w.alice.mention} · rating {alice_now}" in said
    assert f"**Black**: {w.bob.mention} · rating {bob_then}" in said
    assert f"rating {alice_then}" in post_text(first)  # the earlier post says what it was

    repository = await restart(w, cards=False)  # the embed says them too
    try:
        await w.alice.slash(thread, "move", move="b1-c3")
        turn = thread.last_message
        assert not is_card(turn) and turn.embeds
        (players,) = [f for f in turn.embeds[0].fields if f.name == "Players"]
        assert f"rating {alice_now}" in players.value
        assert f"rating {bob_then}" in players.value
        assert (await service_of(w.bot).get_match(match.id)).ply == 3
    finally:
        await repository.close()


async def test_take_back_from_the_card_for_its_player_alone(world: World) -> None:
    """Accepted after a restart, then declined; the opponent and a stranger are refused
    privately; rated games show it only once the server allows takebacks."""
    w = world
    m, thread = await start_match(w, w.alice, w.bob, rated=False, seat=0)
    await w.alice.slash(thread, "move", move="h3-e3")
    card = thread.last_message
    assert is_card(card) and labels(card) == ["+1 day", "Take back"]
    early = reply(await w.bob.click(card, label="Take back"))
    assert early.ephemeral and "Only the last move can be taken back" in early.content
    nosy = reply(await w.carol.click(card, label="Take back"))
    assert nosy.ephemeral and "not playing" in nosy.content
    assert (await w.service.get_match(m.id)).takeback_by is None

    repository = await restart(w)  # the button outlives the process
    try:
        asked = reply(await w.alice.click(card, label="Take back"))
        assert asked.ephemeral and "Takeback asked" in asked.content
        again = reply(await w.alice.click(card, label="Take back"))
        assert again.ephemeral and "asked already" in again.content
        offer = thread.last_message
        assert "asks to take back" in offer.content and w.bob.mention in offer.content
        done = reply(await w.bob.click(offer, label="Accept takeback"))
        assert done.ephemeral and "taken back" in done.content
        back = await service_of(w.bot).get_match(m.id)
        assert back.ply == 0 and back.to_move == (w.alice.id,)

        await w.alice.slash(thread, "move", move="h3-e3")
        await w.bob.slash(thread, "move", move="h8-e8")
        answer = thread.last_message
        assert labels(answer) == ["+1 day", "Take back"]  # bob's move, his to take back
        asked = reply(await w.bob.click(answer, label="Take back"))
        assert "Takeback asked" in asked.content
        declined = reply(await w.alice.click(thread.last_message, label="Decline takeback"))
        assert declined.ephemeral and "declined" in declined.content
        assert "declined the takeback" in thread.last_message.content
        assert (await service_of(w.bot).get_match(m.id)).ply == 2

        _rated, ranked = await start_match(w, w.alice, w.carol, seat=0)
        await w.alice.slash(ranked, "move", move="h3-e3")
        assert labels(ranked.last_message) == ["+1 day"]  # none in rated games here
        admins = w.guild.create_role("admins",
                                     permissions=discord.Permissions(manage_guild=True))
        admin = w.guild.add_member(w.env.create_user("admin"), roles=[admins])
        allowed = reply(await admin.slash(w.channel, "settings", takebacks_rated=True))
        assert allowed.ephemeral
        await w.carol.slash(ranked, "move", move="h8-e8")
        assert labels(ranked.last_message) == ["+1 day", "Take back"]  # read again at once
    finally:
        await repository.close()


async def test_claim_from_the_lapsed_clocks_card(world: World) -> None:
    w = world
    m, thread = await start_match(w, w.alice, w.bob, seat=0, days=1, claim_win=True)
    await w.alice.slash(thread, "move", move="h3-e3")
    await w.bob.slash(thread, "move", move="h8-e8")
    assert "Claim win" not in labels(thread.last_message)  # nothing lapsed yet
    await w.env.advance_time(25 * HOUR)  # alice's day runs out
    lapsed = thread.last_message
    assert is_card(lapsed) and labels(lapsed) == ["Claim win", "Keep waiting"]
    said = post_text(lapsed)
    assert f"{w.alice.mention}'s time ran out" in said and "waiting for a claim" in said
    assert f"**Black**: {w.bob.mention} · no rating yet" in said  # the seats, as on a turn
    stranger = reply(await w.carol.click(lapsed, label="Claim win"))
    assert stranger.ephemeral and "not playing" in stranger.content
    late = reply(await w.alice.click(lapsed, label="Claim win"))
    assert late.ephemeral and "it is your move" in late.content.lower()
    assert (await w.service.get_match(m.id)).status.value == "active"
    claimed = reply(await w.bob.click(lapsed, label="Claim win"))
    assert claimed.ephemeral and "claimed the win" in claimed.content
    done = await w.service.get_match(m.id)
    assert done.result is not None and done.result.winners == (w.bob.id,)
    assert done.result.reason == "timeout"
