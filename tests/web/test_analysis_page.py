"""Issue 40: a finished match's page shows the analysis ``/analysis`` stored — the
evaluation graph (inline SVG, no request of its own) with the costly moves ringed and
linked to their plies, the alt text, the reader's language — and a live match's page
shows none; in a real browser a costly move's mark steps the board to it, at a phone's
width without overflow. Screenshots go to TABLERO_SCREENSHOTS."""

from __future__ import annotations

import os
import re
from html import unescape
from pathlib import Path
from typing import Any, ClassVar

from playwright.async_api import Browser

from bot.computer import InlineMovePicker
from locales.analysis import CostKind
from service import MatchService, MatchView
from service.views import AnalysedMove, Caller, EvalPoint, MatchAnalysis
from tests.service.conftest import ALICE, BOB, GUILD, Recorder, SetClock, finishing_game
from tests.web.conftest import Site, web_match
from tests.web.test_browser import until


class ScriptedPicker(InlineMovePicker):
    """Weighs the moves as the test says, by index (the best move: the first legal)."""

    WEIGHINGS: ClassVar[dict[int, tuple[int, int, int | None, int | None]]] = {
        0: (250, 0, None, None),  # Alice, move 1: 2.5 pawns
        3: (150, -999_998, None, -1),  # Bob, move 4: walks into a forced loss in 1
        5: (400, 60, None, None),  # Bob, move 6: 3.4 pawns
        8: (300, 100, None, None),  # Alice, move 9: 2 pawns (the fourth: not marked)
    }

    async def weigh(self, moves: Any) -> list[Any]:
        from service import MoveWeighing

        out = []
        for i, (p, _text) in enumerate(moves):
            best, played, best_end, played_end = self.WEIGHINGS.get(i, (20 * (i % 3), 0,
                                                                         None, None))
            out.append(MoveWeighing(best, played, p.variant.format_move(p, p.legal_moves()[0]),
                                    best_end, played_end))
        return out


async def analysed_game(site: Site) -> tuple[MatchView, list[str]]:
    """A finished Alquerque game (Alice wins) whose analysis was made and stored."""
    moves = finishing_game("alquerque", {}, 16)
    assert moves
    m = await web_match(site.service, "alquerque")
    for i, text in enumerate(moves):
        m = (await site.service.move(m.id, (ALICE, BOB)[i % 2], text)).match
    assert not m.status.is_live
    analyst = MatchService(site.service.repository, Recorder(), SetClock(),
                           picker=ScriptedPicker(nodes=400))
    await analyst.game_analysis(m.id)
    return m, moves


async def test_a_finished_match_page_shows_its_stored_analysis(site: Site) -> None:
    m, moves = await analysed_game(site)
    r = await site.client.get(site.path(m) + "?lang=en-US")
    html = await r.text()
    assert r.status == 200
    section = html[html.index('<section class="analysis"'):]
    section = section[:section.index("</section>")]
    svg = section[section.index("<svg"):section.index("</svg>")]
    # the alt text says what the graph shows and which moves are marked
    found = re.search(r'aria-label="([^"]*)"', svg)
    alt = unescape(found.group(1)) if found else ""
    assert alt.startswith(f"Alquerque, match {m.id}: the analysis: the engine's evaluation "
                          f"after each of {len(moves)} moves") and \
        alt.endswith("Marked: moves 1, 4, 6.")
    # the three costliest moves ringed on it and listed under it, each linked to its ply
    marks = re.findall(r'<a class="goto" href="[^"]*\?ply=(\d+)&amp;lang=en-US" '
                       r'data-ply="(\d+)"', section)
    assert sorted({int(a) for a, _b in marks}) == [1, 4, 6] and len(marks) == 6
    listed = [unescape(x) for x in re.findall(r'<li><a class="goto"[^>]*>([^<]*)</a>',
                                              section)]
    assert listed[0].startswith(f"Move 4, bob: {moves[3]}; better ") and \
        listed[0].endswith("(allows a forced loss in 1 move)")
    assert listed[2].startswith(f"Move 1, alice: {moves[0]}; better ")
    assert "Weighed by Tablero level 8, 400 positions a search, on" in section
    assert "above the line White (alice) is better, below it Black (bob)" in section
    # one line point per weighed move, no request of its own, nothing the CSP forbids
    assert "<img" not in section and "style=" not in section and "<script" not in section
    # in the reader's language
    de = await (await site.client.get(site.path(m) + "?lang=de")).text()
    assert "Analyse" in de and "Zug 4, bob" in de and "Markiert: Züge 1, 4, 6." in de


