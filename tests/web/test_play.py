"""Play by link: a player's own signed, expiring, revocable link plays through the same
service path as /move, with a form token on every state-changing request and a rate
limit; nobody else's request changes anything."""

from __future__ import annotations

import re
import time

from aiohttp import ClientResponse

from bot.web.links import LinkSigner, PlayerPass
from service import MatchView
from tests.service.conftest import ALICE, BOB
from tests.web.conftest import Site, web_match


async def player_path(site: Site, match: MatchView, user: int, *,
                      expires: float | None = None) -> str:
    epoch = await site.service.web_pass(match.id, user)
    grant = PlayerPass(match.id, match.guild_id, user,
                       int(expires if expires is not None else time.time() + 3600), epoch)
    return f"/p/{site.signer.player(grant)}"


def form_of(html: str) -> dict[str, str]:
    return {"csrf": re.search(r'name="csrf" value="([^"]+)"', html).group(1),  # type: ignore[union-attr]
            "ply": re.search(r'name="ply" value="(\d+)"', html).group(1)}  # type: ignore[union-attr]


async def post(site: Site, path: str, data: dict[str, str]) -> ClientResponse:
    return await site.client.post(path, data=data, allow_redirects=False)


async def test_a_tapped_move_is_played_and_stored_like_move(site: Site) -> None:
    m = await web_match(site.service, "damas")
    path = await player_path(site, m, ALICE)
    html = await (await site.client.get(path)).text()
    assert '<button name="move" value="b3-a4">' in html
    assert "<summary>b3</summary>" in html  # the piece to tap first
    r = await post(site, path + "/move", {**form_of(html), "move": "b3-a4"})
    assert r.status == 303 and r.headers["Location"] == path + "?lang=en-US"
    after = await site.service.get_match(m.id)
    assert after.ply == 1 and after.last_move is not None and "b3-a4" in after.last_move
    # the same form again is stale: refused in words, nothing played
    again = await post(site, path + "/move", {**form_of(html), "move": "b3-a4"})
    assert again.status == 409 and 'role="alert"' in await again.text()
    assert (await site.service.get_match(m.id)).ply == 1
    # bob's page has no move buttons for alice's pieces, and bob moves through his own
    bob = await player_path(site, m, BOB)
    bob_html = await (await site.client.get(bob)).text()
    assert 'value="a6-b5"' in bob_html and 'value="c3-d4"' not in bob_html


async def test_a_multi_capture_is_one_tap(site: Site) -> None:
    m = await web_match(site.service, "damas")
    for move in ("h3-g4", "e6-d5", "g4-f5", "g6xe4", "d3xf5", "h7-g6", "f5xh7", "f7-g6",
                 "g2-h3", "d7-e6", "h1-g2", "e6-f5", "f3-e4"):
        m = (await site.service.move(m.id, m.to_move[0], move)).match
    path = await player_path(site, m, BOB)
    html = await (await site.client.get(path)).text()
    assert re.findall(r'<button name="move" value="([^"]*)">', html) == ["d5xf3xh1"]
    r = await post(site, path + "/move", {**form_of(html), "move": "d5xf3xh1"})
    assert r.status == 303
    after = await site.service.get_match(m.id)
    assert after.ply == 14 and after.last_move is not None and "d5xf3xh1" in after.last_move


async def test_draw_offers_and_resigning_work_from_the_page(site: Site) -> None:
    m = await web_match(site.service, "xiangqi")
    for user, move in ((ALICE, "h3-e3"), (BOB, "h8-e8")):  # both moved: a resignation counts
        m = (await site.service.move(m.id, user, move)).match
    alice, bob = await player_path(site, m, ALICE), await player_path(site, m, BOB)
    html = await (await site.client.get(alice)).text()
    assert (await post(site, alice + "/draw", {**form_of(html), "action": "offer"})).status \
        == 303
    assert (await site.service.get_match(m.id)).draw_offer_by == ALICE
    bob_html = await (await site.client.get(bob)).text()
    assert 'value="accept"' in bob_html and 'value="decline"' in bob_html
    assert (await post(site, bob + "/draw", {**form_of(bob_html), "action": "decline"})
            ).status == 303
    assert (await site.service.get_match(m.id)).draw_offer_by is None
    assert (await post(site, bob + "/resign", form_of(bob_html))).status == 303
    over = await site.service.get_match(m.id)
    assert over.is_over and over.result is not None and over.result.winners == (ALICE,)


