"""Delivering outbox entries to Discord: the routes, the fallback ladder and which
failures are worth a retry.

The ladder always tries to reach the person:

* a post for the match goes to its thread; when the thread refuses (no permission,
  deleted) it goes to the thread's parent channel; an archived thread (50083) is first
  reopened (allowed when it is not locked, or with Manage Threads) and posted to again;
* when the match's place cannot be posted to at all, everyone the post was for is told
  by direct message, and the server learns which permission is missing: its Community
  Updates or System channel, else its owner by DM (once per channel and failure);
* a player who prefers DMs gets one; when it is refused (50007, DMs closed) he is
  mentioned in the match's place instead, the refusal is stored, and the next time he
  uses a command he is told, ephemerally, that his DMs are closed.

Failures are sorted by :func:`retry_of`: rate limits (429, honouring ``retry_after``),
server errors (5xx), timeouts and lost connections are transient: the delivery raises
``Retry`` and the relay tries again, skipping the steps that already went out (a
:class:`Progress` per entry). Everything else is permanent for that route: the ladder
moves on, logged once. Mentions are ``<@id>`` and DMs are opened with the id alone:
no user is fetched to reach him.

Every message an entry sends carries a nonce derived from the entry, the step and where it
goes (:func:`nonce_of`), which discord.py sends with ``enforce_nonce``: when a crash falls
between Discord accepting a post and the entry's deletion, the redelivery after the restart
is answered with the message already posted (within Discord's few minutes), not a second.
Later than that (``NONCE_TRUSTED``), an entry that may have gone out is delivered with a
look first: each post is looked for among the messages that followed the entry in its
channel (:meth:`Routes.posted`: one history request per post, never on the normal path)
and, found, taken as made.
"""

from __future__ import annotations

import asyncio
import hashlib
import io
import json
import logging
import time
from collections.abc import Awaitable, Callable, Sequence
from contextvars import ContextVar
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from functools import partial
from typing import Any

import aiohttp
import discord

from bot.discordapp.cards import with_words, words_of
from bot.discordapp.mentions import CommandIds, cut, mentioning, plain_commands
from bot.discordapp.permissions import (
    POSTING_PERMISSIONS,
    THREAD_POSTING_PERMISSIONS,
    missing_permissions,
)
from bot.ops.logs import log_context
from bot.ops.metrics import Metrics
from locales.i18n import Words, _, command, listing, negotiate, people_mentions, render
from locales.terms import permission_name
from service import MatchView
from service.deliveries import DeliveryFacts
from service.outbox import LIVE_GRACE, RETRIED, Retry
from service.records import OutboxEntry, PostedMessage
from service.shards import shard_of

log = logging.getLogger("tablero.discord")

DMS_CLOSED = 50007
ARCHIVED_THREAD = 50083
SNOWFLAKE_MIN = 1 << 22
"""Any Discord id is at least this (a timestamp in its high bits): entries of guilds
below it are the console's, delivered by the console."""

DMS_CLOSED_NOTICE = _(
    "I could not send you a direct message: your DMs are closed to me (Discord's privacy "
    "settings for this server). I mention you in the match's thread instead; open your "
    "DMs, or choose mentions with {notify}.", notify=command("notify"))


def naming(user_id: int, said: str) -> str:
    """``said`` as a post in a match's place that mentions ``user_id`` (his DMs are
    closed): his mention before it, unless it names him already (a challenge's
    ``@bob: @alice challenges you``), never twice.

    >>> naming(7, "Your move."), naming(7, "<@7>: alice challenges you.")
    ('<@7> Your move.', '<@7>: alice challenges you.')
    """
    return said if f"<@{user_id}>" in said else f"<@{user_id}> {said}"


LOCALE_TTL = 60.0
"""Seconds a server's thread language is trusted before it is read again (another process
may have changed it with ``/settings language``)."""


def is_discord_entry(entry: OutboxEntry) -> bool:
    """Whether the Discord bot delivers ``entry`` (its guild is a Discord guild)."""
    return entry.guild_id >= SNOWFLAKE_MIN


CONTAINER = 17
TEXT_DISPLAY = 10
"""Discord's component types (a Components V2 container, a text display)."""
COMPONENTS_V2 = 1 << 15
"""The message flag of a Components V2 layout."""

LAYOUT = "\x1elayout:"
"""How a remembered post (``PostedMessage.content``) that keeps its components when
closed starts: JSON of its closed form follows (:func:`remembered_layout`)."""


