"""The outbox (issue 12): every event is stored with the change that causes it, reads back
as the same event, and the relay delivers it in order per match, retries what is
transient, removes it only once delivered, and delivers what a restart or a crash left,
once. Both repositories."""

from __future__ import annotations

import dataclasses
import logging
import random
from datetime import timedelta

import pytest

from service import Conflict, Event, MatchEnded, MatchService, Repository, TurnStarted
from service.events import StandingsChanged
from service.outbox import KINDS, Announce, OutboxRelay, Retry, _view_data, entry_of, event_of
from service.records import MatchStatus, OutboxEntry
from service.tournaments.table import StandingsTable
from service.views import MatchView, ResultView, SeatView
from tests.service.conftest import (
    ALICE,
    BOB,
    CAROL,
    CHANNEL,
    DAVE,
    GUILD,
    Recorder,
    SetClock,
    play_random,
)


def comparable(event: Event) -> Event:
    """An event as its entry keeps it: no record (read again for a replay), the board as
    a position that compares by its text."""
    if isinstance(event, MatchEnded):
        event = dataclasses.replace(event, record=None, ratings=())
    board = getattr(event, "board", None)
    if board is not None:
        event = dataclasses.replace(event, board=dataclasses.replace(
            board, position=board.position.to_text()))
    return event


async def play_everything(service: MatchService, clock: SetClock) -> None:
    """Every kind of event: challenges, a lobby, turns, a draw offered and declined, a
    reminder, a player out, a forced result, clocks extended."""
    m = await service.challenge(GUILD, CHANNEL, ALICE, "xiangqi", opponents=[BOB], seat=0)
    await service.accept(m.id, BOB)
    await service.move(m.id, ALICE, "h3-e3")
    await service.offer_draw(m.id, BOB)
    await service.decline_draw(m.id, ALICE)
    clock.advance(days=2, hours=1)
    await service.sweep()  # the reminder
    await service.resume(now=clock.now())
    clock.advance(days=3)
    await service.resume(now=clock.now())  # clocks extended
    gone = await service.challenge(GUILD, CHANNEL, CAROL, "damas", opponents=[DAVE])
    await service.decline(gone.id, DAVE)
    lobby = await service.challenge(GUILD, CHANNEL, ALICE, "alquerque-grande",
                                    options={"players": 4, "mode": "teams"})
    for u in (BOB, CAROL):
        await service.join(lobby.id, u)
    four = await service.join(lobby.id, DAVE)
    four = await play_random(service, four.id, 4)  # everyone moves: a resignation counts
    await service.resign(four.id, four.to_move[0])  # a player out, the game goes on
    await service.move(m.id, BOB, "h8-e8")
    await service.resign(m.id, BOB)  # a result, rated: both moved
    setup = await service.challenge(GUILD, CHANNEL, CAROL, "querni", opponents=[DAVE], seat=0,
                                    options={"setup": "choose"}, clock="2d+1d/5d")
    await service.accept(setup.id, DAVE)
    await service.start_vacation(GUILD, CAROL, 1)  # both arrange, each on his own clock


async def test_every_announced_event_is_an_outbox_entry_that_reads_back_as_it(
        repo: Repository) -> None:
    recorder = Recorder()
    clock = SetClock()
    service = MatchService(repo, recorder, clock, rng=random.Random(4))
    await play_everything(service, clock)
    stored = await repo.pending_outbox(limit=1000)
    assert [e.kind for e in stored] == [KINDS[type(e)] for e in recorder.all]
    assert {e.kind for e in stored} >= {"challenge", "lobby", "challenge-closed", "turn",
                                        "reminder", "player-out", "draw-offer",
                                        "draw-declined", "result", "clocks-extended"}
    for entry, live in zip(stored, recorder.all, strict=True):
        assert (entry.match_id, entry.version) == (live.match.id, live.match.version)
        assert comparable(event_of(entry)) == comparable(live), entry.kind
    assert any(len(e.match.own_deadlines) == 2 for e in recorder.events)
    ended = [e for e in recorder.events if isinstance(e, MatchEnded)]
    assert ended and ended[-1].ratings and ended[-1].record is not None  # live: complete


