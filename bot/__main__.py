"""The ``tablero`` command line: ``run`` (Discord, or the console without a token),
``console``, ``games``, ``sync``, ``invite``, the operator's ``db backup`` / ``db check``
and ``selfplay`` (engines against each other).

A database that cannot be used (damaged, foreign, unwritable, or unavailable while the
command starts: the server down, the disk full) is reported in one line and the command
exits 3 at once, so a supervisor sees the failure instead of a hung process or a trace.
"""

from __future__ import annotations

import argparse
import asyncio
import importlib
import importlib.metadata
import logging
import os
import signal
import stat
import sys
from datetime import timedelta
from pathlib import Path
from typing import TYPE_CHECKING

import rules
from bot.ops.logs import configure as configure_logging
from bot.ops.logs import refuse
from bot.settings import Settings, SettingsError, load_settings
from rules import native
from service.errors import StorageError, StorageUnavailable

if TYPE_CHECKING:
    from bot.names import NameBook
    from bot.web.links import WebLinks
    from service import MatchService

DB_HELP = "SQLite file or postgresql:// URL (default: TABLERO_DB)"


def database_target(text: str) -> Path | str:
    """``--db``: a ``postgresql://`` URL stays text, anything else is a SQLite file."""
    return text if text.startswith(("postgresql://", "postgres://")) else Path(text)


def engine_core() -> str:
    """Which engine core runs (:mod:`rules.native`): ``compiled (mypyc)`` or ``pure
    Python``, once the engine's modules are loaded."""
    import engine.search  # noqa: F401  (loads the hot modules, compiled or not)

    return native.running()


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="tablero",
        description="Tablero: abstract board games on Discord, played over days.")
    parser.add_argument("--version", action="store_true",
                        help="print the version and which engine core runs, and exit")
    sub = parser.add_subparsers(dest="command")
    sub.add_parser("games", help="list the games the rules core knows")
    sub.add_parser("run", help="start the bot (the console when no DISCORD_TOKEN is set)")
    console = sub.add_parser("console", help="play in the terminal, no Discord needed")
    console.add_argument("--db", type=database_target, help=DB_HELP)
    console.add_argument("--boards", type=Path,
                         help="write board PNGs here (default: TABLERO_BOARDS)")
    console.add_argument("--seed", type=int, help="seed seat draws (reproducible scripts)")
    console.add_argument("--lang", type=language, default=None,
                         help="the language it speaks: en-US, en-GB, de, es-ES, es-419, "
                              "sv-SE, zh-CN, zh-TW (default: TABLERO_LANG, else en-US)")
    sync = sub.add_parser("sync", help="register the slash commands with Discord now")
    sync.add_argument("--guild", type=int, default=None,
                      help="register them in this server only (instant; for development: "
                           "the global registration is removed so none shows twice)")
    sync.add_argument("--clear", action="store_true",
                      help="remove the commands instead: globally, or in --guild's server")
    db = sub.add_parser("db", help="operate on the database: backup, check, copy, explorer, "
                        "fingerprints")
    db_sub = db.add_subparsers(dest="db_command")
    backup = db_sub.add_parser(
        "backup", help="write a consistent copy of the database to PATH while it is in use")
    backup.add_argument("path", help="the backup file (or a folder to put it in: ending in /)")
    backup.add_argument("--db", type=database_target, help=DB_HELP)
    check = db_sub.add_parser(
        "check", help="replay every match and report (and freeze) the broken ones")
    check.add_argument("--db", type=database_target, help=DB_HELP)
    check.add_argument("--quiet", action="store_true", help="no progress bar")
    copy = db_sub.add_parser(
        "copy", help="copy a whole installation into an empty database (SQLite file or "
        "postgresql:// URL, either way) and replay every match there")
    copy.add_argument("source", type=database_target, help="SQLite file or postgresql:// URL")
    copy.add_argument("target", type=database_target,
                      help="a new SQLite file or an empty PostgreSQL database")
    copy.add_argument("--quiet", action="store_true", help="no progress bar")
    explorer = db_sub.add_parser(
        "explorer", help="count the finished matches the opening explorer does not hold yet "
        "(once, after upgrading: new games are counted as they end)")
    explorer.add_argument("--db", type=database_target, help=DB_HELP)
    keys = db_sub.add_parser(
        "fingerprints", help="fingerprint the played matches that ended before fingerprints "
        "existed (what each server's first /import after upgrading does otherwise, slowly "
        "on a large server); safe while the bot runs, a second run does nothing")
    keys.add_argument("--db", type=database_target, help=DB_HELP)
    keys.add_argument("--quiet", action="store_true", help="no progress bar")
    selfplay = sub.add_parser(
        "selfplay", help="computer players against each other: strength, reproducibly")
    from engine.selfplay import add_arguments

    add_arguments(selfplay)
    webp = sub.add_parser("web", help="serve the match pages on the web; "
                          "'tablero web link N' prints match N's spectator link")
    webp.add_argument("action", nargs="*", metavar="link N",
                      help="link N: print match N's spectator link instead of serving")
    webp.add_argument("--db", type=database_target, help=DB_HELP)
    webp.add_argument("--host", default="127.0.0.1", help="listen here (default 127.0.0.1)")
    webp.add_argument("--port", type=int, default=8080, help="listen on this port (8080)")
    invite = sub.add_parser("invite", help="print the URL that adds the bot to a server")
    invite.add_argument("--client-id", type=int, default=None,
                        help="the Application ID (default: read from DISCORD_TOKEN)")
    return parser


