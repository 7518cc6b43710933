"""Typed errors of the match service; each ``text`` is fit to show a person, in any
language (a lazy ``locales.i18n`` text the edge renders for its reader; ``message`` and
``str()`` are its English rendering, for logs and tests).

Rules errors (``rules.RulesError`` and subclasses, e.g. an illegal move) are not wrapped:
they pass through the service unchanged, with their own ``message``.
"""

from __future__ import annotations

from locales.i18n import Words, _, render


class ServiceError(Exception):
    """Base of every error the service raises about a request. ``message`` may be a
    :class:`locales.i18n.Text` (new errors are): ``text`` keeps it for the edge to render
    in its reader's language, ``message`` is its English form.

    >>> from locales.i18n import _
    >>> str(NotYourTurn(_("it is {player}'s turn", player="Bob")))
    "it is Bob's turn"
    >>> from locales.i18n import _
    >>> e = NotAllowed(_("you are the one to move"))
    >>> e.message, e.text is not None
    ('you are the one to move', True)
    """

    def __init__(self, text: Words) -> None:
        english = render(text, "en-US")
        super().__init__(english)
        self.text = text
        self.message = english


class MatchNotFound(ServiceError):
    """No match with that id (or none in that thread)."""


class TournamentNotFound(ServiceError):
    """No tournament with that id in the caller's server."""


class PuzzleNotFound(ServiceError):
    """No puzzle with that id in the caller's server (issue 44)."""


class NotAPlayer(ServiceError):
    """The user is not seated in (or invited to) the match."""


class NotYourTurn(ServiceError):
    """The user is a player, but another seat is to move."""


class MatchOver(ServiceError):
    """The match has finished (or was aborted, declined, cancelled)."""


class MatchNotStarted(ServiceError):
    """The match is still a challenge or a lobby."""


class StaleMove(ServiceError):
    """The position changed between reading it and writing the move (another move landed,
    or the caller's ``expected_ply`` is old)."""


class NotAllowed(ServiceError):
    """The action is not allowed for this user or in this state (accepting your own
    challenge, offering a draw twice, joining a full lobby...)."""


class InvalidOption(ServiceError):
    """A challenge argument is wrong: unknown game, bad option, days out of 1-14, bad seat."""


class MatchBroken(ServiceError):
    """The match's stored record does not replay to its stored position; it is frozen until
    someone looks at it. The message says where the replay failed."""


class StorageError(ServiceError):
    """The database failed a request: the one family of storage errors. Repositories
    turn every failure of their driver that is not a bug (the server gone, the disk full,
    the file read-only or deleted, the file unusable at start) into one of these, so the
    core and the adapters never see a driver's exception: the person reads ``text``, the
    operator's log and the command line name the ``database`` (a file, or a URL without
    its password) and the ``cause`` (what the driver said)."""

    def __init__(self, text: Words, database: str = "", cause: str = "") -> None:
        super().__init__(text)
        self.database = database
        self.cause = cause


class StorageUnavailable(StorageError):
    """The database cannot serve now, and nothing was changed: the same request may be
    sent again later. Background work (the sweeps, the outbox, the computer's turns)
    waits and tries again; the repository logs one line when the database goes and one
    when it is back.

    >>> e = DatabaseUnreachable("postgresql://bot:***@db/tablero", "connection refused")
    >>> isinstance(e, StorageUnavailable), e.message
    (True, 'the database is not reachable right now; nothing was changed. Try again in a minute')
    """

    TEXT = _("the database cannot be used right now; nothing was changed. Try again later")

    def __init__(self, database: str = "", cause: str = "") -> None:
        super().__init__(self.TEXT, database, cause)


class DatabaseUnreachable(StorageUnavailable):
    """The server does not answer (refused, reset, shut down, starting up, timed out),
    or the file cannot be read or written just now (an I/O error, busy too long)."""

    TEXT = _("the database is not reachable right now; nothing was changed. Try again in a "
             "minute")


class DatabaseFull(StorageUnavailable):
    """The database's disk (or its size limit) is full: nothing more can be written until
    the operator frees space. Reads still work."""

    TEXT = _("the database is full (its disk has no room left); nothing was changed. Try "
             "again later: the bot's operator must free some space")


class DatabaseReadOnly(StorageUnavailable):
    """The database accepts no writes (a file system remounted read-only, a PostgreSQL
    standby or read-only transactions). Reads still work."""

    TEXT = _("the database is read-only right now; nothing was changed. Try again later: "
             "the bot's operator must make it writable again")


class CommitUncertain(StorageUnavailable):
    """The connection broke while the server was committing: the change may or may not
    have been stored (it is never stored in part). The person must look before sending
    it again; a move sent twice is refused the second time, never played twice."""

    TEXT = _("the connection to the database broke while this was being saved, so it may "
             "or may not have been saved. Look at the board (or your games) before trying "
             "again")


class DatabaseLost(StorageError):
    """The database file was deleted or replaced while Tablero ran: nothing more is
    acknowledged (a move written now would vanish at the next start). Every adapter shows
    it as a refusal; restart Tablero to reopen the file."""


class Conflict(Exception):
    """Raised by a repository when a compare-and-set write finds the match changed
    (another writer got there first). The service turns it into a retry or StaleMove."""
