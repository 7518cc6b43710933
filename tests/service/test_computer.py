"""Computer players through the service: their moves take the same path as a person's
(validated, stored, announced), they are casual, named, and fill lobbies."""

from __future__ import annotations

import asyncio
import multiprocessing
import random
from typing import Any

import pytest

import engine
import rules
from bot.computer import InlineMovePicker, PoolMovePicker
from bot.discordapp.embeds import challenge_text
from locales.i18n import render
from rules import Position
from service import (
    ChallengeReceived,
    InvalidOption,
    MatchService,
    NotAllowed,
    NotAPlayer,
    Repository,
    SetupSubmitted,
    TurnStarted,
)
from service.computer_seats import computer_level, computer_name, computer_user, is_computer
from tests.service.conftest import ALICE, BOB, CHANNEL, GUILD, Recorder, SetClock
from tests.service.crashing_workers import (
    crash_at_depth_3,
    crash_at_once,
    hang,
    search_then_crash,
)


@pytest.fixture
def picker() -> InlineMovePicker:
    return InlineMovePicker(nodes=200)


@pytest.fixture
def cpu_service(repo: Repository, clock: SetClock, recorder: Recorder,
                picker: InlineMovePicker) -> MatchService:
    return MatchService(repo, recorder, clock, rng=random.Random(7), picker=picker)


def test_computer_ids_are_reserved_valid_ids_and_name_their_level() -> None:
    assert computer_user(5, 1) - computer_user(5) == 1000
    assert 0 < computer_user(1) < computer_user(8, 2) <= 2**63 - 1  # valid stored ids
    assert computer_level(computer_user(5, 1)) == 5 and computer_level(ALICE) is None
    assert is_computer(computer_user(8)) and not is_computer(ALICE)
    assert not is_computer(None) and not is_computer(-5)
    assert computer_name(computer_user(3)) == "Tablero level 3"
    with pytest.raises(InvalidOption):
        computer_user(9)


async def test_a_game_against_the_computer_goes_through_the_move_path(
        cpu_service: MatchService, recorder: Recorder, picker: InlineMovePicker,
        repo: Repository) -> None:
    m = await cpu_service.challenge_computer(GUILD, CHANNEL, ALICE, "damas", level=3,
                                             seat=1)
    await cpu_service.computers_idle()
    assert m.status.value == "active" and not m.rated
    cpu = computer_user(3)
    # White is the computer: it has moved, through move(): a stored entry, an event
    entries = await repo.load_entries(m.id)
    assert len(entries) == 1 and entries[0].user_id == cpu and entries[0].seat == 0
    turns = recorder.of(TurnStarted)
    assert turns[-1].by == cpu and turns[-1].users == (ALICE,)
    v = rules.variant("damas")
    for _ in range(3):  # Alice plays; the computer answers each time
        p, _ = await cpu_service.position(m.id)
        await cpu_service.move(m.id, ALICE, v.format_move(p, p.legal_moves()[0]))
        await cpu_service.computers_idle()
    assert picker.picks == 4
    assert [e.user_id for e in await repo.load_entries(m.id)] == [cpu, ALICE] * 3 + [cpu]
    p, _ = await cpu_service.position(m.id)
    assert p.to_move == {1}


async def test_the_computer_is_named_and_never_rated(cpu_service: MatchService) -> None:
    m = await cpu_service.challenge_computer(GUILD, CHANNEL, ALICE, "alquerque", level=8,
                                             seat=0)
    assert not m.rated
    image_names = cpu_service.names
    assert image_names is not None and image_names(GUILD, computer_user(8)) == \
        "Tablero level 8"
    await cpu_service.resign(m.id, ALICE)
    board = await cpu_service.leaderboard(GUILD, "alquerque")
    assert board.entries == ()


