"""The match use-cases through the service, on both repositories, with real games."""

from __future__ import annotations

import random

import pytest

import rules
from service import (
    ChallengeClosed,
    ChallengeReceived,
    DeadlineReminder,
    DrawDeclined,
    DrawOffered,
    InvalidOption,
    LobbyChanged,
    MatchEnded,
    MatchNotStarted,
    MatchOver,
    MatchService,
    MatchStatus,
    NotAllowed,
    NotAPlayer,
    OfferSettled,
    PlayerOut,
    SetupSubmitted,
    TurnStarted,
)
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
    finishing_game,
    play_random,
    start_match,
    told,
)

# ---------------------------------------------------------------- challenges


async def test_direct_challenge_accept_and_first_moves(service: MatchService,
                                                       recorder: Recorder) -> None:
    m = await service.challenge(GUILD, CHANNEL, ALICE, "xiangqi", opponents=[BOB], seat="red")
    assert m.status is MatchStatus.OPEN and m.invited == (BOB,) and m.seats == ()
    assert isinstance(recorder.events[-1], ChallengeReceived)
    assert recorder.events[-1].to == (BOB,)
    m = await service.accept(m.id, BOB)
    assert m.status is MatchStatus.ACTIVE
    assert [(s.seat, s.user_id, s.name) for s in m.seats] == [(0, ALICE, "Red"),
                                                              (1, BOB, "Black")]
    assert m.to_move == (ALICE,) and m.days_per_move == 3
    # the start, then the challenge's post is told what became of it
    assert isinstance(recorder.events[-2], TurnStarted)
    assert recorder.events[-1] == OfferSettled(m, "challenge", "accepted", BOB)
    r = await service.move(m.id, ALICE, "C2.5")  # WXF input is accepted by the game
    assert r.move == "h3-e3" and r.display == "h3-e3 (C2.5)" and not r.ended
    assert r.match.ply == 1 and r.match.to_move == (BOB,)
    assert r.match.last_move == "h3-e3 (C2.5)"
    assert r.match.position_text == rules.variant("xiangqi").start().play(
        rules.variant("xiangqi").parse_move(rules.variant("xiangqi").start(), "h3-e3")
    ).to_text()


async def test_open_challenge_anyone_but_the_challenger_accepts(service: MatchService) -> None:
    m = await service.challenge(GUILD, CHANNEL, ALICE, "damas")
    assert m.invited == () and [x.id for x in await service.open_challenges(GUILD)] == [m.id]
    with pytest.raises(NotAllowed, match="your own challenge"):
        await service.accept(m.id, ALICE)
    m = await service.accept(m.id, CAROL)
    assert sorted(m.players()) == sorted([ALICE, CAROL])
    assert await service.open_challenges(GUILD) == []


async def test_a_direct_challenge_is_for_the_invited_only(service: MatchService) -> None:
    m = await service.challenge(GUILD, CHANNEL, ALICE, "xiangqi", opponents=[BOB])
    with pytest.raises(NotAllowed, match="invited"):
        await service.accept(m.id, CAROL)
    with pytest.raises(NotAPlayer):
        await service.decline(m.id, CAROL)


async def test_decline_and_cancel(service: MatchService, recorder: Recorder) -> None:
    m = await service.challenge(GUILD, CHANNEL, ALICE, "xiangqi", opponents=[BOB])
    m = await service.decline(m.id, BOB)
    assert m.status is MatchStatus.DECLINED
    assert isinstance(recorder.events[-2], ChallengeClosed)
    assert recorder.events[-1] == OfferSettled(m, "challenge", "declined", BOB)
    with pytest.raises(MatchOver, match="declined"):
        await service.accept(m.id, BOB)
    m2 = await service.challenge(GUILD, CHANNEL, ALICE, "xiangqi", opponents=[BOB])
    with pytest.raises(NotAPlayer):
        await service.cancel(m2.id, CAROL)
    m2 = await service.cancel(m2.id, ALICE)
    assert m2.status is MatchStatus.CANCELLED
    assert recorder.events[-1] == OfferSettled(m2, "challenge", "withdrawn", ALICE)
    assert await service.games_of(GUILD, BOB) == []


