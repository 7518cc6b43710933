"""Correspondence comforts (issue 16) through the service, on memory, SQLite and
PostgreSQL: conditional moves played and cancelled, takeback windows and clocks, rematch
terms, private notes and follows; each with a restart (a new service over the same
storage: nothing kept in memory) in the middle."""

from __future__ import annotations

import dataclasses
import random
from datetime import timedelta

import pytest

from service import (
    ChallengeReceived,
    ConditionalMovePlayed,
    MatchNotFound,
    MatchService,
    MatchStatus,
    MoveFollowed,
    NotAllowed,
    NotAPlayer,
    Repository,
    TakebackDeclined,
    TakebackOffered,
    TakenBack,
    TurnStarted,
)
from service.comforts import ConditionalLineError, clashes, split_lines, takeback_asker
from service.computer_seats import computer_user
from service.views import SeatView, notice_lane
from tests.service.conftest import (
    ALICE,
    BOB,
    CAROL,
    CHANNEL,
    DAVE,
    GUILD,
    Recorder,
    SetClock,
    start_match,
)


def restarted(repo: Repository, clock: SetClock, recorder: Recorder) -> MatchService:
    """A new process over the same storage: no cache, no memory of anything."""
    return MatchService(repo, recorder, clock, rng=random.Random(8))


async def texts_of(repo: Repository, match_id: int) -> list[str]:
    return [e.text for e in await repo.load_entries(match_id)]


async def test_a_lapse_after_the_only_move_was_taken_back_offers_the_claim(
        service: MatchService, clock: SetClock, recorder: Recorder,
        repo: Repository) -> None:
    """Issue 38, item 17: with claim-win, Bob's only move taken back by consent still
    counts as his having taken part: his lapse after it offers Alice the claim (it is
    not aborted as a match nobody played), also after a restart."""
    from service.events import TimeLapsed

    m = await service.challenge(GUILD, CHANNEL, ALICE, "damas", opponents=[BOB], seat=0,
                                days=1, rated=False, claim_win=True)
    m = await service.accept(m.id, BOB)
    await service.move(m.id, ALICE, "d3-c4")
    await service.move(m.id, BOB, "e6-d5")
    await service.request_takeback(m.id, BOB)
    await service.accept_takeback(m.id, ALICE)
    assert await texts_of(repo, m.id) == ["d3-c4"]
    service = restarted(repo, clock, recorder)
    clock.advance(days=2)
    events = await service.sweep()
    assert [type(e) for e in events] == [TimeLapsed]
    done = await service.claim_win(m.id, ALICE)
    assert done.status is MatchStatus.FINISHED and done.result is not None
    assert done.result.winners == (ALICE,) and done.result.reason == "timeout"


# ---------------------------------------------------------------------- conditional moves

def test_lines_are_split_by_semicolons_and_moves_by_spaces_or_commas() -> None:
    assert split_lines("h3-e3 c7-c6\nb1-c3  h10-g8;") == [["h3-e3", "c7-c6"],
                                                           ["b1-c3", "h10-g8"]]
    assert split_lines(" c2-e4  r3-5 , d8-d7 ") == [["c2-e4 r3-5", "d8-d7"]]
    assert clashes([("a", "b"), ("a", "c")]) == (1, 2, "a")
    assert clashes([("a", "b", "c", "d"), ("a", "b", "e", "f"), ("g", "b")]) is None


