"""What the SQLite and PostgreSQL repositories share: every query, written once.

``SqlRepository`` implements the ``Repository`` Protocol over three primitives its
subclasses give (``_exec`` a statement of the write transaction under way, ``_all`` one
read statement, ``_transaction`` run a body as one transaction) and two dialect facts
(``_prefs_sql``, ``_unique_violation``). Queries use ``?`` placeholders and the SQL both
databases speak (``ON CONFLICT``, ``RETURNING``); PostgreSQL numbers the placeholders.
Times are stored as UTC epoch seconds (8-byte floats), so they compare as numbers.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Awaitable, Callable, Iterable, Mapping, Sequence
from datetime import UTC, datetime, timedelta
from typing import Any, ClassVar, Protocol, TypeVar

from service.errors import Conflict
from service.records import (
    SPECIAL_PREFIX,
    ClockState,
    Downtime,
    DrawOffer,
    MatchRecord,
    MatchStatus,
    OutboxEntry,
    OutboxFn,
    PauseOffer,
    RatingChange,
    RatingRecord,
    RecordEntry,
    ResultRecord,
    SeatRecord,
    TakebackRequest,
    UnkeyedGame,
    VacationRecord,
    special_entries,
)
from service.timecontrol import format_time_control, parse_time_control
from service.views import GuildSettings, UserPrefs
from storage.analyses import SqlAnalyses
from storage.blocks import SqlBlocks
from storage.comforts import SqlComforts
from storage.counts import MoveCounts
from storage.explorer import SqlExplorer
from storage.imported import UNKEYED, SqlImportedPlayers, entry_of
from storage.outage import OutageLog
from storage.posts import SqlPosts
from storage.puzzles import SqlPuzzles
from storage.schema import ESTABLISHED, established
from storage.seasons import SqlSeasons
from storage.times import epoch as _ts
from storage.times import moment as _dt
from storage.tournaments import SqlTournaments

INT64_MIN, INT64_MAX = -(2**63), 2**63 - 1
T = TypeVar("T")


class Cursor(Protocol):
    """What ``_exec`` returns (an aiosqlite cursor, or the PostgreSQL rows)."""

    async def fetchone(self) -> Any: ...

    async def fetchall(self) -> Iterable[Any]: ...

_MATCH_COLUMNS = (
    "guild_id, channel_id, thread_id, game, ladder, rules_version, options, start_text, "
    "seat_count, status, challenger_id, seats, seat_pref, seating, ply, position_text, "
    "to_move, last_move, days_per_move, rated, deadline, remind_at, draw_offer, result, "
    "broken, created_at, updated_at, last_move_by, clock, takeback, continued_from, "
    "import_key")
# Each participant's notification choice and time zone come with the match, in the same
# statement, as a JSON object {user id: "choice zone"} (a zone holds no space; none: the
# choice alone); ``{agg}`` is the dialect's aggregate building it.
_PREFS = ("(SELECT {agg} FROM seats AS s JOIN user_prefs AS p ON p.user_id = s.user_id "
          "WHERE s.match_id = matches.id) AS prefs")


# Who follows the match (itself, or one of its players in its server), as a JSON array
# built by the dialect's ``{arr}``; and how many conditional lines it has: a move needs
# both, read with the match so that a move still reads once.
_FOLLOWERS = ("(SELECT {arr} FROM follows AS f WHERE f.match_id = matches.id OR "
              "(f.guild_id = matches.guild_id AND f.player_id IN "
              "(SELECT user_id FROM seats WHERE match_id = matches.id))) AS followers")
_CONDITIONALS = ("(SELECT count(*) FROM conditional_moves AS c "
                 "WHERE c.match_id = matches.id) AS conditionals")
# How many of its record's entries are special ones (no moves: a seat leaving, a draw),
# so that a match read anywhere counts its moves without its record
_SPECIALS = ("(SELECT count(*) FROM moves AS e WHERE e.match_id = matches.id AND "
             f"substr(e.notation, 1, 1) = '{SPECIAL_PREFIX}') AS specials")
# Each participant's rating on the match's ladder in its server (issue 42: the turn post
# shows them), as a JSON object {user id: [mu, sigma, wins, losses, draws]} built by the
# dialect's ``{agg}``; one primary-key lookup per seat, in the same statement. (SQLite's
# JSON writes a real to 15 significant digits: plenty for a number shown to one decimal.)
_RATINGS = ("(SELECT {agg} FROM seats AS s JOIN ratings AS r ON r.user_id = s.user_id "
            "AND r.guild_id = matches.guild_id AND r.ladder = matches.ladder "
            "WHERE s.match_id = matches.id) AS ratings")
RATINGS_SQLITE = "json_group_object(r.user_id, json_array(r.mu, r.sigma, r.wins, r.losses, " \
    "r.draws))"


def select_match(json_object_agg: str,
                 json_array_agg: str = "json_group_array(DISTINCT f.user_id)",
                 ratings_agg: str = RATINGS_SQLITE) -> str:
    """The SELECT of whole match rows, with ``json_object_agg`` building the prefs,
    ``json_array_agg`` the followers and ``ratings_agg`` the seats' ratings."""
    prefs = _PREFS.format(agg=json_object_agg)
    followers = _FOLLOWERS.format(arr=json_array_agg)
    ratings = _RATINGS.format(agg=ratings_agg)
    return (f"SELECT id, version, {_MATCH_COLUMNS}, {prefs}, {followers}, {_CONDITIONALS}, "
            f"{_SPECIALS}, {ratings} FROM matches")

