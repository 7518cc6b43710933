"""The web adapter's server (aiohttp, installed with discord.py): routes, security headers,
plain error pages and live updates.

Routes: ``/`` what these pages are (a match's page is reached by its link, from ``/web``
in Discord), ``/m/{token}`` a match page (``?ply=N`` a ply of it, ``?lang=`` a language),
``/m/{token}/board/{ply}.png`` its board after ``ply`` plies (``?seat=N``: seen from
seat N), ``/m/{token}/record.wxf`` / ``.pdn`` its record in its game's format,
``/m/{token}/events``
server-sent events (``change`` with the match's version when it changed), ``/static/``
our style sheet and script, ``/healthz``. Every response carries a strict
Content-Security-Policy (our own origin only: no third-party request is possible); every
failure is a plain page (404 for anything that is not a genuine link to a match of a
server with the web on, whatever the reason), never a trace.
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import logging
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from importlib import resources
from urllib.parse import quote, urlencode

from aiohttp import web

from bot.ops.metrics import Metrics
from bot.ops.server import Operations
from bot.web.community import member_page, server_page
from bot.web.links import LinkSigner, PlayerPass
from bot.web.pages import (
    FORM_KB,
    SAME_ADDRESS,
    Steppers,
    error_page,
    home_page,
    match_page,
    play_section,
    setup_section,
    turn_words,
)
from bot.web.taps import board_taps, setup_taps
from locales.i18n import LOCALES, Words, _, negotiate
from locales.rules_words import rules_words
from rules import RulesError
from service import MatchService
from service.errors import MatchNotFound, ServiceError, StorageError, StorageUnavailable
from service.views import Caller
from service.web import SPECTATOR, WebLinkRevoked, WebMatch

log = logging.getLogger(__name__)

CSP = ("default-src 'none'; img-src 'self'; style-src 'self'; script-src 'self'; "
       "font-src 'self'; connect-src 'self'; base-uri 'none'; form-action 'self'; "
       "frame-ancestors 'none'")
HEADERS = {"Content-Security-Policy": CSP, "X-Content-Type-Options": "nosniff",
           "Referrer-Policy": "same-origin",  # no-referrer would send Origin: null
           "X-Frame-Options": "DENY", "Server": "Tablero"}
"""Every response's: the policy above, no sniffing, no address (a link's token) told to
another site, no frame, and no software version to look vulnerabilities up by
(aiohttp's ``Server`` header named its version and Python's)."""
STATIC = {"site.css": "text/css", "match.js": "text/javascript",
          "TableroLanguages.woff2": "font/woff2", "TableroSans-zh-CN.woff2": "font/woff2",
          "TableroSans-zh-TW.woff2": "font/woff2"}
"""The files under ``/static/`` (``static/`` of the web adapter) and their types. Chinese
pages are drawn with the boards' font, so a reader without a Chinese font sees no empty
boxes: each language's characters only, as WOFF2 (``scripts/make_web_fonts.py``)."""
RENDERS_PER_MINUTE = 120
"""Board pictures one link may have drawn a minute from one address (a picture already
drawn costs nothing and is not counted): stepping through a game with the arrow keys
draws a few a second; a script asking for every ply, language and seat of a long game
kept a core busy drawing (about 10 ms of CPU each), beside the bot's own posts when it
serves the pages in its process. Past it a picture is refused (429) until the bucket
fills again."""
BOARD_CACHE = 512
"""Board pictures kept in memory (by match, version, ply and language)."""

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]
POSTS_PER_MINUTE = 30
"""State-changing requests one player's link may make a minute (then 429)."""
STREAMS = 400
"""Live streams (``/m/{token}/events``) one process holds open at once: each is a
connection and a file descriptor for as long as its reader stays (a reader that never
reads holds one too), and a process has about a thousand. Past it a stream is answered
with a later retry and closed at once (the page reconnects by itself then), so somebody
opening thousands cannot leave the pages without a descriptor to answer with."""
BUSY_RETRY_MS = 30_000
"""When a reader turned away for :data:`STREAMS` tries again."""
NAMES_SECONDS = 5.0
"""How long a server's display names, read from the store, are taken as fresh (a
player seen by the bot after ``tablero web`` started is named within that)."""


