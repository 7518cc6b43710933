"""Which implementation of the hot modules runs: the compiled core or pure Python.

The modules in :data:`MODULES` (xiangqi's, Querni's, damas' and the Alquerque boards'
move generators, the engine's search, its boards (:mod:`engine.board`) and Zobrist
keys, the xiangqi, Querni, damas and Alquerque models with their boards, and Alquerque
grande's board) are plain,
``mypy --strict`` Python. ``scripts/build_core`` compiles the same files with mypyc (it
needs a C compiler; ``scripts/bootstrap`` runs it when there is one) into
``build/core/``, with a manifest of the sources' hashes. The compiled modules are used
when they were built from the sources as they are now, for this Python, unless
``TABLERO_ENGINE_CORE=python``; otherwise the pure-Python modules run, which play the
same moves (same code; the reproducible-play fixture pins both). :func:`running` says
which one runs (``tablero --version``, the start-up log).

Each package of :data:`MODULES` calls :func:`extend` first thing: the compiled
directory goes in front of the package's path, so importing a listed module finds its
compiled build first.

>>> running() in ("compiled (mypyc)", "pure Python")
True
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
import sysconfig
from functools import cache
from pathlib import Path

MODULES = ("rules.xiangqi_board", "rules.querni_board", "rules.damas_board",
           "rules.lattice_moves", "engine.zobrist", "engine.board", "engine.search",
           "engine.models.xiangqi", "engine.models.querni", "engine.models.damas",
           "engine.models.alquerque", "engine.models.grande_board")
"""The modules the compiled core holds. Their classes are not subclassed elsewhere (an
interpreted class cannot inherit from a compiled one: Alquerque's ``rules.lattice``
stays out for that; every board of :class:`engine.board.SearchBoard` is in one of
them)."""
ROOT = Path(__file__).resolve().parents[1]
"""The repository (the packages' parent)."""
CORE = ROOT / "build" / "core"
"""Where ``scripts/build_core`` puts the compiled modules and their manifest."""
MANIFEST = CORE / "manifest.json"
RUNTIME = CORE / "lib"
"""mypyc's shared runtime module, a top-level one: this folder goes on ``sys.path`` (not
:data:`CORE`, whose package folders would shadow the packages as namespace packages)."""
ENVIRONMENT = "TABLERO_ENGINE_CORE"
"""``python``: run the pure-Python modules even when the compiled core is built."""


def source(module: str) -> Path:
    """The Python source of ``module`` (one of :data:`MODULES`)."""
    return ROOT.joinpath(*module.split(".")).with_suffix(".py")


def fingerprint() -> dict[str, str]:
    """What the compiled core must have been built from: this Python's cache tag and the
    hash of every listed module's source."""
    sums = {module: hashlib.sha256(source(module).read_bytes()).hexdigest()
            for module in MODULES}
    return {"python": sys.implementation.cache_tag, **sums}


@cache
def compiled() -> bool:
    """Whether the compiled core is to be used: :func:`built`, and not turned off."""
    if os.environ.get(ENVIRONMENT, "").strip().lower() == "python":
        return False
    return built()


def built() -> bool:
    """Whether the compiled core is built, for this Python, from the sources as they are
    now (a stale build would run old code), with every module in place."""
    try:
        made = json.loads(MANIFEST.read_text())
    except (OSError, ValueError):
        return False
    suffix = sysconfig.get_config_var("EXT_SUFFIX")
    return isinstance(made, dict) and made == fingerprint() \
        and any(RUNTIME.glob(f"*__mypyc{suffix}")) \
        and all(CORE.joinpath(*m.split(".")).with_suffix(suffix).is_file() for m in MODULES)


def extend(package: str, path: list[str]) -> None:
    """Put the compiled modules of ``package`` first on its ``path`` (its ``__path__``),
    when :func:`compiled`; mypyc's shared runtime module goes on ``sys.path``."""
    if not compiled():
        return
    folder = CORE.joinpath(*package.split("."))
    if folder.is_dir() and str(folder) not in path:
        path.insert(0, str(folder))
    if str(RUNTIME) not in sys.path:
        sys.path.append(str(RUNTIME))


def running() -> str:
    """``compiled (mypyc)`` when every listed module that is loaded is a compiled one
    (and at least one is), else ``pure Python``."""
    loaded = [sys.modules[m] for m in MODULES if m in sys.modules]
    native = [getattr(m, "__file__", "") or "" for m in loaded]
    if native and all(not name.endswith(".py") for name in native):
        return "compiled (mypyc)"
    return "pure Python"
