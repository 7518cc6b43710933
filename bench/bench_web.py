"""The web pages (issue 40): page weight, server time to make a match page (p50/p99) over
a large database, board pictures, requests per second of one web process, and the time
from a move to a spectator's event.

The database: ``--db`` (e.g. the one ``bench_million.py --matches 100000 --active 10000
--only sqlite --load-only --dir /tmp/tablero-100k`` writes, ``million-100000.db``), or
else a fresh one of ``--matches`` xiangqi matches played through the service. Every
server of the sampled matches has the web turned on (the database is changed: use a copy).

Measured through a real local aiohttp server and an HTTP client in the same process
(so the client's own time is in the figures; on a loaded machine they are upper bounds):

    nice python bench/bench_web.py [--db PATH] [--matches 300] [--pages 300]
        [--concurrency 8] [--seconds 5]
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from aiohttp import ClientSession  # noqa: E402
from aiohttp.test_utils import TestServer  # noqa: E402
from bench_service import pct  # noqa: E402

from bot.boards import load_renderer  # noqa: E402
from bot.names import NameBook  # noqa: E402
from bot.web.app import WebApp  # noqa: E402
from bot.web.links import LinkSigner  # noqa: E402
from service import MatchService, MatchView, NullNotifier, SystemClock  # noqa: E402
from storage import open_database  # noqa: E402

SECRET = b"the bench's web secret, 32 characters or more"


def line(label: str, ms: list[float]) -> str:
    return (f"{label:34} p50 {pct(ms, 0.5):7.1f} ms   p99 {pct(ms, 0.99):7.1f} ms   "
            f"(n={len(ms)})")


async def fill(service: MatchService, matches: int, rng: random.Random) -> None:
    """``matches`` xiangqi matches of 10-60 random plies, through the service."""
    for i in range(matches):
        m = await service.challenge(1, 2, 100 + i % 50, "xiangqi", opponents=[200 + i % 37])
        m = await service.accept(m.id, 200 + i % 37)
        for _ in range(rng.randint(10, 60)):
            p, _marks = await service.position(m.id)
            moves = [mv for mv in p.legal_moves() if p.play(mv).outcome() is None]
            if not moves:
                break
            mv = rng.choice(moves)
            m = (await service.move(m.id, m.to_move[0], p.variant.format_move(p, mv))).match


async def long_match(service: MatchService, plies: int, rng: random.Random) -> MatchView:
    """A xiangqi match of ``plies`` random plies (none ending it), in a server with the
    web on."""
    m = await service.challenge(1, 2, 801, "xiangqi", opponents=[802])
    m = await service.accept(m.id, 802)
    await service.update_guild_settings(m.guild_id, web=True)
    for _ in range(plies):
        p, _marks = await service.position(m.id)
        mv = rng.choice([mv for mv in p.legal_moves() if p.play(mv).outcome() is None])
        m = (await service.move(m.id, m.to_move[0], p.variant.format_move(p, mv))).match
    return m


async def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--db", type=Path, default=None)
    parser.add_argument("--matches", type=int, default=300)
    parser.add_argument("--pages", type=int, default=300)
    parser.add_argument("--concurrency", type=int, default=8)
    parser.add_argument("--seconds", type=float, default=5.0)
    args = parser.parse_args()
    rng = random.Random(1)
    path = args.db or Path(f"/tmp/tablero-bench-web-{args.matches}.db")
    repo = await open_database(path, synchronous="NORMAL")
    book = NameBook(repo)
    await book.load()
    service = MatchService(repo, NullNotifier(), SystemClock(), renderer=load_renderer(),
                           names=book)
    found = await repo._all("SELECT count(*) FROM matches")  # type: ignore[union-attr]
    if args.db is None and found[0][0] < args.matches:
        t0 = time.perf_counter()
        await fill(service, args.matches - found[0][0], rng)
        print(f"filled {args.matches} matches in {time.perf_counter() - t0:.0f} s")
    held = (await repo._all("SELECT count(*) FROM matches"))[0][0]  # type: ignore[union-attr]
    rows = await repo._all(  # type: ignore[union-attr]
        "SELECT id, guild_id FROM matches WHERE status IN ('active', 'finished') "
        "ORDER BY random() LIMIT ?", (args.pages,))
    for guild in {g for _m, g in rows}:
        await service.update_guild_settings(guild, web=True)
    signer = LinkSigner(SECRET)
    paths = [f"/m/{signer.spectator(m, g)}" for m, g in rows]
    web = WebApp(service, signer)
    server = TestServer(web.application())
    await server.start_server()
    base = f"http://{server.host}:{server.port}"
    print(f"database: {path} ({held:,} matches); {len(paths)} match pages sampled")
    async with ClientSession() as client:
        first = paths[0]
        async with client.get(base + first) as r:
            html = await r.read()
        weight = len(html)
        for asset in ("/static/site.css", "/static/match.js"):
            async with client.get(base + asset) as r:
                weight += len(await r.read())
        print(f"page weight without the board (html + css + js): {weight / 1024:.1f} KB "
              f"(html {len(html) / 1024:.1f} KB)")
        pages: list[float] = []
        for p in paths:
            t0 = time.perf_counter()
            async with client.get(base + p) as r:
                await r.read()
                assert r.status == 200, (p, r.status)
            pages.append((time.perf_counter() - t0) * 1000)
        print(line("match page (server + client)", pages))
        boards: list[float] = []
        for p in paths[:50]:
            t0 = time.perf_counter()
            async with client.get(base + p + "/board/1.png") as r:
                await r.read()
            boards.append((time.perf_counter() - t0) * 1000)
        print(line("board picture, first drawing", boards))
        done = 0
        stop = time.perf_counter() + args.seconds

        async def worker(i: int) -> None:
            nonlocal done
            while time.perf_counter() < stop:
                async with client.get(base + paths[(done + i) % len(paths)]) as r:
                    await r.read()
                done += 1
        await asyncio.gather(*(worker(i) for i in range(args.concurrency)))
        print(f"match pages per second (one process, {args.concurrency} at once): "
              f"{done / args.seconds:.0f}")
        # a long game (300 plies): its page asked for the first time, then again at the
        # same version (a reader's refresh, the page after each live update)
        long = await long_match(service, 300, rng)
        long_path = base + f"/m/{signer.spectator(long.id, long.guild_id)}"
        firsts: list[float] = []
        again: list[float] = []
        cpu_firsts: list[float] = []  # the process's CPU time (server and client)
        cpu_again: list[float] = []
        offered: list[float] = []
        async with client.get(long_path) as r:  # seen once: kept from here on
            await r.read()
        for ply in (0, 100, 200, 300, 300, 300, 300, 300):  # each after a move: a new
            p, _marks = await service.position(long.id)  # version, its page not kept
            mv = next(mv for mv in p.legal_moves() if p.play(mv).outcome() is None)
            long = (await service.move(long.id, long.to_move[0],
                                       p.variant.format_move(p, mv))).match
            t0, c0 = time.perf_counter(), time.process_time()
            async with client.get(long_path + f"?ply={ply}") as r:
                await r.read()
            firsts.append((time.perf_counter() - t0) * 1000)
            cpu_firsts.append((time.process_time() - c0) * 1000)
            for _ in range(20):
                t0, c0 = time.perf_counter(), time.process_time()
                async with client.get(long_path + f"?ply={ply}") as r:
                    await r.read()
                    assert r.status == 200, r.status
                again.append((time.perf_counter() - t0) * 1000)
                cpu_again.append((time.process_time() - c0) * 1000)
        for _ in range(4):  # a draw offered and declined: new versions, no new move
            await service.offer_draw(long.id, long.to_move[0])
            c0 = time.process_time()
            async with client.get(long_path) as r:
                await r.read()
            offered.append((time.process_time() - c0) * 1000)
            long = await service.decline_draw(long.id, long.to_move[0])
        print(line("300-ply page, first request", firsts))
        print(line("300-ply page, same version again", again))
        print(line("  the same, CPU: first request", cpu_firsts))
        print(line("  the same, CPU: same version again", cpu_again))
        print(line("  the same, CPU: after a draw offer", offered))
        # a move to a spectator's event: a fresh match, its events open, then a move
        m = await service.challenge(1, 2, 901, "damas", opponents=[902])
        m = await service.accept(m.id, 902)
        await service.update_guild_settings(m.guild_id, web=True)
        latencies: list[float] = []
        async with client.get(base + f"/m/{signer.spectator(m.id, m.guild_id)}/events") as r:
            await r.content.readline()
            await r.content.readline()
            for _ in range(10):
                p, _marks = await service.position(m.id)
                mv = rng.choice(list(p.legal_moves()))
                t0 = time.perf_counter()
                m = (await service.move(m.id, m.to_move[0], p.variant.format_move(p, mv))
                     ).match
                while not (await r.content.readline()).startswith(b"data:"):
                    pass
                latencies.append((time.perf_counter() - t0) * 1000)
        print(line("move -> spectator's event", latencies))
    await server.close()
    await repo.close()


if __name__ == "__main__":
    asyncio.run(main())