_PLY_MAX = 2**63 - 1  # "no upper bound" for a ply range


def _seats_json(seats: Iterable[SeatRecord]) -> str:
    return json.dumps([[s.user_id, s.seat, s.team, int(s.accepted), int(s.out)]
                       for s in seats], separators=(",", ":"))


def clock_json(c: ClockState) -> str | None:
    """The ``clock`` column: None for a plain days-per-move clock (as before it existed)."""
    if c == ClockState():
        return None
    return json.dumps({
        "control": None if c.control is None else format_time_control(c.control),
        "claim": c.claim, "banks": [list(b) for b in c.banks],
        "paused_until": _ts(c.paused_until), "lapsed": _ts(c.lapsed),
        "away": [[u, _ts(t)] for u, t in c.away],
        **({"undo": list(c.undo)} if c.undo is not None else {}),
        **({"own": [[s, later, _ts(p)] for s, later, p in c.own]} if c.own else {}),
        **({"took_back": list(c.took_back)} if c.took_back else {}),
        **({"hints": [list(h) for h in c.hints]} if c.hints else {}),
        **({"weekends": True} if c.weekends else {}),
        **({"pause_offer": [c.pause_offer.by, c.pause_offer.days, c.pause_offer.ply,
                            c.pause_offer.reason]} if c.pause_offer is not None else {}),
        **({"paused": [_ts(c.paused[0]), _ts(c.paused[1])]} if c.paused is not None else {}),
        **({"pauses": c.pauses} if c.pauses else {}),
        **({"on_timeout": c.on_timeout, "stand_in_level": c.stand_in_level}
           if c.on_timeout != "end" else {}),
        **({"stand_ins": [list(x) for x in c.stand_ins]} if c.stand_ins else {}),
        **({"skipped": [list(x) for x in c.skipped]} if c.skipped else {})},
        separators=(",", ":"))


def clock_of(text: str | None) -> ClockState:
    if not text:
        return ClockState()
    d = json.loads(text)
    return ClockState(
        control=None if d["control"] is None else parse_time_control(d["control"]),
        claim=bool(d["claim"]), banks=tuple((int(s), float(b)) for s, b in d["banks"]),
        paused_until=_dt(d["paused_until"]), lapsed=_dt(d["lapsed"]),
        away=tuple((int(u), datetime.fromtimestamp(t, UTC)) for u, t in d["away"]),
        undo=None if d.get("undo") is None else (
            int(d["undo"][0]), int(d["undo"][1]),
            None if d["undo"][2] is None else float(d["undo"][2]), float(d["undo"][3])),
        own=tuple((int(s), float(later), _dt(p)) for s, later, p in d.get("own", ())),
        took_back=tuple(int(s) for s in d.get("took_back", ())),
        hints=tuple((int(u), int(n)) for u, n in d.get("hints", ())),
        weekends=bool(d.get("weekends", False)),
        pause_offer=None if d.get("pause_offer") is None else PauseOffer(
            int(d["pause_offer"][0]), int(d["pause_offer"][1]), int(d["pause_offer"][2]),
            d["pause_offer"][3]),
        paused=None if d.get("paused") is None else (
            datetime.fromtimestamp(d["paused"][0], UTC),
            datetime.fromtimestamp(d["paused"][1], UTC)),
        pauses=int(d.get("pauses", 0)),
        on_timeout=str(d.get("on_timeout", "end")),
        stand_in_level=int(d.get("stand_in_level", 0)),
        stand_ins=tuple((int(u), int(n)) for u, n in d.get("stand_ins", ())),
        skipped=tuple((int(u), int(n)) for u, n in d.get("skipped", ())))


def _vacation_of(row: Sequence[Any]) -> VacationRecord:
    id_, guild_id, user_id, started, until, ended, days, auto = row
    start, end = _dt(started), _dt(until)
    assert start is not None and end is not None
    return VacationRecord(guild_id, user_id, start, end, days, bool(auto), _dt(ended), id_)


_VACATION_COLUMNS = "id, guild_id, user_id, started_at, until, ended_at, days, auto"


def _match_values(m: MatchRecord) -> tuple[Any, ...]:
    offer = None if m.draw_offer is None else json.dumps(
        {"by": m.draw_offer.by, "accepted": list(m.draw_offer.accepted)})
    result = None if m.result is None else json.dumps(
        {"winners": list(m.result.winners), "ranking": [list(g) for g in m.result.ranking],
         "reason": m.result.reason,
         **({"left": [m.result.left_by, m.result.left_how]}
            if m.result.left_by is not None else {})})
    return (m.guild_id, m.channel_id, m.thread_id, m.game, m.ladder, m.rules_version,
            json.dumps(dict(m.options), sort_keys=True), m.start_text, m.seat_count,
            m.status.value, m.challenger_id, _seats_json(m.seats), m.seat_pref, m.seating,
            m.ply, m.position_text, ",".join(map(str, m.to_move)), m.last_move,
            m.days_per_move, int(m.rated), _ts(m.deadline), _ts(m.remind_at), offer, result,
            m.broken, _ts(m.created_at), _ts(m.updated_at), m.last_move_by,
            clock_json(m.clock),
            None if m.takeback is None else json.dumps(
                {"by": m.takeback.by, "ply": m.takeback.ply}), m.continued_from, m.import_key)


