"""Move handling through the match service on SQLite (a temp file), rendering off.

Prints moves/s and per-move latency (p50/p99/max, the time of one ``service.move`` call)
for: one player after another; many matches played back to back at once (saturation: the
latency then includes queueing behind the other moves in flight); and moves offered at a
fixed rate (250/s by default: the sustained figure). The moves are picked beforehand from
random games so the timed loop only calls the service. Then ``games_of`` and leaderboard
timings with 10,000 active matches in the database. Targets (issue 7): >= 200 moves/s,
p99 <= 20 ms; /games and a leaderboard page <= 10 ms.

First, the cost of durability (issue 20): the same moves with ``synchronous=NORMAL`` and
with ``FULL`` (the default: every acknowledged move is fsynced), one after the other in
the same run, on the same disk. ``--dir`` picks that disk (default: the system's temp
folder; a tmpfs there would hide the fsync cost).

    python bench/bench_service.py [--moves 3000] [--matches 10000] [--dir PATH]
    python bench/bench_service.py --db postgresql://USER@HOST/DB   # the same on PostgreSQL
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
from service import MatchService, NullNotifier, SystemClock
from service.records import MatchRecord, MatchStatus, SeatRecord
from storage import PostgresRepository, SqliteRepository

GUILD = 1


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def scripted_game(game: str, plies: int, rng: random.Random) -> list[str]:
    """A random game of ``plies`` canonical moves that does not end (picked beforehand so
    the timed loop does nothing but call the service)."""
    v = rules.variant(game)
    while True:
        p = v.start()
        moves: list[str] = []
        while len(moves) < plies:
            legal = [m for m in p.legal_moves() if p.play(m).outcome() is None]
            if not legal:
                break
            m = rng.choice(legal)
            moves.append(v.format_move(p, m))
            p = p.play(m)
        if len(moves) == plies:
            return moves


class Table:
    """``n`` matches of ``game`` with their scripted moves, ready to be played."""

    def __init__(self, s: MatchService, game: str, n: int, plies: int, seed: int) -> None:
        self.s, self.game, self.n, self.plies = s, game, n, plies
        self.rng = random.Random(seed)
        self.scripts = [scripted_game(game, plies, self.rng) for _ in range(n)]
        self.matches: list[tuple[int, int, int]] = []
        self.next_ply = [0] * n

    async def open(self) -> None:
        for _ in range(self.n):
            a, b = self.rng.sample(range(1, 10**6), 2)
            m = await self.s.challenge(GUILD, 1, a, self.game, opponents=[b], seat=0)
            await self.s.accept(m.id, b)
            self.matches.append((m.id, a, b))

    async def play(self, k: int) -> float:
        """Play match ``k``'s next scripted move; its latency in seconds."""
        match_id, a, b = self.matches[k]
        ply = self.next_ply[k]
        self.next_ply[k] += 1
        text = self.scripts[k][ply]
        t0 = time.perf_counter()
        await self.s.move(match_id, (a, b)[ply % 2], text)
        return time.perf_counter() - t0


async def closed_loop(table: Table, clients: int) -> tuple[float, list[float]]:
    """``clients`` players at once, each playing his matches' moves back to back."""
    await table.open()
    lat: list[float] = []

    async def client(c: int) -> None:
        for k in range(c, table.n, clients):
            for _ in range(table.plies):
                lat.append(await table.play(k))
    t0 = time.perf_counter()
    await asyncio.gather(*(client(k) for k in range(clients)))
    return time.perf_counter() - t0, lat


async def open_loop(table: Table, rate: float, seconds: float) -> tuple[float, list[float]]:
    """Moves arrive at ``rate`` per second, spread over the table's matches; a move waits
    until its match's previous move is done (players alternate)."""
    await table.open()
    lat: list[float] = []
    busy = [asyncio.Lock() for _ in range(table.n)]
    tasks = []

    async def one(k: int) -> None:
        async with busy[k]:
            lat.append(await table.play(k))
    total = int(rate * seconds)
    t0 = time.perf_counter()
    for i in range(total):
        due = t0 + i / rate
        delay = due - time.perf_counter()
        if delay > 0:
            await asyncio.sleep(delay)
        tasks.append(asyncio.create_task(one(i % table.n)))
    await asyncio.gather(*tasks)
    return time.perf_counter() - t0, lat


def report(label: str, elapsed: float, lat: list[float]) -> None:
    ms = [x * 1000 for x in lat]
    print(f"{label}: {len(lat)} moves in {elapsed:.2f} s = {len(lat) / elapsed:.0f} moves/s; "
          f"latency p50 {statistics.median(ms):.2f} ms, p99 {pct(ms, 0.99):.2f} ms, "
          f"max {max(ms):.2f} ms")


async def populate(repo: SqliteRepository | PostgresRepository, count: int, users: int,
                   seed: int) -> list[int]:
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
    rated = range(10_000, 10_000 + max(users, count))  # players plus others, one row each
    rows = [(GUILD, "xiangqi", u, 25 + rng.gauss(0, 5), 8.0 * rng.random() + 0.5,
             0.0, rng.randrange(50), rng.randrange(50), rng.randrange(10)) for u in rated]
    rows = [(g, ld, u, mu, sg, mu - 3 * sg, w, lo, d) for g, ld, u, mu, sg, _, w, lo, d in rows]
    async def insert() -> None:
        for row in rows:
            await repo._exec(
                "INSERT INTO ratings (guild_id, ladder, user_id, mu, sigma, ordinal, wins, "
                "losses, draws) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)", row)
    await repo._transaction(insert)
    return user_ids


async def timed(calls: int, fn) -> list[float]:  # type: ignore[no-untyped-def]
    out = []
    for i in range(calls):
        t0 = time.perf_counter()
        await fn(i)
        out.append((time.perf_counter() - t0) * 1000)
    return out


