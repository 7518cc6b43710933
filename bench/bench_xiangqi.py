"""Xiangqi move generation speed: perft(4) from the start, and listing legal moves.

Run from the repository root: ``python bench/bench_xiangqi.py [depth]``. Prints figures
only; targets (issue 2): perft(4) = 3,290,240 leaves in at most 10 s, and the legal moves
of a middlegame position in at most 1 ms.
"""

from __future__ import annotations

import platform
import sys
import time
import timeit
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import rules
from rules.xiangqi import XiangqiPosition

MIDDLEGAME = "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1"


def list_time(p: XiangqiPosition) -> tuple[int, float]:
    """Best time of ``legal_moves()`` on a fresh (uncached) copy of ``p``, in seconds."""
    def run() -> int:
        return len(XiangqiPosition(p.board, p.side, p.halfmove, p.fullmove).legal_moves())
    count = run()
    best = min(timeit.repeat(run, number=200, repeat=5)) / 200
    return count, best


def main() -> None:
    depth = int(sys.argv[1]) if len(sys.argv) > 1 else 4
    v = rules.variant("xiangqi")
    start = v.start()
    assert isinstance(start, XiangqiPosition)
    print(f"python {platform.python_version()} on {platform.machine()}")
    t0 = time.perf_counter()
    nodes = v.perft(start, depth)
    seconds = time.perf_counter() - t0
    print(f"perft({depth}) from the start: {nodes:,} nodes in {seconds:.2f} s "
          f"= {nodes / seconds:,.0f} nodes/s")
    for label, p in (("start", start), ("middlegame", v.from_text(MIDDLEGAME))):
        assert isinstance(p, XiangqiPosition)
        count, best = list_time(p)
        print(f"legal_moves() of the {label} position ({count} moves): "
              f"{best * 1e3:.3f} ms")


if __name__ == "__main__":
    main()
