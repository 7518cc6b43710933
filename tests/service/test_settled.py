"""Questions asked with buttons say what became of them (``service.settled``): every change
that answers a challenge, lobby, draw offer, takeback or pause, or lets one lapse, is
followed by an ``OfferSettled`` stored with it, whichever way the answer came; a
four-player draw one more player agreed to is told to everyone (``DrawAccepted``)."""

from __future__ import annotations

import json

from service import (
    DrawAccepted,
    MatchEnded,
    MatchService,
    OfferSettled,
    Repository,
    TurnStarted,
)
from tests.service.conftest import (
    ALICE,
    BOB,
    CAROL,
    CHANNEL,
    DAVE,
    EVE,
    GUILD,
    Recorder,
    SetClock,
    closes,
    play_random,
    start_four,
    start_match,
)


def settled(recorder: Recorder) -> list[tuple[str, str, int | None]]:
    """The questions settled so far (a turn's card apart: ``recorder.turns``)."""
    return [(e.offer, e.outcome, e.by) for e in recorder.of(OfferSettled)
            if isinstance(e, OfferSettled)]


async def test_a_lobby_filled_or_withdrawn_is_settled_once(service: MatchService,
                                                          recorder: Recorder) -> None:
    m = await service.challenge(GUILD, CHANNEL, ALICE, "alquerque-grande",
                                options={"players": 4, "mode": "teams"})
    await service.join(m.id, BOB)
    await service.join(m.id, CAROL)
    await service.cancel(m.id, CAROL)  # a member leaving: the lobby stays open
    await service.join(m.id, CAROL)
    assert settled(recorder) == []
    await service.join(m.id, DAVE)
    assert settled(recorder) == [("challenge", "filled", DAVE)]
    other = await service.challenge(GUILD, CHANNEL, ALICE, "alquerque-grande",
                                    options={"players": 4, "mode": "teams"})
    await service.join(other.id, EVE)
    await service.cancel(other.id, ALICE)
    assert settled(recorder)[-1] == ("challenge", "withdrawn", ALICE)


async def test_draw_offers_accepted_declined_withdrawn_lapsed_or_closed(
        service: MatchService, recorder: Recorder) -> None:
    m = await start_match(service, "xiangqi")
    await service.move(m.id, ALICE, "h3-e3")
    await service.move(m.id, BOB, "h8-e8")
    before = len(settled(recorder))
    await service.offer_draw(m.id, ALICE)
    await service.decline_draw(m.id, BOB)
    await service.offer_draw(m.id, ALICE)
    await service.decline_draw(m.id, ALICE)
    await service.offer_draw(m.id, BOB)
    await service.move(m.id, ALICE, "b1-c3")  # Alice moves instead of answering
    lapsed = recorder.events[-1]
    assert isinstance(recorder.events[-2], TurnStarted)  # the move's post goes first
    assert isinstance(lapsed, OfferSettled) and lapsed.match.ply == 3
    # the last turn's card closes with the move's post, the ply its buttons name
    assert recorder.turns[-1] is recorder.events[-2] and closes(recorder.turns[-1]) == 2
    await service.offer_draw(m.id, BOB)
    await service.move(m.id, BOB, "b10-c8")  # the offerer's own move keeps his offer
    await service.accept_draw(m.id, ALICE)
    assert settled(recorder)[before:] == [
        ("draw", "declined", BOB), ("draw", "withdrawn", ALICE), ("draw", "lapsed", None),
        ("draw", "accepted", ALICE)]  # Bob's offer, accepted by Alice
    assert isinstance(recorder.events[-2], MatchEnded)
    again = await start_match(service, "xiangqi")
    await service.move(again.id, ALICE, "h3-e3")
    await service.offer_draw(again.id, BOB)
    await service.resign(again.id, ALICE)  # the match ends another way
    assert settled(recorder)[-1] == ("draw", "closed", None)


