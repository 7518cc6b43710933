"""The board at any ply (issue 42, ``MatchService.board_at``): drawn from the kept replay
of the record, so stepping reads the match row and draws one board, and replays the
record again only after the match changed; seen from the reader's own seat; the end said
only on the last ply of a finished game; refused out of range, before the start and
outside the match's server."""

from __future__ import annotations

import random
from collections import Counter

import pytest

import rules
import rules.records
import service.states
from bot.boards import load_renderer
from locales.i18n import render
from service import MatchNotFound, MatchService, Repository
from service.errors import InvalidOption, NotAllowed
from service.views import Caller
from tests.rules.test_record_exports import counted
from tests.service.conftest import (
    ALICE,
    BOB,
    CAROL,
    CHANNEL,
    GUILD,
    Recorder,
    SetClock,
    play_random,
    start_four,
)


class CountingRepository:
    """The real repository, counting the reads of record entries."""

    def __init__(self, inner: Repository) -> None:
        self._inner = inner
        self.entry_reads = 0

    def __getattr__(self, name: str) -> object:
        return getattr(self._inner, name)

    async def load_entries(self, *args: object, **kwargs: object) -> object:
        self.entry_reads += 1
        return await self._inner.load_entries(*args, **kwargs)  # type: ignore[arg-type]


async def test_stepping_replays_once_and_again_only_after_a_move(
        repo: Repository, monkeypatch: pytest.MonkeyPatch) -> None:
    counting = CountingRepository(repo)
    svc = MatchService(counting, Recorder(), SetClock(),  # type: ignore[arg-type]
                       renderer=load_renderer(), rng=random.Random(1))
    replays, played_on = [], []
    real, real_on = service.states.replay, service.states.extended
    monkeypatch.setattr(service.states, "replay",
                        lambda *a, **k: replays.append(1) or real(*a, **k))
    monkeypatch.setattr(service.states, "extended",
                        lambda *a, **k: played_on.append(1) or real_on(*a, **k))
    m = await svc.challenge(GUILD, CHANNEL, ALICE, "xiangqi", opponents=[BOB], seat=0)
    await svc.accept(m.id, BOB)
    for user, move in ((ALICE, "h3-e3"), (BOB, "h8-e8"), (ALICE, "h1-g3")):
        await svc.move(m.id, user, move)
    reads = counting.entry_reads
    first = await svc.board_at(m.id, 0, Caller(GUILD, BOB))
    assert first.ply == 0 and first.last == 3 and first.step is None and first.marks is None
    assert first.position.to_text() == rules.variant("xiangqi").start().to_text()
    assert len(replays) == 1 and counting.entry_reads == reads + 1
    for ply in (1, 2, 3, 2, 0):  # every further step: a lookup, never a replay
        board = await svc.board_at(m.id, ply, Caller(GUILD, BOB))
        assert board.ply == ply
    assert len(replays) == 1 and counting.entry_reads == reads + 1
    second = await svc.board_at(m.id, 2, Caller(GUILD, BOB))
    assert second.step is not None and second.step.user_id == BOB
    assert second.step.display == "h8-e8 (C8.5)" and second.moves == 2
    assert second.marks is not None and second.marks.path == ((7, 7), (4, 7))
    assert second.image is not None and "seen from Black" in second.image.alt
    assert "seen from Red" in (await svc.board_at(m.id, 2, Caller(GUILD, ALICE))
                               ).image.alt  # type: ignore[union-attr]
    assert (await svc.board_at(m.id, None, Caller(GUILD, BOB))).ply == 3  # the latest

    await svc.move(m.id, BOB, "h10-g8")  # the match changed: played on by its new move
    latest = await svc.board_at(m.id, None, Caller(GUILD, BOB))
    assert latest.ply == latest.last == 4 and len(replays) == 1 and len(played_on) == 1
    assert latest.step is not None and latest.step.display.startswith("h10-g8")


async def test_record_and_history_replay_once_and_play_on_after_a_move(
        repo: Repository, monkeypatch: pytest.MonkeyPatch) -> None:
    """``record`` (the /history replay, /analysis) and ``history`` (/history's moves)
    use the kept replay too: asked again of a live match they replay nothing; after a
    move they play the kept replay on by that move (they replayed the whole match at
    every call). /history's export is kept the same way: asked again it writes no move,
    and after a move it writes that move alone (it wrote the whole export each time)."""
    svc = MatchService(repo, Recorder(), SetClock(), rng=random.Random(1))
    written = Counter[str]()  # the moves the WXF export wrote
    monkeypatch.setitem(rules.records._WRITERS, "wxf",
                        counted(rules.records._WRITERS["wxf"], written))
    replays, played_on = [], []
    real, real_on = service.states.replay, service.states.extended
    monkeypatch.setattr(service.states, "replay",
                        lambda *a, **k: replays.append(1) or real(*a, **k))
    monkeypatch.setattr(service.states, "extended",
                        lambda *a, **k: played_on.append(1) or real_on(*a, **k))
    m = await svc.challenge(GUILD, CHANNEL, ALICE, "xiangqi", opponents=[BOB], seat=0)
    await svc.accept(m.id, BOB)
    for user, move in ((ALICE, "h3-e3"), (BOB, "h8-e8")):
        await svc.move(m.id, user, move)
    replays.clear()
    caller = Caller(GUILD, ALICE)
    for _ in range(3):
        assert len((await svc.record(m.id, caller)).plies) == 2
        assert len((await svc.history(m.id, caller)).entries) == 2
    assert len(replays) == 1 and not played_on
    assert written["moves"] == 2  # the first /history wrote both; the others none
    await svc.move(m.id, ALICE, "h1-g3")
    h = await svc.history(m.id, caller)
    assert [e[2] for e in h.entries] == ["h3-e3", "h8-e8", "h1-g3"] and "H2+3" in h.export
    assert written["moves"] == 3 and h.export == (await svc.history(m.id, caller)).export
    assert (await svc.record(m.id, caller)).plies[-1].display.startswith("h1-g3")
    assert len(replays) == 1 and len(played_on) == 1
    whole = MatchService(repo, Recorder(), SetClock())  # nothing kept: written whole
    assert (await whole.history(m.id, caller)).export == h.export
    assert written["moves"] == 3 + 3


