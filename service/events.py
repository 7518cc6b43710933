"""Events the service hands to its ``Notifier`` (the console prints them, the Discord
adapter posts them). Each carries the match as it is after the change, and everything a
notifier needs to tell people about it: the board to draw (``BoardState``), how each
participant wants to be told (``MatchView.notify_by_dm``) and, at the end, the record for
a replay. A notifier never calls back into the service."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from locales.i18n import Text, Words, _
from service.states import StoredRecord
from service.tournaments.table import StandingsTable
from service.views import (
    BoardState,
    GlanceBoard,
    LeaderboardEntry,
    MatchView,
    RatingUpdate,
    ResultView,
)


@dataclass(frozen=True, slots=True)
class ChallengeReceived:
    """A challenge was made: ``to`` are the invited users (empty = an open challenge).
    ``taken``: nobody is asked, the computer takes every other seat at once (a rematch
    against it): the match's start follows, and an adapter posts no challenge; it only
    links the rematch to the result it came from (``rematch_of``)."""

    match: MatchView
    by: int
    to: tuple[int, ...]
    rematch_of: int | None = None  # the finished match this challenge is a rematch of
    taken: bool = False


@dataclass(frozen=True, slots=True)
class LobbyChanged:
    """Someone joined or left a 4-player lobby (or accepted one of several invitations)."""

    match: MatchView
    user_id: int
    joined: bool


@dataclass(frozen=True, slots=True)
class ChallengeClosed:
    """A challenge or lobby ended before play: declined or cancelled."""

    match: MatchView
    by: int
    reason: str  # "declined" | "cancelled"


@dataclass(frozen=True, slots=True)
class TurnStarted:
    """The match started or a move was played: ``users`` must move now (deadline on the
    match). ``last_move`` is the display of the move just played (None at the start) and
    ``by`` who played it. ``draw_lapsed_by``: the player whose draw offer this move let
    lapse (an offer lapses when an opponent moves instead of answering it). ``board``: the
    position to draw (a hidden Querni arrangement is hidden by the renderer itself).
    ``closes``: the ply of the turn whose card this post replaces (``service.settled``):
    its buttons go once this post is out, so the turn that passed needs no
    ``OfferSettled`` of its own (None: none passed, the match just started)."""

    match: MatchView
    users: tuple[int, ...]
    last_move: str | None
    by: int | None = None
    draw_lapsed_by: int | None = None
    board: BoardState | None = None
    closes: int | None = None


@dataclass(frozen=True, slots=True)
class DeadlineReminder:
    match: MatchView
    users: tuple[int, ...]
    remaining: timedelta


@dataclass(frozen=True, slots=True)
class PlayerOut:
    """A player of a 4-player game is out and the game goes on: he resigned, ran out of
    time, or the game put him out (no stones left, or no legal move at his turn)."""

    match: MatchView
    user_id: int
    reason: str  # "resignation" | "timeout" | "skipped" | "no-pieces" | "no-moves"

    @property
    def what(self) -> Words:
        """What happened, to follow the player's name: ``'ran out of time'``."""
        return OUT_REASONS.get(self.reason, self.reason.replace("-", " "))


OUT_REASONS: dict[str, Text] = {
    "resignation": _("resigned"), "timeout": _("ran out of time"),
    # on_timeout:skip (issue 43)
    "skipped": _("ran out of time (their turns are skipped for the rest of the game; "
                 "they rank last)"),
    "no-pieces": _("has no stones left"), "no-moves": _("cannot move")}


@dataclass(frozen=True, slots=True)
class MovePlayedFor:
    """The rules left ``user_id`` one move only and the service played it for him at once
    (Querni: he can neither move nor remove a chain, so his turn is a pass). Announced
    before the TurnStarted or MatchEnded that follows."""

    match: MatchView
    user_id: int
    move: str

    @property
    def what(self) -> Text:
        """What happened, to follow the player's name."""
        if self.move == "pass":
            return _("can neither move nor remove a chain, so their turn is a pass "
                     "(played for them)")
        return _("had no other legal move: {move} was played for them", move=self.move)


@dataclass(frozen=True, slots=True)
class DrawOffered:
    match: MatchView
    by: int


@dataclass(frozen=True, slots=True)
class DrawAccepted:
    """``by`` agreed to the pending draw offer of a four-player game, and the draw still
    waits for ``waiting`` (the offerer's other opponents still in, who have not agreed
    yet). Once the last agrees, the match ends instead (``MatchEnded``)."""

    match: MatchView
    by: int
    waiting: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class DrawDeclined:
    """The pending draw offer is gone: turned down by ``by``, or taken back by its
    offerer (``withdrawn``)."""

    match: MatchView
    by: int
    withdrawn: bool = False


