"""Plain data the service returns to adapters (Discord, console). No behaviour beyond
small conveniences; every id is a plain int."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from datetime import datetime

from locales.analysis import CostKind, analysed_line, cost_words, worth_unit
from locales.i18n import Joined, Words, _, decimal
from locales.results import ResultKind, result_kind
from rules import MoveMarks, Position, Variant
from rules.core import reason_text
from service.records import PROVISIONAL_GAMES, MatchStatus


def shown_rating(value: float, provisional: bool) -> Joined:
    """A rating as every place prints it (ladders, a match's seats, a result's rating
    lines, the console, the web): one decimal in the reader's way, then ``?`` while it is
    provisional (fewer than ``PROVISIONAL_GAMES`` rated games on its ladder).

    >>> shown_rating(4.06, True).render("de"), shown_rating(12.34, False).render("en-US")
    ('4,1?', '12.3')
    """
    return Joined((decimal(value), "?" if provisional else ""), separator="")


@dataclass(frozen=True, slots=True)
class SeatView:
    """One seat of a match. ``rating``: its player's rating on the match's ladder when the
    match was read (the number ladders show, mu - 3 sigma; None: he has none yet),
    ``provisional`` while he has played fewer than ``PROVISIONAL_GAMES`` rated games."""

    seat: int
    user_id: int | None  # None: a lobby seat nobody took yet
    team: int | None
    name: str  # the game's name for the seat, e.g. "Red"
    out: bool = False
    rating: float | None = None
    provisional: bool = False
    player: str = ""  # an imported player's name, as his record gave it ("" for people)

    @property
    def shown_rating(self) -> Joined | None:
        """The rating as ladders print it (``'12.3'``, ``'4.1?'`` while provisional), or
        None without one.

        >>> SeatView(0, 7, None, "Red", rating=4.06, provisional=True).shown_rating.render("de")
        '4,1?'
        """
        if self.rating is None:
            return None
        return shown_rating(self.rating, self.provisional)


@dataclass(frozen=True, slots=True)
class ResultView:
    """The end of a match, in users. ``winners`` empty = draw (or aborted)."""

    winners: tuple[int, ...]
    ranking: tuple[tuple[int, ...], ...]
    reason: str  # the key: "checkmate", "no-pieces", "timeout", "agreement", ...

    @property
    def reason_text(self) -> str:
        """The reason in words for people (``rules.core.reason_text``).

        >>> ResultView((1,), ((1,), (2,)), "no-pieces").reason_text
        'opponent out of pieces'
        """
        return reason_text(self.reason)

    @property
    def kind(self) -> ResultKind:
        """Win, shared first place, draw or aborted (``locales.results.result_kind``)."""
        return result_kind(self.winners, self.ranking)


@dataclass(frozen=True, slots=True)
class MatchView:
    id: int
    guild_id: int
    channel_id: int
    thread_id: int | None
    game: str  # the variant key
    game_name: str
    options: Mapping[str, object]
    status: MatchStatus
    challenger_id: int
    seats: tuple[SeatView, ...]  # by seat; empty while a 2-player challenge is open
    invited: tuple[int, ...]  # users invited who have not answered yet
    joined: tuple[int, ...]  # users in a lobby / challenge (seated or not)
    seat_count: int
    ply: int
    to_move: tuple[int, ...]  # users to move (two during a Querni 'choose' setup)
    deadline: datetime | None
    days_per_move: int
    rated: bool
    result: ResultView | None
    position_text: str
    last_move: str | None  # display form of the last move
    draw_offer_by: int | None
    broken: str | None
    last_move_by: int | None = None  # who played ``last_move``
    notify_by_dm: tuple[int, ...] = ()  # participants who want their pings as DMs
    version: int = 0  # the stored version this view shows (the change that wrote it)
    time_control: str = ""  # ``timecontrol.format_time_control`` of the match's control
    claim_win: bool = False  # a lapsed clock waits for a claim
    lapsed: datetime | None = None  # the deadline that ran out, waiting for a claim
    away: tuple[tuple[int, datetime], ...] = ()  # players on vacation here, until when
    takeback_by: int | None = None  # who asked to take his last move back (pending)
    # seats moving at once (Querni's set-up) each on his own clock: (user, his deadline)
    own_deadlines: tuple[tuple[int, datetime], ...] = ()
    weekends: bool = False  # no clock runs on its player's weekend (his time zone)
    # each player's time zone (None: he set none, UTC counts), shown with weekends off
    time_zones: tuple[tuple[int, str | None], ...] = ()
    paused: tuple[datetime, datetime] | None = None  # the agreed pause (from, until)
    pause_offer_by: int | None = None  # who proposed a pause (pending)
    pause_offer_days: int = 0
    on_timeout: str = "end"  # four players: "end", "skip" or "computer" (issue 43)
    continued_from: int | None = None  # the imported game it continues (issue 44)
    # seats the computer plays since a timeout: (user, the move it took over from)
    stand_ins: tuple[tuple[int, int], ...] = ()
    # seats whose turns are skipped since a timeout: (user, the move from which)
    skipped: tuple[tuple[int, int], ...] = ()
    # the first plies that were set-up arrangements (Querni ``choose``): not moves
    arranged: int = 0
    # the record's special entries (a seat that resigned, timed out or is skipped, an
    # agreed draw): not moves either
    specials: int = 0
    # who agreed to the pending draw offer so far (four players: every other must)
    draw_accepted: tuple[int, ...] = ()

    @property
    def moves_played(self) -> int:
        """The record's plies as players count moves: the arrangements and the special
        entries left out (what "move N" and "after N moves" count everywhere)."""
        return self.ply - self.arranged - self.specials

    def stand_in_since(self, user_id: int | None) -> int | None:
        """The move from which the computer plays ``user_id``'s seat (None: he plays)."""
        return next((n for u, n in self.stand_ins if u == user_id), None)

    def skipped_since(self, user_id: int | None) -> int | None:
        """The move from which ``user_id``'s turns are skipped (None: he plays)."""
        return next((n for u, n in self.skipped if u == user_id), None)

    def pause_ends(self, now: datetime) -> datetime | None:
        """When the agreed pause under way at ``now`` ends (None: none is)."""
        if self.paused is None or not self.paused[0] <= now < self.paused[1]:
            return None
        return self.paused[1]

    def prefers_dm(self, user_id: int) -> bool:
        """Whether ``user_id`` chose direct messages over mentions (``/notify``)."""
        return user_id in self.notify_by_dm

    @property
    def is_over(self) -> bool:
        return not self.status.is_live

    def away_until(self, user_id: int, now: datetime) -> datetime | None:
        """When ``user_id``'s vacation ends, if he is on one (paused here) at ``now``."""
        return next((t for u, t in self.away if u == user_id and t > now), None)

    @property
    def due(self) -> datetime | None:
        """When the player to move runs out of time (the lapsed deadline of a claim-win
        match waiting for a claim; None when no clock runs)."""
        return self.deadline if self.deadline is not None else self.lapsed

    def due_for(self, user_id: int) -> datetime | None:
        """When ``user_id`` runs out of time: his own deadline while several seats move
        at once on their own clocks, else :attr:`due`."""
        return next((d for u, d in self.own_deadlines if u == user_id), self.due)

    @property
    def deadlines_differ(self) -> bool:
        """Whether the seats moving at once have different own deadlines (then each is
        shown, not the match's earliest)."""
        return len({d for _u, d in self.own_deadlines}) > 1

    def seat_of(self, user_id: int) -> int | None:
        for s in self.seats:
            if s.user_id == user_id:
                return s.seat
        return None

    def players(self) -> tuple[int, ...]:
        return tuple(s.user_id for s in self.seats if s.user_id is not None)

    def team_mates(self, user_id: int) -> tuple[int, ...]:
        """The seated players on ``user_id``'s team but him (empty outside teams)."""
        team = next((s.team for s in self.seats if s.user_id == user_id), None)
        if team is None:
            return ()
        return tuple(s.user_id for s in self.seats
                     if s.team == team and s.user_id is not None and s.user_id != user_id)

    def sides(self) -> tuple[tuple[int, ...], ...]:
        """The seated players grouped by team (teams mode), else one per seat: what
        "alice and carol vs bob and dave" is written from."""
        groups: dict[object, list[int]] = {}
        for s in self.seats:
            if s.user_id is not None:
                groups.setdefault(("team", s.team) if s.team is not None else s.seat,
                                  []).append(s.user_id)
        return tuple(tuple(g) for g in groups.values())


