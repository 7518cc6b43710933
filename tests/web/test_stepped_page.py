"""The match page at an earlier ply is the match as it stood then (``plies.at_ply``, as
the stepper in Discord and the console shows it): who was out and who was to move then,
and no word of how it ended; the latest ply is today's. The page's script steps by the
same facts (each ply's link carries them)."""

from __future__ import annotations

import re
from html import unescape

from playwright.async_api import Browser

from locales.i18n import render
from locales.terms import move_display, seat_colour
from tests.service.conftest import GUILD, play_random, start_four
from tests.web.conftest import Site
from tests.web.test_clock_state import players_of, words


def seat_items(html: str) -> list[str]:
    """The players list's items, by seat, as text."""
    return [words(li) for li in re.findall(r"<li[^>]*>.*?</li>", players_of(html))]


def status_of(html: str) -> str:
    return words(html.split('id="status"', 1)[1].split(">", 1)[1].split("</p>", 1)[0])


def link_of(html: str, ply: int) -> str:
    """The attributes of ply ``ply``'s link in the move list."""
    return unescape(html.split(f'data-ply="{ply}" data-alt=', 1)[1].split(">", 1)[0])


async def test_stepping_back_shows_the_players_as_they_stood(site: Site) -> None:
    await site.service.update_guild_settings(GUILD, web=True)
    m = await start_four(site.service, "slow")
    m = await play_random(site.service, m.id, 6, seed=3)
    before = m.ply
    mover = next(s for s in m.seats if s.user_id in m.to_move)
    leaver = next(s for s in m.seats if s.user_id not in m.to_move)
    assert leaver.user_id is not None
    m = await site.service.resign(m.id, leaver.user_id)
    while m.status.is_live:  # the others leave in turn until one is left: it is over
        m = await site.service.resign(m.id, m.to_move[0])

    now = await (await site.client.get(site.path(m) + "?lang=en-US")).text()
    assert seat_items(now)[leaver.seat].endswith("out") and 'id="result"' in now
    assert "game over" in status_of(now)

    then = await (await site.client.get(f"{site.path(m)}?ply={before}&lang=en-US")).text()
    items = seat_items(then)
    assert not any(item.endswith("out") for item in items)  # nobody was out yet
    assert [i for i, item in enumerate(items) if item.endswith("to move")] == [mover.seat]
    colour = render(seat_colour(mover.name), "en-US")
    status = status_of(then)
    assert "game over" not in status and f"({colour}) to move" in status
    result = then.split('id="result"', 1)[1].split(">", 1)[0]
    assert "hidden" in result  # how it ended is said at the last ply only
    # the script steps by the same facts: each ply's link says who was to move and out
    link = link_of(then, before)
    assert f'data-turn="{mover.seat}"' in link and "data-out" not in link
    assert f'data-out="{leaver.seat}' in link_of(now, m.ply)


async def test_a_live_match_stepped_back_names_who_was_to_move_then(site: Site) -> None:
    await site.service.update_guild_settings(GUILD, web=True)
    m = await start_four(site.service, "slow")
    earlier = await play_random(site.service, m.id, 5, seed=3)
    m = await play_random(site.service, m.id, 1, seed=3)
    assert earlier.to_move != m.to_move
    then = await (await site.client.get(f"{site.path(m)}?ply={earlier.ply}")).text()
    movers = [i for i, item in enumerate(seat_items(then)) if "to move" in item]
    assert movers == [s.seat for s in m.seats if s.user_id in earlier.to_move]
    due = then.split('class="due"', 1)[1].split(">", 1)[0]
    assert "hidden" in due  # today's deadline is not that ply's
    now = await (await site.client.get(site.path(m))).text()
    assert [i for i, item in enumerate(seat_items(now)) if "to move" in item] == \
        [s.seat for s in m.seats if s.user_id in m.to_move]
    assert "hidden" not in now.split('class="due"', 1)[1].split(">", 1)[0]


