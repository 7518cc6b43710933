"""What the benches that set two engines side by side share (``bench_versus.py``,
``bench_same_moves.py``): a git revision checked out beside this tree, an engine's
process that imports one tree's engine and rules and answers JSON lines, and the
configurations named on the command line."""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parents[1]


@contextmanager
def revision_tree(rev: str, prefix: str) -> Iterator[Path]:
    """Revision ``rev`` of this repository in a temporary git worktree."""
    with tempfile.TemporaryDirectory(prefix=prefix) as tmp:
        root = Path(tmp) / "old"
        subprocess.run(["git", "-C", str(HERE), "worktree", "add", "--detach", "--quiet",
                        str(root), rev], check=True)
        try:
            yield root
        finally:
            subprocess.run(["git", "-C", str(HERE), "worktree", "remove", "--force",
                            str(root)], check=False)


class EngineProcess:
    """``script --serve ROOT [flags]`` in a process of its own: it imports ROOT's engine
    and rules, says hello (a JSON line naming the engine's file, checked to be ROOT's),
    then answers one JSON line per question."""

    def __init__(self, name: str, script: str, root: Path, flags: tuple[str, ...] = ()) -> None:
        self.name = name
        self.process = subprocess.Popen(
            [sys.executable, str(Path(script).resolve()), "--serve", str(root), *flags],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        self.hello: dict[str, Any] = json.loads(self._read())
        if not Path(self.hello["engine"]).resolve().is_relative_to(root.resolve()):
            raise SystemExit(f"{name} imported {self.hello['engine']}, not {root}")

    def _read(self) -> str:
        assert self.process.stdout is not None
        line = self.process.stdout.readline()
        if not line:
            raise SystemExit(f"the {self.name} engine's process ended")
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


def chosen_configs(selected: list[str]) -> Iterator[tuple[str, dict[str, object], str]]:
    """Every configuration (game key, options, label ``key opt=value ...``), or those
    named in ``selected`` by key or label."""
    import rules
    for key, v in rules.VARIANTS.items():
        for opts in v.option_sets():
            label = key + "".join(f" {k}={o}" for k, o in opts.items())
            if not selected or any(c in (key, label) for c in selected):
                yield key, opts, label
