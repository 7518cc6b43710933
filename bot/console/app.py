"""Wiring: open the database, build the service, its printer and the console with its
commands, and run it over a stream."""

from __future__ import annotations

import os
import random
import sys
from pathlib import Path
from typing import TextIO

from bot.boards import load_renderer
from bot.console.commands import COMMANDS
from bot.console.common import (
    CONSOLE_GUILD,
    ShiftedClock,
)
from bot.console.printer import (
    ConsolePrinter,
)
from bot.console.session import (
    Console,
)
from bot.names import NameBook
from bot.web.links import WebLinks
from locales.i18n import (
    _,
    negotiate,
)
from service import (
    BoardRenderer,
    MatchService,
    MovePicker,
    PuzzleMiner,
    Repository,
)
from service.outbox import OutboxRelay
from service.puzzles import DEFAULT_PER_HOUR as DEFAULT_PUZZLES_PER_HOUR


async def run_console(db_path: str | Path, *, boards_dir: Path | None = None,
                      stdin: TextIO | None = None, stdout: TextIO | None = None,
                      clock: ShiftedClock | None = None, renderer: BoardRenderer | None = None,
                      seed: int | None = None, synchronous: str = "FULL",
                      locale: str | None = None, engine_seconds: float = 2.0,
                      engine_workers: int = 1, web: WebLinks | None = None,
                      puzzle_games_per_hour: int = 30) -> int:
    """Open the database, wire the service and run the console until end of input;
    ``locale``: the language it speaks (``--lang``, else ``TABLERO_LANG``, else English);
    the computer player searches in ``engine_workers`` processes with ``engine_seconds``
    per move (``TABLERO_ENGINE_WORKERS`` / ``TABLERO_ENGINE_SECONDS``, as in Discord), and
    the puzzle miner there on ``puzzle_games_per_hour`` games an hour at most.

    Start-up reads nothing but what it needs: each match is replayed (and checked) when it
    is first used; the full replay of every match is ``tablero db check``'s job."""
    from storage import open_database

    stdin = stdin if stdin is not None else sys.stdin
    stdout = stdout if stdout is not None else sys.stdout
    if renderer is None and boards_dir is not None:
        renderer = load_renderer()
    from bot.computer import PoolMovePicker
    from bot.operations import holding

    repo = await open_database(db_path, synchronous=synchronous)
    picker: PoolMovePicker | None = None
    console: Console | None = None
    try:
        # The console sweeps every guild's deadlines and resumes their clocks, like a
        # single bot process: it holds the whole database, or refuses to start beside one.
        async with holding(repo, repo.path, _(
                "the console would sweep its deadlines and resume its clocks beside it. "
                "Try the console on a copy (tablero db backup).")):
            picker = PoolMovePicker(workers=engine_workers, seconds=engine_seconds)
            console = open_console(repo, stdout, clock=clock, renderer=renderer,
                                   rng=random.Random(seed), boards_dir=boards_dir,
                                   picker=picker, locale=locale, miner=picker,
                                   puzzles_per_hour=puzzle_games_per_hour)
            console.web = web
            # the names seen before, read first: the entries told next name the players
            console.printer.name_book = NameBook(repo)
            await console.printer.name_book.load(CONSOLE_GUILD)
            console.names.update(console.printer.name_book.in_guild(CONSOLE_GUILD))
            # what a crash or a kill left undelivered in the outbox is printed first (and
            # the moves played meanwhile on the web pages, another process)
            if console.relay is not None:
                await console.relay.recover()
            # The console was closed: clocks move later by the time away (one notice per
            # match), then the sweep acts on whatever is due.
            await console.service.resume()
            await console.service.sweep()  # and the computer turns lost with the last run
            interactive = stdin.isatty()
            if interactive:
                console.say(_("Tablero console: /help lists the commands; start with: as NAME"))
            return await console.run(stdin, prompt=interactive)
    finally:
        if console is not None:  # the miner works in the background: not on past the end;
            # what the matches that ended leave to write (explorer, fingerprint) is written
            await console.service.stop_background()
        if picker is not None:
            picker.close()
        await repo.close()


def console_locale(chosen: str | None = None) -> str:
    """The console's language: ``chosen`` (``--lang``), else the ``TABLERO_LANG``
    environment variable, else English; negotiated to a language Tablero speaks."""
    return negotiate(chosen or os.environ.get("TABLERO_LANG") or None)


def open_console(repository: Repository, out: TextIO, *, clock: ShiftedClock | None = None,
                 renderer: BoardRenderer | None = None, rng: random.Random | None = None,
                 boards_dir: Path | None = None, picker: MovePicker | None = None,
                 locale: str | None = None, miner: PuzzleMiner | None = None,
                 puzzles_per_hour: int = DEFAULT_PUZZLES_PER_HOUR) -> Console:
    """Wire a console over ``repository`` in one direction: the printer (the service's
    notifier and name resolver), then the service, then the console over both.
    ``picker``: the computer player's moves (none: /challenge @computer is refused);
    ``locale``: the language it speaks (None: ``TABLERO_LANG``, else English); ``miner``:
    finds puzzles in finished games (none: no mining), ``puzzles_per_hour`` games at most."""
    clock = clock or ShiftedClock()
    printer = ConsolePrinter(out, console_locale(locale))
    # The same path as Discord: every event is an outbox entry stored with its change,
    # printed by the relay (inline: before the command's reply, as it always was) and
    # then removed; the console delivers its own guild's entries only.
    relay = OutboxRelay(repository, printer.deliver, clock, inline=True,
                        accepts=lambda entry: entry.guild_id == CONSOLE_GUILD)
    service = MatchService(repository, relay, clock, renderer=renderer, rng=rng,
                           names=printer.seat_name, picker=picker, miner=miner,
                           puzzles_per_hour=puzzles_per_hour)
    printer.imported = service.imported_name  # imported players by their records' names
    console = Console(service, printer, commands=COMMANDS, clock=clock, boards_dir=boards_dir,
                      renderer=renderer)
    console.relay = relay
    return console
