"""What a demanding reader trips over on the pages, over HTTP (the browser's part is
``test_browser_walk``): a player's page says where he stands (his move, not his move,
out of the game), a draw offer is said to everyone and its offerer may take it back, a
ply the match does not have is refused in words with a way to the latest position, the
language chosen with the switch stays after a move and on the pages linked, and Querni's
arrangements are not counted as moves."""

from __future__ import annotations

import re
from html import unescape
from pathlib import Path

from service import MatchView
from tests.service.conftest import ALICE, BOB, GUILD, play_random, start_four
from tests.web.conftest import Site, web_match
from tests.web.test_clock_state import players_of, words
from tests.web.test_play import form_of, player_path, post


def heading(html: str) -> str:
    """The heading of a player's own part of the page."""
    return words(html.split('<h2 id="play-h">', 1)[1].split("</h2>", 1)[0])


def status_of(html: str) -> str:
    return words(html.split('id="status">', 1)[1].split("</p>", 1)[0])


async def test_a_players_page_says_whether_it_is_his_move(site: Site) -> None:
    m = await web_match(site.service, "damas")
    alice = await (await site.client.get(await player_path(site, m, ALICE))).text()
    bob = await (await site.client.get(await player_path(site, m, BOB))).text()
    assert heading(alice) == "Your move" and 'id="play-moves"' in alice
    # never "Your move" above "not your move now"
    assert heading(bob) == "Not your move now" and "Your move" not in bob
    assert 'value="offer"' in bob and "Resign this match" in bob


async def test_a_player_stepped_back_is_told_his_moves_are_the_latest_positions(
        site: Site) -> None:
    """A player's page at an earlier ply listed the latest position's moves under the
    earlier board (the same 'Your move' box, its taps gone): it says that moves are played
    on the latest position, with a link to it, in place of them."""
    m = await web_match(site.service, "damas")
    m = (await site.service.move(m.id, ALICE, "b3-a4")).match
    path = await player_path(site, m, BOB)
    latest = await (await site.client.get(path + "?lang=en-US")).text()
    earlier = await (await site.client.get(path + "?ply=0&lang=en-US")).text()
    for html, back in ((latest, False), (earlier, True)):
        assert heading(html) == "Your move"  # still his move
        assert ('<div id="earlier">' in html) is back
        assert ('<div id="earlier" hidden>' in html) is not back
        assert (re.search(r'id="play-moves"[^>]* hidden>', html) is not None) is back
    said = words(earlier.split('<div id="earlier">', 1)[1].split("</div>", 1)[0])
    assert said == "You are looking at an earlier position; moves are played on the " \
        "latest one Latest position"
    assert f'href="{path}?lang=en-US" data-ply="1"' in earlier


async def test_the_spectators_page_tells_a_player_how_to_play_there(site: Site) -> None:
    """A player who opens the turn post's 'Open on the web' (the spectators' page) is told
    how to move there: his own link, from /web; nothing said on his own page, nor once
    the match is over."""
    m = await web_match(site.service, "damas")
    invite = "To play this match here, ask for your own link with /web"
    spectator = await (await site.client.get(site.path(m) + "?lang=en-US")).text()
    assert invite in words(spectator)
    german = await (await site.client.get(site.path(m) + "?lang=de")).text()
    assert "hol dir mit /web deinen eigenen Link" in words(german)
    mine = await (await site.client.get(await player_path(site, m, ALICE))).text()
    assert "ask for your own link" not in mine
    m = await site.service.resign(m.id, ALICE)
    over = await (await site.client.get(site.path(m) + "?lang=en-US")).text()
    assert "ask for your own link" not in over


async def test_a_player_out_of_a_four_player_game_is_told_so_and_offered_nothing(
        site: Site) -> None:
    await site.service.update_guild_settings(GUILD, web=True)
    m = await start_four(site.service, "slow")
    m = await play_random(site.service, m.id, 4)  # everyone moved: no abort
    leaver = next(s.user_id for s in m.seats if s.user_id not in m.to_move)
    assert leaver is not None
    m = await site.service.resign(m.id, leaver)
    assert m.status.is_live  # the three others play on
    html = await (await site.client.get(await player_path(site, m, leaver))).text()
    assert heading(html) == "You are out of this game"
    assert 'value="offer"' not in html and "Resign this match" not in html


