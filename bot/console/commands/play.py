"""Playing a match: /move, /setup, /moves, /board, /games, /open, /resign, /draw, /next, /history.

Each command is ``async def NAME(console, args, line)``; the table of commands is
:data:`bot.console.commands.COMMANDS`."""

from __future__ import annotations

import rules
from bot.boards import text_board
from bot.console.common import (
    CONSOLE_GUILD,
    digits,
)
from bot.console.session import (
    Console,
)
from locales.i18n import (
    Words,
    _,
    joined,
    listing,
)
from locales.rules_words import rules_words
from locales.terms import move_display, seat_colour
from service import (
    MatchStatus,
    MoveResult,
    ServiceError,
)
from service.plies import headline


async def cmd_move(console: Console, args: list[str], line: str) -> None:
    uid = console.user()
    match_id = await console.pick_match(args)
    if not args:
        raise ServiceError(_("which move? e.g. /move h3-e3 (/moves lists them)"))
    result: MoveResult = await console.service.move(match_id, uid, " ".join(args),
                                                 caller=console.caller())
    console.current_match[uid] = match_id
    console.say(_("played {move}", move=move_display(result.display)))
    await console.show_board(match_id, result)

async def cmd_setup(console: Console, args: list[str], line: str) -> None:
    uid = console.user()
    match_id = await console.pick_match(args)
    try:
        result = await console.service.submit_setup(match_id, uid, " ".join(args),
                                                    caller=console.caller())
    except rules.RulesError as e:
        # how an arrangement is written: his own cells, in order, as /board tells him
        m = await console.service.get_match(match_id, caller=console.caller())
        cells = await console.setup_cells(m)
        if cells is None:
            raise
        raise ServiceError(joined(rules_words(e), cells, separator="; ")) from None
    console.say(_("arrangement submitted for #{match}", match=match_id))
    if result.match.status is MatchStatus.ACTIVE and \
            not result.match.position_text.startswith("setup"):
        await console.show_board(match_id)

async def cmd_moves(console: Console, args: list[str], line: str) -> None:
    uid = console.user()
    match_id = await console.pick_match(args)
    prefix = " ".join(args)
    found, total = await console.service.move_choices(match_id, uid, prefix,
                                                      caller=console.caller())
    if found:
        console.say(", ".join(d for _c, d in found))
        if total > len(found):
            console.say(_("{count} of {total}, type a prefix to narrow (/moves h3)",
                       count=len(found), total=total))
        return
    raise ServiceError(await _why_no_moves(console, match_id, uid, prefix))

async def _why_no_moves(console: Console, match_id: int, uid: int, prefix: str) -> Words:
    """Why ``/moves`` lists nothing, and what to do instead."""
    m = await console.service.get_match(match_id, caller=console.caller())
    if m.broken:
        return _("match #{match} is broken: {detail}", match=m.id, detail=m.broken)
    if m.status.is_waiting:
        return _("match #{match} has not started yet", match=m.id)
    if m.is_over:
        return _("match #{match} is over ({result})", match=m.id,
                 result=console.result_text(m))
    if uid not in m.players():
        return _("you are not playing in match #{match}", match=m.id)
    if m.seats and any(s.user_id == uid and s.out for s in m.seats):
        return _("you are out of this game")
    if uid not in m.to_move:
        who = listing(_("{player} ({seat})", player=console.name(s.user_id),
                        seat=seat_colour(s.name))
                      for s in m.seats if s.user_id in m.to_move)
        return _("it is not your turn: {players} to move", players=who)
    if m.position_text.startswith("setup"):
        return _("the match is in its setup phase: /setup your 16 numbers")
    return _("no legal move starts with {prefix} (/moves alone lists them)",
             prefix=repr(prefix))

