"""How a match ended, said the same way everywhere: the result kind is decided once and
the board line, the console, the Discord post and the exported record are built from it
(``locales.results``)."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Sequence

import pytest

from locales import ResultKind, result_kind, result_sentence
from rules import MoveMarks, Position
from service import MatchService, MatchStatus, Repository, ResultRecord, ResultView
from tests.service.conftest import ALICE, BOB, CAROL, CHANNEL, DAVE, GUILD, Recorder, SetClock

NAMES = {ALICE: "alice", BOB: "bob", CAROL: "carol", DAVE: "dave"}


class ResultRenderer:
    """A BoardRenderer that keeps the result line it was asked to draw."""

    def __init__(self) -> None:
        self.results: list[str | None] = []

    def render(self, position: Position, *, last_move: MoveMarks | None = None,
               perspective: int | None = None, names: Sequence[str] | None = None,
               result: str | None = None, locale: str = "en-US") -> ResultRenderer.Drawn:
        self.results.append(result)
        return ResultRenderer.Drawn()

    class Drawn:
        png = b"png"
        alt_text = "a board"


@pytest.mark.parametrize(("winners", "ranking", "kind"), [
    ((1,), ((1,), (0,)), ResultKind.WIN),
    ((0, 2), ((0, 2), (1, 3)), ResultKind.WIN),
    ((), ((0, 1), (2,), (3,)), ResultKind.SHARED_FIRST),
    ((), ((0, 1, 2, 3),), ResultKind.DRAW),
    ((), (), ResultKind.ABORTED)])
def test_the_result_kind(winners: tuple[int, ...], ranking: tuple[tuple[int, ...], ...],
                         kind: ResultKind) -> None:
    assert result_kind(winners, ranking) is kind
    assert ResultRecord(winners, ranking, "no-moves").kind is kind
    assert ResultView(winners, ranking, "no-moves").kind is kind


async def shared_first(repo: Repository, service: MatchService) -> int:
    """A 4-player Alquerque grande ``fast`` match stored as ended with White and
    Turquoise sharing first place (no winners), as the game ends such a match."""
    m = await service.challenge(GUILD, CHANNEL, ALICE, "alquerque-grande",
                                options={"players": 4, "mode": "fast"}, seat=0)
    for u in (BOB, CAROL, DAVE):
        m = await service.join(m.id, u)
    rec = await repo.load_match(m.id)
    assert rec is not None
    await repo.save(rec, dataclasses.replace(
        rec, status=MatchStatus.FINISHED, to_move=(), deadline=None, remind_at=None,
        result=ResultRecord((), ((0, 1), (2,), (3,)), "no-moves")))
    return m.id


async def test_the_export_of_a_shared_first_place_is_not_a_draw(repo: Repository) -> None:
    renderer = ResultRenderer()
    service = MatchService(repo, Recorder(), SetClock(), renderer=renderer,
                           rng=random.Random(3), names=lambda g, u: NAMES[u])
    match_id = await shared_first(repo, service)
    export = (await service.history(match_id)).export
    assert '[Result "no single winner, first: White and Turquoise: opponent cannot move"]' \
        in export
    assert "draw" not in export
    await service.board_image(match_id)
    m = await service.get_match(match_id)
    first = " and ".join(f"{s.name} ({NAMES[s.user_id or 0]})" for s in m.seats[:2])
    assert renderer.results == [f"No single winner, first: {first}: opponent cannot move"]


def test_every_medium_says_every_kind() -> None:
    for medium in ("board", "console", "post", "export"):
        for kind in ResultKind:
            text = result_sentence(medium, kind, reason="no-moves", winners="W",  # type: ignore[arg-type]
                                   first="F", places="1. F; 2. G", match=7,
                                   game="Game").render("en-US")
            assert "opponent cannot move" in text.lower()
            assert ("draw" in text.lower()) == (kind is ResultKind.DRAW)
