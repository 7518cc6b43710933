"""The match page in a real browser (Playwright driving Debian's Chromium): at a phone's
and a desktop's size, stepped by keys, buttons and the move list, and live: a move played
through the service appears without a reload (on a player's page, the tab's title says
when his turn came). Screenshots go to TABLERO_SCREENSHOTS
when it is set."""

from __future__ import annotations

import asyncio
import os
from pathlib import Path

from playwright.async_api import Browser, Page
from playwright.async_api import Error as PlaywrightError

from tests.service.conftest import ALICE, BOB
from tests.web.conftest import Site, web_match

SIZES = {"phone": (390, 844), "desktop": (1280, 900)}


async def until(page: Page, expression: str, seconds: float) -> float:
    """Wait until ``expression`` is true in the page; how long that took. It is watched
    in the page itself (``WATCH``: looked at every 20 ms there, not asked from here each
    time, which cost the test, Playwright's driver and the page a round trip each); the
    page's CSP forbids the string evaluation of ``wait_for_function``. A page between two
    documents (a tapped move's form posted) is watched again once the next is there."""
    loop = asyncio.get_running_loop()
    started = loop.time()
    while True:
        left = seconds - (loop.time() - started)
        assert left > 0, f"not true after {seconds} s: {expression}"
        if await _evaluated(page, WATCH % (round(left * 1000), expression)):
            return loop.time() - started
        await asyncio.sleep(0.02)


WATCH = """new Promise((done, failed) => {
    const end = Date.now() + %d;
    const look = () => {
        let now;
        try { now = (%s); } catch (e) { failed(e); return; }
        if (now) { done(true); } else if (Date.now() > end) { done(false); }
        else { setTimeout(look, 20); }
    };
    look();
})"""
"""An expression watched in the page (``until``): true once it is, false when the time
given (in ms) ran out first; its error, if it raised one."""


async def settled_content(page: Page, seconds: float = 10.0) -> str:
    """The page's HTML once it is not between two documents (``page.content()`` refuses
    while the page is navigating: after a tapped move's form the page loads again)."""
    loop = asyncio.get_running_loop()
    started = loop.time()
    while True:
        try:
            return await page.content()
        except PlaywrightError as e:
            if "navigat" not in str(e) or loop.time() - started > seconds:
                raise
            await page.wait_for_load_state("load")


async def _evaluated(page: Page, expression: str) -> object:
    """``expression``'s value, or False while the page is between two documents (a tapped
    move posts a form and the page loads again: asked then, Playwright says "page is
    navigating" or "execution context was destroyed" — not yet, rather than a failure)."""
    try:
        return await page.evaluate(expression)
    except PlaywrightError as e:
        if "navigat" in str(e) or "context was destroyed" in str(e):
            return False
        raise


async def test_a_live_match_page_steps_and_updates_in_a_real_browser(
        site: Site, browser: Browser) -> None:
    m = await web_match(site.service, "damas")
    m = (await site.service.move(m.id, ALICE, "b3-a4")).match
    m = (await site.service.move(m.id, BOB, "a6-b5")).match
    url = str(site.client.make_url(site.path(m)))
    shots = os.environ.get("TABLERO_SCREENSHOTS")
    for size, (width, height) in SIZES.items():
        page = await browser.new_page(viewport={"width": width, "height": height})
        requests: list[str] = []
        page.on("request", lambda r, seen=requests: seen.append(r.url))
        await page.goto(url + "?lang=en-US")
        board = page.locator("#board")
        await until(page, "document.getElementById('board').naturalWidth > 0", 10)
        assert "/board/2.png" in (await board.get_attribute("src") or "")
        # no horizontal scrolling at a phone's width
        assert await page.evaluate(
            "document.documentElement.scrollWidth <= window.innerWidth")
        if shots:
            await page.screenshot(path=str(Path(shots) / f"match-{size}.png"),
                                  full_page=True)
        await page.keyboard.press("ArrowLeft")
        assert "/board/1.png" in (await board.get_attribute("src") or "")
        assert "after 1 move" in (await board.get_attribute("alt") or "")
        await page.get_by_role("link", name="first position").click()
        assert "/board/0.png" in (await board.get_attribute("src") or "")
        assert "ply=0" in page.url
        await page.keyboard.press("End")
        assert "/board/2.png" in (await board.get_attribute("src") or "")
        await page.get_by_role("link", name="previous position").click()
        assert "/board/1.png" in (await board.get_attribute("src") or "")
        await page.get_by_role("link", name="next position").click()
        assert "/board/2.png" in (await board.get_attribute("src") or "")
        await page.locator('#moves a[data-ply="1"]').click()
        assert "/board/1.png" in (await board.get_attribute("src") or "")
        assert all(r.startswith(str(site.client.make_url("/"))) for r in requests)
        await page.close()
    # live: a move made elsewhere appears without a reload, within a second or so
    page = await browser.new_page(viewport={"width": 390, "height": 844})
    await page.goto(url)
    await page.evaluate("window.notReloaded = true")
    await page.wait_for_timeout(300)  # the event stream is open
    await site.service.move(m.id, ALICE, "f3-g4")
    took = await until(page, "document.querySelectorAll('#moves a').length === 3", 2)
    print(f"move to spectator's screen: {took * 1000:.0f} ms")
    assert await page.evaluate("window.notReloaded === true")
    assert "/board/3.png" in (await page.locator("#board").get_attribute("src") or "")
    await page.close()
    # a challenge's page (no board yet) becomes the match's once it is accepted
    waiting = await site.service.challenge(m.guild_id, m.channel_id, BOB, "damas",
                                           opponents=[ALICE])
    page = await browser.new_page(viewport={"width": 390, "height": 844})
    await page.goto(str(site.client.make_url(site.path(waiting))) + "?lang=en-US")
    assert await page.locator("#board").count() == 0
    await page.wait_for_timeout(300)  # the event stream is open
    await site.service.accept(waiting.id, ALICE)
    await until(page, "document.getElementById('board') !== null", 5)
    await page.close()


