"""The SQLite repository (aiosqlite): one file, WAL, foreign keys on.

Writes go through one writer connection behind an ``asyncio.Lock``, each in a
``BEGIN IMMEDIATE`` transaction; reads use a second connection, one single statement at a
time (a lock of their own), so each sees the latest committed snapshot (WAL) and reads
never wait for a write. A match row carries its seats as JSON so one
statement reads a whole match; the ``seats`` table indexes who plays where (``games_of``)
and is written in the same transaction. Moves are rows of ``moves`` with primary key
``(match_id, ply)``: of two writers appending the same ply exactly one succeeds.

Migrations are numbered SQL scripts applied at start-up; ``PRAGMA user_version`` holds how
many have run. Times are stored as UTC epoch seconds (REAL), so they compare as numbers.
Durability: ``synchronous=FULL`` by default, so a commit (an acknowledged move) is on the
disk before it is acknowledged and survives a power cut. ``synchronous="NORMAL"``
(``TABLERO_DB_SYNCHRONOUS=NORMAL``) is faster but a power cut (not a crash: WAL keeps the
file sound either way) may lose the last committed moves after players were told of them.

Failures are fast and clear (``storage.errors``): a foreign or damaged file, a read-only
folder or a schema from a newer Tablero make ``open`` raise ``DatabaseUnusable`` with the
file's name and what to do, after closing every connection it opened (an unclosed aiosqlite
connection thread keeps the process alive forever). ``PRAGMA quick_check`` runs at start.
A write first checks that the file on disk is still the one opened (device and inode): a
deleted or replaced file raises ``DatabaseLost`` and nothing more is acknowledged.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import json
import logging
import os
import sqlite3
from collections.abc import Iterable, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import aiosqlite

from bot.service.errors import Conflict
from bot.service.ratings import apply_ratings
from bot.service.records import (
    PROVISIONAL_GAMES,
    DrawOffer,
    MatchRecord,
    MatchStatus,
    OutboxEntry,
    OutboxFn,
    RatingChange,
    RatingRecord,
    RecordEntry,
    ResultRecord,
    SeatRecord,
)
from bot.service.views import GuildSettings, UserPrefs
from storage.errors import (
    DatabaseDamaged,
    DatabaseInaccessible,
    DatabaseLost,
    DatabaseUnusable,
    NotATableroDatabase,
)
from storage.tournaments import TOURNAMENT_SCHEMA, SqliteTournaments

log = logging.getLogger(__name__)

SYNCHRONOUS_MODES = ("FULL", "NORMAL")
SQLITE_HEADER = b"SQLite format 3\x00"
INT64_MIN, INT64_MAX = -(2**63), 2**63 - 1


def _established(table: str = "") -> str:
    """1 for an established player on a ladder, 0 for a provisional one (ranked after)."""
    t = f"{table}." if table else ""
    return f"({t}wins + {t}losses + {t}draws >= {PROVISIONAL_GAMES})"


_ESTABLISHED = _established()

MIGRATIONS: tuple[str, ...] = (
    # 1: the first schema
    """
    CREATE TABLE guild_settings (
        guild_id INTEGER PRIMARY KEY,
        default_days INTEGER NOT NULL CHECK (default_days BETWEEN 1 AND 14),
        use_threads INTEGER NOT NULL,
        games_channel_id INTEGER,
        reminders INTEGER NOT NULL
    );
    CREATE TABLE user_prefs (
        user_id INTEGER PRIMARY KEY,
        notify TEXT NOT NULL
    );
    CREATE TABLE matches (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        guild_id INTEGER NOT NULL,
        channel_id INTEGER NOT NULL,
        thread_id INTEGER,
        game TEXT NOT NULL,
        ladder TEXT NOT NULL,
        rules_version TEXT NOT NULL,
        options TEXT NOT NULL,
        start_text TEXT NOT NULL,
        seat_count INTEGER NOT NULL,
        status TEXT NOT NULL,
        challenger_id INTEGER NOT NULL,
        seats TEXT NOT NULL,
        seat_pref INTEGER,
        seating TEXT NOT NULL,
        ply INTEGER NOT NULL,
        position_text TEXT NOT NULL,
        to_move TEXT NOT NULL,
        last_move TEXT,
        days_per_move INTEGER NOT NULL CHECK (days_per_move BETWEEN 1 AND 14),
        rated INTEGER NOT NULL,
        deadline REAL,
        remind_at REAL,
        draw_offer TEXT,
        result TEXT,
        broken TEXT,
        created_at REAL NOT NULL,
        updated_at REAL NOT NULL,
        version INTEGER NOT NULL
    );
    CREATE INDEX matches_thread ON matches (thread_id) WHERE thread_id IS NOT NULL;
    CREATE INDEX matches_deadline ON matches (status, deadline);
    CREATE INDEX matches_remind ON matches (status, remind_at);
    CREATE INDEX matches_guild_status ON matches (guild_id, status);
    CREATE TABLE seats (
        match_id INTEGER NOT NULL REFERENCES matches (id) ON DELETE CASCADE,
        user_id INTEGER NOT NULL,
        seat INTEGER,
        team INTEGER,
        PRIMARY KEY (match_id, user_id)
    ) WITHOUT ROWID;
    CREATE INDEX seats_user ON seats (user_id, match_id);
    CREATE TABLE moves (
        match_id INTEGER NOT NULL REFERENCES matches (id) ON DELETE CASCADE,
        ply INTEGER NOT NULL,
        seat INTEGER,
        notation TEXT NOT NULL,
        user_id INTEGER,
        played_at REAL NOT NULL,
        PRIMARY KEY (match_id, ply)
    ) WITHOUT ROWID;
    CREATE TABLE ratings (
        guild_id INTEGER NOT NULL,
        ladder TEXT NOT NULL,
        user_id INTEGER NOT NULL,
        mu REAL NOT NULL,
        sigma REAL NOT NULL,
        ordinal REAL NOT NULL,
        wins INTEGER NOT NULL DEFAULT 0,
        losses INTEGER NOT NULL DEFAULT 0,
        draws INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (guild_id, ladder, user_id)
    ) WITHOUT ROWID;
    CREATE INDEX ratings_board ON ratings (guild_id, ladder, ordinal DESC, user_id);
    """,
    # 2: leaderboard pages read the index alone (a covering index: OFFSET skips rows
    # without touching the table; deep pages of a 10,000-player ladder went 3 ms -> 0.6 ms)
    """
    DROP INDEX ratings_board;
    CREATE INDEX ratings_board ON ratings (guild_id, ladder, ordinal DESC, user_id, mu,
                                           sigma, wins, losses, draws);
    """,
    # 3: who played the last move (turn messages say "alice played ...")
    """
    ALTER TABLE matches ADD COLUMN last_move_by INTEGER;
    """,
    # 4: the heartbeat of the running bot (clocks are extended by the time it was away)
    """
    CREATE TABLE heartbeat (
        id INTEGER PRIMARY KEY CHECK (id = 1),
        at REAL NOT NULL
    );
    """,
    # 5: the notification outbox (entries written with the change that causes them,
    # deleted once delivered) and who has refused direct messages (Discord 50007)
    """
    CREATE TABLE outbox (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        match_id INTEGER NOT NULL,
        guild_id INTEGER NOT NULL,
        version INTEGER NOT NULL,
        n INTEGER NOT NULL,
        kind TEXT NOT NULL,
        payload TEXT NOT NULL,
        created_at REAL NOT NULL,
        UNIQUE (match_id, version, n)
    );
    CREATE TABLE dms_closed (
        user_id INTEGER PRIMARY KEY,
        told INTEGER NOT NULL DEFAULT 0
    );
    """,
    # 6: the display names seen per server, so names survive restarts
    """
    CREATE TABLE names (
        guild_id INTEGER NOT NULL,
        user_id INTEGER NOT NULL,
        name TEXT NOT NULL,
        seen_at REAL NOT NULL,
        PRIMARY KEY (guild_id, user_id)
    ) WITHOUT ROWID;
    """,
    # 7: established players (PROVISIONAL_GAMES rated games) rank before provisional ones;
    # the index orders by that first, so pages still read the index alone
    f"""
    DROP INDEX ratings_board;
    CREATE INDEX ratings_board ON ratings (guild_id, ladder, {_ESTABLISHED} DESC,
                                           ordinal DESC, user_id, mu, sigma, wins, losses,
                                           draws);
    """,
    # 8: tournaments (storage/tournaments.py)
    TOURNAMENT_SCHEMA,
)
TABLES = frozenset({"guild_settings", "user_prefs", "matches", "seats", "moves", "ratings",
                    "heartbeat", "outbox", "dms_closed", "names", "tournaments",
                    "tournament_matches", "sqlite_sequence"})
"""Every table a Tablero database holds (any other one means a foreign file)."""

_MATCH_COLUMNS = (
    "guild_id, channel_id, thread_id, game, ladder, rules_version, options, start_text, "
    "seat_count, status, challenger_id, seats, seat_pref, seating, ply, position_text, "
    "to_move, last_move, days_per_move, rated, deadline, remind_at, draw_offer, result, "
    "broken, created_at, updated_at, last_move_by")
# Each participant's notification choice comes with the match, in the same statement.
_PREFS = ("(SELECT json_group_object(p.user_id, p.notify) FROM seats AS s JOIN user_prefs "
          "AS p ON p.user_id = s.user_id WHERE s.match_id = matches.id) AS prefs")
_SELECT_MATCH = f"SELECT id, version, {_MATCH_COLUMNS}, {_PREFS} FROM matches"
_PLY_MAX = 2**63 - 1  # "no upper bound" for a ply range


def _ts(value: datetime | None) -> float | None:
    return None if value is None else value.timestamp()


def _dt(value: float | None) -> datetime | None:
    return None if value is None else datetime.fromtimestamp(value, UTC)


def _seats_json(seats: Iterable[SeatRecord]) -> str:
    return json.dumps([[s.user_id, s.seat, s.team, int(s.accepted), int(s.out)]
                       for s in seats], separators=(",", ":"))


def _match_values(m: MatchRecord) -> tuple[Any, ...]:
    offer = None if m.draw_offer is None else json.dumps(
        {"by": m.draw_offer.by, "accepted": list(m.draw_offer.accepted)})
    result = None if m.result is None else json.dumps(
        {"winners": list(m.result.winners), "ranking": [list(g) for g in m.result.ranking],
         "reason": m.result.reason})
    return (m.guild_id, m.channel_id, m.thread_id, m.game, m.ladder, m.rules_version,
            json.dumps(dict(m.options), sort_keys=True), m.start_text, m.seat_count,
            m.status.value, m.challenger_id, _seats_json(m.seats), m.seat_pref, m.seating,
            m.ply, m.position_text, ",".join(map(str, m.to_move)), m.last_move,
            m.days_per_move, int(m.rated), _ts(m.deadline), _ts(m.remind_at), offer, result,
            m.broken, _ts(m.created_at), _ts(m.updated_at), m.last_move_by)


def _match_of(row: Sequence[Any]) -> MatchRecord:
    (id_, version, guild_id, channel_id, thread_id, game, ladder, rules_version, options,
     start_text, seat_count, status, challenger_id, seats, seat_pref, seating, ply,
     position_text, to_move, last_move, days, rated, deadline, remind_at, offer, result,
     broken, created_at, updated_at, last_move_by, prefs) = row
    notify = {int(u): n for u, n in json.loads(prefs).items()} if prefs else {}
    offer_d = json.loads(offer) if offer else None
    result_d = json.loads(result) if result else None
    created = _dt(created_at)
    updated = _dt(updated_at)
    assert created is not None and updated is not None
    return MatchRecord(
        id=id_, guild_id=guild_id, channel_id=channel_id, thread_id=thread_id, game=game,
        ladder=ladder, rules_version=rules_version, options=json.loads(options),
        start_text=start_text, seat_count=seat_count, status=MatchStatus(status),
        challenger_id=challenger_id,
        seats=tuple(SeatRecord(u, s, t, bool(a), bool(o), notify.get(u, "mention"))
                    for u, s, t, a, o in json.loads(seats)),
        seat_pref=seat_pref, seating=seating, ply=ply, position_text=position_text,
        to_move=tuple(int(s) for s in to_move.split(",") if s), last_move=last_move,
        days_per_move=days, rated=bool(rated), deadline=_dt(deadline),
        remind_at=_dt(remind_at),
        draw_offer=DrawOffer(offer_d["by"], tuple(offer_d["accepted"])) if offer_d else None,
        result=ResultRecord(tuple(result_d["winners"]),
                            tuple(tuple(g) for g in result_d["ranking"]),
                            result_d["reason"]) if result_d else None,
        broken=broken, created_at=created, updated_at=updated, version=version,
        last_move_by=last_move_by)


def _rating_of(row: Sequence[Any]) -> RatingRecord:
    guild_id, ladder, user_id, mu, sigma, wins, losses, draws = row
    return RatingRecord(guild_id, ladder, user_id, mu, sigma, wins, losses, draws)


_RATING_COLUMNS = "guild_id, ladder, user_id, mu, sigma, wins, losses, draws"


class SqliteRepository(SqliteTournaments):
    """The ``Repository`` Protocol on SQLite. Open with :func:`open_repository` (or
    ``await SqliteRepository.open(path)``); ``close()`` when done."""

    def __init__(self, path: str | Path, writer: aiosqlite.Connection,
                 reader: aiosqlite.Connection) -> None:
        self.path = str(path)
        self._writer = writer
        self._reader = reader
        self._lock = asyncio.Lock()
        self._read_lock = asyncio.Lock()
        self._identity = _identity(self.path)
        self._lost: str | None = None

    # ------------------------------------------------------------------ lifecycle

    @classmethod
    async def open(cls, path: str | Path, *, synchronous: str = "FULL",
                   check: bool = True) -> SqliteRepository:
        """Open (creating and migrating as needed) the database at ``path``.

        ``synchronous``: "FULL" (default: an acknowledged write survives a power cut) or
        "NORMAL" (faster; a power cut may lose the last commits). ``check``: run
        ``PRAGMA quick_check`` first. Raises ``DatabaseUnusable`` (with every connection
        closed) when the file cannot serve as a Tablero database."""
        path = str(path)
        mode = synchronous.strip().upper()
        if mode not in SYNCHRONOUS_MODES:
            raise ValueError(f"synchronous must be FULL or NORMAL, not {synchronous!r}")
        if path != ":memory:":
            _precheck(path)
        opened: list[aiosqlite.Connection] = []
        try:
            for _ in range(2):
                opened.append(await aiosqlite.connect(path, isolation_level=None))
            writer, reader = opened
            for conn in opened:
                await conn.execute("PRAGMA busy_timeout = 10000")
                await conn.execute("PRAGMA foreign_keys = ON")
            if check:
                await _quick_check(path, writer)
            await _check_tables(path, writer)
            await writer.execute("PRAGMA journal_mode = WAL")
            await writer.execute(f"PRAGMA synchronous = {mode}")
            repo = cls(path, writer, reader)
            await repo._migrate()
            # The reader is a second connection: read once so a broken WAL surfaces here.
            await repo.schema_version()
            return repo
        except BaseException as exc:
            for conn in opened:
                with contextlib.suppress(Exception):
                    await conn.close()
            if isinstance(exc, DatabaseUnusable):
                raise
            if isinstance(exc, sqlite3.Error | OSError):
                raise _unusable(path, exc) from exc
            raise

    async def _migrate(self) -> None:
        async with self._lock:
            async with self._writer.execute("PRAGMA user_version") as cur:
                row = await cur.fetchone()
            applied = int(row[0]) if row else 0
            if applied > len(MIGRATIONS):
                raise NotATableroDatabase(
                    self.path, f"its schema ({applied}) is from a newer Tablero (this one "
                    f"knows {len(MIGRATIONS)}); upgrade Tablero")
            for number in range(applied, len(MIGRATIONS)):
                await self._writer.execute("BEGIN IMMEDIATE")
                try:
                    for statement in MIGRATIONS[number].split(";"):
                        if statement.strip():
                            await self._writer.execute(statement)
                    await self._writer.execute(f"PRAGMA user_version = {number + 1}")
                    await self._writer.execute("COMMIT")
                except BaseException:
                    await self._writer.execute("ROLLBACK")
                    raise

    async def schema_version(self) -> int:
        async with self._read_lock, self._reader.execute("PRAGMA user_version") as cur:
            row = await cur.fetchone()
        return int(row[0]) if row else 0

    async def close(self) -> None:
        """Close both connections; a write transaction under way finishes first."""
        async with self._lock:
            try:
                await self._reader.close()
            finally:
                await self._writer.close()

    # ------------------------------------------------------------------ operations

    def check_file(self) -> None:
        """Raise ``DatabaseLost`` if the file on disk is no longer the one opened (deleted,
        moved away or replaced): what is written now would be lost at the next start."""
        if self._lost is None and self._identity is not None and \
                _identity(self.path) != self._identity:
            self._lost = (f"the database file {self.path} was deleted or replaced while "
                          "Tablero was running; nothing more is saved. Restore the file "
                          "(see README, Operations) and restart Tablero")
            log.critical("%s", self._lost)
        if self._lost is not None:
            raise DatabaseLost(self._lost)

    async def backup(self, target: str | Path) -> Path:
        """A consistent copy of the database at ``target`` while it stays in use
        (``VACUUM INTO`` on a connection of its own: one read snapshot, writers go on).
        The copy is written beside ``target`` and renamed into place once complete and
        checked, so ``target`` is never a half-written file. Returns ``target``."""
        target = Path(target)
        if target.exists() and target.is_dir():
            target = target / Path(self.path).name
        if target.resolve() == Path(self.path).resolve():
            raise ValueError("the backup must not overwrite the database itself")
        target.parent.mkdir(parents=True, exist_ok=True)
        partial = target.with_name(f".{target.name}.partial-{os.getpid()}")
        await asyncio.to_thread(_vacuum_into, self.path, partial, target)
        return target

    # ------------------------------------------------------------------ names

    async def remember_name(self, guild_id: int, user_id: int, name: str,
                            seen_at: datetime) -> None:
        """Store the name ``user_id`` goes by in ``guild_id`` (the newest wins)."""
        async def body() -> None:
            await self._exec(
                "INSERT INTO names (guild_id, user_id, name, seen_at) VALUES (?, ?, ?, ?) "
                "ON CONFLICT (guild_id, user_id) DO UPDATE SET name = excluded.name, "
                "seen_at = excluded.seen_at",
                (guild_id, user_id, name, seen_at.timestamp()))
        await self._transaction(body)

    async def known_names(self, guild_id: int | None = None
                          ) -> list[tuple[int, int, str]]:
        """``(guild_id, user_id, name)`` of every stored name (of one guild if given)."""
        if guild_id is None:
            rows = await self._all("SELECT guild_id, user_id, name FROM names")
        else:
            rows = await self._all("SELECT guild_id, user_id, name FROM names "
                                   "WHERE guild_id = ?", (guild_id,))
        return [(int(g), int(u), str(n)) for g, u, n in rows]

    # ------------------------------------------------------------------ write path

    async def _exec(self, sql: str, params: Sequence[Any] = ()) -> aiosqlite.Cursor:
        """Every statement of a write goes through here (tests make it fail at step k
        to simulate a crash between two statements)."""
        return await self._writer.execute(sql, params)

    async def _transaction(self, body: Any) -> Any:
        async with self._lock:
            self.check_file()
            await self._exec("BEGIN IMMEDIATE")
            try:
                result = await body()
                # Last look before acknowledging: a commit into a deleted file is lost.
                self.check_file()
                await self._exec("COMMIT")
            except BaseException:
                if self._writer.in_transaction:
                    await self._writer.execute("ROLLBACK")
                raise
            return result

    async def _write_seats(self, match_id: int, seats: Iterable[SeatRecord]) -> None:
        await self._exec("DELETE FROM seats WHERE match_id = ?", (match_id,))
        for s in seats:
            await self._exec("INSERT INTO seats (match_id, user_id, seat, team) "
                             "VALUES (?, ?, ?, ?)", (match_id, s.user_id, s.seat, s.team))

    async def _write_outbox(self, stored: MatchRecord, outbox: OutboxFn | None) -> None:
        for e in outbox(stored) if outbox is not None else ():
            await self._exec(
                "INSERT INTO outbox (match_id, guild_id, version, n, kind, payload, "
                "created_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
                (e.match_id, e.guild_id, e.version, e.n, e.kind, e.payload,
                 _ts(e.created_at)))

    async def create_match(self, record: MatchRecord, outbox: OutboxFn | None = None
                           ) -> MatchRecord:
        async def body() -> MatchRecord:
            placeholders = ", ".join("?" * (len(_MATCH_COLUMNS.split(",")) + 1))
            cur = await self._exec(
                f"INSERT INTO matches ({_MATCH_COLUMNS}, version) VALUES ({placeholders})",
                (*_match_values(record), 1))
            match_id = cur.lastrowid
            assert match_id is not None
            await self._write_seats(match_id, record.seats)
            stored = dataclasses.replace(record, id=match_id, version=1)
            await self._write_outbox(stored, outbox)
            return stored
        result: MatchRecord = await self._transaction(body)
        return result

    async def save(self, before: MatchRecord, after: MatchRecord,
                   append: Sequence[RecordEntry] = (),
                   ratings: RatingChange | None = None,
                   outbox: OutboxFn | None = None) -> MatchRecord:
        async def body() -> MatchRecord:
            sets = ", ".join(f"{c.strip()} = ?" for c in _MATCH_COLUMNS.split(","))
            cur = await self._exec(
                f"UPDATE matches SET {sets}, version = version + 1 "
                "WHERE id = ? AND version = ?",
                (*_match_values(after), before.id, before.version))
            if cur.rowcount != 1:
                raise Conflict(f"match {before.id} changed")
            for e in append:
                try:
                    await self._exec(
                        "INSERT INTO moves (match_id, ply, seat, notation, user_id, "
                        "played_at) VALUES (?, ?, ?, ?, ?, ?)",
                        (before.id, e.ply, e.seat, e.text, e.user_id, _ts(e.played_at)))
                except sqlite3.IntegrityError:
                    raise Conflict(f"match {before.id}: ply {e.ply} already played") \
                        from None
            if after.seats != before.seats:
                await self._write_seats(before.id, after.seats)
            if ratings is not None:
                await self._rate(ratings)
            stored = dataclasses.replace(after, id=before.id, version=before.version + 1)
            await self._write_outbox(stored, outbox)
            return stored
        result: MatchRecord = await self._transaction(body)
        return result

    async def _rate(self, change: RatingChange) -> None:
        users = list(change.results)
        marks = ", ".join("?" * len(users))
        cur = await self._exec(
            f"SELECT {_RATING_COLUMNS} FROM ratings WHERE guild_id = ? AND ladder = ? "
            f"AND user_id IN ({marks})", (change.guild_id, change.ladder, *users))
        found = {r.user_id: r for r in map(_rating_of, await cur.fetchall())}
        rows = apply_ratings(change, {u: found.get(u) for u in users})
        for r in rows:
            await self._exec(
                f"INSERT INTO ratings ({_RATING_COLUMNS}, ordinal) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) "
                "ON CONFLICT (guild_id, ladder, user_id) DO UPDATE SET mu = excluded.mu, "
                "sigma = excluded.sigma, ordinal = excluded.ordinal, wins = excluded.wins, "
                "losses = excluded.losses, draws = excluded.draws",
                (r.guild_id, r.ladder, r.user_id, r.mu, r.sigma, r.wins, r.losses, r.draws,
                 r.ordinal))

    # ------------------------------------------------------------------ reads

    async def _all(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        # One read statement at a time: while any statement of a connection is still open,
        # later statements join its read transaction and see its (old) snapshot, so
        # overlapping reads would keep missing fresh commits.
        async with self._read_lock, self._reader.execute(sql, params) as cur:
            return list(await cur.fetchall())

    async def load_match(self, match_id: int) -> MatchRecord | None:
        if not INT64_MIN <= match_id <= INT64_MAX:
            return None  # no such row can exist (and SQLite would raise OverflowError)
        rows = await self._all(f"{_SELECT_MATCH} WHERE id = ?", (match_id,))
        return _match_of(rows[0]) if rows else None

    async def load_entries(self, match_id: int, *, start: int = 0,
                           stop: int | None = None) -> list[RecordEntry]:
        rows = await self._all(
            "SELECT ply, seat, notation, user_id, played_at FROM moves WHERE match_id = ? "
            "AND ply >= ? AND ply < ? ORDER BY ply",
            (match_id, start, _PLY_MAX if stop is None else stop))
        out = []
        for ply, seat, text, user_id, played_at in rows:
            when = _dt(played_at)
            assert when is not None
            out.append(RecordEntry(ply, seat, text, user_id, when))
        return out

    async def match_in_thread(self, thread_id: int) -> MatchRecord | None:
        rows = await self._all(f"{_SELECT_MATCH} WHERE thread_id = ? ORDER BY id DESC LIMIT 1",
                               (thread_id,))
        return _match_of(rows[0]) if rows else None

    async def matches_of(self, user_id: int, guild_id: int | None = None,
                         statuses: Sequence[MatchStatus] = ()) -> list[MatchRecord]:
        sql = (f"{_SELECT_MATCH} WHERE id IN (SELECT match_id FROM seats WHERE user_id = ?)")
        params: list[Any] = [user_id]
        if guild_id is not None:
            sql += " AND guild_id = ?"
            params.append(guild_id)
        if statuses:
            sql += f" AND status IN ({', '.join('?' * len(statuses))})"
            params += [s.value for s in statuses]
        rows = await self._all(sql + " ORDER BY id DESC", params)
        return [_match_of(r) for r in rows]

    async def open_challenges(self, guild_id: int) -> list[MatchRecord]:
        rows = await self._all(f"{_SELECT_MATCH} WHERE guild_id = ? AND status IN "
                               "('open', 'lobby') ORDER BY id DESC", (guild_id,))
        return [m for m in map(_match_of, rows) if len(m.seats) < m.seat_count]

    async def due_matches(self, now: datetime) -> list[MatchRecord]:
        t = now.timestamp()
        rows = await self._all(
            f"{_SELECT_MATCH} WHERE status = 'active' AND deadline <= ? UNION "
            f"{_SELECT_MATCH} WHERE status = 'active' AND remind_at <= ? ORDER BY id",
            (t, t))
        return [_match_of(r) for r in rows]

    async def match_ids(self) -> list[int]:
        return [r[0] for r in await self._all("SELECT id FROM matches ORDER BY id")]

    async def heartbeat(self) -> datetime | None:
        rows = await self._all("SELECT at FROM heartbeat WHERE id = 1")
        return _dt(rows[0][0]) if rows else None

    async def beat(self, now: datetime) -> None:
        async def body() -> None:
            await self._exec("INSERT INTO heartbeat (id, at) VALUES (1, ?) "
                             "ON CONFLICT (id) DO UPDATE SET at = excluded.at", (_ts(now),))
        await self._transaction(body)

    async def extend_clocks(self, since: datetime, now: datetime,
                            outbox: OutboxFn | None = None) -> list[MatchRecord] | None:
        async def body() -> list[MatchRecord] | None:
            cur = await self._exec("SELECT at FROM heartbeat WHERE id = 1")
            row = await cur.fetchone()
            if row is None or row[0] != _ts(since):
                return None
            gap = _ts(now) - row[0]
            cur = await self._exec(
                "UPDATE matches SET deadline = deadline + ?, remind_at = remind_at + ?, "
                "version = version + 1 WHERE status = 'active' AND deadline IS NOT NULL "
                "RETURNING id", (gap, gap))
            ids = [r[0] for r in await cur.fetchall()]
            await self._exec("UPDATE heartbeat SET at = ? WHERE id = 1", (_ts(now),))
            out = []
            for match_id in sorted(ids):
                cur = await self._exec(f"{_SELECT_MATCH} WHERE id = ?", (match_id,))
                out.append(_match_of(await cur.fetchone()))  # type: ignore[arg-type]
                await self._write_outbox(out[-1], outbox)
            return out
        result: list[MatchRecord] | None = await self._transaction(body)
        return result

    async def pending_outbox(self, match_id: int | None = None, limit: int = 100
                             ) -> list[OutboxEntry]:
        columns = "id, match_id, guild_id, version, n, kind, payload, created_at"
        if match_id is None:
            rows = await self._all(f"SELECT {columns} FROM outbox ORDER BY id LIMIT ?",
                                   (limit,))
        else:
            rows = await self._all(f"SELECT {columns} FROM outbox WHERE match_id = ? "
                                   "ORDER BY id LIMIT ?", (match_id, limit))
        out = []
        for id_, mid, gid, version, n, kind, payload, created in rows:
            when = _dt(created)
            assert when is not None
            out.append(OutboxEntry(mid, gid, version, n, kind, payload, when, id_))
        return out

    async def mark_delivered(self, entry_id: int) -> None:
        async def body() -> None:
            await self._exec("DELETE FROM outbox WHERE id = ?", (entry_id,))
        await self._transaction(body)

    async def set_dms_closed(self, user_id: int, closed: bool) -> None:
        async def body() -> None:
            if closed:
                await self._exec("INSERT OR IGNORE INTO dms_closed (user_id) VALUES (?)",
                                 (user_id,))
            else:
                await self._exec("DELETE FROM dms_closed WHERE user_id = ?", (user_id,))
        await self._transaction(body)

    async def dms_closed_untold(self) -> list[int]:
        rows = await self._all("SELECT user_id FROM dms_closed WHERE told = 0 ORDER BY "
                               "user_id")
        return [r[0] for r in rows]

    async def dms_closed_told(self, user_id: int) -> None:
        async def body() -> None:
            await self._exec("UPDATE dms_closed SET told = 1 WHERE user_id = ?", (user_id,))
        await self._transaction(body)

    async def leaderboard(self, guild_id: int, ladder: str, offset: int,
                          limit: int) -> tuple[list[RatingRecord], int]:
        rows = await self._all(
            f"SELECT {_RATING_COLUMNS} FROM ratings WHERE guild_id = ? AND ladder = ? "
            f"ORDER BY {_ESTABLISHED} DESC, ordinal DESC, user_id LIMIT ? OFFSET ?",
            (guild_id, ladder, limit, offset))
        total = await self._all("SELECT count(*) FROM ratings WHERE guild_id = ? AND "
                                "ladder = ?", (guild_id, ladder))
        return [_rating_of(r) for r in rows], int(total[0][0])

    async def rank_of(self, guild_id: int, ladder: str,
                      user_id: int) -> tuple[int, RatingRecord] | None:
        rows = await self._all(
            f"SELECT {_RATING_COLUMNS}, (SELECT count(*) FROM ratings AS o WHERE "
            "o.guild_id = r.guild_id AND o.ladder = r.ladder AND "
            f"({_established('o')} > {_established('r')} OR ({_established('o')} = "
            f"{_established('r')} AND o.ordinal > r.ordinal))) "
            "FROM ratings AS r WHERE guild_id = ? AND ladder = ? AND user_id = ?",
            (guild_id, ladder, user_id))
        if not rows:
            return None
        return int(rows[0][-1]) + 1, _rating_of(rows[0][:-1])

    async def ratings_of(self, guild_id: int, user_id: int) -> list[RatingRecord]:
        rows = await self._all(f"SELECT {_RATING_COLUMNS} FROM ratings WHERE guild_id = ? "
                               "AND user_id = ? ORDER BY ladder", (guild_id, user_id))
        return [_rating_of(r) for r in rows]

    async def get_guild_settings(self, guild_id: int) -> GuildSettings | None:
        rows = await self._all("SELECT default_days, use_threads, games_channel_id, "
                               "reminders FROM guild_settings WHERE guild_id = ?",
                               (guild_id,))
        if not rows:
            return None
        days, threads, channel, reminders = rows[0]
        return GuildSettings(guild_id, days, bool(threads), channel, bool(reminders))

    async def save_guild_settings(self, settings: GuildSettings) -> None:
        async def body() -> None:
            await self._exec(
                "INSERT OR REPLACE INTO guild_settings (guild_id, default_days, use_threads, "
                "games_channel_id, reminders) VALUES (?, ?, ?, ?, ?)",
                (settings.guild_id, settings.default_days, int(settings.use_threads),
                 settings.games_channel_id, int(settings.reminders)))
        await self._transaction(body)

    async def get_user_prefs(self, user_id: int) -> UserPrefs | None:
        rows = await self._all("SELECT notify FROM user_prefs WHERE user_id = ?", (user_id,))
        return UserPrefs(user_id, rows[0][0]) if rows else None

    async def save_user_prefs(self, prefs: UserPrefs) -> None:
        async def body() -> None:
            await self._exec("INSERT OR REPLACE INTO user_prefs (user_id, notify) "
                             "VALUES (?, ?)", (prefs.user_id, prefs.notify))
        await self._transaction(body)


async def open_repository(path: str | Path, *, synchronous: str = "FULL",
                          check: bool = True) -> SqliteRepository:
    """Open (creating and migrating as needed) the database at ``path``
    (see ``SqliteRepository.open``)."""
    return await SqliteRepository.open(path, synchronous=synchronous, check=check)


# ---------------------------------------------------------------------- helpers of open

def _identity(path: str) -> tuple[int, int] | None:
    """The file's (device, inode); None for ``:memory:`` or a missing file."""
    if path == ":memory:":
        return None
    try:
        st = os.stat(path)
    except OSError:
        return None
    return st.st_dev, st.st_ino


