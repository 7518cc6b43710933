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


def functions(tree: ast.Module) -> Iterator[Function]:
    """The module's functions and its classes' methods (nested ones are read as part of
    the function around them)."""
    for node in tree.body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            yield node
        elif isinstance(node, ast.ClassDef):
            yield from (item for item in node.body
                        if isinstance(item, ast.FunctionDef | ast.AsyncFunctionDef))


def read(function: Function) -> tuple[bool, set[str]]:
    """Whether ``function`` checks something itself, and the names it calls."""
    checks, called = False, set()
    for node in ast.walk(function):
        if isinstance(node, ast.Assert | ast.Raise) or (
                isinstance(node, ast.Attribute) and node.attr in CHECKS
                and isinstance(node.value, ast.Name) and node.value.id == "pytest"):
            checks = True
        elif isinstance(node, ast.Call):
            if isinstance(node.func, ast.Name):
                called.add(node.func.id)
            elif isinstance(node.func, ast.Attribute):
                called.add(node.func.attr)
    return checks, called


def unchecked_tests(sources: dict[str, str]) -> list[str]:
    """``file:line name`` of each test function (``test*``) in ``sources`` (name -> text)
    that neither checks anything itself nor calls a suite function that does."""
    found = [(source, function, *read(function))
             for source, text in sources.items() for function in functions(ast.parse(text))]
    by_name: dict[str, list[tuple[bool, set[str]]]] = {}
    for _, function, checks, called in found:
        by_name.setdefault(function.name, []).append((checks, called))
    known: dict[str, bool] = {}

    def through(called: set[str], seen: frozenset[str]) -> bool:
        return any(name in by_name and checked(name, seen) for name in called)

    def checked(name: str, seen: frozenset[str]) -> bool:
        if name in known:
            return known[name]
        if name in seen:
            return False
        result = any(checks or through(called, seen | {name})
                     for checks, called in by_name[name])
        known[name] = result
        return result

    return [f"{source}:{function.lineno} {function.name}"
            for source, function, checks, called in found
            if function.name.startswith("test") and not checks
            and not through(called, frozenset({function.name}))]


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
