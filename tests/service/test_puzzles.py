"""Puzzles from the server's finished games (issue 44): the miner finds the known tactic of
a seeded game in each game (the real engine); a puzzle solved move by move and one
failed with its refutation; the ratings of both the player and the puzzle move; the
streak; never a puzzle of one's own game, nor one standing in a live game; the bound per
hour; a restart in the middle of mining mines the game again, once; the daily puzzle
once a day through the outbox, after a restart too. On every repository."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable
from typing import Any

import pytest

import rules
from bot.computer import InlineMovePicker
from rules import Position, RulesError
from service import (
    DailyPuzzle,
    FoundPuzzle,
    MatchService,
    NotAllowed,
    PuzzleNotFound,
    Repository,
)
from service.outbox import event_of
from service.records import MatchStatus, PuzzleRecord
from storage import MemoryRepository
from tests.service.conftest import (
    ALICE,
    BOB,
    CAROL,
    CHANNEL,
    DAVE,
    EVE,
    GUILD,
    Recorder,
    SetClock,
)
from tests.service.puzzle_games import ALQUERQUE, DAMAS, SEEDED, SeededTactic

NODES = 800  # the seeded games' tactics were found on this budget


class ScriptedMiner:
    """A ``PuzzleMiner`` that finds a puzzle where ``solution`` gives one (its line, or
    None): the service's part is tested apart from the engine's."""

    def __init__(self, solution: Callable[[Position[Any]], tuple[str, ...] | None]) -> None:
        self.solution = solution
        self.calls = 0

    async def find_puzzles(self, positions: Any) -> list[FoundPuzzle | None]:
        self.calls += 1
        out: list[FoundPuzzle | None] = []
        for p in positions:
            line = self.solution(p)
            out.append(None if line is None else FoundPuzzle(line, "material", 3, 300))
        return out


def tactic_at(tactic: SeededTactic) -> Callable[[Position[Any]], tuple[str, ...] | None]:
    """The seeded game's tactic, found where it stands (and nowhere else)."""
    v = rules.variant(tactic.game)
    p: Position[Any] = v.start(**tactic.options)
    for text in tactic.moves:
        p = p.play(v.parse_move(p, text))
    text = p.to_text()
    return lambda q: tactic.line if q.to_text() == text else None


async def play_out(service: MatchService, tactic: SeededTactic, white: int = ALICE,
                   black: int = BOB, *, through: bool = True) -> int:
    """A finished match of ``tactic``'s game between ``white`` and ``black``: its moves,
    the tactic's first move (``through``), then the side to move resigns (unless the
    shot ended the game)."""
    m = await service.challenge(GUILD, CHANNEL, white, tactic.game, opponents=[black],
                                options=tactic.options, seat=0)
    m = await service.accept(m.id, black)
    for text in tactic.moves + (tactic.line[:1] if through else ()):
        m = (await service.move(m.id, m.to_move[0], text)).match
    if m.status.is_live:  # (Querni's shot wins outright)
        await service.resign(m.id, m.to_move[0])
    return m.id


async def live_at(service: MatchService, tactic: SeededTactic) -> int:
    """A live match of Dave and Eve standing at ``tactic``'s position."""
    m = await service.challenge(GUILD, CHANNEL, DAVE, tactic.game, opponents=[EVE],
                                options=tactic.options, seat=0)
    m = await service.accept(m.id, EVE)
    for text in tactic.moves:
        m = (await service.move(m.id, m.to_move[0], text)).match
    return m.id


def puzzle_service(repo: Repository, clock: SetClock, miner: Any, *,
                   per_hour: int = 30, recorder: Recorder | None = None) -> MatchService:
    return MatchService(repo, recorder or Recorder(), clock, rng=random.Random(3),
                        picker=InlineMovePicker(nodes=300), miner=miner,
                        puzzles_per_hour=per_hour)


async def stored(repo: Repository) -> list[PuzzleRecord]:
    return sorted(await repo.daily_candidates(GUILD, 1000), key=lambda p: p.id)


# ---------------------------------------------------------------------- the miner, for real

