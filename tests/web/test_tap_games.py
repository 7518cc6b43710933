"""Playing by tapping the board picture itself, in a real browser (Playwright driving
Debian's Chromium): each of the five games and a 4-player Alquerque grande, every move
tapped on the picture by the player whose turn it is, on his own page (seen from his
seat), through the same service path as /move; damas with a multi-capture tapped as its
start and its last landing square, Querni with a move and its chain removal; the line
ended by a resignation on the page. Screenshots go to TABLERO_SCREENSHOTS when set."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

import pytest
from playwright.async_api import Browser, Page

from bot.web.links import PlayerPass
from service import MatchStatus, MatchView
from tests.service.conftest import ALICE, BOB, CAROL, CHANNEL, DAVE, GUILD
from tests.web.conftest import Site
from tests.web.test_browser import settled_content

DAMAS_LINE = ["b3-a4", "e6-f5", "c2-b3", "f5-g4", "h3xf5", "g6xe4xc2"]
"""Ends with Bob's double capture (tapped g6, then c2)."""

GAMES = {
    "alquerque": ("alquerque", {}, 4),
    "grande": ("alquerque-grande", {"players": 2}, 4),
    "grande-4": ("alquerque-grande", {"players": 4, "mode": "teams"}, 4),
    "xiangqi": ("xiangqi", {}, 4),
    "damas": ("damas", {}, len(DAMAS_LINE)),
    "querni": ("querni", {}, 3),
}


async def start(site: Site, game: str, options: dict[str, object]) -> MatchView:
    await site.service.update_guild_settings(GUILD, web=True)
    if options.get("players") == 4:
        lobby = await site.service.challenge(GUILD, CHANNEL, ALICE, game,
                                             opponents=[BOB, CAROL, DAVE], options=options,
                                             rated=False)
        for user in (BOB, CAROL, DAVE):
            m = await site.service.accept(lobby.id, user)
        return m
    m = await site.service.challenge(GUILD, CHANNEL, ALICE, game, opponents=[BOB],
                                     options=options or None, seat=0)
    return await site.service.accept(m.id, BOB)


async def link(site: Site, m: MatchView, user: int) -> str:
    epoch = await site.service.web_pass(m.id, user)
    token = site.signer.player(PlayerPass(m.id, m.guild_id, user, int(time.time()) + 600,
                                          epoch))
    return str(site.client.make_url(f"/p/{token}?lang=en-US"))


def pick(game: str, ply: int, moves: list[list[object]]) -> list[object]:
    """The move to tap: damas's line; in Querni a move with its removal first; else the
    first the page offers."""
    if game == "damas":
        return next(m for m in moves if m[0] == DAMAS_LINE[ply])
    if game == "querni":
        combined = [m for m in moves if len(m[2]) == 4]  # type: ignore[arg-type]
        if ply == 0:
            assert combined, "the dealt stones offer a removal at once (this seed)"
        if combined:
            return combined[0]
    return moves[0]


async def spot_is_on_its_point(page: Page, point: str, spots: dict[str, list[float]]) -> None:
    """The spot's centre is where the picture shows the point (the overlay fits it)."""
    box = await page.locator(f'.spot[data-point="{point}"]').bounding_box()
    img = await page.locator("#board").bounding_box()
    assert box is not None and img is not None
    left, top = spots[point]
    assert abs(box["x"] + box["width"] / 2 - (img["x"] + img["width"] * left / 100)) < 1.5
    assert abs(box["y"] + box["height"] / 2 - (img["y"] + img["height"] * top / 100)) < 1.5


async def confirm(page: Page, move: list[object]) -> None:
    """Confirm the move tapped (the page asks "Play e3-e5?" before it sends it)."""
    assert await page.locator("#confirm-ask").inner_text() == f"Play {move[1]}?"
    async with page.expect_navigation():
        await page.locator("#confirm-yes").click()


async def tap(page: Page, move: list[object], moves: list[list[object]]) -> None:
    """Tap ``move``'s points on the picture; choose it where its taps fit others too;
    confirm it."""
    points = list(move[2])  # type: ignore[call-overload]
    shared = sum(1 for m in moves if m[2] == move[2]) > 1
    for i, point in enumerate(points):
        spot = page.locator(f'.spot[data-point="{point}"]')
        await spot.click()
        if i < len(points) - 1:
            assert "chosen" in (await spot.get_attribute("class") or "")
    if shared:
        await page.locator(f'#choose button[data-move="{move[0]}"]').click()
    await confirm(page, move)


