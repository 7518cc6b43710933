"""Starting a match: /challenge, /accept, /join, /decline, /cancel.

Each command is ``async def NAME(console, args, line)``; the table of commands is
:data:`bot.console.commands.COMMANDS`."""

from __future__ import annotations

from collections.abc import Callable

from bot.console.common import (
    COMPUTER_NAMES,
    CONSOLE_CHANNEL,
    CONSOLE_GUILD,
    _level,
    digits,
    is_game,
    no_such_match,
    number_token,
    options_of,
    weekends_switch,
)
from bot.console.session import (
    Console,
)
from bot.console_args import yes_or_no
from bot.imports import import_label
from locales.i18n import (
    Words,
    _,
)
from service import (
    InvalidOption,
    MatchStatus,
    ServiceError,
)
from service.computer import DEFAULT_LEVEL
from service.computer_seats import computer_user


async def cmd_challenge(console: Console, args: list[str], line: str) -> None:
    uid = console.user()
    opponents: list[int] = []
    game: str | None = None
    options: dict[str, object] = {}
    days: int | None = None
    rated = True
    seat: str | None = None
    computer = False
    level: str | None = None
    clock: str | None = None
    claim: bool | None = None
    weekends_off: bool | None = None
    on_timeout: str | None = None
    rated_given = False  # "rated" or rated:yes, which a game with the computer is not
    for a in options_of(args):
        if isinstance(a, tuple) and a[0] == "clock":
            clock = a[1]
        elif isinstance(a, tuple) and a[0] == "on_timeout":
            on_timeout = a[1]
        elif isinstance(a, tuple) and a[0] == "weekends":
            weekends_off = weekends_switch(a[1])
        elif isinstance(a, tuple) and a[0] == "claim":
            claim = yes_or_no("claim", a[1])
        elif isinstance(a, str) and a.lower() in COMPUTER_NAMES:
            computer = True
        elif isinstance(a, tuple):
            key, value = a
            if key == "days":
                if not digits(value) or len(value) > 3:
                    raise ServiceError(_("days must be a number from 1 to 14"))
                days = int(value)
            elif key == "seat":
                seat = value
            elif key == "rated":
                rated = yes_or_no("rated", value)
                rated_given = rated_given or rated
            elif key == "level":
                level = value
            else:
                options[key] = value
        elif a.startswith("@"):
            opponents.append(await console.person(a))
        elif a.lower() in ("casual", "unrated"):
            rated = False
        elif a.lower() == "rated":
            rated = rated_given = True
        elif game is None:
            game = a
        elif is_game(a) and not is_game(game):
            # /challenge bob querni: the name written without @ was read as the game
            raise ServiceError(_("there is no game called {word}: a player is written "
                                 "with @, as in /challenge @{name} {game}",
                                 word=repr(game), name=game, game=a))
        elif is_game(game) and not is_game(a):
            # /challenge querni bob: the game came first, the player without @
            raise ServiceError(_("what is {word}? a player is written with @, as in "
                                 "/challenge @{name} {game}; an option as name:value (or "
                                 "name=value)",
                                 word=repr(a), name=a, game=game))
        else:
            raise ServiceError(_("what is {word}? options are written name:value "
                                 "(or name=value)", word=repr(a)))
    if game is None:
        raise ServiceError(_("which game? /challenge @bob xiangqi (see /games-list)"))
    # level: is the computer's, an opponent or a late player's stand-in (on_timeout:skip
    # with a level took it in silence and dropped it)
    if level is not None and not computer and \
            (on_timeout or "").strip().lower() != "computer":
        raise ServiceError(_("level: is for games against the computer (@computer)"))
    if computer:
        if opponents:
            raise ServiceError(_("play the computer alone: /challenge @computer GAME; "
                                 "in a 4-player lobby, /fill adds computer players"))
        # what a game with the computer does not take is refused, not dropped in silence
        given = {a[0] for a in options_of(args) if isinstance(a, tuple)}
        unused = (["rated"] if rated_given else []) + \
            [name for name in ("clock", "claim", "weekends", "on_timeout") if name in given]
        if unused:
            raise InvalidOption(_("a game against the computer takes no {option}: it "
                                  "is casual, paced by days:N (/challenge @computer GAME "
                                  "[level:1-8] [days:N] [seat:NAME] [option:value ...])",
                                  option=unused[0]))
        m = await console.service.challenge_computer(
            CONSOLE_GUILD, CONSOLE_CHANNEL, uid, game, level=_level(level),
            options=options, days=days, seat=seat)
        console.current_match[uid] = m.id
        console.say(_("created {match_line}", match_line=console.describe(m)))
        if m.status is MatchStatus.ACTIVE:
            await console.show_board(m.id)
        return
    m = await console.service.challenge(CONSOLE_GUILD, CONSOLE_CHANNEL, uid, game,
                                     opponents=opponents, options=options, days=days,
                                     rated=rated, seat=seat, clock=clock,
                                     claim_win=claim, weekends_off=weekends_off,
                                     on_timeout=on_timeout,
                                     stand_in_level=_level(level) if level else None)
    console.current_match[uid] = m.id
    console.say(_("created {match_line}", match_line=console.describe(m)))


