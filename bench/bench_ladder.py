"""The strength ladder: ``tablero selfplay`` of level k+1 against level k, and the top
level against level 0 (uniformly random legal moves), per configuration; prints each
pair's score and an Elo estimate per level.

Per pair: ``--games`` games (default 100) through :func:`engine.selfplay.run`, the code
behind ``tablero selfplay``: seats rotate one seat each game ([a, b, a, b] with four
seats), and every game opens with random quiet moves drawn from its seed (one per seat,
more where that leaves fewer than 1 000 possible openings: :class:`engine.selfplay.Opening`),
so games differ, the later moves only among quiet moves that keep the balance
(:data:`engine.selfplay.OPENING_MARGIN`); in Alquerque and Alquerque grande but
``fast`` the first moves too, and each opening is played from every seat
(:func:`openings`). Pairs measured before that (Alquerque, Alquerque grande and damas:
first with 5-49 openings, so two levels that make no mistakes replayed a few games,
then with any quiet move, which can throw a stone away, then Alquerque and Alquerque
grande with a first move of any quiet one and one opening a game) are marked ``old
openings``; xiangqi and Querni openings did not change.
A random deal (Querni ``setup=random``) is played from both seats (games
1 and 2 share one); pairs measured before that was so are shown without the ``deals×2``
mark. Levels 1-6 stop on node budgets (the same moves on any machine); levels 7-8
get ``--movetime`` per move (default 1 ms: scaled down until their node floors of 6 000
and 12 000 nodes bind, which makes them reproducible too: the pairs play with
``floors``, :func:`engine.choose_move`). Xiangqi's levels 7-8 are our
own engine here unless ``--fairy`` (Fairy-Stockfish at ``--movetime``).

Pairs run in ``--jobs`` processes (default 2), cheapest first, each in ``--pieces``
parts (default 1; a long pair in two pieces uses both cores and plays the same games);
each finished pair is printed at once and, with ``--results FILE``, appended there as a
JSON line, so ladders run in pieces can be tabulated together with ``--table FILE``
(no games played). ``--part K`` plays only the K-th of the ``--pieces`` of each pair and
appends it alone (``"part": [K, pieces]``): a pair too long for one sitting is measured
piece by piece, and the table joins the pieces into the pair once all are in (the same
games as one run: a game's seats, opening and seed follow its number).

With four seats the score shown is head to head (see :func:`head_to_head`): the share
of the comparisons between a higher-level seat and a lower-level one that the higher
won, ties half (``games`` counts seats: two per level per game).

Elo: per pair 400·log10(s / (1 - s)) of the higher level's share s (clamped at half a
game from 0 and 1), chained from level 0 = 0 through the adjacent pairs.

Run: ``nice -n 19 .venv/bin/python bench/bench_ladder.py --config "alquerque" \
--results /tmp/ladder.jsonl > /tmp/ladder.log 2>&1 &``
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import rules
from engine.levels import TOP
from engine.selfplay import Score, paired_openings, run

PAIRS = [(k + 1, k) for k in range(TOP)] + [(TOP, 0)]
COST = {"alquerque": 1, "damas": 2, "querni": 3, "xiangqi": 4, "alquerque-grande": 4}


def label(key: str, opts: dict[str, object]) -> str:
    return key + "".join(f" {k}={o}" for k, o in opts.items())


def configs(selected: list[str]) -> list[tuple[str, dict[str, object]]]:
    out = []
    for key, v in rules.VARIANTS.items():
        for opts in v.option_sets():
            if not selected or any(s in (key, label(key, opts)) for s in selected):
                out.append((key, dict(opts)))
    return out


def openings(key: str, opts: dict[str, object]) -> str:
    """The openings this configuration's pairs are measured with: ``balanced`` (from
    each seat's second opening move on, one opening a game) or ``paired`` (balanced
    from the first move on, each opening played from every seat:
    :attr:`engine.models.GameModel.paired_balanced_openings`)."""
    return "paired" if paired_openings(key, opts) else "balanced"


def parse_pairs(text: str) -> list[tuple[int, int]]:
    """``"1-6,8v0"``: pairs 1v0 .. 6v5 and 8v0 (``k`` alone is k v k-1)."""
    pairs: list[tuple[int, int]] = []
    for part in text.split(","):
        if "v" in part:
            a, b = part.split("v")
            pairs.append((int(a), int(b)))
        elif "-" in part:
            lo, hi = part.split("-")
            pairs += [(k, k - 1) for k in range(int(lo), int(hi) + 1)]
        else:
            pairs.append((int(part), int(part) - 1))
    return pairs


def play_pair(key: str, opts: dict[str, object], a: int, b: int, games: int,
              movetime: int, fairy: bool, first: int = 0) -> dict[str, Any]:
    """Games ``first`` .. ``first + games - 1`` of the pair (the whole pair by default)."""
    seats = rules.variant(key).seat_count(**opts)
    started = time.perf_counter()
    seconds = 2.0 if max(a, b) <= 6 else movetime / 1000
    name = f"{label(key, opts)} L{a} vs L{b} games {first + 1}-{first + games}"

    def progress(done: int, total: int, scores: dict[int, Score]) -> None:
        # one line a game on stderr: a long pair shows how far it is, and a pair cut
        # short still tells its score so far
        so_far = score(scores[a].points, scores[a].games, seats)
        print(f"  {name}: {done}/{total}, {100 * so_far:.1f}% so far, "
              f"{time.perf_counter() - started:.0f} s", file=sys.stderr, flush=True)

    scores = run(key, opts, [a, b] * (seats // 2), games=games, seed=1000 * a + b,
                 seconds=seconds, fairy=fairy, first=first, progress=progress, floors=True)
    s = scores[a]
    v = rules.variant(key)
    paired = "seed" in v.options and opts.get("setup", "random") == "random"
    return {"config": label(key, opts), "seats": seats, "a": a, "b": b, "games": s.games,
            "wins": s.wins, "draws": s.draws, "losses": s.losses, "points": s.points,
            "movetime": None if max(a, b) <= 6 else movetime,
            "fairy": fairy and key == "xiangqi" and max(a, b) >= 7,
            "seconds": round(time.perf_counter() - started), "openings": OPENINGS[label(key, opts)],
            **({"paired_deals": True} if paired else {})}


def merge(parts: list[dict[str, Any]]) -> dict[str, Any]:
    """One pair's result from the results of its pieces (``--pieces``): counts and
    points add up, and so do the pieces' seconds (about the time one process would
    have taken, not the wall time of the parallel run)."""
    merged = dict(parts[0])
    for field in ("games", "wins", "draws", "losses", "points", "seconds"):
        merged[field] = sum(part[field] for part in parts)
    return merged


def elo(share: float, games: int) -> float:
    clamp = 0.5 / games
    share = min(max(share, clamp), 1 - clamp)
    return 400 * math.log10(share / (1 - share))


def head_to_head(r: dict[str, Any]) -> float:
    """The higher level's score against the lower one, 0..1. With two seats its share
    of the points. With four ([a, b, a, b]) a seat's points count the other seat of its
    own level too (worth ½ on average), so the share tops out at 5/6: per game the two
    higher-level seats earn (1 + C) / 3 points, C being their wins (ties ½) in the four
    comparisons with the lower-level seats; the score is C / 4 = (3·share − ½) / 2."""
    seats = r.get("seats") or (4 if "players=4" in r["config"] else 2)
    return score(float(r["points"]), r["games"], seats)


def score(points: float, games: int, seats: int) -> float:
    """:func:`head_to_head` from the higher level's points over ``games`` seat-games."""
    share = points / games if games else 0.0
    return share if seats == 2 else (3 * share - 0.5) / 2


