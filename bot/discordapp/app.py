"""``create_bot``: the one place where Tablero on Discord is put together.

Built in one direction: the client (the connection), the notifier posting through it,
the service announcing to the notifier (behind ``ReplyFirst``, so the person acting is
answered before the others are told), then the cogs calling the service, which the
client adds in ``setup_hook``. Nothing is assigned to anything afterwards.
"""

from __future__ import annotations

import random
from datetime import timedelta
from pathlib import Path

from discord.ext import commands

from bot.discordapp.client import TableroBot, default_sync_state
from bot.discordapp.cogs import (
    ChallengesCog,
    ClocksCog,
    ComfortsCog,
    DeadlinesCog,
    DeliveriesCog,
    InfoCog,
    PlayCog,
    PuzzlesCog,
    ReplaysCog,
    SchoolCog,
    SeasonsCog,
    SettingsCog,
    TournamentsCog,
    WebPagesCog,
)
from bot.discordapp.dispatcher import DeliveryOptions, is_discord_entry
from bot.discordapp.notices import ReplyFirst
from bot.discordapp.notifier import DiscordNotifier
from bot.discordapp.sync import SyncState
from bot.names import NameBook
from bot.ops.health import (
    Condition,
    DatabaseAnswers,
    OutboxFresh,
    Readiness,
    ShardsReady,
    SweepRecent,
    SweepWatch,
    WatchedStore,
)
from bot.ops.metrics import Metrics, StoreCounts
from bot.ops.redaction import install as redact_tokens_in_logs
from bot.ops.server import Operations
from bot.web.links import WebLinks
from service import (
    ALL_SHARDS,
    BoardRenderer,
    Clock,
    MatchService,
    MovePicker,
    PuzzleMiner,
    Repository,
    ShardSet,
)
from service.deliveries import DeliveryFacts
from service.outbox import OutboxRelay
from service.puzzles import DEFAULT_PER_HOUR as DEFAULT_PUZZLES_PER_HOUR

OUTBOX_MAX_AGE = timedelta(minutes=10)
"""``/readyz`` fails when a message waits longer (``TABLERO_READY_OUTBOX_SECONDS``)."""


def create_bot(repository: Repository, clock: Clock, *, renderer: BoardRenderer | None = None,
               sync_state: SyncState | None = None, database: Path | None = None,
               auto_sync: bool = True, sweep_seconds: float = 60.0, background: bool = True,
               rng: random.Random | None = None, shard_count: int | None = None,
               delivery: DeliveryOptions | None = None,
               picker: MovePicker | None = None, miner: PuzzleMiner | None = None,
               puzzles_per_hour: int = DEFAULT_PUZZLES_PER_HOUR,
               shards: ShardSet = ALL_SHARDS, web: WebLinks | None = None,
               web_address: tuple[str, int] | None = None,
               metrics: Metrics | None = None,
               outbox_max_age: timedelta = OUTBOX_MAX_AGE,
               match_cards: bool = True) -> TableroBot:
    """A ready-to-start bot over ``repository``. ``background=False`` leaves out the
    deadline sweep (``tablero sync`` only logs in); ``shard_count=None`` asks Discord;
    ``delivery``: the outbox's retry delays and poll interval; ``picker``: the computer
    player's moves (``bot.computer.PoolMovePicker``; none: the computer is not offered);
    ``miner``: finds puzzles in finished games (the same pool; none: no mining), on at
    most ``puzzles_per_hour`` games an hour;
    ``shards``: the shards this process runs (``SHARD_IDS``): it connects only those, and
    sweeps and delivers only for their guilds; ``web``: signs /web's links (None: the
    web is not set up); ``web_address``: (host, port) to serve the web pages on in this
    process, over this bot's service (``TABLERO_WEB_PORT``; needs ``web``); ``metrics``:
    where the adapters count and time what they do (a fresh registry by default);
    ``outbox_max_age``: the oldest undelivered message ``/readyz`` tolerates. ``bot.ops``
    holds the metrics and the readiness that ``/metrics`` and ``/readyz`` serve
    (``bot.ops.server``); ``match_cards``: turn posts as one Components V2 layout
    (``bot.discordapp.cards``) instead of an embed."""
    redact_tokens_in_logs()  # discord.py logs interaction tokens at DEBUG
    if sync_state is None and database is not None:
        sync_state = default_sync_state(database)
    metrics = metrics or Metrics()
    if isinstance(repository, StoreCounts):
        metrics.store = repository  # moves stored, refusals by kind: read at each scrape
    bot = TableroBot(sync_state=sync_state, auto_sync=auto_sync, shard_count=shard_count,
                     shard_ids=list(shards.ids) if shards.ids is not None else None,
                     metrics=metrics)
    bot.names.book = NameBook(repository)  # names outlive a restart
    notifier = DiscordNotifier(bot, DeliveryFacts(repository), renderer=renderer,
                               names=bot.names, options=delivery, web=web,
                               metrics=metrics, cards=match_cards,
                               command_ids=bot.command_ids)
    # the relay (a part of the core) calls the notifier's deliverer: the wiring ties them
    options = notifier.options
    notifier.relay = OutboxRelay(
        repository, notifier.deliver, clock,
        accepts=lambda entry: is_discord_entry(entry) and shards.owns(entry.guild_id),
        backoff=options.backoff, max_backoff=options.max_backoff, sleep=options.sleep,
        live_grace=options.live_grace)
    notices = ReplyFirst(notifier)
    service = MatchService(repository, notices, clock, renderer=renderer, rng=rng,
                           names=bot.names, rooms=notifier, picker=picker,
                           shards=shards, miner=miner, puzzles_per_hour=puzzles_per_hour)
    bot.locales = service.remember_locale  # DMs speak the language last seen
    bot.names.imported = service.imported_name  # imported players by their records' names
    cogs: list[commands.Cog] = [
        DeliveriesCog(notifier.flush, notifier=notifier, client=bot),
        ChallengesCog(service, notices, bot.tree),
        PlayCog(service, notices, bot.names, web),
        ReplaysCog(service, bot.names),
        ComfortsCog(service, notices, web),
        InfoCog(service),
        ClocksCog(service, notices),
        SettingsCog(service, notifier.routes.forget_place),
        TournamentsCog(service, bot.names),
        SeasonsCog(service),
        SchoolCog(service),
        PuzzlesCog(service, bot.names),
    ]
    conditions: list[Condition] = [
        DatabaseAnswers(lambda: repository.get_guild_settings(0),  # the sweep writes
                        repository.outage if isinstance(repository, WatchedStore)
                        else None),
        ShardsReady(bot.shard_states, metrics),
        OutboxFresh(lambda n: repository.pending_outbox(limit=n), notifier.relay.accepts,
                    clock, outbox_max_age, metrics)]
    if background:
        watch = SweepWatch(clock, sweep_seconds, metrics)
        conditions.insert(2, SweepRecent(watch))
        cogs.append(DeadlinesCog(service, bot, sweep_seconds, watch,
                                 chores=[bot.ids_refresh.tick]))
    if web is not None and web_address is not None:
        cogs.append(WebPagesCog(service, web, *web_address, metrics=metrics))
    bot.ops = Operations(metrics, Readiness(conditions, metrics))
    bot.add_cogs_at_setup(cogs)
    return bot