async def test_a_conditional_answer_is_played_at_once_and_announced(
        service: MatchService, recorder: Recorder, repo: Repository) -> None:
    m = await start_match(service, "xiangqi", rated=False)
    await service.move(m.id, ALICE, "h3-e3")
    lines = await service.add_conditional_moves(
        m.id, ALICE, "h10-g8 b1-c3 b10-c8 h1-g3; c7-c6 h1-g3")
    assert lines == [("h10-g8", "b1-c3", "b10-c8", "h1-g3"), ("c7-c6", "h1-g3")]
    assert await service.conditional_moves(m.id, BOB) == []  # private
    assert not recorder.of(ConditionalMovePlayed)
    recorder.events.clear()
    result = await service.move(m.id, BOB, "h10-g8")
    # Bob's reply shows the match after the answer: his move again (issue 38, item 11)
    assert result.match.ply == 3 and result.match.to_move == (BOB,)
    after = await service.get_match(m.id)
    assert after.ply == 3 and after.to_move == (BOB,)
    assert await texts_of(repo, m.id) == ["h3-e3", "h10-g8", "b1-c3"]
    played = recorder.of(ConditionalMovePlayed)
    assert [(e.user_id, e.move) for e in played] == [(ALICE, after.last_move)]
    turns = recorder.of(TurnStarted)
    assert [t.by for t in turns] == [BOB, ALICE]  # the answer went the way of any move
    # the other line was cancelled by Bob's reply; this one goes on
    assert await service.conditional_moves(m.id, ALICE) == [("b10-c8", "h1-g3")]
    # a restart in the middle of the line: the rest is still played
    service = restarted(repo, service.clock, recorder)  # type: ignore[arg-type]
    await service.move(m.id, BOB, "b10-c8")
    assert await texts_of(repo, m.id) == ["h3-e3", "h10-g8", "b1-c3", "b10-c8", "h1-g3"]
    assert await service.conditional_moves(m.id, ALICE) == []  # played out


async def test_any_other_reply_cancels_the_line(service: MatchService,
                                               repo: Repository) -> None:
    m = await start_match(service, "xiangqi", rated=False)
    await service.move(m.id, ALICE, "h3-e3")
    await service.add_conditional_moves(m.id, ALICE, "h10-g8 b1-c3")
    await service.move(m.id, BOB, "c7-c6")
    assert await texts_of(repo, m.id) == ["h3-e3", "c7-c6"]
    assert (await service.get_match(m.id)).to_move == (ALICE,)
    assert await service.conditional_moves(m.id, ALICE) == []
    assert await repo.conditional_lines(m.id) == []  # dropped from storage too


async def test_an_answer_due_when_the_process_stopped_is_played_by_the_next_sweep(
        service: MatchService, recorder: Recorder, repo: Repository,
        clock: SetClock) -> None:
    m = await start_match(service, "xiangqi", rated=False)
    await service.move(m.id, ALICE, "h3-e3")
    await service.add_conditional_moves(m.id, ALICE, "h10-g8 b1-c3")
    # Bob's move lands, and the process stops before it answers (the move path alone)
    await service.core.retrying(m.id, lambda r: service._play.play_move(r, BOB, "h10-g8", None,
                                                                        setup=False))
    assert await texts_of(repo, m.id) == ["h3-e3", "h10-g8"]
    fresh = restarted(repo, clock, recorder)
    await fresh.sweep()
    assert await texts_of(repo, m.id) == ["h3-e3", "h10-g8", "b1-c3"]
    assert recorder.of(ConditionalMovePlayed)[-1].user_id == ALICE


async def test_premove_stores_a_line_once_echoes_no_long_word_and_answers_show(
        service: MatchService, repo: Repository) -> None:
    """Issue 38, item 11: the same line given again (or twice in one text) is stored
    once; a 2,000-character word is not repeated whole in the error; after the answer
    is played at once the mover's reply shows the board after it, his turn again."""
    m = await start_match(service, "xiangqi", rated=False)
    await service.move(m.id, ALICE, "h3-e3")
    for _ in range(5):
        lines = await service.add_conditional_moves(m.id, ALICE, "h10-g8 b1-c3")
    assert lines == [("h10-g8", "b1-c3")]
    lines = await service.add_conditional_moves(m.id, ALICE,
                                                "c7-c6 h1-g3; H8+7 b1-c3; c7-c6 h1-g3")
    assert lines == [("h10-g8", "b1-c3"), ("c7-c6", "h1-g3")]
    assert len(await repo.conditional_lines(m.id)) == 2
    with pytest.raises(ConditionalLineError, match="line 2 answers h10-g8"):
        await service.add_conditional_moves(m.id, ALICE, "c7-c6 h1-g3; h10-g8 h1-g3")
    word = "x" * 1990
    for text in (word, f"{word} b1-c3", f"h10-g8 {word}"):
        with pytest.raises(ConditionalLineError) as bad:
            await service.add_conditional_moves(m.id, ALICE, text)
        said = str(bad.value.message)
        assert len(said) < 300 and "x" * 29 + "…" in said
    result = await service.move(m.id, BOB, "h10-g8")
    assert result.display.startswith("h10-g8") and not result.ended
    assert result.match.ply == 3 and result.match.to_move == (BOB,)
    assert result.match.last_move is not None and result.match.last_move.startswith("b1-c3")
    assert result.board is not None and result.board.position.to_move == {1}
    assert result.board.last_marks is not None and result.board.moves == 3
    p, _ = await service.position(m.id)
    assert result.board.position.to_text() == p.to_text()


