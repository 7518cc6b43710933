"""Tournaments played through the service (memory and SQLite repositories, the virtual
clock): every game is an ordinary match made by challenge/accept; results come from the
matches as they end; rounds follow each other without anyone pairing by hand."""

from __future__ import annotations

import itertools
import random
from collections import Counter
from pathlib import Path

import pytest

from locales.i18n import people_mentions, render
from service import InvalidOption, MatchService, MatchStatus, NotAllowed, TurnStarted
from service.events import StandingsChanged
from service.outbox import event_of
from service.tournament_records import TournamentRecord, TournamentStatus
from service.tournaments import Format, Result
from service.tournaments.model import tournament_title
from storage import SqliteRepository
from tests.service.conftest import CHANNEL, GUILD, Recorder, SetClock, play_random

ORGANISER = 900


async def play_round(service: MatchService, t: TournamentRecord, rng: random.Random,
                     skip: frozenset[int] = frozenset()) -> None:
    """Finish every running game of the current round: a resignation (either side) or an
    agreed draw. Games with a player in ``skip`` are left running."""
    for g in t.games_of_round(t.round):
        if g.match_id is None or g.result is not None or {g.first, g.second} & skip:
            continue
        m = await service.get_match(g.match_id)
        assert m.status is MatchStatus.ACTIVE
        x = rng.random()
        if x < 0.3:
            await service.offer_draw(g.match_id, g.first)
            await service.accept_draw(g.match_id, g.second or 0)
        else:
            await service.resign(g.match_id, g.first if x < 0.65 else g.second or 0)


async def test_an_eight_player_swiss_runs_to_final_standings(
        service: MatchService, clock: SetClock, recorder: Recorder) -> None:
    rng = random.Random(3)
    t = await service.create_tournament(GUILD, CHANNEL, ORGANISER, "xiangqi",
                                        fmt="swiss", rounds=5, name="Club Swiss", days=2)
    players = list(range(1, 9))
    for p in players:
        t = await service.join_tournament(t.id, p)
    with pytest.raises(NotAllowed, match="only the organiser"):
        await service.start_tournament(t.id, 1)
    t = await service.start_tournament(t.id, ORGANISER)
    assert t.status is TournamentStatus.RUNNING and t.round == 1
    first = t.games_of_round(1)
    assert len(first) == 4 and all(g.match_id is not None for g in first)
    started = {e.match.id for e in recorder.of(TurnStarted)}
    assert {g.match_id for g in first} <= started  # each game announced like any match
    for g in first:  # the first player sits in seat 0
        m = await service.get_match(g.match_id or 0)
        assert [s.user_id for s in sorted(m.seats, key=lambda s: s.seat or 0)] == \
            [g.first, g.second]

    await play_round(service, t, rng)
    t = await service.get_tournament(t.id)
    assert t.round == 2

    # round 2: player 8 lets his clock run out (no move: the game is forfeited to the
    # opponent and counts as a timeout); everyone else finishes
    await play_round(service, t, rng, skip=frozenset({8}))
    clock.advance(days=3)
    await service.sweep()
    t = await service.get_tournament(t.id)
    late = next(g for g in t.games_of_round(2) if 8 in (g.first, g.second))
    assert late.timed_out == 8 and late.result in (Result.FIRST_WINS_FORFEIT,
                                                   Result.SECOND_WINS_FORFEIT)
    assert t.round == 3 and 8 not in t.withdrawn

    # round 3: player 5 withdraws mid-round (his game is resigned); he is paired no more
    t = await service.leave_tournament(t.id, 5)
    assert 5 in t.withdrawn
    await play_round(service, t, rng)
    t = await service.get_tournament(t.id)
    while t.status is TournamentStatus.RUNNING:
        assert all(5 not in g.players for g in [x.game() for x in t.games_of_round(t.round)])
        await play_round(service, t, rng)
        t = await service.get_tournament(t.id)
    assert t.status is TournamentStatus.FINISHED and t.round == 5

    games = [g.game() for g in t.games]
    assert all(g.result is not None for g in games)
    met = Counter(frozenset(g.players) for g in games if g.second is not None)
    assert max(met.values()) == 1  # no repeats in 5 rounds of 8
    byes = Counter(g.first for g in games if g.second is None)
    assert all(n == 1 for n in byes.values())
    rows = await service.tournament_standings(t.id)
    assert sorted(r.player for r in rows) == players
    assert sum(r.points for r in rows) == sum(
        1.0 for g in games if g.result is not None and g.result is not Result.BOTH_FORFEIT)
    table = (await service.tournament_table(t.id, {p: f"player{p}" for p in players})
             ).shown("en-US")
    assert table.subtitle.endswith("final standings after 5 rounds")
    assert table.rows[0][0] == "1" and "(withdrawn)" in table.rows[
        next(i for i, r in enumerate(rows) if r.player == 5)][1]
    csv = await service.tournament_csv(t.id)
    assert csv.count("\n") == 9