async def test_a_lost_race_stores_no_entry(repo: Repository) -> None:
    recorder = Recorder()
    service = MatchService(repo, recorder, SetClock(), rng=random.Random(1))
    m = await service.challenge(GUILD, CHANNEL, ALICE, "xiangqi", opponents=[BOB])
    rec = await repo.load_match(m.id)
    assert rec is not None
    before = await repo.pending_outbox()
    await repo.save(rec, dataclasses.replace(rec, rated=False))  # someone else wrote first
    announce = Announce(lambda s: [TurnStarted(service.core.view(s), (ALICE,), None)],
                        SetClock().now())
    with pytest.raises(Conflict):
        await repo.save(rec, dataclasses.replace(rec, days_per_move=5), outbox=announce)
    assert await repo.pending_outbox() == before


async def test_dms_closed_are_remembered_until_told(repo: Repository) -> None:
    await repo.set_dms_closed(BOB, True)
    await repo.set_dms_closed(CAROL, True)
    await repo.set_dms_closed(CAROL, True)
    assert await repo.dms_closed_untold() == [BOB, CAROL]
    await repo.dms_closed_told(BOB)
    await repo.set_dms_closed(BOB, True)  # refused again: he was told already
    assert await repo.dms_closed_untold() == [CAROL]
    await repo.set_dms_closed(CAROL, False)  # a DM went through: forgotten
    assert await repo.dms_closed_untold() == []


class Courier:
    """A deliverer that fails as told, then records what it delivered."""

    def __init__(self, failures: list[BaseException] | None = None) -> None:
        self.failures = failures or []
        self.delivered: list[tuple[OutboxEntry, Event]] = []

    async def __call__(self, entry: OutboxEntry, event: Event) -> None:
        if self.failures:
            raise self.failures.pop(0)
        self.delivered.append((entry, event))


async def game(repo: Repository, relay_or_recorder: object, clock: SetClock) -> int:
    service = MatchService(repo, relay_or_recorder, clock, rng=random.Random(2))  # type: ignore[arg-type]
    m = await service.challenge(GUILD, CHANNEL, ALICE, "xiangqi", opponents=[BOB], seat=0)
    await service.accept(m.id, BOB)
    await service.move(m.id, ALICE, "h3-e3")
    await service.move(m.id, BOB, "h8-e8")  # both moved: the resignation is rated
    await service.resign(m.id, BOB)
    return m.id


GAME_KINDS = ["challenge", "turn", "offer-settled", "turn", "turn", "result",
              "offer-settled"]
"""The entries of ``game``: the start's turn, then the challenge's post closed; each
move's turn (which closes the card of the turn before it: ``TurnStarted.closes``); the
result, then the card of the turn it ended closed."""


async def test_the_relay_delivers_in_order_with_the_live_events(repo: Repository) -> None:
    clock = SetClock()
    courier = Courier()
    relay = OutboxRelay(repo, courier, clock)
    await game(repo, relay, clock)
    assert await relay.drain(5)
    kinds = [e.kind for e, _ in courier.delivered]
    assert kinds == GAME_KINDS
    assert await repo.pending_outbox() == []
    ended = courier.delivered[-2][1]
    assert isinstance(ended, MatchEnded) and ended.ratings  # the live event, not the entry


async def test_transient_failures_are_retried_honouring_retry_after(
        repo: Repository, caplog: pytest.LogCaptureFixture) -> None:
    clock = SetClock()
    slept: list[float] = []

    async def sleep(seconds: float) -> None:
        slept.append(seconds)

    courier = Courier([Retry(7.5), Retry(), Retry(), Retry(), RuntimeError("bad request")])
    relay = OutboxRelay(repo, courier, clock, backoff=1.0, max_backoff=3.0, sleep=sleep)
    with caplog.at_level(logging.ERROR):
        await game(repo, relay, clock)
        assert await relay.drain(5)
    assert slept == [7.5, 1.0, 2.0, 3.0]  # retry_after, then backoff, capped
    # the permanent failure dropped one entry, logged once; the rest went out in order
    assert [e.kind for e, _ in courier.delivered] == GAME_KINDS[1:]
    assert caplog.text.count("dropped") == 1
    assert await repo.pending_outbox() == []


