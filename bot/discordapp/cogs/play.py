"""Playing a match: ``/move`` (with autocomplete), ``/board``, ``/resign``, ``/draw``,
``/setup``, ``/history``, the draw-offer buttons and the ``match`` option's autocomplete."""

from __future__ import annotations

import io
from typing import Literal

import discord
from discord import app_commands
from discord.ext import commands

import rules
from bot.discordapp import embeds, errors, media
from bot.discordapp.cogs.common import (
    Interaction,
    acknowledged,
    answer,
    caller_of,
    check_post,
    clicked_match,
    match_place,
    reader,
    resolve_match,
    within_budget,
)
from bot.discordapp.cogs.replays import open_stepper
from bot.discordapp.components import MatchButton, stepper_buttons, with_web_link
from bot.discordapp.names import MemberNames
from bot.discordapp.notices import ReplyFirst
from bot.web.links import WebLinks, spectator_url
from locales.analysis import nothing_lost, worth_unit
from locales.i18n import Words, _, _n, capitalized, joined, render
from locales.terms import move_display
from rules.notation import point_name
from service import MatchService, MatchView
from service.computer_seats import computer_title, is_computer
from service.imported_seats import is_imported
from service.texts import player_words


def draw_accepted(after: MatchView) -> Words:
    """The answer to accepting a draw offer: the draw, or (four players) the offer
    still waiting on the others."""
    if after.status.is_live and after.draw_offer_by is not None:
        return _("You accepted the draw; it is agreed once the other players accept too.")
    return _("You accepted the draw.")