async def test_bad_lines_name_the_move_and_change_nothing(service: MatchService,
                                                         repo: Repository) -> None:
    m = await start_match(service, "xiangqi", rated=False)
    with pytest.raises(NotAllowed, match="your move"):
        await service.add_conditional_moves(m.id, ALICE, "h10-g8 b1-c3")
    await service.move(m.id, ALICE, "h3-e3")
    with pytest.raises(ConditionalLineError, match=r"move 2 \(your move b1-b5\)"):
        await service.add_conditional_moves(m.id, ALICE, "h10-g8 b1-b5")
    with pytest.raises(ConditionalLineError, match=r"line 2, move 1 \(their move h3-e3\)"):
        await service.add_conditional_moves(m.id, ALICE, "h10-g8 b1-c3; h3-e3 b1-c3")
    with pytest.raises(ConditionalLineError, match="ends with their move c7-c6"):
        await service.add_conditional_moves(m.id, ALICE, "h10-g8 b1-c3 c7-c6")
    with pytest.raises(ConditionalLineError, match="answers h10-g8 differently"):
        await service.add_conditional_moves(m.id, ALICE, "h10-g8 b1-c3; h10-g8 h1-g3")
    with pytest.raises(NotAPlayer):
        await service.add_conditional_moves(m.id, CAROL, "h10-g8 b1-c3")
    assert await repo.conditional_lines(m.id) == []
    await service.add_conditional_moves(m.id, ALICE, "h10-g8 b1-c3")
    with pytest.raises(ConditionalLineError, match="answers h10-g8 differently"):
        await service.add_conditional_moves(m.id, ALICE, "h10-g8 h1-g3")
    assert await service.clear_conditional_moves(m.id, ALICE) == 1
    assert await service.conditional_moves(m.id, ALICE) == []


async def test_conditional_moves_are_for_two_player_games(service: MatchService) -> None:
    m = await four_player_match(service)
    waiting = next(u for u in m.players() if u not in m.to_move)
    with pytest.raises(NotAllowed, match="two-player"):
        await service.add_conditional_moves(m.id, waiting, "a1-a2 a3-a4")


# ---------------------------------------------------------------------- takeback

async def test_takeback_by_consent_undoes_the_last_ply(
        service: MatchService, recorder: Recorder, repo: Repository,
        clock: SetClock) -> None:
    m = await start_match(service, "xiangqi", rated=False, days=3)
    await service.move(m.id, ALICE, "h3-e3")
    clock.advance(days=1)
    await service.move(m.id, BOB, "h10-g8")
    clock.advance(hours=5)
    await service.move(m.id, ALICE, "b1-c3")  # 5 hours of her 3 days spent
    await service.add_conditional_moves(m.id, ALICE, "b10-c8 h1-g3")
    view = await service.request_takeback(m.id, ALICE)
    assert view.takeback_by == ALICE
    offered = recorder.of(TakebackOffered)[-1]
    assert (offered.by, offered.move) == (ALICE, view.last_move)
    with pytest.raises(NotAllowed, match="asked already"):
        await service.request_takeback(m.id, ALICE)
    with pytest.raises(NotAllowed, match="your opponent answers"):
        await service.accept_takeback(m.id, ALICE)
    clock.advance(hours=2)
    service = restarted(repo, clock, recorder)  # the request survives a restart
    assert (await service.get_match(m.id)).takeback_by == ALICE
    back = await service.accept_takeback(m.id, BOB)
    assert back.ply == 2 and back.to_move == (ALICE,) and back.takeback_by is None
    assert back.last_move_by == BOB
    assert await texts_of(repo, m.id) == ["h3-e3", "h10-g8"]
    assert back.deadline == clock.now() + timedelta(days=3) - timedelta(hours=5)
    taken = recorder.of(TakenBack)[-1]
    assert (taken.by, taken.accepted_by) == (ALICE, BOB)
    assert taken.board is not None and taken.board.position.to_text() == back.position_text
    assert await service.conditional_moves(m.id, ALICE) == []  # their positions are gone
    # the board is the one before the move, and play goes on from it
    position, _ = await service.position(m.id)
    assert position.to_text() == back.position_text
    await service.move(m.id, ALICE, "h1-g3")
    assert await texts_of(repo, m.id) == ["h3-e3", "h10-g8", "h1-g3"]