async def test_forged_expired_revoked_and_csrf_less_requests_change_nothing(
        site: Site) -> None:
    m = await web_match(site.service, "damas")
    path = await player_path(site, m, ALICE)
    html = await (await site.client.get(path)).text()
    form = {**form_of(html), "move": "b3-a4"}
    forged = LinkSigner(b"another secret of thirty-two characters!").player(
        PlayerPass(m.id, m.guild_id, ALICE, int(time.time()) + 3600, 0))
    assert (await site.client.get(f"/p/{forged}")).status == 404
    assert (await post(site, f"/p/{forged}/move", form)).status == 404
    stranger = PlayerPass(m.id, m.guild_id, 999, int(time.time()) + 3600, 0)
    assert (await site.client.get(f"/p/{site.signer.player(stranger)}")).status == 404
    expired = await player_path(site, m, ALICE, expires=time.time() - 1)
    assert (await site.client.get(expired)).status == 403
    assert (await post(site, path + "/move", {**form, "csrf": "x" * 22})).status == 403
    assert (await post(site, path + "/move", {"ply": "0", "move": "b3-a4"})).status == 403
    other_site = await site.client.post(path + "/move", data=form, allow_redirects=False,
                                        headers={"Origin": "https://evil.example"})
    assert other_site.status == 403
    await site.service.revoke_web_links(ALICE)
    assert (await site.client.get(path)).status == 403
    assert (await post(site, path + "/move", form)).status == 403
    assert (await site.service.get_match(m.id)).ply == 0  # nothing of it was played
    fresh = await player_path(site, m, ALICE)
    assert (await site.client.get(fresh)).status == 200


async def test_state_changing_requests_are_rate_limited(site: Site) -> None:
    m = await web_match(site.service, "damas")
    path = await player_path(site, m, ALICE)
    form = {**form_of(await (await site.client.get(path)).text()), "action": "nonsense"}
    codes = [(await post(site, path + "/draw", form)).status for _ in range(14)]
    assert codes[:10] == [400] * 10 and codes[-1] == 429


async def test_a_players_page_shows_the_board_from_his_seat(site: Site) -> None:
    m = await web_match(site.service, "xiangqi")
    bob = await player_path(site, m, BOB)
    html = await (await site.client.get(bob)).text()
    assert "/board/0.png?lang=en-US&amp;seat=1" in html
    spectator = f"/m/{site.signer.spectator(m.id, m.guild_id)}/board/0.png"
    red = await (await site.client.get(spectator)).read()
    black = await (await site.client.get(spectator + "?seat=1")).read()
    assert red.startswith(b"\x89PNG") and black.startswith(b"\x89PNG") and red != black
    assert (await site.client.get(spectator + "?seat=2")).status == 404
    assert (await site.client.get(spectator + "?seat=x")).status == 404


async def test_a_querni_arrangement_is_handed_in_and_a_bad_one_refused_in_words(
        site: Site) -> None:
    m = await web_match(site.service, "querni", options={"setup": "choose"})
    path = await player_path(site, m, ALICE)
    html = await (await site.client.get(path)).text()
    assert 'id="play-setup"' in html and "a1 b1 c1 h1" in html  # the cells' order, said
    bad = await post(site, path + "/setup", {**form_of(html), "arrangement": "1 2 3"})
    refused = await bad.text()
    assert bad.status == 409 and 'role="alert"' in refused
    # what he handed in stays in the field, to be corrected rather than written again
    assert 'autocomplete="off" value="1 2 3">' in refused
    assert 'value="1 2 3"' not in await (await site.client.get(path)).text()
    assert ALICE in (await site.service.get_match(m.id)).to_move  # nothing handed in
    numbers = " ".join(str(n) for n in range(16, 0, -1))
    r = await post(site, path + "/setup", {**form_of(html), "arrangement": numbers})
    assert r.status == 303
    after = await site.service.get_match(m.id)
    assert after.to_move == (BOB,)
    mine = await (await site.client.get(path)).text()
    assert 'id="play-setup"' not in mine and "your arrangement is in" in mine.lower()
    # Bob, still to hand in his, is never shown Alice's
    bob_html = await (await site.client.get(await player_path(site, m, BOB))).text()
    assert 'id="play-setup"' in bob_html and numbers not in bob_html


