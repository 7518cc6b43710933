"""The service's one door (issue 21, issue 36): every public operation is wrapped by
``checked_ids``, which checks its ids and then its scope before the use-case runs.

Ids: a match, tournament, user, guild, channel or thread id is a plain ``int`` within
SQLite's 64-bit range, never a bool, float, text or None (unless the parameter allows
None). A bad match id is "no match #N" (``MatchNotFound``), a bad tournament id "no
tournament #N here" (``TournamentNotFound``); any other bad id is an ``InvalidId``.
Adapters parse text into ints; this is the last guard.

Scope: an operation that takes a match or tournament id also receives who acts and in
which server: a ``caller`` (``Caller``) parameter, or ``guild_id`` and ``user`` (follow).
A match is seen from its own server (and in DMs by its participants), a tournament from
its own server only; to anyone else it does not exist: the same error, in the same words,
as a number never used, and nothing is read further or changed. ``caller`` None is the
service's own callers (the sweep, a tournament making its games); adapters always pass
one (tests/service/test_server_scope.py checks both). An operation that takes a match or
tournament id without a way to receive the caller is refused when the class is built.
Season numbers and everything else are per server already: those operations take the
caller's ``guild_id`` itself.

>>> check_match_id(9223372036854775808)
Traceback (most recent call last):
...
service.errors.MatchNotFound: there is no match #9223372036854775808
>>> check_id(1.5, "user")
Traceback (most recent call last):
...
service.ids.InvalidId: that is not a valid id (user): 1.5
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable, Iterable
from typing import Any, Protocol, TypeVar

from locales.i18n import _
from service.errors import InvalidOption, MatchNotFound, TournamentNotFound
from service.inputs import text_checks
from service.views import Caller

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


def check_tournament_id(value: object) -> int:
    """``value`` if it can be a tournament id, else ``TournamentNotFound`` in the words of
    an unknown one ("there is no tournament #N here")."""
    if not _is_id(value):
        raise tournament_not_found(str(value)[:30])
    assert isinstance(value, int)
    return value


def tournament_not_found(shown: object) -> TournamentNotFound:
    """The one refusal for a tournament that is unknown, foreign or malformed."""
    return TournamentNotFound(_("there is no tournament #{tournament} here",
                                tournament=str(shown)))


def check_id(value: object, what: str) -> int:
    """``value`` if it is a valid ``what`` id (user, guild...), else ``InvalidId``."""
    if not _is_id(value):
        raise InvalidId(_("that is not a valid id ({what}): {value}", what=what,
                          value=repr(value)[:40]))
    assert isinstance(value, int)
    return value


# What each parameter name of the public API holds.
_MATCH = frozenset({"match_id"})
_TOURNAMENT = frozenset({"tournament_id"})
SCOPED = _MATCH | _TOURNAMENT
"""The parameters naming a thing that belongs to a server: their operations are scoped."""
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
    if name in _TOURNAMENT:
        return allow_none(check_tournament_id)
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


class Scoped(Protocol):
    """What the door needs of the service: the scope check itself (``MatchService`` hands
    it to ``ServiceCore.check_scope``)."""

    async def _check_scope(self, caller: Caller, match_id: int | None,
                           tournament_id: int | None) -> Callable[[], None]: ...


def checked_ids(cls: C) -> C:
    """Wrap every public coroutine method of ``cls`` so the id parameters it takes (by
    name: ``match_id``, ``tournament_id``, ``user``, ``challenger``, ``player``,
    ``guild_id``, ``channel_id``, ``thread_id``, ``opponents``) are checked, and then its
    scope (``caller``, see the module docstring), before the method runs. A parameter
    whose annotation allows None accepts None. A public coroutine taking a match or
    tournament id but no ``caller`` (nor ``guild_id`` and ``user``) is a ``TypeError``
    here, when the class is built: no operation can forget the scope."""
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
        params = set(signature.parameters)
        if params & SCOPED and "caller" not in params \
                and not {"guild_id", "user"} <= params:
            raise TypeError(f"{cls.__name__}.{name} takes {sorted(params & SCOPED)} but not "
                            "the caller: add `caller: Caller | None = None`")
        texts = text_checks(name, method)
        if checks or texts:
            setattr(cls, name, _wrap(method, signature, checks, texts))
    return cls


def _run(checks: dict[str, Callable[[Any], None]], arguments: dict[str, Any]) -> None:
    for pname, check in checks.items():
        if pname in arguments:
            check(arguments[pname])


def _caller_of(arguments: dict[str, Any]) -> Caller | None:
    """Who acts, and where: the ``caller`` given, else ``guild_id`` and ``user``."""
    if "caller" in arguments:
        caller = arguments["caller"]
        if caller is not None and not isinstance(caller, Caller):
            raise InvalidId(_("that does not say who acts: {value}", value=repr(caller)[:40]))
        return caller
    if "guild_id" in arguments and "user" in arguments:
        return Caller(arguments["guild_id"], arguments["user"])
    return None


def _wrap(method: Callable[..., Any], signature: inspect.Signature,
          checks: dict[str, Callable[[Any], None]],
          texts: dict[str, Callable[[Any], None]]) -> Callable[..., Any]:
    """One wrapper, one binding of the arguments: the ids, then the scope, then the
    texts (``inputs.text_checks``), then the use-case."""
    scoped = bool(set(signature.parameters) & SCOPED)

    @functools.wraps(method)
    async def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            bound = signature.bind(*args, **kwargs)
        except TypeError:
            return await method(*args, **kwargs)  # let Python say what is wrong
        _run(checks, bound.arguments)
        if scoped:
            caller = _caller_of(bound.arguments)
            match_id = bound.arguments.get("match_id")
            tournament_id = bound.arguments.get("tournament_id")
            if caller is not None and (match_id is not None or tournament_id is not None):
                service: Scoped = args[0]
                done = await service._check_scope(caller, match_id, tournament_id)
                try:
                    _run(texts, bound.arguments)
                    return await method(*args, **kwargs)
                finally:
                    done()
        _run(texts, bound.arguments)
        return await method(*args, **kwargs)
    return wrapper
