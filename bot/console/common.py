"""What the console's parts share: its server and channel, the help text, how a word becomes
a user, a number, an option, and the clock that ``/sweep +DAYS`` moves."""

from __future__ import annotations

import re
import unicodedata
import zlib
from collections.abc import Callable, Iterable
from datetime import datetime, timedelta

import rules
from bot.console_args import SWITCH_VALUES
from locales.i18n import (
    Text,
    _,
)
from service import (
    Clock,
    MatchNotFound,
    ServiceError,
    SystemClock,
)
from service.computer import DEFAULT_LEVEL
from service.ids import MAX_ID, tournament_not_found

CONSOLE_GUILD = 1


CONSOLE_CHANNEL = 1


# TRANSLATORS: the console's /help: translate the explanations only; commands, their
# arguments (GAME, #N, option:value) and alignment stay as they are
def weekends_switch(value: str) -> bool:
    """``weekends:off`` (no clock runs on weekends: True) or ``weekends:on`` (False)."""
    if value.lower() not in SWITCH_VALUES:
        raise ServiceError(_("weekends must be on or off, not {value}", value=repr(value)))
    return not SWITCH_VALUES[value.lower()]


HELP = _("""\
Commands (a #<match> argument picks a match; otherwise your current one):
  as NAME                         act as user NAME (created on first use)
  /challenge [@user ...] GAME [option:value ...] [days:N] [seat:NAME]
             [casual | rated:yes|no]
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
  /board [#N] ply:K               the board after K plies of the game (0: the start)
  /draw offer|accept|decline
  /takeback [ask|accept|decline]  take your last move back, by your opponent's consent
  /rematch [#N]                   a finished match again: colours swapped (4 players:
                                  seats rotated), same terms; the others /accept
                                  (the computer takes it at once)
  /premove THEIRS MINE [THEIRS MINE ...] [; another line]
                                  conditional moves (commas between moves with spaces)
  /premove list   /premove clear
  /note [TEXT | clear]            your private note on the match (alone: show it)
  /follow [#N | @user]            be told of each move (alone: list what you follow)
  /unfollow #N | @user
  /leaderboard GAME [PAGE] [season:N]   /stats [@user]
  /season [monthly|quarterly|manual|off|reset]   the server's leaderboard seasons
  /rules [GAME]                   how a game is played (teams, fast and slow included)
  /challenge ... [clock:3d+1d/10d] [claim_win:yes|no]
                                  a bank (3 days + 1 a move, at most 10) instead of days:N;
                                  claim_win: a lapsed clock waits for the opponent's claim
  /moretime [#N]                  give the player to move one day more
  /claim [#N]   /wait [#N]        their time ran out: claim the win, or keep waiting
  /next                           the next match waiting on you (least time left first)
  /vacation start [DAYS] | end | status
                                  pause your clocks in this server (yearly allowance)
  /settings [days:N] [reminders:on|off] [threads:on|off] [language:LOCALE]
            [clock:3d+1d/10d] [claim_win:on|off] [vacation:DAYS] [auto_vacation:on|off]
            [takebacks_rated:on|off] [web:on|off] [seasons:monthly|quarterly|manual|off]
  /notify mention|dm              how you want to be told it is your turn
  /sweep [+DAYS]                  run the deadline sweep (optionally DAYS from now)
  /tournament create GAME FORMAT [rounds:N] [name:TEXT] [days:N] [cap:N]
              [registration_days:DAYS] [casual | rated:yes|no] [clock:3d+1d/10d]
              [claim_win:yes|no] [option:value ...]
                                  FORMAT: rr, double, swiss (needs rounds:N), knockout
  /tournament join|leave|start|cancel [#T]   /tournament remove [#T] @user
  /tournament standings [#T] [csv]   /tournament pairings [#T] [ROUND]
  /tournament mine [#T]              /tournaments
  /games-list                     the games Tablero knows
  /help   quit""")

# TRANSLATORS: more of the console's /help (the server's games as a school): translate
# the explanations only
HELP_SCHOOL = _("""\
  /explorer GAME [option:value ...] [games:played|imported|all] [MOVES ...]
                                  the moves played next in the finished games (a book:
                                  open during live games too)
  /import PATH [game:KEY]         a record file (WXF or ICCS Xiangqi, PDN Spanish draughts,
                                  Tablero's own) as a finished match: /history, /analysis""")

# TRANSLATORS: the console's /help line of /continue: translate the explanation only
HELP_CONTINUE = _("""\
  /continue #N @PLAYER [seat:COLOUR] [days:N] [on_timeout:end|skip|computer [level:N]]
                                  go on with imported game #N from its last position:
                                  a new casual match once PLAYER accepts""")

# TRANSLATORS: the console's /help lines of /block and /unblock: translate the
# explanations only
HELP_BLOCKS = _("""\
  /block [@user]   /unblock @user  refuse a person's challenges, joins and follows in
                                  every server (alone: whom you block); at most 10 of
                                  your challenges wait at once, one per person and game
  /block challenges:off|on        take no direct challenge for now (your open challenges
                                  can still be joined), or take them again""")

# TRANSLATORS: the console's /help for puzzles (issue 44): translate the explanations only
HELP_PUZZLES = _("""\
  /puzzle [next [#N]]             your puzzle from this server's finished games (or
                                  puzzle N); /puzzle answer MOVE, /puzzle moves [PREFIX]
  /puzzle leaderboard | daily on|off | mine
                                  the best solvers; a daily puzzle here; search the
                                  finished games now""")

HELP_WEEKS = _("""\
Clocks that fit your week:
  /challenge ... [weekends:off|on]   weekends:off: no clock runs on Saturday and Sunday
                                  in each player's own time zone
  /timezone [ZONE | clear]        your time zone (an IANA name: Europe/Madrid); alone:
                                  show it; it decides your weekends and reminder hours
  /settings [weekends:off|on] [pauses:N] [timezone:ZONE]
                                  the server's default for weekends, the pauses a rated
                                  match allows; timezone: your own
  /tournament create ... [vacation:yes|no] [weekends:off|on]
  /pause [#N] DAYS [REASON]       propose to pause the match by agreement (1-30 days)
  /pause accept|decline|resume [#N]
                                  answer the proposal, or end the pause early
  /challenge ... [on_timeout:end|skip|computer] [level:1-8]
                                  four players: a seat whose time runs out is out (end),
                                  or their turns are skipped and they rank last (skip),
                                  or (not teams) the computer plays it on (unrated for
                                  them)""")


MAX_NAME = 32


"""Console user names are capped like Discord's display names."""




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


def is_game(word: str) -> bool:
    """Whether ``word`` names a game (its key or a name the rules accept for it)."""
    try:
        rules.variant(word)
    except ValueError:
        return False
    return True


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
