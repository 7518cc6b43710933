"""``python -m render.gallery --out DIR``: every game and variant drawn at once.

For every registered variant and option set (its ``example_options`` plus every
combination of its menu options) it writes the start, a middlegame and a finished
position (seeded random playouts that prefer captures, so games end), each seen from
seat 0, plus one more perspective per variant and a replay GIF per game, and an
``index.html`` showing them with their alt texts.
"""

from __future__ import annotations

import argparse
import html
import random
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import rules
from render.draw import draw_board
from render.graph import GraphPoint, evaluation_graph
from render.grid import GridTile, board_grid
from render.replay import flagged_sheet, replay_gif
from rules import MoveMarks, Position, Variant

MIDDLE_PLIES = 24
MAX_PLIES = 3000


def option_sets(v: Variant) -> list[dict[str, object]]:
    """``example_options`` plus each of the variant's menu option sets (on top of its
    first example, which may carry what a menu leaves free, such as a seed)."""
    found: list[dict[str, object]] = [dict(o) for o in v.example_options]
    base = dict(v.example_options[0]) if v.example_options else {}
    for menu in v.option_sets():
        opts = {**base, **menu}
        if opts not in found:
            found.append(opts)
    return found


def _pick(v: Variant, p: Position, rng: random.Random) -> Any:
    moves = p.legal_moves()
    if len(moves) > 5000:  # a lazy setup sequence (Querni arrangements): just sample it
        return moves[rng.randrange(len(moves))]
    moves = list(moves)
    if rng.random() < 0.8:
        eager = [m for m in moves if (mk := v.move_marks(p, m)).captured or mk.removed]
        if eager:
            return rng.choice(eager)
    return rng.choice(moves)


def playout(v: Variant, start: Position, seed: int, plies: int
            ) -> Iterator[tuple[Position, Any, Position]]:
    """``(before, move, after)`` along a seeded random game."""
    rng = random.Random(seed)
    p = start
    for _ in range(plies):
        if p.outcome() is not None or not p.to_move:
            return
        m = _pick(v, p, rng)
        after = p.play(m)
        yield p, m, after
        p = after


def _marks(v: Variant, before: Position, move: Any) -> MoveMarks | None:
    try:
        return v.move_marks(before, move)
    except Exception:  # a setup submission touches no point
        return None


def _slug(key: str, opts: Mapping[str, object]) -> str:
    parts = [key] + [f"{k}={val}" for k, val in opts.items()
                     if k not in ("seed", "arrangement")]
    return "-".join(parts)


def build(out: Path, size: int = 700) -> list[Path]:
    """Write the gallery to ``out``; returns the files written."""
    out.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []
    entries: list[tuple[str, str]] = []

    def save(name: str, position: Position, before: Position | None = None,
             move: Any = None, perspective: int = 0) -> None:
        v = position.variant
        marks = _marks(v, before, move) if before is not None else None
        caption = None
        if before is not None:
            caption = ("arrangement handed in" if before.in_setup
                       else v.display_move(before, move))
        names = [f"Player {chr(65 + s)}" for s in range(position.seat_count)]
        board = draw_board(position, last_move=marks, before=before, perspective=perspective,
                           names=names, caption=caption, deadline="deadline in 2 days",
                           size=size)
        path = out / f"{name}.png"
        path.write_bytes(board.png)
        written.append(path)
        entries.append((path.name, board.alt_text))

    for key, v in rules.VARIANTS.items():
        slugs: set[str] = set()
        for opts in option_sets(v):
            slug = _slug(key, opts)
            if slug in slugs:
                continue
            slugs.add(slug)
            start = v.start(**opts)
            save(f"{slug}-start", start)
            middle = list(playout(v, start, 7, MIDDLE_PLIES))
            if len(start.to_move) > 1 and middle:  # a setup phase: one seat has handed in
                b, m, a = middle[0]
                save(f"{slug}-setup-half", a, b, m)
            if middle:
                b, m, a = middle[-1]
                save(f"{slug}-middle", a, b, m)
                save(f"{slug}-middle-seat{a.seat_count - 1}", a, b, m,
                     perspective=a.seat_count - 1)
                if a.seat_count == 4:
                    save(f"{slug}-middle-seat1", a, b, m, perspective=1)
            shown: set[str] = set()
            for seed in range(20):
                game = list(playout(v, start, seed, MAX_PLIES))
                for b, m, a in game:  # one example of each overlay the game has
                    marks = _marks(v, b, m)
                    for overlay, present in (
                            ("check", a.checked_point() is not None),
                            ("multijump", marks is not None and len(marks.path) > 2),
                            ("removal", marks is not None and bool(marks.removed))):
                        if present and overlay not in shown:
                            shown.add(overlay)
                            save(f"{slug}-{overlay}", a, b, m)
                if game and game[-1][2].outcome() is not None:
                    b, m, a = game[-1]
                    save(f"{slug}-finished", a, b, m)
                    break
        # the replay shows the most seats the game has
        opts = max(option_sets(v), key=lambda o: v.seat_count(**o))
        start = v.start(**opts)
        game = [m for _, m, _ in playout(v, start, 3, 40)]
        path = out / f"{_slug(key, opts)}-replay.gif"
        path.write_bytes(replay_gif(v, start, game))
        written.append(path)
        entries.append((path.name, f"{len(game)} plies"))

    written += _analysis_pictures(out, entries)
    rows = "\n".join(
        f'<figure><img src="{html.escape(name)}"><figcaption><b>{html.escape(name)}</b>'
        f"<br>{html.escape(alt)}</figcaption></figure>" for name, alt in entries)
    index = out / "index.html"
    index.write_text(
        "<!doctype html><meta charset=utf-8><title>Tablero boards</title><style>"
        "body{font-family:sans-serif;background:#333;color:#eee}"
        "figure{display:inline-block;width:420px;vertical-align:top;margin:8px}"
        "img{width:400px}figcaption{font-size:11px}</style>\n" + rows + "\n",
        encoding="utf-8")
    written.append(index)
    return written