async def test_a_crash_between_commit_and_delivery_loses_nothing_and_repeats_nothing(
        repo: Repository) -> None:
    clock = SetClock()
    crashed = Recorder()  # the process died after each commit: nobody delivered anything
    match_id = await game(repo, crashed, clock)
    waiting = await repo.pending_outbox()
    assert [e.kind for e in waiting] == GAME_KINDS
    courier = Courier()
    restarted = OutboxRelay(repo, courier, clock)  # the next start
    assert await restarted.recover() == len(GAME_KINDS)
    assert await restarted.drain(5)
    assert [(e.id, e.kind) for e, _ in courier.delivered] == [(e.id, e.kind)
                                                             for e in waiting]
    decoded = courier.delivered[1][1]
    assert isinstance(decoded, TurnStarted) and decoded.board is not None
    assert decoded.match.id == match_id
    again = OutboxRelay(repo, courier, clock)  # and another start: nothing twice
    assert await again.recover() == 0
    await again.poll()
    assert await again.drain(5)
    assert len(courier.delivered) == len(GAME_KINDS)


async def test_an_entry_whose_live_event_never_came_goes_out_after_the_grace(
        repo: Repository) -> None:
    clock = SetClock()
    courier = Courier()
    relay = OutboxRelay(repo, courier, clock, live_grace=timedelta(seconds=30))
    await relay.recover()
    await game(repo, Recorder(), clock)  # stored by this process, never handed over
    await relay.poll()
    assert await relay.drain(5)
    assert courier.delivered == []  # its live event may still come: it waits
    clock.advance(seconds=31)
    await relay.poll()
    assert await relay.drain(5)
    assert [e.kind for e, _ in courier.delivered] == GAME_KINDS


async def test_the_relay_says_which_entries_may_have_gone_out_already(
        repo: Repository, monkeypatch: pytest.MonkeyPatch) -> None:
    """Those an earlier process left (pending when it recovered, delivered from their
    payload: that process may have posted them and died before deleting them) and those
    it delivered and failed to delete: their deliverer looks for their posts before
    posting again. Its own entries, delivered with their live events, are not."""
    clock = SetClock()
    seen: list[bool] = []

    async def courier(entry: OutboxEntry, event: Event) -> None:
        seen.append(relay.may_be_out(entry))

    relay = OutboxRelay(repo, courier, clock)
    await game(repo, Recorder(), clock)  # left by a process that died
    await relay.recover()
    assert await relay.drain(5)
    assert seen == [True] * len(GAME_KINDS)
    seen.clear()
    mark = repo.mark_delivered
    failed: list[int] = []

    async def dies_once(entry_id: int) -> None:
        if not failed:
            failed.append(entry_id)
            raise RuntimeError("killed before the deletion")
        await mark(entry_id)

    monkeypatch.setattr(repo, "mark_delivered", dies_once)
    await game(repo, relay, clock)
    assert await relay.drain(5)
    assert seen == [False]  # the first, delivered; its deletion failed: the lane stopped
    clock.advance(seconds=31)  # the live events' grace: they are read from the outbox
    await relay.poll()
    assert await relay.drain(5)
    assert seen == [False, True] + [False] * (len(GAME_KINDS) - 1)
    assert await repo.pending_outbox() == []


def test_an_unreadable_entry_is_an_outbox_error() -> None:
    bad = OutboxEntry(1, 1, 1, 0, "turn", "{not json", SetClock().now(), 9)
    with pytest.raises(ValueError, match="does not read"):
        event_of(bad)
    with pytest.raises(ValueError, match="unknown outbox kind"):
        event_of(dataclasses.replace(bad, kind="fireworks"))