async def test_a_live_match_page_shows_no_analysis(site: Site) -> None:
    """No engine help to the players of a live game, whatever the store holds."""
    m = await web_match(site.service, "damas")
    m = (await site.service.move(m.id, ALICE, "b3-a4")).match
    await site.service.repository.save_analysis(MatchAnalysis(
        m.id, SetClock().now(), 1, 8, 400, 0.1, (EvalPoint(0, 0, 900),),
        (AnalysedMove(0, 0, ALICE, "b3-a4", "c3-d4", 900, CostKind.PAWNS, 900),)))
    html = await (await site.client.get(site.path(m))).text()
    assert 'class="analysis"' not in html and "c3-d4" not in html
    assert await site.service.stored_analysis(m.id, caller=Caller(GUILD, 0)) is None


async def test_the_graph_steps_the_board_to_a_costly_move_in_a_real_browser(
        site: Site, browser: Browser) -> None:
    m, _moves = await analysed_game(site)
    url = str(site.client.make_url(site.path(m)))
    shots = os.environ.get("TABLERO_SCREENSHOTS")
    for width, height, lang in ((390, 844, "en-US"), (1280, 900, "zh-CN")):
        page = await browser.new_page(viewport={"width": width, "height": height})
        await page.goto(url + f"?lang={lang}")
        await until(page, "document.getElementById('board').naturalWidth > 0", 10)
        assert await page.evaluate(
            "document.documentElement.scrollWidth <= window.innerWidth")
        graph = page.locator("svg.graph")
        box = await graph.bounding_box()
        assert box and box["width"] <= width and box["height"] > 100
        if shots:
            size = "phone" if width == 390 else "desktop"
            await page.screenshot(
                path=str(Path(shots) / f"analysis-{lang}-{size}.png"), full_page=True)
        # a mark on the graph: the board after that move, in place
        await page.locator('svg.graph a[data-ply="4"]').click()
        await until(page, "document.getElementById('board').src"
                          ".includes('/board/4.png')", 5)
        assert (await page.evaluate("location.search")).startswith("?ply=4")
        # the list under it: keyboard and screen reader's way, the same step
        await page.locator('ol.costly a[data-ply="6"]').focus()
        await page.keyboard.press("Enter")
        await until(page, "document.getElementById('board').src"
                          ".includes('/board/6.png')", 5)
        alt = await page.locator("#board").get_attribute("alt") or ""
        assert alt and alt == await page.locator(
            '#moves a[data-ply="6"]').get_attribute("data-alt")
        await page.close()


