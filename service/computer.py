"""Computer players: Tablero itself in a seat, at a level from 1 to 8.

A computer player is a user id of its own at the very top of the id range (ids are
non-negative 64-bit ints; Discord's snowflakes reach that range only around 2084, console
ids are far below): ``computer_user(level, n)`` is ``COMPUTER_IDS + 1000 * n + level``,
the ``n``-th computer at ``level`` in a match (a match never seats one user twice). Its
name is ``"Tablero level 5"`` wherever names are shown (``"Tablero 2 level 5"`` for the
second at one level in a match: ``computer_seats.computer_name``).

Its moves come from a ``MovePicker`` (a port: the adapter runs the engine in a process
pool) and go through the very path of a person's move (``move`` / ``submit_setup``:
validated, stored with compare-and-set, announced). A computer's turn is started by the
announcement that it is to move (``TurnStarted``, or a set-up still waiting for it), in
a task of its own, so the person whose move caused it gets his answer at once; one task
per match plays every computer turn in a row (four-player lobbies may seat several).
A pick that fails is logged and retried by the next sweep; the first sweep of a process
also starts the turns a restart interrupted (``wake_computers``).

Games against the computer are casual: never rated, so never on a leaderboard; a lobby
whose empty seats its creator fills with computers becomes casual too.
"""

from __future__ import annotations

import asyncio
import contextvars
import dataclasses
import logging
import time
from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any, Protocol

from locales.analysis import CostKind
from locales.i18n import Words, _, _n
from rules import Position, RulesError
from service.computer_seats import (
    LEVELS,
    computer_level,
    computer_name,
    computer_title,
    computer_user,
    is_computer,
)
from service.core import ServiceCore
from service.errors import (
    InvalidOption,
    NotAllowed,
    ServiceError,
    StorageError,
    StorageUnavailable,
)
from service.events import Event, SeatTakenOver, SetupSubmitted, TurnStarted
from service.ports import MovePicker, MoveWeighing, NameResolver, WeighingBudget
from service.records import MatchRecord, MatchStatus
from service.views import (
    AnalysedMove,
    Caller,
    EvalPoint,
    GameAnalysis,
    GameRecord,
    MatchAnalysis,
    MatchView,
    MoveResult,
    PlayerStats,
)

log = logging.getLogger(__name__)

DEFAULT_LEVEL = 5
ANALYSIS_LEVEL = max(LEVELS)
"""The level whose judgement weighs the moves of ``/analysis`` (the engine's top)."""
HINT_LEVEL = max(LEVELS)
"""The level whose move ``/hint`` gives (the engine's top), named as the computer players
are (``computer_title``: "Tablero level 8")."""
MAX_HINTS = 3
"""Hints one player may take in one game against the computer (issue 38: with no limit,
copying the top level's hints beat every level). Each is counted on the match, and
``/stats`` says in how many games against the computer hints were taken."""


def with_computer_names(names: NameResolver | None) -> NameResolver:
    """``names`` that also name computer players (and leave people to ``names``)."""
    def resolve(guild_id: int, user_id: int) -> str:
        if is_computer(user_id):
            return computer_name(user_id)
        return names(guild_id, user_id) if names is not None else ""
    return resolve


class MatchActions(Protocol):
    """The doors the computer player acts through: the same use-cases a person's moves
    take (``MatchService`` gives itself, checked by mypy against this)."""

    async def challenge(self, guild_id: int, channel_id: int, challenger: int, game: str, *,
                        opponents: Sequence[int] = ...,
                        options: Mapping[str, object] | None = ...,
                        days: int | None = ..., rated: bool = ...,
                        seat: int | str | None = ..., clock: str | None = ...,
                        claim_win: bool | None = ..., weekends_off: bool | None = ...,
                        on_timeout: str | None = ..., stand_in_level: int | None = ...,
                        accepted_at_once: bool = ...) -> MatchView: ...

    async def accept(self, match_id: int, user: int, seat: int | str | None = ...,
                     *, caller: Caller | None = ...) -> MatchView: ...

    async def join(self, match_id: int, user: int, seat: int | str | None = ...,
                   *, caller: Caller | None = ..., announced: bool = ...) -> MatchView: ...

    async def move(self, match_id: int, user: int, text: str,
                   expected_ply: int | None = ..., *, caller: Caller | None = ...
                   ) -> MoveResult: ...

    async def submit_setup(self, match_id: int, user: int, text: str,
                           *, caller: Caller | None = ...) -> MoveResult: ...

    async def record(self, match_id: int, caller: Caller | None = ...) -> GameRecord: ...