class NoSuchPly(Exception):
    """``?ply=`` names a ply the match does not have: said in ``said``, with ``back``
    (an address and its words) to the latest position."""

    def __init__(self, status: int, said: Words, back: tuple[str, Words]) -> None:
        super().__init__(status)
        self.status, self.said, self.back = status, said, back


class RateLimiter:
    """A token bucket per key (a player's link and the address it comes from): bursts
    of ``burst``, refilled at ``per_minute`` a minute."""

    def __init__(self, now: Callable[[], float], per_minute: int = POSTS_PER_MINUTE,
                 burst: int = 10) -> None:
        self.now, self.rate, self.burst = now, per_minute / 60.0, float(burst)
        self._buckets: OrderedDict[str, tuple[float, float]] = OrderedDict()

    def allow(self, key: str) -> bool:
        t = self.now()
        tokens, then = self._buckets.pop(key, (self.burst, t))
        tokens = min(self.burst, tokens + (t - then) * self.rate)
        allowed = tokens >= 1.0
        self._buckets[key] = (tokens - 1.0 if allowed else tokens, t)
        while len(self._buckets) > 10_000:  # forget the oldest (they are full again)
            self._buckets.popitem(last=False)
        return allowed


def error_switch(request: web.Request, status: int) -> tuple[str, dict[str, str] | None]:
    """The language switch of a 404 or 403 page, as the other pages have it: the address
    asked for in each language (its query alone: no path of the request is written back
    into the page, and every stranger's 404 reads the same), the ply asked for kept; a
    refused form's (a POST to ``/p/TOKEN/move``) is its player's page, where the form
    was. No switch ("") on other refusals."""
    if status not in (403, 404):
        return "", None
    token = request.match_info.get("token")
    if request.method == "POST" and token is not None:
        return f"/p/{quote(token, safe='')}", None
    ply = request.query.get("ply", "")
    return SAME_ADDRESS, {"ply": ply[:20]} if ply else None


def from_own_page(request: web.Request) -> bool:
    """Whether a form comes from a page of this site: the browser's own word where it
    gives one (``Sec-Fetch-Site``: ``same-origin`` only), else the ``Origin``'s host is
    the one asked (its scheme aside: behind a proxy that ends TLS the page is https while
    this server is asked over http). A request with neither is no browser's cross-site
    form: the form token decides."""
    site = request.headers.get("Sec-Fetch-Site")
    if site is not None:
        return site == "same-origin"
    origin = request.headers.get("Origin")
    if origin is None:
        return True
    scheme, sep, host = origin.partition("://")
    return bool(sep) and scheme in ("http", "https") and host == request.host


def route_of(request: web.Request) -> str:
    """The route ``request`` came by, as its pattern (``/p/{token}/{action}``): what a log
    line or a metric names, never the path itself, whose signed token is a player's key
    to his match (or a spectator's to a match nobody else was given)."""
    resource = request.match_info.route.resource
    return resource.canonical if resource is not None else "unmatched"


def reader_locale(request: web.Request) -> str:
    """The page's language: ``?lang=`` when it names one Tablero speaks (``de``,
    ``es-MX`` and ``zh_tw`` as well as the switch's own tags), else the best of
    ``Accept-Language`` (by its q weights), else English."""
    chosen = request.query.get("lang", "")
    if chosen in LOCALES:
        return chosen
    if chosen and len(chosen) <= 20:
        found = negotiate(chosen)
        if found != "en-US" or chosen.lower().startswith("en"):
            return found
    weighted: list[tuple[float, int, str]] = []
    for i, part in enumerate(request.headers.get("Accept-Language", "").split(",")[:20]):
        tag, _sep, params = part.strip().partition(";")
        q = 1.0
        if params.strip().startswith("q="):
            try:
                q = float(params.strip()[2:])
            except ValueError:
                continue
        if tag and tag != "*":
            weighted.append((-q, i, tag))
    for _q, _i, tag in sorted(weighted):
        found = negotiate(tag)
        if found != "en-US" or tag.lower().startswith("en"):
            return found
    return "en-US"


