"""Issue 40's figure: a match page's first load is at most 150 KB without the board
picture, in every language, as a real browser loads it (Playwright driving Debian's
Chromium, an empty cache): the HTML, the style sheet, the script and the fonts the page
asks for. A Chinese page loads its own language's font subset only (WOFF2); a Latin page
only the language switch's 2 KB one. Run with ``-s`` to read the figures."""

from __future__ import annotations

from playwright.async_api import Browser, Response

from locales.i18n import LOCALES
from tests.service.conftest import ALICE
from tests.web.conftest import Site, web_match
from tests.web.test_browser import until

LIMIT = 150 * 1024


async def test_a_match_pages_first_load_is_within_150_kb_in_every_language(
        site: Site, browser: Browser) -> None:
    m = await web_match(site.service, "xiangqi")
    m = (await site.service.move(m.id, ALICE, "h3-e3")).match
    figures = []
    try:
        for lang in LOCALES:
            context = await browser.new_context(viewport={"width": 390, "height": 844})
            page = await context.new_page()  # a context of its own: an empty cache
            loaded: list[Response] = []
            page.on("response", lambda r, seen=loaded: seen.append(r))
            await page.goto(str(site.client.make_url(f"{site.path(m)}?lang={lang}")))
            await until(page, "document.getElementById('board').naturalWidth > 0", 10)
            await page.evaluate("document.fonts.ready.then(() => true)")
            sizes: dict[str, int] = {}
            for r in loaded:
                if "/board/" in r.url or r.url.split("?")[0].endswith("/events"):
                    continue  # the picture; the live stream (it never ends)
                assert r.status == 200, (r.url, r.status)
                name = r.url.rsplit("/", 1)[-1].split("?")[0]
                sizes[name if "." in name else "html"] = len(await r.body())
            total = sum(sizes.values())
            figures.append(f"{lang:7} {total / 1024:6.1f} KB  " + ", ".join(
                f"{k} {v / 1024:.1f}" for k, v in sorted(sizes.items())))
            assert {"html", "site.css", "match.js"} <= set(sizes), sizes
            if lang.startswith("zh"):
                assert f"TableroSans-{lang}.woff2" in sizes, sizes
            assert not any(k.startswith("TableroSans") and lang not in k for k in sizes)
            assert total <= LIMIT, figures[-1]
            await context.close()
    finally:
        print("\nfirst load without the board (390 px, empty cache):\n" + "\n".join(figures))
