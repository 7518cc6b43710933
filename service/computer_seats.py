"""Who the computer players are: their user ids at the top of the id range, their levels
and their names (see ``computer.py`` for how they play). Apart from the service's core so
that sentences (``texts``) can name a computer seat in the reader's words.
"""

from __future__ import annotations

from locales.i18n import Words, _
from service.errors import InvalidOption

LEVELS = range(1, 9)
COMPUTER_IDS = 2**63 - 2**20
"""The first computer player id; every id from here to 2**63 - 1 is reserved for them."""
_SPAN = 1000


def computer_user(level: int, n: int = 0) -> int:
    """The user id of the ``n``-th computer player at ``level`` in a match.

    >>> computer_user(5) - COMPUTER_IDS, computer_user(8, 2) - COMPUTER_IDS
    (5, 2008)
    """
    if isinstance(level, bool) or level not in LEVELS:
        raise InvalidOption(_("the computer plays at levels 1 to 8, not {level}",
                              level=repr(level)))
    return COMPUTER_IDS + _SPAN * n + level


def computer_level(user: int) -> int | None:
    """The level of a computer player's id; None for people.

    >>> computer_level(computer_user(7, 1)), computer_level(42)
    (7, None)
    """
    level = made_level(user)
    return level if level in LEVELS else None


def made_level(user: int | None) -> int | None:
    """The level a computer player's id was made for, whether the computer still plays
    at it or not (a level taken out since: its seats are no person's either); None for
    people.

    >>> made_level(computer_user(7, 1)), made_level(COMPUTER_IDS + 9), made_level(42)
    (7, 9, None)
    """
    if not isinstance(user, int) or user < COMPUTER_IDS:
        return None
    return (user - COMPUTER_IDS) % _SPAN


def is_computer(user: int | None) -> bool:
    return user is not None and computer_level(user) is not None


def computer_number(user: int) -> int:
    """Which computer at its level in its match ``user`` is, from 1 (``computer_user``'s
    ``n`` + 1): /fill seats several at one level, and their names must tell them apart.

    >>> computer_number(computer_user(5)), computer_number(computer_user(1, 2))
    (1, 3)
    """
    return (user - COMPUTER_IDS) // _SPAN + 1


def computer_name(user: int) -> str:
    """The computer player's name as the name caches and images keep it (in English):
    ``'Tablero level 5'``; the second and third at one level in a match (/fill) are
    ``'Tablero 2 level 5'`` and ``'Tablero 3 level 5'`` (the number is the id's, so a
    computer keeps it in every post, picture and file). No parentheses: names stand in
    them ("Black (Tablero level 1) won (…)").

    >>> computer_name(computer_user(5)), computer_name(computer_user(1, 1))
    ('Tablero level 5', 'Tablero 2 level 1')
    """
    number = computer_number(user)
    if number == 1:
        return f"Tablero level {computer_level(user)}"
    return f"Tablero {number} level {computer_level(user)}"


def computer_title(user: int) -> Words:
    """The computer player's name in the reader's words (``computer_name`` is the one
    the name caches and images use), numbered as it is.

    >>> computer_title(computer_user(1, 2)).render("de")
    'Tablero 3 Stufe 1'
    """
    number = computer_number(user)
    if number == 1:
        # TRANSLATORS: the computer player's name (no parentheses: it stands in them)
        return _("Tablero level {level}", level=computer_level(user))
    # TRANSLATORS: the second, third... computer player at one level in a match
    return _("Tablero {number} level {level}", number=number, level=computer_level(user))