@dataclass(frozen=True, slots=True)
class SetupSubmitted:
    """A Querni ``choose`` arrangement was submitted (its content stays hidden)."""

    match: MatchView
    user_id: int


@dataclass(frozen=True, slots=True)
class MatchEnded:
    """The match is over: finished (``result``), aborted (unrated), or broken.
    ``ratings``: each rated player's change, in seat order (empty when unrated).
    ``board``: the final position to draw (None for a broken match or one without a
    move); ``record``: the stored record, for a replay (replayed only when asked)."""

    match: MatchView
    result: ResultView | None
    reason: str
    ratings: tuple[RatingUpdate, ...] = ()
    left_by: int | None = None
    """The user whose resignation or timeout ended the match (None otherwise)."""
    board: BoardState | None = None
    record: StoredRecord | None = None
    left_how: str | None = None
    """With ``left_by``: how he left, "resign", "timeout" or "skip" (an entry stored
    before this field says None)."""


@dataclass(frozen=True, slots=True)
class ClocksExtended:
    """Tablero was away (the process was down or cut off from Discord) for ``gap``: this
    match's deadline and reminder were moved later by the part of ``gap`` its clocks ran
    (``gap`` unless a vacation paused them), so nobody loses time to it."""

    match: MatchView
    gap: timedelta


@dataclass(frozen=True, slots=True)
class StandingsChanged:
    """A tournament game counted, or the tournament ended (``final``): its standings as
    they now stand, to post in the tournament's channel (``channel_id``). ``winner``: the
    sole winner at the end (None while running, or when first place is shared).

    It rides the outbox lane of the match whose end caused it, after that match's own
    entries: ``match`` is that match's view with ``version`` set to minus the
    tournament's new version, so its entry keys apart from the match's changes."""

    match: MatchView
    tournament_id: int
    channel_id: int
    table: StandingsTable
    final: bool = False
    winner: int | None = None


@dataclass(frozen=True, slots=True)
class SeasonEnded:
    """A leaderboard season of a server ended: its final boards (the first
    ``SEASON_BOARD_SIZE`` of each ladder, best first; a ladder's ``total`` players), to
    post in ``match.channel_id``. Rides the server's notice lane
    (``views.notice_lane``: ``match.version`` is the season's number)."""

    match: MatchView
    season: int
    schedule: str
    starts_at: datetime
    ends_at: datetime
    boards: tuple[SeasonBoard, ...]


@dataclass(frozen=True, slots=True)
class SeasonBoard:
    """One ladder's final board in a season."""

    ladder: str
    total: int
    entries: tuple[LeaderboardEntry, ...]


SEASON_BOARD_SIZE = 10


@dataclass(frozen=True, slots=True)
class VacationStarted:
    """``user_id`` went on vacation until ``until``: his clock in this match is paused
    until then (told to his opponents in the match's place)."""

    match: MatchView
    user_id: int
    until: datetime


@dataclass(frozen=True, slots=True)
class VacationEnded:
    """``user_id``'s vacation ended early (``/vacation end``): his clock runs again."""

    match: MatchView
    user_id: int


@dataclass(frozen=True, slots=True)
class AutoVacation:
    """``user_id``'s time ran out and, the server spending vacation automatically, days
    of his vacation were spent instead (``days_spent``: more than one when the sweep
    came after a longer gap): his deadline is now ``until``. ``days_left``: his balance
    after it."""

    match: MatchView
    user_id: int
    until: datetime
    days_left: int
    days_spent: int = 1


@dataclass(frozen=True, slots=True)
class TimeGiven:
    """``by`` gave the players to move (``to``) a day more: the deadline is the match's."""

    match: MatchView
    by: int
    to: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class TimeLapsed:
    """A claim-win match: the time of ``late`` ran out; the game goes on until one of
    ``waiting`` claims the win (buttons: Claim win / Keep waiting). ``late`` may still
    move until then."""

    match: MatchView
    late: tuple[int, ...]
    waiting: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class TakebackOffered:
    """``by`` asks to take back his last move (``move``, as displayed); the other
    player answers with Accept / Decline. It lapses when the next move is played."""

    match: MatchView
    by: int
    move: str


@dataclass(frozen=True, slots=True)
class SeatTakenOver:
    """``user``'s time ran out in a four-player game whose lobby chose
    ``on_timeout:computer``: the computer at ``level`` plays his seat from move ``move``
    on (he is unrated for it)."""

    match: MatchView
    user: int
    level: int
    move: int


@dataclass(frozen=True, slots=True)
class PauseOffered:
    """``by`` proposes to pause the match for ``days`` days (``reason``: his words, or
    None); the other player accepts or declines. It lapses when a move is played."""

    match: MatchView
    by: int
    days: int
    reason: str | None = None


