"""Engine benchmark: speed, depth, time per move per level, and the strength ladder.

Per configuration (every variant × option set, or those named with ``--config``):

* nodes per second and the depth reached in ``--seconds`` (default 2 s) by the top level
  from the start position and from a middlegame (the start followed by 24 plies of
  level-3 moves, seeded);
* nodes per CPU second of a search of ``--cpu-nodes`` nodes (default 20 000) from the
  same two positions: the same nodes on every run, timed by the process's own CPU time,
  so a busy shared machine barely moves it (compare speed work with this figure);
* time per move, p50 and p95, at each level 1..8 (or those of ``--levels``) over
  ``--positions`` positions of one seeded level-3 game (level 8 spends the whole budget
  by design);
* the strength ladder is ``bench/bench_ladder.py`` (pairs in parallel, a results file);
* with ``--fairy GAMES`` (xiangqi, when fairy-stockfish is installed): our level 8 against
  Fairy-Stockfish at its lowest skill levels, each side ``--fairy-movetime`` ms a move
  (two random opening plies, colours alternating; progress per game on stderr). Our
  level 8 never stops before its 12 000-node floor: below about 1.2 s a move in xiangqi
  it thinks longer than Fairy-Stockfish.

Old against new in one run: ``--against REV`` checks out revision REV in a temporary git
worktree and measures it and this tree alternately, one configuration at a time, each in
its own process (``--root DIR`` makes this script import the engine and rules of DIR),
and prints both with the ratio new/old, and the machine's load average around them
(absolute figures are only as steady as the machine; the ratio measured alternately is
what counts). ``--build-old`` compiles REV's core too (``scripts/build_core``), so that
a compiled new tree is measured against a compiled old one. ``--perft N`` adds xiangqi
perft(4) through the rules API against Fairy-Stockfish's ``go perft 4``, alternately N
times each (CPU seconds of the process doing it, best of N), with ``--against`` old and
new too.

Run with ``nice -n 15 .venv/bin/python bench/bench_engine.py [...]``.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

# whose engine and rules to measure: --root's (read before they are imported) or this tree's
sys.path.insert(0, str(Path(sys.argv[sys.argv.index("--root") + 1]).resolve()
                       if "--root" in sys.argv else Path(__file__).resolve().parents[1]))

import engine
import rules
from engine.fairy import FairyStockfish, Strength, find_binary
from engine.levels import LEVELS
from engine.models import model_for
from engine.search import Limits, Search
from rules import Position, Variant

HERE = Path(__file__).resolve().parents[1]
"""This tree."""
ROOT = Path(sys.path[0])
"""The tree whose engine and rules are measured (``--root``; default this one)."""


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
        # a node budget: every round of the arrangement whatever the time (a time-bound
        # level stops at its deadline), the same set-up for the old code and the new
        p = p.play(engine.choose_move(p, 8, seed=seed, seat=min(p.to_move),
                                      nodes=LEVELS[8].min_nodes).move)
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


def measure(v: Variant[Any, Any], opts: dict[str, object], seconds: float,
            positions: int, cpu_nodes: int,
            numbers: tuple[int, ...] = tuple(range(1, 9))) -> dict[str, Any]:
    """One configuration's figures (see the module docstring), as plain data."""
    trail = game_positions(v, opts, 24, seed=1)
    # a middlegame with a choice (a forced capture is no search)
    start = trail[0]
    middle = next((p for p in reversed(trail) if len(p.legal_moves()) > 1), trail[-1])
    out: dict[str, Any] = {"label": label(v.key, opts), "ply": trail.index(middle),
                           "engine": str(Path(engine.__file__).resolve().parent),
                           "seconds": seconds, "cpu_nodes": cpu_nodes}
    if cpu_nodes:
        out["cpu"] = [cpu_rate(start, cpu_nodes), cpu_rate(middle, cpu_nodes)]
    if not seconds:
        return out
    d0, _, nps0 = depth_in(start, seconds)
    d1, _, nps1 = depth_in(middle, seconds)
    out["nps"], out["depth"] = [nps0, nps1], [d0, d1]
    sample = trail[:: max(1, len(trail) // positions)][:positions]
    out["positions"] = len(sample)
    levels = {}
    for level in numbers:
        times = []
        for i, p in enumerate(sample):
            t = time.perf_counter()
            engine.choose_move(p, level, seed=i, seconds=seconds, fairy=False)
            times.append(time.perf_counter() - t)
        levels[level] = [percentile(times, 0.5) * 1000, percentile(times, 0.95) * 1000]
    out["levels"] = levels
    return out


def report(m: dict[str, Any]) -> None:
    print(f"\n== {m['label']}")
    if "cpu" in m:
        print(f"  nodes per CPU second ({m['cpu_nodes']:,} nodes): {m['cpu'][0]:,.0f} "
              f"(start), {m['cpu'][1]:,.0f} (middlegame)", flush=True)
    if "nps" not in m:
        return
    print(f"  nodes/s {m['nps'][0]:,.0f} (start), {m['nps'][1]:,.0f} (middlegame); depth in "
          f"{m['seconds']:g} s: {m['depth'][0]} from the start, {m['depth'][1]} from the "
          f"middlegame (ply {m['ply']})")
    print(f"  ms per move p50/p95 over {m['positions']} positions: " + "  ".join(
        f"L{level} {p50:.0f}/{p95:.0f}" for level, (p50, p95) in m["levels"].items()),
        flush=True)


def speed(v: Variant[Any, Any], opts: dict[str, object], seconds: float,
          positions: int, cpu_nodes: int, numbers: tuple[int, ...] = tuple(range(1, 9))
          ) -> None:
    report(measure(v, opts, seconds, positions, cpu_nodes, numbers))


def load() -> str:
    return "load average " + " ".join(f"{x:.2f}" for x in os.getloadavg())


def compare(rev: str, args: argparse.Namespace) -> None:
    """``--against``: REV and this tree alternately, per configuration, each in its own
    process; both figures and new/old."""
    with tempfile.TemporaryDirectory(prefix="bench-against-") as tmp:
        old = Path(tmp) / "old"
        subprocess.run(["git", "-C", str(HERE), "worktree", "add", "--detach", "--quiet",
                        str(old), rev], check=True)
        try:
            sha = subprocess.run(["git", "-C", str(old), "rev-parse", "--short", "HEAD"],
                                 capture_output=True, text=True, check=True).stdout.strip()
            if args.build_old:
                subprocess.run([sys.executable, str(old / "scripts" / "build_core.py")],
                               check=True)
            for name, root in (("old", old), ("new", HERE)):
                core = subprocess.run(
                    [sys.executable, "-c", "import sys; sys.path.insert(0, sys.argv[1]); "
                     "import engine.search; from rules import native; print(native.running())",
                     str(root)], capture_output=True, text=True, check=True).stdout.strip()
                print(f"{name} runs its core {core}", flush=True)
            print(f"old: {rev} ({sha}); new: {HERE}; {load()}", flush=True)
            if args.perft:
                perft_race(args.perft, {"old": old, "new": HERE})
            for v, opts in configs(args.config):
                if args.no_speed:
                    break
                pair: dict[str, dict[str, Any]] = {}
                for name, root in (("old", old), ("new", HERE)):
                    command = [sys.executable, str(Path(__file__).resolve()), "--root",
                               str(root), "--json", "--config", label(v.key, opts),
                               "--seconds", str(args.seconds), "--positions",
                               str(args.positions), "--cpu-nodes", str(args.cpu_nodes)]
                    done = subprocess.run(command, capture_output=True, text=True, check=True)
                    pair[name] = json.loads(done.stdout.strip().splitlines()[-1])
                    if not Path(pair[name]["engine"]).is_relative_to(root):
                        raise SystemExit(f"{name} imported {pair[name]['engine']}, not {root}")
                side_by_side(pair["old"], pair["new"])
                print(f"  ({load()})", flush=True)
        finally:
            subprocess.run(["git", "-C", str(HERE), "worktree", "remove", "--force",
                            str(old)], check=False)


def side_by_side(old: dict[str, Any], new: dict[str, Any]) -> None:
    def ratio(a: float, b: float) -> str:
        return f"x{b / a:.2f}" if a else "-"
    print(f"\n== {new['label']}   (old -> new)")
    if "cpu" in new:
        print(f"  nodes per CPU second ({new['cpu_nodes']:,} nodes): start "
              f"{old['cpu'][0]:,.0f} -> {new['cpu'][0]:,.0f} {ratio(old['cpu'][0], new['cpu'][0])}"
              f", middlegame {old['cpu'][1]:,.0f} -> {new['cpu'][1]:,.0f} "
              f"{ratio(old['cpu'][1], new['cpu'][1])}")
    if "nps" not in new:
        return
    print(f"  nodes/s in {new['seconds']:g} s: start {old['nps'][0]:,.0f} -> "
          f"{new['nps'][0]:,.0f} {ratio(old['nps'][0], new['nps'][0])}, middlegame "
          f"{old['nps'][1]:,.0f} -> {new['nps'][1]:,.0f} {ratio(old['nps'][1], new['nps'][1])}")
    print(f"  depth in {new['seconds']:g} s: start {old['depth'][0]} -> {new['depth'][0]}, "
          f"middlegame (ply {new['ply']}) {old['depth'][1]} -> {new['depth'][1]}")
    print(f"  ms per move p50/p95 over {new['positions']} positions, old -> new:")
    print("    " + "  ".join(f"L{lv} {o[0]:.0f}/{o[1]:.0f}->{n[0]:.0f}/{n[1]:.0f}"
                             for (lv, o), n in zip(old["levels"].items(),
                                                   new["levels"].values(), strict=True)))


def perft_race(rounds: int, roots: dict[str, Path]) -> None:
    """Xiangqi perft(4) through each root's rules API and Fairy-Stockfish's, alternately
    ``rounds`` times; CPU seconds of the process doing it, best of the rounds."""
    binary = find_binary()
    best: dict[str, float] = {}
    leaves: dict[str, int] = {}
    script = ("import sys, time; sys.path.insert(0, sys.argv[1]); import rules; "
              "v = rules.variant('xiangqi'); t = time.process_time(); "
              "n = v.perft(v.start(), 4); print(n, time.process_time() - t)")
    for _ in range(rounds):
        for name, root in roots.items():
            out = subprocess.run([sys.executable, "-c", script, str(root)],
                                 capture_output=True, text=True, check=True).stdout.split()
            leaves[name] = int(out[0])
            best[name] = min(best.get(name, float("inf")), float(out[1]))
        if binary is not None:
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            done = subprocess.run([binary], input="setoption name UCI_Variant value xiangqi\n"
                                  "position startpos\ngo perft 4\nquit\n",
                                  capture_output=True, text=True, check=True)
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
            best["fairy-stockfish"] = min(best.get("fairy-stockfish", float("inf")), cpu)
            total = [line for line in done.stdout.splitlines() if line.startswith("Nodes")]
            leaves["fairy-stockfish"] = int(total[-1].split()[-1]) if total else -1
    print(f"\n== xiangqi perft(4), best CPU seconds of {rounds} alternate rounds ({load()})")
    fsf = best.get("fairy-stockfish")
    for name, secs in best.items():
        times = f" ({secs / fsf:.1f}x Fairy-Stockfish)" if fsf and name != "fairy-stockfish" \
            else ""
        print(f"  {name}: {leaves[name]:,} leaves in {secs:.2f} s{times}", flush=True)


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
    parser.add_argument("--levels", default="1,2,3,4,5,6,7,8",
                        help="the levels whose ms per move to measure (comma-separated)")
    parser.add_argument("--fairy", type=int, default=0, metavar="GAMES")
    parser.add_argument("--fairy-movetime", type=int, default=1000, metavar="MS")
    parser.add_argument("--against", metavar="REV",
                        help="measure git revision REV and this tree alternately")
    parser.add_argument("--build-old", action="store_true",
                        help="with --against: compile REV's core first (scripts/build_core)")
    parser.add_argument("--perft", type=int, default=0, metavar="ROUNDS",
                        help="xiangqi perft(4) against Fairy-Stockfish, alternately")
    parser.add_argument("--root", help="import the engine and rules of this tree")
    parser.add_argument("--json", action="store_true",
                        help="print each configuration's figures as one JSON line")
    args = parser.parse_args()
    if args.against:
        compare(args.against, args)
        return
    if args.json:
        for v, opts in configs(args.config):
            print(json.dumps(measure(v, opts, args.seconds, args.positions,
                                     args.cpu_nodes)), flush=True)
        return
    if args.perft:
        perft_race(args.perft, {"this tree": ROOT})
    print("levels: " + "; ".join(
        f"L{lv.number} depth {lv.depth} nodes {lv.nodes} noise {lv.noise}"
        for lv in LEVELS.values() if lv.number))
    for v, opts in configs(args.config):
        if not args.no_speed:
            speed(v, opts, args.seconds, args.positions, args.cpu_nodes,
                  tuple(int(n) for n in args.levels.split(",")))
    if args.fairy:
        fairy_match(args.fairy, args.fairy_movetime)


if __name__ == "__main__":
    main()
