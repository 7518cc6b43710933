"""Issue 21 (clarity): team-mates are shown from the start: in the thread's first post,
the board's Players field and ``/games``."""

from __future__ import annotations

from bot.discordapp.embeds import mention
from tests.discordapp.conftest import World
from tests.discordapp.helpers import reply, start_four_player_match


async def test_team_mates_are_shown_from_the_start(world: World) -> None:
    w = world
    m, thread = await start_four_player_match(w)
    sides = m.sides()
    assert len(sides) == 2 and all(len(side) == 2 for side in sides)
    first, second = sides
    starter = next(msg for msg in w.channel.history() if "started:" in msg.content)
    said = (f"{mention(first[0])} and {mention(first[1])} vs "
            f"{mention(second[0])} and {mention(second[1])}")
    assert said in starter.content
    board = reply(await w.alice.slash(thread, "board"))
    players = board.embeds[0].fields[0].value
    partner = m.team_mates(w.alice.id)
    assert len(partner) == 1 and f"with {mention(partner[0])}" in players
    games = reply(await w.alice.slash(w.channel, "games")).embeds[0].description
    assert f"with {mention(partner[0])} vs " in games


async def test_the_four_player_ladder_is_a_readable_choice(world: World) -> None:
    """Issue 21 (clarity): /leaderboard and /stats offer "Alquerque grande, 4 players"."""
    w = world
    choices = await w.alice.autocomplete(w.channel, "leaderboard", "game", "4 players")
    assert {"name": "Alquerque grande, 4 players", "value": "alquerque-grande-4"} in [
        {"name": c["name"], "value": c["value"]} for c in choices]
