"""Looking things up: ``/help``, ``/games``, ``/leaderboard`` (all-time, or a season's;
and its page buttons), ``/stats`` and ``/rules``."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

import rules
from bot.discordapp import embeds, errors, media
from bot.discordapp.cogs.common import Interaction, acknowledged, answer, guild_id, reader
from bot.discordapp.cogs.seasons import season_choices
from bot.discordapp.components import LeaderboardButton, leaderboard_buttons, match_buttons
from bot.discordapp.mentions import cut
from locales.i18n import DEFAULT_LOCALE, Words, _, command, joined, option, render
from locales.terms import game_name, ladder_name
from service import MatchService, states

PER_PAGE = 10


def ladders() -> list[tuple[str, Words]]:
    """Every ladder (``service.states.ladders``) with its title."""
    return [(key, ladder_name(key)) for key in states.ladders()]


def ladder_choices(current: str = "", loc: str = DEFAULT_LOCALE
                   ) -> list[app_commands.Choice[str]]:
    """The ladders whose name (in ``loc`` or in English) has ``current``."""
    wanted = current.lower()
    return [app_commands.Choice(name=render(title, loc), value=key)
            for key, title in ladders()
            if wanted in render(title, loc).lower() or wanted in render(title, "en-US").lower()
            ][:25]


def ladder_title(ladder: str) -> Words:
    return next((title for key, title in ladders() if key == ladder), ladder)


def help_embed(loc: str) -> discord.Embed:
    """What ``/help`` shows a new player: how a game starts and is played, and the
    commands (by the names the reader's Discord shows them)."""
    lines: list[Words] = [
        _("**Start a game**: `{challenge}` with the game and your opponent (or nobody: "
          "anyone may join); they click **Accept**. Against the computer: its `{computer}` "
          "option.", challenge=command("challenge"), computer=option("computer")),
        _("**Play**: each match gets a thread. There, `{move}` offers the legal moves as you "
          "type (`c2-c3`, `h3-e3`, `f3xd5xf7`, `c2-e4 r3-5`); Querni's chosen set-up is "
          "handed in with `{setup}`. Whoever must move next is pinged, with the deadline.",
          move=command("move"), setup=command("setup")),
        _("**Your matches**: `{games}` lists them, those waiting on you first; `{board}` and "
          "`{history}` show one; `{draw}` and `{resign}` end one.",
          games=command("games"), board=command("board"), history=command("history"),
          draw=command("draw"), resign=command("resign")),
        _("**Learn and compare**: `{rules}` explains a game with a picture; `{stats}` and "
          "`{leaderboard}` show results.", rules=command("rules"), stats=command("stats"),
          leaderboard=command("leaderboard")),
        _("**Server managers**: `{settings}` sets days per move, the games channel, threads "
          "and the language of match threads; `{tournament}` runs a tournament.",
          settings=command("settings"), tournament=command("tournament create")),
    ]
    return discord.Embed(title=render(_("Tablero: board games with friends, over days"),
                                      loc)[:256],
                         description=cut("\n\n".join(render(line, loc) for line in lines),
                                         4096),
                         colour=embeds.COLOUR)


class InfoCog(commands.Cog, name="Info"):
    """Read-only commands: lists, ladders, records, rules."""

    def __init__(self, service: MatchService) -> None:
        self.service = service

    async def ladder_autocomplete(self, interaction: Interaction,
                                  current: str) -> list[app_commands.Choice[str]]:
        return ladder_choices(current, reader(interaction))

    @app_commands.command(name="help", description="How to play Tablero here: the first "
                                                   "steps and the commands")
    @app_commands.guild_only()
    async def help(self, interaction: Interaction) -> None:
        async with errors.replying(interaction):  # its commands by their mentions
            await answer(interaction, "", embed=help_embed(reader(interaction)))

    @app_commands.command(name="games",
                          description="Your matches here, the ones waiting on you first")
    @app_commands.guild_only()
    async def games(self, interaction: Interaction) -> None:
        async with acknowledged(interaction):
            matches = await self.service.games_of(guild_id(interaction), interaction.user.id)
            extra: dict[str, discord.ui.View] = {}
            loc = reader(interaction)
            if any(interaction.user.id in m.to_move for m in matches):
                extra["view"] = match_buttons(0, 0, ["next"], loc)  # 0: from the first
            await answer(interaction, "", embed=embeds.games_embed(
                interaction.user.id, matches, loc, self.service.clock.now()), **extra)

    async def season_autocomplete(self, interaction: Interaction,
                                  current: str) -> list[app_commands.Choice[int]]:
        if interaction.guild_id is None:
            return []
        return await season_choices(self.service, interaction.guild_id, str(current),
                                    reader(interaction))

    async def _board(self, interaction: Interaction, ladder: str, page: int,
                     season: int | None) -> tuple[discord.Embed, discord.ui.View]:
        where = guild_id(interaction)
        shown = await self.service.leaderboard(where, ladder, page, PER_PAGE, season=season)
        title: Words = ladder_title(shown.ladder)
        if season is not None:
            s = await self.service.season(where, season)
            title = joined(title, s.name(), separator=" · ")
        loc = reader(interaction)
        # the ladder as the service read it ("XIANGQI " is xiangqi): buttons carry it
        return (embeds.leaderboard_embed(shown, title, loc),
                leaderboard_buttons(shown.ladder, shown.page, shown.pages, loc, season))

    @app_commands.command(name="leaderboard", description="The server's ladder for a game")
    @app_commands.guild_only()
    @app_commands.autocomplete(game=ladder_autocomplete)
    @app_commands.autocomplete(season=season_autocomplete)
    @app_commands.describe(season="A season of this server (empty: the all-time board)")
    async def leaderboard(self, interaction: Interaction, game: str,
                          season: app_commands.Range[int, 1, 10**9] | None = None) -> None:
        async with acknowledged(interaction, ephemeral=False):
            embed, view = await self._board(interaction, game, 1, season)
            await interaction.edit_original_response(embed=embed, view=view)

    @commands.Cog.listener()
    async def on_leaderboard_page(self, interaction: Interaction,
                                  button: LeaderboardButton) -> None:
        async with errors.replying(interaction):
            await interaction.response.defer()
            embed, view = await self._board(interaction, button.ladder, button.page,
                                            button.season)
            await interaction.edit_original_response(embed=embed, view=view)

    @app_commands.command(name="stats", description="Ratings and results of a player here")
    @app_commands.guild_only()
    async def stats(self, interaction: Interaction, user: discord.Member | None = None) -> None:
        async with acknowledged(interaction):
            who = user or interaction.user
            stats = await self.service.stats(guild_id(interaction), who.id)
            titles = dict(ladders())
            await answer(interaction, "", embed=embeds.stats_embed(stats, titles,
                                                                   reader(interaction)))

    @app_commands.command(name="rules", description="How a game is played")
    @app_commands.allowed_contexts(guilds=True, dms=True, private_channels=False)
    @app_commands.autocomplete(game=ladder_autocomplete)
    async def rules_command(self, interaction: Interaction, game: str) -> None:
        async with acknowledged(interaction):
            key = game.removesuffix("-4")
            if key not in rules.VARIANTS:
                raise errors.AdapterError(
                    _("I don't know the game `{game}`; pick one from the list.", game=game))
            loc = reader(interaction)
            summary = render(media.rules_summary(key), loc)
            # the 4-player ladder shows the 4-player start, the plain key the 2-player one
            picture = await media.start_picture(key, 4 if game.endswith("-4") else 2, loc)
            e = discord.Embed(title=render(game_name(key, rules.variant(key).name), loc),
                              description=summary[:4000], colour=embeds.COLOUR)
            file = discord.utils.MISSING
            if picture is not None:
                e.set_image(url=f"attachment://{embeds.BOARD_FILE}")
                file = embeds.board_file(*picture)
            await interaction.followup.send(embed=e, ephemeral=True, file=file)