async def test_a_takeback_restores_the_movers_bank_and_time_left(
        service: MatchService, repo: Repository, clock: SetClock) -> None:
    """A bank control (issue 16a): the takeback gives the mover back the time he had left
    when he moved and his bank as it was before the move (not the increment he earned)."""
    m = await service.challenge(GUILD, CHANNEL, ALICE, "xiangqi", opponents=[BOB], seat=0,
                                rated=False, clock="3d+1d/10d")
    await service.accept(m.id, BOB)
    clock.advance(days=1)
    await service.move(m.id, ALICE, "h3-e3")  # her bank: 2 days left + 1 = 3 days
    clock.advance(hours=5)
    await service.move(m.id, BOB, "h10-g8")
    clock.advance(hours=10)
    await service.move(m.id, ALICE, "b1-c3")  # 3 days - 10 h left, banked with + 1 day
    moved = await repo.load_match(m.id)
    assert moved is not None and moved.clock.bank_of(0) == (4 * 24 - 10) * 3600
    await service.request_takeback(m.id, ALICE)
    clock.advance(hours=2)
    service = restarted(repo, clock, Recorder())
    back = await service.accept_takeback(m.id, BOB)
    assert back.to_move == (ALICE,)
    assert back.deadline == clock.now() + timedelta(days=3) - timedelta(hours=10)
    stored = await repo.load_match(m.id)
    assert stored is not None and stored.clock.bank_of(0) == 3 * 24 * 3600
    clock.advance(hours=1)
    await service.move(m.id, ALICE, "h1-g3")  # what was left, less the hour, + 1 day
    again = await repo.load_match(m.id)
    assert again is not None and again.clock.bank_of(0) == (4 * 24 - 11) * 3600


async def test_the_takeback_window_closes_with_the_reply(service: MatchService,
                                                        recorder: Recorder) -> None:
    m = await start_match(service, "xiangqi", rated=False)
    await service.move(m.id, ALICE, "h3-e3")
    with pytest.raises(NotAllowed, match="only the last move"):
        await service.request_takeback(m.id, BOB)  # not his move
    await service.request_takeback(m.id, ALICE)
    await service.move(m.id, BOB, "h10-g8")  # he replies instead of answering
    with pytest.raises(NotAllowed, match="nobody has asked"):
        await service.accept_takeback(m.id, BOB)
    with pytest.raises(NotAllowed, match="before the reply"):
        await service.request_takeback(m.id, ALICE)
    await service.request_takeback(m.id, BOB)
    await service.decline_takeback(m.id, ALICE)
    assert recorder.of(TakebackDeclined)[-1].by == ALICE
    assert (await service.get_match(m.id)).takeback_by is None
    with pytest.raises(NotAllowed, match="nobody has asked"):
        await service.accept_takeback(m.id, ALICE)
    with pytest.raises(NotAPlayer):
        await service.accept_takeback(m.id, CAROL)


