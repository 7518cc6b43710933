"""Every docstring example in the product packages runs here, and holds.

The modules are found by walking the packages, not listed, so a new module's examples run
without anyone adding it here. One test per module that carries examples; a failing
example is reported with what it printed.
"""

from __future__ import annotations

import doctest
import importlib
import io
import pkgutil
from types import ModuleType

import pytest

PACKAGES = ("rules", "engine", "render", "service", "storage", "bot", "locales")


def product_modules() -> list[str]:
    """Every module of the product packages (the packages themselves included)."""
    def unreadable(name: str) -> None:  # a package the walk cannot import: say which
        raise ImportError(f"cannot walk into {name}")

    names: list[str] = []
    for package in PACKAGES:
        top = importlib.import_module(package)
        names.append(package)
        names += [found.name for found in
                  pkgutil.walk_packages(top.__path__, f"{package}.", onerror=unreadable)]
    return sorted(names)


def examples_of(module: ModuleType) -> list[doctest.DocTest]:
    """The module's own docstring examples (not those of what it imports)."""
    return [test for test in doctest.DocTestFinder().find(module, module.__name__)
            if test.examples]


MODULES = product_modules()
WITH_EXAMPLES = [name for name in MODULES if examples_of(importlib.import_module(name))]


def test_the_walk_finds_every_package_and_the_examples_are_many() -> None:
    """The walk reaches the packages' depths (a broken walk would run nothing)."""
    assert {"rules.core", "service.tournaments.pairing", "locales.results",
            "render.table", "engine.search"} <= set(MODULES)
    assert len(WITH_EXAMPLES) >= 55


@pytest.mark.parametrize("name", WITH_EXAMPLES)
def test_the_docstring_examples_hold(name: str) -> None:
    module = importlib.import_module(name)
    runner = doctest.DocTestRunner()  # no lenient flags: an example shows exactly what it prints
    report = io.StringIO()
    for test in examples_of(module):
        runner.run(test, out=report.write)
    result = runner.summarize(verbose=False)
    assert result.attempted > 0
    assert result.failed == 0, report.getvalue()
