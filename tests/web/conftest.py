"""Fixtures of the web tests: a match service over a memory repository with the real
renderer, the web application over it on a real local port, a real browser, and helpers.

The tests that use them run in the session's event loop (``pytest_collection_modifyitems``
below), as these fixtures do: one Chromium serves all the browser tests of a worker (a
Playwright driver and a Chromium started per test cost about a second of CPU time and,
under load, several seconds of wall time each; a fresh context costs little), and
Playwright's objects belong to the loop that started them."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path

import pytest
import pytest_asyncio
from aiohttp.test_utils import TestClient, TestServer
from playwright.async_api import Browser, Playwright, async_playwright

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


HERE = Path(__file__).resolve().parent


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The tests of this folder that use ``site`` or ``browser`` run in the session's
    loop, as those fixtures do (the folder's other tests may use fixtures of the test's
    own loop: ``repo``)."""
    on_session_loop = pytest.mark.asyncio(loop_scope="session")
    for item in items:
        if HERE in item.path.parents and pytest_asyncio.is_async_test(item) \
                and {"site", "browser"} & set(getattr(item, "fixturenames", ())):
            item.add_marker(on_session_loop, append=False)


@pytest_asyncio.fixture(loop_scope="session")
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


CHROMIUM = "/usr/bin/chromium-headless-shell"
"""Debian's Chromium without its windows (package chromium-headless-shell, the same
Blink): it draws, lays out and runs the pages as the whole browser does, for half the CPU
time (measured, the eleven browser modules in one process: 66 s with /usr/bin/chromium,
38 s with it)."""
WHOLE_CHROMIUM = "/usr/bin/chromium"
"""The whole browser (package chromium), driven where the headless shell cannot be had."""
INSTALL = (["apt-get", "install", "-y", "-q", "chromium-headless-shell"],
           ["apt-get", "update", "-q"],
           ["apt-get", "install", "-y", "-q", "chromium-headless-shell"])


@pytest.fixture(scope="session")
def chromium() -> str:
    """Debian's headless Chromium, installed first where the tests can (root with
    apt-get, as in CI); Playwright drives it (never a browser build of its own). One
    apt-get at a time: the same lock as the engine tests' install (parallel workers, other
    runs). Without it, the whole browser where it is installed."""
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
    found = next((path for path in (CHROMIUM, WHOLE_CHROMIUM) if os.path.exists(path)), None)
    assert found is not None, \
        "install Debian's headless chromium: apt-get install chromium-headless-shell"
    return found


@dataclass
class _Chromium:
    playwright: Playwright | None = None
    browser: Browser | None = None


@pytest_asyncio.fixture(scope="session", loop_scope="session")
async def _one_chromium(chromium: str) -> AsyncIterator[_Chromium]:
    """The worker's Chromium, started when a test first asks for it (``browser``)."""
    started = _Chromium()
    try:
        yield started
    finally:
        if started.browser is not None:
            await started.browser.close()
        if started.playwright is not None:
            await started.playwright.stop()


@pytest_asyncio.fixture(loop_scope="session")
async def browser(_one_chromium: _Chromium, chromium: str) -> AsyncIterator[Browser]:
    """The worker's Chromium driven by Playwright (started again if it went away). A
    test opens its pages in contexts of their own (``Browser.new_page`` makes one a
    page); whatever it leaves open is closed after it, so no test sees another's pages,
    cookies or storage."""
    if _one_chromium.playwright is None:
        _one_chromium.playwright = await async_playwright().start()
    if _one_chromium.browser is None or not _one_chromium.browser.is_connected():
        _one_chromium.browser = await _one_chromium.playwright.chromium.launch(
            executable_path=chromium, args=["--no-sandbox"])
    shared = _one_chromium.browser
    yield shared
    for context in shared.contexts:
        await context.close()
