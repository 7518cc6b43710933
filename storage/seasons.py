"""Season persistence for both repositories (``service.seasons.SeasonRepository``):
one row per season, the season ratings beside the all-time ones, written in the
transaction that rates a match (``credit_season``, called by the repository's rating step).

The schema is migration 10 in ``storage/schema.py`` (both databases)."""

from __future__ import annotations

import dataclasses
from collections.abc import Awaitable, Callable, Iterable, Sequence
from datetime import datetime
from typing import Any

from service.errors import Conflict
from service.records import OutboxEntry, RatingChange, RatingRecord
from service.seasons import (
    Schedule,
    SeasonOutboxFn,
    SeasonRecord,
    opening,
    rescheduled,
    season_for,
)
from service.views import GuildSettings
from storage.schema import ESTABLISHED, established
from storage.times import epoch as _ts
from storage.times import moment as _dt


def _season_of(row: Sequence[Any]) -> SeasonRecord:
    guild_id, number, schedule, starts, ends, channel, closed = row
    start = _dt(starts)
    assert start is not None
    return SeasonRecord(int(guild_id), int(number), Schedule(schedule), start, _dt(ends),
                        int(channel), _dt(closed))


def _board_order(r: RatingRecord) -> tuple[bool, float, int]:
    """Established players first (``RatingRecord.provisional``), then by ordinal."""
    return (r.provisional, -r.ordinal, r.user_id)


def _rating_of(row: Sequence[Any]) -> RatingRecord:
    guild_id, ladder, user_id, mu, sigma, wins, losses, draws = row
    return RatingRecord(guild_id, ladder, user_id, mu, sigma, wins, losses, draws)


_SEASON_COLUMNS = "guild_id, number, schedule, starts_at, ends_at, channel_id, closed_at"
_COLUMNS = "guild_id, ladder, user_id, mu, sigma, wins, losses, draws"


class MemorySeasons:
    """Dicts for seasons (``MemoryRepository`` inherits it)."""

    _store_entries: Callable[[Iterable[OutboxEntry]], None]  # the repository's
    _guilds: dict[int, GuildSettings]

    def __init__(self) -> None:
        super().__init__()
        self._seasons: dict[tuple[int, int], SeasonRecord] = {}
        self._season_ratings: dict[tuple[int, int, str, int], RatingRecord] = {}

    def _latest(self, guild_id: int) -> SeasonRecord | None:
        mine = [s for (g, _), s in self._seasons.items() if g == guild_id]
        return max(mine, key=lambda s: s.number) if mine else None

    def _schedule(self, guild_id: int) -> Schedule:
        found = self._guilds.get(guild_id)
        return Schedule(found.seasons) if found is not None else Schedule.OFF

    def _credit_plan(self, change: RatingChange) -> list[tuple[tuple[int, int, str, int],
                                                               RatingRecord]]:
        """What crediting ``change`` to its season writes (nothing stored yet)."""
        if change.at is None:
            return []
        season, new = season_for(self._latest(change.guild_id),
                                 self._schedule(change.guild_id), change.at)
        if season is None:
            return []
        if new is not None:
            self._seasons[(new.guild_id, new.number)] = new
        key = (change.guild_id, season.number, change.ladder)
        rows = change.rows_after({u: self._season_ratings.get((*key, u))
                                  for u in change.results}, season=True)
        return [((*key, r.user_id), r) for r in rows]

    async def change_seasons(self, guild_id: int, schedule: Schedule, now: datetime,
                             channel_id: int, *, keep: bool = False) -> SeasonRecord | None:
        settings = self._guilds.get(guild_id) or GuildSettings(guild_id)
        self._guilds[guild_id] = dataclasses.replace(settings, seasons=schedule.value)
        latest = self._latest(guild_id)
        kept = rescheduled(latest, schedule, now) if keep else None
        if kept is not None:
            self._seasons[(guild_id, kept.number)] = kept
            return kept
        if latest is not None and (latest.ends_at is None or latest.ends_at > now):
            self._seasons[(guild_id, latest.number)] = dataclasses.replace(
                latest, ends_at=max(now, latest.starts_at))
        if schedule is Schedule.OFF:
            return None
        new = opening(guild_id, (latest.number if latest else 0) + 1, schedule, now,
                      channel_id)
        self._seasons[(guild_id, new.number)] = new
        return new

    async def seasons_of(self, guild_id: int) -> list[SeasonRecord]:
        return sorted((s for (g, _), s in self._seasons.items() if g == guild_id),
                      key=lambda s: -s.number)

    async def seasons_due(self, now: datetime) -> list[SeasonRecord]:
        return sorted((s for s in self._seasons.values() if s.closed_at is None
                       and s.ends_at is not None and s.ends_at <= now),
                      key=lambda s: (s.ends_at or now, s.guild_id, s.number))

    async def close_season(self, season: SeasonRecord, now: datetime,
                           outbox: SeasonOutboxFn) -> SeasonRecord | None:
        current = self._seasons.get((season.guild_id, season.number))
        if current is None or current.closed_at is not None:
            return None
        closed = dataclasses.replace(current, closed_at=now)
        rows = [r for (g, n, _, _), r in self._season_ratings.items()
                if g == season.guild_id and n == season.number]
        entries = outbox(closed, sorted(rows, key=lambda r: (r.ladder, _board_order(r))))
        self._seasons[(season.guild_id, season.number)] = closed
        _, new = season_for(self._latest(season.guild_id), self._schedule(season.guild_id),
                            now)
        if new is not None:
            self._seasons[(new.guild_id, new.number)] = new
        self._store_entries(entries)
        return closed

    def _board(self, guild_id: int, season: int, ladder: str) -> list[RatingRecord]:
        return sorted((r for (g, n, l_, _), r in self._season_ratings.items()
                       if g == guild_id and n == season and l_ == ladder), key=_board_order)

    async def season_board(self, guild_id: int, season: int, ladder: str, offset: int,
                           limit: int) -> tuple[list[RatingRecord], int]:
        rows = self._board(guild_id, season, ladder)
        return rows[offset:offset + limit], len(rows)

    async def season_rank_of(self, guild_id: int, season: int, ladder: str, user_id: int
                             ) -> tuple[int, RatingRecord] | None:
        mine = self._season_ratings.get((guild_id, season, ladder, user_id))
        if mine is None:
            return None
        better = sum(1 for r in self._board(guild_id, season, ladder)
                     if _board_order(r)[:2] < _board_order(mine)[:2])
        return better + 1, mine


