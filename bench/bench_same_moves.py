"""Whether two engines' levels choose the same moves where the strength ladder measures
them: levels 7 and 8 on their node floors (``bench/bench_ladder.py`` plays them at 1 ms
a move with ``floors``, so they search exactly their floors' nodes), and any level's
node-bound search.

Per configuration, positions of one seeded game (level 3 against level 3 from the start,
every ``--every`` plies up to ``--plies``), each asked of this tree's engine and of git
revision ``--against``'s (a temporary worktree), each side in a process of its own
(``--serve ROOT``); per level it prints how many positions got the same move, the same
score and the same node count, and any that differ. Where every search agrees, the
ladder's games replay move for move, and its table measured on the old code holds for
the new.

Run with ``nice -n 10 .venv/bin/python bench/bench_same_moves.py --against REV
[--levels 7 8] [--config LABEL ...]``.
"""

from __future__ import annotations

import argparse
import inspect
import json
import sys
from pathlib import Path
from typing import Any

from engine_processes import HERE, EngineProcess, chosen_configs, revision_tree


def serve(root: str) -> None:
    """Answer ``{"game", "options", "moves", "level", "seed"}`` lines with the move,
    score and nodes of ROOT's engine at 1 ms a move on its floors."""
    sys.path.insert(0, str(Path(root).resolve()))
    import engine
    import rules
    # the code before issue 39 always searched its floors; later code does with ``floors``
    floors = "floors" in inspect.signature(engine.choose_move).parameters
    print(json.dumps({"engine": engine.__file__}), flush=True)
    for line in sys.stdin:
        ask = json.loads(line)
        v = rules.variant(ask["game"])
        p = v.start(**ask["options"])
        for seat, text in ask["moves"]:
            p = p.play(v.parse_arrangement(p, seat, text) if p.in_setup
                       else v.parse_move(p, text))
        extra: dict[str, Any] = {"floors": True} if floors else {}
        choice = engine.choose_move(p, ask["level"], seed=ask["seed"], seconds=0.001,
                                    seat=min(p.to_move), fairy=False, **extra)
        print(json.dumps({"move": choice.text, "score": choice.score,
                          "nodes": choice.nodes}), flush=True)


def game(key: str, options: dict[str, object], plies: int) -> list[tuple[int, str]]:
    """The moves of a seeded level-3 game (this tree's engine)."""
    import engine
    import rules
    v = rules.variant(key)
    p = v.start(**options)
    moves: list[tuple[int, str]] = []
    while p.outcome() is None and len(moves) < plies:
        seat = min(p.to_move)
        choice = engine.choose_move(p, 3, seed=len(moves), seat=seat, fairy=False)
        moves.append((seat, choice.text))
        p = p.play(choice.move)
    return moves


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--serve", metavar="ROOT", help=argparse.SUPPRESS)
    parser.add_argument("--against", metavar="REV")
    parser.add_argument("--levels", type=int, nargs="+", default=[7, 8])
    parser.add_argument("--config", action="append", default=[])
    parser.add_argument("--plies", type=int, default=40)
    parser.add_argument("--every", type=int, default=8)
    args = parser.parse_args()
    if args.serve:
        serve(args.serve)
        return
    if not args.against:
        parser.error("--against REV is needed")
    sys.path.insert(0, str(HERE))
    with revision_tree(args.against, "bench-same-") as old_root:
        new = EngineProcess("new", __file__, HERE)
        old = EngineProcess("old", __file__, old_root)
        print(f"new: {HERE}; old: {args.against}; levels {args.levels} on their floors "
              "(1 ms a move)", flush=True)
        try:
            for key, opts, label in chosen_configs(args.config):
                moves = game(key, opts, args.plies)
                cuts = range(0, len(moves) + 1, args.every)
                for level in args.levels:
                    same = 0
                    differ: list[str] = []
                    for cut in cuts:
                        question = {"game": key, "options": opts, "moves": moves[:cut],
                                    "level": level, "seed": cut}
                        a, b = new.ask(question), old.ask(question)
                        if a == b:
                            same += 1
                        else:
                            differ.append(f"ply {cut}: new {a} old {b}")
                    print(f"== {label} L{level}: {same}/{len(cuts)} the same move, "
                          "score and nodes" + "".join(f"\n   {d}" for d in differ),
                          flush=True)
        finally:
            new.close()
            old.close()

if __name__ == "__main__":
    main()
