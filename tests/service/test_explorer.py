"""The opening explorer (issue 44) on every repository: its counts equal a brute-force count
over the stored records (transpositions meet, a game counts once per move), games are
counted as they end and by the backfill (never twice), live games and games against the
computer are not counted, and bad input gets a clear refusal."""

from __future__ import annotations

import random
from collections import Counter, defaultdict

import pytest

import rules
from service import InvalidOption, MatchService, MatchStatus, NullNotifier, Repository
from service.explorer import EXPLORER_PLIES, read_config
from service.records import ExplorerCount, ExplorerRow
from tests.service.conftest import (
    ALICE,
    BOB,
    CAROL,
    GUILD,
    SetClock,
    finishing_game,
    start_match,
)

Tally = dict[tuple[str, str], Counter[str]]


async def finish(service: MatchService, game: str, moves: list[str],
                 options: dict[str, object] | None = None, *, rated: bool = True,
                 resign_after: int | None = None, white: int = ALICE, black: int = BOB
                 ) -> int:
    """A match between ``white`` and ``black`` playing ``moves`` (to their end, or
    resigned by the player to move after ``resign_after`` of them)."""
    m = await service.challenge(GUILD, 20, white, game, opponents=[black], options=options,
                                rated=rated, seat=0)
    m = await service.accept(m.id, black)
    for n, text in enumerate(moves):
        if resign_after is not None and n == resign_after:
            break
        m = (await service.move(m.id, m.to_move[0], text)).match
    if m.status.is_live:
        await service.resign(m.id, m.to_move[0])
    await service.explorer_idle()  # counted in the background as it ended
    return m.id


async def brute_force(service: MatchService, match_ids: list[int]) -> Tally:
    """(position text, move) -> outcomes of the games that played it there, each game once,
    over the first EXPLORER_PLIES moves of each finished match's stored record."""
    tally: Tally = defaultdict(Counter)
    for match_id in match_ids:
        record = await service.record(match_id)
        if record.match.status is not MatchStatus.FINISHED:
            continue
        result = record.match.result
        assert result is not None
        seen: set[tuple[str, str]] = set()
        before = record.start
        moves = 0
        for ply in record.plies:
            if ply.move is not None and moves < EXPLORER_PLIES:
                moves += 1
                key = (before.to_text(), ply.canonical)
                if key not in seen:
                    seen.add(key)
                    assert ply.seat is not None
                    winners = {s.seat for s in record.match.seats
                               if s.user_id in result.winners}
                    outcome = ("draw" if not winners else
                               "win" if ply.seat in winners else "loss")
                    tally[key][outcome] += 1
            before = ply.position
    return tally


async def assert_matches(service: MatchService, game: str, match_ids: list[int],
                         tally: Tally, depth: int) -> int:
    """Explore every prefix up to ``depth`` moves of every game and compare with the
    brute-force tally of the position reached; how many nodes were compared."""
    v = rules.variant(read_config(game)[1].key)
    compared = 0
    for match_id in match_ids:
        record = await service.record(match_id)
        line = [p.canonical for p in record.plies if p.move is not None]
        for k in range(min(depth, len(line)) + 1):
            view = await service.explorer(GUILD, ALICE, game, " ".join(line[:k]))
            assert view.position is not None
            text = view.position.to_text()
            expected = {move: c for (t, move), c in tally.items() if t == text}
            got = {m.move: Counter({"win": m.wins, "draw": m.draws, "loss": m.losses})
                   for m in view.moves}
            assert {m: +c for m, c in got.items()} == {m: +c for m, c in expected.items()}
            assert all(m.games == sum(expected[m.move].values()) for m in view.moves)
            assert [m.games for m in view.moves] == sorted((m.games for m in view.moves),
                                                           reverse=True)
            compared += 1
            assert v.key == view.variant.key
    return compared


async def test_counts_equal_a_brute_force_count(service: MatchService) -> None:
    """Damas and Alquerque games played to their end or resigned: every node along every
    game's first moves holds exactly the brute-force count of its position."""
    ids: dict[str, list[int]] = {"damas": [], "alquerque": []}
    for game in ids:
        for seed in range(6):
            moves = finishing_game(game, {}, seed)
            assert moves is not None
            resign = None if seed % 2 else 3 + seed  # some end by the rules, some resigned
            ids[game].append(await finish(service, game, moves, resign_after=resign))
    for game, match_ids in ids.items():
        tally = await brute_force(service, match_ids)
        assert sum(sum(c.values()) for c in tally.values()) > 6 * 5
        assert await assert_matches(service, game, match_ids, tally, 8) > 20


