"""Puzzles mined from games (issue 44): puzzles found per 100 games and mining time per
game, for every configuration, with :func:`engine.puzzles.find_tactic` on its default
budget.

The games stand in for a server's finished games: the engine against itself at level
``--level`` (default 3: it plays sensibly and still blunders, as people do), seeded, up
to ``--plies`` plies; every position of each game is searched as the miner searches a
finished game (the positions of the first ``--plies`` plies). One process, one core:

    nice python bench/bench_puzzles.py [--games 10] [--plies 60] [--level 3]
        [--only GAME] [--nodes 1500]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import engine  # noqa: E402
import rules  # noqa: E402
from engine.puzzles import NODES, find_tactic  # noqa: E402


def configurations(only: str | None) -> list[tuple[str, dict[str, object]]]:
    out = []
    for key, v in rules.VARIANTS.items():
        if only is not None and key != only:
            continue
        for options in v.option_sets():
            if options.get("setup") == "choose":
                continue  # the same game as random once the arrangements are in
            out.append((key, dict(options)))
    return out


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--plies", type=int, default=60)
    parser.add_argument("--level", type=int, default=3)
    parser.add_argument("--nodes", type=int, default=NODES)
    parser.add_argument("--only", default=None)
    args = parser.parse_args()
    print(f"{args.games} games a configuration, up to {args.plies} plies, level {args.level} "
          f"against itself; find_tactic on {args.nodes} nodes (checked on {4 * args.nodes})")
    for key, options in configurations(args.only):
        v = rules.variant(key)
        found: Counter[str] = Counter()
        seconds: list[float] = []
        positions = 0
        for game in range(args.games):
            start = dict(options, seed=game + 1) if "seed" in v.options else dict(options)
            p = v.start(**start)
            spent = 0.0
            for ply in range(args.plies):
                if p.outcome() is not None:
                    break
                if not p.in_setup:
                    t0 = time.perf_counter()
                    tactic = find_tactic(p, nodes=args.nodes)
                    spent += time.perf_counter() - t0
                    positions += 1
                    if tactic is not None:
                        found[tactic.kind] += 1
                mover = min(p.to_move)
                choice = engine.choose_move(p, args.level, seed=game * 1000 + ply,
                                            seat=mover, nodes=300, fairy=False)
                p = p.play(choice.move)
            seconds.append(spent)
        total = sum(found.values())
        kinds = ", ".join(f"{k} {n}" for k, n in sorted(found.items())) or "-"
        shown = " ".join([key, *(f"{k}={o}" for k, o in options.items())])
        print(f"{shown:42} {100 * total / args.games:6.0f} puzzles per 100 games ({kinds}); "
              f"mining {statistics.mean(seconds):5.1f} s a game "
              f"({1000 * sum(seconds) / max(1, positions):4.0f} ms a position)", flush=True)


if __name__ == "__main__":
    main()
