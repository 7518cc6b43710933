"""The opening explorer's counts (issue 44), in memory and in SQL (``SqlRepository`` and
``MemoryRepository`` inherit them): ``explorer_moves`` holds, per server, game
configuration, position key, source (played or imported) and move, how many games played
it and how they ended for its player; ``explorer_games`` which matches are counted, so
a game is counted once however often it is offered (the end of a match, the backfill);
``explorer_places`` the places an answer's buttons name by a short mark, when the place
itself is too long for them (``service.explorer.Explorer.explorer_token``), with when each
was last used (the sweep removes those unused for long).

A query reads one primary-key range (server, configuration, position): its cost does not
grow with the number of games stored.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterable, Sequence
from datetime import datetime
from typing import Any

from service.records import ExplorerCount, ExplorerRow, MatchRecord, MatchStatus
from storage.times import epoch

_OUTCOMES = ("win", "draw", "loss")


def _unique(rows: Iterable[ExplorerRow]) -> dict[tuple[int, str], ExplorerRow]:
    """Each (position, move) of a game once: a game counts once for a move, however often
    it came back to the position and played it."""
    found: dict[tuple[int, str], ExplorerRow] = {}
    for row in rows:
        if row.outcome not in _OUTCOMES:
            raise ValueError(f"an explorer row's outcome is one of {_OUTCOMES}: {row.outcome!r}")
        found.setdefault((row.position, row.move), row)
    return found


def _count_of(move: str, values: Sequence[Any]) -> ExplorerCount:
    games, wins, draws, losses, rated, rating_sum = values
    return ExplorerCount(move, int(games), int(wins), int(draws), int(losses), int(rated),
                         float(rating_sum))


def _ordered(counts: Iterable[ExplorerCount]) -> list[ExplorerCount]:
    return sorted(counts, key=lambda c: (-c.games, c.move))


class MemoryExplorer:
    """The explorer's counts in dicts (``MemoryRepository``)."""

    _matches: dict[int, MatchRecord]

    def __init__(self) -> None:
        super().__init__()
        # (guild, config, position, imported) -> move -> [games, wins, draws, losses,
        # rated, rating_sum]
        self._explorer: dict[tuple[int, str, int, bool], dict[str, list[float]]] = {}
        self._explored: dict[int, bool] = {}  # match -> imported
        self._places: dict[str, tuple[int, str, datetime]] = {}  # mark -> (guild, place,
        # last used)

    async def index_game(self, match_id: int, guild_id: int, config: str, imported: bool,
                         rows: Sequence[ExplorerRow]) -> bool:
        if match_id in self._explored:
            return False
        unique = _unique(rows)
        self._explored[match_id] = imported
        for (position, move), row in unique.items():
            counts = self._explorer.setdefault((guild_id, config, position, imported), {})
            c = counts.setdefault(move, [0, 0, 0, 0, 0, 0.0])
            c[0] += 1
            c[1 + _OUTCOMES.index(row.outcome)] += 1
            if row.rating is not None:
                c[4] += 1
                c[5] += row.rating
        return True

    async def explorer_counts(self, guild_id: int, config: str, position: int,
                              imported: bool | None = None) -> list[ExplorerCount]:
        summed: dict[str, list[float]] = {}
        for source in ((False, True) if imported is None else (imported,)):
            for move, c in self._explorer.get((guild_id, config, position, source), {}).items():
                total = summed.setdefault(move, [0, 0, 0, 0, 0, 0.0])
                for i, value in enumerate(c):
                    total[i] += value
        return _ordered(_count_of(move, c) for move, c in summed.items())

    async def unindexed_games(self, after: int, limit: int) -> list[int]:
        found = sorted(i for i, m in self._matches.items()
                       if i > after and m.status is MatchStatus.FINISHED
                       and i not in self._explored)
        return found[:max(0, limit)]

    async def keep_explorer_place(self, mark: str, guild_id: int, place: str,
                                  used_at: datetime) -> None:
        guild, place, _used = self._places.get(mark, (guild_id, place, used_at))
        self._places[mark] = (guild, place, used_at)

    async def prune_explorer_places(self, unused_since: datetime, now: datetime,
                                    limit: int) -> int:
        gone = [mark for mark, kept in self._places.items()
                if kept[2] < unused_since][:max(0, limit)]
        for mark in gone:
            del self._places[mark]
        return len(gone)

    async def explorer_place(self, mark: str, guild_id: int) -> str | None:
        kept = self._places.get(mark)
        return kept[1] if kept is not None and kept[0] == guild_id else None