async def test_random_seating_uses_both_colours(repo, clock) -> None:  # type: ignore[no-untyped-def]
    seen = set()
    for seed in range(12):
        s = MatchService(repo, Recorder(), clock, rng=random.Random(seed))
        m = await s.challenge(GUILD, CHANNEL, ALICE, "xiangqi", opponents=[BOB])
        m = await s.accept(m.id, BOB)
        seen.add(m.seat_of(ALICE))
    assert seen == {0, 1}


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"game": "chess"}, "no game called"),
    ({"game": "xiangqi", "days": 0}, "1 to 14"),
    ({"game": "xiangqi", "days": 15}, "1 to 14"),
    ({"game": "xiangqi", "options": {"speed": "fast"}}, "no option"),
    ({"game": "alquerque-grande", "options": {"players": "3"}}, "cannot be"),
    ({"game": "alquerque-grande", "options": {"players": "2", "mode": "fast"}}, "mode"),
    ({"game": "xiangqi", "seat": "green"}, "no seat"),
    ({"game": "xiangqi", "opponents": [ALICE]}, "yourself"),
    ({"game": "xiangqi", "opponents": [BOB, CAROL]}, "at most 1"),
])
async def test_bad_challenges_are_refused(service: MatchService, kwargs: dict[str, object],
                                          message: str) -> None:
    with pytest.raises(InvalidOption, match=message):
        await service.challenge(GUILD, CHANNEL, ALICE, **kwargs)  # type: ignore[arg-type]
    assert await service.games_of(GUILD, ALICE) == []


async def test_days_default_comes_from_the_guild(service: MatchService) -> None:
    assert (await service.get_guild_settings(GUILD)).default_days == 3
    await service.update_guild_settings(GUILD, default_days=5, reminders=False)
    m = await service.challenge(GUILD, CHANNEL, ALICE, "xiangqi", opponents=[BOB])
    assert m.days_per_move == 5
    m = await service.challenge(GUILD, CHANNEL, ALICE, "damas", opponents=[BOB], days=14)
    assert m.days_per_move == 14
    with pytest.raises(InvalidOption):
        await service.update_guild_settings(GUILD, default_days=30)
    s = await service.get_guild_settings(GUILD)
    assert (s.default_days, s.reminders, s.use_threads) == (5, False, True)


async def test_user_prefs(service: MatchService) -> None:
    assert (await service.get_user_prefs(ALICE)).notify == "mention"
    assert (await service.update_user_prefs(ALICE, "DM")).notify == "dm"
    assert (await service.get_user_prefs(ALICE)).notify == "dm"
    with pytest.raises(InvalidOption):
        await service.update_user_prefs(ALICE, "pigeon")


async def test_threads(service: MatchService) -> None:
    m = await start_match(service)
    assert await service.match_in_thread(999) is None
    m = await service.attach_thread(m.id, 999, 77)
    assert (m.thread_id, m.channel_id) == (999, 77)
    found = await service.match_in_thread(999)
    assert found is not None and found.id == m.id


# ---------------------------------------------------------------- 4-player lobbies


async def test_lobby_fills_with_chosen_seats_and_teams(service: MatchService,
                                                       recorder: Recorder) -> None:
    m = await service.challenge(GUILD, CHANNEL, ALICE, "alquerque-grande",
                                opponents=[BOB], options={"players": "4", "mode": "teams"},
                                seat="white")
    assert m.status is MatchStatus.LOBBY and m.seat_count == 4
    m = await service.join(m.id, BOB, seat="black")
    assert isinstance(recorder.events[-1], LobbyChanged)
    with pytest.raises(NotAllowed, match="taken"):
        await service.join(m.id, CAROL, seat="black")
    m = await service.join(m.id, CAROL, seat=1)
    with pytest.raises(NotAllowed, match="your own"):
        await service.join(m.id, ALICE)
    m = await service.join(m.id, DAVE)
    assert m.status is MatchStatus.ACTIVE
    seats = {s.user_id: (s.seat, s.team) for s in m.seats}
    assert seats == {ALICE: (0, 0), BOB: (2, 0), CAROL: (1, 1), DAVE: (3, 1)}
    with pytest.raises(NotAllowed, match="started"):
        await service.join(m.id, EVE)


