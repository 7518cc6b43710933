"""The board's embed counted the record's plies ("Ply 3") where everything else counts
moves ("after 2 moves", the console's "move 3"): it says the move to play, and once the
game is over the moves played, a resignation none of them."""

from __future__ import annotations

from tests.discordapp.conftest import World
from tests.discordapp.helpers import reply, start_match


async def test_the_board_counts_moves_not_plies(world: World) -> None:
    w = world
    _m, thread = await start_match(w, w.alice, w.bob, seat=0)
    board = reply(await w.alice.slash(thread, "board"))
    assert board.embeds[0].fields[1].name == "Move 1"
    await w.alice.slash(thread, "move", move="h3-e3")
    await w.bob.slash(thread, "move", move="h8-e8")
    board = reply(await w.alice.slash(thread, "board"))
    assert board.embeds[0].fields[1].name == "Move 3"
    await w.bob.slash(thread, "resign")  # the record's third entry, no move
    over = reply(await w.alice.slash(thread, "board"))
    assert over.embeds[0].fields[1].name == "After 2 moves"
    assert over.embeds[0].fields[1].value.startswith("Over: ")
