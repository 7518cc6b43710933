"""Issue 41: the image's HEALTHCHECK command (``python -m bot.ops.probe``), run as the
container runs it, against real endpoints on a free port: exit 0 while /readyz says
ready, 1 with the reason when a condition fails, 1 when nothing answers."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from pathlib import Path

from bot.ops.health import Readiness
from bot.ops.metrics import Metrics
from bot.ops.server import Operations, OpsServer

ROOT = Path(__file__).resolve().parents[2]


class Switch:
    name = "sweep"

    def __init__(self) -> None:
        self.why: str | None = None

    async def failure(self) -> str | None:
        return self.why


async def probe(port: int) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("TABLERO_")}
    env["TABLERO_METRICS_PORT"] = str(port)
    return await asyncio.to_thread(
        subprocess.run, [sys.executable, "-m", "bot.ops.probe", "--timeout", "5"],
        cwd=ROOT, env=env, text=True, capture_output=True, timeout=60, check=False)


async def test_the_health_check_command_follows_readyz() -> None:
    switch = Switch()
    metrics = Metrics()
    server = OpsServer(Operations(metrics, Readiness([switch], metrics)), "127.0.0.1", 0)
    port = await server.start()
    try:
        ready = await probe(port)
        assert ready.returncode == 0, ready.stderr
        switch.why = "the last deadline sweep finished 4 h ago (expected every 1 h)"
        stalled = await probe(port)
        assert stalled.returncode == 1
        assert "sweep: the last deadline sweep finished 4 h ago" in stalled.stderr
    finally:
        await server.stop()
    gone = await probe(port)
    assert gone.returncode == 1 and "no answer from http://127.0.0.1:" in gone.stderr


def test_the_health_check_asks_where_the_endpoints_listen() -> None:
    """TABLERO_METRICS_HOST set to one address (an internal interface, not 0.0.0.0): the
    endpoints listen there alone, and the probe, which always asked 127.0.0.1, found
    nothing, so the container stayed unhealthy however ready Tablero was."""
    from bot.ops.probe import health_url

    assert health_url({"TABLERO_METRICS_HOST": "10.0.0.5", "TABLERO_METRICS_PORT": "9500"}
                      ) == "http://10.0.0.5:9500/readyz"
    assert health_url({"TABLERO_METRICS_HOST": "fd00::5"}) == "http://[fd00::5]:9464/readyz"
    for everywhere in ("0.0.0.0", "::", " ", "127.0.0.1"):  # every address: this machine
        assert health_url({"TABLERO_METRICS_HOST": everywhere}) == (
            "http://127.0.0.1:9464/readyz")
