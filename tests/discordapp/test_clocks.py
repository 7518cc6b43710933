"""Issue 16 in Discord (SimCord): the +1 day button on turn messages, Claim win / Keep
waiting when a claim-win clock lapses, /vacation start|end|status with the opponents
told in the thread, /games with who is on vacation and its Next game button; each with
a restart of the bot in the middle (buttons are persistent)."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from bot.discordapp.embeds import clock_status
from locales.i18n import render
from tests.discordapp.conftest import World, make_bot, make_repository, service_of
from tests.discordapp.helpers import (
    buttons,
    is_card,
    pinged,
    post_text,
    reply,
    result_post,
    start_match,
)

HOUR = 3600.0


def labels(message: Any) -> list[str]:
    """The button labels of a posted message (discord.py objects) or a reply (dicts)."""
    if not all(isinstance(row, dict) for row in message.components):
        return [b.label for b in buttons(message)]  # in action rows or nested in a card
    return [c["label"] for row in message.components for c in row["components"]]


async def restart(w: World) -> Any:
    """A new process: a new bot over a new connection to the same SQLite file."""
    repository = await make_repository(w.tmp_path / "tablero.db")
    fresh = make_bot(w.tmp_path, repository)
    await w.env.restart_bot(fresh)
    w.bot = fresh
    return repository


async def test_one_day_more_then_claim_win_across_a_restart(world: World) -> None:
    w = world
    match, thread = await start_match(w, w.alice, w.bob, seat=0, days=1, claim_win=True)
    await w.alice.slash(thread, "move", move="h3-e3")
    turn = thread.last_message
    assert labels(turn) == ["+1 day"] and f"{w.bob.mention} to move, <t:" in post_text(turn)
    own = reply(await w.bob.click(turn, label="+1 day"))  # bob is the one to move
    assert own.ephemeral and "it is your move" in own.content.lower()
    foreign = reply(await w.carol.click(turn, label="+1 day"))
    assert foreign.ephemeral and "not playing" in foreign.content
    before = (await w.service.get_match(match.id)).deadline
    given = reply(await w.alice.click(turn, label="+1 day"))
    assert given.ephemeral and "one day more" in given.content and "<t:" in given.content
    after = (await w.service.get_match(match.id)).deadline
    assert before is not None and after is not None and (after - before).days == 1
    assert "gave" in thread.last_message.content and w.bob.mention in thread.last_message.content

    await w.bob.slash(thread, "move", move="h8-e8")
    early = reply(await w.bob.slash(thread, "games"))
    assert "Next game" not in labels(early)  # nothing waits on bob
    await w.env.advance_time(25 * HOUR)  # alice's day runs out: no result, a question
    lapsed = thread.last_message  # a card (issue 42): the seats, the lapsed clock, claim
    assert is_card(lapsed) and labels(lapsed) == ["Claim win", "Keep waiting"]
    assert "time ran out" in post_text(lapsed) and "waiting for a claim" in post_text(lapsed)
    assert w.bob.id in [u.id for u in lapsed.mentions] and pinged(w, lapsed) == [w.bob.id]
    assert (await w.service.get_match(match.id)).status.value == "active"

    repository = await restart(w)  # the buttons outlive the process
    late = reply(await w.alice.click(lapsed, label="Claim win"))
    assert late.ephemeral and "it is your move" in late.content.lower()
    waiting = reply(await w.bob.click(lapsed, label="Keep waiting"))
    assert waiting.ephemeral and "keep waiting" in waiting.content.lower()
    claimed = reply(await w.bob.click(lapsed, label="Claim win"))
    assert claimed.ephemeral and "claimed the win" in claimed.content
    end = result_post(thread)
    assert "won" in end.content and w.bob.mention in end.content
    done = await service_of(w.bot).get_match(match.id)
    assert done.result is not None and done.result.winners == (w.bob.id,)
    assert done.result.reason == "timeout"
    await repository.close()


async def test_vacation_commands_games_and_next_game_across_a_restart(world: World) -> None:
    w = world
    await w.service.update_guild_settings(w.guild.id, vacation_days=60)
    first, thread1 = await start_match(w, w.alice, w.bob, seat=0, days=3)
    second, thread2 = await start_match(w, w.alice, w.bob, seat=0, clock="2d+1d/5d")
    status = reply(await w.alice.slash(w.channel, "vacation status"))
    assert status.ephemeral and "of vacation left this year" in status.content
    balance = (await w.service.vacation_status(w.guild.id, w.alice.id)).balance
    too_long = reply(await w.alice.slash(w.channel, "vacation start", days=60))
    assert too_long.ephemeral and f"You have {balance} days of vacation left" in \
        too_long.content
    assert (await w.service.vacation_status(w.guild.id, w.alice.id)).until is None
    bank = reply(await w.alice.slash(w.channel, "challenge", game="xiangqi", opponent=w.bob,
                                     clock="3d+1d/2d"))
    assert bank.ephemeral and "must be at least the starting bank" in bank.content

    went = reply(await w.alice.slash(w.channel, "vacation start", days=1))
    assert went.ephemeral and "2 matches paused" in went.content and "<t:" in went.content
    for thread in (thread1, thread2):
        told = thread.last_message.content
        assert "on vacation until" in told and w.alice.mention in told
    games = reply(await w.bob.slash(w.channel, "games"))
    assert "is on vacation until" in games.embeds[0].description

    repository = await restart(w)
    back = reply(await w.alice.slash(w.channel, "vacation end"))
    assert back.ephemeral and "Welcome back" in back.content
    assert "back from vacation" in thread1.last_message.content
    again = reply(await w.alice.slash(w.channel, "vacation end"))
    assert again.ephemeral and "not on vacation" in again.content

    mine = reply(await w.alice.slash(w.channel, "games"))
    lines = mine.embeds[0].description.splitlines()
    assert lines[0].startswith(f"`{second.id}`")  # least time left first
    assert labels(mine) == ["Next game"]
    jump = reply(await w.alice.click(mine, label="Next game"))
    assert f"(match {second.id})" in jump.content and f"<#{thread2.id}>" in jump.content
    jump = reply(await w.alice.click(jump, label="Next game"))
    assert f"(match {first.id})" in jump.content
    await repository.close()


async def test_querni_set_up_games_show_each_players_own_deadline(world: World) -> None:
    """Both arrange at once and Alice takes a day of vacation: her /games says her own
    deadline (a day later than Bob's), his says his, and anyone else reading the match
    sees both."""
    w = world
    await w.service.update_guild_settings(w.guild.id, vacation_days=60)
    match, _thread = await start_match(w, w.alice, w.bob, game="querni:setup=choose",
                                       seat=0, clock="2d+1d/5d")
    reply(await w.alice.slash(w.channel, "vacation start", days=1))
    m = await w.service.get_match(match.id)
    own = dict(m.own_deadlines)
    assert own[w.alice.id] - own[w.bob.id] == timedelta(days=1)
    assert m.deadline == own[w.bob.id]

    def stamp(user: int) -> str:
        return f"<t:{int(own[user].timestamp())}:R>"
    for user in (w.alice, w.bob):
        [line] = reply(await user.slash(w.channel, "games")).embeds[0].description.splitlines()
        assert "**your move**" in line and stamp(user.id) in line
        other = w.bob if user is w.alice else w.alice
        assert stamp(other.id) not in line
    said = render(clock_status(m), "en-US")
    assert f"{w.alice.mention}: {stamp(w.alice.id)}" in said
    assert f"{w.bob.mention}: {stamp(w.bob.id)}" in said


async def test_a_vacation_tells_the_truth_about_each_match(world: World) -> None:
    """Issue 38, items 4 and 17: where it is the opponent's move the thread is told her
    next turn waits (no clock of hers is paused); where her claim-win time already ran
    out the match is not paused and her reply says so."""
    w = world
    await w.service.update_guild_settings(w.guild.id, vacation_days=60)
    lapsed, lapsed_thread = await start_match(w, w.alice, w.bob, seat=0, days=1,
                                              claim_win=True)
    await w.alice.slash(lapsed_thread, "move", move="h3-e3")
    await w.bob.slash(lapsed_thread, "move", move="h8-e8")
    await w.env.advance_time(25 * HOUR)  # alice's day runs out: Bob may claim
    waiting, thread = await start_match(w, w.alice, w.bob, seat=0, days=3)
    await w.alice.slash(thread, "move", move="h3-e3")  # Bob's move there
    before = post_text(lapsed_thread.last_message)
    went = reply(await w.alice.slash(w.channel, "vacation start", days=1))
    assert "1 match paused" in went.content
    assert f"Your time in `{lapsed.id}` has already run out: not paused" in went.content
    told = thread.last_message.content
    assert "on vacation until" in told and "next turn in this match starts no earlier" in told
    assert "paused" not in told
    assert post_text(lapsed_thread.last_message) == before  # nothing said there
    assert (await w.service.get_match(waiting.id)).status.value == "active"
