"""Build the compiled core (:mod:`rules.native`): the listed modules through mypyc.

``scripts/build_core`` runs it; ``scripts/bootstrap`` too, with ``--if-possible``: where
there is no C compiler or mypyc fails, it says so and the pure-Python modules run (same
moves, slower). ``--clean`` removes the build. The modules are compiled from a copy of
the packages in ``build/core-src`` and the extension modules go to ``build/core``, with a
manifest of what they were built from (a build older than the sources is not used).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

os.environ["TABLERO_ENGINE_CORE"] = "python"  # the build itself runs on pure Python
from rules import native  # noqa: E402  (from this tree, whatever is installed)

SOURCES = ROOT / "build" / "core-src"


def build() -> str | None:
    """Compile; None when done, else why not."""
    if shutil.which(sysconfig.get_config_var("CC").split()[0] or "cc") is None:
        return "no C compiler"
    shutil.rmtree(SOURCES, ignore_errors=True)
    for package in ("rules", "engine"):
        shutil.copytree(ROOT / package, SOURCES / package,
                        ignore=shutil.ignore_patterns("__pycache__", "*.so"))
    wanted = native.fingerprint()
    files = [str(native.source(m).relative_to(ROOT)) for m in native.MODULES]
    done = subprocess.run([sys.executable, "-m", "mypyc", *files], cwd=SOURCES,
                          capture_output=True, text=True, check=False)
    if done.returncode:
        return "mypyc failed:\n" + (done.stdout + done.stderr)[-2000:]
    shutil.rmtree(native.CORE, ignore_errors=True)
    suffix = sysconfig.get_config_var("EXT_SUFFIX")
    for module in native.MODULES:
        built = SOURCES.joinpath(*module.split(".")).with_suffix(suffix)
        target = native.CORE.joinpath(*module.split(".")).with_suffix(suffix)
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(built, target)
    native.RUNTIME.mkdir(parents=True, exist_ok=True)
    for shared in SOURCES.glob(f"*__mypyc{suffix}"):
        shutil.copy2(shared, native.RUNTIME / shared.name)
    native.MANIFEST.write_text(json.dumps(wanted, indent=1) + "\n")
    return None


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--if-possible", action="store_true",
                        help="where it cannot be built, say so and succeed (pure Python)")
    parser.add_argument("--force", action="store_true", help="rebuild even when up to date")
    parser.add_argument("--clean", action="store_true", help="remove the compiled core")
    args = parser.parse_args()
    if args.clean:
        shutil.rmtree(native.CORE, ignore_errors=True)
        shutil.rmtree(SOURCES, ignore_errors=True)
        print("compiled core removed: the pure-Python modules run")
        return 0
    if not args.force and native.built():
        print("compiled core up to date")
        return 0
    why = build()
    if why is None:
        print(f"compiled core built in {native.CORE.relative_to(ROOT)} "
              f"({len(native.MODULES)} modules)")
        return 0
    print(f"compiled core not built ({why}); the pure-Python modules run", file=sys.stderr)
    return 0 if args.if_possible else 1


if __name__ == "__main__":
    sys.exit(main())
