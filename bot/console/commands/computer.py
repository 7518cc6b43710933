"""The computer player: /hint, /analysis, /fill.

Each command is ``async def NAME(console, args, line)``; the table of commands is
:data:`bot.console.commands.COMMANDS`."""

from __future__ import annotations

import asyncio
from functools import partial

from bot.boards import analysis_pictures
from bot.console.common import (
    _level,
    no_such_match,
    number_token,
    options_of,
)
from bot.console.session import (
    Console,
)
from locales.analysis import nothing_lost, worth_unit
from locales.i18n import (
    _,
    _n,
    capitalized,
    joined,
)
from service import (
    InvalidOption,
    MatchStatus,
    ServiceError,
)


async def cmd_hint(console: Console, args: list[str], line: str) -> None:
    match_id = await console.pick_only_match(args)
    move, reason, left = await console.service.hint(match_id, console.user(),
                                                 caller=console.caller())
    console.say(_n("hint: {move} ({reason}); {count} hint left in this game",
                "hint: {move} ({reason}); {count} hints left in this game", left,
                move=move, reason=reason))

async def cmd_analysis(console: Console, args: list[str], line: str) -> None:
    numbers = [n for a in args if (n := number_token(a, no_such_match)) is not None]
    # a word besides #N was meant as the match (/analysis 3 analysed the current one)
    console.nothing_else([a for a in args if not a.startswith("#")] + args[1:])
    match_id = numbers[0] if numbers else console.current_match.get(console.user())
    if match_id is None:
        raise ServiceError(_("which match? /analysis #N"))
    found = await console.service.game_analysis(match_id, caller=console.caller())
    marked = found.marked
    m = await console.service.get_match(match_id, caller=console.caller())
    if not marked:
        console.say(_("#{match}: {none}", match=match_id, none=nothing_lost(worth_unit(m.game))))
        return
    # an imported player the record did not name is named by his seat in this game
    said = {a.ply: a.line(console.printer.name(a.user, m), game=m.game) for a in marked}
    for a in marked:
        console.say(joined("  ", said[a.ply], separator=""))
    if console.boards_dir is None:
        return
    locale = console.printer.locale
    record = await console.service.record(match_id, caller=console.caller())
    names = [(console.printer.seat_name(0, s.user_id) if s.user_id else "") or s.name
             for s in record.match.seats]
    notes = {ply: capitalized(line) for ply, line in said.items()}
    pictures = await asyncio.to_thread(partial(
        analysis_pictures, better={a.ply: a.better for a in marked}, curve=found.curve),
        record, notes, names, locale)
    if pictures is None:
        return
    console.boards_dir.mkdir(parents=True, exist_ok=True)
    sheet = console.boards_dir / f"match{match_id}-analysis.png"
    replay = console.boards_dir / f"match{match_id}-analysis.gif"
    sheet.write_bytes(pictures.sheet)
    replay.write_bytes(pictures.replay)
    if pictures.graph is not None:
        graph = console.boards_dir / f"match{match_id}-analysis-graph.png"
        graph.write_bytes(pictures.graph)
        console.say(_("analysis graph (the evaluation after every move): {path}",
                      path=str(graph)))
    console.say(_("analysis image: {path}", path=str(sheet)))
    console.say(_("analysis replay (the marked moves framed in red): {path}",
               path=str(replay)))

async def cmd_fill(console: Console, args: list[str], line: str) -> None:
    """/fill [level:N] [#match]: computer players take the lobby's empty seats."""
    uid = console.user()
    level: str | None = None
    for a in options_of(args):
        if isinstance(a, tuple) and a[0] == "level":
            level = a[1]
        elif isinstance(a, tuple):  # levle:3 filled the lobby at level 5
            raise InvalidOption(_("/fill takes no option {option}: /fill [#N] [level:1-8]",
                                  option=a[0]))
    numbers = [n for a in args if (n := number_token(a, no_such_match)) is not None]
    match_id = numbers[0] if numbers else console.current_match.get(uid)
    if match_id is None:
        raise ServiceError(_("which lobby? /fill #N level:5"))
    m = await console.service.add_computers(match_id, uid, _level(level), caller=console.caller())
    console.current_match[uid] = m.id
    console.say(_("filled: {match_line}", match_line=console.describe(m)))
    if m.status is MatchStatus.ACTIVE:
        await console.show_board(m.id)
