"""``/season schedule|reset|list``: leaderboard seasons of a server. Changing them needs
Manage Server or the server's organiser role; anyone may list them. The seasons
themselves (when they end, what a season rating is) are ``service.seasons``."""

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
    guild_id,
    may_organise,
)
from locales.i18n import DEFAULT_LOCALE, Text, _, command, joined, option
from service import MatchService
from service.seasons import Schedule, SeasonChange

SCHEDULES = Literal["monthly", "quarterly", "manual", "off"]


def schedule_words(schedule: str) -> Text:
    """A schedule in words."""
    return {
        Schedule.MONTHLY: _("monthly (each calendar month, UTC)"),
        Schedule.QUARTERLY: _("quarterly (each calendar quarter, UTC)"),
        Schedule.MANUAL: _("manual (until an organiser resets it)"),
    }.get(Schedule(schedule), _("off"))


async def season_choices(service: MatchService, guild: int, current: str,
                         loc: str = DEFAULT_LOCALE) -> list[app_commands.Choice[int]]:
    """The server's seasons (newest first) whose name (in ``loc``) holds ``current``, for
    ``/leaderboard season:``."""
    out = []
    for s in await service.seasons(guild):
        name = s.name().render(loc)
        if current.strip().lower() in name.lower():
            out.append(app_commands.Choice(name=name[:100], value=s.number))
    return out[:25]


class SeasonsCog(commands.GroupCog, group_name="season",
                 group_description="Leaderboard seasons: monthly, quarterly or by hand"):
    """Leaderboard seasons in a server."""

    def __init__(self, service: MatchService) -> None:
        self.service = service
        super().__init__()

    async def _require_organiser(self, interaction: Interaction) -> None:
        if not await may_organise(self.service, interaction):
            raise errors.AdapterError(_(
                "Changing the seasons needs the Manage Server permission or the server's "
                "organiser role."))

    @app_commands.command(name="schedule", description="Run the leaderboards by season")
    @app_commands.guild_only()
    @app_commands.describe(every="Monthly or quarterly (UTC calendar), manual, or off")
    async def schedule(self, interaction: Interaction, every: SCHEDULES) -> None:
        async with acknowledged(interaction):
            await self._require_organiser(interaction)
            channel = interaction.channel_id or 0
            change = await self.service.configure_seasons(guild_id(interaction), channel,
                                                          every)
            await answer(interaction, _("Seasons: {schedule}. {started}",
                                        schedule=schedule_words(every),
                                        started=change.words()))

    @app_commands.command(name="reset", description="End the season now and start the next")
    @app_commands.guild_only()
    async def reset(self, interaction: Interaction) -> None:
        async with acknowledged(interaction):
            await self._require_organiser(interaction)
            started = await self.service.reset_season(guild_id(interaction),
                                                      interaction.channel_id or 0)
            await answer(interaction, SeasonChange(started, began=True).words())

    @app_commands.command(name="list", description="This server's leaderboard seasons")
    @app_commands.guild_only()
    async def list_seasons(self, interaction: Interaction) -> None:
        async with acknowledged(interaction):
            where = guild_id(interaction)
            settings = await self.service.get_guild_settings(where)
            found = await self.service.seasons(where)
            lines = [_("Seasons: {schedule}.", schedule=schedule_words(settings.seasons))]
            now = discord.utils.utcnow()
            lines += [_("{season}: running", season=s.name()) if s.closed_at is None
                      and (s.ends_at is None or s.ends_at > now) else s.name()
                      for s in found[:20]]
            lines.append(_("See one with {leaderboard} and its {season} option.",
                           leaderboard=command("leaderboard"), season=option("season")))
            await answer(interaction, joined(*lines, separator="\n"))
