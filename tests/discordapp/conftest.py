"""SimCord fixtures: the real bot (real discord.py code paths) against a virtual Discord.

The service's clock is Discord's clock (``discord.utils.utcnow``), which SimCord
virtualizes, so ``env.advance_time`` moves deadlines and the sweep loop together.
"""

from __future__ import annotations

import inspect
import io
import json
import pickle
import random
import threading
from collections.abc import AsyncIterator, Iterator
from contextvars import ContextVar
from datetime import datetime
from pathlib import Path
from typing import Any

import discord
import pytest
import simcord
from discord import app_commands
from simcord.http import router as simcord_router

import locales.i18n
import render
from bot.boards import load_renderer
from bot.discordapp import TableroBot, create_bot
from bot.discordapp import translator as tree_translator
from bot.discordapp.cogs import DeadlinesCog, PlayCog
from bot.discordapp.dispatcher import DeliveryOptions
from rules import Position
from service import MatchService
from tests.conftest import new_sqlite_file
from tests.discordapp.nonces import NonceLedger
from tests.discordapp.wire_contract import upload_violations, violations

SWEEP_SECONDS = 3600.0
SHARDS = 2
"""The bot runs on two shards in tests: nothing may assume a single one."""


class DiscordClock:
    """The service clock: SimCord's virtual time inside tests."""

    def now(self) -> datetime:
        return discord.utils.utcnow()


async def make_repository(path: Path) -> Any:
    """The SQLite repository on a temp file (a new one a copy of a migrated file:
    ``new_sqlite_file``; the memory one until storage lands)."""
    try:
        from storage.sqlite import open_repository
    except ImportError:
        from storage.memory import MemoryRepository
        return MemoryRepository()
    return await open_repository(new_sqlite_file(path))


DELIVERY = DeliveryOptions(backoff=0.001, max_backoff=0.01, poll_seconds=SWEEP_SECONDS)
"""The outbox in tests: tiny retry delays; polled as seldom as the sweep runs."""


def make_bot(tmp_path: Path, repository: Any, seed: int = 1,
             delivery: DeliveryOptions = DELIVERY) -> TableroBot:
    return create_bot(repository, DiscordClock(), renderer=load_renderer(),
                      database=tmp_path / "tablero.db", sweep_seconds=SWEEP_SECONDS,
                      rng=random.Random(seed), shard_count=SHARDS, delivery=delivery)


def service_of(bot: TableroBot) -> MatchService:
    """The service the bot's cogs call: tests read and patch that very one."""
    play = bot.get_cog("Play")
    assert isinstance(play, PlayCog)
    return play.service


def sweeps_of(bot: TableroBot) -> int:
    """How many times the deadline sweep has run."""
    deadlines = bot.get_cog("Deadlines")
    assert isinstance(deadlines, DeadlinesCog)
    return deadlines.sweeps


class World:
    """A guild with a games channel and three members."""

    def __init__(self, env: simcord.Env, bot: TableroBot, tmp_path: Path,
                 repository: Any) -> None:
        self.env = env
        self.bot = bot
        self.tmp_path = tmp_path
        self.repository = repository
        self.guild = env.create_guild("Board games")
        self.channel = self.guild.create_text_channel("games")
        self.alice = self.guild.add_member(env.create_user("alice"))
        self.bob = self.guild.add_member(env.create_user("bob"))
        self.carol = self.guild.add_member(env.create_user("carol"))
        self.dave = self.guild.add_member(env.create_user("dave"))

    @property
    def service(self) -> MatchService:
        return service_of(self.bot)


@pytest.fixture
async def repository(tmp_path: Path) -> AsyncIterator[Any]:
    repo = await make_repository(tmp_path / "tablero.db")
    yield repo
    await repo.close()


@pytest.fixture
def simcord_bot(tmp_path: Path, repository: Any) -> TableroBot:
    """The bot SimCord's ``simcord_env`` fixture runs (pytest plugin of simcord)."""
    return make_bot(tmp_path, repository)


def _size(file: Any) -> int:
    """The bytes of an upload (a ``discord.File``), leaving its stream where it was."""
    fp = file.fp
    at = fp.tell()
    fp.seek(0, 2)
    size = int(fp.tell())
    fp.seek(at)
    return size


