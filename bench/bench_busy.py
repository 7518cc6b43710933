"""Busy matches on one SQLite file: moves/s per process and races reported as broken.

Usage: ``python bench/bench_busy.py [--seconds 20] [--processes 2] [--matches 5] [--readers 1]``

Each process runs three tasks that play random legal moves (``get_match``, ``position``,
``move`` with ``expected_ply``) and ``--readers`` (default 1) that read ``history``, all on
the same matches.
Every figure is per process: acknowledged moves, moves/s, lost races (StaleMove and the
like, expected) and MatchBroken (a race taken for corruption: must be 0). The matches are
played from a prefix of 400 plies, so a cache miss that replays the whole record shows.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from service import MatchBroken, MatchService, NullNotifier, ServiceError  # noqa: E402
from service.ports import SystemClock  # noqa: E402
from storage import SqliteRepository  # noqa: E402

ALICE, BOB, GUILD, CHANNEL = 101, 202, 10, 20


async def _prepare(path: Path, matches: int, plies: int) -> list[int]:
    repo = await SqliteRepository.open(path)
    s = MatchService(repo, NullNotifier(), SystemClock(), rng=random.Random(1))
    ids = []
    for i in range(matches):
        m = await s.challenge(GUILD, CHANNEL, ALICE, "xiangqi", opponents=[BOB], days=14)
        m = await s.accept(m.id, BOB)
        rng = random.Random(i)
        for _ in range(plies):
            p, _ = await s.position(m.id)
            safe = [mv for mv in p.legal_moves() if p.play(mv).outcome() is None]
            if not safe:
                break
            m = (await s.move(m.id, m.to_move[0],
                              p.variant.format_move(p, rng.choice(safe)))).match
        ids.append(m.id)
    await repo.close()
    return ids


async def _worker(path: str, seed: int, seconds: float, ids: list[int],
                  readers: int) -> dict[str, float]:
    repo = await SqliteRepository.open(Path(path))
    s = MatchService(repo, NullNotifier(), SystemClock(), rng=random.Random(seed))
    tally = {"moves": 0, "reads": 0, "races": 0, "broken": 0}
    until = time.monotonic() + seconds

    async def mover(rng: random.Random) -> None:
        while time.monotonic() < until:
            match_id = rng.choice(ids)
            try:
                m = await s.get_match(match_id)
                p, _ = await s.position(match_id)
                safe = [mv for mv in p.legal_moves() if p.play(mv).outcome() is None]
                if m.to_move and safe:
                    await s.move(match_id, m.to_move[0],
                                 p.variant.format_move(p, rng.choice(safe)),
                                 expected_ply=m.ply)
                    tally["moves"] += 1
            except MatchBroken:
                tally["broken"] += 1
            except ServiceError:
                tally["races"] += 1
            await asyncio.sleep(0)

    async def reader(rng: random.Random) -> None:
        while time.monotonic() < until:
            try:
                await s.history(rng.choice(ids))
                tally["reads"] += 1
            except MatchBroken:
                tally["broken"] += 1
            await asyncio.sleep(0)

    await asyncio.gather(*(mover(random.Random(seed * 10 + i)) for i in range(3)),
                         *(reader(random.Random(seed * 10 + 5 + i)) for i in range(readers)))
    await repo.close()
    return {**tally, "moves/s": tally["moves"] / seconds}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=20)
    ap.add_argument("--processes", type=int, default=2)
    ap.add_argument("--matches", type=int, default=5)
    ap.add_argument("--plies", type=int, default=400)
    ap.add_argument("--readers", type=int, default=1, help="history readers per process")
    ap.add_argument("--child", nargs=5, metavar=("DB", "SEED", "SECONDS", "IDS", "READERS"),
                    help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        db, seed, seconds, ids, readers = args.child
        print(json.dumps(asyncio.run(_worker(db, int(seed), float(seconds),
                                             json.loads(ids), int(readers)))))
        return
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "busy.db"
        print(f"preparing {args.matches} xiangqi matches of up to {args.plies} plies ...",
              flush=True)
        ids = asyncio.run(_prepare(db, args.matches, args.plies))
        print(f"{args.processes} process(es), {args.seconds:g} s, 3 movers + "
              f"{args.readers} history reader(s) each", flush=True)
        children = [subprocess.Popen(
            [sys.executable, __file__, "--child", str(db), str(seed), str(args.seconds),
             json.dumps(ids), str(args.readers)], stdout=subprocess.PIPE, text=True)
            for seed in range(1, args.processes + 1)]
        for i, child in enumerate(children, start=1):
            out, _ = child.communicate()
            t = json.loads(out.strip().splitlines()[-1])
            print(f"process {i}: {t['moves']:6.0f} moves  {t['moves/s']:7.1f} moves/s  "
                  f"{t['reads']:6.0f} history reads  {t['races']:5.0f} lost races  "
                  f"{t['broken']:4.0f} MatchBroken")


if __name__ == "__main__":
    main()
