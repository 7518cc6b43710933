"""What each command and button does: resolve the match, check permissions, call the
service, reply. Replies to the person acting are ephemeral; everything others must see is
posted by the notifier as new messages.
"""

from __future__ import annotations

import io
import logging
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands

import rules
from bot.discordapp import embeds, errors, media
from bot.discordapp.catalog import find_choice, game_choices
from bot.discordapp.components import leaderboard_buttons
from bot.discordapp.permissions import (
    POSTING_PERMISSIONS,
    THREAD_POSTING_PERMISSIONS,
    missing_permissions,
)
from bot.service.views import MatchView

if TYPE_CHECKING:
    from bot.discordapp.client import TableroBot

log = logging.getLogger("tablero.discord")

Interaction = discord.Interaction["TableroBot"]
PER_PAGE = 10


def _guild_id(interaction: Interaction) -> int:
    if interaction.guild_id is None:
        raise errors.AdapterError("Use this in a server channel, not in DMs.")
    return interaction.guild_id


async def _ack(interaction: Interaction, text: str, **kwargs: Any) -> None:
    if interaction.response.is_done():
        await interaction.followup.send(text, ephemeral=True, **kwargs)
    else:
        await interaction.response.send_message(text, ephemeral=True, **kwargs)


async def _defer(interaction: Interaction) -> None:
    """Answer within Discord's 3 s before work that may be slow (SQLite, rendering)."""
    if not interaction.response.is_done():
        await interaction.response.defer(ephemeral=True, thinking=True)


