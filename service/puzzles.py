"""Puzzles from the server's own finished games (issue 44).

**Mining.** The sweep (:meth:`Puzzles.sweep_puzzles`) starts, in the background, the
mining of finished matches not mined yet, at most ``per_hour`` matches in any hour (the
``puzzle_mined`` rows of the last hour count, so the bound holds across restarts and
processes). Each position of a match (before each move, and the last one when the game
was resigned or ran out of time) goes to the ``PuzzleMiner`` port: the adapter runs the
engine (``engine.puzzles``) in the computer player's process pool, a few positions per
call, so a computer's move never waits long behind the miner and the event loop never
waits at all. A position is a puzzle when one move is clearly best and every other
clearly worse, confirmed by a deeper second search. The match is marked mined in the
transaction that stores its puzzles: a restart in the middle mines it again from the
start, and it is never mined twice.

Left out: imported games (a record anyone can write could carry a live game's position
to the miner) and broken records; every finished game between people or against the
computer feeds puzzles. Tablero has no private games.

**Solving.** ``/puzzle`` gives the reader his open puzzle, or the next one: never tried
by him, never from a match he played in, never one whose position stands in a live match
of the server or one of his own (an engine's answer to a game being played), the rating
closest to his first. He answers move by move; a right move plays the other seats'
replies, a wrong one shows the refutation (the computer's answer) and the solution.
His first try at a puzzle is rated (openskill: the player against the puzzle, both
ratings move) and counts in his streak of puzzles solved in a row; later tries are
practice.

**Daily puzzle.** A server may ask for a daily puzzle in a channel: the sweep writes it
into the outbox in the transaction that moves the next one a day on (compare-and-set on
when it was due), as the daily digests do (``digests.py``): once a day, whoever sweeps,
and after a restart the outbox delivers what was written.
"""

from __future__ import annotations

import asyncio
import contextvars
import dataclasses
import logging
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from locales.i18n import _, command
from rules import MoveMarks, Position, RulesError, Variant
from service.core import ServiceCore
from service.digests import next_after
from service.errors import (
    MatchBroken,
    NotAllowed,
    PuzzleNotFound,
    ServiceError,
    StaleMove,
    StorageUnavailable,
)
from service.events import DailyPuzzle, Event
from service.explorer import explorer_config
from service.imported_seats import is_imported
from service.outbox import entry_of
from service.ports import FoundPuzzle, MovePicker, PuzzleMiner
from service.ratings import DEFAULT_MU, DEFAULT_SIGMA, rate_groups
from service.records import (
    PUZZLE_GOALS,
    MatchRecord,
    MatchStatus,
    PuzzlePlayer,
    PuzzleRecord,
    PuzzleTry,
)
from service.states import replay, variant_of
from service.views import notice_lane

log = logging.getLogger(__name__)

HOUR = timedelta(hours=1)
DEFAULT_PER_HOUR = 30
"""Finished matches mined in any hour by default (``TABLERO_PUZZLE_GAMES_PER_HOUR``)."""
CHUNK = 4
"""Positions sent to the miner in one call (one worker busy for a few seconds at most)."""
CANDIDATES = 25
"""Puzzles read per ``/puzzle``, closest rating first, before the live ones are left out."""
LIVE_LOOKED = 500
"""The server's live matches whose positions a puzzle is checked against (newest first)."""
DIFFICULTY_MU = 3.0
"""A new puzzle's rating: the default ``mu`` plus this per difficulty step above 3."""


@dataclass(frozen=True, slots=True)
class PuzzleView:
    """A puzzle as its solver sees it now: which, from where (the source match, its ply
    and its players' names), the game, the position now (after the moves played so far)
    and the seat to move (the puzzle's side), the goal, the difficulty, the puzzle's
    rating, the puzzle side's moves played right so far and in all (``step``,
    ``steps``), the last move to highlight (the reply just played) and the solver's
    puzzle record (rating, streak)."""

    id: int
    game: str
    config: str
    match_id: int
    ply: int
    players: tuple[str, ...]
    position: Position
    seat: int
    goal: str
    difficulty: int
    rating: float
    step: int
    steps: int
    last: MoveMarks | None
    player: PuzzlePlayer

    @property
    def variant(self) -> Variant:
        return self.position.variant