@pytest.mark.parametrize("tactic", SEEDED, ids=[t.game for t in SEEDED])
async def test_the_miner_finds_each_games_known_tactic(tactic: SeededTactic) -> None:
    repo = MemoryRepository()
    service = puzzle_service(repo, SetClock(), InlineMovePicker(puzzle_nodes=NODES))
    match_id = await play_out(service, tactic)
    assert await service.mine_puzzles() == 1
    found = {p.ply: p for p in await stored(repo)}
    puzzle = found[len(tactic.moves)]
    assert puzzle.match_id == match_id and puzzle.players == (ALICE, BOB)
    assert puzzle.line == tactic.line and puzzle.goal == tactic.goal
    assert 1 <= puzzle.difficulty <= 5
    v = rules.variant(tactic.game)
    p: Any = v.from_text(puzzle.position)
    marks = v.move_marks(p, v.parse_move(p, puzzle.line[0]))
    if tactic.game == "damas":
        assert len(marks.captured) == 2  # the multi-capture shot
    if tactic.game == "xiangqi":
        assert p.pieces()[marks.path[0]].kind == "C"  # the cannon
    if tactic.game == "alquerque":  # the right one of two captures of two men each
        assert len(marks.captured) == 2
        assert [len(v.move_marks(p, m).captured) for m in p.legal_moves()] == [2, 2]
    if tactic.game == "querni":
        assert marks.removed  # the chain leaves the board
    assert await service.mine_puzzles() == 0  # mined once


# ---------------------------------------------------------------------- solving

async def test_solved_move_by_move_and_failed_with_the_refutation(repo: Repository) -> None:
    clock = SetClock()
    service = puzzle_service(repo, clock, ScriptedMiner(
        lambda p: tactic_at(ALQUERQUE)(p) or tactic_at(DAMAS)(p)))
    await play_out(service, ALQUERQUE)
    await play_out(service, DAMAS)
    assert await service.mine_puzzles() == 2
    alquerque, damas = await stored(repo)

    shown = await service.puzzle(GUILD, CAROL, alquerque.id)
    assert (shown.id, shown.step, shown.steps, shown.seat) == (alquerque.id, 0, 2, 1)
    assert shown.position.to_text() == alquerque.position and shown.player.rated
    assert (await service.puzzle(GUILD, CAROL)).id == alquerque.id  # still open
    choices = await service.puzzle_moves(GUILD, CAROL, "c3")
    assert ("c3-d3", "c3-d3") in choices
    with pytest.raises(RulesError):  # an illegal move changes nothing
        await service.answer_puzzle(GUILD, CAROL, "a1-a5")
    right = await service.answer_puzzle(GUILD, CAROL, "c3-d3")
    assert right.right and not right.solved and right.replies == ("e3xc3",)
    assert right.puzzle.step == 1 and right.rating_after is None
    v = rules.variant("alquerque")
    assert right.puzzle.last == v.move_marks(*_before_last(alquerque))
    done = await service.answer_puzzle(GUILD, CAROL, "c4xc2xa2xa4")
    assert done.solved and done.right and done.replies == ()
    assert done.rating_before is not None and done.rating_after is not None
    assert done.rating_after > done.rating_before  # solved: his rating goes up
    assert (await repo.load_puzzle(alquerque.id)).mu < alquerque.mu  # the puzzle's down
    record = await service.puzzle_record(GUILD, CAROL)
    assert (record.solved, record.failed, record.streak, record.puzzle_id) == (1, 0, 1, None)

    with pytest.raises(NotAllowed):
        await service.answer_puzzle(GUILD, CAROL, "c3-d3")  # none open
    nxt = await service.puzzle(GUILD, CAROL)
    assert nxt.id == damas.id and nxt.seat == 1
    wrong = await service.answer_puzzle(GUILD, CAROL, _a_wrong_move(damas))
    assert wrong.failed and not wrong.solved and len(wrong.solution) == 1
    assert wrong.solution[0].startswith("c2xf5xc8")  # shown with its numbers: (7x18x31)
    assert len(wrong.refutation) == 1  # the computer's answer to the wrong move
    assert wrong.rating_after is not None and wrong.rating_before is not None
    assert wrong.rating_after < wrong.rating_before
    assert (await repo.load_puzzle(damas.id)).mu > damas.mu
    record = await service.puzzle_record(GUILD, CAROL)
    assert (record.solved, record.failed, record.streak, record.best_streak) == (1, 1, 0, 1)
    with pytest.raises(NotAllowed):  # nothing left for Carol
        await service.puzzle(GUILD, CAROL)

    again = await service.puzzle(GUILD, CAROL, damas.id)  # tried before: practice
    assert not again.player.rated
    solved = await service.answer_puzzle(GUILD, CAROL, "c2xf5xc8")
    assert solved.solved and solved.rating_after is None
    assert (await service.puzzle_record(GUILD, CAROL)).streak == 0  # practice: no streak
    board = await service.puzzle_leaderboard(GUILD)
    assert [p.user_id for p in board] == [CAROL]


