"""What the adapters rely on: rating changes on MatchEnded, who played the last move,
``record()`` for replays, copied display notes accepted as moves, player names and the
renderer's alt text on board images."""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest

import rules
from bot.boards import load_renderer
from rules import MoveMarks, NotationError, Position
from service import (
    MatchEnded,
    MatchService,
    NullNotifier,
    Repository,
    TurnStarted,
)
from storage import MemoryRepository
from tests.service.conftest import (
    ALICE,
    BOB,
    CAROL,
    CHANNEL,
    DAVE,
    GUILD,
    Recorder,
    SetClock,
    play_random,
    start_match,
)

# ------------------------------------------------------------------ ratings


async def test_match_ended_carries_each_players_rating_change(
        service: MatchService, recorder: Recorder) -> None:
    m = await start_match(service)
    await play_random(service, m.id, 2)  # a result counts once every player has moved
    await service.resign(m.id, BOB)
    (first,) = recorder.of(MatchEnded)
    assert isinstance(first, MatchEnded)
    by_user = {r.user_id: r for r in first.ratings}
    assert [r.user_id for r in first.ratings] == [ALICE, BOB]  # seat order
    alice, bob = by_user[ALICE], by_user[BOB]
    assert alice.first and bob.first and alice.ordinal_before == bob.ordinal_before
    assert alice.outcome == "win" and bob.outcome == "loss"
    assert alice.ordinal_after > alice.ordinal_before > bob.ordinal_after
    assert (alice.rank, bob.rank) == (1, 2)
    for r in first.ratings:  # the number /leaderboard and /stats show
        entry = await service.rank_of(GUILD, "xiangqi", r.user_id)
        assert entry is not None and entry.ordinal == pytest.approx(r.ordinal_after)
        assert entry.mu == pytest.approx(r.mu_after) and entry.rank == r.rank
    # A second match starts from the first one's result.
    m = await start_match(service)
    await play_random(service, m.id, 2)
    await service.resign(m.id, ALICE)
    second = recorder.of(MatchEnded)[-1]
    assert isinstance(second, MatchEnded)
    again = {r.user_id: r for r in second.ratings}
    assert not again[ALICE].first
    assert again[ALICE].ordinal_before == pytest.approx(alice.ordinal_after)
    assert again[BOB].ordinal_before == pytest.approx(bob.ordinal_after)
    assert again[ALICE].delta < 0 < again[BOB].delta
    line = again[BOB].text("bob").render("en-US")
    assert again[BOB].games == 2  # provisional ("?") before and after, as on the ladder
    assert line == (f"bob {bob.ordinal_after:.1f}? → {again[BOB].ordinal_after:.1f}? "
                    f"({again[BOB].ordinal_after - bob.ordinal_after:+.1f}), "
                    f"#{again[BOB].rank}")


async def test_unrated_and_drawn_matches(service: MatchService, recorder: Recorder) -> None:
    m = await start_match(service, rated=False)
    await service.resign(m.id, BOB)
    ended = recorder.of(MatchEnded)[-1]
    assert isinstance(ended, MatchEnded) and ended.ratings == ()
    m = await start_match(service)
    await play_random(service, m.id, 2)
    await service.offer_draw(m.id, ALICE)
    await service.accept_draw(m.id, BOB)
    ended = recorder.of(MatchEnded)[-1]
    assert isinstance(ended, MatchEnded) and ended.reason == "agreement"
    assert {r.outcome for r in ended.ratings} == {"draw"} and len(ended.ratings) == 2


async def test_a_four_player_team_game_reports_all_four(service: MatchService,
                                                        recorder: Recorder) -> None:
    m = await service.challenge(GUILD, CHANNEL, ALICE, "alquerque-grande",
                                options={"players": 4, "mode": "teams"}, seat=0)
    for u in (BOB, CAROL, DAVE):
        m = await service.join(m.id, u)
    m = await play_random(service, m.id, 4)
    for u in m.players():  # one team resigns both seats
        if m.seat_of(u) in (1, 3):
            m = await service.resign(m.id, u)
    ended = recorder.of(MatchEnded)[-1]
    assert isinstance(ended, MatchEnded)
    assert len(ended.ratings) == 4 and {r.ladder for r in ended.ratings} == \
        {"alquerque-grande-4"}
    won = {r.user_id for r in ended.ratings if r.outcome == "win"}
    assert won == {u for u in m.players() if m.seat_of(u) in (0, 2)}


# ------------------------------------------------------------------ last mover


