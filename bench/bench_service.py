"""Move handling through the match service on SQLite (a temp file), rendering off.

Prints: sustained moves/s and per-move latency (p50/p99/max) sequentially and with 20
concurrent clients, then ``games_of`` and leaderboard timings with 10,000 active matches
in the database. Targets (issue 7): >= 200 moves/s, p99 <= 20 ms; /games and a leaderboard
page <= 10 ms.

    python bench/bench_service.py [--moves 3000] [--matches 10000]
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import rules
from bot.service import MatchService, NullNotifier, SystemClock
from bot.service.records import MatchRecord, MatchStatus, SeatRecord
from storage import SqliteRepository

GUILD = 1


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def new_match(s: MatchService, rng: random.Random, game: str) -> tuple[int, int, int]:
    a, b = rng.sample(range(1, 10**6), 2)
    m = await s.challenge(GUILD, 1, a, game, opponents=[b])
    await s.accept(m.id, b)
    return m.id, a, b


async def play_moves(s: MatchService, total: int, clients: int, game: str,
                     seed: int) -> tuple[float, list[float]]:
    rng = random.Random(seed)
    latencies: list[float] = []
    done = 0

    async def client(k: int) -> None:
        nonlocal done
        crng = random.Random(seed * 1000 + k)
        match_id, _, _ = await new_match(s, crng, game)
        while done < total:
            m = await s.get_match(match_id)
            p, _ = await s.position(match_id)
            moves = [mv for mv in p.legal_moves()]
            safe = [mv for mv in moves if p.play(mv).outcome() is None] if len(moves) < 8 \
                else moves
            if not safe or m.ply > 300:
                match_id, _, _ = await new_match(s, crng, game)
                continue
            text = p.variant.format_move(p, crng.choice(safe))
            t0 = time.perf_counter()
            result = await s.move(match_id, m.to_move[0], text)
            latencies.append(time.perf_counter() - t0)
            done += 1
            if result.ended:
                match_id, _, _ = await new_match(s, crng, game)

    rng.random()
    t0 = time.perf_counter()
    await asyncio.gather(*(client(k) for k in range(clients)))
    return time.perf_counter() - t0, latencies


def report_moves(label: str, elapsed: float, lat: list[float]) -> None:
    ms = [x * 1000 for x in lat]
    # sustained rate counts only the time spent inside service.move (choosing a random move
    # in the benchmark itself is not the service's work); wall rate includes everything
    print(f"{label}: {len(lat)} moves, {len(lat) / sum(lat):.0f} moves/s in the service "
          f"({len(lat) / elapsed:.0f}/s wall incl. picking moves); latency p50 "
          f"{statistics.median(ms):.2f} ms, p99 {pct(ms, 0.99):.2f} ms, max {max(ms):.2f} ms")


async def populate(repo: SqliteRepository, count: int, users: int, seed: int) -> list[int]:
    """``count`` active xiangqi matches among ``users`` players, written through the
    repository (one transaction each, as the service would), plus a rated ladder."""
    rng = random.Random(seed)
    v = rules.variant("xiangqi")
    start = v.start().to_text()
    now = datetime.now(UTC)
    user_ids = list(range(10_000, 10_000 + users))
    for i in range(count):
        a, b = rng.sample(user_ids, 2)
        rec = MatchRecord(
            id=0, guild_id=GUILD, channel_id=1, thread_id=100_000 + i, game="xiangqi",
            ladder="xiangqi", rules_version="1", options={}, start_text=start, seat_count=2,
            status=MatchStatus.ACTIVE, challenger_id=a,
            seats=(SeatRecord(a, 0), SeatRecord(b, 1)), seat_pref=None, seating="random",
            ply=0, position_text=start, to_move=(0,), last_move=None, days_per_move=3,
            rated=True, deadline=now, remind_at=None, draw_offer=None, result=None,
            broken=None, created_at=now, updated_at=now)
        await repo.create_match(rec)
    # a ladder with every user rated (bulk insert: the rating rows themselves)
    rows = [(GUILD, "xiangqi", u, 25 + rng.gauss(0, 5), 8.0 * rng.random() + 0.5,
             0.0, rng.randrange(50), rng.randrange(50), rng.randrange(10)) for u in user_ids]
    rows = [(g, ld, u, mu, sg, mu - 3 * sg, w, lo, d) for g, ld, u, mu, sg, _, w, lo, d in rows]
    await repo._writer.execute("BEGIN IMMEDIATE")
    await repo._writer.executemany(
        "INSERT INTO ratings (guild_id, ladder, user_id, mu, sigma, ordinal, wins, losses, "
        "draws) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)", rows)
    await repo._writer.execute("COMMIT")
    return user_ids


async def timed(calls: int, fn) -> list[float]:  # type: ignore[no-untyped-def]
    out = []
    for i in range(calls):
        t0 = time.perf_counter()
        await fn(i)
        out.append((time.perf_counter() - t0) * 1000)
    return out


async def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--moves", type=int, default=3000)
    parser.add_argument("--matches", type=int, default=10_000)
    parser.add_argument("--users", type=int, default=2_000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as d:
        repo = await SqliteRepository.open(Path(d) / "bench.db")
        s = MatchService(repo, NullNotifier(), SystemClock(), rng=random.Random(1))
        print(f"SQLite {Path(d) / 'bench.db'} (WAL, synchronous=NORMAL), rendering off")
        for game in ("xiangqi", "damas"):
            elapsed, lat = await play_moves(s, args.moves, 1, game, seed=1)
            report_moves(f"{game:8} sequential   ", elapsed, lat)
            elapsed, lat = await play_moves(s, args.moves, 20, game, seed=2)
            report_moves(f"{game:8} 20 concurrent", elapsed, lat)

        t0 = time.perf_counter()
        users = await populate(repo, args.matches, args.users, seed=3)
        print(f"populated {args.matches} active matches among {args.users} players in "
              f"{time.perf_counter() - t0:.1f} s")
        rng = random.Random(4)
        sample = [rng.choice(users) for _ in range(300)]
        found = []

        async def games(i: int) -> None:
            found.append(len(await s.games_of(GUILD, sample[i])))
        ms = await timed(300, games)
        print(f"games_of (about {statistics.mean(found):.0f} matches each): p50 "
              f"{statistics.median(ms):.2f} ms, p99 {pct(ms, 0.99):.2f} ms, "
              f"max {max(ms):.2f} ms")
        pages = (args.users + 9) // 10

        async def board(i: int) -> None:
            await s.leaderboard(GUILD, "xiangqi", page=1 + rng.randrange(pages), per_page=10)
        ms = await timed(300, board)
        print(f"leaderboard page of 10 ({args.users} rated): p50 {statistics.median(ms):.2f}"
              f" ms, p99 {pct(ms, 0.99):.2f} ms, max {max(ms):.2f} ms")

        async def rank(i: int) -> None:
            await s.rank_of(GUILD, "xiangqi", sample[i])
        ms = await timed(300, rank)
        print(f"rank_of: p50 {statistics.median(ms):.2f} ms, p99 {pct(ms, 0.99):.2f} ms")

        async def thread(i: int) -> None:
            await s.match_in_thread(100_000 + rng.randrange(args.matches))
        ms = await timed(300, thread)
        print(f"match_in_thread: p50 {statistics.median(ms):.2f} ms, "
              f"p99 {pct(ms, 0.99):.2f} ms")
        elapsed, lat = await play_moves(s, args.moves, 20, "xiangqi", seed=5)
        report_moves(f"xiangqi with {args.matches} matches stored, 20 concurrent", elapsed, lat)
        await repo.close()


if __name__ == "__main__":
    asyncio.run(main())
