"""Issue 41: the bot's /healthz, /readyz and /metrics, scraped over real HTTP from the bot
running under SimCord. A move raises the counters; a stopped PostgreSQL server turns
/readyz to 503 naming the database and it comes back by itself; a blocked sweeper and an
outbox that cannot deliver (the fault-injecting HTTP layer) each turn it 503 with the
reason, and it recovers when they do.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import pytest
from prometheus_client.parser import text_string_to_metric_families

from bot.ops.server import OpsServer
from tests.discordapp import faults as faults_module
from tests.discordapp.conftest import SWEEP_SECONDS, World
from tests.discordapp.faults import FaultyHTTP
from tests.discordapp.helpers import reply, start_match, words
from tests.ops.test_deploy import deploy_metrics


class Scraper:
    """GETs against the bot's endpoints on a free port of 127.0.0.1."""

    def __init__(self, port: int) -> None:
        self.base = f"http://127.0.0.1:{port}"

    async def get(self, path: str) -> tuple[int, str]:
        async with aiohttp.ClientSession() as session, \
                session.get(self.base + path) as response:
            return response.status, await response.text()

    async def samples(self) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
        status, text = await self.get("/metrics")
        assert status == 200
        return {(s.name, tuple(sorted(s.labels.items()))): s.value
                for family in text_string_to_metric_families(text) for s in family.samples}

    async def value(self, name: str, **labels: str) -> float:
        return (await self.samples()).get((name, tuple(sorted(labels.items()))), 0.0)

    async def until(self, status: int, seconds: float = 20.0) -> str:
        """/readyz until it answers ``status`` (real time, bounded); its body."""
        loop = asyncio.get_running_loop()
        end = loop.time() + seconds
        while True:
            got, body = await self.get("/readyz")
            if got == status:
                return body
            assert loop.time() < end, f"/readyz stayed {got}: {body}"
            await asyncio.sleep(0.05)


@contextlib.asynccontextmanager
async def serving(world: World) -> AsyncIterator[Scraper]:
    """The bot's endpoints on a free port. Started from the test's own body: its
    requests are then handled in SimCord's scope, on the virtual clock."""
    assert world.bot.ops is not None
    server = OpsServer(world.bot.ops, "127.0.0.1", 0)
    port = await server.start()
    try:
        yield Scraper(port)
    finally:
        await server.stop()


async def test_health_is_served_and_a_move_raises_the_counters(
        world: World) -> None:
    w = world
    async with serving(w) as scraper:
        await _counters(w, scraper)


async def _counters(w: World, scraper: Scraper) -> None:
    assert await scraper.get("/healthz") == (200, "ok\n")
    body = await scraper.until(200)
    assert body.splitlines() == ["ready", "database: ok", "shards: ok", "sweep: ok",
                                 "outbox: ok"]
    _m, thread = await start_match(w, w.alice, w.bob, seat=0)
    before = await scraper.samples()
    played = reply(await w.alice.slash(thread, "move", move="h3-e3"))
    assert "You played" in played.content
    refused = reply(await w.bob.slash(thread, "move", move="h3-e3"))  # not his move
    assert refused.ephemeral
    after = await scraper.samples()

    def grew(name: str, **labels: str) -> float:
        key = (name, tuple(sorted(labels.items())))
        return after.get(key, 0.0) - before.get(key, 0.0)

    assert grew("tablero_interactions_total", command="move", outcome="ok") == 1
    assert grew("tablero_interactions_total", command="move", outcome="refused") == 1
    assert grew("tablero_move_seconds_count") == 2
    assert grew("tablero_moves_total", game="xiangqi") == 1
    assert grew("tablero_deliveries_total", route="thread") >= 1
    assert after[("tablero_ready", ())] == 1
    assert after[("tablero_ready_condition", (("condition", "sweep"),))] == 1
    assert after[("tablero_shard_ready", (("shard", "0"),))] == 1
    assert after[("tablero_outbox_backlog", ())] == 0
    assert after[("tablero_sweep_last_success_timestamp_seconds", ())] > 0
    # every metric the alert rules and the dashboard use is served
    _status, text = await scraper.get("/metrics")
    served = {f.name for f in text_string_to_metric_families(text)} | {
        f"{f.name}_total" for f in text_string_to_metric_families(text) if f.type == "counter"}
    served |= {f"{n}{p}" for n in served for p in ("_bucket", "_sum", "_count")}
    assert deploy_metrics() <= served, deploy_metrics() - served
    # no user, server or channel id is ever a label
    ids = {str(x) for x in (w.alice.id, w.bob.id, w.guild.id, thread.id)}
    labels = {v for _, pairs in after for _, v in pairs}
    assert not labels & ids, labels & ids


async def test_a_blocked_sweep_turns_readyz_503_then_it_recovers(
        world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    w = world
    async with serving(w) as scraper:
        await _blocked_sweep(w, scraper, monkeypatch)


async def _blocked_sweep(w: World, scraper: Scraper, monkeypatch: pytest.MonkeyPatch
                         ) -> None:
    await scraper.until(200)
    release = asyncio.Event()
    entered = asyncio.Event()
    sweep = w.service.sweep

    async def blocked(*args: Any, **kwargs: Any) -> Any:
        entered.set()
        await w.env.external_wait(release.wait(), reason="a sweeper that hangs")
        return await sweep(*args, **kwargs)

    monkeypatch.setattr(w.service, "sweep", blocked)
    await w.env.advance_time(SWEEP_SECONDS)  # the next sweep starts, and hangs
    await asyncio.wait_for(entered.wait(), 10)
    assert (await scraper.get("/readyz"))[0] == 200  # one interval late: not yet
    await w.env.advance_time(3 * SWEEP_SECONDS)
    body = await scraper.until(503)
    assert "sweep: the last deadline sweep finished 4 h ago (expected every 1 h)" in body
    assert body.startswith("not ready\n") and "database: ok" in body
    assert await scraper.value("tablero_ready_condition", condition="sweep") == 0
    release.set()
    await scraper.until(200)
    assert await scraper.value("tablero_ready") == 1


async def test_an_outbox_that_cannot_deliver_turns_readyz_503_then_it_recovers(
        world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    w = world
    # Discord keeps saying "rate limited, try again in 2 min": the relay waits and retries
    monkeypatch.setattr(faults_module, "RETRY_AFTER", 120.0)
    async with serving(w) as scraper:
        await _stuck_outbox(w, scraper)


async def _stuck_outbox(w: World, scraper: Scraper) -> None:
    _m, thread = await start_match(w, w.alice, w.bob, seat=0)
    await scraper.until(200)
    faults = FaultyHTTP.install(w.bot)
    faults.add("POST", f"/channels/{thread.id}/messages", "rate-limited")
    played = reply(await w.alice.slash(thread, "move", move="h3-e3"))
    assert "You played" in played.content  # stored; its announcement cannot go out
    await w.env.advance_time(11 * 60)
    body = await scraper.until(503)
    # the turn's post (which closes the card before it once it is out)
    assert "outbox: the oldest undelivered message waits for 11 min (limit 10 min; " \
        "1 waiting)" in body, body
    samples = await scraper.samples()
    assert samples[("tablero_outbox_backlog", ())] == 1
    assert samples[("tablero_outbox_oldest_age_seconds", ())] >= 11 * 60
    assert samples[("tablero_delivery_failures_total", (("kind", "rate_limited"),))] >= 5
    faults.rules.clear()
    await w.env.advance_time(121)  # the next retry goes through
    await scraper.until(200)
    assert "h3-e3" in words(thread.last_message)
