"""Puzzles from this database's finished games (issue 44): /puzzle.

``/puzzle`` (or ``/puzzle next [#N]``): the open puzzle, or the next one (puzzle N);
``/puzzle answer MOVE``: a move of the solution; ``/puzzle moves [PREFIX]``: the legal
moves there; ``/puzzle leaderboard``; ``/puzzle daily on|off``: a daily puzzle printed
here; ``/puzzle mine``: wait for the search the sweep started, then search the finished
games left now (within the hourly bound). With ``--boards`` the position is also written
as a PNG."""

from __future__ import annotations

import asyncio

from bot import puzzles
from bot.boards import text_board
from bot.console.common import CONSOLE_CHANNEL, CONSOLE_GUILD, digits, options_of
from bot.console.session import Console
from locales.i18n import _, _n, joined
from service import PuzzleView, ServiceError

USAGE = _("/puzzle [next [#N] | answer MOVE | moves [PREFIX] | leaderboard | daily on|off "
          "| mine]")


async def show(console: Console, view: PuzzleView) -> None:
    """The puzzle as it stands: its heading, task, source, board and progress."""
    console.say(puzzles.heading(view))
    console.say(puzzles.task(view.game, view.position, view.seat, view.goal))
    console.say(puzzles.source(view))
    console.say(text_board(view.position, view.last))
    console.say(puzzles.progress(view))
    if console.boards_dir is None:
        return
    drawn = await asyncio.to_thread(puzzles.picture, view, console.printer.locale)
    if drawn is None:
        return
    console.boards_dir.mkdir(parents=True, exist_ok=True)
    path = console.boards_dir / f"puzzle{view.id}.png"
    path.write_bytes(drawn.png)
    console.say(_("puzzle image: {path}", path=str(path)))


ACTIONS = ("next", "answer", "moves", "leaderboard", "daily", "mine")
NAMES = {"action", "puzzle", "move", "prefix", "state"}


async def cmd_puzzle(console: Console, args: list[str], line: str) -> None:
    """``/puzzle [ACTION] ...``, each part in place or by name (``action:answer
    move:h3-e3``, ``puzzle:7``, ``prefix:h3``, ``state:on``)."""
    action: str | None = None
    words: list[str] = []
    given: dict[str, str] = {}
    for a in options_of(args):
        if isinstance(a, tuple):
            if a[0] not in NAMES:
                raise ServiceError(USAGE)
            given[a[0]] = a[1]
        elif action is None and not words and a.lower() in ACTIONS:
            action = a.lower()
        else:
            words.append(a)
    action = given.pop("action", action or "next").lower()
    service = console.service
    if action == "next":
        number = given.pop("puzzle", " ".join(words)).lstrip("#")
        if given or (number and (not digits(number) or len(number) > 18)):
            raise ServiceError(USAGE)
        await show(console, await service.puzzle(CONSOLE_GUILD, console.user(),
                                                 int(number) if number else None))
    elif action == "answer":
        move = given.pop("move", " ".join(words))
        if given or not move:
            raise ServiceError(_("/puzzle answer MOVE, e.g. /puzzle answer h3-e3"))
        answer = await service.answer_puzzle(CONSOLE_GUILD, console.user(), move)
        for sentence in puzzles.answer_lines(answer):
            console.say(sentence)
        console.say(text_board(answer.puzzle.position, answer.puzzle.last))
    elif action == "moves" and not set(given) - {"prefix"}:
        found = await service.puzzle_moves(CONSOLE_GUILD, console.user(),
                                           given.get("prefix", " ".join(words)))
        console.say(joined(*(d for _c, d in found), separator=", ") if found
                    else _("no move fits: /puzzle next shows your puzzle"))
    elif action == "leaderboard" and not given and not words:
        board = await service.puzzle_leaderboard(CONSOLE_GUILD)
        for line_of in puzzles.leaderboard_lines(board,
                                                 lambda u: str(console.printer.name(u))):
            console.say(line_of)
    elif action == "daily" and not set(given) - {"state"} \
            and given.get("state", " ".join(words)).lower() in ("on", "off"):
        on = given.get("state", " ".join(words)).lower() == "on"
        await service.set_daily_puzzle(CONSOLE_GUILD, CONSOLE_CHANNEL if on else None)
        if not on:
            console.say(_("Daily puzzle off."))
        elif await service.daily_puzzle_ready(CONSOLE_GUILD):
            console.say(_("Daily puzzle on: one a day, the first at the next sweep."))
        else:
            console.say(_("Daily puzzle on: one a day. There is no puzzle to post yet: the "
                          "first comes within a day of one being found in this server's "
                          "finished games."))
    elif action == "mine" and not given and not words:
        await service.puzzles_idle()  # what the sweep started, first
        mined = await service.mine_puzzles()
        console.say(_n("{count} finished game searched for puzzles",
                       "{count} finished games searched for puzzles", mined))
    else:
        raise ServiceError(USAGE)
