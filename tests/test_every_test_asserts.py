"""Every test checks something: each test function asserts, expects an exception
(``pytest.raises``, ``pytest.fail``, ``pytest.warns``), or calls a function of the test
suite that does (helpers, found by name, followed through other helpers).

A test that only runs code passes whatever the code does; this scan finds one the day it
is written.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

TESTS = Path(__file__).resolve().parent
CHECKS = {"raises", "fail", "warns"}
"""``pytest.<check>``: a test that uses one expects (or declares) an outcome."""

Function = ast.FunctionDef | ast.AsyncFunctionDef


def functions(tree: ast.AST) -> Iterator[Function]:
    yield from (node for node in ast.walk(tree)
                if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef))


def checks_itself(function: Function) -> bool:
    return any(isinstance(node, ast.Assert | ast.Raise)
               or (isinstance(node, ast.Attribute) and node.attr in CHECKS
                   and isinstance(node.value, ast.Name) and node.value.id == "pytest")
               for node in ast.walk(function))


def names_called(function: Function) -> set[str]:
    called = set()
    for node in ast.walk(function):
        if isinstance(node, ast.Call):
            if isinstance(node.func, ast.Name):
                called.add(node.func.id)
            elif isinstance(node.func, ast.Attribute):
                called.add(node.func.attr)
    return called


def unchecked_tests(sources: dict[str, str]) -> list[str]:
    """``file:line name`` of each test function (``test*``) in ``sources`` (name -> text)
    that neither checks anything itself nor calls a suite function that does."""
    trees = {name: ast.parse(text) for name, text in sources.items()}
    by_name: dict[str, list[Function]] = {}
    for tree in trees.values():
        for function in functions(tree):
            by_name.setdefault(function.name, []).append(function)
    known: dict[str, bool] = {}

    def checks(name: str, seen: frozenset[str]) -> bool:
        if name in known:
            return known[name]
        if name in seen:
            return False
        found = any(checks_itself(f) or any(checks(c, seen | {name})
                                            for c in names_called(f) if c in by_name)
                    for f in by_name.get(name, []))
        known[name] = found
        return found

    return [f"{source}:{function.lineno} {function.name}"
            for source, tree in trees.items() for function in functions(tree)
            if function.name.startswith("test") and not checks_itself(function)
            and not any(checks(c, frozenset({function.name}))
                        for c in names_called(function) if c in by_name)]


def test_every_test_in_the_suite_checks_something() -> None:
    sources = {str(path.relative_to(TESTS)): path.read_text(encoding="utf-8")
               for path in sorted(TESTS.rglob("*.py"))}
    assert unchecked_tests(sources) == []


def test_the_scan_finds_a_test_that_only_runs_code() -> None:
    sources = {"t.py": (
        "import pytest\n"
        "def helper(x):\n"
        "    assert x\n"
        "def outer(x):\n"
        "    helper(x)\n"
        "def test_asserts(): assert 1\n"
        "def test_raises():\n"
        "    with pytest.raises(ValueError): int('x')\n"
        "def test_through_helpers(): outer(1)\n"
        "def test_runs_only(): outer\n"
        "async def test_awaits_only(): await something()\n")}
    assert unchecked_tests(sources) == [
        "t.py:10 test_runs_only", "t.py:11 test_awaits_only"]
