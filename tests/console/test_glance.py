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


async def test_the_daily_digest_is_printed_once_a_day(tmp_path: Path) -> None:
    out = await play("""
as alice
/challenge @bob xiangqi seat:red
as bob
/accept
as alice
/follow digest:on
/sweep +1
/sweep +0
/follow digest:maybe
/follow digest:off
/sweep +1
""", tmp_path)
    assert after(out, "/follow digest:on").startswith("daily digest on: your games at a "
                                                      "glance, the first ")
    first = out.split("> /sweep +1\n", 1)[1].split("\n> ", 1)[0]
    assert "* to alice, the daily digest: 1 game at a glance\n" in first
    assert "  #1 Xiangqi: your move, " in first
    assert "your games at a glance: " in first and "digest-" in first
    assert "daily digest" not in after(out, "/sweep +0")  # once a day
    assert after(out, "/follow digest:maybe").startswith("! /follow digest:on|off, alone")
    assert after(out, "/follow digest:off") == "daily digest off"
    assert "daily digest" not in after(out, "/sweep +1")
