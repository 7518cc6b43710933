"""The PostgreSQL schemas the tests' repositories reuse (``repository_postgres_url`` in
tests/conftest.py): emptied, a used schema is to a repository what a new one is (no
rows, the identity counters from the start), and a test that changed more than rows and
counters is seen, so its schema is dropped rather than handed to the next test: by the
server's log of its changes where it keeps one, else by the schema's shape."""

from __future__ import annotations

import uuid
from typing import Any

import pytest

from service import MatchService
from storage import PostgresRepository
from tests import conftest
from tests.conftest import (
    _close_admin,
    _emptied,
    _new_tablero_schema,
    _on_server,
    _on_server_async,
    _url_of,
)
from tests.postgres import ENV_URL
from tests.service.conftest import ALICE, GUILD, Recorder, SetClock, play_random, start_match

DETECTORS = {"log": True, "shape": False}


@pytest.mark.parametrize("detector", list(DETECTORS))
async def test_an_emptied_schema_is_as_new_to_a_repository(postgres_server: str,
                                                            detector: str) -> None:
    schema = _new_tablero_schema(postgres_server, logged=DETECTORS[detector])
    assert (schema.shape is None) == DETECTORS[detector]
    url = _url_of(postgres_server, schema.name)
    try:
        repo = await PostgresRepository.open(url)
        service = MatchService(repo, Recorder(), SetClock())
        first = await start_match(service)
        await play_random(service, first.id, 4)
        await start_match(service)
        assert (await service.stats(GUILD, ALICE)).active_matches == 2
        await repo.close()

        assert _emptied(postgres_server, schema)
        repo = await PostgresRepository.open(url)
        service = MatchService(repo, Recorder(), SetClock())
        assert await repo.load_match(first.id) is None
        assert (await service.stats(GUILD, ALICE)).active_matches == 0
        again = await start_match(service)
        assert again.id == first.id  # the counters start again where a new schema's do
        assert len(await repo.load_entries(again.id)) == 0
        await repo.close()
        assert _emptied(postgres_server, schema)  # restarting its counters changed nothing
    finally:
        _on_server(postgres_server, f"DROP SCHEMA {schema.name} CASCADE")


CHANGES = {
    "column": "ALTER TABLE {s}.matches ADD COLUMN extra BIGINT",
    "column-gone": "ALTER TABLE {s}.matches DROP COLUMN thread_id",
    "default": "ALTER TABLE {s}.matches ALTER COLUMN thread_id SET DEFAULT 7",
    "index": "CREATE INDEX extra_index ON {s}.matches (channel_id)",
    "table": "CREATE TABLE {s}.extra (x BIGINT)",
    "constraint": "ALTER TABLE {s}.matches ADD CONSTRAINT extra CHECK (guild_id > 0)",
    "version": "UPDATE {s}.tablero_schema SET version = version + 1",
    "trigger": "CREATE FUNCTION {s}.refuse() RETURNS trigger LANGUAGE plpgsql AS "
               "$$ BEGIN RETURN NULL; END $$; CREATE TRIGGER refuse BEFORE INSERT ON "
               "{s}.matches FOR EACH ROW EXECUTE FUNCTION {s}.refuse()",
}


@pytest.mark.parametrize("detector", list(DETECTORS))
@pytest.mark.parametrize("change", list(CHANGES))
def test_a_schema_changed_beyond_its_rows_is_not_emptied(postgres_server: str,
                                                          change: str, detector: str) -> None:
    schema = _new_tablero_schema(postgres_server, logged=DETECTORS[detector])
    assert _emptied(postgres_server, schema)  # unchanged, it is emptied
    try:
        _on_server(postgres_server, CHANGES[change].format(s=schema.name))
        assert not _emptied(postgres_server, schema)
    finally:
        _on_server(postgres_server, f"DROP SCHEMA {schema.name} CASCADE")


_LOG_OBJECTS = """SELECT (SELECT count(*) FROM pg_event_trigger WHERE evtname LIKE 'tablero_tests%')
    + (SELECT count(*) FROM pg_namespace WHERE nspname = 'tablero_tests')"""


def test_a_named_servers_change_log_is_removed_by_the_last_session_out(
        postgres_server: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The log of schema changes (``_DDL_LOG``: two event triggers and a schema) is not
    left on a server ``TABLERO_TEST_POSTGRES_URL`` names: the session that ends last
    removes it (one still using it keeps it); the session's own server keeps its own
    (it is thrown away whole). Here a database of its own stands for the named server."""
    async def superuser(admin: Any) -> bool:
        return bool(await admin.fetchval("SELECT rolsuper FROM pg_roles "
                                         "WHERE rolname = current_user"))
    if not _on_server_async(postgres_server, superuser):  # no log is ever made there
        assert not conftest._changes_logged(postgres_server)
        return
    database = f"t_{uuid.uuid4().hex[:16]}"
    base, _slash, _name = postgres_server.partition("?")[0].rpartition("/")
    named = f"{base}/{database}"
    other = f"{named}?application_name=another_session"
    _on_server(postgres_server, f"CREATE DATABASE {database}")

    def left() -> int:
        async def count(admin: Any) -> int:
            return int(await admin.fetchval(_LOG_OBJECTS))
        found = _on_server_async(other, count)
        assert isinstance(found, int)
        return found
    try:
        assert conftest._changes_logged(named) and conftest._changes_logged(other)
        assert left() == 3
        monkeypatch.delenv(ENV_URL, raising=False)  # the session's own server
        assert not conftest._remove_named_change_log() and left() == 3
        monkeypatch.setenv(ENV_URL, named)
        assert not conftest._remove_named_change_log()  # the other session still uses it
        assert left() == 3 and named not in conftest._LOGGED
        monkeypatch.setenv(ENV_URL, other)
        assert conftest._remove_named_change_log()  # the last one out
        assert left() == 0
    finally:
        conftest._LOGGED.pop(named, None)
        conftest._LOGGED.pop(other, None)
        _close_admin(named)
        _close_admin(other)
        _on_server(postgres_server, f"DROP DATABASE {database} WITH (FORCE)")