@dataclass(frozen=True, slots=True)
class PuzzleAnswer:
    """What an answer did: the move as displayed, right or wrong, the other seats'
    replies played after a right one, and whether the puzzle is now solved or failed.
    After a wrong move: the refutation (the computer's answer to it, empty without the
    computer) and the solution (display texts). The solver's rating before and after
    (rated tries only: None otherwise) and his streak; ``puzzle`` is the puzzle as it
    stands now (after a wrong move: the position after it and its refutation)."""

    puzzle: PuzzleView
    move: str
    right: bool
    replies: tuple[str, ...]
    solved: bool
    refutation: tuple[str, ...] = ()
    solution: tuple[str, ...] = ()
    rating_before: float | None = None
    rating_after: float | None = None

    @property
    def failed(self) -> bool:
        return not self.right


@dataclass(frozen=True, slots=True)
class _Step:
    """One move of a puzzle's solution: the position before it, the move, its display
    text, its marks, and whether it is the puzzle side's."""

    before: Position
    move: Hashable
    display: str
    marks: MoveMarks
    ours: bool


def daily_key(due: datetime) -> int:
    """The version keying a daily puzzle's outbox entry apart in its server's notice lane:
    below every tournament's (minus its id) and apart from the digests' (positive).

    >>> from datetime import UTC
    >>> daily_key(datetime(2026, 1, 1, tzinfo=UTC)) < -10**15
    True
    """
    return -(int(due.timestamp()) << 20)


def board_key(game: str, text: str) -> tuple[object, ...] | None:
    """What makes two positions the same for the live check: the pieces on their points
    and the seats to move (not the move counters a position's text may hold)."""
    try:
        p = variant_of(game).from_text(text)
    except (RulesError, ServiceError, ValueError):
        return None
    return (game, tuple(sorted(p.to_move)),
            tuple(sorted((repr(k), repr(v)) for k, v in p.pieces().items())))


def solution_steps(puzzle: PuzzleRecord) -> list[_Step]:
    """The solution, move by move, checked by the rules (a stored line is not trusted:
    ``PuzzleNotFound`` when it no longer plays)."""
    try:
        v = variant_of(puzzle.game)
        p: Position[Any] = v.from_text(puzzle.position)
        steps = []
        for text in puzzle.line:
            move = v.parse_move(p, text)
            steps.append(_Step(p, move, v.display_move(p, move), v.move_marks(p, move),
                               p.to_move == {puzzle.seat}))
            p = p.play(move)
    except (RulesError, ServiceError, ValueError):
        raise PuzzleNotFound(_("puzzle #{puzzle} can no longer be played",
                               puzzle=puzzle.id)) from None
    if not steps or not steps[0].ours or not steps[-1].ours:
        raise PuzzleNotFound(_("puzzle #{puzzle} can no longer be played", puzzle=puzzle.id))
    return steps


def _ours_before(steps: Sequence[_Step], step: int) -> int:
    """The index in ``steps`` of the puzzle side's move number ``step`` (0-based)."""
    seen = -1
    for i, s in enumerate(steps):
        seen += s.ours
        if s.ours and seen == step:
            return i
    return len(steps)


