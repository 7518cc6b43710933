"""Querni rules speed: listing every legal turn of a crowded middlegame, and validating
single submitted turns (parse + targeted legality check). Prints figures; asserts nothing.

Run: /work/venv/bin/python bench/bench_querni.py
"""

from __future__ import annotations

import contextlib
import statistics
import sys
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # run from anywhere

import rules
from rules.notation import point_name
from rules.querni import QuerniPosition

# All 32 stones on the board, drawn together in the middle (found by a seeded playout of
# centre-seeking movements; pinned here so the figure is comparable between runs).
CROWDED = ("P3,P1,P2,4,P7,P4,P15/P16,6,P8,1,P14/P12,1,P13,1,B9,B4,1,P9,P10,P11/"
           "2,B12,P6,B11,B8,P5,3/B13,B1,2,B16,B7,2,B10,1/7,B2,1,B6/B3,B5,5,B14,1,B15 p 23 0,0")


def per_call(fn: Callable[[], object], repeat: int) -> tuple[float, float]:
    """(median, best) seconds per call over ``repeat`` timed batches."""
    batch = 1
    while True:  # grow the batch until it takes ~20 ms, so the clock resolution is moot
        t = time.perf_counter()
        for _ in range(batch):
            fn()
        if time.perf_counter() - t > 0.02:
            break
        batch *= 2
    samples = []
    for _ in range(repeat):
        t = time.perf_counter()
        for _ in range(batch):
            fn()
        samples.append((time.perf_counter() - t) / batch)
    return statistics.median(samples), min(samples)


def main() -> None:
    v = rules.variant("querni")
    p = v.from_text(CROWDED)
    assert isinstance(p, QuerniPosition)
    moves = p.legal_moves()
    movements = {m.movement for m in moves if m.movement}
    removals_alone = sum(1 for m in moves if m.removal and not m.movement)
    print(f"crowded middlegame: {len(moves)} legal turns ({len(movements)} movements, "
          f"{removals_alone} removals alone, combinations and pass)")
    med, best = per_call(p.legal_moves, 15)
    print(f"  list every legal turn:        median {med * 1e3:6.3f} ms   best {best * 1e3:6.3f} ms"
          "   (target <= 5 ms)")

    # The hardest single turns to check: the longest jump path typed in full plus a
    # removal, the same abbreviated to start-end, a removal alone, and pass.
    longest = max((m for m in moves if m.movement and m.removal),
                  key=lambda m: len(v.move_marks(p, m).path))
    path = "-".join(point_name(*q) for q in v.move_marks(p, longest).path)
    removal = v.format_move(p, longest).split()[1]
    cases = [f"{path} {removal}", v.format_move(p, longest),
             next(v.format_move(p, m) for m in moves if m.removal and not m.movement)
             if removals_alone else "pass",
             "pass"]
    for text in cases:
        med, best = per_call(partial(v.parse_move, p, text), 15)
        print(f"  validate {text!r:26} median {med * 1e6:6.1f} us   best {best * 1e6:6.1f} us"
              "   (target <= 1 ms)")
    move = v.parse_move(p, cases[0])
    med, best = per_call(lambda: p.play(move), 15)
    print(f"  play (re-checks, applies):    median {med * 1e6:6.1f} us   best {best * 1e6:6.1f} us")
    bad = "a7-a6 r1-3"
    try:
        v.parse_move(p, bad)
    except rules.RulesError as e:
        reason = e.message
    med, best = per_call(lambda: _refused(v, p, bad), 15)
    print(f"  refuse {bad!r:28} median {med * 1e6:6.1f} us   ({reason})")

    start = v.start(seed=1)
    t = time.perf_counter()
    nodes = v.perft(start, 2)
    print(f"perft(2) from seed=1: {nodes} leaves in {(time.perf_counter() - t) * 1e3:.0f} ms")


def _refused(v: rules.Variant, p: rules.Position, text: str) -> None:
    with contextlib.suppress(rules.RulesError):
        v.parse_move(p, text)


if __name__ == "__main__":
    main()
