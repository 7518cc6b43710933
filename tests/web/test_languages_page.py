"""The pages in German and Chinese in a real browser (Playwright driving Debian's
Chromium): the Chinese text is drawn with the font we serve (no empty boxes where the
reader's machine has no Chinese font), nothing overflows a phone's 390 px, on a
spectator's page, a player's own, a server's page and a player's page.
Screenshots go to TABLERO_SCREENSHOTS."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest
from playwright.async_api import Browser, Page

from bot.web.links import PlayerPass
from tests.service.conftest import ALICE, BOB
from tests.web.conftest import Site, web_match
from tests.web.test_browser import until

ROOT = Path(__file__).resolve().parents[2]
CJK = ((0x2E80, 0x9FFF), (0xF900, 0xFAFF), (0xFE30, 0xFE4F), (0xFF00, 0xFFEF))
"""The blocks the page's Chinese font is used for (its unicode-range in site.css)."""
FONT_LOADED = ("[...document.fonts].some(f => f.family.includes('Tablero Sans') "
               "&& f.status === 'loaded')")


def test_the_served_fonts_have_every_chinese_character_of_their_catalogue() -> None:
    """Any sentence a Chinese page shows is drawn in the font served with it (each
    language's own subset of the renderer's, ``bot/web/static``; rebuilt by
    scripts/make_font_subset.sh, or scripts/make_web_fonts.py alone, after a Chinese
    catalogue changes), never as empty boxes; and it holds nothing else (a Simplified
    page does not carry the Traditional characters)."""
    from fontTools.ttLib import TTFont

    for tag in ("zh_CN", "zh_TW"):
        wanted = set()
        po = ROOT / f"locales/{tag}/LC_MESSAGES/tablero.po"
        for line in po.read_text("utf-8").splitlines():
            if line.startswith(("msgstr", '"')):
                wanted.update(ch for ch in line if any(
                    low <= ord(ch) <= high for low, high in CJK))
        font = TTFont(ROOT / f"bot/web/static/TableroSans-{tag.replace('_', '-')}.woff2")
        assert font.flavor == "woff2"
        held = {chr(c) for c in font.getBestCmap()}
        assert not wanted - held, "run scripts/make_font_subset.sh (or " \
            "scripts/make_web_fonts.py): " + "".join(sorted(wanted - held))
        assert held == wanted, "".join(sorted(held ^ wanted))


async def fits(page: Page) -> None:
    assert await page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


@pytest.mark.parametrize("lang", ["de", "zh-CN", "zh-TW"])
async def test_german_and_chinese_pages_render_and_fit_a_phone(site: Site, browser: Browser,
                                                               lang: str) -> None:
    m = await web_match(site.service, "xiangqi")
    m = (await site.service.move(m.id, ALICE, "h3-e3")).match
    epoch = await site.service.web_pass(m.id, BOB)
    grant = PlayerPass(m.id, m.guild_id, BOB, int(time.time()) + 600, epoch)
    player = f"/p/{site.signer.player(grant)}"
    shots = os.environ.get("TABLERO_SCREENSHOTS")
    for name, path in (("match", site.path(m)), ("play", player),
                       ("server", f"/s/{site.signer.server(m.guild_id)}"),
                       ("player", f"{site.path(m)}/player/0")):
        # loaded at a phone's size, then widened to a desktop's (a page of its own for
        # each size cost a renderer and a load more, for the same requests)
        page = await browser.new_page(viewport={"width": 390, "height": 844})
        fonts: list[str] = []
        page.on("request", lambda r, seen=fonts: seen.append(r.url)
                if r.url.endswith((".otf", ".woff2")) else None)
        await page.goto(str(site.client.make_url(f"{path}?lang={lang}")))
        for width, height in ((390, 844), (1280, 900)):
            await page.set_viewport_size({"width": width, "height": height})
            if name in ("match", "play"):
                await until(page, "document.getElementById('board').naturalWidth > 0",
                            10)
            await page.evaluate("document.fonts.ready.then(() => true)")
            assert await page.evaluate("document.documentElement.lang") == lang
            await fits(page)
            if lang.startswith("zh"):  # drawn with our font, fetched from here
                await until(page, FONT_LOADED, 10)
                # its own language's characters, never the other's
                assert any(f"TableroSans-{lang}.woff2" in u for u in fonts), fonts
                assert not any("TableroSans" in u and lang not in u for u in fonts)
                assert all(u.startswith(str(site.client.make_url("/"))) for u in fonts)
            else:  # a Latin page fetches only the switch's 2 KB of it
                assert not any("TableroSans" in u for u in fonts)
            if shots:
                size = "phone" if width == 390 else "desktop"
                await page.screenshot(path=str(Path(shots) / f"{name}-{lang}-{size}.png"),
                                      full_page=True)
        await page.close()
