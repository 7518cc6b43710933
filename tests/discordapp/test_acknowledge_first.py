"""Acknowledge first: with a database that takes 5 s per call, every command, button and
autocomplete still answers Discord within its 3 s (issue 12), and the answer follows.

The delay is SimCord's virtual time, as a stalled database would hold the bot's work; the
interaction's 3 s window is virtual time too (SimCord refuses a late first response with
Unknown interaction). What the bot does before it acknowledges is checked as well, in
ways a loaded machine cannot fail: the acknowledgement is the first request the
interaction makes, no database call starts before it, and the CPU time spent until it
(the process's: the bot's work, SimCord's and the database thread's) is inside the window.
Wall time is not measured: on a loaded machine it is mostly waiting for a CPU.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from typing import Any

import discord
import pytest
import simcord

from bot.discordapp import TableroBot
from bot.discordapp.cogs import common
from tests.discordapp.conftest import World, make_bot
from tests.discordapp.helpers import reply, start_match, words

DELAY = 5.0
WINDOW = 3.0

# SimCord's own settle deadline, not the suite's 30 s (conftest.SETTLE_DEADLINE): an
# action's settle runs the virtual timers due within its deadline, so with 30 s the
# database's 5 s of virtual delay would be waited out in real time before the action
# returned (measured with a delay beyond 30 s instead: other timers of the bot's were
# waited out, 64 s of wall time for this module rather than 11)
pytestmark = pytest.mark.simcord(settle_timeout=5.0)


class SlowRepository:
    """The real repository, every call waiting ``delay`` seconds first (0 until the test
    has set the scene)."""

    def __init__(self, inner: Any) -> None:
        self._inner = inner
        self.delay = 0.0
        self.calls = 0

    def __getattr__(self, name: str) -> Any:
        found = getattr(self._inner, name)
        if not asyncio.iscoroutinefunction(found):
            return found

        async def slowed(*args: Any, **kwargs: Any) -> Any:
            if self.delay:
                self.calls += 1
                await asyncio.sleep(self.delay)
            return await found(*args, **kwargs)
        return slowed


@pytest.fixture
def slow(repository: Any) -> SlowRepository:
    return SlowRepository(repository)


@pytest.fixture
def simcord_bot(tmp_path: Any, slow: SlowRepository) -> TableroBot:
    """The bot over the slowed repository, from its start."""
    return make_bot(tmp_path, slow)


class Stamped(list[Any]):
    """SimCord's log of the bot's requests, noting as each arrives the process's CPU
    time and how many slowed database calls had begun."""

    def __init__(self, entries: list[Any], slow: SlowRepository) -> None:
        super().__init__(entries)
        self.slow = slow
        self.stamps: list[tuple[float, int]] = [(0.0, 0)] * len(entries)

    def append(self, entry: Any) -> None:
        self.stamps.append((time.process_time(), self.slow.calls))
        super().append(entry)


@pytest.fixture
def requests(world: World, slow: SlowRepository) -> Stamped:
    stamped = Stamped(world.env.backend.http_requests, slow)
    world.env.backend.http_requests = stamped
    return stamped


async def acknowledged_in_time(w: World, act: Callable[[], Awaitable[
        simcord.InteractionResult]]) -> simcord.InteractionResult:
    """Run one interaction: acknowledged within the window, as its first request, before
    any database call began and any virtual time passed, with less CPU time than the
    window spent until then; then let the slow work finish and return the result."""
    log = w.env.backend.http_requests
    assert isinstance(log, Stamped)
    first, calls, virtual = len(log), log.slow.calls, w.env.now()
    cpu = time.process_time()
    result = await act()
    assert result.acknowledged, result
    assert len(log) > first and log[first].path.endswith("/callback"), \
        f"the bot's first request was not the acknowledgement: {log[first:first + 1]}"
    acknowledged_cpu, calls_then = log.stamps[first]
    assert calls_then == calls, "a database call began before the acknowledgement"
    assert acknowledged_cpu - cpu < WINDOW, \
        f"{acknowledged_cpu - cpu:.2f} s of CPU before the acknowledgement"
    assert w.env.now() == virtual  # nothing waited on the database before answering
    await w.env.advance_time(20 * DELAY)
    return result


async def test_every_interaction_is_acknowledged_before_a_slow_database(
        world: World, slow: SlowRepository, requests: Stamped) -> None:
    w = world
    admins = w.guild.create_role("admins", permissions=discord.Permissions(manage_guild=True))
    admin = w.guild.add_member(w.env.create_user("admin"), roles=[admins])
    rated = [w.guild.add_member(w.env.create_user(f"p{i}")) for i in range(12)]
    for a, b in zip(rated[::2], rated[1::2], strict=True):  # two pages of ladder
        _, done = await start_match(w, a, b, seat=0)
        await a.slash(done, "move", move="h3-e3")  # both move: the result is rated
        await b.slash(done, "move", move="h8-e8")
        await b.slash(done, "resign")
    match, thread = await start_match(w, w.alice, w.bob, seat=0)
    await w.alice.slash(thread, "move", move="h3-e3")
    await w.bob.slash(w.channel, "challenge", game="damas", opponent=w.carol)
    challenge = w.channel.last_message
    slow.delay = DELAY

    async def answered(act: Callable[[], Awaitable[simcord.InteractionResult]]) -> Any:
        before = slow.calls
        result = await acknowledged_in_time(w, act)
        assert slow.calls > before  # the slow database was on its path
        return reply(result)

    moved = await answered(lambda: w.bob.slash(thread, "move", move="h8-e8"))
    assert moved.content == "You played **h8-e8 (C8.5)**."
    assert words(thread.last_message).startswith("bob played **h8-e8")
    assert (await answered(lambda: w.carol.slash(thread, "board"))).embeds
    assert (await answered(lambda: w.alice.slash(w.channel, "games"))).embeds
    assert "1. h3-e3" in (await answered(lambda: w.alice.slash(thread, "history"))).content
    assert (await answered(lambda: w.alice.slash(w.channel, "stats"))).embeds
    rules = await acknowledged_in_time(w, lambda: w.alice.slash(w.channel, "rules",
                                                                game="xiangqi"))
    assert reply(rules).embeds
    assert "setup phase" in (await answered(
        lambda: w.alice.slash(thread, "setup", arrangement="1 2 3"))).content
    assert "mentioned" in (await answered(
        lambda: w.dave.slash(w.channel, "notify", mode="mention"))).content
    assert "5 days" in (await answered(
        lambda: admin.slash(w.channel, "settings", days=5))).content
    assert "Challenge posted" in (await answered(
        lambda: w.dave.slash(w.channel, "challenge", game="xiangqi", opponent=w.alice))
    ).content
    assert "accepted" in (await answered(
        lambda: w.carol.click(challenge, label="Accept"))).content
    picker = await acknowledged_in_time(
        w, lambda: w.alice.context_menu(w.channel, "Challenge to a game", w.carol))
    assert picker.response is not None
    assert "Challenge posted" in (await answered(
        lambda: w.alice.select(picker.response, ["damas"]))).content
    assert "Draw offered" in (await answered(
        lambda: w.alice.slash(thread, "draw", action="offer"))).content
    offer = thread.last_message
    assert "declined" in (await answered(
        lambda: w.bob.click(offer, label="Decline draw"))).content
    board = await acknowledged_in_time(
        w, lambda: w.alice.slash(w.channel, "leaderboard", game="xiangqi"))
    assert board.response is not None and board.response.embeds
    page = await acknowledged_in_time(
        w, lambda: w.alice.click(board.response, label="Next ▶"))
    assert page.response is not None
    assert "Page 2 of 2" in page.response.embeds[0].footer.text
    assert "resigned" in (await answered(lambda: w.alice.slash(thread, "resign"))).content
    assert (await w.service.get_match(match.id)).is_over
    replay_post = thread.last_message  # the replay stepper (issue 42): opened, then stepped
    start = next(c.custom_id for row in replay_post.components for c in row.children
                 if (c.custom_id or "").startswith("tablero:stnf:"))
    opened = await answered(lambda: w.carol.click(replay_post, custom_id=start))
    assert opened.embeds[0].description.startswith("Start position")
    forward = next(c["custom_id"] for row in opened.components
                   for c in row["components"] if c["custom_id"].startswith("tablero:sten:"))
    stepped = await acknowledged_in_time(w, lambda: w.carol.click(opened, custom_id=forward))
    assert stepped.response is not None and stepped.response.id == opened.id
    assert stepped.response.embeds[0].description.startswith("After move 1 of")


async def test_autocomplete_answers_within_its_budget(
        world: World, slow: SlowRepository, requests: Stamped,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """An autocomplete held up by the slow database answers, with no choices, when its
    budget runs out, inside Discord's 3 s. The budget (``AUTOCOMPLETE_BUDGET``, 2 s) is
    below the window; the bot runs here with a tenth of it, which the answer waits for in
    real time (SimCord's clock follows the wall clock while the bot waits on a timer
    within the settle's deadline): 0.2 s rather than 2 s, twice. The bot's own work until
    the answer is counted in CPU time, not wall time (a loaded machine's wall time is
    mostly waiting for a CPU)."""
    assert common.AUTOCOMPLETE_BUDGET < WINDOW
    budget = common.AUTOCOMPLETE_BUDGET / 10
    monkeypatch.setattr(common, "AUTOCOMPLETE_BUDGET", budget)
    w = world
    _, thread = await start_match(w, w.alice, w.bob, seat=0)
    slow.delay = DELAY

    def answers() -> list[int]:
        return [i for i, r in enumerate(requests) if r.path.endswith("/callback")
                and isinstance(r.json, dict) and r.json.get("type") == 8]

    for option in ("move", "match"):
        before = answers()
        cpu, virtual = time.process_time(), w.env.now()
        assert await w.alice.autocomplete(thread, "move", option, "") == []
        assert len(answers()) == len(before) + 1, f"{option} autocomplete unanswered"
        # Answered when the budget ran out, inside Discord's 3 s: on SimCord's clock
        # (which follows the wall clock while the bot waits on timers), with less CPU
        # time than that spent until the answer.
        assert budget <= (w.env.now() - virtual).total_seconds() < WINDOW
        assert requests.stamps[answers()[-1]][0] - cpu < WINDOW
        await w.env.advance_time(20 * DELAY)