async def test_transpositions_meet_and_a_game_counts_once(service: MatchService) -> None:
    """Two move orders reaching one Xiangqi position count the next move together. A
    position is its whole text: Xiangqi's counts the moves, so knights out and back do not
    bring the start position again."""
    a = await finish(service, "xiangqi", ["h3-e3", "h10-g8", "b1-c3", "e10-e9"],
                     resign_after=4)
    b = await finish(service, "xiangqi", ["b1-c3", "h10-g8", "h3-e3", "e10-e9"],
                     resign_after=4)
    c = await finish(service, "xiangqi", ["b1-c3", "b10-c8", "c3-b1", "c8-b10", "h3-e3"],
                     resign_after=5)
    after = await service.explorer(GUILD, ALICE, "xiangqi", "h3-e3 h10-g8 b1-c3")
    assert [(m.move, m.games) for m in after.moves] == [("e10-e9", 2)]
    start = await service.explorer(GUILD, ALICE, "xiangqi")
    assert {m.move: m.games for m in start.moves} == {"h3-e3": 1, "b1-c3": 2}
    back = await service.explorer(GUILD, ALICE, "xiangqi", "b1-c3 b10-c8 c3-b1 c8-b10")
    assert [(m.move, m.games) for m in back.moves] == [("h3-e3", 1)]
    tally = await brute_force(service, [a, b, c])
    assert await assert_matches(service, "xiangqi", [a, b, c], tally, 5) == 16


async def test_a_game_counts_once_for_a_move_it_played_twice(repo: Repository) -> None:
    """The store counts each (position, move) of a game once, and a game once."""
    rows = [ExplorerRow(7, "a1-b2", "win", 20.0), ExplorerRow(8, "b7-a6", "loss"),
            ExplorerRow(7, "a1-b2", "win", 20.0)]
    match_id = await finished_match_id(repo)
    assert await repo.index_game(match_id, GUILD, "damas", False, rows)
    assert not await repo.index_game(match_id, GUILD, "damas", False, rows)
    assert await repo.explorer_counts(GUILD, "damas", 7) == [
        ExplorerCount("a1-b2", 1, 1, 0, 0, 1, 20.0)]
    assert await repo.explorer_counts(GUILD, "damas", 8, imported=True) == []
    assert await repo.explorer_counts(GUILD, "xiangqi", 8) == []
    assert await repo.unindexed_games(0, 10) == []


async def finished_match_id(repo: Repository) -> int:
    service = MatchService(repo, NullNotifier(), SetClock())
    m = await start_match(service, "damas")
    await service.resign(m.id, m.to_move[0])
    return m.id


async def test_games_are_counted_as_they_end_and_the_backfill_never_counts_twice(
        service: MatchService, monkeypatch: pytest.MonkeyPatch) -> None:
    async def missed(event: object) -> None:  # the process stopped before counting
        return None

    moves = finishing_game("damas", {}, 3)
    assert moves is not None
    counted_live = await finish(service, "damas", moves, resign_after=6)
    assert (await service.explorer(GUILD, ALICE, "damas")).games == 1
    with monkeypatch.context() as patch:  # the process stopped before counting these
        patch.setattr(service._explorer, "_count_ended", missed)
        missed_ids = [await finish(service, "damas", moves, resign_after=n)
                      for n in (2, 4)]
    assert (await service.explorer(GUILD, ALICE, "damas")).games == 1
    live = await start_match(service, "damas")  # a live game is never counted
    await service.move(live.id, live.to_move[0], moves[0])
    assert await service.backfill_explorer(batch=1) == 2
    assert await service.backfill_explorer() == 0
    view = await service.explorer(GUILD, ALICE, "damas")
    assert view.games == 3 and [m.move for m in view.moves] == [moves[0]]
    tally = await brute_force(service, [counted_live, *missed_ids])
    assert await assert_matches(service, "damas", [counted_live, *missed_ids], tally, 7) == 15


class FirstMove:
    """A computer player that plays the first legal move."""

    async def pick(self, position: rules.Position, seat: int, level: int, *,
                   seed: int) -> str:
        return position.variant.format_move(position, next(iter(position.legal_moves())))

    async def weigh(self, moves: object) -> list[None]:
        return []


async def test_games_against_the_computer_and_other_servers_are_not_counted(
        repo: Repository) -> None:
    service = MatchService(repo, NullNotifier(), SetClock(), picker=FirstMove())
    m = await service.challenge_computer(GUILD, 20, ALICE, "damas", level=1, seat=0)
    p, _ = await service.position(m.id)
    await service.move(m.id, ALICE, p.variant.format_move(p, next(iter(p.legal_moves()))))
    await service.computers_idle()  # it answered
    await service.resign(m.id, ALICE)
    await service.explorer_idle()
    assert (await service.get_match(m.id)).status is MatchStatus.FINISHED
    assert (await service.explorer(GUILD, ALICE, "damas")).moves == ()
    moves = finishing_game("damas", {}, 1)
    assert moves is not None
    await finish(service, "damas", moves, resign_after=3)
    assert (await service.explorer(GUILD + 1, ALICE, "damas")).moves == ()
    assert (await service.explorer(GUILD, CAROL, "damas")).games == 1


