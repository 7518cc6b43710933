"""The console's ``/challenge ... on_timeout:skip`` (issue 43): a four-player lobby whose
late seat is skipped; the console says so, shows him as skipped in /games (whose "move N"
counts no skip) and lets the others play on; a game that cannot go on without a seat
refuses the choice."""

from __future__ import annotations

import io
import random

from bot.console import ShiftedClock, open_console
from storage import MemoryRepository
from tests.console.test_messages import after, play
from tests.service.conftest import SetClock


async def test_a_skipped_seat_is_said_shown_and_the_others_play_on() -> None:
    out = io.StringIO()
    console = open_console(MemoryRepository(), out, clock=ShiftedClock(SetClock()),
                           rng=random.Random(1))

    async def say(line: str) -> None:
        out.write(f"> {line}\n")
        await console.handle(line)

    for line in ("as alice", "/challenge @bob @carol @dave alquerque-grande players:4 "
                 "mode:fast days:1 on_timeout:skip", "as bob", "/accept", "as carol",
                 "/accept", "as dave", "/accept"):
        await say(line)

    async def play_one() -> None:
        m = await console.service.get_match(1)
        p, _ = await console.service.position(1)
        move = next(x for x in p.legal_moves() if p.play(x).outcome() is None)
        await say(f"as {console.names[m.to_move[0]]}")
        await say(f"/move {p.variant.format_move(p, move)}")

    for _ in range(4):
        await play_one()
    late = console.names[(await console.service.get_match(1)).to_move[0]]
    await say("/sweep +2")
    swept = after(out.getvalue(), "/sweep +2")
    assert (f"* #1: {late} ran out of time (their turns are skipped for the rest of the game; "
            "they rank last) and is out") in swept
    await say("/games")
    listed = after(out.getvalue(), "/games")
    assert f"{late} (skipped since move 5) (out)" in listed
    assert "- move 5, " in listed  # the skip is no move (it said "move 6")
    m = await console.service.get_match(1)
    assert m.status.is_live and console.names[m.to_move[0]] != late
    await play_one()
    assert (await console.service.get_match(1)).ply == 6
    await say("/games")
    assert "- move 6, " in after(out.getvalue(), "/games")
    await say("/history #1")  # the record keeps the skip as an entry of its own
    seat = next(x.name for x in m.seats if x.user_id is not None
                and console.names[x.user_id] == late)
    assert f"5. {{{seat} is skipped}} 6. " in after(out.getvalue(), "/history #1")


async def test_two_players_cannot_skip_a_seat() -> None:
    out = await play("as alice\n/challenge @bob xiangqi on_timeout:skip")
    said = after(out, "/challenge @bob xiangqi on_timeout:skip")
    assert said.startswith("! on_timeout:skip is for four-player games")


async def test_tournaments_say_on_timeout_is_not_theirs() -> None:
    out = await play("as alice\n/tournament create xiangqi rr on_timeout:skip")
    said = after(out, "/tournament create xiangqi rr on_timeout:skip")
    assert said.startswith("! tournaments pair two players a game: on_timeout is for "
                           "four-player games")