async def test_the_script_steps_the_players_by_the_same_facts(site: Site,
                                                             browser: Browser) -> None:
    """In a browser, stepping in place (the move list, End) shows what the page at that
    ply shows: the players as they stood, the board's words, the result at the end only."""
    from tests.web.test_browser import until

    await site.service.update_guild_settings(GUILD, web=True)
    m = await start_four(site.service, "slow")
    m = await play_random(site.service, m.id, 6, seed=3)
    before = m.ply
    leaver = next(s for s in m.seats if s.user_id not in m.to_move)
    assert leaver.user_id is not None
    m = await site.service.resign(m.id, leaver.user_id)
    while m.status.is_live:
        m = await site.service.resign(m.id, m.to_move[0])
    served = await (await site.client.get(f"{site.path(m)}?ply={before}&lang=en-US")).text()
    expected = seat_items(served)
    url = str(site.client.make_url(site.path(m))) + "?lang=en-US"
    page = await browser.new_page()
    await page.goto(url)
    items = page.locator(".players li")
    assert (await items.nth(leaver.seat).inner_text()).endswith("out")
    assert await page.locator("#result").is_visible()
    await page.locator(f'#moves a[data-ply="{before}"]').click()
    await until(page, "!document.getElementById('result').checkVisibility()", 5)
    shown = [" ".join((await items.nth(i).inner_text()).split())
             for i in range(await items.count())]
    assert shown == expected  # as the server writes the page at that ply
    assert await page.locator("#status").inner_text() == \
        await page.locator("#board").get_attribute("alt") == status_of(served)
    # where the board is, in moves, as the server says it at that ply
    assert await page.locator("#stepped").inner_text() == stepped_of(served)
    await page.keyboard.press("End")
    assert (await items.nth(leaver.seat).inner_text()).endswith("out")
    assert await page.locator("#result").is_visible()
    assert (await page.locator("#stepped").inner_text()).endswith("resigns")
    await page.keyboard.press("Home")
    assert (await page.locator("#stepped").inner_text()).startswith("Start position")


async def test_a_skipped_seat_is_named_so_from_its_timeout_on(site: Site) -> None:
    """After a timeout (``on_timeout:skip``) the late seat's name says so from the move
    his turns were skipped on; stepped back before it, his name is plain."""
    from tests.service.conftest import SetClock
    from tests.web.test_clock_state import _four

    clock = site.service.clock
    assert isinstance(clock, SetClock)
    match_id = await _four(site.service, "skip")
    before = await site.service.get_match(match_id)
    late = next(s.seat for s in before.seats if s.user_id in before.to_move)
    clock.advance(days=1, minutes=1)
    await site.service.sweep_deadlines()
    m = await site.service.get_match(match_id)
    now = await (await site.client.get(site.path(m) + "?lang=en-US")).text()
    assert "(skipped since move 5)" in seat_items(now)[late]
    assert f'data-aside="{late}"' in link_of(now, m.ply)
    then = await (await site.client.get(f"{site.path(m)}?ply={before.ply}&lang=en-US")).text()
    assert "skipped" not in seat_items(then)[late]
    assert "data-aside" not in link_of(then, before.ply)
    li = re.findall(r"<li[^>]*>", players_of(then))[late]
    assert 'data-aside="' in li and "(skipped since move 5)" in unescape(li)


def stepped_of(html: str) -> str:
    """Where the page's board is, in moves (under the step buttons)."""
    return words(html.split('id="stepped">', 1)[1].split("</p>", 1)[0])


def items_of(html: str) -> list[str]:
    """The move list's items' opening tags."""
    return re.findall(r"<li[^>]*>", html.split('<ol id="moves">', 1)[1].split("</ol>", 1)[0])


def entries_of(html: str) -> list[str]:
    """The move list's entries, in words."""
    return [words(item) for item in re.findall(
        r"<li[^>]*>(.*?)</li>", html.split('<ol id="moves">', 1)[1].split("</ol>", 1)[0])]


