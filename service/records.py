"""What the repository stores: plain, immutable records (no I/O). The two a change hands
the repository along with what to write carry the core's rule for it
(``RatingChange.rows_after``, ``Downtime.moved``): storage applies them inside its
transaction without importing the core's maths.

The record of a match (``MatchRecord.game``, ``rules_version``, ``options``, ``start_text``
and the ordered ``RecordEntry`` list) is the truth; ``position_text``, ``to_move`` and
``last_move`` are caches written in the same transaction as the entry that changed them.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from enum import StrEnum
from typing import Any

from locales.results import ResultKind, result_kind
from service.timecontrol import TimeControl


class MatchStatus(StrEnum):
    """Life of a match. ``open``: a 2-player challenge waiting for acceptance; ``lobby``: a
    4-player match filling its seats; ``active``; then one of the final states."""

    OPEN = "open"
    LOBBY = "lobby"
    ACTIVE = "active"
    FINISHED = "finished"
    ABORTED = "aborted"  # ended before every player had moved; unrated
    DECLINED = "declined"
    CANCELLED = "cancelled"
    BROKEN = "broken"  # the record does not replay; frozen with a message

    @property
    def is_waiting(self) -> bool:
        return self in (MatchStatus.OPEN, MatchStatus.LOBBY)

    @property
    def is_live(self) -> bool:
        return self in (MatchStatus.OPEN, MatchStatus.LOBBY, MatchStatus.ACTIVE)

    @property
    def never_started(self) -> bool:
        """A challenge or lobby still waiting for its players, or one declined or
        cancelled before it began: no board was ever played on (only a waiting one may
        yet start)."""
        return self in (MatchStatus.OPEN, MatchStatus.LOBBY, MatchStatus.DECLINED,
                        MatchStatus.CANCELLED)


LIVE_STATUSES = (MatchStatus.OPEN, MatchStatus.LOBBY, MatchStatus.ACTIVE)

SPECIAL_PREFIX = "#"
"""Record entries that are not moves start with this: ``#resign 2``, ``#timeout 3``
(a seat leaving the game; replay applies ``variant.resign``), ``#draw`` (agreed draw)."""


def special_entries(entries: Iterable[RecordEntry]) -> int:
    """How many of ``entries`` are special entries (``SPECIAL_PREFIX``): no moves."""
    return sum(1 for e in entries if e.text.startswith(SPECIAL_PREFIX))


@dataclass(frozen=True, slots=True)
class SeatRecord:
    """A participant: seated (``seat`` set once the match starts or he picked one), or
    invited and not yet answered (``accepted`` False). ``out``: resigned/timed out of a
    4-player game that went on without him. ``notify``: how he wants to be told it is his
    turn ("mention" or "dm"); the repository reads it from his preferences in the same
    query as the match, so notifications need no read of their own. ``rating``: his
    rating on the match's ladder in its server (None: he has none yet), read in that
    same query too, so the turn post shows it as it is when the move is played without
    a read per seat (issue 42)."""

    user_id: int
    seat: int | None = None
    team: int | None = None
    accepted: bool = True
    out: bool = False
    notify: str = "mention"  # his /notify choice, read with the seats (not stored here)
    time_zone: str | None = None  # his /settings timezone, read with the seats; None: UTC
    rating: RatingRecord | None = field(default=None, compare=False)  # read with the seats


@dataclass(frozen=True, slots=True)
class ResultRecord:
    """How the match ended, in seats (``winners`` empty = draw)."""

    winners: tuple[int, ...]
    ranking: tuple[tuple[int, ...], ...]
    reason: str
    left_by: int | None = None
    """Who ended a match that was aborted by leaving it (resigning or running out of
    time before every player had moved), stored so that nothing must guess it later
    (a tournament forfeits the game against him); None otherwise."""
    left_how: str | None = None  # with ``left_by``: "resign" or "timeout"

    @property
    def kind(self) -> ResultKind:
        """Win, shared first place, draw or aborted (``locales.results.result_kind``)."""
        return result_kind(self.winners, self.ranking)

    def outcome_of(self, seat: int | None) -> str:
        """``"win"``, ``"draw"`` or ``"loss"`` for ``seat`` (a seat, never a user: the
        result holds seats). With no winners, those sharing first place drew and any
        below lost; the ratings and ``/stats`` count alike."""
        if not self.winners:
            return "draw" if not self.ranking or seat in self.ranking[0] else "loss"
        return "win" if seat in self.winners else "loss"