async def test_a_draw_offer_is_said_to_everyone_and_its_offerer_may_withdraw_it(
        site: Site) -> None:
    m = await web_match(site.service, "damas")
    m = (await site.service.move(m.id, ALICE, "b3-a4")).match
    await site.service.offer_draw(m.id, BOB)
    said = "bob (Black) offers a draw; it lapses when the next move is played"
    spectator = await (await site.client.get(site.path(m) + "?lang=en-US")).text()
    assert said in words(spectator)
    earlier = await (await site.client.get(site.path(m) + "?ply=0")).text()
    assert re.search(r'<p class="offer" id="offer" hidden>', earlier)  # today's, not then's
    alice = await (await site.client.get(await player_path(site, m, ALICE))).text()
    assert said in words(alice) and 'value="accept"' in alice and 'value="decline"' in alice
    # Accept and Decline stand apart (they touched: a slip of the thumb ended the match)
    assert re.search(r'<form [^>]*class="offers">(?:<input [^>]*>)*<button name="action" '
                     r'value="accept">', alice)
    css = (Path(__file__).resolve().parents[2] / "bot/web/static/site.css").read_text()
    assert re.search(r"\.offers \{ display: flex; flex-wrap: wrap; gap: 0\.\d+rem; \}", css)
    bob_path = await player_path(site, m, BOB)
    bob = await (await site.client.get(bob_path)).text()
    assert said in words(bob) and 'value="offer"' not in bob
    assert '<button name="action" value="decline">Withdraw the draw offer</button>' in bob
    r = await post(site, bob_path + "/draw", {**form_of(bob), "action": "decline"})
    assert r.status == 303
    assert (await site.service.get_match(m.id)).draw_offer_by is None
    after = await (await site.client.get(bob_path)).text()
    assert "offers a draw" not in after and 'value="offer"' in after
    german = await (await site.client.get(site.path(m) + "?lang=de")).text()
    assert "offers a draw" not in german


async def test_a_ply_the_match_does_not_have_is_said_with_a_link_to_the_latest(
        site: Site) -> None:
    m = await web_match(site.service, "damas")
    m = (await site.service.move(m.id, ALICE, "b3-a4")).match
    m = (await site.service.move(m.id, BOB, "a6-b5")).match
    bob = await player_path(site, m, BOB)
    for path in (site.path(m), bob):
        for asked, status in (("-1", 400), ("abc", 400), ("99999999999999", 400),
                              ("3", 404), ("%3Cb%3Ex%3C/b%3E", 400)):
            r = await site.client.get(f"{path}?ply={asked}&lang=en-US")
            assert r.status == status, (path, asked)
            html = await r.text()
            shown = unescape(asked.replace("%3C", "<").replace("%3E", ">"))
            assert f"Match #{m.id} has plies 0 to 2; there is no ply {shown}" in words(html)
            assert "<b>" not in html and "Traceback" not in html
            assert f'<a href="{path}?lang=en-US">Latest position</a>' in html
    german = await (await site.client.get(f"{site.path(m)}?ply=7&lang=de")).text()
    assert "Partie #1 hat die Halbzüge 0 bis 2; einen Halbzug 7 gibt es nicht" \
        in words(german).replace(f"#{m.id}", "#1")


async def test_the_language_chosen_stays_after_a_move_and_on_the_pages_linked(
        site: Site) -> None:
    m = await web_match(site.service, "damas")
    path = await player_path(site, m, ALICE)
    html = await (await site.client.get(path + "?lang=de")).text()
    for action in ("move", "draw", "resign"):
        assert f'action="{path}/{action}?lang=de"' in html
    assert f'href="/s/{site.signer.server(GUILD)}?lang=de"' in html
    assert f'href="{site.path(m)}/player/1?lang=de"' in html
    r = await post(site, path + "/move?lang=de", {**form_of(html), "move": "b3-a4"})
    assert r.status == 303 and r.headers["Location"] == path + "?lang=de"
    back = await (await site.client.get(r.headers["Location"])).text()
    assert '<html lang="de">' in back
    stale = await post(site, path + "/move?lang=de", {**form_of(html), "move": "b3-a4"})
    assert stale.status == 409 and '<html lang="de">' in await stale.text()
    server = await (await site.client.get(f"/s/{site.signer.server(GUILD)}?lang=de")).text()
    assert f'href="{site.path(m)}?lang=de"' in server


