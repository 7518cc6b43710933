"""Preferences: ``/settings`` for a server (Manage Server) and ``/notify`` for a person."""

from __future__ import annotations

from typing import Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.discordapp import errors
from bot.discordapp.cogs.common import Interaction, acknowledged, answer, check_post, guild_id
from bot.service import MatchService
from bot.service.timecontrol import describe_time_control, parse_time_control
from locales.i18n import _, _n


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
                           clock="Default time control: days per move (3) or a bank "
                                 "with increment (3d+1d/10d)",
                           claim_win="A lapsed clock waits for the opponent to claim the "
                                     "win instead of ending the game",
                           vacation="Vacation days per player per year (earned monthly)",
                           auto_vacation="Spend a vacation day instead of a timeout while "
                                         "a player has any")
    async def settings(self, interaction: Interaction,
                       days: app_commands.Range[int, 1, 14] | None = None,
                       threads: bool | None = None,
                       channel: discord.TextChannel | None = None,
                       reminders: bool | None = None,
                       clear_channel: bool = False, clock: str | None = None,
                       claim_win: bool | None = None,
                       vacation: app_commands.Range[int, 0, 60] | None = None,
                       auto_vacation: bool | None = None) -> None:
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
                reminders=reminders, default_clock=clock, claim_win=claim_win,
                vacation_days=vacation, auto_vacation=auto_vacation)
            where = f"<#{s.games_channel_id}>" if s.games_channel_id else \
                "the channel where /challenge is used"
            pace = f"{s.default_days} days per move" if not s.default_clock else \
                describe_time_control(parse_time_control(s.default_clock)).render(
                    str(interaction.locale))
            clocks = _("Claim win on time {claim}; {vacation} of vacation a year; automatic "
                       "vacation {auto}.", claim=_("on") if s.claim_win else _("off"),
                       vacation=_n("{count} day", "{count} days", s.vacation_days),
                       auto=_("on") if s.auto_vacation else _("off"))
            await answer(interaction,
                         f"Settings: {pace} by default; threads "
                         f"{'on' if s.use_threads else 'off'}; challenges go to {where}; "
                         f"reminders {'on' if s.reminders else 'off'}. "
                         + clocks.render(str(interaction.locale)))

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