def _precheck(path: str) -> None:
    """Refuse what SQLite would misreport or hang on: a folder, an unreadable file, a
    file that is not SQLite, a folder we cannot write in."""
    file = Path(path)
    if file.is_dir():
        raise NotATableroDatabase(path, "it is a folder")
    try:
        file.parent.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise DatabaseInaccessible(path, f"cannot create the folder {file.parent} for "
                                   f"{path}: {e.strerror or e}") from None
    if file.exists():
        try:
            with file.open("rb") as f:
                head = f.read(100)
        except OSError as e:
            raise DatabaseInaccessible(path, f"cannot read {path}: {e.strerror or e}") \
                from None
        if head and not head.startswith(SQLITE_HEADER[: len(head)]):
            raise NotATableroDatabase(path, "it is not a SQLite file (its first bytes are "
                                      f"{head[:16]!r})")
        if 0 < len(head) < 100:
            raise NotATableroDatabase(path, f"it is truncated ({len(head)} bytes, not "
                                      "even a SQLite header)")
        if head and not os.access(path, os.W_OK):
            raise DatabaseInaccessible(path, f"{path} is read-only: Tablero must write to "
                                       "it (check the file's owner and permissions)")
    if not os.access(file.parent, os.W_OK):
        raise DatabaseInaccessible(
            path, f"cannot write in the folder {file.parent}: Tablero keeps {file.name} and "
            f"its journal files ({file.name}-wal, {file.name}-shm) there (check the "
            "folder's permissions, or set TABLERO_DB to a writable place)")