async def test_lobby_members_leave_and_invitees_decline(service: MatchService) -> None:
    m = await service.challenge(GUILD, CHANNEL, ALICE, "alquerque-grande",
                                opponents=[BOB, CAROL], options={"mode": "fast"})
    m = await service.decline(m.id, BOB)
    assert BOB not in m.invited and m.status is MatchStatus.LOBBY
    m = await service.join(m.id, DAVE)
    m = await service.cancel(m.id, DAVE)  # a member leaves
    assert DAVE not in m.joined
    with pytest.raises(NotAllowed, match="random"):
        await service.join(m.id, EVE, seat=2)
    m = await service.cancel(m.id, ALICE)
    assert m.status is MatchStatus.CANCELLED


async def test_four_player_resign_puts_the_seat_out_and_play_goes_on(
        service: MatchService, recorder: Recorder) -> None:
    m = await service.challenge(GUILD, CHANNEL, ALICE, "alquerque-grande",
                                options={"players": 4, "mode": "slow"}, seat=0)
    for u in (BOB, CAROL, DAVE):
        m = await service.join(m.id, u)
    m = await play_random(service, m.id, 6)
    quitter = next(u for u in m.players() if u not in m.to_move)
    m = await service.resign(m.id, quitter)
    assert m.status is MatchStatus.ACTIVE
    assert [s.out for s in m.seats if s.user_id == quitter] == [True]
    assert any(isinstance(e, PlayerOut) for e in recorder.events)
    with pytest.raises(NotAllowed, match="out"):
        await service.resign(m.id, quitter)
    # the record replays the resignation: a fresh service reaches the same position
    fresh = MatchService(service.repository, Recorder(), service.clock)
    assert await fresh.verify_all() == []
    p, _ = await fresh.position(m.id)
    assert p.to_text() == m.position_text
    history = await fresh.history(m.id)
    assert any("resigns" in d for _, _, _, d in history.entries)


async def test_team_win_rates_both_team_members(service: MatchService) -> None:
    m = await service.challenge(GUILD, CHANNEL, ALICE, "alquerque-grande",
                                options={"players": 4, "mode": "teams"}, seat=0)
    for u, seat in ((BOB, 1), (CAROL, 2), (DAVE, 3)):
        m = await service.join(m.id, u, seat=seat)
    m = await play_random(service, m.id, 4)  # every player moves: the result counts
    m = await service.resign(m.id, BOB)  # Turquoise out: his team-mate plays on
    assert m.status is MatchStatus.ACTIVE
    m = await service.resign(m.id, DAVE)  # Red out too: White + Black win
    assert m.status is MatchStatus.FINISHED
    assert m.result is not None and sorted(m.result.winners) == sorted([ALICE, CAROL])
    board = await service.leaderboard(GUILD, "alquerque-grande-4")
    assert board.total == 4
    top = {e.user_id for e in board.entries[:2]}
    assert top == {ALICE, CAROL}
    assert all(e.wins == 1 for e in board.entries[:2])
    assert all(e.losses == 1 for e in board.entries[2:])
    assert await service.leaderboard(GUILD, "alquerque-grande") == \
        type(board)(GUILD, "alquerque-grande", 1, 10, 0, ())


# ---------------------------------------------------------------- play


@pytest.mark.parametrize(("seed", "reason"), [
    (32, "checkmate"),  # Red or Black mated after 34 plies: a winner and a loser rated
    (131, "repetition"),  # a draw by repetition after 302 plies (seed 0: after 587)
])
async def test_a_whole_game_ends_by_the_rules_and_is_rated(
        service: MatchService, recorder: Recorder, seed: int, reason: str) -> None:
    moves = finishing_game("xiangqi", {}, seed)
    assert moves
    m = await start_match(service)
    for i, text in enumerate(moves):
        r = await service.move(m.id, (ALICE, BOB)[i % 2], text)
    assert r.ended and r.match.status is MatchStatus.FINISHED
    assert r.result is not None and r.match.to_move == ()
    assert r.result.reason == reason
    ended = recorder.of(MatchEnded)
    assert len(ended) == 1
    board = await service.leaderboard(GUILD, "xiangqi")
    stats = await service.stats(GUILD, ALICE)
    assert stats.wins + stats.losses + stats.draws == 1 and stats.active_matches == 0
    if reason == "checkmate":
        (winner,) = r.result.winners
        assert board.entries[0].user_id == winner and board.entries[0].wins == 1
        assert board.entries[1].losses == 1
        entry = await service.rank_of(GUILD, "xiangqi", winner)
        assert entry is not None and entry.rank == 1
    else:
        assert r.result.winners == () and stats.draws == 1
        assert all(e.draws == 1 for e in board.entries) and board.total == 2