async def test_the_page_says_each_ply_in_moves_as_the_stepper_does(site: Site) -> None:
    """The web replay counts moves as Discord and the console do: the step's words under
    the buttons, and the move list numbered by moves, a resignation listed but not
    numbered (an ``<ol>`` numbered every entry, and nothing said where the board was)."""
    from tests.service.conftest import ALICE, BOB
    from tests.web.conftest import web_match

    m = await web_match(site.service, "damas")
    await site.service.move(m.id, ALICE, "b3-a4")
    await site.service.move(m.id, BOB, "a6-b5")
    m = await site.service.resign(m.id, ALICE)
    pages = [await (await site.client.get(f"{site.path(m)}?ply={n}&lang=en-US")).text()
             for n in range(4)]
    said = [stepped_of(html) for html in pages]
    assert said[0] == "Start position (2 moves played)"
    assert said[1].startswith("After move 1 of 2: alice played b3-a4")
    assert said[2].startswith("After move 2 of 2: bob played a6-b5")
    assert said[3] == "After move 2 of 2: White resigns"
    # each ply's link carries its words, for the script's steps
    assert f'data-said="{said[3]}"' in link_of(pages[0], 3)
    assert f'data-start-said="{said[0]}"' in pages[3]
    assert items_of(pages[3]) == ['<li value="1">', '<li value="2">', '<li class="aside">']
    # each move beside its mover's colour; the resignation names its seat itself (it
    # read "White White resigns")
    assert entries_of(pages[3]) == ["White b3-a4 (12-16)", "Black a6-b5 (24-20)", "White resigns"]
    german = await (await site.client.get(f"{site.path(m)}?ply=3&lang=de")).text()
    assert stepped_of(german) == "Nach Zug 2 von 2: Weiß gibt auf"


async def test_a_skip_is_listed_as_no_move(site: Site) -> None:
    from tests.service.conftest import SetClock
    from tests.web.test_clock_state import _four

    clock = site.service.clock
    assert isinstance(clock, SetClock)
    match_id = await _four(site.service, "skip")
    clock.advance(days=1, minutes=1)
    await site.service.sweep_deadlines()
    m = await site.service.get_match(match_id)
    html = await (await site.client.get(site.path(m) + "?lang=en-US")).text()
    skipped = next(p for p in (await site.service.record(match_id)).plies if p.move is None)
    assert skipped.display.endswith("is skipped")
    assert items_of(html)[skipped.ply] == '<li class="aside">'
    then = await (await site.client.get(
        f"{site.path(m)}?ply={skipped.ply + 1}&lang=en-US")).text()
    entry = render(move_display(skipped.display), "en-US")
    assert stepped_of(then) == f"After move 4 of 4: {entry}"  # not "after move 5"


def steps_of(html: str) -> dict[str, tuple[str, str, str]]:
    """The step buttons by their key: (accessible name, title, the ply they go to)."""
    nav = html.split('<nav class="steps"', 1)[1].split("</nav>", 1)[0]
    return {key: (unescape(label), unescape(title), ply) for key, ply, label, title in
            re.findall(r'data-step="(\w+)" href="[^"]*\?ply=(\d+)[^"]*" '
                       r'aria-label="([^"]*)" title="([^"]*)"', nav)}


async def test_the_step_buttons_name_positions_not_moves(site: Site) -> None:
    """The buttons step through the record's entries, some of which are no move (a
    resignation here; a set-up arrangement, a pass or skip, a player going out): they said
    "next move" on the way to a resignation. Each names the position it goes to, by its
    accessible name and its title (the sign alone says nothing under a pointer); the
    sentence under them says what the stop is."""
    from tests.service.conftest import ALICE, BOB
    from tests.web.conftest import web_match

    m = await web_match(site.service, "damas")
    await site.service.move(m.id, ALICE, "b3-a4")
    await site.service.move(m.id, BOB, "a6-b5")
    m = await site.service.resign(m.id, ALICE)
    html = await (await site.client.get(f"{site.path(m)}?ply=2&lang=en-US")).text()
    assert steps_of(html) == {
        "first": ("first position", "first position", "0"),
        "back": ("previous position", "previous position", "1"),
        "next": ("next position", "next position", "3"),  # the resignation: no move
        "last": ("latest position", "latest position", "3")}
    assert stepped_of(html).startswith("After move 2 of 2: bob played a6-b5")
    german = await (await site.client.get(f"{site.path(m)}?ply=2&lang=de")).text()
    assert [label for label, _title, _ply in steps_of(german).values()] == [
        "Anfangsstellung", "vorherige Stellung", "nächste Stellung", "aktuelle Stellung"]