@dataclass(frozen=True, slots=True)
class Caller:
    """Who reads a match, and from where: ``guild_id`` None is a direct message. A match
    is visible from its own server, and in DMs to its participants; to anyone else it
    does not exist (``MatchNotFound``, the same words as for a number never used).

    >>> Caller(10, 101).guild_id, Caller(None, 101).in_dm
    (10, True)
    """

    guild_id: int | None
    user_id: int

    @property
    def in_dm(self) -> bool:
        return self.guild_id is None

    def may_see(self, match: MatchView) -> bool:
        if self.guild_id is not None:
            return self.guild_id == match.guild_id
        return self.user_id in (*match.players(), *match.joined, *match.invited,
                                match.challenger_id)


@dataclass(frozen=True, slots=True)
class BoardState:
    """What a board image is drawn from, as the service holds it after a change: the
    position object (with its history) and the last move's marks. Events carry it so
    nobody reads the match again to draw it."""

    position: Position
    last_marks: MoveMarks | None = None
    moves: int | None = None  # moves played as players count them (None: unknown)


@dataclass(frozen=True, slots=True)
class MoveResult:
    """What ``MatchService.move`` did: the canonical move, how to show it, the match after
    it, and the outcome when the move ended the match. A conditional answer (``/premove``)
    played at once is part of "after it": ``match``, ``board``, ``ended`` and ``result``
    then show the match after the answer."""

    match: MatchView
    move: str
    display: str
    ended: bool
    result: ResultView | None = None
    board: BoardState | None = None  # the position after the move, to draw it


