"""Whole games played to their natural end by taps, in a real browser (Playwright driving
Debian's Chromium), each game a test of its own: a game of each family — Alquerque (the last
piece that could move blocked), Alquerque grande for two (left without a move) and for
four each for himself (a rival's last stones taken; four pages), Spanish draughts (every
piece taken, kings and multi-captures on the way), Xiangqi (a mate) and Querni (Alice's
arrangement set up by tapping, then all 16 stones removed in two chains) — each player on
his own page at a phone's width. The moves that make each ending (its captures, rounds,
kings, the mate, the last move) and ordinary moves around them are tapped on the board
picture by the player whose turn it is; the opening before them is played through the
service before the pages open, and the plain moves between them through the service too,
as from Discord, while every page follows live (no reload) — ordinary tapped moves of
every game are tests/web/test_tap_games.py's. At the end the match is over by its rules,
the announcements (the thread's posts in Discord) say so, and every page shows the result
with nothing left to tap. Screenshots go to TABLERO_SCREENSHOTS when set."""

from __future__ import annotations

import json
import os
from collections.abc import Collection
from pathlib import Path

import pytest
from playwright.async_api import Browser, Page

from service import MatchStatus, MatchView
from service.events import MatchEnded, TurnStarted
from tests.service.conftest import ALICE, BOB, CAROL, CHANNEL, DAVE, GUILD
from tests.web.conftest import Site
from tests.web.test_browser import until
from tests.web.test_tap_games import confirm, link, start, tap


def line(text: str) -> list[str]:
    """Moves (or cells) written one after another, as a list."""
    return text.split()


XIANGQI = line("b3-b7 i10-i8 h3xh10 h8-h5 b7xe7 b8-b5 h10-h6 i8-b8 h6-e6")
"""Red mates with his two cannons on the ninth move (the general walled in by his guards)."""
DAMAS = line("d3-c4 a6-b5 c4xa6 g6-h5 b3-a4 c6-b5 a4xc6 d7xb5 f3-e4 h5-g4 h3xf5xd7 c8xe6 "
             "a6xc8 h7-g6 c8xf5xh7 f7-g6 h7xf5 e8-d7 f5xc8 a8-b7 c8xa6xc4 g8-f7 c4xg8")
"""White takes all twelve: double captures, a king (a6xc8) that captures on and on."""
ALQUERQUE = line("c2-c3 c4xc2 c1xc3 a3xc1 c3xa3 c5-c4 e3xc5xc3 b4-c4 c3xc5 e5-d4 c5xe5xe3xc5 "
                 "b5xd5 b1-b2 a5-b5 a3xa5xc5xe5")
"""White's triple capture leaves Black's last piece without a move."""
GRANDE = line("e3-d4 g5xe3 d2xf4 b4xd2 e1xc3 c5xe3xe1 c3xc5 d6xb4 f4xd6xd4 c7-d6 "
              "a3xc5xc7xe5xg5 b6-c5 d4xb6xb4 a4xc4 b2-a3 a7-b6 f2-e3 e7-d6 "
              "g5xe7xc5xa7xc7xe7xe5 g7-f6 e5xg7xe7 c4-d4 d3xd5 a5-b4 b3xb5 g6-g5 g4xg6 a6-a5 "
              "a3-b4 a5xc3 c2xc4")
"""Alquerque grande for two: White captures whatever he can (a six-stone round among
them), Black never captures when he need not; on the 31st move Black is left without a
move."""
GRANDE_4 = line("d3-d4 e3-d3 e5xe3 c5xe5 c3xc5 f4-e4 d6-d5 e5-f4 d2xf4 f3-e3 c7-d6 b6-c7 "
                "f1xf3xd3 g1-f2 d6-d5 a6-b6 c5xe5xe3xg1xg3xg5xe5xg7xg5")
"""Alquerque grande for four, each for himself (``fast``): White captures whatever he can,
the others never capture when they need not; White's eight-stone round on the 17th move
empties a rival's last stones."""
QUERNI_ALICE = line("a1 b1 c1 c2 c3 b3 a3 a2 h1 i1 j1 j2 j3 i3 h3 h2")
"""Alice's start cells in the order of her numbers 1 to 16: each ring of eight one chain
(1-8 and 9-16), so two removals take all her stones."""

