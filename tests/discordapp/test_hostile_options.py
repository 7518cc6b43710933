"""Issue 21: random ids, pages and option values fed into every Discord command handler
never let an exception escape: every answer is an ephemeral (or public, for ladders)
reply with specific words, never the generic apology, and nothing is logged as an
unexpected error."""

from __future__ import annotations

import logging
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from bot.discordapp.cogs.challenges import GAME_MENU
from bot.discordapp.errors import GENERIC_APOLOGY
from tests.discordapp.conftest import World
from tests.discordapp.helpers import reply, start_match

BIG = 2**53 - 1  # Discord's integer options stop here
IDS = st.one_of(st.integers(-BIG, BIG), st.sampled_from([0, 1, 2, -1, BIG]))
TEXT = st.text(max_size=40)
LADDERS = st.one_of(TEXT, st.sampled_from(["xiangqi", "alquerque-grande-4", "querni-4",
                                           "XIANGQI", "damas-2", "-4", ""]))

CALLS = st.one_of(
    st.tuples(st.just("board"), st.fixed_dictionaries({"match": IDS})),
    st.tuples(st.just("history"), st.fixed_dictionaries({"match": IDS})),
    st.tuples(st.just("resign"), st.fixed_dictionaries({"match": IDS})),
    st.tuples(st.just("move"), st.fixed_dictionaries({"move": TEXT, "match": IDS})),
    st.tuples(st.just("move"), st.fixed_dictionaries({"move": TEXT})),
    st.tuples(st.just("setup"), st.fixed_dictionaries({"arrangement": TEXT, "match": IDS})),
    st.tuples(st.just("draw"), st.fixed_dictionaries({
        "action": st.sampled_from(["offer", "accept", "decline"]), "match": IDS})),
    st.tuples(st.just("leaderboard"), st.fixed_dictionaries({"game": LADDERS})),
    st.tuples(st.just("rules"), st.fixed_dictionaries({"game": LADDERS})),
    st.tuples(st.just("challenge"), st.fixed_dictionaries({
        "game": st.sampled_from([c.value for c in GAME_MENU]), "seat": IDS})),
    st.tuples(st.just("games"), st.just({})),
    st.tuples(st.just("stats"), st.just({})),
)


@settings(max_examples=60, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(calls=st.lists(CALLS, min_size=1, max_size=4))
@example(calls=[("leaderboard", {"game": "XIANGQI"})])  # found by this test: a crash
@example(calls=[("board", {"match": 2**53 - 1}), ("history", {"match": -1})])
async def test_no_exception_escapes_a_command_handler(
        world: World, caplog: pytest.LogCaptureFixture,
        calls: list[tuple[str, dict[str, Any]]]) -> None:
    w = world
    if not w.channel.threads:
        _, thread = await start_match(w, w.alice, w.bob, seat=0)
        await w.alice.slash(thread, "move", move="h3-e3")
    thread = w.channel.threads[0]
    for command, options in calls:
        where = thread if command in ("move", "setup", "draw", "resign") else w.channel
        caplog.clear()
        with caplog.at_level(logging.ERROR, logger="tablero.discord"):
            answer = reply(await w.carol.slash(where, command, **options))
        assert answer is not None, (command, options)
        assert answer.content != GENERIC_APOLOGY.render("en-US"), (command, options)
        assert "unexpected error" not in caplog.text, (command, options, caplog.text)
        if command not in ("leaderboard",):
            assert answer.ephemeral, (command, options)