async def test_querni_choose_the_computer_submits_its_arrangement_unseen(
        cpu_service: MatchService, recorder: Recorder) -> None:
    m = await cpu_service.challenge_computer(GUILD, CHANNEL, ALICE, "querni", level=6,
                                             options={"setup": "choose"}, seat=0)
    await cpu_service.computers_idle()
    assert len(recorder.of(SetupSubmitted)) == 1  # the computer's, hidden
    p, _ = await cpu_service.position(m.id)
    assert p.in_setup and p.has_submitted(1) and not p.has_submitted(0)
    await cpu_service.submit_setup(m.id, ALICE, " ".join(map(str, range(1, 17))))
    p, _ = await cpu_service.position(m.id)
    assert not p.in_setup and p.to_move == {0}


async def test_the_lobby_creator_fills_empty_seats_with_computers(
        cpu_service: MatchService, recorder: Recorder) -> None:
    lobby = await cpu_service.challenge(GUILD, CHANNEL, ALICE, "alquerque-grande",
                                        options={"players": 4, "mode": "fast"})
    await cpu_service.join(lobby.id, BOB)
    with pytest.raises(NotAllowed):
        await cpu_service.add_computers(lobby.id, BOB, 2)  # only the creator
    m = await cpu_service.add_computers(lobby.id, ALICE, 2)
    await cpu_service.computers_idle()
    assert m.status.value == "active" and not m.rated
    computers = [s.user_id for s in m.seats if is_computer(s.user_id)]
    assert sorted(computers) == [computer_user(2), computer_user(2, 1)]
    now = await cpu_service.get_match(m.id)
    assert all(not is_computer(u) for u in now.to_move)  # computers played up to a person


async def test_a_failing_picker_leaves_the_turn_to_the_next_wake(
        repo: Repository, clock: SetClock, recorder: Recorder) -> None:
    class Broken:
        calls = 0

        async def pick(self, position: Position[Any], seat: int, level: int, *,
                       seed: int) -> str:
            self.calls += 1
            raise RuntimeError("engine exploded")

    broken = Broken()
    service = MatchService(repo, recorder, clock, picker=broken)
    m = await service.challenge_computer(GUILD, CHANNEL, ALICE, "xiangqi", seat=1)
    await service.computers_idle()
    assert broken.calls == 1
    assert (await service.get_match(m.id)).ply == 0  # nothing stored
    await service.sweep()  # the next sweep tries again: still broken, still nothing lost
    await service.computers_idle()
    assert broken.calls == 2 and (await service.get_match(m.id)).ply == 0
    service._computers.picker = InlineMovePicker(nodes=100)  # the engine is back
    await service.sweep()
    await service.computers_idle()
    assert (await service.get_match(m.id)).ply == 1  # played within one sweep
    await service.sweep()  # and only once
    await service.computers_idle()
    assert (await service.get_match(m.id)).ply == 1


async def test_without_a_picker_the_computer_is_refused(repo: Repository, clock: SetClock,
                                                        recorder: Recorder) -> None:
    service = MatchService(repo, recorder, clock)
    with pytest.raises(NotAllowed):
        await service.challenge_computer(GUILD, CHANNEL, ALICE, "xiangqi")


async def test_pool_picker_falls_back_to_a_legal_move_after_two_timeouts() -> None:
    """A search that overruns its budget twice still gives a move (a one-ply one)."""
    picker = PoolMovePicker(workers=1, seconds=0.0, grace=0.0)
    try:
        v = rules.variant("xiangqi")
        p = v.start()
        text = await picker.pick(p, 0, 8, seed=1)
        assert v.parse_move(p, text) in p.legal_moves()
        assert picker.failures == 1
    finally:
        picker.close()


async def test_a_crashed_worker_leaves_the_move_it_had_chosen() -> None:
    """Both attempts crash after their search: the move each had chosen is played."""
    picker = PoolMovePicker(workers=1, seconds=30, grace=30, task=search_then_crash)
    try:
        v = rules.variant("damas")
        p = v.start().play(v.parse_move(v.start(), "d3-c4"))
        text = await picker.pick(p, 1, 4, seed=11)
        expected = engine.choose_move(p, 4, seed=11, seat=1, seconds=60, fairy=False)
        assert text == expected.text
        assert (picker.failures, picker.last_fallback) == (1, "progress")
    finally:
        picker.close()


