"""Puzzles mined on the server (issue 44): puzzles stored per 100 finished games and the
mining time per game, for every configuration, through the whole path a server takes:
finished matches in a SQLite database, ``MatchService.mine_puzzles`` (each position of a
match to the ``PuzzleMiner`` port, a few at a time, the line checked by the rules, the
same shot a turn later kept once) with the engine in the computer player's process pool
(``bot.computer.PoolMovePicker``, one worker by default).

The games stand in for a server's: the engine against itself at level ``--level``
(default 3: it plays sensibly and still blunders), seeded, up to ``--plies`` plies, then
the players to move resign until it is over (a finished game). One worker process, so the
time per game is one core's:

    nice python bench/bench_puzzle_mining.py [--games 4] [--plies 40] [--level 3]
        [--only GAME] [--workers 1]
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from bench_puzzles import configurations  # noqa: E402

import engine  # noqa: E402
import rules  # noqa: E402
from bot.computer import PoolMovePicker  # noqa: E402
from service import MatchService, NullNotifier, SystemClock  # noqa: E402
from storage.sqlite import SqliteRepository  # noqa: E402

GUILD, CHANNEL = 1, 1
PLAYERS = (11, 12, 13, 14)


async def play_game(service: MatchService, key: str, options: dict[str, object], game: int,
                    plies: int, level: int) -> None:
    """One finished match of the engine against itself through the service."""
    v = rules.variant(key)
    start = dict(options, seed=game + 1) if "seed" in v.options else dict(options)
    seats = v.start(**start).seat_count
    m = await service.challenge(GUILD, CHANNEL, PLAYERS[0], key,
                                opponents=list(PLAYERS[1:seats]), options=start, seat=0)
    for user in PLAYERS[1:seats]:
        m = await service.accept(m.id, user)
    for ply in range(plies):
        m = await service.get_match(m.id)
        if not m.status.is_live or not m.to_move:
            return
        p, _marks = await service.position(m.id)
        mover = min(p.to_move)
        choice = engine.choose_move(p, level, seed=game * 1000 + ply, seat=mover, nodes=300,
                                    fairy=False)
        user = m.seats[mover].user_id
        assert user is not None
        if p.in_setup:
            await service.submit_setup(m.id, user, choice.text)
        else:
            await service.move(m.id, user, choice.text)
    m = await service.get_match(m.id)
    while m.status.is_live and m.to_move:  # four seats: each resigns until it is over
        m = await service.resign(m.id, m.to_move[0])


async def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=4)
    parser.add_argument("--plies", type=int, default=40)
    parser.add_argument("--level", type=int, default=3)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--only", default=None)
    args = parser.parse_args()
    print(f"{args.games} games a configuration, up to {args.plies} plies, level {args.level} "
          f"against itself; mined through MatchService + SQLite + the process pool "
          f"({args.workers} worker)")
    picker = PoolMovePicker(workers=args.workers)
    try:
        # the worker process started (and its imports done) before any game is timed
        await picker.find_puzzles([rules.variant("damas").start()])
        with tempfile.TemporaryDirectory() as folder:
            for key, options in configurations(args.only):
                repo = await SqliteRepository.open(Path(folder) / f"{len(key)}-{time.time()}.db")
                service = MatchService(repo, NullNotifier(), SystemClock(),
                                       rng=random.Random(1), miner=picker,
                                       puzzles_per_hour=10_000)
                for game in range(args.games):
                    await play_game(service, key, options, game, args.plies, args.level)
                seconds = []
                while True:
                    t0 = time.perf_counter()
                    if not await service.mine_puzzles(limit=1):
                        break
                    seconds.append(time.perf_counter() - t0)
                found = await repo.daily_candidates(GUILD, 100_000)
                goals = Counter(p.goal for p in found)
                kinds = ", ".join(f"{g} {n}" for g, n in sorted(goals.items())) or "-"
                difficulty = statistics.mean(p.difficulty for p in found) if found else 0.0
                shown = " ".join([key, *(f"{k}={o}" for k, o in options.items())])
                per_game = statistics.mean(seconds) if seconds else 0.0
                print(f"{shown:42} {100 * len(found) / args.games:6.0f} puzzles per 100 "
                      f"games ({kinds}; difficulty {difficulty:.1f}); mining "
                      f"{per_game:5.1f} s per game (max {max(seconds, default=0):.1f} s)",
                      flush=True)
                await repo.close()
    finally:
        picker.close()


if __name__ == "__main__":
    asyncio.run(main())
