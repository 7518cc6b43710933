"""No product file over 900 lines (issue 37): a file that long holds more than one room's
worth of the house; split it by what its parts are about before it grows further."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("rules", "engine", "locales", "render", "service", "storage", "bot")
MAX_LINES = 900


def test_no_product_file_is_over_900_lines() -> None:
    sizes = {path.relative_to(ROOT).as_posix(): len(path.read_text("utf-8").splitlines())
             for package in PACKAGES for path in (ROOT / package).rglob("*.py")}
    assert len(sizes) > 150  # the scan found the house
    assert {name: n for name, n in sizes.items() if n > MAX_LINES} == {}
