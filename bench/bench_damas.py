"""Spanish draughts speed: perft from the start and legal-move generation time.

Run: ``/work/venv/bin/python bench/bench_damas.py`` (``--quick`` skips perft(9)).
Targets (issue 3): perft(8) = 828,783 in <= 3 s; legal moves of any position <= 1 ms.
"""

from __future__ import annotations

import random
import sys
import time

import rules
from rules.damas import BIT, SQUARE_AT, SQUARES, DamasPosition, perft
from rules.notation import parse_point

V = rules.variant("damas")
PUBLISHED = [7, 49, 302, 1469, 7361, 36473, 177532, 828783, 3860866]

LATTICE = [f"{c}{r}" for r in (3, 5, 7) for c in "bdfh"]  # 12 men a king can weave through
# Positions with several flying kings (and long capture trees) to time legal_moves on.
KING_POSITIONS = {
    "king in a 12-man net (takes 9)": ("W", ["Ka2"], LATTICE),
    "2 kings in the net": ("W", ["Ka2", "Ke2"], LATTICE),
    "3 kings in the net": ("W", ["Kc2", "Kg2", "Ke4"], LATTICE),
    "4 kings each, open board": ("W", ["Kd1", "Kf3", "Kd5", "Kc8"], ["Ke2", "Ke4", "Kc6", "Kb7"]),
    "3 kings + men vs 2 kings + men": ("B", ["Kh1", "Kc4", "Kg8", "g2", "e2", "h3", "b3"],
                                       ["Kb1", "Ke6", "a6", "c6", "g6", "f7", "h5", "d5"]),
    "three kings vs one (quiet)": ("W", ["Kd1", "Ke4", "Kg8"], ["Kh5"]),
}


def fen(turn: str, white: list[str], black: list[str]) -> str:
    def side(names: list[str]) -> str:
        numbers = sorted((sq(n.lstrip("K")), n.startswith("K")) for n in names)
        return ",".join(("K" if king else "") + str(n) for n, king in numbers)
    return f"{turn}:W{side(white)}:B{side(black)}"


def sq(name: str) -> int:
    return SQUARE_AT[parse_point(name, width=8, height=8)]


def fresh(p: DamasPosition) -> DamasPosition:
    """The same position without its cached moves, so timing includes generation."""
    return DamasPosition(p.white, p.black, p.kings, p.turn, p.king_plies, p.three_kings,
                         p.history)


def time_legal(p: DamasPosition, repeat: int = 200) -> tuple[float, int]:
    best = float("inf")
    n = 0
    for _ in range(repeat):
        q = fresh(p)
        t = time.perf_counter()
        n = len(q.legal_moves())
        best = min(best, time.perf_counter() - t)
    return best, n


def random_king_positions(count: int, seed: int = 1) -> list[DamasPosition]:
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        squares = rng.sample(list(SQUARES), rng.randint(6, 20))
        half = len(squares) // 2
        white, black, kings = 0, 0, 0
        for i, n in enumerate(squares):
            if i < half:
                white |= BIT[n]
            else:
                black |= BIT[n]
            if rng.random() < 0.5 or (i < half and n >= 29) or (i >= half and n <= 4):
                kings |= BIT[n]
        out.append(DamasPosition(white, black, kings, rng.randint(0, 1)))
    return out


def main() -> None:
    quick = "--quick" in sys.argv
    print("perft from the start (fast path, moves identified as RULES §6)")
    start = V.start()
    assert isinstance(start, DamasPosition)
    for depth in range(1, 8 if quick else 10):
        t = time.perf_counter()
        n = perft(start, depth)
        dt = time.perf_counter() - t
        ok = "ok" if n == PUBLISHED[depth - 1] else f"MISMATCH (published {PUBLISHED[depth - 1]})"
        rate = f"{n / dt:,.0f} leaves/s" if dt > 0.01 else ""
        print(f"  perft({depth}) = {n:>9,}  {dt:7.3f} s  {rate:>20}  {ok}")

    print("legal_moves() through the public API (fresh position, best of 200)")
    t0, n0 = time_legal(start)
    print(f"  {'start position':<38} {n0:>4} moves  {t0 * 1e3:6.3f} ms")
    for name, (turn, white, black) in KING_POSITIONS.items():
        p = V.from_text(fen(turn, white, black))
        assert isinstance(p, DamasPosition)
        t, n = time_legal(p)
        caps = max((len(m.captured) for m in p.legal_moves()), default=0)
        print(f"  {name:<38} {n:>4} moves  {t * 1e3:6.3f} ms  (takes {caps})")

    # best of 5 per position, so a scheduler hiccup is not mistaken for a slow position
    positions = random_king_positions(3000)
    times = sorted(time_legal(p, repeat=5)[0] for p in positions)
    print(f"  3000 random positions with kings (best of 5 each): median "
          f"{times[1500] * 1e3:.3f} ms, 99th pct {times[2970] * 1e3:.3f} ms, "
          f"worst {times[-1] * 1e3:.3f} ms")


if __name__ == "__main__":
    main()