async def test_a_search_cut_midway_plays_its_best_move_so_far() -> None:
    """The worker dies after depth 3 of its search: depth 3's best move is played."""
    v = rules.variant("damas")
    p = v.start()
    heard: list[tuple[str, int, bool]] = []
    engine.choose_move(p, 8, seed=5, nodes=6_000, seconds=60, fairy=False,
                       progress=lambda *found: heard.append(found))
    depth_3 = next(text for text, depth, _final in heard if depth == 3)
    picker = PoolMovePicker(workers=1, seconds=30, grace=30, task=crash_at_depth_3)
    try:
        assert await picker.pick(p, 0, 8, seed=5) == depth_3
        assert picker.last_fallback == "progress"
    finally:
        picker.close()
    assert picker._folder is None  # its progress files are gone


async def test_a_worker_that_crashes_at_once_still_gives_a_legal_move() -> None:
    picker = PoolMovePicker(workers=1, seconds=30, grace=30, task=crash_at_once)
    try:
        v = rules.variant("alquerque-grande")
        p = v.start(players=4, mode="fast")
        text = await picker.pick(p, 0, 6, seed=1)
        assert v.parse_move(p, text) in p.legal_moves()
        assert (picker.failures, picker.last_fallback) == (1, "one_ply")
        q = rules.variant("querni")
        setup = q.start(setup="choose")  # an arrangement, made on the spot
        arrangement = await picker.pick(setup, 1, 8, seed=1)
        assert q.parse_arrangement(setup, 1, arrangement) is not None
        assert (picker.failures, picker.last_fallback) == (2, "one_ply")
    finally:
        picker.close()


async def test_a_stuck_worker_is_stopped_and_the_turn_still_played() -> None:
    picker = PoolMovePicker(workers=1, seconds=0.2, grace=0.5, task=hang)
    try:
        v = rules.variant("querni")
        p = v.start(setup="random", seed=3)
        text = await picker.pick(p, sorted(p.to_move)[0], 5, seed=1)
        assert v.parse_move(p, text) in p.legal_moves()
        assert picker.last_fallback == "one_ply"
        for _ in range(50):  # the stuck workers were killed, not left searching
            if not multiprocessing.active_children():
                break
            await asyncio.sleep(0.1)
        assert multiprocessing.active_children() == []
    finally:
        picker.close()


async def test_pool_picker_answers_from_a_worker_process() -> None:
    # a spawned worker imports the engine before it searches: seconds on a loaded
    # machine, so the grace is wide (this test is about where the answer comes from)
    picker = PoolMovePicker(workers=1, seconds=0.3, grace=60.0)
    try:
        v = rules.variant("alquerque")
        p = v.start()
        text = await picker.pick(p, 0, 4, seed=2)
        assert v.parse_move(p, text) in p.legal_moves()
        assert picker.failures == 0
    finally:
        picker.close()


async def test_stats_count_games_against_the_computer(cpu_service: MatchService) -> None:
    m = await cpu_service.challenge_computer(GUILD, CHANNEL, ALICE, "damas", level=1,
                                             seat=0)
    await cpu_service.move(m.id, ALICE, "d3-c4")  # two plies: a resignation now counts
    await cpu_service.computers_idle()
    await cpu_service.resign(m.id, ALICE)
    stats = await cpu_service.stats(GUILD, ALICE)
    assert stats.against_computer == (0, 0, 1)
    assert stats.ladders == ()  # casual: no ladder