CONTINUE_USAGE = _("/continue #N @PLAYER [seat:COLOUR] [days:N | clock:CONTROL] "
                   "[on_timeout:end|skip|computer [level:N]]")


async def cmd_continue(console: Console, args: list[str], line: str) -> None:
    """/continue #N @bob: challenge bob to go on with imported game #N from its last
    position (a new casual match once he accepts); ``on_timeout:`` and ``level:`` as
    /challenge reads them."""
    uid = console.user()
    source: int | None = None
    opponents: list[int] = []
    seat: str | None = None
    days: int | None = None
    clock: str | None = None
    on_timeout: str | None = None
    level: str | None = None
    for a in options_of(args):
        if isinstance(a, tuple) and a[0] == "seat":
            seat = a[1]
        elif isinstance(a, tuple) and a[0] == "clock":
            clock = a[1]
        elif isinstance(a, tuple) and a[0] == "on_timeout":
            on_timeout = a[1]
        elif isinstance(a, tuple) and a[0] == "level":
            level = a[1]
        elif isinstance(a, tuple) and a[0] == "days":
            if not digits(a[1]) or len(a[1]) > 3:
                raise ServiceError(_("days must be a number from 1 to 14"))
            days = int(a[1])
        elif isinstance(a, str) and a.lower() in COMPUTER_NAMES:
            # Tablero itself, as /challenge reads it (not a person called "computer",
            # invited in vain): the service says it continues no game with it
            opponents.append(computer_user(DEFAULT_LEVEL))
        elif isinstance(a, str) and a.startswith("@"):
            opponents.append(await console.person(a))
        elif isinstance(a, str) and source is None \
                and (number := number_token(a, no_such_match)) is not None:
            source = number
        else:
            raise ServiceError(CONTINUE_USAGE)
    if source is None:  # the games it could be: as Discord suggests them
        games = await console.service.continuable_imports(CONSOLE_GUILD, uid)
        if games:
            console.say(_("imported games that can go on:"))
        for game in games:
            console.say("  " + import_label(game, console.printer.locale, limit=200,
                                            number=f"#{game.match.id}"))
    if source is None or not opponents:
        raise ServiceError(CONTINUE_USAGE)
    m = await console.service.continue_import(
        CONSOLE_GUILD, CONSOLE_CHANNEL, uid, source, opponents, seat=seat, days=days,
        clock=clock, on_timeout=on_timeout,
        stand_in_level=_level(level) if level is not None else None)
    console.current_match[uid] = m.id
    console.say(_("created {match_line}", match_line=console.describe(m)))


async def cmd_accept(console: Console, args: list[str], line: str) -> None:
    await _take_seat(console, args, False,
                          lambda line: _("accepted: {match_line}", match_line=line))

async def cmd_join(console: Console, args: list[str], line: str) -> None:
    await _take_seat(console, args, True,
                          lambda line: _("joined: {match_line}", match_line=line))

async def cmd_decline(console: Console, args: list[str], line: str) -> None:
    match_id = await _pick_waiting(console, args)
    console.printer.declining = console.user()
    try:
        m = await console.service.decline(match_id, console.user(), caller=console.caller())
    finally:
        console.printer.declining = None
    console.say(_("declined: {match_line}", match_line=console.describe(m)))

async def cmd_cancel(console: Console, args: list[str], line: str) -> None:
    m = await console.service.cancel(await console.pick_only_match(args), console.user(),
                                  caller=console.caller())
    console.say(_("cancelled: {match_line}", match_line=console.describe(m)))

def _seat_arg(console: Console, args: list[str]) -> str | None:
    for a in options_of(args):
        if isinstance(a, tuple) and a[0] == "seat":
            return a[1]
    return None

async def _take_seat(console: Console, args: list[str],
                     joining: bool, said: Callable[[Words], Words]) -> None:
    """/accept and /join: take a seat in the waiting match, show the board if it began."""
    uid = console.user()
    match_id = await _pick_waiting(console, args)
    seat = _seat_arg(console, args)
    if joining:
        m = await console.service.join(match_id, uid, seat, caller=console.caller())
    else:
        m = await console.service.accept(match_id, uid, seat, caller=console.caller())
    console.current_match[uid] = m.id
    console.say(said(console.describe(m)))
    if m.status is MatchStatus.ACTIVE:
        await console.show_board(m.id)

async def _pick_waiting(console: Console, args: list[str]) -> int:
    """For /accept and /join: a #N, else the newest challenge naming or open to me."""
    for a in list(args):
        if (number := number_token(a, no_such_match)) is not None:
            args.remove(a)
            return number
    uid = console.user()
    for g in await console.service.games_of(CONSOLE_GUILD, uid):
        if uid in g.invited:
            return g.id
    for g in await console.service.open_challenges(CONSOLE_GUILD):
        if uid not in g.joined:
            return g.id
    for g in await console.service.games_of(CONSOLE_GUILD, uid):
        if g.status.is_waiting and g.challenger_id == uid:
            raise ServiceError(_("#{match} is your own challenge: /cancel withdraws it",
                                 match=g.id))
    raise ServiceError(_("there is no challenge waiting for you (see /games, /open)"))
