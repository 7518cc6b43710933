"""Fixtures for the service tests: both repositories, a settable clock, a notifier that
records events, and helpers that play real games (never stubs)."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

import rules
from service import Event, MatchService, MatchView, OfferSettled, Repository, TurnStarted
from tests.conftest import REPOSITORY_KINDS, open_repository_of

GUILD, CHANNEL = 10, 20
ALICE, BOB, CAROL, DAVE, EVE = 101, 202, 303, 404, 505


class SetClock:
    """A clock the test moves by hand."""

    def __init__(self) -> None:
        self.t = datetime(2026, 1, 1, 12, 0, tzinfo=UTC)

    def now(self) -> datetime:
        return self.t

    def advance(self, **kw: float) -> None:
        self.t += timedelta(**kw)


def closes(event: Event) -> int | None:
    """The ply of the turn whose card ``event`` closes: an ``OfferSettled`` "turn" (the
    match ended, a takeback), or the next turn's ``TurnStarted`` (``closes``)."""
    if isinstance(event, OfferSettled) and event.offer == "turn":
        return event.ply
    return event.closes if isinstance(event, TurnStarted) else None


class Recorder:
    """A Notifier that keeps every event; the closings of turns' cards (after every
    change that ends a turn: a ``TurnStarted`` that ``closes`` a ply, or an
    ``OfferSettled`` "turn") in ``turns`` too: ``events`` are those that tell something
    (a ``TurnStarted`` among them)."""

    def __init__(self) -> None:
        self.events: list[Event] = []
        self.turns: list[Event] = []
        self.all: list[Event] = []  # both, in order

    async def notify(self, event: Event) -> None:
        self.all.append(event)
        if closes(event) is not None:
            self.turns.append(event)
        if not (isinstance(event, OfferSettled) and event.offer == "turn"):
            self.events.append(event)

    def of(self, kind: type) -> list[Event]:
        return [e for e in self.events if isinstance(e, kind)]


def told(events: list[Event]) -> list[Event]:
    """``events`` but the closings of turns' cards (``Recorder.turns``)."""
    return [e for e in events if not (isinstance(e, OfferSettled) and e.offer == "turn")]


@pytest.fixture(params=REPOSITORY_KINDS)
async def repo(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Repository]:
    r = await open_repository_of(request.param, tmp_path, request)
    yield r
    await r.close()


@pytest.fixture
def clock() -> SetClock:
    return SetClock()


@pytest.fixture
def recorder() -> Recorder:
    return Recorder()


@pytest.fixture
def service(repo: Repository, clock: SetClock, recorder: Recorder) -> MatchService:
    return MatchService(repo, recorder, clock, rng=random.Random(7))


async def start_match(service: MatchService, game: str = "xiangqi", *,
                      options: dict[str, object] | None = None, rated: bool = True,
                      seat: object = 0, days: int | None = None) -> MatchView:
    """Alice challenges Bob (Alice takes seat 0 unless told otherwise); Bob accepts."""
    m = await service.challenge(GUILD, CHANNEL, ALICE, game, opponents=[BOB],
                                options=options, rated=rated, seat=seat,  # type: ignore[arg-type]
                                days=days)
    return await service.accept(m.id, BOB)


async def start_four(service: MatchService, mode: str = "teams", *, days: int = 1,
                     **challenge: Any) -> MatchView:
    """Alice challenges Bob, Carol and Dave to four-player Alquerque grande in ``mode``
    (with ``challenge``'s further arguments, e.g. ``on_timeout``); all three accept."""
    m = await service.challenge(GUILD, CHANNEL, ALICE, "alquerque-grande",
                                opponents=[BOB, CAROL, DAVE],
                                options={"players": 4, "mode": mode}, days=days, **challenge)
    for user in (BOB, CAROL, DAVE):
        m = await service.accept(m.id, user)
    return m


async def play_random(service: MatchService, match_id: int, plies: int, seed: int = 1,
                      stop_before_end: bool = True) -> MatchView:
    """Play up to ``plies`` random legal moves through the service (never the last move of
    a game when ``stop_before_end``)."""
    rng = random.Random(seed)
    m = await service.get_match(match_id)
    for _ in range(plies):
        p, _ = await service.position(match_id)
        moves = list(p.legal_moves())
        if not moves:
            break
        if stop_before_end:
            safe = [mv for mv in moves if p.play(mv).outcome() is None]
            if not safe:
                break
            moves = safe
        mv = rng.choice(moves)
        m = (await service.move(match_id, m.to_move[0], p.variant.format_move(p, mv))).match
    return m


def finishing_game(game: str, options: dict[str, object], seed: int,
                   max_plies: int = 600) -> list[str] | None:
    """A seeded random game of ``game`` that ends by the rules; its canonical moves."""
    v = rules.variant(game)
    rng = random.Random(seed)
    p = v.start(**options)
    moves: list[str] = []
    for _ in range(max_plies):
        legal = list(p.legal_moves())
        if not legal:
            return moves
        mv = rng.choice(legal)
        moves.append(v.format_move(p, mv))
        p = p.play(mv)
    return moves if p.outcome() is not None else None