def _analysis_pictures(out: Path, entries: list[tuple[str, str]]) -> list[Path]:
    """The analysis as pictures (issue 42): the evaluation graph of a decisive game,
    a drawn one and a four-seat one, costly moves with their arrows, and a replay with
    its costly moves marked. The
    evaluations are made up (the engine is not render's): a slow build-up, a blunder,
    a forced win found."""
    written: list[Path] = []

    def save(name: str, png: bytes, alt: str) -> None:
        path = out / name
        path.write_bytes(png)
        written.append(path)
        entries.append((name, alt))

    xiangqi = rules.variant("xiangqi")
    decisive: list[GraphPoint] = [(i, i % 2, (20 + 9 * i) * (1 if i % 2 == 0 else -1), None)
                                  for i in range(30)]
    decisive += [(30, 0, -350, None), (31, 1, 420, None), (32, 0, -480, None),
                 (33, 1, None, 3), (34, 0, None, -2), (35, 1, None, 1)]
    g = evaluation_graph(xiangqi, 2, decisive, marked={30: "31", 32: "33"},
                         names=["Player A", "Player B"], title="Xiangqi, match 12: the analysis")
    save("analysis-graph-decisive.png", g.png, g.alt_text)
    damas = rules.variant("damas")
    drawn = [(i, i % 2, ((i * 37) % 90 - 45) * (1 if i % 2 == 0 else -1), None)
             for i in range(80)]
    g = evaluation_graph(damas, 2, drawn, names=["Player A", "Player B"],
                         title="Spanish draughts, match 8: the analysis")
    save("analysis-graph-drawn.png", g.png, g.alt_text)
    grande = rules.variant("alquerque-grande")
    four = [(i, i % 4, 30 * ((i // 4) % 7) - 60 - 40 * (i % 4 == 2) * (i // 8), None)
            for i in range(48)]
    g = evaluation_graph(grande, 4, four, marked={26: "27"},
                         names=["Player A", "Player B", "Player C", "Player D"],
                         title="Alquerque grande, match 5: the analysis")
    save("analysis-graph-four-seats.png", g.png, g.alt_text)
    start = xiangqi.start()
    moves = [xiangqi.parse_move(start, "h3-e3")]
    after = start.play(moves[0])
    moves.append(xiangqi.parse_move(after, "h8-e8"))
    sheet = flagged_sheet(xiangqi, start, moves,
                          {2: "move 2, Player B: h8-e8; better b8-e8 (costs about 1.2 pawns)"},
                          names=["Player A", "Player B"],
                          better={2: xiangqi.parse_move(after, "b8-e8")})
    save("analysis-costly-moves.png", sheet.png, sheet.alt_text)
    # the replay of a result post or /history once an analysis is stored: its costly
    # moves framed in red, held longer, their note below the board
    game = [m for _, m, _ in playout(xiangqi, start, 3, 40)]
    notes = {7: "Move 7, Player A: a costly move (costs about 1.8 pawns)",
             20: "Move 20, Player B: a worse one (costs about 3.4 pawns)"}
    save("analysis-replay-marked.gif",
         replay_gif(xiangqi, start, game, names=["Player A", "Player B"], flagged=notes),
         "; ".join(notes.values()))
    tiles = []
    for i, key in enumerate(("xiangqi", "damas", "alquerque", "querni", "alquerque-grande",
                             "xiangqi", "damas", "querni", "alquerque")):
        v = rules.variant(key)
        game_start = v.start(**max(option_sets(v), key=lambda o: v.seat_count(**o)))
        before, move, position = list(playout(v, game_start, i, 16))[-1]
        mine = i % 3 == 0
        tiles.append(GridTile(position, _marks(v, before, move), 0,
                              [f"Player {chr(65 + s)}" for s in range(position.seat_count)],
                              title=f"#{i + 1} {v.name}",
                              status="your move, 2 days left" if mine
                              else "Player B to move, 5 hours left", mine=mine))
    grid = board_grid(tiles, title="Your games at a glance")
    save("glance-nine-games.png", grid.png, grid.alt_text)
    return written


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else "")
    parser.add_argument("--out", type=Path, required=True, help="directory to write to")
    parser.add_argument("--size", type=int, default=700, help="long side in pixels")
    args = parser.parse_args(argv)
    for path in build(args.out, args.size):
        print(path)


if __name__ == "__main__":
    main()