async def test_casual_matches_are_not_rated(service: MatchService) -> None:
    m = await start_match(service, rated=False)
    await service.resign(m.id, ALICE)
    assert (await service.leaderboard(GUILD, "xiangqi")).total == 0


async def test_resign_two_players(service: MatchService) -> None:
    m = await start_match(service)
    m = await play_random(service, m.id, 3)
    m = await service.resign(m.id, BOB)
    assert m.status is MatchStatus.FINISHED and m.result is not None
    assert m.result.winners == (ALICE,) and m.result.reason == "resignation"
    h = await service.history(m.id)
    assert h.entries[-1][2] == "#resign 1"


async def test_suggestions_filter_by_prefix_and_put_captures_first(
        service: MatchService) -> None:
    m = await start_match(service)
    all_moves = await service.suggest_moves(m.id, ALICE, "")
    assert len(all_moves) == 25
    h3 = await service.suggest_moves(m.id, ALICE, "h3")
    p, _ = await service.position(m.id)
    v = p.variant
    expected = sorted(v.format_move(p, mv) for mv in p.legal_moves()
                      if v.format_move(p, mv).startswith("h3"))
    assert sorted(c for c, _ in h3) == expected
    assert ("h3xh10", "h3xh10 (C2+7)") in h3 and h3[0][0] == "h3xh10"  # the capture leads
    assert await service.suggest_moves(m.id, BOB, "") == []  # not his turn
    assert await service.suggest_moves(m.id, EVE, "") == []  # not a player
    assert await service.suggest_moves(m.id, ALICE, "H3 E") == [("h3-e3", "h3-e3 (C2.5)")]


async def test_draw_offer_accept(service: MatchService, recorder: Recorder) -> None:
    m = await start_match(service)
    await play_random(service, m.id, 2)
    m = await service.offer_draw(m.id, ALICE)
    assert m.draw_offer_by == ALICE and isinstance(recorder.events[-1], DrawOffered)
    with pytest.raises(NotAllowed, match="already"):
        await service.offer_draw(m.id, ALICE)
    with pytest.raises(NotAllowed, match="own"):
        await service.accept_draw(m.id, ALICE)
    m = await service.accept_draw(m.id, BOB)
    assert m.status is MatchStatus.FINISHED and m.result is not None
    assert m.result.winners == () and m.result.reason == "agreement"
    board = await service.leaderboard(GUILD, "xiangqi")
    assert [e.draws for e in board.entries] == [1, 1]


async def test_draw_offer_lapses_when_the_opponent_moves(service: MatchService) -> None:
    m = await start_match(service)
    m = await service.offer_draw(m.id, ALICE)
    m = (await service.move(m.id, ALICE, "h3-e3")).match  # his own move keeps it
    assert m.draw_offer_by == ALICE
    m = (await service.move(m.id, BOB, "h10-g8")).match
    assert m.draw_offer_by is None
    with pytest.raises(NotAllowed, match="no draw offer"):
        await service.accept_draw(m.id, ALICE)
    m = await service.offer_draw(m.id, BOB)
    m = await service.decline_draw(m.id, ALICE)
    assert m.draw_offer_by is None and m.status is MatchStatus.ACTIVE


async def test_a_draw_offer_taken_back_by_its_offerer_is_withdrawn_not_declined(
        service: MatchService, recorder: Recorder) -> None:
    m = await start_match(service)
    await service.offer_draw(m.id, ALICE)
    m = await service.decline_draw(m.id, ALICE)
    assert m.draw_offer_by is None
    assert recorder.of(DrawDeclined)[-1] == DrawDeclined(m, ALICE, withdrawn=True)
    await service.offer_draw(m.id, ALICE)
    m = await service.decline_draw(m.id, BOB)
    assert recorder.of(DrawDeclined)[-1] == DrawDeclined(m, BOB, withdrawn=False)


