"""The server's games as a school (issue 44): /explorer and /import.

``/explorer GAME [name:value ...] [games:played|imported|all] [MOVES ...]`` (or
``game:`` and ``line:`` by name): the moves played next in this database's finished games,
most played first, and, with ``--boards``, the position with them drawn as arrows.

``/import PATH [game:KEY]``: a record file (WXF, ICCS, PDN or Tablero's own) becomes a
match of this database; its number is printed for ``/history``, ``/analysis``."""

from __future__ import annotations

import asyncio

from bot import explorer
from bot.console.common import CONSOLE_CHANNEL, CONSOLE_GUILD, options_of
from bot.console.session import Console
from locales.i18n import _, _n, listing
from locales.terms import game_name, seat_colour
from service import MatchStatus, ServiceError
from service.importer import MAX_RECORD_BYTES

IMPORT_USAGE = _("/import PATH [game:KEY]   (a WXF, ICCS, PDN or Tablero record file)")
USAGE = _("/explorer GAME [option:value ...] [games:played|imported|all] [MOVES ...]")


async def cmd_explorer(console: Console, args: list[str], line: str) -> None:
    name: str | None = None
    options: list[str] = []  # the game's configuration: players=2 rules=grande
    moves: list[str] = []
    source = "all"
    for a in options_of(args):
        if isinstance(a, tuple):
            key, value = a
            if key == "game":
                name = value
            elif key == "line":
                moves.append(value)
            elif key == "games":
                source = value.strip().lower()
            else:
                options.append(f"{key}={value}")
        elif name is None:
            name = a
        else:
            moves.append(a)
    if name is None:
        raise ServiceError(USAGE)
    view = await console.service.explorer(CONSOLE_GUILD, console.user(),
                                          " ".join([name, *options]), " ".join(moves), source)
    console.say(explorer.title(view))
    console.say(explorer.summary(view))
    for m in view.moves:
        console.say(explorer.move_line(m))
    note = explorer.rating_note(view.moves)
    if note is not None:
        console.say(note)
    if console.boards_dir is None or view.position is None:
        return
    drawn = await asyncio.to_thread(explorer.picture, view, console.printer.locale)
    if drawn is None:
        return
    console.boards_dir.mkdir(parents=True, exist_ok=True)
    path = console.boards_dir / "explorer.png"
    path.write_bytes(drawn.png)
    console.say(_("explorer image: {path}", path=str(path)))


async def cmd_import(console: Console, args: list[str], line: str) -> None:
    """/import PATH [game:KEY]: the file is read here (at most one byte past the limit:
    the service says it is too large), checked and stored by the service."""
    game: str | None = None
    paths: list[str] = []
    for a in options_of(args):
        if isinstance(a, tuple) and a[0] == "game":
            game = a[1]
        elif isinstance(a, tuple) and a[0] == "path":
            paths.append(a[1])
        elif isinstance(a, tuple):
            raise ServiceError(IMPORT_USAGE)
        else:
            paths.append(a)
    if len(paths) != 1:
        raise ServiceError(IMPORT_USAGE)
    try:
        with open(paths[0], "rb") as f:
            data = f.read(MAX_RECORD_BYTES + 1)
    except (OSError, ValueError) as e:  # ValueError: a path with a NUL character
        reason = (e.strerror if isinstance(e, OSError) else None) or type(e).__name__
        raise ServiceError(_("cannot read {path}: {reason}", path=paths[0][:80],
                             reason=reason)) from None
    done = await console.service.import_record(CONSOLE_GUILD, CONSOLE_CHANNEL, console.user(),
                                               data, game)
    m = done.match
    players = listing(_("{seat}: {player}", seat=seat_colour(m.seats[s].name), player=name)
                      for s, name in sorted(done.players.items()))
    console.say(_n("imported #{match} ({game}): {count} move", "imported #{match} ({game}): "
                   "{count} moves", done.moves, match=m.id, game=game_name(m.game, m.game_name),
                   count=done.moves))
    if done.players:
        console.say(_("players: {players}", players=players))
    console.say(_("see it with /history #{match}, /analysis #{match}", match=m.id))
    if m.status is MatchStatus.ABORTED:  # the record does not end it: it may go on
        console.say(_("go on with it against someone: /continue #{match} @PLAYER",
                      match=m.id))
