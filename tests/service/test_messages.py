"""What a demanding player noticed while playing through the service: messages name people
and say why, exports carry the players, and nobody is put out of a game silently."""

from __future__ import annotations

import random

import pytest

import rules
from locales.i18n import render
from rules.core import REASONS, reason_text
from service import (
    MatchService,
    NotAllowed,
    NotYourTurn,
    PlayerOut,
    Repository,
    TurnStarted,
)
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

NAMES = {ALICE: "alice", BOB: "bob", CAROL: "carol", DAVE: "dave"}


@pytest.fixture
def named(repo: Repository, clock: SetClock, recorder: Recorder) -> MatchService:
    """A service that knows display names, as the Discord adapter and console do."""
    return MatchService(repo, recorder, clock, rng=random.Random(7),
                        names=lambda guild, user: NAMES.get(user, ""))


async def test_not_your_turn_names_the_player_and_his_colour(named: MatchService) -> None:
    m = await start_match(named, "xiangqi", seat=0)
    with pytest.raises(NotYourTurn) as err:
        await named.move(m.id, BOB, "h10-g8")
    assert err.value.message == "it is not your turn: alice (Red) to move"


async def test_not_your_turn_without_names_says_the_colour(service: MatchService) -> None:
    m = await start_match(service, "xiangqi", seat=0)
    with pytest.raises(NotYourTurn, match=r"^it is not your turn: Red to move$"):
        await service.move(m.id, BOB, "h10-g8")


@pytest.mark.parametrize(("game", "first", "header"), [
    ("xiangqi", "h3-e3", '[Red "alice"]'), ("damas", "d3-c4", '[White "alice"]')])
async def test_standard_exports_name_the_players(named: MatchService, game: str,
                                                 first: str, header: str) -> None:
    m = await start_match(named, game, seat=0)
    await named.move(m.id, ALICE, first)
    h = await named.history(m.id)
    assert header in h.export
    assert "user " not in h.export  # never a raw user id when the name is known


async def test_the_tablero_export_names_players_result_and_resignation(
        named: MatchService) -> None:
    m = await start_match(named, "alquerque", seat=0)
    await named.move(m.id, ALICE, "d2-c3")
    await named.move(m.id, BOB, "d4-d2")
    await named.resign(m.id, BOB)
    export = (await named.history(m.id)).export
    assert '[White "alice"]' in export and '[Black "bob"]' in export
    assert '[Result "White won: opponent resigned"]' in export
    assert export.rstrip().endswith("1. d2-c3 2. d4xd2 3. {Black resigns}")
    assert "#resign" not in export


async def test_a_finished_match_is_described_as_over_not_as_someone_to_move(
        named: MatchService) -> None:
    m = await start_match(named, "xiangqi", seat=0)
    await named.move(m.id, ALICE, "h3-e3")
    await named.move(m.id, BOB, "h8-e8")
    await named.resign(m.id, BOB)
    view = await named.get_match(m.id)
    p, _ = await named.position(m.id)
    text = render(named.describe(view, p), "en-US")
    assert "to move" not in text and "game over (opponent resigned)" in text
    assert ", after 2 moves:" in text  # a resignation is not a move


async def test_the_description_names_who_is_to_move(named: MatchService) -> None:
    m = await start_match(named, "xiangqi", seat=0)
    p, _ = await named.position(m.id)
    assert render(named.describe(m, p), "en-US") == \
        "Xiangqi, match #1, after 0 moves: alice (Red) to move"


async def test_the_description_says_a_check_as_the_picture_does(
        named: MatchService) -> None:
    """The board's alt text (Discord's, the web's words) says "check!" where the picture
    does: a reader who cannot see the picture was not told his general was attacked."""
    m = await start_match(named, "xiangqi", seat=0)
    await named.move(m.id, ALICE, "h3-e3")
    await named.move(m.id, BOB, "h8-e8")
    m = (await named.move(m.id, ALICE, "e3xe7")).match
    p, _ = await named.position(m.id)
    assert p.checked_point() is not None
    described = named.describe(m, p)
    assert render(described, "en-US") == "Xiangqi, match #1, after 3 moves: bob (Black) " \
        "to move · check!; last move e3xe7 (C5+4)"
    assert "将军！" in render(described, "zh-CN")
    m = (await named.move(m.id, BOB, "d10-e9")).match  # covered: no check now
    p, _ = await named.position(m.id)
    assert "check" not in render(named.describe(m, p), "en-US")


