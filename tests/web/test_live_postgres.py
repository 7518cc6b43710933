"""Live updates on PostgreSQL come by LISTEN/NOTIFY (on the real server tests/postgres.py
starts): a spectator's stream hears of a move played by another process on the same
database at once, though the web polls only every 30 s; on SQLite the web polls."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

import pytest
from aiohttp.test_utils import TestClient, TestServer

from bot.web.app import WebApp
from bot.web.links import LinkSigner
from service import MatchService
from tests.conftest import open_repository_of
from tests.service.conftest import ALICE, Recorder, SetClock
from tests.web.conftest import NAMES, SECRET, web_match


async def heard_within(kind: str, tmp_path: Path, request: pytest.FixtureRequest,
                       poll: float) -> tuple[float, bool]:
    """How long a spectator's stream took to hear of a move played through a second
    repository (another process) on the same database; whether the web listened."""
    web_repo = await open_repository_of(kind, tmp_path, request)
    bot_repo = web_repo if kind == "memory" else await open_repository_of(kind, tmp_path,
                                                                           request)
    web_service = MatchService(web_repo, Recorder(), SetClock(), names=lambda g, u:
                               NAMES.get(u, ""))
    bot_service = MatchService(bot_repo, Recorder(), SetClock(), rng=random.Random(7))
    signer = LinkSigner(SECRET)
    app = WebApp(web_service, signer, poll_seconds=poll, keepalive_seconds=60)
    client = TestClient(TestServer(app.application()))
    await client.start_server()
    try:
        m = await web_match(bot_service, "damas")
        path = f"/m/{signer.spectator(m.id, m.guild_id)}/events"
        async with client.get(path) as stream:
            assert await stream.content.readline() == b"retry: 2000\n"
            await stream.content.readline()
            await asyncio.sleep(0.2)  # the stream waits on the watch
            loop = asyncio.get_running_loop()
            started = loop.time()
            moved = (await bot_service.move(m.id, ALICE, "b3-a4")).match
            lines: list[bytes] = []
            while not lines or not lines[-1].startswith(b"data:"):
                line = await asyncio.wait_for(stream.content.readline(), 5.0)
                if line.strip() and not line.startswith(b":"):
                    lines.append(line.strip())
            took = loop.time() - started
            assert lines[-2:] == [b"event: change", f"data: {moved.version}".encode()]
            return took, bool(app.watch.listening)
    finally:
        await client.close()
        if bot_repo is not web_repo:
            await bot_repo.close()
        await web_repo.close()


async def test_on_postgresql_a_move_from_another_process_is_heard_by_notify(
        tmp_path: Path, request: pytest.FixtureRequest) -> None:
    took, listened = await heard_within("postgres", tmp_path, request, poll=30.0)
    assert listened and took < 1.0  # polling every 30 s could not have


async def test_on_sqlite_the_web_polls(tmp_path: Path, request: pytest.FixtureRequest
                                       ) -> None:
    took, listened = await heard_within("sqlite", tmp_path, request, poll=0.05)
    assert not listened and took < 1.0
