"""Playing: moves, Querni setups and move suggestions."""

from __future__ import annotations

import dataclasses
from collections import Counter
from typing import Protocol

from locales.i18n import _, command
from locales.terms import move_display
from rules import RulesError
from rules.notation import normalize
from service.core import MAX_TEXT, ServiceCore
from service.errors import Conflict, NotAllowed, NotYourTurn, ServiceError, StaleMove
from service.events import (
    ConditionalMovePlayed,
    Event,
    MoveFollowed,
    MovePlayedFor,
    SetupSubmitted,
    TurnStarted,
)
from service.matches import arranged_plies, moves_played
from service.pauses import Pauses
from service.records import MatchRecord, RecordEntry, special_entries
from service.states import MatchState, parse_entry
from service.turns import banked, turn_goes_on, turn_started
from service.views import BoardState, Caller, MoveResult


class ConditionalAnswers(Protocol):
    """What a move needs of conditional moves (``comforts``): the answers now due in the
    match are played (``MatchService`` hands itself in: ``Comforts`` plays moves through
    this part, so the two cannot be handed to each other)."""

    async def advance_conditionals(self, match_id: int, *, caller: Caller | None = ...
                                   ) -> int: ...


class Play:
    """Moves, setups and move suggestions."""

    def __init__(self, core: ServiceCore, conditionals: ConditionalAnswers) -> None:
        self.repository = core.repository
        self.clock = core.clock
        self.states = core.states
        self._check_text = core.check_text
        self._retrying = core.retrying
        self._commit = core.commit
        self._announce = core.announce
        self._view = core.view
        self._state = core.state
        self._read_state = core.read_state
        self._forced_moves = core.forced_moves
        self._ended = core.ended
        self._completed = core.completed
        self._require_player = core.require_player
        self._require_active = core.require_active
        self._finish = core.finish
        self._put_out = core.put_out
        self._sync_out = core.sync_out
        self._who = core.who
        self._conditionals = conditionals

    async def move(self, match_id: int, user: int, text: str,
                   expected_ply: int | None = None, *, caller: Caller | None = None) -> MoveResult:
        """Play ``text`` for ``user``. ``expected_ply``: the ply the user saw (a button, an
        old board); if the match has moved on since, StaleMove."""
        text = self._check_text(text, _("move"))
        lines: list[int] = []

        async def attempt(rec: MatchRecord) -> MoveResult:
            lines.append(rec.conditionals)
            return await self.play_move(rec, user, text, expected_ply, setup=False)
        result = await self._retrying(match_id, attempt)
        # a conditional answer to this move is played at once (``comforts``); the mover's
        # reply then shows the match after it (his turn again), not the board before it
        if lines and lines[-1] and not result.ended \
                and await self._conditionals.advance_conditionals(match_id):
            rec, state = await self._read_state(match_id)
            view = self._view(rec)
            result = dataclasses.replace(
                result, match=view, ended=not rec.status.is_live, result=view.result,
                board=BoardState(state.position, state.last_marks, state.moves))
        return result

    async def submit_setup(self, match_id: int, user: int, text: str,
                           *, caller: Caller | None = None) -> MoveResult:
        """Submit a Querni ``choose`` arrangement (16 numbers in cell order). The display
        hides it until both have submitted."""
        text = self._check_text(text, _("arrangement"))
        return await self._retrying(
            match_id, lambda rec: self.play_move(rec, user, text, None, setup=True))

    async def _stale(self, rec: MatchRecord, expected_ply: int) -> StaleMove:
        """The move was played on ply ``expected_ply`` (a page, a button) and the match is
        at another: both said as players count moves (``moves_played``: the arrangements
        and the special entries, such as a four-player skip, left out)."""
        seen = max(0, min(expected_ply, rec.ply))
        earlier = await self.repository.load_entries(rec.id, stop=seen) if seen else []
        at = moves_played(rec)
        expected = max(0, expected_ply - min(arranged_plies(rec), seen)
                       - special_entries(earlier))
        if at == expected:  # no move since: only a leaving (a resignation, a skip)
            return StaleMove(_("the position changed: a player has left the game since "
                               "(the match is still at move {ply})", ply=at))
        return StaleMove(
            _("the position changed: the match is at move {ply}, not {expected} "
              "(last: {last})", ply=at, expected=expected,
              last=move_display(rec.last_move)) if rec.last_move and at > 0 else
            _("the position changed: the match is at move {ply}, not {expected}",
              ply=at, expected=expected))

    async def play_move(self, rec: MatchRecord, user: int, text: str,
                        expected_ply: int | None, *, setup: bool,
                        conditional: bool = False) -> MoveResult:
        self._require_active(rec)
        me = self._require_player(rec, user)
        assert me.seat is not None
        if expected_ply is not None and expected_ply != rec.ply:
            raise await self._stale(rec, expected_ply)
        if me.out:
            raise NotAllowed(_("you are out of this game"))
        Pauses.refuse_while_paused(rec, self.clock.now())
        state = await self._state(rec)
        p = state.position
        v = p.variant
        setup_phase = p.in_setup
        if setup_phase and me.seat not in p.to_move:
            raise NotAllowed(_("you have already submitted your arrangement; the board "
                               "appears when the other player has submitted too"))
        if me.seat not in p.to_move:
            if p.to_move:
                raise NotYourTurn(_("it is not your turn: {players} to move",
                                    players=self._who(rec, p.to_move)))
            raise NotYourTurn(_("nobody is to move"))
        if setup and not setup_phase:
            raise NotAllowed(_("this match is not in its setup phase: play moves with "
                               "{move}", move=command("move")))
        if setup_phase and not setup:
            raise NotAllowed(_("the match is in its setup phase: submit your arrangement "
                               "with {setup} (your 16 numbers in start-cell order)",
                               setup=command("setup")))
        move = parse_entry(v, p, me.seat, text) if setup_phase \
            else v.parse_noted_move(p, text)
        canonical = v.format_move(p, move)
        display = "setup submitted" if setup_phase else v.display_move(p, move)
        marks = None if setup_phase else v.move_marks(p, move)
        new = p.play(move)
        now = self.clock.now()
        entry = RecordEntry(rec.ply, me.seat, canonical, user, now)
        # a player left without a choice (Querni's forced pass) has it played at once
        forced, new = self._forced_moves(rec, new, rec.ply + 1, now)
        outcome = new.outcome()
        last = forced[-1] if forced else None
        after = dataclasses.replace(
            rec, ply=rec.ply + 1 + len(forced), position_text=new.to_text(),
            to_move=tuple(sorted(new.to_move)),
            last_move=last.text if last else display,
            last_move_by=last.user_id if last else user,
            draw_offer=rec.draw_offer if rec.draw_offer and rec.draw_offer.by == user
            else None, takeback=None)
        ratings = None
        if outcome is not None:
            after, ratings = self._finish(after, outcome)
        else:
            after = dataclasses.replace(after, seats=self._sync_out(after, new),
                                        clock=banked(rec, me.seat, now))
            # a seat of a turn several play at once (Querni's set-up) stopped his clock;
            # the others keep theirs (``turns``), anything else is a new turn
            goes_on = len(rec.to_move) > 1 and set(new.to_move) < set(rec.to_move)
            after = turn_goes_on(after, now) if goes_on else turn_started(after, now)
        moves = None if state.moves is None else \
            state.moves + (0 if setup_phase else 1 + len(forced))
        # while arrangements are secret the submitter's board shows his own only
        board = BoardState(new.view_for(me.seat) if new.in_setup else new, marks, moves)
        lapsed = rec.draw_offer.by if rec.draw_offer and rec.draw_offer.by != user else None

        def announced(s: MatchRecord) -> list[Event]:
            view = self._view(s)
            events: list[Event] = []
            if conditional:
                events.append(ConditionalMovePlayed(view, user, display))
            events += [MovePlayedFor(view, e.user_id, e.text) for e in forced
                       if e.user_id is not None]
            if outcome is not None:
                events.append(self._ended(view, outcome.reason, board))
            elif setup_phase:
                events.append(SetupSubmitted(view, user))
                if not new.in_setup:
                    events.append(TurnStarted(view, view.to_move, None, board=board))
            else:
                events.append(TurnStarted(view, view.to_move, display, user, lapsed,
                                          board=board))
                taken = (*marks.captured, *marks.removed) if marks else ()
                events += self._put_out(rec, s, p, taken)
            watchers = tuple(u for u in s.followers if s.seat_of(u) is None)
            if watchers and not setup_phase:
                events.append(MoveFollowed(view, watchers, user, display))
            return events
        try:
            saved, events = await self._commit(rec, after, announced, (entry, *forced),
                                               ratings)
        except Conflict:
            fresh = await self.repository.load_match(rec.id)
            if fresh is not None and fresh.ply != rec.ply:
                raise StaleMove(
                    _("the position changed: another move landed first ({last}); look at "
                      "the board again", last=move_display(fresh.last_move))
                    if fresh.last_move else
                    _("the position changed: another move landed first; look at the "
                      "board again")) from None
            raise
        self.states.remember(rec.id, MatchState(saved.ply, saved.position_text, new, marks,
                                                moves))
        view = self._view(saved)
        result = view.result
        await self._announce(await self._completed(saved, events, ratings))
        return MoveResult(view, canonical if not setup_phase else "setup", display,
                          outcome is not None, result, board)

    async def suggest_moves(self, match_id: int, user: int, prefix: str = "",
                            limit: int = 25,
                            *, caller: Caller | None = None) -> list[tuple[str, str]]:
        """Legal moves for autocomplete: ``(canonical, display)``, at most ``limit``.

        Only moves whose canonical string starts with the typed prefix (case, spaces and
        ``:``/``x``/``-`` separators forgiven; a prefix matching nothing that way falls back
        to "contains"). Most useful first: more pieces captured or removed, then checks
        (``Position.checked_point`` after the move), then moves of the pieces with the most
        choices (so the lively pieces a newcomer reads about, Xiangqi's cannons, come
        before the cut), then alphabetical. Empty when the user cannot move (autocomplete
        must not fail)."""
        found, _total = await self.move_choices(match_id, user, prefix, limit)
        return found

    async def move_choices(self, match_id: int, user: int, prefix: str = "",
                           limit: int | None = 25,
                           *, caller: Caller | None = None) -> tuple[list[tuple[str, str]], int]:
        """``suggest_moves`` and how many moves match in all (``/moves`` says "25 of
        44"); ``limit`` None: every one (a player's web page offers them all)."""
        try:
            rec, state = await self._read_state(match_id)
            self._require_active(rec)
            me = self._require_player(rec, user)
        except ServiceError:
            return [], 0
        p = state.position
        if me.seat not in p.to_move or p.in_setup or me.out:
            return [], 0
        v = p.variant
        if not isinstance(prefix, str):
            return [], 0
        try:
            wanted = normalize(prefix[:MAX_TEXT])
        except RulesError:
            return [], 0
        wanted_key = self._suggest_key(wanted)
        scored: list[tuple[int, int, int, object, str, str]] = []
        for m in p.legal_moves():
            canonical = v.format_move(p, m)
            key = self._suggest_key(canonical)
            if key.startswith(wanted_key):
                closeness = 0
            elif wanted_key and wanted_key in key:
                closeness = 1
            else:
                continue
            display = v.display_move(p, m)
            marks = v.move_marks(p, m)
            taken = len(marks.captured) + len(marks.removed)
            # a check is what the rules say (WXF's "+" means "forward", not check)
            check = 0 if p.play(m).checked_point() is not None else 1
            origin = marks.path[0] if marks.path else None
            scored.append((closeness, -taken, check, origin, canonical, display))
        choices = Counter(row[3] for row in scored)  # moves per piece
        ranked = sorted((c, t, k, -choices[o], cn, d) for c, t, k, o, cn, d in scored)
        n = len(ranked) if limit is None else max(0, min(int(limit), 25))
        return [(c, d) for *_, c, d in ranked[:n]], len(ranked)

    @staticmethod
    def _suggest_key(text: str) -> str:
        return "".join(ch for ch in text.lower() if ch not in " -x:")
