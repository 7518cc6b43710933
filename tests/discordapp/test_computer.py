"""Playing the computer in Discord: ``/challenge computer:``, ``/fill`` for a lobby; the
computer is named, never mentioned, and answers. (Naming the bot itself as the opponent
takes the same path; SimCord cannot put the bot user in a command option.)"""

from __future__ import annotations

import asyncio
import random
from pathlib import Path
from typing import Any

import pytest

from bot.computer import InlineMovePicker
from bot.discordapp import TableroBot, create_bot
from bot.service.computer import computer_user, is_computer
from tests.discordapp.conftest import SHARDS, SWEEP_SECONDS, DiscordClock, World


@pytest.fixture
def simcord_bot(tmp_path: Path, repository: Any) -> TableroBot:
    """The bot with an in-process computer player (small node budgets: fast tests)."""
    return create_bot(repository, DiscordClock(), renderer=None,
                      database=tmp_path / "tablero.db", sweep_seconds=SWEEP_SECONDS,
                      rng=random.Random(1), shard_count=SHARDS,
                      picker=InlineMovePicker(nodes=150))


async def settle(w: World) -> None:
    """Let the computer's turns and the posts about them finish."""
    for _ in range(5):
        await w.service.computers_idle()
        await asyncio.sleep(0.05)


def texts(channel: Any) -> str:
    out = []
    for m in channel.history():
        out.append(m.content or "")
        out += [(e.description or "") + (e.title or "") for e in m.embeds]
    return "\n".join(out)


async def test_challenge_the_computer_it_moves_first_and_is_named(world: World) -> None:
    w = world
    result = await w.alice.slash(w.channel, "challenge", game="xiangqi", computer=True,
                                 level=3, seat=1)
    assert result.ephemeral
    await settle(w)
    (thread,) = w.channel.threads
    match = await w.service.match_in_thread(thread.id)
    assert match is not None and not match.rated
    assert match.ply == 1 and match.to_move == (w.alice.id,)
    assert computer_user(3) in [s.user_id for s in match.seats]
    posted = texts(thread) + texts(w.channel)
    assert "Tablero (level 3)" in posted
    assert f"<@{computer_user(3)}>" not in posted  # the computer is named, never mentioned


async def test_a_lobby_filled_with_computers_begins(world: World) -> None:
    w = world
    await w.alice.slash(w.channel, "challenge", game="alquerque-grande:players=4,mode=teams")
    lobbies = await w.service.open_challenges(w.guild.id)
    (lobby,) = lobbies
    answer = await w.alice.slash(w.channel, "fill", level=2)
    assert answer.ephemeral
    await settle(w)
    m = await w.service.get_match(lobby.id)
    assert m.status.value == "active" and not m.rated
    assert sum(1 for s in m.seats if is_computer(s.user_id)) == 3


async def test_stats_show_games_against_the_computer(world: World) -> None:
    w = world
    await w.alice.slash(w.channel, "challenge", game="damas", computer=True, level=1,
                        seat=0)
    await settle(w)
    (thread,) = w.channel.threads
    await w.alice.slash(thread, "move", move="d3-c4")  # two plies: a resignation counts
    await settle(w)
    await w.alice.slash(thread, "resign")
    await settle(w)
    result = await w.alice.slash(w.channel, "stats")
    embed = (result.followups[-1] if result.followups else result.response).embeds[0]
    (field,) = [f for f in embed.fields if f.name == "Against the computer (casual)"]
    assert field.value == "0W 1L 0D"


async def test_hint_is_private_and_names_a_legal_move(world: World) -> None:
    w = world
    await w.alice.slash(w.channel, "challenge", game="alquerque", computer=True, level=2,
                        seat=0)
    await settle(w)
    (thread,) = w.channel.threads
    result = await w.alice.slash(thread, "hint")
    assert result.ephemeral
    text = (result.followups[-1] if result.followups else result.response).content
    assert text.startswith("Hint: `")