async def test_score_and_rating_are_for_the_player_of_the_move(service: MatchService) -> None:
    """Red resigns after his first move: that move scores 0 for Red and Black's answer 1;
    the rating shown is the mover's rating on the game's ladder."""
    await finish(service, "xiangqi", ["h3-e3", "h10-g8"], resign_after=2)
    red = (await service.explorer(GUILD, ALICE, "xiangqi")).moves[0]
    black = (await service.explorer(GUILD, ALICE, "xiangqi", "h3-e3")).moves[0]
    assert (red.move, red.wins, red.losses, red.score) == ("h3-e3", 0, 1, 0.0)
    assert (black.move, black.wins, black.score) == ("h10-g8", 1, 1.0)
    alice = await service.rank_of(GUILD, "xiangqi", ALICE)
    bob = await service.rank_of(GUILD, "xiangqi", BOB)
    assert alice is not None and bob is not None
    assert red.rating == pytest.approx(alice.ordinal)
    assert black.rating == pytest.approx(bob.ordinal)
    await finish(service, "xiangqi", ["h3-e3", "h10-g8"], rated=False, resign_after=2)
    red = (await service.explorer(GUILD, ALICE, "xiangqi")).moves[0]
    assert (red.games, red.rating) == (2, pytest.approx(alice.ordinal))


async def test_configurations_are_apart_and_querni_follows_lines(
        service: MatchService) -> None:
    two = {"players": 2, "rules": "grande"}
    moves = finishing_game("alquerque-grande", two, 5)
    assert moves is not None
    await finish(service, "alquerque-grande", moves, two, resign_after=3)
    assert (await service.explorer(GUILD, ALICE, "alquerque-grande")).moves == ()
    view = await service.explorer(GUILD, ALICE, "alquerque-grande players=2 rules=grande")
    assert [m.move for m in view.moves] == [moves[0]]
    # Querni: two different deals, the same first moves; lines, not positions
    v = rules.variant("querni")
    line: list[str] = []
    deals = [v.start(seed=11), v.start(seed=12)]
    for _ in range(2):  # a move legal after either deal
        texts = [{v.format_move(d, m) for m in d.legal_moves()} for d in deals]
        line.append(sorted(texts[0] & texts[1])[0])
        deals = [d.play(v.parse_move(d, line[-1])) for d in deals]
    for seed in (11, 12):
        await finish(service, "querni", line, {"seed": seed}, resign_after=2)
    view = await service.explorer(GUILD, ALICE, "querni")
    assert view.position is None
    assert [(m.move, m.games) for m in view.moves] == [(line[0], 2)]
    deeper = await service.explorer(GUILD, ALICE, "querni", ", ".join(line))
    assert deeper.line == tuple(line) and deeper.moves == ()
    spaced = await service.explorer(GUILD, ALICE, "querni", " ".join(line))
    assert spaced.line == tuple(line)
    second = await service.explorer(GUILD, ALICE, "querni", line[0].upper())
    assert [(m.move, m.games, m.wins) for m in second.moves] == [(line[1], 2, 2)]
    with pytest.raises(InvalidOption, match="never played there"):
        await service.explorer(GUILD, ALICE, "querni", "pass")


def long_line(game: str, plies: int, seed: int = 3) -> list[str]:
    """``plies`` seeded random moves that do not end the game."""
    v, rng = rules.variant(game), random.Random(seed)
    p, line = v.start(), []
    while len(line) < plies:
        move = rng.choice([m for m in p.legal_moves() if p.play(m).outcome() is None])
        line.append(v.format_move(p, move))
        p = p.play(move)
    return line


DEEP_LINE = long_line("xiangqi", 50)  # past the 40 moves counted


@pytest.mark.parametrize(("game", "line", "source", "said"), [
    ("chess", "", "all", "there is no game called 'chess'"),
    ("xiangqi", "h3-e3 h3-e4", "all", "move 2 of the line (h3-e4) cannot be played"),
    ("xiangqi", "", "everything", "the games are one of: all, played, imported"),
    ("alquerque-grande players=3", "", "all", "the explorer has no alquerque-grande with"),
    ("damas colour", "", "all", "colour is not an option"),
    ("damas", "h3-g4 " * 300, "all", "that line is too long"),
    ("damas", "h3-g4 \x00", "all", "contains the control character U+0000"),
])
async def test_bad_requests_are_refused_in_words(service: MatchService, repo: Repository,
                                                 game: str, line: str, source: str,
                                                 said: str) -> None:
    """Every refusal says why; a long line of the explorer's depth is read (a move
    deeper than the 40 counted shows nothing, it is no error)."""
    deep = await service.explorer(GUILD, ALICE, "xiangqi", ", ".join(DEEP_LINE))
    assert len(deep.line) == len(DEEP_LINE) == 50 and deep.moves == ()
    with pytest.raises(InvalidOption) as refused:
        await service.explorer(GUILD, ALICE, game, line, source)
    assert said in str(refused.value)


