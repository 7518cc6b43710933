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
import os
import random
import re
import shlex
import sys
import unicodedata
import zlib
from collections.abc import Awaitable, Callable, Iterable
from datetime import datetime, timedelta
from pathlib import Path
from typing import TextIO

import rules
from bot.boards import analysis_pictures, load_renderer, text_board
from bot.console_args import arranged
from bot.names import NameBook
from bot.web.links import PLAYER_DAYS, PlayerPass, WebLinks, player_url
from locales.i18n import (
    DEFAULT_LOCALE,
    Text,
    Words,
    _,
    _n,
    capitalized,
    joined,
    listing,
    negotiate,
    render,
)
from locales.results import leaving_note, result_sentence
from locales.rules_words import rules_words
from locales.summaries import HIDDEN_OPTIONS, plain, rules_summary
from locales.terms import game_name, ladder_name, move_display, seat_colour, status
from service import (
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
    MatchNotFound,
    MatchService,
    MatchStatus,
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
    StorageUnavailable,
    SystemClock,
    TakebackDeclined,
    TakebackOffered,
    TakenBack,
    TurnStarted,
    texts,
)
from service.boards import draw_board
from service.computer import DEFAULT_LEVEL
from service.computer_seats import computer_name, computer_title, is_computer
from service.events import (
    AutoVacation,
    SeasonEnded,
    TimeGiven,
    TimeLapsed,
    VacationEnded,
    VacationStarted,
)
from service.ids import MAX_ID, tournament_not_found
from service.inputs import check_characters, without_invalid
from service.outbox import OutboxRelay
from service.records import OutboxEntry
from service.seasons import Schedule, SeasonRecord
from service.timecontrol import describe_time_control, parse_time_control, with_claim
from service.tournament_records import TournamentGame, TournamentRecord, describe_clock
from service.tournaments import Result
from service.tournaments.model import format_words, tournament_title
from service.tournaments.table import StandingsTable
from service.views import RATING_MEANING, BoardState, SeatView

CONSOLE_GUILD = 1
CONSOLE_CHANNEL = 1

# TRANSLATORS: the console's /help: translate the explanations only; commands, their
# arguments (GAME, #N, option:value) and alignment stay as they are
HELP = _("""\
Commands (a #<match> argument picks a match; otherwise your current one):
  as NAME                         act as user NAME (created on first use)
  /challenge [@user ...] GAME [option:value ...] [days:N] [casual] [seat:NAME]
                                  no @user = an open challenge; 4-player games make a lobby;
                                  option:value and option=value both work, each once
  /challenge @computer GAME [level:1-8] [option:value ...]
                                  play Tablero itself (casual; level 5 unless given)
  /fill [level:1-8]               your lobby's empty seats get computer players
  /hint                           against the computer: the move its top level would play
                                  (3 a game; /stats counts the games you took them in)
  /analysis [#N]                  a finished game: the moves that cost the most
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
  /leaderboard GAME [PAGE] [season:N]   /stats [@user]
  /season [monthly|quarterly|manual|off|reset]   the server's leaderboard seasons
  /rules [GAME]                   how a game is played (teams, fast and slow included)
  /challenge ... [clock:3d+1d/10d] [claim:yes|no]
                                  a bank (3 days + 1 a move, at most 10) instead of days:N;
                                  claim: a lapsed clock waits for the opponent's claim
  /moretime [#N]                  give the player to move one day more
  /claim [#N]   /wait [#N]        his time ran out: claim the win, or keep waiting
  /next                           the next match waiting on you (least time left first)
  /vacation start [DAYS] | end | status
                                  pause your clocks in this server (yearly allowance)
  /settings [days:N] [reminders:on|off] [threads:on|off] [language:LOCALE]
            [clock:3d+1d/10d] [claim:on|off] [vacation:DAYS] [autovacation:on|off]
            [takebacks:on|off]
  /notify mention|dm              how you want to be told it is your turn
  /sweep [+DAYS]                  run the deadline sweep (optionally DAYS from now)
  /tournament create GAME FORMAT [rounds:N] [name:TEXT] [days:N] [cap:N]
              [registration:DAYS] [casual] [clock:3d+1d/10d] [claim:yes|no]
              [option:value ...]
                                  FORMAT: rr, double, swiss (needs rounds:N), knockout
  /tournament join|leave|start|cancel [#T]   /tournament remove [#T] @user
  /tournament standings [#T] [csv]   /tournament pairings [#T] [ROUND]
  /tournament mine [#T]              /tournaments
  /games-list                     the games Tablero knows
  /help   quit""")


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
            raise ServiceError(_("{key} is given twice: say it once", key=key))
        seen.add(key)
        out.append((key, value))
    return out


def named(text: str) -> str:
    """A console user name (``@`` dropped), refused when empty or over ``MAX_NAME``."""
    name = text.strip().lstrip("@")
    if not name:
        raise ServiceError(_("a name, please: as NAME"))
    if len(name) > MAX_NAME:
        raise ServiceError(_("names are at most {high} characters ({count} given)",
                             high=MAX_NAME, count=len(name)))
    return name


ENDED_WITHOUT_A_MOVE = frozenset({"agreement", "aborted", "broken", "resignation", "timeout"})
"""MatchEnded reasons that no move caused (the match's last move is older news)."""


def digits(text: str) -> bool:
    """ASCII digits only: ``str.isdigit`` also accepts ``²`` and ``٣``, which ``int``
    refuses or reads unexpectedly."""
    return text.isascii() and text.isdigit()


def number_token(token: str, refused: Callable[[str], ServiceError]) -> int | None:
    """The number of a ``#N`` token (None for a token without ``#``). Anything else after
    the ``#`` (``#-5``, ``#٣``, a number past the largest id) is ``refused(token)``,
    worded as an unknown number: never ignored, so the command cannot fall back on
    another match or tournament than the one typed."""
    if not token.startswith("#"):
        return None
    text = token[1:]
    if digits(text) and len(text) < 20 and int(text) <= MAX_ID:
        return int(text)
    raise refused(token)


def no_such_match(token: str) -> ServiceError:
    return MatchNotFound(_("there is no match {match}", match=token))


def no_such_tournament(token: str) -> ServiceError:
    return tournament_not_found(token.removeprefix("#"))


def user_id(name: str) -> int:
    """A stable id for a console user name (the same in every session on a database)."""
    return zlib.crc32(name.strip().lower().lstrip("@").encode()) + 1_000


def display_width(text: str) -> int:
    """The columns ``text`` takes in a terminal: East Asian wide and full-width
    characters take two (``len`` counts one, which misaligns Chinese tables)."""
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else
               0 if unicodedata.combining(c) else 1 for c in text)


