"""The PostgreSQL schemas the tests' repositories reuse (``repository_postgres_url`` in
tests/conftest.py): emptied, a used schema is to a repository what a new one is (no
rows, the identity counters from the start), and a test that changed more than rows and
counters is seen, so its schema is dropped rather than handed to the next test: by the
server's log of its changes where it keeps one, else by the schema's shape."""

from __future__ import annotations

import pytest

from service import MatchService
from storage import PostgresRepository
from tests.conftest import _emptied, _new_tablero_schema, _on_server, _url_of
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
