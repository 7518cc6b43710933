"""The way back from a move: the service hands what it holds (the new position, the marks,
the players' notification choices, the result) to the event, so telling people about a
move reads nothing again and never calls back up a layer.

Target, measured here with counters: one /move as an adapter makes it (the match resolved
from its thread, then ``move``) is at most 2 repository reads, 1 write and 1 render, and
the service asks the adapter for nothing (no name lookups while moving)."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any

from rules import MoveMarks, Position
from service import (
    Event,
    MatchEnded,
    MatchService,
    Repository,
    TurnStarted,
    UserPrefs,
    texts,
)
from service.boards import draw_board
from service.views import BoardImage
from tests.service.conftest import ALICE, BOB, CHANNEL, GUILD, SetClock

THREAD = 777
WRITES = {"save", "create_match", "save_guild_settings", "save_user_prefs"}


class CountingRepository:
    """A repository that counts the calls made to it (reads and writes)."""

    def __init__(self, inner: Repository) -> None:
        self.inner = inner
        self.calls: Counter[str] = Counter()

    def __getattr__(self, name: str) -> Any:
        method = getattr(self.inner, name)

        def counted(*args: Any, **kwargs: Any) -> Any:
            self.calls[name] += 1
            return method(*args, **kwargs)
        return counted

    @property
    def reads(self) -> int:
        return sum(n for name, n in self.calls.items() if name not in WRITES)

    @property
    def writes(self) -> int:
        return sum(n for name, n in self.calls.items() if name in WRITES)


class CountingRenderer:
    def __init__(self) -> None:
        self.renders = 0

    def render(self, position: Position, *, last_move: MoveMarks | None = None,
               perspective: int | None = None, names: Sequence[str] | None = None,
               result: str | None = None, locale: str = "en-US") -> CountingRenderer.Drawn:
        self.renders += 1
        return CountingRenderer.Drawn()

    class Drawn:
        png = b"png"
        alt_text = "a board"


class DrawingNotifier:
    """An adapter's notifier, built before the service (it cannot call it): it draws the
    board of every turn and ending from the event alone and sorts pings from DMs."""

    def __init__(self, renderer: CountingRenderer, names: Callable[[int, int], str]) -> None:
        self.renderer = renderer
        self.names = names
        self.images: list[BoardImage] = []
        self.dms: list[int] = []

    async def notify(self, event: Event) -> None:
        if isinstance(event, TurnStarted | MatchEnded) and event.board is not None:
            m = event.match
            self.images.append(draw_board(self.renderer, m, event.board,
                                          texts.seat_names(m, self.names)))
        if isinstance(event, TurnStarted):
            self.dms += [u for u in event.users if event.match.prefers_dm(u)]


async def test_one_move_reads_twice_writes_once_draws_once_and_never_calls_back(
        repo: Repository) -> None:
    counting = CountingRepository(repo)
    renderer = CountingRenderer()
    asked: list[int] = []

    def service_names(guild_id: int, user_id: int) -> str:  # the adapter, seen from below
        asked.append(user_id)
        return "x"

    notifier = DrawingNotifier(renderer, lambda g, u: {ALICE: "alice", BOB: "bob"}[u])
    service = MatchService(counting, notifier, SetClock(), rng=random.Random(1),
                           names=service_names)
    await repo.save_user_prefs(UserPrefs(BOB, "dm"))
    m = await service.challenge(GUILD, CHANNEL, ALICE, "xiangqi", opponents=[BOB], seat=0)
    await service.accept(m.id, BOB)
    await service.attach_thread(m.id, THREAD)
    renderer.renders, asked[:] = 0, []
    for mover, text in ((ALICE, "h3-e3"), (BOB, "h8-e8"), (ALICE, "b1-c3")):
        counting.calls.clear()
        renders = renderer.renders
        found = await service.match_in_thread(THREAD)  # the handler resolves the match once
        assert found is not None
        await service.move(found.id, mover, text)
        assert counting.reads <= 2, counting.calls
        assert counting.writes == 1, counting.calls
        assert renderer.renders - renders == 1
    assert asked == []  # no name lookup up in the adapter while moving
    assert notifier.dms == [BOB, BOB]  # his choice came with the seats: no prefs read
    assert "get_user_prefs" not in counting.calls
    assert all(image.alt == "a board" for image in notifier.images)


async def test_the_move_that_ends_a_match_hands_over_its_record(repo: Repository) -> None:
    counting = CountingRepository(repo)
    renderer = CountingRenderer()
    ended: list[MatchEnded] = []

    class Keeping(DrawingNotifier):
        async def notify(self, event: Event) -> None:
            await super().notify(event)
            if isinstance(event, MatchEnded):
                ended.append(event)

    notifier = Keeping(renderer, lambda g, u: "")
    service = MatchService(counting, notifier, SetClock(), rng=random.Random(1))
    m = await service.challenge(GUILD, CHANNEL, ALICE, "xiangqi", opponents=[BOB], seat=0)
    await service.accept(m.id, BOB)
    await service.move(m.id, ALICE, "h3-e3")
    await service.move(m.id, BOB, "h8-e8")
    counting.calls.clear()
    await service.resign(m.id, BOB)
    (event,) = ended
    assert event.board is not None and event.record is not None
    record = event.record.game_record()  # replayed by whoever draws the replay, later
    assert [p.canonical for p in record.plies] == ["h3-e3", "h8-e8", "#resign 1"]
    assert counting.calls["load_match"] == 1 and counting.calls["load_entries"] == 1
