"""Tablero's own ``/history`` export imports back to the same game (issue 44's import
with issue 43's leavings): four-player Alquerque grande games where seats resigned, ran
out of time or were skipped in the middle, in every mode, and two-player games, played
through the service, exported, imported and compared ply by ply (the same entries, the
same position after each, the same end, result and seats out). The seats that left are
replayed by the rules' own ``resign`` and ``skip_seat`` where the record says they left.
"""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from service import InvalidOption, MatchService, MatchStatus, Repository
from service.imported_seats import is_imported
from service.importer import AlreadyImported
from tests.service.conftest import (
    ALICE,
    BOB,
    CAROL,
    CHANNEL,
    DAVE,
    GUILD,
    SetClock,
    play_random,
    start_four,
    start_match,
)

Step = tuple[str, ...]
"""One thing that happens in a scenario: ("play", plies); ("resign", who), who "mover"
(the seat to move), "other" (another seat still in) or "rival" (a seat of a team still
whole); ("late",): the seat to move runs out of time; ("draw",): the players still in
agree a draw."""


async def _act(service: MatchService, clock: SetClock, match_id: int, step: Step,
               seed: int) -> None:
    m = await service.get_match(match_id)
    if step[0] == "play":
        await play_random(service, match_id, int(step[1]), seed=seed)
    elif step[0] == "resign":
        still = [s.user_id for s in m.seats if not s.out and s.user_id is not None]
        beaten = {s.team for s in m.seats if s.out}  # teams with a seat out already
        leaver = m.to_move[0] if step[1] == "mover" else \
            next(u for u in still if u not in m.to_move) if step[1] == "other" else \
            next(u for s in m.seats if not s.out and s.team not in beaten
                 and (u := s.user_id) is not None)
        await service.resign(match_id, leaver)
    elif step[0] == "late":
        clock.advance(days=1, minutes=1)
        await service.sweep_deadlines()
    else:
        assert step == ("draw",)
        still = [s.user_id for s in m.seats if not s.out and s.user_id is not None]
        await service.offer_draw(match_id, still[0])
        for user in still[1:]:
            await service.accept_draw(match_id, user)


async def _played(service: MatchService, clock: SetClock, match_id: int,
                  steps: Sequence[Step]) -> None:
    for n, step in enumerate(steps):
        await _act(service, clock, match_id, step, seed=n + 11)


async def _same_game_imported(service: MatchService, repo: Repository, match_id: int,
                              export_format: str = "tablero") -> int:
    """Export match ``match_id`` as ``/history`` does and import it: a game that ended,
    or an import, is in its server already (imported there, it is refused naming the
    match, and nothing is stored), so it is imported in another; one still being played,
    in its own (a snapshot of it). Check the import is the same game: every entry, the
    position after it, how it ended, the seats out and since when a seat's turns are
    skipped. Returns the imported match."""
    history = await service.history(match_id)
    assert history.export_format == export_format
    guild = GUILD
    was = await repo.load_match(match_id)
    assert was is not None
    if was.status is not MatchStatus.ACTIVE:
        count = len(await repo.match_ids())
        with pytest.raises(AlreadyImported) as refused:
            await service.import_record(GUILD, CHANNEL, ALICE, history.export)
        assert (refused.value.match_id, refused.value.played) == \
            (match_id, was.import_key is None)
        assert len(await repo.match_ids()) == count
        guild = GUILD + 1
    imported = (await service.import_record(guild, CHANNEL, ALICE, history.export)).match
    original, copy = await service.record(match_id), await service.record(imported.id)
    assert [(x.ply, x.seat, x.canonical, x.display, x.position.to_text())
            for x in copy.plies] == [(x.ply, x.seat, x.canonical, x.display,
                                      x.position.to_text()) for x in original.plies]
    was, now = await repo.load_match(match_id), await repo.load_match(imported.id)
    assert was is not None and now is not None
    assert now.result == was.result and now.position_text == was.position_text
    assert {s.seat for s in now.seats if s.out} == {s.seat for s in was.seats if s.out}
    seat_was = {s.user_id: s.seat for s in was.seats}
    seat_now = {s.user_id: s.seat for s in now.seats}
    assert {seat_now[u]: n for u, n in now.clock.skipped} == \
        {seat_was[u]: n for u, n in was.clock.skipped}  # his turns skipped from the same ply
    finished = was.status is MatchStatus.FINISHED
    assert now.status is (MatchStatus.FINISHED if finished else MatchStatus.ABORTED)
    assert await service.verify_all() == []
    return imported.id


FOUR: list[tuple[str, str, list[Step], str | None]] = [
    # mode, on_timeout, what happens, how it ends (None: it goes on)
    ("fast", "skip", [("play", "5"), ("late",), ("play", "6"), ("late",), ("play", "3"),
                      ("resign", "other")], "resignation-ranked"),
    ("fast", "end", [("play", "6"), ("late",)], "timeout-ranked"),
    ("fast", "skip", [("play", "4"), ("late",), ("play", "5"), ("draw",)], "agreement"),
    ("slow", "end", [("play", "4"), ("resign", "other"), ("play", "5"), ("late",),
                     ("play", "3"), ("resign", "mover")], "last-player"),
    ("slow", "skip", [("play", "5"), ("late",), ("play", "4"), ("resign", "mover"),
                      ("play", "3"), ("draw",)], "agreement"),
    ("slow", "skip", [("play", "4"), ("late",), ("play", "6")], None),
    ("teams", "skip", [("play", "4"), ("late",), ("play", "6"), ("resign", "rival"),
                       ("play", "2")], None),
    ("teams", "end", [("play", "5"), ("resign", "mover"), ("play", "4"), ("late",)], "timeout"),
    ("teams", "end", [("play", "4"), ("late",), ("play", "3"), ("resign", "rival"),
                      ("play", "3"), ("draw",)], "agreement"),
]


