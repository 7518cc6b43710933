"""The suite's SimCord deadline (``tests/conftest.py``) reaches the tests that run the bot."""

from __future__ import annotations

import simcord

from tests.conftest import SIMCORD_SETTLE_SECONDS
from tests.discordapp.conftest import World


async def test_every_bot_test_waits_the_suite_s_settle_deadline(world: World) -> None:
    env: simcord.Env = world.env
    assert env.settle_timeout == SIMCORD_SETTLE_SECONDS != 5.0