async def test_a_five_player_double_round_robin_with_a_timeout_and_a_withdrawal(
        service: MatchService, clock: SetClock) -> None:
    rng = random.Random(5)
    t = await service.create_tournament(GUILD, CHANNEL, ORGANISER, "damas",
                                        fmt="double round robin", cap=5, days=1)
    for p in range(11, 16):
        t = await service.join_tournament(t.id, p)
    assert t.status is TournamentStatus.RUNNING and t.rounds == 10  # the cap started it
    timed_out_once = False
    while t.status is TournamentStatus.RUNNING:
        if t.round == 2 and not timed_out_once:
            # a game where both have moved: the player to move times out and loses
            g = next(g for g in t.games_of_round(2) if g.match_id is not None)
            await play_random(service, g.match_id or 0, 2)
            clock.advance(days=2)
            await service.sweep()
            timed_out_once = True
            t = await service.get_tournament(t.id)
            done = next(x for x in t.games if x.match_id == g.match_id)
            assert done.timed_out in (g.first, g.second) and done.result is not None
            assert done.result in (Result.FIRST_WINS, Result.SECOND_WINS)
        if t.round == 4 and 13 not in t.withdrawn:
            t = await service.remove_from_tournament(t.id, ORGANISER, 13)
            # refusals name the player as the medium can (nobody saw 13's or 99's
            # name: Discord's mention; elsewhere neutral words), never "that player"
            # where Discord could say who
            for who, said in ((13, "<@13> has already withdrawn"),
                              (99, "<@99> is not in Spanish draughts double round robin")):
                with pytest.raises(NotAllowed) as refused:
                    await service.remove_from_tournament(t.id, ORGANISER, who)
                with people_mentions():
                    assert render(refused.value.text, "en-US") == said
            with pytest.raises(NotAllowed, match=r"^you have already withdrawn$"):
                await service.leave_tournament(t.id, 13)
        await play_round(service, t, rng)
        t = await service.get_tournament(t.id)
    assert t.status is TournamentStatus.FINISHED and t.round == 10
    games = [g.game() for g in t.games]
    # every pair meets twice, once with each colour; the withdrawn player's games after
    # his withdrawal are forfeits with no match
    pairs = Counter((g.first, g.second) for g in games if g.second is not None)
    assert len(pairs) == 20 and set(pairs.values()) == {1}
    late = [x for x in t.games if 13 in (x.first, x.second) and x.round > 4]
    assert late and all(x.match_id is None and x.result is not None and
                        not x.result.played for x in late)
    rests = Counter(g.first for g in games if g.second is None)
    assert rests == dict.fromkeys(range(11, 16), 2)
    rows = await service.tournament_standings(t.id)
    assert rows[0].place == 1 and rows[0].points == max(r.points for r in rows)
    by = {r.player: r for r in rows}
    assert by[13].withdrawn and by[13].points <= 4