async def test_querni_choose_setup_stays_hidden_until_both_submit(
        service: MatchService, recorder: Recorder) -> None:
    m = await start_match(service, "querni", options={"setup": "choose"})
    assert sorted(m.to_move) == sorted([ALICE, BOB])
    with pytest.raises(NotAllowed, match="setup"):
        await service.move(m.id, ALICE, "pass")
    numbers = " ".join(str(n) for n in range(16, 0, -1))
    r = await service.submit_setup(m.id, BOB, numbers)
    assert r.display == "setup submitted" and numbers not in r.match.position_text
    assert isinstance(recorder.events[-1], SetupSubmitted)
    h = await service.history(m.id)
    assert numbers not in h.export and h.entries[0][2:] == ("setup", "setup submitted")
    with pytest.raises(NotAllowed, match="already submitted"):
        await service.submit_setup(m.id, BOB, numbers)
    r = await service.submit_setup(m.id, ALICE, " ".join(str(n) for n in range(1, 17)))
    assert r.match.to_move == (ALICE,) and not r.match.position_text.startswith("setup")
    assert isinstance(recorder.events[-1], TurnStarted)
    with pytest.raises(NotAllowed, match="not in its setup"):
        await service.submit_setup(m.id, ALICE, numbers)
    r = await service.move(m.id, ALICE, "r1-3")
    fresh = MatchService(service.repository, Recorder(), service.clock)
    assert await fresh.verify_all() == []


async def test_querni_arrangements_are_no_moves_and_the_first_board_has_no_last_move(
        service: MatchService) -> None:
    m = await start_match(service, "querni", options={"setup": "choose"})
    numbers = " ".join(str(n) for n in range(1, 17))
    m = (await service.submit_setup(m.id, BOB, numbers)).match
    assert (m.ply, m.arranged, m.moves_played) == (1, 1, 0)
    m = (await service.submit_setup(m.id, ALICE, numbers)).match
    assert (m.ply, m.arranged, m.moves_played) == (2, 2, 0)
    p, _marks = await service.position(m.id)
    first = service.describe(m, p).render("en-US")  # no moves count given: the view's
    assert first.startswith("Querni, match #1, after 0 moves: ")
    assert "last move" not in first
    m = (await service.move(m.id, m.to_move[0], "r1-3")).match
    assert (m.ply, m.arranged, m.moves_played) == (3, 2, 1)
    p, _marks = await service.position(m.id)
    assert service.describe(m, p).render("en-US").endswith("; last move r1-3")
    fresh = MatchService(service.repository, Recorder(), service.clock)
    assert (await fresh.get_match(m.id)).moves_played == 1  # read back: the same
    xiangqi = await start_match(service)
    xiangqi = (await service.move(xiangqi.id, ALICE, "h3-e3")).match
    assert (xiangqi.arranged, xiangqi.moves_played) == (0, 1)


async def test_querni_random_deal_replays_from_the_stored_seed(service: MatchService) -> None:
    m = await start_match(service, "querni")
    seed = m.options["seed"]
    assert isinstance(seed, int)
    assert m.position_text == rules.variant("querni").start(seed=seed).to_text()
    await play_random(service, m.id, 10)
    fresh = MatchService(service.repository, Recorder(), service.clock)
    assert await fresh.verify_all() == []


async def test_history_exports(service: MatchService) -> None:
    m = await start_match(service)
    await service.move(m.id, ALICE, "h3-e3")
    await service.move(m.id, BOB, "h10-g8")
    h = await service.history(m.id)
    assert h.export_format == "wxf" and "C2.5" in h.export and "H8+7" in h.export
    assert [c for _, _, c, _ in h.entries] == ["h3-e3", "h10-g8"]
    d = await start_match(service, "damas")
    p, _ = await service.position(d.id)
    first = p.variant.format_move(p, p.legal_moves()[0])
    await service.move(d.id, ALICE, first)
    h = await service.history(d.id)
    assert h.export_format == "pdn" and '[GameType "24"]' in h.export
    a = await start_match(service, "alquerque")
    h = await service.history(a.id)
    assert h.export_format == "tablero" and '[Game "alquerque"]' in h.export


async def test_games_of_puts_the_matches_waiting_on_him_first(service: MatchService) -> None:
    waiting_on_bob = await start_match(service)
    await service.move(waiting_on_bob.id, ALICE, "h3-e3")
    waiting_on_alice = await start_match(service)
    invite = await service.challenge(GUILD, CHANNEL, CAROL, "damas", opponents=[BOB])
    games = await service.games_of(GUILD, BOB)
    assert {g.id for g in games[:2]} == {waiting_on_bob.id, invite.id}
    assert games[2].id == waiting_on_alice.id
    assert [g.id for g in await service.active_matches_of(GUILD, BOB)] == \
        [waiting_on_alice.id, waiting_on_bob.id]
    assert await service.games_of(GUILD + 1, BOB) == []