async def test_a_player_plays_by_tapping_in_a_real_browser(site: Site, browser: Browser) -> None:
    import time

    from bot.web.links import PlayerPass

    m = await web_match(site.service, "damas")
    epoch = await site.service.web_pass(m.id, ALICE)
    token = site.signer.player(PlayerPass(m.id, m.guild_id, ALICE, int(time.time()) + 600,
                                          epoch))
    shots = os.environ.get("TABLERO_SCREENSHOTS")
    page = await browser.new_page(viewport={"width": 390, "height": 844})
    await page.goto(str(site.client.make_url(f"/p/{token}?lang=en-US")))
    assert await page.title() == f"(Your move) Match #{m.id}: Spanish draughts"
    # the keyboard: the board's points are one stop of Tab (a toolbar), each read out as
    # the point and what stands there; the arrow keys move between the points that can
    # be tapped, Enter and Space tap one (here a piece tapped and tapped back)
    points = page.locator("#taps[role=toolbar] .spot")
    assert await page.locator("#taps").get_attribute("aria-label") == \
        "Points of the board (arrow keys move between them)"
    assert await points.count() == 8  # its men that can move and where they go
    assert await page.locator('.spot[tabindex="0"]').count() == 1
    first = page.locator('.spot[tabindex="0"]')
    assert await first.get_attribute("aria-label") == "b3, man (White)"
    await first.focus()
    await page.keyboard.press("ArrowRight")
    focused = "document.activeElement.getAttribute('aria-label')"
    assert await page.evaluate(focused) == "d3, man (White)"
    assert await page.locator('.spot[tabindex="0"]').get_attribute("data-point") == "d3"
    await page.keyboard.press("End")
    assert await page.evaluate(focused) == "h3, man (White)"
    await page.keyboard.press("Enter")  # tapped: where it goes may be tapped now
    assert await page.locator('.spot[data-point="h3"]').get_attribute("aria-pressed") \
        == "true"
    await page.keyboard.press("ArrowUp")
    assert await page.evaluate(focused) == "g4, empty"
    await page.locator('.spot[data-point="h3"]').focus()
    await page.keyboard.press("Space")  # tapped again: taken back
    assert await page.locator('.spot[aria-pressed="true"]').count() == 0
    await page.locator("summary", has_text="b3").click()  # tap a piece
    if shots:
        await page.screenshot(path=str(Path(shots) / "play-phone.png"), full_page=True)
    await page.get_by_role("button", name="b3-a4 (12-16)").click()  # its target
    await until(page, "document.querySelectorAll('#moves a').length === 1", 5)
    assert "b3-a4" in await page.locator("#moves").inner_text()
    after = await site.service.get_match(m.id)
    assert after.ply == 1 and after.to_move == (BOB,)
    assert await page.title() == f"Match #{m.id}: Spanish draughts"
    # her turn comes back live: the tab says so without a reload
    await page.evaluate("window.notReloaded = true")
    await page.wait_for_timeout(300)  # the event stream is open
    await site.service.move(m.id, BOB, "a6-b5")
    await until(page, "document.title.startsWith('(Your move) ')", 5)
    assert await page.evaluate("window.notReloaded === true")
