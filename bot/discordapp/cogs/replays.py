"""The replay stepper (issue 42): the board at any ply of a match, with ⏮ ◀ ▶ ⏭ under it.

``/board ply:K`` opens it privately; the buttons under a match's replay post and under a
``/history`` reply open one for whoever clicks; the buttons under a stepper edit that one
message. Each click is acknowledged before anything is read or drawn (Discord's three
seconds), and the board comes from the service's kept replay of the record
(``MatchService.board_at``): one lookup and one drawing a click. The buttons' custom ids
carry the match and the ply, so they work after a restart.
"""

from __future__ import annotations

import discord
from discord.ext import commands

from bot.discordapp import embeds, errors
from bot.discordapp.cogs.common import Interaction, caller_of, reader
from bot.discordapp.components import StepButton, stepper_buttons
from bot.discordapp.names import MemberNames
from locales.i18n import Words, _, joined, render
from locales.terms import move_display
from service import MatchService
from service.computer_seats import computer_title, is_computer
from service.plies import PlyBoard, headline

STEPPER_FILE = "ply.png"
"""The stepped board's attachment (replaced at each click)."""


def ply_headline(board: PlyBoard, who: Words | None) -> Words:
    """What the stepped board shows, in moves as players count them
    (:func:`service.plies.headline`: the words of the console and the web too), the move
    in bold."""
    shown = None if board.step is None else \
        joined("**", move_display(board.step.display), "**", separator="")
    return headline(board, who, shown)


def ply_embed(board: PlyBoard, who: Words | None, loc: str) -> discord.Embed:
    m = board.match
    e = discord.Embed(title=render(_("{title} · match {match}", title=embeds.game_title(m),
                                     match=m.id), loc),
                      colour=embeds.COLOUR, description=render(ply_headline(board, who), loc))
    if board.note is not None:  # a set-up's bare board: why (a name begins it: as written)
        e.description = f"{e.description}\n{render(board.note, loc)}"
    # ratings only while the match is live: an earlier ply of a finished game is shown
    # as if it went on, but its seats' numbers are today's, not the game's
    e.add_field(name=render(_("Players"), loc),
                value=embeds.seat_lines(m, loc, ratings=board.live), inline=True)
    if board.image is not None:
        e.set_image(url=f"attachment://{STEPPER_FILE}")
    # the entry among the record's, the unit of /board's ply option (every move, and a
    # set-up, a resignation, a skip too): where "ply:K" takes him back to this board
    e.set_footer(text=render(_("Record entry {ply} of {last}", ply=board.ply,
                               last=board.last), loc))
    return e


def _who(names: MemberNames, board: PlyBoard) -> Words | None:
    user = board.step.user_id if board.step is not None else None
    if user is None:
        return None
    if is_computer(user):
        return computer_title(user)
    return names.title(board.match.guild_id, user, board.match)


async def stepper(service: MatchService, names: MemberNames, interaction: Interaction,
                  match_id: int, ply: int | None
                  ) -> tuple[discord.Embed, discord.File | None, discord.ui.View]:
    """The stepper at ``ply`` of match ``match_id`` (None: the latest), in the reader's
    language, as the reader may see it."""
    loc = reader(interaction)
    board = await service.board_at(match_id, ply, caller_of(interaction), loc)
    file = None if board.image is None else embeds.board_file(
        board.image.png, board.image.alt, STEPPER_FILE)
    return (ply_embed(board, _who(names, board), loc), file,
            stepper_buttons(match_id, board.ply, board.last, live=board.live))


async def open_stepper(service: MatchService, names: MemberNames, interaction: Interaction,
                       match_id: int, ply: int | None) -> None:
    """A new private stepper for the one acting (already acknowledged)."""
    embed, file, view = await stepper(service, names, interaction, match_id, ply)
    await interaction.followup.send(embed=embed, view=view, ephemeral=True,
                                    file=file or discord.utils.MISSING)


class ReplaysCog(commands.Cog, name="Replays"):
    """The replay stepper's buttons; ``/board ply:K`` (the Play cog) opens it too."""

    def __init__(self, service: MatchService, names: MemberNames) -> None:
        self.service = service
        self.names = names

    @commands.Cog.listener()
    async def on_step_button(self, interaction: Interaction, button: StepButton) -> None:
        async with errors.replying(interaction):
            if not button.edit:  # under a public post: a stepper of his own
                await interaction.response.defer(ephemeral=True, thinking=True)
                await open_stepper(self.service, self.names, interaction, button.match_id,
                                   button.target)
                return
            await interaction.response.defer()  # before reading or drawing anything
            embed, file, view = await stepper(self.service, self.names, interaction,
                                              button.match_id, button.target)
            await interaction.edit_original_response(
                embed=embed, view=view, attachments=[file] if file is not None else [])
