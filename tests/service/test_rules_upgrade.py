"""Stored matches keep the rules they were played with (issue 18, RULES §2.5's last
paragraph): a database written by the code before rules version 2 replays after the
upgrade, ``verify_all`` finds nothing broken, and the old matches go on by their old rules.

The rows are written through today's schema and repository code path exactly as the service
before issue 18 wrote them (rules version "1", the options it stored, its start and
position texts, canonical entries); the records below were produced by that code.
"""

from __future__ import annotations

import dataclasses
import re
from datetime import timedelta
from pathlib import Path

import pytest

import rules
from rules.alquerque import AlquerquePosition
from rules.alquerque_grande import AlquerqueGrandePosition
from rules.querni import QuerniPosition
from service import MatchBroken, MatchService, MatchStatus, RecordEntry
from service.records import MatchRecord, SeatRecord
from service.states import replay
from storage import SqliteRepository
from tests.service.conftest import ALICE, BOB, CHANNEL, GUILD, Recorder, SetClock, start_match

# A two-player Alquerque grande match under the author's rules (it huffs: d5-c5 huffed e5).
GRANDE_START = ("BBBBBBB/BBBBBBB/BBBBBBB/BBB.WWW/WWWWWWW/WWWWWWW/WWWWWWW "
                "w -,- 0,0 - 0 - players=2 -")
GRANDE_NOW = ("BBBBBBB/BBBBBB./BBB...B/B.B.W../WWW..W./WWW.WWW/WWWWWWW "
              "w d3>c3,d5>c5 0,2 - 0 e5 players=2 -")
GRANDE_MOVES = ("e3-d4", "g5xe3", "g3-f4", "g6-g5", "f4-e3", "b4xd2", "e3-d2", "c5-d4",
                "c2-c3", "d4-e5", "d2-c2", "f5-e5", "d3-c3", "d5-c5")

# A Querni match (seed 0) with voluntary passes and a movement, d6-d4, reachable only as
# d6-b4-b6-d4 (jumping c5 twice).
QUERNI_START = ("P9,P13,P5,4,P7,P1,P12/P11,1,P16,4,P14,1,P2/P3,P4,P10,4,P8,P15,P6/10/"
                "B5,B8,B13,4,B10,B1,B16/B6,1,B14,4,B9,1,B4/B3,B11,B15,4,B12,B7,B2 b 0 0,0")
QUERNI_NOW = ("P11,P13,P5,4,P7,P1,P12/P9,6,P14,P2,1/P3,P4,P10,4,P8,P15,P6/3,P16,3,B10,1,B4/"
              "B5,7,B1,B16/B6,B8,5,B9,2/B3,B11,5,B12,B7,B2 p 6 3,0")
QUERNI_MOVES = ("pass", "j6-i6", "h3-g4", "a7-b6", "c1-b2", "a6-a7", "g4-h4 r13-15", "b6-a6",
                "j2-j4", "c6-d6", "b3-b2", "d6-d4", "pass")


async def write_old_match(repo: SqliteRepository, clock: SetClock, game: str,
                          options: dict[str, object], start: str, now: str,
                          moves: tuple[str, ...], last_move: str) -> int:
    """Write one active two-player match as the service before issue 18 did: created with
    rules version "1", then every move appended with the cached position in the same save."""
    t = clock.now()
    rec = MatchRecord(
        id=0, guild_id=GUILD, channel_id=CHANNEL, thread_id=None, game=game, ladder=game,
        rules_version="1", options=options, start_text=start, seat_count=2,
        status=MatchStatus.ACTIVE, challenger_id=ALICE,
        seats=(SeatRecord(ALICE, seat=0), SeatRecord(BOB, seat=1)), seat_pref=0,
        seating="chosen", ply=0, position_text=start, to_move=(0,), last_move=None,
        days_per_move=3, rated=True, deadline=t + timedelta(days=3),
        remind_at=t + timedelta(days=2), draw_offer=None, result=None, broken=None,
        created_at=t, updated_at=t)
    created = await repo.create_match(rec)
    entries = [RecordEntry(ply, ply % 2, text, (ALICE, BOB)[ply % 2], t)
               for ply, text in enumerate(moves)]
    after = dataclasses.replace(created, ply=len(moves), position_text=now,
                                to_move=(len(moves) % 2,), last_move=last_move,
                                last_move_by=(ALICE, BOB)[(len(moves) - 1) % 2])
    saved = await repo.save(created, after, entries)
    return saved.id


