"""The opening explorer (issue 44) on 100,000 finished games of one server, on SQLite and on
PostgreSQL: query latency (p50/p99) through ``MatchService.explorer``, and what counting
one game costs as it ends.

The games: ``--games`` Xiangqi games (by default) of one server, each counted for its
first 40 moves as the explorer counts them. Their openings are a skewed random walk over
the real positions (at each position the moves are ranked once, and the k-th is chosen
with a Pareto weight, chance about k^-1.2: a few main lines, a long tail of rarer ones);
the first ``--real-plies`` moves are played by the rules (the lines the queries follow),
the later ones are keyed per game (every game's middle game is its own, as real games
are). Each game's result is
drawn (45 % won by the first player, 10 % drawn); two thirds of the players are rated.
The counts are written in bulk (``executemany`` on SQLite, ``COPY`` on PostgreSQL),
exactly the rows ``index_game`` would have summed.

Measured: ``--queries`` explorer queries at random nodes of random games' first
``--real-plies`` moves (the line parsed by the rules, one read, the answer built: what
``/explorer`` and each click cost apart from Discord), the start position alone (the
node with the most games), and ``--index`` real matches counted as they end (played
through the service, then ``Explorer.index_match``: one replay, ratings, one write).

    nice python bench/bench_explorer.py [--games 100000] [--game xiangqi]
        [--only sqlite|postgres] [--dir /tmp/tablero-explorer] [--queries 2000]
"""

from __future__ import annotations

import argparse
import asyncio
import random
import shutil
import sqlite3
import sys
import time
import zlib
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from bench_million import KeptServer  # noqa: E402
from bench_service import pct  # noqa: E402

import rules  # noqa: E402
from service import MatchService, NullNotifier, SystemClock  # noqa: E402
from service.explorer import EXPLORER_PLIES, explorer_config, position_key  # noqa: E402
from storage.postgres import PostgresRepository  # noqa: E402
from storage.sqlite import SqliteRepository  # noqa: E402

GUILD = 1
Counts = dict[tuple[int, str], list[float]]


class Walk:
    """Openings as a skewed random walk over real positions; the shallow nodes (shared by
    many games) are kept, the deeper ones computed as each game goes."""

    KEEP = 6  # plies whose nodes are kept (they repeat across games)

    def __init__(self, game: str, real_plies: int, rng: random.Random) -> None:
        self.v = rules.variant(game)
        self.real_plies = real_plies
        self.rng = rng
        self.nodes: dict[tuple[str, ...], tuple[int, list[Any], Any]] = {}

    def expand(self, line: tuple[str, ...], p: Any) -> tuple[int, list[Any], Any]:
        moves = list(p.legal_moves())
        # the position's own ranking of its moves (the same whenever it comes again)
        random.Random(zlib.crc32("\x1f".join(line).encode())).shuffle(moves)
        return position_key(p.to_text()), moves, p

    def game(self, n: int) -> list[tuple[int, str]]:
        """(position key, move) for the first EXPLORER_PLIES moves of game ``n``."""
        line: tuple[str, ...] = ()
        p = self.v.start()
        out = []
        for ply in range(EXPLORER_PLIES):
            if ply < self.real_plies:
                node = self.nodes.get(line) if ply < self.KEEP else None
                if node is None:
                    node = self.expand(line, p)
                    if ply < self.KEEP:
                        self.nodes[line] = node
                key, moves, p = node
                if not moves:
                    break
                move = moves[min(len(moves) - 1, int(self.rng.paretovariate(1.2)) - 1)]
                text = self.v.format_move(p, move)
                p = p.play(move)
                line += (text,)
            else:  # the game's own middle game
                key, text = position_key(f"game {n} ply {ply}"), f"m{ply % 7}-{ply % 5}"
            out.append((key, text))
        return out


def generate(game: str, games: int, real_plies: int, seed: int = 1
             ) -> tuple[Counts, list[tuple[str, ...]], float]:
    """The summed counts of ``games`` games, the real lines (for queries), seconds taken."""
    rng = random.Random(seed)
    walk = Walk(game, real_plies, rng)
    counts: Counts = {}
    lines: list[tuple[str, ...]] = []
    t0 = time.perf_counter()
    for n in range(games):
        moves = walk.game(n)
        r = rng.random()
        first = "win" if r < 0.45 else "draw" if r < 0.55 else "loss"
        flip = {"win": "loss", "loss": "win", "draw": "draw"}
        for ply, (key, move) in enumerate(moves):
            outcome = first if ply % 2 == 0 else flip[first]
            c = counts.setdefault((key, move), [0, 0, 0, 0, 0, 0.0])
            c[0] += 1
            c[1 + ("win", "draw", "loss").index(outcome)] += 1
            if rng.random() < 2 / 3:
                c[4] += 1
                c[5] += rng.gauss(20, 8)
        if n < 5000:
            lines.append(tuple(m for _k, m in moves[:real_plies]))
        if n and n % 10000 == 0:
            print(f"  generated {n:,} games, {len(counts):,} rows", flush=True)
    return counts, lines, time.perf_counter() - t0


def rows_of(counts: Counts, config: str) -> list[tuple[Any, ...]]:
    return [(GUILD, config, key, 0, move, int(c[0]), int(c[1]), int(c[2]), int(c[3]),
             int(c[4]), float(c[5])) for (key, move), c in counts.items()]


COLUMNS = ["guild_id", "config", "position", "imported", "move", "games", "wins", "draws",
           "losses", "rated", "rating_sum"]


