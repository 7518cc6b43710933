"""Preferences: ``/settings`` for a server (Manage Server) and ``/notify`` for a person."""

from __future__ import annotations

from typing import Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.discordapp import errors
from bot.discordapp.cogs.common import Interaction, acknowledged, answer, check_post, guild_id
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
                           takebacks_rated="Allow takebacks by consent in rated games "
                                           "(casual games always allow them)")
    async def settings(self, interaction: Interaction,
                       days: app_commands.Range[int, 1, 14] | None = None,
                       threads: bool | None = None,
                       channel: discord.TextChannel | None = None,
                       reminders: bool | None = None,
                       clear_channel: bool = False,
                       takebacks_rated: bool | None = None) -> None:
        async with acknowledged(interaction):
            where_id = guild_id(interaction)
            if channel is not None and clear_channel:
                raise errors.AdapterError("Either set a games channel or clear it, not both.")
            if channel is not None:
                check_post(channel)
            chosen: int | str | None = channel.id if channel else "keep"
            if clear_channel:
                chosen = None
            s = await self.service.update_guild_settings(
                where_id, default_days=days, use_threads=threads, games_channel_id=chosen,
                reminders=reminders, takebacks_rated=takebacks_rated)
            where = f"<#{s.games_channel_id}>" if s.games_channel_id else \
                "the channel where /challenge is used"
            await answer(interaction,
                         f"Settings: {s.default_days} days per move by default; threads "
                         f"{'on' if s.use_threads else 'off'}; challenges go to {where}; "
                         f"reminders {'on' if s.reminders else 'off'}. " + (
                             _("Takebacks in rated games: allowed.") if s.takebacks_rated
                             else _("Takebacks in rated games: not allowed (casual games "
                                    "always allow them).")).render(str(interaction.locale)))

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