ENDINGS = {  # the game and its options, the line, how it ends, what the page says
    "alquerque": ("alquerque", {}, ALQUERQUE, "no-moves", "White (alice) wins"),
    "grande": ("alquerque-grande", {"players": 2}, GRANDE, "no-moves", "White (alice) wins"),
    "grande-4": ("alquerque-grande", {"players": 4, "mode": "fast"}, GRANDE_4, "no-pieces",
                 "White (alice) wins"),
    "damas": ("damas", {}, DAMAS, "no-pieces", "White (alice) wins"),
    "xiangqi": ("xiangqi", {}, XIANGQI, "checkmate", "Red (alice) wins"),
}
TAPPED = {
    "alquerque": range(9, 15),  # an ordinary move, a round back to its start (chosen),
    # a capture, two ordinary moves, the triple capture that ends it
    "grande": (*range(17, 20), *range(28, 31)),  # the six-stone round between two
    # ordinary moves; an ordinary move, a capture and the last move
    "grande-4": range(12, 17),  # a double capture, an ordinary move on each other page,
    # the eight-stone round that ends it
    "damas": (*range(10, 15), *range(20, 23)),  # a double capture, a capture, a king
    # made, an ordinary move, the king's double capture; its last two captures
    "xiangqi": range(4, 9),  # a capture, three ordinary moves, the mate
}
"""Which moves of each line are tapped (their places in it): the rest are played through
the service, those before the first tapped one before the pages open."""


async def ready(page: Page, ply: int) -> None:
    """``page`` shows the match after ``ply`` plies (live: its script refreshed it)."""
    await until(page, f"!!document.getElementById('match') && "
                      f"document.getElementById('match').dataset.last === '{ply}'", 10)


async def tap_move(page: Page, move: list[object], moves: list[list[object]]) -> None:
    """Tap ``move``'s points on the picture. A move tapped as one point (an Alquerque
    capture round back to its start, c5xe5xe3xc5: its start is its end), or whose taps
    begin a longer move's, is not played by the tap: the page lists the moves that fit
    and the player chooses it there."""
    points = list(move[2])  # type: ignore[call-overload]
    if len(points) > 1 and not any(
            len(x[2]) > len(points) and list(x[2])[:len(points)] == points  # type: ignore[arg-type]
            for x in moves):
        await tap(page, move, moves)
        return
    for point in points:
        await page.locator(f'.spot[data-point="{point}"]').click()
    await page.locator(f'#choose button[data-move="{move[0]}"]').click()
    await confirm(page, move)


async def play(site: Site, m: MatchView, pages: dict[int, Page], line: list[str],
               tapped: Collection[int] | None = None) -> MatchView:
    """Each move of ``line`` tapped on the page of the player whose turn it is (those
    ``tapped``, its places in the line, where given; the others played through the
    service, as from Discord, the pages following live), at a person's pace for the
    pages' rate limit (its clock moves on 3 s a move: a player tapping sixteen moves
    within seconds would rightly be told to wait)."""
    assert site.web is not None
    paced = [site.web.limiter.now()]  # on from wherever its clock stands
    site.web.limiter.now = lambda: paced[0]
    for i, text in enumerate(line):
        m = await site.service.get_match(m.id)
        (mover,) = m.to_move
        if tapped is not None and i not in tapped:
            m = (await site.service.move(m.id, mover, text)).match
            continue
        paced[0] += 3.0
        page = pages[mover]
        await ready(page, m.ply)
        await page.locator("#taps .spot").first.wait_for()
        form = page.locator("#play-moves")
        moves = json.loads(await form.get_attribute("data-taps") or "[]")
        move = next((x for x in moves if x[0] == text), None)
        assert move is not None, (text, [x[0] for x in moves])
        await tap_move(page, move, moves)
        record = await site.service.record(m.id)
        assert record.plies[-1].display == move[1]  # the very move tapped
    return await site.service.get_match(m.id)


async def opened(site: Site, m: MatchView, line: list[str]) -> MatchView:
    """``line`` played through the service, before any page is open."""
    for text in line:
        (mover,) = m.to_move
        m = (await site.service.move(m.id, mover, text)).match
    return m