def remembered_layout(components: Sequence[dict[str, Any]], content: str | None,
                      opened: Sequence[dict[str, Any]] | None = None) -> str:
    """What to remember of a post whose buttons go once its question is settled, to
    close it without reading it back: ``components``, the message's components without
    its question's buttons (a card's container, a link); ``content``, its words (None:
    a Components V2 card, whose words are in the card); ``opened``, its components with
    the buttons, for a post whose question may be asked again after it was closed (a
    result's "Rematch" comes back when the rematch is withdrawn: ``Routes.reopen_post``)."""
    data: dict[str, Any] = {"components": list(components), "content": content}
    if opened is not None:
        data["opened"] = list(opened)
    return LAYOUT + json.dumps(data, separators=(",", ":"))


def reopenable(post: PostedMessage) -> bool:
    """Whether ``post`` was remembered with its buttons (:func:`remembered_layout`'s
    ``opened``), so that :meth:`Routes.reopen_post` can give them back.

    >>> reopenable(PostedMessage(1, 2, "en-US", remembered_layout([], "Won.", [])))
    True
    >>> reopenable(PostedMessage(1, 2, "en-US", remembered_layout([], "Won.")))
    False
    >>> reopenable(PostedMessage(1, 2, "en-US", "Draw offered."))
    False
    """
    return post.content.startswith(LAYOUT) and \
        "opened" in json.loads(post.content[len(LAYOUT):])


def _noted(words: str, note: str) -> str:
    """A closed post's ``words`` with ``note`` on a line under them, within Discord's
    2000 characters: the words are cut, never the note."""
    kept = cut(words, 2000 - len(note) - 1)
    return f"{kept}\n{note}" if kept else note


def _closed_layout(remembered: str, note: str | None) -> dict[str, Any]:
    """The edit that closes a post remembered by :func:`remembered_layout`: its
    components without the buttons; ``note`` under its words (a card: a last text in
    its container, before its footer)."""
    data = json.loads(remembered[len(LAYOUT):])
    components: list[dict[str, Any]] = data["components"]
    content: str | None = data["content"]
    payload: dict[str, Any] = {"components": components,
                               "allowed_mentions": {"parse": []}}
    if content is None:  # a card stays one (the flag cannot be taken off a message)
        payload["flags"] = COMPONENTS_V2
    if note is None:
        return payload
    if content is not None:
        payload["content"] = _noted(content, note)
        return payload
    container = next((c for c in components if c.get("type") == CONTAINER), None)
    if container is not None:
        inside: list[dict[str, Any]] = container.setdefault("components", [])
        footer = len(inside) - 1 if inside and inside[-1].get("type") == TEXT_DISPLAY \
            and str(inside[-1].get("content", "")).startswith("-# ") else len(inside)
        inside.insert(footer, {"type": TEXT_DISPLAY, "content": note[:500]})
    return payload


def retry_of(error: BaseException) -> Retry | None:
    """A ``Retry`` when ``error`` is transient (rate limit, server error, timeout, lost
    connection), else None (permanent for that route).

    >>> retry_of(discord.RateLimited(7.5)).after
    7.5
    >>> retry_of(ConnectionResetError()).after is None
    True
    >>> retry_of(ValueError("no")) is None
    True
    """
    if isinstance(error, discord.RateLimited):
        return Retry(error.retry_after, "rate limited")
    if isinstance(error, discord.HTTPException):
        if error.status == 429:
            header = error.response.headers.get("Retry-After")
            try:
                return Retry(float(header) if header is not None else None, "rate limited")
            except ValueError:
                return Retry(None, "rate limited")
        if error.status >= 500:
            return Retry(None, f"Discord error {error.status}")
        return None
    if isinstance(error, aiohttp.ClientError | OSError | asyncio.TimeoutError):
        return Retry(None, f"connection: {type(error).__name__}")
    return None


def failure_kind(error: BaseException) -> str:
    """What kind of failure a post met, for the metrics: ``rate_limited``,
    ``server_error``, ``connection`` (retried), ``dms_closed``, ``archived``,
    ``forbidden``, ``not_found`` or ``other`` (the ladder moves on).

    >>> failure_kind(discord.RateLimited(1.0)), failure_kind(TimeoutError())
    ('rate_limited', 'connection')
    """
    if isinstance(error, discord.RateLimited):
        return "rate_limited"
    if isinstance(error, discord.HTTPException):
        if error.status == 429:
            return "rate_limited"
        if error.status >= 500:
            return "server_error"
        if error.code == DMS_CLOSED:
            return "dms_closed"
        if error.code == ARCHIVED_THREAD:
            return "archived"
        if isinstance(error, discord.Forbidden):
            return "forbidden"
        if isinstance(error, discord.NotFound):
            return "not_found"
        return "other"
    if isinstance(error, aiohttp.ClientError | OSError | asyncio.TimeoutError):
        return "connection"
    return "other"


