"""A database taken back to an older schema, as an earlier Tablero left it, for the tests of
the migrations that upgrade it: :func:`back_to` undoes every migration above a version,
newest first, on SQLite (a file's path) or PostgreSQL (a server's URL), and writes that
version where each database counts its migrations.

``UNDO`` holds each migration's undo step once (statements both databases run), so a new
migration adds one entry here; a test holds that every migration has one and that undoing
them all, then migrating again, gives the schema a new database has.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

from storage.schema import MIGRATIONS

_BOARD = "CREATE INDEX ratings_board ON ratings (guild_id, ladder, ordinal DESC, user_id"

UNDO: dict[int, tuple[str, ...]] = {
    2: ("DROP INDEX ratings_board", _BOARD + ")"),
    3: ("ALTER TABLE matches DROP COLUMN last_move_by",),
    4: ("DROP TABLE heartbeat",),
    5: ("DROP TABLE outbox", "DROP TABLE dms_closed"),
    6: ("DROP TABLE names",),
    7: ("DROP INDEX ratings_board", _BOARD + ", mu, sigma, wins, losses, draws)"),
    8: ("DROP TABLE tournament_matches", "DROP TABLE tournaments"),
    9: ("DROP TABLE shard_leases",),
    10: ("ALTER TABLE guild_settings DROP COLUMN language",
          "ALTER TABLE user_prefs DROP COLUMN locale"),
    11: ("CREATE TABLE heartbeat (id INTEGER PRIMARY KEY CHECK (id = 1), at REAL NOT NULL)",
         "INSERT INTO heartbeat (id, at) SELECT 1, at FROM clock_beats "
         "WHERE shard_count = 1 AND shard_id = 0",
         "DROP TABLE clock_beats", "DROP TABLE process_lock"),
    12: ("DROP INDEX matches_live",),
    13: ("DROP TABLE season_ratings", "DROP TABLE seasons",
         "ALTER TABLE guild_settings DROP COLUMN seasons",
         "ALTER TABLE guild_settings DROP COLUMN organiser_role_id"),
    14: ("DROP TABLE vacations", "ALTER TABLE matches DROP COLUMN clock",
         *(f"ALTER TABLE guild_settings DROP COLUMN {column}"
           for column in ("default_clock", "claim_win", "vacation_days", "auto_vacation"))),
    15: (*(f"DROP TABLE {table}"
           for table in ("conditional_moves", "match_notes", "follows", "rematches")),
         "ALTER TABLE matches DROP COLUMN takeback",
         "ALTER TABLE guild_settings DROP COLUMN takebacks_rated"),
    16: ("ALTER TABLE guild_settings DROP COLUMN web",),
    17: ("ALTER TABLE user_prefs DROP COLUMN web_epoch",),
    18: ("DROP TABLE digests",),
    19: ("DROP TABLE explorer_moves", "DROP TABLE explorer_games"),
    20: ("ALTER TABLE user_prefs DROP COLUMN time_zone",
         "ALTER TABLE guild_settings DROP COLUMN weekends_off",
         "ALTER TABLE guild_settings DROP COLUMN pauses_rated"),
    21: ("DROP TABLE analyses",),
    22: ("DROP TABLE imported_players",),
    23: ("ALTER TABLE matches DROP COLUMN continued_from",),
    24: tuple(f"DROP TABLE {table}" for table in (
        "puzzle_daily", "puzzle_tries", "puzzle_players", "puzzle_mined", "puzzles")),
    25: ("DROP TABLE posted_messages",),
    # (the imports' keys migration 26 wrote and 27 marked again are not restored)
    26: ("DROP INDEX matches_import_key", "ALTER TABLE matches DROP COLUMN import_key"),
    27: ("DROP INDEX matches_unkeyed_games", "DROP INDEX matches_game_key",
         "ALTER TABLE matches DROP COLUMN game_key"),
    28: ("DROP TABLE explorer_places",),
    29: ("DROP TABLE blocks",),
    30: ("DROP INDEX explorer_places_used", "ALTER TABLE explorer_places DROP COLUMN used_at"),
    # the running tournaments' early agreed draws scored as played draws again (those
    # scored apart before 31 ran too: the older schema's tournaments had none)
    31: ("""UPDATE tournaments SET body = replace(body, '"=/="', '"1/2-1/2"')
         WHERE status = 'running'""",),
}
"""Migration number -> the statements that take a database of that schema back to the one
before it (the data a migration moved is moved back where the older schema held it)."""


def undoing(version: int) -> list[str]:
    """The statements that take a database of the newest schema back to ``version``."""
    if not 1 <= version <= len(MIGRATIONS):
        raise ValueError(f"no schema {version} to go back to (1 to {len(MIGRATIONS)})")
    return [s for number in range(len(MIGRATIONS), version, -1) for s in UNDO[number]]


async def back_to(database: Path | str, version: int) -> None:
    """Take the database of the newest schema at ``database`` (an SQLite file's path or
    a PostgreSQL URL) back to schema ``version``, nobody else using it."""
    steps = undoing(version)
    if isinstance(database, Path):
        conn = sqlite3.connect(database)
        try:
            for statement in steps:
                conn.execute(statement)
            conn.execute(f"PRAGMA user_version = {version}")
            conn.commit()
        finally:
            conn.close()
        return
    import asyncpg  # type: ignore[import-untyped]
    pg = await asyncpg.connect(database)
    try:
        async with pg.transaction():
            for statement in steps:
                await pg.execute(statement)
            await pg.execute("UPDATE tablero_schema SET version = $1", version)
    finally:
        await pg.close()
