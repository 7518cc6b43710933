"""The rules core's modules import one another at the top of the file only.

The layers inside ``rules`` (games, their boards, the lattice, notation, core, messages)
are an import-linter contract in pyproject.toml, and no circle is allowed between them.
An import hidden inside a function (or behind an ``if``) is how such a circle used to
live unseen by a reader: ``core`` reached up into ``registry`` and ``notation`` from
function bodies. This scan keeps every import of a sibling module where it is seen.
"""

from __future__ import annotations

import ast
from pathlib import Path

RULES = Path(__file__).resolve().parents[2] / "rules"


def sibling_imports_out_of_place(source: str) -> list[tuple[int, str]]:
    """(line, statement) of every import of ``rules`` or ``rules.*`` (or a relative one)
    that is not a statement of the module's own body."""
    tree = ast.parse(source)
    at_top = {id(node) for node in tree.body}
    found = []
    for node in ast.walk(tree):
        if id(node) in at_top:
            continue
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            names = ["." if node.level else (node.module or "")]
        else:
            continue
        if any(name == "." or name == "rules" or name.startswith("rules.") for name in names):
            found.append((node.lineno, ast.unparse(node)))
    return found


def test_the_rules_modules_import_each_other_at_the_top_only() -> None:
    hidden = {path.name: found for path in sorted(RULES.glob("*.py"))
              if (found := sibling_imports_out_of_place(path.read_text(encoding="utf-8")))}
    assert hidden == {}


def test_the_scan_sees_imports_in_functions_and_conditions() -> None:
    source = (
        "from rules.core import detail\n"
        "import itertools\n"
        "def f():\n"
        "    from rules.registry import VARIANTS\n"
        "    import json\n"
        "if True:\n"
        "    from . import notation\n"
        "class C:\n"
        "    import rules.messages\n")
    assert sibling_imports_out_of_place(source) == [
        (4, "from rules.registry import VARIANTS"), (7, "from . import notation"),
        (9, "import rules.messages")]