@pytest.fixture
async def old_db(tmp_path: Path) -> tuple[SqliteRepository, SetClock, int, int]:
    repo = await SqliteRepository.open(tmp_path / "tablero.db")
    clock = SetClock()
    grande = await write_old_match(repo, clock, "alquerque-grande", {"players": 2},
                                   GRANDE_START, GRANDE_NOW, GRANDE_MOVES, "d5-c5 (huff e5)")
    querni = await write_old_match(repo, clock, "querni", {"setup": "random", "seed": 0},
                                   QUERNI_START, QUERNI_NOW, QUERNI_MOVES, "pass")
    yield repo, clock, grande, querni
    await repo.close()


async def test_verify_all_finds_no_broken_match_after_the_upgrade(
        old_db: tuple[SqliteRepository, SetClock, int, int]) -> None:
    repo, clock, grande, querni = old_db
    service = MatchService(repo, Recorder(), clock)
    assert await service.verify_all() == []
    for match_id in (grande, querni):
        m = await service.get_match(match_id)
        assert m.status is MatchStatus.ACTIVE and m.broken is None


async def test_the_records_need_their_rules_version(
        old_db: tuple[SqliteRepository, SetClock, int, int]) -> None:
    """The check above can fail: read as version 2, both records break where the rules
    changed (the grande start differs; Querni's first voluntary pass)."""
    repo, _, grande, querni = old_db
    for match_id, where in ((grande, "start a different position"),
                            (querni, "entry 1 ('pass') does not replay")):
        rec = await repo.load_match(match_id)
        assert rec is not None
        relabelled = dataclasses.replace(rec, rules_version="2")
        with pytest.raises(MatchBroken, match=re.escape(where)):
            replay(relabelled, await repo.load_entries(match_id))


async def test_old_matches_go_on_by_their_old_rules_new_ones_by_the_new(
        old_db: tuple[SqliteRepository, SetClock, int, int]) -> None:
    repo, clock, grande, querni = old_db
    recorder = Recorder()
    service = MatchService(repo, recorder, clock)
    # the old two-player grande match keeps the author's rules (steps anywhere, huffing)
    p, _ = await service.position(grande)
    assert isinstance(p, AlquerqueGrandePosition) and p.players == 2
    assert "e4-e3" in {p.variant.format_move(p, m) for m in p.legal_moves()}  # backward
    # the old Querni match keeps the voluntary pass; Pink passes although he can move
    q, _ = await service.position(querni)
    assert isinstance(q, QuerniPosition) and q.rules_version == "1"
    r = await service.move(querni, BOB, "pass")
    assert r.move == "pass"
    assert await service.verify_all() == []
    # a new match of each game plays the new rules and stores the new version
    new_grande = await start_match(service, "alquerque-grande", options={"players": 2})
    p2, _ = await service.position(new_grande.id)
    assert isinstance(p2, AlquerquePosition)
    assert new_grande.options == {"players": 2, "rules": "alquerque"}
    new_querni = await start_match(service, "querni", options={"seed": 0})
    with pytest.raises(rules.IllegalMoveError, match="only when you can neither"):
        await service.move(new_querni.id, ALICE, "pass")
    for match_id in (new_grande.id, new_querni.id):
        rec = await repo.load_match(match_id)
        assert rec is not None and rec.rules_version == "2"
    assert await service.verify_all() == []
