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

# Querni's most crowded positions for the path-dependent jump search (issue 18): all 32
# stones on the board, the three with the most jump destinations among 400 seeded
# centre-seeking playouts, and a crafted maze where every diagonal crossing of a1's
# landing class holds a stone (a cell can be jumped twice only where two diagonals cross)
# and a3 is reachable only as a1-c3-c1-a3, jumping b2 twice.
MOST_CROWDED = {
    "crowded middlegame": CROWDED,
    "most jumps #1": ("P16,1,P5,4,P1,1,P11/P3,1,P2,4,P9,2/P8,P14,2,B11,P4,2,P6,P12/"
                      "2,B7,B4,B16,P13,P7,P10,2/B12,B15,3,B5,2,B10,1/2,B6,1,P15,B3,3,B2/"
                      "B1,B14,B13,4,B8,1,B9 b 18 0,0"),
    "most jumps #2": ("P8,P14,P13,4,P15,1,P6/P7,1,P1,1,B4,2,P11,2/1,P3,2,P5,B9,2,P10,P9/"
                      "2,B6,P16,P12,1,B11,3/B1,3,P2,P4,1,B2,B8,B12/B13,1,B3,4,B7,1,B15/"
                      "B14,1,B16,4,B5,1,B10 p 21 0,0"),
    "most jumps #3": ("P6,1,P10,4,P3,1,P9/P16,1,P7,2,B5,1,P13,2/P15,P14,3,P5,2,P2,P1/"
                      "2,B14,P8,B7,P12,B15,3/B3,B13,2,P4,P11,2,B1,B11/B16,1,B6,1,B10,5/"
                      "B9,1,B8,4,B4,B12,B2 p 17 0,0"),
    "diagonal-crossing maze": ("10/1,B11,1,B12,1,B13,1,B14,1,B15/3,P16,6/"
                               "2,P12,B7,P13,B8,P14,B9,P15,B10/3,P8,1,P9,1,P10,1,P11/"
                               "1,B2,P4,B3,P5,B4,P6,B5,P7,B6/B1,2,B16,1,P1,1,P2,1,P3 b 0 0,0"),
}


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
    print("legal-move listing of the most crowded positions (all 32 stones):")
    for label, text in MOST_CROWDED.items():
        q = v.from_text(text)
        med, best = per_call(q.legal_moves, 15)
        print(f"  {label:24} {len(q.legal_moves()):4} turns   median {med * 1e3:6.3f} ms"
              f"   best {best * 1e3:6.3f} ms")
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
             if removals_alone else "pass"]
    for text in cases:
        med, best = per_call(partial(v.parse_move, p, text), 15)
        print(f"  validate {text!r:26} median {med * 1e6:6.1f} us   best {best * 1e6:6.1f} us"
              "   (target <= 1 ms)")
    move = v.parse_move(p, cases[0])
    med, best = per_call(lambda: p.play(move), 15)
    print(f"  play (re-checks, applies):    median {med * 1e6:6.1f} us   best {best * 1e6:6.1f} us")
    maze = v.from_text(MOST_CROWDED["diagonal-crossing maze"])
    for where, bad in ((p, "a7-a6 r1-3"), (p, "pass"), (maze, "a1-a3")):
        try:
            v.parse_move(where, bad)
            reason = "accepted"
        except rules.RulesError as e:
            reason = e.message
        med, best = per_call(partial(_refused, v, where, bad), 15)
        print(f"  refuse {bad!r:28} median {med * 1e6:6.1f} us   ({reason[:60]})")

    start = v.start(seed=1)
    t = time.perf_counter()
    nodes = v.perft(start, 2)
    print(f"perft(2) from seed=1: {nodes} leaves in {(time.perf_counter() - t) * 1e3:.0f} ms")


def _refused(v: rules.Variant, p: rules.Position, text: str) -> None:
    with contextlib.suppress(rules.RulesError):
        v.parse_move(p, text)


if __name__ == "__main__":
    main()
