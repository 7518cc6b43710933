"""The web pages under hostile requests: what a refused or failed request leaves in the
operator's log, how many live streams one may hold, where a form may come from, how an
oversized one is refused, the headers of every response, and how many board pictures one
link may have drawn."""

from __future__ import annotations

import asyncio
import logging

import pytest

from bot.web.app import RateLimiter
from service.errors import StorageUnavailable
from tests.service.conftest import ALICE, BOB
from tests.web.conftest import Site, web_match
from tests.web.test_play import form_of, player_path


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


async def test_a_form_is_taken_from_its_page_behind_a_tls_proxy_and_never_from_elsewhere(
        site: Site) -> None:
    """Behind a proxy that ends TLS the page is https while the server is asked over
    http: the browser's own word (``Sec-Fetch-Site``), else the Origin's host, decides;
    a form from another site is refused whatever else it carries."""
    m = await web_match(site.service, "damas")
    path = await player_path(site, m, ALICE)
    html = await (await site.client.get(path)).text()
    host = f"{site.client.host}:{site.client.port}"

    async def draw(headers: dict[str, str], action: str, to: str = "/draw") -> int:
        r = await site.client.post(path + to, data={**form_of(html), "action": action},
                                   headers=headers, allow_redirects=False)
        return r.status

    assert await draw({"Sec-Fetch-Site": "cross-site"}, "offer") == 403
    assert await draw({"Sec-Fetch-Site": "same-site", "Origin": f"http://{host}"},
                      "offer") == 403
    assert await draw({"Origin": "https://evil.example"}, "offer") == 403
    assert await draw({"Origin": "null"}, "offer") == 403
    assert (await site.service.get_match(m.id)).draw_offer_by is None
    assert await draw({"Origin": f"https://{host}"}, "offer") == 303  # an older browser
    assert (await site.service.get_match(m.id)).draw_offer_by == ALICE
    assert await draw({"Sec-Fetch-Site": "same-origin", "Origin": f"https://{host}"},
                      "", "/resign") == 303
    assert not (await site.service.get_match(m.id)).status.is_live


async def test_live_streams_past_the_limit_are_told_to_come_back_later(
        site: Site, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each live stream holds a connection for as long as its reader stays: past
    ``max_streams`` a new one is told to retry later and closed at once, and the slot of
    a reader who left is free again."""
    assert site.web is not None
    monkeypatch.setattr(site.web, "max_streams", 1, raising=False)
    m = await web_match(site.service, "damas")
    events = site.path(m) + "/events"
    held = await site.client.get(events)
    assert await held.content.readline() == b"retry: 2000\n"
    async with site.client.get(events) as turned_away:
        assert turned_away.status == 200  # (an EventSource refused gives up for good)
        async with asyncio.timeout(10.0):  # (a stream let in would never end)
            assert await turned_away.read() == b"retry: 30000\n\n"
    held.close()
    async with asyncio.timeout(10.0):  # the next keep-alive finds the reader gone
        while site.web.streams:
            await asyncio.sleep(0.05)
    async with site.client.get(events) as again:
        assert await again.content.readline() == b"retry: 2000\n"


async def test_an_oversized_form_is_refused_in_words_of_its_own(site: Site) -> None:
    m = await web_match(site.service, "damas")
    path = await player_path(site, m, ALICE)
    html = await (await site.client.get(path)).text()
    r = await site.client.post(path + "/move", data={**form_of(html), "move": "x" * 70_000},
                               allow_redirects=False, headers={"Accept-Language": "de"})
    page = await r.text()
    assert r.status == 413 and "Traceback" not in page
    assert "<h1>Zu groß</h1>" in page and "höchstens 64 KB" in page
    assert (await site.service.get_match(m.id)).ply == 0


async def test_every_response_carries_the_same_headers_and_names_no_software_version(
        site: Site) -> None:
    m = await web_match(site.service, "damas")
    wanted = {"X-Content-Type-Options": "nosniff", "Referrer-Policy": "same-origin",
              "X-Frame-Options": "DENY", "Server": "Tablero"}
    for path in ("/", site.path(m), site.path(m) + "/board/0.png", "/static/site.css",
                 "/m/forged", "/healthz"):
        r = await site.client.get(path)
        assert {k: r.headers.get(k) for k in wanted} == wanted, path
        assert "frame-ancestors 'none'" in r.headers["Content-Security-Policy"], path
    async with site.client.get(site.path(m) + "/events") as stream:
        assert {k: stream.headers.get(k) for k in wanted} == wanted
        assert "frame-ancestors 'none'" in stream.headers["Content-Security-Policy"]


async def test_board_pictures_drawn_for_one_link_are_rate_limited_and_kept_ones_are_not(
        site: Site, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each picture not drawn yet costs a drawing: past the limit a link's address is
    refused more (429) until the bucket fills again; one drawn already is served."""
    assert site.web is not None
    monkeypatch.setattr(site.web, "renders", RateLimiter(lambda: 0.0, 60, burst=2),
                        raising=False)
    m = await web_match(site.service, "damas")
    for user, move in ((ALICE, "b3-a4"), (BOB, "a6-b5")):
        m = (await site.service.move(m.id, user, move)).match
    board = site.path(m) + "/board/{}.png"
    assert [(await site.client.get(board.format(p))).status for p in (0, 1, 2)] \
        == [200, 200, 429]
    assert (await site.client.get(board.format(0))).status == 200  # drawn already
