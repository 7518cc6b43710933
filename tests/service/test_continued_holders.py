"""Who held each seat at an earlier ply of a match continued from an imported game
(issue 44): the record's plies were played by the record's players ("Ana (imported)"),
the continuation by today's seat holders. The stepper's seats, movers and board words
at a ply of the record name the record's players, from the continuation on today's; a
seat that never moved in the record is the record's player's there too. On every
repository."""

from __future__ import annotations

import random

from bot.boards import load_renderer
from service import MatchService, MatchStatus
from tests.service.conftest import ALICE, BOB, CAROL, CHANNEL, DAVE, GUILD, Recorder, SetClock

NAMES = {ALICE: "alice", BOB: "bob", CAROL: "carol", DAVE: "dave"}
RECORD = ('[Game "alquerque-grande"]\n[Options \'{"mode": "slow", "players": 4}\']\n'
          '[White "Ana"]\n[Turquoise "Tomás"]\n[Black "Bea"]\n[Red "Rui"]\n\n'
          '1. c3-d4 2. {Turquoise is skipped} 3. e5xc3\n')


async def _continued(service: MatchService) -> tuple[MatchService, dict[int, int], int]:
    """The record imported and continued (Red to move: Alice; Bob White, Carol Black;
    Turquoise left in the record), Alice's first move played: the service drawing
    boards with names, the record's players by seat and the continued match's id."""
    svc = MatchService(service.repository, Recorder(), SetClock(), renderer=load_renderer(),
                       rng=random.Random(2), names=lambda g, u: NAMES.get(u, ""))
    imported = (await svc.import_record(GUILD, CHANNEL, ALICE, RECORD)).match
    record_players = {s.seat: s.user_id for s in imported.seats}
    lobby = await svc.continue_import(GUILD, CHANNEL, ALICE, imported.id, [BOB, CAROL])
    await svc.accept(lobby.id, BOB)
    started = await svc.accept(lobby.id, CAROL)
    assert started.status is MatchStatus.ACTIVE and started.to_move == (ALICE,)
    assert {s.seat: s.user_id for s in started.seats} == {0: BOB, 1: record_players[1],
                                                           2: CAROL, 3: ALICE}
    p, _ = await svc.position(started.id)
    await svc.move(started.id, ALICE, p.variant.format_move(p, p.legal_moves()[0]))
    return svc, record_players, started.id


async def test_a_ply_of_the_record_shows_the_record_players(service: MatchService) -> None:
    """At ply 2 (Ana's move made, Bea to move) the seats, the player to move and the
    board's words were "White: alice" and "Black (carol) to move" of the record's game."""
    svc, record_players, match_id = await _continued(service)
    board = await svc.board_at(match_id, 2)
    assert board.step is not None and board.step.seat == 1  # Turquoise's skip
    assert {s.seat: s.user_id for s in board.match.seats} == record_players
    assert [s.player for s in board.match.seats] == ["Ana", "Tomás", "Bea", "Rui"]
    assert all(s.rating is None for s in board.match.seats)
    assert board.match.to_move == (record_players[2],)
    assert board.image is not None
    alt = board.image.alt
    for name in ("alice", "bob", "carol"):
        assert name not in alt, (name, alt)
    assert "Black (Bea (imported)) to move." in alt
    start = await svc.board_at(match_id, 0)
    assert {s.seat: s.user_id for s in start.match.seats} == record_players
    assert start.match.to_move == (record_players[0],)
    assert start.image is not None and "White (Ana (imported)) to move." in start.image.alt
    first = await svc.board_at(match_id, 1)
    assert first.step is not None and first.step.user_id == record_players[0]
    assert first.match.seats[0].user_id == record_players[0]


async def test_from_the_continuation_on_the_seats_are_today_s(service: MatchService) -> None:
    """Ply 3 is where the continuation starts (Alice to move as Red), ply 4 the latest:
    both name today's players; the seat that left in the record stays its player's."""
    svc, record_players, match_id = await _continued(service)
    today = {0: BOB, 1: record_players[1], 2: CAROL, 3: ALICE}
    for ply in (3, 4):
        board = await svc.board_at(match_id, ply)
        assert {s.seat: s.user_id for s in board.match.seats} == today, ply
        assert board.image is not None and "(imported)) to move" not in board.image.alt
    at_continuation = await svc.board_at(match_id, 3)
    assert at_continuation.match.to_move == (ALICE,)
    assert at_continuation.image is not None and \
        "Red (alice) to move." in at_continuation.image.alt
    last = await svc.board_at(match_id, 4)
    assert last.step is not None and last.step.user_id == ALICE


async def test_a_seat_that_never_moved_in_the_record_is_the_record_player_s(
        service: MatchService) -> None:
    """Only White moved in the record: at its start Black is still Bea's, not today's."""
    svc = MatchService(service.repository, Recorder(), SetClock(), rng=random.Random(1),
                       names=lambda g, u: NAMES.get(u, ""))
    text = '[Game "damas"]\n[White "Ana"]\n[Black "Bea"]\n\n1. b3-a4\n'
    imported = (await svc.import_record(GUILD, CHANNEL, ALICE, text)).match
    record_players = {s.seat: s.user_id for s in imported.seats}
    lobby = await svc.continue_import(GUILD, CHANNEL, ALICE, imported.id, [BOB])
    started = await svc.accept(lobby.id, BOB)
    assert started.to_move == (ALICE,)  # Black goes on: Alice
    start = await svc.board_at(started.id, 0)
    assert {s.seat: s.user_id for s in start.match.seats} == record_players
    assert [s.player for s in start.match.seats] == ["Ana", "Bea"]
    now = await svc.board_at(started.id, 1)
    assert {s.seat: s.user_id for s in now.match.seats} == {0: BOB, 1: ALICE}
