"""A tournament game that ends before every player has moved is void as a match (unrated,
``aborted``) but scored by its tournament: a forfeit of whoever resigned or ran out of
time, a double forfeit when neither moved in time, a draw when one was agreed. Its own
words say what the tournament does (``service.early_ends``), wherever they are read: the
stored result, the ``MatchEnded`` announcement, the sentences of every medium; outside
tournaments the same ends stay "aborted" (README, Play; RULES). Memory, SQLite (and
PostgreSQL when there is one): the words are stored with the result."""

from __future__ import annotations

import dataclasses
import random

from locales.i18n import render
from locales.results import result_sentence
from locales.terms import reason
from service import MatchEnded, MatchService, MatchStatus, MatchView, Repository, texts
from service.early_ends import DOUBLE_FORFEIT, DRAW_AGREED_EARLY
from service.tournament_records import TournamentGame
from service.tournaments import Result
from tests.service.conftest import ALICE, BOB, CHANNEL, GUILD, Recorder, SetClock, start_match

ORGANISER = 900
NAMES = {ALICE: "alice", BOB: "drawson"}  # a name with "draw" in it is no agreed draw


def _service(repo: Repository, clock: SetClock, recorder: Recorder) -> MatchService:
    return MatchService(repo, recorder, clock, rng=random.Random(7),
                        names=lambda _g, u: NAMES.get(u, ""))


async def _one_game(service: MatchService, game: str = "xiangqi", claim_win: bool = False,
                    **options: object) -> tuple[int, TournamentGame]:
    """Alice and Bob's round robin: its id and its one game (under way)."""
    t = await service.create_tournament(GUILD, CHANNEL, ORGANISER, game, fmt="rr",
                                        options=options or None, claim_win=claim_win)
    for user in (ALICE, BOB):
        await service.join_tournament(t.id, user)
    t = await service.start_tournament(t.id, ORGANISER)
    [g] = (await service.get_tournament(t.id)).games_of_round(1)
    assert g.match_id is not None and g.second is not None
    return t.id, g


async def _scored(service: MatchService, tid: int) -> TournamentGame:
    [g] = (await service.get_tournament(tid)).games
    return g


def _said(m: MatchView) -> str:
    """The console's (and ``/history``'s, the web's server page's) words for ``m``."""
    return render(texts.result_words(m, [NAMES[s.user_id or 0] for s in m.seats]), "en-US")


def _name(m: MatchView, user: int) -> str:
    seat = m.seat_of(user)
    assert seat is not None
    return f"{NAMES[user]} ({m.seats[seat].name})"


async def test_an_early_resignation_is_a_forfeit_in_its_words_and_its_score(
        repo: Repository, clock: SetClock) -> None:
    recorder = Recorder()
    service = _service(repo, clock, recorder)
    tid, g = await _one_game(service)
    assert g.match_id is not None
    m = await service.resign(g.match_id, BOB)  # before anyone moved
    assert m.status is MatchStatus.ABORTED and m.result is not None
    words = (f"forfeit: {_name(m, BOB)} resigned before every player had moved; "
             f"{_name(m, ALICE)} wins")
    assert m.result.reason == words
    m = await service.get_match(m.id)  # as stored
    assert m.result is not None and m.result.reason == words and _said(m) == words
    # the result post and the board's line say it too, never "aborted"
    [ended] = recorder.of(MatchEnded)
    assert isinstance(ended, MatchEnded) and ended.reason == words and ended.ratings == ()
    post = result_sentence("post", m.result.kind, reason=reason(ended.reason),
                           reason_is_text=True, match=m.id, game="Xiangqi")
    assert render(post, "en-US") == f"Match {m.id} (Xiangqi) ended: {words}."
    assert render(texts.result_line(m, None), "en-US").startswith("Forfeit: ")
    assert render(reason(words), "de").startswith("kampflos: drawson (")
    assert render(reason(words), "de").endswith(") gewinnt")
    # ... and the tournament scores what they say: Alice wins by forfeit (not a draw)
    won = Result.FIRST_WINS_FORFEIT if g.first == ALICE else Result.SECOND_WINS_FORFEIT
    assert (await _scored(service, tid)).result is won
    assert (await service.leaderboard(GUILD, "xiangqi")).total == 0  # unrated all the same


async def test_a_player_who_never_moves_forfeits_on_time(
        repo: Repository, clock: SetClock) -> None:
    service = _service(repo, clock, Recorder())
    tid, g = await _one_game(service)
    assert g.match_id is not None and g.second is not None
    clock.advance(days=4)  # the first player never moved: the sweep times him out
    await service.sweep()
    m = await service.get_match(g.match_id)
    assert m.status is MatchStatus.ABORTED and m.result is not None
    assert m.result.reason == (
        f"forfeit: {_name(m, g.first)} ran out of time before every player had moved; "
        f"{_name(m, g.second)} wins")
    scored = await _scored(service, tid)
    assert scored.result is Result.SECOND_WINS_FORFEIT and scored.timed_out == g.first


