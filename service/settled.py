"""Questions asked with buttons, and what became of them.

A challenge or lobby, a draw offer, a takeback request and a pause proposal are each
posted once with buttons to answer them; so is each turn (its card offers "+1 day" and
"Take back" for that turn only: ``"turn"``, with the ply its buttons name, is over once
the ply moved on or the match ended) and a lapsed claim-win clock ("Claim win", "Keep
waiting": ``"claim"``). When a change answers one (or makes it moot: a move lets an
offer lapse, the match ends), :func:`settled` finds it by comparing the match before and
after the change, and says what became of it (an ``OfferSettled``): the adapter then
closes that post (its buttons gone, the outcome said), whichever way the answer came (a
button, a command, the console, the web, the sweep).

``ServiceCore.commit`` adds these events to every change it stores, after the change's
own events, so they ride the outbox with it: durable, in order, delivered once. A turn
that passed is closed by the change's own ``TurnStarted`` when it has one (a move, a
skip that goes on: ``TurnStarted.closes``, its ply; the adapter edits the old card once
the new one is out, so the next turn's post never waits for it), with no entry of its
own; else (the match ended, a takeback, a set-up going on) by an ``OfferSettled``
"turn", last of all.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence

from service.early_ends import DRAW_AGREED_EARLY
from service.events import Event, OfferSettled, TurnStarted
from service.records import MatchRecord, MatchStatus, PauseOffer, TakebackRequest
from service.views import MatchView


def _takeback(rec: MatchRecord) -> TakebackRequest | None:
    """The takeback request that still waits for an answer (made at the current ply)."""
    asked = rec.takeback
    return asked if asked is not None and asked.ply == rec.ply else None


def _pause(rec: MatchRecord) -> PauseOffer | None:
    """The pause proposal that still waits for an answer (made at the current ply)."""
    offer = rec.clock.pause_offer
    return offer if offer is not None and offer.ply == rec.ply else None


def _newly_accepted(before: MatchRecord, after: MatchRecord) -> int | None:
    """Who took a place in ``after`` that was not taken in ``before`` (the last one)."""
    was = {s.user_id for s in before.seats if s.accepted}
    new = [s.user_id for s in after.seats if s.accepted and s.user_id not in was]
    return new[-1] if new else None


def _challenge(before: MatchRecord, after: MatchRecord, by: int | None
               ) -> tuple[str, int | None] | None:
    if not before.status.is_waiting or after.status.is_waiting:
        return None
    if after.status is MatchStatus.ACTIVE or after.status is MatchStatus.FINISHED:
        who = by if by is not None else _newly_accepted(before, after)
        return ("filled" if after.seat_count > 2 else "accepted"), who
    if after.status is MatchStatus.DECLINED:
        return "declined", by
    if after.status is MatchStatus.CANCELLED:
        return "withdrawn", by if by is not None else after.challenger_id
    return "closed", None


def _lapsed(before: MatchRecord, after: MatchRecord) -> tuple[str, int | None]:
    """Why a question of ``before`` lapsed in a match that goes on: a takeback undid a
    move (``"taken-back"``), a player left a game that goes on without him (``"left"``,
    who), else a move was played (``"lapsed"``)."""
    if after.ply < before.ply:
        return "taken-back", None
    was_out = {s.user_id for s in before.seats if s.out}
    gone = [s.user_id for s in after.seats if s.out and s.user_id not in was_out]
    if gone:
        return "left", gone[0]
    return "lapsed", None


def _answered(before: MatchRecord, after: MatchRecord, asker: int, by: int | None,
              accepted: bool) -> tuple[str, int | None]:
    """What became of a pending question of ``asker`` that ``after`` no longer holds."""
    if accepted:
        return "accepted", by
    if not after.status.is_live:
        return "closed", None
    if after.ply == before.ply and by is not None:
        return ("withdrawn" if by == asker else "declined"), by
    return _lapsed(before, after)


def _turn_passed(before: MatchRecord, after: MatchRecord) -> bool:
    """The turn of ``before`` (its card's buttons name its ply) is over in ``after``: a
    move, a skip, a player out, a takeback or the end of the match."""
    return before.status is MatchStatus.ACTIVE and bool(before.to_move) and (
        after.ply != before.ply or not after.status.is_live)


def _claim(before: MatchRecord, after: MatchRecord, by: int | None
           ) -> tuple[str, int | None] | None:
    """What became of a lapsed claim-win clock's question ("Claim win" or "Keep
    waiting"), if ``after`` settled it: claimed (the late player is out, or the match
    ended, by a claim: ``by``), one more day given, moot (the late player moved, or a
    takeback, or a player left) or closed (the match ended another way). Keeping waiting
    settles nothing: a claim stays possible while the clock stays lapsed."""
    if before.status is not MatchStatus.ACTIVE or before.clock.lapsed is None:
        return None
    if after.status.is_live and after.ply == before.ply and after.clock.lapsed is not None:
        return None
    late = {before.user_at(seat) for seat in before.to_move}
    was_out = {s.user_id for s in before.seats if s.out}
    gone = {s.user_id for s in after.seats if s.out and s.user_id not in was_out}
    if by is not None and by not in late and (late & gone or not after.status.is_live):
        return "claimed", by  # ``Clocks.claim_win`` says who claimed
    if not after.status.is_live:
        return "closed", None
    if after.ply == before.ply:
        return "extended", by
    return _lapsed(before, after)


def settled(before: MatchRecord, after: MatchRecord, told: Sequence[Event],
            view: Callable[[], MatchView], by: int | None) -> list[Event]:
    """``told``, the change's own events, followed by the questions of ``before`` that
    ``after`` answered or made moot (``by``: who acted, when someone did), as
    ``OfferSettled`` events about ``after``'s view (made by ``view`` only when there is
    one: most changes, moves, settle nothing). A turn that passed closes with the
    change's ``TurnStarted`` (``closes``: the ply its card's buttons name) when there is
    one, else with an ``OfferSettled`` "turn" last of all."""
    found: list[tuple[str, str, int | None]] = []
    challenge = _challenge(before, after, by)
    if challenge is not None:
        found.append(("challenge", *challenge))
    offer = before.draw_offer
    if offer is not None and (after.draw_offer is None or after.draw_offer.by != offer.by):
        reason = after.result.reason if after.result is not None else ""
        agreed = reason == "agreement" or reason.endswith(DRAW_AGREED_EARLY)
        found.append(("draw", *_answered(before, after, offer.by, by, agreed)))
    asked = _takeback(before)
    if asked is not None and _takeback(after) != asked:
        found.append(("takeback", *_answered(
            before, after, asked.by, by, after.ply < before.ply and after.status.is_live)))
    pause = _pause(before)
    if pause is not None and _pause(after) != pause:
        found.append(("pause", *_answered(
            before, after, pause.by, by,
            after.clock.paused is not None and after.clock.paused != before.clock.paused)))
    claim = _claim(before, after, by)
    if claim is not None:
        found.append(("claim", *claim))
    events = list(told)
    turn = _turn_passed(before, after)
    if turn:
        for n, event in enumerate(events):
            if isinstance(event, TurnStarted):  # the new turn's post closes the old card
                events[n], turn = dataclasses.replace(event, closes=before.ply), False
                break
    if not found and not turn:
        return events
    shown = view()
    # the turn's card last: it says nothing new, it only loses its buttons
    return [*events,
            *(OfferSettled(shown, offer_, outcome, who) for offer_, outcome, who in found),
            *([OfferSettled(shown, "turn", "passed", None, before.ply)] if turn else [])]
