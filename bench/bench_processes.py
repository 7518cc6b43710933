"""Moves/s and p99 move latency through ``MatchService`` with several OS processes on one
database (issue 15), rendering off: PostgreSQL with 1, 2 and 4 processes, then SQLite with
1 process, in one run. Target: >= 1,000 moves/s with 4 processes, p99 <= 50 ms.

Each process opens its own repository and service and plays ``--matches`` matches at once
(one client each, moves back to back; a match whose 60 scripted plies are played is
replaced by a fresh one) for ``--seconds``; it reports its moves and their latencies (one
``service.move`` call each) and the parent adds them up. The processes start their timed
loop together (each waits for the parent's go once its matches are open).

Without ``--db`` the script starts a throw-away PostgreSQL server the way the test suite
does (``tests/postgres.py``), but durable like a deployed one: fsync and synchronous_commit
on, as SQLite runs with synchronous=FULL.

    python bench/bench_processes.py [--seconds 10] [--matches 20] [--db postgresql://...]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench_service import pct, scripted_game  # noqa: E402

from service import MatchService, NullNotifier, SystemClock  # noqa: E402
from storage import PostgresRepository, SqliteRepository  # noqa: E402
from tests.postgres import LocalServer  # noqa: E402

GUILD, CHANNEL, PLIES, GAME = 1, 1, 60, "xiangqi"


class DurableServer(LocalServer):
    """The test suite's throw-away server with fsync and synchronous commits on."""

    def start(self) -> str:
        assert self.bin is not None
        self._run(str(self.bin / "initdb"), "-D", str(self.data), "-U", "postgres",
                  "--auth=trust", "-E", "UTF8", "--no-sync")
        options = (f"-p {self.port} -k {self.folder} -c listen_addresses=127.0.0.1 "
                   "-c max_connections=200")
        self._run(str(self.bin / "pg_ctl"), "-D", str(self.data), "-o", options,
                  "-l", str(self.folder / "log"), "-w", "-t", "60", "start")
        return f"postgresql://postgres@127.0.0.1:{self.port}/postgres"


async def open_repo(target: str) -> SqliteRepository | PostgresRepository:
    if target.startswith("postgresql://"):
        return await PostgresRepository.open(target)
    return await SqliteRepository.open(Path(target))


async def worker(target: str, seed: int, matches: int, seconds: float) -> None:
    """One process: open ``matches`` matches, wait for the go on stdin, play, print JSON."""
    rng = random.Random(seed)
    scripts = [scripted_game(GAME, PLIES, rng) for _ in range(matches)]
    repo = await open_repo(target)
    s = MatchService(repo, NullNotifier(), SystemClock(), rng=random.Random(seed))

    async def new_match() -> tuple[int, int, int]:
        a, b = rng.sample(range(1, 10**6), 2)
        m = await s.challenge(GUILD, CHANNEL, a, GAME, opponents=[b], seat=0)
        await s.accept(m.id, b)
        return m.id, a, b

    first = [await new_match() for _ in range(matches)]
    print("ready", flush=True)
    await asyncio.get_running_loop().run_in_executor(None, sys.stdin.readline)
    lat: list[float] = []
    until = time.perf_counter() + seconds

    async def client(k: int) -> None:
        match_id, a, b = first[k]
        ply = 0
        while time.perf_counter() < until:
            if ply == PLIES:  # script played out: a fresh match (not timed)
                match_id, a, b = await new_match()
                ply = 0
            t0 = time.perf_counter()
            await s.move(match_id, (a, b)[ply % 2], scripts[k][ply])
            lat.append(time.perf_counter() - t0)
            ply += 1

    t0 = time.perf_counter()
    await asyncio.gather(*(client(k) for k in range(matches)))
    elapsed = time.perf_counter() - t0
    await repo.close()
    print(json.dumps({"elapsed": elapsed, "latencies": lat}), flush=True)


async def run(target: str, processes: int, matches: int, seconds: float) -> dict[str, float]:
    """``processes`` workers on ``target`` at once; their moves/s and latencies added up."""
    procs = [await asyncio.create_subprocess_exec(
        sys.executable, __file__, "--worker", target, "--seed", str(i + 1),
        "--matches", str(matches), "--seconds", str(seconds), cwd=str(ROOT),
        stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE)
        for i in range(processes)]
    for p in procs:
        assert p.stdout is not None
        line = await p.stdout.readline()
        if line.strip() != b"ready":
            raise SystemExit(f"a worker failed before starting: {line!r}")
    for p in procs:
        assert p.stdin is not None
        p.stdin.write(b"go\n")
        await p.stdin.drain()
    results = []
    for p in procs:
        out, _ = await p.communicate()
        if p.returncode != 0:
            raise SystemExit(f"a worker failed ({p.returncode})")
        results.append(json.loads(out))
    ms = [x * 1000 for r in results for x in r["latencies"]]
    elapsed = max(r["elapsed"] for r in results)
    return {"moves": len(ms), "rate": len(ms) / elapsed, "p50": statistics.median(ms),
            "p99": pct(ms, 0.99), "max": max(ms)}


async def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--matches", type=int, default=20, help="matches at once per process")
    parser.add_argument("--processes", default="1,2,4", help="PostgreSQL process counts")
    parser.add_argument("--db", default=None, help="a postgresql:// URL (an empty database); "
                        "default: a throw-away local server")
    parser.add_argument("--dir", type=Path, default=None, help="folder of the SQLite file")
    parser.add_argument("--worker", default=None, help=argparse.SUPPRESS)
    parser.add_argument("--seed", type=int, default=1, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        await worker(args.worker, args.seed, args.matches, args.seconds)
        return
    rows: list[tuple[str, int, dict[str, float]]] = []
    server = None if args.db else DurableServer()
    try:
        url = args.db or server.start()  # type: ignore[union-attr]
        repo = await PostgresRepository.open(url)  # migrate once, before the workers
        await repo.close()
        for n in (int(x) for x in args.processes.split(",")):
            rows.append(("PostgreSQL", n, await run(url, n, args.matches, args.seconds)))
    finally:
        if server is not None:
            server.stop()
    with tempfile.TemporaryDirectory(dir=args.dir) as d:
        path = str(Path(d) / "bench.db")
        repo2 = await SqliteRepository.open(Path(path))
        await repo2.close()
        rows.append(("SQLite", 1, await run(path, 1, args.matches, args.seconds)))
    print(f"{args.matches} matches at once per process, {args.seconds:.0f} s, {GAME}, "
          f"rendering off; PostgreSQL {'at --db' if args.db else 'local (fsync on)'}, "
          f"SQLite WAL synchronous=FULL")
    print(f"{'database':<11}{'processes':>10}{'moves':>8}{'moves/s':>9}{'p50 ms':>9}"
          f"{'p99 ms':>9}{'max ms':>9}")
    for name, n, r in rows:
        print(f"{name:<11}{n:>10}{r['moves']:>8}{r['rate']:>9.0f}{r['p50']:>9.2f}"
              f"{r['p99']:>9.2f}{r['max']:>9.2f}")


if __name__ == "__main__":
    asyncio.run(main())
