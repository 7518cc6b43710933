"""Console behaviour a demanding player asked for: the move that ends a match is shown,
lobbies say who is in, the match that just started is the current one, ``/moves`` says why
it lists nothing, an empty or too-short leaderboard says so, and outcomes are in words."""

from __future__ import annotations

import io
import random

from bot.console import ShiftedClock, open_console
from storage import MemoryRepository
from tests.service.conftest import SetClock, finishing_game


async def play(lines: str) -> str:
    out = io.StringIO()
    console = open_console(MemoryRepository(), out, clock=ShiftedClock(SetClock()),
                           rng=random.Random(1))
    for line in lines.strip().splitlines():
        out.write(f"> {line}\n")
        await console.handle(line)
    return out.getvalue()


def after(out: str, command: str) -> str:
    """What the console printed for ``command`` (its last occurrence)."""
    return out.rsplit(f"> {command}\n", 1)[1].split("\n> ", 1)[0]


async def test_the_move_that_ends_a_match_is_announced_with_the_result() -> None:
    moves = finishing_game("alquerque", {}, seed=1)
    assert moves
    lines = ["as alice", "/challenge @bob alquerque seat:white", "as bob", "/accept"]
    for i, m in enumerate(moves):
        lines += [f"as {('alice', 'bob')[i % 2]}", f"/move {m}"]
    out = await play("\n".join(lines))
    last, mover = moves[-1], ("alice", "bob")[(len(moves) - 1) % 2]
    text = after(out, f"/move {last}")
    assert f"* #1: {mover} played {last}\n* #1 is over: {mover} won (opponent " in text


async def test_a_lobby_says_who_is_in_invited_and_what_is_open() -> None:
    out = await play("""
as ann
/challenge @ben @cid alquerque-grande players:4
as cid
/decline
""")
    created = after(out, "/challenge @ben @cid alquerque-grande players:4")
    assert "ann in, ben, cid invited, 1 open place - lobby" in created
    assert "(empty)" not in created
    assert "* cid declined lobby #1 (1/4)" in after(out, "/decline")


async def test_the_match_that_starts_becomes_the_current_one() -> None:
    out = await play("""
as ann
/challenge @ben @cid @dan alquerque-grande players:4
/challenge @ben @cid @dan alquerque-grande players:4
as ben
/accept #1
as cid
/accept #1
as dan
/accept #1
as ann
/board
""")
    assert "match #1" in after(out, "/board")


async def test_moves_says_why_it_lists_nothing() -> None:
    out = await play("""
as alice
/challenge @bob xiangqi seat:red
as bob
/accept
/moves
as alice
/moves zz
as carol
/moves #1
""")
    assert after(out, "/moves").strip() == "! it is not your turn: alice (Red) to move"
    assert "no legal move starts with 'zz'" in after(out, "/moves zz")
    assert "you are not playing in match #1" in after(out, "/moves #1")


async def test_an_empty_leaderboard_and_a_page_too_far_say_so() -> None:
    out = await play("""
as alice
/leaderboard alquerque-grande
/leaderboard xiangqi 7
/stats @zoe
""")
    assert after(out, "/leaderboard alquerque-grande").strip() == (
        "no rated results on Alquerque grande yet (4-player games: /leaderboard "
        "alquerque-grande-4)")
    assert after(out, "/leaderboard xiangqi 7").strip() == \
        "! there is no page '7': pages go from 1 to 1"
    assert after(out, "/stats @zoe").startswith("zoe: 0W 0L 0D")


async def test_a_second_leaderboard_page_that_does_not_exist_is_refused() -> None:
    out = await play("""
as alice
/challenge @bob alquerque seat:white
as bob
/accept
as alice
/move d2-c3
as bob
/move d4xd2
/resign
/leaderboard alquerque 3
""")
    assert after(out, "/leaderboard alquerque 3").strip() == \
        "! there is no page '3': pages go from 1 to 1"
    assert "alice won (opponent resigned)" in after(out, "/resign")


async def test_a_four_player_timeout_keeps_its_reason_and_says_the_places() -> None:
    """Fast mode ends when a player leaves (RULES §2): the result is a ranking, which is
    not a draw, and the reason is the timeout, not a resignation."""
    out = await play("""
as ann
/challenge @ben @cid @dan alquerque-grande players:4 mode:fast seat:white
as ben
/accept seat:turquoise
as cid
/accept seat:black
as dan
/accept seat:red
as ann
/move d3-d4
as ben
/move e3-d3
as cid
/move e5xe3
as dan
/move c4xe4
as ann
/move d2xd4
/sweep +4
""")
    text = after(out, "/sweep +4")
    assert "* #1: ben ran out of time; the game is ranked on captures" in text, text
    assert "* #1 is over: no single winner: 1. cid, dan; 2. ann; 3. ben (a player ran " \
        "out of time; ranked on captures)" in text, text
    assert "draw" not in text and "resigned" not in text


async def test_a_draw_offer_that_lapses_is_announced() -> None:
    out = await play("""
as alice
/challenge @bob xiangqi seat:red
as bob
/accept
as alice
/move h3-e3
/draw offer
as bob
/move h10-g8
as alice
/move b1-c3
""")
    assert "* #1: alice's draw offer lapsed" in after(out, "/move h10-g8")
    assert "lapsed" not in after(out, "/move b1-c3")
    assert "* #1: alice played b1-c3" in after(out, "/move b1-c3")


async def test_a_partial_draw_agreement_says_it_waits_for_the_others() -> None:
    out = await play("""
as ann
/challenge @ben @cid @dan alquerque-grande players:4
as ben
/accept
as cid
/accept
as dan
/accept
/draw offer
as ann
/draw accept
""")
    assert "the draw needs every other player still in to agree too" in after(
        out, "/draw accept")


async def test_waiting_matches_over_matches_and_own_challenges_say_so() -> None:
    out = await play("""
as alice
/challenge @bob xiangqi seat:red
/board
/decline
as bob
/accept
as alice
/move h3-e3
as bob
/move h8-e8
/resign
as alice
/move h2-e2
""")
    assert after(out, "/board").startswith("#1 has not started yet: #1 Xiangqi")
    assert after(out, "/decline").strip() == \
        "! #1 is your own challenge: /cancel withdraws it"
    assert after(out, "/move h2-e2").strip() == \
        "! match #1 is over: Red (alice) won (opponent resigned)"


async def test_a_move_in_an_over_match_says_how_it_ended_inside_the_sentence() -> None:
    """The refusal names the end in a sentence's words, in every language: it read
    "match #1 is over: Aborted" (the board line's capital), "Partie #1 ist beendet:
    Abgebrochen" in German."""
    lines = ["as alice", "/challenge @bob xiangqi seat:red", "as bob", "/accept",
             "as alice", "/move h3-e3", "/resign", "/move #1 h10-g8"]
    said = {}
    for lang in ("en-US", "de", "sv-SE"):
        out = io.StringIO()
        console = open_console(MemoryRepository(), out, clock=ShiftedClock(SetClock()),
                               rng=random.Random(1), locale=lang)
        for line in lines:
            out.write(f"> {line}\n")
            await console.handle(line)
        said[lang] = after(out.getvalue(), "/move #1 h10-g8").strip()
    assert said["en-US"] == ("! match #1 is over: aborted: alice (Red) resigned before "
                             "every player had moved")
    assert said["de"].startswith("! Partie #1 ist beendet: abgebrochen: alice (Rot) ")
    assert said["sv-SE"].split(": ")[1] == "avbrutet"
