"""Correspondence comforts: /rematch, /takeback, /premove, /note, /follow, /unfollow, /notify,
/block and /unblock.

Each command is ``async def NAME(console, args, line)``; the table of commands is
:data:`bot.console.commands.COMMANDS`."""

from __future__ import annotations

import asyncio

from bot.boards import glance_picture, glance_status
from bot.console.common import (
    COMPUTER_NAMES,
    CONSOLE_GUILD,
    no_such_match,
    note_text,
    number_token,
    options_of,
)
from bot.console.session import (
    Console,
)
from locales.i18n import (
    _,
    _n,
    joined,
)
from locales.terms import game_name
from service import (
    MatchStatus,
    ServiceError,
)
from service.blocks import block_words, challenges_alone, challenges_off_words, challenges_words
from service.computer_seats import computer_user


async def cmd_rematch(console: Console, args: list[str], line: str) -> None:
    uid = console.user()
    console.nothing_else([a for a in args if not a.startswith("#")])
    match_id = await _pick_any(console, args)
    console.nothing_else(args)
    m = await console.service.rematch(match_id, uid, caller=console.caller())
    console.current_match[uid] = m.id
    if m.status is MatchStatus.ACTIVE:  # the computer took it: it has begun
        console.say(_("rematch begins: {match}", match=console.describe(m)))
        await console.show_board(m.id)
        return
    console.say(_("rematch asked: {match}", match=console.describe(m)))

async def cmd_takeback(console: Console, args: list[str], line: str) -> None:
    uid = console.user()
    match_id = await console.pick_match(args)
    what = args[0].lower() if args else "ask"
    if what == "ask":
        await console.service.request_takeback(match_id, uid, caller=console.caller())
        console.say(_("takeback asked; your opponent answers"))
    elif what == "accept":
        await console.service.accept_takeback(match_id, uid, caller=console.caller())
        await console.show_board(match_id)
    elif what == "decline":
        await console.service.decline_takeback(match_id, uid, caller=console.caller())
        console.say(_("takeback declined"))
    else:
        raise ServiceError(_("/takeback ask, /takeback accept or /takeback decline"))

async def cmd_premove(console: Console, args: list[str], line: str) -> None:
    uid = console.user()
    match_id = await console.pick_match(args)
    what = args[0].lower() if args else "list"
    if what == "add":  # Discord's action:add; the console needs no word for it
        args, what = args[1:], "add"
    if what == "clear" and len(args) == 1:
        n = await console.service.clear_conditional_moves(match_id, uid, caller=console.caller())
        console.say(_n("{count} conditional line cleared", "{count} conditional lines "
                    "cleared", n))
        return
    if what == "list" and len(args) == 1:
        lines = await console.service.conditional_moves(match_id, uid, caller=console.caller())
    else:
        lines = await console.service.add_conditional_moves(match_id, uid, " ".join(args),
                                                         caller=console.caller())
    if not lines:
        console.say(_("no conditional moves in #{match}", match=str(match_id)))
    for n, moves in enumerate(lines, start=1):
        pairs = ", ".join(f"{moves[i]} → {moves[i + 1]}"
                          for i in range(0, len(moves) - 1, 2))
        console.say(_("line {n}: {pairs}", n=str(n), pairs=pairs))

async def cmd_note(console: Console, args: list[str], line: str) -> None:
    uid = console.user()
    match_id = await _pick_any(console, args, text=True)
    what = args[0].lower() if args else "show"
    if what == "show" and len(args) <= 1:
        found = await console.service.note(match_id, uid, caller=console.caller())
        console.say(_("your note on #{match}: {note}", match=str(match_id), note=found)
                 if found is not None else
                 _("no note on #{match} (/note TEXT keeps one)", match=str(match_id)))
    elif what == "clear" and len(args) == 1:
        gone = await console.service.clear_note(match_id, uid, caller=console.caller())
        console.say(_("note cleared") if gone else _("there was no note"))
    else:
        await console.service.set_note(match_id, uid, note_text(line), caller=console.caller())
        console.say(_("note kept (only you see it)"))