def pair_line(r: dict[str, Any]) -> str:
    share = head_to_head(r)
    need = 0.99 if r["b"] == 0 and r["a"] == TOP else 0.6
    budget = "nodes" if r["movetime"] is None else f"{r['movetime']} ms"
    if r.get("fairy"):
        budget += " FSF"
    if r.get("paired_deals"):
        budget += " deals×2"
    # xiangqi and Querni openings are one quiet move per seat, as they always were
    stale = r.get("openings") != OPENINGS.get(r["config"], "balanced") \
        and not r["config"].startswith(("xiangqi", "querni"))
    return (f"  L{r['a']} vs L{r['b']}  {r['games']:>4} games  {r['wins']:>3}W "
            f"{r['draws']:>3}D {r['losses']:>3}L  {100 * share:5.1f}%  "
            f"{'ok' if share >= need else 'BELOW ' + str(int(need * 100)) + '%':>9}  "
            f"{budget:>15}  {r['seconds']:>5} s{'  old openings' if stale else ''}")


OPENINGS = {label(key, opts): openings(key, opts) for key, opts in configs([])}
"""Per configuration label, the openings its pairs are measured with now."""


def join_parts(results: list[dict[str, Any]]) -> tuple[list[dict[str, Any]],
                                                       list[dict[str, Any]]]:
    """The results with each pair played in parts (``--part``) joined into one result
    where every part is in (at the place of its last part), and the pairs still missing
    parts, joined as far as they go.

    >>> part = {"config": "c", "a": 2, "b": 1, "games": 50, "wins": 30, "draws": 0,
    ...         "losses": 20, "points": 30.0, "seconds": 9, "part": [1, 2], "of": 100}
    >>> done, partial = join_parts([part, {**part, "part": [2, 2], "wins": 20,
    ...                                    "losses": 30, "points": 20.0}])
    >>> (done[0]["games"], done[0]["points"], "part" in done[0], partial)
    (100, 50.0, False, [])
    >>> [(r["games"], r["part"]) for r in join_parts([part])[1]]
    [(50, [1, 2])]
    """
    joined: list[dict[str, Any]] = []
    waiting: dict[tuple[Any, ...], dict[int, dict[str, Any]]] = {}
    for r in results:
        if "part" not in r:
            joined.append(r)
            continue
        k, n = r["part"]
        ident = (r["config"], r["a"], r["b"], n, r["of"], r.get("openings"),
                 r.get("movetime"), r.get("fairy"))
        parts = waiting.setdefault(ident, {})
        parts[k] = r  # a part played again replaces the earlier one
        if len(parts) == n:
            whole = merge([parts[i] for i in sorted(parts)])
            del whole["part"], whole["of"]
            joined.append(whole)
            del waiting[ident]
    # "of" counts games played, "games" a level's seat-games (two a game with four
    # seats, the level in two of them): an unfinished pair tells its pieces instead
    partial = []
    for parts in waiting.values():
        merged = merge([parts[i] for i in sorted(parts)])  # "part" is its first piece's
        partial.append({**merged, "part": [len(parts), merged["part"][1]]})
    return joined, partial


