"""Result and notice texts: results in words, places instead of "draw" for a 4-player
ranking, why a player is out, and a draw offer lapsing."""

from __future__ import annotations

import random

from bot.discordapp import embeds
from locales.i18n import render
from service import MatchService, PlayerOut
from storage import MemoryRepository
from tests.discordapp.conftest import World
from tests.discordapp.helpers import post_text, start_match, words
from tests.service.conftest import ALICE, BOB, CAROL, CHANNEL, DAVE, GUILD, Recorder, SetClock


async def test_a_ranking_without_a_winner_lists_places_and_the_timeout() -> None:
    clock, recorder = SetClock(), Recorder()
    service = MatchService(MemoryRepository(), recorder, clock, rng=random.Random(1))
    m = await service.challenge(GUILD, CHANNEL, ALICE, "alquerque-grande",
                                opponents=[BOB, CAROL, DAVE], seat="white",
                                options={"players": 4, "mode": "fast"})
    for user, seat in ((BOB, "turquoise"), (CAROL, "black"), (DAVE, "red")):
        m = await service.accept(m.id, user, seat)
    for user, move in ((ALICE, "d3-d4"), (BOB, "e3-d3"), (CAROL, "e5xe3"),
                       (DAVE, "c4xe4"), (ALICE, "d2xd4")):
        await service.move(m.id, user, move)
    clock.advance(days=4)
    await service.sweep()
    m = await service.get_match(m.id)
    assert m.result is not None and m.result.reason == "timeout-ranked"
    text = render(embeds.result_text(m, m.result, m.result.reason), "en-US")
    assert text == (f"Match {m.id} (Alquerque grande) ended with no single winner — "
                    f"1. <@{CAROL}> and <@{DAVE}>; 2. <@{ALICE}>; 3. <@{BOB}> "
                    "(a player ran out of time; ranked on captures).")


def test_why_a_player_is_out_is_said_in_words() -> None:
    assert [render(PlayerOut(None, 1, r).what, "en-US") for r in  # type: ignore[arg-type]
            ("resignation", "timeout", "no-pieces", "no-moves")] == [
        "resigned", "ran out of time", "has no stones left", "cannot move"]


async def test_a_move_that_lets_a_draw_offer_lapse_says_so(world: World) -> None:
    w = world
    _, thread = await start_match(w, w.alice, w.bob, seat=0)
    await w.alice.slash(thread, "move", move="h3-e3")
    await w.alice.slash(thread, "draw", action="offer")
    await w.bob.slash(thread, "move", move="h10-g8")
    post = words(thread.last_message)
    assert f"({w.alice.mention}'s draw offer lapsed with this move.)" in post
    await w.alice.slash(thread, "move", move="b1-c3")
    assert "lapsed" not in post_text(thread.last_message)  # only the move that did it