class Puzzles:
    """Mining finished matches for puzzles, giving and checking them, the puzzle ratings,
    streaks and leaderboard, and each server's daily puzzle."""

    def __init__(self, core: ServiceCore, miner: PuzzleMiner | None,
                 picker: MovePicker | None, per_hour: int = DEFAULT_PER_HOUR) -> None:
        self.repository = core.repository
        self.clock = core.clock
        self.shards = core.shards
        self._notify = core.notify
        self._names = core.names
        self.miner = miner
        self.picker = picker
        self.per_hour = max(0, per_hour)
        self._mining: asyncio.Task[int] | None = None
        self._stopped = False  # shutting down: no new mining

    # ------------------------------------------------------------------ mining

    async def sweep_puzzles(self, now: datetime | None = None) -> list[Event]:
        """Start mining in the background (never in the sweep itself) when there is room
        in this hour's bound and no mining is under way."""
        if self.miner is None or self.per_hour == 0 or self._stopped or \
                (self._mining is not None and not self._mining.done()):
            return []
        now = now or self.clock.now()
        if await self.repository.mined_since(now - HOUR) >= self.per_hour:
            return []
        # a fresh context: nothing of the caller's (an adapter's held announcements)
        self._mining = asyncio.get_running_loop().create_task(
            self._mine_in_background(now), context=contextvars.Context())
        return []

    async def _mine_in_background(self, now: datetime) -> int:
        try:
            return await self.mine_puzzles(now=now)
        except StorageUnavailable as e:
            log.debug("puzzle mining waits for the database: %s", e.message)
        except Exception:
            log.exception("puzzle mining failed; the next sweep tries again")
        return 0

    async def puzzles_idle(self) -> None:
        """Wait until the mining under way is done (tests, the console)."""
        task = self._mining
        if task is not None:
            await asyncio.gather(task, return_exceptions=True)

    async def stop_mining(self) -> None:
        """Shutdown: stop the mining under way, wait for its end, and start no more. The
        miner's pool and the database close next: a miner still at work would use them
        after (a trace at the end of every console script that finished a game). The
        match it was mining is mined on the next run: only stored puzzles mark it."""
        self._stopped = True
        task = self._mining
        if task is not None and not task.done():
            task.cancel()
        await self.puzzles_idle()

    async def mine_puzzles(self, limit: int | None = None,
                           now: datetime | None = None) -> int:
        """Mine finished matches not mined yet (this process's servers only), oldest
        first, within this hour's bound and at most ``limit``; how many were mined."""
        if self.miner is None:
            return 0
        now = now or self.clock.now()
        room = self.per_hour - await self.repository.mined_since(now - HOUR)
        if limit is not None:
            room = min(room, limit)
        mined, after = 0, 0
        while mined < room:
            ids = await self.repository.unmined_matches(after, 50)
            if not ids:
                break
            for match_id in ids:
                if mined >= room:
                    break
                rec = await self.repository.load_match(match_id)
                if rec is None or not self.shards.owns(rec.guild_id):
                    continue  # another process mines its own servers' games
                if await self.mine_match(rec, now) is not None:
                    mined += 1
            after = ids[-1]
        return mined

    async def mine_match(self, rec: MatchRecord, now: datetime | None = None
                         ) -> list[PuzzleRecord] | None:
        """Mine finished match ``rec``: its puzzles as stored (None: it was mined before,
        or is not finished)."""
        if self.miner is None or rec.status is not MatchStatus.FINISHED:
            return None
        found: list[PuzzleRecord] = []
        if not any(is_imported(s.user_id) for s in rec.seats):
            try:
                found = await self._puzzles_in(rec)
            except MatchBroken as e:
                log.warning("match %s not mined for puzzles: %s", rec.id, e.message)
        return await self.repository.store_puzzles(rec.id, rec.guild_id, found,
                                                   now or self.clock.now())

    async def _puzzles_in(self, rec: MatchRecord) -> list[PuzzleRecord]:
        assert self.miner is not None
        entries = await self.repository.load_entries(rec.id, stop=rec.ply)
        done = replay(rec, entries)
        shown: list[tuple[int, Position[Any]]] = []  # (ply, position before it)
        before = done.start
        for step in done.plies:
            if step.move is not None and self._minable(before):
                shown.append((step.ply, before))
            before = step.position
        if self._minable(before):  # resigned or timed out: the last position too
            shown.append((len(done.plies), before))
        config = explorer_config(done.start.variant, {
            k: tuple(o) if isinstance(o, list) else o for k, o in rec.options.items()})
        players = tuple(s.user_id for s in rec.seats)
        puzzles: list[PuzzleRecord] = []
        kept: dict[int, tuple[int, str]] = {}  # seat -> (ply, first move) of its last puzzle
        now = self.clock.now()
        for start in range(0, len(shown), CHUNK):
            chunk = shown[start:start + CHUNK]
            results = await self.miner.find_puzzles([p for _ply, p in chunk])
            for (ply, position), result in zip(chunk, results, strict=False):
                puzzle = self._checked(rec, config, players, ply, position, result, now)
                if puzzle is None:
                    continue
                last = kept.get(puzzle.seat)
                kept[puzzle.seat] = (ply, puzzle.line[0])
                if last is not None and last[1] == puzzle.line[0] \
                        and ply - last[0] <= position.seat_count:
                    continue  # the same shot a turn later (missed by both): one puzzle
                puzzles.append(puzzle)
        return puzzles

    @staticmethod
    def _minable(p: Position[Any]) -> bool:
        return p.outcome() is None and not p.in_setup and len(p.to_move) == 1

    @staticmethod
    def _checked(rec: MatchRecord, config: str, players: tuple[int, ...], ply: int,
                 position: Position[Any], found: FoundPuzzle | None,
                 now: datetime) -> PuzzleRecord | None:
        """The puzzle ``found`` in ``position`` when its line plays by the rules and ends
        on the puzzle side's move (the miner's answer is not trusted), else None."""
        if found is None or not found.line or found.goal not in PUZZLE_GOALS:
            return None
        seat = min(position.to_move)
        v = position.variant
        p = position
        try:
            ours = []
            for text in found.line:
                move = v.parse_move(p, text)
                ours.append(p.to_move == {seat})
                p = p.play(move)
        except (RulesError, ValueError):
            return None
        if not ours[0] or not ours[-1]:
            return None
        difficulty = min(5, max(1, int(found.difficulty)))
        return PuzzleRecord(0, rec.guild_id, rec.game, config, rec.id, ply, players,
                            position.to_text(), seat, tuple(found.line), found.goal,
                            difficulty, DEFAULT_MU + DIFFICULTY_MU * (difficulty - 3),
                            DEFAULT_SIGMA, now)

    # ------------------------------------------------------------------ solving

    async def puzzle(self, guild_id: int, user: int, puzzle_id: int | None = None
                     ) -> PuzzleView:
        """``user``'s open puzzle in ``guild_id``, or the next one for him (see the
        module); with ``puzzle_id``, that puzzle (a daily puzzle, one to try again)."""
        player = await self._player(guild_id, user)
        if player.puzzle_id is not None:
            if puzzle_id is None or puzzle_id == player.puzzle_id:
                open_one = await self.repository.load_puzzle(player.puzzle_id)
                if open_one is not None:
                    return self._view(open_one, player)
            else:
                raise NotAllowed(_("answer puzzle #{puzzle} first: `{answer}`",
                                   puzzle=player.puzzle_id,
                                   answer=command("puzzle answer")))
        if puzzle_id is not None:
            chosen = await self._given(guild_id, user, puzzle_id)
        else:
            found = await self._next(guild_id, user, player)
            if found is None:
                if await self.repository.puzzle_count(guild_id):
                    raise NotAllowed(_("you have tried every puzzle this server has for "
                                       "you: more come as its games finish"))
                raise NotAllowed(_("this server has no puzzle yet: they are found in its "
                                   "finished games, a few every hour"))
            chosen = found
        rated = not await self.repository.tried_puzzle(user, chosen.id)
        after = dataclasses.replace(player, puzzle_id=chosen.id, step=0, rated=rated)
        if not await self.repository.save_puzzle_player(
                player if player.version else None, after):
            raise StaleMove(_("your puzzles changed meanwhile: ask again with `{next}`",
                              next=command("puzzle next")))
        return self._view(chosen, dataclasses.replace(after, version=player.version + 1))

    async def _given(self, guild_id: int, user: int, puzzle_id: int) -> PuzzleRecord:
        puzzle = await self.repository.load_puzzle(puzzle_id) \
            if isinstance(puzzle_id, int) and not isinstance(puzzle_id, bool) \
            and 0 < puzzle_id < 2**63 else None
        if puzzle is None or puzzle.guild_id != guild_id:
            raise PuzzleNotFound(_("there is no puzzle #{puzzle} here", puzzle=puzzle_id))
        if user in puzzle.players:
            raise NotAllowed(_("puzzle #{puzzle} comes from your own game", puzzle=puzzle_id))
        if board_key(puzzle.game, puzzle.position) in await self._live_boards(guild_id, user):
            raise NotAllowed(_("puzzle #{puzzle} stands in a game being played: try it "
                               "later", puzzle=puzzle_id))
        return puzzle

    async def _next(self, guild_id: int, user: int, player: PuzzlePlayer
                    ) -> PuzzleRecord | None:
        candidates = await self.repository.puzzle_candidates(guild_id, user, player.mu,
                                                             CANDIDATES)
        if not candidates:
            return None
        live = await self._live_boards(guild_id, user)
        return next((p for p in candidates if user not in p.players
                     and board_key(p.game, p.position) not in live), None)

    async def _live_boards(self, guild_id: int, user: int | None) -> set[tuple[object, ...]]:
        """The positions of the server's live matches (the newest :data:`LIVE_LOOKED`)
        and of ``user``'s own live matches anywhere."""
        recs = list(await self.repository.live_matches(guild_id, LIVE_LOOKED))
        if user is not None:
            recs += await self.repository.matches_of(user, None, (MatchStatus.ACTIVE,))
        found = set()
        for rec in recs:
            key = board_key(rec.game, rec.position_text)
            if key is not None:
                found.add(key)
        return found

    async def _player(self, guild_id: int, user: int) -> PuzzlePlayer:
        held = await self.repository.puzzle_player(guild_id, user)
        return held if held is not None else PuzzlePlayer(guild_id, user, DEFAULT_MU,
                                                          DEFAULT_SIGMA)

    def _view(self, puzzle: PuzzleRecord, player: PuzzlePlayer,
              steps: Sequence[_Step] | None = None) -> PuzzleView:
        steps = steps if steps is not None else solution_steps(puzzle)
        at = _ours_before(steps, player.step)
        position = steps[at].before if at < len(steps) else steps[-1].before.play(
            steps[-1].move)
        last = steps[at - 1].marks if at > 0 else None
        return self._shown(puzzle, player, position, last, steps)

    def _shown(self, puzzle: PuzzleRecord, player: PuzzlePlayer, position: Position[Any],
               last: MoveMarks | None, steps: Sequence[_Step]) -> PuzzleView:
        names = tuple(self._names(puzzle.guild_id, u) if self._names is not None else ""
                      for u in puzzle.players)
        return PuzzleView(puzzle.id, puzzle.game, puzzle.config, puzzle.match_id,
                          puzzle.ply, names, position, puzzle.seat, puzzle.goal,
                          puzzle.difficulty, puzzle.mu - 3 * puzzle.sigma, player.step,
                          sum(s.ours for s in steps), last, player)

    async def puzzle_moves(self, guild_id: int, user: int, prefix: str = "",
                           limit: int = 25) -> list[tuple[str, str]]:
        """The legal moves of ``user``'s open puzzle for autocomplete, ``(canonical,
        display)``, those starting with ``prefix`` first (separators forgiven), at most
        ``limit``; empty when he has none open (autocomplete must not fail)."""
        try:
            player = await self._player(guild_id, user)
            if player.puzzle_id is None:
                return []
            puzzle = await self.repository.load_puzzle(player.puzzle_id)
            if puzzle is None:
                return []
            view = self._view(puzzle, player)
        except ServiceError:
            return []
        p = view.position
        v = p.variant
        wanted = _key(prefix if isinstance(prefix, str) else "")
        shown = []
        for m in p.legal_moves():
            canonical = v.format_move(p, m)
            key = _key(canonical)
            if not key.startswith(wanted) and wanted not in key:
                continue
            shown.append((not key.startswith(wanted), canonical, v.display_move(p, m)))
        shown.sort()
        return [(c, d) for _rank, c, d in shown[:max(0, min(int(limit), 25))]]

    async def answer_puzzle(self, guild_id: int, user: int, text: str) -> PuzzleAnswer:
        """``user``'s move ``text`` in his open puzzle (see the module). An illegal or
        unreadable move is refused by the rules and changes nothing."""
        player = await self._player(guild_id, user)
        if player.puzzle_id is None:
            raise NotAllowed(_("you have no puzzle open: `{next}` gives you one",
                               next=command("puzzle next")))
        puzzle = await self.repository.load_puzzle(player.puzzle_id)
        if puzzle is None:
            raise PuzzleNotFound(_("there is no puzzle #{puzzle} here",
                                   puzzle=player.puzzle_id))
        steps = solution_steps(puzzle)
        at = _ours_before(steps, player.step)
        if at >= len(steps):
            raise NotAllowed(_("that puzzle is over: `{next}` gives you another",
                               next=command("puzzle next")))
        here = steps[at].before
        v = here.variant
        move = v.parse_noted_move(here, self._text(text))
        played = here.play(move)
        shown = v.display_move(here, move)
        outcome = played.outcome()
        right = move == steps[at].move or (
            outcome is not None and puzzle.seat in outcome.winners)
        if right:
            replies: list[str] = []
            i = at + 1
            last = v.move_marks(here, move)
            position = played
            ends = outcome is not None or i >= len(steps)
            while not ends and not steps[i].ours:
                replies.append(steps[i].display)
                last = steps[i].marks
                position = steps[i].before.play(steps[i].move)
                i += 1
                ends = i >= len(steps)
            if not ends:
                after = dataclasses.replace(player, step=player.step + 1)
                await self._save(player, after)
                return PuzzleAnswer(self._shown(puzzle, after, position, last, steps),
                                    shown, True, tuple(replies), False)
            return await self._finish(puzzle, player, steps, position, last, shown,
                                      tuple(replies), solved=True)
        refutation = await self._refutation(played, puzzle.seat, puzzle.id)
        position, last = played, v.move_marks(here, move)
        for _shown_text, reply in refutation:
            last, position = v.move_marks(position, reply), position.play(reply)
        solution = tuple(s.display for s in steps[at:])
        return await self._finish(puzzle, player, steps, position, last, shown, (),
                                  solved=False, refutation=tuple(t for t, _m in refutation),
                                  solution=solution)

    @staticmethod
    def _text(text: object) -> str:
        if not isinstance(text, str) or not text.strip():
            raise NotAllowed(_("write your move, e.g. the one {answer} suggests",
                               answer=command("puzzle answer")))
        return text.strip()[:200]

    async def _refutation(self, p: Position[Any], seat: int, puzzle_id: int
                          ) -> list[tuple[str, Hashable]]:
        """The computer's answer to a wrong move (nothing without the computer, or when
        the game ended or the puzzle's side is to move again)."""
        if self.picker is None or p.outcome() is not None or seat in p.to_move \
                or len(p.to_move) != 1:
            return []
        mover = min(p.to_move)
        try:
            text = await self.picker.pick(p.view_for(mover), mover, 8,
                                          seed=puzzle_id & 0x7FFFFFFF)
            reply = p.variant.parse_move(p, text)
        except (RulesError, ValueError):  # a picker's text is not trusted
            return []
        except Exception:  # the engine failed: the solution is shown all the same
            log.exception("no refutation for puzzle %s", puzzle_id)
            return []
        return [(p.variant.display_move(p, reply), reply)]

    async def _save(self, before: PuzzlePlayer, after: PuzzlePlayer,
                    tried: PuzzleTry | None = None,
                    rating: tuple[float, float] | None = None) -> None:
        if not await self.repository.save_puzzle_player(before if before.version else None,
                                                        after, tried, rating):
            raise StaleMove(_("your puzzle changed meanwhile (another answer came first): "
                              "see it again with `{next}`", next=command("puzzle next")))

    async def _finish(self, puzzle: PuzzleRecord, player: PuzzlePlayer,
                      steps: Sequence[_Step], position: Position[Any],
                      last: MoveMarks | None, shown: str, replies: tuple[str, ...], *,
                      solved: bool, refutation: tuple[str, ...] = (),
                      solution: tuple[str, ...] = ()) -> PuzzleAnswer:
        after = dataclasses.replace(player, puzzle_id=None, step=0, rated=False)
        rating = None
        if player.rated:
            ranks = [1, 2] if solved else [2, 1]
            new = rate_groups({0: (player.mu, player.sigma), 1: (puzzle.mu, puzzle.sigma)},
                              [[0], [1]], ranks)
            rating = new[1]
            streak = player.streak + 1 if solved else 0
            after = dataclasses.replace(
                after, mu=new[0][0], sigma=new[0][1], solved=player.solved + solved,
                failed=player.failed + (not solved), streak=streak,
                best_streak=max(player.best_streak, streak))
        tried = PuzzleTry(puzzle.guild_id, player.user_id, puzzle.id, solved, player.rated,
                          self.clock.now())
        await self._save(player, after, tried, rating)
        step = sum(s.ours for s in steps) if solved else player.step
        view = self._shown(puzzle, dataclasses.replace(after, step=step), position, last,
                           steps)
        return PuzzleAnswer(view, shown, solved, replies, solved, refutation, solution,
                            player.rating if player.rated else None,
                            after.rating if player.rated else None)

    async def puzzle_leaderboard(self, guild_id: int, limit: int = 10
                                 ) -> list[PuzzlePlayer]:
        """The server's best puzzle solvers (rated tries), best rating first."""
        return await self.repository.puzzle_leaderboard(guild_id, max(1, min(int(limit), 50)))

    async def puzzle_record(self, guild_id: int, user: int) -> PuzzlePlayer:
        """``user``'s puzzle rating, counts and streak in ``guild_id``."""
        return await self._player(guild_id, user)

    # ------------------------------------------------------------------ daily puzzle

    async def set_daily_puzzle(self, guild_id: int, channel_id: int | None
                               ) -> datetime | None:
        """Post a daily puzzle in ``channel_id`` (the first at the next sweep), or no
        more (None); when the next is due."""
        when = self.clock.now() if channel_id is not None else None
        await self.repository.set_daily_puzzle(guild_id, channel_id, when)
        return when

    async def daily_puzzle_status(self, guild_id: int) -> tuple[int, datetime] | None:
        """The channel and time of the server's next daily puzzle (None: off)."""
        return await self.repository.daily_puzzle(guild_id)

    async def _daily_choice(self, guild_id: int) -> PuzzleRecord | None:
        """The puzzle the server's daily post would show now: a fresh one (never posted)
        whose position stands in no game being played; None when it has none."""
        live = await self._live_boards(guild_id, None)
        return next((p for p in await self.repository.daily_candidates(guild_id, CANDIDATES)
                     if board_key(p.game, p.position) not in live), None)

    async def daily_puzzle_ready(self, guild_id: int) -> bool:
        """Whether the server has a puzzle for its next daily post (when it has none yet,
        nothing is posted until one is found in its finished games)."""
        return await self._daily_choice(guild_id) is not None

    async def sweep_daily_puzzles(self, now: datetime | None = None) -> list[Event]:
        """Post every daily puzzle due at ``now`` (this process's servers only): each
        once a day; a server with no fresh puzzle that day gets none."""
        now = now or self.clock.now()
        sent: list[Event] = []
        for guild_id, channel_id, due in await self.repository.due_daily_puzzles(now):
            if not self.shards.owns(guild_id):
                continue
            chosen = await self._daily_choice(guild_id)
            event = None
            entries = []
            if chosen is not None:
                event = DailyPuzzle(notice_lane(guild_id, channel_id, daily_key(due)),
                                    chosen.id, chosen.game, chosen.config, chosen.position,
                                    chosen.seat, chosen.goal, chosen.difficulty)
                entries = [entry_of(event, 0, now)]
            if not await self.repository.advance_daily_puzzle(
                    guild_id, due, next_after(due, now), chosen.id if chosen else None,
                    entries):
                continue  # another process posted it, or it was turned off meanwhile
            if event is not None:
                await self._notify(event)
                sent.append(event)
        return sent


def _key(text: str) -> str:
    return "".join(ch for ch in text.lower() if ch not in " -x:")


