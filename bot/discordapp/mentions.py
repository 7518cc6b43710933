"""Commands named by Discord's command mentions: ``</move:ID>``, which every reader's
Discord shows in his own language and a click fills in.

A text names a command through ``locales.i18n.command``; in Discord it becomes a mention
where the command's id is known for the server the text is read in. The ids are Discord's:
learnt from the answer of the sync, or fetched at start when the tree is unchanged
(``sync.sync_commands``), never stored (a restart learns them again, one request), and
fetched again while the bot runs (``sync.IdsRefresh``: a ``tablero sync`` run meanwhile
may have moved the commands to another scope or created them anew). They
differ per scope: the global commands have one id each, a development server's copies
others, so :class:`CommandIds` keeps them per scope and a server reads its own copies' ids,
else the global ones.

:func:`mentioning` sets them (``locales.i18n.command_mentions``) around the adapter's
work for one server: a command or component body (``errors.replying``) and the delivery
of an outbox entry (``dispatcher.Routes.delivering``). A direct message names commands as
before: Tablero's commands run in servers only, and a mention clicked in a DM is not
typed in (Discord's issue 5201). So do the fields Discord shows as plain text (a title,
a footer, a button's label, a menu's choices), rendered with :func:`plain_commands`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager

from discord import AppCommandOptionType, AppCommandType, app_commands

from locales.i18n import command_mentions, people_mentions

_MARKUP = re.compile(r"</[^<>\n]{1,100}:\d+>|<(?:@[!&]?|#)\d+>|<a?:\w+:\d+>"
                     r"|<t:-?\d+(?::[tTdDfFR])?>")
"""What Discord shows as one thing and a cut must not split: a command's mention, a
member's, a role's, a channel's, a custom emoji, a timestamp."""


def cut(text: str, limit: int) -> str:
    """``text`` within ``limit`` characters (Discord's: 2000 for a message's content):
    as it is when it fits, else cut with "…" at its end, never inside a mention (a half
    ``</move:12`` would show as raw text): a mention the cut meets goes whole.

    >>> cut("play with </move:123456789>", 20)
    'play with …'
    >>> cut("short", 2000)
    'short'
    """
    if len(text) <= limit:
        return text
    end = limit - 1
    for markup in _MARKUP.finditer(text, max(0, end - 120), end + 120):
        if markup.start() < end < markup.end():
            end = markup.start()
            break
    return text[:end] + "…"


def _leaves(option: app_commands.AppCommandGroup) -> Iterator[str]:
    if option.type is AppCommandOptionType.subcommand:
        yield option.qualified_name
    elif option.type is AppCommandOptionType.subcommand_group:
        for child in option.options:
            if isinstance(child, app_commands.AppCommandGroup):
                yield from _leaves(child)


def mentionable(command: app_commands.AppCommand) -> Iterator[tuple[str, int]]:
    """The paths of ``command`` a mention can name, each with the id it is mentioned by
    (its top command's): itself (``move``), or its subcommands (``tournament create``);
    a group alone is no command Discord runs, and has no mention."""
    if command.type is not AppCommandType.chat_input:
        return
    groups = [o for o in command.options if isinstance(o, app_commands.AppCommandGroup)]
    if not groups:
        yield command.name, command.id
        return
    for group in groups:
        for path in _leaves(group):
            yield path, command.id


class CommandIds:
    """The ids of the bot's commands per scope (None: global; a server's id: the copies
    synced to that server), as the last sync or fetch of that scope answered."""

    def __init__(self) -> None:
        self._scopes: dict[int | None, dict[str, int]] = {}

    def learn(self, commands: Iterable[app_commands.AppCommand],
              guild_id: int | None = None) -> None:
        """The commands of one scope as Discord answered (they replace what was known);
        a scope answered without any is forgotten (its server falls back on the global
        ones)."""
        ids = {path: known for c in commands for path, known in mentionable(c)}
        if ids:
            self._scopes[guild_id] = ids
        else:
            self.forget(guild_id)

    def forget(self, guild_id: int | None) -> None:
        """A scope that has no commands any more (cleared, or moved to another)."""
        self._scopes.pop(guild_id, None)

    def of_scope(self, guild_id: int | None) -> Mapping[str, int]:
        """The ids of one scope's commands, as learnt (empty: none known)."""
        return dict(self._scopes.get(guild_id, {}))

    def scopes(self) -> list[int | None]:
        """The scopes whose ids are known: None (global) first, then the servers'."""
        return sorted(self._scopes, key=lambda scope: -1 if scope is None else scope)

    def of_place(self, guild_id: int | None) -> Mapping[str, int] | None:
        """The ids a text read in server ``guild_id`` mentions commands by: its own
        copies', else the global ones; None in a direct message (``guild_id`` None) or
        before any is known."""
        if guild_id is None:
            return None
        return self._scopes.get(guild_id) or self._scopes.get(None) or None


@contextmanager
def mentioning(ids: CommandIds | None, guild_id: int | None) -> Iterator[None]:
    """Texts rendered within it name commands by mentions valid in server ``guild_id``
    (``ids``: the bot's); in a DM (None), or without ids, by name. A person whose name
    nobody has seen (``locales.i18n.Person``) is named by his mention, in a DM too."""
    with command_mentions(ids.of_place(guild_id) if ids is not None else None), \
            people_mentions():
        yield


@contextmanager
def plain_commands() -> Iterator[None]:
    """Texts rendered within it name commands by name (``/ziehen``): for a DM, and for
    what Discord shows as plain text, where a mention would be written out (a person's
    too: ``locales.i18n.Person`` is then neutral words)."""
    with command_mentions(None), people_mentions(False):
        yield