def _what(error: BaseException) -> str:
    if isinstance(error, discord.HTTPException):
        text = error.text or error.response.reason
        return f"{error.status} {text} (code {error.code})"
    return type(error).__name__


NONCE_LENGTH = 25
"""Discord takes a nonce of at most 25 characters."""


def entry_identity(entry: OutboxEntry) -> str:
    """What names ``entry`` in every process and after every restart: its id with the
    change that wrote it and when (a fresh database reusing the id is another entry)."""
    return (f"{entry.id}:{entry.match_id}:{entry.version}:{entry.n}:{entry.kind}:"
            f"{entry.created_at.isoformat()}")


def nonce_of(identity: str, step: str, destination: object) -> str:
    """The nonce of one message: the same for the same entry, step and destination (a
    channel, or ``dm:USER``) in every delivery of it, distinct for any other message, so
    Discord deduplicates exactly the redeliveries, whether it scopes nonces by channel or
    by author alone.

    >>> a = nonce_of("7:1:2:0:turn:2026-01-01T00:00:00+00:00", "post:place", 42)
    >>> len(a), a == nonce_of("7:1:2:0:turn:2026-01-01T00:00:00+00:00", "post:place", 42)
    (25, True)
    >>> a == nonce_of("7:1:2:0:turn:2026-01-01T00:00:00+00:00", "post:place", 43)
    False
    """
    digest = hashlib.sha256(f"{identity}\x1f{step}\x1f{destination}".encode()).hexdigest()
    return digest[:NONCE_LENGTH]


NONCE_TRUSTED = timedelta(seconds=60)
"""How long Discord surely answers a repeated nonce with the message it made (it says "a
few minutes"): an entry delivered again within this of its making needs nothing more."""
HISTORY_LOOK = 50
"""How many messages after an entry's making are read (one request) to find its posts
when it is delivered again later than :data:`NONCE_TRUSTED` (:meth:`Routes.posted`)."""
CLOCK_SLACK = timedelta(seconds=5)
"""How much earlier than an entry's making its post is looked for (the database's clock
and Discord's may differ by that much)."""


@dataclass
class Progress:
    """What already went out for one entry, kept across retries so a retry never posts
    a step twice: step key -> the message (None when that route reached nobody).
    ``identity``: the entry's (``entry_identity``), from which its nonces are made;
    ``since``: when it was made, for an entry whose posts may have gone out beyond
    Discord's nonce window (a redelivery after a long stop): its posts are looked for
    in their channel from then on before they are made (None: the nonce suffices)."""

    identity: str = ""
    done: dict[str, Any] = field(default_factory=dict)
    since: datetime | None = None


_progress: ContextVar[Progress | None] = ContextVar("tablero_delivery", default=None)
_current_step: ContextVar[str | None] = ContextVar("tablero_delivery_step", default=None)


def current_nonce(destination: object) -> str | None:
    """The nonce of a message to ``destination`` sent by the step running now; None
    outside an entry's delivery (nothing to deduplicate against)."""
    progress, step = _progress.get(), _current_step.get()
    if progress is None or step is None or not progress.identity:
        return None
    return nonce_of(progress.identity, step, destination)


def looked_for_since() -> datetime | None:
    """For a step of an entry that may already have posted beyond the nonce window:
    since when its posts are looked for (``Progress.since``); None otherwise."""
    progress = _progress.get()
    return None if progress is None else progress.since


def button_ids(components: Sequence[Any]) -> list[str]:
    """The custom ids of the buttons among ``components`` (a message's, nested in rows,
    containers and sections), in order: what a post's buttons act on (the match and
    ply: ``components.MatchButton``)."""
    found: list[str] = []
    for c in components:
        if isinstance(c, discord.components.Button) and c.custom_id is not None:
            found.append(c.custom_id)
        elif isinstance(c, discord.components.ActionRow | discord.components.Container):
            found += button_ids(c.children)
        elif isinstance(c, discord.components.SectionComponent):
            found += button_ids([*c.children, c.accessory])
    return found


def view_button_ids(view: Any) -> list[str]:
    """The custom ids of the buttons of a view about to be sent, as :func:`button_ids`
    reads them back from the message."""
    if not isinstance(view, discord.ui.View | discord.ui.LayoutView):
        return []
    found: list[str] = []
    for item in view.walk_children():
        if isinstance(item, discord.ui.DynamicItem):  # a match button (its template)
            item = item.item
        if isinstance(item, discord.ui.Button) and item.url is None \
                and item.custom_id is not None:
            found.append(item.custom_id)
    return found


