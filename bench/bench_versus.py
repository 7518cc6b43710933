"""One engine against another: this tree's level against the same level of a git
revision, at the same time per move, in every configuration (or those named).

Each side is a process of its own that imports its tree's engine and rules (``--serve
ROOT``) and answers one move at a time, so only one side thinks at any moment and each
gets the whole time per move (``--movetime`` ms; scaled down from the 2 s default to
make a run of many games possible). The games open as ``tablero selfplay``'s do
(:class:`engine.selfplay.Opening`: random quiet moves, and a random Querni deal), and
every opening and deal is played twice, the two engines swapping seats (a set-up's
arrangements, Querni ``choose``, get the default 2 s whatever ``--movetime``); with four
seats the old engine sits in the two seats of the other team, or (``fast``, ``slow``)
in every other seat. Points: 1 a win, ½ a draw (with four seats, the share of the
other seats ranked below, ties half); the new engine's score per configuration.

``--cpu-time``: each side's clock is its own process's CPU time (``time.perf_counter``
reads ``time.process_time`` in the serving processes), so each move gets the same
``--movetime`` of computing on a loaded machine, whoever else is running (only the wall
time of the run grows). ``--time-bound``: the levels' node floors
(:attr:`engine.levels.Level.min_nodes`, the models' own) are waived on both sides, so
that both search by time alone: the code before issue 39 searched level 8's floor (12 000
to 80 000 nodes) however long it took, which at a scaled-down time per move would give
it many times the other side's time.

``--new-movetime MS``: the new engine thinks MS a move, the old ``--movetime``; run
from REV's own tree (this script copied in), with ``--against REV``, it measures what
more time is worth to one engine against itself.

Run with ``nice -n 15 .venv/bin/python bench/bench_versus.py --against REV
[--build-old] [--games N] [--first N] [--movetime MS] [--level 8] [--cpu-time] [--time-bound]
[--config LABEL ...]``.
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
import time
from pathlib import Path
from typing import IO, Any

from engine_processes import HERE, EngineProcess, chosen_configs, revision_tree

MAX_PLIES = 600
"""A game still running here is scored a draw."""
DEFAULT_SECONDS = 2.0
"""The engine's default time per move (:data:`engine.levels.DEFAULT_SECONDS`), given to
set-up arrangements whatever ``--movetime``."""


def serve(root: str, *, cpu_time: bool = False, time_bound: bool = False) -> None:
    """Answer ``{"game", "options", "moves": [[seat, text], ...], "seat", "level",
    "seconds", "seed"}`` lines with ``{"move": text}``, by ROOT's engine (its clock the
    process's CPU time with ``cpu_time``; no node floors with ``time_bound``)."""
    sys.path.insert(0, str(Path(root).resolve()))
    if cpu_time:
        # before the engine is imported; its modules (compiled ones too) read the
        # ``time`` module's attribute at every call
        time.perf_counter = time.process_time
    import engine
    import engine.player
    import rules
    if time_bound:
        searched = getattr(engine.player, "Limits")  # noqa: B009 (not exported)

        def without_floor(**settings: Any) -> Any:
            return searched(**{**settings, "min_nodes": 0})
        setattr(engine.player, "Limits", without_floor)  # noqa: B010
    try:
        from rules import native
        core = native.running()
    except ImportError:  # before the compiled core (33b429d)
        core = "pure Python"
    print(json.dumps({"core": core, "engine": engine.__file__}), flush=True)
    # the game so far, kept between asks: each ask extends the last one's moves, so
    # only the new moves are played (replaying a whole xiangqi game by the pure-Python
    # rules at every move cost more CPU than the engines' thinking)
    game: tuple[str, str] | None = None
    played: list[list[Any]] = []
    p: Any = None
    for line in sys.stdin:
        ask = json.loads(line)
        v = rules.variant(ask["game"])
        this = (ask["game"], json.dumps(ask["options"], sort_keys=True))
        moves = ask["moves"]
        if this != game or moves[:len(played)] != played:
            game, played, p = this, [], v.start(**ask["options"])
        for seat, text in moves[len(played):]:
            move = v.parse_arrangement(p, seat, text) if p.in_setup else v.parse_move(p, text)
            p = p.play(move)
        played = [list(m) for m in moves]
        choice = engine.choose_move(p, ask["level"], seed=ask["seed"], seconds=ask["seconds"],
                                    seat=ask["seat"], fairy=False)
        print(json.dumps({"move": choice.text, "seconds": choice.seconds}), flush=True)


