"""An imported four-player game where a seat left before it ever moved (issue 44's
``/continue`` of issue 43's leavings): ``{Turquoise is skipped}`` or ``{Turquoise
resigns}`` at his first turn. The seat is out for good, so the match that goes on from
the record no longer waits for his first move: once the seats still in have each moved,
a resignation there ends the game by its rules (ranked in ``fast``, the others play on
in ``slow``), never "aborted before every player had moved"; and Tablero's own export
of either game imports back the same. The record's players stay what they are in the
continued match: an export calls an unnamed one ``?`` (not by his imported id), a
rematch does not ask them, and the analysis names them for the moves they played."""

from __future__ import annotations

import random
from typing import Any

import pytest

from bot.computer import InlineMovePicker
from service import MatchService, MatchStatus, MoveWeighing, Repository
from tests.service.conftest import ALICE, BOB, CAROL, CHANNEL, DAVE, GUILD, Recorder, SetClock
from tests.service.test_reimport import _same_game_imported


def _four(mode: str, body: str) -> str:
    return (f'[Game "alquerque-grande"]\n[Options \'{{"mode": "{mode}", "players": 4}}\']'
            f'\n[White "Ana"]\n[Turquoise "Tomás"]\n[Black "Bea"]\n[Red "Rui"]\n\n{body}\n')


# Turquoise (seat 1) leaves at his first turn; White, Black and Red have each moved
LEFT_EARLY = [
    ("fast", "skip", "1. c3-d4 2. {Turquoise is skipped} 3. e5xc3 4. c5xe5",
     "resignation-ranked"),
    ("slow", "resign", "1. c3-d4 2. {Turquoise resigns} 3. e5xc3 4. c5xe5", None),
    ("slow", "timeout", "1. c3-d4 2. {Turquoise ran out of time} 3. e5xc3 4. c5xe5", None),
]


@pytest.mark.parametrize(("mode", "how", "body", "reason"), LEFT_EARLY)
async def test_a_resignation_in_the_continued_match_is_not_an_abort(
        service: MatchService, repo: Repository, clock: SetClock, mode: str, how: str,
        body: str, reason: str | None) -> None:
    imported = (await service.import_record(GUILD, CHANNEL, ALICE, _four(mode, body))).match
    assert imported.status is MatchStatus.ABORTED and imported.ply == 4
    assert [s.seat for s in imported.seats if s.out] == [1]
    # White is to move: Alice takes it, Bob and Carol Black and Red
    lobby = await service.continue_import(GUILD, CHANNEL, ALICE, imported.id, [BOB, CAROL])
    await service.accept(lobby.id, BOB)
    started = await service.accept(lobby.id, CAROL)
    assert started.status is MatchStatus.ACTIVE and started.to_move == (ALICE,)
    # Bob (Black) resigns: every seat still in has moved in the record
    after = await service.resign(started.id, BOB)
    if reason is not None:  # fast: the game ends, ranked on captures
        assert after.status is MatchStatus.FINISHED
        assert after.result is not None and after.result.reason == reason
    else:  # slow: Black is out, White and Red play on
        assert after.status is MatchStatus.ACTIVE
        assert {s.seat for s in after.seats if s.out} == {1, 2}
        after = await service.resign(started.id, ALICE)
        assert after.status is MatchStatus.FINISHED
        assert after.result is not None and after.result.reason == "last-player"
        assert after.result.winners == (CAROL,)  # Red
    assert await service.verify_all() == []
    # Tablero's own exports of both games import back the same
    await _same_game_imported(service, repo, imported.id)
    await _same_game_imported(service, repo, started.id)


async def test_a_lapsed_clock_in_the_continued_match_is_a_timeout_not_an_abort(
        service: MatchService, repo: Repository, clock: SetClock) -> None:
    """The sweep asks the same question: White (Alice) lets her time run out in the
    ``fast`` game Turquoise was skipped from at his first turn."""
    body = "1. c3-d4 2. {Turquoise is skipped} 3. e5xc3 4. c5xe5"
    imported = (await service.import_record(GUILD, CHANNEL, ALICE, _four("fast", body))).match
    lobby = await service.continue_import(GUILD, CHANNEL, ALICE, imported.id, [BOB, CAROL],
                                          days=1)
    await service.accept(lobby.id, BOB)
    started = await service.accept(lobby.id, CAROL)
    clock.advance(days=1, minutes=1)
    await service.sweep_deadlines()
    after = await service.get_match(started.id)
    assert after.status is MatchStatus.FINISHED
    assert after.result is not None and after.result.reason == "timeout-ranked"
    assert await service.verify_all() == []
    await _same_game_imported(service, repo, started.id)


