"""What one ``/move`` costs through the whole Discord path (issue 19, measured here with
counters on the repository, the renderer and the service's name lookups): at most 2
repository reads, 1 write, 1 render, and the service never calls back up into the
adapter. The service-level count is tests/service/test_return_path.py; this one adds the
adapter's own reads (resolving the match from its thread, the permission check, the
notifier posting the board, with each seat's rating: read with the match, issue 42).
The outbox's bookkeeping is counted apart: the board's post, which also closes the card
before it (its buttons removed, ``TurnStarted.closes``: no entry of its own), is read
from the outbox and marked delivered once (issue 12); so is the posts' (the new card
remembered, the old one looked up and forgotten: one each, no more)."""

from __future__ import annotations

import inspect
from collections import Counter
from typing import Any

from tests.discordapp.conftest import World
from tests.discordapp.helpers import is_turn_post, post_text, reply, shows_board, start_match
from tests.discordapp.test_card_seats import rated_game, shown_rating

WRITES = {"save", "create_match", "save_guild_settings", "save_user_prefs", "beat",
          "extend_clocks"}
OUTBOX = {"pending_outbox", "mark_delivered"}
POSTS = {"remember_post", "post_of", "forget_post"}


def count_calls(repository: Any, calls: Counter[str]) -> None:
    """Count every call of ``repository``'s public coroutine methods (patched in place:
    the service and its collaborators hold this very object)."""
    for name, method in inspect.getmembers(repository, inspect.iscoroutinefunction):
        if name.startswith("_"):
            continue

        async def counted(*args: Any, _method: Any = method, _name: str = name,
                          **kwargs: Any) -> Any:
            calls[_name] += 1
            return await _method(*args, **kwargs)
        setattr(repository, name, counted)


async def test_one_move_costs_two_reads_one_write_one_render(world: World) -> None:
    w = world
    await rated_game(w, w.alice, w.bob)  # both rated: the post shows their ratings
    _, thread = await start_match(w, w.alice, w.bob, seat=0)
    await w.alice.slash(thread, "move", move="h3-e3")
    ratings = {u.id: await shown_rating(w, u) for u in (w.alice, w.bob)}
    service = w.service
    calls: Counter[str] = Counter()
    count_calls(service.repository, calls)
    renderer = service.renderer
    assert renderer is not None
    renders = 0
    real_render = renderer.render

    def render(*args: Any, **kwargs: Any) -> Any:
        nonlocal renders
        renders += 1
        return real_render(*args, **kwargs)
    renderer.render = render  # type: ignore[method-assign]
    called_up: list[int] = []
    real_names = service.core.names

    def names(guild_id: int, user_id: int) -> str:
        called_up.append(user_id)
        return real_names(guild_id, user_id) if real_names else ""
    service.core.names = names

    played = reply(await w.bob.slash(thread, "move", move="h8-e8"))
    await w.env.advance_time(1)  # let the board's delivery finish
    assert played.content.startswith("You played **h8-e8")
    assert is_turn_post(thread.last_message) and shows_board(thread.last_message)
    said = post_text(thread.last_message)  # read with the match (issue 42), not one each
    assert all(f"<@{u}> · rating {r}" in said for u, r in ratings.items())
    reads = sum(n for name, n in calls.items() if name not in WRITES | OUTBOX | POSTS)
    writes = sum(n for name, n in calls.items() if name in WRITES)
    print(f"one /move: {reads} reads, {writes} write, {renders} render, "
          f"{len(called_up)} calls up ({dict(calls)})")
    assert reads <= 2, calls
    assert writes == 1, calls
    assert calls["pending_outbox"] == 1 and calls["mark_delivered"] == 1, calls
    assert all(calls[name] == 1 for name in POSTS), calls
    assert renders == 1
    assert called_up == []
