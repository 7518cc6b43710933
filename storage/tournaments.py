"""Tournament persistence for both repositories (``TournamentRepository``): a tournament
is one row whose players and games are JSON (one statement reads it whole), with an
index table from match ids to tournaments written in the same transaction.

The schema is migration 8 in ``storage/schema.py`` (both databases)."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Awaitable, Callable, Iterable, Sequence
from datetime import UTC, datetime
from typing import Any

from service.errors import Conflict
from service.records import OutboxEntry, TournamentOutboxFn
from service.timecontrol import format_time_control, parse_time_control
from service.tournament_records import TournamentGame, TournamentRecord, TournamentStatus
from service.tournaments.model import Format, Result


def _ts(value: datetime | None) -> float | None:
    return None if value is None else value.timestamp()


def _dt(value: float | None) -> datetime | None:
    return None if value is None else datetime.fromtimestamp(value, UTC)


def tournament_body(t: TournamentRecord) -> str:
    """Everything but the id, guild, status and version, as JSON. A bank control and
    claim-win are keys of their own (a body without them, written before tournaments had
    them, reads as days per move without claim-win: no migration)."""
    return json.dumps({
        "channel_id": t.channel_id, "organiser_id": t.organiser_id, "name": t.name,
        "game": t.game, "options": dict(t.options), "format": t.format.value,
        "rounds": t.rounds, "days_per_move": t.days_per_move, "rated": t.rated,
        "cap": t.cap, "registration_deadline": _ts(t.registration_deadline),
        "vacation": t.vacation, "players": list(t.players), "withdrawn": list(t.withdrawn),
        "round": t.round, "created_at": _ts(t.created_at),
        "games": [[g.round, g.first, g.second, g.result.value if g.result else None,
                   g.replay, g.timed_out, g.match_id] for g in t.games],
        **({"bank": format_time_control(t.bank)} if t.bank is not None else {}),
        **({"claim_win": True} if t.claim_win else {}),
        **({"weekends_off": True} if t.weekends_off else {}),
    }, separators=(",", ":"))


def tournament_of(tid: int, guild_id: int, status: str, body: str, version: int
                  ) -> TournamentRecord:
    d = json.loads(body)
    games = tuple(TournamentGame(r, a, b, Result(res) if res else None, rep, to, mid)
                  for r, a, b, res, rep, to, mid in d["games"])
    return TournamentRecord(
        id=tid, guild_id=guild_id, channel_id=d["channel_id"],
        organiser_id=d["organiser_id"], name=d["name"], game=d["game"],
        options=d["options"], format=Format(d["format"]), rounds=d["rounds"],
        days_per_move=d["days_per_move"], rated=d["rated"], cap=d["cap"],
        registration_deadline=_dt(d["registration_deadline"]), vacation=d["vacation"],
        status=TournamentStatus(status), players=tuple(d["players"]),
        withdrawn=tuple(d["withdrawn"]), games=games, round=d["round"],
        created_at=_dt(d["created_at"]), version=version,
        bank=parse_time_control(d["bank"]) if d.get("bank") else None,
        claim_win=bool(d.get("claim_win", False)),
        weekends_off=bool(d.get("weekends_off", False)))


def _match_ids(t: TournamentRecord) -> set[int]:
    return {g.match_id for g in t.games if g.match_id is not None}


class MemoryTournaments:
    """Dicts for tournaments (``MemoryRepository`` inherits it)."""

    _store_entries: Callable[[Iterable[OutboxEntry]], None]  # the repository's

    def __init__(self) -> None:
        self._tournaments: dict[int, TournamentRecord] = {}
        self._tournament_of_match: dict[int, int] = {}

    async def create_tournament(self, record: TournamentRecord) -> TournamentRecord:
        stored = dataclasses.replace(record, id=len(self._tournaments) + 1, version=1)
        self._tournaments[stored.id] = stored
        return stored

    async def load_tournament(self, tournament_id: int) -> TournamentRecord | None:
        return self._tournaments.get(tournament_id)

    async def save_tournament(self, before: TournamentRecord, after: TournamentRecord,
                              outbox: TournamentOutboxFn | None = None
                              ) -> TournamentRecord:
        current = self._tournaments.get(before.id)
        if current is None or current.version != before.version:
            raise Conflict(f"tournament {before.id} changed")
        stored = dataclasses.replace(after, id=before.id, version=before.version + 1)
        self._tournaments[before.id] = stored
        for m in _match_ids(stored):
            self._tournament_of_match[m] = stored.id
        self._store_entries(outbox(stored) if outbox is not None else ())
        return stored

    async def tournaments_in(self, guild_id: int | None,
                             statuses: Sequence[TournamentStatus] = ()
                             ) -> list[TournamentRecord]:
        return [t for t in sorted(self._tournaments.values(), key=lambda t: -t.id)
                if (guild_id is None or t.guild_id == guild_id)
                and (not statuses or t.status in statuses)]

    async def tournament_of_match(self, match_id: int) -> int | None:
        return self._tournament_of_match.get(match_id)


_SELECT = "SELECT id, guild_id, status, body, version FROM tournaments"


class SqlTournaments:
    """Tournaments in SQL (``SqlRepository`` inherits it, so SQLite and PostgreSQL both
    have them; it uses the repository's write transaction and read helpers)."""

    _exec: Callable[..., Awaitable[Any]]
    _transaction: Callable[[Callable[[], Awaitable[Any]]], Awaitable[Any]]
    _all: Callable[..., Awaitable[list[Any]]]
    _write_entries: Callable[[Iterable[OutboxEntry]], Awaitable[None]]

    async def create_tournament(self, record: TournamentRecord) -> TournamentRecord:
        async def body() -> TournamentRecord:
            cur = await self._exec(
                "INSERT INTO tournaments (guild_id, status, body, version) "
                "VALUES (?, ?, ?, 1) RETURNING id",
                (record.guild_id, record.status.value, tournament_body(record)))
            tournament_id = int((await cur.fetchone())[0])
            return dataclasses.replace(record, id=tournament_id, version=1)
        stored: TournamentRecord = await self._transaction(body)
        return stored

    async def load_tournament(self, tournament_id: int) -> TournamentRecord | None:
        rows = await self._all(f"{_SELECT} WHERE id = ?", (tournament_id,))
        return tournament_of(*rows[0]) if rows else None

    async def save_tournament(self, before: TournamentRecord, after: TournamentRecord,
                              outbox: TournamentOutboxFn | None = None
                              ) -> TournamentRecord:
        async def body() -> TournamentRecord:
            cur = await self._exec(
                "UPDATE tournaments SET guild_id = ?, status = ?, body = ?, "
                "version = version + 1 WHERE id = ? AND version = ? RETURNING id",
                (after.guild_id, after.status.value, tournament_body(after), before.id,
                 before.version))
            if await cur.fetchone() is None:
                raise Conflict(f"tournament {before.id} changed")
            for m in sorted(_match_ids(after) - _match_ids(before)):
                await self._exec(
                    "INSERT INTO tournament_matches (match_id, tournament_id) VALUES (?, ?) "
                    "ON CONFLICT (match_id) DO UPDATE SET tournament_id = "
                    "excluded.tournament_id", (m, before.id))
            stored = dataclasses.replace(after, id=before.id, version=before.version + 1)
            await self._write_entries(outbox(stored) if outbox is not None else ())
            return stored
        stored: TournamentRecord = await self._transaction(body)
        return stored

    async def tournaments_in(self, guild_id: int | None,
                             statuses: Sequence[TournamentStatus] = ()
                             ) -> list[TournamentRecord]:
        where: list[str] = []
        params: list[object] = []
        if guild_id is not None:
            where.append("guild_id = ?")
            params.append(guild_id)
        if statuses:
            where.append(f"status IN ({', '.join('?' * len(statuses))})")
            params += [s.value for s in statuses]
        sql = f"{_SELECT}{' WHERE ' + ' AND '.join(where) if where else ''} ORDER BY id DESC"
        return [tournament_of(*row) for row in await self._all(sql, params)]

    async def tournament_of_match(self, match_id: int) -> int | None:
        rows = await self._all("SELECT tournament_id FROM tournament_matches "
                               "WHERE match_id = ?", (match_id,))
        return int(rows[0][0]) if rows else None