def _before_last(puzzle: PuzzleRecord) -> tuple[Any, Any]:
    """The position before the puzzle's first reply, and the reply (to compare marks)."""
    v = rules.variant(puzzle.game)
    p: Any = v.from_text(puzzle.position)
    p = p.play(v.parse_move(p, puzzle.line[0]))
    return p, v.parse_move(p, puzzle.line[1])


def _a_wrong_move(puzzle: PuzzleRecord) -> str:
    v = rules.variant(puzzle.game)
    p: Any = v.from_text(puzzle.position)
    right = v.parse_move(p, puzzle.line[0])
    return next(v.format_move(p, m) for m in p.legal_moves() if m != right)


async def test_the_streak_counts_first_tries_solved_in_a_row(repo: Repository) -> None:
    clock = SetClock()

    def every_fifth(p: Position[Any]) -> tuple[str, ...] | None:
        # a puzzle on the position after every fifth move of Black's (its first legal move)
        if p.to_move != {0} or len(p.to_text()) % 5:
            return None
        return (p.variant.format_move(p, sorted(p.legal_moves(), key=repr)[0]),)
    service = puzzle_service(repo, clock, ScriptedMiner(every_fifth))
    await play_out(service, DAMAS)
    await service.mine_puzzles()
    puzzles = await stored(repo)
    assert len(puzzles) >= 3
    streaks = []
    for n in range(3):
        shown = await service.puzzle(GUILD, CAROL)
        answer = shown.variant.format_move(shown.position, shown.variant.parse_move(
            shown.position, (await repo.load_puzzle(shown.id)).line[0]))
        if n == 2:
            answer = _a_wrong_move(await repo.load_puzzle(shown.id))
        done = await service.answer_puzzle(GUILD, CAROL, answer)
        assert done.solved == (n < 2)
        streaks.append(done.puzzle.player.streak)
    record = await service.puzzle_record(GUILD, CAROL)
    assert streaks == [1, 2, 0] and record.best_streak == 2


# ---------------------------------------------------------------------- exclusions

async def test_never_ones_own_game_nor_a_position_of_a_live_game(repo: Repository) -> None:
    clock = SetClock()
    service = puzzle_service(repo, clock, ScriptedMiner(tactic_at(DAMAS)))
    await play_out(service, DAMAS)
    await service.mine_puzzles()
    (puzzle,) = await stored(repo)
    for player in (ALICE, BOB):  # the players of the source match
        with pytest.raises(NotAllowed):
            await service.puzzle(GUILD, player)
        with pytest.raises(NotAllowed):
            await service.puzzle(GUILD, player, puzzle.id)
    live = await live_at(service, DAMAS)  # the position stands in a game being played
    with pytest.raises(NotAllowed):
        await service.puzzle(GUILD, CAROL)
    with pytest.raises(NotAllowed):
        await service.puzzle(GUILD, CAROL, puzzle.id)
    with pytest.raises(PuzzleNotFound):  # another server's puzzle does not exist here
        await service.puzzle(GUILD + 1, CAROL, puzzle.id)
    m = await service.get_match(live)
    await service.resign(live, m.to_move[0])
    assert (await service.puzzle(GUILD, CAROL)).id == puzzle.id  # the game is over
    # a live game of the reader's own, in another server, counts too
    await service.answer_puzzle(GUILD, CAROL, "c2xf5xc8")
    other = await service.challenge(GUILD + 1, CHANNEL, CAROL, "damas", opponents=[DAVE],
                                    seat=0)
    other = await service.accept(other.id, DAVE)
    for text in DAMAS.moves:
        other = (await service.move(other.id, other.to_move[0], text)).match
    assert other.status is MatchStatus.ACTIVE
    with pytest.raises(NotAllowed):
        await service.puzzle(GUILD, CAROL, puzzle.id)


async def test_imported_and_unfinished_games_feed_no_puzzles(repo: Repository) -> None:
    service = puzzle_service(repo, SetClock(), ScriptedMiner(tactic_at(DAMAS)))
    await live_at(service, DAMAS)  # live: not mined
    moves = DAMAS.moves + DAMAS.line
    record = '[Game "damas"]\n\n' + " ".join(
        f"{i + 1}. {m}" for i, m in enumerate(moves)) + f" {len(moves) + 1}. {{White resigns}}"
    done = await service.import_record(GUILD, CHANNEL, ALICE, record)
    assert done.match.status is MatchStatus.FINISHED
    assert await service.mine_puzzles() == 1  # the imported game is marked, with none
    assert await stored(repo) == [] and await repo.unmined_matches(0, 10) == []


