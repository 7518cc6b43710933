"""The session's own PostgreSQL server is started while the tests are collected
(``pytest_itemcollected`` in tests/conftest.py), not when the first test asks for it."""

from __future__ import annotations

import os

from tests import conftest
from tests.postgres import ENV_URL, LocalServer


def test_the_sessions_server_was_started_while_collecting(
        local_postgres: tuple[LocalServer, str] | None) -> None:
    if os.environ.get(ENV_URL, "").strip():  # a named server: none of its own
        assert local_postgres is None and conftest.EARLY_TAKEN == []
        return
    assert local_postgres is not None and local_postgres[0].running
    assert conftest.EARLY_TAKEN == [True]
