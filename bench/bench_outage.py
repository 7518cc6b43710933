"""Database outages under load: PostgreSQL restarted while players move, SQLite run out of
room; prints what the players got and what the operator's log said.

    .venv/bin/python bench/bench_outage.py [--restarts 5] [--matches 4]

For each restart (``pg_ctl stop -m fast``, a pause, ``pg_ctl start``) ``--matches`` players
keep moving; every answer is counted: a move played, a typed refusal (by class), or
anything else (an untyped exception: there must be none). Afterwards every stored record
is replayed (``verify_all``) and each match's stored moves are compared with the moves that
were acknowledged (a refused move must not be stored, an acknowledged one must). The log
is counted too: the outage lines and the records carrying a traceback (none). Then the
same on SQLite, whose database may grow no further (``PRAGMA max_page_count``: SQLite's
own "database or disk is full") until room is made.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import random
import sys
import time
from collections import Counter
from pathlib import Path
from tempfile import TemporaryDirectory

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from service import MatchService, NullNotifier, SystemClock
from service.errors import CommitUncertain, StorageUnavailable
from storage import PostgresRepository, SqliteRepository
from tests.postgres import LocalServer

GUILD, CHANNEL = 1, 1


class Counts(logging.Handler):
    """The log records: outage lines and tracebacks."""

    def __init__(self) -> None:
        super().__init__(logging.INFO)
        self.went = self.back = self.tracebacks = 0

    def emit(self, record: logging.LogRecord) -> None:
        text = record.getMessage()
        self.went += record.name == "tablero.storage" and "is unavailable" in text
        self.back += record.name == "tablero.storage" and " is back after " in text
        self.tracebacks += record.exc_info is not None


async def players(service: MatchService, matches: list[int], tries: int,
                  answers: Counter[str], played: dict[int, dict[int, str]],
                  uncertain: dict[int, dict[int, str]], stop: asyncio.Event) -> None:
    """Each match's players move until ``stop`` (at most ``tries`` tries); ``played``
    and ``uncertain`` get, by match and ply, the moves acknowledged and those whose commit
    was cut off."""
    async def one(match_id: int, seed: int) -> None:
        rng = random.Random(seed)
        for _ in range(tries):
            if stop.is_set():
                return
            try:
                m = await service.get_match(match_id)
                p, _ = await service.position(match_id)
                if p.outcome() is not None:
                    return
                text = p.variant.format_move(p, rng.choice(list(p.legal_moves())))
                await service.move(match_id, m.to_move[0], text)
            except CommitUncertain:
                answers["CommitUncertain"] += 1
                uncertain[match_id][m.ply] = text
            except StorageUnavailable as e:
                answers[type(e).__name__] += 1
                await asyncio.sleep(0.05)
            except Exception as e:  # counted: there must be none
                answers[f"untyped {type(e).__name__}"] += 1
            else:
                answers["played"] += 1
                played[match_id][m.ply] = text
    await asyncio.gather(*(one(m, n) for n, m in enumerate(matches)))


async def check(service: MatchService, repo: object, played: dict[int, dict[int, str]],
                uncertain: dict[int, dict[int, str]]) -> tuple[int, int]:
    """(records that do not replay, matches whose stored moves differ from those
    acknowledged: a stored move neither acknowledged nor cut off at its ply, or an
    acknowledged one missing)."""
    broken = len(await service.verify_all())
    differ = 0
    for match_id, moves in played.items():
        stored = [e.text for e in await repo.load_entries(match_id)]  # type: ignore[attr-defined]
        differ += any(text not in (moves.get(ply), uncertain[match_id].get(ply))
                      for ply, text in enumerate(stored)) or \
            any(ply >= len(stored) or stored[ply] != text for ply, text in moves.items())
    return broken, differ


async def postgres(restarts: int, matches: int, log: Counts) -> None:
    server = LocalServer()
    url = server.start()
    answers: Counter[str] = Counter()
    broken = differ = 0
    started = time.perf_counter()
    try:
        for n in range(restarts):
            repo = await PostgresRepository.open(url)
            service = MatchService(repo, NullNotifier(), SystemClock(), rng=random.Random(n))
            ids = []
            for _ in range(matches):
                m = await service.challenge(GUILD, CHANNEL, 10 + n, "xiangqi",
                                            opponents=[20 + n], seat=0)
                ids.append((await service.accept(m.id, 20 + n)).id)
            played: dict[int, dict[int, str]] = {m: {} for m in ids}
            uncertain: dict[int, dict[int, str]] = {m: {} for m in ids}
            stop = asyncio.Event()

            async def restart(stop: asyncio.Event = stop) -> None:
                await asyncio.sleep(0.2)
                await asyncio.to_thread(server.shut_down)
                await asyncio.sleep(1.0)
                await asyncio.to_thread(server.start_again)
                await asyncio.sleep(0.5)
                stop.set()
            await asyncio.gather(restart(), players(service, ids, 400, answers, played,
                                                    uncertain, stop))
            b, d = await check(service, repo, played, uncertain)
            broken += b
            differ += d
            await repo.close()
    finally:
        server.stop()
    refused = sum(v for k, v in answers.items() if k not in ("played",)
                  and not k.startswith("untyped"))
    untyped = sum(v for k, v in answers.items() if k.startswith("untyped"))
    print(f"PostgreSQL: {restarts} restarts (stopped 1 s each) under {matches} players "
          f"in {time.perf_counter() - started:.0f} s")
    print(f"  moves played {answers['played']}, typed refusals {refused} "
          f"({', '.join(f'{k} {v}' for k, v in sorted(answers.items()) if k != 'played')}), "
          f"untyped exceptions {untyped}")
    print(f"  records that do not replay {broken}; matches whose stored moves differ from "
          f"the acknowledged ones {differ}")


async def sqlite(log: Counts) -> None:
    with TemporaryDirectory() as folder:
        repo = await SqliteRepository.open(Path(folder) / "t.db")
        service = MatchService(repo, NullNotifier(), SystemClock(), rng=random.Random(1))
        answers: Counter[str] = Counter()
        m = await service.challenge(GUILD, CHANNEL, 10, "xiangqi", opponents=[20], seat=0)
        ids = [(await service.accept(m.id, 20)).id]
        played: dict[int, dict[int, str]] = {ids[0]: {}}
        uncertain: dict[int, dict[int, str]] = {ids[0]: {}}
        async with repo._writer.execute("PRAGMA page_count") as cur:
            (pages,) = await cur.fetchone()  # type: ignore[misc]
        await repo._writer.execute(f"PRAGMA max_page_count = {pages}")
        stop = asyncio.Event()
        await players(service, ids, 60, answers, played, uncertain, stop)
        await repo._writer.execute("PRAGMA max_page_count = 1073741823")
        before = answers["played"]
        await players(service, ids, 10, answers, played, uncertain, stop)
        broken, differ = await check(service, repo, played, uncertain)
        await repo.close()
    print(f"SQLite, no room to grow: 60 tries, then 10 with room again: moves played "
          f"{before} then {answers['played'] - before}, typed refusals "
          f"{answers['DatabaseFull']} (DatabaseFull), untyped exceptions "
          f"{sum(v for k, v in answers.items() if k.startswith('untyped'))}; records that "
          f"do not replay {broken}, stored moves differing {differ}")


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--restarts", type=int, default=5)
    parser.add_argument("--matches", type=int, default=4)
    args = parser.parse_args()
    log = Counts()
    logging.getLogger().addHandler(log)
    logging.getLogger().setLevel(logging.INFO)
    await postgres(args.restarts, args.matches, log)
    await sqlite(log)
    print(f"log: {log.went} 'unavailable' lines, {log.back} 'back' lines, "
          f"{log.tracebacks} tracebacks")


if __name__ == "__main__":
    asyncio.run(main())
