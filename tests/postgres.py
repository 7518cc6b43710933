"""A real PostgreSQL server for the storage suite, never a skip.

``TABLERO_TEST_POSTGRES_URL`` names one (``.ci/run`` sets it when a server listens on
127.0.0.1:5432); otherwise the session starts its own from the first PostgreSQL binaries
found: ``TABLERO_PG_BIN``, ``initdb`` on the PATH, ``/usr/lib/postgresql/*/bin``, then the
ones pip's ``pgserver`` package carries (a test dependency). PostgreSQL refuses to run as
root, so as root the server runs as the ``postgres`` user (or ``nobody``) through
``runuser``. It runs from a temporary folder with fsync off (test data only) and is stopped
at the end of the session (the suite runs in parallel workers, each a session of its own:
each worker that meets a PostgreSQL test starts its own server, on its own free port, so
no worker waits on another's). When no server can be had, ``server_url`` raises ``NoServer``
with the reason, and every PostgreSQL test fails with it. The outage tests stop and start
a local server mid-run (``shut_down``, ``start_again``): the worker's own, or one of
their own when ``TABLERO_TEST_POSTGRES_URL`` names a server they cannot restart.
"""

from __future__ import annotations

import glob
import importlib.util
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
from pathlib import Path

ENV_URL = "TABLERO_TEST_POSTGRES_URL"


class NoServer(RuntimeError):
    """No PostgreSQL server for the tests, and why."""


def _binaries() -> Path | None:
    candidates = [os.environ.get("TABLERO_PG_BIN", "")]
    found = shutil.which("initdb")
    candidates.append(str(Path(found).parent) if found else "")
    candidates += sorted(glob.glob("/usr/lib/postgresql/*/bin"), reverse=True)
    spec = importlib.util.find_spec("pgserver")  # found, not imported (it is slow)
    if spec is not None and spec.origin is not None:
        candidates.append(str(Path(spec.origin).parent / "pginstall" / "bin"))
    for folder in filter(None, candidates):
        if all((Path(folder) / exe).exists() for exe in ("initdb", "pg_ctl", "postgres")):
            return Path(folder)
    return None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class LocalServer:
    """A throw-away PostgreSQL server in a temporary folder."""

    def __init__(self) -> None:
        self.bin = _binaries()
        if self.bin is None:
            raise NoServer(
                "no PostgreSQL server for the storage suite: set TABLERO_TEST_POSTGRES_URL, "
                "install PostgreSQL (apt-get install postgresql) or pip install pgserver")
        self.folder = Path(tempfile.mkdtemp(prefix="tablero-pg-"))
        self.data = self.folder / "data"
        self.port = _free_port()
        self.options = ""
        self.running = False
        self.prefix: list[str] = []
        if os.geteuid() == 0:  # postgres will not run as root
            user = "postgres"
            try:
                pwd.getpwnam(user)
            except KeyError:
                user = "nobody"
            self.prefix = ["runuser", "-u", user, "--"]
            shutil.chown(self.folder, user=user)
            self.folder.chmod(0o700)
            reach = subprocess.run([*self.prefix, "test", "-x", str(self.bin / "postgres")],
                                   capture_output=True, check=False)
            if reach.returncode != 0:  # e.g. binaries in a venv under /root: a copy
                copy = self.folder / "pginstall"
                shutil.copytree(self.bin.parent, copy, symlinks=True)
                for path in [copy, *copy.rglob("*")]:
                    os.lchown(path, pwd.getpwnam(user).pw_uid, -1)
                self.bin = copy / "bin"

    def _run(self, *args: str) -> None:
        done = subprocess.run([*self.prefix, *args], capture_output=True, text=True,
                              timeout=120, check=False)
        if done.returncode != 0:
            raise NoServer(f"{Path(args[0]).name} failed ({done.returncode}): "
                           f"{(done.stderr or done.stdout).strip()[-800:]}")

    def start(self) -> str:
        assert self.bin is not None
        self._run(str(self.bin / "initdb"), "-D", str(self.data), "-U", "postgres",
                  "--auth=trust", "-E", "UTF8", "--no-sync")
        options = (f"-p {self.port} -k {self.folder} -c listen_addresses=127.0.0.1 "
                   "-c fsync=off -c synchronous_commit=off -c full_page_writes=off "
                   "-c max_connections=200")
        self._run(str(self.bin / "pg_ctl"), "-D", str(self.data), "-o", options,
                  "-l", str(self.folder / "log"), "-w", "-t", "60", "start")
        self.options = options
        self.running = True
        return f"postgresql://postgres@127.0.0.1:{self.port}/postgres"

    def shut_down(self, mode: str = "fast") -> None:
        """Stop the server as an outage would, keeping its data and port for
        ``start_again``: ``fast`` ends every session (a restart), ``immediate`` kills the
        server (a crash)."""
        assert self.bin is not None
        self._run(str(self.bin / "pg_ctl"), "-D", str(self.data), "-m", mode, "-w",
                  "-t", "60", "stop")
        self.running = False

    def start_again(self) -> None:
        """Start the server ``shut_down`` stopped, on the same port with the same data."""
        assert self.bin is not None
        self._run(str(self.bin / "pg_ctl"), "-D", str(self.data), "-o", self.options,
                  "-l", str(self.folder / "log"), "-w", "-t", "60", "start")
        self.running = True

    def stop(self) -> None:
        assert self.bin is not None
        subprocess.run([*self.prefix, str(self.bin / "pg_ctl"), "-D", str(self.data), "-m",
                        "immediate", "stop"], capture_output=True, timeout=60, check=False)
        shutil.rmtree(self.folder, ignore_errors=True)