async def test_a_computer_turn_lost_with_a_restart_is_woken(
        repo: Repository, clock: SetClock, recorder: Recorder) -> None:
    # a service without a picker stores the match, as if the process died before the
    # computer's turn was played
    first = MatchService(repo, recorder, clock)
    lobby = await first.challenge(GUILD, CHANNEL, ALICE, "xiangqi",
                                  opponents=[computer_user(2)], rated=False, seat=1)
    await first.accept(lobby.id, computer_user(2))
    assert (await first.get_match(lobby.id)).ply == 0
    second = MatchService(repo, recorder, clock, picker=InlineMovePicker(nodes=100))
    assert await second.wake_computers() == 1
    await second.computers_idle()
    assert (await second.get_match(lobby.id)).ply == 1


async def test_hint_in_a_casual_game_against_the_computer(cpu_service: MatchService) -> None:
    v = rules.variant("xiangqi")
    m = await cpu_service.challenge_computer(GUILD, CHANNEL, ALICE, "xiangqi", level=1,
                                             seat=0)
    p, _ = await cpu_service.position(m.id)
    move, reason, left = await cpu_service.hint(m.id, ALICE)
    assert v.parse_noted_move(p, move) in p.legal_moves() and reason and left == 2
    # an opening move takes, checks and wins nothing: the computer is named as its
    # players are (``computer_seats``), not "Tablero (level 8)"
    assert render(reason, "en-US") == "the strongest move Tablero level 8 finds here"
    assert render(reason, "de") == "der stärkste Zug, den Tablero Stufe 8 hier findet"
    with pytest.raises(NotAPlayer):
        await cpu_service.hint(m.id, BOB)  # not his match


async def test_no_hints_in_games_between_people(cpu_service: MatchService) -> None:
    m = await cpu_service.challenge(GUILD, CHANNEL, ALICE, "damas", opponents=[BOB],
                                    rated=False, seat=0)
    await cpu_service.accept(m.id, BOB)
    with pytest.raises(NotAllowed, match="casual games against the computer"):
        await cpu_service.hint(m.id, ALICE)


async def test_analysis_marks_the_costliest_moves_of_a_finished_game(
        cpu_service: MatchService) -> None:
    from tests.service.conftest import finishing_game, start_match

    moves = finishing_game("damas", {}, 3)
    assert moves
    m = await start_match(cpu_service, "damas", rated=False)
    with pytest.raises(NotAllowed, match="finished games"):
        await cpu_service.analysis(m.id)
    for i, text in enumerate(moves):
        await cpu_service.move(m.id, (ALICE, BOB)[i % 2], text)
    swings = await cpu_service.analysis(m.id)
    assert 1 <= len(swings) <= 3  # random play blunders
    assert [s.lost for s in swings] == sorted((s.lost for s in swings), reverse=True)
    for a in swings:
        assert a.lost >= 100 and a.seat == a.ply % 2 and a.user == (ALICE, BOB)[a.seat]
        assert a.move.split()[0] == moves[a.ply] and a.better != a.move


async def test_analysis_of_a_four_seat_game_weighs_each_move_for_its_mover(
        cpu_service: MatchService) -> None:
    """Four seats on their own: each marked move is the one its seat played there, and
    what it lost is the engine's weighing of that move against the best one."""
    from tests.service.conftest import CAROL, DAVE, play_random

    m = await cpu_service.challenge(GUILD, CHANNEL, ALICE, "alquerque-grande",
                                    options={"players": 4, "mode": "fast"}, seat=0,
                                    rated=False)
    for u in (BOB, CAROL, DAVE):
        m = await cpu_service.join(m.id, u)
    m = await play_random(cpu_service, m.id, 16, seed=4)
    m = await cpu_service.resign(m.id, m.to_move[0])  # in `fast`, the first out ends it
    assert not m.status.is_live
    swings = await cpu_service.analysis(m.id, top=5)
    assert swings, "random moves lose material"
    record = await cpu_service.record(m.id)
    before = {ply.ply: prev for prev, ply in zip(
        [record.start, *(x.position for x in record.plies)], record.plies, strict=False)}
    by_ply = {ply.ply: ply for ply in record.plies}
    for a in swings:
        played = by_ply[a.ply]
        assert (a.seat, a.move) == (played.seat, played.display)
        weighing = engine.weigh_move(before[a.ply], played.move, nodes=200)
        assert a.lost == weighing.lost >= 100
        v = before[a.ply].variant
        assert a.better == v.display_move(before[a.ply], weighing.best_move)
    assert [s.lost for s in swings] == sorted((s.lost for s in swings), reverse=True)


