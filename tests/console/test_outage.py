"""The console during a database outage (issue 36 §2): a command is answered with a ``!``
line saying so and the console keeps reading; the same move after the outage is played;
an outage during the start-up sweep ends the console with the one-line status-3 refusal of
the other database failures, never a trace.
"""

from __future__ import annotations

import asyncio
import io
from pathlib import Path
from typing import Any

import pytest

import bot.__main__ as cli
import storage
from bot.console import run_console
from tests.outages import DiskFull, LogWatch
from tests.postgres import LocalServer

UNREACHABLE = ("! the database is not reachable right now; nothing was changed. Try again "
               "in a minute")
FULL = ("! the database is full (its disk has no room left); nothing was changed. Try again "
        "later: the bot's operator must free some space")


class Script(io.StringIO):
    """A console script whose ``; outage`` and ``; back`` lines (comments to the console)
    take the database down and bring it back as they are read."""

    def __init__(self, text: str, down: Any, up: Any) -> None:
        super().__init__(text)
        self.down, self.up = down, up

    def readline(self, size: int | None = -1) -> str:
        line = super().readline()
        if line.strip() == "; outage":
            self.down()
        elif line.strip() == "; back":
            self.up()
        return line


SCRIPT = """as alice
/challenge @bob xiangqi seat:red
as bob
/accept
as alice
; outage
/move h3-e3
/board
/games
; back
/move h3-e3
as bob
/move h10-g8
"""


def replies(out: str) -> list[str]:
    return [line for line in out.splitlines() if line.startswith("!")]


@pytest.mark.parametrize("kind", ["sqlite", "postgres"])
async def test_a_command_during_an_outage_gets_a_line_and_the_console_goes_on(
        kind: str, tmp_path: Path, request: pytest.FixtureRequest,
        monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    watch = LogWatch(caplog)
    out = io.StringIO()
    if kind == "postgres":
        server, target = request.getfixturevalue("restartable_postgres_url")
        script = Script(SCRIPT, server.shut_down, server.start_again)
        said = UNREACHABLE
    else:
        target = tmp_path / "t.db"
        faults: list[DiskFull] = []
        real = storage.open_database

        async def opened(*args: Any, **kwargs: Any) -> Any:
            repo = await real(*args, **kwargs)
            faults.append(DiskFull(repo))
            return repo
        monkeypatch.setattr(storage, "open_database", opened)
        script = Script(SCRIPT, lambda: faults[0].fill(), lambda: faults[0].free())
        said = FULL
    code = await run_console(target, stdin=script, stdout=out)
    text = out.getvalue()
    assert code == 0
    after_outage = text.split("> /move h3-e3", 1)[1]
    # the move, the board and the games list during the outage: one line each (on a
    # full disk the reads work: the board and the games list are shown)
    refused = replies(after_outage.split("> /move h3-e3", 1)[0])
    assert refused == ([said] * 3 if kind == "postgres" else [said]), refused
    # then the same move is played, and the next player's too
    assert "alice played h3-e3" in text.split("; back", 1)[1]
    assert "bob played h10-g8" in text
    assert "Traceback" not in text
    assert watch.tracebacks() == []
    assert len(watch.went()) == 1 and len(watch.back()) == 1


@pytest.mark.parametrize("kind", ["sqlite", "postgres"])
def test_an_outage_during_the_start_up_sweep_is_the_one_line_status_3_refusal(
        kind: str, tmp_path: Path, request: pytest.FixtureRequest,
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """The database opens, then fails before the console's first prompt (its lease and
    start-up sweep): ``tablero console`` says so in one line and exits 3."""
    real = storage.open_database
    server: LocalServer | None = None
    if kind == "postgres":
        server, target = request.getfixturevalue("restartable_postgres_url")
    else:
        target = str(tmp_path / "t.db")

    async def opened(*args: Any, **kwargs: Any) -> Any:
        repo = await real(*args, **kwargs)
        if server is not None:
            await asyncio.to_thread(server.shut_down)
        else:
            DiskFull(repo).fill()
        return repo
    monkeypatch.setattr(storage, "open_database", opened)
    monkeypatch.setattr("sys.stdin", io.StringIO("as alice\n/games\n"))
    try:
        code = cli.main(["console", "--db", target])
    finally:
        if server is not None:
            server.start_again()
    err = capsys.readouterr().err
    lines = [line for line in err.splitlines() if line.startswith("tablero:")]
    assert code == 3
    assert len(lines) == 1, err
    said = UNREACHABLE if kind == "postgres" else FULL
    assert lines[0].startswith("tablero: ") and said[2:] in lines[0]
    assert "Traceback" not in err