async def test_the_view_and_the_event_say_who_played_the_last_move(
        service: MatchService, recorder: Recorder, repo: Repository) -> None:
    m = await start_match(service)
    assert m.last_move_by is None
    r = await service.move(m.id, ALICE, "h3-e3")
    assert r.match.last_move_by == ALICE and r.match.last_move == "h3-e3 (C2.5)"
    turn = recorder.events[-1]
    assert isinstance(turn, TurnStarted) and turn.by == ALICE and turn.users == (BOB,)
    r = await service.move(m.id, BOB, "h8-e8")
    # stored: a fresh service on the same repository sees it
    fresh = MatchService(repo, NullNotifier(), service.clock)
    again = await fresh.get_match(m.id)
    assert again.last_move_by == BOB and again.last_move == r.display


# ------------------------------------------------------------------ record


async def test_record_gives_the_moves_and_positions_for_a_replay(
        service: MatchService) -> None:
    m = await start_match(service, "damas")
    m = await play_random(service, m.id, 12, seed=5)
    rec = await service.record(m.id)
    v = rec.variant
    assert v.key == "damas" and rec.start.to_text() == rec.start_text
    assert rec.match.id == m.id and dict(rec.options) == dict(m.options)
    assert len(rec.plies) == m.ply == len(rec.moves)
    p = rec.start
    history = await service.history(m.id)
    for ply, (n, who, canonical, display) in zip(rec.plies, history.entries, strict=True):
        assert (ply.ply, ply.user_id, ply.canonical, ply.display) == \
            (n, who, canonical, display)
        assert v.format_move(p, ply.move) == ply.canonical
        p = p.play(ply.move)
        assert ply.position.to_text() == p.to_text()
    assert p.to_text() == m.position_text


async def test_record_of_a_four_player_game_keeps_the_seat_that_left(
        service: MatchService) -> None:
    m = await service.challenge(GUILD, CHANNEL, ALICE, "alquerque-grande",
                                options={"players": 4, "mode": "slow"}, seat=0)
    for u in (BOB, CAROL, DAVE):
        m = await service.join(m.id, u)
    m = await play_random(service, m.id, 5)
    quitter = next(u for u in m.players() if u not in m.to_move)
    m = await service.resign(m.id, quitter)
    m = await play_random(service, m.id, 3, seed=2)
    rec = await service.record(m.id)
    specials = [x for x in rec.plies if x.move is None]
    assert len(specials) == 1 and "resigns" in specials[0].display
    assert specials[0].user_id == quitter
    assert rec.plies[-1].position.to_text() == m.position_text


async def test_record_hides_a_querni_arrangement_until_both_are_in(
        service: MatchService) -> None:
    m = await start_match(service, "querni", options={"setup": "choose"})
    await service.submit_setup(m.id, BOB, " ".join(str(n) for n in range(16, 0, -1)))
    rec = await service.record(m.id)
    assert [(x.canonical, x.move) for x in rec.plies] == [("setup", None)]
    # the ply shows that Bob handed in (it is public: the thread said so), never what
    bob = next(s.seat for s in m.seats if s.user_id == BOB)
    handed = rec.plies[0].position
    assert handed.in_setup and handed.has_submitted(bob) and not handed.has_submitted(1 - bob)
    assert handed.arrangement(bob) is None and "16" not in handed.to_text()
    await service.submit_setup(m.id, ALICE, " ".join(str(n) for n in range(1, 17)))
    rec = await service.record(m.id)
    assert len(rec.moves) == 2  # both arrangements, as objects that carry their seat
    p = rec.start
    for mv in rec.moves:
        p = p.play(mv)
    assert p.to_text() == rec.plies[-1].position.to_text()


# ------------------------------------------------------------------ copied notes


async def test_moves_copied_with_their_note_are_accepted(service: MatchService) -> None:
    m = await start_match(service)
    r = await service.move(m.id, ALICE, "h3-e3 (C2.5)")
    assert r.move == "h3-e3"
    r = await service.move(m.id, BOB, "  H8E8   (c8.5) ")
    assert r.move == "h8-e8"
    p, _ = await service.position(m.id)
    shown = p.variant.display_move(p, p.variant.parse_move(p, "b1-c3"))
    assert shown.startswith("b1-c3 (H")
    with pytest.raises(NotationError) as err:
        await service.move(m.id, ALICE, "b1-c3 (C8.4)")
    assert err.value.message == ("'b1-c3 (C8.4)' is not one move: b1-c3 is, but '(C8.4)' "
                                 f"after it is not its note: it is written {shown}")
    with pytest.raises(NotationError, match="'please' after it is not its note"):
        await service.move(m.id, ALICE, "b1-c3 please")
    with pytest.raises(rules.IllegalMoveError):  # the move itself is read and refused
        await service.move(m.id, ALICE, "h1-h5 (R9+4)")
    assert (await service.get_match(m.id)).ply == 2


