"""Seasons on SQLite: what crediting a season costs the transaction that ends a rated
match (ms per rated match end with seasons off vs monthly), closing a season (the final
boards read and stored in the outbox) and reading a page of a season's board, by number
of rated players on one ladder.

Run: ``python bench/bench_seasons.py [--players 200,2000] [--games 200]``.

Method: a fresh SQLite file per run; ratings are written through ``repository.save``
(the very transaction the service uses: a ``RatingChange`` with ``at`` and the
fresh-prior function) for random pairs of the players; the per-save time is the median
and 95th percentile over ``--games`` saves after the ladder is filled. Closing is one
``close_season`` call; the page is page 1 and the last page of ``season_board``.
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import random
import statistics
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from functools import partial
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from service.outbox import entry_of
from service.ratings import _RateCapture, rate_groups
from service.records import MatchRecord, MatchStatus, RatingChange, SeatRecord
from service.season_service import SeasonsMixin
from service.seasons import Schedule
from storage import SqliteRepository

GUILD = 5
T0 = datetime(2026, 3, 2, tzinfo=UTC)


def a_match(guild: int) -> MatchRecord:
    return MatchRecord(
        id=0, guild_id=guild, channel_id=1, thread_id=None, game="xiangqi", ladder="xiangqi",
        rules_version="1", options={}, start_text="", seat_count=2,
        status=MatchStatus.ACTIVE, challenger_id=1, seats=(SeatRecord(1, 0), SeatRecord(2, 1)),
        seat_pref=0, seating="random", ply=0, position_text="", to_move=(0,),
        last_move=None, days_per_move=3, rated=True, deadline=None, remind_at=None,
        draw_offer=None, result=None, broken=None, created_at=T0, updated_at=T0)


async def run(players: int, games: int, seasons: bool, rng: random.Random) -> dict[str, float]:
    with tempfile.TemporaryDirectory() as folder:
        repo = await SqliteRepository.open(Path(folder) / "b.db")
        try:
            if seasons:
                await repo.change_seasons(GUILD, Schedule.MONTHLY, T0, 1)
            rec = await repo.create_match(a_match(GUILD))

            async def rated(a: int, b: int) -> float:
                nonlocal rec
                teams, ranks = [[a], [b]], [1, 2]
                change = RatingChange(GUILD, "xiangqi", {a: "win", b: "loss"},
                                      _RateCapture(teams, ranks), T0 + timedelta(hours=1),
                                      partial(rate_groups, teams=teams, ranks=ranks))
                t0 = time.perf_counter()
                rec = await repo.save(rec, dataclasses.replace(rec, ply=rec.ply + 1),
                                      ratings=change)
                return time.perf_counter() - t0
            ids = list(range(1000, 1000 + players))
            for i in range(0, players, 2):  # everyone rated once
                await rated(ids[i], ids[(i + 1) % players])
            times = [await rated(*rng.sample(ids, 2)) for _ in range(games)]
            out = {"save_ms": statistics.median(times) * 1000,
                   "save_p95_ms": statistics.quantiles(times, n=20)[-1] * 1000}
            if seasons:
                [season] = await repo.seasons_of(GUILD)
                t0 = time.perf_counter()
                page = await repo.season_board(GUILD, 1, "xiangqi", 0, 10)
                out["page1_ms"] = (time.perf_counter() - t0) * 1000
                t0 = time.perf_counter()
                await repo.season_board(GUILD, 1, "xiangqi", max(0, page[1] - 10), 10)
                out["last_page_ms"] = (time.perf_counter() - t0) * 1000
                end = datetime(2026, 4, 1, 0, 1, tzinfo=UTC)
                t0 = time.perf_counter()
                await repo.close_season(season, end, lambda closed, rows: [entry_of(
                    SeasonsMixin._season_ended(closed, rows), 0, end)])
                out["close_ms"] = (time.perf_counter() - t0) * 1000
            return out
        finally:
            await repo.close()


async def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--players", default="200,2000")
    ap.add_argument("--games", type=int, default=200)
    args = ap.parse_args()
    rng = random.Random(7)
    print("SQLite, one ladder; ms (median / p95 per rated match end)")
    for n in (int(x) for x in args.players.split(",")):
        off = await run(n, args.games, False, rng)
        on = await run(n, args.games, True, rng)
        print(f"{n:6} players: rated end, seasons off {off['save_ms']:.2f} / "
              f"{off['save_p95_ms']:.2f}, monthly {on['save_ms']:.2f} / "
              f"{on['save_p95_ms']:.2f}; season board page 1 {on['page1_ms']:.2f}, "
              f"last page {on['last_page_ms']:.2f}; closing the season {on['close_ms']:.1f}")


if __name__ == "__main__":
    asyncio.run(main())
