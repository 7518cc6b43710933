"""Tournament pairing and standings: Swiss pairing time per round by field size (median
and worst ms over the rounds of a seeded random Swiss), a round robin schedule, and the
standings table image (ms, KB). Also writes the image and CSV of a test tournament.

Run: ``python bench/bench_tournament.py [--out DIR] [--reps 3]``.

Method: for each field size a Swiss of 9 rounds (fewer for small fields) is paired round
by round with seeded random results (40 % first wins, 25 % draws, 35 % second wins) and
one withdrawal after round 3; every ``swiss_round`` call is timed (wall clock). The test
tournament is an 8-player, 5-round Swiss with named players, a withdrawal and a bye.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from render.table import draw_table
from service.tournaments import Format, Game, Result, round_robin, standings, swiss_round
from service.tournaments.table import standings_csv, standings_table

NAMES = ["Amaia", "Bo-Yang", "Carmen", "Dmitri", "Zoë", "Farid", "Guadalupe Fernández",
         "Hiro"]


def result(rng: random.Random) -> Result:
    x = rng.random()
    return Result.FIRST_WINS if x < 0.40 else Result.DRAW if x < 0.65 else Result.SECOND_WINS


def swiss(players: list[int], rounds: int, rng: random.Random, withdraw_after: int = 3
          ) -> tuple[list[Game], set[int], list[float]]:
    games: list[Game] = []
    gone: set[int] = set()
    times = []
    for rnd in range(1, rounds + 1):
        if rnd == withdraw_after + 1:
            gone.add(players[len(players) // 2])
        t0 = time.perf_counter()
        pairing = swiss_round(players, games, rnd, gone)
        times.append(time.perf_counter() - t0)
        games += [g if g.second is None else Game(rnd, g.first, g.second, result(rng))
                  for g in pairing]
    return games, gone, times


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", type=Path, default=Path("bench-out"))
    ap.add_argument("--reps", type=int, default=3)
    args = ap.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)

    print("Swiss pairing (networkx max-weight matching), ms per round")
    for n in (8, 16, 32, 64, 128):
        per_round: list[float] = []
        rounds = min(9, n - 1)
        for rep in range(args.reps):
            _, _, times = swiss(list(range(1, n + 1)), rounds, random.Random(rep))
            per_round += times
        print(f"  {n:4d} players, {rounds} rounds: median {statistics.median(per_round) * 1e3:7.1f}"
              f"  worst {max(per_round) * 1e3:7.1f}")
    t0 = time.perf_counter()
    rr = round_robin(list(range(1, 101)), double=True)
    print(f"double round robin of 100 players ({len(rr)} rounds): "
          f"{(time.perf_counter() - t0) * 1e3:.1f} ms")

    ids = list(range(101, 109))
    games, gone, _ = swiss(ids, 5, random.Random(17))
    rows = standings(ids, games, Format.SWISS, gone)
    names = dict(zip(ids, NAMES, strict=True))
    table = standings_table(rows, Format.SWISS, names, title="Autumn Xiangqi Swiss",
                            subtitle="Xiangqi · Swiss · final standings after 5 rounds")
    draws = []
    for _ in range(max(1, args.reps)):
        t0 = time.perf_counter()
        image = draw_table(table.headers, table.rows, title=table.title,
                           subtitle=table.subtitle, align=table.align,
                           top_rows=table.top_rows, faded_rows=table.faded_rows)
        draws.append(time.perf_counter() - t0)
    png = args.out / "standings-swiss-8.png"
    png.write_bytes(image.png)
    (args.out / "standings-swiss-8.csv").write_text(standings_csv(rows, Format.SWISS, names))
    print(f"standings image (8 players): median {statistics.median(draws) * 1e3:.1f} ms, "
          f"{len(image.png) / 1024:.1f} KB, {image.width}x{image.height} -> {png}")


if __name__ == "__main__":
    main()
