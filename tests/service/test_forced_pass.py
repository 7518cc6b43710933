"""Querni's forced pass (RULES §5, issue 18): when a player can neither move nor remove,
the pass is his only legal move, and the service plays it at once, records it in his name
and announces it (the console here; Discord in tests/discordapp/test_forced_pass.py)."""

from __future__ import annotations

import io
import random

from bot.console import ShiftedClock, open_console
from service import MatchService, MovePlayedFor, Repository, TurnStarted
from storage import MemoryRepository
from tests.rules.helpers.querni import FORCED_PASS_BLUE, FORCED_PASS_MOVES, FORCED_PASS_PINK
from tests.service.conftest import ALICE, BOB, CHANNEL, GUILD, Recorder, SetClock


async def walled_in(service: MatchService) -> int:
    """Alice (Blue) and Bob (Pink) play FORCED_PASS_MOVES but the last."""
    m = await service.challenge(GUILD, CHANNEL, ALICE, "querni", opponents=[BOB],
                                options={"setup": "choose"}, seat="blue")
    await service.accept(m.id, BOB)
    await service.submit_setup(m.id, ALICE, " ".join(map(str, FORCED_PASS_BLUE)))
    await service.submit_setup(m.id, BOB, " ".join(map(str, FORCED_PASS_PINK)))
    for i, text in enumerate(FORCED_PASS_MOVES[:-1]):
        await service.move(m.id, (ALICE, BOB)[i % 2], text)
    return m.id


async def test_the_forced_pass_is_played_at_once_recorded_and_announced(
        repo: Repository) -> None:
    recorder = Recorder()
    service = MatchService(repo, recorder, SetClock(), rng=random.Random(1))
    match_id = await walled_in(service)
    before = await service.get_match(match_id)
    assert not recorder.of(MovePlayedFor)
    r = await service.move(match_id, ALICE, FORCED_PASS_MOVES[-1])
    assert r.move == "f2-b6"
    m = r.match
    # Bob's pass was played for him in the same save: Alice is to move again
    assert m.ply == before.ply + 2 and m.to_move == (ALICE,)
    assert m.last_move == "pass" and m.last_move_by == BOB
    entries = await repo.load_entries(match_id)
    assert [(e.seat, e.text, e.user_id) for e in entries[-2:]] == [
        (0, "f2-b6", ALICE), (1, "pass", BOB)]
    (played_for,) = recorder.of(MovePlayedFor)
    assert (played_for.user_id, played_for.move) == (BOB, "pass")
    assert played_for.what.render("en-US") == (
        "can neither move nor remove a chain, so their turn is a pass (played for them)")
    # announced before the turn it leads to, which names Alice's move and Alice
    turn = recorder.events[-1]
    assert isinstance(turn, TurnStarted) and recorder.events[-2] is played_for
    assert turn.last_move == "f2-b6" and turn.users == (ALICE,)
    # the record replays (the pass is in it), and Bob is never asked to move
    assert await service.verify_all() == []
    assert await service.suggest_moves(match_id, BOB) == []
    p, _ = await service.position(match_id)
    assert p.forced_move() is None and p.to_move == {0}


async def test_no_pass_is_played_for_a_player_who_can_move() -> None:
    recorder = Recorder()
    service = MatchService(MemoryRepository(), recorder, SetClock(), rng=random.Random(1))
    match_id = await walled_in(service)
    assert not recorder.of(MovePlayedFor)
    entries = await service.repository.load_entries(match_id)
    assert "pass" not in {e.text for e in entries}


async def test_the_console_announces_the_forced_pass() -> None:
    out = io.StringIO()
    console = open_console(MemoryRepository(), out, clock=ShiftedClock(SetClock()),
                           rng=random.Random(1))
    lines = ["as alice", "/challenge @bob querni setup:choose seat:blue", "as bob", "/accept",
             f"/setup {' '.join(map(str, FORCED_PASS_PINK))}", "as alice",
             f"/setup {' '.join(map(str, FORCED_PASS_BLUE))}"]
    for i, text in enumerate(FORCED_PASS_MOVES):
        lines += [f"as {('alice', 'bob')[i % 2]}", f"/move {text}"]
    for line in lines:
        out.write(f"> {line}\n")
        await console.handle(line)
    text = out.getvalue().rsplit("> /move f2-b6\n", 1)[1]
    assert ("* #1: bob can neither move nor remove a chain, so their turn is a pass (played "
            "for them)\n* #1: alice played f2-b6 - alice to move") in text, text