async def test_a_four_player_draw_tells_everyone_who_agreed_and_whom_it_waits_for(
        service: MatchService, recorder: Recorder) -> None:
    m = await start_four(service)
    await service.offer_draw(m.id, BOB)
    await service.accept_draw(m.id, CAROL)
    told = recorder.events[-1]
    assert isinstance(told, DrawAccepted)
    assert told.by == CAROL and set(told.waiting) == {ALICE, DAVE}  # in seat order
    assert told.match.draw_accepted == (CAROL,)
    await service.offer_draw(m.id, DAVE)  # a second "offer" accepts it
    told = recorder.events[-1]
    assert isinstance(told, DrawAccepted) and (told.by, told.waiting) == (DAVE, (ALICE,))
    assert [o for o in settled(recorder) if o[0] == "draw"] == []  # its buttons stay
    await service.accept_draw(m.id, ALICE)
    assert settled(recorder)[-1] == ("draw", "accepted", ALICE)


async def test_takebacks_accepted_declined_or_lapsed(service: MatchService,
                                                     recorder: Recorder) -> None:
    m = await start_match(service, "xiangqi", rated=False)
    await service.move(m.id, ALICE, "h3-e3")
    await service.request_takeback(m.id, ALICE)
    await service.decline_takeback(m.id, BOB)
    await service.request_takeback(m.id, ALICE)
    await service.accept_takeback(m.id, BOB)
    await service.move(m.id, ALICE, "h3-e3")
    await service.request_takeback(m.id, ALICE)
    await service.move(m.id, BOB, "h8-e8")
    assert settled(recorder)[-3:] == [("takeback", "declined", BOB),
                                      ("takeback", "accepted", BOB),
                                      ("takeback", "lapsed", None)]


async def test_pauses_accepted_declined_or_lapsed(service: MatchService,
                                                  recorder: Recorder) -> None:
    m = await start_match(service, "xiangqi", rated=False)
    await service.propose_pause(m.id, ALICE, 2)
    await service.decline_pause(m.id, BOB)
    await service.propose_pause(m.id, BOB, 2)
    await service.move(m.id, ALICE, "h3-e3")
    await service.propose_pause(m.id, ALICE, 2)
    await service.accept_pause(m.id, BOB)
    assert settled(recorder)[-3:] == [("pause", "declined", BOB), ("pause", "lapsed", None),
                                      ("pause", "accepted", BOB)]


async def test_settled_events_are_stored_with_their_change(
        service: MatchService, repo: Repository, recorder: Recorder) -> None:
    m = await start_match(service, "xiangqi")
    stored = await repo.pending_outbox(m.id)
    assert [e.kind for e in stored][-1] == "offer-settled"  # the challenge's post
    await service.move(m.id, ALICE, "h3-e3")
    await service.offer_draw(m.id, BOB)
    await service.decline_draw(m.id, ALICE)
    kinds = [e.kind for e in await repo.pending_outbox(m.id)]
    assert kinds[-2:] == ["draw-declined", "offer-settled"]


def last_turn(recorder: Recorder) -> int | None:
    """The ply of the last turn whose card was closed."""
    return closes(recorder.turns[-1])


def turn_closed_last(recorder: Recorder) -> OfferSettled:
    """The change's last event closes a turn without a new turn's post: an
    ``OfferSettled`` "turn", after the change's own events."""
    turn = recorder.all[-1]
    assert isinstance(turn, OfferSettled) and turn.offer == "turn" \
        and turn is recorder.turns[-1]
    return turn


async def test_a_turns_card_closes_once_the_turn_is_over_and_last(
        service: MatchService, recorder: Recorder) -> None:
    """A move, a takeback and the end of the match close the turn (its ply named: the
    card's buttons name it): a move with its next turn's post, the others after the
    change's own events; nothing else does."""
    m = await start_match(service, "xiangqi", rated=False)
    first = m.ply
    assert recorder.turns == []  # the start closes nothing
    await service.move(m.id, ALICE, "h3-e3")
    turn = recorder.turns[-1]
    assert isinstance(turn, TurnStarted) and turn.closes == first
    assert turn is recorder.all[-1]  # no entry of its own
    count = len(recorder.turns)
    await service.offer_draw(m.id, ALICE)  # the turn goes on: its card stays
    await service.give_time(m.id, ALICE)
    assert len(recorder.turns) == count
    await service.request_takeback(m.id, ALICE)
    await service.accept_takeback(m.id, BOB)  # back to the first turn: a new card
    turn = turn_closed_last(recorder)
    assert (turn.offer, turn.outcome, turn.by, turn.ply) == ("turn", "passed", None,
                                                             first + 1)
    assert settled(recorder)[-2:] == [("draw", "taken-back", None),
                                      ("takeback", "accepted", BOB)]
    await service.move(m.id, ALICE, "h3-e3")
    await service.resign(m.id, BOB)
    assert turn_closed_last(recorder).ply == first + 1
    assert isinstance(recorder.events[-1], MatchEnded)