@pytest.mark.parametrize("game", list(GAMES))
async def test_a_game_is_played_by_tapping_the_board(site: Site, browser: Browser,
                                                     game: str) -> None:
    key, options, plies = GAMES[game]
    m = await start(site, key, options)
    links = {user: await link(site, m, user) for user in m.players()}
    shots = os.environ.get("TABLERO_SCREENSHOTS")
    page = await browser.new_page(viewport={"width": 390, "height": 844})
    for ply in range(plies):
        m = await site.service.get_match(m.id)
        (mover,) = m.to_move
        await page.goto(links[mover])
        await page.locator("#taps .spot").first.wait_for()
        form = page.locator("#play-moves")
        moves = json.loads(await form.get_attribute("data-taps") or "[]")
        spots = json.loads(await form.get_attribute("data-spots") or "{}")
        move = pick(game, ply, moves)
        first = str(move[2][0])  # type: ignore[index]
        await spot_is_on_its_point(page, first, spots)
        if ply == 0:  # a piece tapped: its destinations are marked
            await page.locator(f'.spot[data-point="{first}"]').click()
            ends = {str(m2[2][1]) for m2 in moves if m2[2][0] == first}  # type: ignore[index]
            marked = await page.locator(".spot.next").evaluate_all(
                "spots => spots.map(s => s.dataset.point)")
            assert set(marked) == ends
            if shots:
                await page.screenshot(
                    path=str(Path(shots) / f"tap-{game}-phone.png"), full_page=True)
            await page.locator(f'.spot[data-point="{first}"]').click()  # let go
            assert await page.locator(".spot.chosen").count() == 0
        if ply == 1 and game == "damas":  # stepped back: his moves are the latest's
            await page.keyboard.press("ArrowLeft")
            assert await form.is_hidden() and await page.locator("#taps").is_hidden()
            earlier = page.locator("#earlier")
            assert "earlier position" in await earlier.inner_text()
            await earlier.get_by_role("link").click()  # back to the latest, in place
            assert await form.is_visible() and await earlier.is_hidden()
        await tap(page, move, moves)
        after = await site.service.get_match(m.id)
        assert after.ply == m.ply + 1, (game, ply, move)
        record = await site.service.record(m.id)
        assert record.plies[-1].display == move[1]  # the very move tapped
        await page.wait_for_load_state("load")
        assert "Traceback" not in await settled_content(page)
    m = await site.service.get_match(m.id)
    if len(m.seats) == 2:  # the line ends: the player to move resigns on his page
        (mover,) = m.to_move
        await page.goto(links[mover])
        await page.locator("details.resign summary").click()
        async with page.expect_navigation():
            await page.get_by_role("button", name="Resign this match").click()
        over = await site.service.get_match(m.id)
        assert over.status is MatchStatus.FINISHED
        assert await page.locator("#taps").count() == 0  # nothing left to tap
    else:
        assert m.ply == plies and m.status.is_live


async def test_querni_is_set_up_by_tapping_and_a_removal_tapped(site: Site,
                                                               browser: Browser) -> None:
    m = await start(site, "querni", {"setup": "choose"})
    alice = await link(site, m, ALICE)
    page = await browser.new_page(viewport={"width": 390, "height": 844})
    await page.goto(alice)
    # a refused arrangement: said on the page, whose address is the page's again (a
    # reload, a phone's pull to refresh, sent the refused form again)
    await page.locator("#arrangement").fill("1 2 3")
    async with page.expect_navigation():
        await page.get_by_role("button", name="Hand in the arrangement").click()
    assert "3 numbers, not 16" in await page.locator(".error").inner_text()
    assert page.url == alice  # not .../setup?lang=en-US
    form = page.locator("#play-setup")
    cells = json.loads(await form.get_attribute("data-cells") or "[]")
    assert cells[:3] == ["a1", "b1", "c1"] and len(cells) == 16
    # what was handed in stays, in the field and on the board, to be corrected
    field = page.locator("#arrangement")
    assert await field.input_value() == "1 2 3"
    assert [await page.locator(f'.spot[data-point="{c}"]').inner_text()
            for c in cells[:4]] == ["1", "2", "3", ""]
    for cell in cells[3:]:  # 4 to 16 in the cells' order: 1, 2, 3 side by side
        await page.locator(f'.spot[data-point="{cell}"]').click()
    assert await field.input_value() == " ".join(str(n) for n in range(1, 17))
    await page.locator('.spot[data-point="c1"]').click()  # freed: 3 is given next
    assert await page.locator('.spot[data-point="c1"]').inner_text() == ""
    await page.locator('.spot[data-point="c1"]').click()
    assert await page.locator('.spot[data-point="c1"]').inner_text() == "3"
    if os.environ.get("TABLERO_SCREENSHOTS"):
        await page.screenshot(path=str(Path(os.environ["TABLERO_SCREENSHOTS"])
                                       / "setup-querni-phone.png"), full_page=True)
    async with page.expect_navigation():
        await page.get_by_role("button", name="Hand in the arrangement").click()
    assert "your arrangement is in" in (await settled_content(page)).lower()
    await site.service.submit_setup(m.id, BOB, " ".join(
        str(n) for n in range(16, 0, -1)))
    await page.goto(alice)
    moves = json.loads(await page.locator("#play-moves").get_attribute(
        "data-taps") or "[]")
    removal = next(x for x in moves if x[0] == "c2-b2 r1-3")
    assert removal[2] == ["c2", "b2", "a1", "c1"]  # the stone, where, the chain
    await tap(page, removal, moves)
    record = await site.service.record(m.id)
    assert record.plies[-1].display == "c2-b2 r1-3"