async def test_two_timeouts_withdraw_a_player(service: MatchService, clock: SetClock
                                              ) -> None:
    t = await service.create_tournament(GUILD, CHANNEL, ORGANISER, "xiangqi",
                                        fmt="round robin", days=1)
    for p in (1, 2, 3, 4):
        t = await service.join_tournament(t.id, p)
    t = await service.start_tournament(t.id, ORGANISER)
    victim = t.players[0]
    for _ in range(2):
        for g in t.games_of_round(t.round):
            if victim not in (g.first, g.second):
                await service.resign(g.match_id or 0, g.first)
        clock.advance(days=2)
        await service.sweep()
        t = await service.get_tournament(t.id)
    assert victim in t.withdrawn
    remaining = [g for g in t.games if victim in (g.first, g.second) and g.round > 2]
    assert all(g.match_id is None and g.result is not None for g in remaining)


async def test_knockout_replays_a_drawn_game_with_colours_swapped(
        service: MatchService) -> None:
    t = await service.create_tournament(GUILD, CHANNEL, ORGANISER, "alquerque",
                                        fmt="knockout")
    for p in (1, 2, 3):
        t = await service.join_tournament(t.id, p)
    t = await service.start_tournament(t.id, ORGANISER)
    [tie] = [g for g in t.games_of_round(1) if g.second is not None]
    await service.offer_draw(tie.match_id or 0, tie.first)
    await service.accept_draw(tie.match_id or 0, tie.second or 0)
    t = await service.get_tournament(t.id)
    replay = [g for g in t.games_of_round(1) if g.replay == 1]
    assert len(replay) == 1 and (replay[0].first, replay[0].second) == (tie.second, tie.first)
    await service.resign(replay[0].match_id or 0, replay[0].first)
    t = await service.get_tournament(t.id)
    assert t.round == 2
    [final] = t.games_of_round(2)
    await service.resign(final.match_id or 0, final.second or 0)
    t = await service.get_tournament(t.id)
    assert t.status is TournamentStatus.FINISHED
    rows = await service.tournament_standings(t.id)
    assert rows[0].player == final.first


async def test_creation_refuses_what_cannot_be_run(service: MatchService) -> None:
    with pytest.raises(InvalidOption, match="two-player games: Alquerque grande for 4"):
        await service.create_tournament(GUILD, CHANNEL, ORGANISER, "alquerque-grande",
                                        fmt="round robin", options={"players": 4})
    ok = await service.create_tournament(GUILD, CHANNEL, ORGANISER, "alquerque-grande",
                                         fmt="round robin", options={"players": 2})
    assert ok.options["players"] == 2
    with pytest.raises(InvalidOption, match="give the rounds option"):  # none given
        await service.create_tournament(GUILD, CHANNEL, ORGANISER, "xiangqi", fmt="swiss")
    with pytest.raises(InvalidOption, match="1 to 30 rounds"):
        await service.create_tournament(GUILD, CHANNEL, ORGANISER, "xiangqi", fmt="swiss",
                                        rounds=31)
    with pytest.raises(InvalidOption, match="no tournament format"):
        await service.create_tournament(GUILD, CHANNEL, ORGANISER, "xiangqi", fmt="arena")
    with pytest.raises(InvalidOption, match="cap"):
        await service.create_tournament(GUILD, CHANNEL, ORGANISER, "xiangqi", fmt="rr",
                                        cap=1)
    with pytest.raises(InvalidOption, match="sets its own rounds"):
        await service.create_tournament(GUILD, CHANNEL, ORGANISER, "xiangqi", fmt="rr",
                                        rounds=3)
    # a name is one line: a newline or a tab pasted in is a space; a control character
    # is refused, named by its code point; nothing but white space is no name
    folded = await service.create_tournament(GUILD, CHANNEL, ORGANISER, "xiangqi", fmt="rr",
                                             name=" Spring\n\tOpen\r\n2026\u2028")
    assert folded.name == "Spring Open 2026"
    with pytest.raises(InvalidOption, match="control character U\\+0007"):
        await service.create_tournament(GUILD, CHANNEL, ORGANISER, "xiangqi", fmt="rr",
                                        name="Spring\aOpen")
    with pytest.raises(InvalidOption, match="1 to 80 characters"):
        await service.create_tournament(GUILD, CHANNEL, ORGANISER, "xiangqi", fmt="rr",
                                        name="\n\t ")
    # a name stored before it was folded is shown on one line too
    assert tournament_title("Old\nCup", "xiangqi", "Xiangqi", Format.ROUND_ROBIN) == "Old Cup"
    t = await service.create_tournament(GUILD, CHANNEL, ORGANISER, "xiangqi", fmt="rr",
                                        registration_days=2)
    t = await service.join_tournament(t.id, 1)
    with pytest.raises(NotAllowed, match="already in"):
        await service.join_tournament(t.id, 1)
    with pytest.raises(NotAllowed, match="at least 2 players"):
        await service.start_tournament(t.id, ORGANISER)
    t = await service.leave_tournament(t.id, 1)
    assert t.players == ()


