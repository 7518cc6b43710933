"""The replay and analysis pictures of a match continued from an imported game name each
seat's players for the whole game: the record's player, who played its first plies, and
today's, "Ana (imported) → bob"; a seat held by the same player throughout is named once
(issue 44: the chips named only today's players, as if they had played the record)."""

from __future__ import annotations

from bot.discordapp.media import drawn_names
from service import MatchService
from storage import MemoryRepository
from tests.service.conftest import Recorder, SetClock, start_match
from tests.service.test_continued_holders import NAMES, _continued


async def test_the_replay_names_the_record_players_then_today_s() -> None:
    svc, _record_players, match_id = await _continued(
        MatchService(MemoryRepository(), Recorder(), SetClock()))
    record = await svc.record(match_id)
    names = drawn_names(record, lambda guild, user: NAMES.get(user, ""))
    # White: Ana then Bob; Turquoise left in the record (his seat stays Tomás's);
    # Black: Bea then Carol; Red: Rui then Alice
    assert names == ["Ana (imported) → bob", "Tomás (imported)", "Bea (imported) → carol",
                     "Rui (imported) → alice"]


async def test_a_match_not_continued_names_its_players_once() -> None:
    svc = MatchService(MemoryRepository(), Recorder(), SetClock())
    m = await start_match(svc, "alquerque", seat="white")
    record = await svc.record(m.id)
    assert not record.record_seats
    assert drawn_names(record, lambda guild, user: NAMES.get(user, "")) == ["alice", "bob"]