def _nonce_kwargs(destination: object) -> dict[str, Any]:
    nonce = current_nonce(destination)
    return {} if nonce is None else {"nonce": nonce}  # discord.py adds enforce_nonce


@dataclass(frozen=True)
class DeliveryOptions:
    """How hard and how often the outbox is delivered (tests pass tiny delays and a
    recording ``sleep``)."""

    backoff: float = 1.0
    max_backoff: float = 300.0
    poll_seconds: float = 60.0
    live_grace: timedelta = LIVE_GRACE
    sleep: Callable[[float], Awaitable[None]] = asyncio.sleep
    flush_seconds: float = 9.0  # within the stopping bot's 10 s (DeliveriesCog)


class Attachment:
    """A file to post, kept as bytes: discord.py closes a ``discord.File`` once sent,
    and a post may be tried on several routes."""

    def __init__(self, file: discord.File) -> None:
        self.data = file.fp.read()
        self.filename = file.filename
        self.description = file.description

    def fresh(self) -> discord.File:
        return discord.File(io.BytesIO(self.data), filename=self.filename,
                            description=self.description)


DmAsked = Callable[[int, discord.Message, str], Awaitable[None]]
"""What :meth:`Routes.post` hands each DM it sent with buttons to: the user, the message
and its language (the notifier remembers it, to close it once answered)."""


