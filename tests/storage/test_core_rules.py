"""Storage applies the rules the core hands it and has none of its own (issue 37): the
rating update comes with the ``RatingChange`` (``rows_after``), the downtime shift with
the ``Downtime`` (``moved``). Rules no real game uses show that each store writes what
the rule says, read and written in its one transaction; on memory, SQLite and
PostgreSQL."""

from __future__ import annotations

import dataclasses
from collections.abc import AsyncIterator, Mapping
from datetime import timedelta
from pathlib import Path

import pytest

from service import MatchRecord, MatchStatus, RatingChange, Repository
from service.records import ClockState, Downtime
from tests.conftest import REPOSITORY_KINDS, open_repository_of
from tests.storage.test_contract import T0, record


@pytest.fixture(params=REPOSITORY_KINDS)
async def repo(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Repository]:
    r = await open_repository_of(request.param, tmp_path, request)
    yield r
    await r.close()


async def test_the_ratings_written_are_the_rule_s_from_the_stored_ones(
        repo: Repository) -> None:
    seen: list[Mapping[int, tuple[float, float] | None]] = []

    def rate(current: Mapping[int, tuple[float, float] | None]
             ) -> Mapping[int, tuple[float, float]]:
        seen.append(dict(current))  # what the store read, inside its transaction
        return {u: (40.0 + len(seen), 2.0) if u == 11 else (10.0, 3.0 + len(seen))
                for u in current}

    for _ in range(2):
        m = await repo.create_match(record())
        await repo.save(m, dataclasses.replace(m, status=MatchStatus.FINISHED), (),
                        RatingChange(1, "xiangqi", {11: "win", 22: "loss"}, rate))
    assert seen == [{11: None, 22: None}, {11: (41.0, 2.0), 22: (10.0, 4.0)}]
    rows, total = await repo.leaderboard(1, "xiangqi", 0, 10)
    assert total == 2
    assert [(r.user_id, r.mu, r.sigma, r.wins, r.losses, r.draws) for r in rows] == [
        (11, 42.0, 2.0, 2, 0, 0), (22, 10.0, 5.0, 0, 2, 0)]


async def test_the_downtime_shift_is_the_rule_s(repo: Repository) -> None:
    # a plain clock (nothing paused) moves by the whole gap, as the rule promises; any
    # other by what the rule says (here: 7 minutes, which no real rule gives); a match the
    # rule leaves alone keeps its version
    plain = await repo.create_match(record())
    paused = await repo.create_match(record(
        clock=ClockState(paused_until=T0 + timedelta(days=1))))
    left = await repo.create_match(record(guild=2, clock=ClockState(claim=True)))
    await repo.beat(T0)
    later = T0 + timedelta(hours=5)
    asked: list[int] = []

    def moved(rec: MatchRecord) -> MatchRecord | None:
        asked.append(rec.id)
        if rec.id == left.id:
            return None
        assert rec.deadline is not None and rec.remind_at is not None
        if rec.clock == ClockState():
            return dataclasses.replace(rec, deadline=rec.deadline + timedelta(hours=5),
                                       remind_at=rec.remind_at + timedelta(hours=5))
        return dataclasses.replace(rec, deadline=rec.deadline + timedelta(minutes=7),
                                   remind_at=None)

    changed = await repo.extend_clocks(Downtime(T0, later, moved))
    assert changed is not None
    assert sorted(m.id for m in changed) == [plain.id, paused.id]
    assert paused.id in asked and left.id in asked
    now_plain, now_paused, now_left = [await repo.load_match(m.id)
                                       for m in (plain, paused, left)]
    assert now_plain is not None and plain.deadline is not None
    assert now_plain.deadline == plain.deadline + timedelta(hours=5)
    assert now_paused is not None and paused.deadline is not None
    assert (now_paused.deadline, now_paused.remind_at) == (
        paused.deadline + timedelta(minutes=7), None)
    assert now_paused.version == paused.version + 1
    assert now_left == left
    assert await repo.heartbeat() == later
    # the beat moved on: the same downtime is not applied twice
    assert await repo.extend_clocks(Downtime(T0, later, moved)) is None
