"""Who the imported players are (issue 44): the players of an imported record are not
members of the server; each has an id of a range of its own, below the computer players',
the same for the same name in every import (``importer.py`` imports; the explorer counts
their games apart), and the name the record gave him, stored (``ImportedPlayerStore``)
and kept in memory by :class:`ImportedNames` for every later view of the game."""

from __future__ import annotations

import logging
import re
import zlib
from collections.abc import Iterable, Mapping

from locales.i18n import Words, _
from locales.terms import seat_colour
from service.computer_seats import COMPUTER_IDS
from service.errors import StorageError
from service.inputs import without_invalid
from service.ports import ImportedPlayerStore, NameResolver
from service.views import MatchView, SeatView

log = logging.getLogger(__name__)

IMPORTED_IDS = COMPUTER_IDS - 2**40
"""The first id of an imported player: every id from here up to the computer players' is
one (no Discord id is that large)."""
MAX_IMPORTED_NAME = 64
"""The longest imported name kept (a record's tag may be longer: it is cut)."""
_PROBES = 8
"""How many ids after a name's own are tried when another name holds it (two names whose
checksums are equal: rare, and rarer twice)."""


def name_key(name: str) -> str:
    """What makes two spellings one player's name: case and spacing do not count.

    >>> name_key("  Liu   DAHUA ")
    'liu dahua'
    """
    return " ".join(name.lower().split())


def imported_player(name: str, seat: int) -> int:
    """The first id tried for the imported player called ``name`` (the same in every
    import), or the id of seat ``seat``'s unnamed player.

    >>> imported_player("Liu Dahua", 1) == imported_player(" liu dahua ", 0)
    True
    >>> is_imported(imported_player("", 0)), is_imported(42)
    (True, False)
    """
    key = name_key(name) or f"?{seat}"
    return IMPORTED_IDS + zlib.crc32(key.encode())


def is_imported(user: int | None) -> bool:
    return user is not None and IMPORTED_IDS <= user < COMPUTER_IDS


_UNSHOWN = re.compile("[<>\u202a-\u202e\u2066-\u2069]")
"""What a record's name loses besides invalid text: ``<`` and ``>`` (Discord reads
``<@123>`` as a member's mention: an imported name would pass for him) and the
direction overrides and isolates (they turn the text after them around: "(imported)"
with it)."""


def imported_name(name: str) -> str:
    """A record's name as it is kept: valid characters, single spaces, at most
    :data:`MAX_IMPORTED_NAME` characters; no mention or direction override.

    >>> imported_name(" Wang\\tTianyi ")
    'Wang Tianyi'
    >>> imported_name("<@42> \u202eeve")
    '@42 eve'
    """
    cleaned = _UNSHOWN.sub("", without_invalid(name))
    return " ".join(cleaned.split())[:MAX_IMPORTED_NAME].strip()


_MOST_SEATS = 8
"""More seats than any game has: the unnamed players' ids are known up to here."""
_UNNAMED = {imported_player("", seat): seat for seat in range(_MOST_SEATS)}


def unnamed_seat(user: int | None) -> int | None:
    """The seat whose unnamed imported player ``user`` is (every record's unnamed player
    of a seat has that seat's id), else None.

    >>> unnamed_seat(imported_player("", 2)), unnamed_seat(imported_player("Liu Dahua", 2))
    (2, None)
    """
    return _UNNAMED.get(user) if user is not None else None


def imported_title(name: str, seat: str = "") -> Words:
    """An imported player in the reader's words: 'Wang Tianyi (imported)'; one the record
    did not name (or imported before names were kept) by his seat, ``seat`` its name as
    the game calls it: 'an imported player (Turquoise)' (without it, 'an imported
    player': where the seat is said beside him already, as in a list of seats).

    >>> from locales.i18n import render
    >>> render(imported_title("", "Turquoise"), "en-US"), render(imported_title(""), "de")
    ('an imported player (Turquoise)', 'ein importierter Spieler')
    """
    if name:
        return _("{name} (imported)", name=name)
    if seat:
        return _("an imported player ({seat})", seat=seat_colour(seat))
    return _("an imported player")