class Routes:
    """Posts for a match with the fallback ladder (see the module docstring)."""

    def __init__(self, client: discord.Client, facts: DeliveryFacts,
                 metrics: Metrics | None = None, command_ids: CommandIds | None = None
                 ) -> None:
        self.client = client
        self.command_ids = command_ids  # the commands' ids: posts mention them
        self.facts = facts  # storage's answers, through the core
        self.metrics = metrics  # posts by route, failures by kind
        self._dms_closed: set[int] = set()  # refused this run (also stored)
        self.untold: set[int] = set()  # refused and not yet told (loaded at start)
        self._logged: set[tuple[object, ...]] = set()
        self._admins_told: set[tuple[int, str]] = set()
        # guild -> (read at, its thread language, takebacks allowed in rated games)
        self._places: dict[int, tuple[float, str, bool]] = {}

    # ------------------------------------------------------------------ progress

    async def delivering(self, entry: OutboxEntry, work: Awaitable[None],
                         progress: dict[int, Progress], *, repeat: bool = False) -> None:
        """Run ``work`` (the posts of one entry) with its progress (``progress``: entry
        id -> what already went out). It is kept only when the relay will call again with
        the same entry (a failure in ``RETRIED``), so the retry skips those steps; done,
        dropped (any other failure) or cancelled, it is forgotten. A progress kept under
        the id of another entry (another identity) is not this entry's: it starts anew.
        ``repeat``: its posts may have gone out already (``OutboxRelay.may_be_out``);
        when it was made longer ago than Discord surely keeps nonces, each post is
        first looked for in its channel (:meth:`posted`)."""
        identity = entry_identity(entry)
        kept = progress.get(entry.id)
        if kept is None or kept.identity != identity:
            kept = progress[entry.id] = Progress(identity)
        if repeat and discord.utils.utcnow() - entry.created_at >= NONCE_TRUSTED:
            kept.since = entry.created_at
        token = _progress.set(kept)
        again = False
        try:
            with log_context(match=entry.match_id, server=entry.guild_id,
                             shard=self._shard_of(entry.guild_id)), \
                    mentioning(self.command_ids, entry.guild_id):
                await work
        except RETRIED:
            again = True
            raise
        finally:
            _progress.reset(token)
            if not again:
                progress.pop(entry.id, None)

    def _shard_of(self, guild_id: int) -> int | None:
        count = self.client.shard_count
        return shard_of(guild_id, count) if count else None

    def _delivered(self, route: str) -> None:
        if self.metrics is not None:
            self.metrics.delivered(route)

    def _failed(self, error: BaseException) -> None:
        if self.metrics is not None:
            self.metrics.delivery_failed(failure_kind(error))

    async def _step(self, key: str, work: Callable[[], Awaitable[Any]]) -> Any:
        progress = _progress.get()
        if progress is not None and key in progress.done:
            return progress.done[key]
        token = _current_step.set(key)
        try:
            result = await work()
        finally:
            _current_step.reset(token)
        if progress is not None:
            progress.done[key] = result
        return result

    def log_once(self, key: tuple[object, ...], message: str, *args: object) -> None:
        if key not in self._logged:
            self._logged.add(key)
            log.warning(message, *args)

    def _unless_retried(self, error: Exception) -> None:
        """A request that failed: counted, and raised again as ``Retry`` when it is
        worth trying again; else it returns, for the caller to log it once and leave
        it."""
        self._failed(error)
        retry = retry_of(error)
        if retry is not None:
            raise retry from error

    # ------------------------------------------------------------------ languages

    async def place_locale(self, guild_id: int) -> str:
        """The language of a server's match threads: its ``/settings language``, else
        the server's preferred locale in Discord, else the default. Read at most once a
        minute per server (``forget_place`` when this process changes it)."""
        return (await self._place(guild_id))[0]

    async def takebacks_in_rated(self, guild_id: int) -> bool:
        """Whether a server's rated games allow takebacks (``/settings
        takebacks_rated``), read with its language (at most once a minute)."""
        return (await self._place(guild_id))[1]

    async def _place(self, guild_id: int) -> tuple[str, bool]:
        now = time.monotonic()
        known = self._places.get(guild_id)
        if known is not None and now - known[0] < LOCALE_TTL:
            return known[1], known[2]
        place = await self.facts.place_settings(guild_id)
        if place.language:
            chosen = negotiate(place.language)
        else:
            guild = self.client.get_guild(guild_id)
            chosen = negotiate(str(guild.preferred_locale) if guild is not None else None)
        self._places[guild_id] = (now, chosen, place.takebacks_rated)
        return chosen, place.takebacks_rated

    def forget_place(self, guild_id: int) -> None:
        """The server's settings changed (``/settings language`` or
        ``takebacks_rated``): read them again."""
        self._places.pop(guild_id, None)

    async def user_locale(self, user_id: int) -> str:
        """The language of a DM to ``user_id``: the locale he was last seen with."""
        return negotiate(await self.facts.user_locale(user_id))

    async def for_dm(self, user_id: int, text: Words) -> str:
        """``text`` as a DM to ``user_id`` says it: in his language, its commands by
        name (no mention: they run in servers only, ``mentions``); a person whose name
        nobody has seen by his mention, which a DM shows as his name."""
        locale = await self.user_locale(user_id)
        with plain_commands(), people_mentions():
            return render(text, locale)

    # ------------------------------------------------------------------ the ladder

    async def post(self, m: MatchView, content: Words, *, ping: Sequence[int] = (),
                   dm: Sequence[int] = (), dm_note: Words | None = None,
                   closed_note: Callable[[int], Words] | None = None,
                   audience: Sequence[int] = (), step: str = "post",
                   dm_view: Callable[[str], discord.ui.View] | None = None,
                   dm_asked: DmAsked | None = None,
                   **kwargs: Any) -> discord.Message | None:
        """A new message in the match's place mentioning ``ping``; ``dm`` get
        ``dm_note`` privately with a link. One of ``dm`` whose DMs turn out closed
        (refused now: those known closed are mentioned in the post itself) gets one short
        reply to the post in the place that mentions him: ``closed_note(user)`` (which
        names him), else ``dm_note`` after his mention, else "the message above is for
        you"; never the post's words a second time. ``audience``: who must learn it when the
        place cannot be posted to (besides ``ping`` and ``dm``). The place's words are
        in its server's language, each DM in its reader's. So are the commands a post
        names (``locales.i18n.Command``): a post is read by several people, each Discord
        in its own language, and it names them as the rest of it speaks, the server's
        thread language (one language per post; a DM names its reader's).
        ``dm_view``: the buttons a DM carries too, labelled in its reader's language (a
        challenge's Accept and Decline); each DM sent with them is handed to
        ``dm_asked`` (the user, the message, its language), to be closed once answered."""
        place = await self.place_locale(m.guild_id)
        file = kwargs.pop("file", None)
        attachment = Attachment(file) if isinstance(file, discord.File) else None
        closed = [u for u in dm if u in self._dms_closed]  # known: mention them at once
        ping = [*ping, *closed]
        dm = [u for u in dm if u not in closed]
        said = render(content, place)
        unnamed = [u for u in closed if f"<@{u}>" not in said]  # pinged, named once
        mentioned = said if not unnamed else \
            f"{said}\n{' '.join(f'<@{u}>' for u in unnamed)}"
        message: discord.Message | None = await self._step(
            f"{step}:place", lambda: self.to_place(m, mentioned, ping, attachment, kwargs))
        link = f" {message.jump_url}" if message is not None else ""
        note = dm_note or content
        for u in dm:
            theirs = await self.for_dm(u, note)
            loc = await self.user_locale(u) if dm_view is not None else ""
            view = dm_view(loc) if dm_view is not None else None
            sent_dm: discord.Message | None = await self._step(
                f"{step}:dm:{u}", partial(self.direct_message, u, f"{theirs}{link}",
                                          view=view))
            sent = sent_dm is not None
            if sent_dm is not None and view is not None and dm_asked is not None:
                await dm_asked(u, sent_dm, loc)
            if not sent and message is not None:  # DMs closed: a reply that mentions him
                short = closed_note(u) if closed_note is not None else \
                    dm_note if dm_note is not None else \
                    _("{player}, the message above is for you.", player=f"<@{u}>")
                await self._step(f"{step}:mention:{u}", partial(
                    self.to_place, m, naming(u, render(short, place)), [u], None,
                    {"reference": message.to_reference(fail_if_not_exists=False)}))
        if message is None:  # the place refused: everyone it was for hears it privately
            instead = _("{message}\n(Match {match}: I cannot post in its channel right now; "
                        "the server's admins have been told.)", message=content, match=m.id)
            for u in dict.fromkeys([*ping, *audience]):
                if u not in dm:
                    await self._step(f"{step}:instead:{u}", partial(
                        self.direct, u, await self.for_dm(u, instead)))
        return message

    async def to_place(self, m: MatchView, content: str, ping: Sequence[int],
                       attachment: Attachment | None, kwargs: dict[str, Any]
                       ) -> discord.Message | None:
        """Post in the thread, else its parent channel; None when neither takes it."""
        routes = [(m.thread_id, True)] if m.thread_id else []
        routes.append((m.channel_id, False))
        for target, is_thread in routes:
            route = "thread" if is_thread else "channel"
            try:
                return await self._sent(route, self._send(target, content, ping, attachment,
                                                          kwargs))
            except Exception as error:
                failure = error
                self._failed(error)
                if retry_of(error) is not None:
                    raise retry_of(error) from error  # type: ignore[misc]
            if is_thread and isinstance(failure, discord.HTTPException) \
                    and failure.code == ARCHIVED_THREAD and await self._reopen(target):
                try:
                    return await self._sent(route, self._send(target, content, ping,
                                                              attachment, kwargs))
                except Exception as error:
                    self._failed(error)
                    if retry_of(error) is not None:
                        raise retry_of(error) from error  # type: ignore[misc]
                    failure = error
            await self._refused(m, target, is_thread, failure)
        return None

    async def _sent(self, route: str, sending: Awaitable[discord.Message]
                    ) -> discord.Message:
        message = await sending
        self._delivered(route)
        return message

    async def _send(self, target: int, content: str, ping: Sequence[int],
                    attachment: Attachment | None, kwargs: dict[str, Any]
                    ) -> discord.Message:
        found = self.client.get_channel(target)
        channel: discord.abc.Messageable = (
            found if isinstance(found, discord.TextChannel | discord.Thread)
            else self.client.get_partial_messageable(target))
        extra = {**kwargs, **_nonce_kwargs(target)}
        if attachment is not None:
            extra["file"] = attachment.fresh()
        words = cut(content, 2000)
        said: str | None = words
        since = looked_for_since()
        if since is not None:
            already = await self.posted(channel, target, since, words,
                                        view_button_ids(extra.get("view")))
            if already is not None:
                return already
        if isinstance(extra.get("view"), discord.ui.LayoutView):
            # a Components V2 card holds no content: its words go in the card, where
            # their mentions notify the same way (issue 42)
            extra["view"], said = with_words(extra["view"], content), None
        return await channel.send(
            said, allowed_mentions=discord.AllowedMentions(
                users=[discord.Object(u) for u in ping], everyone=False, roles=False),
            **extra)

    async def posted(self, channel: discord.abc.Messageable, place: object,
                     since: datetime, words: str, buttons: Sequence[str]
                     ) -> discord.Message | None:
        """The bot's own post of the entry being delivered again, if it went out before
        (a process died after Discord took it and before the entry was deleted, longer
        ago than Discord's nonces hold): the latest message of the bot in ``channel``
        (``place`` names it in the log) made since ``since`` that says ``words`` (its
        content, or a card's words) with the buttons ``buttons`` (their custom ids name
        the match and ply), among the first :data:`HISTORY_LOOK` messages after
        ``since``: one request. Nothing users see marks a post; what it says and acts on
        is its mark. None when there is none (it is posted), or the history cannot be
        read (logged once: posting again is better than not at all); transient failures
        raise ``Retry``."""
        if not words.strip() or self.client.user is None:
            return None
        mine, found = self.client.user.id, None
        after = discord.Object(discord.utils.time_snowflake(since - CLOCK_SLACK))
        try:
            async for message in channel.history(limit=HISTORY_LOOK, after=after):
                said = message.content or words_of(message)
                if message.author.id == mine and said.strip() == words.strip() \
                        and button_ids(message.components) == list(buttons):
                    found = message
        except Exception as error:
            self._unless_retried(error)
            self.log_once(("history", place), "cannot read the history of %s: %s", place,
                          _what(error))
            return None
        if found is not None:
            log.info("found post %s already made; not posted again", found.id)
        return found

    async def _reopen(self, thread_id: int) -> bool:
        """Unarchive a thread (posting to it then works); False when not allowed."""
        try:
            await self.client.http.edit_channel(thread_id, archived=False)
        except Exception as error:
            if retry_of(error) is not None:
                raise retry_of(error) from error  # type: ignore[misc]
            self.log_once(("reopen", thread_id), "cannot reopen archived thread %s: %s",
                          thread_id, _what(error))
            return False
        return True

    async def close_post(self, post: PostedMessage, note: str | None) -> bool:
        """Close a post that asked a question with buttons: its buttons removed and
        ``note`` (what became of it; None: nothing to add) added under its words, which
        stay as they were. A post remembered with its layout (:func:`remembered_layout`:
        a turn's card, a claim-win card, a result) keeps the rest of it (its card, its
        "Open on the web" link) and gets only its components (and the note) sent: one
        small edit, no upload. An edit is the same whenever it is made again (a retry, a
        redelivery after a restart). Transient failures raise ``Retry``; a post that is
        gone or may no longer be edited is logged once and left (False): it must not
        hold up the outbox."""
        try:
            if post.content.startswith(LAYOUT):
                await self.client.http.request(discord.http.Route(
                    "PATCH", "/channels/{channel_id}/messages/{message_id}",
                    channel_id=post.channel_id, message_id=post.message_id),
                    json=_closed_layout(post.content, note))
            else:
                message = self.client.get_partial_messageable(
                    post.channel_id).get_partial_message(post.message_id)
                await message.edit(content=_noted(post.content, note or ""), view=None,
                                   allowed_mentions=discord.AllowedMentions.none())
        except Exception as error:
            self._unless_retried(error)
            self.log_once(("close", post.message_id), "cannot close post %s in %s: %s",
                          post.message_id, post.channel_id, _what(error))
            return False
        return True

    async def reopen_post(self, post: PostedMessage) -> bool:
        """Undo :meth:`close_post` on a post remembered with its buttons
        (:func:`remembered_layout`'s ``opened``): its buttons back and its words as they
        were posted, the closing line gone. False when it was remembered without them
        (nothing to do) or cannot be edited (logged once, left); transient failures
        raise ``Retry``."""
        if not reopenable(post):
            return False
        data = json.loads(post.content[len(LAYOUT):])
        payload: dict[str, Any] = {"components": data["opened"],
                                   "allowed_mentions": {"parse": []}}
        if data["content"] is None:
            payload["flags"] = COMPONENTS_V2
        else:
            payload["content"] = data["content"]
        try:
            await self.client.http.request(discord.http.Route(
                "PATCH", "/channels/{channel_id}/messages/{message_id}",
                channel_id=post.channel_id, message_id=post.message_id), json=payload)
        except Exception as error:
            self._unless_retried(error)
            self.log_once(("reopen-post", post.message_id), "cannot reopen post %s in %s: %s",
                          post.message_id, post.channel_id, _what(error))
            return False
        return True

    async def privately(self, m: MatchView, users: Sequence[int], text: Words,
                        step: str = "private") -> None:
        """``text`` to each of ``users`` by DM, in his own language; one whose DMs are
        closed is mentioned in the match's place instead (in the place's language: a
        mention in a thread adds him to it)."""
        for u in users:
            sent = u not in self._dms_closed and await self._step(
                f"{step}:dm:{u}", partial(self.direct, u, await self.for_dm(u, text)))
            if not sent:
                said = render(text, await self.place_locale(m.guild_id))
                await self._step(f"{step}:mention:{u}", partial(
                    self.to_place, m, naming(u, said), [u], None, {}))

    async def dm(self, user_id: int, text: str, attachment: Attachment | None = None,
                 step: str = "dm") -> bool:
        """``direct`` as one step of the entry being delivered (a retry skips it once
        sent)."""
        sent: bool = await self._step(f"{step}:{user_id}", partial(
            self.direct, user_id, text, attachment))
        return sent

    async def direct(self, user_id: int, text: str,
                     attachment: Attachment | None = None) -> bool:
        """A DM (with ``attachment``, a fresh copy at each try); False when it is refused
        for good (DMs closed: remembered; the user left or is unknown: logged once)."""
        return await self.direct_message(user_id, text, attachment) is not None

    async def direct_message(self, user_id: int, text: str,
                             attachment: Attachment | None = None, *,
                             view: discord.ui.View | None = None
                             ) -> discord.Message | None:
        """:meth:`direct` with ``view`` (buttons that work from the DM); the message
        sent (or found already sent), None when it is refused for good."""
        try:
            channel = await self.client.create_dm(discord.Object(user_id))
            extra: dict[str, Any] = {} if attachment is None else {"file": attachment.fresh()}
            if view is not None:
                extra["view"] = view
            since = looked_for_since()
            message = None if since is None else await self.posted(
                channel, f"dm:{user_id}", since, cut(text, 2000), view_button_ids(view))
            if message is None:
                message = await channel.send(cut(text, 2000),
                                             **_nonce_kwargs(f"dm:{user_id}"), **extra)
        except Exception as error:
            self._failed(error)
            retry = retry_of(error)
            if retry is not None:
                raise retry from error
            if isinstance(error, discord.HTTPException) and error.code == DMS_CLOSED:
                if user_id not in self._dms_closed:
                    self._dms_closed.add(user_id)
                    self.untold.add(user_id)
                    await self.facts.set_dms_closed(user_id, True)
                self.log_once(("dm", user_id), "user %s does not take DMs (50007); "
                              "mentioned instead", user_id)
            else:
                self.log_once(("dm", user_id), "cannot DM user %s: %s", user_id,
                              _what(error))
            return None
        self._delivered("dm")
        if user_id in self._dms_closed:
            self._dms_closed.discard(user_id)
            await self.facts.set_dms_closed(user_id, False)
        return message

    # ------------------------------------------------------------------ telling admins

    async def _refused(self, m: MatchView, target: int, is_thread: bool,
                       error: BaseException) -> None:
        """A route of the match refused a post: log it once and tell the server which
        permission is missing (or that the channel is gone), once."""
        reason = self._reason(m, target, is_thread, error)
        english = render(reason, "en-US")
        self.log_once(("place", target, english), "match %s: cannot post in %s: %s",
                      m.id, target, english)
        if (target, english) in self._admins_told:
            return
        self._admins_told.add((target, english))
        said = _("Tablero cannot post in <#{channel}> (match {match}): {reason}. Until this is "
                 "fixed, players are told another way (the parent channel or a direct "
                 "message).", channel=target, match=m.id, reason=reason)
        guild = self.client.get_guild(m.guild_id)
        if guild is None:
            return
        text = render(said, await self.place_locale(m.guild_id))
        try:
            for channel in (guild.public_updates_channel, guild.system_channel):
                if channel is not None and channel.id not in (target, m.channel_id) and \
                        not missing_permissions(channel.permissions_for(guild.me),
                                                POSTING_PERMISSIONS):
                    await channel.send(text, allowed_mentions=discord.AllowedMentions.none(),
                                       **_nonce_kwargs(f"admins:{channel.id}"))
                    self._delivered("admins")
                    return
            if guild.owner_id is not None:
                owner = await self.client.create_dm(discord.Object(guild.owner_id))
                await owner.send(text, **_nonce_kwargs(f"admins:dm:{guild.owner_id}"))
                self._delivered("admins")
        except Exception as error:  # best effort: the players were told already
            self._failed(error)
            self.log_once(("admins", guild.id), "cannot tell the admins of %s: %s",
                          guild.id, _what(error))

    def _reason(self, m: MatchView, target: int, is_thread: bool,
                error: BaseException) -> Words:
        if isinstance(error, discord.NotFound):
            return _("the channel is gone (deleted, or hidden from Tablero)")
        channel = self.client.get_channel(target)
        if isinstance(channel, discord.abc.GuildChannel | discord.Thread) and \
                channel.guild.me is not None:
            missing = missing_permissions(
                channel.permissions_for(channel.guild.me),
                THREAD_POSTING_PERMISSIONS if is_thread else POSTING_PERMISSIONS)
            if missing:
                return _("it lacks {permissions}", permissions=listing(
                    permission_name(p) for p in missing))
        if isinstance(error, discord.HTTPException) and error.code == ARCHIVED_THREAD:
            return _("the thread is archived and locked (it needs Manage Threads to reopen)")
        return _("Discord refused: {error}", error=_what(error))