@pytest.mark.parametrize(("game", "options"), [
    ("damas", {}), ("xiangqi", {}), ("alquerque-grande", {"players": 2, "rules": "grande"})])
async def test_every_display_of_a_game_is_accepted_back(
        service: MatchService, game: str, options: dict[str, object]) -> None:
    """The service reads back whatever the game shows for each legal move, over a game."""
    m = await start_match(service, game, options=options)
    rng = random.Random(3)
    noted = 0
    for _ in range(30):
        p, _ = await service.position(m.id)
        v = p.variant
        legal = [mv for mv in p.legal_moves() if p.play(mv).outcome() is None]
        if not legal:
            break
        for mv in legal:
            shown = v.display_move(p, mv)
            if shown != v.format_move(p, mv):
                noted += 1
                assert v.format_move(p, v.parse_noted_move(p, shown)) == \
                    v.format_move(p, mv)
        mv = rng.choice(legal)
        shown = v.display_move(p, mv)
        r = await service.move(m.id, m.to_move[0], shown)
        assert r.move == v.format_move(p, mv)
        m = r.match
    assert noted > 0


def test_a_crowning_damas_move_with_its_note() -> None:
    v = rules.variant("damas")
    rng = random.Random(11)
    seen = 0
    for _ in range(40):
        p = v.start()
        for _ in range(200):
            legal = list(p.legal_moves())
            if not legal or p.outcome() is not None:
                break
            for mv in legal:
                shown = v.display_move(p, mv)
                if "crown" in shown:
                    seen += 1
                    assert v.parse_noted_move(p, shown) == mv
                    wrong = shown.replace("crowned", "").strip() + " promoted"
                    with pytest.raises(NotationError, match="is not its note"):
                        v.parse_noted_move(p, wrong)
            p = p.play(rng.choice(legal))
        if seen >= 3:
            break
    assert seen >= 3


# ------------------------------------------------------------------ board images


class NamedRenderer:
    """A BoardRenderer that records the names it was given; alt text of its own."""

    def __init__(self) -> None:
        self.names: list[Sequence[str] | None] = []

    def render(self, position: Position, *, last_move: MoveMarks | None = None,
               perspective: int | None = None,
               names: Sequence[str] | None = None,
               result: str | None = None, locale: str = "en-US") -> NamedRenderer.Drawn:
        self.names.append(names)
        return NamedRenderer.Drawn(b"png", f"alt for {', '.join(names or ())}")

    class Drawn:
        def __init__(self, png: bytes, alt_text: str) -> None:
            self.png = png
            self.alt_text = alt_text


async def test_board_images_name_the_players_and_use_the_renderers_alt_text() -> None:
    renderer = NamedRenderer()
    known = {ALICE: "alice", BOB: "bob"}
    asked: list[tuple[int, int]] = []

    def names(guild_id: int, user_id: int) -> str:
        asked.append((guild_id, user_id))
        return known.get(user_id, "")

    s = MatchService(MemoryRepository(), NullNotifier(), SetClock(), renderer=renderer,
                     names=names)
    m = await start_match(s)
    image = await s.board_image(m.id)
    assert image is not None and image.png == b"png" and image.alt == "alt for alice, bob"
    assert renderer.names == [["alice", "bob"]] and set(asked) == {(10, ALICE), (10, BOB)}
    known.pop(BOB)  # an unknown name falls back to the seat's colour
    await s.board_image(m.id)
    assert renderer.names[-1] == ["alice", "Black"]


async def test_the_real_renderer_names_players_in_its_alt_text() -> None:
    renderer = load_renderer()
    assert renderer is not None
    s = MatchService(MemoryRepository(), NullNotifier(), SetClock(), renderer=renderer,
                     names=lambda g, u: {ALICE: "alice", BOB: "bob"}[u])
    m = await start_match(s)
    await s.move(m.id, ALICE, "h3-e3")
    image = await s.board_image(m.id, perspective=0)
    assert image is not None and image.png.startswith(b"\x89PNG")
    assert "Black (bob) to move" in image.alt and "h3-e3" in image.alt