@pytest.mark.parametrize(("mode", "on_timeout", "steps", "reason"), FOUR)
async def test_a_four_player_game_with_seats_gone_imports_back_the_same(
        service: MatchService, repo: Repository, clock: SetClock, mode: str,
        on_timeout: str, steps: list[Step], reason: str | None) -> None:
    m = await start_four(service, mode, on_timeout=on_timeout)
    await _played(service, clock, m.id, steps)
    after = await service.get_match(m.id)
    gone = [e for e in (await service.history(m.id)).entries if e[2].startswith("#")]
    assert len(gone) == sum(s[0] in ("resign", "late", "draw") for s in steps)
    if reason is None:
        assert after.status is MatchStatus.ACTIVE
    else:
        assert after.result is not None and after.result.reason == reason
    # a leaving in the middle is in the export as the history writes it
    export = (await service.history(m.id)).export
    assert any(w in export for w in (" is skipped}", " resigns}", " ran out of time}"))
    await _same_game_imported(service, repo, m.id)


TWO: list[tuple[str, dict[str, object], list[Step], str]] = [
    ("alquerque-grande", {"players": 2, "rules": "grande"},
     [("play", "7"), ("resign", "mover")], "resignation"),
    ("alquerque-grande", {"players": 2}, [("play", "6"), ("resign", "other")], "resignation"),
    ("alquerque-grande", {"players": 2}, [("play", "5"), ("late",)], "timeout"),
    ("alquerque", {}, [("play", "6"), ("draw",)], "agreement"),
    ("querni", {"setup": "random", "seed": 4}, [("play", "4"), ("late",)], "timeout"),
    # the standard formats say it after the last move as Tablero's record does
    ("damas", {}, [("play", "6"), ("resign", "mover")], "resignation"),
    ("damas", {}, [("play", "5"), ("late",)], "timeout"),
    ("damas", {}, [("play", "4"), ("draw",)], "agreement"),
    ("xiangqi", {}, [("play", "5"), ("resign", "other")], "resignation"),
    ("xiangqi", {}, [("play", "6"), ("late",)], "timeout"),
    ("xiangqi", {}, [("play", "3"), ("draw",)], "agreement"),
]
FORMATS = {"damas": "pdn", "xiangqi": "wxf"}


@pytest.mark.parametrize(("game", "options", "steps", "reason"), TWO)
async def test_a_two_player_game_that_ended_outside_the_rules_imports_back_the_same(
        service: MatchService, repo: Repository, clock: SetClock, game: str,
        options: dict[str, object], steps: list[Step], reason: str) -> None:
    m = await start_match(service, game, options=options, days=1)
    await _played(service, clock, m.id, steps)
    after = await service.get_match(m.id)
    assert after.result is not None and after.result.reason == reason
    await _same_game_imported(service, repo, m.id, FORMATS.get(game, "tablero"))


@pytest.mark.parametrize(("mode", "steps"), [
    ("teams", [("play", "4"), ("late",), ("play", "5")]),
    ("slow", [("play", "4"), ("resign", "other"), ("play", "3"), ("late",), ("play", "2")]),
])
async def test_an_imported_game_seats_left_goes_on_with_the_seats_still_in(
        service: MatchService, repo: Repository, clock: SetClock, mode: str,
        steps: list[Step]) -> None:
    """``/continue`` of an imported game where seats left: the seats still in are the
    people's, the seats out stay out (kept by the record's players, skipped from the
    same ply), so only the players still in are invited and the game goes on exactly
    where the record left it."""
    m = await start_four(service, mode, on_timeout="skip" if mode == "teams" else "end")
    await _played(service, clock, m.id, steps)
    imported_id = await _same_game_imported(service, repo, m.id)
    imported = await service.get_match(imported_id)
    out = tuple(s.seat for s in imported.seats if s.out and s.seat is not None)
    still = 4 - len(out)
    assert out and (await service.continuable(imported_id)).out == out
    with pytest.raises(InvalidOption, match=f"{still} of the 4 seats of imported game "
                       f"#{imported_id} still play: continuing it needs {still - 1} "
                       "opponents?"):
        await service.continue_import(GUILD, CHANNEL, ALICE, imported_id, [BOB, CAROL, DAVE])
    with pytest.raises(InvalidOption, match=f"is out of imported game #{imported_id}: play "
                                            "a seat that is still in it"):
        await service.continue_import(GUILD, CHANNEL, ALICE, imported_id,
                                      [BOB, CAROL, DAVE][:still - 1], seat=out[0])
    invited = [BOB, CAROL, DAVE][:still - 1]
    lobby = await service.continue_import(GUILD, CHANNEL, ALICE, imported_id, invited)
    assert lobby.status is MatchStatus.LOBBY
    for user in invited:
        started = await service.accept(lobby.id, user)
    assert started.status is MatchStatus.ACTIVE
    assert started.position_text == imported.position_text and started.ply == imported.ply
    kept = {s.seat: s for s in started.seats}
    for seat in out:  # the seats out are the record's players', out, skipped as they were
        was = next(s for s in imported.seats if s.seat == seat)
        assert kept[seat].out and kept[seat].user_id == was.user_id
        assert is_imported(was.user_id)
        assert started.skipped_since(was.user_id) == imported.skipped_since(was.user_id)
    assert {s.user_id for s in started.seats if not s.out} == {ALICE, *invited}
    for n in range(6):  # the people play on; no seat out is ever to move
        now = await play_random(service, started.id, 1, seed=n)
        if not now.status.is_live:
            break
        assert set(now.to_move) <= {ALICE, *invited}
    assert await service.verify_all() == []
