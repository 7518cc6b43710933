"""Fixtures of the engine tests."""

from __future__ import annotations

import fcntl
import os
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest

from engine.fairy import find_binary

INSTALL = (["apt-get", "install", "-y", "-q", "fairy-stockfish"],
           ["apt-get", "update", "-q"],
           ["apt-get", "install", "-y", "-q", "fairy-stockfish"])
INSTALL_LOCK = Path(tempfile.gettempdir()) / "tablero-fairy-stockfish-install.lock"


@pytest.fixture(scope="session")
def fairy_stockfish() -> str | None:
    """The ``fairy-stockfish`` binary, installed first where the tests can (root with
    apt-get, as the README's test command runs in CI: Debian package fairy-stockfish);
    None where it cannot be had, and the tests that take it then check that our own
    engine answers instead (never a skip)."""
    found = find_binary()
    if found is not None or not hasattr(os, "geteuid") or os.geteuid() != 0 \
            or shutil.which("apt-get") is None:
        return found
    # one installer at a time: the suite's parallel workers (and any other test run on the
    # machine) each ask, and apt-get refuses to run beside another; the later ones find
    # the binary the first installed
    with INSTALL_LOCK.open("a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        found = find_binary()
        if found is not None:
            return found
        env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
        for command in INSTALL:
            try:
                subprocess.run(command, env=env, stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL, timeout=600, check=False)
            except (OSError, subprocess.TimeoutExpired):
                break
            found = find_binary()
            if found is not None:
                break
    return found
