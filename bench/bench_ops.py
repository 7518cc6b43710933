"""What the operator's view costs (issue 41), in one run:

* ``/move`` through SimCord (discord.py's code paths, the service, SQLite, rendering) with
  the metrics on and off, alternating move by move (so both meet the same load): the
  response time (interaction to the mover's reply) p50/p99 of each;
* ``GET /metrics`` over HTTP (the readiness check it runs, then the text format) on a
  process whose database holds ``--matches`` live matches (10,000 by default), p50/p99,
  with an empty outbox and with its backlog.

    .venv/bin/python bench/bench_ops.py [--moves 200] [--matches 10000]
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sqlite3
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import aiohttp
import discord
import simcord

from bot.boards import load_renderer
from bot.discordapp import create_bot
from bot.ops.server import OpsServer
from service import MatchService, NullNotifier, SystemClock
from storage import open_database, open_repository
from tests.discordapp.conftest import DiscordClock, service_of


def pct(samples: list[float], q: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))]


def line(label: str, ms: list[float]) -> str:
    return (f"  {label:30} p50 {statistics.median(ms):7.2f} ms   p99 {pct(ms, 0.99):7.2f} ms"
            f"   mean {statistics.fmean(ms):7.2f} ms   (n={len(ms)})")


async def move_cost(moves: int, warmup: int, seed: int) -> None:
    rng = random.Random(seed)
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "bench.db"
        repository = await open_repository(db)
        bot = create_bot(repository, DiscordClock(), renderer=load_renderer(), database=db,
                         sweep_seconds=3600, rng=random.Random(seed), shard_count=1)
        async with simcord.run(bot) as env:
            service = service_of(bot)
            deliveries = bot.get_cog("Deliveries")
            routes = deliveries.notifier.routes  # type: ignore[union-attr]
            metrics = bot.metrics
            guild = env.create_guild("bench")
            channel = guild.create_text_channel("games")
            alice = guild.add_member(env.create_user("alice"))
            bob = guild.add_member(env.create_user("bob"))
            people = {alice.id: alice, bob.id: bob}
            timings: dict[bool, list[float]] = {True: [], False: []}
            replied: list[float] = []
            original_send = discord.Webhook.send

            async def timed_send(self: discord.Webhook, content: object = None,
                                 **kwargs: object) -> object:
                sent = await original_send(self, content, **kwargs)  # type: ignore[call-overload]
                if isinstance(content, str) and content.startswith("You played"):
                    replied.append(time.perf_counter())
                return sent

            discord.Webhook.send = timed_send  # type: ignore[assignment,method-assign]

            async def new_match() -> tuple[int, object]:
                await alice.slash(channel, "challenge", game="xiangqi", opponent=bob)
                await bob.click(channel.last_message, label="Accept")
                thread = channel.threads[-1]
                view = await service.match_in_thread(thread.id)
                return view.id, thread

            match_id, thread = await new_match()
            done = 0
            while done < warmup + moves:
                view = await service.get_match(match_id)
                if view.is_over:
                    match_id, thread = await new_match()
                    continue
                position, _ = await service.position(match_id)
                text = position.variant.format_move(position, rng.choice(
                    list(position.legal_moves())))
                on = done % 2 == 0
                bot.metrics = metrics if on else None
                routes.metrics = metrics if on else None
                replied.clear()
                started = time.perf_counter()
                await people[view.to_move[0]].slash(thread, "move", move=text)
                if done >= warmup:
                    timings[on].append((replied[-1] - started) * 1000)
                done += 1
        await repository.close()
    print(f"/move response through SimCord + SQLite + rendering, metrics on and off "
          f"alternating ({moves} moves after {warmup} warm-up):")
    print(line("with metrics", timings[True]))
    print(line("without metrics", timings[False]))


async def scrape_cost(matches: int, scrapes: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "bench.db"
        repo = await open_database(db, synchronous="NORMAL")
        service = MatchService(repo, NullNotifier(), SystemClock())
        t0 = time.perf_counter()
        for i in range(matches):
            m = await service.challenge(1 << 23, 2, 100 + i % 50, "damas",
                                        opponents=[200 + i % 37])
            await service.accept(m.id, 200 + i % 37)
        filled = time.perf_counter() - t0
        await repo.close()
        with sqlite3.connect(db) as con:
            live = con.execute("SELECT count(*) FROM matches WHERE status = 'active'"
                               ).fetchone()[0]
            backlog = con.execute("SELECT count(*) FROM outbox").fetchone()[0]
        print(f"GET /metrics over HTTP, {live:,} live matches ({filled:.0f} s to fill):")
        for label in (f"outbox backlog {backlog:,}", "outbox empty"):
            if label == "outbox empty":
                with sqlite3.connect(db) as con:
                    con.execute("DELETE FROM outbox")
            repository = await open_repository(db)
            bot = create_bot(repository, SystemClock(), database=db, shard_count=1)
            assert bot.ops is not None
            server = OpsServer(bot.ops)
            port = await server.start()
            ms: list[float] = []
            size = 0
            async with aiohttp.ClientSession() as session:
                for _ in range(scrapes):
                    started = time.perf_counter()
                    async with session.get(f"http://127.0.0.1:{port}/metrics") as r:
                        body = await r.read()
                    ms.append((time.perf_counter() - started) * 1000)
                    size = len(body)
            await server.stop()
            await repository.close()
            print(line(f"{label} ({size:,} bytes)", ms))


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--moves", type=int, default=200)
    parser.add_argument("--warmup", type=int, default=20)
    parser.add_argument("--matches", type=int, default=10_000)
    parser.add_argument("--scrapes", type=int, default=50)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    await move_cost(args.moves, args.warmup, args.seed)
    await scrape_cost(args.matches, args.scrapes)


if __name__ == "__main__":
    asyncio.run(main())