# ---------------------------------------------------------------- deadlines


async def test_reminder_once_then_timeout_loss(service: MatchService, clock: SetClock,
                                               recorder: Recorder) -> None:
    m = await start_match(service, days=3)
    m = await play_random(service, m.id, 4)  # Alice to move again
    assert m.to_move == (ALICE,)
    clock.advance(days=1, hours=23)
    assert await service.sweep() == []
    clock.advance(hours=2)  # less than a day left
    events = await service.sweep()
    assert [type(e) for e in events] == [DeadlineReminder] and events[0].users == (ALICE,)
    assert await service.sweep() == []  # only once
    clock.advance(days=1)
    events = told(await service.sweep())
    assert [type(e) for e in events] == [MatchEnded]
    m = await service.get_match(m.id)
    assert m.status is MatchStatus.FINISHED and m.result is not None
    assert m.result.winners == (BOB,) and m.result.reason == "timeout"
    assert (await service.leaderboard(GUILD, "xiangqi")).total == 2


async def test_one_day_deadline_reminds_at_half_time(service: MatchService,
                                                     clock: SetClock) -> None:
    m = await start_match(service, days=1)
    clock.advance(hours=11)
    assert await service.sweep() == []
    clock.advance(hours=2)
    assert [type(e) for e in await service.sweep()] == [DeadlineReminder]
    assert (await service.get_match(m.id)).status is MatchStatus.ACTIVE


async def test_timeout_before_two_plies_aborts_unrated(service: MatchService,
                                                       clock: SetClock) -> None:
    m = await start_match(service, days=2)
    await service.move(m.id, ALICE, "h3-e3")
    clock.advance(days=30)  # the process was down for a month: the sweep catches up
    events = await service.sweep()
    assert [type(e) for e in events] == [MatchEnded]
    m = await service.get_match(m.id)
    assert m.status is MatchStatus.ABORTED
    assert (await service.leaderboard(GUILD, "xiangqi")).total == 0


async def test_four_player_timeout_puts_the_late_seat_out(service: MatchService,
                                                          clock: SetClock) -> None:
    m = await service.challenge(GUILD, CHANNEL, ALICE, "alquerque-grande",
                                options={"mode": "slow"}, days=1)
    for u in (BOB, CAROL, DAVE):
        m = await service.join(m.id, u)
    m = await play_random(service, m.id, 5)
    late = m.to_move[0]
    clock.advance(days=1, minutes=1)
    events = told(await service.sweep())
    assert [type(e) for e in events] == [PlayerOut, TurnStarted]
    m = await service.get_match(m.id)
    assert m.status is MatchStatus.ACTIVE
    assert [s.out for s in m.seats if s.user_id == late] == [True]
    assert late not in m.to_move


async def test_reminders_can_be_switched_off(service: MatchService, clock: SetClock) -> None:
    await service.update_guild_settings(GUILD, reminders=False)
    await start_match(service, days=3)
    clock.advance(days=2, hours=1)
    assert await service.sweep() == []


async def test_moves_before_the_match_starts_are_refused(service: MatchService) -> None:
    m = await service.challenge(GUILD, CHANNEL, ALICE, "xiangqi", opponents=[BOB])
    with pytest.raises(MatchNotStarted):
        await service.move(m.id, ALICE, "h3-e3")


async def test_a_four_player_draw_needs_every_remaining_opponent(
        service: MatchService) -> None:
    m = await service.challenge(GUILD, CHANNEL, ALICE, "alquerque-grande",
                                options={"mode": "slow"}, seat=0)
    for u in (BOB, CAROL, DAVE):
        m = await service.join(m.id, u)
    await play_random(service, m.id, 4)
    m = await service.offer_draw(m.id, ALICE)
    m = await service.accept_draw(m.id, BOB)
    assert m.status is MatchStatus.ACTIVE and m.draw_offer_by == ALICE
    m = await service.offer_draw(m.id, CAROL)  # offering while one is pending accepts it
    assert m.status is MatchStatus.ACTIVE
    m = await service.accept_draw(m.id, DAVE)
    assert m.status is MatchStatus.FINISHED and m.result is not None
    assert m.result.winners == () and len(m.result.ranking[0]) == 4
    board = await service.leaderboard(GUILD, "alquerque-grande-4")
    assert board.total == 4 and all(e.draws == 1 for e in board.entries)
