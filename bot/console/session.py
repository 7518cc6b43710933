"""The local console: the match service over SQLite in a terminal, one person playing
several users. It is the way to try Tablero without Discord and it drives end-to-end tests.

    as alice
    /challenge @bob xiangqi days:3
    as bob
    /accept
    /move h3-e3
    /board

Commands take an optional ``#<match>``; without it they act on the user's current match
(the last one he touched or was told about, or his only live match). Every reply and every
notification is printed; boards are drawn as text and, when the render package is
present and ``--boards`` is given, written as PNG files whose path is printed. The
deadline sweep runs before every command, as the bot's periodic sweep would. Input comes
from stdin (a prompt on a terminal, a script otherwise); the console exits 0 at the end.

Clocks do not run while the console is closed: it resumes at start (every live match's
clock moves later by the time since the console or the bot last ran, and the match is
told), and beats the heartbeat before every command while it is open. ``/sweep +DAYS``
moves time on purpose: it beats at the new time, so nothing is extended for it."""

from __future__ import annotations

import asyncio
import shlex
from collections.abc import Awaitable, Callable, Mapping
from pathlib import Path
from typing import TextIO

import rules
from bot.boards import text_board
from bot.console.common import (
    CONSOLE_GUILD,
    ShiftedClock,
    digits,
    named,
    no_such_match,
    number_token,
    user_id,
)
from bot.console.printer import (
    ConsolePrinter,
)
from bot.console_args import CONSOLE_SYNTAX, arranged
from bot.web.links import WebLinks
from locales.i18n import (
    Words,
    _,
    commands_written,
    joined,
)
from locales.rules_words import rules_words
from rules.notation import point_name
from service import (
    BoardRenderer,
    Caller,
    MatchNotFound,
    MatchService,
    MatchView,
    MoveResult,
    ServiceError,
    StorageUnavailable,
    texts,
)
from service.boards import draw_board
from service.inputs import check_characters, without_invalid
from service.outbox import OutboxRelay
from service.views import BoardState

Command = Callable[["Console", list[str], str], Awaitable[None]]
"""A console command: ``await command(console, args, line)`` (``bot.console.commands``)."""