async def test_a_four_player_turn_skipped_and_a_draw_offer_a_leaver_made_moot(
        service: MatchService, clock: SetClock, recorder: Recorder) -> None:
    m = await start_four(service, "fast", on_timeout="skip")
    m = await play_random(service, m.id, 4, seed=3)
    ply, late = m.ply, m.to_move[0]
    offerer = next(u for u in m.players() if u != late)
    await service.offer_draw(m.id, offerer)
    clock.advance(days=1, minutes=1)
    await service.sweep_deadlines()
    m = await service.get_match(m.id)
    assert m.status.is_live and m.ply == ply + 1  # the game goes on without him
    assert last_turn(recorder) == ply  # with the next seat's turn post
    assert isinstance(recorder.turns[-1], TurnStarted)
    assert settled(recorder)[-1] == ("draw", "left", late)


async def _lapsed_claim(service: MatchService, clock: SetClock) -> int:
    """A claim-win match whose clock lapsed for Alice, Bob waiting for his claim."""
    m = await service.challenge(GUILD, CHANNEL, ALICE, "xiangqi", opponents=[BOB], seat=0,
                                clock="1", claim_win=True)
    await service.accept(m.id, BOB)
    await service.move(m.id, ALICE, "h3-e3")
    await service.move(m.id, BOB, "h8-e8")
    clock.advance(days=1, minutes=1)
    await service.sweep()
    assert (await service.get_match(m.id)).lapsed is not None
    return m.id


async def test_a_lapsed_clocks_claim_is_claimed_given_a_day_or_moot(
        service: MatchService, clock: SetClock, recorder: Recorder) -> None:
    claimed = await _lapsed_claim(service, clock)
    await service.keep_waiting(claimed, BOB)  # settles nothing: he may claim later
    assert [o for o in settled(recorder) if o[0] == "claim"] == []
    await service.claim_win(claimed, BOB)
    assert settled(recorder)[-1] == ("claim", "claimed", BOB)
    given = await _lapsed_claim(service, clock)
    await service.give_time(given, BOB)
    assert settled(recorder)[-1] == ("claim", "extended", BOB)
    moved = await _lapsed_claim(service, clock)
    await service.move(moved, ALICE, "b1-c3")  # the late player moves before any claim
    assert settled(recorder)[-1] == ("claim", "lapsed", None)
    ended = await _lapsed_claim(service, clock)
    await service.resign(ended, BOB)
    assert settled(recorder)[-1] == ("claim", "closed", None)


async def test_a_turns_closing_is_stored_with_the_next_turn(
        service: MatchService, repo: Repository) -> None:
    """A move stores one entry, the next turn's, naming the card it closes; the end
    of the match, with no next turn, stores the closing after the result."""
    m = await start_match(service, "xiangqi")
    await service.move(m.id, ALICE, "h3-e3")
    stored = await repo.pending_outbox(m.id)
    # the challenge; the first turn and the challenge's closing; the move's turn
    assert [e.kind for e in stored] == ["challenge", "turn", "offer-settled", "turn"]
    assert '"closes":null' in stored[1].payload and '"closes":0' in stored[3].payload
    await service.resign(m.id, BOB)
    stored = await repo.pending_outbox(m.id)
    assert [e.kind for e in stored][4:] == ["result", "offer-settled"]
    assert '"offer":"turn"' in stored[-1].payload and '"ply":1' in stored[-1].payload


async def test_a_move_stores_one_outbox_entry_as_before_turn_cards_closed(
        service: MatchService, repo: Repository) -> None:
    """Closing turn cards costs no entry per move: each move of a match that goes on
    stores exactly one (its turn), as it did before turn cards were closed."""
    m = await start_match(service, "xiangqi", rated=False)
    count = len(await repo.pending_outbox(m.id))
    m = await play_random(service, m.id, 6, seed=11)
    assert m.status.is_live and m.ply == 6
    stored = await repo.pending_outbox(m.id)
    assert [e.kind for e in stored[count:]] == ["turn"] * 6
    assert [json.loads(e.payload)["closes"] for e in stored[count:]] == list(range(6))