async def test_querni_arrangements_are_not_counted_as_moves_on_the_page(site: Site) -> None:
    m = await web_match(site.service, "querni", options={"setup": "choose"})
    await site.service.submit_setup(m.id, BOB, " ".join(str(n) for n in range(16, 0, -1)))
    await site.service.submit_setup(m.id, ALICE, " ".join(str(n) for n in range(1, 17)))
    html = await (await site.client.get(site.path(m) + "?lang=en-US")).text()
    assert "after 0 moves: alice (Blue) to move" in status_of(html)
    m = (await site.service.move(m.id, ALICE, "c2-d2 r1-3")).match
    html = await (await site.client.get(site.path(m) + "?lang=en-US")).text()
    assert "after 1 move: bob (Pink) to move" in status_of(html)
    at_two = await (await site.client.get(site.path(m) + "?ply=2&lang=en-US")).text()
    assert "after 0 moves: alice (Blue) to move" in status_of(at_two)


async def test_a_web_process_names_the_players_the_bot_met_after_it_started(
        tmp_path: Path) -> None:
    """``tablero web`` in a process of its own reads a server's names again (the bot
    stores them as it meets players): a player who joined after it started is named,
    not shown as his colour alone."""
    from bot.names import NameBook
    from bot.web.links import LinkSigner
    from service import MatchService, NullNotifier, SystemClock
    from storage import SqliteRepository
    from tests.web.test_operations import SECRET, get, prepared, web_process

    db = await prepared(tmp_path)
    async with web_process(db) as (port, _):
        repo = await SqliteRepository.open(db)
        try:
            book = NameBook(repo)
            service = MatchService(repo, NullNotifier(), SystemClock(), names=book)
            m = await web_match(service, "damas")
            await book.seen(GUILD, ALICE, "alice")
            await book.seen(GUILD, BOB, "bob")
            token = LinkSigner(SECRET.encode()).spectator(m.id, m.guild_id)
            status, html = await get(port, f"/m/{token}?lang=en-US")
        finally:
            await repo.close()
    assert status == 200
    assert "White alice" in words(players_of(html)) and "Black bob" in words(players_of(html))


async def test_a_stale_form_posted_after_the_match_ended_says_why(site: Site) -> None:
    m = await web_match(site.service, "xiangqi")
    m = (await site.service.move(m.id, ALICE, "h3-e3")).match
    m = (await site.service.move(m.id, BOB, "h8-e8")).match
    path = await player_path(site, m, ALICE)
    form = form_of(await (await site.client.get(path)).text())  # a tab left open
    await site.service.resign(m.id, BOB)
    for action, extra in (("move", {"move": "b3-b7"}), ("draw", {"action": "offer"}),
                          ("resign", {})):
        r = await post(site, f"{path}/{action}?lang=en-US", {**form, **extra})
        assert r.status == 409
        html = await r.text()
        assert re.search(r'role="alert">Match #\d+ is over: Red \(alice\) won', html), action


async def test_a_match_without_moves_says_so_and_the_browsers_icon_is_no_error(
        site: Site) -> None:
    m = await web_match(site.service, "alquerque")
    html = await (await site.client.get(site.path(m) + "?lang=en-US")).text()
    moves = html.split('<section class="moves">', 1)[1].split("</section>", 1)[0]
    assert words(moves) == "Moves No moves yet."
    m = (await site.service.move(m.id, ALICE, "c2-c3")).match
    html = await (await site.client.get(site.path(m) + "?lang=en-US")).text()
    assert "No moves yet." not in html
    # asked for by the browser with every page: not a refused request each time
    icon = await site.client.get("/favicon.ico")
    assert icon.status == 204 and await icon.read() == b""


async def test_a_language_written_by_hand_in_the_address_is_understood(site: Site) -> None:
    m = await web_match(site.service, "xiangqi")
    for asked, tag in (("de", "de"), ("de-AT", "de"), ("es-MX", "es-419"), ("zh_tw", "zh-TW"),
                       ("sv", "sv-SE"), ("en-gb", "en-GB")):
        html = await (await site.client.get(f"{site.path(m)}?lang={asked}")).text()
        assert f'<html lang="{tag}">' in html, asked
    # one it does not speak: the reader's own (Accept-Language), else English
    html = await (await site.client.get(f"{site.path(m)}?lang=fr", headers={
        "Accept-Language": "de"})).text()
    assert '<html lang="de">' in html
    assert '<html lang="en-US">' in await (await site.client.get(
        f"{site.path(m)}?lang=%3Cscript%3E")).text()


