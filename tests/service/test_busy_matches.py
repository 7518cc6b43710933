"""Busy matches: moves, reads and sweeps racing each other on one SQLite file, in one
process and across two, never make a healthy match look broken (issue 20 §1).

A reader that sees a match row from after a move and its entries from before it (or the
other way round) has seen a race, not corruption: these tests fail if any such race ever
reaches a caller as ``MatchBroken``. Each race runs until a set number of moves and reads
have landed (never for a set time: on a loaded machine a timed race did too few moves to
mean anything, on an idle one more than it needs), with a cap on attempts so a race in
which nothing can land ends and fails; ``bench/bench_busy.py`` runs the same mix for
longer and prints the figures.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import subprocess
import sys
import textwrap
from pathlib import Path

from service import (
    MatchBroken,
    MatchService,
    MoveResult,
    ServiceError,
    StaleMove,
)
from storage import SqliteRepository
from tests.service.conftest import ALICE, BOB, CHANNEL, GUILD, Recorder, SetClock

ROOT = Path(__file__).resolve().parents[2]


async def _matches(service: MatchService, count: int) -> list[int]:
    ids = []
    for _ in range(count):
        m = await service.challenge(GUILD, CHANNEL, ALICE, "xiangqi", opponents=[BOB],
                                    days=3)
        ids.append((await service.accept(m.id, BOB)).id)
    return ids


class Race:
    """When a race is over: once ``moves`` moves and ``reads`` reads have landed, or
    after ``attempts`` tries of each racer (nothing landing: the race ends, and its
    counts fail the test)."""

    def __init__(self, tally: dict[str, int], moves: int, reads: int = 0,
                 attempts: int = 2000) -> None:
        self.tally, self.moves, self.reads, self.attempts = tally, moves, reads, attempts

    def goes_on(self, tries: int) -> bool:
        tally = self.tally
        return tries < self.attempts and (tally["moves"] < self.moves
                                          or tally["reads"] < self.reads)


async def _mover(service: MatchService, ids: list[int], seed: int, race: Race,
                 tally: dict[str, int]) -> None:
    rng = random.Random(seed)
    tries = 0
    while race.goes_on(tries):
        tries += 1
        match_id = rng.choice(ids)
        try:
            m = await service.get_match(match_id)
            if not m.to_move:
                continue
            p, _ = await service.position(match_id)
            moves = [mv for mv in p.legal_moves() if p.play(mv).outcome() is None]
            if not moves:
                continue
            text = p.variant.format_move(p, rng.choice(moves))
            await service.move(match_id, m.to_move[0], text, expected_ply=m.ply)
            tally["moves"] += 1
        except MatchBroken as e:
            tally["broken"] += 1
            tally.setdefault("first_broken", str(e))  # type: ignore[arg-type]
        except ServiceError:
            tally["refused"] += 1  # a lost race: StaleMove / NotYourTurn are expected
        await asyncio.sleep(0)


async def _reader(service: MatchService, ids: list[int], seed: int, race: Race,
                  tally: dict[str, int]) -> None:
    rng = random.Random(seed)
    tries = 0
    while race.goes_on(tries):
        tries += 1
        try:
            await service.history(rng.choice(ids))
            tally["reads"] += 1
        except MatchBroken as e:
            tally["broken"] += 1
            tally.setdefault("first_broken", str(e))  # type: ignore[arg-type]
        await asyncio.sleep(0)


async def test_moves_and_history_racing_in_one_process_are_never_broken(
        tmp_path: Path) -> None:
    repo = await SqliteRepository.open(tmp_path / "busy.db")
    service = MatchService(repo, Recorder(), SetClock(), rng=random.Random(3))
    ids = await _matches(service, 5)
    tally = {"moves": 0, "reads": 0, "refused": 0, "broken": 0}
    race = Race(tally, moves=40, reads=40)
    await asyncio.gather(*(_mover(service, ids, seed, race, tally) for seed in range(4)),
                         *(_reader(service, ids, 10 + seed, race, tally)
                           for seed in range(2)))
    assert tally["broken"] == 0, tally
    assert tally["moves"] >= 40 and tally["reads"] >= 40, tally
    assert await MatchService(repo, Recorder(), SetClock()).verify_all() == []
    await repo.close()


async def test_cold_caches_racing_for_one_ply_lose_with_stale_move(tmp_path: Path) -> None:
    """Right after a restart every cache is cold: of fifty submissions of the same ply
    one lands and every other is a StaleMove (never MatchBroken)."""
    repo = await SqliteRepository.open(tmp_path / "cold.db")
    setup = MatchService(repo, Recorder(), SetClock(), rng=random.Random(1))
    (match_id,) = await _matches(setup, 1)
    for trial in range(5):
        m = await setup.get_match(match_id)
        p, _ = await setup.position(match_id)
        texts = [p.variant.format_move(p, mv) for mv in p.legal_moves()
                 if p.play(mv).outcome() is None]
        # fifty cold services, as if fifty processes had just started
        workers = [MatchService(repo, Recorder(), SetClock()) for _ in range(50)]

        async def submit(w: MatchService, user: int, text: str, ply: int
                         ) -> MoveResult | ServiceError:
            try:
                return await w.move(match_id, user, text, expected_ply=ply)
            except ServiceError as e:
                return e

        results = await asyncio.gather(*(
            submit(w, m.to_move[0], texts[(i + trial) % len(texts)], m.ply)
            for i, w in enumerate(workers)))
        landed = [r for r in results if isinstance(r, MoveResult)]
        wrong = [r for r in results
                 if not isinstance(r, MoveResult | StaleMove)]
        assert len(landed) == 1, results
        assert wrong == [], wrong
    assert await MatchService(repo, Recorder(), SetClock()).verify_all() == []
    await repo.close()


async def test_sweep_racing_moves_never_calls_a_match_broken(tmp_path: Path) -> None:
    repo = await SqliteRepository.open(tmp_path / "sweep.db")
    clock = SetClock()
    service = MatchService(repo, Recorder(), clock, rng=random.Random(5))
    # the sweeper's clock is 2.5 days ahead: every reminder (a day before the 3-day
    # deadline) is due for it after each move, none of the deadlines is
    ahead = SetClock()
    ahead.advance(days=2.5)
    ids = await _matches(service, 5)
    tally = {"moves": 0, "reads": 0, "refused": 0, "broken": 0}
    race = Race(tally, moves=25)

    async def sweeping() -> None:
        tries = 0
        while race.goes_on(tries):
            tries += 1
            sweeper = MatchService(repo, Recorder(), ahead)  # a cold cache every time
            try:
                await sweeper.sweep()
            except MatchBroken:
                tally["broken"] += 1
            await asyncio.sleep(0)

    await asyncio.gather(*(_mover(service, ids, seed, race, tally) for seed in range(3)),
                         sweeping())
    assert tally["broken"] == 0, tally
    assert tally["moves"] >= 25, tally
    assert await MatchService(repo, Recorder(), clock).verify_all() == []
    await repo.close()


_CHILD = textwrap.dedent("""
    import asyncio, json, random, sys, time
    from service import MatchService
    from storage import SqliteRepository
    from tests.service.conftest import Recorder, SetClock
    from tests.service.test_busy_matches import Race, _mover

    async def main(path, seed, moves, ids):
        repo = await SqliteRepository.open(path)
        service = MatchService(repo, Recorder(), SetClock(), rng=random.Random(seed))
        tally = {"moves": 0, "reads": 0, "refused": 0, "broken": 0}
        race = Race(tally, moves=moves)
        print("ready", flush=True)
        sys.stdin.readline()  # both processes race from the same moment
        await asyncio.gather(*(_mover(service, ids, seed * 10 + i, race, tally)
                               for i in range(3)))
        await repo.close()
        print(json.dumps(tally))

    asyncio.run(main(sys.argv[1], int(sys.argv[2]), int(sys.argv[3]),
                     json.loads(sys.argv[4])))