@dataclass(frozen=True, slots=True)
class DrawOffer:
    """A pending draw offer: who offered and who has agreed so far (4-player games need
    every remaining opponent)."""

    by: int
    accepted: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class PauseOffer:
    """``by`` proposes to pause the match for ``days`` whole days (``reason``: why, his
    words); made at ``ply``, it lapses when a move is played."""

    by: int
    days: int
    ply: int
    reason: str | None = None


@dataclass(frozen=True, slots=True)
class ClockState:
    """The clock of a match beyond its deadline (stored as JSON in ``matches.clock``).

    ``control``: the time control (None: ``days_per_move`` per move, as every match
    stored before time controls). ``claim``: a lapsed clock waits for a claim instead of
    ending the game. ``banks``: each seat's bank between its turns (bank controls; a seat
    missing has the starting bank). ``paused_until``: the current deadline holds vacation
    time up to then, which is not banked. ``lapsed``: the deadline that ran out in a
    claim-win match, waiting for the opponent's claim (the match's ``deadline`` is then
    None, so the sweep leaves it). ``away``: players of this match on vacation, with
    its end (their turns are paused until then). ``undo``: what a takeback of the last move
    restores (``turns.taken_back``). ``own``: a turn several seats play at once (Querni's
    set-up): each such seat's own deadline, as seconds after the match's ``deadline`` (the
    earliest of them), and the end of the vacation pause it holds (``paused_until`` is
    then None); empty when one seat is to move (``turns.seat_clocks``). ``took_back``:
    seats whose own move a takeback undid; they have taken part in the match
    (``states.everyone_moved``). ``hints``: the hints each player took in this game
    against the computer (``computer.MAX_HINTS`` at most; ``/stats`` counts the games
    won with them). ``weekends``: no clock runs from Saturday 00:00 to Monday 00:00 in
    the time zone of its player (``service.weekends``). ``pause_offer``: a pause by
    agreement one player proposed (``service.pauses``); ``paused``: the agreed pause
    (from, until) under way or last taken; ``pauses``: how many were agreed."""

    control: TimeControl | None = None
    claim: bool = False
    banks: tuple[tuple[int, float], ...] = ()  # (seat, seconds)
    paused_until: datetime | None = None
    lapsed: datetime | None = None
    away: tuple[tuple[int, datetime], ...] = ()  # (user, until)
    # the last move's clock, for a takeback (bank controls): (the ply it made, the mover's
    # seat, his bank before it (None: none stored), the seconds he had left when he moved)
    undo: tuple[int, int, float | None, float] | None = None
    own: tuple[tuple[int, float, datetime | None], ...] = ()  # (seat, seconds later, pause)
    took_back: tuple[int, ...] = ()
    hints: tuple[tuple[int, int], ...] = ()  # (user, hints taken)
    weekends: bool = False
    pause_offer: PauseOffer | None = None
    paused: tuple[datetime, datetime] | None = None  # (from, until) of the agreed pause
    pauses: int = 0  # pauses agreed in this match
    # issue 43: what a four-player game does when a seat's time runs out: "end" (as
    # ever: he is out by the mode's rules), "skip" (the rules' ``skip_seat``: his turns
    # are skipped for the rest of the game, he ranks last) or "computer" (the computer at
    # ``stand_in_level`` plays his seat on; he is unrated); ``stand_ins``: (user, the
    # move from which the computer plays for him); ``skipped``: (user, the move from
    # which his turns are skipped)
    on_timeout: str = "end"
    stand_in_level: int = 0
    stand_ins: tuple[tuple[int, int], ...] = ()
    skipped: tuple[tuple[int, int], ...] = ()

    def stand_in_since(self, user: int | None) -> int | None:
        """The move from which the computer plays ``user``'s seat (None: he plays)."""
        return next((n for u, n in self.stand_ins if u == user), None)

    def skipped_since(self, user: int | None) -> int | None:
        """The move from which ``user``'s turns are skipped (None: he plays)."""
        return next((n for u, n in self.skipped if u == user), None)

    def pause_ends(self, now: datetime) -> datetime | None:
        """When the agreed pause under way at ``now`` ends (None: none is)."""
        if self.paused is None or not self.paused[0] <= now < self.paused[1]:
            return None
        return self.paused[1]

    def bank_of(self, seat: int) -> float | None:
        return next((b for s, b in self.banks if s == seat), None)

    def away_until(self, user: int) -> datetime | None:
        return next((u for who, u in self.away if who == user), None)

    def hints_of(self, user: int) -> int:
        return next((n for who, n in self.hints if who == user), 0)