async def test_a_stale_querni_form_counts_moves_as_the_page_does(site: Site) -> None:
    m = await web_match(site.service, "querni", options={"setup": "choose"})
    await site.service.submit_setup(m.id, BOB, " ".join(str(n) for n in range(16, 0, -1)))
    await site.service.submit_setup(m.id, ALICE, " ".join(str(n) for n in range(1, 17)))
    path = await player_path(site, m, ALICE)
    form = form_of(await (await site.client.get(path)).text())
    await site.service.move(m.id, ALICE, "c2-d2 r1-3")  # from another tab
    r = await post(site, path + "/move?lang=en-US", {**form, "move": "c3-d3"})
    assert r.status == 409
    said = words((await r.text()).split('role="alert">', 1)[1].split("</p>", 1)[0])
    assert said == "The position changed: the match is at move 1, not 0 (last: c2-d2 r1-3)"


async def test_a_teams_page_says_who_plays_with_whom(site: Site) -> None:
    from locales.i18n import render
    from locales.terms import seat_colour
    from tests.web.conftest import NAMES
    from tests.web.test_stepped_page import seat_items

    await site.service.update_guild_settings(GUILD, web=True)
    m = await start_four(site.service, "teams")
    html = await (await site.client.get(site.path(m) + "?lang=en-US")).text()
    items = seat_items(html)
    for held in m.seats:
        (mate,) = [s for s in m.seats if s.team == held.team and s.seat != held.seat]
        partner = NAMES.get(mate.user_id or 0) or render(seat_colour(mate.name), "en-US")
        assert f"with {partner}" in items[held.seat], items[held.seat]
    alone = await (await site.client.get(site.path(await web_match(site.service, "damas")))
                   ).text()
    assert 'class="team"' not in alone


async def test_a_players_page_lists_games_played_not_challenges_nor_lobbies(
        site: Site) -> None:
    from tests.service.conftest import CAROL, CHANNEL, DAVE

    played = await web_match(site.service, "damas")
    waiting = await site.service.challenge(GUILD, CHANNEL, ALICE, "xiangqi", opponents=[BOB])
    declined = await site.service.challenge(GUILD, CHANNEL, ALICE, "querni", opponents=[BOB])
    await site.service.decline(declined.id, BOB)
    lobby = await site.service.challenge(GUILD, CHANNEL, ALICE, "alquerque-grande",
                                         opponents=[BOB, CAROL, DAVE],
                                         options={"players": 4})
    html = await (await site.client.get(f"{site.path(played)}/player/0?lang=en-US")).text()
    assert f"Match #{played.id}: Spanish draughts" in html
    for never in (waiting, declined, lobby):  # no board to watch: not listed
        assert f"Match #{never.id}:" not in html, never.status


async def test_a_handed_in_arrangement_is_not_asked_for_again(site: Site) -> None:
    m = await web_match(site.service, "querni", options={"setup": "choose"})
    path = await player_path(site, m, ALICE)
    assert heading(await (await site.client.get(path)).text()) == "Arrange your stones"
    await site.service.submit_setup(m.id, ALICE, " ".join(str(n) for n in range(1, 17)))
    html = await (await site.client.get(path + "?lang=en-US")).text()
    assert heading(html) == "Your arrangement is in" and "Arrange your stones" not in html
    assert "The game starts when your opponent has handed in theirs" in words(html)


async def test_a_four_player_draw_offer_says_who_agreed_so_far(site: Site) -> None:
    await site.service.update_guild_settings(GUILD, web=True)
    m = await start_four(site.service, "slow")
    m = await play_random(site.service, m.id, 4)
    by, first, *_rest = [s.user_id for s in m.seats if s.user_id is not None]
    await site.service.offer_draw(m.id, by)
    m = await site.service.accept_draw(m.id, first)
    assert m.status.is_live and m.draw_accepted == (first,)  # two more must agree
    html = await (await site.client.get(site.path(m) + "?lang=en-US")).text()
    said = words(html.split('id="offer">', 1)[1].split("</p>", 1)[0])
    assert said.endswith(f"offers a draw; it lapses when the next move is played; "
                         f"agreed so far: {names_of(m, first)}")
    mine = await (await site.client.get(await player_path(site, m, first))).text()
    assert "You accepted the draw." in mine and 'value="accept"' not in mine
    assert '<button name="action" value="decline">Decline the draw</button>' in mine