async def test_rated_games_take_back_only_where_the_server_allows(
        service: MatchService) -> None:
    m = await start_match(service, "xiangqi", rated=True)
    await service.move(m.id, ALICE, "h3-e3")
    with pytest.raises(NotAllowed, match="rated games"):
        await service.request_takeback(m.id, ALICE)
    await service.update_guild_settings(GUILD, takebacks_rated=True)
    assert (await service.get_guild_settings(GUILD)).takebacks_rated
    await service.request_takeback(m.id, ALICE)
    assert (await service.accept_takeback(m.id, BOB)).ply == 0


async def test_four_player_games_refuse_takebacks(service: MatchService) -> None:
    m = await four_player_match(service)
    mover = m.to_move[0]
    p, _ = await service.position(m.id)
    move = p.variant.format_move(p, next(iter(p.legal_moves())))
    await service.move(m.id, mover, move)
    with pytest.raises(NotAllowed, match="two-player games"):
        await service.request_takeback(m.id, mover)


# ---------------------------------------------------------------------- rematch

async def test_rematch_swaps_colours_on_the_same_terms(
        service: MatchService, recorder: Recorder, repo: Repository,
        clock: SetClock) -> None:
    m = await start_match(service, "damas", rated=True, days=5, seat=0)
    with pytest.raises(NotAllowed, match="not over"):
        await service.rematch(m.id, BOB)
    await service.move(m.id, ALICE, (await service.suggest_moves(m.id, ALICE))[0][0])
    await service.move(m.id, BOB, (await service.suggest_moves(m.id, BOB))[0][0])
    await service.resign(m.id, ALICE)
    with pytest.raises(NotAPlayer, match="only the players"):
        await service.rematch(m.id, CAROL)
    again = await service.rematch(m.id, BOB)
    asked = recorder.of(ChallengeReceived)[-1]
    assert (asked.by, asked.to, asked.rematch_of) == (BOB, (ALICE,), m.id)
    assert (again.game, again.days_per_move, again.rated) == ("damas", 5, True)
    assert dict(again.options) == dict(m.options)
    with pytest.raises(NotAllowed, match="already under way"):
        await service.rematch(m.id, ALICE)
    service = restarted(repo, clock, recorder)
    started = await service.accept(again.id, ALICE)
    assert started.status is MatchStatus.ACTIVE
    assert started.seat_of(ALICE) == 1 and started.seat_of(BOB) == 0  # swapped
    with pytest.raises(NotAllowed, match="already under way"):
        await service.rematch(m.id, ALICE)


async def test_a_declined_rematch_can_be_asked_again(service: MatchService) -> None:
    m = await start_match(service, "xiangqi", rated=False)
    await service.resign(m.id, BOB)  # aborted before every player moved: still over
    first = await service.rematch(m.id, ALICE)
    await service.decline(first.id, BOB)
    second = await service.rematch(m.id, BOB)
    assert second.id != first.id and second.challenger_id == BOB


async def test_a_random_querni_deal_is_dealt_anew(service: MatchService) -> None:
    m = await start_match(service, "querni", rated=False)
    await service.resign(m.id, BOB)
    again = await service.rematch(m.id, ALICE)
    assert {k: v for k, v in again.options.items() if k != "seed"} == \
        {k: v for k, v in m.options.items() if k != "seed"}
    assert "seed" in again.options


async def four_player_match(service: MatchService, mode: str = "teams"):  # type: ignore[no-untyped-def]
    lobby = await service.challenge(GUILD, CHANNEL, ALICE, "alquerque-grande",
                                    opponents=[BOB, CAROL, DAVE],
                                    options={"players": 4, "mode": mode}, rated=False)
    for u in (BOB, CAROL):
        await service.accept(lobby.id, u)
    return await service.accept(lobby.id, DAVE)


