"""One door to storage (issue 37): the adapters reach storage only through the core. Past
the wiring (``bot/__main__.py``, ``bot/discordapp/app.py`` and ``cli.py``,
``bot/console/app.py``), the ``tablero db`` operations (``bot/operations.py``) and the
name book (``bot/names.py``, handed the repository by the wiring), no adapter module
names the repository: the Discord notifier and its routes read through the core's
``DeliveryFacts``, everything else through ``MatchService``."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
WIRING = {"bot/__main__.py", "bot/discordapp/app.py", "bot/discordapp/cli.py",
          "bot/console/app.py", "bot/operations.py", "bot/names.py"}
"""Where storage is opened and handed to the parts (the wiring), and the command-line
operations on a database file (``tablero db ...``)."""


def _mentions(tree: ast.AST) -> list[str]:
    return [f"{node.lineno}: {ast.unparse(node)}" for node in ast.walk(tree)
            if (isinstance(node, ast.Attribute) and node.attr == "repository")
            or (isinstance(node, ast.Name) and node.id == "Repository")
            or (isinstance(node, ast.alias) and node.name == "Repository")]


def test_no_adapter_reaches_storage_past_the_wiring() -> None:
    found = [f"{path.relative_to(ROOT)}:{line}"
             for path in sorted((ROOT / "bot").rglob("*.py"))
             if str(path.relative_to(ROOT)) not in WIRING
             for line in _mentions(ast.parse(path.read_text("utf-8")))]
    assert found == []


def test_the_scan_sees_a_repository() -> None:
    assert _mentions(ast.parse("x = self.repository.load_match(1)"))
    assert _mentions(ast.parse("from service import Repository"))
    assert not _mentions(ast.parse("x = self.facts.user_locale(1)"))