async def cmd_follow(console: Console, args: list[str], line: str) -> None:
    uid = console.user()
    if not args:
        found = await console.service.follows(CONSOLE_GUILD, uid)
        if not found:
            console.say(_("you follow nothing (/follow #N or /follow @name)"))
        for f in found:
            console.say(_("following match #{match}", match=str(f.match_id))
                     if f.match_id is not None else
                     _("following {player}", player=console.name(f.player_id)))
        await _glance(console, uid)
        return
    digest = [a for a in options_of(args) if isinstance(a, tuple) and a[0] == "digest"]
    if digest:  # issue 42: the daily digest, asked for or stopped
        value = digest[0][1].lower()
        if len(args) > 1 or value not in ("on", "off"):
            raise ServiceError(_("/follow digest:on|off, alone"))
        when = await console.service.set_digest(CONSOLE_GUILD, uid, value == "on")
        console.say(_("daily digest on: your games at a glance, the first {when}",
                      when=console.when(when)) if when is not None else
                    _("daily digest off"))
        return
    await console.service.follow(CONSOLE_GUILD, uid, **await _follow_target(console, args))
    console.say(_("following {what}; you are told of each move", what=args[0]))

async def _glance(console: Console, uid: int) -> None:
    """The followed and own live games at a glance (issue 42): a line each, and with
    ``--boards`` one picture of them all."""
    boards = await console.service.glance(CONSOLE_GUILD, uid)
    now = console.clock.now()
    for b in boards:
        status, _mine = glance_status(b.match, uid, b.names, now)
        console.say(joined("  ", _("#{match} {game}", match=b.match.id,
                                   game=game_name(b.match.game, b.match.game_name)),
                           ": ", status, separator=""))
    if console.boards_dir is None or not boards:
        return
    shown = await asyncio.to_thread(glance_picture, boards, uid, now, console.printer.locale)
    if shown is not None:
        console.boards_dir.mkdir(parents=True, exist_ok=True)
        path = console.boards_dir / f"glance-{uid}.png"
        path.write_bytes(shown[0])
        console.say(_("your games at a glance: {path}", path=str(path)))

async def cmd_unfollow(console: Console, args: list[str], line: str) -> None:
    target = await _follow_target(console, args)
    await console.service.unfollow(CONSOLE_GUILD, console.user(), **target)
    console.say(_("no longer following {what}", what=args[0]))

async def cmd_notify(console: Console, args: list[str], line: str) -> None:
    prefs = await console.service.update_user_prefs(console.user(), args[0] if args else "")
    console.say(_("notifications: {mode}", mode=prefs.notify))

async def _pick_any(console: Console, args: list[str], *, text: bool = False) -> int:
    """A ``#N`` argument, else the current match (finished ones included), else the
    only live match (as ``pick_match``). ``text``: the arguments are text after an
    optional ``#N`` (a note), so only the first may name the match."""
    for a in list(args[:1] if text else args):
        if (number := number_token(a, no_such_match)) is not None:
            args.remove(a)
            return number
    current = console.current_match.get(console.user())
    # the token was looked for above: the fallback reads no word of a note as one
    return current if current is not None else await console.pick_match([])

async def _follow_target(console: Console, args: list[str]) -> dict[str, int]:
    if len(args) != 1:
        raise ServiceError(_("name one match (#N) or one player (@name)"))
    a = args[0]
    if (number := number_token(a, no_such_match)) is not None:
        return {"match_id": number}
    if a.startswith("@"):
        return {"player": await console.person(a)}
    raise ServiceError(_("name one match (#N) or one player (@name)"))

async def _blocked_one(console: Console, args: list[str]) -> int:
    """The one ``@name`` that /block or /unblock names (``@computer`` is the computer's)."""
    if len(args) != 1 or not (args[0].startswith("@") or args[0].lower() in COMPUTER_NAMES):
        raise ServiceError(_("name one player: /block @name"))
    if args[0].lower() in COMPUTER_NAMES:
        return computer_user(1)
    return await console.person(args[0])

async def cmd_block(console: Console, args: list[str], line: str) -> None:
    uid = console.user()
    switch = [a for a in options_of(args) if isinstance(a, tuple) and a[0] == "challenges"]
    if switch:  # no direct challenges for now, or again
        value = switch[0][1].lower()
        if len(args) > 1:
            raise ServiceError(challenges_alone())
        if value not in ("on", "off"):
            raise ServiceError(_("challenges must be on or off"))
        await console.service.set_challenges(uid, value == "on")
        console.say(challenges_words(value == "on"))
        return
    if not args:
        blocked = await console.service.blocked(uid)
        console.say(_("you block {players}", players=console.names_of(blocked))
                    if blocked else _("you block nobody (/block @name)"))
        if not await console.service.challenges_on(uid):
            console.say(challenges_off_words())
        return
    player = await _blocked_one(console, args)
    made = await console.service.block(uid, player)
    console.say(block_words(made, console.name(player)))

async def cmd_unblock(console: Console, args: list[str], line: str) -> None:
    player = await _blocked_one(console, args)
    gone = await console.service.unblock(console.user(), player)
    console.say(_("you no longer block {player}", player=console.name(player)) if gone
                else _("you do not block {player}", player=console.name(player)))
