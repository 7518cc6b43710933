"""The web pages over HTTP (a real local server): what a spectator sees, what nobody
sees, and how every wrong request is answered."""

from __future__ import annotations

import asyncio
from collections import Counter
from html import unescape
from typing import Any

import pytest

import bot.web.pages
import rules.records
import service.exports
import service.states
import service.web
from bot.web.links import LinkSigner
from rules.damas import PDN
from service import MatchService, NullNotifier, SystemClock
from service.exports import record_export
from service.plies import PlyBoard, at_ply
from service.records import MatchRecord
from service.states import apply_entry, replay
from service.views import GameRecord
from tests.rules.test_record_exports import counted
from tests.service.conftest import ALICE, BOB, CAROL, CHANNEL, GUILD, play_random
from tests.web.conftest import NAMES, Site, web_match


async def test_the_match_page_shows_players_moves_deadline_and_board(site: Site) -> None:
    m = await web_match(site.service, "damas")
    m = (await site.service.move(m.id, ALICE, "b3-a4")).match
    m = (await site.service.move(m.id, BOB, "a6-b5")).match
    r = await site.client.get(site.path(m))
    assert r.status == 200
    html = await r.text()
    assert "alice" in html and "bob" in html and "Spanish draughts" in html
    assert html.count(' data-alt="') == 2  # two plies in the list
    assert "b3-a4" in html and "a6-b5" in html
    assert f'datetime="{m.deadline.isoformat(timespec="seconds")}"' in html  # type: ignore[union-attr]
    csp = r.headers["Content-Security-Policy"]
    assert "default-src 'none'" in csp and "script-src 'self'" in csp
    assert "http" not in html.replace('href="/', "")  # no third-party address at all
    for ply in (0, 1, 2):
        img = await site.client.get(f"{site.path(m)}/board/{ply}.png")
        assert img.status == 200 and img.content_type == "image/png"
        assert (await img.read()).startswith(b"\x89PNG")
    first = await (await site.client.get(f"{site.path(m)}/board/1.png")).read()
    last = await (await site.client.get(f"{site.path(m)}/board/2.png")).read()
    assert first != last
    assert (await site.client.get(f"{site.path(m)}/board/3.png")).status == 404
    at_one = await (await site.client.get(site.path(m) + "?ply=1")).text()
    assert 'data-ply="1" data-alt' in at_one and 'aria-current="step"' in at_one


async def test_the_page_speaks_the_readers_language(site: Site) -> None:
    m = await web_match(site.service, "xiangqi")
    german = await (await site.client.get(site.path(m), headers={
        "Accept-Language": "fr;q=0.9, de;q=0.8, en;q=0.1"})).text()
    assert '<html lang="de">' in german and "Züge" in german
    chosen = await (await site.client.get(site.path(m) + "?lang=zh-TW")).text()
    assert '<html lang="zh-TW">' in chosen and "著法" in chosen


async def test_forged_unknown_and_web_off_links_all_answer_the_same_404(site: Site) -> None:
    m = await web_match(site.service, "damas")
    good = site.path(m)
    forged = LinkSigner(b"another secret of thirty-two characters!").spectator(m.id, m.guild_id)
    other_server = site.signer.spectator(m.id, m.guild_id + 1)
    unknown = site.signer.spectator(m.id + 50, m.guild_id)
    pages = []
    for path in (f"/m/{forged}", f"/m/{other_server}", f"/m/{unknown}", "/m/1", "/m/%00",
                 f"/m/{forged}/board/0.png", "/nothing", "/static/../app.py"):
        r = await site.client.get(path)
        assert r.status == 404, path
        body = await r.text()
        assert "Traceback" not in body
        pages.append(body)
    assert (await site.client.get(good)).status == 200
    await site.service.update_guild_settings(m.guild_id, web=False)
    off = await site.client.get(good)
    assert off.status == 404 and await off.text() == pages[0]
    assert (await site.client.get(f"{good}/board/0.png")).status == 404
    await site.service.update_guild_settings(m.guild_id, web=True)
    assert (await site.client.get(good + "?ply=x")).status == 400
    assert (await site.client.get(good + "?ply=99")).status == 404


