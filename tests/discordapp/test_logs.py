"""Logs carry match ids and never a bot or interaction token, at any level (issue 12).

Flows run with every logger at DEBUG; every record any logger made is scanned for the
interaction tokens SimCord issued. SimCord stands in for discord.py's HTTP and gateway
layers, whose DEBUG lines quote tokens in production, so those lines are also made here
with discord.py's own format strings and loggers."""

from __future__ import annotations

import logging

import pytest

from tests.discordapp.conftest import World
from tests.discordapp.helpers import play_some_moves, reply, start_match

BOT_TOKEN = "MTQ1NjA3NDQ0Mzk4MDgwMDAwMA.GhIjKl.c2VjcmV0LXBhcnQtb2YtdGhlLWJvdC10b2tlbg"


def logged(caplog: pytest.LogCaptureFixture) -> str:
    """Everything the records would print: messages and tracebacks."""
    formatter = logging.Formatter("%(name)s %(levelname)s %(message)s")
    return "\n".join(formatter.format(r) for r in caplog.records)


async def test_no_token_in_any_log_line(world: World, caplog: pytest.LogCaptureFixture
                                        ) -> None:
    w = world
    with caplog.at_level(logging.DEBUG):
        m, thread = await start_match(w, w.alice, w.bob, seat=0)
        await play_some_moves(w, thread, m.id, 2)

        async def broken(*args: object, **kwargs: object) -> None:
            raise RuntimeError("disk on fire")
        w.service.resign = broken  # type: ignore[method-assign,assignment]
        failed = reply(await w.alice.slash(thread, "resign", match=m.id))
        assert "Sorry" in failed.content
        # discord.py's own DEBUG lines, as its HTTP client and gateway write them
        token = next(r.path.split("/")[3] for r in reversed(w.env.http_requests)
                     if r.path.startswith("/webhooks/"))  # the last interaction's
        assert token.startswith("simcord_interaction_")
        logging.getLogger("discord.http").debug(
            "%s %s with %s has returned %s", "POST",
            f"https://discord.com/api/v10/webhooks/{w.bot.application_id}/{token}", None, 200)
        logging.getLogger("discord.gateway").debug(
            "For Shard ID %s: WebSocket Event: %s", 0,
            {"t": "INTERACTION_CREATE", "d": {"id": "1", "token": token, "type": 2}})
        logging.getLogger("discord.client").info("logging in using static token %s",
                                                 BOT_TOKEN)
        try:
            raise ConnectionError(f"POST /interactions/1/{token}/callback failed")
        except ConnectionError:
            logging.getLogger("discord.http").exception("request failed")
    text = logged(caplog)
    assert "simcord_interaction_" not in text
    assert token not in text and BOT_TOKEN not in text
    assert text.count("<redacted>") >= 4
    # the unexpected error names the interaction's command and match, not its token
    (error,) = [r for r in caplog.records if r.levelno == logging.ERROR
                and "unexpected error" in r.getMessage()]
    assert f"in match {m.id}" in error.getMessage() and "/resign" in error.getMessage()