def _match_of(row: Sequence[Any]) -> MatchRecord:
    (id_, version, guild_id, channel_id, thread_id, game, ladder, rules_version, options,
     start_text, seat_count, status, challenger_id, seats, seat_pref, seating, ply,
     position_text, to_move, last_move, days, rated, deadline, remind_at, offer, result,
     broken, created_at, updated_at, last_move_by, clock, takeback, continued_from,
     import_key, prefs, followers, conditionals, specials, ratings) = row
    found = {int(u): str(n).split(" ", 1) for u, n in json.loads(prefs).items()} \
        if prefs else {}
    notify = {u: n[0] for u, n in found.items()}
    zones = {u: n[1] for u, n in found.items() if len(n) > 1 and n[1]}
    seat_ratings = {int(u): RatingRecord(guild_id, ladder, int(u), float(mu), float(sigma),
                                         int(won), int(lost), int(drawn))
                    for u, (mu, sigma, won, lost, drawn) in json.loads(ratings).items()} \
        if ratings else {}
    offer_d = json.loads(offer) if offer else None
    takeback_d = json.loads(takeback) if takeback else None
    result_d = json.loads(result) if result else None
    created = _dt(created_at)
    updated = _dt(updated_at)
    assert created is not None and updated is not None
    return MatchRecord(
        id=id_, guild_id=guild_id, channel_id=channel_id, thread_id=thread_id, game=game,
        ladder=ladder, rules_version=rules_version, options=json.loads(options),
        start_text=start_text, seat_count=seat_count, status=MatchStatus(status),
        challenger_id=challenger_id,
        seats=tuple(SeatRecord(u, s, t, bool(a), bool(o), notify.get(u, "mention"),
                               zones.get(u), seat_ratings.get(u))
                    for u, s, t, a, o in json.loads(seats)),
        seat_pref=seat_pref, seating=seating, ply=ply, position_text=position_text,
        to_move=tuple(int(s) for s in to_move.split(",") if s), last_move=last_move,
        days_per_move=days, rated=bool(rated), deadline=_dt(deadline),
        remind_at=_dt(remind_at),
        draw_offer=DrawOffer(offer_d["by"], tuple(offer_d["accepted"])) if offer_d else None,
        result=ResultRecord(tuple(result_d["winners"]),
                            tuple(tuple(g) for g in result_d["ranking"]),
                            result_d["reason"], *result_d.get("left", (None, None)))
        if result_d else None,
        broken=broken, created_at=created, updated_at=updated, version=version,
        last_move_by=last_move_by, clock=clock_of(clock),
        takeback=TakebackRequest(takeback_d["by"], takeback_d["ply"]) if takeback_d else None,
        continued_from=continued_from, import_key=import_key,
        followers=tuple(sorted(int(u) for u in json.loads(followers) or ()))
        if followers else (),
        conditionals=int(conditionals or 0), specials=int(specials or 0))


def _rating_of(row: Sequence[Any]) -> RatingRecord:
    guild_id, ladder, user_id, mu, sigma, wins, losses, draws = row
    return RatingRecord(guild_id, ladder, user_id, mu, sigma, wins, losses, draws)


_RATING_COLUMNS = "guild_id, ladder, user_id, mu, sigma, wins, losses, draws"
_IN_SHARD = "(guild_id >> 22) % ? = ?"
"""A match's guild is on shard ``?`` of ``?`` (Discord's formula, ``shards.shard_of``)."""
_ZONED_REMINDER = ("(remind_at IS NOT NULL AND EXISTS (SELECT 1 FROM seats zs JOIN user_prefs zp "
                   "ON zp.user_id = zs.user_id WHERE zs.match_id = matches.id "
                   "AND zp.time_zone IS NOT NULL))")
"""A match with a reminder to send and a player with a time zone among its seats: an
outage moves it by the core's rule (his waking hours), not by the gap in one statement."""
_BEATS_OF = "(shard_count = ? AND shard_id = ?) OR shard_count <> ?"
"""The clock beats that speak for one shard's guilds: its own, and those of processes that
counted the shards differently (the deployment before a change of SHARD_COUNT: their
guilds are spread over every shard of today's count)."""
_BEAT = ("INSERT INTO clock_beats (shard_count, shard_id, at) VALUES (?, ?, ?) "
         "ON CONFLICT (shard_count, shard_id) DO UPDATE SET at = excluded.at")
_LOCK = "UPDATE process_lock SET at = ? WHERE id = 1"
"""Taken first by every transaction that coordinates processes (leases, clock extension)."""


def due_sql(select: str) -> str:
    """The sweep's query (``due_matches``): whole rows (``select``) of the active matches
    whose deadline or reminder time is at or before ``?`` (given twice). The ids come
    from the two indexes; a UNION of whole rows made SQLite merge two scans of the table
    in id order instead (1 s at 1,000,000 matches, at every sweep)."""
    return (f"{select} WHERE id IN (SELECT id FROM matches WHERE status = 'active' AND "
            "deadline <= ? UNION ALL SELECT id FROM matches WHERE status = 'active' AND "
            "remind_at <= ?) ORDER BY id")


def matches_of_sql(select: str, in_guild: bool, statuses: Sequence[MatchStatus]) -> str:
    """``/games`` and its kin (``matches_of``): whole rows of the matches of user ``?``
    (and of guild ``?`` when ``in_guild``) in ``statuses`` (any when empty), newest first.
    The statuses are written out, not bound: the live ones then match the partial index
    ``matches_live`` exactly, so PostgreSQL reads the heap of live matches only, not of
    every finished match the user ever played."""
    sql = f"{select} WHERE id IN (SELECT match_id FROM seats WHERE user_id = ?)"
    if in_guild:
        sql += " AND guild_id = ?"
    if statuses:
        sql += f" AND status IN ({', '.join(repr(MatchStatus(s).value) for s in statuses)})"
    return sql + " ORDER BY id DESC"


