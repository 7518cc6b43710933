"""``create_bot`` with ``SHARD_IDS`` (issue 15): the client runs only those shards, and
its outbox relay and deadline sweep take only their guilds."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest
from pydantic import SecretStr

from bot.discordapp.app import create_bot
from bot.discordapp.cli import run_bot
from bot.discordapp.cogs import DeadlinesCog, DeliveriesCog
from bot.discordapp.notifier import DiscordNotifier
from service import ShardSet, SystemClock
from service.records import OutboxEntry
from service.shards import ShardLease
from storage import MemoryRepository, SqliteRepository


def _entry(guild_id: int) -> OutboxEntry:
    return OutboxEntry(match_id=1, guild_id=guild_id, version=1, n=0, kind="turn",
                       payload="{}", created_at=datetime(2026, 1, 1, tzinfo=UTC))


def test_a_process_runs_and_serves_only_its_shards() -> None:
    bot = create_bot(MemoryRepository(), SystemClock(), auto_sync=False,
                     shard_count=4, shards=ShardSet(4, (1, 3)))
    assert bot.shard_count == 4 and bot.shard_ids == [1, 3]
    cogs = bot._cogs_to_add
    deliveries = next(c for c in cogs if isinstance(c, DeliveriesCog))
    assert isinstance(deliveries.notifier, DiscordNotifier)
    accepts = deliveries.notifier.relay.accepts
    assert [accepts(_entry(n << 22)) for n in range(1, 9)] == [
        True, False, True, False, True, False, True, False]
    sweep = next(c for c in cogs if isinstance(c, DeadlinesCog))
    assert sweep.service.shards == ShardSet(4, (1, 3))


def test_one_process_by_default_serves_every_guild() -> None:
    bot = create_bot(MemoryRepository(), SystemClock(), auto_sync=False)
    assert bot.shard_ids is None
    deliveries = next(c for c in bot._cogs_to_add if isinstance(c, DeliveriesCog))
    assert isinstance(deliveries.notifier, DiscordNotifier)
    assert all(deliveries.notifier.relay.accepts(_entry(n << 22)) for n in range(1, 9))


async def test_tablero_run_refuses_a_shard_another_live_process_runs(tmp_path: Path) -> None:
    db = tmp_path / "tablero.db"
    repository = await SqliteRepository.open(db)
    try:
        await ShardLease(repository, ShardSet(2, (1,)), SystemClock(), owner="other").acquire()
    finally:
        await repository.close()
    with pytest.raises(SystemExit, match=r"tablero run: shards \[1\] of 2 are run by "
                                         r"another live process"):
        await run_bot(SecretStr("not-a-token"), db, shard_count=2, shards=ShardSet(2, (1,)))
