"""Xiangqi on Fairy-Stockfish over UCI, when its binary is installed.

Debian's package ``fairy-stockfish`` installs ``/usr/games/fairy-stockfish``; that
directory is on a login shell's PATH but not always on a service's, so it is searched
after PATH. The engine is asked for ``UCI_Variant xiangqi``; its strength is set with
``Skill Level`` (-20..20) or ``UCI_LimitStrength`` with ``UCI_Elo``. Positions go over
as FEN (Tablero's xiangqi text is FEN), moves come back as ``h3e3``, which the rules read
like any player's input.

>>> find_binary() is None or find_binary().endswith("fairy-stockfish")
True
"""

from __future__ import annotations

import os
import shutil
import subprocess
import threading
from dataclasses import dataclass
from typing import IO

BINARY = "fairy-stockfish"
FALLBACK_DIRS = ("/usr/games", "/usr/local/games")


def find_binary() -> str | None:
    """The path of ``fairy-stockfish`` on PATH or in Debian's games directories."""
    found = shutil.which(BINARY)
    if found:
        return found
    return shutil.which(BINARY, path=os.pathsep.join(FALLBACK_DIRS))


class FairyError(RuntimeError):
    """The engine process died, hung or said something we cannot read."""


@dataclass(frozen=True, slots=True)
class Strength:
    """How strongly Fairy-Stockfish plays: a ``Skill Level`` (-20..20), or an Elo
    (``UCI_LimitStrength``, 1350..2850) when ``elo`` is set."""

    skill: int = 20
    elo: int | None = None


class FairyStockfish:
    """One Fairy-Stockfish process playing xiangqi. Use as a context manager or call
    :meth:`close`.

    ``best_move(fen, seconds)`` returns the engine's move as UCI text (``h3e3``).
    """

    def __init__(self, path: str | None = None, *, strength: Strength | None = None) -> None:
        binary = path or find_binary()
        if binary is None:
            raise FairyError("fairy-stockfish is not installed")
        self.process = subprocess.Popen(
            [binary], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL, text=True, bufsize=1)
        self.strength: Strength | None = None
        self._send("uci")
        self._wait_for("uciok", 10.0)
        self._send("setoption name UCI_Variant value xiangqi")
        self._send("setoption name Threads value 1")
        self.set_strength(strength or Strength())

    def set_strength(self, strength: Strength) -> None:
        if strength == self.strength:
            return
        if strength.elo is not None:
            self._send("setoption name UCI_LimitStrength value true")
            self._send(f"setoption name UCI_Elo value {strength.elo}")
            self._send("setoption name Skill Level value 20")
        else:
            self._send("setoption name UCI_LimitStrength value false")
            self._send(f"setoption name Skill Level value {strength.skill}")
        self.strength = strength
        self._send("isready")
        self._wait_for("readyok", 10.0)

    def best_move(self, fen: str, seconds: float) -> str:
        """The engine's move from ``fen`` after thinking ``seconds``."""
        self._send("ucinewgame")
        self._send(f"position fen {fen}")
        self._send(f"go movetime {max(1, int(seconds * 1000))}")
        line = self._wait_for("bestmove", seconds + 10.0)
        parts = line.split()
        if len(parts) < 2 or parts[1] in ("(none)", "0000"):
            raise FairyError(f"fairy-stockfish gave no move: {line!r}")
        return parts[1]

    def close(self) -> None:
        if self.process.poll() is None:
            try:
                self._send("quit")
                self.process.wait(timeout=2)
            except (OSError, subprocess.TimeoutExpired, FairyError):
                self.process.kill()
                self.process.wait()
        for stream in (self.process.stdin, self.process.stdout):
            if stream is not None:
                stream.close()

    def __enter__(self) -> FairyStockfish:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ------------------------------------------------------------------ the pipe

    def _send(self, command: str) -> None:
        stdin = self.process.stdin
        if stdin is None or self.process.poll() is not None:
            raise FairyError("fairy-stockfish is not running")
        try:
            stdin.write(command + "\n")
            stdin.flush()
        except OSError as e:
            raise FairyError(f"fairy-stockfish: {e}") from None

    def _wait_for(self, prefix: str, seconds: float) -> str:
        """Read lines until one starts with ``prefix``; kill the process if it takes
        longer than ``seconds`` (a hung engine must not hang its caller)."""
        stdout: IO[str] | None = self.process.stdout
        if stdout is None:
            raise FairyError("fairy-stockfish has no output")
        timer = threading.Timer(seconds, self.process.kill)
        timer.start()
        try:
            while True:
                line = stdout.readline()
                if not line:
                    raise FairyError(f"fairy-stockfish stopped before {prefix!r}")
                if line.startswith(prefix):
                    return line.strip()
        finally:
            timer.cancel()