async def test_only_the_last_ply_of_a_finished_game_says_how_it_ended(
        service: MatchService) -> None:
    svc = MatchService(service.repository, Recorder(), SetClock(), renderer=load_renderer())
    m = await svc.challenge(GUILD, CHANNEL, ALICE, "xiangqi", opponents=[BOB], seat=0)
    await svc.accept(m.id, BOB)
    await svc.move(m.id, ALICE, "h3-e3")
    await svc.move(m.id, BOB, "h8-e8")
    await svc.resign(m.id, BOB)
    end = await svc.board_at(m.id, None)
    assert not end.live and end.step is not None and end.step.move is None
    assert end.match.result is not None and end.image is not None
    before = await svc.board_at(m.id, 2)
    assert before.match.result is None and before.match.status.is_live
    assert before.image is not None and "resign" not in before.image.alt.lower()
    assert end.image.png != before.image.png


async def test_what_is_not_a_ply_or_not_here_is_refused(service: MatchService) -> None:
    m = await service.challenge(GUILD, CHANNEL, ALICE, "xiangqi", opponents=[BOB], seat=0)
    with pytest.raises(NotAllowed, match="has not started yet"):
        await service.board_at(m.id, 0, Caller(GUILD, ALICE))
    await service.accept(m.id, BOB)
    await service.move(m.id, ALICE, "h3-e3")
    for ply in (2, -1, True, "1"):
        with pytest.raises(InvalidOption, match="has plies 0 to 1; there is no ply"):
            await service.board_at(m.id, ply, Caller(GUILD, ALICE))  # type: ignore[arg-type]
    with pytest.raises(MatchNotFound):
        await service.board_at(m.id, 0, Caller(GUILD + 1, ALICE))
    assert (await service.board_at(m.id, 1, Caller(GUILD, ALICE))).image is None


async def test_an_earlier_ply_shows_the_seats_as_they_stood_then(service: MatchService) -> None:
    """Stepping back shows who was out and who was to move at that ply, not today's: a
    seat that resigned later is in, the mover is that ply's; the latest ply is today's."""
    m = await start_four(service, "slow")
    m = await play_random(service, m.id, 6, seed=3)
    ply = m.ply
    await service.resign(m.id, CAROL)
    now = await service.board_at(m.id, None)
    carol = next(s.seat for s in now.match.seats if s.user_id == CAROL)
    assert now.match.seats[carol].out and CAROL not in now.match.to_move
    then = await service.board_at(m.id, ply)
    assert not any(s.out for s in then.match.seats)
    assert then.match.to_move == m.to_move
    start = await service.board_at(m.id, 0)
    # the first seat (White) opens, whoever sits there
    assert start.match.to_move == (start.match.seats[0].user_id,)
    assert start.match.status.is_live


async def test_a_querni_set_up_steps_as_it_stood_and_says_why_the_board_is_bare(
        repo: Repository) -> None:
    """Querni ``setup:choose``: no stone is on the board until both arrangements are in
    (RULES §5), so the set-up's plies show a bare board, each with who had handed in by
    then (never what) and a note saying who still arranges and why the board is bare; the
    first board of play marks no move (an arrangement moves no stone)."""
    svc = MatchService(repo, Recorder(), SetClock(), renderer=load_renderer(),
                       rng=random.Random(1))
    m = await svc.challenge(GUILD, CHANNEL, ALICE, "querni", opponents=[BOB],
                            options={"setup": "choose"}, seat=0)
    await svc.accept(m.id, BOB)
    await svc.submit_setup(m.id, BOB, " ".join(str(n) for n in range(16, 0, -1)))
    handed = await svc.board_at(m.id, 1)  # Pink's arrangement is in, still secret
    assert handed.position.in_setup and handed.position.has_submitted(1)
    assert not handed.position.has_submitted(0) and handed.position.arrangement(1) is None
    assert handed.image is not None and "Setup: Blue to arrange" in handed.image.alt
    assert handed.note is not None
    assert render(handed.note, "en-US") == (
        "Blue to arrange their stones; no stone is on the board until both arrangements "
        "are in")
    start = await svc.board_at(m.id, 0)
    assert not start.position.has_submitted(1) and start.note is not None
    assert render(start.note, "en-US").startswith("Blue and Pink to arrange their stones")

    await svc.submit_setup(m.id, ALICE, " ".join(str(n) for n in range(1, 17)))
    played = await svc.board_at(m.id, 2)  # both are in: the stones stand, play begins
    assert not played.position.in_setup and played.note is None and played.marks is None
    assert played.image is not None and "Last move" not in played.image.alt
    assert "Blue: 1 a1, 2 b1" in played.image.alt  # the arrangements, public now
    back = await svc.board_at(m.id, 0)  # stepping back: the set-up as it stood then
    assert back.note is not None and "Blue and Pink" in render(back.note, "en-US")
    one = await svc.board_at(m.id, 1)
    assert one.note is not None and render(one.note, "en-US").startswith("Blue to arrange")
    assert one.marks is None and one.position.has_submitted(1)
