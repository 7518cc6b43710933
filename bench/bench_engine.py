"""Engine benchmark: speed, depth, time per move per level, and the strength ladder.

Per configuration (every variant × option set, or those named with ``--config``):

* nodes per second and the depth reached in ``--seconds`` (default 2 s) by the top level
  from the start position and from a middlegame (the start followed by 24 plies of
  level-3 moves, seeded);
* nodes per CPU second of a search of ``--cpu-nodes`` nodes (default 20 000) from the
  same two positions: the same nodes on every run, timed by the process's own CPU time,
  so a busy shared machine barely moves it (compare speed work with this figure);
* time per move, p50 and p95, at each level 1..8 over ``--positions`` positions of one
  seeded level-3 game (level 8 spends the whole budget by design);
* the strength ladder is ``bench/bench_ladder.py`` (pairs in parallel, a results file);
* with ``--fairy GAMES`` (xiangqi, when fairy-stockfish is installed): our level 8 against
  Fairy-Stockfish at its lowest skill levels, each side ``--fairy-movetime`` ms a move
  (two random opening plies, colours alternating; progress per game on stderr). Our
  level 8 never stops before its 12 000-node floor: below about 1.2 s a move in xiangqi
  it thinks longer than Fairy-Stockfish.

Run with ``nice -n 15 .venv/bin/python bench/bench_engine.py [...]``.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import engine
import rules
from engine.fairy import FairyStockfish, Strength, find_binary
from engine.levels import LEVELS
from engine.models import model_for
from engine.search import Limits, Search
from rules import Position, Variant


def configs(selected: list[str]) -> list[tuple[Variant[Any, Any], dict[str, object]]]:
    out = []
    for key, v in rules.VARIANTS.items():
        for opts in v.option_sets():
            name = label(key, opts)
            if not selected or any(s in (key, name) for s in selected):
                out.append((v, opts))
    return out


def label(key: str, opts: dict[str, object]) -> str:
    return key + "".join(f" {k}={o}" for k, o in opts.items())


def begin(v: Variant[Any, Any], opts: dict[str, object], seed: int) -> Position[Any]:
    """The start; a set-up phase is filled in by level-8 arrangements."""
    p = v.start(**opts)
    while p.in_setup:
        p = p.play(engine.choose_move(p, 8, seed=seed, seat=min(p.to_move)).move)
    return p


def game_positions(v: Variant[Any, Any], opts: dict[str, object], plies: int,
                   seed: int) -> list[Position[Any]]:
    p = begin(v, opts, seed)
    out = [p]
    for _ in range(plies):
        if p.outcome() is not None:
            break
        p = p.play(engine.choose_move(p, 3, seed=seed, fairy=False).move)
        out.append(p)
    return [q for q in out if q.outcome() is None]


def depth_in(p: Position[Any], seconds: float) -> tuple[int, int, float]:
    result = Search(model_for(p.variant, p), p, Limits(seconds=seconds)).run()
    return result.depth, result.nodes, result.nodes / max(result.seconds, 1e-9)


def cpu_rate(p: Position[Any], nodes: int) -> float:
    """Nodes per CPU second of a search stopped by a node budget (the same nodes every run)."""
    started = time.process_time()
    result = Search(model_for(p.variant, p), p, Limits(nodes=nodes)).run()
    return result.nodes / max(time.process_time() - started, 1e-9)


def percentile(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))]


def speed(v: Variant[Any, Any], opts: dict[str, object], seconds: float,
          positions: int, cpu_nodes: int) -> None:
    trail = game_positions(v, opts, 24, seed=1)
    # a middlegame with a choice (a forced capture is no search)
    start = trail[0]
    middle = next((p for p in reversed(trail) if len(p.legal_moves()) > 1), trail[-1])
    print(f"\n== {label(v.key, opts)}")
    if cpu_nodes:
        print(f"  nodes per CPU second ({cpu_nodes:,} nodes): "
              f"{cpu_rate(start, cpu_nodes):,.0f} (start), "
              f"{cpu_rate(middle, cpu_nodes):,.0f} (middlegame)", flush=True)
    if not seconds:
        return
    d0, _, nps0 = depth_in(start, seconds)
    d1, _, nps1 = depth_in(middle, seconds)
    print(f"  nodes/s {nps0:,.0f} (start), {nps1:,.0f} (middlegame); depth in "
          f"{seconds:g} s: {d0} from the start, {d1} from the middlegame "
          f"(ply {trail.index(middle)})")
    sample = trail[:: max(1, len(trail) // positions)][:positions]
    row = []
    for level in range(1, 9):
        times = []
        for i, p in enumerate(sample):
            t = time.perf_counter()
            engine.choose_move(p, level, seed=i, seconds=seconds, fairy=False)
            times.append(time.perf_counter() - t)
        row.append(f"L{level} {percentile(times, 0.5) * 1000:.0f}/"
                   f"{percentile(times, 0.95) * 1000:.0f}")
    print(f"  ms per move p50/p95 over {len(sample)} positions: " + "  ".join(row))


def fairy_match(games: int, movetime: int) -> None:
    binary = find_binary()
    if binary is None:
        print("\n== xiangqi vs Fairy-Stockfish: not installed, not run")
        return
    v = rules.variant("xiangqi")
    for strength in (Strength(skill=-20), Strength(skill=-10), Strength(skill=0),
                     Strength(elo=1350), Strength(skill=5)):
        ours = 0.0
        with FairyStockfish(binary, strength=strength) as fsf:
            for g in range(games):
                rng = random.Random(g)
                p = v.start()
                for _ in range(2):
                    p = p.play(rng.choice(p.legal_moves()))
                our_seat = g % 2
                while p.outcome() is None:
                    if p.mover == our_seat:
                        move = engine.choose_move(p, 8, seed=g, seconds=movetime / 1000,
                                                  fairy=False).move
                    else:
                        move = v.parse_move(p, fsf.best_move(p.to_text(), movetime / 1000))
                    p = p.play(move)
                outcome = p.outcome()
                assert outcome is not None
                ours += 1.0 if our_seat in outcome.winners else (
                    0.5 if not outcome.winners else 0.0)
                print(f"  vs {strength}: game {g + 1}/{games}, {ours:g} so far "
                      f"({outcome.reason_text})", file=sys.stderr, flush=True)
        what = f"UCI_Elo {strength.elo}" if strength.elo else f"Skill Level {strength.skill}"
        print(f"== xiangqi: our L8 vs Fairy-Stockfish {what}: {ours:g}/{games} "
              f"({movetime} ms/move)", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--config", action="append", default=[],
                        help="a game key or 'key opt=value ...' label (repeat)")
    parser.add_argument("--seconds", type=float, default=2.0)
    parser.add_argument("--positions", type=int, default=6)
    parser.add_argument("--cpu-nodes", type=int, default=20_000,
                        help="nodes of the CPU-time speed figure (0: skip it)")
    parser.add_argument("--no-speed", action="store_true")
    parser.add_argument("--fairy", type=int, default=0, metavar="GAMES")
    parser.add_argument("--fairy-movetime", type=int, default=1000, metavar="MS")
    args = parser.parse_args()
    print("levels: " + "; ".join(
        f"L{lv.number} depth {lv.depth} nodes {lv.nodes} noise {lv.noise}"
        for lv in LEVELS.values() if lv.number))
    for v, opts in configs(args.config):
        if not args.no_speed:
            speed(v, opts, args.seconds, args.positions, args.cpu_nodes)
    if args.fairy:
        fairy_match(args.fairy, args.fairy_movetime)


if __name__ == "__main__":
    main()
