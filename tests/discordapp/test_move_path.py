"""The way back from ``/move``: the match is read once by the adapter and handed on, and
the mover's reply goes out before the board is drawn and posted."""

from __future__ import annotations

from typing import Any

from tests.discordapp.conftest import World
from tests.discordapp.helpers import reply, start_match

MATCH_READS = ("load_match", "match_in_thread", "matches_of")


async def test_the_adapter_reads_the_match_once_before_moving(world: World) -> None:
    w = world
    _, thread = await start_match(w, w.alice, w.bob, seat=0)
    repository = w.service.repository
    reads: list[str] = []
    for name in MATCH_READS:
        real = getattr(repository, name)

        def counting(*args: Any, _real: Any = real, _name: str = name, **kwargs: Any) -> Any:
            reads.append(_name)
            return _real(*args, **kwargs)
        setattr(repository, name, counting)
    before_service: list[str] = []
    service_move = w.service.move

    async def move(*args: Any, **kwargs: Any) -> Any:
        before_service.extend(reads)
        return await service_move(*args, **kwargs)

    w.service.move = move  # type: ignore[method-assign]
    played = reply(await w.alice.slash(thread, "move", move="h3-e3"))
    assert played.content == "You played **h3-e3 (C2.5)**."
    assert before_service == ["match_in_thread"]


async def test_the_mover_hears_before_the_board_is_posted(world: World) -> None:
    w = world
    _, thread = await start_match(w, w.alice, w.bob, seat=0)
    start = len(w.env.http_requests)
    await w.alice.slash(thread, "move", move="h3-e3")
    sent = [r for r in w.env.http_requests[start:] if r.method == "POST"]
    kinds = ["reply" if "/webhooks/" in r.path else
             "board" if r.path == f"/channels/{thread.id}/messages" else "other"
             for r in sent if "/callback" not in r.path]
    assert kinds[:2] == ["reply", "board"], kinds
