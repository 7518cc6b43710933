"""One replay-stepper click (issue 42): ``MatchService.board_at`` over SQLite, the board
at a ply of a finished game drawn with the real renderer, as the Discord cog asks it.

Run: ``python bench/bench_stepper.py [--plies 120] [--clicks 200] [--game xiangqi]``.

Method: a seeded random game of ``--plies`` plies (then a resignation) is played through
the service into a fresh SQLite file. A new service over that file (nothing cached; the
renderer warmed by one start position, as a running bot's is) takes the first click
(printed as "first click": it reads the record and replays it once). Then
``--clicks`` clicks step through the game the way people do (▶ from the start, ◀ back
from the end, jumps to random plies), each timed end to end (the match row read, the kept
replay looked up, the board drawn as a PNG with its alt text): p50, p99 and the largest,
wall time and the process CPU time (the machine may be shared). For comparison, the same
clicks with the kept replays switched off (every click replays the record from the start,
as the web's board did) are timed on the same database.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import rules
from bot.boards import load_renderer
from service import MatchService
from service.records import MatchRecord, RecordEntry
from service.states import Replay, Replays, replay
from service.views import Caller
from storage.sqlite import open_repository

GUILD, CHANNEL, ALICE, BOB = 1, 2, 101, 202


class Quiet:
    async def notify(self, event: object) -> None:
        return None


class NoReplays(Replays):
    """The kept replays switched off: every click replays the record."""

    def kept(self, rec: object) -> None:  # type: ignore[override]
        return None

    def replayed(self, rec: MatchRecord, entries: Sequence[RecordEntry]) -> Replay:
        return replay(rec, entries)  # from the start, never played on from a kept one


class Clock:
    def now(self):  # type: ignore[no-untyped-def]
        from datetime import UTC, datetime
        return datetime.now(UTC)


async def played(path: Path, game: str, plies: int, seed: int) -> tuple[int, int]:
    repo = await open_repository(path)
    svc = MatchService(repo, Quiet(), Clock(), rng=random.Random(seed))
    m = await svc.challenge(GUILD, CHANNEL, ALICE, game, opponents=[BOB], seat=0)
    m = await svc.accept(m.id, BOB)
    rng = random.Random(seed)
    for _ in range(plies):
        p, _marks = await svc.position(m.id)
        legal = [mv for mv in p.legal_moves() if p.play(mv).outcome() is None]
        if not legal:
            break
        mv = rng.choice(legal)
        m = (await svc.move(m.id, m.to_move[0], p.variant.format_move(p, mv))).match
    await svc.resign(m.id, m.to_move[0])
    done = await svc.get_match(m.id)
    await repo.close()
    return m.id, done.ply


def clicks(last: int, count: int, seed: int) -> list[int]:
    """Forward from the start, back from the end, then jumps anywhere."""
    rng = random.Random(seed)
    out = list(range(0, min(last, count // 3) + 1))
    out += list(range(last, max(-1, last - count // 3), -1))
    while len(out) < count:
        out.append(rng.randint(0, last))
    return out[:count]


def figures(label: str, walls: list[float], cpus: list[float]) -> None:
    walls_ms = sorted(w * 1000 for w in walls)
    p99 = walls_ms[min(len(walls_ms) - 1, round(0.99 * (len(walls_ms) - 1)))]
    print(f"{label:34} p50 {statistics.median(walls_ms):7.1f} ms   p99 {p99:7.1f} ms   "
          f"max {walls_ms[-1]:7.1f} ms   cpu p50 {statistics.median(cpus) * 1000:6.1f} ms")


async def timed(path: Path, match_id: int, plies: list[int], keep: bool
                ) -> tuple[float, list[float], list[float], int]:
    repo = await open_repository(path)
    svc = MatchService(repo, Quiet(), Clock(), renderer=load_renderer())
    if not keep:
        svc.replays = NoReplays()
    caller = Caller(GUILD, ALICE)
    renderer = load_renderer()
    assert renderer is not None
    rec = await repo.load_match(match_id)
    assert rec is not None
    renderer.render(rules.variant(rec.game).start())  # fonts, sprites: the bot is warm
    started = time.perf_counter()
    first = await svc.board_at(match_id, plies[0], caller)
    cold = time.perf_counter() - started
    size = len(first.image.png) if first.image is not None else 0
    walls, cpus = [], []
    for ply in plies[1:]:
        w, c = time.perf_counter(), time.process_time()
        board = await svc.board_at(match_id, ply, caller)
        walls.append(time.perf_counter() - w)
        cpus.append(time.process_time() - c)
        assert board.ply == ply and board.image is not None
    await repo.close()
    return cold, walls, cpus, size


async def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--plies", type=int, default=120)
    ap.add_argument("--clicks", type=int, default=200)
    ap.add_argument("--game", default="xiangqi", choices=sorted(rules.VARIANTS))
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "bench.db"
        match_id, last = await played(path, args.game, args.plies, args.seed)
        plies = clicks(last, args.clicks, args.seed)
        print(f"{args.game}: a finished game of {last} plies (SQLite), {len(plies) - 1} "
              f"clicks after the first")
        cold, walls, cpus, size = await timed(path, match_id, plies, keep=True)
        print(f"{'first click (reads, replays once)':34} {cold * 1000:7.1f} ms   "
              f"PNG {size / 1024:.1f} KB")
        figures("click (kept replay)", walls, cpus)
        _cold, walls, cpus, _size = await timed(path, match_id, plies, keep=False)
        figures("click (replayed every time)", walls, cpus)


if __name__ == "__main__":
    asyncio.run(main())
