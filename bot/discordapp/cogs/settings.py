"""Preferences: ``/settings`` for a server (Manage Server: days, threads, games channel,
reminders, the organiser role, the seasons' schedule) and ``/notify`` for a person."""

from __future__ import annotations

from typing import Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.discordapp import errors
from bot.discordapp.cogs.common import (
    Interaction,
    acknowledged,
    answer,
    check_post,
    guild_id,
    locale_of,
)
from bot.discordapp.cogs.seasons import SCHEDULES, schedule_words, started_words
from bot.service import MatchService
from locales.i18n import _


class SettingsCog(commands.Cog, name="Settings"):
    """Server settings and notification preferences."""

    def __init__(self, service: MatchService) -> None:
        self.service = service

    @app_commands.command(name="settings", description="Server settings for Tablero "
                                                       "(Manage Server)")
    @app_commands.guild_only()
    @app_commands.default_permissions(manage_guild=True)
    @app_commands.checks.has_permissions(manage_guild=True)
    @app_commands.describe(days="Default days per move (1-14)",
                           threads="Open a thread per match",
                           channel="Post new challenges in this channel",
                           reminders="Remind players before their time runs out",
                           clear_channel="Post challenges where /challenge is used again "
                                         "(forget the games channel)",
                           organiser_role="Members with this role may run tournaments and "
                                          "seasons",
                           clear_organiser_role="Only Manage Server runs tournaments and "
                                                "seasons again",
                           seasons="Run the leaderboards by season (ends the running one)")
    async def settings(self, interaction: Interaction,
                       days: app_commands.Range[int, 1, 14] | None = None,
                       threads: bool | None = None,
                       channel: discord.TextChannel | None = None,
                       reminders: bool | None = None,
                       clear_channel: bool = False,
                       organiser_role: discord.Role | None = None,
                       clear_organiser_role: bool = False,
                       seasons: SCHEDULES | None = None) -> None:
        async with acknowledged(interaction):
            where_id = guild_id(interaction)
            locale = locale_of(interaction)
            if channel is not None and clear_channel:
                raise errors.AdapterError("Either set a games channel or clear it, not both.")
            if organiser_role is not None and clear_organiser_role:
                raise errors.AdapterError(_("Either set an organiser role or clear it, not "
                                            "both.").render(locale))
            if channel is not None:
                check_post(channel)
            chosen: int | str | None = channel.id if channel else "keep"
            if clear_channel:
                chosen = None
            role: int | str | None = organiser_role.id if organiser_role else "keep"
            if clear_organiser_role:
                role = None
            s = await self.service.update_guild_settings(
                where_id, default_days=days, use_threads=threads, games_channel_id=chosen,
                reminders=reminders, organiser_role_id=role)
            started = ""
            if seasons is not None and seasons != s.seasons:
                begun = await self.service.configure_seasons(
                    where_id, interaction.channel_id or 0, seasons)
                started = " " + started_words(begun).render(locale)
                s = await self.service.get_guild_settings(where_id)
            where = f"<#{s.games_channel_id}>" if s.games_channel_id else \
                "the channel where /challenge is used"
            await answer(interaction,
                         f"Settings: {s.default_days} days per move by default; threads "
                         f"{'on' if s.use_threads else 'off'}; challenges go to {where}; "
                         f"reminders {'on' if s.reminders else 'off'}. "
                         + _("Organiser role: {role}. Seasons: {schedule}.",
                             role=f"<@&{s.organiser_role_id}>" if s.organiser_role_id
                             else _("none (Manage Server only)"),
                             schedule=schedule_words(s.seasons)).render(locale) + started)

    @app_commands.command(name="notify", description="How you are told it's your move")
    @app_commands.allowed_contexts(guilds=True, dms=True, private_channels=False)
    @app_commands.describe(mode="A mention in the match thread, or a direct message")
    async def notify(self, interaction: Interaction, mode: Literal["mention", "dm"]) -> None:
        async with acknowledged(interaction):
            await self.service.update_user_prefs(interaction.user.id, mode)
            await answer(interaction,
                         "You'll be mentioned in the match thread when it's your move."
                         if mode == "mention" else
                         "You'll get a direct message when it's your move (keep DMs from server "
                         "members open).")
