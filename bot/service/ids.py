"""Ids checked at the service boundary (issue 21): a match, user, guild, channel or thread
id is a plain ``int`` within SQLite's 64-bit range, never a bool, float, text or None
(unless the parameter allows None). A bad match id is "no match #N" (``MatchNotFound``); any
other bad id is an ``InvalidId``. Adapters parse text into ints; this is the last guard.

>>> check_match_id(9223372036854775808)
Traceback (most recent call last):
...
bot.service.errors.MatchNotFound: there is no match #9223372036854775808
>>> check_id(1.5, "user")
Traceback (most recent call last):
...
bot.service.ids.InvalidId: that is not a user id: 1.5
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable, Iterable
from typing import Any, TypeVar

from bot.service.errors import InvalidOption, MatchNotFound
from locales.i18n import _

MAX_ID = 2**63 - 1
"""The largest id SQLite stores (a signed 64-bit integer); ids are never negative."""

C = TypeVar("C", bound=type)


class InvalidId(InvalidOption):
    """A user, guild, channel or thread id that is not a plain int in 0..2**63-1."""


def _is_id(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= MAX_ID


def check_match_id(value: object) -> int:
    """``value`` if it can be a match id, else ``MatchNotFound`` ("there is no match #N")."""
    if not _is_id(value):
        shown = f"#{value}" if isinstance(value, int) and not isinstance(value, bool) \
            else repr(value)[:40]
        raise MatchNotFound(_("there is no match {match}", match=shown))
    assert isinstance(value, int)
    return value


def check_id(value: object, what: str) -> int:
    """``value`` if it is a valid ``what`` id (user, guild...), else ``InvalidId``."""
    if not _is_id(value):
        raise InvalidId(_("that is not a valid id ({what}): {value}", what=what,
                          value=repr(value)[:40]))
    assert isinstance(value, int)
    return value


# What each parameter name of the public API holds.
_MATCH = frozenset({"match_id"})
_USERS = {"user": "user", "challenger": "user", "user_id": "user", "player": "user",
          "guild_id": "server",
          "channel_id": "channel", "thread_id": "thread"}
_USER_LISTS = {"opponents": "user"}


def _checker(name: str, optional: bool) -> Callable[[Any], None] | None:
    def allow_none(check: Callable[[Any], object]) -> Callable[[Any], None]:
        def run(value: Any) -> None:
            if not (optional and value is None):
                check(value)
        return run
    if name in _MATCH:
        return allow_none(check_match_id)
    if name in _USERS:
        what = _USERS[name]
        return allow_none(lambda v: check_id(v, what))
    if name in _USER_LISTS:
        what = _USER_LISTS[name]

        def each(values: Any) -> None:
            if values is None and optional:
                return
            if isinstance(values, str | bytes) or not isinstance(values, Iterable):
                raise InvalidId(_("that is not a list of ids ({what})", what=what))
            for v in values:
                check_id(v, what)
        return each
    return None


def checked_ids(cls: C) -> C:
    """Wrap every public coroutine method of ``cls`` so the id parameters it takes (by
    name: ``match_id``, ``user``, ``challenger``, ``player``, ``guild_id``, ``channel_id``,
    ``thread_id``, ``opponents``) are checked before the method runs. A parameter whose
    annotation allows None accepts None."""
    for name, method in inspect.getmembers(cls, inspect.iscoroutinefunction):
        if name.startswith("_"):
            continue
        signature = inspect.signature(method)
        checks = {}
        for param in signature.parameters.values():
            optional = "None" in str(param.annotation)
            check = _checker(param.name, optional)
            if check is not None:
                checks[param.name] = check
        if checks:
            setattr(cls, name, _wrap(method, signature, checks))
    return cls


def _wrap(method: Callable[..., Any], signature: inspect.Signature,
          checks: dict[str, Callable[[Any], None]]) -> Callable[..., Any]:
    @functools.wraps(method)
    async def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            bound = signature.bind(*args, **kwargs)
        except TypeError:
            return await method(*args, **kwargs)  # let Python say what is wrong
        for pname, check in checks.items():
            if pname in bound.arguments:
                check(bound.arguments[pname])
        return await method(*args, **kwargs)
    return wrapper
