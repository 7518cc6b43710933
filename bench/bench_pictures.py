"""Render time and size of issue 42's pictures: the evaluation graph (two and four seats),
the grid of games at a glance (1, 4 and 9 boards), the sheet of costly moves with their
arrows, one stepped board, and the replay GIF plain and with three costly moves marked.
Run: ``python bench/bench_pictures.py [--reps 20]``.

Method: each picture is drawn once to warm the caches (fonts, board layers, sprites), then
``--reps`` times; printed: the median and 95th percentile of the process CPU time (the
machine may be shared, so wall time says more about the neighbours than about Tablero)
and of the wall time, and the PNG size. Budgets (issue 42): a board 10 ms and 30 KB, the
graph and the grid 50 ms and 80 KB.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import render
import rules
from render.gallery import playout


def measure(label: str, draw: Callable[[], bytes], reps: int, budget_ms: float | None,
            budget_kb: float | None) -> None:
    """Print ``draw``'s CPU and wall times and size (``budget_*`` None: none set)."""
    size = len(draw())
    cpus, walls = [], []
    for _ in range(reps):
        c, w = time.process_time(), time.perf_counter()
        draw()
        cpus.append((time.process_time() - c) * 1000)
        walls.append((time.perf_counter() - w) * 1000)
    cpus.sort()
    walls.sort()
    p95 = max(0, round(0.95 * (reps - 1)))
    verdict = "(no budget set)"
    if budget_ms is not None and budget_kb is not None:
        ok = "ok" if statistics.median(cpus) <= budget_ms and size <= budget_kb * 1024 \
            else "OVER"
        verdict = f"(budget {budget_ms:.0f} ms, {budget_kb:.0f} KB: {ok})"
    print(f"{label:34} cpu p50 {statistics.median(cpus):6.1f} ms  p95 {cpus[p95]:6.1f} ms"
          f"   wall p50 {statistics.median(walls):6.1f} ms   {size / 1024:5.1f} KB"
          f"   {verdict}")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--reps", type=int, default=20)
    reps = ap.parse_args().reps
    xiangqi, grande = rules.variant("xiangqi"), rules.variant("alquerque-grande")
    two: list[render.graph.GraphPoint] = [
        (i, i % 2, (40 + 7 * i) * (1 if i % 2 == 0 else -1), None) for i in range(118)]
    two += [(118, 0, None, 2), (119, 1, None, -1)]
    four: list[render.graph.GraphPoint] = [
        (i, i % 4, 30 * ((i // 4) % 7) - 60, None) for i in range(120)]
    marked = {40: "41", 77: "78", 118: "119"}
    measure("graph, 2 seats, 120 moves", lambda: render.evaluation_graph(
        xiangqi, 2, two, marked=marked, names=["alice", "bob"], title="Xiangqi, match 7").png,
        reps, 50, 80)
    measure("graph, 4 seats, 120 moves", lambda: render.evaluation_graph(
        grande, 4, four, marked=marked, names=["ann", "ben", "cid", "dan"],
        title="Alquerque grande, match 9").png, reps, 50, 80)
    games = ("xiangqi", "damas", "alquerque", "querni", "xiangqi", "alquerque-grande",
             "damas", "xiangqi", "querni")
    tiles = []
    for i, key in enumerate(games):
        v = rules.variant(key)
        start = v.start(**({"players": 4} if key == "alquerque-grande" else {}))
        before, move, after = list(playout(v, start, i, 20))[-1]
        tiles.append(render.GridTile(after, v.move_marks(before, move), 0,
                                     ["ann", "ben", "cid", "dan"][:after.seat_count],
                                     title=f"#{i + 1} {v.name}",
                                     status="your move, 2 days left", mine=i % 3 == 0))
    for n in (1, 4, 9):
        measure(f"grid of {n} board{'s' if n > 1 else ''}",
                lambda n=n: render.board_grid(tiles[:n], title="Your games at a glance").png,
                reps, 50, 80)
    start = xiangqi.start()
    moves = [m for _b, m, _a in playout(xiangqi, start, 3, 30)]
    positions = [start]
    for m in moves:
        positions.append(positions[-1].play(m))
    better = {k: next(iter(positions[k - 1].legal_moves())) for k in (10, 20, 30)}
    measure("costly moves, 3 boards with arrows", lambda: render.flagged_sheet(
        xiangqi, start, moves, {k: f"move {k}: costs about 2.0 pawns" for k in better},
        better=better).png, reps, 150, 250)
    measure("stepped board (ply 30, 700 px)", lambda: render.draw_board(
        positions[30], last_move=xiangqi.move_marks(positions[29], moves[29]),
        perspective=0, names=["alice", "bob"]).png, reps, 10, 30)
    # the result post's replay, plain and with a stored analysis's three costly moves
    # marked (issue 42: an optional marker; the GIF has no budget of its own)
    replay_reps = max(1, reps // 10)
    measure("replay GIF, 30 moves", lambda: render.replay_gif(
        xiangqi, start, moves, names=["alice", "bob"]), replay_reps, None, None)
    measure("replay GIF, 30 moves, 3 marked", lambda: render.replay_gif(
        xiangqi, start, moves, names=["alice", "bob"],
        flagged={k: f"Move {k}, alice: costs about 2.0 pawns" for k in better}),
        replay_reps, None, None)


if __name__ == "__main__":
    main()