async def test_a_hidden_querni_arrangement_is_in_no_response(site: Site) -> None:
    m = await web_match(site.service, "querni", options={"setup": "choose"})
    secret = " ".join(str(n) for n in range(16, 0, -1))
    await site.service.submit_setup(m.id, BOB, secret)
    path = site.path(m)
    html = await (await site.client.get(path)).text()
    assert "16 15 14" not in html and "16" not in html.split('id="moves"')[1].split("</ol>")[0]
    start = await (await site.client.get(f"{path}/board/0.png")).read()
    after = await (await site.client.get(f"{path}/board/1.png")).read()
    # the picture after the submission says Bob handed in, nothing of what: the same as
    # another match's where he handed in other numbers
    other = await web_match(site.service, "querni", options={"setup": "choose"})
    await site.service.submit_setup(other.id, BOB, " ".join(str(n) for n in range(1, 17)))
    assert after != start
    assert after == await (await site.client.get(f"{site.path(other)}/board/1.png")).read()
    said = unescape(html.split('id="status">', 1)[1].split("<", 1)[0])
    assert said.endswith("after 0 moves: alice (Blue) to arrange their stones; no stone is "
                         "on the board until both arrangements are in")  # no move yet
    await site.service.submit_setup(m.id, ALICE, " ".join(str(n) for n in range(1, 17)))
    both = await (await site.client.get(f"{path}/board/2.png")).read()
    assert both != start  # once both are in, the arrangements are public


async def test_a_spectator_hears_of_a_move_within_a_second(site: Site) -> None:
    m = await web_match(site.service, "damas")
    m = await play_random(site.service, m.id, 2)
    async with site.client.get(site.path(m) + "/events") as stream:
        assert stream.headers["Content-Type"].startswith("text/event-stream")
        assert await stream.content.readline() == b"retry: 2000\n"
        await stream.content.readline()
        moved = (await play_random(site.service, m.id, 1, seed=3))
        loop = asyncio.get_running_loop()
        started = loop.time()
        lines = []
        while not lines or not lines[-1].startswith(b"data:"):
            line = await asyncio.wait_for(stream.content.readline(), 1.0)
            if line.strip() and not line.startswith(b":"):
                lines.append(line.strip())
        assert loop.time() - started < 1.0
        assert lines[-2:] == [b"event: change", f"data: {moved.version}".encode()]


async def test_a_move_made_before_the_stream_opened_is_told_at_once(site: Site) -> None:
    """The stream starts from the version the page shows (``?since=``, or the last
    event's id a browser sends when it connects again): a move made while the page
    loaded, or while the stream was down (a server restart, a phone asleep), is told at
    once; the page stayed as it was until the next move."""
    m = await web_match(site.service, "damas")
    shown = m.version
    moved = await play_random(site.service, m.id, 1)
    for ask in ({"params": {"since": str(shown)}},
                {"headers": {"Last-Event-ID": str(shown)}}):
        async with site.client.get(site.path(m) + "/events", **ask) as stream:
            lines: list[bytes] = []
            async with asyncio.timeout(5.0):  # (keep-alive comments come meanwhile)
                while not lines or not lines[-1].startswith(b"data:"):
                    line = await stream.content.readline()
                    if line.strip() and not line.startswith((b":", b"retry")):
                        lines.append(line.strip())
            assert lines == [f"id: {moved.version}".encode(), b"event: change",
                             f"data: {moved.version}".encode()]


async def test_xiangqi_and_damas_pages_offer_their_records_in_wxf_and_pdn(site: Site) -> None:
    await site.service.update_guild_settings(GUILD, web=True)
    m = await site.service.challenge(GUILD, CHANNEL, ALICE, "xiangqi", opponents=[CAROL],
                                     seat=0)
    m = await site.service.accept(m.id, CAROL)  # Carol has no name the bot knows
    m = (await site.service.move(m.id, ALICE, "h3-e3")).match
    html = unescape(await (await site.client.get(site.path(m))).text())
    record = html.split("<pre>")[1].split("</pre>")[0]
    assert "Record (WXF)" in html and "C2.5" in record and '[Red "alice"]' in record
    assert '[Black "Black"]' in record and str(CAROL) not in html  # never a user id
    r = await site.client.get(f"{site.path(m)}/record.wxf")
    assert r.status == 200 and r.content_type == "text/plain"
    assert "attachment" in r.headers["Content-Disposition"] and "START{" in await r.text()
    assert (await site.client.get(f"{site.path(m)}/record.pdn")).status == 404
    d = await web_match(site.service, "damas")
    d = (await site.service.move(d.id, ALICE, "b3-a4")).match
    html = await (await site.client.get(site.path(d))).text()
    assert "Record (PDN)" in html and "12-16" in html
    assert (await site.client.get(f"{site.path(d)}/record.pdn")).status == 200
    q = await web_match(site.service, "querni")
    html = await (await site.client.get(site.path(q))).text()
    assert 'class="record"' not in html  # Querni has no standard record format
    assert (await site.client.get(f"{site.path(q)}/record.pdn")).status == 404
    await site.service.update_guild_settings(GUILD, web=False)
    assert (await site.client.get(f"{site.path(d)}/record.pdn")).status == 404


