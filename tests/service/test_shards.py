"""Several processes (issue 15): a guild belongs to shard ``(guild_id >> 22) % count``;
a process sweeps deadlines and delivers the outbox only for its own shards' guilds, so
two processes over one database act on every match exactly once. All three repositories."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from service import (
    DeadlineReminder,
    MatchEnded,
    MatchService,
    MatchStatus,
    Repository,
    ShardSet,
    shard_of,
)
from service.outbox import OutboxRelay
from service.records import OutboxEntry
from service.shards import LEASE_STALE, ShardLease, ShardsTaken
from tests.service.conftest import (
    ALICE,
    BOB,
    CHANNEL,
    Recorder,
    SetClock,
    play_random,
    told,
)
from tests.service.test_outbox import Courier

# Two guilds with snowflake-like ids: the high bits choose the shard, the low 22 do not.
GUILD_ON_0 = (1_000 << 22) | 0x3FFFFF  # shard 0 of 2
GUILD_ON_1 = (1_001 << 22) | 12345  # shard 1 of 2


def test_the_shard_is_discords_formula_on_the_high_bits() -> None:
    assert shard_of(GUILD_ON_0, 2) == 0 and shard_of(GUILD_ON_1, 2) == 1
    assert shard_of(81384788765712384, 1) == 0
    # a real guild id: its timestamp part (>> 22) is 46977624770, and 46977624770 % 4 == 2
    assert shard_of(197038439483310086, 4) == 2
    assert [shard_of((n << 22) | 77, 3) for n in range(6)] == [0, 1, 2, 0, 1, 2]
    with pytest.raises(ValueError, match="at least 1"):
        shard_of(5, 0)


def test_a_shard_set_checks_its_ids() -> None:
    assert ShardSet().owns(GUILD_ON_1) and ShardSet(2).owns(GUILD_ON_1)
    assert ShardSet(2, (0, 1)).everything and not ShardSet(2, (1,)).everything
    assert ShardSet(2, (1,)).owns(GUILD_ON_1) and not ShardSet(2, (1,)).owns(GUILD_ON_0)
    for bad, why in (((2,), "not below"), ((0, 0), "repeat"), ((), "at least one")):
        with pytest.raises(ValueError, match=why):
            ShardSet(2, bad)


async def _match_in(service: MatchService, guild: int, days: int = 3) -> int:
    m = await service.challenge(guild, CHANNEL, ALICE, "xiangqi", opponents=[BOB], seat=0,
                                days=days)
    await service.accept(m.id, BOB)
    await play_random(service, m.id, 4)
    return m.id


async def test_each_process_sweeps_only_its_own_guilds_and_each_deadline_fires_once(
        repo: Repository, clock: SetClock) -> None:
    first, second = Recorder(), Recorder()
    on_0 = MatchService(repo, first, clock, rng=random.Random(1), shards=ShardSet(2, (0,)))
    on_1 = MatchService(repo, second, clock, rng=random.Random(1), shards=ShardSet(2, (1,)))
    a = await _match_in(on_0, GUILD_ON_0)
    b = await _match_in(on_1, GUILD_ON_1)
    first.events.clear()
    second.events.clear()
    clock.advance(days=2, hours=1)  # less than a day left: reminders
    reminded = [*await on_0.sweep(), *await on_1.sweep(), *await on_0.sweep(),
                *await on_1.sweep()]
    assert sorted((type(e), e.match.id) for e in reminded) == [
        (DeadlineReminder, a), (DeadlineReminder, b)]
    assert [e.match.id for e in first.events] == [a]  # each by its own process
    assert [e.match.id for e in second.events] == [b]
    clock.advance(days=1)  # past the deadlines: timeouts
    on_1_first = told(await on_1.sweep())
    assert [(type(e), e.match.id) for e in on_1_first] == [(MatchEnded, b)]
    assert (await on_0.get_match(a)).status is MatchStatus.ACTIVE  # not shard 1's to end
    ended = told([*await on_0.sweep(), *await on_0.sweep(), *await on_1.sweep()])
    assert [(type(e), e.match.id) for e in ended] == [(MatchEnded, a)]
    assert [type(e) for e in first.events + second.events].count(MatchEnded) == 2


def _owned_by(shards: ShardSet) -> Callable[[OutboxEntry], bool]:
    return lambda entry: shards.owns(entry.guild_id)


async def test_each_process_delivers_only_its_own_guilds_outbox_entries(
        repo: Repository, clock: SetClock) -> None:
    stopped = Recorder()  # the writers died before delivering anything
    writer = MatchService(repo, stopped, clock, rng=random.Random(1))
    a = await _match_in(writer, GUILD_ON_0)
    b = await _match_in(writer, GUILD_ON_1)
    waiting = await repo.pending_outbox()
    assert {e.match_id for e in waiting} == {a, b}
    couriers = Courier(), Courier()
    relays = [OutboxRelay(repo, courier, clock, accepts=_owned_by(ShardSet(2, (shard,))))
              for shard, courier in enumerate(couriers)]
    for relay in relays + relays:  # both processes start, and start again
        await relay.recover()
        await relay.poll()
        assert await relay.drain(5)
    assert {e.match_id for e, _ in couriers[0].delivered} == {a}
    assert {e.match_id for e, _ in couriers[1].delivered} == {b}
    delivered = sorted(e.id for c in couriers for e, _ in c.delivered)
    assert delivered == sorted(e.id for e in waiting)  # every entry, once
    assert await repo.pending_outbox() == []


async def test_a_second_process_given_a_taken_shard_refuses_to_start(
        repo: Repository, clock: SetClock) -> None:
    first = ShardLease(repo, ShardSet(4, (0, 1)), clock, owner="first")
    await first.acquire()
    twin = ShardLease(repo, ShardSet(4, (1, 2)), clock, owner="twin")
    with pytest.raises(ShardsTaken, match=r"shards \[1\] of 4 are run by another") as e:
        await twin.acquire()
    assert e.value.taken == (1,)
    # all or nothing: the refused process holds no lease, so shard 2 is still free
    await ShardLease(repo, ShardSet(4, (2, 3)), clock, owner="other").acquire()
    with pytest.raises(ShardsTaken, match="SHARD_COUNT"):  # counting differently
        await ShardLease(repo, ShardSet(8, (7,)), clock, owner="odd").acquire()
    clock.advance(seconds=60)
    await first.renew()  # the first keeps its shards while it beats
    clock.advance(seconds=60)
    with pytest.raises(ShardsTaken):
        await twin.acquire()


async def test_a_dead_or_stopped_processs_shards_can_start_elsewhere(
        repo: Repository, clock: SetClock) -> None:
    dead = ShardLease(repo, ShardSet(2, (0,)), clock, owner="dead")
    await dead.acquire()
    clock.advance(seconds=LEASE_STALE.total_seconds() + 1)  # it stopped beating
    successor = ShardLease(repo, ShardSet(2, (0,)), clock, owner="successor")
    await successor.acquire()
    with pytest.raises(ShardsTaken):  # the dead one, back, is now the second
        await dead.renew()
    await successor.release()
    await dead.acquire()  # a clean stop frees the shard at once


async def test_one_process_by_default_still_refuses_a_twin(repo: Repository,
                                                          clock: SetClock) -> None:
    await ShardLease(repo, ShardSet(), clock).acquire()
    with pytest.raises(ShardsTaken, match=r"shards \[0\] of 1"):
        await ShardLease(repo, ShardSet(), clock).acquire()