EVERY_CONFIGURATION = [
    pytest.param(key, dict(options), id=f"{key}-" + ("-".join(
        f"{k}={o}" for k, o in options.items()) or "default"))
    for key, v in rules.VARIANTS.items() for options in v.option_sets()]


@pytest.mark.parametrize(("game", "options"), EVERY_CONFIGURATION)
async def test_every_configuration_can_be_played_against_the_computer(
        cpu_service: MatchService, repo: Repository, game: str,
        options: dict[str, object]) -> None:
    """A person against the computer (four-seat lobbies filled with it) in all ten
    configurations: after each of her moves the computers have answered, through the
    stored move path, and it is her turn again."""
    level = 1 + len(game + str(options)) % 8
    m = await cpu_service.challenge_computer(GUILD, CHANNEL, ALICE, game, level=level,
                                             options=options, seat=0)
    if m.status.value == "lobby":  # four seats: the creator fills the rest
        m = await cpu_service.add_computers(m.id, ALICE, level)
    computers = [s.user_id for s in m.seats if s.user_id != ALICE]
    assert m.status.is_live and not m.rated
    assert len(computers) == m.seat_count - 1 and all(map(is_computer, computers))
    names = cpu_service.names
    assert names is not None
    # computers sharing a level are numbered: a name each (/fill seats three at one level)
    assert sorted(names(GUILD, u) for u in computers) == sorted(
        [f"Tablero level {level}", f"Tablero 2 level {level}",
         f"Tablero 3 level {level}"][:len(computers)])
    for _turn in range(4):
        await cpu_service.computers_idle()
        m = await cpu_service.get_match(m.id)
        if not m.status.is_live:
            break
        assert m.to_move == (ALICE,)  # the computers never leave a turn unplayed
        p, _ = await cpu_service.position(m.id)
        if p.in_setup:
            await cpu_service.submit_setup(m.id, ALICE, " ".join(map(str, range(1, 17))))
        else:
            await cpu_service.move(m.id, ALICE, p.variant.format_move(p, p.legal_moves()[0]))
    played_by = {e.user_id for e in await repo.load_entries(m.id)}
    assert set(computers) <= played_by  # every computer seat has moved


class ScriptedPicker(InlineMovePicker):
    """Plays the computer's moves of a known game (by the position they are played in),
    so a test decides who wins."""

    def __init__(self, game: str, options: dict[str, object], moves: list[str]) -> None:
        super().__init__(nodes=50)
        v = rules.variant(game)
        p = v.start(**options)
        self.script: dict[str, str] = {}
        for text in moves:
            self.script[p.to_text()] = text
            p = p.play(v.parse_move(p, text))

    async def pick(self, position: Position[Any], seat: int, level: int, *,
                   seed: int) -> str:
        self.picks += 1
        return self.script[position.to_text()]