@dataclass(frozen=True, slots=True)
class VacationRecord:
    """A vacation of ``user_id`` in ``guild_id``: from ``started_at`` until ``until``
    (ended early: ``ended_at``). ``days``: whole days charged to his allowance (booked
    days, refunded down to the days used when ended early). ``auto``: spent by the sweep
    instead of a timeout."""

    guild_id: int
    user_id: int
    started_at: datetime
    until: datetime
    days: int
    auto: bool = False
    ended_at: datetime | None = None
    id: int = 0  # given by the repository

    def active(self, now: datetime) -> bool:
        return self.ended_at is None and self.started_at <= now < self.until


@dataclass(frozen=True, slots=True)
class TakebackRequest:
    """A pending takeback request: ``by`` asks to take back his move, the last ply of the
    record when he asked (the match's ``ply`` was ``ply``); it lapses when that changes."""

    by: int
    ply: int


@dataclass(frozen=True, slots=True)
class ConditionalLine:
    """A player's conditional moves in a two-player match (``/premove``): from ply
    ``start_ply`` (the opponent's next move) the record is expected to read ``moves``,
    the opponent's and his own in turn. Its state is read from the record itself: while
    the record since ``start_ply`` is a prefix of ``moves`` the line lives, and when the
    prefix ends on an opponent's move, the next move is the owner's answer, due at once.
    Private to ``user_id`` until played."""

    id: int
    match_id: int
    user_id: int
    start_ply: int
    moves: tuple[str, ...]
    created_at: datetime


@dataclass(frozen=True, slots=True)
class Follow:
    """``user_id`` follows a match (``match_id``) or every match of a player
    (``player_id``) in ``guild_id``, to be told of each move."""

    user_id: int
    guild_id: int
    match_id: int | None = None
    player_id: int | None = None


@dataclass(frozen=True, slots=True)
class UnkeyedGame:
    """What a played match's fingerprint is worked out from besides its record
    (``service.importer.texts_key``): read alone by ``tablero db fingerprints``, not the
    whole :class:`MatchRecord` (its seats, clock, ratings and followers)."""

    id: int
    game: str
    options: Mapping[str, object]
    start_text: str
    ply: int


@dataclass(frozen=True, slots=True)
class MatchRecord:
    id: int
    guild_id: int
    channel_id: int
    thread_id: int | None
    game: str
    ladder: str
    rules_version: str
    options: Mapping[str, object]
    start_text: str
    seat_count: int
    status: MatchStatus
    challenger_id: int
    seats: tuple[SeatRecord, ...]
    seat_pref: int | None  # the challenger's chosen seat; None = random
    seating: str  # "random" or "chosen" (4-player lobbies: joiners pick seats)
    ply: int
    position_text: str
    to_move: tuple[int, ...]  # seats
    last_move: str | None
    days_per_move: int
    rated: bool
    deadline: datetime | None
    remind_at: datetime | None  # None once the reminder for this deadline went out
    draw_offer: DrawOffer | None
    result: ResultRecord | None
    broken: str | None
    created_at: datetime
    updated_at: datetime
    version: int = 0  # bumped by every save; saves are compare-and-set on it
    last_move_by: int | None = None  # the user who played ``last_move``
    clock: ClockState = ClockState()

    @property
    def control(self) -> TimeControl:
        """The match's time control (days per move for matches stored before them)."""
        return self.clock.control or TimeControl.days(self.days_per_move)
    takeback: TakebackRequest | None = None  # a pending takeback request
    # the imported game this match continues (issue 44): its first plies are that
    # game's moves, copied, by its imported players; None for a match played from the start
    continued_from: int | None = None
    # an imported game's fingerprint (``service.importer.record_key``: its game,
    # configuration, start and moves, normalised): a server holds one match per
    # fingerprint (the store refuses a second with ``Conflict``); None for a match played
    # here. Imports stored before fingerprints have ``match:<id>`` (``storage.schema``,
    # migration 26) until the importer works theirs out; the second match of a game a
    # server held twice before the check, ``<fingerprint>#<id>``
    import_key: str | None = None
    # read with the match, never written by ``save`` (their own tables hold them):
    followers: tuple[int, ...] = ()  # users following this match or one of its players
    conditionals: int = 0  # stored conditional lines (``/premove``) of this match
    # the record's special entries (``special_entries``: a seat that resigned, timed out
    # or is skipped, an agreed draw), which are no moves; its plies minus these and the
    # set-up arrangements are the moves played (``matches.moves_played``)
    specials: int = 0

    def seat_of(self, user_id: int) -> SeatRecord | None:
        for s in self.seats:
            if s.user_id == user_id:
                return s
        return None

    def user_at(self, seat: int) -> int | None:
        for s in self.seats:
            if s.seat == seat:
                return s.user_id
        return None


