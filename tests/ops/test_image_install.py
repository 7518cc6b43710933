"""Issue 41: the image's install step, run the way the Dockerfile runs it: its build
context is only what its COPY lines bring (no .git, no tests), and ``pip install .``
builds a wheel from that. The wheel must hold everything the installed bot reads at run
time: the catalogues of every language, the fonts, the web's static files, the probe of
the HEALTHCHECK, and the ``tablero`` command. (No Docker daemon here: this is the
Dockerfile's step without the container around it.)"""

from __future__ import annotations

import configparser
import re
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def docker_context(into: Path) -> Path:
    """The files the Dockerfile copies, laid out as in the image's /opt/tablero."""
    into.mkdir()
    text = (ROOT / "Dockerfile").read_text(encoding="utf-8")
    for sources, target in ((c.split()[1:-1], c.split()[-1])
                            for c in re.findall(r"^COPY [^\n]+", text, re.MULTILINE)):
        for source in sources:
            found = ROOT / source
            dest = into / source if target in ("./", ".") else into / target
            if found.is_dir():
                shutil.copytree(found, dest, ignore=shutil.ignore_patterns(
                    "__pycache__", "*.so", "*.pyc"))
            else:
                shutil.copy(found, dest)
    return into


def test_the_image_install_step_builds_a_complete_wheel(tmp_path: Path) -> None:
    context = docker_context(tmp_path / "context")
    assert not (context / "tests").exists() and not (context / ".git").exists()
    built = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--quiet", "--wheel-dir",
         str(tmp_path / "wheels"), str(context)],
        capture_output=True, text=True, timeout=600, check=False)
    assert built.returncode == 0, built.stderr[-2000:]
    (wheel,) = (tmp_path / "wheels").glob("tablero-*.whl")
    with zipfile.ZipFile(wheel) as archive:
        names = set(archive.namelist())
        entry_points = next(n for n in names if n.endswith("entry_points.txt"))
        scripts = configparser.ConfigParser()
        scripts.read_string(archive.read(entry_points).decode())
    catalogues = {p.relative_to(ROOT).as_posix()
                  for p in (ROOT / "locales").glob("*/LC_MESSAGES/tablero.po")}
    assert len(catalogues) >= 8 and catalogues <= names, catalogues - names
    assert {"render/fonts/TableroSans-Regular.otf", "bot/web/static/match.js",
            "bot/web/static/TableroSans-zh-CN.woff2", "bot/web/static/TableroSans-zh-TW.woff2",
            "bot/ops/probe.py", "bot/ops/server.py", "locales/tablero.pot"} <= names
    assert scripts["console_scripts"]["tablero"] == "bot.__main__:main"