class Handlers:
    def __init__(self, bot: TableroBot) -> None:
        self.bot = bot

    @property
    def service(self) -> Any:
        return self.bot.service

    # ------------------------------------------------------------------ helpers

    async def run(self, interaction: Interaction, work: Any) -> None:
        """Run ``work`` (a coroutine) turning expected errors into ephemeral replies."""
        try:
            await work
        except Exception as exc:
            await errors.reply_error(interaction, exc)

    def check_post(self, channel: Any) -> None:
        """Raise MissingPermissions unless the bot can post boards in ``channel``."""
        if not isinstance(channel, discord.TextChannel | discord.Thread):
            return
        me = channel.guild.me
        need = THREAD_POSTING_PERMISSIONS if isinstance(channel, discord.Thread) \
            else POSTING_PERMISSIONS
        missing = missing_permissions(channel.permissions_for(me), need)
        if missing:
            raise errors.MissingPermissions(missing, channel.mention)

    async def resolve_match(self, interaction: Interaction, match_id: int | None) -> int:
        """The match named by the option, else the match of this thread, else the user's
        only active match in this server."""
        if match_id is not None:
            return match_id
        channel = interaction.channel
        if isinstance(channel, discord.Thread):
            found = await self.service.match_in_thread(channel.id)
            if found is not None:
                return int(found.id)
        active = await self.service.active_matches_of(_guild_id(interaction),
                                                      interaction.user.id)
        if len(active) == 1:
            return int(active[0].id)
        if not active:
            raise errors.NoMatchHere(
                "You have no active match here. Start one with `/challenge`.")
        raise errors.NoMatchHere(
            "You have several matches: use this in the match's thread, or pick one in the "
            "`match` option (`/games` lists them).")

    # ------------------------------------------------------------------ autocomplete

    async def match_choices(self, interaction: Interaction,
                            current: str) -> list[app_commands.Choice[int]]:
        if interaction.guild_id is None:
            return []
        matches = await self.service.active_matches_of(interaction.guild_id,
                                                       interaction.user.id)
        out = []
        for m in matches:
            if m.is_over:
                continue
            others = [u for u in m.players() if u != interaction.user.id]
            names = ", ".join(self._name(interaction, u) for u in others) or "open"
            turn = " · your move" if interaction.user.id in m.to_move else ""
            label = f"{m.id} · {m.game_name} vs {names}{turn}"
            if current.strip() and current.strip().lower() not in label.lower():
                continue
            out.append(app_commands.Choice(name=label[:100], value=int(m.id)))
        return out[:25]

    def _name(self, interaction: Interaction, user_id: int) -> str:
        guild = interaction.guild
        member = guild.get_member(user_id) if guild else None
        user = member or self.bot.get_user(user_id)
        return user.display_name if user else str(user_id)

    async def move_choices(self, interaction: Interaction,
                           current: str) -> list[app_commands.Choice[str]]:
        try:
            match_id = await self.resolve_match(interaction,
                                                getattr(interaction.namespace, "match", None))
            suggestions = await self.service.suggest_moves(match_id, interaction.user.id, current)
        except Exception as exc:
            if errors.user_message(exc) is None:
                log.exception("move autocomplete failed")
            return []
        return [app_commands.Choice(name=display[:100], value=canonical[:100])
                for canonical, display in suggestions][:25]

    def seat_choices(self, interaction: Interaction,
                     current: str) -> list[app_commands.Choice[int]]:
        choice = find_choice(getattr(interaction.namespace, "game", None) or "")
        if choice is None:
            return []
        v = rules.variant(choice.key)
        seats = v.seat_count(**choice.options)
        out = [app_commands.Choice(name=f"{v.seat_name(s, seats)}"
                                        f"{' (moves first)' if s == 0 else ''}", value=s)
               for s in range(seats)]
        return [c for c in out if current.lower() in c.name.lower()][:25]

    def ladder_choices(self, current: str) -> list[app_commands.Choice[str]]:
        out = []
        for key, v in rules.VARIANTS.items():
            out.append(app_commands.Choice(name=v.name, value=key))
            if any(v.seat_count(**options) == 4 for options in v.option_sets()):
                out.append(app_commands.Choice(name=f"{v.name} · 4 players", value=f"{key}-4"))
        return [c for c in out if current.lower() in c.name.lower()][:25]

    # ------------------------------------------------------------------ challenges

    async def challenge(self, interaction: Interaction, game: str,
                        opponents: Sequence[discord.Member], days: int | None,
                        rated: bool, seat: int | None) -> None:
        await self.run(interaction, self._challenge(interaction, game, opponents, days,
                                                    rated, seat))

    async def _challenge(self, interaction: Interaction, game: str,
                         opponents: Sequence[discord.Member], days: int | None,
                         rated: bool, seat: int | None) -> None:
        guild_id = _guild_id(interaction)
        choice = find_choice(game)
        if choice is None:
            names = ", ".join(c.label for c in game_choices())
            raise errors.AdapterError(f"I don't know the game `{game}`. Choose one of: {names}.")
        if any(o.bot for o in opponents):
            raise errors.AdapterError("Bots can't play: challenge a person (or nobody, for an "
                                      "open challenge).")
        if any(o.id == interaction.user.id for o in opponents):
            raise errors.AdapterError("You can't challenge yourself: pick someone else, or "
                                      "leave the opponent empty for an open challenge.")
        channel = await self._games_channel(interaction, guild_id)
        self.check_post(channel)
        await _defer(interaction)
        m = await self.service.challenge(
            guild_id, channel.id, interaction.user.id, choice.key, options=dict(choice.options),
            opponents=[o.id for o in opponents], days=days, rated=rated, seat=seat)
        where = "" if channel.id == interaction.channel_id else f" in {channel.mention}"
        await _ack(interaction, f"Challenge posted{where} (match {m.id}).")

    async def _games_channel(self, interaction: Interaction, guild_id: int) -> Any:
        settings = await self.service.get_guild_settings(guild_id)
        channel: Any = interaction.channel
        if settings.games_channel_id:
            configured = self.bot.get_channel(settings.games_channel_id)
            if configured is not None:
                channel = configured
        if isinstance(channel, discord.Thread) and channel.parent is not None:
            channel = channel.parent
        if not isinstance(channel, discord.TextChannel):
            raise errors.AdapterError("Challenges are posted in text channels: use this "
                                      "command in one.")
        return channel

    async def challenge_menu(self, interaction: Interaction, member: discord.Member) -> None:
        """The user context-menu: pick a game from a menu, then the challenge is made."""
        if member.bot or member.id == interaction.user.id:
            await _ack(interaction, "Pick another member: you can't challenge "
                                    f"{'a bot' if member.bot else 'yourself'}.")
            return
        view = GamePicker(self, member)
        await interaction.response.send_message(
            f"Which game do you want to play with {member.mention}?", view=view,
            ephemeral=True)

    async def on_match_button(self, interaction: Interaction, action: str, match_id: int,
                              ply: int) -> None:
        await self.run(interaction, self._match_button(interaction, action, match_id, ply))

    async def _match_button(self, interaction: Interaction, action: str, match_id: int,
                            ply: int) -> None:
        user = interaction.user.id
        m: MatchView = await self.service.get_match(match_id)
        if m.ply != ply or (action in ("drawyes", "drawno") and m.draw_offer_by is None):
            raise errors.AdapterError("This button is out of date: the match has moved on. "
                                      "Use `/board` to see where it stands.")
        if action in ("accept", "join"):
            channel = await self._match_channel(m)
            self.check_post(channel)
        await _defer(interaction)
        if action == "accept":
            m = await self.service.accept(match_id, user)
            text = "Challenge accepted." if m.status.is_waiting is False else \
                "You're in; waiting for the other players."
        elif action == "join":
            m = await self.service.join(match_id, user)
            text = "You joined." if m.status.is_waiting else "You joined: the match begins."
        elif action == "decline":
            await self.service.decline(match_id, user)
            text = "Challenge declined."
        elif action == "cancel":
            await self.service.cancel(match_id, user)
            text = "Challenge cancelled."
        elif action == "drawyes":
            await self.service.accept_draw(match_id, user)
            text = "You accepted the draw."
        else:
            await self.service.decline_draw(match_id, user)
            text = "You declined the draw."
        await _ack(interaction, text)

    async def _match_channel(self, m: MatchView) -> Any:
        return self.bot.get_channel(m.thread_id or m.channel_id)

    # ------------------------------------------------------------------ play

    async def move(self, interaction: Interaction, text: str, match_id: int | None) -> None:
        await self.run(interaction, self._move(interaction, text, match_id))

    async def _move(self, interaction: Interaction, text: str, match_id: int | None) -> None:
        mid = await self.resolve_match(interaction, match_id)
        # The board goes to the match's thread or channel: refuse before moving when the
        # bot could not post it there (the move would land unseen).
        self.check_post(await self._match_channel(await self.service.get_match(mid)))
        await _defer(interaction)
        result = await self.service.move(mid, interaction.user.id, text)
        tail = " The match is over." if result.ended else ""
        await _ack(interaction, f"You played **{result.display}**.{tail}")

    async def board(self, interaction: Interaction, match_id: int | None) -> None:
        await self.run(interaction, self._board(interaction, match_id))

    async def _board(self, interaction: Interaction, match_id: int | None) -> None:
        mid = await self.resolve_match(interaction, match_id)
        await _defer(interaction)
        m = await self.service.get_match(mid)
        image = await self.service.board_image(mid)
        extra: dict[str, Any] = {}
        if image is not None:
            extra["file"] = embeds.board_file(image.png, image.alt)
        await interaction.followup.send(
            embed=embeds.board_embed(
                m, headline=embeds.played(self.bot.notifier.name(m, m.last_move_by),
                                          m.last_move) if m.last_move else None,
                image=image is not None),
            ephemeral=True, **extra)

    async def games(self, interaction: Interaction) -> None:
        await self.run(interaction, self._games(interaction))

    async def _games(self, interaction: Interaction) -> None:
        matches = await self.service.games_of(_guild_id(interaction), interaction.user.id)
        await _ack(interaction, "", embed=embeds.games_embed(interaction.user.id, matches))

    async def resign(self, interaction: Interaction, match_id: int | None) -> None:
        async def work() -> None:
            mid = await self.resolve_match(interaction, match_id)
            await _defer(interaction)
            await self.service.resign(mid, interaction.user.id)
            await _ack(interaction, "You resigned.")
        await self.run(interaction, work())

    async def draw(self, interaction: Interaction, action: str, match_id: int | None) -> None:
        async def work() -> None:
            mid = await self.resolve_match(interaction, match_id)
            await _defer(interaction)
            if action == "offer":
                await self.service.offer_draw(mid, interaction.user.id)
                await _ack(interaction, "Draw offered.")
            elif action == "accept":
                await self.service.accept_draw(mid, interaction.user.id)
                await _ack(interaction, "You accepted the draw.")
            else:
                await self.service.decline_draw(mid, interaction.user.id)
                await _ack(interaction, "You declined the draw.")
        await self.run(interaction, work())

    async def setup(self, interaction: Interaction, arrangement: str,
                    match_id: int | None) -> None:
        async def work() -> None:
            mid = await self.resolve_match(interaction, match_id)
            await _defer(interaction)
            try:
                await self.service.submit_setup(mid, interaction.user.id, arrangement)
            except rules.RulesError as exc:
                raise errors.AdapterError(
                    f"{exc.message.rstrip('.')}. Write your numbers 1-16, each once, in "
                    "start-cell order (`/rules querni` explains it).") from exc
            await _ack(interaction, "Arrangement submitted; it stays hidden from your "
                                    "opponent until both have submitted.")
        await self.run(interaction, work())

    # ------------------------------------------------------------------ information

    async def leaderboard(self, interaction: Interaction, ladder: str) -> None:
        async def work() -> None:
            page = await self.service.leaderboard(_guild_id(interaction), ladder, 1, PER_PAGE)
            await interaction.response.send_message(
                embed=embeds.leaderboard_embed(page, self.ladder_title(ladder)),
                view=leaderboard_buttons(ladder, page.page, page.pages))
        await self.run(interaction, work())

    async def on_leaderboard_page(self, interaction: Interaction, ladder: str,
                                  page_no: int) -> None:
        async def work() -> None:
            page = await self.service.leaderboard(_guild_id(interaction), ladder, page_no,
                                                  PER_PAGE)
            await interaction.response.edit_message(
                embed=embeds.leaderboard_embed(page, self.ladder_title(ladder)),
                view=leaderboard_buttons(ladder, page.page, page.pages))
        await self.run(interaction, work())

    def ladder_title(self, ladder: str) -> str:
        for c in self.ladder_choices(""):
            if c.value == ladder:
                return c.name
        return ladder

    async def stats(self, interaction: Interaction, member: discord.Member | None) -> None:
        async def work() -> None:
            who = member or interaction.user
            stats = await self.service.stats(_guild_id(interaction), who.id)
            titles = {c.value: c.name for c in self.ladder_choices("")}
            await _ack(interaction, "", embed=embeds.stats_embed(stats, titles))
        await self.run(interaction, work())

    async def history(self, interaction: Interaction, match_id: int | None) -> None:
        async def work() -> None:
            mid = await self.resolve_match(interaction, match_id)
            await _defer(interaction)
            h = await self.service.history(mid)
            files = [discord.File(io.BytesIO(h.export.encode()),
                                  filename=f"match-{mid}.{h.export_format}")]
            gif = await media.replay_gif(self.service, mid, self.bot.display_name) \
                if h.entries else None
            if gif is not None:
                files.append(discord.File(io.BytesIO(gif), filename=f"match-{mid}.gif",
                                          description=f"Replay of match {mid}"))
            await interaction.followup.send(embeds.history_text(h), files=files,
                                            ephemeral=True)
        await self.run(interaction, work())

    async def rules(self, interaction: Interaction, game: str) -> None:
        async def work() -> None:
            key = game.removesuffix("-4")
            if key not in rules.VARIANTS:
                raise errors.AdapterError(f"I don't know the game `{game}`; pick one from "
                                          "the list.")
            await _defer(interaction)
            summary = media.rules_summary(key)
            # the 4-player ladder shows the 4-player start, the plain key the 2-player one
            picture = await media.start_picture(key, 4 if game.endswith("-4") else 2)
            e = discord.Embed(title=rules.variant(key).name, description=summary[:4000],
                              colour=embeds.COLOUR)
            extra: dict[str, Any] = {}
            if picture is not None:
                e.set_image(url=f"attachment://{embeds.BOARD_FILE}")
                extra["file"] = embeds.board_file(*picture)
            await interaction.followup.send(embed=e, ephemeral=True, **extra)
        await self.run(interaction, work())

    async def settings(self, interaction: Interaction, days: int | None,
                       threads: bool | None, channel: discord.TextChannel | None,
                       reminders: bool | None, clear_channel: bool = False) -> None:
        async def work() -> None:
            guild_id = _guild_id(interaction)
            if channel is not None and clear_channel:
                raise errors.AdapterError("Either set a games channel or clear it, not both.")
            if channel is not None:
                self.check_post(channel)
            chosen: int | str | None = channel.id if channel else "keep"
            if clear_channel:
                chosen = None
            s = await self.service.update_guild_settings(
                guild_id, default_days=days, use_threads=threads,
                games_channel_id=chosen, reminders=reminders)
            where = f"<#{s.games_channel_id}>" if s.games_channel_id else \
                "the channel where /challenge is used"
            await _ack(interaction,
                       f"Settings: {s.default_days} days per move by default; threads "
                       f"{'on' if s.use_threads else 'off'}; challenges go to {where}; "
                       f"reminders {'on' if s.reminders else 'off'}.")
        await self.run(interaction, work())

    async def notify(self, interaction: Interaction, mode: str) -> None:
        async def work() -> None:
            await self.service.update_user_prefs(interaction.user.id, mode)
            text = ("You'll be mentioned in the match thread when it's your move."
                    if mode == "mention" else
                    "You'll get a direct message when it's your move (keep DMs from server "
                    "members open).")
            await _ack(interaction, text)
        await self.run(interaction, work())


class GamePicker(discord.ui.View):
    """The ephemeral game menu of the "Challenge to a game" context-menu command."""

    def __init__(self, handlers: Handlers, opponent: discord.Member) -> None:
        super().__init__(timeout=600)
        self.handlers = handlers
        self.opponent = opponent
        options = [discord.SelectOption(label=c.label, value=c.value)
                   for c in game_choices()][:25]
        select: discord.ui.Select[GamePicker] = discord.ui.Select(
            placeholder="Choose a game", options=options or
            [discord.SelectOption(label="No games installed", value="none")])
        select.callback = self.picked  # type: ignore[method-assign,assignment]
        self.select = select
        self.add_item(select)

    async def picked(self, interaction: Interaction) -> None:
        value = self.select.values[0]
        await self.handlers.challenge(interaction, value, [self.opponent], None, True, None)
