"""/puzzle in Discord (issue 44, SimCord): the next puzzle privately with its picture and
alt text, the answer picked from the autocomplete of legal moves, a right move (the reply
played, the next move asked, solved), a wrong one (the solution shown), the leaderboard,
one's own game refused, and the daily puzzle posted once a day through the outbox, after
a restart too."""

from __future__ import annotations

import random
from typing import Any

import discord
import pytest

from service import MatchService
from tests.discordapp.conftest import DiscordClock, World
from tests.discordapp.helpers import mention, reply
from tests.service.puzzle_games import ALQUERQUE, DAMAS, SeededTactic
from tests.service.test_puzzles import ScriptedMiner, tactic_at

HOUR = 3600.0

# the miner searches in an executor (real time, seconds under load) while SimCord settles
pytestmark = pytest.mark.simcord(settle_timeout=30.0)


async def finished(w: World, tactic: SeededTactic) -> None:
    """Alice and Bob play ``tactic``'s game and its shot; the side to move resigns."""
    s = w.service
    m = await s.challenge(w.guild.id, w.channel.id, w.alice.id, tactic.game,
                          opponents=[w.bob.id], options=tactic.options, seat=0)
    m = await s.accept(m.id, w.bob.id)
    for text in (*tactic.moves, tactic.line[0]):
        m = (await s.move(m.id, m.to_move[0], text)).match
    if m.status.is_live:
        await s.resign(m.id, m.to_move[0])


async def mined(w: World) -> int:
    """The finished games mined by another process over the same database."""
    miner = ScriptedMiner(lambda p: tactic_at(DAMAS)(p) or tactic_at(ALQUERQUE)(p))
    other = MatchService(w.repository, w.service.notifier, DiscordClock(),
                         rng=random.Random(2), miner=miner)
    return await other.mine_puzzles()


def text_of(message: Any) -> str:
    return " ".join([str(message.content or "")] + [
        f"{e.title} {e.description}" for e in message.embeds])


async def test_a_puzzle_answered_right_then_wrong_and_the_leaderboard(world: World) -> None:
    w = world
    await finished(w, ALQUERQUE)
    await finished(w, DAMAS)
    assert await mined(w) == 2

    shown = reply(await w.carol.slash(w.channel, "puzzle next"))
    assert shown.ephemeral
    said = text_of(shown)
    assert "Puzzle #1 · Alquerque · difficulty 3/5" in said
    assert "Black to move and win material" in said
    assert "Find the moves: 2 of yours in all, 0 found so far." in said
    (picture,) = shown.attachments
    assert picture.filename == "board.png"
    assert picture.description.endswith("Black to move and win material · Puzzle #1 · "
                                        "Alquerque · difficulty 3/5 · rating 0.0")

    choices = await w.carol.autocomplete(w.channel, "puzzle answer", "move", "c3")
    assert {"name": "c3-d3", "value": "c3-d3"} in choices
    assert all(c["value"].startswith("c3") for c in choices)
    right = reply(await w.carol.slash(w.channel, "puzzle answer", move="c3-d3"))
    said = text_of(right)
    assert "✓ c3-d3 is right." in said and "The answer: e3xc3." in said
    assert f"Black to move again: {mention(w, 'puzzle answer')}." in said
    solved = reply(await w.carol.slash(w.channel, "puzzle answer", move="c4xc2xa2xa4"))
    assert "✓ c4xc2xa2xa4: solved!" in text_of(solved)
    assert "Puzzle rating 0.0 → " in text_of(solved)

    nxt = reply(await w.carol.slash(w.channel, "puzzle next"))
    assert "Puzzle #2 · Spanish draughts" in text_of(nxt)
    wrong = reply(await w.carol.slash(w.channel, "puzzle answer", move="c2xe4xg2"))
    said = text_of(wrong)
    assert "✗ c2xe4xg2 (7x14x5) is not it." in said and "The solution: c2xf5xc8 (7x18x31)." in said
    assert "streak 0." in said
    illegal = reply(await w.carol.slash(w.channel, "puzzle answer", move="a1-h8"))
    assert illegal.ephemeral and illegal.content.startswith("You have no puzzle open")

    board = reply(await w.dave.slash(w.channel, "puzzle leaderboard"))
    assert not board.ephemeral
    assert "1. carol: " in text_of(board) and "solved 1, failed 1" in text_of(board)
    own = reply(await w.alice.slash(w.channel, "puzzle next", puzzle=1))
    assert own.ephemeral and own.content == "Puzzle #1 comes from your own game."


def daily_posts(w: World) -> list[Any]:
    return [m for m in w.channel.history() if m.content.startswith("🧩 Daily puzzle")]


async def test_the_daily_puzzle_once_a_day_and_after_a_restart(world: World) -> None:
    from tests.discordapp.conftest import make_bot, make_repository

    w = world
    await finished(w, ALQUERQUE)
    await finished(w, DAMAS)
    await mined(w)
    refused = reply(await w.carol.slash(w.channel, "puzzle daily", state="on"))
    assert refused.ephemeral and not daily_posts(w)
    assert refused.content == "Only members with Manage Server can turn the daily puzzle on " \
        "or off."
    admins = w.guild.create_role("admins", permissions=discord.Permissions(manage_guild=True))
    admin = w.guild.add_member(w.env.create_user("admin"), roles=[admins])
    on = reply(await admin.slash(w.channel, "puzzle daily", state="on"))
    assert on.content.startswith("Daily puzzle on: one a day in <#")
    await w.env.advance_time(2 * HOUR)  # the sweep runs every hour
    (first,) = daily_posts(w)
    assert first.content == ("🧩 Daily puzzle #2 (Spanish draughts, difficulty 3/5): Black "
                             "to move and win material. Solve it privately with "
                             f"{mention(w, 'puzzle next')} `puzzle:2`.")
    (picture,) = first.attachments
    assert picture.description.endswith("Black to move and win material")
    await w.env.advance_time(12 * HOUR)
    assert len(daily_posts(w)) == 1  # once a day

    repository = await make_repository(w.tmp_path / "tablero.db")  # a new process
    fresh = make_bot(w.tmp_path, repository)
    await w.env.restart_bot(fresh)
    w.bot = fresh
    await w.env.advance_time(13 * HOUR)
    posts = daily_posts(w)
    assert len(posts) == 2 and "Daily puzzle #1 (Alquerque" in posts[-1].content
    solving = reply(await w.carol.slash(w.channel, "puzzle next", puzzle=1))
    assert "Puzzle #1 · Alquerque" in text_of(solving)
    off = reply(await admin.slash(w.channel, "puzzle daily", state="off"))
    assert off.content == "Daily puzzle off."
    await w.env.advance_time(25 * HOUR)
    assert len(daily_posts(w)) == 2
    await repository.close()
