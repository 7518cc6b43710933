"""Fixtures of the web tests: a match service over a memory repository with the real
renderer, the web application over it on a real local port, and helpers."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator
from dataclasses import dataclass

import pytest
from aiohttp.test_utils import TestClient, TestServer

from bot.boards import load_renderer
from bot.web.app import WebApp
from bot.web.links import LinkSigner
from service import MatchService, MatchView
from storage import MemoryRepository
from tests.service.conftest import ALICE, BOB, CHANNEL, GUILD, Recorder, SetClock

SECRET = b"a web secret for the tests, 32+ characters long"
NAMES = {ALICE: "alice", BOB: "bob"}


@dataclass
class Site:
    service: MatchService
    signer: LinkSigner
    client: TestClient  # type: ignore[type-arg]
    recorder: Recorder  # what the service announced (the thread's posts, in Discord)
    web: WebApp | None = None  # the pages' application (its rate limiter, for a test's pace)

    def path(self, match: MatchView) -> str:
        return f"/m/{self.signer.spectator(match.id, match.guild_id)}"


@pytest.fixture
async def site() -> AsyncIterator[Site]:
    repo = MemoryRepository()
    recorder = Recorder()
    service = MatchService(repo, recorder, SetClock(), renderer=load_renderer(),
                           rng=random.Random(7), names=lambda g, u: NAMES.get(u, ""))
    signer = LinkSigner(SECRET)
    app = WebApp(service, signer, poll_seconds=0.05, keepalive_seconds=0.5)
    client = TestClient(TestServer(app.application()))
    await client.start_server()
    try:
        yield Site(service, signer, client, recorder, app)
    finally:
        await client.close()
        await repo.close()


async def web_match(service: MatchService, game: str = "damas", *, web: bool = True,
                    options: dict[str, object] | None = None) -> MatchView:
    """Alice challenges Bob to ``game`` in a server with the web on (or off); Bob accepts."""
    await service.update_guild_settings(GUILD, web=web)
    m = await service.challenge(GUILD, CHANNEL, ALICE, game, opponents=[BOB],
                                options=options, seat=0)
    return await service.accept(m.id, BOB)


CHROMIUM = "/usr/bin/chromium"
INSTALL = (["apt-get", "install", "-y", "-q", "chromium"], ["apt-get", "update", "-q"],
           ["apt-get", "install", "-y", "-q", "chromium"])


@pytest.fixture(scope="session")
def chromium() -> str:
    """Debian's Chromium, installed first where the tests can (root with apt-get, as in
    CI); Playwright drives it (never a browser build of its own). One apt-get at a time:
    the same lock as the engine tests' install (parallel workers, other runs)."""
    import fcntl
    import os
    import shutil
    import subprocess

    from tests.engine.conftest import INSTALL_LOCK

    if not os.path.exists(CHROMIUM) and hasattr(os, "geteuid") and os.geteuid() == 0 \
            and shutil.which("apt-get") is not None:
        with INSTALL_LOCK.open("a") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
            for command in INSTALL:
                if os.path.exists(CHROMIUM):
                    break
                subprocess.run(command, env=env, stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL, timeout=900, check=False)
    assert os.path.exists(CHROMIUM), "install Debian's chromium: apt-get install chromium"
    return CHROMIUM