async def test_the_players_page_offers_every_legal_move(site: Site) -> None:
    """Not the 25 that /move's autocomplete suggests: all 44 of Xiangqi's first moves,
    as buttons and as taps on the board."""
    import json
    from html import unescape

    m = await web_match(site.service, "xiangqi")
    html = await (await site.client.get(await player_path(site, m, ALICE))).text()
    assert html.count('<button name="move"') == 44
    taps = json.loads(unescape(re.search(r'data-taps="([^"]*)"', html).group(1)))  # type: ignore[union-attr]
    assert len(taps) == 44 and {t[2][0] for t in taps} >= {"a1", "b1", "h3", "e4"}
    # each point read out as what stands there, in the reader's language
    labels = json.loads(unescape(re.search(r'data-labels="([^"]*)"', html).group(1)))  # type: ignore[union-attr]
    assert labels.keys() == {p for t in taps for p in t[2]}
    assert labels["h3"] == "h3, cannon (Red)" and labels["e3"] == "e3, empty"
    chinese = await (await site.client.get(await player_path(site, m, ALICE)
                                           + "?lang=zh-CN")).text()
    labels = json.loads(unescape(re.search(r'data-labels="([^"]*)"', chinese).group(1)))  # type: ignore[union-attr]
    assert labels["h3"] == "h3，红方炮" and labels["e3"] == "e3，空"
    assert 'data-board="棋盘上的点（按箭头在点之间移动）"' in chinese


async def test_a_refused_move_is_shown_as_it_was_typed(site: Site) -> None:
    """The refusal starts the page's alert with a capital: the move's notation keeps its
    own ("a1-a9: …", never "A1-a9"), in every language."""
    m = await web_match(site.service, "xiangqi")
    path = await player_path(site, m, ALICE)
    for lang in ("en-US", "de", "zh-CN"):
        html = await (await site.client.get(f"{path}?lang={lang}")).text()
        refused = await post(site, f"{path}/move?lang={lang}", {**form_of(html),
                                                                "move": "a1-a9"})
        alert = re.search(r'role="alert">([^<]*)<', await refused.text())
        assert refused.status == 409 and alert is not None
        assert alert[1].startswith("a1-a9"), (lang, alert[1])


async def test_a_move_refused_while_paused_names_the_pause_end_as_the_clock_does(
        site: Site) -> None:
    """The refusal's pause end is a ``<time class="deadline">`` as the clock's note
    writes one: its instant for the page's script, which shows it in the reader's own
    zone, and its UTC words inside for a reader without scripts (it was UTC text)."""
    m = await web_match(site.service, "damas")
    await site.service.propose_pause(m.id, BOB, 3, "exams")
    await site.service.accept_pause(m.id, ALICE)
    paused = await site.service.get_match(m.id)
    assert paused.paused is not None
    end = paused.paused[1]
    shown = (f'<time datetime="{end.isoformat(timespec="seconds")}" class="deadline">'
             f'{end:%Y-%m-%d %H:%M} UTC</time>')
    path = await player_path(site, m, ALICE)
    for lang, said in (("en-US", "is paused until"), ("de", "pausiert")):
        html = await (await site.client.get(f"{path}?lang={lang}")).text()
        assert shown in html  # the clock's note: the same element
        refused = await post(site, f"{path}/move?lang={lang}",
                             {**form_of(html), "move": "b3-a4"})
        alert = re.search(r'role="alert">(.*?)</p>', await refused.text())
        assert refused.status == 409 and alert is not None, lang
        assert said in alert[1] and shown in alert[1], (lang, alert[1])
        assert "\ue010" not in alert[1] and "\ue012" not in alert[1]
    assert (await site.service.get_match(m.id)).ply == 0
