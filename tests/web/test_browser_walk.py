"""What a demanding reader trips over in a real browser (Playwright driving Debian's
Chromium, as ``test_browser``; the pages' words are ``test_walk_pages``'): the arrow keys,
Home and End typed into Querni's arrangement field move its caret (the page steps the
board with them everywhere else), a draw offer, today's, is not said at an earlier ply
stepped to, and the language switch keeps the ply stepped to."""

from __future__ import annotations

from playwright.async_api import async_playwright

from tests.service.conftest import ALICE, BOB
from tests.web.conftest import Site, web_match
from tests.web.test_tap_games import link


async def test_keys_typed_into_a_field_and_a_draw_offer_stepped_back(
        site: Site, chromium: str) -> None:
    querni = await web_match(site.service, "querni", options={"setup": "choose"})
    damas = await web_match(site.service, "damas")
    damas = (await site.service.move(damas.id, ALICE, "b3-a4")).match
    await site.service.offer_draw(damas.id, BOB)
    async with async_playwright() as pw:
        browser = await pw.chromium.launch(executable_path=chromium, args=["--no-sandbox"])
        try:
            page = await browser.new_page(viewport={"width": 390, "height": 844})
            await page.goto(await link(site, querni, ALICE))
            field = page.locator("#arrangement")
            await field.click()
            await page.keyboard.type("1 2")
            for key in ("ArrowLeft", "ArrowLeft"):
                await page.keyboard.press(key)
            await page.keyboard.type("x")
            await page.keyboard.press("Home")
            await page.keyboard.type("y")
            assert await field.input_value() == "y1x 2"

            await page.goto(str(site.client.make_url(site.path(damas))) + "?lang=en-US")
            offer = page.locator("#offer")
            assert "bob (Black) offers a draw" in await offer.inner_text()
            await page.keyboard.press("ArrowLeft")  # the start: no offer then
            assert await offer.is_hidden()
            await page.keyboard.press("End")
            assert await offer.is_visible()
            # the language switch keeps the ply stepped to
            await page.keyboard.press("Home")
            async with page.expect_navigation():
                await page.get_by_role("link", name="Deutsch").click()
            assert await page.locator("html").get_attribute("lang") == "de"
            assert "/board/0.png" in (await page.locator("#board").get_attribute("src") or "")
        finally:
            await browser.close()
