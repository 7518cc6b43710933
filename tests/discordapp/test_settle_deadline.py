"""Every Discord test waits for the bot's work up to the common deadline
(``conftest.SETTLE_DEADLINE``) unless its module or itself says otherwise."""

from __future__ import annotations

import pytest
import simcord

from tests.discordapp.conftest import SETTLE_DEADLINE


async def test_an_unmarked_test_settles_within_the_common_deadline(
        simcord_env: simcord.Env) -> None:
    assert SETTLE_DEADLINE > 5.0  # SimCord's own default
    assert simcord_env.settle_timeout == SETTLE_DEADLINE


@pytest.mark.simcord(settle_timeout=7.0)
async def test_a_test_that_names_its_deadline_keeps_it(simcord_env: simcord.Env) -> None:
    assert simcord_env.settle_timeout == 7.0