async def cmd_board(console: Console, args: list[str], line: str) -> None:
    """``/board [#N]``: the board now; ``/board [#N] ply:K`` (or ``/board #N K``): the
    board after K plies of the record (0: the start; a ply is any entry, a set-up or a
    resignation too), said in moves as the replay stepper says it."""
    match_id = await console.pick_match(args)
    if not args:
        await console.show_board(match_id, seats=True)
        return
    if len(args) > 1 or not digits(args[0]) or len(args[0]) > 7:
        raise ServiceError(_("/board [#N] [ply:K]: K is a number of plies (0: the start), "
                             "not {word}", word=repr(args[-1][:40])))
    board = await console.service.board_at(match_id, int(args[0]), console.caller(),
                                           console.printer.locale)
    # where it is in moves, as the stepper in Discord and the web say it (a ply is an
    # entry of the record: a set-up, a resignation or a skip is one, but no move)
    step = board.step
    who = None if step is None or step.user_id is None else \
        console.name(step.user_id, board.match)
    console.say(joined(f"#{match_id}", headline(board, who), separator=" · "))
    # a set-up's board is bare by the rules: say why rather than draw an empty grid (the
    # note begins with a player's name: never capitalised)
    console.say(text_board(board.position, board.marks) if board.note is None
                else board.note)
    # the players' ratings only while the match is live (an earlier ply of a finished
    # game is shown as if it went on, but the numbers are today's, not the game's)
    for seat_line in console.printer.seat_lines(board.match, ratings=board.live):
        console.say(seat_line)
    if board.image is not None:
        console.say(board.image.alt)
        if console.boards_dir is not None:
            console.boards_dir.mkdir(parents=True, exist_ok=True)
            path = console.boards_dir / f"match{match_id}-ply{board.ply}.png"
            path.write_bytes(board.image.png)
            console.say(_("board image: {path}", path=str(path)))

async def cmd_games(console: Console, args: list[str], line: str) -> None:
    # /games x listed every match as if x were not there
    console.takes_nothing(args, "/games", _("it lists your live matches"))
    uid = console.user()
    games = await console.service.games_of(CONSOLE_GUILD, uid)
    if not games:
        console.say(_("no live matches (/challenge someone)"))
    for g in games:
        mark = "*" if uid in g.to_move or uid in g.invited else " "
        console.say(joined(mark, console.describe(g)))

async def cmd_open(console: Console, args: list[str], line: str) -> None:
    console.takes_nothing(args, "/open", _("it lists the open challenges"))
    found = await console.service.open_challenges(CONSOLE_GUILD)
    console.say(joined(*(console.describe(g) for g in found), separator="\n") if found
             else _("no open challenges"))

async def cmd_resign(console: Console, args: list[str], line: str) -> None:
    m = await console.service.resign(await console.pick_only_match(args), console.user(),
                                  caller=console.caller())
    console.say(_("resigned: {match_line}", match_line=console.describe(m)))

async def cmd_draw(console: Console, args: list[str], line: str) -> None:
    uid = console.user()
    match_id = await console.pick_match(args)
    what = args[0].lower() if args else "offer"
    if what == "offer":
        m = await console.service.offer_draw(match_id, uid, caller=console.caller())
    elif what == "accept":
        m = await console.service.accept_draw(match_id, uid, caller=console.caller())
    elif what == "decline":
        before = await console.service.get_match(match_id, caller=console.caller())
        m = await console.service.decline_draw(match_id, uid, caller=console.caller())
        if before.draw_offer_by == uid:
            console.say(_("draw offer withdrawn: {match_line}",
                          match_line=console.describe(m)))
            return
    else:
        raise ServiceError(_("/draw offer, /draw accept or /draw decline"))
    said = {"offer": _("draw offer: {match_line}", match_line=console.describe(m)),
            "accept": _("draw accept: {match_line}", match_line=console.describe(m)),
            "decline": _("draw decline: {match_line}", match_line=console.describe(m))}
    console.say(said[what])
    if what == "accept" and m.status is MatchStatus.ACTIVE:
        console.say(_("you agreed; the draw needs every other player still in to agree "
                   "too"))

async def cmd_next(console: Console, args: list[str], line: str) -> None:
    # /next 3 went to another match than 3
    console.takes_nothing(args, "/next", _("it shows the next match waiting on you"))
    uid = console.user()
    m = await console.service.next_game(CONSOLE_GUILD, uid, console.current_match.get(uid))
    if m is None:
        console.say(_("no match is waiting on you"))
        return
    console.current_match[uid] = m.id
    console.say(console.describe(m))
    await console.show_board(m.id)

async def cmd_history(console: Console, args: list[str], line: str) -> None:
    # pick_only_match: /history 3 showed the current match, not match 3
    h = await console.service.history(await console.pick_only_match(args), console.caller())
    console.say(_("{match_line} ({format} export):", match_line=console.describe(h.match),
               format=h.export_format))
    console.say(h.export.rstrip())
    if h.note is not None:
        console.say(_("Your private note (only you see it): {note}", note=h.note))