def language(text: str) -> str:
    """A ``--lang`` value: one of the languages Tablero speaks (a Discord locale such as
    ``de`` or ``zh-CN``, or a close tag such as ``sv`` or ``zh_TW``)."""
    from locales.i18n import LOCALES, negotiate

    chosen = negotiate(text)
    if chosen == "en-US" and not text.strip().lower().startswith("en"):
        raise argparse.ArgumentTypeError(
            f"Tablero does not speak {text!r}; choose one of: {', '.join(LOCALES)}")
    return chosen


def console_main(settings: Settings, db: Path | str | None = None, boards: Path | None = None,
                 seed: int | None = None, lang: str | None = None) -> int:
    from bot.console import run_console

    return asyncio.run(run_console(db or settings.db_path, web=web_links(settings),
                                   boards_dir=boards or settings.boards_dir, seed=seed,
                                   synchronous=settings.db_synchronous,
                                   locale=lang or settings.console_lang or None,
                                   engine_seconds=settings.engine_seconds,
                                   engine_workers=settings.engine_workers,
                                   puzzle_games_per_hour=settings.puzzle_games_per_hour))


def web_links(settings: Settings) -> WebLinks | None:
    """The signer and base address of the web's links (None without a usable secret)."""
    from bot.web.links import WebLinks

    secret = settings.web_secret.get_secret_value() if settings.web_secret else None
    return WebLinks.configured(secret, settings.web_url)


def web_address(settings: Settings) -> tuple[str, int] | None:
    """Where ``tablero run`` serves the web pages beside the bot: ``TABLERO_WEB_HOST`` and
    ``TABLERO_WEB_PORT`` (None without a port; ``discord_main`` refuses a port without a
    usable secret)."""
    if settings.web_port is None:
        return None
    return settings.web_host, settings.web_port


