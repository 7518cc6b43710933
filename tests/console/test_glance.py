"""The console's ``/follow`` alone (issue 42): what you follow, a line for each of your
own and followed live games (whose move, the time left), and with ``--boards`` the
picture of them all."""

from __future__ import annotations

from pathlib import Path

from PIL import Image

from tests.console.test_stepper import after, play


async def test_follow_alone_lists_and_draws_the_games_at_a_glance(tmp_path: Path) -> None:
    out = await play("""
as alice
/challenge @bob xiangqi seat:red
as bob
/accept
as carol
/challenge @dave damas seat:white
as dave
/accept
as alice
/move h3-e3
/follow #2
/follow
""", tmp_path)
    said = after(out, "/follow")
    assert said.startswith("following match #2\n")
    assert "  #1 Xiangqi: bob to move, 3 days left\n" in said
    assert "  #2 Spanish draughts: carol to move, 3 days left\n" in said
    user = said.rsplit("glance-", 1)[1].split(".png", 1)[0]
    picture = tmp_path / f"glance-{user}.png"
    assert f"your games at a glance: {picture}" in said
    assert Image.open(picture).width > 400