async def test_a_four_seat_analysis_draws_a_line_per_seat(site: Site) -> None:
    """Four seats on their own: one line per seat in its colour (each seat's own view),
    the marks on the line of the seat that played them."""
    from render.graph import line_colour
    from tests.service.conftest import CAROL, CHANNEL, DAVE, play_random

    await site.service.update_guild_settings(GUILD, web=True)
    m = await site.service.challenge(GUILD, CHANNEL, ALICE, "alquerque-grande",
                                     options={"players": 4, "mode": "fast"}, seat=0,
                                     rated=False)
    for user in (BOB, CAROL, DAVE):
        m = await site.service.join(m.id, user)
    m = await play_random(site.service, m.id, 8, seed=4)
    m = await site.service.resign(m.id, m.to_move[0])  # in `fast`, the first out ends it
    record = await site.service.record(m.id)
    curve = tuple(EvalPoint(p.ply, p.seat, 40 * p.ply, None) for p in record.plies
                  if p.seat is not None and p.move is not None)
    costly = (AnalysedMove(curve[5].ply, curve[5].seat, None, "x", "y", 300,
                           CostKind.PAWNS, 300),)
    await site.service.repository.save_analysis(MatchAnalysis(
        m.id, SetClock().now(), len(record.plies), 8, 400, 0.2, curve, costly))
    html = await (await site.client.get(site.path(m) + "?lang=en-US")).text()
    svg = html[html.index('<svg class="graph"'):html.index("</svg>")]
    v = record.variant
    for seat in range(4):
        colour = "#{:02x}{:02x}{:02x}".format(*line_colour(v, seat, 4))
        assert '<polyline points="' in svg and f'stroke="{colour}"' in svg, seat
    assert svg.count("<polyline") == 4 and "each player's own view" in unescape(svg)
    assert f'data-ply="{curve[5].ply + 1}"' in svg


async def continued_and_analysed(site: Site, record: str) -> tuple[list[str], str]:
    """Damas ``record`` imported, continued by Alice (Black, to move) against Bob (White),
    Alice's move, Bob resigns, analysed by a picker that finds every move costly: the
    page's costly moves as listed, and its graph's SVG."""
    from tests.service.conftest import CHANNEL
    from tests.service.test_continue_left_early import CostlyPicker

    await site.service.update_guild_settings(GUILD, web=True)
    imported = (await site.service.import_record(GUILD, CHANNEL, ALICE, record)).match
    lobby = await site.service.continue_import(GUILD, CHANNEL, ALICE, imported.id, [BOB])
    m = await site.service.accept(lobby.id, BOB)
    assert m.to_move == (ALICE,)  # Black goes on: Alice; Bob holds White today
    p, _ = await site.service.position(m.id)
    m = (await site.service.move(m.id, ALICE, p.variant.format_move(p, p.legal_moves()[0]))
         ).match
    m = await site.service.resign(m.id, BOB)
    analyst = MatchService(site.service.repository, Recorder(), SetClock(),
                           picker=CostlyPicker())
    await analyst.game_analysis(m.id)
    html = await (await site.client.get(site.path(m) + "?lang=en-US")).text()
    section = html[html.index('<section class="analysis"'):]
    listed = [unescape(x) for x in re.findall(r'<li><a class="goto"[^>]*>([^<]*)</a>',
                                              section[:section.index("</section>")])]
    return listed, section[section.index("<svg"):section.index("</svg>")]


async def test_a_continued_match_page_names_the_record_player_of_a_record_move(
        site: Site) -> None:
    """A match continued from an imported game: its first move is the record's White's
    (Ana's), whose seat Bob holds today; the page said "Move 1, bob" of it."""
    listed, svg = await continued_and_analysed(
        site, '[Game "damas"]\n[White "Ana"]\n[Black "Bea"]\n\n1. b3-a4\n')
    assert len(listed) == 2
    assert listed[0].startswith("Move 1, Ana (imported): b3-a4 (12-16); better ")
    assert listed[1].startswith("Move 2, alice: ")
    assert "Move 1, Ana (imported): b3-a4" in unescape(svg) and "Move 1, bob" not in svg


async def test_an_unnamed_record_player_of_a_costly_move_is_named_by_his_seat(
        site: Site) -> None:
    """As above with a record that names nobody: "Move 1, an imported player (White)"
    (it read "an imported player", whichever seat)."""
    listed, _ = await continued_and_analysed(site, '[Game "damas"]\n\n1. b3-a4\n')
    assert listed[0].startswith("Move 1, an imported player (White): b3-a4 (12-16); ")
