"""What a new player walking the console tripped over: a withdrawn draw offer announced
as declined, a cancelled challenge listing its empty seats, a Querni set-up counted as
moves, /setup without numbers, a player written without @, tournaments without their
kind."""

from __future__ import annotations

from tests.console.test_messages import after, play

DRAW = """
as alice
/challenge @bob xiangqi seat:red
as bob
/accept
as alice
/draw offer
"""


async def test_the_offerer_taking_back_his_draw_offer_is_told_as_withdrawn() -> None:
    out = await play(DRAW + "/draw decline")
    said = after(out, "/draw decline")
    assert "* #1: alice withdrew the draw offer" in said
    assert "draw offer withdrawn: #1" in said
    assert "declined" not in said


async def test_the_opponent_declining_a_draw_is_still_told_as_declined() -> None:
    out = await play(DRAW + "as bob\n/draw decline")
    said = after(out, "/draw decline")
    assert "* #1: bob declined the draw" in said and "draw decline: #1" in said
    assert "withdrew" not in said


async def test_a_cancelled_or_declined_challenge_names_its_players_not_empty_seats() -> None:
    out = await play("""
as alice
/challenge @bob xiangqi
/cancel
as carol
/challenge @dave damas seat:white
as dave
/decline
as eve
/challenge @bob @carol @dave alquerque-grande players:4
as bob
/accept
as eve
/cancel
""")
    assert "(empty)" not in out
    assert "cancelled: #1 Xiangqi (rated, 3d/move) - alice vs bob - cancelled" in out
    assert "declined: #2 Spanish draughts (rated, 3d/move) - carol vs dave - declined" in out
    assert "- eve vs bob, carol, dave - cancelled" in after(out, "/cancel")
