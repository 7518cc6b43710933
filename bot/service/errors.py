"""Typed errors of the match service; each ``text`` is fit to show a person, in any
language (a lazy ``locales.i18n`` text the edge renders for its reader; ``message`` and
``str()`` are its English rendering, for logs and tests).

Rules errors (``rules.RulesError`` and subclasses, e.g. an illegal move) are not wrapped:
they pass through the service unchanged, with their own ``message``.
"""

from __future__ import annotations

from locales.i18n import Words, render


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
