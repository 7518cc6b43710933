"""What people are called on boards and in posts, from the client's caches.

The bot has no member intent, so it also remembers the names of those who use its
commands and buttons. Looking a name up never fetches and never fails: an unknown person
is "" (the board then shows the seat's colour) or his mention where a name must be shown.
Where a mention does not render (a thread's name, an autocomplete choice, a picture),
the Discord edge asks Discord once for the names it lacks (:meth:`MemberNames.fetch`,
once an interaction was acknowledged or answered) and keeps them.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import Any

import discord

from bot.names import NameBook, clean_name
from locales.i18n import Words
from service.computer_seats import computer_name, is_computer
from service.imported_seats import imported_in, is_imported
from service.views import MatchView

log = logging.getLogger(__name__)

def in_text(name: str) -> str:
    """A person's name as Discord's markdown shows it as he typed it: no link, heading,
    bold, spoiler or quote of his making, and no ``<@id>`` passing for somebody else's
    mention (a display name or an imported record's name is anybody's text).

    >>> in_text("[Nitro](https://x.example) **<@1>**")
    '\\\\[Nitro](https://x.example) \\\\*\\\\*\\\\<@1>\\\\*\\\\*'
    >>> in_text("Wang Tianyi")
    'Wang Tianyi'
    """
    return discord.utils.escape_markdown(name).replace("<", "\\<")


FETCHES_AT_ONCE = 50
"""The most names one :meth:`MemberNames.fetch` asks Discord for (one request each, one
after the other, within the rate limits discord.py keeps); the rest wait for a later
call: a big tournament's first standings are not held up by a hundred requests."""


class MemberNames:
    """The service's ``NameResolver`` over a client's caches and the names it has seen."""

    def __init__(self, client: discord.Client) -> None:
        self._client = client
        self._seen: dict[int, str] = {}
        self.book = NameBook()
        """The names seen per server, stored (``create_bot`` hands it the repository) so
        they outlive a restart, when the caches start empty."""
        self.imported: Callable[[int], str] = lambda user: ""
        """An imported player's name (the wiring hands it the service's
        ``imported_name``): he has no Discord account."""
        self._asked: set[tuple[int, int]] = set()
        """(server, user) asked of Discord already: each is asked once per process (one
        who left the server stays unnamed rather than asked at every post)."""

    def __call__(self, guild_id: int, user_id: int) -> str:
        if is_computer(user_id):
            return computer_name(user_id)
        if is_imported(user_id):
            return self.imported(user_id)
        guild = self._client.get_guild(guild_id)
        member = guild.get_member(user_id) if guild is not None else None
        user = member or self._client.get_user(user_id)
        if user is not None:
            return user.display_name
        return self.book(guild_id, user_id) or self._seen.get(user_id, "")

    def unknown(self, guild_id: int, users: Iterable[int]) -> list[int]:
        """Those of ``users`` with no name here that Discord could tell (the computer and
        imported players have theirs; one asked already is not asked again)."""
        return [u for u in dict.fromkeys(users)
                if not is_computer(u) and not is_imported(u) and not self(guild_id, u)
                and (guild_id, u) not in self._asked]

    async def fetch(self, guild_id: int | None, users: Iterable[int]) -> None:
        """Learn from Discord the names of ``users`` in ``guild_id`` that nobody here
        knows: the server's member cache first, else one request per person
        (``Guild.fetch_member``), each remembered in :attr:`book` (so stored, and asked
        once). Never raises (a name is decoration); never call it before an interaction
        is acknowledged: a request may take longer than Discord's 3 seconds."""
        guild = self._client.get_guild(guild_id) if guild_id is not None else None
        if guild is None:
            return
        batch = self.unknown(guild.id, users)[:FETCHES_AT_ONCE]  # not in the caches
        self._asked.update((guild.id, u) for u in batch)  # a call meanwhile skips them
        for user in batch:
            try:
                member = await guild.fetch_member(user)
            except discord.NotFound:  # he left the server: neutral words name him
                continue
            except discord.HTTPException as e:  # a hiccup: asked again another time
                self._asked.discard((guild.id, user))
                log.info("could not fetch the name of user %s: %s", user, e)
                continue
            except Exception:
                log.exception("could not fetch the name of user %s", user)
                continue
            await self.book.seen(guild.id, user, member.display_name)

    def learn(self, user: discord.abc.User) -> None:
        """Remember ``user``'s display name (someone who just used a command)."""
        self._seen[user.id] = user.display_name

    async def seen(self, guild_id: int | None, user: discord.abc.User) -> None:
        """``learn``, and store the name for that server (a DM stores nothing)."""
        self.learn(user)
        if guild_id is not None:
            await self.book.seen(guild_id, user.id, user.display_name)

    async def seen_in(self, interaction: discord.Interaction[Any]) -> None:
        """``seen`` for the user of ``interaction`` and for every person its options
        name (``/challenge opponent:``, ``/block player:``, the menu's target): Discord
        hands their names with it (its ``resolved`` data), so a person challenged, named
        or blocked before he ever used a command is named, not shown as a number or
        "that player", and without a request of the bot's own."""
        await self.seen(interaction.guild_id, interaction.user)
        for user_id, found in resolved_names(interaction.data):
            name = clean_name(found)
            if user_id == interaction.user.id or not name:
                continue
            self._seen[user_id] = name
            if interaction.guild_id is not None:
                await self.book.seen(interaction.guild_id, user_id, name)

    def label(self, guild_id: int, user_id: int) -> str:
        """A name to show in words Discord reads as markdown ("alice played …", as
        :func:`in_text`), his mention when nobody knows it."""
        name = self(guild_id, user_id)
        return in_text(name) if name else f"<@{user_id}>"

    def title(self, guild_id: int, user_id: int, match: MatchView | None = None) -> Words:
        """``label``, except that an imported player is named with the word that says
        so ("Wang Tianyi (imported)"): he has no account to mention; one his record did
        not name, by his seat in ``match`` ("an imported player (Turquoise)")."""
        if is_imported(user_id):
            return imported_in(match, user_id, in_text(self.imported(user_id)))
        return self.label(guild_id, user_id)


def resolved_names(data: Mapping[str, Any] | None) -> Iterator[tuple[int, str]]:
    """The people an interaction's options name, with the name their server shows
    (Discord's ``resolved`` data: a member's server nickname, else his display name,
    else his username); bots left out (the computer is named by its level).

    >>> list(resolved_names({"resolved": {
    ...     "users": {"7": {"username": "carol7", "global_name": "Carol"},
    ...               "8": {"username": "bobby"}, "9": {"username": "helper", "bot": True}},
    ...     "members": {"8": {"nick": "Bob"}}}}))
    [(7, 'Carol'), (8, 'Bob')]
    """
    resolved = (data or {}).get("resolved") or {}
    users = resolved.get("users") or {}
    members = resolved.get("members") or {}
    if not isinstance(users, Mapping) or not isinstance(members, Mapping):
        return
    for key, user in users.items():
        if not isinstance(user, Mapping) or user.get("bot") or not str(key).isdigit():
            continue
        member = members.get(key)
        nick = member.get("nick") if isinstance(member, Mapping) else None
        name = nick or user.get("global_name") or user.get("username") or ""
        yield int(key), str(name)