async def load_sqlite(path: Path, rows: list[tuple[Any, ...]]) -> None:
    await (await SqliteRepository.open(path)).close()  # the schema, by a normal open
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("PRAGMA journal_mode = OFF")
    conn.execute("PRAGMA synchronous = OFF")
    conn.execute("BEGIN")
    conn.executemany(f"INSERT INTO explorer_moves ({', '.join(COLUMNS)}) VALUES "
                     f"({', '.join('?' * len(COLUMNS))})", rows)
    conn.execute("COMMIT")
    conn.execute("ANALYZE")
    conn.execute("PRAGMA journal_mode = WAL")
    conn.close()


async def load_postgres(url: str, rows: list[tuple[Any, ...]]) -> None:
    import asyncpg  # type: ignore[import-untyped]

    await (await PostgresRepository.open(url)).close()
    conn = await asyncpg.connect(url)
    await conn.execute("SET synchronous_commit = off")
    for start in range(0, len(rows), 200_000):
        await conn.copy_records_to_table("explorer_moves", records=rows[start:start + 200_000],
                                         columns=COLUMNS)
    await conn.execute("VACUUM ANALYZE explorer_moves")
    await conn.close()


def line(label: str, ms: list[float]) -> str:
    return (f"  {label:44} p50 {pct(ms, 0.5):7.2f} ms   p99 {pct(ms, 0.99):7.2f} ms   "
            f"(n={len(ms)})")


async def measure(name: str, repo: Any, game: str, lines: list[tuple[str, ...]],
                  queries: int, index: int, rng: random.Random) -> list[str]:
    service = MatchService(repo, NullNotifier(), SystemClock(), rng=random.Random(2))
    out = [f"{name}:"]
    for _ in range(20):  # warm the caches
        await service.explorer(GUILD, 7, game, " ".join(rng.choice(lines)[:3]))
    at_random, at_start, answers = [], [], []
    for _ in range(queries):
        chosen = rng.choice(lines)
        text = " ".join(chosen[:rng.randint(0, len(chosen))])
        t0 = time.perf_counter()
        view = await service.explorer(GUILD, 7, game, text)
        at_random.append((time.perf_counter() - t0) * 1000)
        answers.append(len(view.moves))
    for _ in range(max(50, queries // 10)):
        t0 = time.perf_counter()
        start = await service.explorer(GUILD, 7, game)
        at_start.append((time.perf_counter() - t0) * 1000)
    out.append(line("explorer at a random node of a game", at_random))
    out.append(line(f"explorer at the start ({start.games:,} games, "
                    f"{len(start.moves)} moves)", at_start))
    out.append(f"  moves listed per answer: mean {sum(answers) / len(answers):.1f}")
    counted = []
    v = rules.variant(game)
    for i in range(index):
        m = await service.challenge(GUILD, 2, 1000 + i, game, opponents=[2000 + i], seat=0)
        m = await service.accept(m.id, 2000 + i)
        p = v.start()
        for _ply in range(EXPLORER_PLIES):
            moves = [mv for mv in p.legal_moves() if p.play(mv).outcome() is None]
            if not moves:
                break
            mv = rng.choice(moves)
            m = (await service.move(m.id, m.to_move[0], v.format_move(p, mv))).match
            p = p.play(mv)
        await service.resign(m.id, m.to_move[0])  # counted in the background: undo, time it
        await service.explorer_idle()
        await repo._transaction(lambda mid=m.id: undo(repo, mid))
        t0 = time.perf_counter()
        assert await service._explorer.index_match(m.id)
        counted.append((time.perf_counter() - t0) * 1000)
    if counted:
        out.append(line("counting a finished game (40 moves)", counted))
    return out


async def undo(repo: Any, match_id: int) -> None:
    await repo._exec("DELETE FROM explorer_games WHERE match_id = ?", (match_id,))


async def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--game", default="xiangqi")
    parser.add_argument("--real-plies", type=int, default=10)
    parser.add_argument("--queries", type=int, default=2000)
    parser.add_argument("--index", type=int, default=30)
    parser.add_argument("--dir", type=Path, default=Path("/tmp/tablero-explorer"))
    parser.add_argument("--only", choices=("sqlite", "postgres"), default=None)
    args = parser.parse_args()
    shutil.rmtree(args.dir, ignore_errors=True)
    args.dir.mkdir(parents=True)
    counts, lines, took = generate(args.game, args.games, args.real_plies)
    config = explorer_config(rules.variant(args.game), {})
    rows = rows_of(counts, config)
    print(f"{args.games:,} {args.game} games generated in {took:.0f} s: {len(rows):,} rows "
          f"(position, move) in the explorer", flush=True)
    reports: list[str] = []

    async def run(name: str, open_repo: Callable[[], Awaitable[Any]],
                  load: Callable[[], Awaitable[None]]) -> None:
        t0 = time.perf_counter()
        await load()
        print(f"{name}: loaded in {time.perf_counter() - t0:.0f} s", flush=True)
        repo = await open_repo()
        try:
            reports.extend(await measure(name, repo, args.game, lines, args.queries,
                                         args.index, random.Random(5)))
        finally:
            await repo.close()
        print("\n".join(reports[-5:]), flush=True)

    if args.only in (None, "sqlite"):
        path = args.dir / "explorer.db"
        await run("SQLite", lambda: SqliteRepository.open(path),
                  lambda: load_sqlite(path, rows))
    if args.only in (None, "postgres"):
        server = KeptServer(args.dir / "pg")
        try:
            url = server.start()
            await run("PostgreSQL", lambda: PostgresRepository.open(url),
                      lambda: load_postgres(url, rows))
        finally:
            server.stop()


if __name__ == "__main__":
    asyncio.run(main())
