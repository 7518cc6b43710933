"""Issue 41: ``tablero web`` serves /healthz, /readyz and /metrics beside its pages (or on
TABLERO_METRICS_PORT), scraped over real HTTP; its requests are counted by route pattern
(never a link's token); /readyz names the database when it cannot answer."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
import socket
from collections.abc import AsyncIterator
from pathlib import Path

import aiohttp
import pytest
from prometheus_client.parser import text_string_to_metric_families

from bot.__main__ import serve_web
from bot.ops.metrics import WEB_PROCESS
from service.errors import DatabaseUnreachable
from storage import SqliteRepository
from tests.outages import ServerDown
from tests.web.conftest import Site, web_match

SECRET = "s" * 40


@contextlib.asynccontextmanager
async def web_process(db: Path | str, *, metrics_port: int | None = None
                      ) -> AsyncIterator[tuple[int, int]]:
    """``tablero web`` on free ports: (the pages' port, the metrics' port)."""
    started: asyncio.Future[tuple[int, int]] = asyncio.get_running_loop().create_future()
    serving = asyncio.create_task(serve_web(db, SECRET, "127.0.0.1", 0,
                                            metrics_port=metrics_port, started=started))
    try:
        yield await asyncio.wait_for(asyncio.shield(started), 30)
    finally:
        serving.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await serving


async def get(port: int, path: str) -> tuple[int, str]:
    async with aiohttp.ClientSession() as session, \
            session.get(f"http://127.0.0.1:{port}{path}") as response:
        return response.status, await response.text()


def samples(text: str) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    return {(s.name, tuple(sorted(s.labels.items()))): s.value
            for family in text_string_to_metric_families(text) for s in family.samples}


async def prepared(tmp_path: Path) -> Path:
    db = tmp_path / "tablero.db"
    repo = await SqliteRepository.open(db)
    await repo.close()
    return db


async def test_the_web_serves_health_and_counts_its_requests(tmp_path: Path) -> None:
    db = await prepared(tmp_path)
    async with web_process(db) as (port, metrics_port):
        assert metrics_port == port  # beside the pages
        assert await get(port, "/healthz") == (200, "ok\n")
        assert await get(port, "/readyz") == (200, "ready\ndatabase: ok\n")
        token = "forged" + "x" * 30
        assert (await get(port, f"/m/{token}"))[0] == 404
        status, text = await get(port, "/metrics")
        assert status == 200
        found = samples(text)
        assert found[("tablero_web_requests_total",
                      (("route", "/m/{token}"), ("status", "4xx")))] == 1
        assert found[("tablero_web_requests_total",
                      (("route", "/healthz"), ("status", "2xx")))] == 1
        assert found[("tablero_ready", ())] == 1
        assert token not in text
        # only what this process measures: no sweep, engine, outbox, Discord or shards
        exported = set(re.findall(r"^# TYPE (tablero_\w+) ", text, re.MULTILINE)) \
            - {"tablero_web_requests_created", "tablero_web_request_seconds_created"}
        assert exported == WEB_PROCESS, exported ^ WEB_PROCESS
        assert "tablero_sweeps" not in text and "tablero_engine_" not in text


async def test_the_web_serves_them_on_the_metrics_port_when_given(tmp_path: Path) -> None:
    db = await prepared(tmp_path)
    async with web_process(db, metrics_port=0) as (port, metrics_port):
        assert metrics_port != port
        assert (await get(port, "/readyz"))[0] == 404  # not among the public pages
        assert await get(metrics_port, "/readyz") == (200, "ready\ndatabase: ok\n")
        await get(port, "/healthz")
        status, text = await get(metrics_port, "/metrics")
        assert status == 200 and 'route="/healthz"' in text


async def test_readyz_names_the_database_while_it_is_down_then_recovers(
        request: pytest.FixtureRequest) -> None:
    server, url = request.getfixturevalue("restartable_postgres_url")
    down = ServerDown(server)
    async with web_process(url) as (port, _):
        assert (await get(port, "/readyz"))[0] == 200
        await down.begin()
        try:
            status, body = await get(port, "/readyz")
            assert status == 503, body
            assert body.startswith("not ready\ndatabase: DatabaseUnreachable"), body
        finally:
            await down.end()
        loop = asyncio.get_running_loop()
        end = loop.time() + 20
        while (await get(port, "/readyz"))[0] != 200:  # by itself: the pool reconnects
            assert loop.time() < end
            await asyncio.sleep(0.05)



async def test_a_taken_metrics_port_is_said_in_one_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = await prepared(tmp_path)
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        code = await serve_web(db, SECRET, "127.0.0.1", 0, metrics_port=port)
    assert code == 1
    said = capsys.readouterr().err
    assert f"tablero web: cannot serve the metrics on 127.0.0.1:{port} (" in said
    assert "Traceback" not in said


async def test_sigterm_stops_the_web_process_after_its_background_writes(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """systemd and containers stop ``tablero web`` with SIGTERM: it stops gracefully
    (exit 0), waiting first for what the matches ended on its pages leave to write
    (``stop_background``), then closes the database."""
    import os
    import signal

    from service import MatchService
    stops: list[float] = []
    real_stop = MatchService.stop_background

    async def recorded(self: MatchService, seconds: float = 5.0) -> object:
        stops.append(seconds)
        return await real_stop(self, seconds)
    monkeypatch.setattr(MatchService, "stop_background", recorded)
    db = await prepared(tmp_path)
    started: asyncio.Future[tuple[int, int]] = asyncio.get_running_loop().create_future()
    serving = asyncio.create_task(serve_web(db, SECRET, "127.0.0.1", 0, started=started))
    await asyncio.wait_for(asyncio.shield(started), 30)
    # the handler is the loop's (else the signal would end this test's process)
    assert signal.getsignal(signal.SIGTERM) not in (signal.SIG_DFL, None)
    os.kill(os.getpid(), signal.SIGTERM)
    assert await asyncio.wait_for(serving, 10) == 0
    assert stops == [5.0]
    assert signal.getsignal(signal.SIGTERM) is signal.SIG_DFL  # given back


async def test_an_outage_is_not_logged_once_per_refused_page(
        site: Site, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch) -> None:
    """The log says an outage in two lines, when the database goes and when it is back
    (the repository's outage log); the pages logged a line more for every request they
    refused meanwhile, so spectators' pages reloading through an outage filled the log.
    A refused move (the service's refusal) is still logged, and so is a failure."""
    m = await web_match(site.service, "damas")
    caplog.set_level(logging.INFO, logger="bot.web")

    async def out(*args: object, **kwargs: object) -> None:
        raise DatabaseUnreachable("db", "connection refused")

    monkeypatch.setattr(site.service, "web_export", out)
    for _ in range(3):
        assert (await site.client.get(site.path(m))).status == 503
    assert [r.getMessage() for r in caplog.records if r.name.startswith("bot.web")] == []