async def test_an_imported_games_page_names_its_players_as_imported(site: Site) -> None:
    from pathlib import Path
    await site.service.update_guild_settings(GUILD, web=True)
    data = (Path(__file__).parents[1] / "rules" / "records"
            / "liu-dianzhong-liu-dahua-1997.wxf").read_bytes()
    done = await site.service.import_record(GUILD, CHANNEL, ALICE, data)
    html = unescape(await (await site.client.get(site.path(done.match))).text())
    assert '<span class="name">Liu Dianzhong (imported)</span>' in html
    assert '<span class="name">Liu Dahua (imported)</span>' in html
    german = unescape(await (await site.client.get(site.path(done.match) + "?lang=de")).text())
    assert "Liu Dahua (importiert)" in german
    member = unescape(await (await site.client.get(site.path(done.match) + "/player/1")).text())
    assert "<h1>Liu Dahua (imported)</h1>" in member
    assert "Liu Dianzhong (imported) – Liu Dahua (imported)" in member  # his games


async def test_a_continued_match_page_steps_back_to_the_record_players(site: Site) -> None:
    """A match continued from an imported game, its page at the record's start: the board
    and its words are the record's players' ("White (bob) to move" was said of Ana's
    turn: Bob holds White today); from the continuation on, today's."""
    await site.service.update_guild_settings(GUILD, web=True)
    text = '[Game "damas"]\n[White "Ana"]\n[Black "Bea"]\n\n1. b3-a4\n'
    imported = (await site.service.import_record(GUILD, CHANNEL, ALICE, text)).match
    lobby = await site.service.continue_import(GUILD, CHANNEL, ALICE, imported.id, [BOB])
    m = await site.service.accept(lobby.id, BOB)
    m = (await site.service.move(m.id, ALICE, "a6-b5")).match
    start = await (await site.client.get(site.path(m) + "?ply=0&lang=en-US")).text()
    alt = unescape(start.split('id="board"', 1)[1].split('alt="', 1)[1].split('"', 1)[0])
    assert alt.endswith("after 0 moves: Ana (imported) (White) to move")
    after_one = unescape(start.split('data-ply="1" data-alt="', 1)[1].split('"', 1)[0])
    assert "after 1 move: alice (Black) to move; last move b3-a4" in after_one
    drawn = await site.service.web_board(m.id, 0)
    assert drawn is not None and "White (Ana (imported)) to move" in drawn.alt
    now = await site.service.web_board(m.id, 1)
    assert now is not None and "Black (alice) to move" in now.alt


async def test_an_unnamed_imported_player_is_named_by_his_seat(site: Site) -> None:
    """A record that names nobody: beside his colour he is "an imported player"; his own
    page and the list of games name him by his seat, in the reader's language (they said
    the seat's English colour: "White")."""
    await site.service.update_guild_settings(GUILD, web=True)
    four = ('[Game "alquerque-grande"]\n[Options \'{"mode": "slow", "players": 4}\']\n\n'
            "1. c3-d4 2. e3xc3\n")
    done = await site.service.import_record(GUILD, CHANNEL, ALICE, four)
    html = unescape(await (await site.client.get(site.path(done.match))).text())
    assert html.count('<span class="name">an imported player</span>') == 4
    member = unescape(await (await site.client.get(site.path(done.match)
                                                    + "/player/1")).text())
    assert "<h1>an imported player (Turquoise)</h1>" in member
    assert ("an imported player (White) – an imported player (Turquoise) – an imported "
            "player (Black) – an imported player (Red)") in member
    german = unescape(await (await site.client.get(site.path(done.match)
                                                    + "/player/1?lang=de")).text())
    assert "<h1>ein importierter Spieler (Türkis)</h1>" in german


