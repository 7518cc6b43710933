"""1,000,000 stored matches, 100,000 of them active, on SQLite and on PostgreSQL (issue 15):
start-up, one deadline sweep, leaderboard pages and ``/games``, and the query plans.

The data: ``--matches`` xiangqi matches (``--active`` of them active, the rest finished,
each ``--plies`` plies of a real, replayable game) in ``--guilds`` servers of very
different sizes (the largest holds about a third of all matches; guild ids are
snowflakes, so they spread over shards), about ten matches per player per server, one
rating per player per server. Active deadlines are spread evenly over the next three
days; a match is reminded a day before its deadline. It is written in bulk: one
``executemany`` per table and chunk on SQLite (journal off while loading), ``COPY`` on
PostgreSQL, with a progress line. The databases stay under ``--dir`` (default
/tmp/tablero-million) and are reused by later runs: each run's virtual clock is one
minute after the previous run's, so every run's sweep finds the same kind of work (the
matches whose reminder or deadline passed in that minute: about 23 each).

Measured, on each database: the bot's start as far as the database goes (open and
migrate; the shard lease; outbox recovery; resume of the clocks; the first deadline
sweep; waking the computer players), one more (idle) sweep, leaderboard pages (random
pages of the largest server's ladder, and of random servers) and ``/games``
(``games_of``, random players; p50/p99), then the plans of the sweep, leaderboard and
``/games`` queries (``--plans``).

    nice python bench/bench_million.py [--matches 1000000] [--active 100000] [--plies 10]
        [--only sqlite|postgres] [--pg postgresql://...] [--dir /tmp/tablero-million]
        [--plans] [--fresh]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import shutil
import sqlite3
import statistics
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Awaitable, Callable, Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from bench_processes import DurableServer  # noqa: E402
from bench_service import pct  # noqa: E402
from bench_startup import scripted_games  # noqa: E402

import rules  # noqa: E402
from service import MatchService  # noqa: E402
from service.outbox import OutboxRelay  # noqa: E402
from service.records import (  # noqa: E402
    LIVE_STATUSES,
    MatchRecord,
    MatchStatus,
    ResultRecord,
    SeatRecord,
)
from service.shards import ALL_SHARDS, ShardLease  # noqa: E402
from storage import PostgresRepository, SqliteRepository  # noqa: E402
from storage.sql import (  # noqa: E402
    _MATCH_COLUMNS,
    LEADERBOARD_SQL,
    _match_values,
    due_sql,
    matches_of_sql,
    select_match,
)

CHUNK = 20_000
LADDER = "xiangqi"
MATCH_COLUMNS = ["id", "version", *(c.strip() for c in _MATCH_COLUMNS.split(","))]


class VirtualClock:
    """The service's clock, fixed at the run's moment (moved by hand)."""

    def __init__(self, now: datetime) -> None:
        self.at = now

    def now(self) -> datetime:
        return self.at


class NoPicker:
    """A computer player that is never asked (no computer matches in the data): lets
    ``wake_computers`` run its queries as the bot's does."""

    async def pick(self, *args: Any, **kwargs: Any) -> str:
        raise AssertionError("no computer match was generated")

    async def weigh(self, *args: Any, **kwargs: Any) -> list[Any]:
        raise AssertionError("no computer match was generated")


# ---------------------------------------------------------------------- the data

