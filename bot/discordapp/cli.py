"""``tablero run``, ``tablero sync`` and ``tablero invite``.

The token arrives as a ``SecretStr`` and is unwrapped only in the call that hands it to
discord.py; it is never printed or logged (discord.py does not log it either).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
from collections.abc import Coroutine
from datetime import timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pydantic import SecretStr

from bot.discordapp.app import OUTBOX_MAX_AGE, create_bot
from bot.discordapp.client import TableroBot
from bot.discordapp.cogs.web import WebPagesUnavailable
from bot.discordapp.permissions import application_id_from_token, invite_url
from bot.discordapp.sync import clear_commands, publish
from bot.ops.engine import MeasuredPicker
from bot.ops.logs import refuse
from bot.ops.metrics import Metrics
from bot.ops.server import OpsServer
from bot.web.links import WebLinks
from service import ALL_SHARDS, BoardRenderer, Repository, ShardSet
from service.errors import StorageError
from service.shards import ShardLease, ShardsTaken

if TYPE_CHECKING:
    from bot.settings import Settings
    from storage import PostgresRepository, SqliteRepository

log = logging.getLogger("tablero.discord")


async def _open(database: Path | str, synchronous: str = "FULL"
                ) -> SqliteRepository | PostgresRepository:
    from storage import open_database
    return await open_database(database, synchronous=synchronous)


def _sync_file(database: Path | str) -> Path:
    """Where the command-sync state is kept: beside a SQLite file; in the working folder
    when the database is a PostgreSQL server."""
    return database if isinstance(database, Path) else Path("tablero-postgres")


def _renderer() -> BoardRenderer | None:
    from bot.boards import load_renderer

    renderer = load_renderer()
    if renderer is None:
        log.warning("board images are off: the renderer is not available")
    return renderer


async def run_bot(token: SecretStr, database: Path | str, *, sweep_seconds: float = 60.0,
                  synchronous: str = "FULL", engine_seconds: float = 2.0,
                  engine_workers: int = 2, puzzle_games_per_hour: int = 30,
                  shard_count: int | None = None,
                  shards: ShardSet = ALL_SHARDS, web: WebLinks | None = None,
                  web_address: tuple[str, int] | None = None,
                  metrics_host: str = "127.0.0.1", metrics_port: int | None = None,
                  outbox_max_age: timedelta = OUTBOX_MAX_AGE,
                  match_cards: bool = True) -> None:
    """Run the bot until SIGTERM or SIGINT: the database at ``database`` (a SQLite file or a
    ``postgresql://`` URL), the deadline sweep, an automatic command sync only when the
    command tree changed, the computer player in a pool of ``engine_workers`` processes
    with ``engine_seconds`` per move, and the puzzle miner there, on at most
    ``puzzle_games_per_hour`` finished games an hour; ``shard_count``/``shards``: the shards this
    process runs (None: Discord's recommendation, all in this process); ``web_address``:
    also serve the web pages there (``TABLERO_WEB_PORT``); ``metrics_port``: where
    ``/healthz``, ``/readyz`` and ``/metrics`` are served (on ``metrics_host``; None: not
    served)."""
    from bot.computer import PoolMovePicker
    from service import SystemClock

    repository = await _open(database, synchronous)
    lease = ShardLease(repository, shards, SystemClock())
    try:
        await lease.acquire()
    except ShardsTaken as e:
        await repository.close()
        raise SystemExit(f"tablero run: {e}") from None
    log.info("running shards %s of %d (lease %s)", list(shards.shard_ids), shards.count,
             lease.owner)
    metrics = Metrics()
    metrics.shard_leases.set(len(shards.shard_ids))
    picker = PoolMovePicker(workers=engine_workers, seconds=engine_seconds)
    bot = create_bot(repository, SystemClock(), renderer=_renderer(),
                     database=_sync_file(database), sweep_seconds=sweep_seconds,
                     picker=MeasuredPicker(picker, metrics, engine_workers),
                     miner=picker, puzzles_per_hour=puzzle_games_per_hour,
                     shard_count=shard_count, shards=shards, web=web,
                     web_address=web_address, metrics=metrics,
                     outbox_max_age=outbox_max_age, match_cards=match_cards)
    endpoints = None
    try:
        if metrics_port is not None and bot.ops is not None:
            endpoints = OpsServer(bot.ops, metrics_host, metrics_port)
            try:
                port = await endpoints.start()
            except OSError as e:
                with contextlib.suppress(Exception):  # else the lease runs out by itself
                    await lease.release()
                await repository.close()
                raise SystemExit(f"tablero run: cannot serve the metrics on "
                                 f"{metrics_host}:{metrics_port} ({e.strerror or e})") from None
            log.info("health and metrics on http://%s:%d/ (/healthz, /readyz, /metrics)",
                     metrics_host, port)
        try:
            await serve(bot, bot.start(token.get_secret_value()), repository, lease)
        except WebPagesUnavailable as e:  # serve closed the database and freed the lease
            raise SystemExit(web_pages_refused(e)) from None
    finally:
        if endpoints is not None:
            await endpoints.stop()
        picker.close()


def web_pages_refused(e: WebPagesUnavailable) -> str:
    """The line ``tablero run`` ends with when its web pages' address cannot be had."""
    return (f"tablero run: cannot serve the web pages on {e.host}:{e.port} ({e.reason}): "
            "free the port, or set TABLERO_WEB_PORT to another one")


async def keep_lease(lease: ShardLease, bot: TableroBot) -> None:
    """Renew ``lease`` every ``lease.every`` seconds; if another process took the shards
    (this one stalled past the lease), stop the bot rather than act twice."""
    async def lost(e: ShardsTaken) -> None:
        log.error("lost the shard lease, stopping: %s", e)
        if bot.metrics is not None:
            bot.metrics.shard_leases.set(0)
        await bot.close()
    await lease.keep(lost)


async def serve(bot: TableroBot, running: Coroutine[Any, Any, None],
                repository: Repository, lease: ShardLease | None = None) -> None:
    """Run ``running`` (the bot's connection) until it ends or SIGTERM/SIGINT arrives,
    then stop gracefully: ``bot.close()`` takes no new work and flushes pending
    deliveries (10 s at most), then the database closes after the write under way.
    ``lease``: this process's shards, renewed while it runs and released at the stop."""
    loop = asyncio.get_running_loop()
    stopping: list[asyncio.Task[None]] = []
    renewing = loop.create_task(keep_lease(lease, bot)) if lease is not None else None

    def stop(signum: int) -> None:
        log.info("%s received: stopping", signal.Signals(signum).name)
        if not stopping:
            stopping.append(loop.create_task(bot.close()))

    for signum in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(signum, stop, signum)
    try:
        async with bot:
            await running
        for task in stopping:
            await task
    finally:
        for signum in (signal.SIGTERM, signal.SIGINT):
            loop.remove_signal_handler(signum)
        if renewing is not None and lease is not None:
            renewing.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await renewing
            try:
                await lease.release()
                if bot.metrics is not None:
                    bot.metrics.shard_leases.set(0)
            except StorageError as e:  # an outage (logged once): the lease runs out
                log.info("could not release the shard lease (%s); it runs out by itself",
                         e.message)
            except Exception:  # the lease runs out by itself
                log.exception("could not release the shard lease")
        await repository.close()
        log.info("stopped; database closed")


async def sync_now(token: SecretStr, database: Path | str, guild_id: int | None = None, *,
                   clear: bool = False) -> int:
    """Register the commands now, globally or in one server, in that scope only (no
    command shows twice: ``sync.publish``); with ``clear``, remove them from that scope
    instead. The number of commands registered."""
    from service import SystemClock
    from storage.memory import MemoryRepository

    bot = create_bot(MemoryRepository(), SystemClock(), database=_sync_file(database),
                     auto_sync=False, background=False)
    async with bot:
        await bot.login(token.get_secret_value())
        if clear:
            await clear_commands(bot, bot.sync_state, guild_id=guild_id)
            return 0
        await publish(bot, bot.tree, bot.sync_state, guild_id=guild_id, force=True)
        count = len(bot.tree.get_commands(guild=None))
    return count


def invite(token: SecretStr | None, client_id: int | None) -> str:
    """The invite URL; the application id comes from ``client_id`` or the token."""
    if client_id is None and token is not None:
        client_id = application_id_from_token(token.get_secret_value())
    if client_id is None:
        raise SystemExit("tablero invite: pass --client-id (the Application ID from the "
                         "Developer Portal) or set DISCORD_TOKEN")
    return invite_url(client_id)


def run(token: SecretStr, database: Path | str, **kwargs: Any) -> int:
    """``tablero run``: 0 after a clean stop, 1 when Discord cannot be reached or refuses
    the token (said in one line; the token itself is never shown)."""
    import aiohttp
    import discord

    try:
        with contextlib.suppress(KeyboardInterrupt):
            asyncio.run(run_bot(token, database, **kwargs))
    except discord.LoginFailure:
        refuse("tablero run: Discord refused the token: check DISCORD_TOKEN (Developer Portal "
               "-> Bot -> Reset Token)")
        return 1
    except (aiohttp.ClientError, OSError) as exc:
        refuse(f"tablero run: cannot reach Discord ({type(exc).__name__}): check the network "
               "connection")
        return 1
    return 0



def command(name: str, settings: Settings, *, guild: int | None = None,
            client_id: int | None = None, clear: bool = False) -> int:
    """``tablero sync`` and ``tablero invite`` with the application's Settings."""
    token: SecretStr | None = settings.discord_token
    if name == "invite":
        print(invite(token, client_id))
        return 0
    if token is None:
        refuse("tablero sync needs DISCORD_TOKEN (see README and .env.example).",
               settings.log_format)
        return 2
    import aiohttp
    import discord

    guild = guild if guild is not None else settings.dev_guild_id
    try:
        count = asyncio.run(sync_now(token, settings.db_path, guild, clear=clear))
    except discord.LoginFailure:
        refuse("tablero sync: Discord refused the token: check DISCORD_TOKEN (Developer "
               "Portal -> Bot -> Reset Token)", settings.log_format)
        return 1
    except (aiohttp.ClientError, OSError) as exc:
        refuse(f"tablero sync: cannot reach Discord ({type(exc).__name__}): check the network "
               "connection", settings.log_format)
        return 1
    if clear:
        where = f"server {guild}" if guild else "every server (global)"
        print(f"Removed Tablero's commands from {where}.")
    elif guild:
        print(f"Registered {count} commands in server {guild} and removed the global ones, "
              "so no command shows twice there. `tablero sync` without --guild (and "
              "without TABLERO_DEV_GUILD) registers them globally again.")
    else:
        print(f"Registered {count} commands for every server (global; may take a while to "
              "show) and removed any copies in development servers.")
    return 0
