"""Discord's /setup refusal told a Querni ``choose`` player that "/rules querni explains"
the cell order, which it does not, and the option's description gave Blue's cells
only: the refusal names the player's own cells, in order."""

from __future__ import annotations

from tests.discordapp.conftest import World
from tests.discordapp.helpers import reply, start_match

BLUE = "a1 b1 c1 h1 i1 j1 a2 c2 h2 j2 a3 b3 c3 h3 i3 j3"
PINK = "a5 b5 c5 h5 i5 j5 a6 c6 h6 j6 a7 b7 c7 h7 i7 j7"


async def test_a_wrong_arrangement_is_told_the_players_own_cells(world: World) -> None:
    w = world
    _match, thread = await start_match(w, w.alice, w.bob, game="querni:setup=choose",
                                       seat=0)
    blue = reply(await w.alice.slash(thread, "setup", arrangement="1 2 3"))
    pink = reply(await w.bob.slash(thread, "setup", arrangement="1 1 2"))
    assert blue.ephemeral and blue.content == (
        "The arrangement lists 3 numbers, not 16. Write your numbers 1-16, each once, for "
        f"your cells {BLUE}, in this order.")
    assert pink.ephemeral and pink.content.endswith(f"for your cells {PINK}, in this order.")


async def test_a_blank_arrangement_is_said_to_be_empty(world: World) -> None:
    """A blank arrangement "listed 0 numbers, not 16": it is said to be empty, with the
    player's own cells to write his numbers for."""
    w = world
    _match, thread = await start_match(w, w.alice, w.bob, game="querni:setup=choose",
                                       seat=0)
    blank = reply(await w.alice.slash(thread, "setup", arrangement=" , "))
    assert blank.ephemeral and blank.content == (
        "The arrangement is empty: it needs 16 numbers. Write your numbers 1-16, each once, "
        f"for your cells {BLUE}, in this order.")