def test_a_turns_closed_ply_reads_back_and_an_older_entry_closes_nothing() -> None:
    """``TurnStarted.closes`` is stored with the turn; an entry stored before it was
    (no ``closes`` in its payload) reads back closing nothing."""
    view = MatchView(7, 1, 2, None, "damas", "Damas", {}, MatchStatus.ACTIVE, 3, (), (),
                     (3, 4), 2, 5, (4,), None, 3, True, None, "W:W1:B20", None, None, None)
    now = SetClock().now()
    entry = entry_of(TurnStarted(view, (4,), "a3-b4", 3, closes=2), 0, now)
    assert entry.kind == "turn" and '"closes":2' in entry.payload
    back = event_of(entry)
    assert isinstance(back, TurnStarted) and (back.closes, back.by) == (2, 3)
    started = event_of(entry_of(TurnStarted(view, (4,), None), 0, now))
    assert isinstance(started, TurnStarted) and started.closes is None
    older = dataclasses.replace(entry, payload=entry.payload.replace(',"closes":2', ""))
    assert "closes" not in older.payload
    read = event_of(older)
    assert isinstance(read, TurnStarted) and read.closes is None and read.by == 3


def test_a_views_plain_values_are_stored_as_they_are_without_a_deep_copy(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A view's plain values (numbers, texts, tuples of them) go into its entry as they
    are, with no deep copy (``dataclasses.asdict`` was a tenth of a move's time): each
    is what the deep copy gave, and none is mutable; the whole view reads back."""
    now = SetClock().now()
    later = now + timedelta(days=2)
    view = MatchView(
        7, 1, 2, 9, "alquerque-grande", "Alquerque grande", {"players": 4, "mode": "teams"},
        MatchStatus.ACTIVE, 3, (SeatView(0, 3, 0, "Ana", False, 1500.0, True),), (5,),
        (3, 4), 4, 12, (4,), later, 3, True, ResultView((0,), ((0,), (1,)), "resign"),
        "text", "a3-b4", 4, "broken", last_move_by=3, notify_by_dm=(3,), version=6,
        time_control="3d", claim_win=True, lapsed=now, away=((4, later),), takeback_by=3,
        own_deadlines=((3, later),), weekends=True, time_zones=((3, "Europe/Madrid"),),
        paused=(now, later), pause_offer_by=4, pause_offer_days=2, on_timeout="skip",
        continued_from=2, stand_ins=((4, 8),), skipped=((5, 9),), arranged=2, specials=1,
        draw_accepted=(3,))
    deep = dataclasses.asdict(view)
    monkeypatch.setattr(dataclasses, "asdict", None)  # never called
    data = _view_data(view)
    structured = {"options", "status", "deadline", "seats", "result", "lapsed", "away",
                  "own_deadlines", "time_zones", "paused", "stand_ins", "skipped"}
    assert set(data) == set(deep)
    for name in set(data) - structured:
        assert data[name] == deep[name] and type(data[name]) is type(deep[name]), name
        hash(data[name])  # immutable: sharing it with the view is safe
    back = event_of(entry_of(TurnStarted(view, (4,), "a3-b4", 3), 0, now))
    assert isinstance(back, TurnStarted) and back.match == view


def test_a_standings_tables_players_read_back_and_an_older_entry_has_none() -> None:
    """The player of each standings row rides the entry (the Discord edge names those
    it learnt since by them, ``StandingsTable.renamed``); an entry stored before they
    were kept reads back with none."""
    view = MatchView(7, 1, 2, None, "damas", "Damas", {}, MatchStatus.FINISHED, 3, (), (),
                     (3, 4), 2, 5, (), None, 3, True, None, "W:W1:B20", None, None, None)
    table = StandingsTable("t", "", ("#", "Player"), "rl", (("1", "Player 1"),), (), (), (4,))
    entry = entry_of(StandingsChanged(view, 9, 2, table), 0, SetClock().now())
    back = event_of(entry)
    assert isinstance(back, StandingsChanged) and back.table == table
    older = dataclasses.replace(entry, payload=entry.payload.replace(',"players":[4]', ""))
    assert '"players"' not in older.payload
    read = event_of(older)
    assert isinstance(read, StandingsChanged) and read.table.players == ()