def table(results: list[dict[str, Any]]) -> None:
    results, partial = join_parts(results)
    by_config: dict[str, dict[tuple[int, int], dict[str, Any]]] = {}
    for r in results:  # a later run of the same pair replaces an earlier one
        by_config.setdefault(r["config"], {})[r["a"], r["b"]] = r
    for r in partial:
        by_config.setdefault(r["config"], {})
    for config, pairs in by_config.items():
        print(f"\n== ladder {config}")
        for pair in sorted(pairs, key=lambda p: (p[1] == 0 and p[0] == TOP, p)):
            print(pair_line(pairs[pair]))
        for part in partial:
            if part["config"] == config:
                done, pieces = part["part"]
                print(f"  L{part['a']} vs L{part['b']}  {part['games']:>4} games so far "
                      f"({done} of {pieces} pieces): {100 * head_to_head(part):5.1f}%")
        rating = {0: 0.0}
        for k in range(1, TOP + 1):
            step = pairs.get((k, k - 1))
            if step is None or k - 1 not in rating:
                break
            rating[k] = rating[k - 1] + elo(head_to_head(step), step["games"])
        print("  Elo (L0 = 0, chained): " + "  ".join(
            f"L{lv} {rating[lv]:.0f}" for lv in sorted(rating)))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--config", action="append", default=[],
                        help="a game key or 'key opt=value ...' label (repeat)")
    parser.add_argument("--pairs", type=parse_pairs, default=PAIRS,
                        help="e.g. 1-6,8v0 (default: 1v0 .. 8v7 and 8v0)")
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--movetime", type=int, default=1, metavar="MS",
                        help="per-move budget of levels 7-8 (default 1: their node floors)")
    parser.add_argument("--fairy", action="store_true",
                        help="xiangqi levels 7-8 by Fairy-Stockfish when installed")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--pieces", type=int, default=1,
                        help="split each pair's games into this many pieces played in "
                             "parallel (the same games as in one piece)")
    parser.add_argument("--part", type=int, default=None, metavar="K",
                        help="play only piece K (1..PIECES) of each pair and append it "
                             "alone: a long pair measured over several sittings (the "
                             "table joins its pieces once all are in)")
    parser.add_argument("--results", default=None, metavar="FILE",
                        help="append each pair's result here (JSON lines)")
    parser.add_argument("--table", default=None, metavar="FILE",
                        help="only print the tables of a results file")
    args = parser.parse_args()
    if args.table:
        table([json.loads(line) for line in Path(args.table).read_text().splitlines()
               if line.strip()])
        return
    tasks = [(key, opts, a, b) for key, opts in configs(args.config) for a, b in args.pairs]
    tasks.sort(key=lambda t: COST.get(t[0], 4) * (1 + max(t[2], t[3])))
    pieces = max(1, min(args.pieces, args.games))
    bounds = [args.games * i // pieces for i in range(pieces + 1)]
    if args.part is not None and not 1 <= args.part <= pieces:
        parser.error(f"--part must be 1..{pieces} (the pieces of --pieces)")
    played = range(pieces) if args.part is None else [args.part - 1]
    results = []
    with ProcessPoolExecutor(args.jobs) as pool:
        futures = {pool.submit(play_pair, key, opts, a, b, bounds[i + 1] - bounds[i],
                               args.movetime, args.fairy, bounds[i]): n
                   for n, (key, opts, a, b) in enumerate(tasks) for i in played}
        done: dict[int, list[dict[str, Any]]] = {}
        for future in as_completed(futures):
            parts = done.setdefault(futures[future], [])
            parts.append(future.result())
            if len(parts) < len(played):
                continue
            r = merge(parts)
            if args.part is not None:  # one piece: the table joins it with the others
                r = {**r, "part": [args.part, pieces], "of": args.games}
            results.append(r)
            print(r["config"] + pair_line(r), flush=True)
            if args.results:
                with open(args.results, "a") as f:
                    f.write(json.dumps(r) + "\n")
    table(results)


if __name__ == "__main__":
    main()
