"""SIGTERM and SIGINT stop the bot gracefully (issue 12): no new commands, pending
deliveries flushed (10 s at most), the database closed, exit 0. Run in a subprocess with
the real bot, the real signal handling (``cli.serve``) and SQLite; only the connection to
Discord is left out (the process cannot reach it here)."""

from __future__ import annotations

import asyncio
import logging
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import discord
import pytest

from bot.discordapp.client import STOPPING
from bot.discordapp.cogs.deadlines import DeadlinesCog
from bot.discordapp.cogs.deliveries import DeliveriesCog
from service import MatchService
from storage import MemoryRepository
from tests.discordapp.conftest import SWEEP_SECONDS, World
from tests.discordapp.helpers import reply
from tests.service.conftest import ALICE, BOB, Recorder, SetClock, start_match

ROOT = Path(__file__).resolve().parents[2]

SCRIPT = r'''
import asyncio, sys
from pathlib import Path
from bot.discordapp.app import create_bot
from bot.discordapp.cli import serve
from service import SystemClock
from storage import open_repository

async def main(db: str, flag: str) -> None:
    repository = await open_repository(Path(db))
    bot = create_bot(repository, SystemClock(), auto_sync=False, background=False)

    async def connected() -> None:  # what bot.start does, without Discord
        await bot.setup_hook()
        deliveries = bot.get_cog("Deliveries")
        real_drain = deliveries._drain

        async def pending_delivery() -> None:  # a post still under way at the signal
            await asyncio.sleep(1.0)
            Path(flag).write_text("delivered")
            await real_drain()
        deliveries._drain = pending_delivery
        print("ready", flush=True)
        while not bot.is_closed():
            await asyncio.sleep(0.05)
        print("stopping" if bot.stopping else "closed without stopping", flush=True)

    await serve(bot, connected(), repository)
    try:
        await repository.load_match(1)
    except Exception:
        print("database closed", flush=True)

asyncio.run(main(sys.argv[1], sys.argv[2]))
print("exited", flush=True)
'''


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT])
def test_a_signal_stops_the_bot_gracefully(tmp_path: Path, signum: int) -> None:
    flag = tmp_path / "delivered"
    process = subprocess.Popen(
        [sys.executable, "-c", SCRIPT, str(tmp_path / "t.db"), str(flag)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert process.stdout is not None
    assert process.stdout.readline().strip() == "ready"
    started = time.monotonic()
    process.send_signal(signum)
    out, err = process.communicate(timeout=30)
    took = time.monotonic() - started
    assert process.returncode == 0, err
    assert out.split() == ["stopping", "database", "closed", "exited"], (out, err)
    assert flag.read_text() == "delivered"  # the pending delivery was flushed first
    assert took < 10 + 5  # bounded by the 10 s flush budget


async def test_a_stopping_bot_takes_no_new_work(world: World) -> None:
    w = world
    await w.alice.slash(w.channel, "challenge", game="xiangqi", opponent=w.bob)
    challenge = w.channel.last_message
    w.bot.stopping = True  # what close() sets first
    answer = reply(await w.carol.slash(w.channel, "challenge", game="xiangqi",
                                       opponent=w.dave))
    assert answer.ephemeral and answer.content == STOPPING.render("en-US")
    assert await w.service.active_matches_of(w.guild.id, w.carol.id) == []
    clicked = reply(await w.bob.click(challenge, label="Accept"))
    assert clicked.ephemeral and clicked.content == STOPPING.render("en-US")
    assert (await w.service.get_match(1)).status.is_waiting  # not accepted
    w.bot.stopping = False


async def test_the_flush_is_bounded(caplog: pytest.LogCaptureFixture) -> None:
    """A delivery stuck for good does not hold the shutdown: the flush gives up after its
    budget, says so in the log, and what was pending waits for the next start."""
    never = asyncio.Event()
    drains: list[asyncio.Task[object] | None] = []

    async def stuck_delivery() -> None:
        drains.append(asyncio.current_task())
        await never.wait()

    cog = DeliveriesCog(stuck_delivery, seconds=0.05)
    with caplog.at_level(logging.WARNING, logger="tablero.discord"):
        started = time.monotonic()
        await asyncio.wait_for(cog.cog_unload(), 5)  # a hang fails here, not at the timeout
        took = time.monotonic() - started
    assert len(drains) == 1  # the flush was tried
    assert 0.05 <= took < 2  # for its budget, not longer
    drain = drains[0]
    assert drain is not None and drain.cancelled()  # and abandoned, not left running
    assert "stopping with deliveries still pending after" in caplog.text


async def test_the_sweep_cog_stops_the_puzzle_mining_when_it_unloads() -> None:
    """The sweep starts mining finished games in the background; at the stop it is
    cancelled before the engine's pool and the database close under it."""
    searching = asyncio.Event()
    stopped: list[bool] = []

    class StuckMiner:
        async def find_puzzles(self, positions: object) -> list[None]:
            searching.set()
            try:
                await asyncio.Event().wait()
            except asyncio.CancelledError:
                stopped.append(True)
                raise
            return []

    service = MatchService(MemoryRepository(), Recorder(), SetClock(), miner=StuckMiner())
    m = await start_match(service, "alquerque", seat="white")
    for user, move in ((ALICE, "d2-c3"), (BOB, "b4xd2")):
        await service.move(m.id, user, move)
    await service.resign(m.id, ALICE)
    await service.sweep_puzzles()
    await asyncio.wait_for(searching.wait(), 5)
    cog = DeadlinesCog(service, discord.Client(intents=discord.Intents.none()),
                       SWEEP_SECONDS)
    await asyncio.wait_for(cog.cog_unload(), 5)
    assert stopped == [True]
    searching.clear()
    await service.sweep_puzzles()  # stopping: no new mining starts
    await asyncio.sleep(0.05)
    assert not searching.is_set()


async def test_the_stop_waits_for_the_explorer_count_and_fingerprint_of_a_match_that_ended(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A match that ended just before the signal: its explorer count and its game's
    fingerprint, written in the background, are waited for when the sweep cog unloads
    (before the database closes), not dropped."""
    from tests.service.test_background import played_to_the_end, slowed, written

    repo = MemoryRepository()
    service = MatchService(repo, Recorder(), SetClock())
    monkeypatch.setattr(repo, "index_game", slowed(repo.index_game, 50))
    monkeypatch.setattr(repo, "set_game_keys", slowed(repo.set_game_keys, 50))
    ended = await played_to_the_end(service)
    assert await written(repo, service, ended) == (0, False)  # under way
    cog = DeadlinesCog(service, discord.Client(intents=discord.Intents.none()),
                       SWEEP_SECONDS)
    await asyncio.wait_for(cog.cog_unload(), 5)
    assert await written(repo, service, ended) == (1, True)
