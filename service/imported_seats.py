"""Who the imported players are (issue 44): the players of an imported record are not
members of the server; each has an id of a range of its own, below the computer players',
the same for the same name in every import (``importer.py`` imports; the explorer counts
their games apart)."""

from __future__ import annotations

import zlib

from service.computer_seats import COMPUTER_IDS

IMPORTED_IDS = COMPUTER_IDS - 2**40
"""The first id of an imported player: every id from here up to the computer players' is
one (no Discord id is that large)."""


def imported_player(name: str, seat: int) -> int:
    """The id of the imported player called ``name`` (the same in every import), or of
    seat ``seat``'s unnamed player.

    >>> imported_player("Liu Dahua", 1) == imported_player(" liu dahua ", 0)
    True
    >>> is_imported(imported_player("", 0)), is_imported(42)
    (True, False)
    """
    key = " ".join(name.lower().split()) or f"?{seat}"
    return IMPORTED_IDS + zlib.crc32(key.encode())


def is_imported(user: int | None) -> bool:
    return user is not None and IMPORTED_IDS <= user < COMPUTER_IDS