@pytest.fixture(autouse=True)
def wire_contract(request: pytest.FixtureRequest,
                  monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """After every test that ran the bot, each request it sent keeps Discord's limits
    (bodies from SimCord's request log; uploads as SimCord's router receives them)."""
    if "simcord_env" not in request.fixturenames:
        yield
        return
    uploads: list[str] = []
    dispatch = simcord_router.dispatch

    def watched(backend: Any, method: str, path: str, **kwargs: Any) -> Any:
        sizes = [_size(f) for f in kwargs.get("files") or ()]
        uploads.extend(upload_violations(method, path, sizes))
        return dispatch(backend, method, path, **kwargs)

    monkeypatch.setattr(simcord_router, "dispatch", watched)
    env: simcord.Env = request.getfixturevalue("simcord_env")
    yield
    broken = [v for r in env.http_requests for v in violations(r.method, r.path, r.json)]
    broken += uploads
    assert not broken, "requests Discord would refuse:\n" + "\n".join(broken)


def pytest_configure(config: pytest.Config) -> None:
    """SimCord's pytest plugin (the ``simcord_env`` fixture, the ``simcord`` marker, the
    transcript of a failed test) is registered here, where the tests that use it are
    collected: its entry point is turned off for the suite (``-p no:simcord`` in
    pyproject's addopts), as importing it imports discord.py and aiohttp, 0.4 s of CPU
    in every test process (measured), the ones that run none of these tests included
    (pytest-xdist's controller, a run of other folders). Registered once, whichever way
    it was loaded."""
    import simcord.pytest_plugin as plugin

    if not config.pluginmanager.is_registered(plugin):
        config.pluginmanager.register(plugin, "simcord.pytest_plugin")


SETTLE_DEADLINE = 30.0
"""How long (wall-clock seconds) SimCord waits for the bot's work after an action before
failing, for every test here that does not say otherwise. SimCord's default, 5 s, was
met by a move's whole path on a quiet machine but not always on a loaded one (a full run
beside other work failed settles where the bot draws a board or asks the engine in an
executor). The deadline only bounds a wait: a test that settles is as fast as before,
and one that hangs fails after 30 s instead of 5."""


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    here = Path(__file__).parent
    for item in items:
        if here in item.path.parents and item.get_closest_marker("simcord") is None:
            item.add_marker(pytest.mark.simcord(settle_timeout=SETTLE_DEADLINE))


SETTLE_IDLE = 0.005
"""How often (seconds) SimCord's settle looks again at the bot's unfinished tasks.

SimCord waits for the bot's work after each action until every task it owns is finished
or parked on a recognised wait (a view's timeout, a ``tasks.loop``'s sleep, Discord's
rate limits, all in virtual time). It waits on those tasks with ``FIRST_COMPLETED``
and a timeout of ``idle`` (0.05 s by default), so a task that parks without finishing
(a view's new timeout task, the sweep loop going back to sleep) costs a whole ``idle``
of wall-clock time before it is seen parked: about 85 times in one match played to its
end. Looking more often changes nothing in what settles or when (the deadline is the
same, a task is parked or not whenever it is looked at) and only wins waiting: the
Discord tests in one process, 217 s -> 128 s of wall clock, the same CPU."""


@pytest.fixture(autouse=True)
def settle_often(monkeypatch: pytest.MonkeyPatch) -> None:
    """SimCord's settle with an ``idle`` of :data:`SETTLE_IDLE` (SimCord 3.2.1 has no
    setting for the settles its actions run, only ``Env.settle``'s own argument, so the
    one method they all go through is wrapped: if SimCord changes it, this fails loudly
    rather than doing nothing)."""
    settle = simcord.Env._settle_internal
    assert "idle" in inspect.signature(settle).parameters, "SimCord's settle changed"

    async def often(self: simcord.Env, *, idle: float = SETTLE_IDLE, **options: Any) -> None:
        await settle(self, idle=min(idle, SETTLE_IDLE), **options)

    monkeypatch.setattr(simcord.Env, "_settle_internal", often)


_TRANSLATED: dict[tuple[object, ...], str] = {}
"""Each command's translated payload (its JSON) as ``CommandTree.sync`` sent it, by the
command's untranslated payload and what translated it: see :func:`translated_once`."""

_SYNCING: ContextVar[bool] = ContextVar("syncing", default=False)


@pytest.fixture(autouse=True)
def translated_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every bot started here syncs its whole command tree, in every language, to SimCord
    (the start-up sync of ``bot.discordapp.sync``: a new SimCord and a new sync-state
    file each test). Translating the tree is the same work each time (about 40 commands
    times Discord's 30-odd locales, each string through the translator: measured, the
    setup of 34 tests 1.9 s -> 1.45 s of CPU with it done once). Inside
    ``CommandTree.sync`` a command's translated payload is therefore computed once per
    process and reused for a command whose untranslated payload (``to_dict``: its names,
    descriptions, options and choices, in English) and translator (its class and the
    functions it reads the catalogues with, which a test may patch) are the same: the
    same payload is sent and SimCord checks it as before. Outside a sync (the tests of
    the translator call ``get_translated_payload`` themselves) nothing is reused."""
    sync = app_commands.CommandTree.sync

    async def syncing(self: app_commands.CommandTree[Any], **options: Any) -> Any:
        token = _SYNCING.set(True)
        try:
            return await sync(self, **options)
        finally:
            _SYNCING.reset(token)

    monkeypatch.setattr(app_commands.CommandTree, "sync", syncing)
    for kind in (app_commands.Command, app_commands.Group, app_commands.ContextMenu):
        monkeypatch.setattr(kind, "get_translated_payload",
                            _translated_once(kind.get_translated_payload))


def _translated_once(translate: Any) -> Any:
    async def cached(self: Any, tree: app_commands.CommandTree[Any],
                     translator: app_commands.Translator) -> Any:
        if not _SYNCING.get():
            return await translate(self, tree, translator)
        key = (type(self), type(translator), locales.i18n.translations,
               vars(tree_translator)["translations"], tree_translator.localized,
               json.dumps(self.to_dict(tree), sort_keys=True))
        if key not in _TRANSLATED:
            _TRANSLATED[key] = json.dumps(await translate(self, tree, translator))
        return json.loads(_TRANSLATED[key])  # a copy: SimCord keeps what it is sent
    return cached


class _Inputs(pickle.Pickler):
    """A picture's inputs as bytes, each position as its whole game state (``to_text``,
    which ``variant.from_text`` reads back) rather than its object (whose caches vary)."""

    def persistent_id(self, obj: Any) -> Any:
        if isinstance(obj, Position):
            return type(obj).__qualname__, obj.to_text()
        return None


class Drawn:
    """Pictures by their inputs, at most ``room`` bytes of them (the oldest go first);
    the bot draws in threads (``asyncio.to_thread``), so one lock keeps the books."""

    def __init__(self, room: int) -> None:
        self.room = room
        self.size = 0
        self.pictures: dict[tuple[object, ...], Any] = {}
        self.lock = threading.Lock()

    def get(self, key: tuple[object, ...]) -> Any:
        with self.lock:
            return self.pictures.get(key)

    def put(self, key: tuple[object, ...], picture: Any) -> None:
        size = len(picture) if isinstance(picture, bytes) else len(picture.png)
        with self.lock:
            if key in self.pictures:
                return
            self.pictures[key] = picture
            self.size += size
            while self.size > self.room:
                oldest = self.pictures.pop(next(iter(self.pictures)))
                self.size -= len(oldest) if isinstance(oldest, bytes) else len(oldest.png)


_DRAWN = Drawn(room=96 * 1024**2)


@pytest.fixture(autouse=True)
def drawn_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """A picture (``render.draw_board``, ``render.replay_gif``: the board of every post,
    the replay of every finished match) is drawn once per process for the same inputs
    and reused after, as the same bytes and alt text. The tests play the same openings
    between the same players again and again: half the CPU time of drawing went to
    pictures drawn before (measured, the tests here in one process: 1581 boards and 131
    replays, 19 s of CPU, 9 s of it on pictures that process had drawn already).
    Every post still carries its picture, and the requests keep their sizes (the wire
    contract checks them). The inputs are every argument (positions by their game state),
    the words' context (command and people mentions, the console's syntax) and the
    catalogues' function (the pseudo-language tests patch it); inputs that do not pickle
    are drawn as they come. The pictures themselves are tested in tests/render."""
    for name in ("draw_board", "replay_gif"):
        monkeypatch.setattr(render, name, _drawn_once(getattr(render, name)))


def _drawn_once(draw: Any) -> Any:
    def cached(*args: Any, **kwargs: Any) -> Any:
        inputs = io.BytesIO()
        try:
            _Inputs(inputs, protocol=pickle.HIGHEST_PROTOCOL).dump(
                (args, sorted(kwargs.items()), locales.i18n._SYNTAX.get(),
                 locales.i18n._MENTIONS.get(), locales.i18n._PEOPLE.get()))
        except (pickle.PicklingError, TypeError, AttributeError):
            return draw(*args, **kwargs)
        key = (draw, locales.i18n.translations, inputs.getvalue())
        found = _DRAWN.get(key)
        if found is None:
            found = draw(*args, **kwargs)
            _DRAWN.put(key, found)
        return found
    return cached


@pytest.fixture(autouse=True)
def nonces(monkeypatch: pytest.MonkeyPatch) -> NonceLedger:
    """SimCord answers a post with an enforced nonce it has seen as Discord does: with
    the earlier message (``tests/discordapp/nonces.py``)."""
    ledger = NonceLedger()
    monkeypatch.setattr(simcord_router, "dispatch", ledger.wrap(simcord_router.dispatch))
    return ledger


@pytest.fixture
def world(simcord_env: simcord.Env, simcord_bot: TableroBot, tmp_path: Path,
          repository: Any) -> World:
    return World(simcord_env, simcord_bot, tmp_path, repository)
