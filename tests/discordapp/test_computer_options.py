"""``/challenge computer:True`` (or a level without ``on_timeout:computer``) refuses the
options a game against the computer does not take, privately: clock, claim_win, weekends
and on_timeout were dropped in silence (a match with another pace than the one asked)."""

from __future__ import annotations

import pytest

from tests.discordapp.conftest import World
from tests.discordapp.helpers import reply
from tests.discordapp.test_computer import simcord_bot  # noqa: F401  the bot with a computer player


@pytest.mark.parametrize(("option", "value"), [
    ("clock", "3d+1d/10d"), ("claim_win", True), ("weekends", "off"),
    ("on_timeout", "end")])
async def test_a_game_with_the_computer_refuses_what_it_would_drop(
        world: World, option: str, value: object) -> None:
    w = world
    said = reply(await w.alice.slash(w.channel, "challenge", game="xiangqi", computer=True,
                                     **{option: value}))
    assert said.ephemeral
    assert said.content == f"A game against the computer takes no {option}: it is " \
        "casual, and days sets its pace."
    assert await w.service.games_of(w.guild.id, w.alice.id) == []
    assert not w.channel.threads


async def test_a_level_alone_is_still_a_game_with_the_computer(world: World) -> None:
    w = world
    said = reply(await w.alice.slash(w.channel, "challenge", game="xiangqi", level=2,
                                     days=4, rated=False))
    assert said.ephemeral and "Your casual match against" in said.content
    (m,) = await w.service.games_of(w.guild.id, w.alice.id)
    assert m.days_per_move == 4 and not m.rated