def names_of(m: MatchView, user: int) -> str:
    """``'bob (Black)'`` as the page names a player (the fixture's names, else the
    colour alone)."""
    from locales.i18n import render
    from locales.terms import seat_colour
    from tests.web.conftest import NAMES

    seat = next(s for s in m.seats if s.user_id == user)
    colour = render(seat_colour(seat.name), "en-US")
    return f"{NAMES[user]} ({colour})" if user in NAMES else colour


async def test_ratings_are_said_as_the_card_says_them_and_not_once_it_is_over(
        site: Site) -> None:
    from tests.web.test_stepped_page import seat_items

    done = await web_match(site.service, "damas")
    for user, move in ((ALICE, "b3-a4"), (BOB, "a6-b5")):
        await site.service.move(done.id, user, move)
    await site.service.resign(done.id, BOB)  # rated: both have a provisional rating
    live = await web_match(site.service, "damas")
    items = seat_items(await (await site.client.get(site.path(live) + "?lang=en-US")).text())
    for item in items:  # provisional: '?', as ladders and Discord's card print it
        assert re.search(r"rating -?\d+\.\d\?", item), item
    first = await web_match(site.service, "xiangqi")  # a ladder they are not on yet
    items = seat_items(await (await site.client.get(site.path(first) + "?lang=en-US")).text())
    assert all("no rating yet" in item for item in items), items
    over = await (await site.client.get(site.path(done) + "?lang=en-US")).text()
    assert "rating" not in " ".join(seat_items(over))  # today's number is not the game's


async def test_querni_says_how_a_chain_is_tapped_where_one_can_be_taken_off(
        site: Site) -> None:
    chain = "To take a chain off, tap its first and last stone too (after the move, or alone)"
    m = await web_match(site.service, "querni", options={"setup": "choose"})
    await site.service.submit_setup(m.id, BOB, " ".join(str(n) for n in range(16, 0, -1)))
    await site.service.submit_setup(m.id, ALICE, " ".join(str(n) for n in range(1, 17)))
    html = await (await site.client.get(await player_path(site, m, ALICE))).text()
    assert "c2-b2 r1-3" in html and chain in words(html)  # a removal is on offer
    # without the script: each piece under its point, in the board's order, and the
    # removals alone under what they do (their notation's "r1", "r11" name no point)
    summaries = re.findall(r'<details class="piece"><summary>([^<]*)</summary>', html)
    assert summaries[-1] == "Take a chain off" and not any(
        s.startswith("r") for s in summaries)
    assert summaries[:-1] == sorted(summaries[:-1], key=lambda p: (p[0], int(p[1:])))
    last = html.split("<summary>Take a chain off</summary>", 1)[1].split("</details>")[0]
    assert re.findall(r'value="([^"]*)"', last) == ["r1-3", "r4-6", "r11-13", "r14-16"]
    swedish = await (await site.client.get(
        await player_path(site, m, ALICE) + "?lang=sv-SE")).text()
    assert "Tryck på en pjäs och sedan dit den ska För att ta ut en kedja" in words(swedish)
    assert "<summary>Ta ut en kedja</summary>" in swedish
    xiangqi = await web_match(site.service, "xiangqi")
    html = await (await site.client.get(await player_path(site, xiangqi, ALICE))).text()
    assert "Tap a piece, then where it goes" in words(html) and chain not in words(html)


async def test_listed_matches_say_where_they_stand(site: Site) -> None:
    done = await web_match(site.service, "damas")
    for user, move in ((ALICE, "b3-a4"), (BOB, "a6-b5")):
        await site.service.move(done.id, user, move)
    await site.service.resign(done.id, BOB)
    live = await web_match(site.service, "xiangqi")
    member = await (await site.client.get(f"{site.path(done)}/player/0?lang=en-US")).text()
    said = words(member)
    assert f"Match #{done.id}: Spanish draughts alice – bob · White (alice) won " \
        "(opponent resigned)" in said
    assert f"Match #{live.id}: Xiangqi alice – bob · alice (Red) to move" in said
    server = words(await (await site.client.get(
        f"/s/{site.signer.server(GUILD)}?lang=en-US")).text())
    assert f"Match #{live.id}: Xiangqi alice – bob · alice (Red) to move" in server
