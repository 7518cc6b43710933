"""The clock's state on a match page in a real browser (Playwright driving Debian's
Chromium, as ``test_browser``): at a phone's width in German and Traditional Chinese the
clock's section and the players' notes fit without horizontal scrolling, and the times
they name (a pause's end, a vacation's) are shown in the reader's own way by the page's
script, in characters the page's font draws (Chinese: on the 24-hour clock)."""

from __future__ import annotations

from playwright.async_api import Browser

from tests.service.conftest import ALICE, BOB, CHANNEL, GUILD
from tests.web.conftest import Site
from tests.web.test_browser import until
from tests.web.test_languages_page import CJK, ROOT


def chinese(text: str) -> str:
    """The characters of ``text`` the pages' Chinese fonts are used for."""
    return "".join(c for c in text if any(low <= ord(c) <= high for low, high in CJK))


def served_characters(tag: str) -> set[str]:
    """The characters the font served with a page in ``tag`` (zh-CN, zh-TW) draws."""
    from fontTools.ttLib import TTFont

    font = TTFont(ROOT / f"bot/web/static/TableroSans-{tag}.woff2")
    return {chr(c) for c in font.getBestCmap()}


async def test_the_clock_fits_a_phone_and_its_times_are_the_readers(
        site: Site, browser: Browser) -> None:
    await site.service.update_guild_settings(GUILD, web=True)
    await site.service.set_time_zone(ALICE, "America/Argentina/Buenos_Aires")
    m = await site.service.challenge(GUILD, CHANNEL, ALICE, "xiangqi", opponents=[BOB],
                                     seat=0, days=2, rated=False, weekends_off=True)
    m = await site.service.accept(m.id, BOB)
    await site.service.propose_pause(m.id, BOB, 3, "exams")
    await site.service.accept_pause(m.id, ALICE)
    url = str(site.client.make_url(site.path(m)))
    served = served_characters("zh-TW")
    # (Traditional Chinese: its 12-hour clock is the one that wrote characters the page's
    # font lacks; Simplified's is the 24-hour clock of its own)
    for lang, paused in (("de", "pausiert"), ("zh-TW", "暫停")):
        page = await browser.new_page(viewport={"width": 390, "height": 844},
                                      timezone_id="Europe/Berlin")
        await page.goto(f"{url}?lang={lang}")
        clock = page.locator("section.clock")
        times = clock.locator("time.deadline")
        assert await times.count() == 1  # the pause's end
        await until(page, "document.querySelector('section.clock time').title", 10)
        said = await clock.inner_text()
        # the pause ends 2026-01-04 12:00 UTC: 13:00 in the reader's Berlin
        assert paused in said and "13:00" in said and "12:00 UTC" not in said
        players = await page.locator("section.players").inner_text()
        assert "America/Argentina/Buenos_Aires" in players
        # every Chinese character of the times is in the font served with the page (the
        # 12-hour clock's 下午 was drawn without its 午 on a machine without Chinese fonts)
        missing = set(chinese(said + players)) - served
        assert not missing, missing
        assert await page.evaluate(
            "document.documentElement.scrollWidth <= window.innerWidth")
        await page.close()
