"""Reliability: concurrent submissions, crashes between statements, replays, corrupted
records, authorization and hostile input. Real games, real SQLite files."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import os
import random
import sqlite3
import subprocess
import sys
import textwrap
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import rules
from service import (
    MatchBroken,
    MatchNotFound,
    MatchOver,
    MatchService,
    MatchStatus,
    MoveResult,
    NotAllowed,
    NotAPlayer,
    NotYourTurn,
    RecordEntry,
    Repository,
    ServiceError,
    StaleMove,
)
from service.inputs import InvalidText, invalid_character
from storage import MemoryRepository, SqliteRepository
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
    finishing_game,
    play_random,
    start_match,
)

# ---------------------------------------------------------------- concurrency


class YieldingRepository:
    """Passes every call on after yielding to the event loop, so concurrent requests
    interleave between reading and writing (as they would with a real database)."""

    def __init__(self, inner: Repository) -> None:
        self.inner = inner

    def __getattr__(self, name: str) -> Any:
        target = getattr(self.inner, name)

        async def call(*args: Any, **kwargs: Any) -> Any:
            await asyncio.sleep(0)
            return await target(*args, **kwargs)
        return call


@pytest.mark.parametrize("kind", ["memory", "sqlite"])
async def test_fifty_concurrent_submissions_for_one_ply_land_once(
        kind: str, tmp_path: Path) -> None:
    inner: Repository = MemoryRepository() if kind == "memory" else \
        await SqliteRepository.open(tmp_path / "c.db")
    repo = YieldingRepository(inner)
    clock = SetClock()
    # fifty workers, as if fifty processes served the same match (each with its own cache)
    workers = [MatchService(repo, Recorder(), clock, rng=random.Random(i))  # type: ignore[arg-type]
               for i in range(50)]
    m = await start_match(workers[0])
    m = await play_random(workers[0], m.id, 4)
    p, _ = await workers[0].position(m.id)
    v = p.variant
    texts = [v.format_move(p, mv) for mv in p.legal_moves()]
    mover = m.to_move[0]
    for w in workers:  # every worker has read the position (warm caches)
        await w.position(m.id)

    async def submit(i: int) -> MoveResult | ServiceError:
        try:
            return await workers[i].move(m.id, mover, texts[i % len(texts)],
                                         expected_ply=m.ply)
        except ServiceError as e:
            return e

    results = await asyncio.gather(*(submit(i) for i in range(50)))
    landed = [r for r in results if isinstance(r, MoveResult)]
    refused = [r for r in results if not isinstance(r, MoveResult)]
    assert len(landed) == 1
    assert all(isinstance(r, StaleMove) for r in refused), refused
    assert all("position changed" in r.message for r in refused if isinstance(r, StaleMove))
    entries = await inner.load_entries(m.id)
    assert len(entries) == m.ply + 1 and entries[-1].text == landed[0].move
    stored = await inner.load_match(m.id)
    assert stored is not None and stored.ply == m.ply + 1
    fresh = MatchService(inner, Recorder(), clock)
    assert await fresh.verify_all() == []
    await inner.close()


@pytest.mark.parametrize("kind", ["memory", "sqlite"])
async def test_fifty_concurrent_repository_appends_of_one_ply(kind: str,
                                                              tmp_path: Path) -> None:
    repo: Repository = MemoryRepository() if kind == "memory" else \
        await SqliteRepository.open(tmp_path / "r.db")
    s = MatchService(repo, Recorder(), SetClock())
    m = await start_match(s)
    rec = await repo.load_match(m.id)
    assert rec is not None

    async def append(i: int) -> bool:
        await asyncio.sleep(0)
        after = dataclasses.replace(rec, ply=1, position_text=f"p{i}")
        try:
            await repo.save(rec, after, [RecordEntry(0, 0, f"m{i}", ALICE, rec.created_at)])
        except Exception:  # Conflict
            return False
        return True

    outcomes = await asyncio.gather(*(append(i) for i in range(50)))
    assert outcomes.count(True) == 1
    entries = await repo.load_entries(m.id)
    assert len(entries) == 1
    stored = await repo.load_match(m.id)
    assert stored is not None and stored.position_text == f"p{outcomes.index(True)}"
    assert entries[0].text == f"m{outcomes.index(True)}"
    await repo.close()


# ---------------------------------------------------------------- crashes


class Crash(Exception):
    """The process dies here."""


class CrashingSqlite(SqliteRepository):
    """Counts the statements of writes and dies before statement ``fail_at``."""

    fail_at: int | None = None
    steps = 0

    async def _exec(self, sql: str, params: Sequence[Any] = ()) -> Any:
        if self.fail_at is not None:
            if self.steps == self.fail_at:
                raise Crash(f"killed before {sql.split()[0]}")
            self.steps += 1
        return await super()._exec(sql, params)


class CrashingCalls:
    """A repository that dies at its ``fail_at``-th call (service-level steps)."""

    def __init__(self, inner: Repository, fail_at: int) -> None:
        self.inner, self.fail_at, self.calls = inner, fail_at, 0

    def __getattr__(self, name: str) -> Any:
        target = getattr(self.inner, name)

        async def call(*args: Any, **kwargs: Any) -> Any:
            if self.calls == self.fail_at:
                self.calls += 1
                raise Crash(f"killed in {name}")
            self.calls += 1
            return await target(*args, **kwargs)
        return call


FINISHING_SEED = 243
"""The seed of a random xiangqi game that ends, a draw (the 100-ply limit), after 100
plies. The crash tests replay the whole game at every crash point (a service starting
cold, its check of every match); the first finishing seed, 0, ends in a draw too (a
repetition), after 587 plies: six times the replays, the same statements at its last
move."""


def _finishing_xiangqi() -> list[str]:
    """The moves of the game of ``FINISHING_SEED``: a draw, as its last move decides."""
    moves = finishing_game("xiangqi", {}, FINISHING_SEED)
    assert moves is not None and len(moves) >= 3
    v = rules.variant("xiangqi")
    p = v.start()
    for text in moves:
        p = p.play(v.parse_move(p, text))
    outcome = p.outcome()
    assert outcome is not None and not outcome.winners
    return moves


async def _prepared(path: Path, finishing: bool) -> tuple[int, str, int]:
    """A match on disk one move before the move under test; (match, move text, mover)."""
    repo = await SqliteRepository.open(path)
    s = MatchService(repo, Recorder(), SetClock(), rng=random.Random(1))
    m = await start_match(s)
    moves = _finishing_xiangqi()
    playing = moves if finishing else moves[:3]
    for i, text in enumerate(playing[:-1]):
        await s.move(m.id, (ALICE, BOB)[i % 2], text)
    await repo.close()
    return m.id, playing[-1], (ALICE, BOB)[(len(playing) - 1) % 2]


async def _check_after_restart(path: Path, match_id: int, ply_before: int) -> bool:
    """Reopen: the match is before or after the move, and its cache equals the replay.
    Returns whether the move landed."""
    repo = await SqliteRepository.open(path)
    try:
        s = MatchService(repo, Recorder(), SetClock())
        assert await s.verify_all() == []
        rec = await repo.load_match(match_id)
        assert rec is not None
        entries = await repo.load_entries(match_id)
        assert rec.ply == len(entries) and rec.ply in (ply_before, ply_before + 1)
        p, _ = await s.position(match_id)
        assert p.to_text() == rec.position_text
        rated = (await repo.leaderboard(GUILD, "xiangqi", 0, 10))[1]
        assert (rated == 2) == (rec.status is MatchStatus.FINISHED)
        return rec.ply == ply_before + 1
    finally:
        await repo.close()


@pytest.mark.parametrize("finishing", [False, True], ids=["move", "final-move"])
async def test_a_crash_between_any_two_statements_leaves_before_or_after(
        tmp_path: Path, finishing: bool) -> None:
    template = tmp_path / "template.db"
    match_id, text, mover = await _prepared(template, finishing)
    # count the statements of the move on a copy
    counted = tmp_path / "count.db"
    counted.write_bytes(template.read_bytes())
    repo = await CrashingSqlite.open(counted)
    repo.fail_at = 10**6
    s = MatchService(repo, Recorder(), SetClock())
    before = await s.get_match(match_id)
    await s.move(match_id, mover, text)
    total = repo.steps
    await repo.close()
    assert total >= (6 if finishing else 4)  # BEGIN, UPDATE, INSERT, [ratings...], COMMIT
    landed = []
    for k in range(total + 1):
        path = tmp_path / f"crash{k}.db"
        path.write_bytes(template.read_bytes())
        repo = await CrashingSqlite.open(path)
        repo.fail_at = k
        s = MatchService(repo, Recorder(), SetClock())
        with contextlib.suppress(Crash):
            await s.move(match_id, mover, text)
        await repo.close()
        landed.append(await _check_after_restart(path, match_id, before.ply))
    assert landed == [False] * total + [True]


async def test_a_crash_at_any_repository_call_leaves_before_or_after(tmp_path: Path) -> None:
    template = tmp_path / "template.db"
    match_id, text, mover = await _prepared(template, True)
    outcomes = []
    for k in range(4):
        path = tmp_path / f"calls{k}.db"
        path.write_bytes(template.read_bytes())
        inner = await SqliteRepository.open(path)
        s = MatchService(CrashingCalls(inner, k), Recorder(), SetClock())  # type: ignore[arg-type]
        try:
            await s.move(match_id, mover, text)
            outcomes.append("done")
        except Crash:
            outcomes.append("crashed")
        await inner.close()
        repo = await SqliteRepository.open(path)
        fresh = MatchService(repo, Recorder(), SetClock())
        assert await fresh.verify_all() == []
        rec = await repo.load_match(match_id)
        assert rec is not None and rec.ply == len(await repo.load_entries(match_id))
        await repo.close()
    assert outcomes == ["crashed", "crashed", "crashed", "done"]


def test_a_killed_process_leaves_the_match_before_or_after(tmp_path: Path) -> None:
    """The real thing: a child process os._exit()s in the middle of a move's transaction
    (after the INSERT of the move, before COMMIT), and right after the COMMIT."""
    template = tmp_path / "template.db"
    match_id, text, mover = asyncio.run(_prepared(template, False))
    root = Path(__file__).resolve().parents[2]
    for kill_before, expect_landed in (("COMMIT", False), (None, True)):
        path = tmp_path / f"kill-{kill_before}.db"
        path.write_bytes(template.read_bytes())
        child = textwrap.dedent(f"""
            import asyncio, os
            from service import MatchService, NullNotifier, SystemClock
            from storage import SqliteRepository

            class Dying(SqliteRepository):
                async def _exec(self, sql, params=()):
                    if sql.split()[0] == {kill_before!r}:
                        os._exit(9)
                    cur = await super()._exec(sql, params)
                    if sql == "COMMIT":
                        os._exit(9)
                    return cur

            async def main():
                repo = await Dying.open({str(path)!r})
                s = MatchService(repo, NullNotifier(), SystemClock())
                await s.move({match_id}, {mover}, {text!r})

            asyncio.run(main())
        """)
        run = subprocess.run([sys.executable, "-c", child], cwd=root, timeout=60,
                             env={**os.environ, "PYTHONPATH": str(root)})
        assert run.returncode == 9
        before_ply = 2
        assert asyncio.run(_check_after_restart(path, match_id, before_ply)) is expect_landed


# ---------------------------------------------------------------- replay and corruption


@pytest.mark.parametrize("kind", ["memory", "sqlite"])
async def test_every_stored_match_replays_to_its_cached_position(kind: str,
                                                                 tmp_path: Path) -> None:
    repo: Repository = MemoryRepository() if kind == "memory" else \
        await SqliteRepository.open(tmp_path / "all.db")
    s = MatchService(repo, Recorder(), SetClock(), rng=random.Random(3))
    ids = []
    for key, v in rules.VARIANTS.items():
        for opts in v.example_options:
            m = await s.challenge(GUILD, CHANNEL, ALICE, key, options=dict(opts))
            for u in (BOB, CAROL, DAVE)[:m.seat_count - 1]:
                m = await s.join(m.id, u)
            await play_random(s, m.id, 40, seed=len(ids), stop_before_end=False)
            ids.append(m.id)
    fresh = MatchService(repo, Recorder(), SetClock())
    assert await fresh.verify_all() == []
    for match_id in ids:
        stored = await repo.load_match(match_id)
        assert stored is not None
        p, _ = await fresh.position(match_id)
        assert p.to_text() == stored.position_text
    await repo.close()


async def test_a_corrupted_record_marks_the_match_broken(tmp_path: Path) -> None:
    path = tmp_path / "bad.db"
    repo = await SqliteRepository.open(path)
    s = MatchService(repo, Recorder(), SetClock())
    bad = await start_match(s)
    await play_random(s, bad.id, 6)
    good = await start_match(s)
    await play_random(s, good.id, 6)
    await repo.close()
    conn = sqlite3.connect(path)
    conn.execute("UPDATE moves SET notation = 'a1-a2' WHERE match_id = ? AND ply = 3",
                 (bad.id,))
    conn.commit()
    conn.close()
    repo = await SqliteRepository.open(path)
    recorder = Recorder()
    s = MatchService(repo, recorder, SetClock())
    m = await s.get_match(bad.id)
    with pytest.raises(MatchBroken, match=r"entry 4 \('a1-a2'\) does not replay"):
        await s.move(bad.id, m.to_move[0], "a1-a2")
    m = await s.get_match(bad.id)
    assert m.status is MatchStatus.BROKEN and m.broken and "does not replay" in m.broken
    with pytest.raises(MatchBroken):
        await s.resign(bad.id, ALICE)
    assert await s.suggest_moves(bad.id, m.to_move[0] if m.to_move else ALICE) == []
    h = await s.history(bad.id)  # the record can still be read
    assert len(h.entries) == 6
    # the other match is unaffected
    g = await s.get_match(good.id)
    p, _ = await s.position(good.id)
    await s.move(good.id, g.to_move[0], p.variant.format_move(p, p.legal_moves()[0]))
    assert await s.verify_all() == [(bad.id, m.broken)]
    await repo.close()


async def test_a_cache_that_disagrees_with_the_record_is_caught(tmp_path: Path) -> None:
    repo = MemoryRepository()
    s = MatchService(repo, Recorder(), SetClock())
    m = await start_match(s)
    await play_random(s, m.id, 4)
    rec = await repo.load_match(m.id)
    assert rec is not None
    repo._matches[m.id] = dataclasses.replace(
        rec, position_text=rules.variant("xiangqi").start().to_text())
    fresh = MatchService(repo, Recorder(), SetClock())
    problems = await fresh.verify_all()
    assert [i for i, _ in problems] == [m.id]
    assert "does not give the stored position" in problems[0][1]


# ---------------------------------------------------------------- authorization


async def test_authorization(service: MatchService) -> None:
    m = await service.challenge(GUILD, CHANNEL, ALICE, "xiangqi", opponents=[BOB], seat=0)
    with pytest.raises(NotAllowed, match="own challenge"):
        await service.accept(m.id, ALICE)
    m = await service.accept(m.id, BOB)
    for action in (service.resign, service.offer_draw, service.accept_draw,
                   service.decline_draw):
        with pytest.raises(NotAPlayer):
            await action(m.id, EVE)
    with pytest.raises(NotAPlayer):
        await service.move(m.id, EVE, "h3-e3")
    with pytest.raises(NotYourTurn, match="Red to move"):
        await service.move(m.id, BOB, "h10-g8")
    await service.offer_draw(m.id, ALICE)
    with pytest.raises(NotAPlayer):
        await service.accept_draw(m.id, EVE)
    with pytest.raises(MatchNotFound):
        await service.move(9999, ALICE, "h3-e3")
    await service.resign(m.id, BOB)
    for action in (service.resign, service.offer_draw, service.accept_draw,
                   service.decline_draw):
        with pytest.raises(MatchOver):
            await action(m.id, ALICE)
    with pytest.raises(MatchOver):
        await service.move(m.id, ALICE, "h3-e3")
    with pytest.raises(MatchOver):
        await service.accept(m.id, BOB)
    with pytest.raises(StaleMove):
        m2 = await start_match(service)
        await service.move(m2.id, ALICE, "h3-e3", expected_ply=5)


# ---------------------------------------------------------------- hostile input

HOSTILE = st.one_of(
    st.text(max_size=60),
    st.text(alphabet="abcdefghijk0123456789-x:# @/.=rpasetu\n\t", max_size=40),
    st.text(min_size=290, max_size=320),
    st.sampled_from(["", " ", "h3-e3", "H3E3", "C2.5", "xiangqi", "red", "4", "-1",
                     "\x00", "🀄", "1" * 40, "r1-3", "pass", "random", "teams",
                     "16 15 14 13 12 11 10 9 8 7 6 5 4 3 2 1"]),
)


class World:
    """A fresh service on a memory repository with a match in each interesting state."""

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        self.repo = MemoryRepository()
        self.service = MatchService(self.repo, Recorder(), SetClock(), rng=random.Random(5))
        s = self.service

        async def setup() -> None:
            self.xq = (await start_match(s)).id
            self.open = (await s.challenge(GUILD, CHANNEL, ALICE, "damas")).id
            self.querni = (await start_match(s, "querni", options={"setup": "choose"})).id
            self.lobby = (await s.challenge(GUILD, CHANNEL, ALICE, "alquerque-grande",
                                            seat=0)).id
        self.run(setup())

    def run(self, coro: Any) -> Any:
        return self.loop.run_until_complete(coro)

    def snapshot(self) -> Any:
        repo = self.repo
        return (dict(repo._matches), {k: list(v) for k, v in repo._entries.items()},
                dict(repo._ratings), dict(repo._guilds), dict(repo._prefs))


@pytest.fixture(scope="module")
def world() -> World:
    return World()


HYPO = settings(max_examples=60, deadline=None,
                suppress_health_check=[HealthCheck.function_scoped_fixture])


def _unchanged_or_typed(world: World, call: Any) -> Any:
    before = world.snapshot()
    try:
        result = world.run(call)
    except (ServiceError, rules.RulesError):
        assert world.snapshot() == before
        return None
    return result


@HYPO
@given(text=HOSTILE)
def test_hostile_move_text(world: World, text: str) -> None:
    s = world.service
    p, _ = world.run(s.position(world.xq))
    result = _unchanged_or_typed(world, s.move(world.xq, EVE, text))
    assert result is None  # never for a stranger
    before = world.snapshot()
    try:
        result = world.run(s.move(world.xq, BOB, text))  # not his turn
    except (ServiceError, rules.RulesError):
        assert world.snapshot() == before
    else:
        pytest.fail("Bob moved out of turn")
    try:
        move = p.variant.parse_move(p, text)
    except rules.RulesError:
        move = None
    result = _unchanged_or_typed(world, s.move(world.xq, ALICE, text, expected_ply=0))
    if result is not None:  # it was a legal move: only then may anything change
        assert move is not None and result.move == p.variant.format_move(p, move)
        world.xq = world.run(start_match(s)).id


@HYPO
@given(text=HOSTILE)
def test_hostile_setup_and_suggest_text(world: World, text: str) -> None:
    s = world.service
    result = _unchanged_or_typed(world, s.submit_setup(world.querni, EVE, text))
    assert result is None
    before = world.snapshot()
    if invalid_character(text) is not None:  # a control character: refused, typed
        with pytest.raises(InvalidText):
            world.run(s.suggest_moves(world.xq, ALICE, text))
    else:
        assert len(world.run(s.suggest_moves(world.xq, ALICE, text))) <= 25
    assert world.snapshot() == before
    result = _unchanged_or_typed(world, s.submit_setup(world.querni, ALICE, text))
    if result is not None:
        nums = sorted(int(n) for n in text.replace(",", " ").split())
        assert nums == list(range(1, 17))
        world.querni = world.run(start_match(s, "querni", options={"setup": "choose"})).id


@HYPO
@given(game=HOSTILE, key=HOSTILE, value=HOSTILE, seat=HOSTILE)
def test_hostile_challenge_arguments(world: World, game: str, key: str, value: str,
                                     seat: str) -> None:
    s = world.service
    for kwargs in ({"options": {key: value}}, {"seat": seat}, {}):
        result = _unchanged_or_typed(world, s.challenge(
            GUILD, CHANNEL, CAROL, game, opponents=[DAVE], **kwargs))  # type: ignore[arg-type]
        if result is not None:
            assert game.strip().lower() in rules.VARIANTS
            world.run(s.cancel(result.id, CAROL))


@HYPO
@given(text=HOSTILE, page=st.integers(-5, 10**9))
def test_hostile_other_arguments(world: World, text: str, page: int) -> None:
    s = world.service
    _unchanged_or_typed(world, s.leaderboard(GUILD, text, page))
    _unchanged_or_typed(world, s.rank_of(GUILD, text, ALICE))
    r = _unchanged_or_typed(world, s.update_user_prefs(EVE, text))
    if r is not None:
        assert r.notify in ("mention", "dm")
    _unchanged_or_typed(world, s.join(world.lobby, EVE, text))  # seat names
    lobby = world.run(s.get_match(world.lobby))
    if EVE in lobby.joined:
        world.run(s.cancel(world.lobby, EVE))
    _unchanged_or_typed(world, s.accept(world.open, ALICE, text))
    _unchanged_or_typed(world, s.offer_draw(world.xq, EVE))



@pytest.mark.parametrize("kind", ["memory", "sqlite"])
async def test_concurrent_players_always_read_their_own_moves(kind: str,
                                                              tmp_path: Path) -> None:
    """Twenty matches played at once: after each move its player reads the new ply (a
    regression test: overlapping SQLite reads once kept an old snapshot alive)."""
    repo: Repository = MemoryRepository() if kind == "memory" else \
        await SqliteRepository.open(tmp_path / "rw.db")
    s = MatchService(YieldingRepository(repo), Recorder(), SetClock(),  # type: ignore[arg-type]
                     rng=random.Random(2))

    async def client(k: int) -> int:
        rng = random.Random(k)
        m = await s.challenge(GUILD, CHANNEL, 1000 + 2 * k, "xiangqi", opponents=[1001 + 2 * k])
        m = await s.accept(m.id, 1001 + 2 * k)
        for _ in range(12):
            p, _ = await s.position(m.id)
            text = p.variant.format_move(p, rng.choice(p.legal_moves()))
            r = await s.move(m.id, m.to_move[0], text)
            m = await s.get_match(m.id)
            assert m.ply == r.match.ply and m.position_text == r.match.position_text
            if r.ended:
                break
        return m.ply

    plies = await asyncio.gather(*(client(k) for k in range(20)))
    assert all(p >= 1 for p in plies)
    await repo.close()


async def test_memory_repository_crash_at_any_call_leaves_before_or_after() -> None:
    moves = _finishing_xiangqi()
    outcomes = []
    for k in range(4):
        repo = MemoryRepository()
        s = MatchService(repo, Recorder(), SetClock())
        m = await start_match(s)
        for i, text in enumerate(moves[:-1]):
            await s.move(m.id, (ALICE, BOB)[i % 2], text)
        dying = MatchService(CrashingCalls(repo, k), Recorder(), SetClock())  # type: ignore[arg-type]
        try:
            await dying.move(m.id, (ALICE, BOB)[(len(moves) - 1) % 2], moves[-1])
            outcomes.append("done")
        except Crash:
            outcomes.append("crashed")
        rec = await repo.load_match(m.id)
        assert rec is not None
        assert rec.ply == len(await repo.load_entries(m.id)) in (len(moves) - 1, len(moves))
        assert (rec.status is MatchStatus.FINISHED) == (rec.ply == len(moves))
        assert ((await repo.leaderboard(GUILD, "xiangqi", 0, 5))[1] == 2) == \
            (rec.status is MatchStatus.FINISHED)
        assert await MatchService(repo, Recorder(), SetClock()).verify_all() == []
    assert outcomes == ["crashed", "crashed", "crashed", "done"]
