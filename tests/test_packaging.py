"""Issue 38: ``scripts/run`` printed setuptools' deprecation warning for the license
four times. The licence is an SPDX string, which needs setuptools 77 or newer."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_the_license_is_an_spdx_string_and_setuptools_can_read_it() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert project["project"]["license"] == "MIT"
    [setuptools] = [r for r in project["build-system"]["requires"]
                    if r.startswith("setuptools")]
    found = re.fullmatch(r"setuptools>=(\d+)(\.\d+)*", setuptools)
    assert found is not None and int(found[1]) >= 77, setuptools
