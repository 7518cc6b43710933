"""Tournaments as use-cases: create, join/leave, start, remove, cancel; rounds started
through the normal challenge/accept path (so every game is an ordinary match with its
thread and notifications); results taken from matches as they end; standings and
pairings. The pairing and standings rules are the pure core (``tournaments/``).

Running: a round's games start together. The next round starts when the last game of
the current one ends, by a result or a clock running out (Swiss pairings need the
results; round robins go round by round too, so nobody plays several tournament games
at once). A knockout tie whose game was drawn gets a replay with colours swapped. Two
timeouts withdraw a player; a withdrawn player's later games are forfeited.

Robust to a restart at any moment: the tournament row is compare-and-set; a round is
claimed (its games written) before its matches are made; ``sweep_tournaments`` (run by
``sweep``) picks up what a stop left half done: a match that ended while the result was
not recorded, a game whose match was not made yet, a round complete but not advanced,
a registration deadline passed.
"""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Awaitable, Callable, Mapping
from datetime import datetime, timedelta
from typing import TypeVar

from locales.i18n import Words, _, _n, joined
from locales.terms import game_name
from rules import RulesError
from service.challenges import Challenges
from service.core import ServiceCore
from service.early_ends import DOUBLE_FORFEIT, DRAW_AGREED_EARLY, left_seat, left_words
from service.endings import Endings
from service.errors import (
    Conflict,
    InvalidOption,
    NotAllowed,
    ServiceError,
    StorageError,
)
from service.events import Event, MatchEnded, StandingsChanged
from service.ids import check_tournament_id, tournament_not_found
from service.matches import RETRIES
from service.outbox import Announce
from service.records import MatchRecord, MatchStatus
from service.texts import named
from service.timecontrol import format_time_control
from service.tournament_records import (
    TournamentGame,
    TournamentRecord,
    TournamentStatus,
    describe_clock,
)
from service.tournaments import (
    Format,
    Game,
    Result,
    StandingRow,
    TournamentError,
    check_players,
    check_seat_count,
    forfeit_unfinished,
    knockout_round,
    next_replay,
    parse_format,
    round_robin,
    rounds_needed,
    standings,
    swiss_round,
    tie_winner,
    timed_out_twice,
)
from service.tournaments.model import format_words, one_line, tournament_title
from service.tournaments.table import StandingsTable, standings_csv, standings_table
from service.views import Caller, notice_lane

log = logging.getLogger(__name__)
T = TypeVar("T")

MAX_NAME = 80
MAX_CAP = 256
MAX_ROUNDS = 2 * MAX_CAP
MAX_REGISTRATION_DAYS = 60
_OPEN = (TournamentStatus.REGISTRATION, TournamentStatus.RUNNING)