async def test_a_page_asked_again_at_the_same_version_replays_nothing(
        site: Site, monkeypatch: pytest.MonkeyPatch) -> None:
    """A match's replayed record, export and stepper are kept by its stored version: a
    page asked again (a refresh, a board picture, the page after a live update) replays
    nothing; a move, here by another process over the same store, is seen at once, and
    played on from what was kept (its entry alone; the stepper's new plies alone; the
    export written on by that move alone); a draw offer plays nothing and keeps the
    export; a takeback writes the export whole."""
    replays, exports, played = Counter[int](), Counter[int](), Counter[int]()
    written = Counter[str]()  # the moves the PDN export wrote
    monkeypatch.setitem(rules.records._WRITERS, "pdn", counted(PDN, written))

    def counted_replay(rec: MatchRecord, *args: Any, **kwargs: Any) -> Any:
        replays[rec.id] += 1
        return replay(rec, *args, **kwargs)

    def counted_export(rec: MatchRecord, *args: Any, **kwargs: Any) -> Any:
        exports[rec.id] += 1
        return record_export(rec, *args, **kwargs)

    def counted_entry(rec: MatchRecord, *args: Any) -> Any:
        played[rec.id] += 1
        return apply_entry(rec, *args)

    monkeypatch.setattr(service.states, "replay", counted_replay)
    monkeypatch.setattr(service.states, "apply_entry", counted_entry)
    monkeypatch.setattr(service.exports, "record_export", counted_export)
    stepped = Counter[int]()

    def counted_at_ply(record: GameRecord, ply: int) -> PlyBoard:
        stepped[record.match.id] += 1
        return at_ply(record, ply)

    monkeypatch.setattr(bot.web.pages, "at_ply", counted_at_ply)
    m = await web_match(site.service, "damas")
    m = (await site.service.move(m.id, ALICE, "b3-a4")).match
    for query in ("", "?ply=0", "?ply=1", "?lang=de"):
        assert (await site.client.get(site.path(m) + query)).status == 200
    assert (await site.client.get(f"{site.path(m)}/board/1.png")).status == 200
    assert replays[m.id] == 1 and exports[m.id] == 1 and played[m.id] == 1
    assert written["moves"] == 1
    assert stepped[m.id] == 2  # the stepper of its two positions, made once
    other = MatchService(site.service.repository, NullNotifier(), SystemClock())
    await other.move(m.id, BOB, "a6-b5")  # another process: only the store knows
    before = played[m.id]  # (the other process replayed it for its move)
    html = await (await site.client.get(site.path(m))).text()
    assert "a6-b5" in html and html.count(' data-alt="') == 2
    assert exports[m.id] == 2 and written["moves"] == 1 + 1  # the new move alone
    # played on: its new entry alone, not the record again from the start
    assert replays[m.id] == 1 and played[m.id] == before + 1
    assert "a6-b5" in await (await site.client.get(site.path(m))).text()
    # the stepper: the last position kept (no longer the latest) and the new one made
    assert replays[m.id] == 1 and stepped[m.id] == 2 + 2
    # a draw offer is a new version and no entry: nothing played, the export kept
    await site.service.offer_draw(m.id, ALICE)
    assert "offers a draw" in await (await site.client.get(site.path(m))).text()
    assert replays[m.id] == 1 and played[m.id] == before + 1 and exports[m.id] == 2
    assert written["moves"] == 2
    await site.service.decline_draw(m.id, BOB)
    await site.service.update_guild_settings(GUILD, takebacks_rated=True)
    await site.service.request_takeback(m.id, BOB)  # not a record that only grew:
    await site.service.accept_takeback(m.id, ALICE)  # its export is written whole
    html = await (await site.client.get(site.path(m))).text()
    assert "a6-b5" not in html and exports[m.id] == 3 and written["moves"] == 2 + 1


async def test_the_root_says_what_these_pages_are_in_the_readers_language(
        site: Site) -> None:
    english = await site.client.get("/")
    assert english.status == 200 and "Content-Security-Policy" in english.headers
    html = unescape(await english.text())
    assert "<title>Tablero's match pages</title>" in html
    assert "ask for it in Discord with /web." in html
    german = await (await site.client.get("/", headers={
        "Accept-Language": "fr;q=0.9, de;q=0.8"})).text()
    assert '<html lang="de">' in german and "Die Partieseiten von Tablero" in german
    chosen = await (await site.client.get("/?lang=zh-TW")).text()
    assert '<html lang="zh-TW">' in chosen and "Tablero 對局頁面" in chosen
    assert 'href="/?lang=sv-SE"' in chosen  # the language switch stays here


