"""A player's own page says in the browser tab's title when it is his turn ("(Your move)
Match #1: Spanish draughts"), in the page's language, so he sees it among his tabs; it is gone when
it is not his turn, on a spectator's page and once the match is over. (The title changing
on a live refresh is ``test_browser``'s.)"""

from __future__ import annotations

import re
from html import unescape

from tests.service.conftest import ALICE, BOB
from tests.web.conftest import Site, web_match
from tests.web.test_play import player_path


def title_of(html: str) -> str:
    found = re.search(r"<title>(.*?)</title>", html)
    assert found is not None
    return unescape(found.group(1))


async def title(site: Site, path: str, lang: str = "en-US") -> str:
    return title_of(await (await site.client.get(f"{path}?lang={lang}")).text())


async def test_the_tab_says_your_move_to_the_player_to_move_only(site: Site) -> None:
    m = await web_match(site.service, "damas")
    alice, bob = await player_path(site, m, ALICE), await player_path(site, m, BOB)
    assert await title(site, alice) == f"(Your move) Match #{m.id}: Spanish draughts"
    assert await title(site, bob) == f"Match #{m.id}: Spanish draughts"
    assert await title(site, site.path(m)) == f"Match #{m.id}: Spanish draughts"  # a spectator
    assert await title(site, alice, "de") == f"(Dein Zug) Partie #{m.id}: Spanische Dame"
    assert (await title(site, alice, "zh-CN")).startswith("（")  # full-width brackets

    m = (await site.service.move(m.id, ALICE, "b3-a4")).match  # the turn passes
    assert await title(site, alice) == f"Match #{m.id}: Spanish draughts"
    assert await title(site, bob) == f"(Your move) Match #{m.id}: Spanish draughts"
    await site.service.resign(m.id, BOB)
    assert await title(site, bob) == await title(site, alice) == f"Match #{m.id}: Spanish draughts"


async def test_a_set_up_to_hand_in_is_said_in_the_tab(site: Site) -> None:
    m = await web_match(site.service, "querni", options={"setup": "choose"})
    alice = await player_path(site, m, ALICE)
    # the game with the options that set it apart, as the game menu says it
    assert await title(site, alice) == \
        f"(Arrange your stones) Match #{m.id}: Querni · choose setup"
    await site.service.submit_setup(m.id, ALICE, " ".join(str(n) for n in range(1, 17)))
    # handed in: bob's turn
    assert await title(site, alice) == f"Match #{m.id}: Querni · choose setup"
    bob = await player_path(site, m, BOB)
    assert await title(site, bob, "sv-SE") == \
        f"(Ställ upp dina pjäser) Parti #{m.id}: Querni · välj uppställning"
