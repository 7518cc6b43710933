"""The undo steps the migration tests take a database back with (``older_schemas``): one
for every migration, and together they undo exactly what the migrations do (on SQLite:
the PostgreSQL tests of migrations 26 and 27 run the same statements there; a round trip
of all of them on PostgreSQL costs the suite about a second)."""

from __future__ import annotations

import re
import sqlite3
from pathlib import Path

import pytest

from storage import SqliteRepository
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


async def test_undone_to_the_first_schema_sqlite_migrates_to_a_new_databases_schema(
        tmp_path: Path) -> None:
    new, old = tmp_path / "new.db", tmp_path / "old.db"
    for path in (new, old):
        await (await SqliteRepository.open(path)).close()
    await back_to(old, 1)
    version, shape = _sqlite_shape(old)
    assert version == 1 and "ratings" in shape and "explorer_places" not in shape
    await (await SqliteRepository.open(old)).close()
    assert _sqlite_shape(old) == _sqlite_shape(new)