""")


async def test_two_processes_on_one_file_never_see_a_broken_match(tmp_path: Path) -> None:
    path = tmp_path / "two.db"
    repo = await SqliteRepository.open(path)
    ids = await _matches(MatchService(repo, Recorder(), SetClock()), 5)
    await repo.close()
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    children = [subprocess.Popen([sys.executable, "-c", _CHILD, str(path), str(seed), "60",
                                  json.dumps(ids)], cwd=ROOT, env=env,
                                 stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                 stderr=subprocess.PIPE, text=True)
                for seed in (1, 2)]
    for child in children:
        assert child.stdout is not None and child.stdin is not None
        assert child.stdout.readline().strip() == "ready", child.communicate()[1]
    for child in children:
        assert child.stdin is not None
        child.stdin.write("go\n")
        child.stdin.flush()
    tallies = []
    for child in children:
        out, err = child.communicate(timeout=120)
        assert child.returncode == 0, err
        tallies.append(json.loads(out.strip().splitlines()[-1]))
    assert [t["broken"] for t in tallies] == [0, 0], tallies
    assert all(t["moves"] >= 60 for t in tallies), tallies
    repo = await SqliteRepository.open(path)
    assert await MatchService(repo, Recorder(), SetClock()).verify_all() == []
    await repo.close()


class EntryReads:
    """A repository that records the ``(start, stop)`` of every entries read."""

    def __init__(self, inner: SqliteRepository) -> None:
        self.inner = inner
        self.reads: list[tuple[int, int | None]] = []

    def __getattr__(self, name: str) -> object:
        return getattr(self.inner, name)

    async def load_entries(self, match_id: int, *, start: int = 0,
                           stop: int | None = None) -> list[object]:
        self.reads.append((start, stop))
        return await self.inner.load_entries(match_id, start=start, stop=stop)  # type: ignore[return-value]


async def test_a_cache_a_few_plies_behind_reads_only_the_new_moves(tmp_path: Path) -> None:
    """Another process moved: the stale cache is carried forward by the new entries
    (one read from its ply), not replayed from the start; the result equals a replay."""
    repo = await SqliteRepository.open(tmp_path / "carry.db")
    watched = EntryReads(repo)
    other = MatchService(repo, Recorder(), SetClock(), rng=random.Random(2))
    (match_id,) = await _matches(other, 1)
    me = MatchService(watched, Recorder(), SetClock())  # type: ignore[arg-type]
    rng = random.Random(4)
    for _ in range(6):
        m = await other.get_match(match_id)
        p, _ = await other.position(match_id)
        safe = [mv for mv in p.legal_moves() if p.play(mv).outcome() is None]
        await other.move(match_id, m.to_move[0], p.variant.format_move(p, rng.choice(safe)))
    await me.position(match_id)  # cold: the whole record, up to the row's ply
    assert watched.reads == [(0, 6)]
    for _ in range(3):
        m = await other.get_match(match_id)
        p, _ = await other.position(match_id)
        safe = [mv for mv in p.legal_moves() if p.play(mv).outcome() is None]
        await other.move(match_id, m.to_move[0], p.variant.format_move(p, rng.choice(safe)))
    carried, marks = await me.position(match_id)
    assert watched.reads == [(0, 6), (6, 9)]
    fresh, fresh_marks = await MatchService(repo, Recorder(), SetClock()).position(match_id)
    assert carried.to_text() == fresh.to_text() and marks == fresh_marks
    await repo.close()