@pytest.mark.parametrize(("text", "tags"), [
    (_four("slow", "1. c3-d4 2. {Turquoise is skipped} 3. e5xc3").replace(
        '\n[Turquoise "Tomás"]\n[Black "Bea"]\n[Red "Rui"]', ""),
     ('[White "Ana"]', '[Turquoise "?"]', '[Black "?"]', '[Red "?"]')),
    ('[Game "xiangqi"]\n\n1. h3-e3 2. h10-g8', ('[Red "?"]', '[Black "?"]')),
])
async def test_a_player_the_record_did_not_name_stays_unnamed_through_an_export(
        service: MatchService, text: str, tags: tuple[str, ...]) -> None:
    """The export named him by his imported id (``user 9223370938564294905``), which
    the next import took for his name; it says ``?``, PGN's unknown, read as no name.
    (Imported in another server: the same game is imported once in a server.)"""
    imported = (await service.import_record(GUILD, CHANNEL, ALICE, text)).match
    names = [service.imported_name(s.user_id) for s in imported.seats
             if s.user_id is not None]
    export = (await service.history(imported.id)).export
    assert all(tag in export for tag in tags) and "user " not in export
    again = (await service.import_record(GUILD + 1, CHANNEL, ALICE, export)).match
    assert [service.imported_name(s.user_id) for s in again.seats
            if s.user_id is not None] == names
    assert [s.user_id for s in again.seats] == [s.user_id for s in imported.seats]


async def test_a_rematch_of_the_continued_match_leaves_the_record_player_seat_open(
        service: MatchService) -> None:
    """A rematch asks the match's other players; Turquoise's is the record's player, who
    can never accept (the lobby waited for him for good): his seat is an open place."""
    body = "1. c3-d4 2. {Turquoise is skipped} 3. e5xc3 4. c5xe5"
    imported = (await service.import_record(GUILD, CHANNEL, ALICE, _four("fast", body))).match
    lobby = await service.continue_import(GUILD, CHANNEL, ALICE, imported.id, [BOB, CAROL])
    await service.accept(lobby.id, BOB)
    started = await service.accept(lobby.id, CAROL)
    await service.resign(started.id, BOB)
    again = await service.rematch(started.id, ALICE)
    assert again.status is MatchStatus.LOBBY and set(again.invited) == {BOB, CAROL}
    assert {s.user_id for s in again.seats} == {ALICE, BOB, CAROL, None}  # Tomás not asked
    for user in (BOB, CAROL):
        assert (await service.accept(again.id, user)).status is MatchStatus.LOBBY
    full = await service.join(again.id, DAVE)  # the open place, as in any lobby
    assert full.status is MatchStatus.ACTIVE and DAVE in full.players()
    assert await service.verify_all() == []


class CostlyPicker(InlineMovePicker):
    """Weighs every move a three-pawn mistake against the first legal move: each is
    marked by the analysis."""

    def __init__(self) -> None:
        super().__init__(nodes=60)

    async def weigh(self, moves: Any) -> list[Any]:
        return [MoveWeighing(300, 0, p.variant.format_move(p, p.legal_moves()[0]))
                for p, _text in moves]


async def test_the_analysis_names_who_played_each_move_not_who_holds_the_seat_now(
        repo: Repository, clock: SetClock) -> None:
    """The continued match's first moves are the record's players': /analysis said
    "move 1, alice: c3-d4" of Ana's move, because alice holds White now."""
    service = MatchService(repo, Recorder(), clock, rng=random.Random(3),
                           picker=CostlyPicker())
    body = "1. c3-d4 2. {Turquoise is skipped} 3. e5xc3 4. c5xe5"
    imported = (await service.import_record(GUILD, CHANNEL, ALICE, _four("fast", body))).match
    record_players = {s.seat: s.user_id for s in imported.seats}
    lobby = await service.continue_import(GUILD, CHANNEL, ALICE, imported.id, [BOB, CAROL])
    await service.accept(lobby.id, BOB)
    started = await service.accept(lobby.id, CAROL)
    p, _ = await service.position(started.id)
    await service.move(started.id, ALICE, p.variant.format_move(p, p.legal_moves()[0]))
    await service.resign(started.id, BOB)
    marked = await service.analysis(started.id, top=10)
    assert {a.ply: a.user for a in marked} == {
        0: record_players[0], 2: record_players[2], 3: record_players[3], 4: ALICE}
