"""Alquerque and Alquerque grande speed: legal-move generation and random games.

Prints, per game: the time to generate the legal moves of the start position and of
crowded middlegame positions (the positions with the most legal moves met at plies
8-60 of 300 seeded random games), and the mean time of a whole random game
(legal_moves + play until the end) per option set. Targets: legal moves <= 1 ms;
a random 4-player grande game <= 50 ms on average.

    /work/venv/bin/python bench/bench_alquerque.py
"""

from __future__ import annotations

import random
import sys
import time
from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import rules
from rules import Position, Variant

GAMES = 200


def legal_moves_time(p: Position, repeat: int = 100, batches: int = 5) -> float:
    """Milliseconds of legal_moves() on a fresh copy (nothing cached): the best mean of
    a few batches, so that other processes on the machine disturb it less."""
    best = float("inf")
    for _ in range(batches):
        copies = [replace(p) for _ in range(repeat)]  # type: ignore[type-var]
        t0 = time.perf_counter()
        for q in copies:
            q.legal_moves()
        best = min(best, (time.perf_counter() - t0) / repeat * 1000)
    return best


def crowded(v: Variant, options: Mapping[str, object], count: int = 3) -> list[Position]:
    found: list[tuple[int, str, Position]] = []
    for seed in range(300):
        rng = random.Random(seed)
        p = v.start(**options)
        for ply in range(60):
            moves = p.legal_moves()
            if not moves:
                break
            if ply >= 8:
                found.append((len(moves), p.to_text(), p))
            p = p.play(rng.choice(moves))
    found.sort(key=lambda f: -f[0])
    return [p for _, _, p in found[:count]]


def random_games(v: Variant, options: Mapping[str, object], games: int) -> tuple[float, float]:
    """Mean milliseconds and mean plies of a whole seeded random game."""
    plies = 0
    t0 = time.perf_counter()
    for seed in range(games):
        rng = random.Random(seed)
        p = v.start(**options)
        while True:
            moves = p.legal_moves()
            if not moves:
                break
            p = p.play(rng.choice(moves))
            plies += 1
    return (time.perf_counter() - t0) / games * 1000, plies / games


def main() -> None:
    for key in ("alquerque", "alquerque-grande"):
        v = rules.variant(key)
        for options in v.example_options:
            label = f"{key} {dict(options) or ''}".strip()
            start = v.start(**options)
            print(f"{label}")
            print(f"  legal moves, start ({len(start.legal_moves())} moves): "
                  f"{legal_moves_time(start):.3f} ms")
            for p in crowded(v, options):
                print(f"  legal moves, middlegame ({len(p.legal_moves())} moves, "
                      f"{len(p.pieces())} stones): {legal_moves_time(p):.3f} ms")
            ms, plies = random_games(v, options, GAMES)
            print(f"  random game: {ms:.2f} ms mean over {GAMES} games "
                  f"({plies:.0f} plies mean)")


if __name__ == "__main__":
    main()
