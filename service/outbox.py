"""The notification outbox: everything a person must learn is stored with the change that
causes it, then delivered, and only then removed.

* **Writing.** A use-case that announces events passes an :class:`Announce` to the
  repository's ``save`` / ``create_match`` / ``extend_clocks``; inside the transaction it
  builds the events from the match as stored and turns each into an ``OutboxEntry``
  (:func:`entry_of`): the event's kind and a self-contained JSON payload (the match view,
  the position text and marks of the board, ...). The service then hands the very same
  events to its notifier (the live path: no decoding, the board object at hand).
* **Delivering.** :class:`OutboxRelay` is the notifier the adapters put in front of their
  delivery (the Discord ladder, the console's printer). It delivers each match's entries
  in order, using the live event when it has it and the decoded payload otherwise (after
  a restart), retries what the deliverer says is transient (:class:`Retry`, honouring a
  ``retry_after``) with backoff, and removes an entry only once the deliverer returned.
  A crash between delivery and removal repeats that one message; nothing is lost.

A live event finds its entry by ``(match id, match version, n)``: the version the change
wrote (``MatchView.version``) and the event's place among that change's events, since the
service announces a change's events in the order it stored them.

>>> from datetime import UTC, datetime, timedelta
>>> view = MatchView(7, 1, 2, None, "damas", "Damas", {}, MatchStatus.ACTIVE, 3, (), (),
...                  (3, 4), 2, 5, (4,), None, 3, True, None, "W:W1:B20", None, None, None)
>>> entry = entry_of(ClocksExtended(view, timedelta(days=2)), 0,
...                  datetime(2026, 1, 1, tzinfo=UTC))
>>> entry.kind, event_of(entry).gap
('clocks-extended', datetime.timedelta(days=2))
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import logging
import operator
from collections.abc import Awaitable, Callable, Sequence
from datetime import UTC, datetime, timedelta
from typing import Any, Generic, TypeVar

import rules
from locales.i18n import from_data, to_data
from rules import MoveMarks
from service.errors import StorageError
from service.events import (
    AutoVacation,
    ChallengeClosed,
    ChallengeReceived,
    ClocksExtended,
    ConditionalMovePlayed,
    DailyPuzzle,
    DeadlineReminder,
    DigestDue,
    DrawAccepted,
    DrawDeclined,
    DrawOffered,
    Event,
    LobbyChanged,
    MatchEnded,
    MoveFollowed,
    MovePlayedFor,
    OfferSettled,
    PauseDeclined,
    PauseEnded,
    PauseOffered,
    PauseStarted,
    PlayerOut,
    SeasonBoard,
    SeasonEnded,
    SeatTakenOver,
    SetupSubmitted,
    StandingsChanged,
    TakebackDeclined,
    TakebackOffered,
    TakenBack,
    TimeGiven,
    TimeLapsed,
    TurnStarted,
    VacationEnded,
    VacationStarted,
)
from service.ports import Clock, Repository
from service.records import MatchStatus, OutboxEntry
from service.tournaments.table import StandingsTable
from service.views import (
    BoardState,
    GlanceBoard,
    LeaderboardEntry,
    MatchView,
    RatingUpdate,
    ResultView,
    SeatView,
)

log = logging.getLogger(__name__)
Stored = TypeVar("Stored")

KINDS: dict[type, str] = {
    ChallengeReceived: "challenge", LobbyChanged: "lobby", ChallengeClosed: "challenge-closed",
    TurnStarted: "turn", DeadlineReminder: "reminder", PlayerOut: "player-out",
    MovePlayedFor: "forced-move", DrawOffered: "draw-offer", DrawDeclined: "draw-declined",
    SetupSubmitted: "setup", MatchEnded: "result", ClocksExtended: "clocks-extended",
    StandingsChanged: "standings", SeasonEnded: "season-ended",
    VacationStarted: "vacation", VacationEnded: "vacation-end",
    AutoVacation: "auto-vacation", TimeGiven: "time-given", TimeLapsed: "time-lapsed",
    TakebackOffered: "takeback-offer",
    TakebackDeclined: "takeback-declined", TakenBack: "taken-back",
    ConditionalMovePlayed: "conditional-move", MoveFollowed: "followed-move",
    DigestDue: "digest",
    PauseOffered: "pause-offer", PauseDeclined: "pause-declined", PauseStarted: "pause",
    PauseEnded: "pause-end", SeatTakenOver: "seat-taken-over", DailyPuzzle: "daily-puzzle",
    DrawAccepted: "draw-accepted", OfferSettled: "offer-settled",
}
"""The stored name of each event type (stable: stored entries are read back by it)."""
_TYPES = {kind: cls for cls, kind in KINDS.items()}


class OutboxError(ValueError):
    """A stored entry that cannot be read back (an unknown kind, a broken payload)."""

    def __init__(self, message: str, entry: OutboxEntry) -> None:
        super().__init__(message)
        self.entry = entry


# ---------------------------------------------------------------------- the payload

def _ts(value: datetime | None) -> float | None:
    return None if value is None else value.timestamp()


def _dt(value: float | None) -> datetime | None:
    return None if value is None else datetime.fromtimestamp(value, UTC)


def _result_data(r: ResultView | None) -> Any:
    return None if r is None else [list(r.winners), [list(g) for g in r.ranking], r.reason]


def _result_of(d: Any) -> ResultView | None:
    return None if d is None else ResultView(tuple(d[0]), tuple(tuple(g) for g in d[1]), d[2])


_VIEW_FIELDS = tuple(f.name for f in dataclasses.fields(MatchView))
_VIEW_VALUES = operator.attrgetter(*_VIEW_FIELDS)  # every field of a view, in that order


def _view_data(v: MatchView) -> dict[str, Any]:
    # the plain values (numbers, texts, tuples of them) as they are: a view is frozen and
    # holds nothing mutable (``dataclasses.asdict`` copied them deeply, a tenth of a
    # move's time); the structured ones are written below
    d = dict(zip(_VIEW_FIELDS, _VIEW_VALUES(v), strict=True))
    d.update(options=dict(v.options), status=v.status.value, deadline=_ts(v.deadline),
             seats=[[s.seat, s.user_id, s.team, s.name, s.out, s.rating, s.provisional]
                    for s in v.seats],
             result=_result_data(v.result), lapsed=_ts(v.lapsed),
             away=[[u, _ts(t)] for u, t in v.away],
             own_deadlines=[[u, _ts(t)] for u, t in v.own_deadlines],
             time_zones=[[u, z] for u, z in v.time_zones],
             paused=None if v.paused is None else [_ts(v.paused[0]), _ts(v.paused[1])],
             stand_ins=[list(x) for x in v.stand_ins],
             skipped=[list(x) for x in v.skipped])
    return d


def _view_of(d: dict[str, Any]) -> MatchView:
    d = dict(d)
    d.update(status=MatchStatus(d["status"]), deadline=_dt(d["deadline"]),
             seats=tuple(SeatView(*s) for s in d["seats"]), result=_result_of(d["result"]))
    if "lapsed" in d:  # entries stored before time controls have neither
        d.update(lapsed=_dt(d["lapsed"]),
                 away=tuple((int(u), datetime.fromtimestamp(t, UTC)) for u, t in d["away"]))
    # entries stored before seats had their own clocks have none
    d["own_deadlines"] = tuple((int(u), datetime.fromtimestamp(t, UTC))
                               for u, t in d.get("own_deadlines", ()))
    # entries stored before weekends off have neither
    d["weekends"] = bool(d.get("weekends", False))
    d["time_zones"] = tuple((int(u), z) for u, z in d.get("time_zones", ()))
    d["stand_ins"] = tuple((int(u), int(n)) for u, n in d.get("stand_ins", ()))
    d["skipped"] = tuple((int(u), int(n)) for u, n in d.get("skipped", ()))
    d["draw_accepted"] = tuple(int(u) for u in d.get("draw_accepted", ()))  # (not before)
    paused = d.get("paused")
    d["paused"] = None if paused is None else (datetime.fromtimestamp(paused[0], UTC),
                                               datetime.fromtimestamp(paused[1], UTC))
    for name in ("invited", "joined", "to_move", "notify_by_dm"):
        d[name] = tuple(d[name])
    return MatchView(**d)


def _points(points: Sequence[Any]) -> tuple[Any, ...]:
    return tuple(tuple(p) if isinstance(p, list) else p for p in points)


def _board_data(b: BoardState | None) -> Any:
    if b is None:
        return None
    marks = b.last_marks
    return {"text": b.position.to_text(),
            "marks": None if marks is None else [list(marks.path), list(marks.captured),
                                                 list(marks.removed)],
            "moves": b.moves}


def _board_of(d: Any, game: str) -> BoardState | None:
    if d is None:
        return None
    try:
        position = rules.variant(game).from_text(d["text"])
    except (ValueError, KeyError):  # a rules upgrade: the message goes without a picture
        log.warning("a stored %s board no longer reads; sent without it", game)
        return None
    marks = d["marks"]
    moves = d.get("moves")  # entries written before it was kept: not known
    return BoardState(position, None if marks is None else MoveMarks(
        _points(marks[0]), _points(marks[1]), _points(marks[2])),
        moves if isinstance(moves, int) else None)


def _table_of(d: dict[str, Any]) -> StandingsTable:
    return StandingsTable(
        from_data(d["title"]), from_data(d["subtitle"]), tuple(map(from_data, d["headers"])),
        str(d["align"]), tuple(tuple(map(from_data, r)) for r in d["rows"]),
        tuple(map(int, d["top_rows"])), tuple(map(int, d["faded_rows"])),
        tuple(map(int, d.get("players", ()))))  # not kept in entries stored before


def entry_of(event: Event, n: int, now: datetime) -> OutboxEntry:
    """The outbox entry of ``event``, the ``n``-th event of the change that wrote
    ``event.match``."""
    data: dict[str, Any] = {}
    for f in dataclasses.fields(event):
        value = getattr(event, f.name)
        if f.name == "match":
            value = _view_data(value)
        elif f.name == "board":
            value = _board_data(value)
        elif f.name == "result":
            value = _result_data(value)
        elif f.name == "ratings":
            value = [dataclasses.astuple(r) for r in value]
        elif f.name == "table":
            value = {"title": to_data(value.title), "subtitle": to_data(value.subtitle),
                     "headers": [to_data(h) for h in value.headers], "align": value.align,
                     "rows": [[to_data(c) for c in r] for r in value.rows],
                     "top_rows": list(value.top_rows), "faded_rows": list(value.faded_rows),
                     "players": list(value.players)}
        elif f.name == "boards":
            value = [[b.ladder, b.total, [dataclasses.astuple(e) for e in b.entries]]
                     for b in value]
        elif isinstance(value, datetime):
            value = value.timestamp()
        elif f.name == "record":
            value = None  # read again by the deliverer when it draws the replay
        elif f.name == "games":
            value = [[_view_data(g.match), _board_data(g.board),
                      list(g.names) if g.names is not None else None] for g in value]
        elif isinstance(value, timedelta):
            value = value.total_seconds()
        elif isinstance(value, datetime):
            value = value.timestamp()
        data[f.name] = value
    m = event.match
    return OutboxEntry(m.id, m.guild_id, m.version, n, KINDS[type(event)],
                       json.dumps(data, separators=(",", ":")), now)


def event_of(entry: OutboxEntry) -> Event:
    """The event stored in ``entry`` (OutboxError if it cannot be read back)."""
    cls = _TYPES.get(entry.kind)
    if cls is None:
        raise OutboxError(f"unknown outbox kind {entry.kind!r}", entry)
    try:
        data = json.loads(entry.payload)
        view = _view_of(data["match"])
        values: dict[str, Any] = {}
        for f in dataclasses.fields(cls):
            if f.name not in data and f.default is not dataclasses.MISSING:
                continue  # a field newer than the entry: its default
            value = data.get(f.name)
            if f.name == "match":
                value = view
            elif f.name == "board":
                value = _board_of(value, view.game)
            elif f.name == "result":
                value = _result_of(value)
            elif f.name == "ratings":
                value = tuple(RatingUpdate(*r) for r in value or ())
            elif f.name == "table":
                value = _table_of(value)
            elif f.name == "boards":
                value = tuple(SeasonBoard(str(ladder), int(total),
                                          tuple(LeaderboardEntry(*e) for e in entries))
                              for ladder, total, entries in value)
            elif f.name == "games":
                games = []
                for match_data, board_data, names in value or ():
                    shown = _view_of(match_data)
                    board = _board_of(board_data, shown.game)
                    if board is not None:
                        games.append(GlanceBoard(shown, board, tuple(names)
                                                 if names is not None else None))
                value = tuple(games)
            elif f.name in ("starts_at", "ends_at"):
                value = datetime.fromtimestamp(value, UTC)
            elif f.name in ("remaining", "gap"):
                value = timedelta(seconds=value)
            elif f.name == "until":
                value = datetime.fromtimestamp(value, UTC)
            elif isinstance(value, list):
                value = tuple(value)
            values[f.name] = value
        event: Event = cls(**values)
    except (ValueError, KeyError, TypeError) as e:
        raise OutboxError(f"outbox entry {entry.id} does not read: {e}", entry) from None
    return event


class Announce(Generic[Stored]):
    """What a use-case passes to the repository as ``outbox``: builds the change's events
    from the record as stored (a match; a tournament for its standings), inside the
    transaction, and keeps them in ``events``, to be handed to the notifier once the
    change is committed."""

    def __init__(self, build: Callable[[Stored], Sequence[Event]], now: datetime
                 ) -> None:
        self.build = build
        self.now = now
        self.events: list[Event] = []

    def __call__(self, stored: Stored) -> list[OutboxEntry]:
        events = list(self.build(stored))
        self.events += events
        return [entry_of(e, n, self.now) for n, e in enumerate(events)]


# ---------------------------------------------------------------------- delivery

class Retry(Exception):
    """Raised by a deliverer: the entry could not go out now; try it again after
    ``after`` seconds (Discord's ``retry_after``), or after the relay's backoff (None)."""

    def __init__(self, after: float | None = None, why: str = "") -> None:
        super().__init__(why or "try again later")
        self.after = after


RETRIED: tuple[type[Exception], ...] = (Retry, StorageError)
"""The failures of a deliverer after which the relay calls it again with the same entry
(a :class:`Retry`; a ``StorageError``: the database, not the message, failed). Any other
failure drops the entry: it is never delivered again by this relay."""

Deliver = Callable[[OutboxEntry, Event], Awaitable[None]]
"""Deliver one entry (its event, live or decoded). Return once the person was told by
some route (or nobody can be: then log it); raise :class:`Retry` for a transient failure.
Called again after a Retry with the same entry, so it skips what already went out (what
it keeps for that is kept only after a failure in :data:`RETRIED`)."""

LIVE_GRACE = timedelta(seconds=30)
"""How long an entry written by this process waits for its live event before it is
delivered from its payload (the live event is held until the actor was answered)."""


class OutboxRelay:
    """The service's ``Notifier`` over the outbox (see the module docstring).

    ``accepts``: which entries this process delivers (the console its own guild, the
    Discord bot the others). ``inline``: deliver on the caller's path (the console, where
    output order is the point), else on one task per match. ``sleep``/``backoff``: tests
    hand in a recording sleep and tiny delays."""

    def __init__(self, repository: Repository, deliver: Deliver, clock: Clock, *,
                 accepts: Callable[[OutboxEntry], bool] | None = None, inline: bool = False,
                 backoff: float = 1.0, max_backoff: float = 300.0,
                 sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
                 live_grace: timedelta = LIVE_GRACE, batch: int = 100) -> None:
        self.repository = repository
        self.deliver = deliver
        self.clock = clock
        self.accepts = accepts or (lambda entry: True)
        self.inline = inline
        self.backoff = backoff
        self.max_backoff = max_backoff
        self.sleep = sleep
        self.live_grace = live_grace
        self.batch = batch
        self.delivered = 0
        self._live: dict[tuple[int, int, int], Event] = {}
        self._counts: dict[int, dict[int, int]] = {}  # match -> version -> events seen
        self._lanes: dict[int, asyncio.Task[None]] = {}
        self._dirty: set[int] = set()
        self._followers: set[asyncio.Task[None]] = set()
        self._old_up_to = 0  # entries up to this id were pending when we recovered
        self._repeats: set[int] = set()  # entries whose posts may be out already

    async def notify(self, event: Event) -> None:
        """The live path: remember the event for its entry and deliver the match's
        entries up to it."""
        m = event.match
        counts = self._counts.setdefault(m.id, {})
        n = counts.get(m.version, 0)
        counts[m.version] = n + 1
        if len(counts) > 8:  # a change's events come together: old versions are done
            del counts[min(counts)]
        self._live[(m.id, m.version, n)] = event
        if self.inline:
            self._dirty.add(m.id)
            await self._lane(m.id)
        else:
            self.wake(m.id)

    def wake(self, match_id: int, *, follow: bool = True) -> None:
        """Deliver the pending entries of ``match_id`` (on its lane task). ``follow``: the
        caller's work includes that delivery (not for the periodic poll)."""
        self._dirty.add(match_id)
        loop = asyncio.get_running_loop()
        lane = self._lanes.get(match_id)
        if lane is None:
            self._lanes[match_id] = loop.create_task(self._lane(match_id))
        elif follow:
            # The running lane delivers this too; a task of the caller's follows it, so
            # whoever waits for the caller's work (a test harness, a shutdown) waits
            # for the delivery as well.
            follower = loop.create_task(self._follow(lane))
            self._followers.add(follower)
            follower.add_done_callback(self._followers.discard)

    @staticmethod
    async def _follow(lane: asyncio.Task[None]) -> None:
        await asyncio.wait({lane})

    async def recover(self) -> int:
        """At start: deliver what was stored but not delivered before (a restart, a
        crash between a commit and its delivery). Returns how many entries wait."""
        pending = [e for e in await self.repository.pending_outbox(limit=10_000)
                   if self.accepts(e)]
        self._old_up_to = max((e.id for e in pending), default=self._old_up_to)
        await self._wake_all(pending)
        return len(pending)

    async def poll(self) -> None:
        """Periodically: deliver entries whose live event never came (past the grace)
        and entries left by a failed lane."""
        await self._wake_all([e for e in await self.repository.pending_outbox(limit=10_000)
                              if self.accepts(e)])

    async def _wake_all(self, pending: Sequence[OutboxEntry]) -> None:
        for match_id in dict.fromkeys(e.match_id for e in pending):
            if self.inline:
                self._dirty.add(match_id)
                await self._lane(match_id)
            else:
                self.wake(match_id, follow=False)

    @property
    def busy(self) -> bool:
        return bool(self._lanes)

    async def drain(self, timeout: float | None = None) -> bool:
        """Wait until every lane is done (True), or ``timeout`` seconds (False: the rest
        stays in the outbox for the next start)."""
        loop = asyncio.get_running_loop()
        end = None if timeout is None else loop.time() + timeout
        while self._lanes:
            left = None if end is None else end - loop.time()
            if left is not None and left <= 0:
                return False
            await asyncio.wait(set(self._lanes.values()), timeout=left)
        return True

    async def flush(self, timeout: float = 10.0) -> bool:
        """On shutdown: deliver as far as ``timeout`` allows, then stop the lanes."""
        done = await self.drain(timeout)
        for task in list(self._lanes.values()):
            task.cancel()
        if self._lanes:
            await asyncio.wait(set(self._lanes.values()))
        return done

    # ------------------------------------------------------------------ lanes

    def may_be_out(self, entry: OutboxEntry) -> bool:
        """Whether ``entry``'s posts may have gone out already, asked by its deliverer:
        it is delivered from its payload (no live event: an earlier process made it)
        and was pending when this process recovered (that process may have delivered
        it and died before deleting it), or this process delivered it and failed to
        delete it. The deliverer then looks for its posts before posting them again,
        where the messenger's own check does not reach (Discord's nonces hold for a few
        minutes only). An entry delivered with its live event is this process's, and
        new."""
        return entry.id in self._repeats

    def _waits_for_live(self, entry: OutboxEntry) -> bool:
        """Written by this process after start, its live event not here yet: it is on
        its way (held until the actor's reply), unless it is overdue."""
        return (entry.id > self._old_up_to
                and self.clock.now() - entry.created_at < self.live_grace)

    async def _lane(self, match_id: int) -> None:
        current = asyncio.current_task()
        try:
            while match_id in self._dirty:
                self._dirty.discard(match_id)
                entries = await self.repository.pending_outbox(match_id, self.batch)
                for entry in entries:
                    if not self.accepts(entry):
                        continue
                    key = (entry.match_id, entry.version, entry.n)
                    event = self._live.pop(key, None)
                    if event is None:
                        if self._waits_for_live(entry):
                            break
                        if entry.id <= self._old_up_to:
                            self._repeats.add(entry.id)
                        try:
                            event = event_of(entry)
                        except OutboxError as e:
                            log.error("%s; dropped (match %s)", e, entry.match_id)
                            await self.repository.mark_delivered(entry.id)
                            self._repeats.discard(entry.id)
                            continue
                    await self._send(entry, event)
                    try:
                        await self.repository.mark_delivered(entry.id)
                    except BaseException:
                        self._repeats.add(entry.id)  # its next delivery is a repeat
                        raise
                    self._repeats.discard(entry.id)
                    self.delivered += 1
                else:
                    if len(entries) == self.batch:
                        self._dirty.add(match_id)
        except asyncio.CancelledError:
            raise
        except StorageError as e:  # an outage: the repository logs it, once
            log.debug("outbox delivery for match %s waits for the database: %s", match_id,
                      e.message)
        except Exception:  # the storage failed: the entries stay; the next poll retries
            log.exception("outbox delivery for match %s stopped", match_id)
        finally:
            if self._lanes.get(match_id) is current:
                del self._lanes[match_id]

    async def _send(self, entry: OutboxEntry, event: Event) -> None:
        attempt = 0
        while True:
            try:
                await self.deliver(entry, event)
                return
            except Retry as r:
                if r.after is not None:  # Discord said when
                    delay = r.after
                else:
                    delay = min(self.max_backoff, self.backoff * 2 ** attempt)
                    attempt += 1
                log.info("%s of match %s: %s; retry in %.1f s", entry.kind,
                         entry.match_id, r, delay)
                await self.sleep(delay)
            except StorageError as e:
                # The deliverer read the database (a language, a record) and it failed:
                # not the message's fault, so it is tried again, never dropped. The
                # outage itself is the repository's to log, once. Inline (the console)
                # nobody waits here: the lane stops and the next command delivers it.
                if self.inline:
                    raise
                delay = min(self.max_backoff, self.backoff * 2 ** attempt)
                attempt += 1
                log.debug("%s of match %s waits %.1f s for the database: %s", entry.kind,
                          entry.match_id, delay, e.message)
                await self.sleep(delay)
            except Exception:  # permanent: told by no route; logged once, not retried
                log.exception("could not deliver %s of match %s; dropped", entry.kind,
                              entry.match_id)
                return