class Tournaments:
    """Tournament use-cases (see the module docstring)."""

    def __init__(self, core: ServiceCore, challenges: Challenges, endings: Endings) -> None:
        self.repository = core.repository
        self.clock = core.clock
        self.names = core.names
        self.rng = core.rng
        self.shards = core.shards
        self.get_guild_settings = core.get_guild_settings
        self._variant = core.variant
        self._check_text = core.check_text
        self._view = core.view
        self._notify = core.notify
        self._challenges = challenges
        self._endings = endings

    # ------------------------------------------------------------------ records

    async def _tournament(self, tid: int) -> TournamentRecord:
        found = await self.repository.load_tournament(check_tournament_id(tid))
        if found is None:
            raise tournament_not_found(tid)
        return found

    def _title(self, t: TournamentRecord) -> Words:
        """The tournament's name as its reader says it (a default one in his words)."""
        v = self._variant(t.game)
        return tournament_title(t.name, v.key, v.name, t.format)

    async def _t_retrying(self, tid: int,
                          attempt: Callable[[TournamentRecord], Awaitable[T]]) -> T:
        for _attempt in range(RETRIES):
            try:
                return await attempt(await self._tournament(tid))
            except Conflict:
                continue
        raise Conflict(f"tournament #{tid} is busy; try again")

    # ------------------------------------------------------------------ creation

    async def create_tournament(
            self, guild_id: int, channel_id: int, user: int, game: str, *,
            fmt: str | Format, name: str | None = None, rounds: int | None = None,
            options: Mapping[str, object] | None = None, days: int | None = None,
            rated: bool = True, cap: int | None = None,
            registration_days: int | None = None, vacation: bool = True,
            clock: str | None = None, claim_win: bool = False, weekends_off: bool = False
    ) -> TournamentRecord:
        """A tournament open for registration. Refused with a clear message: an unknown
        game or format, options the game refuses, a four-player game (tournaments pair
        one against one), a Swiss without 1-30 rounds, days outside 1-14, a cap outside
        2-256, a registration period outside 1-60 days. ``clock`` and ``days``: the time
        control of every game, read as ``challenge`` reads them (the same parser, limits
        and messages; neither: the server's default control). ``claim_win``: a lapsed
        clock in its games waits for the opponent's claim; off unless asked for (not the
        server's default), since a round waits for its last game. ``weekends_off``: no
        clock runs in its games on Saturday and Sunday in each player's time zone."""
        v = self._variant(game)
        try:
            kind = fmt if isinstance(fmt, Format) else parse_format(fmt)
        except TournamentError as e:
            raise InvalidOption(e.text) from None
        opts = self._challenges.coerce_options(v, options)
        start = self._challenges.start_position(v, opts)
        try:
            check_seat_count(start.seat_count, game_name(v.key, v.name))
            if kind is Format.SWISS:
                check_players(kind, 2, rounds)
        except TournamentError as e:
            raise InvalidOption(e.text) from None
        if kind is not Format.SWISS and rounds is not None:
            raise InvalidOption(_("a {format} sets its own rounds; leave rounds empty",
                                  format=format_words(kind)))
        control = self._challenges.time_control(await self.get_guild_settings(guild_id), days,
                                                clock)
        if not isinstance(claim_win, bool):
            raise InvalidOption(_("claim win must be yes or no"))
        if not isinstance(weekends_off, bool):
            raise InvalidOption(_("weekends must be on or off"))
        if cap is not None and (isinstance(cap, bool) or not isinstance(cap, int)
                                or not 2 <= cap <= MAX_CAP):
            raise InvalidOption(_("the player cap must be from 2 to {high}", high=MAX_CAP))
        now = self.clock.now()
        deadline = None
        if registration_days is not None:
            if isinstance(registration_days, bool) or not isinstance(registration_days, int) \
                    or not 1 <= registration_days <= MAX_REGISTRATION_DAYS:
                raise InvalidOption(_("registration lasts 1 to {high} days",
                                      high=MAX_REGISTRATION_DAYS))
            deadline = now + timedelta(days=registration_days)
        # on one line (a newline pasted in meant a space); a control character is
        # refused, naming it (``inputs.check_text``)
        title = (one_line(self._check_text(name, _("tournament name"))) if name is not None
                 else f"{v.name} {kind.label}")
        if not title or len(title) > MAX_NAME:
            raise InvalidOption(_("a tournament name has 1 to {high} characters",
                                  high=MAX_NAME))
        # the options the organiser gave (each game draws its own Querni deal)
        given = {k: o for k, o in opts.items() if k != "seed" or "seed" in (options or {})}
        rec = TournamentRecord(
            id=0, guild_id=guild_id, channel_id=channel_id, organiser_id=user,
            name=title, game=v.key, options=given, format=kind, rounds=rounds,
            days_per_move=control.days_column, rated=bool(rated), cap=cap,
            registration_deadline=deadline, vacation=bool(vacation),
            status=TournamentStatus.REGISTRATION, players=(), created_at=now,
            bank=control if control.is_bank else None, claim_win=claim_win,
            weekends_off=weekends_off)
        return await self.repository.create_tournament(rec)

    # ------------------------------------------------------------------ registration

    async def join_tournament(self, tournament_id: int, user: int,
                              *, caller: Caller | None = None) -> TournamentRecord:
        """Register; the tournament starts when the cap is reached."""
        async def attempt(t: TournamentRecord) -> TournamentRecord:
            if t.status is not TournamentStatus.REGISTRATION:
                raise NotAllowed(_("registration for {tournament} is closed",
                                   tournament=self._title(t)))
            if user in t.players:
                raise NotAllowed(_("you are already in {tournament}", tournament=self._title(t)))
            if t.cap is not None and len(t.players) >= t.cap:
                raise NotAllowed(_("{tournament} is full ({cap} players)",
                                   tournament=self._title(t), cap=t.cap))
            return await self.repository.save_tournament(
                t, dataclasses.replace(t, players=(*t.players, user)))
        saved = await self._t_retrying(tournament_id, attempt)
        if saved.cap is not None and len(saved.players) >= saved.cap:
            return await self._begin(saved.id)
        return saved

    async def leave_tournament(self, tournament_id: int, user: int,
                               *, caller: Caller | None = None) -> TournamentRecord:
        """Leave during registration; once it runs, withdraw (the game under way is
        resigned, the remaining ones forfeited)."""
        t = await self._tournament(tournament_id)
        if user not in t.players:
            raise NotAllowed(_("you are not in {tournament}", tournament=self._title(t)))
        return await self._drop(tournament_id, user, yourself=True)

    async def remove_from_tournament(self, tournament_id: int, user: int, player: int, *,
                                     manager: bool = False,
                                     caller: Caller | None = None) -> TournamentRecord:
        """The organiser (``user``, or a manager) removes ``player``: as
        ``leave_tournament``."""
        t = await self._tournament(tournament_id)
        self._require_organiser(t, user, manager)
        if player not in t.players:
            raise NotAllowed(_("{player} is not in {tournament}", tournament=self._title(t),
                               player=named(self.names, t.guild_id, player)))
        return await self._drop(tournament_id, player)

    async def _drop(self, tid: int, user: int, *, yourself: bool = False
                    ) -> TournamentRecord:
        """``user`` leaves (``yourself``: he asked) or is removed by the organiser."""
        async def attempt(t: TournamentRecord) -> TournamentRecord:
            if t.status is TournamentStatus.REGISTRATION:
                after = dataclasses.replace(
                    t, players=tuple(p for p in t.players if p != user))
            elif t.status is TournamentStatus.RUNNING:
                if user in t.withdrawn:
                    raise NotAllowed(_("you have already withdrawn") if yourself else _(
                        "{player} has already withdrawn",
                        player=named(self.names, t.guild_id, user)))
                after = self._withdraw(t, {user})
            else:
                raise NotAllowed(_("{tournament} is over", tournament=self._title(t)))
            return await self.repository.save_tournament(t, after)
        saved = await self._t_retrying(tid, attempt)
        running = [g.match_id for g in saved.games
                   if g.result is None and g.match_id is not None and user in (g.first,
                                                                               g.second)]
        for match_id in running:
            try:
                await self._endings.resign(match_id, user)  # its end is recorded by the hook
            except ServiceError as e:
                log.info("withdrawal of %s from match %s: %s", user, match_id, e.message)
        if saved.status is TournamentStatus.RUNNING:
            await self._advance(tid)
        return await self._tournament(tid)

    @staticmethod
    def _withdraw(t: TournamentRecord, users: set[int]) -> TournamentRecord:
        """Mark ``users`` withdrawn; their unfinished games without a match are
        forfeited now (a game under way ends by resignation, recorded as it ends)."""
        withdrawn = (*t.withdrawn, *sorted(u for u in users if u not in t.withdrawn))
        games = []
        for g in t.games:
            if g.match_id is None and g.result is None:
                [done] = forfeit_unfinished([g.game()], withdrawn)
                g = dataclasses.replace(g, result=done.result)
            games.append(g)
        return dataclasses.replace(t, withdrawn=withdrawn, games=tuple(games))

    @staticmethod
    def _require_organiser(t: TournamentRecord, by: int, manager: bool) -> None:
        if by != t.organiser_id and not manager:
            raise NotAllowed(_("only the organiser (or a server manager) can do that"))

    async def cancel_tournament(self, tournament_id: int, user: int, *,
                                manager: bool = False,
                                caller: Caller | None = None) -> TournamentRecord:
        """Cancel: no more rounds; games under way go on as ordinary matches."""
        async def attempt(t: TournamentRecord) -> TournamentRecord:
            self._require_organiser(t, user, manager)
            if t.status not in _OPEN:
                raise NotAllowed(_("{tournament} is already over", tournament=self._title(t)))
            return await self.repository.save_tournament(
                t, dataclasses.replace(t, status=TournamentStatus.CANCELLED))
        return await self._t_retrying(tournament_id, attempt)

    async def start_tournament(self, tournament_id: int, user: int, *,
                               manager: bool = False,
                               caller: Caller | None = None) -> TournamentRecord:
        """Close registration and start round 1 now (the organiser or a manager)."""
        self._require_organiser(await self._tournament(tournament_id), user, manager)
        return await self._begin(tournament_id)

    async def _begin(self, tid: int) -> TournamentRecord:
        async def attempt(t: TournamentRecord) -> TournamentRecord:
            if t.status is not TournamentStatus.REGISTRATION:
                raise NotAllowed(_("{tournament} has already started", tournament=self._title(t)))
            try:
                check_players(t.format, len(t.players), t.rounds)
            except TournamentError as e:
                raise NotAllowed(e.text) from None
            players = list(t.players)
            if t.format in (Format.ROUND_ROBIN, Format.DOUBLE_ROUND_ROBIN):
                self.rng.shuffle(players)  # Berger numbers are drawn by lot
            else:
                players = await self._seeded(t, players)
            rounds = t.rounds
            if t.format is Format.ROUND_ROBIN:
                rounds = len(round_robin(players))
            elif t.format is Format.DOUBLE_ROUND_ROBIN:
                rounds = len(round_robin(players, double=True))
            elif t.format is Format.KNOCKOUT:
                rounds = rounds_needed(len(players))
            return await self.repository.save_tournament(t, dataclasses.replace(
                t, status=TournamentStatus.RUNNING, players=tuple(players), rounds=rounds))
        await self._t_retrying(tid, attempt)
        await self._advance(tid)
        return await self._tournament(tid)

    async def _seeded(self, t: TournamentRecord, players: list[int]) -> list[int]:
        """Swiss and knockout seeding: by rating on the game's ladder (best first),
        unrated players after the rated ones in the order they joined."""
        ladder = t.game
        ranks = {}
        for p in players:
            found = await self.repository.rank_of(t.guild_id, ladder, p)
            ranks[p] = found[0] if found is not None else len(players) + 10**9
        return sorted(players, key=lambda p: (ranks[p], players.index(p)))

    # ------------------------------------------------------------------ running

    def _pairing(self, t: TournamentRecord, rnd: int) -> list[Game]:
        games = [g.game() for g in t.games]
        withdrawn = set(t.withdrawn)
        if t.format in (Format.ROUND_ROBIN, Format.DOUBLE_ROUND_ROBIN):
            schedule = round_robin(list(t.players),
                                   double=t.format is Format.DOUBLE_ROUND_ROBIN)
            return forfeit_unfinished(schedule[rnd - 1], withdrawn)
        if t.format is Format.SWISS:
            return swiss_round(list(t.players), games, rnd, withdrawn)
        return forfeit_unfinished(knockout_round(list(t.players), games, rnd), withdrawn)

    def _round_over(self, t: TournamentRecord) -> bool:
        """Every game of the current round has a result (knockout: every tie decided)."""
        current = t.games_of_round(t.round)
        if any(g.result is None for g in current):
            return False
        if t.format is Format.KNOCKOUT:
            return all(tie_winner(tie) is not None for tie in self._ties(current))
        return True

    @staticmethod
    def _ties(games: list[TournamentGame]) -> list[list[Game]]:
        ties: dict[frozenset[int], list[Game]] = {}
        for g in games:
            ties.setdefault(frozenset(g.game().players), []).append(g.game())
        return list(ties.values())

    def _finished(self, t: TournamentRecord) -> bool:
        active = [p for p in t.players if p not in t.withdrawn]
        if t.format is Format.KNOCKOUT:
            current = t.games_of_round(t.round)
            return len(self._ties(current)) == 1 or len(active) < 2
        return t.round >= (t.rounds or 0) or (t.format is Format.SWISS and len(active) < 2)

    async def _advance(self, tid: int) -> None:
        """Move a running tournament on as far as its results allow: knockout replays,
        the next round, or the end. Safe to call any time, from anywhere."""
        for _attempt in range(RETRIES + 2 * MAX_ROUNDS):  # rounds of forfeits pass at once
            t = await self._tournament(tid)
            if t.status is not TournamentStatus.RUNNING:
                return
            try:
                if t.round and not self._round_over(t):
                    if t.format is Format.KNOCKOUT:
                        await self._replays(t)
                    await self._make_matches(tid)
                    return
                if t.round and self._finished(t):
                    await self._save_announced(
                        t, dataclasses.replace(t, status=TournamentStatus.FINISHED),
                        await self._last_match(t))
                    return
                rnd = t.round + 1
                try:
                    pairing = self._pairing(t, rnd)
                except TournamentError as e:
                    log.error("tournament %s round %s: %s", tid, rnd, e.message)
                    return
                games = (*t.games, *(TournamentGame.of(g) for g in pairing))
                await self.repository.save_tournament(
                    t, dataclasses.replace(t, round=rnd, games=games))
            except Conflict:
                continue
            # a round of forfeits and byes alone is over at once: go round again

    async def _replays(self, t: TournamentRecord) -> None:
        new = []
        for tie in self._ties(t.games_of_round(t.round)):
            again = next_replay(tie)
            if again is not None:
                new.append(TournamentGame.of(again))
        if new:
            await self.repository.save_tournament(
                t, dataclasses.replace(t, games=(*t.games, *new)))

    async def _make_matches(self, tid: int) -> None:
        """Start a match for every game of the current round that has none: a challenge
        from the first player (seat 0) to the second, accepted at once."""
        t = await self._tournament(tid)
        for g in t.games_of_round(t.round):
            if g.result is not None or g.match_id is not None or g.second is None:
                continue
            found = await self._unattached_challenge(t, g)
            if found is not None:  # made before a stop, never attached: no second one
                match_id = found
            else:
                match_id = (await self._challenges.challenge(
                    t.guild_id, t.channel_id, g.first, t.game, opponents=(g.second,),
                    options=dict(t.options), rated=t.rated, seat=0,
                    days=None if t.bank else t.days_per_move,
                    clock=format_time_control(t.bank) if t.bank else None,
                    claim_win=t.claim_win, weekends_off=t.weekends_off,
                    accepted_at_once=True)).id

            async def attach(fresh: TournamentRecord, game: TournamentGame = g,
                             match_id: int = match_id) -> None:
                games = tuple(dataclasses.replace(x, match_id=match_id) if x == game else x
                              for x in fresh.games)
                if games == fresh.games:
                    raise NotAllowed(_("that game was settled meanwhile"))
                await self.repository.save_tournament(
                    fresh, dataclasses.replace(fresh, games=games))
            try:
                await self._t_retrying(tid, attach)
            except NotAllowed:
                await self._challenges.cancel(match_id, g.first)
                continue
            await self._challenges.accept(match_id, g.second)

    async def _unattached_challenge(self, t: TournamentRecord, g: TournamentGame
                                    ) -> int | None:
        """An open challenge from ``g.first`` to ``g.second`` in the tournament's game
        and channel that no tournament game holds: one a stop left between its making
        and its attaching (``_make_matches`` would otherwise make a second one)."""
        assert g.second is not None
        for rec in await self.repository.matches_of(g.first, t.guild_id, (MatchStatus.OPEN,)):
            if rec.challenger_id == g.first and rec.game == t.game \
                    and rec.channel_id == t.channel_id and rec.seat_pref == 0 \
                    and rec.control == t.control and rec.clock.claim == t.claim_win \
                    and rec.clock.weekends == t.weekends_off \
                    and rec.rated == t.rated \
                    and rec.seat_of(g.second) is not None \
                    and await self.repository.tournament_of_match(rec.id) is None:
                return rec.id
        return None

    # ------------------------------------------------------------------ results

    async def tournament_follows(self, event: Event) -> None:
        """A finished match moves its tournament on (a subscriber:
        ``MatchService._subscribers``)."""
        if isinstance(event, MatchEnded):
            try:
                await self._match_ended(event.match.id, event.left_by, event.left_how)
            except StorageError as e:  # the outage is logged by the repository, once
                log.debug("tournament update after match %s waits for the sweep: %s",
                          event.match.id, e.message)
            except Exception:  # the match result is stored; the sweep catches up
                log.exception("tournament update after match %s failed", event.match.id)

    async def _match_ended(self, match_id: int, left_by: int | None = None,
                           left_how: str | None = None) -> None:
        tid = await self.repository.tournament_of_match(match_id)
        if tid is None:
            return
        rec = await self.repository.load_match(match_id)
        if rec is None:
            return
        await self._record_result(tid, rec, left_by, left_how)
        await self._advance(tid)

    async def _record_result(self, tid: int, rec: MatchRecord, left_by: int | None = None,
                             left_how: str | None = None) -> None:
        async def attempt(t: TournamentRecord) -> None:
            found = [g for g in t.games if g.match_id == rec.id and g.result is None]
            if not found or t.status is not TournamentStatus.RUNNING:
                return
            g = found[0]
            if rec.status is MatchStatus.BROKEN:
                await self.repository.save_tournament(t, self._replayed(t, g))
                return
            result, timed_out = self._result_of(rec, g, left_by, left_how)
            if result is None:
                return
            games = tuple(dataclasses.replace(x, result=result, timed_out=timed_out)
                          if x is g else x for x in t.games)
            after = dataclasses.replace(t, games=games)
            out = timed_out_twice(x.game() for x in games) - set(t.withdrawn)
            if out:
                after = self._withdraw(after, set(out))
            await self._save_announced(t, after, rec)
        await self._t_retrying(tid, attempt)

    async def _save_announced(self, t: TournamentRecord, after: TournamentRecord,
                              lane: MatchRecord | None) -> None:
        """Save ``after`` with its standings in the outbox (same transaction), on the
        lane of match ``lane`` (the match whose end caused the change, after its own
        entries), then hand them to the notifier. No lane (no game was ever played, only
        forfeits and byes): the final standings go on the server's notice lane
        (``notice_lane``; the tournament's only announcement then), others are saved
        unannounced."""
        if lane is None and after.status is not TournamentStatus.FINISHED:
            await self.repository.save_tournament(t, after)
            return
        view = self._view(lane) if lane is not None else \
            notice_lane(t.guild_id, t.channel_id, -t.id)

        def build(stored: TournamentRecord) -> list[Event]:
            final = stored.status is TournamentStatus.FINISHED
            winner = None
            if final:
                firsts = [r.player for r in standings(
                    list(stored.players), [g.game() for g in stored.games], stored.format,
                    stored.withdrawn) if r.place == 1]
                winner = firsts[0] if len(firsts) == 1 else None
            return [StandingsChanged(view if lane is None else
                                     dataclasses.replace(view, version=-stored.version),
                                     stored.id, stored.channel_id, self._table_of(stored),
                                     final, winner)]
        announce = Announce(build, self.clock.now())
        await self.repository.save_tournament(t, after, announce)
        for e in announce.events:
            await self._notify(e)

    async def _last_match(self, t: TournamentRecord) -> MatchRecord | None:
        """The last match made for ``t`` (the lane of its final standings)."""
        ids = [g.match_id for g in t.games if g.match_id is not None]
        return await self.repository.load_match(max(ids)) if ids else None

    @staticmethod
    def _replayed(t: TournamentRecord, g: TournamentGame) -> TournamentRecord:
        """``t`` with its game ``g``, whose match broke, to be played again.

        A broken match is one whose record no longer replays (``MatchStatus.BROKEN``:
        the service's own fault, a stored move its rules refuse), so nobody can say how
        it stood, let alone how it would have ended. Scoring it as a draw gave both
        players a half point for a game neither played out (one may have been winning),
        and as a played draw it gave them colours too; leaving it unscored would leave a
        hole in every tie-break. A tournament player expects what an arbiter does with
        a game that cannot go on through nobody's fault: it is played again, the same
        pairing with the same colours, in a new match (``_make_matches`` makes it, as
        the round's others). The broken match stays as it is, and no longer counts for
        the tournament. A player withdrawn since forfeits it, as any game not yet
        started."""
        again = dataclasses.replace(g, match_id=None, timed_out=None)
        games = tuple(again if x is g else x for x in t.games)
        after = dataclasses.replace(t, games=games)
        if set(again.game().players) & set(t.withdrawn):
            after = Tournaments._withdraw(after, set())
        return after

    def _result_of(self, rec: MatchRecord, g: TournamentGame, left_by: int | None = None,
                   left_how: str | None = None) -> tuple[Result | None, int | None]:
        """The tournament result of an ended match, and who timed out (if anyone).
        ``left_by``, ``left_how``: who resigned or ran out of time, and which, when the
        match's end said so."""
        if rec.status is MatchStatus.ACTIVE or rec.status.is_waiting:
            return None, None
        r = rec.result
        if rec.status is MatchStatus.ABORTED:
            # ended before every player had moved: the match is void, the tournament
            # game is not: an early resignation or timeout forfeits it, an early agreed
            # draw is a draw (as the match's own words say: ``early_ends``), though not
            # one played over the board (``Result.drawn``: no colours, counted apart)
            why = r.reason if r is not None else ""
            if why.endswith(DRAW_AGREED_EARLY):  # (never a name with "draw" in it)
                return Result.DRAW_UNPLAYED, None
            if why == DOUBLE_FORFEIT:
                return Result.BOTH_FORFEIT, None
            late, how = self._leaver(rec, g, left_by, left_how)
            if late is None:
                return Result.BOTH_FORFEIT, None
            won_first = late != g.first
            return (Result.FIRST_WINS_FORFEIT if won_first else Result.SECOND_WINS_FORFEIT,
                    late if how == "timeout" else None)
        if r is None or not r.winners:
            return Result.DRAW, None
        winner = rec.user_at(r.winners[0])
        timed_out = None
        if r.reason.startswith("timeout"):
            timed_out = g.second if winner == g.first else g.first
        return (Result.FIRST_WINS if winner == g.first else Result.SECOND_WINS), timed_out

    def _leaver(self, rec: MatchRecord, g: TournamentGame, left_by: int | None,
                left_how: str | None = None) -> tuple[int | None, str | None]:
        """Who ended an aborted match by leaving it, and how ("resign" or "timeout"):
        stored in its result (``ResultRecord.left_by``), so the sweep after a stop reads
        it instead of guessing. ``left_by`` and ``left_how`` (the live event) agree with
        it. A match aborted before the result kept it (older databases) is read from
        what is stored first (:meth:`_left_before_it_was_kept`)."""
        r = rec.result
        if r is not None and r.left_by in (g.first, g.second):
            return r.left_by, r.left_how
        said = left_words(r.reason) if r is not None else None
        how = left_how if left_how in ("resign", "timeout") else \
            said[1] if said is not None else "timeout"
        if left_by in (g.first, g.second):
            return left_by, how
        return self._left_before_it_was_kept(rec, said, how), how

    def _left_before_it_was_kept(self, rec: MatchRecord, said: tuple[str, str] | None,
                                 how: str) -> int | None:
        """Who ended a match aborted before its result kept that (older databases). A
        clock runs out on the player to move: the stored position says who (when one
        was). Only a resignation, which any player may make, is read from the words,
        the last resort: the seat they name at the end of the leaver's words
        (``early_ends.left_words``, read by their shape, so a name holding "Red" or
        "resigned" misleads nothing); then the player to move."""
        to_move = self._only_to_move(rec)
        if how == "timeout" and to_move is not None:
            return to_move
        if said is not None:
            v = self._variant(rec.game)
            colour = left_seat(said[0])
            named = [s for s in range(rec.seat_count)
                     if v.seat_name(s, rec.seat_count) == colour]
            if len(named) == 1:
                return rec.user_at(named[0])
        return to_move

    def _only_to_move(self, rec: MatchRecord) -> int | None:
        """The one player to move in ``rec``'s stored position (None when several were,
        as in a set-up both hand in, or when it does not read)."""
        v = self._variant(rec.game)
        try:
            p = v.from_text(rec.position_text)
        except (RulesError, ServiceError):
            return None
        seats = sorted(p.to_move)
        return rec.user_at(seats[0]) if len(seats) == 1 else None

    # ------------------------------------------------------------------ sweep

    async def sweep_tournaments(self, now: datetime | None = None) -> list[Event]:
        """Start tournaments whose registration has closed (cancel them with too few
        players) and finish what a stop left half done in running ones (announced as
        they happen: nothing is returned)."""
        now = now or self.clock.now()
        for t in await self.repository.tournaments_in(None, _OPEN):
            if not self.shards.owns(t.guild_id):
                continue
            try:
                if t.status is TournamentStatus.REGISTRATION:
                    if t.registration_deadline is not None and t.registration_deadline <= now:
                        try:
                            await self._begin(t.id)
                        except NotAllowed:
                            await self.repository.save_tournament(t, dataclasses.replace(
                                t, status=TournamentStatus.CANCELLED))
                    continue
                for g in t.games:
                    if g.result is None and g.match_id is not None:
                        rec = await self.repository.load_match(g.match_id)
                        if rec is not None and not (rec.status is MatchStatus.ACTIVE
                                                    or rec.status.is_waiting):
                            await self._record_result(t.id, rec)
                        elif rec is not None and rec.status.is_waiting:
                            await self._challenges.accept(rec.id, g.second or 0)
                await self._advance(t.id)
            except StorageError:
                raise  # the database failed: the whole sweep waits for the next tick
            except ServiceError as e:
                log.warning("sweep skipped tournament %s: %s", t.id, e.message)
        return []

    # ------------------------------------------------------------------ queries

    async def get_tournament(self, tournament_id: int,
                             *, caller: Caller | None = None) -> TournamentRecord:
        return await self._tournament(tournament_id)

    async def tournaments(self, guild_id: int, *, running_only: bool = False
                          ) -> list[TournamentRecord]:
        return await self.repository.tournaments_in(guild_id, _OPEN if running_only else ())

    async def tournament_standings(self, tournament_id: int,
                                   *, caller: Caller | None = None) -> list[StandingRow]:
        t = await self._tournament(tournament_id)
        return standings(list(t.players), [g.game() for g in t.games], t.format,
                         t.withdrawn)

    async def tournament_table(self, tournament_id: int, names: Mapping[int, str] | None = None,
                               *, caller: Caller | None = None
                               ) -> StandingsTable:
        """The standings as text rows for ``render.table.draw_table`` and embeds."""
        return self._table_of(await self._tournament(tournament_id), names)

    def _table_of(self, t: TournamentRecord, names: Mapping[int, str] | None = None
                  ) -> StandingsTable:
        rows = standings(list(t.players), [g.game() for g in t.games], t.format,
                         t.withdrawn)
        where = {TournamentStatus.REGISTRATION: _("registration"),
                 TournamentStatus.CANCELLED: _("cancelled"),
                 TournamentStatus.FINISHED: _n("final standings after {count} round",
                                               "final standings after {count} rounds",
                                               t.round),
                 }.get(t.status, _("round {round} of {rounds}", round=t.round,
                                   rounds=t.rounds))
        v = self._variant(t.game)
        return standings_table(rows, t.format, self._names_of(t, names),
                               title=self._title(t),
                               subtitle=joined(game_name(v.key, v.name),
                                               format_words(t.format), describe_clock(t),
                                               where, separator=" · "))

    async def tournament_csv(self, tournament_id: int,
                             names: Mapping[int, str] | None = None,
                             *, caller: Caller | None = None) -> str:
        t = await self._tournament(tournament_id)
        return standings_csv(await self.tournament_standings(tournament_id), t.format,
                             self._names_of(t, names))

    def _names_of(self, t: TournamentRecord, names: Mapping[int, str] | None
                  ) -> dict[int, str]:
        if names is not None:
            return dict(names)
        if self.names is None:
            return {}
        return {p: self.names(t.guild_id, p) for p in t.players}

    async def tournament_pairings(self, tournament_id: int, rnd: int | None = None,
                                  *, caller: Caller | None = None
                                  ) -> list[TournamentGame]:
        t = await self._tournament(tournament_id)
        rnd = t.round if rnd is None else rnd
        if isinstance(rnd, bool) or not isinstance(rnd, int) or not 1 <= rnd <= max(1, t.round):
            named = self._title(t)
            raise InvalidOption(_("{tournament} has rounds 1 to {round}", tournament=named,
                                  round=t.round) if t.round
                                else _("{tournament} has not started yet", tournament=named))
        return t.games_of_round(rnd)

    async def tournament_games_of(self, tournament_id: int, user: int,
                                  *, caller: Caller | None = None) -> list[TournamentGame]:
        t = await self._tournament(tournament_id)
        return [g for g in t.games if user in (g.first, g.second)]
