"""Puzzles from the server's own finished games (issue 44): ``/puzzle next`` gives the reader
his open puzzle or the next one (ephemeral: the board seen from the puzzle's side, "Red to
move and win material"); ``/puzzle answer`` takes a move, picked with the autocomplete of
the legal moves as ``/move`` offers them; a right move plays the reply and asks for the
next, a wrong one shows the refutation and the solution. ``/puzzle leaderboard`` is the
server's best solvers; ``/puzzle daily`` (Manage Server) posts a puzzle a day in a
channel, through the outbox (``DiscordNotifier.daily_puzzle``)."""

from __future__ import annotations

import asyncio
from typing import Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot import puzzles
from bot.discordapp import embeds, errors
from bot.discordapp.cogs.common import (
    Interaction,
    acknowledged,
    answer,
    check_post,
    guild_id,
    reader,
    within_budget,
)
from bot.discordapp.names import in_text
from locales.i18n import Words, _, joined, render
from service import MatchService, NameResolver, PuzzleView


def puzzle_embed(view: PuzzleView, lines: list[Words], loc: str, *,
                 image: bool) -> discord.Embed:
    e = discord.Embed(title=render(puzzles.heading(view), loc)[:256],
                      description=render(joined(*lines, separator="\n"), loc)[:4000],
                      colour=embeds.COLOUR)
    if image:
        e.set_image(url=f"attachment://{embeds.BOARD_FILE}")
    return e


class PuzzlesCog(commands.GroupCog, group_name="puzzle",
                 group_description="Puzzles from this server's finished games"):
    """/puzzle next, answer, leaderboard and daily."""

    def __init__(self, service: MatchService, names: NameResolver | None = None) -> None:
        self.service = service
        self.names = names
        super().__init__()

    async def _send(self, interaction: Interaction, view: PuzzleView, lines: list[Words],
                    said: Words) -> None:
        """The puzzle as it stands with ``lines`` above it; ``said`` ends the alt text."""
        loc = reader(interaction)
        drawn = await asyncio.to_thread(puzzles.picture_of, view.position, view.seat, said,
                                        loc, view.last)
        files = [] if drawn is None else [embeds.board_file(drawn.png, drawn.alt_text)]
        await interaction.followup.send(
            embed=puzzle_embed(view, lines, loc, image=drawn is not None), files=files,
            ephemeral=True)

    @app_commands.command(name="next", description="Your puzzle from this server's games, "
                          "or the next one")
    @app_commands.guild_only()
    @app_commands.describe(puzzle="A puzzle's number (the daily puzzle's, or one to try "
                           "again)")
    async def next_puzzle(self, interaction: Interaction,
                          puzzle: app_commands.Range[int, 1] | None = None) -> None:
        async with acknowledged(interaction):
            view = await self.service.puzzle(guild_id(interaction), interaction.user.id,
                                             puzzle)
            task = puzzles.task(view.game, view.position, view.seat, view.goal)
            await self._send(interaction, view, [task, puzzles.source(view),
                                                 puzzles.progress(view),
                                                 puzzles.record_line(view.player)],
                             puzzles.caption(view))

    async def move_autocomplete(self, interaction: Interaction,
                                current: str) -> list[app_commands.Choice[str]]:
        return await within_budget(self._move_choices(interaction, current), "puzzle")

    async def _move_choices(self, interaction: Interaction,
                            current: str) -> list[app_commands.Choice[str]]:
        if interaction.guild_id is None:
            return []
        found = await self.service.puzzle_moves(interaction.guild_id, interaction.user.id,
                                                current)
        return [app_commands.Choice(name=display[:100], value=canonical[:100])
                for canonical, display in found]

    @app_commands.command(name="answer", description="Your move in your puzzle")
    @app_commands.guild_only()
    @app_commands.describe(move="The move, e.g. h3-e3 (pick one from the list)")
    @app_commands.autocomplete(move=move_autocomplete)
    async def answer_move(self, interaction: Interaction, move: str) -> None:
        async with acknowledged(interaction):
            done = await self.service.answer_puzzle(guild_id(interaction),
                                                    interaction.user.id, move)
            lines = puzzles.answer_lines(done)
            await self._send(interaction, done.puzzle, lines, joined(*lines))

    @app_commands.command(name="leaderboard", description="This server's best puzzle "
                          "solvers")
    @app_commands.guild_only()
    async def leaderboard(self, interaction: Interaction) -> None:
        async with acknowledged(interaction, ephemeral=False):
            where = guild_id(interaction)
            board = await self.service.puzzle_leaderboard(where)

            def name(user: int) -> str:
                known = self.names(where, user) if self.names is not None else ""
                return in_text(known) if known else f"<@{user}>"
            loc = reader(interaction)
            e = discord.Embed(title=render(_("Puzzle leaderboard"), loc),
                              description=render(joined(
                                  *puzzles.leaderboard_lines(board, name), separator="\n"),
                                  loc)[:4000], colour=embeds.COLOUR)
            await interaction.followup.send(embed=e)

    @app_commands.command(name="daily", description="Post a puzzle a day in a channel "
                          "(Manage Server)")
    @app_commands.guild_only()
    @app_commands.describe(state="On: one puzzle a day; off: none",
                           channel="Where (default: this channel)")
    async def daily(self, interaction: Interaction, state: Literal["on", "off"],
                    channel: discord.TextChannel | None = None) -> None:
        async with acknowledged(interaction):
            where = guild_id(interaction)
            # a subcommand cannot carry default permissions: checked here
            if not interaction.permissions.manage_guild:
                raise errors.AdapterError(_("Only members with Manage Server can turn the "
                                            "daily puzzle on or off."))
            if state == "off":
                await self.service.set_daily_puzzle(where, None)
                await answer(interaction, _("Daily puzzle off."))
                return
            check_post(channel or interaction.channel)
            place_id = channel.id if channel is not None else interaction.channel_id
            if place_id is None:
                raise errors.AdapterError(_("Name a text channel for the daily puzzle."))
            await self.service.set_daily_puzzle(where, place_id)
            if not await self.service.daily_puzzle_ready(where):  # an empty server
                await answer(interaction, _(
                    "Daily puzzle on: one a day in {channel}. There is no puzzle to post "
                    "yet: the first comes within a day of one being found in this "
                    "server's finished games.", channel=f"<#{place_id}>"))
                return
            await answer(interaction, _("Daily puzzle on: one a day in {channel}, the first "
                                        "within a minute.", channel=f"<#{place_id}>"))