class PlayCog(commands.Cog, name="Play"):
    """Moves and the commands about one match in play; ``web``: the web's links (/board
    carries the match's page when its server has the web on)."""

    def __init__(self, service: MatchService, notices: ReplyFirst, names: MemberNames,
                 web: WebLinks | None = None) -> None:
        self.service = service
        self.web = web
        self.notices = notices
        self.names = names

    # ------------------------------------------------------------------ autocomplete

    async def match_autocomplete(self, interaction: Interaction,
                                 current: str) -> list[app_commands.Choice[int]]:
        """The matches in play of the person typing. A mention does not render in a
        choice: one whose name nobody here knows is named by his seat's colour, and
        asked of Discord once the choices are answered (never within their 3 seconds),
        so the next choices name him."""
        unnamed: list[int] = []
        choices = await within_budget(self._match_choices(interaction, current, unnamed),
                                      "match")
        if not unnamed:
            return choices
        await interaction.response.autocomplete(choices)
        await self.names.fetch(interaction.guild_id, unnamed)
        return choices

    async def _match_choices(self, interaction: Interaction, current: str,
                             unnamed: list[int]) -> list[app_commands.Choice[int]]:
        if interaction.guild_id is None:
            return []
        matches = await self.service.active_matches_of(interaction.guild_id,
                                                       interaction.user.id)
        # past Discord's 25 choices, those waiting on the player must not be the cut ones
        matches = sorted(matches, key=lambda m: interaction.user.id not in m.to_move)
        out = []
        loc = reader(interaction)
        matches = [m for m in matches if not m.is_over]
        unnamed += self.names.unknown(interaction.guild_id,
                                      (u for m in matches for u in m.players()))
        for m in matches:
            others = [u for u in m.players() if u != interaction.user.id]
            names: Words = joined(*(player_words(m, self.names, u) for u in others),
                                  separator=", ") if others else _("open")
            said = _("{match} · {game} vs {players}", match=m.id, game=embeds.game_of(m),
                     players=names)
            if interaction.user.id in m.to_move:
                said = _("{match} · {game} vs {players} · your move", match=m.id,
                         game=embeds.game_of(m), players=names)
            label = render(said, loc)
            if current.strip() and current.strip().lower() not in label.lower():
                continue
            out.append(app_commands.Choice(name=label[:100], value=int(m.id)))
        return out[:25]

    async def move_autocomplete(self, interaction: Interaction,
                                current: str) -> list[app_commands.Choice[str]]:
        return await within_budget(self._move_choices(interaction, current), "move")

    async def _move_choices(self, interaction: Interaction,
                            current: str) -> list[app_commands.Choice[str]]:
        match_id = interaction.namespace.match
        m = await resolve_match(self.service, interaction,
                                match_id if isinstance(match_id, int) else None)
        suggestions = await self.service.suggest_moves(m.id, interaction.user.id, current,
                                                       caller=caller_of(interaction))
        return [app_commands.Choice(name=display[:100], value=canonical[:100])
                for canonical, display in suggestions][:25]

    # ------------------------------------------------------------------ commands

    @app_commands.command(name="move", description="Play a move (start typing to see the "
                                                   "legal ones)")
    @app_commands.guild_only()
    @app_commands.describe(move="Your move, e.g. h3-e3 or f3xd5", match="The match "
                           "(not needed inside its thread)")
    @app_commands.autocomplete(move=move_autocomplete)
    @app_commands.autocomplete(match=match_autocomplete)
    async def move(self, interaction: Interaction, move: str, match: int | None = None) -> None:
        async with acknowledged(interaction):
            m = await resolve_match(self.service, interaction, match)
            # The board goes to the match's thread or channel: refuse before moving when the
            # bot could not post it there (the move would land unseen).
            check_post(match_place(interaction, m))
            async with self.notices.after_reply():
                result = await self.service.move(m.id, interaction.user.id, move,
                                                 caller=caller_of(interaction))
                played = _("You played **{move}**.", move=move_display(result.display))
                await answer(interaction, joined(played, _("The match is over."))
                             if result.ended else played)

    @app_commands.command(name="board", description="Show a match's board")
    @app_commands.guild_only()
    @app_commands.describe(ply="Step through the game from this record entry (0: the start; "
                           "a set-up or resignation is one too)")
    @app_commands.autocomplete(match=match_autocomplete)
    async def board(self, interaction: Interaction, match: int | None = None,
                    ply: app_commands.Range[int, 0, 10**6] | None = None) -> None:
        async with acknowledged(interaction):
            m = await resolve_match(self.service, interaction, match)
            await self.names.fetch(interaction.guild_id, m.players())  # the picture's names
            if ply is not None:  # the replay stepper (issue 42)
                await open_stepper(self.service, self.names, interaction, m.id, ply)
                return
            loc = reader(interaction)
            image = await self.service.board_image(m.id, caller=caller_of(interaction),
                                                   locale=loc)
            headline = embeds.played(self.names.label(m.guild_id, m.last_move_by)
                                     if m.last_move_by else None,
                                     m.last_move) if m.last_move else None
            view: discord.ui.View = discord.utils.MISSING
            if self.web is not None and (await self.service.get_guild_settings(
                    m.guild_id)).web:  # the match's page, when its server shows it
                view = with_web_link(None, spectator_url(
                    self.web.base_url, self.web.signer.spectator(m.id, m.guild_id)), loc)
            await interaction.followup.send(
                embed=embeds.board_embed(m, loc, headline=headline, image=image is not None),
                ephemeral=True, file=embeds.board_file(image.png, image.alt)
                if image is not None else discord.utils.MISSING, view=view)

    @app_commands.command(name="resign", description="Resign a match")
    @app_commands.guild_only()
    @app_commands.autocomplete(match=match_autocomplete)
    async def resign(self, interaction: Interaction, match: int | None = None) -> None:
        async with acknowledged(interaction):
            m = await resolve_match(self.service, interaction, match)
            async with self.notices.after_reply():
                await self.service.resign(m.id, interaction.user.id, caller=caller_of(interaction))
                await answer(interaction, _("You resigned."))

    @app_commands.command(name="hint",
                          description="Against the computer: the move its top level would "
                                      "play (3 a game)")
    @app_commands.guild_only()
    @app_commands.describe(match="The match (not needed inside its thread)")
    @app_commands.autocomplete(match=match_autocomplete)
    async def hint(self, interaction: Interaction, match: int | None = None) -> None:
        async with acknowledged(interaction):
            m = await resolve_match(self.service, interaction, match)
            move, reason, left = await self.service.hint(m.id, interaction.user.id,
                                                         caller=caller_of(interaction))
            await answer(interaction, _n(
                "Hint: `{move}` ({reason}). {count} hint left in this game.",
                "Hint: `{move}` ({reason}). {count} hints left in this game.", left,
                move=move, reason=reason))

    @app_commands.command(name="analysis",
                          description="A finished game: the moves the engine thinks cost most")
    @app_commands.guild_only()
    @app_commands.describe(match="The finished match (not needed inside its thread)")
    async def analysis(self, interaction: Interaction, match: int) -> None:
        async with acknowledged(interaction):
            found = await self.service.game_analysis(match, caller=caller_of(interaction))
            marked = found.marked
            record = await self.service.record(match, caller_of(interaction))
            game = record.match.game
            if not marked:
                await answer(interaction, nothing_lost(worth_unit(game)))
                return
            locale = str(interaction.locale)

            guild = interaction.guild_id or 0
            # its pictures name the players (no mentions there): those unknown are asked
            await self.names.fetch(interaction.guild_id, record.match.players())

            def player(user: int | None) -> Words:
                """Who played it, in the reply: a name or mention (the images name him
                as the boards do: ``media.move_notes``)."""
                if user is None:
                    return "?"
                if is_computer(user):
                    return computer_title(user)
                if is_imported(user):
                    return self.names.title(guild, user, record.match)
                return self.names.label(guild, user)
            lines = [capitalized(a.line(player(a.user), game=game, move=f"`{a.move}`",
                                        better=f"`{a.better}`")) for a in marked]
            notes = media.move_notes(marked, guild, self.names, record.match)
            pictures = await media.analysis_pictures_of(
                record, notes, self.names, locale, better={a.ply: a.better for a in marked},
                curve=found.curve)
            files = [] if pictures is None or pictures.graph is None else [
                discord.File(io.BytesIO(pictures.graph), filename=f"analysis-{match}-graph.png",
                             description=pictures.graph_alt[:1024])]
            files += [] if pictures is None else [
                discord.File(io.BytesIO(pictures.sheet), filename=f"analysis-{match}.png",
                             description=render(_("The moves the analysis marks: {moves}",
                                                  moves=pictures.alt_text), locale)[:1024]),
                discord.File(io.BytesIO(pictures.replay), filename=f"analysis-{match}.gif",
                             description=render(media.replay_description(
                                 record, _("Replay of match {match}: the marked moves are "
                                           "framed in red.", match=str(match)),
                                 media.drawn_names(record, self.names, locale)),
                                 locale)[:1024])]
            await answer(interaction, joined(*lines, separator="\n"), files=files)

    @app_commands.command(name="draw", description="Offer, accept or decline a draw")
    @app_commands.guild_only()
    @app_commands.autocomplete(match=match_autocomplete)
    async def draw(self, interaction: Interaction, action: Literal["offer", "accept", "decline"],
                   match: int | None = None) -> None:
        async with acknowledged(interaction):
            m = await resolve_match(self.service, interaction, match)
            user = interaction.user.id
            async with self.notices.after_reply():
                if action == "offer":
                    await self.service.offer_draw(m.id, user, caller=caller_of(interaction))
                    await answer(interaction, _("Draw offered."))
                elif action == "accept":
                    after = await self.service.accept_draw(m.id, user,
                                                           caller=caller_of(interaction))
                    await answer(interaction, draw_accepted(after))
                else:
                    await self.service.decline_draw(m.id, user, caller=caller_of(interaction))
                    await answer(interaction, _("You withdrew your draw offer.")
                                 if m.draw_offer_by == user else _("You declined the draw."))

    @app_commands.command(name="setup", description="Querni 'choose' setup: your 16 numbers "
                                                    "in start-cell order")
    @app_commands.guild_only()
    @app_commands.describe(arrangement="16 numbers, e.g. 5 1 9 … 12, for your cells in "
                                       "order (Blue: a1 b1 c1 h1 …, Pink: a5 b5 c5 h5 …)")
    @app_commands.autocomplete(match=match_autocomplete)
    async def setup(self, interaction: Interaction, arrangement: str,
                    match: int | None = None) -> None:
        async with acknowledged(interaction):
            m = await resolve_match(self.service, interaction, match)
            async with self.notices.after_reply():
                try:
                    done = await self.service.submit_setup(
                        m.id, interaction.user.id, arrangement, caller=caller_of(interaction))
                except rules.RulesError as exc:
                    # his own cells, named: "/rules querni explains it" did not (and
                    # Pink's are not the a1 b1 c1 ... the option's description starts with)
                    seat = next((s.seat for s in m.seats
                                 if s.user_id == interaction.user.id), None)
                    position, _marks = await self.service.position(
                        m.id, caller_of(interaction))
                    cells = position.setup_cells(seat) if seat is not None else ()
                    if not cells:
                        raise
                    raise errors.AdapterError(_(
                        "{error}. Write your numbers 1-16, each once, for your cells "
                        "{cells}, in this order.",
                        error=capitalized(errors.rules_detail(exc)),
                        cells=" ".join(point_name(*p) for p in cells))) from exc
                await answer(interaction, _("Arrangement submitted: both are in, and the game "
                                            "begins.") if embeds.all_arranged(done.match) else
                             _("Arrangement submitted; it stays hidden from your "
                               "opponent until both have submitted."))

    @app_commands.command(name="history", description="A match's moves, export file and replay")
    @app_commands.guild_only()
    @app_commands.autocomplete(match=match_autocomplete)
    async def history(self, interaction: Interaction, match: int | None = None) -> None:
        async with acknowledged(interaction):
            m = await resolve_match(self.service, interaction, match)
            # the export and the replay name the players (no mentions there)
            await self.names.fetch(interaction.guild_id, m.players())
            h = await self.service.history(m.id, caller_of(interaction))
            files = [discord.File(io.BytesIO(h.export.encode()),
                                  filename=f"match-{m.id}.{h.export_format}")]
            loc = reader(interaction)
            if h.note is not None:  # his own note, in his own (ephemeral) reply only
                files.append(discord.File(io.BytesIO(h.note.encode()),
                                          filename=f"match-{m.id}-note.txt",
                                          description=render(_("Your private note"), loc)))
            replay = await media.replay_gif(self.service, m.id, self.names,
                                            caller_of(interaction), loc) if h.entries else None
            if replay is not None:  # an analysis stored: its costly moves are marked
                gif, _marked, said = replay
                files.append(discord.File(io.BytesIO(gif), filename=f"match-{m.id}.gif",
                                          description=render(said, loc)[:1024]))
            steps = stepper_buttons(m.id, 0, len(h.entries), edit=False,
                                    live=h.match.status.is_live) if h.entries \
                else discord.utils.MISSING
            def player(user: int) -> Words:
                return self.names.title(m.guild_id, user, m) if is_imported(user) \
                    else embeds.mention(user)
            await interaction.followup.send(embeds.history_text(h, loc, player), files=files,
                                            ephemeral=True, view=steps)

    # ------------------------------------------------------------------ buttons

    @commands.Cog.listener()
    async def on_match_button(self, interaction: Interaction, button: MatchButton) -> None:
        """The draw-offer buttons (the challenge buttons are the Challenges cog's)."""
        if button.action not in ("drawyes", "drawno"):
            return
        async with acknowledged(interaction):
            m = await clicked_match(self.service, interaction, button)
            if m.draw_offer_by is None:
                raise errors.StaleButton()
            async with self.notices.after_reply():
                if button.action == "drawyes":
                    after = await self.service.accept_draw(m.id, interaction.user.id,
                                                           caller=caller_of(interaction))
                    await answer(interaction, draw_accepted(after))
                else:
                    await self.service.decline_draw(m.id, interaction.user.id,
                                                    caller=caller_of(interaction))
                    await answer(interaction, _("You withdrew your draw offer.")
                                 if m.draw_offer_by == interaction.user.id
                                 else _("You declined the draw."))
