"""Ids at the service boundary (issue 21, defect 1): an id outside SQLite's 64-bit range,
a float, a bool, text or a stray None is refused with a typed error ("no match #N" or
``InvalidId``) by every public call of the service, and nothing is written."""

from __future__ import annotations

import inspect
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from service import MatchNotFound, MatchService, NullNotifier, SystemClock
from service.ids import MAX_ID, InvalidId, check_id, check_match_id
from storage import SqliteRepository

GUILD, CHANNEL, ALICE, BOB = 10, 20, 101, 202
BAD = [MAX_ID + 1, 2**64, 10**30, -1, 1.5, True, "1", None, [1]]
ID_PARAMS = {"match_id", "user", "challenger", "guild_id", "channel_id", "thread_id",
             "opponents", "player"}


def public_calls() -> list[tuple[str, str]]:
    """(method, id parameter) for every public coroutine of the service."""
    out = []
    for name, method in inspect.getmembers(MatchService, inspect.iscoroutinefunction):
        if not name.startswith("_"):
            out += [(name, p) for p in inspect.signature(method).parameters if p in ID_PARAMS]
    return out


def test_every_public_call_taking_an_id_is_covered() -> None:
    methods = {m for m, _ in public_calls()}
    assert {"get_match", "move", "accept", "challenge", "update_user_prefs",
            "update_guild_settings", "stats", "leaderboard", "history"} <= methods
    assert len(public_calls()) >= 40


def dump(path: Path) -> list[str]:
    conn = sqlite3.connect(path)
    try:
        return list(conn.iterdump())
    finally:
        conn.close()


async def test_bad_ids_are_refused_with_typed_errors_and_write_nothing(tmp_path: Path) -> None:
    path = tmp_path / "ids.db"
    repo = await SqliteRepository.open(path)
    service = MatchService(repo, NullNotifier(), SystemClock())
    try:
        m = await service.challenge(GUILD, CHANNEL, ALICE, "xiangqi", opponents=[BOB], seat=0)
        await service.accept(m.id, BOB)
        valid: dict[str, Any] = {
            "match_id": m.id, "user": ALICE, "challenger": ALICE, "guild_id": GUILD,
            "channel_id": CHANNEL, "thread_id": 77, "opponents": [BOB], "game": "xiangqi",
            "text": "h3-e3", "notify": "dm", "player": BOB, "tournament_id": 1,
            "fmt": "swiss", "schedule": "monthly", "number": 1, "ply": 0, "epoch": 0,
            "on": True, "data": '[Game "xiangqi"]\n\n1. h3-e3 2. h10-g8',
            "seat": 0, "zone": "Europe/Madrid", "days": 2, "token": "axiangqi;",
            "view": await service.explorer(GUILD, ALICE, "xiangqi"), "room": 85}
        before = dump(path)
        for method_name, param in public_calls():
            method = getattr(service, method_name)
            signature = inspect.signature(method)
            for bad in BAD:
                annotation = str(signature.parameters[param].annotation)
                if bad is None and "None" in annotation:
                    continue
                if param == "opponents":
                    bad = [bad]
                args = {p.name: valid[p.name] for p in signature.parameters.values()
                        if p.default is inspect.Parameter.empty or p.name in ID_PARAMS}
                args[param] = bad
                expected = MatchNotFound if param == "match_id" else InvalidId
                with pytest.raises(expected):
                    await method(**args)
        assert dump(path) == before  # nothing was written by any refused call
    finally:
        await repo.close()


def test_the_messages_say_what_was_wrong() -> None:
    with pytest.raises(MatchNotFound, match=r"there is no match #9223372036854775808"):
        check_match_id(2**63)
    with pytest.raises(InvalidId, match=r"not a valid id \(user\): 1\.5"):
        check_id(1.5, "user")
    assert check_match_id(MAX_ID) == MAX_ID and check_id(0, "server") == 0


async def test_update_calls_named_in_the_issue(tmp_path: Path) -> None:
    repo = await SqliteRepository.open(tmp_path / "u.db")
    service = MatchService(repo, NullNotifier(), SystemClock())
    try:
        with pytest.raises(InvalidId):
            await service.update_user_prefs(1.5, "dm")  # type: ignore[arg-type]
        with pytest.raises(InvalidId):
            await service.update_guild_settings(None, default_days=3)  # type: ignore[arg-type]
        assert await repo.get_guild_settings(0) is None
        with pytest.raises(MatchNotFound, match="no match #9223372036854775808"):
            await service.history(9223372036854775808)
        assert (await service.games_of(None, ALICE)) == []  # None: every server, allowed
    finally:
        await repo.close()
