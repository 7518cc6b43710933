"""What ``/analysis`` costs: every move of a finished game weighed against the best one
(:func:`engine.weigh_move`, two searches of ``--nodes`` nodes per move), per
configuration.

Each configuration plays ``--games`` seeded games between levels 3 and 5 (node-bound, so
the same games on every machine), then weighs every move. Prints the plies, the ms per
move (p50/p95), the whole analysis in seconds and how many moves lost a pawn or more.

Run: ``.venv/bin/python bench/bench_analysis.py [--config "querni setup=choose"]``.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench_engine import configs, label

import engine
from rules import Position, Variant


def play(v: Variant[Any, Any], options: dict[str, object], seed: int,
         max_plies: int = 400) -> list[tuple[Position[Any], Any]]:
    """A finished (or ``max_plies`` long) game between levels 3 and 5; its moves with
    the positions they were played from (arrangements left out, as ``/analysis`` does)."""
    p = v.start(**options)
    moves: list[tuple[Position[Any], Any]] = []
    for ply in range(max_plies):
        if p.outcome() is not None:
            break
        if p.in_setup:
            for seat in sorted(p.to_move):
                p = p.play(engine.choose_move(p, 3, seed=seed, seat=seat, fairy=False).move)
            continue
        level = 3 + 2 * (ply % 2)
        move = engine.choose_move(p, level, seed=seed + ply, fairy=False, seconds=60).move
        moves.append((p, move))
        p = p.play(move)
    return moves


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--config", action="append", default=[],
                        help="a game key or 'key opt=value ...' label (repeat; default: all ten)")
    parser.add_argument("--games", type=int, default=2)
    parser.add_argument("--nodes", type=int, default=engine.ANALYSIS_NODES)
    args = parser.parse_args()
    for v, options in configs(args.config):
        name = label(v.key, options)
        per_move: list[float] = []
        totals: list[float] = []
        plies: list[int] = []
        lost = 0
        for game in range(args.games):
            moves = play(v, options, seed=game)
            started = time.perf_counter()
            for position, move in moves:
                t = time.perf_counter()
                if engine.weigh_move(position, move, nodes=args.nodes).lost >= 100:
                    lost += 1
                per_move.append(time.perf_counter() - t)
            totals.append(time.perf_counter() - started)
            plies.append(len(moves))
            print(f"  {name}: game {game + 1}/{args.games} weighed", file=sys.stderr)
        q = statistics.quantiles(per_move, n=20) if len(per_move) > 1 else per_move * 19
        print(f"{name:45} plies {statistics.mean(plies):5.0f}  ms/move p50 "
              f"{1000 * statistics.median(per_move):5.1f} p95 {1000 * q[18]:5.1f}  "
              f"analysis {statistics.mean(totals):5.1f} s  moves >= 1 pawn lost "
              f"{lost / args.games:4.1f}/game")


if __name__ == "__main__":
    main()