async def test_four_player_rematch_rotates_the_seats(service: MatchService,
                                                    clock: SetClock) -> None:
    m = await four_player_match(service)
    seats = {u: m.seat_of(u) for u in m.players()}
    clock.advance(days=4)
    await service.sweep()  # a timeout before everyone moved: aborted
    assert (await service.get_match(m.id)).status is MatchStatus.ABORTED
    again = await service.rematch(m.id, CAROL)
    for u in (ALICE, BOB, DAVE):
        await service.accept(again.id, u)
    started = await service.get_match(again.id)
    assert started.status is MatchStatus.ACTIVE
    assert {u: started.seat_of(u) for u in started.players()} == \
        {u: ((s or 0) + 1) % 4 for u, s in seats.items()}
    assert dict(started.options) == dict(m.options)


# ---------------------------------------------------------------------- notes

async def test_notes_are_private_kept_and_exported_to_their_author(
        service: MatchService, repo: Repository, clock: SetClock,
        recorder: Recorder) -> None:
    from service import Caller
    m = await start_match(service, "xiangqi", rated=False)
    await service.set_note(m.id, ALICE, "  Plan: cannon to the centre.  ")
    assert await service.note(m.id, BOB) is None
    with pytest.raises(NotAPlayer):
        await service.set_note(m.id, CAROL, "mine")
    with pytest.raises(NotAPlayer):
        await service.note(m.id, CAROL)
    with pytest.raises(Exception, match="at most 1000 characters"):
        await service.set_note(m.id, ALICE, "x" * 1001)
    service = restarted(repo, clock, recorder)
    assert await service.note(m.id, ALICE) == "Plan: cannon to the centre."
    assert (await service.history(m.id, Caller(GUILD, ALICE))).note == \
        "Plan: cannon to the centre."
    assert (await service.history(m.id, Caller(GUILD, BOB))).note is None
    await service.resign(m.id, BOB)
    await service.set_note(m.id, ALICE, "Lesson: he resigns early.")  # kept after the end
    assert await service.note(m.id, ALICE) == "Lesson: he resigns early."
    assert await service.clear_note(m.id, ALICE)
    assert not await service.clear_note(m.id, ALICE)
    assert await service.note(m.id, ALICE) is None


# ---------------------------------------------------------------------- follows

async def test_followers_are_told_of_each_move(service: MatchService, recorder: Recorder,
                                              repo: Repository, clock: SetClock) -> None:
    m = await start_match(service, "xiangqi", rated=False)
    await service.follow(GUILD, CAROL, match_id=m.id)
    await service.follow(GUILD, DAVE, player=ALICE)
    with pytest.raises(NotAllowed, match="already"):
        await service.follow(GUILD, CAROL, match_id=m.id)
    with pytest.raises(NotAllowed, match="you play in match"):
        await service.follow(GUILD, ALICE, match_id=m.id)
    with pytest.raises(NotAllowed, match="your own"):
        await service.follow(GUILD, ALICE, player=ALICE)
    with pytest.raises(MatchNotFound):
        await service.follow(GUILD + 1, CAROL, match_id=m.id)  # another server's match
    await service.move(m.id, ALICE, "h3-e3")
    told = recorder.of(MoveFollowed)[-1]
    assert told.followers == (CAROL, DAVE) and told.by == ALICE
    assert any(e.kind == "followed-move" for e in await repo.pending_outbox(m.id))
    service = restarted(repo, clock, recorder)
    assert {(f.match_id, f.player_id) for f in await service.follows(GUILD, CAROL)} == \
        {(m.id, None)}
    await service.unfollow(GUILD, CAROL, match_id=m.id)
    with pytest.raises(NotAllowed, match="do not follow"):
        await service.unfollow(GUILD, CAROL, match_id=m.id)
    await service.move(m.id, BOB, "h10-g8")
    assert recorder.of(MoveFollowed)[-1].followers == (DAVE,)
    await service.unfollow(GUILD, DAVE, player=ALICE)
    recorder.events.clear()
    await service.move(m.id, ALICE, "b1-c3")
    assert not recorder.of(MoveFollowed)


