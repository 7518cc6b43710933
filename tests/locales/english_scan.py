"""Finding English words left in ``bot/`` outside the catalogues: string literals that
read like a sentence and are not marked with ``_()``/``_n()``, not a docstring, not a log
line, not a command's description (the ``Translator`` carries those) and not on the
explicit allow-list of ``tests/locales/test_no_english_left.py``."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

WORDS = re.compile(r"[A-Za-z]{2,}[,;:.!?']* +[A-Za-z]{2,}")
"""Two words in a row: what a sentence for people has (identifiers and notation do not)."""

LOG_METHODS = frozenset({"debug", "info", "warning", "error", "exception", "critical",
                         "log", "log_once"})
MARKERS = frozenset({"_", "_n"})
DECORATORS = frozenset({"command", "describe", "Choice", "ContextMenu", "GroupCog", "Group",
                        "add_parser", "add_argument", "add_subparsers", "choices"})
"""Calls whose strings are command-tree texts (names, descriptions, choices: translated by
``bot.discordapp.translator``) or the operator's ``--help``."""


@dataclass(frozen=True)
class Literal:
    path: str
    line: int
    text: str


def _call_name(node: ast.Call) -> str:
    f = node.func
    if isinstance(f, ast.Name):
        return f.id
    if isinstance(f, ast.Attribute):
        return f.attr
    return ""


def english_literals(root: Path, base: Path) -> Iterator[Literal]:
    """Every sentence-like literal under ``root`` not exempt as described above."""
    for path in sorted(root.rglob("*.py")):
        tree = ast.parse(path.read_text("utf-8"))
        exempt: set[int] = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.Module | ast.FunctionDef | ast.AsyncFunctionDef
                          | ast.ClassDef) and node.body:
                first = node.body[0]
                if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                    exempt.add(id(first.value))
            if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant):
                exempt.add(id(node.value))  # attribute docstrings
            if isinstance(node, ast.ClassDef):  # GroupCog(group_description=...)
                for k in node.keywords:
                    for inner in ast.walk(k.value):
                        exempt.add(id(inner))
            if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name) \
                    and node.value.id == "Literal":  # a command's choices
                for inner in ast.walk(node.slice):
                    exempt.add(id(inner))
            if isinstance(node, ast.Call):
                name = _call_name(node)
                if name in MARKERS or name in LOG_METHODS or name in DECORATORS:
                    for arg in [*node.args, *(k.value for k in node.keywords)]:
                        for inner in ast.walk(arg):
                            exempt.add(id(inner))
        for node in ast.walk(tree):
            if id(node) in exempt:
                continue
            if isinstance(node, ast.JoinedStr):
                for inner in ast.walk(node):
                    exempt.add(id(inner))
                text = "".join(v.value if isinstance(v, ast.Constant) else "{}"
                               for v in node.values)
            elif isinstance(node, ast.Constant) and isinstance(node.value, str):
                text = node.value
            else:
                continue
            if WORDS.search(text):
                yield Literal(str(path.relative_to(base)), node.lineno, text)