LEADERBOARD_SQL = (f"SELECT {_RATING_COLUMNS} FROM ratings WHERE guild_id = ? AND ladder = ? "
                   f"ORDER BY {ESTABLISHED} DESC, ordinal DESC, user_id LIMIT ? OFFSET ?")
"""One leaderboard page (guild, ladder, limit, offset): read from ``ratings_board`` alone."""


class SqlRepository(SqlAnalyses, SqlBlocks, SqlComforts, SqlExplorer, SqlImportedPlayers,
                    SqlPosts, SqlPuzzles, SqlSeasons, SqlTournaments):
    """The ``Repository`` Protocol in SQL; see the module's docstring."""

    _prefs_sql: ClassVar[str] = (
        "json_group_object(p.user_id, p.notify || COALESCE(' ' || p.time_zone, ''))")
    _unique_violation: tuple[type[BaseException], ...] = ()
    _select_match: ClassVar[str] = select_match(_prefs_sql)
    path: str
    """What messages call the database (a file path, or a URL without its password)."""
    outage: OutageLog
    counts: MoveCounts
    """The moves stored since it opened (``moves_stored``: the operator's metrics)."""

    @property
    def moves_stored(self) -> Mapping[str, int]:
        return self.counts.moves_stored

    @property
    def refusals(self) -> Mapping[str, int]:
        """The requests refused since it opened, by the kind of storage error."""
        return self.outage.refusals

    async def _exec(self, sql: str, params: Sequence[Any] = ()) -> Cursor:
        """One statement of the write transaction under way."""
        raise NotImplementedError

    async def _all(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        """The rows of one read statement (the latest committed data)."""
        raise NotImplementedError

    async def _transaction(self, body: Callable[[], Awaitable[T]]) -> T:
        """``body()`` as one write transaction: all of it or nothing."""
        raise NotImplementedError

    async def close(self) -> None:
        raise NotImplementedError

    async def columns(self, table: str) -> list[str]:
        """The columns of ``table``, in order (``storage.copy``)."""
        raise NotImplementedError

    async def _after_copy(self) -> None:
        """Called once rows with their ids were copied in (``storage.copy``)."""

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

    # ------------------------------------------------------------------ writes

    async def _write_seats(self, match_id: int, seats: Iterable[SeatRecord]) -> None:
        await self._exec("DELETE FROM seats WHERE match_id = ?", (match_id,))
        for s in seats:
            await self._exec("INSERT INTO seats (match_id, user_id, seat, team) "
                             "VALUES (?, ?, ?, ?)", (match_id, s.user_id, s.seat, s.team))

    async def _write_outbox(self, stored: MatchRecord, outbox: OutboxFn | None) -> None:
        await self._write_entries(outbox(stored) if outbox is not None else ())

    async def _write_entries(self, entries: Iterable[OutboxEntry]) -> None:
        for e in entries:
            await self._exec(
                "INSERT INTO outbox (match_id, guild_id, version, n, kind, payload, "
                "created_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
                (e.match_id, e.guild_id, e.version, e.n, e.kind, e.payload,
                 _ts(e.created_at)))

    async def _append(self, match_id: int, entries: Sequence[RecordEntry]) -> None:
        """Insert ``entries`` into the record of ``match_id`` (inside the caller's
        transaction); ``Conflict`` when one of their plies is there already."""
        for e in entries:
            try:
                await self._exec(
                    "INSERT INTO moves (match_id, ply, seat, notation, user_id, "
                    "played_at) VALUES (?, ?, ?, ?, ?, ?)",
                    (match_id, e.ply, e.seat, e.text, e.user_id, _ts(e.played_at)))
            except self._unique_violation:
                raise Conflict(f"match {match_id}: ply {e.ply} already played") from None

    async def _insert_match(self, record: MatchRecord) -> MatchRecord:
        """Insert ``record`` and its seats (inside the caller's transaction): the stored
        record, with its new id and version 1."""
        placeholders = ", ".join("?" * (len(_MATCH_COLUMNS.split(",")) + 1))
        try:
            cur = await self._exec(
                f"INSERT INTO matches ({_MATCH_COLUMNS}, version) VALUES ({placeholders}) "
                "RETURNING id", (*_match_values(record), 1))
        except self._unique_violation:  # matches_import_key: this game is imported here
            raise Conflict(f"guild {record.guild_id} holds import {record.import_key} "
                           "already") from None
        match_id = int((await cur.fetchone())[0])
        await self._write_seats(match_id, record.seats)
        return dataclasses.replace(record, id=match_id, version=1, specials=0)

    async def create_match(self, record: MatchRecord, outbox: OutboxFn | None = None,
                           entries: Sequence[RecordEntry] = ()) -> MatchRecord:
        async def body() -> MatchRecord:
            stored = dataclasses.replace(await self._insert_match(record),
                                         specials=special_entries(entries))
            await self._append(stored.id, entries)
            await self._write_outbox(stored, outbox)
            return stored
        result: MatchRecord = await self._transaction(body)
        return result

    async def save(self, before: MatchRecord, after: MatchRecord,
                   append: Sequence[RecordEntry] = (),
                   ratings: RatingChange | None = None,
                   outbox: OutboxFn | None = None) -> MatchRecord:
        async def body() -> MatchRecord:
            return await self._save_in(before, after, append, ratings, outbox)
        result: MatchRecord = await self._transaction(body)
        self.counts.stored(after.game, append)
        return result

    async def save_vacation(self, vacation: VacationRecord,
                            changes: Sequence[tuple[MatchRecord, MatchRecord, OutboxFn]]
                            ) -> tuple[VacationRecord, list[MatchRecord]]:
        async def body() -> tuple[VacationRecord, list[MatchRecord]]:
            values = (vacation.guild_id, vacation.user_id, _ts(vacation.started_at),
                      _ts(vacation.until), _ts(vacation.ended_at), vacation.days,
                      int(vacation.auto))
            if vacation.id:
                cur = await self._exec(
                    "UPDATE vacations SET guild_id = ?, user_id = ?, started_at = ?, "
                    "until = ?, ended_at = ?, days = ?, auto = ? WHERE id = ? RETURNING id",
                    (*values, vacation.id))
            else:
                cur = await self._exec(
                    "INSERT INTO vacations (guild_id, user_id, started_at, until, ended_at, "
                    "days, auto) VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING id", values)
            stored = dataclasses.replace(vacation, id=int((await cur.fetchone())[0]))
            saved = [await self._save_in(b, a, (), None, o) for b, a, o in changes]
            return stored, saved
        result: tuple[VacationRecord, list[MatchRecord]] = await self._transaction(body)
        return result

    async def vacations_of(self, guild_id: int, user_id: int, since: datetime
                           ) -> list[VacationRecord]:
        rows = await self._all(
            f"SELECT {_VACATION_COLUMNS} FROM vacations WHERE guild_id = ? AND user_id = ? "
            "AND (started_at >= ? OR until > ?) ORDER BY started_at, id",
            (guild_id, user_id, _ts(since), _ts(since)))
        return [_vacation_of(r) for r in rows]

    async def _save_in(self, before: MatchRecord, after: MatchRecord,
                       append: Sequence[RecordEntry], ratings: RatingChange | None,
                       outbox: OutboxFn | None) -> MatchRecord:
        """``save``'s statements, inside the transaction under way."""
        sets = ", ".join(f"{c.strip()} = ?" for c in _MATCH_COLUMNS.split(","))
        cur = await self._exec(
            f"UPDATE matches SET {sets}, version = version + 1 "
            "WHERE id = ? AND version = ? RETURNING id",
            (*_match_values(after), before.id, before.version))
        if await cur.fetchone() is None:
            raise Conflict(f"match {before.id} changed")
        await self._append(before.id, append)
        if after.seats != before.seats:
            await self._write_seats(before.id, after.seats)
        if ratings is not None:
            await self._rate(ratings)
        stored = dataclasses.replace(after, id=before.id, version=before.version + 1,
                                     specials=before.specials + special_entries(append))
        await self._write_outbox(stored, outbox)
        return stored

    async def _rate(self, change: RatingChange) -> None:
        users = list(change.results)
        marks = ", ".join("?" * len(users))
        cur = await self._exec(
            f"SELECT {_RATING_COLUMNS} FROM ratings WHERE guild_id = ? AND ladder = ? "
            f"AND user_id IN ({marks})", (change.guild_id, change.ladder, *users))
        found = {r.user_id: r for r in map(_rating_of, await cur.fetchall())}
        rows = change.rows_after({u: found.get(u) for u in users})
        # one order for every writer: two games ending at once lock shared players' rows
        # in the same order (no deadlock between them)
        for r in sorted(rows, key=lambda r: r.user_id):
            await self._exec(
                f"INSERT INTO ratings ({_RATING_COLUMNS}, ordinal) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) "
                "ON CONFLICT (guild_id, ladder, user_id) DO UPDATE SET mu = excluded.mu, "
                "sigma = excluded.sigma, ordinal = excluded.ordinal, wins = excluded.wins, "
                "losses = excluded.losses, draws = excluded.draws",
                (r.guild_id, r.ladder, r.user_id, r.mu, r.sigma, r.wins, r.losses, r.draws,
                 r.ordinal))
        await self.credit_season(change)

    # ------------------------------------------------------------------ reads

    async def load_match(self, match_id: int) -> MatchRecord | None:
        if not INT64_MIN <= match_id <= INT64_MAX:
            return None  # no such row can exist (and SQLite would raise OverflowError)
        rows = await self._all(f"{self._select_match} WHERE id = ?", (match_id,))
        return _match_of(rows[0]) if rows else None

    async def load_entries(self, match_id: int, *, start: int = 0,
                           stop: int | None = None) -> list[RecordEntry]:
        rows = await self._all(
            "SELECT ply, seat, notation, user_id, played_at FROM moves WHERE match_id = ? "
            "AND ply >= ? AND ply < ? ORDER BY ply",
            (match_id, start, _PLY_MAX if stop is None else stop))
        return [entry_of(r) for r in rows]

    async def match_in_thread(self, thread_id: int) -> MatchRecord | None:
        rows = await self._all(f"{self._select_match} WHERE thread_id = ? ORDER BY id DESC LIMIT 1",
                               (thread_id,))
        return _match_of(rows[0]) if rows else None

    async def matches_of(self, user_id: int, guild_id: int | None = None,
                         statuses: Sequence[MatchStatus] = ()) -> list[MatchRecord]:
        params = [user_id] if guild_id is None else [user_id, guild_id]
        rows = await self._all(matches_of_sql(self._select_match, guild_id is not None,
                                              statuses), params)
        return [_match_of(r) for r in rows]

    async def open_challenges(self, guild_id: int) -> list[MatchRecord]:
        rows = await self._all(f"{self._select_match} WHERE guild_id = ? AND status IN "
                               "('open', 'lobby') ORDER BY id DESC", (guild_id,))
        return [m for m in map(_match_of, rows) if len(m.seats) < m.seat_count]

    async def live_matches(self, guild_id: int, limit: int) -> list[MatchRecord]:
        rows = await self._all(f"{self._select_match} WHERE guild_id = ? AND status = "
                               "'active' ORDER BY id DESC LIMIT ?", (guild_id, max(0, limit)))
        return [_match_of(r) for r in rows]

    async def unkeyed_imports(self, guild_id: int) -> list[MatchRecord]:
        rows = await self._all(f"{self._select_match} WHERE guild_id = ? AND import_key LIKE "
                               f"'{UNKEYED}%' ORDER BY id", (guild_id,))
        return [_match_of(r) for r in rows]

    async def unkeyed_games(self, guild_id: int, limit: int) -> list[UnkeyedGame]:
        # the terms of the partial index matches_unkeyed_games, as its migration wrote them;
        # five columns, not the whole row with its seats', prefs', ratings' subqueries
        rows = await self._all("SELECT id, game, options, start_text, ply FROM matches "
                               "WHERE guild_id = ? AND game_key IS NULL AND import_key IS "
                               "NULL AND ply > 0 AND status IN ('finished', 'aborted') "
                               "ORDER BY id LIMIT ?", (guild_id, max(0, limit)))
        return [UnkeyedGame(id_, game, json.loads(options), start_text, ply)
                for id_, game, options, start_text, ply in rows]

    async def unkeyed_game_counts(self) -> dict[int, int]:
        # the same terms: read from the partial index alone (its guild_id), never the table
        rows = await self._all("SELECT guild_id, count(*) FROM matches WHERE game_key IS NULL "
                               "AND import_key IS NULL AND ply > 0 AND status IN "
                               "('finished', 'aborted') GROUP BY guild_id")
        return {int(r[0]): int(r[1]) for r in rows}

    async def unfinished_imports(self, guild_id: int, limit: int) -> list[MatchRecord]:
        rows = await self._all(f"{self._select_match} WHERE guild_id = ? AND import_key IS "
                               "NOT NULL AND status = 'aborted' ORDER BY id DESC LIMIT ?",
                               (guild_id, max(0, limit)))
        return [_match_of(r) for r in rows]

    async def due_matches(self, now: datetime) -> list[MatchRecord]:
        t = now.timestamp()
        rows = await self._all(due_sql(self._select_match), (t, t))
        return [_match_of(r) for r in rows]

    async def match_ids(self) -> list[int]:
        return [r[0] for r in await self._all("SELECT id FROM matches ORDER BY id")]

    async def heartbeat(self, shard_id: int = 0, shard_count: int = 1) -> datetime | None:
        rows = await self._all(f"SELECT max(at) FROM clock_beats WHERE {_BEATS_OF}",
                               (shard_count, shard_id, shard_count))
        return _dt(rows[0][0]) if rows else None

    async def beat(self, now: datetime, shard_ids: Sequence[int] = (0,),
                   shard_count: int = 1) -> None:
        async def body() -> None:
            for shard in shard_ids:
                await self._exec(_BEAT, (shard_count, shard, _ts(now)))
        await self._transaction(body)

    async def lease_shards(self, shard_ids: Sequence[int], shard_count: int, owner: str,
                           now: datetime, stale: timedelta) -> list[int]:
        class Taken(Exception):
            pass

        taken: list[int] = []

        async def body() -> None:
            # one lease transaction at a time across processes (the row lock of this
            # one-row table; SQLite runs one writer anyway): a process starting at the very
            # same moment sees this one's leases, whatever shards it asks for
            await self._exec(_LOCK, (_ts(now),))
            # a live process counting the shards differently splits guilds otherwise
            for row in await (await self._exec(
                    "SELECT shard_id FROM shard_leases WHERE owner <> ? AND beat_at >= ? "
                    "AND shard_count <> ?", (owner, _ts(now - stale), shard_count)
                    )).fetchall():
                taken.append(int(row[0]))
            for shard in shard_ids:
                # the conflict update locks the row (PostgreSQL) or runs alone (SQLite):
                # of two processes racing, the second sees the first's fresh beat
                cur = await self._exec(
                    "INSERT INTO shard_leases (shard_id, shard_count, owner, beat_at) "
                    "VALUES (?, ?, ?, ?) ON CONFLICT (shard_id) DO UPDATE SET "
                    "shard_count = excluded.shard_count, owner = excluded.owner, "
                    "beat_at = excluded.beat_at WHERE shard_leases.owner = excluded.owner "
                    "OR shard_leases.beat_at < ? RETURNING shard_id",
                    (shard, shard_count, owner, _ts(now), _ts(now - stale)))
                if await cur.fetchone() is None and shard not in taken:
                    taken.append(shard)
            if taken:
                raise Taken  # roll back: a process gets all its shards or none
        try:
            await self._transaction(body)
        except Taken:
            return sorted(taken)
        return []

    async def release_shards(self, owner: str) -> None:
        async def body() -> None:
            await self._exec("DELETE FROM shard_leases WHERE owner = ?", (owner,))
        await self._transaction(body)

    async def extend_clocks(self, downtime: Downtime, outbox: OutboxFn | None = None, *,
                            shard_id: int = 0, shard_count: int = 1
                            ) -> list[MatchRecord] | None:
        since, now = downtime.since, downtime.now

        async def body() -> list[MatchRecord] | None:
            # compare-and-set on the shard's last beat, under the one-row lock: of two
            # processes resuming the same shard, one goes on
            await self._exec(_LOCK, (_ts(now),))
            cur = await self._exec(f"SELECT max(at) FROM clock_beats WHERE {_BEATS_OF}",
                                   (shard_count, shard_id, shard_count))
            row = await cur.fetchone()
            if row is None or row[0] is None or abs(row[0] - since.timestamp()) > 1e-4:
                return None
            await self._exec(_BEAT, (shard_count, shard_id, _ts(now)))
            gap = downtime.gap.total_seconds()
            # a plain clock (no JSON: nothing paused) ran through the whole gap: one
            # UPDATE for all but _ZONED_REMINDER's; the others each by the core's rule
            # (downtime.moved: the part they ran; a vacation pause is not extended)
            cur = await self._exec(
                "UPDATE matches SET deadline = deadline + ?, remind_at = remind_at + ?, "
                "version = version + 1 WHERE status = 'active' AND deadline IS NOT NULL "
                f"AND clock IS NULL AND {_IN_SHARD} AND NOT {_ZONED_REMINDER} RETURNING id",
                (gap, gap, shard_count, shard_id))
            ids = [r[0] for r in await cur.fetchall()]
            cur = await self._exec(
                f"{self._select_match} WHERE status = 'active' AND deadline IS NOT NULL "
                f"AND (clock IS NOT NULL OR {_ZONED_REMINDER}) AND {_IN_SHARD}",
                (shard_count, shard_id))
            for rec in [_match_of(r) for r in await cur.fetchall()]:
                moved = downtime.moved(rec)
                if moved is None:
                    continue  # every clock of it was paused by a vacation throughout
                await self._exec(
                    "UPDATE matches SET deadline = ?, remind_at = ?, clock = ?, "
                    "version = version + 1 WHERE id = ?",
                    (_ts(moved.deadline), _ts(moved.remind_at), clock_json(moved.clock),
                     rec.id))
                ids.append(rec.id)
            out = []
            for match_id in sorted(ids):
                cur = await self._exec(f"{self._select_match} WHERE id = ?", (match_id,))
                out.append(_match_of(await cur.fetchone()))
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
                await self._exec("INSERT INTO dms_closed (user_id) VALUES (?) "
                                 "ON CONFLICT (user_id) DO NOTHING",
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
        rows = await self._all(LEADERBOARD_SQL, (guild_id, ladder, limit, offset))
        total = await self._all("SELECT count(*) FROM ratings WHERE guild_id = ? AND "
                                "ladder = ?", (guild_id, ladder))
        return [_rating_of(r) for r in rows], int(total[0][0])

    async def rank_of(self, guild_id: int, ladder: str,
                      user_id: int) -> tuple[int, RatingRecord] | None:
        rows = await self._all(
            f"SELECT {_RATING_COLUMNS}, (SELECT count(*) FROM ratings AS o WHERE "
            "o.guild_id = r.guild_id AND o.ladder = r.ladder AND "
            f"({established('o')} > {established('r')} OR ({established('o')} = "
            f"{established('r')} AND o.ordinal > r.ordinal))) "
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
                               "reminders, language, seasons, organiser_role_id, "
                               "default_clock, claim_win, vacation_days, auto_vacation, "
                               "takebacks_rated, web, weekends_off, pauses_rated "
                               "FROM guild_settings WHERE guild_id = ?", (guild_id,))
        if not rows:
            return None
        (days, threads, channel, reminders, language, seasons, role, clock, claim, vacation,
         auto, takebacks, web, weekends, pauses) = rows[0]
        return GuildSettings(guild_id, days, bool(threads), channel, bool(reminders),
                             language, seasons, role, clock, bool(claim), int(vacation),
                             bool(auto), bool(takebacks), bool(web), bool(weekends),
                             int(pauses))

    async def save_guild_settings(self, settings: GuildSettings) -> None:
        async def body() -> None:
            await self._write_settings(settings, seasons=False)
        await self._transaction(body)

    async def _write_settings(self, settings: GuildSettings, *, seasons: bool) -> None:
        """Upsert the row; the seasons' schedule only when ``seasons`` (it changes with
        the seasons themselves, in ``change_seasons``'s transaction)."""
        await self._exec(
            "INSERT INTO guild_settings (guild_id, default_days, use_threads, "
            "games_channel_id, reminders, language, seasons, organiser_role_id, "
            "default_clock, claim_win, vacation_days, auto_vacation, takebacks_rated, web, "
            "weekends_off, pauses_rated) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (guild_id) "
            "DO UPDATE SET default_days = excluded.default_days, use_threads = "
            "excluded.use_threads, games_channel_id = excluded.games_channel_id, "
            "reminders = excluded.reminders, language = excluded.language, "
            "organiser_role_id = excluded.organiser_role_id, "
            "default_clock = excluded.default_clock, claim_win = excluded.claim_win, "
            "vacation_days = excluded.vacation_days, auto_vacation = excluded.auto_vacation, "
            "takebacks_rated = excluded.takebacks_rated, web = excluded.web, "
            "weekends_off = excluded.weekends_off, pauses_rated = excluded.pauses_rated"
            + (", seasons = excluded.seasons" if seasons else ""),
            (settings.guild_id, settings.default_days, int(settings.use_threads),
             settings.games_channel_id, int(settings.reminders), settings.language,
             settings.seasons, settings.organiser_role_id, settings.default_clock,
             int(settings.claim_win), settings.vacation_days, int(settings.auto_vacation),
             int(settings.takebacks_rated), int(settings.web), int(settings.weekends_off),
             settings.pauses_rated))

    async def get_user_prefs(self, user_id: int) -> UserPrefs | None:
        rows = await self._all("SELECT notify, locale, time_zone FROM user_prefs "
                               "WHERE user_id = ?", (user_id,))
        return UserPrefs(user_id, rows[0][0], rows[0][1], rows[0][2]) if rows else None

    async def save_user_prefs(self, prefs: UserPrefs) -> None:
        async def body() -> None:
            await self._exec("INSERT INTO user_prefs (user_id, notify) VALUES (?, ?) "
                             "ON CONFLICT (user_id) DO UPDATE SET notify = excluded.notify",
                             (prefs.user_id, prefs.notify))
        await self._transaction(body)

    async def web_epoch(self, user_id: int) -> int:
        rows = await self._all("SELECT web_epoch FROM user_prefs WHERE user_id = ?",
                               (user_id,))
        return int(rows[0][0]) if rows else 0

    async def revoke_web_links(self, user_id: int) -> int:
        async def body() -> int:
            await self._exec("INSERT INTO user_prefs (user_id, notify, web_epoch) "
                             "VALUES (?, 'mention', 1) ON CONFLICT (user_id) DO UPDATE SET "
                             "web_epoch = user_prefs.web_epoch + 1", (user_id,))
            cur = await self._exec("SELECT web_epoch FROM user_prefs WHERE user_id = ?",
                                   (user_id,))
            row = await cur.fetchone()
            return int(row[0]) if row else 0
        return await self._transaction(body)

    async def remember_locale(self, user_id: int, locale: str) -> None:
        async def body() -> None:
            await self._exec("INSERT INTO user_prefs (user_id, notify, locale) "
                             "VALUES (?, 'mention', ?) ON CONFLICT (user_id) DO UPDATE SET "
                             "locale = excluded.locale", (user_id, locale))
        await self._transaction(body)

    async def set_time_zone(self, user_id: int, zone: str | None) -> None:
        async def body() -> None:
            await self._exec("INSERT INTO user_prefs (user_id, notify, time_zone) "
                             "VALUES (?, 'mention', ?) ON CONFLICT (user_id) DO UPDATE SET "
                             "time_zone = excluded.time_zone", (user_id, zone))
        await self._transaction(body)


    # ------------------------------------------------------------------ comforts

    async def take_back(self, before: MatchRecord, after: MatchRecord,
                        outbox: OutboxFn | None = None) -> MatchRecord:
        async def body() -> MatchRecord:
            sets = ", ".join(f"{c.strip()} = ?" for c in _MATCH_COLUMNS.split(","))
            cur = await self._exec(
                f"UPDATE matches SET {sets}, version = version + 1 "
                "WHERE id = ? AND version = ? AND ply = ? RETURNING id",
                (*_match_values(after), before.id, before.version, before.ply))
            if await cur.fetchone() is None:
                raise Conflict(f"match {before.id} changed")
            cur = await self._exec("DELETE FROM moves WHERE match_id = ? AND ply >= ? "
                                   "RETURNING notation", (before.id, after.ply))
            undone = sum(1 for (text,) in await cur.fetchall()
                         if str(text).startswith(SPECIAL_PREFIX))
            await self._exec("DELETE FROM conditional_moves WHERE match_id = ?", (before.id,))
            if after.seats != before.seats:
                await self._write_seats(before.id, after.seats)
            stored = dataclasses.replace(after, id=before.id, version=before.version + 1,
                                         conditionals=0, specials=before.specials - undone)
            await self._write_outbox(stored, outbox)
            return stored
        result: MatchRecord = await self._transaction(body)
        return result

    async def create_rematch(self, original_id: int, record: MatchRecord,
                             outbox: OutboxFn | None = None) -> MatchRecord | None:
        async def body() -> MatchRecord | None:
            cur = await self._exec(
                "SELECT m.id FROM rematches AS r JOIN matches AS m ON m.id = r.rematch_id "
                "WHERE r.match_id = ? AND m.status IN ('open', 'lobby', 'active')",
                (original_id,))
            if await cur.fetchone() is not None:
                return None
            stored = await self._insert_match(record)
            await self._exec(
                "INSERT INTO rematches (match_id, rematch_id) VALUES (?, ?) ON CONFLICT "
                "(match_id) DO UPDATE SET rematch_id = excluded.rematch_id",
                (original_id, stored.id))
            await self._write_outbox(stored, outbox)
            return stored
        result: MatchRecord | None = await self._transaction(body)
        return result

    async def rematch_of(self, match_id: int) -> int | None:
        rows = await self._all("SELECT rematch_id FROM rematches WHERE match_id = ?",
                               (match_id,))
        return int(rows[0][0]) if rows else None

    async def rematch_source(self, rematch_id: int) -> int | None:
        rows = await self._all("SELECT match_id FROM rematches WHERE rematch_id = ?",
                               (rematch_id,))
        return int(rows[0][0]) if rows else None