def discord_main(settings: Settings) -> int:
    """``tablero run`` with a token: the Discord adapter, imported lazily
    (``bot.discordapp.cli.run``), with the token, the database path and the sweep period."""
    try:
        cli = importlib.import_module("bot.discordapp.cli")
    except ImportError as e:
        if not (e.name or "").startswith("bot.discordapp"):
            raise
        refuse("The Discord adapter is not part of this checkout yet (bot.discordapp); "
               "unset DISCORD_TOKEN to use the console, or run: tablero console",
               settings.log_format)
        return 2
    if settings.web_port is not None and web_links(settings) is None:
        refuse("tablero run: TABLERO_WEB_PORT is set but TABLERO_WEB_SECRET is not a random "
               "text of at least 32 characters: set it (the same in every web process), or "
               "unset TABLERO_WEB_PORT", settings.log_format)
        return 2
    code: int = cli.run(settings.discord_token, settings.db_path,
                        sweep_seconds=settings.sweep_seconds,
                        synchronous=settings.db_synchronous,
                        engine_seconds=settings.engine_seconds,
                        engine_workers=settings.engine_workers,
                        puzzle_games_per_hour=settings.puzzle_games_per_hour,
                        shard_count=settings.shard_count,
                        shards=settings.shards, web=web_links(settings),
                        web_address=web_address(settings),
                        metrics_host=settings.metrics_host,
                        metrics_port=settings.metrics_port,
                        outbox_max_age=timedelta(seconds=settings.ready_outbox_seconds),
                        match_cards=settings.match_cards)
    return code


def db_main(settings: Settings, args: argparse.Namespace) -> int:
    """``tablero db backup PATH``, ``tablero db check``, ``tablero db copy FROM TO``,
    ``tablero db explorer`` (the opening explorer's backfill) and ``tablero db
    fingerprints`` (the played games' fingerprints, ahead of the next imports)."""
    from bot import operations

    path = getattr(args, "db", None) or settings.db_path
    if args.db_command in ("backup", "check", "explorer", "fingerprints"):
        _must_exist(path)
    elif args.db_command == "copy":
        _must_exist(args.source)
    if args.db_command == "backup":
        return asyncio.run(operations.backup(path, args.path))
    if args.db_command == "check":
        return asyncio.run(operations.check(path, progress=not args.quiet))
    if args.db_command == "copy":
        return asyncio.run(operations.copy(args.source, args.target, progress=not args.quiet))
    if args.db_command == "explorer":
        return asyncio.run(operations.explorer_backfill(path))
    if args.db_command == "fingerprints":
        return asyncio.run(operations.fingerprints(path, progress=not args.quiet))
    print("tablero db backup PATH | tablero db check | tablero db copy FROM TO | tablero db "
          "explorer | tablero db fingerprints (see tablero db -h)", file=sys.stderr)
    return 2


def _must_exist(database: Path | str) -> None:
    """Refuse a SQLite file that is not there: opening it would create an empty database,
    and a mistyped ``--db`` (or a command run in another folder than the bot, as
    ``tablero.db`` is relative) would check, back up or copy nothing and say it did."""
    from storage import is_postgres_url
    from storage.errors import DatabaseUnusable

    if is_postgres_url(database) or Path(database).exists():
        return
    raise DatabaseUnusable(str(database), f"{database} does not exist (in {Path.cwd()}): "
                           "give the database with --db FILE or set TABLERO_DB; nothing "
                           "was created")


def web_main(settings: Settings, args: argparse.Namespace) -> int:
    """``tablero web`` (serve the pages) and ``tablero web link N`` (print a link)."""
    from bot.web.links import MIN_SECRET

    secret = settings.web_secret.get_secret_value() if settings.web_secret else ""
    if len(secret) < MIN_SECRET:
        refuse(f"tablero web: set TABLERO_WEB_SECRET to a random text of at least {MIN_SECRET} "
               "characters (the same for every web process), e.g. the output of: python -c "
               "'import secrets; print(secrets.token_urlsafe(32))'", settings.log_format)
        return 2
    db = args.db or settings.db_path
    if args.action:
        if len(args.action) != 2 or args.action[0] != "link" or not (
                args.action[1].isascii() and args.action[1].isdigit()):
            print("tablero web link N: N is a match number", file=sys.stderr)
            return 2
        return asyncio.run(web_link(db, secret, settings.web_url, int(args.action[1])))
    try:
        return asyncio.run(serve_web(db, secret, args.host, args.port,
                                     settings.db_synchronous,
                                     metrics_host=settings.metrics_host,
                                     metrics_port=settings.metrics_port))
    except KeyboardInterrupt:
        return 0


