"""Typed errors of the match service; each ``message`` is fit to show a person.

Rules errors (``rules.RulesError`` and subclasses, e.g. an illegal move) are not wrapped:
they pass through the service unchanged, with their own ``message``.
"""

from __future__ import annotations

from locales.i18n import DEFAULT_LOCALE, Text


class ServiceError(Exception):
    """Base of every error the service raises about a request.

    >>> str(NotYourTurn("it is Bob's turn"))
    "it is Bob's turn"
    """

    def __init__(self, message: str | Text) -> None:
        # A ``Text`` (issue 14) is rendered by the edge in its reader's language
        # (``render``); ``message`` keeps the English for logs and older adapters.
        self.text = message if isinstance(message, Text) else None
        english = message.render(DEFAULT_LOCALE) if isinstance(message, Text) else message
        super().__init__(english)
        self.message = english

    def render(self, locale: str | None) -> str:
        """The message in ``locale`` (English when it was written as plain text)."""
        return self.text.render(locale) if self.text is not None else self.message


class MatchNotFound(ServiceError):
    """No match with that id (or none in that thread)."""


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


class Conflict(Exception):
    """Raised by a repository when a compare-and-set write finds the match changed
    (another writer got there first). The service turns it into a retry or StaleMove."""