def imported_in(match: MatchView | None, user: int, name: str) -> Words:
    """Imported player ``user`` of ``match`` (or of the record it continues), ``name`` as
    his record gave it: by his name, else by his seat in that game (no ``match``: "an
    imported player", where a list of seats says the seat beside him)."""
    seat = unnamed_seat(user) if not name else None
    seat_name = next((s.name for s in match.seats if s.seat == seat), "") \
        if match is not None and seat is not None else ""
    return imported_title(name, seat_name)


def seat_player(seat: SeatView, name: str) -> Words:
    """``name``, the player on ``seat`` as a resolver named him, as people read it: an
    imported player's with the word that says so, one his record did not name by his
    seat (the resolver knows no name for him).

    >>> from locales.i18n import render
    >>> held = SeatView(0, imported_player("Wang Tianyi", 0), None, "Red", player="Wang Tianyi")
    >>> render(seat_player(held, "Wang Tianyi"), "en-US")
    'Wang Tianyi (imported)'
    >>> render(seat_player(SeatView(1, imported_player("", 1), None, "Black"), ""), "en-US")
    'an imported player (Black)'
    """
    if is_imported(seat.user_id):
        return imported_title(seat.player, seat.name)
    return name


class ImportedNames:
    """The imported players' names read so far, by id: a ``NameResolver`` must answer at
    once, so the service reads the names of a match's imported players when it reads the
    match or its moves (:meth:`learn`), and views are drawn from here. An id whose name is
    not stored (none was given) is remembered as unnamed."""

    def __init__(self, store: ImportedPlayerStore) -> None:
        self._store = store
        self._known: dict[int, str] = {}

    def __call__(self, user: int | None) -> str:
        """The name of imported player ``user``; "" for anybody else or one unnamed."""
        return self._known.get(user, "") if user is not None else ""

    async def learn(self, users: Iterable[int | None]) -> None:
        """Read the names of the imported players among ``users`` not read yet. A
        failure to read is logged, never raised: a name is decoration."""
        missing = {u for u in users if u is not None and is_imported(u) and u not in self._known}
        if not missing:
            return
        try:
            found = await self._store.imported_player_names(missing)
        except StorageError as e:  # an outage: the repository logged it; names come later
            log.debug("could not read imported players' names: %s", e.message)
            return
        for user in missing:
            self._known[user] = found.get(user, "")

    async def ids_of(self, names: Mapping[int, str], seats: int) -> dict[int, int]:
        """The id of each of ``seats`` seats' imported player, by seat, ``names`` by seat
        (a seat without one gets its unnamed player's id); each name stored with its id.
        An id already held by another name moves on to the next free one."""
        out: dict[int, int] = {}
        claimed: dict[int, str] = {}
        for seat in range(seats):
            name = imported_name(names.get(seat, ""))
            key = name_key(name)
            first = imported_player(name, seat)
            if not key:
                out[seat] = first
                continue
            tried = [first + i for i in range(_PROBES) if first + i < COMPUTER_IDS]
            stored = await self._store.imported_player_names(tried)
            held = {**{u: name_key(n) for u, n in stored.items()}, **claimed}
            out[seat] = next((u for u in tried if held.get(u, key) == key), first)
            claimed[out[seat]] = key
            self._known[out[seat]] = stored.get(out[seat], name)
        await self._store.name_imported_players(
            {out[s]: imported_name(names[s]) for s in out if name_key(names.get(s, ""))})
        return out


def with_imported_names(names: NameResolver | None, imported: ImportedNames
                        ) -> NameResolver:
    """``names`` that also name imported players (and leave everybody else to ``names``)."""
    def resolve(guild_id: int, user_id: int) -> str:
        if is_imported(user_id):
            return imported(user_id)
        return names(guild_id, user_id) if names is not None else ""
    return resolve