async def _web_service(db: Path | str, synchronous: str = "FULL"
                       ) -> tuple[object, MatchService, NameBook]:
    """The repository and a match service over it for the web (no notifier: the web
    process only reads; names as the bot stored them, in the book returned: the pages
    read a server's again as the bot meets new players)."""
    from bot.boards import load_renderer
    from bot.names import NameBook
    from service import MatchService, NullNotifier, SystemClock
    from storage import open_database

    repo = await open_database(db, synchronous=synchronous)
    book = NameBook(repo)
    await book.load()
    service = MatchService(repo, NullNotifier(), SystemClock(), renderer=load_renderer(),
                           names=book)
    return repo, service, book


async def web_link(db: Path | str, secret: str, base_url: str, match_id: int) -> int:
    from bot.web.links import LinkSigner, spectator_url
    from service.errors import MatchNotFound

    repo, service, _book = await _web_service(db)
    try:
        try:
            match = await service.get_match(match_id)
        except MatchNotFound:
            print(f"tablero web: there is no match #{match_id}", file=sys.stderr)
            return 1
        token = LinkSigner(secret.encode()).spectator(match.id, match.guild_id)
        print(spectator_url(base_url, token))
        if not (await service.get_guild_settings(match.guild_id)).web:
            print("(its server has the web off: the link answers 404 until /settings web:on)",
                  file=sys.stderr)
        return 0
    finally:
        await repo.close()  # type: ignore[attr-defined]


async def serve_web(db: Path | str, secret: str, host: str, port: int,
                    synchronous: str = "FULL", *, metrics_host: str = "127.0.0.1",
                    metrics_port: int | None = None,
                    started: asyncio.Future[tuple[int, int]] | None = None) -> int:
    """Serve the pages on ``host:port`` with ``/healthz``, ``/readyz`` (the database
    answers) and ``/metrics`` beside them, or on ``metrics_host:metrics_port`` when
    given. ``started`` (tests) learns the ports bound (``port`` 0: a free one)."""
    from bot.ops.health import DatabaseAnswers, Readiness
    from bot.ops.metrics import Metrics, StoreCounts
    from bot.ops.server import Operations, OpsServer
    from bot.web.app import WebApp, WebServer
    from bot.web.links import LinkSigner

    repo, service, book = await _web_service(db, synchronous)
    metrics = Metrics(web_process=True)
    if isinstance(repo, StoreCounts):
        metrics.store = repo
    ops = Operations(metrics, Readiness(
        [DatabaseAnswers(lambda: service.get_guild_settings(0))], metrics))
    server = WebServer(WebApp(service, LinkSigner(secret.encode()), metrics=metrics,
                              ops=ops if metrics_port is None else None,
                              names_read=book.load), host, port)
    endpoints = OpsServer(ops, metrics_host, metrics_port) if metrics_port is not None \
        else None
    try:
        try:
            await server.start()
        except OSError as e:
            refuse(f"tablero web: cannot listen on {host}:{port} ({e.strerror or e})")
            return 1
        print(f"Tablero web: http://{host}:{server.port}/ (Ctrl-C stops it)", flush=True)
        where = server.port
        if endpoints is not None:
            try:
                where = await endpoints.start()
            except OSError as e:
                refuse(f"tablero web: cannot serve the metrics on {metrics_host}:"
                       f"{metrics_port} ({e.strerror or e})")
                return 1
            print(f"health and metrics: http://{metrics_host}:{where}/metrics", flush=True)
        if started is not None:
            started.set_result((server.port, where))
        await _until_stopped()
        return 0
    finally:
        if endpoints is not None:
            await endpoints.stop()
        await server.stop()
        # a move played on a page may have ended a match: its explorer count and its
        # fingerprint are written before the database closes (5 s at most)
        await service.stop_background()
        await repo.close()  # type: ignore[attr-defined]