@dataclass(frozen=True, slots=True)
class RecordEntry:
    """One entry of a match record: a canonical move string, a Querni setup, or a special
    entry (see ``SPECIAL_PREFIX``)."""

    ply: int
    seat: int | None
    text: str
    user_id: int | None
    played_at: datetime


@dataclass(frozen=True, slots=True)
class RatingRecord:
    guild_id: int
    ladder: str
    user_id: int
    mu: float
    sigma: float
    wins: int = 0
    losses: int = 0
    draws: int = 0

    @property
    def ordinal(self) -> float:
        return self.mu - 3 * self.sigma

    @property
    def games(self) -> int:
        return self.wins + self.losses + self.draws

    @property
    def provisional(self) -> bool:
        """Fewer than ``PROVISIONAL_GAMES`` rated games: shown with ``?`` and ranked after
        every established player (a few lucky or agreed results cannot top the ladder)."""
        return self.games < PROVISIONAL_GAMES


PROVISIONAL_GAMES = 5
"""Rated games on a ladder before a player's rating counts as established."""


RatingFn = Callable[[Mapping[int, tuple[float, float] | None]], Mapping[int, tuple[float, float]]]
"""Given each user's current ``(mu, sigma)`` (None if unrated), the new values."""


@dataclass(frozen=True, slots=True)
class RatingChange:
    """Ratings to update in the transaction that ends a rated match, with the rule that
    updates them: the repository reads the current rows of ``results``' users inside that
    transaction, and writes :meth:`rows_after` of them (the maths is the core's: ``rate``,
    from ``service.ratings``; storage only reads and writes)."""

    guild_id: int
    ladder: str
    results: Mapping[int, str]  # user -> "win" | "loss" | "draw"
    rate: RatingFn = field(compare=False)
    at: datetime | None = None
    """When the match ended: the repository also credits the guild's season holding this
    instant (``service.seasons``), in the same transaction; None: no season."""
    rate_fresh: RatingFn | None = field(default=None, compare=False)
    """Like ``rate`` but without reporting: applied to the season's ratings."""

    def rows_after(self, current: Mapping[int, RatingRecord | None], *,
                   season: bool = False) -> list[RatingRecord]:
        """The rating rows after this change, from the ``current`` row of each user of
        ``results`` (None: unrated): new ``(mu, sigma)`` from ``rate`` and each user's
        win/draw/loss count moved on by one. ``season``: the rows of the season's ratings
        (``current`` read from them; rated by ``rate_fresh``).

        >>> change = RatingChange(1, "damas", {7: "win", 8: "loss"},
        ...                       lambda now: {u: (30.0, 7.0) for u in now})
        >>> [(r.user_id, r.mu, r.wins, r.losses) for r in change.rows_after({7: None, 8: None})]
        [(7, 30.0, 1, 0), (8, 30.0, 0, 1)]
        """
        rate = self.rate_fresh if season and self.rate_fresh is not None else self.rate
        new = rate({u: (r.mu, r.sigma) if r is not None else None
                    for u, r in current.items()})
        rows = []
        for user, outcome in self.results.items():
            old = current.get(user)
            mu, sigma = new[user]
            base = old or RatingRecord(self.guild_id, self.ladder, user, mu, sigma)
            rows.append(dataclasses.replace(
                base, mu=mu, sigma=sigma,
                wins=base.wins + (outcome == "win"), losses=base.losses + (outcome == "loss"),
                draws=base.draws + (outcome == "draw")))
        return rows


@dataclass(frozen=True, slots=True)
class Downtime:
    """Tablero was away from ``since`` to ``now``: what ``extend_clocks`` is handed, with
    the core's rule for it. ``moved``: a match with each running clock moved later by
    the part of the downtime it ran (``turns.after_downtime``), None when nothing moves.
    A clock that nothing paused (``ClockState()``: one clock, no vacation) ran through
    all of it: ``moved`` moves its deadline and reminder by :attr:`gap`, which storage may
    do for many such matches at once without calling it."""

    since: datetime
    now: datetime
    moved: Callable[[MatchRecord], MatchRecord | None] = field(compare=False)

    @property
    def gap(self) -> timedelta:
        return self.now - self.since