class Computers:
    """Challenging the computer, filling a lobby with it, and playing its turns."""

    picker: MovePicker | None

    def __init__(self, core: ServiceCore, actions: MatchActions,
                 picker: MovePicker | None) -> None:
        self.repository = core.repository
        self.shards = core.shards
        self._record = core.record
        self._retrying = core.retrying
        self._save = core.save
        self._view = core.view
        self._state = core.state
        self._read_state = core.read_state
        self._require_player = core.require_player
        self._require_active = core.require_active
        self._clock = core.clock
        self.actions = actions
        self.picker = picker
        self._computer_tasks: dict[int, asyncio.Task[None]] = {}
        self._computer_again: set[int] = set()
        self._computer_failed: set[int] = set()
        self._computers_woken = False

    # ------------------------------------------------------------------ use-cases

    def require_available(self) -> MovePicker:
        """The picker; refused where there is none (what needs the computer to play or
        judge cannot be done here)."""
        if self.picker is None:
            raise NotAllowed(_("the computer player is not available here"))
        return self.picker

    async def challenge_computer(self, guild_id: int, channel_id: int, challenger: int,
                                 game: str, *, level: int = DEFAULT_LEVEL,
                                 options: dict[str, object] | None = None,
                                 days: int | None = None,
                                 seat: int | str | None = None) -> MatchView:
        """A casual match against the computer at ``level``: two-player games start at
        once; four-player games open a lobby with one computer seated (others may join,
        or the creator fills the rest with :meth:`add_computers`)."""
        self.require_available()
        cpu = computer_user(self._level(level))
        view = await self.actions.challenge(guild_id, channel_id, challenger, game,
                                            opponents=(cpu,), options=options, days=days,
                                    rated=False, seat=seat, accepted_at_once=True)
        started = await self.actions.accept(view.id, cpu)
        return started

    async def add_computers(self, match_id: int, user: int,
                            level: int = DEFAULT_LEVEL,
                            *, caller: Caller | None = None) -> MatchView:
        """The lobby's creator fills every empty seat with computer players at
        ``level``; the match becomes casual and starts."""
        self.require_available()
        level = self._level(level)

        async def casual(rec: MatchRecord) -> MatchRecord:
            if rec.status is not MatchStatus.LOBBY:
                raise NotAllowed(_("match #{match} is not a lobby waiting for players",
                                   match=rec.id))
            if user != rec.challenger_id:
                raise NotAllowed(_("only the player who opened the lobby can add the computer"))
            free = rec.seat_count - len(rec.seats)
            if free <= 0:
                raise NotAllowed(_("every seat is taken or promised to an invited player"))
            if not rec.rated:
                return rec
            return await self._save(rec, dataclasses.replace(rec, rated=False))

        rec = await self._retrying(match_id, casual)
        view = self._view(rec)
        taken = {s.user_id for s in rec.seats}
        n = 0
        for _attempt in range(rec.seat_count - len(rec.seats)):
            while computer_user(level, n) in taken:
                n += 1
            cpu = computer_user(level, n)
            taken.add(cpu)
            # the start post names them all: a post of each join (the last one starts the
            # match) came after it, "Tablero joined the lobby (3/4)" under "... started"
            view = await self.actions.join(match_id, cpu, announced=False)
        return view

    async def play_computers(self, match_id: int, *, caller: Caller | None = None) -> int:
        """Play every computer turn now due in the match (in a row, while a computer is
        to move); the number of moves played. Adapters need not call it: turns start by
        themselves when announced."""
        played = 0
        while True:
            rec = await self._record(match_id)
            if rec.status is not MatchStatus.ACTIVE or self.picker is None:
                return played
            due = self._computers_to_move(rec)
            if not due:
                if match_id in self._computer_again:  # a turn was announced meanwhile
                    self._computer_again.discard(match_id)
                    continue
                return played
            state = await self._state(rec)
            p = state.position
            cpu = due[0]
            me = rec.seat_of(cpu)
            if me is None or me.seat is None:
                return played
            level = computer_level(cpu) or rec.clock.stand_in_level or DEFAULT_LEVEL
            seed = (rec.id * 1_000_003 + rec.ply) & 0x7FFFFFFF
            text = await self.picker.pick(p.view_for(me.seat), me.seat, level, seed=seed)
            if p.in_setup:
                await self.actions.submit_setup(match_id, cpu, text)
            else:
                await self.actions.move(match_id, cpu, text, expected_ply=rec.ply)
            played += 1

    async def hint(self, match_id: int, user: int,
                   *, caller: Caller | None = None) -> tuple[str, Words, int]:
        """In a casual game against the computer, the move its top level would play for
        ``user`` now, a one-line reason and the hints he has left in this game:
        ``('h3-e3 (C2.5)', 'gives check', 2)``. At most ``MAX_HINTS`` a game, each
        counted on the match when given."""
        picker = self.require_available()
        rec, state = await self._read_state(match_id)
        self._require_active(rec)
        me = self._require_player(rec, user)
        if rec.rated or not any(is_computer(s.user_id) for s in rec.seats):
            raise NotAllowed(_("hints are for casual games against the computer"))
        p = state.position
        if me.seat is None or me.seat not in p.to_move:
            raise NotAllowed(_("a hint is for your own turn"))
        self._hint_left(rec, user)
        seed = (rec.id * 1_000_003 + rec.ply) & 0x7FFFFFFF
        text = await picker.pick(p.view_for(me.seat), me.seat, HINT_LEVEL, seed=seed)

        async def counted(r: MatchRecord) -> MatchRecord:
            self._hint_left(r, user)  # another hint may have been counted meanwhile
            hints = dict(r.clock.hints) | {user: r.clock.hints_of(user) + 1}
            return await self._save(r, dataclasses.replace(r, clock=dataclasses.replace(
                r.clock, hints=tuple(sorted(hints.items())))))
        left = MAX_HINTS - (await self._retrying(match_id, counted)).clock.hints_of(user)
        v = p.variant
        if p.in_setup:
            return text, _("an arrangement whose numbers chain well"), left
        move = v.parse_move(p, text)
        marks = v.move_marks(p, move)
        after = p.play(move)
        outcome = after.outcome()
        reason: Words
        if outcome is not None and me.seat in outcome.winners:
            reason = _("it wins")
        elif marks.captured:
            reason = _n("it captures {count} piece", "it captures {count} pieces",
                        len(marks.captured))
        elif marks.removed and p.removed_counts() is not None:  # Querni: the aim
            reason = _n("it removes {count} of your stones", "it removes {count} of your stones",
                        len(marks.removed))
        elif after.checked_point() is not None:
            reason = _("it gives check")
        else:
            reason = _("the strongest move {computer} finds here",
                       computer=computer_title(computer_user(HINT_LEVEL)))
        return v.display_move(p, move), reason, left

    @staticmethod
    def _hint_left(rec: MatchRecord, user: int) -> int:
        """The hints ``user`` has left in ``rec``; refused when none."""
        left = MAX_HINTS - rec.clock.hints_of(user)
        if left <= 0:
            raise NotAllowed(_n("you have taken your {count} hint in this game",
                                "you have taken your {count} hints in this game",
                                MAX_HINTS))
        return left

    async def analysis(self, match_id: int, top: int = 3,
                       *, caller: Caller | None = None) -> list[AnalysedMove]:
        """After a game, the moves that cost their player most against the best move
        there, worst first, at most ``top`` (``game_analysis``'s ``marked``)."""
        return list((await self.game_analysis(match_id, top, caller=caller)).marked)

    async def game_analysis(self, match_id: int, top: int = 3,
                            *, caller: Caller | None = None) -> GameAnalysis:
        """After a game, the moves that cost their player most against the best move
        there, worst first, at most ``top``: a forced win missed or a forced loss walked
        into, then a pawn's worth or more. Every configuration: each move is weighed
        against the best move there, both scored for its mover (in four seats on their
        own, the mover against the other three). With them, the evaluation after every
        move weighed, for its mover (``EvalPoint``: the graph of issue 42), from the same
        weighings: the graph costs no search of its own.

        The analysis is stored (``AnalysisStore``: the web page's graph, issue 40); asked
        again, the stored one answers while it weighed the same record on the same
        engine budget (the weighing is reproducible: node-bounded).

        Decisions (issue 38): a move that keeps a forced win (a slower one) costs
        nothing; so does a move after which the short search sees no win any more when
        its player won the game all the same (the win was slower, beyond the search);
        moves in a game already lost by force are not marked for losing faster."""
        self.require_available()
        rec = await self._record(match_id)
        if rec.status.is_live:
            raise NotAllowed(_("the analysis is for finished games"))
        record = await self.actions.record(match_id)
        nodes = self.picker.weigh_nodes if isinstance(self.picker, WeighingBudget) else None
        stored = await self.repository.analysis_of(match_id)
        if stored is not None and (stored.plies, stored.level, stored.nodes) == \
                (len(record.plies), ANALYSIS_LEVEL, nodes) and nodes is not None:
            return stored.game_analysis(top)
        made = await self._analyse(rec, record, nodes)
        try:
            await self.repository.save_analysis(made)
        except StorageError as e:  # the answer stands; the page shows no graph yet
            log.warning("the analysis of match %s was not stored: %s", match_id, e)
        return made.game_analysis(top)

    async def stored_analysis(self, match_id: int, *, caller: Caller | None = None
                              ) -> MatchAnalysis | None:
        """The analysis ``/analysis`` stored of a finished match, for whoever may see the
        match (the web page's graph, the result picture); None when none was made. A
        live match shows none, whatever is stored: no engine help to its players."""
        rec = await self._record(match_id)
        if rec.status.is_live:
            return None
        return await self.repository.analysis_of(match_id)

    async def _analyse(self, rec: MatchRecord, record: GameRecord,
                       nodes: int | None) -> MatchAnalysis:
        """Weigh every move of ``record`` (``game_analysis``): the curve and every
        costly move, worst first."""
        assert self.picker is not None
        weighed: list[tuple[int, int, str, Position[Any]]] = []  # (ply, seat, display, before)
        moves: list[tuple[Position[Any], str]] = []
        before = record.start
        for step in record.plies:
            if step.move is not None and step.seat is not None and not before.in_setup \
                    and before.to_move == {step.seat}:
                weighed.append((step.ply, step.seat, step.display, before))
                moves.append((before, step.canonical))
            before = step.position
        started = time.perf_counter()
        weighings = await self.picker.weigh(moves) if moves else []
        seconds = time.perf_counter() - started
        marked: list[AnalysedMove] = []
        # who played each move, as the record says: the seat's player today is another
        # in a match continued from an imported game (its first moves are the record's)
        played_by = {step.ply: step.user_id for step in record.plies
                     if step.user_id is not None}
        curve = tuple(EvalPoint(ply, seat, found.played, found.played_end)
                      for (ply, seat, _d, _p), found in zip(weighed, weighings, strict=True)
                      if found is not None)
        for (ply, seat, display, position), found in zip(weighed, weighings, strict=True):
            cost = None if found is None else self._cost(
                found, rec.result is not None and rec.result.outcome_of(seat) == "win")
            if found is None or cost is None:
                continue
            v = position.variant
            try:
                better = v.display_move(position, v.parse_move(position, found.best_move))
            except RulesError:  # a picker's text is not trusted
                continue
            held = record.holder(seat, ply)
            marked.append(AnalysedMove(ply, seat, played_by.get(
                ply, held.user_id if held is not None else None), display, better,
                found.best - found.played, *cost))
        marked.sort(key=lambda a: (-a.lost, a.ply))
        return MatchAnalysis(rec.id, self._clock.now(), len(record.plies), ANALYSIS_LEVEL,
                             nodes, round(seconds, 3), curve, tuple(marked))

    @staticmethod
    def _cost(w: MoveWeighing, won: bool) -> tuple[CostKind, int] | None:
        """What a weighed move cost its player (how it is told, and its amount), or None
        when it cost nothing worth marking (``won``: he won the game)."""
        if w.best_end is not None and w.best_end > 0:  # a forced win was there
            if (w.played_end is not None and w.played_end > 0) or won:
                return None  # a slower win is no mistake
            return CostKind.MISSED_WIN, w.best_end
        if w.played_end is not None and w.played_end < 0:
            if w.best_end is not None and w.best_end < 0:
                return None  # lost whatever he played
            return CostKind.ALLOWED_LOSS, -w.played_end
        if w.best_end is not None or w.played_end is not None or w.best - w.played < 100:
            return None  # a forced loss anyway, or less than a pawn
        return CostKind.PAWNS, w.best - w.played

    async def wake_computers(self, match_ids: list[int] | None = None) -> int:
        """Start the computer turns due in these matches, or in every active match with
        a computer player (turns announced before a restart were lost with the process; a
        failed pick left its turn unplayed); how many matches were woken. A turn already
        being played is left to its task."""
        if self.picker is None:
            return 0
        if match_ids is None:
            found: set[int] = set()
            for level in LEVELS:
                for n in range(3):
                    for rec in await self.repository.matches_of(
                            computer_user(level, n), None, (MatchStatus.ACTIVE,)):
                        # another process plays its own guilds' computer turns
                        if self.shards.owns(rec.guild_id) and self._computers_to_move(rec) \
                                and rec.id not in self._computer_tasks:
                            found.add(rec.id)
            match_ids = sorted(found)
        for match_id in match_ids:
            self._schedule(match_id)
        return len(match_ids)

    async def sweep_computers(self, now: datetime | None = None) -> list[Event]:
        """The computer turns left unplayed (the sweep's last part): at the first sweep
        every one a restart cut off (:meth:`wake_computers` looks them up), afterwards
        those whose turn failed here (a crashed pool, a fallen database), so none is left
        waiting for a person who waits for it, and a quiet sweep reads nothing more."""
        if not self._computers_woken:
            await self.wake_computers()  # raises if the database is down: tried again
            self._computers_woken = True
            self._computer_failed.clear()  # the look-up found those too
        elif self._computer_failed:
            failed = sorted(self._computer_failed)
            self._computer_failed.clear()
            await self.wake_computers(failed)
        return []

    async def with_computer_games(self, base: PlayerStats, guild_id: int, user: int
                                   ) -> PlayerStats:
        """``base`` (a player's rated record) with his casual games against the computer
        and in how many of them he took hints (``MatchService.stats`` composes them)."""
        wins = draws = losses = hinted = 0
        for rec in await self.repository.matches_of(user, guild_id,
                                                    (MatchStatus.FINISHED,)):
            if rec.result is None or not any(is_computer(s.user_id) for s in rec.seats):
                continue
            hinted += rec.clock.hints_of(user) > 0
            me = rec.seat_of(user)
            # the result holds seats, not users
            outcome = rec.result.outcome_of(me.seat if me is not None else None)
            wins += outcome == "win"
            draws += outcome == "draw"
            losses += outcome == "loss"
        return dataclasses.replace(base, against_computer=(wins, draws, losses),
                                   with_hints=hinted)

    async def computers_idle(self) -> None:
        """Wait until no computer turn is being played (tests, the console, shutdown)."""
        while self._computer_tasks:
            await asyncio.gather(*list(self._computer_tasks.values()),
                                 return_exceptions=True)

    # ------------------------------------------------------------------ machinery

    @staticmethod
    def _level(level: object) -> int:
        if isinstance(level, str) and level.strip().isascii() and level.strip().isdigit():
            level = int(level.strip())
        if isinstance(level, bool) or not isinstance(level, int) or level not in LEVELS:
            raise InvalidOption(_("the computer plays at levels 1 (beginner) to 8 (strongest)"))
        return level

    @staticmethod
    def _computers_to_move(rec: MatchRecord) -> list[int]:
        seats = {s.seat: s.user_id for s in rec.seats if s.seat is not None and not s.out}
        # a seat the computer took over after a timeout plays as its player (issue 43)
        return [seats[s] for s in rec.to_move if s in seats and (
            is_computer(seats[s]) or rec.clock.stand_in_since(seats[s]) is not None)]

    async def computer_follows(self, event: Event) -> None:
        """A computer's turn starts its search (a subscriber: ``MatchService._subscribers``)."""
        if self.picker is None:
            return
        m = event.match
        if isinstance(event, TurnStarted | SetupSubmitted | SeatTakenOver) \
                and m.status.is_live and any(is_computer(u) or m.stand_in_since(u) is not None
                                             for u in m.to_move):
            self._schedule(m.id)

    def _schedule(self, match_id: int) -> None:
        if match_id in self._computer_tasks:
            # the running task plays every computer turn in a row; it looks again before
            # it ends, in case it read the match just before this announcement
            self._computer_again.add(match_id)
            return
        # A fresh context: the task must not inherit the caller's (an adapter may hold
        # the caller's announcements in a context variable until its reply is out; the
        # computer's own announcements would be held in a list nobody reads any more).
        task = asyncio.get_running_loop().create_task(self._computer_turns(match_id),
                                                      context=contextvars.Context())
        self._computer_tasks[match_id] = task

    async def _computer_turns(self, match_id: int) -> None:
        try:
            await asyncio.sleep(0)  # let the move that caused this return first
            await self.play_computers(match_id)
        except StorageUnavailable as e:  # logged by the repository, once per outage
            log.debug("computer turn in match %s waits for the database: %s", match_id,
                      e.message)
            self._computer_failed.add(match_id)  # the next sweep tries again
        except ServiceError as e:  # e.g. the match ended meanwhile (a resignation)
            log.info("computer turn in match %s not played: %s", match_id, e.message)
        except Exception:
            log.exception("computer turn in match %s failed", match_id)
            self._computer_failed.add(match_id)  # the next sweep tries again
        finally:
            self._computer_tasks.pop(match_id, None)
            self._computer_again.discard(match_id)
