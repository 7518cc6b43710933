"""The undo steps the migration tests take a database back with (``older_schemas``): one
for every migration, and together they undo exactly what the migrations do, on SQLite and
on PostgreSQL (the round trip there costs the server about half a second)."""

from __future__ import annotations

import logging
import re
import sqlite3
from pathlib import Path

import pytest

from storage import PostgresRepository, SqliteRepository
from storage.postgres import redact
from storage.schema import MIGRATIONS
from tests.storage.older_schemas import UNDO, back_to, undoing


def test_every_migration_but_the_first_has_its_undo_step() -> None:
    assert sorted(UNDO) == list(range(2, len(MIGRATIONS) + 1))
    assert undoing(len(MIGRATIONS)) == []
    assert undoing(len(MIGRATIONS) - 1) == list(UNDO[len(MIGRATIONS)])
    for wrong in (0, len(MIGRATIONS) + 1):
        with pytest.raises(ValueError, match="no schema"):
            undoing(wrong)


def _sqlite_shape(path: Path) -> tuple[int, dict[str, object]]:
    """The schema version and every table's columns and every index's definition (the
    text of a table SQLite keeps changes with its columns dropped and added again)."""
    conn = sqlite3.connect(path)
    try:
        version = conn.execute("PRAGMA user_version").fetchone()[0]
        shape: dict[str, object] = {}
        for kind, name, sql in conn.execute("SELECT type, name, sql FROM sqlite_master"):
            if kind == "table":
                shape[name] = conn.execute(f"PRAGMA table_info({name})").fetchall()
            else:
                shape[name] = re.sub(r"\s+", " ", sql or "")
        return version, shape
    finally:
        conn.close()


def _said(caplog: pytest.LogCaptureFixture) -> list[str]:
    said = [r.getMessage() for r in caplog.records if r.name == "tablero.storage"]
    caplog.clear()
    return said


async def test_undone_to_the_first_schema_sqlite_migrates_to_a_new_databases_schema(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """... and the log says what a start did to the schema (an operator who upgraded
    reads the steps taken; nothing when there were none)."""
    caplog.set_level(logging.INFO, logger="tablero.storage")
    new, old = tmp_path / "new.db", tmp_path / "old.db"
    for path in (new, old):
        await (await SqliteRepository.open(path)).close()
    assert _said(caplog) == [f"created the database {path} (schema {len(MIGRATIONS)})"
                             for path in (new, old)]
    await back_to(old, 1)
    version, shape = _sqlite_shape(old)
    assert version == 1 and "ratings" in shape and "explorer_places" not in shape
    await (await SqliteRepository.open(old)).close()
    assert _sqlite_shape(old) == _sqlite_shape(new)
    assert _said(caplog) == [f"migrated the database {old} from schema 1 to "
                             f"{len(MIGRATIONS)}"]
    await (await SqliteRepository.open(old)).close()
    assert _said(caplog) == []



_PG_SHAPE = (
    ("SELECT table_name, column_name, data_type, is_nullable, column_default "
     "FROM information_schema.columns WHERE table_schema = current_schema() "
     "ORDER BY table_name, ordinal_position"),
    ("SELECT tablename, indexname, indexdef FROM pg_indexes "
     "WHERE schemaname = current_schema() ORDER BY indexname"),
    ("SELECT c.relname, k.conname, pg_get_constraintdef(k.oid) FROM pg_constraint k "
     "JOIN pg_class c ON c.oid = k.conrelid WHERE c.relnamespace = "
     "current_schema()::regnamespace ORDER BY c.relname, k.conname"),
)


async def _postgres_shape(url: str) -> tuple[int, list[list[tuple[object, ...]]]]:
    """The schema version and every column, index and constraint of the schema at
    ``url`` (columns in their order, which a column dropped and added again changes)."""
    import asyncpg  # type: ignore[import-untyped]
    pg = await asyncpg.connect(url)
    try:
        version = await pg.fetchval("SELECT version FROM tablero_schema")
        return int(version), [[tuple(row) for row in await pg.fetch(query)]
                              for query in _PG_SHAPE]
    finally:
        await pg.close()


async def test_undone_to_the_first_schema_postgres_migrates_to_the_same_schema(
        postgres_url: str, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, logger="tablero.storage")
    await (await PostgresRepository.open(postgres_url)).close()
    name = redact(postgres_url)
    assert _said(caplog) == [f"created the database {name} (schema {len(MIGRATIONS)})"]
    newest = await _postgres_shape(postgres_url)
    await back_to(postgres_url, 1)
    version, (columns, _, _) = await _postgres_shape(postgres_url)
    tables = {row[0] for row in columns}
    assert version == 1 and "ratings" in tables and "explorer_places" not in tables
    await (await PostgresRepository.open(postgres_url)).close()
    assert await _postgres_shape(postgres_url) == newest
    assert newest[0] == len(MIGRATIONS)
    assert _said(caplog) == [f"migrated the database {name} from schema 1 to "
                             f"{len(MIGRATIONS)}"]