class Console:
    """Reads command lines, runs them against the service and prints the replies through
    the printer (which the service notifies)."""

    def __init__(self, service: MatchService, printer: ConsolePrinter, *,
                 commands: Mapping[str, Command],
                 clock: ShiftedClock, boards_dir: Path | None = None,
                 renderer: BoardRenderer | None = None) -> None:
        self.service = service
        self.commands = commands  # name -> command (bot.console.commands.COMMANDS)
        self.printer = printer
        self.clock = clock
        self.boards_dir = boards_dir
        printer.boards_dir = boards_dir
        printer.clock = clock
        self.renderer = renderer
        self.current_user: int | None = None
        self.relay: OutboxRelay | None = None  # set by open_console (the service's notifier)
        self.web: WebLinks | None = None  # signs /web's links (TABLERO_WEB_SECRET set)
        self.out = printer.out
        self.names = printer.names
        self.current_match = printer.current_match
        self.say = printer.say
        self.when = printer.when
        self.locale = printer.locale
        self.name = printer.name
        self.names_of = printer.names_of
        self.learn = printer.learn
        self.describe = printer.describe
        self.result_text = printer.result_text

    # ------------------------------------------------------------------ boards

    async def _drawn_ply(self, m: MatchView) -> int:
        """The ply of the position a board of ``m`` shows, which names its PNG. A leave
        that ended the game (a resignation, a timeout) is a ply of the record that moves
        nothing: the last board keeps the ply of the move before it (issue 38), as a
        seat leaving a four-player game that goes on does not."""
        if not m.is_over or m.last_move is not None or not m.ply:
            return m.ply
        plies = (await self.service.record(m.id, caller=self.caller())).plies
        ply, i = m.ply, len(plies) - 1
        while i >= 1 and plies[i].move is None and plies[i].position is plies[i - 1].position:
            ply, i = ply - 1, i - 1
        return ply

    async def show_board(self, match_id: int, played: MoveResult | None = None, *,
                         seats: bool = False) -> None:
        """The board as text, its description and (with ``--boards``) a PNG; after a move,
        from what the move returned (no read, the position drawn once). ``seats``: a line
        per seat under it too, with the players' ratings (``/board``)."""
        if played is not None and played.board is not None:
            m, board = played.match, played.board
        else:
            m = await self.service.get_match(match_id, self.caller())
            board = None
        if m.status.is_waiting:
            self.say(_("#{match} has not started yet: {match_line}", match=m.id,
                       match_line=self.describe(m)))
            return
        if m.position_text.startswith("setup"):
            self.say(_("#{match}: the board appears once both arrangements are in",
                       match=m.id))
            if (cells := await self.setup_cells(m)) is not None:
                self.say(cells)
            return
        if board is None:
            position, marks = await self.service.position(match_id, self.caller())
            board = BoardState(position, marks)
        self.say(text_board(board.position, board.last_marks))
        self.say(self.service.describe(m, board.position, board.moves))
        if seats:
            for line in self.printer.seat_lines(m):
                self.say(line)
        if self.boards_dir is not None and self.renderer is not None:
            viewer = m.seat_of(self.current_user) if self.current_user else None
            image = await asyncio.to_thread(
                draw_board, self.renderer, m, board,
                texts.seat_names(m, self.printer.seat_name), viewer, self.printer.locale)
            if image is not None:
                self.boards_dir.mkdir(parents=True, exist_ok=True)
                path = self.boards_dir / f"match{m.id}-ply{await self._drawn_ply(m)}.png"
                path.write_bytes(image.png)
                self.say(_("board image: {path}", path=str(path)))

    async def setup_cells(self, m: MatchView) -> Words | None:
        """The cells the reader's arrangement fills, in the order he writes his numbers,
        while he still has to hand it in ("your 16 numbers in cell order" named no cell,
        and /rules does not either); None otherwise."""
        uid = self.current_user
        seat = next((s.seat for s in m.seats if s.user_id == uid), None)
        if seat is None or uid not in m.to_move:
            return None
        position, _marks = await self.service.position(m.id, self.caller())
        cells = position.setup_cells(seat)
        if not cells:
            return None
        return _("#{match}: /setup your numbers for the cells {cells}, in this order",
                 match=m.id, cells=" ".join(point_name(*p) for p in cells))

    # ------------------------------------------------------------------ commands

    def caller(self) -> Caller | None:
        """The console's reader: every console match is in its one server."""
        return Caller(CONSOLE_GUILD, self.current_user) if self.current_user else None

    async def person(self, token: str) -> int:
        """The user an ``@name`` token names, his name remembered in the database (so
        every path that names someone names him after a restart too: issue 38)."""
        name = named(token)
        uid = user_id(name)
        await self.learn(uid, name)
        return uid

    def user(self) -> int:
        if self.current_user is None:
            raise ServiceError(_("say who you are first: as NAME"))
        return self.current_user

    async def pick_match(self, args: list[str]) -> int:
        """The match named by a ``#N`` argument (removed from ``args``), else the current."""
        for a in list(args):
            if (number := number_token(a, no_such_match)) is not None:
                args.remove(a)
                return number
        uid = self.user()
        games = await self.service.games_of(CONSOLE_GUILD, uid)
        current = self.current_match.get(uid)
        if current is not None and any(g.id == current for g in games):
            return current
        if len(games) == 1 or (games and uid in games[0].to_move):
            return games[0].id
        if current is not None:
            return current
        raise ServiceError(_("which match? add #<number> (see /games)"))

    async def pick_only_match(self, args: list[str]) -> int:
        """``pick_match`` for a command whose only argument is the match."""
        self.nothing_else([a for a in args if not a.startswith("#")])
        match_id = await self.pick_match(args)
        self.nothing_else(args)
        return match_id

    @staticmethod
    def nothing_else(args: list[str]) -> None:
        """Refuse what is left of a command that takes only a match: a word there was
        meant as the match (``/rematch abc``) and is refused as an unknown one; a bare
        number (``/history 3``) is told how a match is written."""
        if args and digits(args[0]) and len(args[0]) < 20:
            raise MatchNotFound(_("a match is written with #: #{number}", number=args[0]))
        if args:
            raise no_such_match(args[0][:40])

    @staticmethod
    def takes_nothing(args: list[str], command: str, does: Words) -> None:
        """Refuse any word after ``command``, which takes none (``/games``, ``/open``,
        ``/next``; ``does``: what it does). A match there (``#1``, ``match:1``, a bare
        ``1``) is pointed to ``/board``, which shows one ("there is no match #1" said of a
        match that exists); any other word is named."""
        if not args:
            return
        number = args[0].removeprefix("#")
        if digits(number) and len(number) < 20:
            raise ServiceError(_("{command} takes no match: {does}; /board #{match} shows "
                                 "match #{match}", command=command, does=does,
                                 match=int(number)))
        raise ServiceError(_("{command} takes nothing after it ({word}): {does}",
                             command=command, word=repr(args[0][:40]), does=does))

    async def handle(self, line: str) -> bool:
        """Run one command line; False when the console should stop. Whatever it says or
        draws names commands as the console's are written, in English
        (``CONSOLE_SYNTAX``: a text shared with Discord names ``/move``, not the German
        ``/ziehen``, and ``/history #7``, not ``/history match:7``)."""
        with commands_written(CONSOLE_SYNTAX):
            return await self._handle(line)

    async def _handle(self, line: str) -> bool:
        line = line.strip()
        if not line or line.startswith(";"):
            return True
        try:
            # every word of the line is text a person typed: one check for all of them
            # (a terminal turns bytes that are not UTF-8 into lone surrogates)
            check_characters(line, _("line"))
        except ServiceError as e:
            self.say(joined("!", e.text))
            return True
        try:
            words = shlex.split(line)
        except ValueError:
            words = line.split()
        head = words[0].lower()
        try:
            if head in ("quit", "exit", "/quit", "/exit"):
                return False
            if head in ("as", "/as"):
                if len(words) != 2:
                    raise ServiceError(_("as NAME"))
                name = named(words[1])
                self.current_user = user_id(name)
                await self.learn(self.current_user, name)
                # times from now on in his own zone (he reads the terminal now)
                self.printer.zone = (await self.service.get_user_prefs(
                    self.current_user)).time_zone
                self.say(_("you are {name}", name=name))
                return True
            command = self.commands.get(head.lstrip("/"))
            if command is None:
                raise ServiceError(_("unknown command {command}; /help lists them",
                                     command=repr(head)))
            args = arranged(head.lstrip("/"), words[1:])  # name:value in its place
            if head.lstrip("/") != "sweep":
                # Like the bot's periodic sweep: deadlines that passed act before anything
                # else (one indexed query when nothing is due). The console is open, so it
                # is running: it beats, and time spent at the prompt is not an outage.
                try:
                    await self.service.beat()
                    await self.service.sweep()
                except StorageUnavailable:
                    pass  # the command itself says whether the database can serve it
                    # (on a full disk a board still shows); the next command sweeps
            await command(self, args, line)
            # the computer answers before the next prompt (its moves print as they land)
            await self.service.computers_idle()
            await self.service.explorer_idle()  # a game that ended is in the explorer
        except ServiceError as e:
            self.say(joined("!", e.text))
        except rules.RulesError as e:
            self.say(joined("!", rules_words(e)))
        return True

    async def run(self, stream: TextIO, *, prompt: bool = False) -> int:
        while True:
            if prompt:
                who = self.name(self.current_user) if self.current_user else ""
                self.out.write(f"{who}> ")
                self.out.flush()
            line = await asyncio.to_thread(stream.readline)
            if not line:
                return 0
            if not prompt:  # the echo shows what it can (a refusal follows a bad line)
                self.say(f"> {without_invalid(line.rstrip())}")
            if not await self.handle(line):
                return 0