async def test_a_tapped_move_waits_for_confirm_and_the_switch_plays_at_once(
        site: Site, browser: Browser) -> None:
    """A slip of the thumb is not a move: the tap that completes one asks "Play b3-a4?"
    (announced, the focus on Confirm) and nothing is sent; Cancel, Escape or the board
    tapped elsewhere go back to choosing, the piece still tapped; a live update (a draw
    offered) keeps the move asked while the position is the same, and one that moved the
    position on drops it; switched off (the browser remembers it), the tap plays at once.
    Without the script the bar and its switch are not there to be seen (the buttons below
    the board play as they did)."""
    m = await start(site, "damas", {})
    url = await link(site, m, ALICE)
    html = await (await site.client.session.get(url)).text()
    assert '<p class="confirm-switch" hidden>' in html
    assert '<div class="confirm" id="confirm" role="alertdialog" ' \
        'aria-labelledby="confirm-ask" hidden>' in html
    page = await browser.new_page(viewport={"width": 390, "height": 844})
    await page.goto(url)
    bar, b3 = page.locator("#confirm"), page.locator('.spot[data-point="b3"]')
    switch = page.get_by_label("Confirm each tapped move before it is sent")
    assert await switch.is_checked()  # on by default
    await b3.click()
    await page.locator('.spot[data-point="a4"]').click()
    assert await bar.is_visible()
    assert await page.locator("#confirm-ask").inner_text() == "Play b3-a4 (12-16)?"
    assert await page.evaluate("document.activeElement.id") == "confirm-yes"
    if os.environ.get("TABLERO_SCREENSHOTS"):
        await page.screenshot(path=str(Path(os.environ["TABLERO_SCREENSHOTS"])
                                       / "confirm-phone.png"))
    yes = await page.locator("#confirm-yes").bounding_box()
    no = await page.locator("#confirm-no").bounding_box()
    assert yes is not None and no is not None  # a thumb's size, and apart
    assert min(yes["height"], no["height"]) >= 44 and no["x"] - yes["x"] - yes["width"] >= 32
    await page.get_by_role("button", name="Cancel").click()
    assert await bar.is_hidden()
    assert "chosen" in (await b3.get_attribute("class") or "")  # back to its targets
    await page.locator('.spot[data-point="a4"]').click()
    await page.keyboard.press("Escape")
    assert await bar.is_hidden()
    await page.locator('.spot[data-point="a4"]').click()
    await page.locator('.spot[data-point="c4"]').click()  # elsewhere: asked for that one
    assert await page.locator("#confirm-ask").inner_text() == "Play b3-c4 (12-15)?"
    assert (await site.service.get_match(m.id)).ply == 0  # nothing was sent
    # the page drawn again by a live update at the same position: still asked
    await site.service.offer_draw(m.id, BOB)
    await page.locator("#offer").wait_for()
    assert await bar.is_visible()
    assert await page.locator("#confirm-ask").inner_text() == "Play b3-c4 (12-15)?"
    assert await page.evaluate("document.activeElement.id") == "confirm-yes"
    await page.get_by_role("button", name="Cancel").click()
    await switch.uncheck()
    async with page.expect_navigation():
        await page.locator('.spot[data-point="a4"]').click()  # played at once
    assert (await site.service.get_match(m.id)).ply == 1
    await page.goto(await link(site, m, BOB))  # the same browser: remembered
    assert not await switch.is_checked()
    await switch.check()
    await page.locator('.spot[data-point="a6"]').click()
    await page.locator('.spot[data-point="b5"]').click()
    assert (await page.locator("#confirm-ask").inner_text()).startswith("Play a6-b5")
    await site.service.move(m.id, BOB, "e6-f5")  # from Discord: the position moved on
    await page.locator('#moves a[data-ply="2"]').wait_for(state="attached")
    assert await bar.is_hidden()  # the move tapped on the old position is dropped