@pytest.mark.parametrize(("game", "compound"), [
    ("damas", lambda text: text.count("x") >= 2),  # a multi-capture
    ("querni", lambda text: " " in text),  # a move with its removal
])
async def test_a_compound_move_is_one_ply_to_take_back(service: MatchService,
                                                      repo: Repository, game: str,
                                                      compound) -> None:  # type: ignore[no-untyped-def]
    rng = random.Random(5)
    for _attempt in range(20):
        m = await start_match(service, game, rated=False)
        for _ply in range(300):
            p, _ = await service.position(m.id)
            v = p.variant
            if p.outcome() is not None or p.in_setup:
                break
            legal = [v.format_move(p, mv) for mv in p.legal_moves()]
            mover = (await service.get_match(m.id)).to_move[0]
            wanted = [t for t in legal if compound(t)]
            if wanted:
                before = await service.get_match(m.id)
                played = await service.move(m.id, mover, wanted[0])
                if played.ended:
                    break
                await service.request_takeback(m.id, mover)
                other = next(u for u in before.players() if u != mover)
                back = await service.accept_takeback(m.id, other)
                assert back.ply == before.ply and back.position_text == before.position_text
                assert back.to_move == (mover,)
                assert len(await repo.load_entries(m.id)) == before.ply
                return
            safe = [t for t in legal if p.play(v.parse_move(p, t)).outcome() is None]
            if not safe:
                break
            await service.move(m.id, mover, rng.choice(safe))
    raise AssertionError(f"no {game} game reached a compound move")


async def test_a_line_stored_after_the_reply_it_answers_is_played_at_once(
        service: MatchService, repo: Repository, clock: SetClock) -> None:
    """The race: Alice's position was read before Bob's move landed, her line is stored
    after it (Bob's move saw no line to answer); the answer still goes at once."""
    m = await start_match(service, "xiangqi", rated=False)
    await service.move(m.id, ALICE, "h3-e3")
    comforts = service._comforts  # the part that reads Alice's position
    stale = comforts._read_state  # the read Alice's request made, before Bob moved

    async def read_then_bob_moves(match_id: int):  # type: ignore[no-untyped-def]
        found = await stale(match_id)
        comforts._read_state = stale
        await service.move(m.id, BOB, "h10-g8")
        return found
    comforts._read_state = read_then_bob_moves
    await service.add_conditional_moves(m.id, ALICE, "h10-g8 b1-c3")
    assert await texts_of(repo, m.id) == ["h3-e3", "h10-g8", "b1-c3"]


def test_who_may_ask_to_take_back_follows_the_takeback_rules() -> None:
    """The card's Take back (issue 42) is shown only where ``request_takeback`` would let
    the player who just moved ask: two players, his move on the board the last entry,
    none asked yet, rated games only where the server allows it, never against the
    computer."""
    m = dataclasses.replace(
        notice_lane(1, 2, 1), id=5, game="xiangqi", status=MatchStatus.ACTIVE, ply=1,
        seat_count=2, to_move=(2,), last_move="h3-e3", last_move_by=1, rated=False,
        seats=(SeatView(0, 1, None, "Red"), SeatView(1, 2, None, "Black")))
    assert takeback_asker(m, 1, False) == 1
    assert takeback_asker(m, 2, False) is None  # not his move
    rated = dataclasses.replace(m, rated=True)
    assert takeback_asker(rated, 1, False) is None and takeback_asker(rated, 1, True) == 1
    assert takeback_asker(dataclasses.replace(m, takeback_by=1), 1, False) is None
    assert takeback_asker(dataclasses.replace(m, last_move="setup submitted"), 1,
                          False) is None
    assert takeback_asker(dataclasses.replace(m, last_move="#resign 1"), 1, False) is None
    # a pass the rules played for the other: the last entry is not his move
    assert takeback_asker(dataclasses.replace(m, last_move_by=2, to_move=(1,)), 1,
                          False) is None
    assert takeback_asker(dataclasses.replace(m, status=MatchStatus.FINISHED), 1,
                          False) is None
    computer = dataclasses.replace(m, seats=(SeatView(0, 1, None, "Red"),
                                             SeatView(1, computer_user(3), None, "Black")),
                                   to_move=(computer_user(3),))
    assert takeback_asker(computer, 1, True) is None  # it answers no request
    four = dataclasses.replace(m, seat_count=4)
    assert takeback_asker(four, 1, True) is None