def _repair_hint(path: str) -> str:
    return (f"restore the last backup (stop Tablero, copy the backup over {path}, remove "
            f"{path}-wal and {path}-shm), or salvage what is readable: sqlite3 {path} "
            f"'.recover' | sqlite3 {path}.recovered && tablero db check --db "
            f"{path}.recovered (see README, Operations)")


async def _quick_check(path: str, conn: aiosqlite.Connection) -> None:
    async with conn.execute("PRAGMA quick_check(5)") as cur:
        rows = [str(r[0]) for r in await cur.fetchall()]
    if rows != ["ok"]:
        raise DatabaseDamaged(path, f"{path} is damaged ({'; '.join(rows)[:300]}): "
                              f"{_repair_hint(path)}")


async def _check_tables(path: str, conn: aiosqlite.Connection) -> None:
    """A SQLite file holding tables Tablero never made belongs to something else."""
    async with conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'") as cur:
        names = {str(r[0]) for r in await cur.fetchall()}
    foreign = sorted(names - TABLES)
    if foreign:
        raise NotATableroDatabase(path, "it holds tables Tablero never made ("
                                  f"{', '.join(foreign[:5])})")


def _unusable(path: str, exc: BaseException) -> DatabaseUnusable:
    """A clear error for what SQLite (or the OS) said while opening ``path``."""
    text = str(exc)
    low = text.lower()
    if "not a database" in low or "malformed" in low or "corrupt" in low:
        return NotATableroDatabase(path, f"{text} ({_repair_hint(path)})")
    if "readonly" in low or "read-only" in low or "unable to open" in low or \
            isinstance(exc, PermissionError):
        return DatabaseInaccessible(path, f"cannot open {path} for writing: {text} (check "
                                    "the permissions of the file and its folder)")
    return DatabaseUnusable(path, f"cannot use {path}: {text}")


def _vacuum_into(source: str, partial: Path, target: Path) -> None:
    """``VACUUM INTO`` a partial file, check it, fsync it, rename it to ``target``."""
    partial.unlink(missing_ok=True)
    conn = sqlite3.connect(source, isolation_level=None)
    try:
        conn.execute("PRAGMA busy_timeout = 10000")
        conn.execute("VACUUM INTO ?", (str(partial),))
    finally:
        conn.close()
    try:
        copy = sqlite3.connect(partial, isolation_level=None)
        try:
            found = [r[0] for r in copy.execute("PRAGMA quick_check")]
        finally:
            copy.close()
        if found != ["ok"]:
            raise DatabaseDamaged(str(target), f"the backup copy failed its check: {found}")
        with partial.open("rb+") as f:
            os.fsync(f.fileno())
        os.replace(partial, target)
        with contextlib.suppress(OSError):  # make the rename itself durable
            fd = os.open(target.parent, os.O_RDONLY)
            try:
                os.fsync(fd)
            finally:
                os.close(fd)
    finally:
        partial.unlink(missing_ok=True)