async def test_with_claim_win_a_player_who_never_moves_forfeits_without_a_claim(
        repo: Repository, clock: SetClock) -> None:
    """Claim win waits for a claim only once every player has moved (README, Takeback):
    before, the sweep ends the game, and its words are the same forfeit."""
    service = _service(repo, clock, Recorder())
    tid, g = await _one_game(service, claim_win=True)
    assert g.match_id is not None and g.second is not None
    clock.advance(days=4)
    await service.sweep()
    m = await service.get_match(g.match_id)
    assert m.result is not None and m.result.reason == (
        f"forfeit: {_name(m, g.first)} ran out of time before every player had moved; "
        f"{_name(m, g.second)} wins")
    assert (await _scored(service, tid)).result is Result.SECOND_WINS_FORFEIT


async def test_neither_player_handing_in_his_set_up_is_a_double_forfeit(
        repo: Repository, clock: SetClock) -> None:
    service = _service(repo, clock, Recorder())
    tid, g = await _one_game(service, "querni", setup="choose")
    assert g.match_id is not None
    clock.advance(days=4)  # both were to arrange their stones; neither did
    await service.sweep()
    m = await service.get_match(g.match_id)
    assert m.result is not None and m.result.reason == DOUBLE_FORFEIT
    assert _said(m) == "double forfeit: no move in time; both players lose"
    assert (await _scored(service, tid)).result is Result.BOTH_FORFEIT


async def test_an_early_agreed_draw_is_a_draw_not_an_abort(
        repo: Repository, clock: SetClock) -> None:
    service = _service(repo, clock, Recorder())
    tid, g = await _one_game(service)
    assert g.match_id is not None and g.second is not None
    await service.offer_draw(g.match_id, g.first)
    m = await service.accept_draw(g.match_id, g.second)
    assert m.status is MatchStatus.ABORTED and m.result is not None
    assert m.result.reason == DRAW_AGREED_EARLY and _said(m) == DRAW_AGREED_EARLY
    assert render(texts.result_line(m, None), "en-US") == \
        "Draw agreed before every player had moved"
    # half a point each, but no game played over the board: no colours, counted apart
    assert (await _scored(service, tid)).result is Result.DRAW_UNPLAYED
    rows = await service.tournament_standings(tid)
    assert [(r.points, r.played, r.draws, r.draws_unplayed) for r in rows] == \
        [(0.5, 0, 0, 1)] * 2


async def test_outside_a_tournament_the_same_ends_stay_aborted(
        repo: Repository, clock: SetClock) -> None:
    recorder = Recorder()
    service = _service(repo, clock, recorder)
    for rated in (True, False):
        m = await start_match(service, rated=rated)
        m = await service.resign(m.id, BOB)
        assert m.result is not None and m.result.reason == \
            f"aborted: {_name(m, BOB)} resigned before every player had moved"
        ended = recorder.of(MatchEnded)[-1]
        # the announcement says the stored words too (a bare "aborted" told nothing)
        assert isinstance(ended, MatchEnded) and ended.reason == m.result.reason
    m = await start_match(service)
    clock.advance(days=4)
    await service.sweep()
    m = await service.get_match(m.id)
    assert m.result is not None and m.result.reason == "aborted: no move in time"


async def test_an_abort_stored_before_the_forfeit_words_reads_as_scored(
        repo: Repository, clock: SetClock) -> None:
    """A tournament game aborted before its words said what the tournament scores
    ("aborted: …", kept by older databases) reads as scored wherever it is shown (the
    match, /history, the replay, the web page), from the tournament's stored result;
    the stored words stay as they were written."""
    service = _service(repo, clock, Recorder())
    tid, g = await _one_game(service)
    assert g.match_id is not None
    await service.resign(g.match_id, BOB)  # scored: Alice wins by forfeit
    assert (await _scored(service, tid)).result in (Result.FIRST_WINS_FORFEIT,
                                                    Result.SECOND_WINS_FORFEIT)
    rec = await repo.load_match(g.match_id)
    assert rec is not None and rec.result is not None
    old = f"aborted: {_name(await service.get_match(rec.id), BOB)} resigned before every " \
        "player had moved"
    await repo.save(rec, dataclasses.replace(rec, result=dataclasses.replace(
        rec.result, reason=old, left_by=None, left_how=None)))
    m = await service.get_match(g.match_id)
    words = (f"forfeit: {_name(m, BOB)} resigned before every player had moved; "
             f"{_name(m, ALICE)} wins")
    assert m.result is not None and m.result.reason == words and _said(m) == words
    history = await service.history(g.match_id)
    assert history.match.result is not None and history.match.result.reason == words
    record = await service.record(g.match_id)
    assert record.match.result is not None and record.match.result.reason == words
    stored = await repo.load_match(g.match_id)
    assert stored is not None and stored.result is not None and stored.result.reason == old
    # the lists of games agree: a player's page lists it as scored; /games and the
    # glance lists (Discord's and the console's) list only live matches, never it
    await service.update_guild_settings(GUILD, web=True)
    seat = m.seat_of(BOB)
    assert seat is not None
    page = await service.web_member(g.match_id, seat)
    [listed] = [v for v, _ in page.recent if v.id == g.match_id]
    assert listed.result is not None and listed.result.reason == words
    for user in (ALICE, BOB):
        assert g.match_id not in [v.id for v in await service.games_of(GUILD, user)]
        assert g.match_id not in [b.match.id for b in await service.glance(GUILD, user)]
    # a casual game's abort stays "aborted": it is scored by nobody
    casual = await start_match(service)
    casual = await service.resign(casual.id, BOB)
    assert casual.result is not None and casual.result.reason.startswith("aborted: ")
    assert (await service.get_match(casual.id)).result == casual.result
