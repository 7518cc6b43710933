"""The server's games as a school (issue 44): ``/explorer``, the opening explorer, and
``/import``, a record file (an attachment or pasted text) as a match of the server.

The explorer answers privately: the next moves with their games and scores, a picture of
the position with the most played moves as arrows, a menu to go one move deeper and
buttons to go back. Where it stands is in the custom ids of the menu and the buttons, as
the service names the place (``MatchService.explorer_token``: the place itself, or, for a
line too long for a custom id, a short mark under which the database keeps it while
answers show it: ``service.explorer.PLACE_KEPT``), so they work after a restart and
nothing meant for the bot is shown to the reader; a button whose mark was removed says
privately to run ``/explorer`` again.

Answers posted by earlier versions kept the place in the embed's footer,
in English, and their menu and buttons carry none: a click on one reads the footer, and
the answer it edits is a new one. One whose footer cannot be read is answered privately
that it can no longer be followed.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass

import discord
from discord import app_commands
from discord.ext import commands

import rules
from bot import explorer
from bot.discordapp import embeds, errors
from bot.discordapp.cogs.challenges import GAME_MENU
from bot.discordapp.cogs.common import (
    Interaction,
    acknowledged,
    answer,
    games_matching,
    guild_id,
    known_game,
    reader,
)
from bot.discordapp.components import (
    EXPLORER_ROOM,
    ExplorerBack,
    ExplorerStep,
    match_buttons,
)
from locales.i18n import Text, _, _n, command, joined, listing, render
from locales.terms import game_name, seat_colour
from service import ExplorerView, MatchService, MatchStatus
from service.importer import MAX_RECORD_BYTES, too_large

OLD_FOOTER = "explorer"
"""The first word of the footer of an answer posted before the place moved into the
custom ids: ``explorer · <config> · <games> · <move>, <move>, ...``."""
SEPARATOR = " · "
MENU = 25  # Discord's most options in a menu
TITLE = 256  # Discord's longest embed title


def lost() -> Text:
    return _("This explorer message can no longer be followed: run {explorer} again.",
             explorer=command("explorer"))


@dataclass(frozen=True, slots=True)
class Standing:
    """Where an explorer message stands: the configuration, the games read and the line."""

    config: str
    source: str
    line: tuple[str, ...]

    @classmethod
    def of(cls, message: discord.Message | None) -> Standing:
        """What ``message``, an explorer answer posted before the place moved into the
        custom ids, says in its footer of where it stands."""
        try:
            text = (message.embeds[0].footer.text or "") if message is not None else ""
        except IndexError:
            text = ""
        parts = text.split(SEPARATOR)
        if len(parts) != 4 or parts[0] != OLD_FOOTER:
            raise errors.AdapterError(lost())
        line = tuple(m.strip() for m in parts[3].split(",") if m.strip())
        return cls(parts[1], parts[2], line)


def config_text(game: str) -> str:
    """The explorer's name of a game picked in the menu (``key:name=value,...``)."""
    choice = known_game(game)
    return " ".join([choice.key, *(f"{k}={v}" for k, v in choice.options.items())])


def explorer_embed(view: ExplorerView, loc: str) -> discord.Embed:
    lines = [render(explorer.summary(view), loc)]
    lines += [f"• {render(explorer.move_line(m), loc)}" for m in view.moves[:MENU]]
    more = len(view.moves) - MENU
    if more > 0:
        lines.append(render(_("…and {count} more", count=more), loc))
    note = explorer.rating_note(view.moves[:MENU])
    said = "" if note is None else f"\n\n{render(note, loc)}"
    title = render(explorer.title(view), loc)
    e = discord.Embed(title=title if len(title) <= TITLE else f"{title[:TITLE - 1]}…",
                      description="\n".join(lines)[:4000 - len(said)] + said,
                      colour=embeds.COLOUR)
    if len(title) > TITLE:  # a long line, cut in the title: the whole of it below
        e.set_footer(text=render(explorer.where(view), loc)[:2048])
    return e


def explorer_view(view: ExplorerView, loc: str, place: str | None = None
                  ) -> discord.ui.View:
    """The menu of next moves (most played first) and the back buttons, each with
    ``place`` (the service's name of where ``view`` stands) in its custom id."""
    options = [discord.SelectOption(label=m.display[:100], value=m.move[:100],
                                    description=render(_n("{count} game", "{count} games",
                                                          m.games, count=m.games),
                                                       loc)[:100])
               for m in view.moves[:MENU] if len(m.move) <= 100]
    components = discord.ui.View(timeout=None)
    components.add_item(ExplorerStep(options, place=place, placeholder=render(
        _("Go one move deeper"), loc)[:150]))
    components.add_item(ExplorerBack("back", place=place, loc=loc, disabled=not view.line))
    components.add_item(ExplorerBack("start", place=place, loc=loc, disabled=not view.line))
    return components


IMPORT_GAMES = [app_commands.Choice(name=v.name, value=key)
                for key, v in rules.VARIANTS.items()][:MENU]
"""The games /import reads, by name (a record's options are its own: none to pick)."""


