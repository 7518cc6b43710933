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
moves time on purpose: it beats at the new time, so nothing is extended for it.
"""

from __future__ import annotations

import asyncio
import random
import shlex
import sys
import zlib
from collections.abc import Awaitable, Callable, Iterable
from datetime import datetime, timedelta
from pathlib import Path
from typing import TextIO

import rules
from bot.boards import load_renderer, text_board
from bot.names import NameBook
from bot.service import (
    BoardRenderer,
    Caller,
    ChallengeClosed,
    ChallengeReceived,
    Clock,
    ClocksExtended,
    ConditionalMovePlayed,
    DeadlineReminder,
    DrawDeclined,
    DrawOffered,
    Event,
    LobbyChanged,
    MatchEnded,
    MatchService,
    MatchView,
    MoveFollowed,
    MovePicker,
    MovePlayedFor,
    MoveResult,
    PlayerOut,
    Repository,
    ServiceError,
    SetupSubmitted,
    StandingsChanged,
    SystemClock,
    TakebackDeclined,
    TakebackOffered,
    TakenBack,
    TurnStarted,
    texts,
)
from bot.service.boards import draw_board
from bot.service.computer import DEFAULT_LEVEL, computer_name, is_computer
from bot.service.outbox import OutboxRelay
from bot.service.records import OutboxEntry
from bot.service.tournament_records import TournamentGame, TournamentRecord
from bot.service.tournaments import Result
from bot.service.tournaments.table import StandingsTable
from bot.service.views import RATING_MEANING, BoardState
from locales.i18n import DEFAULT_LOCALE, Text, _, _n
from locales.results import leaving_note, result_sentence
from locales.summaries import HIDDEN_OPTIONS, plain, rules_summary

CONSOLE_GUILD = 1
CONSOLE_CHANNEL = 1
CONSOLE_LOCALE = DEFAULT_LOCALE

HELP = """\
Commands (a #<match> argument picks a match; otherwise your current one):
  as NAME                         act as user NAME (created on first use)
  /challenge [@user ...] GAME [option:value ...] [days:N] [casual] [seat:NAME]
                                  no @user = an open challenge; 4-player games make a lobby;
                                  option:value and option=value both work, each once
  /challenge @computer GAME [level:1-8] [option:value ...]
                                  play Tablero itself (casual; level 5 unless given)
  /fill [level:1-8]               your lobby's empty seats get computer players
  /hint                           against the computer: the move its top level would play
  /analysis [#N]                  a finished 2-player game: the moves that cost the most
  /accept  /decline  /cancel  /join [seat:NAME]
  /move TEXT                      e.g. /move h3-e3
  /moves [PREFIX]                 legal moves (the autocomplete list)
  /setup NUMBERS                  Querni 'choose': your 16 numbers in cell order
  /board   /games   /open   /history   /resign
  /draw offer|accept|decline
  /takeback [ask|accept|decline]  take your last move back, by your opponent's consent
  /rematch [#N]                   a finished match again: colours swapped (4 players:
                                  seats rotated), same terms; the others /accept
  /premove THEIRS MINE [THEIRS MINE ...] [; another line]
                                  conditional moves (commas between moves with spaces)
  /premove list   /premove clear
  /note [TEXT | clear]            your private note on the match (alone: show it)
  /follow [#N | @user]            be told of each move (alone: list what you follow)
  /unfollow #N | @user
  /leaderboard GAME [PAGE]   /stats [@user]
  /rules [GAME]                   how a game is played (teams, fast and slow included)
  /settings [days:N] [reminders:on|off] [threads:on|off] [takebacks:on|off]
  /notify mention|dm              how you want to be told it is your turn
  /sweep [+DAYS]                  run the deadline sweep (optionally DAYS from now)
  /tournament create GAME FORMAT [rounds:N] [name:TEXT] [days:N] [cap:N]
              [registration:DAYS] [casual] [option:value ...]
                                  FORMAT: rr, double, swiss (needs rounds:N), knockout
  /tournament join|leave|start|cancel [#T]   /tournament remove [#T] @user
  /tournament standings [#T] [csv]   /tournament pairings [#T] [ROUND]
  /tournament mine [#T]              /tournaments
  /games-list                     the games Tablero knows
  /help   quit"""


MAX_NAME = 32
"""Console user names are capped like Discord's display names."""

SWITCH_VALUES = {"on": True, "off": False, "yes": True, "no": False, "true": True,
                 "false": False}
"""What an on/off setting accepts (``reminders:on``), refused otherwise."""


def options_of(args: Iterable[str]) -> list[tuple[str, str] | str]:
    """Each argument as ``(name, value)`` when written ``name:value`` or ``name=value``
    (the name lowercased), else as it is; a name given twice is refused.

    >>> options_of(["xiangqi", "days=3", "Seat:red"])
    ['xiangqi', ('days', '3'), ('seat', 'red')]
    """
    out: list[tuple[str, str] | str] = []
    seen: set[str] = set()
    for a in args:
        cut = min((i for i in (a.find(":"), a.find("=")) if i > 0), default=-1)
        if a.startswith("@") or a.startswith("#") or cut < 0:
            out.append(a)
            continue
        key, value = a[:cut].lower(), a[cut + 1:]
        if key in seen:
            raise ServiceError(f"{key} is given twice: say it once")
        seen.add(key)
        out.append((key, value))
    return out


def named(text: str) -> str:
    """A console user name (``@`` dropped), refused when empty or over ``MAX_NAME``."""
    name = text.strip().lstrip("@")
    if not name:
        raise ServiceError("a name, please: as NAME")
    if len(name) > MAX_NAME:
        raise ServiceError(f"names are at most {MAX_NAME} characters ({len(name)} given)")
    return name


ENDED_WITHOUT_A_MOVE = frozenset({"agreement", "aborted", "broken", "resignation", "timeout"})
"""MatchEnded reasons that no move caused (the match's last move is older news)."""


def digits(text: str) -> bool:
    """ASCII digits only: ``str.isdigit`` also accepts ``²`` and ``٣``, which ``int``
    refuses or reads unexpectedly."""
    return text.isascii() and text.isdigit()


def user_id(name: str) -> int:
    """A stable id for a console user name (the same in every session on a database)."""
    return zlib.crc32(name.strip().lower().lstrip("@").encode()) + 1_000


class ShiftedClock:
    """The system clock plus an offset that ``/sweep +DAYS`` moves forward."""

    def __init__(self, base: Clock | None = None) -> None:
        self.base = base or SystemClock()
        self.offset = timedelta()

    def now(self) -> datetime:
        return self.base.now() + self.offset


class ConsolePrinter:
    """The console's output and the service's ``Notifier`` and ``NameResolver``: prints
    replies and what Discord would post, names users, and remembers each user's current
    match. Built first: the service is built over it, then the ``Console`` over both."""

    def __init__(self, out: TextIO) -> None:
        self.out = out
        self.names: dict[int, str] = {}
        self.name_book = NameBook()  # the names seen, stored so they outlive the session
        self.current_match: dict[int, int] = {}
        self.declining: int | None = None  # who is declining now (a lobby says "declined")
        self.boards_dir: Path | None = None  # set by the Console: where images are drawn

    def say(self, text: str) -> None:
        print(text, file=self.out, flush=True)

    def tell(self, text: Text) -> None:
        """A sentence built with ``locales.i18n``, in the console's language."""
        self.say(text.render(CONSOLE_LOCALE))

    async def print_table(self, table: StandingsTable, stem: str) -> None:
        """The standings as text, and as an image file when boards are drawn."""
        self.say(f"{table.title} - {table.subtitle}")
        widths = [max(len(r[i]) for r in (table.headers, *table.rows))
                  for i in range(len(table.headers))]
        for row in (table.headers, *table.rows):
            self.say("  " + "  ".join(c.ljust(w) if i == 1 else c.rjust(w)
                                      for i, (c, w) in enumerate(zip(row, widths,
                                                                     strict=True))))
        if self.boards_dir is not None:
            from render.table import draw_table  # the console draws only when asked to
            image = await asyncio.to_thread(
                draw_table, table.headers, table.rows, title=table.title,
                subtitle=table.subtitle, align=table.align, top_rows=table.top_rows,
                faded_rows=table.faded_rows)
            self.boards_dir.mkdir(parents=True, exist_ok=True)
            path = self.boards_dir / f"{stem}.png"
            path.write_bytes(image.png)
            self.say(f"standings image: {path}")

    def name(self, uid: int | None) -> str:
        if uid is None:
            return "(empty)"
        if is_computer(uid):
            return computer_name(uid)
        return self.names.get(uid, f"user{uid}")

    def seat_name(self, guild_id: int, user_id: int) -> str:
        """The service's ``NameResolver``: names on board images."""
        return self.name(user_id) if is_computer(user_id) else self.names.get(user_id, "")

    async def learn(self, uid: int, name: str) -> None:
        """Remember ``uid``'s name, in this session and in the database."""
        self.names[uid] = name
        await self.name_book.seen(CONSOLE_GUILD, uid, name)

    def names_of(self, uids: Iterable[int]) -> str:
        return ", ".join(self.name(u) for u in uids) or "nobody"

    def describe(self, m: MatchView) -> str:
        seats = "; ".join(
            f"{s.name}: {self.name(s.user_id)}" + (" (out)" if s.out else "")
            + (f" (with {self.names_of(mates)})"
               if s.user_id is not None and (mates := m.team_mates(s.user_id)) else "")
            for s in m.seats)
        if m.status.is_waiting:
            # Nobody is seated yet: say who is in, who is invited, and what is still open.
            joined = [u for u in m.joined]
            free = m.seat_count - len(joined) - len(m.invited)
            parts = [f"{self.names_of(joined)} in"]
            if m.invited:
                parts.append(f"{self.names_of(m.invited)} invited")
            if free > 0:
                parts.append(f"{free} open place{'s' if free > 1 else ''}")
            chosen = [f"{s.name}: {self.name(s.user_id)}" for s in m.seats
                      if s.user_id is not None]
            seats = ", ".join(parts) + (f" (seats {'; '.join(chosen)})" if chosen else "")
        if not seats:
            seats = f"{self.name(m.challenger_id)} vs " + (
                self.names_of(m.invited) if m.invited else "anyone")
        state = m.status.value
        if m.status.value == "active":
            state = f"move {m.ply + 1}, {self.names_of(m.to_move)} to move"
            if m.deadline:
                state += f" by {m.deadline:%Y-%m-%d %H:%M} UTC"
        elif m.result is not None:
            state += f": {self.result_text(m)}"
        opts = " ".join(f"{k}:{v}" for k, v in m.options.items() if k != "seed")
        rated = "rated" if m.rated else "casual"
        return (f"#{m.id} {m.game_name}{' ' + opts if opts else ''} ({rated}, "
                f"{m.days_per_move}d/move) - {seats} - {state}")

    def result_text(self, m: MatchView) -> str:
        r = m.result
        if r is None:
            return m.status.value
        # A ranking without a single winner (4 players) says the places, not "draw".
        places = "; ".join(f"{i + 1}. {self.names_of(g)}" for i, g in enumerate(r.ranking))
        return result_sentence("console", r.kind, reason=r.reason,
                               winners=self.names_of(r.winners), places=places)

    async def deliver(self, entry: OutboxEntry, event: Event) -> None:
        """The console's outbox deliverer: print the entry's event."""
        await self.notify(event)

    async def notify(self, event: Event) -> None:
        """Print what Discord would post."""
        m = event.match
        self.remember(m)
        if isinstance(event, ChallengeReceived) and event.rematch_of is not None:
            self.tell(_("* {player} asks {others} for a rematch of #{old}: {game}, match "
                        "#{match} (/accept or /decline)", player=self.name(event.by),
                        others=self.names_of(event.to), old=str(event.rematch_of),
                        game=m.game_name, match=str(m.id)))
        elif isinstance(event, ChallengeReceived):
            to = self.names_of(event.to) if event.to else "anyone (open challenge)"
            self.say(f"* {self.name(event.by)} challenges {to} to {m.game_name} "
                     f"(match #{m.id}): /accept or /decline")
        elif isinstance(event, LobbyChanged):
            verb = "joined" if event.joined else (
                "declined" if self.declining == event.user_id else "left")
            self.say(f"* {self.name(event.user_id)} {verb} lobby #{m.id} "
                     f"({len(m.joined)}/{m.seat_count})")
        elif isinstance(event, ChallengeClosed):
            self.say(f"* match #{m.id} {event.reason} by {self.name(event.by)}")
        elif isinstance(event, TurnStarted):
            if event.last_move:
                who = f"{self.name(event.by)} played" if event.by is not None else "after"
                self.say(f"* #{m.id}: {who} {event.last_move} - "
                         f"{self.names_of(event.users)} to move")
                if event.draw_lapsed_by is not None:
                    self.say(f"* #{m.id}: {self.name(event.draw_lapsed_by)}'s draw offer "
                             "lapsed (a move was played instead of an answer)")
            else:
                self.say(f"* #{m.id}: {self.names_of(event.users)} to move")
        elif isinstance(event, DeadlineReminder):
            hours = event.remaining.total_seconds() / 3600
            self.say(f"* reminder #{m.id}: {self.names_of(event.users)}, your move is due "
                     f"in {hours:.0f} h")
        elif isinstance(event, PlayerOut):
            self.say(f"* #{m.id}: {self.name(event.user_id)} {event.what} and is out")
        elif isinstance(event, MovePlayedFor):
            self.say(f"* #{m.id}: {self.name(event.user_id)} {event.what}")
        elif isinstance(event, DrawOffered):
            self.say(f"* #{m.id}: {self.name(event.by)} offers a draw (/draw accept or "
                     "/draw decline)")
        elif isinstance(event, DrawDeclined):
            self.say(f"* #{m.id}: {self.name(event.by)} declined the draw")
        elif isinstance(event, SetupSubmitted):
            self.say(f"* #{m.id}: {self.name(event.user_id)} submitted an arrangement")
        elif isinstance(event, MatchEnded):
            if m.last_move and event.reason not in ENDED_WITHOUT_A_MOVE:
                who = self.name(m.last_move_by) if m.last_move_by is not None else "someone"
                self.say(f"* #{m.id}: {who} played {m.last_move}")
            note = leaving_note(event.reason, self.name(event.left_by)) \
                if event.left_by is not None else None
            if note is not None:
                self.say(f"* #{m.id}: {note}")
            self.say(f"* #{m.id} is over: {self.result_text(m)}"
                     + (f" - {m.broken}" if m.broken else ""))
            for r in event.ratings:
                self.say(f"  rating {r.text(self.name(r.user_id))}")
        elif isinstance(event, ClocksExtended):
            self.say(f"* #{m.id}: {texts.offline_notice(event.gap)}")
        elif isinstance(event, TakebackOffered):
            self.tell(_("* #{match}: {player} asks to take back {move} (/takeback accept "
                        "or /takeback decline)", match=str(m.id),
                        player=self.name(event.by), move=event.move))
        elif isinstance(event, TakebackDeclined):
            self.tell(_("* #{match}: {player} declined the takeback", match=str(m.id),
                        player=self.name(event.by)))
        elif isinstance(event, TakenBack):
            self.tell(_("* #{match}: {player} agreed: {move} is taken back; "
                        "{mover} to move again", match=str(m.id),
                        player=self.name(event.accepted_by), move=event.move,
                        mover=self.name(event.by)))
        elif isinstance(event, ConditionalMovePlayed):
            self.tell(_("* #{match}: {player}'s conditional move {move} answers at once",
                        match=str(m.id), player=self.name(event.user_id), move=event.move))
        elif isinstance(event, MoveFollowed):
            self.tell(_("* to {followers} (following): {player} played {move} in #{match}",
                        followers=self.names_of(event.followers),
                        player=self.name(event.by), move=event.move, match=str(m.id)))
        elif isinstance(event, StandingsChanged):
            t = event.tournament_id
            if event.final:
                who = self.name(event.winner) if event.winner is not None else "shared"
                self.say(f"* tournament #{t} is over: winner {who}")
            else:
                self.say(f"* tournament #{t}: standings after match #{m.id}")
            await self.print_table(
                event.table, f"tournament{t}-" + ("final" if event.final else f"m{m.id}"))

    def remember(self, m: MatchView) -> None:
        for uid in (*m.players(), *m.invited, m.challenger_id):
            self.current_match.setdefault(uid, m.id)
        if m.status.value == "active" and m.ply == 0:
            # A match that has just started is what its players want to look at next.
            for uid in m.players():
                self.current_match[uid] = m.id
        for uid in m.to_move:
            self.current_match[uid] = m.id


class Console:
    """Reads command lines, runs them against the service and prints the replies through
    the printer (which the service notifies)."""

    def __init__(self, service: MatchService, printer: ConsolePrinter, *,
                 clock: ShiftedClock, boards_dir: Path | None = None,
                 renderer: BoardRenderer | None = None) -> None:
        self.service = service
        self.printer = printer
        self.clock = clock
        self.boards_dir = boards_dir
        printer.boards_dir = boards_dir
        self.renderer = renderer
        self.current_user: int | None = None
        self.relay: OutboxRelay | None = None  # set by open_console (the service's notifier)
        self.out = printer.out
        self.names = printer.names
        self.current_match = printer.current_match
        self.say = printer.say
        self.tell = printer.tell
        self.name = printer.name
        self.names_of = printer.names_of
        self.learn = printer.learn
        self.describe = printer.describe
        self.result_text = printer.result_text

    # ------------------------------------------------------------------ boards

    async def show_board(self, match_id: int, played: MoveResult | None = None) -> None:
        """The board as text, its description and (with ``--boards``) a PNG; after a move,
        from what the move returned (no read, the position drawn once)."""
        if played is not None and played.board is not None:
            m, board = played.match, played.board
        else:
            m = await self.service.get_match(match_id, self.caller())
            board = None
        if m.status.is_waiting:
            self.say(f"#{m.id} has not started yet: {self.describe(m)}")
            return
        if m.position_text.startswith("setup"):
            self.say(f"#{m.id}: the board appears once both arrangements are in")
            return
        if board is None:
            position, marks = await self.service.position(match_id, self.caller())
            board = BoardState(position, marks)
        self.say(text_board(board.position, board.last_marks))
        self.say(self.service.describe(m, board.position, board.moves))
        if self.boards_dir is not None and self.renderer is not None:
            viewer = m.seat_of(self.current_user) if self.current_user else None
            image = await asyncio.to_thread(
                draw_board, self.renderer, m, board,
                texts.seat_names(m, self.printer.seat_name), viewer)
            if image is not None:
                self.boards_dir.mkdir(parents=True, exist_ok=True)
                path = self.boards_dir / f"match{m.id}-ply{m.ply}.png"
                path.write_bytes(image.png)
                self.say(f"board image: {path}")

    # ------------------------------------------------------------------ commands

    def caller(self) -> Caller | None:
        """The console's reader: every console match is in its one server."""
        return Caller(CONSOLE_GUILD, self.current_user) if self.current_user else None

    def user(self) -> int:
        if self.current_user is None:
            raise ServiceError("say who you are first: as NAME")
        return self.current_user

    async def pick_match(self, args: list[str]) -> int:
        """The match named by a ``#N`` argument (removed from ``args``), else the current."""
        for a in list(args):
            if a.startswith("#") and digits(a[1:]):
                args.remove(a)
                return int(a[1:])
        uid = self.user()
        games = await self.service.games_of(CONSOLE_GUILD, uid)
        current = self.current_match.get(uid)
        if current is not None and any(g.id == current for g in games):
            return current
        if len(games) == 1 or (games and uid in games[0].to_move):
            return games[0].id
        if current is not None:
            return current
        raise ServiceError("which match? add #<number> (see /games)")

    async def handle(self, line: str) -> bool:
        """Run one command line; False when the console should stop."""
        line = line.strip()
        if not line or line.startswith(";"):
            return True
        try:
            words = shlex.split(line)
        except ValueError:
            words = line.split()
        head, args = words[0].lower(), words[1:]
        try:
            if head in ("quit", "exit", "/quit", "/exit"):
                return False
            if head in ("as", "/as"):
                if len(args) != 1:
                    raise ServiceError("as NAME")
                name = named(args[0])
                self.current_user = user_id(name)
                await self.learn(self.current_user, name)
                self.say(f"you are {name}")
                return True
            command = COMMANDS.get(head.lstrip("/"))
            if command is None:
                raise ServiceError(f"unknown command {head!r}; /help lists them")
            if command is not Console.cmd_sweep:
                # Like the bot's periodic sweep: deadlines that passed act before anything
                # else (one indexed query when nothing is due). The console is open, so it
                # is running: it beats, and time spent at the prompt is not an outage.
                await self.service.beat()
                await self.service.sweep()
            await command(self, args, line)
            # the computer answers before the next prompt (its moves print as they land)
            await self.service.computers_idle()
        except ServiceError as e:
            self.say(f"! {e.message}")
        except rules.RulesError as e:
            self.say(f"! {e.message}")
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
            if not prompt:
                self.say(f"> {line.rstrip()}")
            if not await self.handle(line):
                return 0

    # the commands ------------------------------------------------------

    async def cmd_help(self, args: list[str], line: str) -> None:
        self.say(HELP)

    async def cmd_games_list(self, args: list[str], line: str) -> None:
        for key, v in rules.VARIANTS.items():
            opts = " ".join(f"{k}:{'|'.join(map(str, vals)) or '...'}"
                            for k, vals in v.options.items() if k not in HIDDEN_OPTIONS)
            self.say(f"{key:18} {v.name}{'  ' + opts if opts else ''}")

    async def cmd_challenge(self, args: list[str], line: str) -> None:
        uid = self.user()
        opponents: list[int] = []
        game: str | None = None
        options: dict[str, object] = {}
        days: int | None = None
        rated = True
        seat: str | None = None
        computer = False
        level: str | None = None
        for a in options_of(args):
            if isinstance(a, str) and a.lower() in COMPUTER_NAMES:
                computer = True
            elif isinstance(a, tuple):
                key, value = a
                if key == "days":
                    if not digits(value) or len(value) > 3:
                        raise ServiceError("days must be a number from 1 to 14")
                    days = int(value)
                elif key == "seat":
                    seat = value
                elif key == "rated":
                    rated = value.lower() not in ("no", "off", "false", "0")
                elif key == "level":
                    level = value
                else:
                    options[key] = value
            elif a.startswith("@"):
                opponents.append(user_id(named(a)))
                await self.learn(user_id(a), named(a))
            elif a.lower() in ("casual", "unrated"):
                rated = False
            elif a.lower() == "rated":
                rated = True
            elif game is None:
                game = a
            else:
                raise ServiceError(f"what is {a!r}? options are written name:value "
                                   "(or name=value)")
        if game is None:
            raise ServiceError("which game? /challenge @bob xiangqi (see /games-list)")
        if level is not None and not computer:
            raise ServiceError("level: is for games against the computer (@computer)")
        if computer:
            if opponents:
                raise ServiceError("play the computer alone: /challenge @computer GAME; "
                                   "in a 4-player lobby, /fill adds computer players")
            m = await self.service.challenge_computer(
                CONSOLE_GUILD, CONSOLE_CHANNEL, uid, game, level=_level(level),
                options=options, days=days, seat=seat)
            self.current_match[uid] = m.id
            self.say(f"created {self.describe(m)}")
            if m.status.value == "active":
                await self.show_board(m.id)
            return
        m = await self.service.challenge(CONSOLE_GUILD, CONSOLE_CHANNEL, uid, game,
                                         opponents=opponents, options=options, days=days,
                                         rated=rated, seat=seat)
        self.current_match[uid] = m.id
        self.say(f"created {self.describe(m)}")

    async def cmd_hint(self, args: list[str], line: str) -> None:
        move, reason = await self.service.hint(await self.pick_match(args), self.user())
        self.say(f"hint: {move} ({reason})")

    async def cmd_analysis(self, args: list[str], line: str) -> None:
        numbers = [a[1:] for a in args if a.startswith("#") and digits(a[1:])]
        match_id = int(numbers[0]) if numbers else self.current_match.get(self.user())
        if match_id is None:
            raise ServiceError("which match? /analysis #N")
        swings = await self.service.analysis(match_id)
        if not swings:
            self.say(f"#{match_id}: no move lost a pawn's worth or more")
        for ply, _seat, display, lost in swings:
            self.say(f"  move {ply + 1}: {display} (about {lost / 100:.1f} pawns lost)")

    async def cmd_fill(self, args: list[str], line: str) -> None:
        """/fill [level:N] [#match]: computer players take the lobby's empty seats."""
        uid = self.user()
        level: str | None = None
        for a in args:
            if a.lower().startswith("level:"):
                level = a.partition(":")[2]
        numbers = [a[1:] for a in args if a.startswith("#") and digits(a[1:])]
        match_id = int(numbers[0]) if numbers else self.current_match.get(uid)
        if match_id is None:
            raise ServiceError("which lobby? /fill #N level:5")
        m = await self.service.add_computers(match_id, uid, _level(level))
        self.current_match[uid] = m.id
        self.say(f"filled: {self.describe(m)}")
        if m.status.value == "active":
            await self.show_board(m.id)

    def _seat_arg(self, args: list[str]) -> str | None:
        for a in options_of(args):
            if isinstance(a, tuple) and a[0] == "seat":
                return a[1]
        return None

    async def cmd_accept(self, args: list[str], line: str) -> None:
        await self._take_seat(args, self.service.accept, "accepted")

    async def _take_seat(self, args: list[str],
                         take: Callable[[int, int, str | None], Awaitable[MatchView]],
                         verb: str) -> None:
        """/accept and /join: take a seat in the waiting match, show the board if it began."""
        uid = self.user()
        match_id = await self._pick_waiting(args)
        m = await take(match_id, uid, self._seat_arg(args))
        self.current_match[uid] = m.id
        self.say(f"{verb}: {self.describe(m)}")
        if m.status.value == "active":
            await self.show_board(m.id)

    async def _pick_waiting(self, args: list[str]) -> int:
        """For /accept and /join: a #N, else the newest challenge naming or open to me."""
        for a in list(args):
            if a.startswith("#") and digits(a[1:]):
                args.remove(a)
                return int(a[1:])
        uid = self.user()
        for g in await self.service.games_of(CONSOLE_GUILD, uid):
            if uid in g.invited:
                return g.id
        for g in await self.service.open_challenges(CONSOLE_GUILD):
            if uid not in g.joined:
                return g.id
        for g in await self.service.games_of(CONSOLE_GUILD, uid):
            if g.status.is_waiting and g.challenger_id == uid:
                raise ServiceError(f"#{g.id} is your own challenge: /cancel withdraws it")
        raise ServiceError("there is no challenge waiting for you (see /games, /open)")

    async def cmd_join(self, args: list[str], line: str) -> None:
        await self._take_seat(args, self.service.join, "joined")

    async def cmd_decline(self, args: list[str], line: str) -> None:
        match_id = await self._pick_waiting(args)
        self.printer.declining = self.user()
        try:
            m = await self.service.decline(match_id, self.user())
        finally:
            self.printer.declining = None
        self.say(f"declined: {self.describe(m)}")

    async def cmd_cancel(self, args: list[str], line: str) -> None:
        m = await self.service.cancel(await self.pick_match(args), self.user())
        self.say(f"cancelled: {self.describe(m)}")

    async def cmd_move(self, args: list[str], line: str) -> None:
        uid = self.user()
        match_id = await self.pick_match(args)
        if not args:
            raise ServiceError("which move? e.g. /move h3-e3 (/moves lists them)")
        result: MoveResult = await self.service.move(match_id, uid, " ".join(args))
        self.current_match[uid] = match_id
        self.say(f"played {result.display}")
        await self.show_board(match_id, result)

    async def cmd_setup(self, args: list[str], line: str) -> None:
        uid = self.user()
        match_id = await self.pick_match(args)
        result = await self.service.submit_setup(match_id, uid, " ".join(args))
        self.say(f"arrangement submitted for #{match_id}")
        if result.match.status.value == "active" and \
                not result.match.position_text.startswith("setup"):
            await self.show_board(match_id)

    async def cmd_moves(self, args: list[str], line: str) -> None:
        uid = self.user()
        match_id = await self.pick_match(args)
        prefix = " ".join(args)
        found, total = await self.service.move_choices(match_id, uid, prefix)
        if found:
            self.say(", ".join(d for _, d in found))
            if total > len(found):
                self.say(f"{len(found)} of {total}, type a prefix to narrow (/moves h3)")
            return
        raise ServiceError(await self._why_no_moves(match_id, uid, prefix))

    async def _why_no_moves(self, match_id: int, uid: int, prefix: str) -> str:
        """Why ``/moves`` lists nothing, and what to do instead."""
        m = await self.service.get_match(match_id)
        if m.broken:
            return f"match #{m.id} is broken: {m.broken}"
        if m.status.is_waiting:
            return f"match #{m.id} has not started yet"
        if m.is_over:
            return f"match #{m.id} is over ({self.result_text(m)})"
        if uid not in m.players():
            return f"you are not playing in match #{m.id}"
        if m.seats and any(s.user_id == uid and s.out for s in m.seats):
            return "you are out of this game"
        if uid not in m.to_move:
            who = " and ".join(f"{self.name(s.user_id)} ({s.name})" for s in m.seats
                               if s.user_id in m.to_move)
            return f"it is not your turn: {who} to move"
        if m.position_text.startswith("setup"):
            return "the match is in its setup phase: /setup your 16 numbers"
        return f"no legal move starts with {prefix!r} (/moves alone lists them)"

    async def cmd_board(self, args: list[str], line: str) -> None:
        await self.show_board(await self.pick_match(args))

    async def cmd_games(self, args: list[str], line: str) -> None:
        uid = self.user()
        games = await self.service.games_of(CONSOLE_GUILD, uid)
        if not games:
            self.say("no live matches (/challenge someone)")
        for g in games:
            mark = "*" if uid in g.to_move or uid in g.invited else " "
            self.say(f"{mark} {self.describe(g)}")

    async def cmd_open(self, args: list[str], line: str) -> None:
        found = await self.service.open_challenges(CONSOLE_GUILD)
        self.say("\n".join(self.describe(g) for g in found) or "no open challenges")

    async def cmd_resign(self, args: list[str], line: str) -> None:
        m = await self.service.resign(await self.pick_match(args), self.user())
        self.say(f"resigned: {self.describe(m)}")

    async def cmd_draw(self, args: list[str], line: str) -> None:
        uid = self.user()
        match_id = await self.pick_match(args)
        what = args[0].lower() if args else "offer"
        actions: dict[str, Callable[[int, int], Awaitable[MatchView]]] = {
            "offer": self.service.offer_draw, "accept": self.service.accept_draw,
            "decline": self.service.decline_draw}
        if what not in actions:
            raise ServiceError("/draw offer, /draw accept or /draw decline")
        m = await actions[what](match_id, uid)
        self.say(f"draw {what}: {self.describe(m)}")
        if what == "accept" and m.status.value == "active":
            self.say("you agreed; the draw needs every other player still in to agree too")

    async def cmd_leaderboard(self, args: list[str], line: str) -> None:
        if not args:
            raise ServiceError("which game? /leaderboard xiangqi (alquerque-grande-4: "
                               "Alquerque grande, 4 players)")
        if len(args) > 2:
            raise ServiceError("/leaderboard GAME [PAGE]")
        board = await self.service.leaderboard(CONSOLE_GUILD, args[0], 1)
        if len(args) > 1:
            text = args[1]
            page = int(text) if digits(text) and len(text) < 7 else 0
            if not 1 <= page <= board.pages:
                raise ServiceError(f"there is no page {text!r}: pages go from 1 to "
                                   f"{board.pages}")
            if page != 1:
                board = await self.service.leaderboard(CONSOLE_GUILD, args[0], page)
        if board.total == 0:
            four = f" (4-player games are on {board.ladder}-4)" \
                if f"{board.ladder}-4" in self._four_player_ladders() else ""
            self.say(f"no rated results on {board.ladder} yet{four}")
            return
        self.say(f"{board.ladder} leaderboard, page {board.page}/{board.pages} "
                 f"({board.total} players)")
        for e in board.entries:
            self.say(f"{e.rank:3}. {self.name(e.user_id):12} {e.shown:>7}  "
                     f"{e.wins}W {e.losses}L {e.draws}D")
        self.say(plain(RATING_MEANING))

    @staticmethod
    def _four_player_ladders() -> set[str]:
        return {f"{k}-4" for k, v in rules.VARIANTS.items()
                if any(v.seat_count(**options) == 4 for options in v.option_sets())}

    async def cmd_stats(self, args: list[str], line: str) -> None:
        uid = user_id(args[0]) if args else self.user()
        if args:
            self.names.setdefault(uid, args[0].lstrip("@"))
        s = await self.service.stats(CONSOLE_GUILD, uid)
        self.say(f"{self.name(uid)}: {s.wins}W {s.losses}L {s.draws}D, "
                 f"{s.active_matches} active")
        for key, e in zip(s.ladder_keys, s.ladders, strict=True):
            self.say(f"  {key}: rank {e.rank}, {e.shown}")
        if any(s.against_computer):
            w, d, lost = s.against_computer
            self.say(f"  against the computer (casual): {w}W {lost}L {d}D")

    async def cmd_rules(self, args: list[str], line: str) -> None:
        if not args:
            self.say("/rules GAME, with GAME one of: " + ", ".join(rules.VARIANTS))
            return
        key = args[0].lower().removesuffix("-4")
        if key not in rules.VARIANTS:
            raise ServiceError(f"there is no game called {args[0]!r} (games: "
                               f"{', '.join(rules.VARIANTS)})")
        self.say(plain(rules_summary(key)))

    async def cmd_history(self, args: list[str], line: str) -> None:
        h = await self.service.history(await self.pick_match(args), self.caller())
        self.say(f"{self.describe(h.match)} ({h.export_format} export):")
        self.say(h.export.rstrip())
        if h.note is not None:
            self.tell(_("Your private note (only you see it): {note}", note=h.note))

    async def cmd_settings(self, args: list[str], line: str) -> None:
        values: dict[str, str] = {}
        for a in options_of(args):
            if not isinstance(a, tuple):
                raise ServiceError(f"what is {a!r}? write days:N, reminders:on|off, "
                                   "threads:on|off")
            values[a[0]] = a[1].lower()
        unknown = set(values) - {"days", "reminders", "threads", "takebacks"}
        if unknown:
            raise ServiceError(f"unknown setting {sorted(unknown)[0]!r} (settings: days, "
                               "reminders, threads, takebacks)")

        def flag(key: str) -> bool | None:
            if key not in values:
                return None
            if values[key] not in SWITCH_VALUES:
                raise ServiceError(f"{key} must be on or off, not {values[key]!r}")
            return SWITCH_VALUES[values[key]]
        days = values.get("days")
        if days is not None and (not digits(days) or len(days) > 3):
            raise ServiceError("days must be a number from 1 to 14")
        reminders, threads = flag("reminders"), flag("threads")
        s = await self.service.update_guild_settings(
            CONSOLE_GUILD, default_days=int(days) if days else None,
            reminders=reminders, use_threads=threads, takebacks_rated=flag("takebacks"))
        self.say(f"settings: {s.default_days} days per move, reminders "
                 f"{'on' if s.reminders else 'off'}, threads {'on' if s.use_threads else 'off'}")
        if "takebacks" in values or s.takebacks_rated:
            self.tell(_("takebacks in rated games: allowed") if s.takebacks_rated
                      else _("takebacks in rated games: not allowed (casual games: always)"))

    async def cmd_notify(self, args: list[str], line: str) -> None:
        prefs = await self.service.update_user_prefs(self.user(), args[0] if args else "")
        self.say(f"notifications: {prefs.notify}")

    # ------------------------------------------------------------------ comforts

    async def cmd_rematch(self, args: list[str], line: str) -> None:
        uid = self.user()
        m = await self.service.rematch(await self._pick_any(args), uid)
        self.current_match[uid] = m.id
        self.tell(_("rematch asked: {match}", match=self.describe(m)))

    async def _pick_any(self, args: list[str]) -> int:
        """A ``#N`` argument, else the current match (finished ones included)."""
        for a in list(args):
            if a.startswith("#") and digits(a[1:]):
                args.remove(a)
                return int(a[1:])
        current = self.current_match.get(self.user())
        if current is None:
            raise ServiceError("which match? add #<number>")
        return current

    async def cmd_takeback(self, args: list[str], line: str) -> None:
        uid = self.user()
        match_id = await self.pick_match(args)
        what = args[0].lower() if args else "ask"
        if what == "ask":
            await self.service.request_takeback(match_id, uid)
            self.tell(_("takeback asked; your opponent answers"))
        elif what == "accept":
            await self.service.accept_takeback(match_id, uid)
            await self.show_board(match_id)
        elif what == "decline":
            await self.service.decline_takeback(match_id, uid)
            self.tell(_("takeback declined"))
        else:
            raise ServiceError(_("/takeback ask, /takeback accept or /takeback decline"))

    async def cmd_premove(self, args: list[str], line: str) -> None:
        uid = self.user()
        match_id = await self.pick_match(args)
        what = args[0].lower() if args else "list"
        if what == "clear" and len(args) == 1:
            n = await self.service.clear_conditional_moves(match_id, uid)
            self.tell(_n("{count} conditional line cleared", "{count} conditional lines "
                         "cleared", n))
            return
        if what == "list" and len(args) == 1:
            lines = await self.service.conditional_moves(match_id, uid)
        else:
            lines = await self.service.add_conditional_moves(match_id, uid, " ".join(args))
        if not lines:
            self.tell(_("no conditional moves in #{match}", match=str(match_id)))
        for n, moves in enumerate(lines, start=1):
            pairs = ", ".join(f"{moves[i]} → {moves[i + 1]}"
                              for i in range(0, len(moves) - 1, 2))
            self.tell(_("line {n}: {pairs}", n=str(n), pairs=pairs))

    async def cmd_note(self, args: list[str], line: str) -> None:
        uid = self.user()
        match_id = await self._pick_any(args)
        if not args:
            found = await self.service.note(match_id, uid)
            self.tell(_("your note on #{match}: {note}", match=str(match_id), note=found)
                      if found is not None else
                      _("no note on #{match} (/note TEXT keeps one)", match=str(match_id)))
        elif args == ["clear"]:
            gone = await self.service.clear_note(match_id, uid)
            self.tell(_("note cleared") if gone else _("there was no note"))
        else:
            await self.service.set_note(match_id, uid, " ".join(args))
            self.tell(_("note kept (only you see it)"))

    def _follow_target(self, args: list[str]) -> dict[str, int]:
        if len(args) != 1:
            raise ServiceError(_("name one match (#N) or one player (@name)"))
        a = args[0]
        if a.startswith("#") and digits(a[1:]) and len(a) < 20:
            return {"match_id": int(a[1:])}
        if a.startswith("@"):
            uid = user_id(named(a))
            self.names.setdefault(uid, a.lstrip("@"))
            return {"player": uid}
        raise ServiceError(_("name one match (#N) or one player (@name)"))

    async def cmd_follow(self, args: list[str], line: str) -> None:
        uid = self.user()
        if not args:
            found = await self.service.follows(CONSOLE_GUILD, uid)
            if not found:
                self.tell(_("you follow nothing (/follow #N or /follow @name)"))
            for f in found:
                self.tell(_("following match #{match}", match=str(f.match_id))
                          if f.match_id is not None else
                          _("following {player}", player=self.name(f.player_id)))
            return
        await self.service.follow(CONSOLE_GUILD, uid, **self._follow_target(args))
        self.tell(_("following {what}; you are told of each move", what=args[0]))

    async def cmd_unfollow(self, args: list[str], line: str) -> None:
        await self.service.unfollow(CONSOLE_GUILD, self.user(), **self._follow_target(args))
        self.tell(_("no longer following {what}", what=args[0]))

    # ------------------------------------------------------------------ tournaments

    async def _pick_tournament(self, args: list[str]) -> int:
        """The tournament named by ``#N`` (removed from ``args``), else the newest open
        one of the console's server."""
        for a in list(args):
            if a.startswith("#") and a[1:].isascii() and a[1:].isdigit() and len(a) < 20:
                args.remove(a)
                return int(a[1:])
        found = await self.service.tournaments(CONSOLE_GUILD, running_only=True)
        if not found:
            raise ServiceError("no tournament is open: /tournament create GAME FORMAT")
        return found[0].id

    def _tournament_line(self, t: TournamentRecord) -> str:
        rounds = f", {t.rounds} rounds" if t.rounds else ""
        return (f"tournament #{t.id} {t.name}: {t.format.label}{rounds}, "
                f"{len(t.players)} player{'' if len(t.players) == 1 else 's'}, {t.status.value}"
                f"{f', round {t.round}' if t.round else ''}")

    async def cmd_tournaments(self, args: list[str], line: str) -> None:
        found = await self.service.tournaments(CONSOLE_GUILD)
        if not found:
            self.say("no tournaments yet")
        for t in found:
            self.say(self._tournament_line(t))

    async def cmd_tournament(self, args: list[str], line: str) -> None:
        if not args:
            raise ServiceError("/tournament create|join|leave|start|cancel|remove|"
                               "standings|pairings|mine")
        what, rest = args[0].lower(), args[1:]
        uid = self.user()
        if what == "create":
            await self._create_tournament(uid, rest)
            return
        tid = await self._pick_tournament(rest)
        svc = self.service
        if what == "join":
            self.say(self._tournament_line(await svc.join_tournament(tid, uid)))
        elif what == "leave":
            self.say(self._tournament_line(await svc.leave_tournament(tid, uid)))
        elif what == "start":
            self.say(self._tournament_line(await svc.start_tournament(tid, uid)))
        elif what == "cancel":
            self.say(self._tournament_line(await svc.cancel_tournament(tid, uid)))
        elif what == "remove":
            who = [a for a in rest if a.startswith("@")]
            if len(who) != 1:
                raise ServiceError("/tournament remove [#T] @user")
            t = await svc.remove_from_tournament(tid, uid, user_id(who[0]))
            self.say(self._tournament_line(t))
        elif what == "standings":
            await self._standings(tid, csv="csv" in rest)
        elif what == "pairings":
            numbers = [a for a in rest if a.isascii() and a.isdigit() and len(a) < 4]
            games = await svc.tournament_pairings(tid, int(numbers[0]) if numbers else None)
            self._say_games(games)
        elif what == "mine":
            self._say_games(await svc.tournament_games_of(tid, uid))
        else:
            raise ServiceError(f"/tournament has no {what!r}")

    async def _create_tournament(self, uid: int, args: list[str]) -> None:
        words = [a for a in args if ":" not in a]
        values = dict(a.partition(":")[::2] for a in args if ":" in a)
        rated = not any(w.lower() in ("casual", "unrated") for w in words)
        words = [w for w in words if w.lower() not in ("casual", "unrated", "rated")]
        if len(words) != 2:
            raise ServiceError("/tournament create GAME FORMAT [rounds:N] ... "
                               "(FORMAT: rr, double, swiss, knockout)")

        def number(key: str) -> int | None:
            text = values.pop(key, None)
            if text is None:
                return None
            if not (text.isascii() and text.isdigit()) or len(text) > 4:
                raise ServiceError(f"{key} must be a whole number")
            return int(text)
        t = await self.service.create_tournament(
            CONSOLE_GUILD, CONSOLE_CHANNEL, uid, words[0], fmt=words[1],
            name=values.pop("name", None), rounds=number("rounds"), days=number("days"),
            cap=number("cap"), registration_days=number("registration"), rated=rated,
            options=values)
        self.say(f"created {self._tournament_line(t)}: /tournament join #{t.id}")

    def _say_games(self, games: Iterable[TournamentGame]) -> None:
        shown = False
        for g in games:
            shown = True
            if g.second is None:
                self.say(f"  round {g.round}: {self.name(g.first)} "
                         f"{'bye' if g.result is Result.BYE else 'rests'}")
                continue
            again = f" (replay {g.replay})" if g.replay else ""
            result = g.result.value if g.result is not None else "playing"
            where = f" match #{g.match_id}" if g.match_id is not None else ""
            self.say(f"  round {g.round}{again}: {self.name(g.first)} - "
                     f"{self.name(g.second)}  {result}{where}")
        if not shown:
            self.say("  no games")

    async def _standings(self, tid: int, *, csv: bool) -> None:
        t = await self.service.get_tournament(tid)
        names = {p: self.name(p) for p in t.players}
        if csv:
            self.say((await self.service.tournament_csv(tid, names)).rstrip())
            return
        await self.printer.print_table(await self.service.tournament_table(tid, names),
                                f"tournament{tid}-round{t.round}")

    async def cmd_sweep(self, args: list[str], line: str) -> None:
        if args:
            text = args[0].lstrip("+").rstrip("d")
            try:
                days = float(text)
            except ValueError:
                raise ServiceError("/sweep +DAYS, e.g. /sweep +3") from None
            if not 0 <= days <= 365:
                raise ServiceError("between 0 and 365 days, please")
            self.clock.offset += timedelta(days=days)
        await self.service.beat()  # time moved on purpose: never an extension
        events = await self.service.sweep()
        self.say(f"sweep: {len(events)} event(s)")


COMMANDS: dict[str, Callable[[Console, list[str], str], Awaitable[None]]] = {
    "help": Console.cmd_help, "games-list": Console.cmd_games_list,
    "challenge": Console.cmd_challenge, "accept": Console.cmd_accept,
    "join": Console.cmd_join, "decline": Console.cmd_decline, "cancel": Console.cmd_cancel,
    "move": Console.cmd_move, "setup": Console.cmd_setup, "moves": Console.cmd_moves,
    "board": Console.cmd_board, "games": Console.cmd_games, "open": Console.cmd_open,
    "resign": Console.cmd_resign, "draw": Console.cmd_draw,
    "leaderboard": Console.cmd_leaderboard, "stats": Console.cmd_stats,
    "history": Console.cmd_history, "rules": Console.cmd_rules, "settings": Console.cmd_settings,
    "notify": Console.cmd_notify, "sweep": Console.cmd_sweep, "fill": Console.cmd_fill,
    "hint": Console.cmd_hint, "analysis": Console.cmd_analysis,
    "tournament": Console.cmd_tournament, "tournaments": Console.cmd_tournaments,
    "rematch": Console.cmd_rematch, "takeback": Console.cmd_takeback,
    "premove": Console.cmd_premove, "note": Console.cmd_note, "follow": Console.cmd_follow,
    "unfollow": Console.cmd_unfollow,
}

COMPUTER_NAMES = frozenset({"@computer", "@tablero", "computer"})
"""How the console names the computer player in /challenge."""


def _level(text: str | None) -> int:
    if text is None:
        return DEFAULT_LEVEL
    if not digits(text.strip()) or len(text.strip()) > 2:
        raise ServiceError("level: a number from 1 (beginner) to 8 (strongest)")
    return int(text)


async def run_console(db_path: str | Path, *, boards_dir: Path | None = None,
                      stdin: TextIO | None = None, stdout: TextIO | None = None,
                      clock: ShiftedClock | None = None, renderer: BoardRenderer | None = None,
                      seed: int | None = None, synchronous: str = "FULL") -> int:
    """Open the database, wire the service and run the console until end of input.

    Start-up reads nothing but what it needs: each match is replayed (and checked) when it
    is first used; the full replay of every match is ``tablero db check``'s job."""
    from storage import open_database

    stdin = stdin if stdin is not None else sys.stdin
    stdout = stdout if stdout is not None else sys.stdout
    if renderer is None and boards_dir is not None:
        renderer = load_renderer()
    from bot.computer import PoolMovePicker

    repo = await open_database(db_path, synchronous=synchronous)
    picker = PoolMovePicker(workers=1)
    try:
        console = open_console(repo, stdout, clock=clock, renderer=renderer,
                               rng=random.Random(seed), boards_dir=boards_dir, picker=picker)
        # what a crash or a kill left undelivered in the outbox is printed first
        if console.relay is not None:
            await console.relay.recover()
        console.printer.name_book = NameBook(repo)
        await console.printer.name_book.load(CONSOLE_GUILD)
        console.names.update(console.printer.name_book.in_guild(CONSOLE_GUILD))
        # The console was closed: clocks move later by the time away (one notice per
        # match), then the sweep acts on whatever is due.
        await console.service.resume()
        await console.service.sweep()
        await console.service.wake_computers()  # computer turns lost with the last run
        interactive = stdin.isatty()
        if interactive:
            console.say("Tablero console: /help lists the commands; start with: as NAME")
        return await console.run(stdin, prompt=interactive)
    finally:
        picker.close()
        await repo.close()


def open_console(repository: Repository, out: TextIO, *, clock: ShiftedClock | None = None,
                 renderer: BoardRenderer | None = None, rng: random.Random | None = None,
                 boards_dir: Path | None = None, picker: MovePicker | None = None) -> Console:
    """Wire a console over ``repository`` in one direction: the printer (the service's
    notifier and name resolver), then the service, then the console over both.
    ``picker``: the computer player's moves (none: /challenge @computer is refused)."""
    clock = clock or ShiftedClock()
    printer = ConsolePrinter(out)
    # The same path as Discord: every event is an outbox entry stored with its change,
    # printed by the relay (inline: before the command's reply, as it always was) and
    # then removed; the console delivers its own guild's entries only.
    relay = OutboxRelay(repository, printer.deliver, clock, inline=True,
                        accepts=lambda entry: entry.guild_id == CONSOLE_GUILD)
    service = MatchService(repository, relay, clock, renderer=renderer, rng=rng,
                           names=printer.seat_name, picker=picker)
    console = Console(service, printer, clock=clock, boards_dir=boards_dir,
                      renderer=renderer)
    console.relay = relay
    return console
