"""Enums are compared as enums (issue 37): ``m.status is MatchStatus.ACTIVE``, never
``m.status.value == "active"`` (a typo in the string would compare false forever, and
mypy cannot see it). A scan of the product packages fails on a ``.status.value`` (or any
other known enum field's ``.value``) compared with a string."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("rules", "engine", "render", "service", "storage", "bot", "locales")
ENUM_FIELDS = {"status", "schedule", "format", "seating", "route"}
"""Attributes that hold one of the service's enums (MatchStatus, TournamentStatus,
Schedule, TournamentFormat...)."""


def _string_compared_enums(tree: ast.AST) -> list[str]:
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Compare):
            continue
        sides = [node.left, *node.comparators]
        has_enum_value = any(isinstance(s, ast.Attribute) and s.attr == "value"
                             and isinstance(s.value, ast.Attribute)
                             and s.value.attr in ENUM_FIELDS for s in sides)
        has_text = any((isinstance(s, ast.Constant) and isinstance(s.value, str))
                       or (isinstance(s, ast.Tuple | ast.List | ast.Set)
                       and any(isinstance(e, ast.Constant) for e in s.elts)) for s in sides)
        if has_enum_value and has_text:
            found.append(f"{node.lineno}: {ast.unparse(node)}")
    return found


def test_no_enum_is_compared_by_its_text() -> None:
    bad = [f"{path.relative_to(ROOT)}:{line}"
           for package in PACKAGES for path in sorted((ROOT / package).rglob("*.py"))
           for line in _string_compared_enums(ast.parse(path.read_text("utf-8")))]
    assert bad == []


def test_the_scan_sees_a_text_comparison() -> None:
    assert _string_compared_enums(ast.parse('m.status.value == "active"'))
    assert _string_compared_enums(ast.parse('m.status.value in ("finished", "aborted")'))
    assert not _string_compared_enums(ast.parse("m.status is MatchStatus.ACTIVE"))
