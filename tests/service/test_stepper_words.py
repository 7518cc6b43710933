"""What the replay stepper says of a ply (``plies.headline``, the one sentence of Discord,
the console and the web): it counted the record's entries ("Ply 5 of 5") where the rest
of Tablero counts moves ("Move 5", "after 4 moves"); now a ply is said in moves, and an
entry that is no move says what it is (a resignation, an agreed draw, a set-up), in
every language."""

from __future__ import annotations

import dataclasses
import random

from locales.i18n import LOCALES, render
from service import MatchService
from service.plies import headline
from storage import MemoryRepository
from tests.service.conftest import ALICE, BOB, CHANNEL, GUILD, Recorder, SetClock


def service() -> MatchService:
    return MatchService(MemoryRepository(), Recorder(), SetClock(), rng=random.Random(1))


async def said(svc: MatchService, match_id: int, ply: int, who: str | None = "someone",
               locale: str = "en-US") -> str:
    return render(headline(await svc.board_at(match_id, ply), who), locale)


async def test_a_ply_is_said_in_moves_and_an_entry_that_is_none_says_what_it_is() -> None:
    svc = service()
    m = await svc.challenge(GUILD, CHANNEL, ALICE, "xiangqi", opponents=[BOB], seat=0)
    await svc.accept(m.id, BOB)
    await svc.move(m.id, ALICE, "h3-e3")
    await svc.move(m.id, BOB, "h8-e8")
    await svc.offer_draw(m.id, ALICE)
    await svc.accept_draw(m.id, BOB)
    assert [await said(svc, m.id, n) for n in range(4)] == [
        "Start position (2 moves played)",
        "After move 1 of 2: someone played h3-e3 (C2.5)",
        "After move 2 of 2: someone played h8-e8 (C8.5)",
        "After move 2 of 2: draw agreed"]  # the third entry: no third move
    assert await said(svc, m.id, 1, None) == "After move 1 of 2: h3-e3 (C2.5)"

    # an entry before any move (a four-player seat's timeout, say: two players' early
    # resignation aborts the match unrecorded) is not "after move 0"
    drawn = await svc.board_at(m.id, 3)
    early = dataclasses.replace(drawn, moves=0)
    assert render(headline(early, None), "en-US") == "Before the first move: draw agreed"


async def test_a_querni_set_up_is_said_as_one_hidden_until_both_are_in() -> None:
    svc = service()
    m = await svc.challenge(GUILD, CHANNEL, ALICE, "querni", opponents=[BOB],
                            options={"setup": "choose"}, seat=0)
    await svc.accept(m.id, BOB)
    arranged = " ".join(str(n) for n in range(1, 17))
    await svc.submit_setup(m.id, BOB, arranged)
    assert await said(svc, m.id, 1, "bob") == (
        "Set-up, before the first move: bob handed in an arrangement, hidden until both are "
        "in")  # what he handed in is not shown yet
    await svc.submit_setup(m.id, ALICE, arranged)
    assert await said(svc, m.id, 2, "alice") == (
        f"Set-up, before the first move: alice arranged their stones: {arranged}")
    assert await said(svc, m.id, 0) == "Start position (0 moves played)"


async def test_every_language_says_it_in_its_own_words() -> None:
    svc = service()
    m = await svc.challenge(GUILD, CHANNEL, ALICE, "xiangqi", opponents=[BOB], seat=0)
    await svc.accept(m.id, BOB)
    await svc.move(m.id, ALICE, "h3-e3")
    await svc.move(m.id, BOB, "h8-e8")
    await svc.resign(m.id, ALICE)
    english = {await said(svc, m.id, n) for n in range(4)}
    for locale in LOCALES:
        words = [await said(svc, m.id, n, "bob", locale) for n in range(4)]
        assert all(w and "{" not in w for w in words), (locale, words)
        if not locale.startswith("en"):
            assert not english & set(words), (locale, words)
    assert [await said(svc, m.id, n, "bob", "de") for n in (0, 2, 3)] == [
        "Anfangsstellung (2 Züge gespielt)", "Nach Zug 2 von 2: bob spielte h8-e8 (C8.5)",
        "Nach Zug 2 von 2: Rot gibt auf"]
    assert await said(svc, m.id, 3, "bob", "zh-CN") == "第 2 步后（共 2 步）：红方认输"
