"""What a demanding reader trips over in a real browser (Playwright driving Debian's
Chromium, as ``test_browser``; the pages' words are ``test_walk_pages``'): the arrow keys,
Home and End typed into Querni's arrangement field move its caret (the page steps the
board with them everywhere else), an arrangement half tapped or typed stays when the
opponent hands in his (the page follows the change), a draw offer, today's, is not said
at an earlier ply stepped to, the keyboard's focus stays where it was when a change
redraws the page and the change is said to a screen reader, and the language switch keeps
the ply stepped to."""

from __future__ import annotations

import pytest
from playwright.async_api import Browser

from tests.service.conftest import ALICE, BOB, GUILD
from tests.web.conftest import NAMES, Site, web_match
from tests.web.test_browser import until
from tests.web.test_tap_games import link


async def test_keys_typed_into_a_field_and_a_draw_offer_stepped_back(
        site: Site, browser: Browser) -> None:
    querni = await web_match(site.service, "querni", options={"setup": "choose"})
    damas = await web_match(site.service, "damas")
    damas = (await site.service.move(damas.id, ALICE, "b3-a4")).match
    await site.service.offer_draw(damas.id, BOB)
    page = await browser.new_page(viewport={"width": 390, "height": 844})
    await page.goto(await link(site, querni, ALICE))
    for cell in ("a1", "b1", "c1"):  # half an arrangement tapped
        await page.locator(f'.spot[data-point="{cell}"]').click()
    field = page.locator("#arrangement")
    await field.click()
    await page.keyboard.type("1 2")
    for key in ("ArrowLeft", "ArrowLeft"):
        await page.keyboard.press(key)
    await page.keyboard.type("x")
    await page.keyboard.press("Home")
    await page.keyboard.type("y")
    assert await field.input_value() == "y1x 2"
    # the opponent hands his in meanwhile: the page follows, his own work stays
    await page.evaluate("document.getElementById('status').dataset.old = '1'")
    await site.service.submit_setup(querni.id, BOB, " ".join(
        str(n) for n in range(16, 0, -1)))
    await until(page, "!document.querySelector('#status[data-old]')", 5)
    assert await page.locator(".spot.placed").count() == 3
    assert await page.locator('.spot[data-point="b1"]').inner_text() == "2"
    assert await field.input_value() == "y1x 2"

    await page.goto(str(site.client.make_url(site.path(damas))) + "?lang=en-US")
    offer = page.locator("#offer")
    assert "bob (Black) offers a draw" in await offer.inner_text()
    await page.keyboard.press("ArrowLeft")  # the start: no offer then
    assert await offer.is_hidden()
    await page.keyboard.press("End")
    assert await offer.is_visible()
    # a change redraws the page: the keyboard's focus stays where it was
    await page.locator('.step[data-step="first"]').focus()
    await page.evaluate("document.getElementById('status').dataset.old = '1'")
    await site.service.move(damas.id, BOB, "a6-b5")
    await until(page, "!document.querySelector('#status[data-old]')", 5)
    assert await page.evaluate("document.activeElement.dataset.step") == "first"
    # the move is said to a screen reader, in a live region the redrawing left in place
    news = page.locator("#news[role=status]")
    assert await news.count() == 1
    assert (await news.inner_text()).endswith("last move a6-b5 (24-20)")
    assert await page.evaluate("!document.getElementById('main').contains("
                               "document.getElementById('news'))")
    # the language switch keeps the ply stepped to
    await page.keyboard.press("Home")
    async with page.expect_navigation():
        await page.get_by_role("link", name="Deutsch").click()
    assert await page.locator("html").get_attribute("lang") == "de"
    assert "/board/0.png" in (await page.locator("#board").get_attribute("src") or "")


async def test_a_long_name_wraps_on_a_phone(site: Site, browser: Browser,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    """A display name may be 32 characters without a space: it wraps on the match page,
    the server's page and the player's page instead of widening them past the screen."""
    monkeypatch.setitem(NAMES, BOB, "W" * 32)
    m = await web_match(site.service, "xiangqi")
    await site.service.move(m.id, ALICE, "h3-e3")
    base = str(site.client.make_url(site.path(m)))
    server = str(site.client.make_url(f"/s/{site.signer.server(GUILD)}"))
    page = await browser.new_page(viewport={"width": 320, "height": 700})
    for url in (base, server, f"{base}/player/1"):
        await page.goto(url + "?lang=en-US")
        assert "W" * 32 in await page.locator("main").inner_text(), url
        assert await page.evaluate(
            "document.documentElement.scrollWidth <= window.innerWidth"), url


async def test_a_wide_screen_puts_the_clock_beside_the_board_and_no_script_no_live_word(
        site: Site, browser: Browser) -> None:
    m = await web_match(site.service, "damas")
    for user, move in ((ALICE, "b3-a4"), (BOB, "a6-b5")):
        m = (await site.service.move(m.id, user, move)).match
    page = await browser.new_page(viewport={"width": 1280, "height": 900})
    await page.goto(str(site.client.make_url(site.path(m))) + "?lang=en-US")
    board = await page.locator("#board").bounding_box()
    assert board is not None
    for part in ("section.players", "section.clock", "section.moves"):
        box = await page.locator(part).bounding_box()
        assert box is not None
        # right of the board, and starting beside it (not below it)
        assert box["x"] >= board["x"] + board["width"], part
        assert box["y"] < board["y"] + board["height"], part
    assert await page.locator("#live").is_visible()  # moves come live here
    # without the script nothing comes live: the page does not say it does
    still = await browser.new_context(java_script_enabled=False)
    plain = await still.new_page()
    await plain.goto(str(site.client.make_url(site.path(m))) + "?lang=en-US")
    assert await plain.locator("#live").count() == 1
    assert await plain.locator("#live").is_hidden()
    await still.close()