@dataclass(frozen=True, slots=True)
class OutboxEntry:
    """A message that must reach people, stored in the transaction of the change that
    causes it and removed once delivered (``service.outbox``). ``kind`` and
    ``payload`` (JSON) are the event, self-contained, so it can be delivered after a
    restart. ``(match_id, version, n)``: the match version the change wrote and the
    event's place among that change's events (how a live event finds its entry)."""

    match_id: int
    guild_id: int
    version: int
    n: int
    kind: str
    payload: str
    created_at: datetime
    id: int = 0  # given by the repository


@dataclass(frozen=True, slots=True)
class PostedMessage:
    """A post an adapter made that it changes later: a question asked with buttons,
    closed once answered (``service.settled``). Where it is (``channel_id``), which
    message (``message_id``), and the words it said (``content``) in ``locale``."""

    channel_id: int
    message_id: int
    locale: str
    content: str


OutboxFn = Callable[["MatchRecord"], Sequence[OutboxEntry]]
"""Given a match as stored by a write (id and new version set), the outbox entries to
store in the same transaction (a pure function: it runs inside the transaction)."""

TournamentOutboxFn = Callable[[Any], Sequence[OutboxEntry]]
"""Given a tournament as stored by ``save_tournament`` (new version set), the outbox
entries to store in the same transaction (a pure function, like ``OutboxFn``)."""


@dataclass(frozen=True, slots=True)
class ExplorerRow:
    """One move of a finished game as the opening explorer counts it: the position it was
    played from (``position``, a 64-bit key: ``service.explorer.position_key``), its
    canonical text, how the game ended for the seat that played it (``"win"``,
    ``"draw"`` or ``"loss"``) and that player's rating on the game's ladder when the game
    was indexed (None: unrated)."""

    position: int
    move: str
    outcome: str
    rating: float | None = None


@dataclass(frozen=True, slots=True)
class ExplorerCount:
    """What the explorer holds for one move from one position: the games it was played
    in, how they ended for its player, and the ratings of those of its players who were
    rated (``rated`` of them, summing to ``rating_sum``)."""

    move: str
    games: int
    wins: int
    draws: int
    losses: int
    rated: int = 0
    rating_sum: float = 0.0


PUZZLE_GOALS = ("win", "material", "save")
"""What a puzzle asks (the engine's finds): the forced win, winning material, or the save."""


@dataclass(frozen=True, slots=True)
class PuzzleRecord:
    """A puzzle mined from a finished match (issue 44): the server, the game and its
    configuration (the explorer's name, ``service.explorer.explorer_config``), the source
    match, the ply of the position in it and that match's players (users), the position's
    text and the seat to move (the puzzle's side), the solution (canonical moves from the
    position: the puzzle side's moves with the other seats' replies between them, ending on
    the puzzle side's), the goal (one of :data:`PUZZLE_GOALS`), a difficulty (1 easy to 5),
    the puzzle's own rating (openskill ``mu``, ``sigma``: it moves as people solve or fail
    it), and when it was mined and posted as a server's daily puzzle (None: never)."""

    id: int
    guild_id: int
    game: str
    config: str
    match_id: int
    ply: int
    players: tuple[int, ...]
    position: str
    seat: int
    line: tuple[str, ...]
    goal: str
    difficulty: int
    mu: float
    sigma: float
    created_at: datetime
    posted_at: datetime | None = None


@dataclass(frozen=True, slots=True)
class PuzzlePlayer:
    """A player's puzzles in a server: his puzzle rating (openskill ``mu``, ``sigma``), the
    puzzles he solved and failed (rated ones: his first try at each), his streak of
    puzzles solved in a row and his best one, and the puzzle he is solving (``puzzle_id``
    None: none), at which of his moves (``step``: how many he has played right) and
    whether it is rated (his first try). ``version`` makes each change compare-and-set."""

    guild_id: int
    user_id: int
    mu: float
    sigma: float
    solved: int = 0
    failed: int = 0
    streak: int = 0
    best_streak: int = 0
    puzzle_id: int | None = None
    step: int = 0
    rated: bool = False
    version: int = 0

    @property
    def rating(self) -> float:
        """The puzzle rating shown: openskill's ordinal ``mu - 3 sigma``, as on the
        ladders."""
        return self.mu - 3 * self.sigma


@dataclass(frozen=True, slots=True)
class PuzzleTry:
    """One finished try at a puzzle: who, which, whether he solved it and whether it was
    rated (his first try), and when (a puzzle is never given to him again)."""

    guild_id: int
    user_id: int
    puzzle_id: int
    solved: bool
    rated: bool
    at: datetime