@pytest.mark.parametrize(("game", "options", "seed", "expected"), [
    pytest.param("alquerque", {}, 16, (1, 0, 0), id="two-players-won"),
    pytest.param("alquerque-grande", {"players": 4, "mode": "fast"}, 14, (1, 0, 0),
                 id="four-players-won"),
    pytest.param("alquerque-grande", {"players": 4, "mode": "fast"}, 9, (0, 1, 0),
                 id="four-players-first-place-shared"),
])
async def test_stats_count_a_win_against_the_computer_as_a_win(
        repo: Repository, clock: SetClock, recorder: Recorder, game: str,
        options: dict[str, object], seed: int, expected: tuple[int, int, int]) -> None:
    """Issue 38, item 2: the result holds seats, not users; a game Alice (seat 0) won
    against the computer is a win in /stats, a first place she shares is a draw (as on
    the rated ladders), in two- and four-player games alike."""
    from tests.service.conftest import finishing_game

    moves = finishing_game(game, options, seed, 400)
    assert moves
    service = MatchService(repo, recorder, clock, rng=random.Random(7),
                           picker=ScriptedPicker(game, options, moves))
    m = await service.challenge_computer(GUILD, CHANNEL, ALICE, game, level=1,
                                         options=options, seat=0)
    if m.status.value == "lobby":
        m = await service.add_computers(m.id, ALICE, 1)
    while True:
        await service.computers_idle()
        m = await service.get_match(m.id)
        if not m.status.is_live:
            break
        await service.move(m.id, ALICE, moves[m.ply])
    assert m.result is not None and m.status.value == "finished"
    stats = await service.stats(GUILD, ALICE)
    assert stats.against_computer == expected


class WeighingPicker(InlineMovePicker):
    """Weighs every move of a game as the test says, by ply; the best move is always
    the first legal move (so the test knows it)."""

    def __init__(self, by_ply: dict[int, tuple[int, int, int | None, int | None]]) -> None:
        super().__init__(nodes=50)
        self.by_ply = by_ply

    async def weigh(self, moves: Any) -> list[Any]:
        from service import MoveWeighing

        out = []
        for ply, (p, _text) in enumerate(moves):
            best, played, best_end, played_end = self.by_ply.get(ply, (0, 0, None, None))
            out.append(MoveWeighing(best, played, p.variant.format_move(p, p.legal_moves()[0]),
                                    best_end, played_end))
        return out


async def test_analysis_says_who_played_what_was_better_and_what_it_cost(
        repo: Repository, clock: SetClock, recorder: Recorder) -> None:
    """Issue 38, item 3: each marked move names its number, its player, the move, the
    better move and the cost in words: the game's own pieces (Alquerque's stones: it
    has no pawns; never the forced-end cap as pieces), a
    forced win missed ("lets a won game slip"), a forced loss walked into; a slower win
    is no mistake, nor a win the short search lost sight of when its player won all the
    same, nor losing faster in a lost game."""
    from locales.i18n import render
    from tests.service.conftest import finishing_game, start_match

    moves = finishing_game("alquerque", {}, 16)  # White (seat 0, Alice) wins at ply 16
    assert moves and len(moves) == 17
    weighings: dict[int, tuple[int, int, int | None, int | None]] = {
        0: (250, 0, None, None),  # Alice: 2.5 pawns
        1: (999_995, 120, 3, None),  # Bob missed a forced win in 3 (and lost the game)
        2: (999_995, 120, 3, None),  # Alice "missed" one too, but won: a slower win
        3: (150, -999_998, None, -1),  # Bob walked into a forced loss in 1
        4: (999_997, 999_991, 2, 5),  # Alice: a slower forced win
        5: (-999_996, -999_998, -2, -1),  # Bob, lost anyway: losing faster is no mistake
        6: (40, -40, None, None),  # less than a pawn
    }
    service = MatchService(repo, recorder, clock, rng=random.Random(7),
                           picker=WeighingPicker(weighings))
    m = await start_match(service, "alquerque", rated=False)
    for i, text in enumerate(moves):
        await service.move(m.id, (ALICE, BOB)[i % 2], text)
    marked = await service.analysis(m.id, top=10)
    assert [(a.ply, a.user) for a in marked] == [(3, BOB), (1, BOB), (0, ALICE)]
    said = [render(a.line({ALICE: "alice", BOB: "bob"}[a.user or 0], game="alquerque"), "en-US")
            for a in marked]
    v = rules.variant("alquerque")
    p = v.start()
    better: list[str] = []
    for text in moves[:4]:
        better.append(v.display_move(p, p.legal_moves()[0]))
        p = p.play(v.parse_move(p, text))
    assert said == [
        f"move 4, bob: {moves[3]}; better {better[3]} (allows a forced loss in 1 move)",
        f"move 2, bob: {moves[1]}; better {better[1]} (lets a won game slip: misses a "
        "forced win in 3 moves)",
        f"move 1, alice: {moves[0]}; better {better[0]} (costs about 2.5 stones)"]
    assert render(marked[2].line("alice", game="alquerque"), "de") == (
        f"Zug 1, alice: {moves[0]}; besser {better[0]} (kostet etwa 2,5 Steine)")


