"""The Discord permissions Tablero needs, the invite URL, and plain-words checks.

The bot asks for exactly what it uses, and nothing it does not:

* View Channel: see the channel a command was used in and the match threads.
* Send Messages / Send Messages in Threads: post boards, turn pings, reminders, results.
* Create Public Threads: one thread per accepted match (falls back to the channel).
* Read Message History: a match's thread is started from the bot's own announcement
  in the channel, which Discord allows only to who can read the channel's history.
* Embed Links: the board is an embed with the image attached.
* Attach Files: the board PNG, the replay GIF and the export files.

Replies to slash commands and buttons go through the interaction webhook and need no
channel permission; mentioning a player needs none either.

>>> sorted(name for name, on in REQUIRED_PERMISSIONS if on)[:2]
['attach_files', 'create_public_threads']
>>> permission_label("send_messages_in_threads")
'Send Messages in Threads'
"""

from __future__ import annotations

import base64
import binascii

import discord
from discord import app_commands

REQUIRED_PERMISSIONS = discord.Permissions(
    view_channel=True,
    send_messages=True,
    send_messages_in_threads=True,
    create_public_threads=True,
    read_message_history=True,
    embed_links=True,
    attach_files=True,
)
"""What the bot needs in every channel where games are played."""

POSTING_PERMISSIONS = discord.Permissions(
    view_channel=True, send_messages=True, embed_links=True, attach_files=True)
"""What posting a board in a channel needs."""

THREAD_OPENING_PERMISSIONS = discord.Permissions(
    view_channel=True, send_messages=True, send_messages_in_threads=True,
    create_public_threads=True, read_message_history=True)
"""What opening a match's thread needs: the announcement, then a thread started on it."""

THREAD_POSTING_PERMISSIONS = discord.Permissions(
    view_channel=True, send_messages_in_threads=True, embed_links=True, attach_files=True)
"""What posting a board inside a thread needs."""

SCOPES = ("bot", "applications.commands")

GUILD_INSTALL = app_commands.AppInstallationType(guild=True, user=False)
"""Tablero is installed in servers only (a user install would have no server to play in)."""

IN_SERVERS = app_commands.AppCommandContext(guild=True, dm_channel=False,
                                            private_channel=False)
"""Where commands are usable by default: in servers. ``/rules`` and ``/notify`` need no
server and also work in a DM with the bot (their own ``allowed_contexts``)."""

_LABELS = {
    "view_channel": "View Channel",
    "read_messages": "View Channel",
    "send_messages": "Send Messages",
    "send_messages_in_threads": "Send Messages in Threads",
    "create_public_threads": "Create Public Threads",
    "read_message_history": "Read Message History",
    "embed_links": "Embed Links",
    "attach_files": "Attach Files",
    "manage_guild": "Manage Server",
}


def permission_label(flag: str) -> str:
    """The name Discord's client shows for a permission flag."""
    return _LABELS.get(flag) or flag.replace("_", " ").title()


def missing_permissions(have: discord.Permissions, need: discord.Permissions) -> list[str]:
    """The labels of the permissions in ``need`` that ``have`` lacks, in Discord's order.

    >>> missing_permissions(discord.Permissions(send_messages=True), POSTING_PERMISSIONS)
    ['View Channel', 'Embed Links', 'Attach Files']
    """
    if have.administrator:
        return []
    return [permission_label(name) for name, on in need if on and not getattr(have, name)]


def invite_url(client_id: int) -> str:
    """The OAuth2 URL that adds the bot to a server with exactly the permissions it needs.

    >>> url = invite_url(1234)
    >>> "client_id=1234" in url and f"permissions={REQUIRED_PERMISSIONS.value}" in url
    True
    """
    return discord.utils.oauth_url(client_id, permissions=REQUIRED_PERMISSIONS, scopes=SCOPES)


def application_id_from_token(token: str) -> int | None:
    """The application (bot user) id encoded in the first part of a bot token.

    Only the public id part is decoded; the token itself is never printed or logged.

    >>> application_id_from_token("MTIzNDU2Nzg5.xxxx.yyyy")
    123456789
    >>> application_id_from_token("not a token") is None
    True
    """
    head = token.split(".", 1)[0]
    try:
        text = base64.b64decode(head + "=" * (-len(head) % 4), validate=True).decode("ascii")
    except (binascii.Error, UnicodeDecodeError, ValueError):
        return None
    return int(text) if text.isdigit() else None