async def durability_cost(folder: Path, moves: int) -> None:
    """The same scripted moves with synchronous=NORMAL, then FULL, on fresh files."""
    print(f"durability cost (same run, same disk: {folder}):")
    figures = {}
    for mode in ("NORMAL", "FULL", "NORMAL ", "FULL "):  # twice each, interleaved
        repo = await SqliteRepository.open(folder / f"sync-{mode.strip()}.db",
                                           synchronous=mode.strip())
        s = MatchService(repo, NullNotifier(), SystemClock(), rng=random.Random(1))
        elapsed, lat = await closed_loop(Table(s, "xiangqi", 5, 60, 1), 1)
        report(f"  {mode.strip():6} one player after another", elapsed, lat)
        single = len(lat) / elapsed
        n = max(1, moves // 60)
        elapsed, lat = await closed_loop(Table(s, "xiangqi", n, 60, 2), n)
        report(f"  {mode.strip():6} {n} matches at once (saturation)", elapsed, lat)
        figures.setdefault(mode.strip(), []).append((single, len(lat) / elapsed))
        await repo.close()
    best = {m: (max(a for a, _ in f), max(b for _, b in f)) for m, f in figures.items()}
    print(f"  FULL vs NORMAL (best of two): one after another "
          f"{best['FULL'][0]:.0f} vs {best['NORMAL'][0]:.0f} moves/s "
          f"({100 * (best['FULL'][0] / best['NORMAL'][0] - 1):+.0f}%), saturation "
          f"{best['FULL'][1]:.0f} vs {best['NORMAL'][1]:.0f} moves/s "
          f"({100 * (best['FULL'][1] / best['NORMAL'][1] - 1):+.0f}%)")


async def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--moves", type=int, default=1200,
                        help="moves of the saturation run (in matches of 60 plies)")
    parser.add_argument("--rate", type=float, default=250.0,
                        help="moves per second offered in the sustained run")
    parser.add_argument("--seconds", type=float, default=8.0)
    parser.add_argument("--matches", type=int, default=10_000)
    parser.add_argument("--users", type=int, default=2_000)
    parser.add_argument("--dir", type=Path, default=None,
                        help="folder for the database files (default: the temp folder)")
    parser.add_argument("--db", default=None,
                        help="a postgresql:// URL: the same runs on that (empty) database "
                             "instead of SQLite (no durability comparison)")
    parser.add_argument("--synchronous", default="FULL", choices=("FULL", "NORMAL"),
                        help="durability of the main run (default FULL, as deployed)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(dir=args.dir) as d:
        repo: SqliteRepository | PostgresRepository
        if args.db:
            repo = await PostgresRepository.open(args.db)
            print(f"PostgreSQL {repo.path}, one process, rendering off")
        else:
            await durability_cost(Path(d), args.moves)
            repo = await SqliteRepository.open(Path(d) / "bench.db",
                                               synchronous=args.synchronous)
            print(f"SQLite {Path(d) / 'bench.db'} (WAL, synchronous={args.synchronous}), "
                  "rendering off")
        s = MatchService(repo, NullNotifier(), SystemClock(), rng=random.Random(1))
        for game in ("xiangqi", "damas"):
            plies = 60
            elapsed, lat = await closed_loop(Table(s, game, 5, plies, 1), 1)
            report(f"{game:8} one player after another (closed loop)", elapsed, lat)
            n = max(1, args.moves // plies)
            elapsed, lat = await closed_loop(Table(s, game, n, plies, 2), n)
            report(f"{game:8} {n} matches at once, back to back (saturation)", elapsed, lat)
            elapsed, lat = await open_loop(Table(s, game, 40, plies, 3), args.rate,
                                           min(plies * 40 / args.rate, args.seconds))
            report(f"{game:8} {args.rate:.0f} moves/s offered over 40 matches (sustained)",
                   elapsed, lat)

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
        busiest = max(users, key=lambda u: sum(1 for x in sample if x == u))
        ms = await timed(50, lambda i: s.games_of(GUILD, busiest))
        print(f"games_of the busiest sampled player ({len(await s.games_of(GUILD, busiest))} "
              f"matches): p50 {statistics.median(ms):.2f} ms, p99 {pct(ms, 0.99):.2f} ms")
        rated = max(args.users, args.matches)
        pages = (rated + 9) // 10

        async def board(i: int) -> None:
            await s.leaderboard(GUILD, "xiangqi", page=1 + rng.randrange(pages), per_page=10)
        ms = await timed(300, board)
        print(f"leaderboard page of 10 ({rated} rated, random pages): p50 "
              f"{statistics.median(ms):.2f} ms, p99 {pct(ms, 0.99):.2f} ms, max {max(ms):.2f} ms")

        async def rank(i: int) -> None:
            await s.rank_of(GUILD, "xiangqi", sample[i])
        ms = await timed(300, rank)
        print(f"rank_of: p50 {statistics.median(ms):.2f} ms, p99 {pct(ms, 0.99):.2f} ms")

        async def thread(i: int) -> None:
            await s.match_in_thread(100_000 + rng.randrange(args.matches))
        ms = await timed(300, thread)
        print(f"match_in_thread: p50 {statistics.median(ms):.2f} ms, "
              f"p99 {pct(ms, 0.99):.2f} ms")
        elapsed, lat = await open_loop(Table(s, "xiangqi", 40, 60, 5), args.rate,
                                       min(60 * 40 / args.rate, args.seconds))
        report(f"xiangqi {args.rate:.0f} moves/s offered with {args.matches} matches stored",
               elapsed, lat)
        await repo.close()


if __name__ == "__main__":
    asyncio.run(main())