def padded(text: str, width: int, *, left: bool = False) -> str:
    """``text`` padded with spaces to ``width`` terminal columns (right-aligned unless
    ``left``)."""
    fill = " " * max(0, width - display_width(text))
    return text + fill if left else fill + text


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

    def __init__(self, out: TextIO, locale: str = DEFAULT_LOCALE) -> None:
        self.out = out
        self.locale = negotiate(locale)  # the language it prints in (``--lang``)
        self.names: dict[int, str] = {}
        self.name_book = NameBook()  # the names seen, stored so they outlive the session
        self.current_match: dict[int, int] = {}
        self.declining: int | None = None  # who is declining now (a lobby says "declined")
        self.boards_dir: Path | None = None  # set by the Console: where images are drawn
        self.clock: Clock | None = None  # set by the Console: its (shifted) clock

    locale = "en-US"  # the console's reader (new sentences are rendered for him)

    def say(self, text: Words) -> None:
        print(render(text, self.locale), file=self.out, flush=True)

    def when(self, t: datetime | None) -> str:
        return "-" if t is None else f"{t:%Y-%m-%d %H:%M} UTC"

    async def print_table(self, words: StandingsTable, stem: str) -> None:
        """The standings as text, and as an image file when boards are drawn."""
        table = words.shown(self.locale)
        self.say(f"{table.title} - {table.subtitle}")
        widths = [max(display_width(r[i]) for r in (table.headers, *table.rows))
                  for i in range(len(table.headers))]
        for row in (table.headers, *table.rows):
            self.say("  " + "  ".join(padded(c, w, left=i == 1)
                                      for i, (c, w) in enumerate(zip(row, widths,
                                                                     strict=True))))
        if self.boards_dir is not None:
            from render.table import draw_table  # the console draws only when asked to
            image = await asyncio.to_thread(
                draw_table, table.headers, table.rows, title=table.title,
                subtitle=table.subtitle, align=table.align, top_rows=table.top_rows,
                faded_rows=table.faded_rows, locale=self.locale)
            self.boards_dir.mkdir(parents=True, exist_ok=True)
            path = self.boards_dir / f"{stem}.png"
            path.write_bytes(image.png)
            self.say(_("standings image: {path}", path=str(path)))

    def name(self, uid: int | None) -> Words:
        if uid is None:
            return _("(empty)")
        if is_computer(uid):
            return computer_title(uid)
        return self.names.get(uid, f"user{uid}")

    def seat_name(self, guild_id: int, user_id: int) -> str:
        """The service's ``NameResolver``: names on board images."""
        return computer_name(user_id) if is_computer(user_id) \
            else self.names.get(user_id, "")

    async def learn(self, uid: int, name: str) -> None:
        """Remember ``uid``'s name, in this session and in the database."""
        self.names[uid] = name
        await self.name_book.seen(CONSOLE_GUILD, uid, name)

    def names_of(self, uids: Iterable[int]) -> Words:
        names = [self.name(u) for u in uids]
        return joined(*names, separator=", ") if names else _("nobody")

    def describe(self, m: MatchView) -> Words:
        def seat_line(s: SeatView) -> Words:
            said: Words = _("{seat}: {player}", seat=seat_colour(s.name),
                            player=self.name(s.user_id))
            if s.out:
                said = _("{seat} (out)", seat=said)
            mates = m.team_mates(s.user_id) if s.user_id is not None else ()
            if mates:
                said = _("{seat} (with {players})", seat=said, players=self.names_of(mates))
            return said
        seats: Words = joined(*(seat_line(s) for s in m.seats), separator="; ")
        if m.status.is_waiting:
            # Nobody is seated yet: say who is in, who is invited, and what is still open.
            joined_users = [u for u in m.joined]
            free = m.seat_count - len(joined_users) - len(m.invited)
            parts: list[Words] = [_("{players} in", players=self.names_of(joined_users))]
            if m.invited:
                parts.append(_("{players} invited", players=self.names_of(m.invited)))
            if free > 0:
                parts.append(_n("{count} open place", "{count} open places", free))
            chosen = [_("{seat}: {player}", seat=seat_colour(s.name),
                        player=self.name(s.user_id)) for s in m.seats
                      if s.user_id is not None]
            seats = joined(*parts, separator=", ")
            if chosen:
                seats = _("{players} (seats {seats})", players=seats,
                          seats=joined(*chosen, separator="; "))
        if not m.seats and not m.status.is_waiting:
            seats = _("{challenger} vs {players}", challenger=self.name(m.challenger_id),
                      players=self.names_of(m.invited) if m.invited else _("anyone"))
        state: Words = status(m.status.value)
        if m.status is MatchStatus.ACTIVE:
            state = _("move {n}, {players} to move", n=m.ply + 1,
                      players=self.names_of(m.to_move))
            if m.deadlines_differ:  # each on his own clock
                each = [_("{player} (by {deadline} UTC)", player=self.name(u),
                          deadline=f"{d:%Y-%m-%d %H:%M}") for u, d in m.own_deadlines]
                state = _("move {n}, {players} to move", n=m.ply + 1,
                          players=joined(*each, separator=", "))
            elif m.deadline:
                state = _("{state} by {deadline} UTC", state=state,
                          deadline=f"{m.deadline:%Y-%m-%d %H:%M}")
            elif m.lapsed is not None:
                state = joined(state, _("(time ran out {when}; waiting for a claim)",
                                        when=self.when(m.lapsed)))
            for who, until in m.away:
                if self.clock is not None and until <= self.clock.now():
                    continue  # over: the vacation ended by itself
                state = joined(state, _("({player} on vacation until {until})",
                                        player=self.name(who), until=self.when(until)))
        elif m.result is not None and m.status is MatchStatus.ABORTED:
            state = self.result_text(m)  # its reason says "aborted: ..." itself
        elif m.result is not None:
            state = _("{state}: {result}", state=state, result=self.result_text(m))
        opts = " ".join(f"{k}:{v}" for k, v in m.options.items() if k != "seed")
        game: Words = joined(game_name(m.game, m.game_name), opts) if opts \
            else game_name(m.game, m.game_name)
        terms: Words
        if "+" not in m.time_control and not m.claim_win:
            terms = _n("rated, {count}d/move", "rated, {count}d/move", m.days_per_move) \
                if m.rated else _n("casual, {count}d/move", "casual, {count}d/move",
                                   m.days_per_move)
        else:
            pace: Words = describe_time_control(parse_time_control(m.time_control)) \
                if "+" in m.time_control else \
                _n("{count}d/move", "{count}d/move", m.days_per_move)
            pace = with_claim(pace, m.claim_win)
            terms = _("rated, {pace}", pace=pace) if m.rated else \
                _("casual, {pace}", pace=pace)
        return _("#{match} {game} ({terms}) - {seats} - {state}", match=m.id, game=game,
                 terms=terms, seats=seats, state=state)

    def result_text(self, m: MatchView) -> Words:
        r = m.result
        if r is None:
            return status(m.status.value)
        # A ranking without a single winner (4 players) says the places, not "draw".
        places = joined(*(_("{place}. {players}", place=i + 1, players=self.names_of(g))
                          for i, g in enumerate(r.ranking)), separator="; ")
        return result_sentence("console", r.kind, reason=r.reason,
                               winners=self.names_of(r.winners),
                               winner_count=len(r.winners), places=places)

    async def deliver(self, entry: OutboxEntry, event: Event) -> None:
        """The console's outbox deliverer: print the entry's event."""
        await self.notify(event)

    async def notify(self, event: Event) -> None:
        """Print what Discord would post."""
        m = event.match
        self.remember(m)
        game = game_name(m.game, m.game_name)
        if isinstance(event, ChallengeReceived) and event.rematch_of is not None:
            self.say(_("* {player} asks {others} for a rematch of #{old}: {game}, match "
                       "#{match} (/accept or /decline)", player=self.name(event.by),
                       others=self.names_of(event.to), old=str(event.rematch_of),
                       game=game, match=str(m.id)))
        elif isinstance(event, ChallengeReceived):
            to = self.names_of(event.to) if event.to else _("anyone (open challenge)")
            self.say(_("* {player} challenges {players} to {game} (match #{match}): /accept "
                       "or /decline", player=self.name(event.by), players=to, game=game,
                       match=m.id))
        elif isinstance(event, LobbyChanged):
            who, filled = self.name(event.user_id), len(m.joined)
            if event.joined:
                said = _("* {player} joined lobby #{match} ({joined}/{seats})", player=who,
                         match=m.id, joined=filled, seats=m.seat_count)
            elif self.declining == event.user_id:
                said = _("* {player} declined lobby #{match} ({joined}/{seats})", player=who,
                         match=m.id, joined=filled, seats=m.seat_count)
            else:
                said = _("* {player} left lobby #{match} ({joined}/{seats})", player=who,
                         match=m.id, joined=filled, seats=m.seat_count)
            self.say(said)
        elif isinstance(event, ChallengeClosed):
            self.say(_("* match #{match} declined by {player}", match=m.id,
                       player=self.name(event.by)) if event.reason == "declined" else
                     _("* match #{match} cancelled by {player}", match=m.id,
                       player=self.name(event.by)))
        elif isinstance(event, TurnStarted):
            if event.last_move:
                move = move_display(event.last_move)
                self.say(_("* #{match}: {player} played {move} - {players} to move",
                           match=m.id, player=self.name(event.by), move=move,
                           players=self.names_of(event.users)) if event.by is not None else
                         _("* #{match}: after {move} - {players} to move", match=m.id,
                           move=move, players=self.names_of(event.users)))
                if event.draw_lapsed_by is not None:
                    self.say(_("* #{match}: {player}'s draw offer lapsed (a move was played "
                               "instead of an answer)", match=m.id,
                               player=self.name(event.draw_lapsed_by)))
            else:
                self.say(_("* #{match}: {players} to move", match=m.id,
                           players=self.names_of(event.users)))
        elif isinstance(event, DeadlineReminder):
            hours = round(event.remaining.total_seconds() / 3600)
            self.say(_("* reminder #{match}: {players}, your move is due in {hours} h",
                       match=m.id, players=self.names_of(event.users), hours=hours))
        elif isinstance(event, PlayerOut):
            self.say(_("* #{match}: {player} {what} and is out", match=m.id,
                       player=self.name(event.user_id), what=event.what))
        elif isinstance(event, MovePlayedFor):
            self.say(_("* #{match}: {player} {what}", match=m.id,
                       player=self.name(event.user_id), what=event.what))
        elif isinstance(event, DrawOffered):
            self.say(_("* #{match}: {player} offers a draw (/draw accept or /draw decline)",
                       match=m.id, player=self.name(event.by)))
        elif isinstance(event, DrawDeclined):
            self.say(_("* #{match}: {player} declined the draw", match=m.id,
                       player=self.name(event.by)))
        elif isinstance(event, SetupSubmitted):
            self.say(_("* #{match}: {player} submitted an arrangement", match=m.id,
                       player=self.name(event.user_id)))
        elif isinstance(event, MatchEnded):
            if m.last_move and event.reason not in ENDED_WITHOUT_A_MOVE:
                who = self.name(m.last_move_by) if m.last_move_by is not None \
                    else _("someone")
                self.say(_("* #{match}: {player} played {move}", match=m.id, player=who,
                           move=move_display(m.last_move)))
            note = leaving_note(event.reason, self.name(event.left_by)) \
                if event.left_by is not None else None
            if note is not None:
                self.say(_("* #{match}: {note}", match=m.id, note=note))
            over = _("* #{match} is over: {result}", match=m.id, result=self.result_text(m))
            self.say(joined(over, m.broken, separator=" - ") if m.broken else over)
            for r in event.ratings:
                self.say(_("  rating {line}", line=r.text(render(self.name(r.user_id),
                                                                 self.locale))))
        elif isinstance(event, ClocksExtended):
            self.say(_("* #{match}: {notice}", match=m.id,
                       notice=texts.offline_notice(event.gap)))
        elif isinstance(event, SeasonEnded):
            self.say(_("* {season} is over: final leaderboards", season=SeasonRecord(
                m.guild_id, event.season, Schedule(event.schedule), event.starts_at,
                event.ends_at, m.channel_id).name()))
            if not event.boards:
                self.say(joined("  ", _("No rated game ended in this season."), separator=""))
            for board in event.boards:
                self.say(joined("  ", ladder_name(board.ladder), ":", separator=""))
                for x in board.entries:
                    name = padded(render(self.name(x.user_id), self.locale), 12, left=True)
                    self.say(joined(f"  {x.rank:3}. {name} {render(x.shown, self.locale):>7} ",
                                    _("{wins}W {losses}L {draws}D", wins=x.wins,
                                      losses=x.losses, draws=x.draws)))
        elif isinstance(event, VacationStarted):
            if event.user_id in m.to_move:
                self.say(_("* #{match}: {player} is on vacation until {until}; their clock "
                            "is paused", match=str(m.id), player=self.name(event.user_id),
                            until=self.when(event.until)))
            else:  # not his move: no clock of his runs to pause (issue 38)
                self.say(_("* #{match}: {player} is on vacation until {until}; their next "
                            "turn starts no earlier than then", match=str(m.id),
                            player=self.name(event.user_id), until=self.when(event.until)))
        elif isinstance(event, VacationEnded):
            self.say(_("* #{match}: {player} is back from vacation; their clock runs again",
                        match=str(m.id), player=self.name(event.user_id)))
        elif isinstance(event, AutoVacation) and event.days_spent > 1:
            self.say(_n("* #{match}: {player}'s time ran out long ago; {spent} of vacation "
                         "spent at once instead (until {until}, {count} day left)",
                         "* #{match}: {player}'s time ran out long ago; {spent} of vacation "
                         "spent at once instead (until {until}, {count} days left)",
                         event.days_left, match=str(m.id), player=self.name(event.user_id),
                         spent=_n("{count} day", "{count} days", event.days_spent),
                         until=self.when(event.until)))
        elif isinstance(event, AutoVacation):
            self.say(_n("* #{match}: {player}'s time ran out; a vacation day was spent "
                         "instead (until {until}, {count} day left)",
                         "* #{match}: {player}'s time ran out; a vacation day was spent "
                         "instead (until {until}, {count} days left)", event.days_left,
                         match=str(m.id), player=self.name(event.user_id),
                         until=self.when(event.until)))
        elif isinstance(event, TimeGiven):
            self.say(_("* #{match}: {giver} gave {players} one day more (now due {when})",
                        match=str(m.id), giver=self.name(event.by),
                        players=self.names_of(event.to), when=self.when(m.deadline)))
        elif isinstance(event, TimeLapsed):
            self.say(_("* #{match}: {late}'s time ran out; {waiting} may claim the win "
                        "(/claim) or keep waiting (/wait); {late} may still move until then",
                        match=str(m.id), late=self.names_of(event.late),
                        waiting=self.names_of(event.waiting)))
        elif isinstance(event, TakebackOffered):
            self.say(_("* #{match}: {player} asks to take back {move} (/takeback accept "
                        "or /takeback decline)", match=str(m.id),
                        player=self.name(event.by), move=event.move))
        elif isinstance(event, TakebackDeclined):
            self.say(_("* #{match}: {player} declined the takeback", match=str(m.id),
                        player=self.name(event.by)))
        elif isinstance(event, TakenBack):
            self.say(_("* #{match}: {player} agreed: {move} is taken back; "
                        "{mover} to move again", match=str(m.id),
                        player=self.name(event.accepted_by), move=event.move,
                        mover=self.name(event.by)))
        elif isinstance(event, ConditionalMovePlayed):
            self.say(_("* #{match}: {player}'s conditional move {move} answers at once",
                        match=str(m.id), player=self.name(event.user_id), move=event.move))
        elif isinstance(event, MoveFollowed):
            self.say(_("* to {followers} (following): {player} played {move} in #{match}",
                        followers=self.names_of(event.followers),
                        player=self.name(event.by), move=event.move, match=str(m.id)))
        elif isinstance(event, StandingsChanged):
            t = event.tournament_id
            if event.final:
                who = self.name(event.winner) if event.winner is not None else _("shared")
                self.say(_("* tournament #{tournament} is over: winner {player}",
                           tournament=t, player=who))
            else:
                self.say(_("* tournament #{tournament}: standings after match #{match}",
                           tournament=t, match=m.id))
            await self.print_table(
                event.table, f"tournament{t}-" + ("final" if event.final else f"m{m.id}"))

    def remember(self, m: MatchView) -> None:
        for uid in (*m.players(), *m.invited, m.challenger_id):
            self.current_match.setdefault(uid, m.id)
        if m.status is MatchStatus.ACTIVE and m.ply == 0:
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

    async def show_board(self, match_id: int, played: MoveResult | None = None) -> None:
        """The board as text, its description and (with ``--boards``) a PNG; after a move,
        from what the move returned (no read, the position drawn once)."""
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
                texts.seat_names(m, self.printer.seat_name), viewer, self.printer.locale)
            if image is not None:
                self.boards_dir.mkdir(parents=True, exist_ok=True)
                path = self.boards_dir / f"match{m.id}-ply{await self._drawn_ply(m)}.png"
                path.write_bytes(image.png)
                self.say(_("board image: {path}", path=str(path)))

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
        meant as the match (``/rematch abc``) and is refused as an unknown one."""
        if args:
            raise no_such_match(args[0][:40])

    async def handle(self, line: str) -> bool:
        """Run one command line; False when the console should stop."""
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
                self.say(_("you are {name}", name=name))
                return True
            command = COMMANDS.get(head.lstrip("/"))
            if command is None:
                raise ServiceError(_("unknown command {command}; /help lists them",
                                     command=repr(head)))
            args = arranged(head.lstrip("/"), words[1:])  # name:value in its place
            if command is not Console.cmd_sweep:
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

    # the commands ------------------------------------------------------

    async def cmd_help(self, args: list[str], line: str) -> None:
        self.say(HELP)

    async def cmd_games_list(self, args: list[str], line: str) -> None:
        for key, v in rules.VARIANTS.items():
            opts = " ".join(f"{k}:{'|'.join(map(str, vals)) or '...'}"
                            for k, vals in v.options.items() if k not in HIDDEN_OPTIONS)
            self.say(joined(f"{key:18}", game_name(key, v.name), f" {opts}" if opts else ""))

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
        clock: str | None = None
        claim: bool | None = None
        for a in options_of(args):
            if isinstance(a, tuple) and a[0] == "clock":
                clock = a[1]
            elif isinstance(a, tuple) and a[0] == "claim":
                if a[1].lower() not in SWITCH_VALUES:
                    raise ServiceError(_("claim must be yes or no, not {value}",
                                         value=repr(a[1])))
                claim = SWITCH_VALUES[a[1].lower()]
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
                    rated = value.lower() not in ("no", "off", "false", "0")
                elif key == "level":
                    level = value
                else:
                    options[key] = value
            elif a.startswith("@"):
                opponents.append(await self.person(a))
            elif a.lower() in ("casual", "unrated"):
                rated = False
            elif a.lower() == "rated":
                rated = True
            elif game is None:
                game = a
            else:
                raise ServiceError(_("what is {word}? options are written name:value "
                                     "(or name=value)", word=repr(a)))
        if game is None:
            raise ServiceError(_("which game? /challenge @bob xiangqi (see /games-list)"))
        if level is not None and not computer:
            raise ServiceError(_("level: is for games against the computer (@computer)"))
        if computer:
            if opponents:
                raise ServiceError(_("play the computer alone: /challenge @computer GAME; "
                                     "in a 4-player lobby, /fill adds computer players"))
            m = await self.service.challenge_computer(
                CONSOLE_GUILD, CONSOLE_CHANNEL, uid, game, level=_level(level),
                options=options, days=days, seat=seat)
            self.current_match[uid] = m.id
            self.say(_("created {match_line}", match_line=self.describe(m)))
            if m.status is MatchStatus.ACTIVE:
                await self.show_board(m.id)
            return
        m = await self.service.challenge(CONSOLE_GUILD, CONSOLE_CHANNEL, uid, game,
                                         opponents=opponents, options=options, days=days,
                                         rated=rated, seat=seat, clock=clock,
                                         claim_win=claim)
        self.current_match[uid] = m.id
        self.say(_("created {match_line}", match_line=self.describe(m)))

    async def cmd_hint(self, args: list[str], line: str) -> None:
        match_id = await self.pick_only_match(args)
        move, reason, left = await self.service.hint(match_id, self.user(),
                                                     caller=self.caller())
        self.say(_n("hint: {move} ({reason}); {count} hint left in this game",
                    "hint: {move} ({reason}); {count} hints left in this game", left,
                    move=move, reason=reason))

    async def cmd_analysis(self, args: list[str], line: str) -> None:
        numbers = [n for a in args if (n := number_token(a, no_such_match)) is not None]
        match_id = numbers[0] if numbers else self.current_match.get(self.user())
        if match_id is None:
            raise ServiceError(_("which match? /analysis #N"))
        marked = await self.service.analysis(match_id, caller=self.caller())
        if not marked:
            self.say(_("#{match}: no move lost a pawn's worth or more", match=match_id))
            return
        said = {a.ply: a.line(self.printer.name(a.user)) for a in marked}
        for a in marked:
            self.say(joined("  ", said[a.ply], separator=""))
        if self.boards_dir is None:
            return
        locale = self.printer.locale
        record = await self.service.record(match_id, caller=self.caller())
        names = [(self.printer.seat_name(0, s.user_id) if s.user_id else "") or s.name
                 for s in record.match.seats]
        notes = {ply: capitalized(line) for ply, line in said.items()}
        pictures = await asyncio.to_thread(analysis_pictures, record, notes, names, locale)
        if pictures is None:
            return
        self.boards_dir.mkdir(parents=True, exist_ok=True)
        sheet = self.boards_dir / f"match{match_id}-analysis.png"
        replay = self.boards_dir / f"match{match_id}-analysis.gif"
        sheet.write_bytes(pictures.sheet)
        replay.write_bytes(pictures.replay)
        self.say(_("analysis image: {path}", path=str(sheet)))
        self.say(_("analysis replay (the marked moves framed in red): {path}",
                   path=str(replay)))

    async def cmd_fill(self, args: list[str], line: str) -> None:
        """/fill [level:N] [#match]: computer players take the lobby's empty seats."""
        uid = self.user()
        level: str | None = None
        for a in options_of(args):
            if isinstance(a, tuple) and a[0] == "level":
                level = a[1]
        numbers = [n for a in args if (n := number_token(a, no_such_match)) is not None]
        match_id = numbers[0] if numbers else self.current_match.get(uid)
        if match_id is None:
            raise ServiceError(_("which lobby? /fill #N level:5"))
        m = await self.service.add_computers(match_id, uid, _level(level), caller=self.caller())
        self.current_match[uid] = m.id
        self.say(_("filled: {match_line}", match_line=self.describe(m)))
        if m.status is MatchStatus.ACTIVE:
            await self.show_board(m.id)

    def _seat_arg(self, args: list[str]) -> str | None:
        for a in options_of(args):
            if isinstance(a, tuple) and a[0] == "seat":
                return a[1]
        return None

    async def cmd_accept(self, args: list[str], line: str) -> None:
        await self._take_seat(args, False,
                              lambda line: _("accepted: {match_line}", match_line=line))

    async def _take_seat(self, args: list[str],
                         joining: bool, said: Callable[[Words], Words]) -> None:
        """/accept and /join: take a seat in the waiting match, show the board if it began."""
        uid = self.user()
        match_id = await self._pick_waiting(args)
        seat = self._seat_arg(args)
        if joining:
            m = await self.service.join(match_id, uid, seat, caller=self.caller())
        else:
            m = await self.service.accept(match_id, uid, seat, caller=self.caller())
        self.current_match[uid] = m.id
        self.say(said(self.describe(m)))
        if m.status is MatchStatus.ACTIVE:
            await self.show_board(m.id)

    async def _pick_waiting(self, args: list[str]) -> int:
        """For /accept and /join: a #N, else the newest challenge naming or open to me."""
        for a in list(args):
            if (number := number_token(a, no_such_match)) is not None:
                args.remove(a)
                return number
        uid = self.user()
        for g in await self.service.games_of(CONSOLE_GUILD, uid):
            if uid in g.invited:
                return g.id
        for g in await self.service.open_challenges(CONSOLE_GUILD):
            if uid not in g.joined:
                return g.id
        for g in await self.service.games_of(CONSOLE_GUILD, uid):
            if g.status.is_waiting and g.challenger_id == uid:
                raise ServiceError(_("#{match} is your own challenge: /cancel withdraws it",
                                     match=g.id))
        raise ServiceError(_("there is no challenge waiting for you (see /games, /open)"))

    async def cmd_join(self, args: list[str], line: str) -> None:
        await self._take_seat(args, True,
                              lambda line: _("joined: {match_line}", match_line=line))

    async def cmd_decline(self, args: list[str], line: str) -> None:
        match_id = await self._pick_waiting(args)
        self.printer.declining = self.user()
        try:
            m = await self.service.decline(match_id, self.user(), caller=self.caller())
        finally:
            self.printer.declining = None
        self.say(_("declined: {match_line}", match_line=self.describe(m)))

    async def cmd_cancel(self, args: list[str], line: str) -> None:
        m = await self.service.cancel(await self.pick_only_match(args), self.user(),
                                      caller=self.caller())
        self.say(_("cancelled: {match_line}", match_line=self.describe(m)))

    async def cmd_move(self, args: list[str], line: str) -> None:
        uid = self.user()
        match_id = await self.pick_match(args)
        if not args:
            raise ServiceError(_("which move? e.g. /move h3-e3 (/moves lists them)"))
        result: MoveResult = await self.service.move(match_id, uid, " ".join(args),
                                                     caller=self.caller())
        self.current_match[uid] = match_id
        self.say(_("played {move}", move=move_display(result.display)))
        await self.show_board(match_id, result)

    async def cmd_setup(self, args: list[str], line: str) -> None:
        uid = self.user()
        match_id = await self.pick_match(args)
        result = await self.service.submit_setup(match_id, uid, " ".join(args),
                                                 caller=self.caller())
        self.say(_("arrangement submitted for #{match}", match=match_id))
        if result.match.status is MatchStatus.ACTIVE and \
                not result.match.position_text.startswith("setup"):
            await self.show_board(match_id)

    async def cmd_moves(self, args: list[str], line: str) -> None:
        uid = self.user()
        match_id = await self.pick_match(args)
        prefix = " ".join(args)
        found, total = await self.service.move_choices(match_id, uid, prefix, caller=self.caller())
        if found:
            self.say(", ".join(d for _c, d in found))
            if total > len(found):
                self.say(_("{count} of {total}, type a prefix to narrow (/moves h3)",
                           count=len(found), total=total))
            return
        raise ServiceError(await self._why_no_moves(match_id, uid, prefix))

    async def _why_no_moves(self, match_id: int, uid: int, prefix: str) -> Words:
        """Why ``/moves`` lists nothing, and what to do instead."""
        m = await self.service.get_match(match_id, caller=self.caller())
        if m.broken:
            return _("match #{match} is broken: {detail}", match=m.id, detail=m.broken)
        if m.status.is_waiting:
            return _("match #{match} has not started yet", match=m.id)
        if m.is_over:
            return _("match #{match} is over ({result})", match=m.id,
                     result=self.result_text(m))
        if uid not in m.players():
            return _("you are not playing in match #{match}", match=m.id)
        if m.seats and any(s.user_id == uid and s.out for s in m.seats):
            return _("you are out of this game")
        if uid not in m.to_move:
            who = listing(_("{player} ({seat})", player=self.name(s.user_id),
                            seat=seat_colour(s.name))
                          for s in m.seats if s.user_id in m.to_move)
            return _("it is not your turn: {players} to move", players=who)
        if m.position_text.startswith("setup"):
            return _("the match is in its setup phase: /setup your 16 numbers")
        return _("no legal move starts with {prefix} (/moves alone lists them)",
                 prefix=repr(prefix))

    async def cmd_board(self, args: list[str], line: str) -> None:
        await self.show_board(await self.pick_match(args))

    async def cmd_games(self, args: list[str], line: str) -> None:
        uid = self.user()
        games = await self.service.games_of(CONSOLE_GUILD, uid)
        if not games:
            self.say(_("no live matches (/challenge someone)"))
        for g in games:
            mark = "*" if uid in g.to_move or uid in g.invited else " "
            self.say(joined(mark, self.describe(g)))

    async def cmd_open(self, args: list[str], line: str) -> None:
        found = await self.service.open_challenges(CONSOLE_GUILD)
        self.say(joined(*(self.describe(g) for g in found), separator="\n") if found
                 else _("no open challenges"))

    async def cmd_resign(self, args: list[str], line: str) -> None:
        m = await self.service.resign(await self.pick_only_match(args), self.user(),
                                      caller=self.caller())
        self.say(_("resigned: {match_line}", match_line=self.describe(m)))

    async def cmd_draw(self, args: list[str], line: str) -> None:
        uid = self.user()
        match_id = await self.pick_match(args)
        what = args[0].lower() if args else "offer"
        if what == "offer":
            m = await self.service.offer_draw(match_id, uid, caller=self.caller())
        elif what == "accept":
            m = await self.service.accept_draw(match_id, uid, caller=self.caller())
        elif what == "decline":
            m = await self.service.decline_draw(match_id, uid, caller=self.caller())
        else:
            raise ServiceError(_("/draw offer, /draw accept or /draw decline"))
        said = {"offer": _("draw offer: {match_line}", match_line=self.describe(m)),
                "accept": _("draw accept: {match_line}", match_line=self.describe(m)),
                "decline": _("draw decline: {match_line}", match_line=self.describe(m))}
        self.say(said[what])
        if what == "accept" and m.status is MatchStatus.ACTIVE:
            self.say(_("you agreed; the draw needs every other player still in to agree "
                       "too"))

    async def cmd_leaderboard(self, args: list[str], line: str) -> None:
        season: int | None = None
        words: list[str] = []
        for a in options_of(args):
            if isinstance(a, tuple) and a[0] == "season":
                if not digits(a[1]) or len(a[1]) > 9:
                    raise ServiceError(_("a season is given by its number"))
                season = int(a[1])
            elif isinstance(a, tuple):
                raise ServiceError(_("/leaderboard GAME [PAGE] [season:N]"))
            else:
                words.append(a)
        args = words
        if not args:
            raise ServiceError(_("which game? /leaderboard xiangqi (alquerque-grande-4: "
                                 "Alquerque grande, 4 players)"))
        if len(args) > 2:
            raise ServiceError(_("/leaderboard GAME [PAGE] [season:N]"))
        board = await self.service.leaderboard(CONSOLE_GUILD, args[0], 1, season=season)
        if len(args) > 1:
            text = args[1]
            page = int(text) if digits(text) and len(text) < 7 else 0
            if not 1 <= page <= board.pages:
                raise ServiceError(_("there is no page {page}: pages go from 1 to {pages}",
                                     page=repr(text), pages=board.pages))
            if page != 1:
                board = await self.service.leaderboard(CONSOLE_GUILD, args[0], page,
                                                       season=season)
        if season is not None:
            named = await self.service.season(CONSOLE_GUILD, season)
            self.say(named.name())
        if board.total == 0:
            self.say(_("no rated results on {ladder} yet (4-player games: /leaderboard "
                       "{key}-4)", ladder=ladder_name(board.ladder), key=board.ladder)
                     if f"{board.ladder}-4" in self._four_player_ladders() else
                     _("no rated results on {ladder} yet", ladder=ladder_name(board.ladder)))
            return
        self.say(_n("{ladder} leaderboard, page {page}/{pages} ({count} player)",
                    "{ladder} leaderboard, page {page}/{pages} ({count} players)",
                    board.total, ladder=ladder_name(board.ladder), page=board.page,
                    pages=board.pages))
        for e in board.entries:
            name = padded(render(self.name(e.user_id), self.printer.locale), 12, left=True)
            self.say(joined(f"{e.rank:3}. {name} {render(e.shown, self.locale):>7} ",
                            _("{wins}W {losses}L {draws}D", wins=e.wins, losses=e.losses,
                              draws=e.draws)))
        self.say(plain(render(RATING_MEANING, self.printer.locale)))

    async def cmd_season(self, args: list[str], line: str) -> None:
        what = args[0].lower() if args else "list"
        if len(args) > 1 or what not in ("list", "reset", "monthly", "quarterly", "manual",
                                         "off"):
            raise ServiceError(_("/season [monthly|quarterly|manual|off|reset]"))
        if what == "reset":
            started = await self.service.reset_season(CONSOLE_GUILD, CONSOLE_CHANNEL)
            self.say(_("{season} has started; the all-time leaderboards go on.",
                       season=started.name()))
        elif what != "list":
            change = await self.service.configure_seasons(CONSOLE_GUILD, CONSOLE_CHANNEL,
                                                          what)
            self.say(change.words())
            return
        settings = await self.service.get_guild_settings(CONSOLE_GUILD)
        self.say(_("Seasons: {schedule}.", schedule=settings.seasons))
        for s in await self.service.seasons(CONSOLE_GUILD):
            self.say(joined("  ", s.name(), separator=""))

    @staticmethod
    def _four_player_ladders() -> set[str]:
        return {f"{k}-4" for k, v in rules.VARIANTS.items()
                if any(v.seat_count(**options) == 4 for options in v.option_sets())}

    async def cmd_stats(self, args: list[str], line: str) -> None:
        uid = await self.person(args[0]) if args else self.user()
        s = await self.service.stats(CONSOLE_GUILD, uid)
        self.say(_("{player}: {wins}W {losses}L {draws}D, {active} active",
                   player=self.name(uid), wins=s.wins, losses=s.losses, draws=s.draws,
                   active=s.active_matches))
        for key, e in zip(s.ladder_keys, s.ladders, strict=True):
            self.say(_("  {ladder}: rank {rank}, {rating}", ladder=key, rank=e.rank,
                       rating=e.shown))
        if any(s.against_computer):
            w, d, lost = s.against_computer
            self.say(_("  against the computer (casual): {wins}W {losses}L {draws}D",
                       wins=w, losses=lost, draws=d))
            if s.with_hints:
                self.say(_n("  hints taken in {count} of them", "  hints taken in {count} of them",
                            s.with_hints))

    async def cmd_rules(self, args: list[str], line: str) -> None:
        if not args:
            self.say(_("/rules GAME, with GAME one of: {games}",
                       games=", ".join(rules.VARIANTS)))
            return
        key = args[0].lower().removesuffix("-4")
        if key not in rules.VARIANTS:
            raise ServiceError(_("there is no game called {game} (games: {known})",
                                 game=repr(args[0]), known=", ".join(rules.VARIANTS)))
        self.say(plain(render(rules_summary(key), self.printer.locale)))

    async def cmd_history(self, args: list[str], line: str) -> None:
        h = await self.service.history(await self.pick_match(args), self.caller())
        self.say(_("{match_line} ({format} export):", match_line=self.describe(h.match),
                   format=h.export_format))
        self.say(h.export.rstrip())
        if h.note is not None:
            self.say(_("Your private note (only you see it): {note}", note=h.note))

    async def cmd_settings(self, args: list[str], line: str) -> None:
        values: dict[str, str] = {}
        for a in options_of(args):
            if not isinstance(a, tuple):
                raise ServiceError(_("what is {word}? write days:N, reminders:on|off, "
                                     "threads:on|off, language:LOCALE", word=repr(a)))
            values[a[0]] = a[1] if a[0] == "language" else a[1].lower()
        unknown = set(values) - {"days", "reminders", "threads", "language", "clock", "claim",
                                 "vacation", "autovacation", "takebacks", "web"}
        if unknown:
            raise ServiceError(_("unknown setting {setting} (settings: days, reminders, "
                                 "threads, language, clock, claim, vacation, autovacation, "
                                 "takebacks, web)", setting=repr(sorted(unknown)[0])))

        def flag(key: str) -> bool | None:
            if key not in values:
                return None
            if values[key] not in SWITCH_VALUES:
                raise ServiceError(_("{key} must be on or off, not {value}", key=key,
                                     value=repr(values[key])))
            return SWITCH_VALUES[values[key]]
        days = values.get("days")
        if days is not None and (not digits(days) or len(days) > 3):
            raise ServiceError(_("days must be a number from 1 to 14"))
        reminders, threads = flag("reminders"), flag("threads")
        vacation = values.get("vacation")
        if vacation is not None and (not digits(vacation) or len(vacation) > 3):
            raise ServiceError(_("vacation is a number of days a year, from 0 to 60"))
        s = await self.service.update_guild_settings(
            CONSOLE_GUILD, default_days=int(days) if days else None,
            reminders=reminders, use_threads=threads, default_clock=values.get("clock"),
            claim_win=flag("claim"), vacation_days=int(vacation) if vacation else None,
            auto_vacation=flag("autovacation"), language=values.get("language", "keep"),
            takebacks_rated=flag("takebacks"), web=flag("web"))
        if "language" in values and s.language:
            self.printer.locale = s.language  # the console is this one server's threads
        pace = describe_time_control(parse_time_control(s.default_clock)) \
            if s.default_clock else _n("{count} day per move", "{count} days per move",
                                       s.default_days)
        self.say(_("settings: {pace}, reminders {reminders}, threads {threads}, claim win "
                    "on time {claim}, {vacation} of vacation a year, automatic vacation "
                    "{auto}", pace=pace, reminders=_on_off(s.reminders),
                    threads=_on_off(s.use_threads), claim=_on_off(s.claim_win),
                    vacation=_n("{count} day", "{count} days", s.vacation_days),
                    auto=_on_off(s.auto_vacation)))
        if "takebacks" in values or s.takebacks_rated:
            self.say(_("takebacks in rated games: allowed") if s.takebacks_rated
                     else _("takebacks in rated games: not allowed (casual games: always)"))
        if "web" in values or s.web:
            self.say(_("matches on the web: on") if s.web else _("matches on the web: off"))

    async def cmd_web(self, args: list[str], line: str) -> None:
        """``/web [#N]``: your own link to play match N on the web (the current match
        without #N); ``/web revoke``: every link you were given stops working."""
        user = self.user()
        if [a.lower() for a in args] == ["revoke"]:
            await self.service.revoke_web_links(user)
            self.say(_("your web links no longer work; /web gives you a new one"))
            return
        match_id = await self.pick_only_match(args)
        epoch = await self.service.web_pass(match_id, user, caller=self.caller())
        if self.web is None:
            raise ServiceError(_("the web is not set up here (TABLERO_WEB_SECRET)"))
        expires = self.clock.now() + timedelta(days=PLAYER_DAYS)
        token = self.web.signer.player(PlayerPass(match_id, CONSOLE_GUILD, user,
                                                  int(expires.timestamp()), epoch))
        self.say(_("your own link to play #{match} on the web (keep it to yourself; it "
                   "works until {when}, /web revoke ends it): {url}", match=str(match_id),
                   when=self.when(expires), url=player_url(self.web.base_url, token)))

    async def cmd_moretime(self, args: list[str], line: str) -> None:
        m = await self.service.give_time(await self.pick_only_match(args), self.user(),
                                         caller=self.caller())
        self.say(_("#{match}: one day more given; now due {when}", match=str(m.id),
                    when=self.when(m.deadline)))

    async def cmd_claim(self, args: list[str], line: str) -> None:
        m = await self.service.claim_win(await self.pick_only_match(args), self.user(),
                                         caller=self.caller())
        self.say(_("claimed: {match_line}", match_line=self.describe(m)))

    async def cmd_wait(self, args: list[str], line: str) -> None:
        m = await self.service.keep_waiting(await self.pick_only_match(args), self.user(),
                                            caller=self.caller())
        self.say(_("#{match}: you keep waiting; /claim claims the win while the clock "
                    "stays out", match=str(m.id)))

    async def cmd_next(self, args: list[str], line: str) -> None:
        uid = self.user()
        m = await self.service.next_game(CONSOLE_GUILD, uid, self.current_match.get(uid))
        if m is None:
            self.say(_("no match is waiting on you"))
            return
        self.current_match[uid] = m.id
        self.say(self.describe(m))
        await self.show_board(m.id)

    async def cmd_vacation(self, args: list[str], line: str) -> None:
        uid = self.user()
        what = args[0].lower() if args else "status"
        if what == "start":
            days = args[1] if len(args) > 1 else None
            if days is not None and (not digits(days) or len(days) > 3):
                raise ServiceError(_("/vacation start [DAYS]: a whole number of days"))
            v = await self.service.start_vacation(CONSOLE_GUILD, uid,
                                                  int(days) if days else None)
            self.say(_("on vacation until {until}: {paused} paused; {balance} left this "
                        "year", until=self.when(v.until),
                        paused=_n("{count} match", "{count} matches", len(v.paused)),
                        balance=_n("{count} day", "{count} days", v.balance)))
            if v.forbidden:
                self.say(_("not paused (their tournament forbids vacation): {matches}",
                            matches=", ".join(f"#{i}" for i in v.forbidden)))
            if v.late:
                self.say(_("your time in {matches} has already run out: not paused (the "
                            "win may be claimed)", matches=", ".join(f"#{i}" for i in v.late)))
            return
        if what == "end":
            v = await self.service.end_vacation(CONSOLE_GUILD, uid)
            self.say(_("back from vacation: your clocks run again; {balance} left this year",
                        balance=_n("{count} day", "{count} days", v.balance)))
            return
        if what != "status":
            raise ServiceError(_("/vacation start [DAYS], /vacation end or /vacation status"))
        v = await self.service.vacation_status(CONSOLE_GUILD, uid)
        if v.until is not None:
            self.say(_("on vacation until {until}", until=self.when(v.until)))
        self.say(_("vacation: {balance} left this year ({earned} earned of {yearly}, "
                    "{used} used); automatic vacation {auto}",
                    balance=_n("{count} day", "{count} days", v.balance),
                    earned=v.earned, yearly=v.yearly, used=v.used, auto=_on_off(v.auto)))

    async def cmd_notify(self, args: list[str], line: str) -> None:
        prefs = await self.service.update_user_prefs(self.user(), args[0] if args else "")
        self.say(_("notifications: {mode}", mode=prefs.notify))

    # ------------------------------------------------------------------ comforts

    async def cmd_rematch(self, args: list[str], line: str) -> None:
        uid = self.user()
        self.nothing_else([a for a in args if not a.startswith("#")])
        match_id = await self._pick_any(args)
        self.nothing_else(args)
        m = await self.service.rematch(match_id, uid, caller=self.caller())
        self.current_match[uid] = m.id
        self.say(_("rematch asked: {match}", match=self.describe(m)))

    async def _pick_any(self, args: list[str], *, text: bool = False) -> int:
        """A ``#N`` argument, else the current match (finished ones included), else the
        only live match (as ``pick_match``). ``text``: the arguments are text after an
        optional ``#N`` (a note), so only the first may name the match."""
        for a in list(args[:1] if text else args):
            if (number := number_token(a, no_such_match)) is not None:
                args.remove(a)
                return number
        current = self.current_match.get(self.user())
        # the token was looked for above: the fallback reads no word of a note as one
        return current if current is not None else await self.pick_match([])

    async def cmd_takeback(self, args: list[str], line: str) -> None:
        uid = self.user()
        match_id = await self.pick_match(args)
        what = args[0].lower() if args else "ask"
        if what == "ask":
            await self.service.request_takeback(match_id, uid, caller=self.caller())
            self.say(_("takeback asked; your opponent answers"))
        elif what == "accept":
            await self.service.accept_takeback(match_id, uid, caller=self.caller())
            await self.show_board(match_id)
        elif what == "decline":
            await self.service.decline_takeback(match_id, uid, caller=self.caller())
            self.say(_("takeback declined"))
        else:
            raise ServiceError(_("/takeback ask, /takeback accept or /takeback decline"))

    async def cmd_premove(self, args: list[str], line: str) -> None:
        uid = self.user()
        match_id = await self.pick_match(args)
        what = args[0].lower() if args else "list"
        if what == "add":  # Discord's action:add; the console needs no word for it
            args, what = args[1:], "add"
        if what == "clear" and len(args) == 1:
            n = await self.service.clear_conditional_moves(match_id, uid, caller=self.caller())
            self.say(_n("{count} conditional line cleared", "{count} conditional lines "
                        "cleared", n))
            return
        if what == "list" and len(args) == 1:
            lines = await self.service.conditional_moves(match_id, uid, caller=self.caller())
        else:
            lines = await self.service.add_conditional_moves(match_id, uid, " ".join(args),
                                                             caller=self.caller())
        if not lines:
            self.say(_("no conditional moves in #{match}", match=str(match_id)))
        for n, moves in enumerate(lines, start=1):
            pairs = ", ".join(f"{moves[i]} → {moves[i + 1]}"
                              for i in range(0, len(moves) - 1, 2))
            self.say(_("line {n}: {pairs}", n=str(n), pairs=pairs))

    async def cmd_note(self, args: list[str], line: str) -> None:
        uid = self.user()
        match_id = await self._pick_any(args, text=True)
        what = args[0].lower() if args else "show"
        if what == "show" and len(args) <= 1:
            found = await self.service.note(match_id, uid, caller=self.caller())
            self.say(_("your note on #{match}: {note}", match=str(match_id), note=found)
                     if found is not None else
                     _("no note on #{match} (/note TEXT keeps one)", match=str(match_id)))
        elif what == "clear" and len(args) == 1:
            gone = await self.service.clear_note(match_id, uid, caller=self.caller())
            self.say(_("note cleared") if gone else _("there was no note"))
        else:
            await self.service.set_note(match_id, uid, note_text(line), caller=self.caller())
            self.say(_("note kept (only you see it)"))

    async def _follow_target(self, args: list[str]) -> dict[str, int]:
        if len(args) != 1:
            raise ServiceError(_("name one match (#N) or one player (@name)"))
        a = args[0]
        if (number := number_token(a, no_such_match)) is not None:
            return {"match_id": number}
        if a.startswith("@"):
            return {"player": await self.person(a)}
        raise ServiceError(_("name one match (#N) or one player (@name)"))

    async def cmd_follow(self, args: list[str], line: str) -> None:
        uid = self.user()
        if not args:
            found = await self.service.follows(CONSOLE_GUILD, uid)
            if not found:
                self.say(_("you follow nothing (/follow #N or /follow @name)"))
            for f in found:
                self.say(_("following match #{match}", match=str(f.match_id))
                         if f.match_id is not None else
                         _("following {player}", player=self.name(f.player_id)))
            return
        await self.service.follow(CONSOLE_GUILD, uid, **await self._follow_target(args))
        self.say(_("following {what}; you are told of each move", what=args[0]))

    async def cmd_unfollow(self, args: list[str], line: str) -> None:
        await self.service.unfollow(CONSOLE_GUILD, self.user(), **await self._follow_target(args))
        self.say(_("no longer following {what}", what=args[0]))

    # ------------------------------------------------------------------ tournaments

    async def _pick_tournament(self, args: list[str], *, ended_too: bool = False) -> int:
        """The tournament named by ``#N`` (removed from ``args``), else the newest open
        one of the console's server; ``ended_too`` (what only reads it: standings,
        pairings, mine): else the newest of all."""
        for a in list(args):
            if (number := number_token(a, no_such_tournament)) is not None:
                args.remove(a)
                return number
        found = await self.service.tournaments(CONSOLE_GUILD, running_only=True)
        if not found and ended_too:
            found = await self.service.tournaments(CONSOLE_GUILD)
        if not found:
            raise ServiceError(_("no tournament is open: /tournament create GAME FORMAT"))
        return found[0].id

    def _tournament_line(self, t: TournamentRecord) -> Words:
        v = rules.variant(t.game)
        parts: list[Words] = [format_words(t.format)]
        if t.rounds:
            parts.append(_n("{count} round", "{count} rounds", t.rounds))
        parts += [describe_clock(t), _n("{count} player", "{count} players", len(t.players)),
                  status(t.status.value)]
        if t.round:
            parts.append(_("round {round}", round=t.round))
        return _("tournament #{tournament} {name}: {details}", tournament=t.id,
                 name=tournament_title(t.name, v.key, v.name, t.format),
                 details=joined(*parts, separator=", "))

    async def cmd_tournaments(self, args: list[str], line: str) -> None:
        found = await self.service.tournaments(CONSOLE_GUILD)
        if not found:
            self.say(_("no tournaments yet"))
        for t in found:
            self.say(self._tournament_line(t))

    async def cmd_tournament(self, args: list[str], line: str) -> None:
        if not args:
            raise ServiceError(_("/tournament create|join|leave|start|cancel|remove|"
                                 "standings|pairings|mine"))
        what, rest = args[0].lower(), args[1:]
        uid = self.user()
        if what == "create":
            await self._create_tournament(uid, rest)
            return
        tid = await self._pick_tournament(rest, ended_too=what in ("standings", "pairings",
                                                                   "mine"))
        svc = self.service
        if what == "join":
            self.say(self._tournament_line(await svc.join_tournament(tid, uid,
                                                                     caller=self.caller())))
        elif what == "leave":
            self.say(self._tournament_line(await svc.leave_tournament(tid, uid,
                                                                      caller=self.caller())))
        elif what == "start":
            self.say(self._tournament_line(await svc.start_tournament(tid, uid,
                                                                      caller=self.caller())))
        elif what == "cancel":
            self.say(self._tournament_line(await svc.cancel_tournament(tid, uid,
                                                                       caller=self.caller())))
        elif what == "remove":
            who = [a for a in rest if a.startswith("@")]
            if len(who) != 1:
                raise ServiceError(_("/tournament remove [#T] @user"))
            t = await svc.remove_from_tournament(tid, uid, await self.person(who[0]),
                                                 caller=self.caller())
            self.say(self._tournament_line(t))
        elif what == "standings":
            await self._standings(tid, csv="csv" in rest)
        elif what == "pairings":
            numbers = [a for a in rest if a.isascii() and a.isdigit() and len(a) < 4]
            games = await svc.tournament_pairings(tid, int(numbers[0]) if numbers else None,
                                                  caller=self.caller())
            self._say_games(games)
        elif what == "mine":
            self._say_games(await svc.tournament_games_of(tid, uid, caller=self.caller()))
        else:
            raise ServiceError(_("/tournament has no {what}", what=repr(what)))

    async def _create_tournament(self, uid: int, args: list[str]) -> None:
        words = [a for a in options_of(args) if isinstance(a, str)]
        values = dict(a for a in options_of(args) if isinstance(a, tuple))
        rated = not any(w.lower() in ("casual", "unrated") for w in words)
        words = [w for w in words if w.lower() not in ("casual", "unrated", "rated")]
        if len(words) != 2:
            raise ServiceError(_("/tournament create GAME FORMAT [rounds:N] ... "
                                 "(FORMAT: rr, double, swiss, knockout)"))

        def number(key: str) -> int | None:
            text = values.pop(key, None)
            if text is None:
                return None
            if not (text.isascii() and text.isdigit()) or len(text) > 4:
                raise ServiceError(_("{key} must be a whole number", key=key))
            return int(text)
        claim = values.pop("claim", None)
        if claim is not None and claim.lower() not in SWITCH_VALUES:
            raise ServiceError(_("claim must be yes or no, not {value}", value=repr(claim)))
        t = await self.service.create_tournament(
            CONSOLE_GUILD, CONSOLE_CHANNEL, uid, words[0], fmt=words[1],
            name=values.pop("name", None), rounds=number("rounds"), days=number("days"),
            cap=number("cap"), registration_days=number("registration"), rated=rated,
            clock=values.pop("clock", None),
            claim_win=SWITCH_VALUES[claim.lower()] if claim is not None else False,
            options=values)
        self.say(_("created {tournament_line}: /tournament join #{tournament}",
                   tournament_line=self._tournament_line(t), tournament=t.id))

    def _say_games(self, games: Iterable[TournamentGame]) -> None:
        shown = False
        for g in games:
            shown = True
            if g.second is None:
                self.say(_("  round {round}: {player} bye", round=g.round,
                           player=self.name(g.first)) if g.result is Result.BYE else
                         _("  round {round}: {player} rests", round=g.round,
                           player=self.name(g.first)))
                continue
            result: Words = g.result.value if g.result is not None else _("playing")
            line = _("  round {round} (replay {replay}): {first} - {second}  {result}",
                     round=g.round, replay=g.replay, first=self.name(g.first),
                     second=self.name(g.second), result=result) if g.replay else \
                _("  round {round}: {first} - {second}  {result}", round=g.round,
                  first=self.name(g.first), second=self.name(g.second), result=result)
            self.say(joined(line, _("match #{match}", match=g.match_id))
                     if g.match_id is not None else line)
        if not shown:
            self.say(_("  no games"))

    async def _standings(self, tid: int, *, csv: bool) -> None:
        t = await self.service.get_tournament(tid, caller=self.caller())
        names = {p: render(self.name(p), self.printer.locale) for p in t.players}
        if csv:
            self.say((await self.service.tournament_csv(tid, names, caller=self.caller())).rstrip())
            return
        await self.printer.print_table(await self.service.tournament_table(tid, names,
                                                                           caller=self.caller()),
                                f"tournament{tid}-round{t.round}")

    async def cmd_sweep(self, args: list[str], line: str) -> None:
        if args:
            text = args[0].lstrip("+").rstrip("d")
            try:
                days = float(text)
            except ValueError:
                raise ServiceError(_("/sweep +DAYS, e.g. /sweep +3")) from None
            if not 0 <= days <= 365:
                raise ServiceError(_("between 0 and 365 days, please"))
            self.clock.offset += timedelta(days=days)
        await self.service.beat()  # time moved on purpose: never an extension
        events = await self.service.sweep()
        self.say(_n("sweep: {count} event", "sweep: {count} events", len(events)))


COMMANDS: dict[str, Callable[[Console, list[str], str], Awaitable[None]]] = {
    "help": Console.cmd_help, "games-list": Console.cmd_games_list,
    "challenge": Console.cmd_challenge, "accept": Console.cmd_accept,
    "join": Console.cmd_join, "decline": Console.cmd_decline, "cancel": Console.cmd_cancel,
    "move": Console.cmd_move, "setup": Console.cmd_setup, "moves": Console.cmd_moves,
    "board": Console.cmd_board, "games": Console.cmd_games, "open": Console.cmd_open,
    "resign": Console.cmd_resign, "draw": Console.cmd_draw,
    "leaderboard": Console.cmd_leaderboard, "stats": Console.cmd_stats,
    "season": Console.cmd_season,
    "history": Console.cmd_history, "rules": Console.cmd_rules, "settings": Console.cmd_settings,
    "notify": Console.cmd_notify, "sweep": Console.cmd_sweep, "fill": Console.cmd_fill,
    "hint": Console.cmd_hint, "analysis": Console.cmd_analysis,
    "tournament": Console.cmd_tournament, "tournaments": Console.cmd_tournaments,
    "moretime": Console.cmd_moretime, "claim": Console.cmd_claim, "wait": Console.cmd_wait,
    "next": Console.cmd_next, "vacation": Console.cmd_vacation,
    "rematch": Console.cmd_rematch, "takeback": Console.cmd_takeback,
    "premove": Console.cmd_premove, "note": Console.cmd_note, "follow": Console.cmd_follow,
    "unfollow": Console.cmd_unfollow, "web": Console.cmd_web,
}

_NOTE_LEAD = re.compile(r"^(#\d+|match[:=]#?\d+|action[:=]set)(\s+|$)", re.IGNORECASE)
_NOTE_TEXT = re.compile(r"^text[:=](?P<text>.*)$", re.IGNORECASE | re.DOTALL)


def note_text(line: str) -> str:
    """The text of ``/note TEXT`` as typed (the word split would drop its quotes), without
    the match its first word names (``#N``, ``match:N``) and Discord's ``action:set`` and
    ``text:``.

    >>> note_text('/note #2 keep "the cannon" back')
    'keep "the cannon" back'
    >>> note_text('/note action:set text:"a b"')
    'a b'
    """
    text = line.split(None, 1)[1].strip() if len(line.split(None, 1)) > 1 else ""
    while (lead := _NOTE_LEAD.match(text)) is not None:
        text = text[lead.end():]
    found = _NOTE_TEXT.match(text)
    if found is not None:
        text = found["text"].strip()
        if len(text) > 1 and text[0] == text[-1] and text[0] in "\"'":
            text = text[1:-1]  # text:"..." quoted the whole note
    return text.strip()


def _on_off(value: bool) -> Text:
    return _("on") if value else _("off")


COMPUTER_NAMES = frozenset({"@computer", "@tablero", "computer"})
"""How the console names the computer player in /challenge."""


def _level(text: str | None) -> int:
    if text is None:
        return DEFAULT_LEVEL
    if not digits(text.strip()) or len(text.strip()) > 2:
        raise ServiceError(_("level: a number from 1 (beginner) to 8 (strongest)"))
    return int(text)


async def run_console(db_path: str | Path, *, boards_dir: Path | None = None,
                      stdin: TextIO | None = None, stdout: TextIO | None = None,
                      clock: ShiftedClock | None = None, renderer: BoardRenderer | None = None,
                      seed: int | None = None, synchronous: str = "FULL",
                      locale: str | None = None, engine_seconds: float = 2.0,
                      engine_workers: int = 1, web: WebLinks | None = None) -> int:
    """Open the database, wire the service and run the console until end of input;
    ``locale``: the language it speaks (``--lang``, else ``TABLERO_LANG``, else English);
    the computer player searches in ``engine_workers`` processes with ``engine_seconds``
    per move (``TABLERO_ENGINE_WORKERS`` / ``TABLERO_ENGINE_SECONDS``, as in Discord).

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
    try:
        # The console sweeps every guild's deadlines and resumes their clocks, like a
        # single bot process: it holds the whole database, or refuses to start beside one.
        async with holding(repo, repo.path, _(
                "the console would sweep its deadlines and resume its clocks beside it. "
                "Try the console on a copy (tablero db backup).")):
            picker = PoolMovePicker(workers=engine_workers, seconds=engine_seconds)
            console = open_console(repo, stdout, clock=clock, renderer=renderer,
                                   rng=random.Random(seed), boards_dir=boards_dir,
                                   picker=picker, locale=locale)
            console.web = web
            # what a crash or a kill left undelivered in the outbox is printed first
            if console.relay is not None:
                await console.relay.recover()
            console.printer.name_book = NameBook(repo)
            await console.printer.name_book.load(CONSOLE_GUILD)
            console.names.update(console.printer.name_book.in_guild(CONSOLE_GUILD))
            # The console was closed: clocks move later by the time away (one notice per
            # match), then the sweep acts on whatever is due.
            await console.service.resume()
            await console.service.sweep()  # and the computer turns lost with the last run
            interactive = stdin.isatty()
            if interactive:
                console.say(_("Tablero console: /help lists the commands; start with: as NAME"))
            return await console.run(stdin, prompt=interactive)
    finally:
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
                 locale: str | None = None) -> Console:
    """Wire a console over ``repository`` in one direction: the printer (the service's
    notifier and name resolver), then the service, then the console over both.
    ``picker``: the computer player's moves (none: /challenge @computer is refused);
    ``locale``: the language it speaks (None: ``TABLERO_LANG``, else English)."""
    clock = clock or ShiftedClock()
    printer = ConsolePrinter(out, console_locale(locale))
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
