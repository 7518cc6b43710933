"""``/continue`` takes ``on_timeout`` as ``/challenge`` does (the same values, checks and
meaning): a continued four-player game says what happens to a seat whose time runs out
(skipped for the rest of the game, or played on by the computer at ``level``), checked
against the position it goes on from; without it, ``end`` as ever."""

from __future__ import annotations

import random

import pytest

from bot.computer import InlineMovePicker
from service import (
    InvalidOption,
    MatchService,
    MatchStatus,
    PlayerOut,
    Repository,
    SeatTakenOver,
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
    play_random,
)


def _four(mode: str, body: str = "1. c3-d4 2. e3xc3") -> str:
    return (f'[Game "alquerque-grande"]\n[Options \'{{"mode": "{mode}", "players": 4}}\']'
            f"\n\n{body}\n")


TWO = '[Game "alquerque-grande"]\n[Options \'{"players": 2}\']\n\n1. c3-d4 2. e5xc3\n'


async def _continued(service: MatchService, text: str, **terms: object) -> int:
    imported = (await service.import_record(GUILD, CHANNEL, ALICE, text)).match
    asked = await service.continue_import(GUILD, CHANNEL, ALICE, imported.id,
                                          [BOB, CAROL, DAVE], days=1, **terms)  # type: ignore[arg-type]
    for user in (BOB, CAROL, DAVE):
        await service.accept(asked.id, user)
    started = await service.get_match(asked.id)
    assert started.status is MatchStatus.ACTIVE
    await play_random(service, started.id, 4, seed=3)  # everyone has moved once
    return started.id


async def test_skip_a_late_seat_of_a_continued_game(
        service: MatchService, clock: SetClock, recorder: Recorder) -> None:
    match_id = await _continued(service, _four("fast"), on_timeout="skip")
    m = await service.get_match(match_id)
    assert m.on_timeout == "skip"
    late = m.to_move[0]
    clock.advance(days=1, minutes=1)
    await service.sweep_deadlines()
    assert [(e.user_id, e.reason) for e in recorder.of(PlayerOut)] == [(late, "skipped")]
    after = await service.get_match(match_id)
    assert after.status is MatchStatus.ACTIVE and after.skipped_since(late) is not None
    assert late not in after.to_move
    assert await service.verify_all() == []


async def test_the_computer_plays_a_late_seat_of_a_continued_game(
        repo: Repository, clock: SetClock, recorder: Recorder) -> None:
    service = MatchService(repo, recorder, clock, rng=random.Random(5),
                           picker=InlineMovePicker(nodes=50))
    match_id = await _continued(service, _four("fast"), on_timeout="computer",
                                stand_in_level=3)
    m = await service.get_match(match_id)
    assert m.on_timeout == "computer"
    late = m.to_move[0]
    clock.advance(days=1, minutes=1)
    events = await service.sweep_deadlines()
    taken = [e for e in events if isinstance(e, SeatTakenOver)]
    assert [(e.user, e.level) for e in taken] == [(late, 3)]
    assert (await service.get_match(match_id)).stand_in_since(late) == m.ply + 1
    await service.computers_idle()


async def test_without_it_a_late_seat_ends_as_ever(service: MatchService) -> None:
    m = await service.get_match(await _continued(service, _four("slow")))
    assert m.on_timeout == "end"


@pytest.mark.parametrize(("text", "terms", "said"), [
    (TWO, {"on_timeout": "skip"}, "on_timeout:skip is for four-player games (two players "
     "cannot go on without one)"),
    (_four("teams"), {"on_timeout": "computer"}, "on_timeout:computer is for four-player "
     "games without teams (teams keep their rules)"),
    (_four("fast"), {"on_timeout": "later"}, "on_timeout must be end, skip or computer"),
    (_four("fast"), {"on_timeout": ""}, "on_timeout must be end, skip or computer"),
    (_four("fast"), {"on_timeout": "computer", "stand_in_level": 9},
     "the computer plays at levels 1 (beginner) to 8 (strongest)"),
    (_four("fast"), {"on_timeout": "skip", "stand_in_level": 3},
     "a level is for the computer that plays a late player's seat: it goes with "
     "on_timeout:computer"),
    (_four("fast"), {"stand_in_level": 3},
     "a level is for the computer that plays a late player's seat: it goes with "
     "on_timeout:computer"),
])
async def test_on_timeout_is_checked_as_challenge_checks_it(
        service: MatchService, text: str, terms: dict[str, object], said: str) -> None:
    imported = (await service.import_record(GUILD, CHANNEL, ALICE, text)).match
    opponents = [BOB] if text is TWO else [BOB, CAROL, DAVE]
    with pytest.raises(InvalidOption) as refused:
        await service.continue_import(GUILD, CHANNEL, ALICE, imported.id, opponents,
                                      **terms)  # type: ignore[arg-type]
    assert refused.value.message == said
    assert await service.games_of(GUILD, BOB) == []


async def test_a_seat_already_out_of_the_record_does_not_stop_skip(
        service: MatchService) -> None:
    """The record's Red left (skipped); three seats go on, and a fast game of three
    can still skip one more: the check asks the rules about a seat still in."""
    text = _four("fast", "1. c3-d4 2. e3xc3 3. d5xd3 4. {Red is skipped}")
    imported = (await service.import_record(GUILD, CHANNEL, ALICE, text)).match
    asked = await service.continue_import(GUILD, CHANNEL, ALICE, imported.id, [BOB, CAROL],
                                          on_timeout="skip")
    assert asked.on_timeout == "skip"