async def seated_four(site: Site, options: dict[str, object]) -> MatchView:
    """A four-seat Alquerque grande with Alice in the first seat (the line's White)."""
    await site.service.update_guild_settings(GUILD, web=True)
    lobby = await site.service.challenge(GUILD, CHANNEL, ALICE, "alquerque-grande",
                                         opponents=[BOB, CAROL, DAVE], options=options,
                                         rated=False, seat=0)
    for user in (BOB, CAROL, DAVE):
        m = await site.service.accept(lobby.id, user)
    assert m.seats[0].user_id == ALICE and m.status.is_live
    return m


async def pages_of(browser: Browser, site: Site, m: MatchView) -> dict[int, Page]:
    pages = {}
    for user in m.players():
        pages[user] = await browser.new_page(viewport={"width": 390, "height": 844})
        await pages[user].goto(await link(site, m, user))
    return pages


async def ended(site: Site, m: MatchView, pages: dict[int, Page], reason: str, said: str,
                game: str) -> None:
    """The match is over by ``reason`` with Alice the winner: announced so, and both
    pages (the loser's followed live) show it with nothing left to tap."""
    assert m.status is MatchStatus.FINISHED and m.result is not None, (game, m.status)
    assert m.result.reason == reason and m.result.winners == (ALICE,), (game, m.result)
    ends = [e for e in site.recorder.of(MatchEnded) if e.match.id == m.id]
    assert len(ends) == 1 and ends[0].reason == reason and ends[0].left_by is None
    assert ends[0].result is not None and ends[0].result.winners == (ALICE,)
    turns = [e for e in site.recorder.of(TurnStarted) if e.match.id == m.id]
    assert len(turns) >= m.ply - 1  # every move but the last told the next mover
    shots = os.environ.get("TABLERO_SCREENSHOTS")
    for user, page in pages.items():
        await ready(page, m.ply)
        result = await page.locator("#result").inner_text()
        assert result.startswith(said), (game, result)
        assert await page.locator("#taps").count() == 0
        assert await page.locator("#play-moves").count() == 0
        shown = await page.locator("main").inner_text()
        assert "Resign" not in shown and "Your move" not in shown
        if shots:
            who = "winner" if user == ALICE else "loser"
            await page.screenshot(path=str(Path(shots) / f"end-{game}-{who}-phone.png"),
                                  full_page=True)
        await page.close()


@pytest.mark.parametrize("game", list(ENDINGS))
async def test_a_game_of_each_family_is_tapped_to_its_natural_end(site: Site, browser: Browser,
                                                                   game: str) -> None:
    key, options, line, reason, said = ENDINGS[game]
    tapped = TAPPED[game]
    m = await (seated_four(site, options) if options.get("players") == 4
               else start(site, key, options))
    first = min(tapped)
    m = await opened(site, m, line[:first])
    pages = await pages_of(browser, site, m)
    m = await play(site, m, pages, line[first:], [i - first for i in tapped])
    assert m.ply == len(line)
    await ended(site, m, pages, reason, said, game)


async def test_querni_is_set_up_and_tapped_to_its_natural_end(site: Site,
                                                              browser: Browser) -> None:
    """Alice's arrangement tapped (Bob's handed in as from Discord: tapping one is
    tests/web/test_tap_games.py's too; his page follows live), then Alice's two chains
    removed by taps."""
    m = await start(site, "querni", {"setup": "choose"})
    pages = await pages_of(browser, site, m)
    page = pages[ALICE]
    for cell in QUERNI_ALICE:
        await page.locator(f'.spot[data-point="{cell}"]').click()
    async with page.expect_navigation():
        await page.get_by_role("button", name="Hand in the arrangement").click()
    await site.service.submit_setup(m.id, BOB, " ".join(str(n) for n in range(1, 17)))
    m = await site.service.get_match(m.id)
    assert m.status.is_live and tuple(m.to_move) == (ALICE,), m  # both are in
    m = await play(site, m, pages, ["r1-8"])  # a ring of eight: one chain
    page = pages[BOB]
    await ready(page, m.ply)
    await page.locator("#taps .spot").first.wait_for()
    offered = json.loads(await page.locator("#play-moves").get_attribute(
        "data-taps") or "[]")
    m = await play(site, m, pages, [offered[0][0], "r9-16"])  # Bob's first move
    await ended(site, m, pages, "all-removed", "Blue (alice) wins", "querni")