# ---------------------------------------------------------------------- mining's bounds

async def test_the_bound_per_hour(repo: Repository) -> None:
    clock = SetClock()
    miner = ScriptedMiner(tactic_at(DAMAS))
    service = puzzle_service(repo, clock, miner, per_hour=2)
    for _ in range(3):
        await play_out(service, DAMAS)
    assert await service.mine_puzzles() == 2
    assert await service.mine_puzzles() == 0  # the hour's bound is spent
    await service.sweep()
    await service.puzzles_idle()
    assert len(await stored(repo)) == 2
    clock.advance(minutes=61)
    await service.sweep()  # the sweep mines in the background
    await service.puzzles_idle()
    assert len(await stored(repo)) == 3
    off = puzzle_service(repo, clock, miner, per_hour=0)
    await play_out(off, DAMAS)
    clock.advance(hours=2)
    assert await off.mine_puzzles() == 0


async def test_a_restart_in_the_middle_of_mining_mines_the_game_again_once(
        repo: Repository) -> None:
    clock = SetClock()

    class Stalling(ScriptedMiner):
        async def find_puzzles(self, positions: Any) -> list[FoundPuzzle | None]:
            if self.calls >= 2:
                await asyncio.Event().wait()  # the process dies here
            return await super().find_puzzles(positions)
    stalling = Stalling(tactic_at(DAMAS))
    first = puzzle_service(repo, clock, stalling)
    await play_out(first, DAMAS)
    with pytest.raises(TimeoutError):
        await asyncio.wait_for(first.mine_puzzles(), 0.5)
    assert stalling.calls == 2 and await stored(repo) == []
    assert await repo.unmined_matches(0, 10) != []
    again = puzzle_service(repo, clock, ScriptedMiner(tactic_at(DAMAS)))  # restarted
    assert await again.mine_puzzles() == 1
    assert len(await stored(repo)) == 1
    assert await again.mine_puzzles() == 0 and await repo.unmined_matches(0, 10) == []


# ---------------------------------------------------------------------- the daily puzzle

async def test_the_daily_puzzle_once_a_day_and_after_a_restart(repo: Repository) -> None:
    clock, recorder = SetClock(), Recorder()
    service = puzzle_service(repo, clock, ScriptedMiner(
        lambda p: tactic_at(ALQUERQUE)(p) or tactic_at(DAMAS)(p)), recorder=recorder)
    await play_out(service, ALQUERQUE)
    await play_out(service, DAMAS)
    await service.mine_puzzles()
    alquerque, damas = await stored(repo)
    when = await service.set_daily_puzzle(GUILD, CHANNEL)
    assert await service.daily_puzzle_status(GUILD) == (CHANNEL, when)
    (posted,) = await service.sweep_daily_puzzles()
    assert isinstance(posted, DailyPuzzle) and posted.puzzle_id == damas.id  # the newest
    assert posted.match.channel_id == CHANNEL and posted.position == damas.position
    (entry,) = [e for e in await repo.pending_outbox(limit=1000)
                if e.kind == "daily-puzzle"]
    assert event_of(entry) == posted  # self-contained: a restart delivers it as it was
    assert await service.sweep_daily_puzzles() == []  # once a day
    clock.advance(hours=23)
    assert await service.sweep_daily_puzzles() == []

    restarted = puzzle_service(repo, clock, None)  # a new process: the schedule is stored
    clock.advance(hours=1, minutes=1)
    (second,) = await restarted.sweep_daily_puzzles()
    assert isinstance(second, DailyPuzzle) and second.puzzle_id == alquerque.id
    assert await service.sweep_daily_puzzles() == []  # the other process finds it posted
    clock.advance(days=1)
    assert await restarted.sweep_daily_puzzles() == []  # none left: nothing that day
    assert await restarted.set_daily_puzzle(GUILD, None) is None
    assert await restarted.daily_puzzle_status(GUILD) is None
    assert len(recorder.of(DailyPuzzle)) == 1
    clock.advance(days=3)
    assert not [e for e in await service.sweep() if isinstance(e, DailyPuzzle)]