class SchoolCog(commands.Cog, name="School"):
    """The opening explorer and the import of records."""

    def __init__(self, service: MatchService) -> None:
        self.service = service

    async def game_autocomplete(self, interaction: Interaction,
                                current: str) -> list[app_commands.Choice[str]]:
        return games_matching(interaction, current)

    async def _explore(self, interaction: Interaction, standing: Standing) -> ExplorerView:
        return await self.service.explorer(guild_id(interaction), interaction.user.id,
                                           standing.config, ", ".join(standing.line),
                                           standing.source)

    async def _standing(self, interaction: Interaction, place: str | None) -> Standing:
        """Where the answer clicked stands: the place its custom id names (None: an
        answer posted before places were named there, whose footer says it)."""
        if place is None:
            return Standing.of(interaction.message)
        found = await self.service.explorer_named(guild_id(interaction),
                                                  interaction.user.id, place)
        if found is None:  # a mark removed unused, or never kept here (a restored copy)
            raise errors.AdapterError(lost())
        return Standing(found.config, found.source, found.line)

    async def _show(self, interaction: Interaction, view: ExplorerView, *,
                    edit: bool) -> None:
        loc = reader(interaction)
        place = await self.service.explorer_token(guild_id(interaction),
                                                  interaction.user.id, view, EXPLORER_ROOM)
        e = explorer_embed(view, loc)
        drawn = await asyncio.to_thread(explorer.picture, view, loc)
        files = []
        if drawn is not None:
            e.set_image(url=f"attachment://{embeds.BOARD_FILE}")
            files.append(embeds.board_file(drawn.png, drawn.alt_text))
        components = explorer_view(view, loc, place)
        if edit:
            await interaction.edit_original_response(embed=e, view=components,
                                                     attachments=files)
        else:
            await interaction.followup.send(embed=e, view=components, files=files,
                                            ephemeral=True)

    @app_commands.command(name="explorer",
                          description="The moves played next in this server's finished games")
    @app_commands.guild_only()
    @app_commands.describe(line="Moves from the start, e.g. h3-e3 h10-g8",
                           games="Which finished games: all, this server's own, or imported")
    @app_commands.choices(games=[
        app_commands.Choice(name="all", value="all"),
        app_commands.Choice(name="played", value="played"),
        app_commands.Choice(name="imported", value="imported")])
    async def explorer(self, interaction: Interaction, game: str, line: str | None = None,
                       games: str = "all") -> None:
        async with acknowledged(interaction):
            # the line is read by the service: moves typed with notes or move numbers too
            first = await self.service.explorer(guild_id(interaction), interaction.user.id,
                                                config_text(game), line or "", games)
            await self._show(interaction, first, edit=False)

    if 0 < len(GAME_MENU) <= 25:
        explorer = app_commands.choices(game=GAME_MENU)(explorer)
    else:
        explorer = app_commands.autocomplete(game=game_autocomplete)(explorer)

    @commands.Cog.listener()
    async def on_explorer_step(self, interaction: Interaction, menu: ExplorerStep) -> None:
        async with errors.replying(interaction):
            await interaction.response.defer()
            standing = await self._standing(interaction, menu.place)
            deeper = Standing(standing.config, standing.source, (*standing.line, menu.picked))
            await self._show(interaction, await self._explore(interaction, deeper),
                             edit=True)

    @commands.Cog.listener()
    async def on_explorer_back(self, interaction: Interaction, button: ExplorerBack) -> None:
        async with errors.replying(interaction):
            await interaction.response.defer()
            standing = await self._standing(interaction, button.place)
            line = standing.line[:-1] if button.where == "back" else ()
            back = Standing(standing.config, standing.source, line)
            await self._show(interaction, await self._explore(interaction, back), edit=True)

    @app_commands.command(name="import", description="Import a game record: WXF or ICCS "
                          "Xiangqi, PDN Spanish draughts, or Tablero's own")
    @app_commands.guild_only()
    @app_commands.describe(file="The record file (UTF-8 text, at most 64 KB)",
                           text="Or the record pasted here",
                           game="The game, when the record does not say which")
    @app_commands.choices(game=IMPORT_GAMES)
    async def import_record(self, interaction: Interaction,
                            file: discord.Attachment | None = None, text: str | None = None,
                            game: str | None = None) -> None:
        async with acknowledged(interaction):
            if (file is None) == (text is None):
                raise errors.AdapterError(_("Give the record either as a file or as text, "
                                            "one of the two."))
            data: bytes | str
            if file is not None:
                if file.size > MAX_RECORD_BYTES:  # refused before it is downloaded
                    raise too_large(file.size)
                data = await file.read()
            else:
                data = text or ""
            done = await self.service.import_record(
                guild_id(interaction), interaction.channel_id or 0, interaction.user.id,
                data, game)
            m = done.match
            lines = [_n("Imported as match {match} ({game}): {count} move.",
                        "Imported as match {match} ({game}): {count} moves.", done.moves,
                        match=m.id, game=game_name(m.game, m.game_name), count=done.moves)]
            if done.players:
                lines.append(_("Players: {players}.", players=listing(
                    _("{seat}: {player}", seat=seat_colour(m.seats[s].name), player=name)
                    for s, name in sorted(done.players.items()))))
            lines.append(_("See it with `{history}` and `{analysis}`.",
                           history=command("history", match=m.id),
                           analysis=command("analysis", match=m.id)))
            buttons: dict[str, discord.ui.View] = {}
            if m.status is MatchStatus.ABORTED:  # the record does not end it: it may go on
                # the button opens the choice of seat and opponents; /continue takes a
                # clock too
                lines.append(_("Go on with it against someone: **Continue as a match** "
                               "below, or `{continue}`.", **{"continue": command(
                                   "continue", match=m.id, opponent="@…")}))
                buttons["view"] = match_buttons(m.id, m.ply, ["continue"],
                                                reader(interaction))
            await answer(interaction, joined(*lines, separator="\n"), **buttons)