async def _until_stopped() -> None:
    """Wait for SIGTERM or SIGINT (the web process stops gracefully on either: systemd and
    containers send SIGTERM); elsewhere than the main thread, until cancelled."""
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    handled: list[signal.Signals] = []
    for signum in (signal.SIGTERM, signal.SIGINT):
        try:
            loop.add_signal_handler(signum, stop.set)
        except (ValueError, NotImplementedError, RuntimeError):  # not the main thread
            continue
        handled.append(signum)
    try:
        await stop.wait()
    finally:
        for handled_signal in handled:
            loop.remove_signal_handler(handled_signal)


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.version:
        print(f"tablero {importlib.metadata.version('tablero')}, engine core: {engine_core()}")
        return 0
    if args.command == "games":
        for key, v in rules.VARIANTS.items():
            print(f"{key:18} {v.name}")
        return 0
    if args.command == "selfplay":
        from engine.selfplay import main as selfplay_main

        return selfplay_main(args)
    if args.command not in ("run", "console", "sync", "invite", "db", "web"):
        parser.print_help()
        return 0
    try:
        settings = load_settings()
    except SettingsError as e:
        for line in e.lines:
            refuse(f"tablero: {line} (set it in the environment or in .env; .env.example "
                   "describes every setting)", e.log_format)
        return 2
    try:
        return _dispatch(args, settings)
    except StorageError as exc:
        refuse(f"tablero: {refusal(exc)}", settings.log_format)
        return 3


def _input_can_reach_a_console() -> bool:
    """Whether standard input may carry a console's lines: a terminal, a pipe or a file.
    A character device that is no terminal is /dev/null (systemd, a container without
    ``-i``): a service with no token, not a person."""
    try:
        fd = sys.stdin.fileno()
        return os.isatty(fd) or not stat.S_ISCHR(os.fstat(fd).st_mode)
    except (AttributeError, ValueError, OSError):  # no standard input at all
        return False


def refusal(exc: StorageError) -> str:
    """The one line a command that met ``exc`` ends with (in English, as the operator's
    other lines are): what the database said, and which database.

    >>> from service.errors import DatabaseUnreachable
    >>> refusal(DatabaseUnreachable("postgresql://bot:***@db/tablero", "connection refused"))
    'postgresql://bot:***@db/tablero: the database is not reachable right now; nothing was \
changed. Try again in a minute (connection refused)'
    """
    if isinstance(exc, StorageUnavailable):
        return f"{exc.database}: {exc.message} ({exc.cause})"
    return exc.message


def _uses_the_engine(args: argparse.Namespace) -> bool:
    """Whether the command plays or replays games, so which engine core runs is worth an
    INFO line: the bot, the console, the web server and the ``tablero db`` commands that
    replay matches. ``tablero db backup`` (a daily cron job: an INFO line there is a daily
    mail) and ``tablero web link N`` log it at DEBUG; ``tablero --version`` says it too."""
    if args.command == "db":
        return args.db_command in ("check", "copy", "explorer", "fingerprints")
    return not (args.command == "web" and args.action)


def _dispatch(args: argparse.Namespace, settings: Settings) -> int:
    if args.command in ("sync", "invite"):
        from bot.discordapp import cli as discord_cli

        return discord_cli.command(args.command, settings, guild=args.guild if
                                   args.command == "sync" else None,
                                   client_id=getattr(args, "client_id", None),
                                   clear=getattr(args, "clear", False))
    if args.command == "run" and not settings.has_token and not _input_can_reach_a_console():
        refuse("tablero run: DISCORD_TOKEN is not set, and the local console it would start "
               "instead needs a terminal (standard input is /dev/null, as under systemd or "
               "in a container): set DISCORD_TOKEN in the environment or in .env",
               settings.log_format)
        return 2
    configure_logging(settings.log_level, settings.log_format)
    logging.getLogger("tablero").log(logging.INFO if _uses_the_engine(args) else logging.DEBUG,
                                     "engine core: %s", engine_core())
    if args.command == "db":
        return db_main(settings, args)
    if args.command == "web":
        return web_main(settings, args)
    if args.command == "console":
        return console_main(settings, args.db, args.boards, args.seed, args.lang)
    if not settings.has_token:
        print("No DISCORD_TOKEN set: starting the local console instead (see .env.example).")
        return console_main(settings)
    return discord_main(settings)


if __name__ == "__main__":
    sys.exit(main())
