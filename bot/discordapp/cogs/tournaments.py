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

import rules
from bot.discordapp import embeds, errors
from bot.discordapp.cogs.challenges import GAME_MENU
from bot.discordapp.cogs.common import (
    Interaction,
    acknowledged,
    answer,
    caller_of,
    guild_id,
    known_game,
    may_organise,
    reader,
    server_language,
)
from bot.discordapp.components import TournamentButton, tournament_buttons
from bot.discordapp.names import MemberNames
from locales.i18n import Words, _, _n, capitalized, command, joined, listing, render
from locales.terms import status
from render.table import draw_table
from service import MatchService, NameResolver
from service.tournament_records import (
    TournamentGame,
    TournamentRecord,
    describe_clock,
    vacation_words,
)
from service.tournaments import Result
from service.tournaments.model import format_words, tournament_title

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
        """``user``'s name, "" when unknown (the standings then say "Player 3")."""
        return self.names(guild, user) if self.names is not None else ""

    def _title(self, t: TournamentRecord) -> Words:
        v = rules.variant(t.game)
        return tournament_title(t.name, v.key, v.name, t.format)

    def _post(self, t: TournamentRecord, loc: str) -> discord.Embed:
        parts: list[Words] = [capitalized(format_words(t.format))]
        if t.rounds:
            parts.append(_n("{count} round", "{count} rounds", t.rounds))
        parts += [describe_clock(t), vacation_words(t), _("rated") if t.rated
                  else _("casual"), status(t.status.value)]
        e = discord.Embed(title=render(_("Tournament #{tournament}: {name}",
                                         name=self._title(t), tournament=t.id), loc),
                          description=render(joined(*parts, separator=" · "), loc))
        players = render(listing(f"<@{p}>" for p in t.players), loc) if t.players else \
            render(_("nobody yet"), loc)
        title = _("Players ({count}/{cap})", count=len(t.players), cap=t.cap) if t.cap \
            else _("Players ({count})", count=len(t.players))
        e.add_field(name=render(title, loc), value=players[:1000], inline=False)
        if t.registration_deadline is not None:
            e.add_field(name=render(_("Registration closes"), loc),
                        value=discord.utils.format_dt(t.registration_deadline, "R"))
        return e

    def _game_line(self, guild: int, g: TournamentGame) -> Words:
        if g.second is None:
            if g.result is Result.BYE:
                return _("Round {round}: {player} bye (1 point)", round=g.round,
                         player=f"<@{g.first}>")
            return _("Round {round}: {player} rests", round=g.round, player=f"<@{g.first}>")
        result: Words = g.result.value if g.result is not None else _("playing")
        line = _("Round {round} (replay {replay}): {first} vs {second} · {result}",
                 round=g.round, replay=g.replay, first=f"<@{g.first}>",
                 second=f"<@{g.second}>", result=result) if g.replay else \
            _("Round {round}: {first} vs {second} · {result}", round=g.round,
              first=f"<@{g.first}>", second=f"<@{g.second}>", result=result)
        if g.match_id is not None:
            return joined(line, _("match #{match}", match=g.match_id), separator=" · ")
        return line

    async def _pick(self, interaction: Interaction, tournament: int | None, *,
                    ended_too: bool = False) -> int:
        """The tournament named, else the newest open one; ``ended_too`` (standings,
        pairings, mine: they only read it): else the newest of all."""
        if tournament is not None:
            return tournament
        found = await self.service.tournaments(guild_id(interaction), running_only=True)
        if not found and ended_too:
            found = await self.service.tournaments(guild_id(interaction))
        if not found:
            raise errors.AdapterError(_("No tournament is open here: a manager can start one "
                                        "with {create}.", create=command("tournament create")))
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
        vacation="Whether players may take vacation in its games",
        clock="Or a time control: a bank with increment, e.g. 3d+1d/10d (3 days + 1 a "
              "move, at most 10)",
        claim_win="A lapsed clock waits for the opponent to claim the win instead of "
                  "ending the game",
        weekends="Off: clocks stop on each player's Saturday and Sunday")
    async def create(self, interaction: Interaction, game: str, format: FORMATS,
                     rounds: app_commands.Range[int, 1, 30] | None = None,
                     name: app_commands.Range[str, 1, 80] | None = None,
                     days: app_commands.Range[int, 1, 14] | None = None,
                     rated: bool = True, cap: app_commands.Range[int, 2, 256] | None = None,
                     registration_days: app_commands.Range[int, 1, 60] | None = None,
                     vacation: bool = True, clock: str | None = None,
                     claim_win: bool = False,
                     weekends: Literal["off", "on"] = "on") -> None:
        async with acknowledged(interaction):
            where = guild_id(interaction)
            if not await may_organise(self.service, interaction):
                raise errors.AdapterError(_(
                    "Creating a tournament needs the Manage Server permission or the "
                    "server's organiser role."))
            choice = known_game(game)
            channel = interaction.channel
            if channel is None:
                raise errors.AdapterError(_("Use this in a server channel."))
            t = await self.service.create_tournament(
                where, channel.id, interaction.user.id, choice.key, fmt=format,
                options=dict(choice.options), name=name, rounds=rounds, days=days,
                rated=rated, cap=cap, registration_days=registration_days,
                vacation=vacation, clock=clock, claim_win=claim_win,
                weekends_off=weekends == "off")
            if isinstance(channel, discord.abc.Messageable):
                loc = await server_language(self.service, interaction)
                await channel.send(embed=self._post(t, loc),
                                   view=tournament_buttons(t.id, loc))
            await answer(interaction, _("Tournament #{tournament} {name} is open: players "
                                        "join with the button; start it with {start}.",
                                        tournament=t.id, name=self._title(t),
                                        start=command("tournament start")))

    @app_commands.command(name="start", description="Close registration and start round 1")
    @app_commands.guild_only()
    async def start(self, interaction: Interaction, tournament: int | None = None) -> None:
        async with acknowledged(interaction):
            tid = await self._pick(interaction, tournament)
            manager = await may_organise(self.service, interaction)
            t = await self.service.start_tournament(tid, interaction.user.id, manager=manager,
                                                    caller=caller_of(interaction))
            await answer(interaction, _("{name} has started: round {round} is on.",
                                        name=self._title(t), round=t.round))

    @app_commands.command(name="cancel", description="Cancel a tournament")
    @app_commands.guild_only()
    async def cancel(self, interaction: Interaction, tournament: int | None = None) -> None:
        async with acknowledged(interaction):
            tid = await self._pick(interaction, tournament)
            manager = await may_organise(self.service, interaction)
            t = await self.service.cancel_tournament(tid, interaction.user.id, manager=manager,
                                                     caller=caller_of(interaction))
            await answer(interaction, _("{name} is cancelled; games under way go on as "
                                        "ordinary matches.", name=self._title(t)))

    @app_commands.command(name="remove", description="Remove a player from a tournament")
    @app_commands.guild_only()
    async def remove(self, interaction: Interaction, player: discord.Member,
                     tournament: int | None = None) -> None:
        async with acknowledged(interaction):
            tid = await self._pick(interaction, tournament)
            manager = await may_organise(self.service, interaction)
            t = await self.service.remove_from_tournament(
                tid, interaction.user.id, player.id, manager=manager, caller=caller_of(interaction))
            await answer(interaction, _("{player} is out of {name}.",
                                        player=player.display_name, name=self._title(t)))

    @app_commands.command(name="standings", description="A tournament's standings")
    @app_commands.guild_only()
    async def standings(self, interaction: Interaction, tournament: int | None = None,
                        export: bool = False) -> None:
        async with acknowledged(interaction):
            where = guild_id(interaction)
            tid = await self._pick(interaction, tournament, ended_too=True)
            t = await self.service.get_tournament(tid, caller=caller_of(interaction))
            if isinstance(self.names, MemberNames):  # a picture shows no mention
                await self.names.fetch(where, t.players)
            names = {p: self._name(where, p) for p in t.players}
            loc = reader(interaction)
            table = (await self.service.tournament_table(tid, names,
                                                         caller=caller_of(interaction))).shown(loc)
            image = await asyncio.to_thread(
                draw_table, table.headers, table.rows, title=table.title,
                subtitle=table.subtitle, align=table.align, top_rows=table.top_rows,
                faded_rows=table.faded_rows, locale=loc)
            files = [discord.File(io.BytesIO(image.png), "standings.png",
                                  description=image.alt_text[:1000])]
            if export:
                csv = await self.service.tournament_csv(tid, names, caller=caller_of(interaction))
                files.append(discord.File(io.BytesIO(csv.encode()), "standings.csv"))
            await answer(interaction, "", embed=embeds.standings_embed(table, loc),
                         files=files)

    @app_commands.command(name="pairings", description="The games of a round")
    @app_commands.guild_only()
    async def pairings(self, interaction: Interaction,
                       round: app_commands.Range[int, 1, 600] | None = None,
                       tournament: int | None = None) -> None:
        async with acknowledged(interaction):
            where = guild_id(interaction)
            tid = await self._pick(interaction, tournament, ended_too=True)
            games = await self.service.tournament_pairings(tid, round,
                                                           caller=caller_of(interaction))
            await answer(interaction, joined(*(self._game_line(where, g) for g in games),
                                             separator="\n")
                         if games else _("No games yet."))

    @app_commands.command(name="mine", description="Your games in a tournament")
    @app_commands.guild_only()
    async def mine(self, interaction: Interaction, tournament: int | None = None) -> None:
        async with acknowledged(interaction):
            where = guild_id(interaction)
            tid = await self._pick(interaction, tournament, ended_too=True)
            games = await self.service.tournament_games_of(tid, interaction.user.id,
                                                           caller=caller_of(interaction))
            await answer(interaction, joined(*(self._game_line(where, g) for g in games),
                                             separator="\n")
                         if games else _("You have no games in it (yet)."))

    # ------------------------------------------------------------------ buttons

    @commands.Cog.listener()
    async def on_tournament_button(self, interaction: Interaction,
                                   button: TournamentButton) -> None:
        async with acknowledged(interaction):
            tid, user = button.tournament_id, interaction.user.id
            if button.action == "join":
                t = await self.service.join_tournament(tid, user, caller=caller_of(interaction))
                said = _("You are in {name}.", name=self._title(t))
            else:
                t = await self.service.leave_tournament(tid, user, caller=caller_of(interaction))
                said = _("You left {name}.", name=self._title(t))
            message = interaction.message
            if message is not None:
                loc = await server_language(self.service, interaction)
                await message.edit(embed=self._post(t, loc))
            await answer(interaction, said)