@dataclass(frozen=True, slots=True)
class RatingUpdate:
    """One player's rating change at the end of a rated match. ``ordinal`` (mu - 3 sigma)
    is the number /leaderboard and /stats show; a player's first rated match on the ladder
    starts from the default rating (``first`` True). ``rank``: his place on the ladder
    afterwards (None if it could not be read). ``games``: his rated games on the ladder
    afterwards, this one counted (None if it could not be read): a rating is shown with
    ``?`` while provisional, before and after, as the leaderboard shows it."""

    user_id: int
    ladder: str
    ordinal_before: float
    ordinal_after: float
    mu_before: float
    mu_after: float
    rank: int | None
    outcome: str  # "win" | "loss" | "draw"
    first: bool = False
    games: int | None = None

    @property
    def delta(self) -> float:
        return self.ordinal_after - self.ordinal_before

    def provisional(self) -> tuple[bool, bool]:
        """Whether the rating was provisional before this match, and is after it
        (unknown counts: both False, but a first match's are both True)."""
        games = self.games if self.games is not None else 1 if self.first else None
        if games is None:
            return False, False
        return games - 1 < PROVISIONAL_GAMES, games < PROVISIONAL_GAMES

    def text(self, name: Words) -> Joined:
        """``'alice 12.3 → 14.1 (+1.8), #2'`` (one decimal, like the leaderboard; the
        reader's decimal sign: ``12,3`` in German; a provisional rating with ``?``, as the
        leaderboard shows it).

        >>> RatingUpdate(1, "xiangqi", 12.34, 14.1, 25.0, 26.0, 2, "win").text("alice"
        ...                                                                   ).render("de")
        'alice 12,3 → 14,1 (+1,8), #2'
        >>> RatingUpdate(1, "xiangqi", 0.0, -1.8, 25.0, 24.0, 3, "loss", first=True
        ...              ).text("bob").render("en-US")
        'bob 0.0? → -1.8? (-1.8), #3'
        >>> RatingUpdate(1, "xiangqi", 3.0, 4.0, 25.0, 26.0, 3, "win", games=5
        ...              ).text("bob").render("en-US")
        'bob 3.0? → 4.0 (+1.0), #3'
        """
        rank = f", #{self.rank}" if self.rank is not None else ""
        before, after = self.provisional()
        return Joined((name, " ", shown_rating(self.ordinal_before, before), " → ",
                       shown_rating(self.ordinal_after, after), " (",
                       decimal(self.ordinal_after - self.ordinal_before, signed=True), ")",
                       rank), separator="")