@dataclass
class _Waiter:
    seen: int
    future: asyncio.Future[int]


@dataclass
class Watch:
    """Live updates: on PostgreSQL the database says when a match changed (LISTEN/NOTIFY,
    from whichever process played the move), and the waiting spectators hear it at once;
    on SQLite one reader of each watched match's version every ``period`` seconds,
    however many spectators wait on it. The reader runs on PostgreSQL too, every
    ``fallback`` seconds, in case a word was missed (a connection lost)."""

    service: MatchService
    period: float = 0.5
    fallback: float = 10.0
    _waiting: dict[tuple[int, int], list[_Waiter]] = field(default_factory=dict)
    _task: asyncio.Task[None] | None = None
    _stop_listening: Callable[[], Awaitable[None]] | None = None
    listening: bool | None = None
    """Whether the store tells of changes (None: not asked yet)."""

    def _heard(self, match_id: int, version: int) -> None:
        for (watched, _guild), waiters in self._waiting.items():
            if watched == match_id:
                for w in waiters:
                    if version != w.seen and not w.future.done():
                        w.future.set_result(version)

    async def _listen(self) -> None:
        self.listening = False
        try:
            self._stop_listening = await self.service.web_listen(self._heard)
        except (ServiceError, StorageError) as e:
            log.warning("cannot listen for match changes (%s); polling instead", e)
            return
        self.listening = self._stop_listening is not None

    async def changed(self, match_id: int, guild_id: int, seen: int,
                      timeout: float) -> int | None:
        """The match's version once it differs from ``seen``; None after ``timeout``."""
        if self.listening is None:
            await self._listen()
        waiter = _Waiter(seen, asyncio.get_running_loop().create_future())
        self._waiting.setdefault((match_id, guild_id), []).append(waiter)
        if self._task is None or self._task.done():
            self._task = asyncio.create_task(self._run())
        if self.listening:  # a change made before the wait began is not told again
            with contextlib.suppress(ServiceError, StorageError):
                now = await self.service.get_match(match_id, Caller(guild_id, SPECTATOR))
                if now.version != seen and not waiter.future.done():
                    waiter.future.set_result(now.version)
        try:
            return await asyncio.wait_for(asyncio.shield(waiter.future), timeout)
        except TimeoutError:
            return None
        finally:
            waiters = self._waiting.get((match_id, guild_id), [])
            if waiter in waiters:
                waiters.remove(waiter)
            if not waiters:
                self._waiting.pop((match_id, guild_id), None)

    async def _run(self) -> None:
        while self._waiting:
            for (match_id, guild_id), waiters in list(self._waiting.items()):
                try:
                    match = await self.service.get_match(match_id, Caller(guild_id, SPECTATOR))
                except (ServiceError, StorageError) as e:
                    log.debug("watching match %s: %s", match_id, e)
                    continue
                for w in waiters:
                    if match.version != w.seen and not w.future.done():
                        w.future.set_result(match.version)
            await asyncio.sleep(self.fallback if self.listening else self.period)

    async def close(self) -> None:
        if self._stop_listening is not None:
            await self._stop_listening()
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task


