"""Looking things up: ``/games``, ``/leaderboard`` (and its page buttons), ``/stats`` and
``/rules``."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

import rules
from bot.discordapp import embeds, errors, media
from bot.discordapp.cogs.common import Interaction, acknowledged, answer, guild_id
from bot.discordapp.components import LeaderboardButton, leaderboard_buttons, match_buttons
from bot.service import MatchService

PER_PAGE = 10


def ladder_choices(current: str = "") -> list[app_commands.Choice[str]]:
    """The ladders (a game, ``<game>-4`` for its 4-player games) whose name has ``current``."""
    out = []
    for key, v in rules.VARIANTS.items():
        out.append(app_commands.Choice(name=v.name, value=key))
        if any(v.seat_count(**options) == 4 for options in v.option_sets()):
            out.append(app_commands.Choice(name=f"{v.name}, 4 players", value=f"{key}-4"))
    return [c for c in out if current.lower() in c.name.lower()][:25]


def ladder_title(ladder: str) -> str:
    return next((c.name for c in ladder_choices() if c.value == ladder), ladder)


class InfoCog(commands.Cog, name="Info"):
    """Read-only commands: lists, ladders, records, rules."""

    def __init__(self, service: MatchService) -> None:
        self.service = service

    async def ladder_autocomplete(self, interaction: Interaction,
                                  current: str) -> list[app_commands.Choice[str]]:
        return ladder_choices(current)

    @app_commands.command(name="games",
                          description="Your matches here, the ones waiting on you first")
    @app_commands.guild_only()
    async def games(self, interaction: Interaction) -> None:
        async with acknowledged(interaction):
            matches = await self.service.games_of(guild_id(interaction), interaction.user.id)
            extra: dict[str, discord.ui.View] = {}
            if any(interaction.user.id in m.to_move for m in matches):
                extra["view"] = match_buttons(0, 0, ["next"])  # 0: from the first
            await answer(interaction, "", embed=embeds.games_embed(
                interaction.user.id, matches, self.service.clock.now()), **extra)

    @app_commands.command(name="leaderboard", description="The server's ladder for a game")
    @app_commands.guild_only()
    @app_commands.autocomplete(game=ladder_autocomplete)
    async def leaderboard(self, interaction: Interaction, game: str) -> None:
        async with acknowledged(interaction, ephemeral=False):
            page = await self.service.leaderboard(guild_id(interaction), game, 1, PER_PAGE)
            # the ladder as the service read it ("XIANGQI " is xiangqi): buttons carry it
            await interaction.edit_original_response(
                embed=embeds.leaderboard_embed(page, ladder_title(page.ladder)),
                view=leaderboard_buttons(page.ladder, page.page, page.pages))

    @commands.Cog.listener()
    async def on_leaderboard_page(self, interaction: Interaction,
                                  button: LeaderboardButton) -> None:
        async with errors.replying(interaction):
            await interaction.response.defer()
            page = await self.service.leaderboard(guild_id(interaction), button.ladder,
                                                  button.page, PER_PAGE)
            await interaction.edit_original_response(
                embed=embeds.leaderboard_embed(page, ladder_title(button.ladder)),
                view=leaderboard_buttons(button.ladder, page.page, page.pages))

    @app_commands.command(name="stats", description="Ratings and results of a player here")
    @app_commands.guild_only()
    async def stats(self, interaction: Interaction, user: discord.Member | None = None) -> None:
        async with acknowledged(interaction):
            who = user or interaction.user
            stats = await self.service.stats(guild_id(interaction), who.id)
            titles = {c.value: c.name for c in ladder_choices()}
            await answer(interaction, "", embed=embeds.stats_embed(stats, titles))

    @app_commands.command(name="rules", description="How a game is played")
    @app_commands.allowed_contexts(guilds=True, dms=True, private_channels=False)
    @app_commands.autocomplete(game=ladder_autocomplete)
    async def rules_command(self, interaction: Interaction, game: str) -> None:
        async with acknowledged(interaction):
            key = game.removesuffix("-4")
            if key not in rules.VARIANTS:
                raise errors.AdapterError(
                    f"I don't know the game `{game}`; pick one from the list.")
            summary = media.rules_summary(key)
            # the 4-player ladder shows the 4-player start, the plain key the 2-player one
            picture = await media.start_picture(key, 4 if game.endswith("-4") else 2)
            e = discord.Embed(title=rules.variant(key).name, description=summary[:4000],
                              colour=embeds.COLOUR)
            file = discord.utils.MISSING
            if picture is not None:
                e.set_image(url=f"attachment://{embeds.BOARD_FILE}")
                file = embeds.board_file(*picture)
            await interaction.followup.send(embed=e, ephemeral=True, file=file)