@dataclass(frozen=True, slots=True)
class PauseDeclined:
    match: MatchView
    by: int


@dataclass(frozen=True, slots=True)
class PauseStarted:
    """The players agreed: nobody moves and no clock runs until ``until``
    (``accepted_by`` agreed to ``by``'s proposal)."""

    match: MatchView
    by: int
    accepted_by: int
    until: datetime
    reason: str | None = None


@dataclass(frozen=True, slots=True)
class PauseEnded:
    """``by`` resumed the match before its pause ran out; the clocks run again."""

    match: MatchView
    by: int


@dataclass(frozen=True, slots=True)
class TakebackDeclined:
    match: MatchView
    by: int


@dataclass(frozen=True, slots=True)
class TakenBack:
    """``accepted_by`` agreed: ``by``'s move ``move`` was taken back and it is his turn
    again (the match's deadline says until when). ``board``: the position again."""

    match: MatchView
    by: int
    accepted_by: int
    move: str
    board: BoardState | None = None


@dataclass(frozen=True, slots=True)
class ConditionalMovePlayed:
    """``user_id``'s conditional move (``/premove``) ``move`` answered the opponent's
    move at once; announced before the TurnStarted (or MatchEnded) of that move."""

    match: MatchView
    user_id: int
    move: str


@dataclass(frozen=True, slots=True)
class MoveFollowed:
    """A move in a match that ``followers`` follow (``/follow`` the match or a player in
    it): ``by`` played ``move`` (as displayed). Told privately to each follower."""

    match: MatchView
    followers: tuple[int, ...]
    by: int
    move: str


@dataclass(frozen=True, slots=True)
class DigestDue:
    """``user_id``'s daily digest (issue 42, ``/follow digest:on``): his games in the
    server at a glance (``MatchService.glance``), as they stood when it fell due; told
    privately. ``match`` is the server's notice lane (``views.notice_lane``)."""

    match: MatchView
    user_id: int
    games: tuple[GlanceBoard, ...]


@dataclass(frozen=True, slots=True)
class OfferSettled:
    """A question the players were asked with buttons got its answer, or lapsed: the
    adapter closes the post that asked it (``service.settled``). ``offer`` is what was
    asked: ``"challenge"`` (a challenge or a lobby), ``"draw"``, ``"takeback"``,
    ``"pause"``, ``"claim"`` (a lapsed claim-win clock: claim or keep waiting) or
    ``"turn"`` (the turn at ``ply``, whose card offered "+1 day" or "Take back", is
    over, and no ``TurnStarted`` of the same change closes its card: the match ended, a
    takeback, a set-up going on); ``outcome`` what became of it: ``"accepted"``,
    ``"filled"`` (a lobby whose last seat was taken: the match started), ``"declined"``,
    ``"withdrawn"`` (by who asked), ``"claimed"`` (by ``by``), ``"extended"`` (one more
    day given, by ``by``), ``"lapsed"`` (a move was played first), ``"taken-back"`` (a
    takeback undid the move it was about), ``"left"`` (``by`` left a game that goes on),
    ``"passed"`` (a turn) or ``"closed"`` (the match ended or closed another way);
    ``by``: who answered (None when nobody did)."""

    match: MatchView
    offer: str
    outcome: str
    by: int | None = None
    ply: int | None = None  # a turn's: the ply its card's buttons name


@dataclass(frozen=True, slots=True)
class DailyPuzzle:
    """A server's daily puzzle (issue 44, ``/puzzle daily``), posted in its channel:
    puzzle ``puzzle_id`` of ``game`` (its configuration ``config``), the position's text,
    the seat to move (the puzzle's side), its goal and difficulty. ``match`` is the
    server's notice lane (``views.notice_lane``) in the channel to post in."""

    match: MatchView
    puzzle_id: int
    game: str
    config: str
    position: str
    seat: int
    goal: str
    difficulty: int


Event = (ChallengeReceived | LobbyChanged | ChallengeClosed | TurnStarted | DeadlineReminder
         | PlayerOut | MovePlayedFor | DrawOffered | DrawAccepted | DrawDeclined
         | SetupSubmitted
         | MatchEnded | ClocksExtended | StandingsChanged | SeasonEnded | VacationStarted
         | VacationEnded | AutoVacation | TimeGiven | TimeLapsed | TakebackOffered
         | TakebackDeclined | TakenBack | ConditionalMovePlayed | MoveFollowed | DigestDue
         | PauseOffered | PauseDeclined | PauseStarted | PauseEnded | SeatTakenOver
         | DailyPuzzle | OfferSettled)