def is_move(before: Position, move: object | None) -> bool:
    """Whether a record entry played on ``before`` (``move``: its parsed move, None for a
    special entry) is a move as players count them: a set-up arrangement is not, nor a
    resignation, a timeout, a skip or an agreed draw."""
    return move is not None and not before.in_setup


@dataclass(frozen=True, slots=True)
class PlyView:
    """One ply of a match record, replayed: who played it, its canonical and display
    forms, the parsed ``move`` (None for a special entry: a resignation, a timeout, an
    agreed draw, or a Querni arrangement still hidden) and the ``position`` after it."""

    ply: int
    seat: int | None
    user_id: int | None
    canonical: str
    display: str
    move: object | None
    position: Position


@dataclass(frozen=True, slots=True)
class GameRecord:
    """A match's record for replays and exports: the variant, its options and start text,
    the start position and every ply replayed (``MatchService.record``)."""

    match: MatchView
    variant: Variant
    options: Mapping[str, object]
    start_text: str
    start: Position
    plies: tuple[PlyView, ...]
    record_seats: tuple[SeatView, ...] = ()
    """A match continued from an imported game (issue 44): the imported record's seats,
    whose players played its first ``record_plies`` plies; empty for any other match."""
    record_plies: int = 0
    _moved: tuple[int, ...] = field(init=False, repr=False, compare=False)
    """The moves played in the first ``n`` plies at index ``n`` (:meth:`moves_at`):
    counted once, so the board at every ply of a long game is no quadratic count."""

    def __post_init__(self) -> None:
        counted, before = [0], self.start
        for p in self.plies:
            counted.append(counted[-1] + is_move(before, p.move))
            before = p.position
        object.__setattr__(self, "_moved", tuple(counted))

    @property
    def moves(self) -> tuple[object, ...]:
        """The parsed moves in order (special entries left out)."""
        return tuple(p.move for p in self.plies if p.move is not None)

    def moves_at(self, ply: int) -> int:
        """The moves played in the first ``ply`` plies as players count them (as
        ``MatchView.moves_played`` does): a set-up arrangement and a special entry (a
        resignation, a timeout, a skip, an agreed draw) are no moves."""
        if ply < 0:  # counted as a slice counts (never asked: ``at_ply`` refuses it)
            before = (self.start, *(p.position for p in self.plies))
            return sum(1 for i, p in enumerate(self.plies[:ply]) if is_move(before[i], p.move))
        return self._moved[min(ply, len(self.plies))]

    def seats_at(self, ply: int) -> tuple[SeatView, ...]:
        """The seats as they were held at ``ply`` (the board after ``ply`` plies, whose
        next move is the ply's): a continued match's plies of the imported record were
        the record's players', from the continuation on they are today's. Only who holds
        each seat changes; the rest of each seat is today's."""
        if ply >= self.record_plies or not self.record_seats:
            return self.match.seats
        players = {s.seat: s for s in self.record_seats}
        return tuple(replace(s, user_id=players[s.seat].user_id,
                             player=players[s.seat].player, rating=None,
                             provisional=False)
                     if s.seat in players else s for s in self.match.seats)

    def holder(self, seat: int, ply: int) -> SeatView | None:
        """Seat ``seat`` as it was held at ``ply`` (:meth:`seats_at`); None: no such
        seat."""
        return next((s for s in self.seats_at(ply) if s.seat == seat), None)


@dataclass(frozen=True, slots=True)
class LeaderboardEntry:
    """One player on a ladder. ``ordinal`` (mu - 3 sigma) is the number shown: a skill
    estimate the player is very likely above (``RATING_MEANING``); ``provisional``: fewer
    than ``PROVISIONAL_GAMES`` rated games, shown with ``?`` and ranked after the
    established players."""

    rank: int
    user_id: int
    ordinal: float
    mu: float
    sigma: float
    wins: int
    losses: int
    draws: int

    @property
    def provisional(self) -> bool:
        return self.wins + self.losses + self.draws < PROVISIONAL_GAMES

    @property
    def shown(self) -> Joined:
        """The number as ladders print it: ``'12.3'``, ``'4.1?'`` while provisional
        (``'12,3'`` where the reader writes a decimal comma)."""
        return shown_rating(self.ordinal, self.provisional)


