"""What every cog does the same way: acknowledge first, answer, find the match meant,
check that its board can be posted, answer autocomplete within a budget.

Acknowledge first: every command and component defers (or answers) before it awaits
storage or rendering, so a slow database never turns into "The application did not
respond"; the answer follows within the interaction's 15 minutes.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Coroutine
from contextlib import asynccontextmanager
from typing import Any, TypeVar

import discord

from bot.discordapp import errors
from bot.discordapp.catalog import GameChoice, find_choice, game_choices
from bot.discordapp.components import MatchButton
from bot.discordapp.mentions import cut
from bot.discordapp.permissions import (
    POSTING_PERMISSIONS,
    THREAD_POSTING_PERMISSIONS,
    missing_permissions,
)
from locales.i18n import Words, _, command, joined, negotiate, option, render
from service import Caller, MatchService, MatchView

log = logging.getLogger("tablero.discord")

Interaction = discord.Interaction[discord.Client]
T = TypeVar("T")

AUTOCOMPLETE_BUDGET = 2.0
"""Seconds an autocomplete may take: Discord drops answers after 3 s."""


def caller_of(interaction: Interaction) -> Caller:
    """Who reads, and from which server (None: a DM): the service shows a match only in
    its own server, and to its participants in DMs."""
    return Caller(interaction.guild_id, interaction.user.id)


def reader(interaction: Interaction) -> str:
    """The language of a reply to ``interaction``: the user's Discord locale."""
    return negotiate(str(interaction.locale))


async def server_language(service: MatchService, interaction: Interaction) -> str:
    """The language of what the bot posts in the server for everyone (match threads, a
    tournament's post): ``/settings language``, else the server's Discord language."""
    if interaction.guild_id is not None:
        settings = await service.get_guild_settings(interaction.guild_id)
        if settings.language:
            return negotiate(settings.language)
    guild = interaction.guild
    return negotiate(str(guild.preferred_locale) if guild is not None else None)


def games_matching(interaction: Interaction,
                   current: str) -> list[discord.app_commands.Choice[str]]:
    """The ``game`` option's autocomplete: the menu's entries, in the reader's language,
    whose name holds what was typed (Discord shows 25 at most)."""
    needle, loc = current.lower(), reader(interaction)
    menu = [discord.app_commands.Choice(name=render(c.title, loc)[:100], value=c.value)
            for c in game_choices()]
    return [c for c in menu if needle in c.name.lower()][:25]


def known_game(game: str) -> GameChoice:
    """The menu entry ``game`` names (a key, label or choice value); refused with the list."""
    choice = find_choice(game)
    if choice is None:
        names = joined(*(c.title for c in game_choices()), separator=", ")
        raise errors.AdapterError(_("I don't know the game `{game}`. Choose one of: {games}.",
                                    game=game, games=names))
    return choice


async def may_organise(service: MatchService, interaction: Interaction) -> bool:
    """Whether the user may organise tournaments and seasons here: Manage Server, or the
    server's organiser role (``/settings organiser_role``)."""
    if interaction.permissions.manage_guild:
        return True
    role = (await service.get_guild_settings(guild_id(interaction))).organiser_role_id
    user = interaction.user
    return role is not None and isinstance(user, discord.Member) and \
        any(r.id == role for r in user.roles)


def guild_id(interaction: Interaction) -> int:
    if interaction.guild_id is None:
        raise errors.AdapterError(_("Use this in a server channel, not in DMs."))
    return interaction.guild_id


async def acknowledge(interaction: Interaction, *, ephemeral: bool = True) -> None:
    """Defer (the user sees "thinking…") before any await that may be slow."""
    if not interaction.response.is_done():
        await interaction.response.defer(ephemeral=ephemeral, thinking=True)


@asynccontextmanager
async def acknowledged(interaction: Interaction, *,
                       ephemeral: bool = True) -> AsyncIterator[None]:
    """Acknowledge at once, then run the block; an error in it is answered to the person
    acting as ``errors`` words it. Every command and match button runs in one."""
    async with errors.replying(interaction):
        await acknowledge(interaction, ephemeral=ephemeral)
        yield


async def answer(interaction: Interaction, text: Words, **kwargs: Any) -> None:
    """The ephemeral answer to the person acting, in his language."""
    said = cut(render(text, reader(interaction)), 2000)  # a translation may run longer
    if interaction.response.is_done():
        await interaction.followup.send(said, ephemeral=True, **kwargs)
    else:
        await interaction.response.send_message(said, ephemeral=True, **kwargs)


async def within_budget(work: Coroutine[Any, Any, list[T]], what: str) -> list[T]:
    """Autocomplete choices from ``work``, or none when it fails or is too slow."""
    # A race with a sleep rather than ``wait_for``: the same deadline, and a wait SimCord's
    # virtual clock recognises in tests.
    task = asyncio.ensure_future(work)
    budget = asyncio.ensure_future(asyncio.sleep(AUTOCOMPLETE_BUDGET))
    await asyncio.wait((task, budget), return_when=asyncio.FIRST_COMPLETED)
    budget.cancel()
    if not task.done():
        task.cancel()
        log.warning("%s autocomplete took over %.0f s; answered with no choices", what,
                    AUTOCOMPLETE_BUDGET)
        return []
    exc = task.exception()
    if exc is None:
        return task.result()
    if errors.user_message(exc) is None:
        log.error("%s autocomplete failed", what, exc_info=exc)
    return []


def check_post(channel: object) -> None:
    """Raise MissingPermissions unless the bot can post boards in ``channel``."""
    if not isinstance(channel, discord.TextChannel | discord.Thread):
        return
    me = channel.guild.me
    need = THREAD_POSTING_PERMISSIONS if isinstance(channel, discord.Thread) \
        else POSTING_PERMISSIONS
    missing = missing_permissions(channel.permissions_for(me), need)
    if missing:
        raise errors.MissingPermissions(missing, channel.mention)


def match_place(interaction: Interaction, m: MatchView) -> object:
    """The match's thread, else its channel, from the cache (None if unknown)."""
    return interaction.client.get_channel(m.thread_id or m.channel_id)


async def resolve_match(service: MatchService, interaction: Interaction,
                        match_id: int | None) -> MatchView:
    """The match named by the option, else the match of this thread, else the user's
    only active match in this server: read once, and handed on."""
    if match_id is not None:
        return await service.get_match(match_id, caller_of(interaction))
    channel = interaction.channel
    if isinstance(channel, discord.Thread):
        found = await service.match_in_thread(channel.id)
        if found is not None:
            return found
    active = await service.active_matches_of(guild_id(interaction), interaction.user.id)
    if len(active) == 1:
        return active[0]
    if not active:
        raise errors.NoMatchHere(_("You have no active match here. Start one with "
                                   "`{challenge}`.", challenge=command("challenge")))
    raise errors.NoMatchHere(_(
        "You have several matches: use this in the match's thread, or pick one in the "
        "`{match}` option (`{games}` lists them).", match=option("match"),
        games=command("games")))


async def clicked_match(service: MatchService, interaction: Interaction,
                        button: MatchButton) -> MatchView:
    """The match a button acts on; a click on a button posted at another ply than the
    match's is refused."""
    m = await service.get_match(button.match_id, caller_of(interaction))
    if m.ply != button.ply:
        raise errors.StaleButton()
    return m
