"""A fault-injecting HTTP layer for the SimCord bot: requests matching a rule fail the
way Discord (or the network) fails them, before they reach SimCord, so the bot's own
error handling is what the tests exercise.

SimCord's ``env.inject_error`` turns every status into a plain ``HTTPException``; this
layer raises what discord.py raises against the real API: ``Forbidden``/``NotFound``
with Discord's JSON error codes, a 429 carrying ``Retry-After``, ``DiscordServerError``
for a 5xx, and a reset connection (``aiohttp.ClientOSError``).
"""

from __future__ import annotations

import fnmatch
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import aiohttp
import discord

RETRY_AFTER = 7.5


class FakeResponse:
    """What discord.py's HTTPException reads from a response."""

    def __init__(self, status: int, headers: dict[str, str] | None = None) -> None:
        self.status = status
        self.reason = {400: "Bad Request", 403: "Forbidden", 404: "Not Found",
                       429: "Too Many Requests", 500: "Internal Server Error"}[status]
        self.headers = headers or {}


def failure(kind: str) -> BaseException:
    """The exception discord.py raises for ``kind``."""
    if kind == "missing-access":
        return discord.Forbidden(FakeResponse(403),
                                 {"code": 50001, "message": "Missing Access"})
    if kind == "unknown-channel":
        return discord.NotFound(FakeResponse(404),
                                {"code": 10003, "message": "Unknown Channel"})
    if kind == "dms-closed":
        return discord.Forbidden(FakeResponse(403),
                                 {"code": 50007, "message": "Cannot send messages to this user"})
    if kind == "archived":
        return discord.HTTPException(FakeResponse(400),
                                     {"code": 50083, "message": "Thread is archived"})
    if kind == "rate-limited":
        return discord.HTTPException(
            FakeResponse(429, {"Retry-After": str(RETRY_AFTER)}),
            {"message": "You are being rate limited.", "retry_after": RETRY_AFTER,
             "global": False})
    if kind == "server-error":
        return discord.DiscordServerError(FakeResponse(500),
                                          {"code": 0, "message": "Internal Server Error"})
    if kind == "connection-reset":
        return aiohttp.ClientOSError(104, "Connection reset by peer")
    raise ValueError(kind)


def api_path(url: str) -> str:
    """``/channels/1/messages`` from a routed URL."""
    path = url.split("?", 1)[0]
    at = path.find("/api/v")
    return path[path.find("/", at + len("/api/v")):] if at != -1 else path


@dataclass
class Rule:
    method: str
    path: str  # fnmatch pattern
    kind: str
    every: int = 1  # fail every n-th matching request (2: first fails, retry passes)
    when: Callable[[str], bool] | None = None
    seen: int = 0

    def fires(self, method: str, path: str) -> bool:
        if self.method not in (method, "*") or not fnmatch.fnmatch(path, self.path):
            return False
        if self.when is not None and not self.when(path):
            return False
        self.seen += 1
        return (self.seen - 1) % self.every == 0


@dataclass
class FaultyHTTP:
    """Installed over ``bot.http.request``; ``failed`` lists what it refused."""

    rules: list[Rule] = field(default_factory=list)
    failed: list[tuple[str, str, str]] = field(default_factory=list)

    @classmethod
    def install(cls, bot: discord.Client) -> FaultyHTTP:
        faults = cls()
        inner = bot.http.request

        async def request(route: Any, **kwargs: Any) -> Any:
            path = api_path(route.url)
            for rule in faults.rules:
                if rule.fires(route.method, path):
                    faults.failed.append((route.method, path, rule.kind))
                    raise failure(rule.kind)
            return await inner(route, **kwargs)

        bot.http.request = request  # type: ignore[method-assign]
        return faults

    def add(self, method: str, path: str, kind: str, *, every: int = 1,
            when: Callable[[str], bool] | None = None) -> None:
        self.rules.append(Rule(method, path, kind, every, when))
