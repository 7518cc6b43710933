"""Render speed and size per game: board PNG (median ms after warm-up, KB) and a 100-ply
replay GIF (s, KB). Run: ``python bench/bench_render.py [--size 700] [--reps 3]``.

Method: for every variant (4-player Alquerque grande included) a seeded random game of
up to 100 plies is played. Warm-up renders the start once (board layer, sprites and
palette get cached; its time is printed as "cold"). Then every position of the game is
drawn ``reps`` times with the last move highlighted, faded captured pieces, names and a
deadline, as the bot would. Printed: the median and 95th percentile wall time of
``render.draw_board``, its median process CPU time (the machine may be shared), and the
median and largest PNG size. The GIF replays the same game (101 frames when it lasts 100
plies): the first seeded random game (uniform, or preferring quiet moves) that lasts 100
plies, else the longest of those tried.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import render
import rules

PLIES = 100


def game(v: rules.Variant, options: dict[str, object], plies: int) -> tuple[rules.Position,
                                                                             list[object]]:
    """The first seeded random game that lasts ``plies`` plies (else the longest found)."""
    best: tuple[rules.Position, list[object]] | None = None
    for seed in range(60):
        for quiet_bias in (0.0, 0.85):
            rng = random.Random(seed)
            start = v.start(**options)
            p, moves = start, []
            for _ in range(plies):
                legal = list(p.legal_moves())
                if not legal:
                    break
                quiet = [m for m in legal if not v.move_marks(p, m).captured]
                m = rng.choice(quiet if quiet and rng.random() < quiet_bias else legal)
                moves.append(m)
                p = p.play(m)
            if best is None or len(moves) > len(best[1]):
                best = (start, moves)
            if len(moves) == plies:
                return best
    assert best is not None
    return best


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--size", type=int, default=700)
    ap.add_argument("--reps", type=int, default=3)
    args = ap.parse_args()
    cases = [(key, dict(o)) for key, v in rules.VARIANTS.items()
             for o in v.example_options[:1]]
    cases += [("alquerque-grande", {"players": 4, "mode": "teams"})]
    print(f"board {args.size} px, {args.reps} reps per position; GIF {PLIES} plies at 560 px; "
          f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
    print(f"{'variant':34} {'WxH':>9} {'cold ms':>7} {'med ms':>7} {'p95 ms':>7} {'cpu ms':>7} "
          f"{'med KB':>7} "
          f"{'max KB':>7} | {'plies':>5} {'GIF s':>6} {'GIF KB':>7}")
    for key, options in cases:
        v = rules.variant(key)
        start, moves = game(v, options, PLIES)
        frames = []
        p = start
        for m in moves:
            marks = v.move_marks(p, m)
            after = p.play(m)
            frames.append((after, marks, p))
            p = after
        names = [f"player{s}" for s in range(start.seat_count)]
        t = time.perf_counter()
        render.draw_board(start, size=args.size)  # warm-up: fills the caches
        cold = time.perf_counter() - t
        times, cpu, sizes = [], [], []
        for _ in range(args.reps):
            for after, marks, before in frames:
                t, c = time.perf_counter(), time.process_time()
                board = render.draw_board(after, last_move=marks, before=before, names=names,
                                          deadline="due in 2 days", size=args.size)
                times.append(time.perf_counter() - t)
                cpu.append(time.process_time() - c)
                sizes.append(len(board.png))
        times.sort()
        t = time.perf_counter()
        gif = render.replay_gif(v, start, moves)
        gif_s = time.perf_counter() - t
        label = key + ("" if not options or "seed" in options else
                       " " + ",".join(f"{k}={o}" for k, o in options.items()))
        print(f"{label:34} {board.width:>4}x{board.height:<4} {cold * 1000:7.0f} "
              f"{statistics.median(times) * 1000:7.2f} "
              f"{times[int(len(times) * 0.95)] * 1000:7.2f} "
              f"{statistics.median(cpu) * 1000:7.2f} "
              f"{statistics.median(sizes) / 1024:7.1f} {max(sizes) / 1024:7.1f} | "
              f"{len(moves):5d} {gif_s:6.2f} {len(gif) / 1024:7.0f}")


if __name__ == "__main__":
    main()