async def test_a_seat_the_game_puts_out_is_announced(named: MatchService,
                                                    recorder: Recorder) -> None:
    """Four-player teams: a seat without a legal move at its turn is out (RULES §2); the
    players must be told, not find the turn skipping him. Seed 0 reaches that at ply 137."""
    m = await named.challenge(GUILD, CHANNEL, ALICE, "alquerque-grande",
                              opponents=[BOB, CAROL, DAVE],
                              options={"players": 4, "mode": "teams"})
    for user in (BOB, CAROL, DAVE):
        m = await named.accept(m.id, user)
    rng = random.Random(0)
    v = rules.variant("alquerque-grande")
    for _ in range(138):
        p, _ = await named.position(m.id)
        mv = rng.choice(list(p.legal_moves()))
        m = (await named.move(m.id, m.to_move[0], v.format_move(p, mv))).match
        if any(s.out for s in m.seats):
            break
    out = [s for s in m.seats if s.out]
    assert len(out) == 1, "seed 0 should put one seat out"
    told = [e for e in recorder.of(PlayerOut) if isinstance(e, PlayerOut)]
    assert [(e.user_id, e.reason, render(e.what, "en-US")) for e in told] == [
        (out[0].user_id, "no-moves", "cannot move")]
    # told right after the move that did it is announced
    kinds = [type(e) for e in recorder.events]
    assert kinds[-2:] == [TurnStarted, PlayerOut]


def test_every_reason_a_game_ends_with_has_words() -> None:
    """Random games of every variant end only with reasons that ``reason_text`` knows (a
    new reason key must get its words, or players read 'no-chains')."""
    seen: set[str] = set()
    for v in rules.VARIANTS.values():
        for options in v.example_options or ({},):
            for seed in range(6):
                rng = random.Random(seed)
                p = v.start(**options)
                for _ in range(300):
                    if p.outcome() is not None:
                        break
                    p = p.play(rng.choice(list(p.legal_moves())))
                if p.outcome() is not None:
                    seen.add(p.outcome().reason)  # type: ignore[union-attr]
    assert seen and seen <= set(REASONS), seen - set(REASONS)
    assert reason_text("no-pieces") == "opponent out of pieces"
    assert reason_text("brand-new") == "brand new"


class ResultRecordingRenderer:
    """A BoardRenderer that keeps the ``result`` line it is given."""

    def __init__(self) -> None:
        self.results: list[str | None] = []

    def render(self, position: rules.Position, *, last_move: object = None,
               perspective: int | None = None, names: object = None,
               result: str | None = None, locale: str = "en-US") -> ResultRecordingRenderer.Drawn:
        self.results.append(result)
        return ResultRecordingRenderer.Drawn()

    class Drawn:
        png = b"png"
        alt_text = "alt"


async def test_the_board_of_a_resigned_match_says_how_it_ended(
        repo: Repository, clock: SetClock, recorder: Recorder) -> None:
    """A resignation leaves a position with a side to move; its image must not say so."""
    renderer = ResultRecordingRenderer()
    service = MatchService(repo, recorder, clock, rng=random.Random(7), renderer=renderer,
                           names=lambda guild, user: NAMES.get(user, ""))
    m = await start_match(service, "xiangqi", seat=0)
    await service.board_image(m.id)
    await service.move(m.id, ALICE, "h3-e3")
    await service.move(m.id, BOB, "h8-e8")
    await service.resign(m.id, BOB)
    await service.board_image(m.id)
    assert renderer.results == [None, "Red (alice) wins: opponent resigned"]


async def test_the_setup_phase_messages_name_the_command_to_use(service: MatchService) -> None:
    m = await start_match(service, "querni", options={"setup": "choose"})
    with pytest.raises(NotAllowed, match=r"submit your arrangement with /setup \(your 16 "):
        await service.move(m.id, ALICE, "c2-c3")
    numbers = " ".join(str(n) for n in range(1, 17))
    await service.submit_setup(m.id, ALICE, numbers)
    await service.submit_setup(m.id, BOB, numbers)
    with pytest.raises(NotAllowed, match="not in its setup phase: play moves with /move"):
        await service.submit_setup(m.id, ALICE, numbers)