class Side(EngineProcess):
    """One engine's process (its ``--serve``), with the seconds each of its moves took."""

    def __init__(self, name: str, root: Path, flags: tuple[str, ...] = ()) -> None:
        super().__init__(name, __file__, root, flags)
        self.core = self.hello["core"]
        self.seconds: list[float] = []

    def move(self, ask: dict[str, Any]) -> str:
        answer = self.ask(ask)
        self.seconds.append(answer["seconds"])
        text: str = answer["move"]
        return text


def play(key: str, options: dict[str, object], seating: list[Side], *, game: int,
         level: int, seconds: float, new_seconds: float | None = None) -> Any:
    """One game, ``seating[seat]`` playing each seat from the opening of ``game // 2``
    (the new engine's seats thinking ``new_seconds`` a move when given); the final
    position."""
    import rules
    from engine.selfplay import Opening
    v = rules.variant(key)
    pair = game // 2
    if "seed" in v.options and options.get("setup", "random") == "random":
        options = {**options, "seed": random.Random(f"versus-deal:{pair}").randrange(2**31)}
    p = v.start(**options)
    opening = Opening(p.seat_count, random.Random(f"versus-opening:{pair}"))
    moves: list[tuple[int, str]] = []
    while p.outcome() is None and len(moves) < MAX_PLIES:
        seat = min(p.to_move)
        if not p.in_setup:
            forced = opening.move(p, seat)
            if forced is not None:
                moves.append((seat, v.format_move(p, forced)))
                p = p.play(forced)
                continue
        # a set-up (Querni ``choose``: the arrangement all but decides the game) gets the
        # whole default budget: the code before issue 39 arranged with all its rounds
        # whatever the time, a time-bound level now stops at its deadline
        mine = seconds if new_seconds is None or seating[seat].name != "new" else new_seconds
        thinking = max(mine, DEFAULT_SECONDS) if p.in_setup else mine
        text = seating[seat].move({"game": key, "options": options, "moves": moves,
                                   "seat": seat, "level": level, "seconds": thinking,
                                   "seed": game * 1000 + len(moves)})
        move = v.parse_arrangement(p, seat, text) if p.in_setup else v.parse_move(p, text)
        moves.append((seat, text))
        p = p.play(move)
    return p


def seatings(teams: tuple[frozenset[int], ...], seats: int, new: Side,
             old: Side) -> list[list[Side]]:
    """The two seatings of a pair of games (the engines swapped): the new engine in the
    seats of the first seat's team, or every other seat."""
    first_team = next((t for t in teams if 0 in t), None)
    first = [new if (s in first_team if first_team else s % 2 == 0) else old
             for s in range(seats)]
    return [first, [old if side is new else new for side in first]]


def seat_points(outcome: Any, seat: int, seats: int, teams: bool) -> float:
    """1 a win, ½ a draw (or a game stopped at :data:`MAX_PLIES`), 0 a loss; among
    rivals each on their own, the share of the others ranked below (ties half)."""
    from engine.search import place_share
    if outcome is None:
        return 0.5
    if seats > 2 and not teams:
        return place_share(outcome.ranking, seat, seats - 1)
    return 1.0 if seat in outcome.winners else 0.5 if not outcome.winners else 0.0


