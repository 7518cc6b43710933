"""The web pages under hostile requests: what a refused or failed request leaves in the
operator's log, how many live streams one may hold, where a form may come from, and how
an oversized one is refused."""

from __future__ import annotations

import logging

import pytest

from service.errors import StorageUnavailable
from tests.service.conftest import ALICE
from tests.web.conftest import Site, web_match
from tests.web.test_play import player_path


async def test_no_link_token_reaches_the_log_of_a_refused_or_failed_request(
        site: Site, caplog: pytest.LogCaptureFixture,
        monkeypatch: pytest.MonkeyPatch) -> None:
    m = await web_match(site.service, "damas")
    player = await player_path(site, m, ALICE)
    spectator = site.path(m)
    tokens = [player.rsplit("/", 1)[1], spectator.rsplit("/", 1)[1]]
    caplog.set_level(logging.DEBUG, logger="bot.web")

    async def out(*args: object, **kwargs: object) -> None:
        raise StorageUnavailable("db", "connection refused")

    monkeypatch.setattr(site.service, "web_export", out)
    for path in (player, spectator):
        assert (await site.client.get(path)).status == 503

    async def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("a bug")

    monkeypatch.setattr(site.service, "web_export", broken)
    for path in (player, spectator):
        assert (await site.client.get(path)).status == 500
    logged = "\n".join(r.getMessage() + (r.exc_text or "") for r in caplog.records
                       if r.name.startswith("bot.web"))
    assert "/p/{token}" in logged and "/m/{token}" in logged  # the route is named
    assert not any(t in logged for t in tokens)