async def test_a_missed_mate_is_weighed_as_a_forced_win_in_moves_not_pawns() -> None:
    """Issue 38, item 3: the picker tells a forced end as moves of the side that ends
    it (b1-b10 mates at once: a forced win in 1), and the better move's text."""
    v = rules.variant("xiangqi")
    p = v.from_text("4k4/R8/9/9/9/9/9/9/9/1R1K5 w - - 0 1")
    found = await InlineMovePicker(nodes=400).weigh([(p, "a9-a8")])
    assert found[0] is not None
    assert (found[0].best_move, found[0].best_end, found[0].played_end) == \
        ("b1-b10", 1, None)
    assert found[0].best > 990_000  # the score stays the engine's; words never print it


async def test_hints_are_limited_per_game_counted_and_shown_in_stats(
        repo: Repository, clock: SetClock, recorder: Recorder) -> None:
    """Issue 38, item 18: at most three hints a player and game (the fourth is refused,
    also after a restart: the count is stored with the match), and /stats says in how
    many games against the computer hints were taken."""
    from service.computer import MAX_HINTS

    service = MatchService(repo, recorder, clock, rng=random.Random(7),
                           picker=InlineMovePicker(nodes=100))
    m = await service.challenge_computer(GUILD, CHANNEL, ALICE, "damas", level=1, seat=0)
    said = [(await service.hint(m.id, ALICE))[2] for _ in range(MAX_HINTS)]
    assert said == [2, 1, 0]
    again = MatchService(repo, recorder, clock, rng=random.Random(7),
                         picker=InlineMovePicker(nodes=100))
    with pytest.raises(NotAllowed, match="taken your 3 hints in this game"):
        await again.hint(m.id, ALICE)
    other = await again.challenge_computer(GUILD, CHANNEL, ALICE, "damas", level=1, seat=0)
    assert (await again.hint(other.id, ALICE))[2] == 2  # per game
    for match_id in (m.id, other.id):
        await again.move(match_id, ALICE, "d3-c4")
        await again.computers_idle()
        await again.resign(match_id, ALICE)
    stats = await again.stats(GUILD, ALICE)
    assert stats.against_computer == (0, 0, 2) and stats.with_hints == 2


async def aborted_four_player_game(service: MatchService, people: list[int],
                                   level: int) -> Any:
    """A four-player game of ``people`` and computers at ``level`` (``/fill``), aborted:
    the first person to move resigns before moving, as the computers wait for him."""
    lobby = await service.challenge(GUILD, CHANNEL, people[0], "alquerque-grande",
                                    options={"players": 4, "mode": "fast"})
    for u in people[1:]:
        await service.join(lobby.id, u)
    m = await service.add_computers(lobby.id, people[0], level)
    await service.computers_idle()
    m = await service.get_match(m.id)
    await service.resign(m.id, m.to_move[0])
    return await service.get_match(m.id)


