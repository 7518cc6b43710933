"""What languages cost: loading a catalogue (once per process) and rendering the texts of
one turn (the post, the DM note, the board embed's words and the alt text) per locale.
Run: ``python bench/bench_i18n.py [--reps 2000]``.

Method: each catalogue is read from its ``.po`` and compiled in memory (``translations``,
cached afterwards: the figure is the cold cost, paid once). Then the lazy texts a turn
builds (nested texts, a list of players, a plural) are rendered ``reps`` times per locale
and the median microseconds per turn are printed; ``render.alt.describe`` of a
mid-game xiangqi board (the longest text per turn) is timed the same way.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import rules
from locales.i18n import LOCALES, _, _n, listing, translations
from locales.terms import game_name, move_display
from render.alt import describe


def turn_texts() -> list[object]:
    players = listing(["<@1>", "<@2>"])
    played = _("{player} played **{move}**", player="alice", move=move_display("h3-e3"))
    return [
        _("{played} — {players}, your move ({deadline}).", played=played, players=players,
          deadline="<t:0:R>"),
        _("Your move in {game} (match {match}).", game=game_name("xiangqi"), match=12),
        _n("{count} day per move, rated", "{count} days per move, rated", 3),
        _("{players} to move, {deadline}", players=players, deadline="<t:0:R>"),
    ]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--reps", type=int, default=2000)
    reps = parser.parse_args().reps
    texts = turn_texts()
    v = rules.variant("xiangqi")
    p = v.start()
    for move in ("h3-e3", "h8-e8", "b1-c3", "b10-c8"):
        p = p.play(v.parse_move(p, move))
    print(f"{'locale':8} {'load ms':>8} {'turn us':>8} {'alt us':>8}")
    for locale in LOCALES:
        t0 = time.perf_counter()
        translations(locale)
        load = (time.perf_counter() - t0) * 1000
        turn, alt = [], []
        for _i in range(reps):
            t0 = time.perf_counter()
            for t in texts:
                t.render(locale)  # type: ignore[attr-defined]
            turn.append(time.perf_counter() - t0)
        for _i in range(max(1, reps // 20)):
            t0 = time.perf_counter()
            describe(p, names=["alice", "bob"], locale=locale)
            alt.append(time.perf_counter() - t0)
        print(f"{locale:8} {load:8.1f} {statistics.median(turn) * 1e6:8.1f} "
              f"{statistics.median(alt) * 1e6:8.1f}")


if __name__ == "__main__":
    main()