RATING_MEANING = _("Rating = skill estimate minus 3× its uncertainty (openskill μ − 3σ): it "
                   "rises as you win; after {count} rated games the `?` goes and you rank "
                   "among established players.", count=PROVISIONAL_GAMES)
"""The one line /leaderboard (Discord and console) and the README say about the number."""


@dataclass(frozen=True, slots=True)
class LeaderboardPage:
    guild_id: int
    ladder: str
    page: int  # 1-based
    per_page: int
    total: int  # rated players on this ladder
    entries: tuple[LeaderboardEntry, ...]
    season: int | None = None  # the season's number; None: the all-time board

    @property
    def pages(self) -> int:
        return max(1, -(-self.total // self.per_page))


@dataclass(frozen=True, slots=True)
class AnalysedMove:
    """A move ``/analysis`` marks: its record ply (0 = the first move), the seat and user
    who played it, the move and the better one as players write them, ``lost`` (the
    engine's centipawns against the best move, for ordering; a forced end counts as a
    decisive swing) and what it cost: ``kind`` and ``amount`` (centipawns, or the moves
    to the forced end), said in words by ``cost`` (``locales.analysis``)."""

    ply: int
    seat: int
    user: int | None
    move: str
    better: str
    lost: int
    kind: CostKind
    amount: int

    def cost(self, game: str) -> Words:
        """What it cost, in the pieces of ``game`` (its variant key: the stones of
        Alquerque, the men of draughts; ``locales.analysis.worth_unit``)."""
        return cost_words(self.kind, self.amount, worth_unit(game))

    def line(self, player: Words, *, game: str, move: Words | None = None,
             better: Words | None = None) -> Words:
        """The whole sentence (move number, player, move, better move, cost in the
        pieces of ``game``); the adapter names the player and may dress the moves
        (Discord's code spans)."""
        return analysed_line(self.ply + 1, player, self.move if move is None else move,
                             self.better if better is None else better, self.cost(game))


@dataclass(frozen=True, slots=True)
class GlanceBoard:
    """One board of ``MatchService.glance`` (issue 42): a live match, its board as
    anybody may see it, and its players' names by seat (None without a resolver)."""

    match: MatchView
    board: BoardState
    names: tuple[str, ...] | None = None


@dataclass(frozen=True, slots=True)
class EvalPoint:
    """The engine's evaluation after one move of a finished game, for its mover (the
    analysis graph, issue 42): ``ply`` (0 = the first move), the mover's ``seat``,
    ``centipawns`` (meaningful where no forced end is seen) and ``end``: a forced end
    seen after the move, in moves of the side that ends it (> 0 the mover wins by
    force, < 0 he loses by force; ``MoveWeighing.played_end``)."""

    ply: int
    seat: int
    centipawns: int
    end: int | None = None


@dataclass(frozen=True, slots=True)
class GameAnalysis:
    """``MatchService.game_analysis``: the marked moves, worst first, and the evaluation
    after every move weighed, in record order."""

    marked: tuple[AnalysedMove, ...]
    curve: tuple[EvalPoint, ...]


@dataclass(frozen=True, slots=True)
class MatchAnalysis:
    """An analysis of a finished match as it is stored when ``/analysis`` makes it
    (``AnalysisStore``; issue 40: the web page's evaluation graph, issue 42: the result
    picture's costly moves): ``plies`` the record's length it weighed, the engine's
    ``level`` and ``nodes`` a search (None: the picker did not say), the ``seconds`` the
    weighing took, when it was ``made_at``; the evaluation after every move weighed
    (``curve``, record order) and every costly move (``costly``, worst first: ``/analysis``
    shows the first three)."""

    match_id: int
    made_at: datetime
    plies: int
    level: int
    nodes: int | None
    seconds: float
    curve: tuple[EvalPoint, ...]
    costly: tuple[AnalysedMove, ...]

    def game_analysis(self, top: int) -> GameAnalysis:
        """What ``/analysis`` answers: the ``top`` costliest moves and the curve."""
        return GameAnalysis(self.costly[:max(0, top)], self.curve)


@dataclass(frozen=True, slots=True)
class PlayerStats:
    guild_id: int
    user_id: int
    ladders: tuple[LeaderboardEntry, ...]  # one per ladder he has played, rank included
    ladder_keys: tuple[str, ...]
    active_matches: int
    against_computer: tuple[int, int, int] = (0, 0, 0)
    """Casual games against the computer: wins, draws, losses (never on a ladder)."""
    with_hints: int = 0
    """How many of those games he took hints in (``/hint``)."""

    @property
    def wins(self) -> int:
        return sum(e.wins for e in self.ladders)

    @property
    def losses(self) -> int:
        return sum(e.losses for e in self.ladders)

    @property
    def draws(self) -> int:
        return sum(e.draws for e in self.ladders)


@dataclass(frozen=True, slots=True)
class HistoryView:
    """The record of a match: entries ``(ply, who, canonical, display)`` and an export text
    (WXF/FEN for xiangqi, PDN for damas when the game module offers it, Tablero's record
    format otherwise)."""

    match: MatchView
    entries: tuple[tuple[int, int | None, str, str], ...]
    export_format: str
    export: str
    note: str | None = None  # the reader's own private note on the match (``/note``)


@dataclass(frozen=True, slots=True)
class GuildSettings:
    guild_id: int
    default_days: int = 3
    use_threads: bool = True
    games_channel_id: int | None = None
    reminders: bool = True
    language: str | None = None  # match threads' language; None: the server's own locale
    seasons: str = "off"  # the schedule of its leaderboard seasons (``seasons.Schedule``)
    organiser_role_id: int | None = None  # may run tournaments and seasons (Discord role)
    default_clock: str | None = None  # a bank control's text; None: default_days per move
    claim_win: bool = False  # a lapsed clock waits for the opponent's claim
    vacation_days: int = 14  # yearly vacation allowance per player, earned monthly
    auto_vacation: bool = False  # a would-be timeout spends a vacation day instead
    takebacks_rated: bool = False  # rated games allow takebacks by consent (casual always)
    web: bool = False  # its matches are shown on the web (spectator and player links)
    weekends_off: bool = False  # challenges default to weekends off (issue 43)
    pauses_rated: int = 2  # pauses by agreement a rated match allows (casual: any)


@dataclass(frozen=True, slots=True)
class UserPrefs:
    user_id: int
    notify: str = "mention"  # "mention" in the match thread, or "dm"
    locale: str | None = None  # the Discord locale last seen on his interactions
    time_zone: str | None = None  # his IANA time zone (/settings timezone); None: UTC


@dataclass(frozen=True, slots=True)
class BoardImage:
    png: bytes
    alt: str
    extra: Mapping[str, object] = field(default_factory=dict)


def notice_lane(guild_id: int, channel_id: int, version: int) -> MatchView:
    """The outbox lane of a server's notices that belong to no match (the final standings
    of a tournament in which no game was played, a season's end): a match view with
    id ``-guild_id`` (never a match's) in the channel to post in, and ``version`` keying
    the entry apart (a season's number; minus a tournament's id)."""
    return MatchView(-guild_id, guild_id, channel_id, None, "", "", {}, MatchStatus.FINISHED,
                     0, (), (), (), 0, 0, (), None, 0, False, None, "", None, None, None,
                     version=version)


@dataclass(frozen=True, slots=True)
class VacationView:
    """A player's vacation in a server: the yearly allowance, what he earned and used
    this year, his balance, the end of the vacation he is on (None: not on one), and
    whether the server spends vacation automatically instead of timeouts. After
    ``start_vacation``: the matches it paused, the ones whose tournament forbids it, and
    the ones it cannot pause because his time there has already run out."""

    user_id: int
    guild_id: int
    yearly: int
    earned: int
    used: int
    balance: int
    until: datetime | None
    auto: bool
    paused: tuple[int, ...] = ()
    forbidden: tuple[int, ...] = ()
    late: tuple[int, ...] = ()