async def test_a_four_player_rematch_seats_the_computers_and_asks_only_people(
        cpu_service: MatchService, recorder: Recorder) -> None:
    """The rematch lobby of a game with computer seats seats them at once, at their
    levels and one place on, like everyone's, and asks only the people; asked again (by
    the other person), the answer names it."""
    m = await aborted_four_player_game(cpu_service, [ALICE, BOB], 2)
    assert m.status.value == "aborted"
    seats = {s.user_id: s.seat for s in m.seats}
    again = await cpu_service.rematch(m.id, ALICE)
    assert again.status.value == "lobby" and not again.rated
    assert again.invited == (BOB,)
    assert sorted(again.joined) == sorted([ALICE, computer_user(2), computer_user(2, 1)])
    asked = recorder.of(ChallengeReceived)[-1]
    assert (asked.to, asked.rematch_of, asked.taken) == ((BOB,), m.id, False)
    said = render(challenge_text(asked.match, ALICE, asked.to), "en-US")
    assert said.startswith(f"<@{BOB}>: <@{ALICE}> challenges you to **Alquerque grande")
    assert "open" not in said  # the computers sit: no seat is open to anyone
    with pytest.raises(NotAllowed, match=f"rematch of match #{m.id} is already under "
                                         f"way: match #{again.id}"):
        await cpu_service.rematch(m.id, BOB)
    started = await cpu_service.accept(again.id, BOB)
    assert started.status.value == "active"
    assert {s.user_id: s.seat for s in started.seats} == \
        {u: ((s or 0) + 1) % 4 for u, s in seats.items()}
    await cpu_service.computers_idle()


async def test_a_rematch_among_computers_begins_at_once(
        cpu_service: MatchService, recorder: Recorder) -> None:
    """One person and three computers: the rematch starts at once (nobody is asked), the
    seats one place on, the computers at their level; the announcement only links it to
    the match it repeats."""
    m = await aborted_four_player_game(cpu_service, [ALICE], 1)
    seats = {s.user_id: s.seat for s in m.seats}
    again = await cpu_service.rematch(m.id, ALICE)
    assert again.status.value == "active" and not again.rated
    assert {s.user_id: s.seat for s in again.seats} == \
        {u: ((s or 0) + 1) % 4 for u, s in seats.items()}
    assert all(computer_level(u) == 1 for u in seats if u != ALICE)
    asked = recorder.of(ChallengeReceived)[-1]
    assert (asked.match.id, asked.to, asked.rematch_of, asked.taken) == \
        (again.id, (), m.id, True)
    await cpu_service.computers_idle()


async def test_a_rematch_the_computer_cannot_take_is_refused(
        clock: SetClock, recorder: Recorder, monkeypatch: pytest.MonkeyPatch) -> None:
    """Where the computer does not play (no picker), or no longer at the match's level,
    the rematch is refused in words that say so, and nothing is made."""
    from service import computer_seats
    from storage import MemoryRepository

    repo = MemoryRepository()
    service = MatchService(repo, recorder, clock, picker=InlineMovePicker(nodes=50))
    m = await service.challenge_computer(GUILD, CHANNEL, ALICE, "alquerque", level=2,
                                         seat=0)
    await service.resign(m.id, ALICE)
    without = MatchService(repo, recorder, clock)
    with pytest.raises(NotAllowed, match="the computer player is not available here"):
        await without.rematch(m.id, ALICE)
    monkeypatch.setattr(computer_seats, "LEVELS", range(3, 9))
    with pytest.raises(NotAllowed, match="the computer no longer plays at level 2: "
                                         "challenge it again with /challenge"):
        await service.rematch(m.id, ALICE)
    assert await repo.rematch_of(m.id) is None


async def test_a_board_drawn_for_a_reader_names_the_computer_in_his_words(
        repo: Repository, clock: SetClock, recorder: Recorder,
        picker: InlineMovePicker) -> None:
    """A board's picture (its name chips and alt text: "Schwarz (Tablero level 3) am
    Zug") named the computer by the English name the caches keep, to a German reader
    too; the pictures drawn in a language name it in that language, as the texts do."""
    s = MatchService(repo, recorder, clock, rng=random.Random(7), picker=picker,
                     names=lambda _guild, _user: "alice")
    m = await s.challenge_computer(GUILD, CHANNEL, ALICE, "damas", level=3, seat=0)
    assert s.core.drawn_names(m, "de") == ["alice", "Tablero Stufe 3"]
    assert s.core.drawn_names(m, "zh-TW") == ["alice", "Tablero 3 級"]
    assert s.core.seat_names(m) == ["alice", "Tablero level 3"]  # files and caches
