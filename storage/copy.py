"""``tablero db copy FROM TO``: a whole installation from one database to another (SQLite
to PostgreSQL and back), table by table in batches, refusing a target that holds data.

Both sides have the same tables and columns (one migration history, ``storage.schema``),
so rows move as they are, ids included; PostgreSQL's identity counters are then set past
the copied ids. Run it with the bot stopped: what is written during the copy may be
missed.
"""

from __future__ import annotations

from collections.abc import Callable

from storage.sql import SqlRepository

TABLE_ORDER = ("guild_settings", "user_prefs", "matches", "seats", "moves", "ratings",
               "clock_beats", "outbox", "dms_closed", "names", "tournaments",
               "tournament_matches", "seasons", "season_ratings", "vacations",
               "conditional_moves", "match_notes", "follows", "rematches", "digests",
               "explorer_games", "explorer_moves", "analyses", "imported_players", "puzzles",
               "puzzle_mined", "puzzle_players", "puzzle_tries", "puzzle_daily",
               "posted_messages", "explorer_places", "blocks")
"""Every table, parents before the rows that refer to them."""
BATCH = 500


class TargetNotEmpty(ValueError):
    """The target database already holds data (a copy never merges)."""

    def __init__(self, target: str, table: str, rows: int) -> None:
        held = f"{rows:,} row{'' if rows == 1 else 's'}"
        super().__init__(f"{target} is not empty ({table} holds {held}): copy into a new "
                         "SQLite file or an empty PostgreSQL database")
        self.target = target
        self.table = table


async def row_counts(repo: SqlRepository) -> dict[str, int]:
    """How many rows each table holds."""
    return {t: int((await repo._all(f"SELECT count(*) FROM {t}"))[0][0]) for t in TABLE_ORDER}


async def copy_database(source: SqlRepository, target: SqlRepository,
                        progress: Callable[[int, int], None] | None = None) -> dict[str, int]:
    """Copy every row of ``source`` into the empty ``target``; the rows copied per table.
    Raises ``TargetNotEmpty`` before writing anything when ``target`` holds data."""
    for table, held in (await row_counts(target)).items():
        if held:
            raise TargetNotEmpty(target.path, table, held)
    counts = await row_counts(source)
    total, done = sum(counts.values()), 0
    if progress is not None:
        progress(0, total)
    for table in TABLE_ORDER:
        columns = await source.columns(table)
        names = ", ".join(columns)
        insert = (f"INSERT INTO {table} ({names}) VALUES "
                  f"({', '.join('?' * len(columns))})")
        rows = await source._all(f"SELECT {names} FROM {table}")
        for start in range(0, len(rows), BATCH):
            batch = rows[start:start + BATCH]

            async def write(batch: list[tuple[object, ...]] = batch, sql: str = insert
                            ) -> None:
                for row in batch:
                    await target._exec(sql, row)
            await target._transaction(write)
            done += len(batch)
            if progress is not None:
                progress(done, total)
    await target._after_copy()
    return counts