class Data:
    """The generated installation, chunk by chunk (the same for both databases)."""

    def __init__(self, matches: int, active: int, plies: int, guilds: int,
                 generated: datetime) -> None:
        self.matches, self.active, self.plies = matches, active, plies
        self.generated = generated
        rng = random.Random(15)
        # guild sizes: a few large servers and a long tail (Pareto)
        weights = [1 / (k + 1) ** 1.1 for k in range(guilds)]
        self.guild_ids = [(1_000_003 + 7 * k) << 22 for k in range(guilds)]
        self.guild_of = rng.choices(range(guilds), weights, k=matches)
        sizes = Counter(self.guild_of)
        self.pool = {k: max(8, sizes[k] // 5) for k in range(guilds)}  # ~10 matches/player
        self.games = scripted_games(50, plies, 1)
        self.start = rules.variant("xiangqi").start().to_text()
        # which matches are active: spread over the ids
        self.active_ids = set(random.Random(16).sample(range(1, matches + 1), active))

    def user(self, k: int, n: int) -> int:
        return (k + 1) * 10_000_000 + n

    def players(self) -> Iterator[tuple[int, int]]:
        """(guild index, user) of every rated player."""
        for k, size in self.pool.items():
            for n in range(size):
                yield k, self.user(k, n)

    def chunk(self, first: int, last: int) -> tuple[list[tuple[Any, ...]], list[tuple[Any, ...]],
                                                  list[tuple[Any, ...]]]:
        """Rows of matches ``first..last``: (matches, seats, moves)."""
        rng = random.Random(first)
        now = self.generated
        matches, seats, moves = [], [], []
        for i in range(first, last + 1):
            k = self.guild_of[i - 1]
            a, b = (self.user(k, n) for n in rng.sample(range(self.pool[k]), 2))
            played, final = self.games[i % len(self.games)]
            active = i in self.active_ids
            if active:
                deadline = now + timedelta(seconds=rng.uniform(60, 3 * 86400))
                remind: datetime | None = deadline - timedelta(days=1)
                assert remind is not None
                if remind < now:
                    remind = None  # reminded already
            else:
                deadline = remind = None
            created = now - timedelta(days=rng.uniform(3, 400))
            rec = MatchRecord(
                id=i, guild_id=self.guild_ids[k], channel_id=self.guild_ids[k] + 1,
                thread_id=self.guild_ids[k] + 100 + i, game="xiangqi", ladder=LADDER,
                rules_version="1", options={}, start_text=self.start, seat_count=2,
                status=MatchStatus.ACTIVE if active else MatchStatus.FINISHED,
                challenger_id=a, seats=(SeatRecord(a, 0), SeatRecord(b, 1)), seat_pref=0,
                seating="chosen", ply=self.plies, position_text=final,
                to_move=(self.plies % 2,) if active else (), last_move=played[-1],
                days_per_move=3, rated=True, deadline=deadline, remind_at=remind,
                draw_offer=None,
                result=None if active else ResultRecord((0,), ((0,), (1,)), "resignation"),
                broken=None, created_at=created, updated_at=created, version=self.plies + 2,
                last_move_by=(a, b)[(self.plies - 1) % 2])
            matches.append((i, rec.version, *_match_values(rec)))
            seats += [(i, a, 0, None), (i, b, 1, None)]
            at = created.timestamp()
            moves += [(i, n, n % 2, m, (a, b)[n % 2], at + n) for n, m in enumerate(played)]
        return matches, seats, moves

    def ratings(self) -> Iterator[tuple[Any, ...]]:
        rng = random.Random(17)
        for k, user in self.players():
            mu = rng.gauss(25, 4)
            sigma = rng.uniform(1.5, 8.3)
            w, lo, d = rng.randrange(30), rng.randrange(30), rng.randrange(5)
            yield (self.guild_ids[k], LADDER, user, mu, sigma, mu - 3 * sigma, w, lo, d)


class Progress:
    def __init__(self, label: str, total: int) -> None:
        self.label, self.total, self.t0 = label, total, time.perf_counter()

    def __call__(self, done: int) -> None:
        spent = time.perf_counter() - self.t0
        rate = done / spent if spent else 0.0
        left = (self.total - done) / rate if rate else 0.0
        print(f"\r  {self.label}: {done:>9,}/{self.total:,} matches "
              f"({100 * done / self.total:3.0f} %) {spent:6.0f} s, ~{left:4.0f} s left ",
              end="" if done < self.total else "\n", flush=True)


async def load_sqlite(path: Path, data: Data) -> None:
    await (await SqliteRepository.open(path)).close()  # the schema, by a normal open
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("PRAGMA journal_mode = OFF")  # a fresh file: nothing to lose
    conn.execute("PRAGMA synchronous = OFF")
    conn.execute("PRAGMA cache_size = -1000000")
    marks = ", ".join("?" * len(MATCH_COLUMNS))
    progress = Progress("SQLite", data.matches)
    for first in range(1, data.matches + 1, CHUNK):
        matches, seats, moves = data.chunk(first, min(first + CHUNK - 1, data.matches))
        conn.execute("BEGIN")
        conn.executemany(f"INSERT INTO matches ({', '.join(MATCH_COLUMNS)}) VALUES "
                         f"({marks})", matches)
        conn.executemany("INSERT INTO seats (match_id, user_id, seat, team) VALUES "
                         "(?, ?, ?, ?)", seats)
        conn.executemany("INSERT INTO moves (match_id, ply, seat, notation, user_id, "
                         "played_at) VALUES (?, ?, ?, ?, ?, ?)", moves)
        conn.execute("COMMIT")
        progress(first + len(matches) - 1)
    conn.execute("BEGIN")
    conn.executemany("INSERT INTO ratings (guild_id, ladder, user_id, mu, sigma, ordinal, "
                     "wins, losses, draws) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                     data.ratings())
    conn.execute("COMMIT")
    conn.execute("ANALYZE")
    conn.execute("PRAGMA journal_mode = WAL")
    conn.close()
    repo = await SqliteRepository.open(path)
    await repo.beat(data.generated)
    await repo.close()


async def load_postgres(url: str, data: Data) -> None:
    import asyncpg  # type: ignore[import-untyped]

    await (await PostgresRepository.open(url)).close()
    conn = await asyncpg.connect(url)
    await conn.execute("SET synchronous_commit = off")
    progress = Progress("PostgreSQL", data.matches)
    for first in range(1, data.matches + 1, CHUNK):
        matches, seats, moves = data.chunk(first, min(first + CHUNK - 1, data.matches))
        async with conn.transaction():
            await conn.copy_records_to_table("matches", records=matches,
                                             columns=MATCH_COLUMNS)
            await conn.copy_records_to_table("seats", records=seats,
                                             columns=["match_id", "user_id", "seat", "team"])
            await conn.copy_records_to_table(
                "moves", records=moves,
                columns=["match_id", "ply", "seat", "notation", "user_id", "played_at"])
        progress(first + len(matches) - 1)
    await conn.copy_records_to_table(
        "ratings", records=list(data.ratings()),
        columns=["guild_id", "ladder", "user_id", "mu", "sigma", "ordinal", "wins", "losses",
                 "draws"])
    await conn.execute("SELECT setval(pg_get_serial_sequence('matches', 'id'), max(id)) "
                       "FROM matches")
    await conn.execute("VACUUM ANALYZE")
    await conn.close()
    repo = await PostgresRepository.open(url)
    await repo.beat(data.generated)
    await repo.close()


# ---------------------------------------------------------------------- the measures

async def timed(n: int, call: Callable[[int], Awaitable[Any]]) -> list[float]:
    out = []
    for i in range(n):
        t0 = time.perf_counter()
        await call(i)
        out.append((time.perf_counter() - t0) * 1000)
    return out


def line(label: str, ms: list[float]) -> str:
    return (f"{label:<44}{statistics.median(ms):>9.2f}{pct(ms, 0.99):>9.2f}"
            f"{max(ms):>9.2f}")


async def measure(name: str, open_repo: Callable[[], Awaitable[Any]], data: Data,
                  now: datetime, plans: bool) -> list[str]:
    rows = [f"{name}: {data.matches:,} matches ({data.active:,} active), virtual time "
            f"{now:%Y-%m-%d %H:%M:%S}"]
    clock = VirtualClock(now)
    # the bot's start, as far as the database goes (what run_bot and the first sweep do)
    t_start = time.perf_counter()
    repo = await open_repo()
    t_open = time.perf_counter()
    lease = ShardLease(repo, ALL_SHARDS, clock)
    await lease.acquire()
    t_lease = time.perf_counter()
    relay = OutboxRelay(repo, lambda entry, event: asyncio.sleep(0), clock)
    await relay.recover()
    t_recover = time.perf_counter()
    service = MatchService(repo, relay, clock, picker=NoPicker(), rng=random.Random(1))
    extended = await service.resume()
    t_resume = time.perf_counter()
    events = await service.sweep()
    t_sweep = time.perf_counter()
    await service.wake_computers()
    t_end = time.perf_counter()
    timeouts = sum(1 for e in events if type(e).__name__ in ("MatchEnded", "PlayerOut"))
    ms = lambda a, b: f"{(b - a) * 1000:8.0f} ms"  # noqa: E731
    rows += [f"  start-up total                       {ms(t_start, t_end)}",
             f"    open (+ quick_check on SQLite)     {ms(t_start, t_open)}",
             f"    shard lease                        {ms(t_open, t_lease)}",
             f"    outbox recovery                    {ms(t_lease, t_recover)}",
             f"    resume (clocks; {len(extended)} extended)         {ms(t_recover, t_resume)}",
             f"    first sweep ({len(events)} events, {timeouts} ended) {ms(t_resume, t_sweep)}",
             f"    wake computer players              {ms(t_sweep, t_end)}"]
    t0 = time.perf_counter()
    await service.sweep()
    rows.append(f"  one more sweep (nothing due)         {ms(t0, time.perf_counter())}")

    rows.append(f"  {'query':<42}{'p50 ms':>9}{'p99 ms':>9}{'max ms':>9}")
    rng = random.Random(now.minute)
    big = max(range(len(data.guild_ids)), key=lambda k: data.pool[k])
    big_pages = data.pool[big] // 10
    ms_big = await timed(300, lambda i: service.leaderboard(
        data.guild_ids[big], LADDER, page=1 + rng.randrange(big_pages), per_page=10))
    rows.append(line(f"leaderboard, largest server ({data.pool[big]:,} rated)", ms_big))
    ms_top = await timed(300, lambda i: service.leaderboard(
        data.guild_ids[rng.randrange(len(data.guild_ids))], LADDER, page=1, per_page=10))
    rows.append(line("leaderboard page 1, random servers", ms_top))
    guilds = data.guild_of  # a random match's guild: players weighted by activity
    found: list[int] = []

    async def games(i: int) -> None:
        k = guilds[rng.randrange(len(guilds))]
        user = data.user(k, rng.randrange(data.pool[k]))
        found.append(len(await service.games_of(data.guild_ids[k], user)))
    ms_games = await timed(500, games)
    rows.append(line(f"/games (games_of; {statistics.mean(found):.1f} live each)", ms_games))
    found.clear()
    await lease.release()
    if plans:
        rows += await query_plans(repo, data, now, big)
    await repo.close()
    return rows


async def query_plans(repo: Any, data: Data, now: datetime, big: int) -> list[str]:
    """The plans of the sweep, leaderboard and /games queries as the repository runs them."""
    postgres = isinstance(repo, PostgresRepository)
    select = select_match(repo._prefs_sql)
    guild = data.guild_ids[big]
    user = data.user(big, 3)
    queries = {
        "sweep (due_matches)": (due_sql(select), (now.timestamp(), now.timestamp())),
        "leaderboard page (offset 20,000)": (LEADERBOARD_SQL, (guild, LADDER, 10, 20_000)),
        "/games (matches_of)": (matches_of_sql(select, True, LIVE_STATUSES), (user, guild)),
    }
    out = [f"  plans ({'EXPLAIN ANALYZE' if postgres else 'EXPLAIN QUERY PLAN'}):"]
    for label, (sql, params) in queries.items():
        out.append(f"  -- {label}")
        if postgres:
            from storage.postgres import numbered
            async with repo._pool.acquire() as conn:
                plan = await conn.fetch(f"EXPLAIN (ANALYZE, COSTS OFF) {numbered(sql)}",
                                        *params)
            out += [f"     {r[0]}" for r in plan]
        else:
            plan = await repo._all(f"EXPLAIN QUERY PLAN {sql}", params)
            out += [f"     {r[-1]}" for r in plan]
    return out


# ---------------------------------------------------------------------- the servers

class KeptServer(DurableServer):
    """The bench's PostgreSQL server (fsync on), its data kept in ``folder`` for reuse."""

    def __init__(self, folder: Path) -> None:
        super().__init__()
        shutil.rmtree(self.folder, ignore_errors=True)
        self.folder = folder
        self.data = folder / "data"
        folder.mkdir(parents=True, exist_ok=True)
        if self.prefix:
            shutil.chown(folder, user=self.prefix[2])
            folder.chmod(0o700)

    def start(self) -> str:
        assert self.bin is not None
        if not (self.data / "PG_VERSION").exists():
            return super().start()
        options = (f"-p {self.port} -k {self.folder} -c listen_addresses=127.0.0.1 "
                   "-c max_connections=200")
        self._run(str(self.bin / "pg_ctl"), "-D", str(self.data), "-o", options,
                  "-l", str(self.folder / "log"), "-w", "-t", "120", "start")
        return f"postgresql://postgres@127.0.0.1:{self.port}/postgres"

    def stop(self) -> None:
        assert self.bin is not None
        subprocess.run([*self.prefix, str(self.bin / "pg_ctl"), "-D", str(self.data), "-m",
                        "fast", "stop"], capture_output=True, timeout=300, check=False)


async def matches_in(open_repo: Callable[[], Awaitable[Any]]) -> int:
    repo = await open_repo()
    try:
        return int((await repo._all("SELECT count(*) FROM matches"))[0][0])
    finally:
        await repo.close()


async def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--matches", type=int, default=1_000_000)
    parser.add_argument("--active", type=int, default=100_000)
    parser.add_argument("--plies", type=int, default=10)
    parser.add_argument("--guilds", type=int, default=2_000)
    parser.add_argument("--dir", type=Path, default=Path("/tmp/tablero-million"))
    parser.add_argument("--only", choices=("sqlite", "postgres"), default=None)
    parser.add_argument("--pg", default=None, help="a postgresql:// URL (an empty database "
                        "or one this bench filled); default: a local server under --dir")
    parser.add_argument("--plans", action="store_true", help="print the query plans")
    parser.add_argument("--fresh", action="store_true", help="generate the data again")
    parser.add_argument("--load-only", action="store_true")
    args = parser.parse_args()
    args.dir.mkdir(parents=True, exist_ok=True)
    state_file = args.dir / f"state-{args.matches}.json"
    if args.fresh or not state_file.exists():
        state: dict[str, Any] = {"generated": datetime.now(UTC).timestamp(), "runs": {}}
    else:
        state = json.loads(state_file.read_text())
    generated = datetime.fromtimestamp(state["generated"], UTC)
    data = Data(args.matches, args.active, args.plies, args.guilds, generated)
    reports: list[str] = []

    async def run_one(name: str, open_repo: Callable[[], Awaitable[Any]],
                      load: Callable[[], Awaitable[None]],
                      drop: Callable[[], Awaitable[None]]) -> None:
        held = 0
        if not args.fresh:
            try:
                held = await matches_in(open_repo)
            except Exception:
                held = 0
        if held != args.matches:
            await drop()
            state["runs"][name] = 0
            state_file.write_text(json.dumps(state))
            t0 = time.perf_counter()
            await load()
            print(f"{name}: loaded {args.matches:,} matches in {time.perf_counter() - t0:.0f} s")
        if args.load_only:
            return
        state["runs"][name] = state["runs"].get(name, 0) + 1
        state_file.write_text(json.dumps(state))
        now = generated + timedelta(minutes=state["runs"][name])
        # a first open migrates (once) and warms the OS cache: the measured start is a restart
        await (await open_repo()).close()
        reports.extend(await measure(name, open_repo, data, now, args.plans))
        print("\n".join(reports[-1:]), flush=True)

    if args.only in (None, "sqlite"):
        path = args.dir / f"million-{args.matches}.db"

        async def drop_file() -> None:
            for p in args.dir.glob(f"{path.name}*"):
                p.unlink()
        await run_one("SQLite", lambda: SqliteRepository.open(path),
                      lambda: load_sqlite(path, data), drop_file)
    if args.only in (None, "postgres"):
        server = None if args.pg else KeptServer(args.dir / f"pg-{args.matches}")
        try:
            url = args.pg or server.start()  # type: ignore[union-attr]

            async def drop_schema() -> None:
                import asyncpg
                conn = await asyncpg.connect(url)
                await conn.execute("DROP SCHEMA public CASCADE; CREATE SCHEMA public")
                await conn.close()
            await run_one("PostgreSQL", lambda: PostgresRepository.open(url),
                          lambda: load_postgres(url, data), drop_schema)
        finally:
            if server is not None:
                server.stop()
    if reports:
        print()
        print("\n".join(reports))


if __name__ == "__main__":
    asyncio.run(main())