class SqlSeasons:
    """Seasons in SQL (``SqlRepository`` inherits it, so SQLite and PostgreSQL both have
    them; it uses the repository's write transaction and read helpers)."""

    _exec: Callable[..., Awaitable[Any]]
    _transaction: Callable[[Callable[[], Awaitable[Any]]], Awaitable[Any]]
    _all: Callable[..., Awaitable[list[Any]]]
    _write_entries: Callable[[Iterable[OutboxEntry]], Awaitable[None]]
    _write_settings: Callable[..., Awaitable[None]]
    _unique_violation: tuple[type[BaseException], ...]

    async def _latest_in(self, guild_id: int) -> SeasonRecord | None:
        cur = await self._exec(f"SELECT {_SEASON_COLUMNS} FROM seasons WHERE guild_id = ? "
                               "ORDER BY number DESC LIMIT 1", (guild_id,))
        row = await cur.fetchone()
        return _season_of(row) if row is not None else None

    async def _schedule_in(self, guild_id: int) -> Schedule:
        cur = await self._exec("SELECT seasons FROM guild_settings WHERE guild_id = ?",
                               (guild_id,))
        row = await cur.fetchone()
        return Schedule(row[0]) if row is not None else Schedule.OFF

    async def _insert_season(self, s: SeasonRecord, *, if_new: bool) -> None:
        await self._exec(
            f"INSERT INTO seasons ({_SEASON_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?)"
            + (" ON CONFLICT (guild_id, number) DO NOTHING" if if_new else ""),
            (s.guild_id, s.number, s.schedule.value, _ts(s.starts_at), _ts(s.ends_at),
             s.channel_id, _ts(s.closed_at)))

    async def credit_season(self, change: RatingChange) -> None:
        """Inside the rating transaction: the season ratings of ``change`` (in the season
        holding ``change.at``, opened first if the calendar moved on unnoticed)."""
        if change.at is None:
            return
        season, new = season_for(await self._latest_in(change.guild_id),
                                 await self._schedule_in(change.guild_id), change.at)
        if season is None:
            return
        if new is not None:  # two writers opening it at once: both count in it
            await self._insert_season(new, if_new=True)
        users = list(change.results)
        cur = await self._exec(
            f"SELECT {_COLUMNS} FROM season_ratings WHERE guild_id = ? AND season = ? "
            f"AND ladder = ? AND user_id IN ({', '.join('?' * len(users))})",
            (change.guild_id, season.number, change.ladder, *users))
        found = {r.user_id: r for r in map(_rating_of, await cur.fetchall())}
        for r in change.rows_after({u: found.get(u) for u in users}, season=True):
            await self._exec(
                f"INSERT INTO season_ratings (season, {_COLUMNS}, ordinal) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) "
                "ON CONFLICT (guild_id, season, ladder, user_id) DO UPDATE SET "
                "mu = excluded.mu, sigma = excluded.sigma, ordinal = excluded.ordinal, "
                "wins = excluded.wins, losses = excluded.losses, draws = excluded.draws",
                (season.number, r.guild_id, r.ladder, r.user_id, r.mu, r.sigma, r.wins,
                 r.losses, r.draws, r.ordinal))

    async def change_seasons(self, guild_id: int, schedule: Schedule, now: datetime,
                             channel_id: int, *, keep: bool = False) -> SeasonRecord | None:
        async def body() -> SeasonRecord | None:
            # every column is read back, so the upsert keeps them all (language, clock,
            # the web switch...): only the schedule changes here
            cur = await self._exec(
                "SELECT default_days, use_threads, games_channel_id, reminders, language, "
                "organiser_role_id, default_clock, claim_win, vacation_days, auto_vacation, "
                "takebacks_rated, web FROM guild_settings WHERE guild_id = ?", (guild_id,))
            row = await cur.fetchone()
            settings = GuildSettings(guild_id) if row is None else GuildSettings(
                guild_id, row[0], bool(row[1]), row[2], bool(row[3]), row[4],
                organiser_role_id=row[5], default_clock=row[6], claim_win=bool(row[7]),
                vacation_days=int(row[8]), auto_vacation=bool(row[9]),
                takebacks_rated=bool(row[10]), web=bool(row[11]))
            await self._write_settings(dataclasses.replace(settings, seasons=schedule.value),
                                       seasons=True)
            latest = await self._latest_in(guild_id)
            kept = rescheduled(latest, schedule, now) if keep else None
            if kept is not None:
                await self._exec("UPDATE seasons SET schedule = ?, ends_at = ? WHERE "
                                 "guild_id = ? AND number = ?",
                                 (kept.schedule.value, _ts(kept.ends_at), guild_id,
                                  kept.number))
                return kept
            if latest is not None and (latest.ends_at is None or latest.ends_at > now):
                await self._exec("UPDATE seasons SET ends_at = ? WHERE guild_id = ? AND "
                                 "number = ?", (_ts(max(now, latest.starts_at)), guild_id,
                                                latest.number))
            if schedule is Schedule.OFF:
                return None
            new = opening(guild_id, (latest.number if latest else 0) + 1, schedule, now,
                          channel_id)
            try:
                await self._insert_season(new, if_new=False)
            except self._unique_violation:
                raise Conflict(f"a season of guild {guild_id} started meanwhile") from None
            return new
        result: SeasonRecord | None = await self._transaction(body)
        return result

    async def seasons_of(self, guild_id: int) -> list[SeasonRecord]:
        rows = await self._all(f"SELECT {_SEASON_COLUMNS} FROM seasons WHERE guild_id = ? "
                               "ORDER BY number DESC", (guild_id,))
        return [_season_of(r) for r in rows]

    async def seasons_due(self, now: datetime) -> list[SeasonRecord]:
        rows = await self._all(f"SELECT {_SEASON_COLUMNS} FROM seasons WHERE closed_at IS "
                               "NULL AND ends_at <= ? ORDER BY ends_at, guild_id, number",
                               (_ts(now),))
        return [_season_of(r) for r in rows]

    async def close_season(self, season: SeasonRecord, now: datetime,
                           outbox: SeasonOutboxFn) -> SeasonRecord | None:
        async def body() -> SeasonRecord | None:
            cur = await self._exec(
                f"UPDATE seasons SET closed_at = ? WHERE guild_id = ? AND number = ? AND "
                f"closed_at IS NULL RETURNING {_SEASON_COLUMNS}",
                (_ts(now), season.guild_id, season.number))
            row = await cur.fetchone()
            if row is None:
                return None
            closed = _season_of(row)
            _, new = season_for(await self._latest_in(season.guild_id),
                                await self._schedule_in(season.guild_id), now)
            if new is not None:
                await self._insert_season(new, if_new=True)
            cur = await self._exec(
                f"SELECT {_COLUMNS} FROM season_ratings WHERE guild_id = ? AND season = ? "
                f"ORDER BY ladder, {ESTABLISHED} DESC, ordinal DESC, user_id",
                (season.guild_id, season.number))
            rows = [_rating_of(r) for r in await cur.fetchall()]
            await self._write_entries(outbox(closed, rows))
            return closed
        result: SeasonRecord | None = await self._transaction(body)
        return result

    async def season_board(self, guild_id: int, season: int, ladder: str, offset: int,
                           limit: int) -> tuple[list[RatingRecord], int]:
        rows = await self._all(
            f"SELECT {_COLUMNS} FROM season_ratings WHERE guild_id = ? AND season = ? AND "
            f"ladder = ? ORDER BY {ESTABLISHED} DESC, ordinal DESC, user_id LIMIT ? OFFSET ?",
            (guild_id, season, ladder, limit, offset))
        total = await self._all("SELECT count(*) FROM season_ratings WHERE guild_id = ? AND "
                                "season = ? AND ladder = ?", (guild_id, season, ladder))
        return [_rating_of(r) for r in rows], int(total[0][0])

    async def season_rank_of(self, guild_id: int, season: int, ladder: str, user_id: int
                             ) -> tuple[int, RatingRecord] | None:
        rows = await self._all(
            f"SELECT {_COLUMNS}, (SELECT count(*) FROM season_ratings AS o WHERE "
            "o.guild_id = r.guild_id AND o.season = r.season AND o.ladder = r.ladder AND "
            f"({established('o')} > {established('r')} OR ({established('o')} = "
            f"{established('r')} AND o.ordinal > r.ordinal))) "
            "FROM season_ratings AS r WHERE guild_id = ? AND season = ? AND ladder = ? AND "
            "user_id = ?", (guild_id, season, ladder, user_id))
        if not rows:
            return None
        return int(rows[0][-1]) + 1, _rating_of(rows[0][:-1])
