"""Issue 41: ``TABLERO_LOG_FORMAT=json`` under the real bot: every line is one JSON object
(time, level, logger, message), a command's lines carry its server, shard and match, a
delivery's its match, and the token redaction holds (messages and tracebacks)."""

from __future__ import annotations

import io
import json
import logging
from collections.abc import Iterator
from typing import Any

import pytest

from bot.ops.logs import JsonFormatter
from service.shards import shard_of
from tests.discordapp.conftest import SHARDS, World
from tests.discordapp.faults import FaultyHTTP
from tests.discordapp.helpers import reply, start_match

BOT_TOKEN = "MTQ1NjA3NDQ0Mzk4MDgwMDAwMA.GhIjKl.c2VjcmV0LXBhcnQtb2YtdGhlLWJvdC10b2tlbg"


@pytest.fixture
def json_log() -> Iterator[io.StringIO]:
    """Every record, formatted as TABLERO_LOG_FORMAT=json formats it."""
    out = io.StringIO()
    handler = logging.StreamHandler(out)
    handler.setFormatter(JsonFormatter())
    root = logging.getLogger()
    level = root.level
    root.addHandler(handler)
    root.setLevel(logging.DEBUG)
    try:
        yield out
    finally:
        root.removeHandler(handler)
        root.setLevel(level)


def lines_of(out: io.StringIO) -> list[dict[str, Any]]:
    text = out.getvalue()
    parsed = [json.loads(line) for line in text.splitlines()]  # each line is one object
    for line in parsed:
        assert {"time", "level", "logger", "message"} <= set(line), line
        assert line["time"].endswith("Z") and line["level"] in (
            "DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")
    return parsed


async def test_json_lines_carry_server_shard_match_and_no_token(
        world: World, json_log: io.StringIO) -> None:
    w = world
    m, thread = await start_match(w, w.alice, w.bob, seat=0)

    async def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("disk on fire")
    w.service.resign = broken  # type: ignore[method-assign,assignment]
    failed = reply(await w.alice.slash(thread, "resign", match=m.id))
    assert "Sorry" in failed.content
    token = next(r.path.split("/")[3] for r in reversed(w.env.http_requests)
                 if r.path.startswith("/webhooks/"))
    logging.getLogger("discord.http").debug(
        "%s %s has returned %s", "POST",
        f"https://discord.com/api/v10/webhooks/{w.bot.application_id}/{token}", 200)
    logging.getLogger("discord.client").info("logging in using static token %s", BOT_TOKEN)
    try:
        raise ConnectionError(f"POST /interactions/1/{token}/callback failed")
    except ConnectionError:
        logging.getLogger("discord.http").exception("request failed")
    # a delivery the thread refuses: its lines name the match
    faults = FaultyHTTP.install(w.bot)
    faults.add("POST", f"/channels/{thread.id}/messages", "missing-access")
    played = reply(await w.alice.slash(thread, "move", move="h3-e3"))
    assert "You played" in played.content

    text = json_log.getvalue()
    assert token not in text and BOT_TOKEN not in text and "simcord_interaction_" not in text
    lines = lines_of(json_log)
    shard = shard_of(w.guild.id, SHARDS)
    (error,) = [line for line in lines if line["message"].startswith("unexpected error")]
    assert error["level"] == "ERROR" and error["logger"] == "tablero.discord"
    assert (error["match"], error["server"], error["shard"]) == (m.id, w.guild.id, shard)
    assert "RuntimeError: disk on fire" in error["exception"]
    (failure,) = [line for line in lines if line["message"] == "request failed"]
    assert "<redacted>" in failure["exception"] and "ConnectionError" in failure["exception"]
    refused = [line for line in lines if "cannot post in" in line["message"]]
    assert refused and all((r["match"], r["server"], r["shard"]) == (m.id, w.guild.id, shard)
                           for r in refused), refused
    # a line made outside any interaction or delivery names none
    logging.getLogger("tablero").info("outside")
    (outside,) = [line for line in lines_of(json_log) if line["message"] == "outside"]
    assert not {"match", "server", "shard"} & set(outside)