async def test_registration_deadline_starts_or_cancels(service: MatchService,
                                                       clock: SetClock) -> None:
    few = await service.create_tournament(GUILD, CHANNEL, ORGANISER, "xiangqi", fmt="rr",
                                          registration_days=1)
    await service.join_tournament(few.id, 1)
    enough = await service.create_tournament(GUILD, CHANNEL, ORGANISER, "xiangqi",
                                             fmt="swiss", rounds=3, registration_days=1)
    for p in (1, 2, 3):
        await service.join_tournament(enough.id, p)
    clock.advance(days=1, seconds=1)
    await service.sweep()
    assert (await service.get_tournament(few.id)).status is TournamentStatus.CANCELLED
    started = await service.get_tournament(enough.id)
    assert started.status is TournamentStatus.RUNNING and started.round == 1
    assert started.format is Format.SWISS


async def test_a_restart_in_the_middle_of_a_round_carries_on(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    clock = SetClock()
    repo = await SqliteRepository.open(tmp_path / "t.db")
    service = MatchService(repo, Recorder(), clock, rng=random.Random(1))
    t = await service.create_tournament(GUILD, CHANNEL, ORGANISER, "xiangqi",
                                        fmt="swiss", rounds=2)
    for p in (1, 2, 3, 4):
        await service.join_tournament(t.id, p)
    t = await service.start_tournament(t.id, ORGANISER)
    one, two = t.games_of_round(1)
    await service.resign(one.match_id or 0, one.first)

    # the process dies as the second game ends: the match result is stored, the
    # tournament's record of it never is
    async def dead(*args: object) -> None:
        raise RuntimeError("process stopped")
    monkeypatch.setattr(repo, "save_tournament", dead)
    await service.resign(two.match_id or 0, two.second or 0)
    monkeypatch.undo()
    await repo.close()
    rec_two = two

    repo = await SqliteRepository.open(tmp_path / "t.db")
    again = MatchService(repo, Recorder(), clock, rng=random.Random(2))
    t = await again.get_tournament(t.id)
    assert t.round == 1 and [g.result for g in t.games_of_round(1)][1] is None
    await again.sweep()  # what every start-up and periodic sweep does
    t = await again.get_tournament(t.id)
    done = next(g for g in t.games_of_round(1) if g.match_id == rec_two.match_id)
    # resigned before anyone moved: the match is void, the tournament game a forfeit
    assert done.result is Result.FIRST_WINS_FORFEIT and done.timed_out is None
    assert t.round == 2 and all(g.match_id is not None for g in t.games_of_round(2))
    for g in t.games_of_round(2):
        await again.resign(g.match_id or 0, g.first)
    t = await again.get_tournament(t.id)
    assert t.status is TournamentStatus.FINISHED
    await repo.close()


async def test_a_stop_between_making_a_game_and_attaching_it_makes_no_second_game(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    clock = SetClock()
    repo = await SqliteRepository.open(tmp_path / "t.db")
    service = MatchService(repo, Recorder(), clock, rng=random.Random(1))
    t = await service.create_tournament(GUILD, CHANNEL, ORGANISER, "xiangqi", fmt="rr")
    for p in (1, 2):
        await service.join_tournament(t.id, p)
    real = repo.save_tournament
    calls = 0

    async def dies_at_the_third_save(before: TournamentRecord, after: TournamentRecord
                                     ) -> TournamentRecord:
        nonlocal calls
        calls += 1
        if calls == 3:  # started, round 1 written, then: attaching its match
            raise RuntimeError("process stopped")
        return await real(before, after)
    monkeypatch.setattr(repo, "save_tournament", dies_at_the_third_save)
    with pytest.raises(RuntimeError):
        await service.start_tournament(t.id, ORGANISER)
    monkeypatch.undo()
    await repo.close()

    repo = await SqliteRepository.open(tmp_path / "t.db")
    again = MatchService(repo, Recorder(), clock, rng=random.Random(2))
    [open_one] = await repo.matches_of(1, GUILD)
    assert open_one.status is MatchStatus.OPEN
    await again.sweep()
    t = await again.get_tournament(t.id)
    [game] = t.games_of_round(1)
    assert game.match_id == open_one.id  # the challenge made before the stop, adopted
    assert [m.id for m in await repo.matches_of(1, GUILD)] == [open_one.id]
    assert (await again.get_match(open_one.id)).status is MatchStatus.ACTIVE
    await repo.close()


async def test_standings_are_announced_through_the_outbox_after_each_game_and_at_the_end(
        service: MatchService, recorder: Recorder) -> None:
    """Each counted game posts the standings (stored in the outbox with the change, on
    the lane of the match that ended, after its own entries); the last one is final and
    names the sole winner. The stored entry reads back as the very event announced."""
    t = await service.create_tournament(GUILD, CHANNEL, ORGANISER, "xiangqi",
                                        fmt="round robin", cap=3, name="Trio", days=2)
    for p in (21, 22, 23):
        t = await service.join_tournament(t.id, p)
    assert t.status is TournamentStatus.RUNNING
    games = 0
    while t.status is TournamentStatus.RUNNING:
        for g in t.games_of_round(t.round):
            if g.match_id is None or g.result is not None:
                continue
            loser = g.second if g.first == 21 else g.first  # 21 wins every game it plays
            if 21 not in (g.first, g.second):
                loser = g.first
            await service.resign(g.match_id, loser or 0)
            games += 1
        t = await service.get_tournament(t.id)
    posted = [e for e in recorder.of(StandingsChanged) if isinstance(e, StandingsChanged)]
    assert [e.final for e in posted] == [False] * games + [True]
    assert all(e.tournament_id == t.id and e.channel_id == CHANNEL for e in posted)
    final = posted[-1]
    assert final.winner == 21
    shown = final.table.shown("en-US")
    number = t.players.index(21) + 1  # by the tournament's order, never "21"
    assert shown.rows[0][1] == f"Player {number}" and shown.rows[0][2] == "2"
    assert "final standings" in shown.subtitle
    # each game's update shows one more point handed out (early resignations: forfeits)
    points = [sum(float(r[2]) for r in e.table.shown("en-US").rows) for e in posted[:-1]]
    assert all(b > a for a, b in itertools.pairwise(points))
    stored = [e for e in await service.repository.pending_outbox(limit=1000)
              if e.kind == "standings"]
    assert [event_of(e) for e in stored] == posted
    last_game = max(g.match_id or 0 for g in t.games)
    assert stored[-1].match_id == last_game and stored[-1].version == -t.version
    ended = [e for e in await service.repository.pending_outbox(last_game)]
    assert [e.kind for e in ended if e.kind != "offer-settled"][-3:] == \
        ["result", "standings", "standings"]
