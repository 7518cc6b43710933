"""What predicts a seat's result in Alquerque grande ``fast``? Least-squares fits of
each seat's final place share on features of quiet positions of self-play games, each
relative to the rivals' mean, scored on held-out games (every third): a judgement
(:class:`engine.models.alquerque_grande.AlquerqueGrandeModel`) could only gain from a
feature that predicts the result better than the stones and captures it weighs already.

Features per seat: its stones and captures (the judgement's own), its moves, its best
capture and how many of its stones can capture, the same best capture when it moves
next, how far it is from moving, its captures over the fewest stones any seat has left
(the end nearing), and a table of its stones per point seen from its own side (the
seats start a quarter turn apart).

The records are ``tablero selfplay --records`` lines, e.g. level 8 against itself::

    .venv/bin/tablero selfplay alquerque-grande --option players=4 --option mode=fast \\
        --levels 8,8,8,8 --games 250 --movetime 20 --seed 11 --records games.jsonl
    .venv/bin/python bench/fit_grande_fast.py games.jsonl

It needs numpy (not one of Tablero's dependencies): ``pip install numpy``.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import rules
from engine.search import place_share
from rules.alquerque_grande import ENEMY, GRID
from rules.lattice_moves import grande_moves

NAMES = ["stones", "captures", "moves", "best capture", "capturing stones",
         "best capture moving next", "to move in 0", "in 1", "in 2", "in 3",
         "captures / fewest stones"]
POINTS = 49


def own_side(seat: int, point: int) -> int:
    """``point`` seen from the first seat's side (seat 1's stones are seat 0's turned a
    quarter: (x, y) -> (6 - y, x))."""
    x, y = point % 7, point // 7
    for _ in range(seat):
        x, y = y, 6 - x
    return y * 7 + x


def rows(paths: list[str]) -> tuple[list[list[float]], list[float], list[int]]:
    """Per quiet position (the seat to move has no capture) after the fourth ply and per
    seat: the features less the rivals' mean, the seat's place share less one half, and
    the game's number."""
    v = rules.variant("alquerque-grande")
    features: list[list[float]] = []
    results: list[float] = []
    games: list[int] = []
    game = 0
    for path in paths:
        for line in Path(path).read_text().splitlines():
            record = json.loads(line)
            p: Any = v.start(**record["options"])
            ranking = tuple(frozenset(group) for group in record["result"]["ranking"])
            shares = [place_share(ranking, seat, 3) for seat in range(4)]
            for ply, text in enumerate(record["moves"]):
                if ply >= 4 and p.outcome() is None \
                        and not any(m.captured for m in p.legal_moves()):
                    seats = [_features(p, seat) for seat in range(4)]
                    fewest = min(s[0] for s in seats)
                    for seat in range(4):
                        rivals = [s for r, s in enumerate(seats) if r != seat]
                        relative = [mine - sum(r[i] for r in rivals) / 3
                                    for i, mine in enumerate(seats[seat])]
                        relative.insert(len(NAMES) - 1, relative[1] / max(fewest, 1))
                        features.append(relative)
                        results.append(shares[seat] - 0.5)
                        games.append(game)
                p = p.play(v.parse_move(p, text))
            game += 1
    return features, results, games


def _features(p: Any, seat: int) -> list[float]:
    marker = p.marker[seat]
    came, stone = marker if marker is not None else (-1, -1)
    moves, best = grande_moves(list(p.cells), seat, came, stone, ENEMY[4, "fast", seat],
                               GRID.jumps, GRID.steps, GRID.step_moves)
    distance = (seat - p.mover) % 4
    table = [0.0] * POINTS
    for point, value in enumerate(p.cells):
        if value == seat + 1:
            table[own_side(seat, point)] += 1
    most = max(best.values(), default=0)
    return [float(sum(table)), float(p.captured[seat]), float(len(moves)), float(most),
            float(len(best)), float(most * (distance == 1)),
            *(float(distance == d) for d in range(4)), *table]


def main() -> None:
    try:
        import numpy as np
    except ImportError:
        raise SystemExit("this fit needs numpy: pip install numpy") from None
    if len(sys.argv) < 2:
        raise SystemExit(__doc__)
    features, results, games = rows(sys.argv[1:])
    x, y, g = np.array(features), np.array(results), np.array(games)
    held = g % 3 == 0
    print(f"{g.max() + 1} games, {len(y) // 4} quiet positions, every third game held out")

    def fit(columns: list[int], ridge: float = 0.1) -> tuple[Any, float]:
        a, b = x[~held][:, columns], y[~held]
        weights = np.linalg.solve(a.T @ a + ridge * np.eye(len(columns)), a.T @ b)
        guess = x[held][:, columns] @ weights
        r2 = 1 - ((y[held] - guess) ** 2).sum() / ((y[held] - y[held].mean()) ** 2).sum()
        return weights, float(r2)

    judgement = x[:, 0] * 100 + x[:, 1] * 120  # the judgement as it is, scaled by the fit
    a, b = judgement[~held][:, None], y[~held]
    k = float(np.linalg.lstsq(a, b, rcond=None)[0][0])
    guess = judgement[held] * k
    r2 = 1 - ((y[held] - guess) ** 2).sum() / ((y[held] - y[held].mean()) ** 2).sum()
    print(f"  {'the judgement as it is (100 a stone, 120 a capture)':58} R2 {r2:.4f}")
    extra = len(NAMES)
    sets = [[0, 1], *([0, 1, i] for i in range(2, 6)), [0, 1, 6, 7, 8, 9], [0, 1, 10],
            list(range(extra))]
    for columns in sets:
        weights, r2 = fit(columns)
        worths = ", ".join(f"{NAMES[c]} {100 * w / weights[0]:.0f}"
                           for c, w in zip(columns, weights, strict=True))
        label = " + ".join(NAMES[c] for c in columns) if len(columns) < extra \
            else "all of them"
        print(f"  {label[:58]:58} R2 {r2:.4f}   ({worths})")
    table = list(range(extra, extra + POINTS))
    weights, r2 = fit([*table, 1], ridge=3.0)
    print(f"  {'a worth per point (own side) + captures':58} R2 {r2:.4f}")


if __name__ == "__main__":
    main()