async def test_imported_games_are_counted_apart(service: MatchService,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    async def missed(event: object) -> None:  # the process stopped before counting
        return None

    moves = finishing_game("damas", {}, 2)
    assert moves is not None
    await finish(service, "damas", moves, resign_after=2)
    with monkeypatch.context() as patch:
        patch.setattr(service._explorer, "_count_ended", missed)
        imported = await finish(service, "damas", moves, resign_after=3)
    assert await service._explorer.index_match(imported, imported=True)
    assert not await service._explorer.index_match(imported, imported=True)
    assert await service.backfill_explorer() == 0
    for source, games in (("played", 1), ("imported", 1), ("all", 2)):
        view = await service.explorer(GUILD, ALICE, "damas", moves[0], source)
        assert [(m.move, m.games) for m in view.moves] == [(moves[1], games)], source


async def test_a_place_is_named_in_few_characters_and_a_long_one_kept_by_mark(
        service: MatchService, repo: Repository) -> None:
    """The name of a place an answer's buttons keep: the place itself when it fits the
    room given, else a short mark the store keeps while answers show it (the same for
    the same place, found in its own server only)."""
    short = await service.explorer(GUILD, ALICE, "xiangqi", "h3-e3", "played")
    named = await service.explorer_token(GUILD, ALICE, short, 85)
    assert named == "pxiangqi;h3-e3"
    deep = await service.explorer(GUILD, ALICE, "xiangqi", ", ".join(DEEP_LINE))
    mark = await service.explorer_token(GUILD, ALICE, deep, 85)
    assert mark.startswith("#") and len(mark) == 17
    assert await service.explorer_token(GUILD, ALICE, deep, 85) == mark
    assert await service.explorer_token(GUILD, ALICE, short, 10) != named  # no room
    for token, view in ((named, short), (mark, deep)):
        place = await service.explorer_named(GUILD, BOB, token)
        assert place is not None
        assert (place.config, place.source, place.line) == (view.config, view.source,
                                                           view.line)
    assert await service.explorer_named(GUILD + 1, ALICE, mark) is None
    assert await service.explorer_named(GUILD, ALICE, "#" + "a" * 16) is None
    assert await service.explorer_named(GUILD, ALICE, "nothing") is None


async def test_the_sweep_removes_the_places_no_answer_showed_for_a_month(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A place kept by mark is removed by the sweep once no answer showed it for
    ``PLACE_KEPT`` (showing it again dates it anew); its mark then names nothing (the
    adapter says to run /explorer again). A process removes hourly, ``PRUNE_BATCH`` at
    most, and after a full batch goes on at its next sweep."""
    from service import explorer
    from storage import MemoryRepository
    monkeypatch.setattr(explorer, "PRUNE_BATCH", 2)
    repo, clock = MemoryRepository(), SetClock()
    service = MatchService(repo, NullNotifier(), clock)
    removals: list[int] = []
    prune = repo.prune_explorer_places

    async def counted(*args: object) -> int:
        removals.append(await prune(*args))  # type: ignore[arg-type]
        return removals[-1]
    monkeypatch.setattr(repo, "prune_explorer_places", counted)
    views = [await service.explorer(GUILD, ALICE, "xiangqi", ", ".join(DEEP_LINE[:n]))
             for n in (30, 31, 32, 33)]
    marks = [await service.explorer_token(GUILD, ALICE, v, 85) for v in views]
    assert all(m.startswith("#") for m in marks)

    async def kept() -> list[bool]:
        return [await service.explorer_named(GUILD, BOB, m) is not None for m in marks]
    await service.sweep()
    clock.advance(minutes=59)
    await service.sweep()  # within the hour after the last removal: none
    assert removals == [0] and await kept() == [True] * 4
    clock.advance(days=20)
    assert await service.explorer_token(GUILD, ALICE, views[0], 85) == marks[0]  # shown
    clock.advance(days=10, minutes=2)  # the others: unused for 30 days and more
    await service.sweep()
    assert removals == [0, 2] and (await kept()).count(True) == 2
    clock.advance(minutes=1)
    await service.sweep()  # a full batch: on at the next sweep
    assert removals == [0, 2, 1] and await kept() == [True, False, False, False]
    clock.advance(minutes=1)
    await service.sweep()  # then hourly again
    assert removals == [0, 2, 1]
    clock.advance(days=20)  # 30 days and more since it was last shown
    await service.sweep()
    assert removals == [0, 2, 1, 1] and await kept() == [False] * 4
