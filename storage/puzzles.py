"""Puzzles (issue 44), in memory and in SQL (``MemoryRepository`` and ``SqlRepository``
inherit them): ``puzzles`` holds each puzzle mined from a finished match, ``puzzle_mined``
which matches were mined (a match is mined once, and the rows of the last hour bound the
mining), ``puzzle_players`` each player's puzzle rating, streak and the puzzle he is
solving, ``puzzle_tries`` his finished tries (a puzzle is never given to him twice), and
``puzzle_daily`` each server's daily puzzle post.

A player never gets a puzzle mined from a match he played in: the candidates' query reads
the source match's seats.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Awaitable, Callable, Iterable, Sequence
from datetime import datetime
from typing import Any

from service.records import (
    MatchRecord,
    MatchStatus,
    OutboxEntry,
    PuzzlePlayer,
    PuzzleRecord,
    PuzzleTry,
)
from storage.times import epoch as _ts
from storage.times import moment as _dt


def _ordinal(p: PuzzlePlayer) -> float:
    return p.mu - 3 * p.sigma


def _ranked(players: Iterable[PuzzlePlayer], limit: int) -> list[PuzzlePlayer]:
    shown = [p for p in players if p.solved + p.failed > 0]
    return sorted(shown, key=lambda p: (-_ordinal(p), p.user_id))[:max(0, limit)]


def _closest(puzzles: Iterable[PuzzleRecord], mu: float, limit: int) -> list[PuzzleRecord]:
    return sorted(puzzles, key=lambda p: (abs(p.mu - mu), p.id))[:max(0, limit)]


class MemoryPuzzles:
    """Puzzles in dicts (``MemoryRepository``)."""

    _matches: dict[int, MatchRecord]
    _store_entries: Callable[[Iterable[OutboxEntry]], None]

    def __init__(self) -> None:
        super().__init__()
        self._puzzles: dict[int, PuzzleRecord] = {}
        self._mined: dict[int, datetime] = {}  # match -> when it was mined
        self._puzzle_players: dict[tuple[int, int], PuzzlePlayer] = {}
        self._tries: dict[tuple[int, int], PuzzleTry] = {}  # (user, puzzle) -> first try
        self._daily: dict[int, tuple[int, datetime]] = {}  # guild -> channel, next post

    async def unmined_matches(self, after: int, limit: int) -> list[int]:
        found = sorted(i for i, m in self._matches.items()
                       if i > after and m.status is MatchStatus.FINISHED
                       and i not in self._mined)
        return found[:max(0, limit)]

    async def mined_since(self, since: datetime) -> int:
        return sum(1 for at in self._mined.values() if at >= since)

    async def store_puzzles(self, match_id: int, guild_id: int,
                            puzzles: Sequence[PuzzleRecord], now: datetime
                            ) -> list[PuzzleRecord] | None:
        if match_id in self._mined:
            return None
        self._mined[match_id] = now
        stored: list[PuzzleRecord] = []
        for p in puzzles:
            if any(q.match_id == p.match_id and q.ply == p.ply for q in stored):
                continue
            new = dataclasses.replace(p, id=max(self._puzzles, default=0) + 1)
            self._puzzles[new.id] = new
            stored.append(new)
        return stored

    async def load_puzzle(self, puzzle_id: int) -> PuzzleRecord | None:
        return self._puzzles.get(puzzle_id)

    async def puzzle_count(self, guild_id: int) -> int:
        return sum(1 for p in self._puzzles.values() if p.guild_id == guild_id)

    async def puzzle_candidates(self, guild_id: int, user_id: int, mu: float,
                                limit: int) -> list[PuzzleRecord]:
        def played(p: PuzzleRecord) -> bool:
            m = self._matches.get(p.match_id)
            return m is not None and m.seat_of(user_id) is not None
        return _closest((p for p in self._puzzles.values()
                         if p.guild_id == guild_id and (user_id, p.id) not in self._tries
                         and not played(p)), mu, limit)

    async def tried_puzzle(self, user_id: int, puzzle_id: int) -> bool:
        return (user_id, puzzle_id) in self._tries

    async def puzzle_player(self, guild_id: int, user_id: int) -> PuzzlePlayer | None:
        return self._puzzle_players.get((guild_id, user_id))

    async def save_puzzle_player(self, before: PuzzlePlayer | None, after: PuzzlePlayer,
                                 tried: PuzzleTry | None = None,
                                 rating: tuple[float, float] | None = None) -> bool:
        key = (after.guild_id, after.user_id)
        held = self._puzzle_players.get(key)
        if (held.version if held is not None else None) != \
                (before.version if before is not None else None):
            return False
        version = before.version + 1 if before is not None else 1
        self._puzzle_players[key] = dataclasses.replace(after, version=version)
        if tried is not None:
            self._tries.setdefault((tried.user_id, tried.puzzle_id), tried)
            puzzle = self._puzzles.get(tried.puzzle_id)
            if rating is not None and puzzle is not None:
                self._puzzles[puzzle.id] = dataclasses.replace(puzzle, mu=rating[0],
                                                               sigma=rating[1])
        return True

    async def puzzle_leaderboard(self, guild_id: int, limit: int) -> list[PuzzlePlayer]:
        return _ranked((p for (g, _u), p in self._puzzle_players.items() if g == guild_id),
                       limit)

    async def set_daily_puzzle(self, guild_id: int, channel_id: int | None,
                               next_at: datetime | None) -> None:
        if channel_id is None or next_at is None:
            self._daily.pop(guild_id, None)
        else:
            self._daily[guild_id] = (channel_id, next_at)

    async def daily_puzzle(self, guild_id: int) -> tuple[int, datetime] | None:
        return self._daily.get(guild_id)

    async def due_daily_puzzles(self, now: datetime, limit: int = 100
                                ) -> list[tuple[int, int, datetime]]:
        due = sorted((t, g, c) for g, (c, t) in self._daily.items() if t <= now)
        return [(g, c, t) for t, g, c in due[:max(0, limit)]]

    async def daily_candidates(self, guild_id: int, limit: int) -> list[PuzzleRecord]:
        left = [p for p in self._puzzles.values()
                if p.guild_id == guild_id and p.posted_at is None]
        return sorted(left, key=lambda p: -p.id)[:max(0, limit)]

    async def advance_daily_puzzle(self, guild_id: int, was: datetime, next_at: datetime,
                                   puzzle_id: int | None,
                                   entries: Sequence[OutboxEntry]) -> bool:
        held = self._daily.get(guild_id)
        if held is None or held[1] != was:
            return False
        self._daily[guild_id] = (held[0], next_at)
        puzzle = self._puzzles.get(puzzle_id) if puzzle_id is not None else None
        if puzzle is not None:
            self._puzzles[puzzle.id] = dataclasses.replace(puzzle, posted_at=was)
        self._store_entries(entries)
        return True


_PUZZLE_COLUMNS = ("id, guild_id, game, config, match_id, ply, players, position, seat, "
                   "line, goal, difficulty, mu, sigma, created_at, posted_at")
_PLAYER_COLUMNS = ("guild_id, user_id, mu, sigma, solved, failed, streak, best_streak, "
                   "puzzle_id, step, rated, version")


def _puzzle_of(row: Sequence[Any]) -> PuzzleRecord:
    (id_, guild, game, config, match, ply, players, position, seat, line, goal,
     difficulty, mu, sigma, created, posted) = row
    made = _dt(created)
    assert made is not None
    return PuzzleRecord(int(id_), int(guild), str(game), str(config), int(match), int(ply),
                        tuple(int(u) for u in json.loads(players)), str(position),
                        int(seat), tuple(str(m) for m in json.loads(line)), str(goal),
                        int(difficulty), float(mu), float(sigma), made, _dt(posted))


def _player_of(row: Sequence[Any]) -> PuzzlePlayer:
    (guild, user, mu, sigma, solved, failed, streak, best, puzzle, step, rated,
     version) = row
    return PuzzlePlayer(int(guild), int(user), float(mu), float(sigma), int(solved),
                        int(failed), int(streak), int(best),
                        None if puzzle is None else int(puzzle), int(step), bool(rated),
                        int(version))


class SqlPuzzles:
    """Puzzles in SQL (``SqlRepository``: SQLite and PostgreSQL), through the repository's
    write transaction and read helpers."""

    _exec: Callable[..., Awaitable[Any]]
    _transaction: Callable[[Callable[[], Awaitable[Any]]], Awaitable[Any]]
    _all: Callable[..., Awaitable[list[Any]]]
    _write_entries: Callable[[Sequence[OutboxEntry]], Awaitable[None]]

    async def unmined_matches(self, after: int, limit: int) -> list[int]:
        rows = await self._all(
            "SELECT m.id FROM matches m WHERE m.status = ? AND m.id > ? AND NOT EXISTS "
            "(SELECT 1 FROM puzzle_mined p WHERE p.match_id = m.id) ORDER BY m.id LIMIT ?",
            (MatchStatus.FINISHED.value, after, max(0, limit)))
        return [int(r[0]) for r in rows]

    async def mined_since(self, since: datetime) -> int:
        rows = await self._all("SELECT count(*) FROM puzzle_mined WHERE mined_at >= ?",
                               (_ts(since),))
        return int(rows[0][0])

    async def store_puzzles(self, match_id: int, guild_id: int,
                            puzzles: Sequence[PuzzleRecord], now: datetime
                            ) -> list[PuzzleRecord] | None:
        async def body() -> list[PuzzleRecord] | None:
            cur = await self._exec(
                "INSERT INTO puzzle_mined (match_id, guild_id, mined_at, found) "
                "VALUES (?, ?, ?, ?) ON CONFLICT (match_id) DO NOTHING RETURNING match_id",
                (match_id, guild_id, _ts(now), len(puzzles)))
            if await cur.fetchone() is None:
                return None  # mined before (or by another process just now)
            stored = []
            for p in puzzles:
                cur = await self._exec(
                    f"INSERT INTO puzzles ({_PUZZLE_COLUMNS[4:]}) VALUES "
                    "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) "
                    "ON CONFLICT (match_id, ply) DO NOTHING RETURNING id",
                    (p.guild_id, p.game, p.config, p.match_id, p.ply,
                     json.dumps(list(p.players)), p.position, p.seat, json.dumps(list(p.line)),
                     p.goal, p.difficulty, p.mu, p.sigma, _ts(p.created_at),
                     _ts(p.posted_at)))
                row = await cur.fetchone()
                if row is not None:
                    stored.append(dataclasses.replace(p, id=int(row[0])))
            return stored
        result: list[PuzzleRecord] | None = await self._transaction(body)
        return result

    async def load_puzzle(self, puzzle_id: int) -> PuzzleRecord | None:
        rows = await self._all(f"SELECT {_PUZZLE_COLUMNS} FROM puzzles WHERE id = ?",
                               (puzzle_id,))
        return _puzzle_of(rows[0]) if rows else None

    async def puzzle_count(self, guild_id: int) -> int:
        rows = await self._all("SELECT count(*) FROM puzzles WHERE guild_id = ?", (guild_id,))
        return int(rows[0][0])

    async def puzzle_candidates(self, guild_id: int, user_id: int, mu: float,
                                limit: int) -> list[PuzzleRecord]:
        rows = await self._all(
            f"SELECT {_PUZZLE_COLUMNS} FROM puzzles p WHERE p.guild_id = ? AND NOT EXISTS "
            "(SELECT 1 FROM puzzle_tries t WHERE t.user_id = ? AND t.puzzle_id = p.id) "
            "AND NOT EXISTS (SELECT 1 FROM seats s WHERE s.match_id = p.match_id AND "
            "s.user_id = ?) ORDER BY abs(p.mu - ?), p.id LIMIT ?",
            (guild_id, user_id, user_id, mu, max(0, limit)))
        return [_puzzle_of(r) for r in rows]

    async def tried_puzzle(self, user_id: int, puzzle_id: int) -> bool:
        rows = await self._all("SELECT 1 FROM puzzle_tries WHERE user_id = ? AND "
                               "puzzle_id = ?", (user_id, puzzle_id))
        return bool(rows)

    async def puzzle_player(self, guild_id: int, user_id: int) -> PuzzlePlayer | None:
        rows = await self._all(f"SELECT {_PLAYER_COLUMNS} FROM puzzle_players WHERE "
                               "guild_id = ? AND user_id = ?", (guild_id, user_id))
        return _player_of(rows[0]) if rows else None

    async def save_puzzle_player(self, before: PuzzlePlayer | None, after: PuzzlePlayer,
                                 tried: PuzzleTry | None = None,
                                 rating: tuple[float, float] | None = None) -> bool:
        values = (after.mu, after.sigma, after.solved, after.failed, after.streak,
                  after.best_streak, after.puzzle_id, after.step, int(after.rated))

        async def body() -> bool:
            if before is None:
                cur = await self._exec(
                    f"INSERT INTO puzzle_players ({_PLAYER_COLUMNS}) VALUES "
                    "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 1) ON CONFLICT (guild_id, user_id) "
                    "DO NOTHING RETURNING version", (after.guild_id, after.user_id, *values))
            else:
                cur = await self._exec(
                    "UPDATE puzzle_players SET mu = ?, sigma = ?, solved = ?, failed = ?, "
                    "streak = ?, best_streak = ?, puzzle_id = ?, step = ?, rated = ?, "
                    "version = version + 1 WHERE guild_id = ? AND user_id = ? AND "
                    "version = ? RETURNING version",
                    (*values, after.guild_id, after.user_id, before.version))
            if await cur.fetchone() is None:
                return False  # another answer got there first
            if tried is not None:
                await self._exec(
                    "INSERT INTO puzzle_tries (user_id, puzzle_id, guild_id, solved, rated, "
                    "at) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (user_id, puzzle_id) DO NOTHING",
                    (tried.user_id, tried.puzzle_id, tried.guild_id, int(tried.solved),
                     int(tried.rated), _ts(tried.at)))
                if rating is not None:
                    await self._exec("UPDATE puzzles SET mu = ?, sigma = ? WHERE id = ?",
                                     (rating[0], rating[1], tried.puzzle_id))
            return True
        done: bool = await self._transaction(body)
        return done

    async def puzzle_leaderboard(self, guild_id: int, limit: int) -> list[PuzzlePlayer]:
        rows = await self._all(
            f"SELECT {_PLAYER_COLUMNS} FROM puzzle_players WHERE guild_id = ? AND "
            "solved + failed > 0 ORDER BY mu - 3 * sigma DESC, user_id LIMIT ?",
            (guild_id, max(0, limit)))
        return [_player_of(r) for r in rows]

    async def set_daily_puzzle(self, guild_id: int, channel_id: int | None,
                               next_at: datetime | None) -> None:
        async def body() -> None:
            if channel_id is None or next_at is None:
                await self._exec("DELETE FROM puzzle_daily WHERE guild_id = ?", (guild_id,))
            else:
                await self._exec(
                    "INSERT INTO puzzle_daily (guild_id, channel_id, next_at) VALUES (?, ?, ?) "
                    "ON CONFLICT (guild_id) DO UPDATE SET channel_id = excluded.channel_id, "
                    "next_at = excluded.next_at", (guild_id, channel_id, _ts(next_at)))
        await self._transaction(body)

    async def daily_puzzle(self, guild_id: int) -> tuple[int, datetime] | None:
        rows = await self._all("SELECT channel_id, next_at FROM puzzle_daily WHERE "
                               "guild_id = ?", (guild_id,))
        if not rows:
            return None
        when = _dt(rows[0][1])
        assert when is not None
        return int(rows[0][0]), when

    async def due_daily_puzzles(self, now: datetime, limit: int = 100
                                ) -> list[tuple[int, int, datetime]]:
        rows = await self._all("SELECT guild_id, channel_id, next_at FROM puzzle_daily "
                               "WHERE next_at <= ? ORDER BY next_at, guild_id LIMIT ?",
                               (_ts(now), max(0, limit)))
        out = []
        for guild, channel, at in rows:
            when = _dt(at)
            assert when is not None
            out.append((int(guild), int(channel), when))
        return out

    async def daily_candidates(self, guild_id: int, limit: int) -> list[PuzzleRecord]:
        rows = await self._all(f"SELECT {_PUZZLE_COLUMNS} FROM puzzles WHERE guild_id = ? "
                               "AND posted_at IS NULL ORDER BY id DESC LIMIT ?",
                               (guild_id, max(0, limit)))
        return [_puzzle_of(r) for r in rows]

    async def advance_daily_puzzle(self, guild_id: int, was: datetime, next_at: datetime,
                                   puzzle_id: int | None,
                                   entries: Sequence[OutboxEntry]) -> bool:
        async def body() -> bool:
            cur = await self._exec(
                "UPDATE puzzle_daily SET next_at = ? WHERE guild_id = ? AND next_at = ? "
                "RETURNING guild_id", (_ts(next_at), guild_id, _ts(was)))
            if await cur.fetchone() is None:
                return False  # another process posted it, or it was turned off
            if puzzle_id is not None:
                await self._exec("UPDATE puzzles SET posted_at = ? WHERE id = ?",
                                 (_ts(was), puzzle_id))
            await self._write_entries(entries)
            return True
        done: bool = await self._transaction(body)
        return done