class WebApp:
    """The pages over one ``MatchService``; links signed by ``signer``."""

    def __init__(self, service: MatchService, signer: LinkSigner, *,
                 poll_seconds: float = 0.5, keepalive_seconds: float = 15.0,
                 now: Callable[[], float] = time.time, metrics: Metrics | None = None,
                 ops: Operations | None = None,
                 names_read: Callable[[int], Awaitable[None]] | None = None) -> None:
        self.service = service
        # a server's names read again from the store (``tablero web``: the bot, in
        # another process, meets the players); None: the names are the process's own
        self.names_read = names_read
        self._names_at: dict[int, float] = {}
        self.metrics = ops.metrics if ops is not None else metrics  # requests counted
        self.ops = ops  # /readyz and /metrics beside the pages (None: elsewhere or not)
        self.now = now
        self.limiter = RateLimiter(now)
        self.renders = RateLimiter(now, RENDERS_PER_MINUTE, burst=RENDERS_PER_MINUTE // 2)
        self.signer = signer
        self.watch = Watch(service, poll_seconds)
        self.keepalive = keepalive_seconds
        self.max_streams = STREAMS
        self.streams = 0  # live streams open now
        self._boards: OrderedDict[tuple[int, int, int, str, int], bytes] = OrderedDict()
        self.steppers = Steppers()  # each match's plies as its page shows them, by version

    def application(self) -> web.Application:
        app = web.Application(middlewares=[self._measured, self._guarded],
                              client_max_size=FORM_KB * 1024)
        app.router.add_get("/", self.home)
        app.router.add_get("/healthz", self.healthz)
        app.router.add_get("/favicon.ico", self.favicon)
        if self.ops is not None:
            app.router.add_get("/readyz", self.ops.readyz)
            app.router.add_get("/metrics", self.ops.metrics_page)
        app.router.add_get("/static/{name}", self.static)
        app.router.add_get("/m/{token}", self.match)
        app.router.add_get("/m/{token}/board/{ply}.png", self.board)
        app.router.add_get("/m/{token}/events", self.events)
        app.router.add_get("/m/{token}/record.{format}", self.record)
        app.router.add_get("/m/{token}/player/{seat}", self.member)
        app.router.add_get("/s/{token}", self.server)
        app.router.add_get("/p/{token}", self.player)
        app.router.add_post("/p/{token}/{action}", self.act)
        app.on_cleanup.append(self._cleanup)
        return app

    async def _cleanup(self, _app: web.Application) -> None:
        await self.watch.close()

    @web.middleware
    async def _measured(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        """Each request counted by route (its pattern, never its token) and status."""
        started = time.perf_counter()
        status = 500
        try:
            response = await handler(request)
            status = response.status
            return response
        except web.HTTPException as e:
            status = e.status
            raise
        finally:
            if self.metrics is not None:
                self.metrics.web_request(route_of(request), status,
                                         time.perf_counter() - started)

    @web.middleware
    async def _guarded(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        """Security headers on everything; refusals and failures as plain pages."""
        try:
            response = await handler(request)
        except web.HTTPException as e:
            if e.status < 400:
                raise
            response = self._error(request, e.status)
        except NoSuchPly as e:
            response = self._error(request, e.status, e.said, e.back)
        except (MatchNotFound, LookupError):
            response = self._error(request, 404)
        except WebLinkRevoked:
            response = self._error(request, 403)
        except (ServiceError, StorageError) as e:
            # an outage is logged by the repository, once as it starts and once at its
            # end: not again for every page it refuses meanwhile
            log.log(logging.DEBUG if isinstance(e, StorageUnavailable) else logging.INFO,
                    "web request %s refused: %s", route_of(request), e)
            response = self._error(request, 503 if isinstance(e, StorageError) else 400)
        except Exception:
            log.exception("web request %s failed", route_of(request))
            response = self._error(request, 500)
        if response.prepared:  # a stream (events) sent its own headers
            return response
        response.headers.update(HEADERS)
        response.headers.setdefault("Cache-Control", "no-store")
        return response

    def _error(self, request: web.Request, status: int, said: Words | None = None,
               back: tuple[str, Words] | None = None) -> web.Response:
        switch, stay = error_switch(request, status)
        return web.Response(status=status, text=error_page(status, reader_locale(request),
                                                           said, back, switch=switch,
                                                           stay=stay),
                            content_type="text/html", charset="utf-8")

    async def _fresh_names(self, guild_id: int) -> None:
        """Read ``guild_id``'s display names again when they were read more than
        ``NAMES_SECONDS`` ago (a name is decoration: a failure keeps the old ones)."""
        if self.names_read is None:
            return
        at = time.monotonic()
        if at - self._names_at.get(guild_id, -NAMES_SECONDS) < NAMES_SECONDS:
            return
        self._names_at[guild_id] = at
        while len(self._names_at) > 10_000:  # forget the oldest read
            del self._names_at[next(iter(self._names_at))]
        try:
            await self.names_read(guild_id)
        except (ServiceError, StorageError) as e:
            log.debug("names of server %s not read again: %s", guild_id, e)

    def _caller(self, token: str) -> tuple[int, Caller]:
        found = self.signer.read_spectator(token)
        if found is None:
            raise web.HTTPNotFound()
        match_id, guild_id = found
        return match_id, Caller(guild_id, SPECTATOR)

    async def home(self, request: web.Request) -> web.Response:
        """What these pages are, in the reader's language (a match's page is reached only
        by its link)."""
        return web.Response(text=home_page(reader_locale(request)), content_type="text/html",
                            charset="utf-8")

    async def favicon(self, request: web.Request) -> web.Response:
        """No icon, said plainly: browsers ask for one with every page, and a 404 would
        be an error in each reader's console and in the counts of refused requests."""
        response = web.Response(status=204)
        response.headers["Cache-Control"] = "public, max-age=86400"
        return response

    async def healthz(self, request: web.Request) -> web.Response:
        return web.Response(text="ok\n")

    async def static(self, request: web.Request) -> web.Response:
        name = request.match_info["name"]
        if name not in STATIC:
            raise web.HTTPNotFound()
        kind = STATIC[name]
        body = resources.files("bot.web").joinpath("static", name).read_bytes()
        response = web.Response(body=body, content_type=kind,
                                charset="utf-8" if kind.startswith("text/") else None)
        response.headers["Cache-Control"] = "public, max-age=3600"
        return response

    def _ply(self, request: web.Request, found: WebMatch, page_path: str) -> int:
        """The ply ``?ply=`` asks for (the latest without it); one the match does not
        have (``-1``, ``abc``, past its last: a link from before a takeback) is refused in
        words, with a link to the latest position."""
        text, last = request.query.get("ply"), len(found.record.plies)
        if text is None or text == "":
            return last
        ply = int(text) if text.isascii() and text.isdigit() and len(text) <= 6 else None
        if ply is not None and ply <= last:
            return ply
        said = _("match #{match} has plies 0 to {last}; there is no ply {ply}",
                 match=found.record.match.id, last=last, ply=text[:20])
        latest = f"{page_path}?{urlencode({'lang': reader_locale(request)})}"
        raise NoSuchPly(400 if ply is None else 404, said, (latest, _("latest position")))

    async def match(self, request: web.Request) -> web.Response:
        token = request.match_info["token"]
        match_id, caller = self._caller(token)
        await self._fresh_names(caller.guild_id or 0)
        found = await self.service.web_match(match_id, caller)
        ply = self._ply(request, found, f"/m/{token}")
        export = await self.service.web_export(match_id, caller)
        html = match_page(found, token=token, ply=ply, locale=reader_locale(request),
                          live=True, export=export,
                          server_path=f"/s/{self.signer.server(caller.guild_id or 0)}",
                          now=self.service.clock.now(),
                          stepper=self.steppers.of(found.record))
        return web.Response(text=html, content_type="text/html", charset="utf-8")

    async def board(self, request: web.Request) -> web.Response:
        token = request.match_info["token"]
        match_id, caller = self._caller(token)
        text = request.match_info["ply"]
        if not (text.isascii() and text.isdigit()) or len(text) > 6:
            raise web.HTTPNotFound()
        ply, locale = int(text), reader_locale(request)
        seat_text = request.query.get("seat", "0")
        if not (seat_text.isascii() and seat_text.isdigit()) or len(seat_text) > 1:
            raise web.HTTPNotFound()
        seat = int(seat_text)
        match = await self.service.get_match(match_id, caller)
        key = (match_id, match.version, ply, locale, seat)
        png = self._boards.get(key)
        if png is None:
            if not self.renders.allow(f"{token}|{request.remote}"):
                raise web.HTTPTooManyRequests()
            image = await self.service.web_board(match_id, ply, caller, locale, seat)
            if image is None:
                raise web.HTTPNotFound()
            png = image.png
            self._boards[key] = png
            while len(self._boards) > BOARD_CACHE:
                self._boards.popitem(last=False)
        else:
            self._boards.move_to_end(key)
        response = web.Response(body=png, content_type="image/png")
        response.headers["Cache-Control"] = "private, max-age=60"
        return response

    async def server(self, request: web.Request) -> web.Response:
        """A server's page: its leaderboards, tournaments and matches in play."""
        token = request.match_info["token"]
        guild_id = self.signer.read_server(token)
        if guild_id is None:
            raise web.HTTPNotFound()
        await self._fresh_names(guild_id)
        found = await self.service.web_server(guild_id, Caller(guild_id, SPECTATOR))
        html = server_page(found, lambda mid: f"/m/{self.signer.spectator(mid, guild_id)}",
                           reader_locale(request), f"/s/{token}")
        return web.Response(text=html, content_type="text/html", charset="utf-8")

    async def member(self, request: web.Request) -> web.Response:
        """The page of a match's player (by his seat): his ratings and newest games in
        that server."""
        token = request.match_info["token"]
        match_id, caller = self._caller(token)
        text = request.match_info["seat"]
        if not (text.isascii() and text.isdigit()) or len(text) > 1:
            raise web.HTTPNotFound()
        await self._fresh_names(caller.guild_id or 0)
        found = await self.service.web_member(match_id, int(text), caller)
        guild_id = caller.guild_id or 0
        html = member_page(found, lambda mid: f"/m/{self.signer.spectator(mid, guild_id)}",
                           reader_locale(request), f"/m/{token}/player/{text}")
        return web.Response(text=html, content_type="text/html", charset="utf-8")

    async def record(self, request: web.Request) -> web.Response:
        """The match in its game's record format (``record.wxf``, ``record.pdn``), as a
        file to download; 404 for a game without that format."""
        match_id, caller = self._caller(request.match_info["token"])
        export = await self.service.web_export(match_id, caller)
        if export is None or export[0] != request.match_info["format"]:
            raise web.HTTPNotFound()
        fmt, text = export
        response = web.Response(text=text, content_type="text/plain", charset="utf-8")
        response.headers["Content-Disposition"] = \
            f'attachment; filename="tablero-match-{match_id}.{fmt}"'
        return response

    def _grant(self, token: str) -> tuple[PlayerPass, Caller]:
        """The pass of a genuine, unexpired player link (404 for a forged one, 403 for
        an expired one: a revoked one is the service's to refuse)."""
        grant = self.signer.read_player(token)
        if grant is None:
            raise web.HTTPNotFound()
        if grant.expires < self.now():
            raise web.HTTPForbidden()
        return grant, Caller(grant.guild_id, grant.user_id)

    async def player(self, request: web.Request, error: Words | None = None,
                     status: int = 200, typed: str = "") -> web.Response:
        """A player's own page: the match page with his moves, draw offers and resigning
        (``error``: why what he sent was refused; ``typed``: the arrangement refused, kept
        in its field)."""
        token = request.match_info["token"]
        grant, caller = self._grant(token)
        await self._fresh_names(grant.guild_id)
        found = await self.service.web_player(grant.match_id, grant.user_id, grant.epoch,
                                              caller)
        match = found.record.match
        ply = self._ply(request, found, f"/p/{token}")
        locale = reader_locale(request)
        if match.status.never_started:  # a challenge or lobby: nothing to play yet
            html = match_page(found, token=self.signer.spectator(match.id, match.guild_id),
                              ply=ply, locale=locale, live=True, page_path=f"/p/{token}",
                              server_path=f"/s/{self.signer.server(match.guild_id)}")
            return web.Response(text=html, content_type="text/html", charset="utf-8",
                                status=status)
        choices, _total = await self.service.move_choices(
            grant.match_id, grant.user_id, "", None, caller=caller)
        seat = match.seat_of(grant.user_id) or 0
        record = found.record
        position = record.plies[-1].position if record.plies else record.start
        if position.in_setup and match.status.is_live:
            play = setup_section(token=token, csrf=self.signer.csrf(token), ply=match.ply,
                                 setup=setup_taps(position, seat)
                                 if grant.user_id in match.to_move else None, error=error,
                                 locale=locale, typed=typed)
        else:
            play = play_section(token=token, csrf=self.signer.csrf(token), ply=match.ply,
                                choices=choices, draw_offer=match.draw_offer_by is not None,
                                offered_by_me=match.draw_offer_by == grant.user_id,
                                live=match.status.is_live, error=error, locale=locale,
                                taps=board_taps(position, choices, seat) if choices
                                else None, out=match.seats[seat].out,
                                accepted_by_me=grant.user_id in match.draw_accepted,
                                latest=(f"/p/{token}?{urlencode({'lang': locale})}",
                                        len(record.plies)),
                                stepped_back=ply != len(record.plies))
        export = await self.service.web_export(match.id, caller)
        html = match_page(found, token=self.signer.spectator(match.id, match.guild_id),
                          ply=ply, locale=locale, live=True, play=play,
                          page_path=f"/p/{token}", seat=seat, export=export,
                          server_path=f"/s/{self.signer.server(match.guild_id)}",
                          now=self.service.clock.now(),
                          turn=turn_words(match, grant.user_id, setup=position.in_setup,
                                          choices=bool(choices)),
                          stepper=self.steppers.of(found.record))
        return web.Response(text=html, content_type="text/html", charset="utf-8",
                            status=status)

    async def act(self, request: web.Request) -> web.Response:
        """A player's move, set-up, draw offer or resignation: same-origin, with the link's form
        token, within the rate limit; then back to his page (or it again, saying why
        not)."""
        token, action = request.match_info["token"], request.match_info["action"]
        if action not in ("move", "setup", "draw", "resign"):
            raise web.HTTPNotFound()
        grant, caller = self._grant(token)
        if not from_own_page(request):
            raise web.HTTPForbidden()
        if not self.limiter.allow(f"{token}|{request.remote}"):
            raise web.HTTPTooManyRequests()
        form = await request.post()
        csrf = form.get("csrf")
        if not isinstance(csrf, str) or not hmac.compare_digest(
                csrf.encode(), self.signer.csrf(token).encode()):
            raise web.HTTPForbidden()
        await self.service.web_player(grant.match_id, grant.user_id, grant.epoch, caller)
        ply_text = form.get("ply")
        if not isinstance(ply_text, str) or not ply_text.isascii() or \
                not ply_text.isdigit() or len(ply_text) > 6:
            raise web.HTTPBadRequest()
        match_id, user = grant.match_id, grant.user_id
        try:
            if action == "move":
                move = form.get("move")
                if not isinstance(move, str):
                    raise web.HTTPBadRequest()
                await self.service.move(match_id, user, move, int(ply_text), caller=caller)
            elif action == "setup":
                arrangement = form.get("arrangement")
                if not isinstance(arrangement, str):
                    raise web.HTTPBadRequest()
                await self.service.submit_setup(match_id, user, arrangement, caller=caller)
            elif action == "resign":
                await self.service.resign(match_id, user, caller=caller)
            else:
                choice = form.get("action")
                if choice == "offer":
                    await self.service.offer_draw(match_id, user, caller=caller)
                elif choice == "accept":
                    await self.service.accept_draw(match_id, user, caller=caller)
                elif choice == "decline":
                    await self.service.decline_draw(match_id, user, caller=caller)
                else:
                    raise web.HTTPBadRequest()
        except (MatchNotFound, WebLinkRevoked):
            raise
        except (ServiceError, RulesError) as e:
            # a refused arrangement stays in its field, to be corrected rather than redone
            typed = form.get("arrangement") if action == "setup" else None
            return await self.player(
                request, e.text if isinstance(e, ServiceError) else rules_words(e), 409,
                typed if isinstance(typed, str) else "")
        raise web.HTTPSeeOther(f"/p/{token}?{urlencode({'lang': reader_locale(request)})}")

    async def events(self, request: web.Request) -> web.StreamResponse:
        """Server-sent events: ``change`` with the new version whenever the match changes
        (a comment line every ``keepalive`` seconds keeps proxies from closing it). The
        version the reader's page shows (``?since=``, or the last event's id a browser
        sends when it connects again: ``Last-Event-ID``) is told at once when the match
        is past it: a move made while the page loaded, or while the stream was down (the
        server restarted, a phone asleep), is not missed."""
        token = request.match_info["token"]
        match_id, caller = self._caller(token)
        found = await self.service.web_match(match_id, caller)
        seen = found.record.match.version
        shown = request.headers.get("Last-Event-ID") or request.query.get("since", "")
        if shown.isascii() and shown.isdigit() and len(shown) <= 12:
            seen = int(shown)
        response = web.StreamResponse(headers={**HEADERS,
                                               "Content-Type": "text/event-stream",
                                               "Cache-Control": "no-store"})
        await response.prepare(request)
        if self.streams >= self.max_streams:  # busy: the browser asks again later
            with contextlib.suppress(ConnectionError):
                await response.write(f"retry: {BUSY_RETRY_MS}\n\n".encode())
            return response
        self.streams += 1
        try:
            await response.write(b"retry: 2000\n\n")
            while True:
                version = await self.watch.changed(match_id, caller.guild_id or 0, seen,
                                                   self.keepalive)
                if version is None:
                    await response.write(b": still here\n\n")
                    continue
                seen = version
                await response.write(f"id: {version}\nevent: change\ndata: {version}\n\n"
                                     .encode())
        except ConnectionError:  # the reader went away
            pass
        finally:
            self.streams -= 1
        return response


class WebServer:
    """The pages of ``app`` served on ``host``:``port`` in the running event loop: by
    ``tablero web`` in a process of its own, or by ``tablero run`` beside the bot
    (``TABLERO_WEB_PORT``), over the bot's own service."""

    def __init__(self, app: WebApp, host: str, port: int) -> None:
        self.app, self.host, self.port = app, host, port
        self._runner: web.AppRunner | None = None

    async def start(self) -> None:
        """Listen (``OSError`` when the address cannot be had: the port taken, say)."""
        runner = web.AppRunner(self.app.application(), access_log=None)
        await runner.setup()
        try:
            await web.TCPSite(runner, self.host, self.port).start()
        except BaseException:
            await runner.cleanup()
            raise
        self._runner = runner
        self.port = int(runner.addresses[0][1])  # the free one, when asked for port 0

    async def stop(self) -> None:
        """Stop listening; the event streams open end."""
        if self._runner is not None:
            runner, self._runner = self._runner, None
            await runner.cleanup()
