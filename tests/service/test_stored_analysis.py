"""Issue 40: an analysis is stored when ``/analysis`` makes it (``AnalysisStore``, on
memory, SQLite and PostgreSQL alike), answered from the store when asked again, and shown
to whoever may see the match only once it is finished."""

from __future__ import annotations

import dataclasses
import random
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from bot.computer import InlineMovePicker
from locales.analysis import CostKind
from service import MatchService, Repository
from service.errors import MatchNotFound
from service.views import AnalysedMove, Caller, EvalPoint, MatchAnalysis
from tests.service.conftest import (
    ALICE,
    BOB,
    GUILD,
    Recorder,
    SetClock,
    finishing_game,
    start_match,
)


class CountingPicker(InlineMovePicker):
    """Weighs as the test says by the move's index (the best move: the first legal one),
    and counts its weighings."""

    def __init__(self, by_index: dict[int, tuple[int, int, int | None, int | None]]) -> None:
        super().__init__(nodes=60)
        self.by_index = by_index
        self.weighed = 0

    async def weigh(self, moves: Any) -> list[Any]:
        from service import MoveWeighing

        self.weighed += 1
        return [MoveWeighing(*self.by_index.get(i, (0, 0, None, None))[:2],
                             p.variant.format_move(p, p.legal_moves()[0]),
                             *self.by_index.get(i, (0, 0, None, None))[2:])
                for i, (p, _text) in enumerate(moves)]


WEIGHINGS: dict[int, tuple[int, int, int | None, int | None]] = {
    0: (250, 0, None, None),  # Alice: 2.5 pawns
    3: (150, -999_998, None, -1),  # Bob walks into a forced loss in 1
    5: (400, 60, None, None),  # Bob: 3.4 pawns
}


async def finished(service: MatchService) -> tuple[int, list[str]]:
    moves = finishing_game("alquerque", {}, 16)  # White (Alice) wins at ply 16
    assert moves
    m = await start_match(service, "alquerque", rated=False)
    for i, text in enumerate(moves):
        await service.move(m.id, (ALICE, BOB)[i % 2], text)
    return m.id, moves


async def test_an_analysis_is_stored_when_made_and_answered_from_the_store(
        repo: Repository, clock: SetClock, recorder: Recorder) -> None:
    picker = CountingPicker(WEIGHINGS)
    service = MatchService(repo, recorder, clock, rng=random.Random(7), picker=picker)
    match_id, moves = await finished(service)
    assert await repo.analysis_of(match_id) is None
    made_at = clock.now()
    first = await service.game_analysis(match_id, top=2)
    assert picker.weighed == 1
    stored = await repo.analysis_of(match_id)
    assert stored is not None
    assert (stored.match_id, stored.made_at, stored.plies, stored.level, stored.nodes) == \
        (match_id, made_at, len(moves), 8, 60)
    assert stored.seconds >= 0
    # every costly move, worst first; /analysis answered the first two
    assert [(a.ply, a.user, a.kind, a.amount) for a in stored.costly] == [
        (3, BOB, CostKind.ALLOWED_LOSS, 1), (5, BOB, CostKind.PAWNS, 340),
        (0, ALICE, CostKind.PAWNS, 250)]
    assert first.marked == stored.costly[:2]
    # the evaluation after each move, for its mover, by ply and seat
    assert [(p.ply, p.seat) for p in stored.curve] == [(i, i % 2) for i in range(len(moves))]
    assert stored.curve[3] == EvalPoint(3, 1, -999_998, -1)
    # asked again: the store answers, the engine is not asked, the answer is the same
    clock.advance(hours=1)
    again = await service.game_analysis(match_id, top=2)
    assert picker.weighed == 1 and again == first
    assert [a.line("x", game="alquerque").render("en-US")
            for a in await service.analysis(match_id, top=1)] == \
        [f"move 4, x: {moves[3]}; better "
         f"{stored.costly[0].better} (allows a forced loss in 1 move)"]
    # shown to those who may see the match, and only in its server
    assert await service.stored_analysis(match_id, caller=Caller(GUILD, 0)) == stored
    with pytest.raises(MatchNotFound):
        await service.stored_analysis(match_id, caller=Caller(GUILD + 1, 0))


async def test_another_engine_budget_weighs_again_and_replaces_the_stored_one(
        repo: Repository, clock: SetClock, recorder: Recorder) -> None:
    service = MatchService(repo, recorder, clock, picker=CountingPicker(WEIGHINGS))
    match_id, _moves = await finished(service)
    await service.game_analysis(match_id)
    stronger = CountingPicker({1: (500, 0, None, None)})
    stronger.nodes = 120
    other = MatchService(repo, recorder, clock, picker=stronger)
    found = await other.game_analysis(match_id)
    assert stronger.weighed == 1 and [a.ply for a in found.marked] == [1]
    stored = await repo.analysis_of(match_id)
    assert stored is not None and stored.nodes == 120 and \
        [a.ply for a in stored.costly] == [1]


async def test_a_live_match_shows_no_stored_analysis(
        repo: Repository, clock: SetClock, recorder: Recorder) -> None:
    """No engine help to the players of a live game: whatever the store holds for a
    match in play (an import continued, a row written by hand), it is not shown."""
    service = MatchService(repo, recorder, clock)
    m = await start_match(service, "alquerque", rated=False)
    await repo.save_analysis(MatchAnalysis(
        m.id, datetime(2026, 3, 1, tzinfo=UTC), 0, 8, 400, 0.1,
        (EvalPoint(0, 0, 50),),
        (AnalysedMove(0, 0, ALICE, "c3-d4", "b2-c3", 120, CostKind.PAWNS, 120),)))
    assert await service.stored_analysis(m.id, caller=Caller(GUILD, 0)) is None


async def test_the_store_keeps_every_field_and_replaces_by_match(repo: Repository) -> None:
    """The port's contract on every store: a round trip keeps every field (a forced end,
    no user, no node budget, words beyond ASCII), a second save replaces the first."""
    service = MatchService(repo, Recorder(), SetClock())
    m = await start_match(service, "xiangqi", rated=False)
    when = datetime(2026, 3, 1, 9, 30, 15, 250_000, tzinfo=UTC)
    a = MatchAnalysis(m.id, when, 41, 8, None, 1.5,
                      (EvalPoint(0, 0, 30), EvalPoint(1, 1, -999_996, -2),
                       EvalPoint(2, 0, 999_997, 2)),
                      (AnalysedMove(1, 1, None, "炮二平五", "h3-e3 (C2=5)", 1_999_993,
                                    CostKind.ALLOWED_LOSS, 2),
                       AnalysedMove(0, 0, ALICE, "a", "b", 130, CostKind.PAWNS, 130)))
    await repo.save_analysis(a)
    assert await repo.analysis_of(m.id) == a
    assert await repo.analysis_of(m.id + 1000) is None
    b = dataclasses.replace(a, made_at=when + timedelta(days=1), nodes=400, costly=())
    await repo.save_analysis(b)
    assert await repo.analysis_of(m.id) == b