class SqlExplorer:
    """The explorer's counts in SQL (``SqlRepository``: SQLite and PostgreSQL), through the
    repository's write transaction and read helpers."""

    _exec: Callable[..., Awaitable[Any]]
    _transaction: Callable[[Callable[[], Awaitable[Any]]], Awaitable[Any]]
    _all: Callable[..., Awaitable[list[Any]]]

    async def index_game(self, match_id: int, guild_id: int, config: str, imported: bool,
                         rows: Sequence[ExplorerRow]) -> bool:
        unique = _unique(rows)

        async def body() -> bool:
            cur = await self._exec(
                "INSERT INTO explorer_games (match_id, guild_id, imported) VALUES (?, ?, ?) "
                "ON CONFLICT (match_id) DO NOTHING RETURNING match_id",
                (match_id, guild_id, int(imported)))
            if await cur.fetchone() is None:
                return False  # counted before (or by another process just now)
            if not unique:
                return True
            values: list[Any] = []
            for (position, move), row in unique.items():
                values += [guild_id, config, position, int(imported), move, 1,
                           int(row.outcome == "win"), int(row.outcome == "draw"),
                           int(row.outcome == "loss"), int(row.rating is not None),
                           row.rating or 0.0]
            # one statement per game: the rows are unique, so no key is hit twice in it
            await self._exec(
                "INSERT INTO explorer_moves (guild_id, config, position, imported, move, "
                "games, wins, draws, losses, rated, rating_sum) VALUES "
                + ", ".join(["(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"] * len(unique))
                + " ON CONFLICT (guild_id, config, position, imported, move) DO UPDATE SET "
                "games = explorer_moves.games + excluded.games, "
                "wins = explorer_moves.wins + excluded.wins, "
                "draws = explorer_moves.draws + excluded.draws, "
                "losses = explorer_moves.losses + excluded.losses, "
                "rated = explorer_moves.rated + excluded.rated, "
                "rating_sum = explorer_moves.rating_sum + excluded.rating_sum", values)
            return True
        done: bool = await self._transaction(body)
        return done

    async def explorer_counts(self, guild_id: int, config: str, position: int,
                              imported: bool | None = None) -> list[ExplorerCount]:
        source = "" if imported is None else " AND imported = ?"
        params: tuple[Any, ...] = (guild_id, config, position) + (
            () if imported is None else (int(imported),))
        rows = await self._all(
            "SELECT move, sum(games), sum(wins), sum(draws), sum(losses), sum(rated), "
            "sum(rating_sum) FROM explorer_moves WHERE guild_id = ? AND config = ? AND "
            f"position = ?{source} GROUP BY move", params)
        return _ordered(_count_of(r[0], r[1:]) for r in rows)

    async def unindexed_games(self, after: int, limit: int) -> list[int]:
        rows = await self._all(
            "SELECT m.id FROM matches m WHERE m.status = ? AND m.id > ? AND NOT EXISTS "
            "(SELECT 1 FROM explorer_games e WHERE e.match_id = m.id) ORDER BY m.id LIMIT ?",
            (MatchStatus.FINISHED.value, after, max(0, limit)))
        return [int(r[0]) for r in rows]

    async def keep_explorer_place(self, mark: str, guild_id: int, place: str,
                                  used_at: datetime) -> None:
        async def body() -> None:
            await self._exec(
                "INSERT INTO explorer_places (mark, guild_id, place, used_at) "
                "VALUES (?, ?, ?, ?) ON CONFLICT (mark) DO UPDATE SET used_at = "
                "excluded.used_at", (mark, guild_id, place, epoch(used_at)))
        await self._transaction(body)

    async def prune_explorer_places(self, unused_since: datetime, now: datetime,
                                    limit: int) -> int:
        if not await self._all(  # most hours: one read, no write (nor its lock)
                "SELECT 1 FROM explorer_places WHERE used_at IS NULL OR used_at < ? "
                "LIMIT 1", (epoch(unused_since),)):
            return 0

        async def body() -> int:
            await self._exec("UPDATE explorer_places SET used_at = ? WHERE used_at IS NULL",
                             (epoch(now),))
            cur = await self._exec(
                "DELETE FROM explorer_places WHERE mark IN (SELECT mark FROM "
                "explorer_places WHERE used_at < ? LIMIT ?) RETURNING mark",
                (epoch(unused_since), max(0, limit)))
            return len(await cur.fetchall())
        removed: int = await self._transaction(body)
        return removed

    async def explorer_place(self, mark: str, guild_id: int) -> str | None:
        rows = await self._all("SELECT place FROM explorer_places WHERE mark = ? AND "
                               "guild_id = ?", (mark, guild_id))
        return str(rows[0][0]) if rows else None
