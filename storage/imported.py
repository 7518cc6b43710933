"""Imported players' names and imported games (issue 44), in memory and in SQL
(``SqlRepository`` and ``MemoryRepository`` inherit them): ``imported_players`` holds, by
id, the name an imported record gave each of its players (``service/imported_seats.py``
makes the ids), so that replays, ``/history``, ``/analysis`` and the web pages name them
later. The first spelling stored stays: a player's id, and so his name, is the same in
every import. An imported game is a match with a fingerprint (``import_key``, unique per
server: the index ``matches_import_key``), found by it; a game played in the server has
one once it ended (``game_key``, the index ``matches_game_key``; not unique), which only
the importer's check reads (it is no field of ``MatchRecord``: no save writes it over).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Awaitable, Callable, Collection, Mapping, Sequence
from typing import Any

from service.errors import Conflict
from service.records import MatchRecord, MatchStatus, RecordEntry, UnkeyedGame
from storage.times import moment

UNKEYED = "match:"
"""How the fingerprint of an import stored before fingerprints begins (migration 26 wrote
``match:<id>``, and 27 for the fingerprints of version 1): the importer works its real one
out (``service.importer``)."""

ENDED = (MatchStatus.FINISHED, MatchStatus.ABORTED)
"""The statuses of a played match whose game is fingerprinted (with a move played)."""


def entry_of(row: Sequence[Any]) -> RecordEntry:
    """A record entry from its columns (ply, seat, notation, user_id, played_at)."""
    ply, seat, text, user_id, played_at = row
    when = moment(played_at)
    assert when is not None
    return RecordEntry(ply, seat, text, user_id, when)


class MemoryImportedPlayers:
    """The names in a dict (``MemoryRepository``)."""

    _matches: dict[int, MatchRecord]
    _with_prefs: Callable[[MatchRecord], MatchRecord]

    def __init__(self) -> None:
        super().__init__()
        self._imported_names: dict[int, str] = {}
        self._game_keys: dict[int, str] = {}  # played match -> its game's fingerprint

    async def name_imported_players(self, names: Mapping[int, str]) -> None:
        for user, name in names.items():
            self._imported_names.setdefault(user, name)

    async def imported_player_names(self, user_ids: Collection[int]) -> dict[int, str]:
        return {u: self._imported_names[u] for u in set(user_ids)
                if u in self._imported_names}

    async def imported_match(self, guild_id: int, import_key: str) -> int | None:
        return next((m.id for m in self._matches.values()
                     if m.guild_id == guild_id and m.import_key == import_key), None)

    async def unkeyed_imports(self, guild_id: int) -> list[MatchRecord]:
        return [self._with_prefs(m) for _id, m in sorted(self._matches.items())
                if m.guild_id == guild_id and (m.import_key or "").startswith(UNKEYED)]

    async def game_match(self, guild_id: int, key: str) -> tuple[int, bool] | None:
        return next(((m.id, m.import_key is not None) for _id, m in sorted(self._matches.items())
                     if m.guild_id == guild_id
                     and key in (m.import_key, self._game_keys.get(m.id))), None)

    async def unkeyed_games(self, guild_id: int, limit: int) -> list[UnkeyedGame]:
        return [UnkeyedGame(m.id, m.game, m.options, m.start_text, m.ply)
                for _id, m in sorted(self._matches.items())
                if m.guild_id == guild_id and m.import_key is None and m.ply > 0
                and m.status in ENDED and m.id not in self._game_keys][:max(0, limit)]

    async def unkeyed_game_counts(self) -> dict[int, int]:
        counts: dict[int, int] = {}
        for m in self._matches.values():
            if m.import_key is None and m.ply > 0 and m.status in ENDED \
                    and m.id not in self._game_keys:
                counts[m.guild_id] = counts.get(m.guild_id, 0) + 1
        return counts

    async def set_game_keys(self, keys: Mapping[int, str]) -> None:
        for match_id, key in keys.items():
            rec = self._matches.get(match_id)
            if rec is not None and rec.import_key is None:
                self._game_keys.setdefault(match_id, key)

    async def set_import_key(self, match_id: int, was: str, key: str) -> bool:
        rec = self._matches.get(match_id)
        if rec is None or rec.import_key != was \
                or await self.imported_match(rec.guild_id, key) is not None:
            return False
        self._matches[match_id] = dataclasses.replace(rec, import_key=key)
        return True


class SqlImportedPlayers:
    """The names in SQL (``SqlRepository``: SQLite and PostgreSQL), through the
    repository's write transaction and read helpers."""

    _exec: Callable[..., Awaitable[Any]]
    _unique_violation: tuple[type[BaseException], ...]
    _transaction: Callable[[Callable[[], Awaitable[Any]]], Awaitable[Any]]
    _all: Callable[..., Awaitable[list[Any]]]

    async def name_imported_players(self, names: Mapping[int, str]) -> None:
        if not names:
            return
        values: list[Any] = []
        for user, name in names.items():
            values += [user, name]

        async def body() -> None:
            await self._exec(
                "INSERT INTO imported_players (user_id, name) VALUES "
                + ", ".join(["(?, ?)"] * len(names))
                + " ON CONFLICT (user_id) DO NOTHING", values)
        await self._transaction(body)

    async def imported_player_names(self, user_ids: Collection[int]) -> dict[int, str]:
        wanted = sorted(set(user_ids))
        if not wanted:
            return {}
        rows = await self._all(
            "SELECT user_id, name FROM imported_players WHERE user_id IN ("
            + ", ".join(["?"] * len(wanted)) + ")", wanted)
        return {int(r[0]): str(r[1]) for r in rows}

    async def imported_match(self, guild_id: int, import_key: str) -> int | None:
        rows = await self._all("SELECT id FROM matches WHERE guild_id = ? AND import_key = ?",
                               (guild_id, import_key))
        return int(rows[0][0]) if rows else None

    async def game_match(self, guild_id: int, key: str) -> tuple[int, bool] | None:
        # one query, each side read by its own index (matches_import_key, matches_game_key;
        # SQLite reads a guild's every match for the two sides joined by OR)
        rows = await self._all(
            "SELECT (SELECT min(id) FROM matches WHERE guild_id = ? AND import_key = ?), "
            "(SELECT min(id) FROM matches WHERE guild_id = ? AND game_key = ?)",
            (guild_id, key, guild_id, key))
        imported, played = rows[0]
        if imported is None and played is None:
            return None
        if played is None or (imported is not None and imported < played):
            return int(imported), True
        return int(played), False

    async def load_texts_of(self, stops: Mapping[int, int]) -> dict[int, list[str]]:
        # (the importer's: the records of a batch of matches to fingerprint, their texts
        # alone: building whole entries, a datetime each, was a third of the time)
        found: dict[int, list[str]] = {i: [] for i in stops}
        if not stops:
            return found
        rows = await self._all(
            "SELECT match_id, ply, notation FROM moves WHERE "
            f"match_id IN ({', '.join('?' * len(stops))}) ORDER BY match_id, ply",
            list(stops))
        for match_id, ply, text in rows:
            if ply < stops[match_id]:
                found[match_id].append(text)
        return found

    async def set_game_keys(self, keys: Mapping[int, str]) -> None:
        if not keys:
            return

        params: list[Any] = []
        for match_id, key in keys.items():
            params += [match_id, key]
        params += list(keys)

        async def body() -> None:  # one statement: each is a round trip to the database
            await self._exec(
                "UPDATE matches SET game_key = CASE id "
                + " ".join(["WHEN ? THEN ?"] * len(keys)) + " END WHERE id IN ("
                + ", ".join("?" * len(keys)) + ") AND game_key IS NULL AND "
                "import_key IS NULL", params)
        await self._transaction(body)

    async def set_import_key(self, match_id: int, was: str, key: str) -> bool:
        async def body() -> bool:
            try:
                cur = await self._exec("UPDATE matches SET import_key = ? WHERE id = ? AND "
                                       "import_key = ? RETURNING id", (key, match_id, was))
                return await cur.fetchone() is not None
            except self._unique_violation:  # matches_import_key: another match holds it
                raise Conflict(f"another match holds import {key}") from None
        try:
            done: bool = await self._transaction(body)
        except Conflict:
            return False
        return done
