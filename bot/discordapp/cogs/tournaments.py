"""``/tournament create|start|cancel|remove|standings|pairings|mine`` and the Join /
Leave buttons of a tournament's post. Organising (create, start, cancel, remove) needs
Manage Server or the server's organiser role (``/settings organiser_role``); the
organiser of a tournament may also start, cancel and remove in it.
Every game is an ordinary match (challenge and accept by the service), so it has its
thread and notifications like any other."""

from __future__ import annotations

import asyncio
import io
from typing import Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.discordapp import embeds, errors
from bot.discordapp.cogs.challenges import GAME_MENU
from bot.discordapp.cogs.common import (
    Interaction,
    acknowledged,
    answer,
    guild_id,
    known_game,
    locale_of,
    may_organise,
)
from bot.discordapp.components import TournamentButton, tournament_buttons
from bot.service import MatchService, NameResolver
from bot.service.tournament_records import TournamentGame, TournamentRecord
from bot.service.tournaments import Result
from locales.i18n import _
from render.table import draw_table

FORMATS = Literal["round robin", "double round robin", "swiss", "knockout"]


class TournamentsCog(commands.GroupCog, group_name="tournament",
                     group_description="Round robins, Swiss and knockout tournaments"):
    """Tournaments in a server."""

    def __init__(self, service: MatchService, names: NameResolver | None = None) -> None:
        self.service = service
        self.names = names
        super().__init__()

    # ------------------------------------------------------------------ words

    def _name(self, guild: int, user: int) -> str:
        return (self.names(guild, user) if self.names is not None else "") or str(user)

    def _post(self, t: TournamentRecord) -> discord.Embed:
        rounds = f" · {t.rounds} rounds" if t.rounds else ""
        e = discord.Embed(title=f"{t.name} (tournament #{t.id})",
                          description=f"{t.format.label.capitalize()}{rounds} · "
                                      f"{t.days_per_move} days per move · "
                                      f"{'rated' if t.rated else 'casual'} · "
                                      f"{t.status.value}")
        players = ", ".join(f"<@{p}>" for p in t.players) or "nobody yet"
        cap = f"/{t.cap}" if t.cap else ""
        e.add_field(name=f"Players ({len(t.players)}{cap})", value=players[:1000],
                    inline=False)
        if t.registration_deadline is not None:
            e.add_field(name="Registration closes",
                        value=discord.utils.format_dt(t.registration_deadline, "R"))
        return e

    def _game_line(self, guild: int, g: TournamentGame) -> str:
        if g.second is None:
            what = "bye (1 point)" if g.result is Result.BYE else "rests"
            return f"Round {g.round}: <@{g.first}> {what}"
        again = f" (replay {g.replay})" if g.replay else ""
        result = g.result.value if g.result is not None else "playing"
        where = f" · match #{g.match_id}" if g.match_id is not None else ""
        return (f"Round {g.round}{again}: <@{g.first}> vs <@{g.second}> · "
                f"{result}{where}")

    async def _pick(self, interaction: Interaction, tournament: int | None) -> int:
        if tournament is not None:
            return tournament
        found = await self.service.tournaments(guild_id(interaction), running_only=True)
        if not found:
            raise errors.AdapterError("No tournament is open here: a manager can start one "
                                      "with /tournament create.")
        return found[0].id

    # ------------------------------------------------------------------ commands

    @app_commands.command(name="create", description="Create a tournament (Manage Server)")
    @app_commands.guild_only()
    @app_commands.choices(game=GAME_MENU)
    @app_commands.describe(
        game="The game and its options (two-player games)", format="How players are paired",
        rounds="Swiss: the number of rounds", name="The tournament's name",
        days="Days per move (1-14)", rated="Games count for the leaderboard",
        cap="Start as soon as this many have joined",
        registration_days="Start this many days from now",
        vacation="Whether players may take vacation in its games")
    async def create(self, interaction: Interaction, game: str, format: FORMATS,
                     rounds: app_commands.Range[int, 1, 30] | None = None,
                     name: app_commands.Range[str, 1, 80] | None = None,
                     days: app_commands.Range[int, 1, 14] | None = None,
                     rated: bool = True, cap: app_commands.Range[int, 2, 256] | None = None,
                     registration_days: app_commands.Range[int, 1, 60] | None = None,
                     vacation: bool = True) -> None:
        async with acknowledged(interaction):
            where = guild_id(interaction)
            if not await may_organise(self.service, interaction):
                raise errors.AdapterError(_(
                    "Creating a tournament needs the Manage Server permission or the "
                    "server's organiser role.").render(locale_of(interaction)))
            choice = known_game(game)
            channel = interaction.channel
            if channel is None:
                raise errors.AdapterError("Use this in a server channel.")
            t = await self.service.create_tournament(
                where, channel.id, interaction.user.id, choice.key, fmt=format,
                options=dict(choice.options), name=name, rounds=rounds, days=days,
                rated=rated, cap=cap, registration_days=registration_days,
                vacation=vacation)
            if isinstance(channel, discord.abc.Messageable):
                await channel.send(embed=self._post(t), view=tournament_buttons(t.id))
            await answer(interaction, f"Tournament #{t.id} {t.name} is open: players join "
                                      f"with the button; start it with /tournament start.")

    @app_commands.command(name="start", description="Close registration and start round 1")
    @app_commands.guild_only()
    async def start(self, interaction: Interaction, tournament: int | None = None) -> None:
        async with acknowledged(interaction):
            tid = await self._pick(interaction, tournament)
            manager = await may_organise(self.service, interaction)
            t = await self.service.start_tournament(tid, interaction.user.id, manager=manager)
            await answer(interaction, f"{t.name} has started: round {t.round} is on.")

    @app_commands.command(name="cancel", description="Cancel a tournament")
    @app_commands.guild_only()
    async def cancel(self, interaction: Interaction, tournament: int | None = None) -> None:
        async with acknowledged(interaction):
            tid = await self._pick(interaction, tournament)
            manager = await may_organise(self.service, interaction)
            t = await self.service.cancel_tournament(tid, interaction.user.id, manager=manager)
            await answer(interaction, f"{t.name} is cancelled; games under way go on as "
                                      f"ordinary matches.")

    @app_commands.command(name="remove", description="Remove a player from a tournament")
    @app_commands.guild_only()
    async def remove(self, interaction: Interaction, player: discord.Member,
                     tournament: int | None = None) -> None:
        async with acknowledged(interaction):
            tid = await self._pick(interaction, tournament)
            manager = await may_organise(self.service, interaction)
            t = await self.service.remove_from_tournament(
                tid, interaction.user.id, player.id, manager=manager)
            await answer(interaction, f"{player.display_name} is out of {t.name}.")

    @app_commands.command(name="standings", description="A tournament's standings")
    @app_commands.guild_only()
    async def standings(self, interaction: Interaction, tournament: int | None = None,
                        export: bool = False) -> None:
        async with acknowledged(interaction):
            where = guild_id(interaction)
            tid = await self._pick(interaction, tournament)
            t = await self.service.get_tournament(tid)
            if t.guild_id != where:
                raise errors.AdapterError(f"There is no tournament #{tid} here.")
            names = {p: self._name(where, p) for p in t.players}
            table = await self.service.tournament_table(tid, names)
            image = await asyncio.to_thread(
                draw_table, table.headers, table.rows, title=table.title,
                subtitle=table.subtitle, align=table.align, top_rows=table.top_rows,
                faded_rows=table.faded_rows)
            files = [discord.File(io.BytesIO(image.png), "standings.png",
                                  description=image.alt_text[:1000])]
            if export:
                csv = await self.service.tournament_csv(tid, names)
                files.append(discord.File(io.BytesIO(csv.encode()), "standings.csv"))
            await answer(interaction, "", embed=embeds.standings_embed(table), files=files)

    @app_commands.command(name="pairings", description="The games of a round")
    @app_commands.guild_only()
    async def pairings(self, interaction: Interaction,
                       round: app_commands.Range[int, 1, 600] | None = None,
                       tournament: int | None = None) -> None:
        async with acknowledged(interaction):
            where = guild_id(interaction)
            tid = await self._pick(interaction, tournament)
            games = await self.service.tournament_pairings(tid, round)
            await answer(interaction, "\n".join(self._game_line(where, g) for g in games)
                         or "No games yet.")

    @app_commands.command(name="mine", description="Your games in a tournament")
    @app_commands.guild_only()
    async def mine(self, interaction: Interaction, tournament: int | None = None) -> None:
        async with acknowledged(interaction):
            where = guild_id(interaction)
            tid = await self._pick(interaction, tournament)
            games = await self.service.tournament_games_of(tid, interaction.user.id)
            await answer(interaction, "\n".join(self._game_line(where, g) for g in games)
                         or "You have no games in it (yet).")

    # ------------------------------------------------------------------ buttons

    @commands.Cog.listener()
    async def on_tournament_button(self, interaction: Interaction,
                                   button: TournamentButton) -> None:
        async with acknowledged(interaction):
            tid, user = button.tournament_id, interaction.user.id
            if button.action == "join":
                t = await self.service.join_tournament(tid, user)
                said = f"You are in {t.name}."
            else:
                t = await self.service.leave_tournament(tid, user)
                said = f"You left {t.name}."
            message = interaction.message
            if message is not None:
                await message.edit(embed=self._post(t))
            await answer(interaction, said)
