"""The daily digest (issue 42): asked for per person and server, sent a day later and
then once a day, each once whoever sweeps and however long the sweep was away; written
into the outbox with the step to the next one (so a restart delivers it); a day without
a live game sends nothing; turned off, none."""

from __future__ import annotations

import random
from datetime import timedelta

from service import DigestDue, MatchService, Repository
from service.outbox import entry_of, event_of
from tests.service.conftest import ALICE, BOB, CAROL, CHANNEL, GUILD, Recorder, SetClock


async def test_once_a_day_and_once_whoever_sweeps(repo: Repository) -> None:
    clock, recorder = SetClock(), Recorder()
    service = MatchService(repo, recorder, clock, rng=random.Random(1))
    other = MatchService(repo, Recorder(), clock, rng=random.Random(2))  # another process
    m = await service.challenge(GUILD, CHANNEL, ALICE, "xiangqi", opponents=[BOB], seat=0)
    await service.accept(m.id, BOB)
    first = await service.set_digest(GUILD, ALICE, True)
    assert first == clock.now() + timedelta(days=1)
    assert await service.digest_status(GUILD, ALICE) == first
    assert await service.sweep_digests() == []  # not yet
    clock.advance(days=1)
    (sent,) = await service.sweep_digests()
    assert isinstance(sent, DigestDue) and sent.user_id == ALICE
    assert [g.match.id for g in sent.games] == [m.id]
    assert sent.games[0].names == ("Red", "Black")  # no names known: the seats
    assert await other.sweep_digests() == []  # the other process finds it sent
    (stored,) = [e for e in await repo.pending_outbox() if e.kind == "digest"]
    again = event_of(stored)  # self-contained: a restart delivers it as it was
    assert isinstance(again, DigestDue) and again.user_id == ALICE
    assert again.games[0].board.position.to_text() == \
        sent.games[0].board.position.to_text()
    assert await service.digest_status(GUILD, ALICE) == first + timedelta(days=1)

    clock.advance(days=3, hours=5)  # away for days: one digest, then the same hour
    assert len(await other.sweep_digests()) == 1
    assert await service.digest_status(GUILD, ALICE) == first + timedelta(days=4)
    assert await service.sweep_digests() == []
    assert len(recorder.of(DigestDue)) == 1


async def test_nothing_to_show_sends_nothing_and_off_is_off(service: MatchService,
                                                            clock: SetClock) -> None:
    await service.set_digest(GUILD, CAROL, True)
    clock.advance(days=1, minutes=1)
    assert await service.sweep_digests() == []  # no live game: nothing, the day passes
    assert await service.digest_status(GUILD, CAROL) is not None
    assert await service.set_digest(GUILD, CAROL, False) is None
    assert await service.digest_status(GUILD, CAROL) is None
    clock.advance(days=2)
    assert await service.sweep_digests() == []


def test_a_digest_entry_reads_back_without_games() -> None:
    from service.views import notice_lane
    empty = DigestDue(notice_lane(GUILD, 0, 7), ALICE, ())
    entry = entry_of(empty, 0, SetClock().now())
    back = event_of(entry)
    assert back == empty and entry.kind == "digest"