def versus(key: str, options: dict[str, object], new: Side, old: Side, *, games: int,
           level: int, seconds: float, out: IO[str], first: int = 0,
           new_seconds: float | None = None) -> float:
    """The new engine's points over ``games`` games of one configuration, the first
    of them game ``first`` (its opening and deal: a run that goes on from another)."""
    import rules
    v = rules.variant(key)
    p0 = v.start(**options)
    seats = p0.seat_count
    teams = any(len(t) > 1 for t in p0.teams)
    label = key + "".join(f" {k}={o}" for k, o in options.items())
    points = 0.0
    ends: dict[str, int] = {}
    started = time.perf_counter()
    new.seconds.clear()
    old.seconds.clear()
    for g in range(first, first + games):
        seating = seatings(p0.teams, seats, new, old)[g % 2]
        final = play(key, options, seating, game=g, level=level, seconds=seconds,
                     new_seconds=new_seconds)
        outcome = final.outcome()
        reason = outcome.reason if outcome is not None else "ply-limit"
        ends[reason] = ends.get(reason, 0) + 1
        mine = [s for s in range(seats) if seating[s] is new]
        points += sum(seat_points(outcome, s, seats, teams) for s in mine) / len(mine)
        print(f"  {label}: game {g + 1 - first}/{games}, new {points:g} ({reason})",
              file=sys.stderr, flush=True)

    def p95(values: list[float]) -> float:
        values = sorted(values)
        return values[min(len(values) - 1, int(0.95 * len(values)))] if values else 0.0

    span = f" (games {first + 1}-{first + games})" if first else ""
    given = "" if new_seconds is None else f" (new at {new_seconds * 1000:.0f} ms/move)"
    print(f"== {label}: new L{level} {points:g}/{games}{span} ({100 * points / games:.1f} %) "
          f"against old L{level} at {seconds * 1000:.0f} ms/move{given}; ends "
          + ", ".join(f"{r} {n}" for r, n in sorted(ends.items()))
          + f"; s/move p95 new {p95(new.seconds):.2f}, old {p95(old.seconds):.2f}; "
          f"{time.perf_counter() - started:.0f} s", file=out, flush=True)
    return points


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--serve", metavar="ROOT", help=argparse.SUPPRESS)
    parser.add_argument("--against", metavar="REV", help="the old engine's git revision")
    parser.add_argument("--build-old", action="store_true",
                        help="compile REV's core first (scripts/build_core)")
    parser.add_argument("--config", action="append", default=[],
                        help="a game key or 'key opt=value ...' label (repeat)")
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--first", type=int, default=0, metavar="N",
                        help="start at game N (an even number: openings go in pairs), "
                             "to go on from a run of N games with new openings")
    parser.add_argument("--movetime", type=int, default=200, metavar="MS")
    parser.add_argument("--new-movetime", type=int, metavar="MS",
                        help="the new engine's time per move when not --movetime's: what "
                             "more time is worth (run from REV's own tree, with this "
                             "script, to measure an engine against itself)")
    parser.add_argument("--level", type=int, default=8)
    parser.add_argument("--cpu-time", action="store_true",
                        help="each side's clock is its process's CPU time")
    parser.add_argument("--time-bound", action="store_true",
                        help="no node floors: both sides search by time alone")
    args = parser.parse_args()
    if args.first < 0 or args.first % 2:
        parser.error("--first takes an even number of games (openings go in pairs)")
    if args.serve:
        serve(args.serve, cpu_time=args.cpu_time, time_bound=args.time_bound)
        return
    flags = tuple(f for f, on in (("--cpu-time", args.cpu_time),
                                  ("--time-bound", args.time_bound)) if on)
    if not args.against:
        parser.error("--against REV is needed")
    sys.path.insert(0, str(HERE))
    with revision_tree(args.against, "bench-versus-") as old_root:
        if args.build_old:
            subprocess.run([sys.executable, str(old_root / "scripts" / "build_core.py")],
                           check=True)
        new, old = Side("new", HERE, flags), Side("old", old_root, flags)
        timing = f"{args.movetime} ms a move" if args.new_movetime is None \
            else f"{args.new_movetime} ms a move new, {args.movetime} ms old"
        print(f"new: {HERE} ({new.core}); old: {args.against} ({old.core}); "
              f"{timing}" + "".join(f" {f}" for f in flags), flush=True)
        try:
            for key, opts, _label in chosen_configs(args.config):
                versus(key, opts, new, old, games=args.games, level=args.level,
                       seconds=args.movetime / 1000, out=sys.stdout, first=args.first,
                       new_seconds=None if args.new_movetime is None
                       else args.new_movetime / 1000)
        finally:
            new.close()
            old.close()

if __name__ == "__main__":
    main()
