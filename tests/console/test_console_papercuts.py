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


CHOSEN = """
as alice
/challenge @bob querni setup:choose seat:blue
as bob
/accept
/setup 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16
/games
as alice
/setup 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16
/games
/board
"""


async def test_querni_arrangements_are_not_counted_as_moves() -> None:
    out = await play(CHOSEN + "/move c2-d2 r1-3\n/games\n/board")
    one_in = out.split("> /games\n")[1]
    assert "- move 1, alice to move by" in one_in  # bob's arrangement is in, alice's not
    first = out.split("> /games\n")[2]
    assert "- move 1, alice to move by" in first and "move 3" not in first
    board = out.split("> /board\n")[1].split("\n> ", 1)[0]
    assert "Querni, match #1, after 0 moves: alice (Blue) to move\n" in board
    assert "last move" not in board and "setup submitted" not in out
    assert "- move 2, bob to move by" in after(out, "/games")
    assert "Querni, match #1, after 1 move: bob (Pink) to move; last move c2-d2 r1-3" \
        in after(out, "/board")


async def test_setup_without_numbers_says_how_an_arrangement_is_written() -> None:
    out = await play("""
as alice
/challenge @bob querni setup:choose seat:blue
as bob
/accept
/setup
/setup 1 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15
as alice
/setup
""")
    pink = "/setup your numbers for the cells a5 b5 c5 h5 i5 j5 a6 c6 h6 j6 a7 b7 c7 h7 i7 j7"
    # empty: said so (it "listed 0 numbers, not 16"), with how it is written
    assert out.split("> /setup\n")[1].startswith(
        f"! the arrangement is empty: it needs 16 numbers; #1: {pink}, in this order\n")
    assert after(out, "/setup 1 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15") == \
        f"! number 1 appears twice in the arrangement; #1: {pink}, in this order"
    assert after(out, "/setup").startswith(
        "! the arrangement is empty: it needs 16 numbers; #1: /setup your numbers for the "
        "cells "
        "a1 b1 c1 h1 i1 j1 a2 c2 h2 j2 a3 b3 c3 h3 i3 j3, in this order\n")


async def test_the_tournament_list_says_whether_each_is_casual_or_rated() -> None:
    out = await play("""
as ana
/tournament create xiangqi rr name:Friday casual
/tournament create damas swiss rounds:2 name:Cup
/tournaments
""")
    listed = after(out, "/tournaments").splitlines()
    assert listed[0].startswith("tournament #2 Cup: Swiss, 2 rounds, 3 days per move, "
                                "vacation allowed, rated, 0 players")
    assert listed[1].startswith("tournament #1 Friday: round robin, 3 days per move, "
                                "vacation allowed, casual, 0 players")


async def test_stats_with_a_game_word_says_it_shows_a_player() -> None:
    """/stats xiangqi showed the statistics of a player called "xiangqi" (none)."""
    out = await play("as alice\n/stats xiangqi\n/stats Alquerque-grande-4\n/stats @damas\n"
                     "/stats bob")
    assert after(out, "/stats xiangqi") == (
        "! 'xiangqi' is a game, and /stats shows a player: /stats @NAME (their results and "
        "their rank in every game); /leaderboard xiangqi ranks the players of that game")
    assert after(out, "/stats Alquerque-grande-4").startswith(
        "! 'Alquerque-grande-4' is a game, and /stats shows a player")
    assert after(out, "/stats @damas").startswith("damas: 0W 0L 0D")  # a player, with @
    assert after(out, "/stats bob").startswith("bob: 0W 0L 0D")  # a name that is no game


async def test_a_match_names_its_options_in_one_order_wherever_it_is_shown() -> None:
    """Typed in any order, a match's options are written in the game's own order, the
    same when the match is read back from the database (which keeps them sorted); the
    challenge says the game as the menu does."""
    out = await play("""
as alice
/challenge @bob @carol @dave alquerque-grande mode:fast players:4
as bob
/join
/games
""")
    made = after(out, "/challenge @bob @carol @dave alquerque-grande mode:fast players:4")
    assert "* alice challenges bob, carol, dave to Alquerque grande · 4 players · fast " \
        "(match #1)" in made
    assert "created #1 Alquerque grande players:4 mode:fast (rated" in made
    assert "joined: #1 Alquerque grande players:4 mode:fast (rated" in after(out, "/join")
    assert "#1 Alquerque grande players:4 mode:fast (rated" in after(out, "/games")
    assert "Alquerque grande mode:fast" not in out


async def test_a_leaderboard_not_named_or_unknown_is_answered_with_every_leaderboard() -> None:
    """Asked without a game, or for one there is no board of (``xiangqi-4``: nobody
    plays Xiangqi by four; it showed an empty board), the refusal lists every
    leaderboard, the 4-player one included; a board is named in any case."""
    out = await play("""
as alice
/leaderboard
/leaderboard xiangqi-4
/leaderboard grande
/leaderboard Alquerque-Grande-4
""")
    every = "alquerque, alquerque-grande, alquerque-grande-4, xiangqi, damas, querni"
    assert after(out, "/leaderboard") == f"! which game? name one of: {every}"
    assert after(out, "/leaderboard xiangqi-4") == \
        f"! there is no game called 'xiangqi-4' (games: {every})"
    assert f"(games: {every})" in after(out, "/leaderboard grande")
    assert after(out, "/leaderboard Alquerque-Grande-4").strip() == \
        "no rated results on Alquerque grande, 4 players yet"