async def test_the_404_and_403_pages_have_the_language_switch(site: Site) -> None:
    """As every other page: a reader sent a dead link in a language he does not read
    switches to his own. The switch is the address asked for (its query alone: no path
    written back, so every stranger's 404 still reads the same), the ply kept; a refused
    form's is its player's page, where the form was."""
    import re
    import time

    from tests.web.test_play import form_of, player_path, post

    m = await web_match(site.service, "damas")
    forged = LinkSigner(b"another secret of thirty-two characters!").spectator(m.id, m.guild_id)
    missing = await site.client.get(f"/m/{forged}?lang=de&ply=3")
    body = await missing.text()
    assert missing.status == 404 and '<html lang="de">' in body
    links = re.findall(r'<nav class="languages"[^>]*>(.*?)</nav>', body)[0]
    assert 'href="?ply=3&amp;lang=zh-TW" lang="zh-TW"' in links
    assert 'href="?ply=3&amp;lang=de" lang="de" hreflang="de" aria-current="true"' in links
    assert await (await site.client.get("/nothing?lang=de")).text() == \
        await (await site.client.get(f"/m/{forged}?lang=de")).text()
    expired = await player_path(site, m, ALICE, expires=time.time() - 1)
    refused = await site.client.get(expired + "?lang=sv-SE")
    said = await refused.text()
    assert refused.status == 403 and 'href="?lang=en-GB" lang="en-GB"' in said
    assert 'aria-label="Språk"' in said
    path = await player_path(site, m, ALICE)
    form = form_of(await (await site.client.get(path)).text())
    stale = await post(site, path + "/move?lang=es-ES", {**form, "csrf": "x" * 22})
    assert stale.status == 403
    assert f'href="{path}?lang=de" lang="de"' in await stale.text()
    # other refusals say only why (a bad request's address is no page to read again)
    assert 'class="languages"' not in await (await site.client.get(
        site.path(m) + "?ply=x")).text()


async def test_a_match_played_on_reads_as_one_replayed_whole(
        site: Site, monkeypatch: pytest.MonkeyPatch) -> None:
    """A page of a match that moved on is made from what was kept of its last version
    (its moves played on, a draw offer adding none) and reads exactly as a fresh
    process's, replayed whole, at every ply and in every language; a takeback, even one
    followed by another move before the page was asked again, replays it whole."""
    from bot.web.pages import match_page

    whole = Counter[int]()

    def counted_replay(rec: MatchRecord, *args: Any, **kwargs: Any) -> Any:
        whole[rec.id] += 1
        return replay(rec, *args, **kwargs)

    monkeypatch.setattr(service.states, "replay", counted_replay)
    m = await web_match(site.service, "xiangqi")
    token = site.path(m).removeprefix("/m/")

    async def reads_whole(replayed: int) -> None:
        """The site's pages (its kept records and steppers; each page says every ply in
        its moves list) at an earlier ply and the latest, in two languages, as a fresh
        process makes them; ``replayed``: the site's whole replays for them (0: played
        on)."""
        before = whole[m.id]
        got = {(ply, lang): await (await site.client.get(
                   f"{site.path(m)}?ply={ply}&lang={lang}")).text()
               for lang in ("en-US", "zh-TW") for ply in {min(1, last), last}}
        assert whole[m.id] == before + replayed
        fresh = MatchService(site.service.repository, NullNotifier(), site.service.clock,
                             names=lambda g, u: NAMES.get(u, ""))
        found = await fresh.web_match(m.id)
        export = await fresh.web_export(m.id)
        for (ply, lang), html in got.items():
            assert html == match_page(
                found, token=token, ply=ply, locale=lang, live=True, export=export,
                server_path=f"/s/{site.signer.server(GUILD)}",
                now=site.service.clock.now()), (ply, lang)

    last = 0
    await reads_whole(1)
    for user, move in ((ALICE, "h3-e3"), (BOB, "h8-e8"), (ALICE, "h1-g3")):
        await site.service.move(m.id, user, move)
        last += 1
        await reads_whole(0)  # played on
    await site.service.offer_draw(m.id, BOB)
    await reads_whole(0)  # an offer is no entry: played on by none
    await site.service.decline_draw(m.id, ALICE)
    await site.service.update_guild_settings(GUILD, takebacks_rated=True)
    await site.service.request_takeback(m.id, ALICE)
    await site.service.accept_takeback(m.id, BOB)
    await site.service.move(m.id, ALICE, "h1-i3")  # as many plies, the last another
    await reads_whole(1)
    await site.service.resign(m.id, BOB)
    last += 1
    await reads_whole(0)  # the end played on too (the stepper is made whole: it ended)
