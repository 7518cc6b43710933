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
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parents[1]


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


class Side:
    def __init__(self, root: Path) -> None:
        self.process = subprocess.Popen(
            [sys.executable, str(Path(__file__).resolve()), "--serve", str(root)],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        hello = json.loads(self._read())
        if not Path(hello["engine"]).resolve().is_relative_to(root.resolve()):
            raise SystemExit(f"{root}'s side imported {hello['engine']}")

    def _read(self) -> str:
        assert self.process.stdout is not None
        line = self.process.stdout.readline()
        if not line:
            raise SystemExit("an engine's process ended")
        return line

    def ask(self, question: dict[str, Any]) -> dict[str, Any]:
        assert self.process.stdin is not None
        self.process.stdin.write(json.dumps(question) + "\n")
        self.process.stdin.flush()
        answer: dict[str, Any] = json.loads(self._read())
        return answer

    def close(self) -> None:
        if self.process.stdin is not None:
            self.process.stdin.close()
        self.process.wait(timeout=30)


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
    import rules
    with tempfile.TemporaryDirectory(prefix="bench-same-") as tmp:
        old_root = Path(tmp) / "old"
        subprocess.run(["git", "-C", str(HERE), "worktree", "add", "--detach", "--quiet",
                        str(old_root), args.against], check=True)
        new, old = Side(HERE), Side(old_root)
        print(f"new: {HERE}; old: {args.against}; levels {args.levels} on their floors "
              "(1 ms a move)", flush=True)
        try:
            for key, v in rules.VARIANTS.items():
                for opts in v.option_sets():
                    label = key + "".join(f" {k}={o}" for k, o in opts.items())
                    if args.config and not any(c in (key, label) for c in args.config):
                        continue
                    moves = game(key, opts, args.plies)
                    cuts = range(0, len(moves) + 1, args.every)
                    for level in args.levels:
                        same = 0
                        differ: list[str] = []
                        for cut in cuts:
                            question = {"game": key, "options": opts,
                                        "moves": moves[:cut], "level": level, "seed": cut}
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
            subprocess.run(["git", "-C", str(HERE), "worktree", "remove", "--force",
                            str(old_root)], check=False)


if __name__ == "__main__":
    main()
