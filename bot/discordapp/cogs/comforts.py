"""Correspondence comforts (issue 16): ``/rematch`` and the Rematch button of a result
post, ``/takeback`` and its Accept/Decline buttons, ``/premove`` (conditional moves),
``/note`` (private, ephemeral), ``/follow`` and ``/unfollow``, ``/block`` and ``/unblock``
(``service.blocks``), ``/web`` (a player's own link to play on the web, and ``revoke``).
Every answer is ephemeral and written with ``locales.i18n`` in the reader's Discord
language; the service decides everything (``service.comforts``, ``service.blocks``)."""

from __future__ import annotations

import asyncio
import io
from datetime import UTC, datetime, timedelta
from typing import Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.boards import glance_picture
from bot.discordapp import embeds, errors
from bot.discordapp.cogs.common import (
    Interaction,
    acknowledged,
    answer,
    caller_of,
    clicked_match,
    guild_id,
    reader,
    resolve_match,
)
from bot.discordapp.components import MatchButton
from bot.discordapp.notices import ReplyFirst
from bot.web.links import PLAYER_DAYS, PlayerPass, WebLinks, player_url
from locales.i18n import Words, _, _n, command, joined, listing, option
from service import MatchService, MatchStatus, MatchView
from service.blocks import block_words, challenges_alone, challenges_off_words, challenges_words
from service.computer_seats import computer_title, is_computer


async def say(interaction: Interaction, text: Words) -> None:
    """The ephemeral answer, in the reader's language (``common.answer``)."""
    await answer(interaction, text)


def pairs(moves: tuple[str, ...]) -> str:
    """``'h10-g8 → b1-c3, b10-c8 → h1-g3'``: their move, then the answer."""
    return ", ".join(f"`{moves[i]}` → `{moves[i + 1]}`" for i in range(0, len(moves) - 1, 2))


class ComfortsCog(commands.Cog, name="Comforts"):
    """Rematch, takeback, conditional moves, notes and follows."""

    def __init__(self, service: MatchService, notices: ReplyFirst,
                 web: WebLinks | None = None) -> None:
        self.service = service
        self.notices = notices
        self.web = web

    async def _match(self, interaction: Interaction, match: int | None) -> MatchView:
        """The match named, else this thread's match (finished ones too), else the
        user's only active match."""
        if match is not None:
            return await self.service.get_match(match, caller_of(interaction))
        channel = interaction.channel
        if isinstance(channel, discord.Thread):
            found = await self.service.match_in_thread(channel.id)
            if found is not None:
                return found
        return await resolve_match(self.service, interaction, None)

    # ------------------------------------------------------------------ web

    @app_commands.command(name="web", description="Your own link to play a match on the "
                          "web (only you see it)")
    @app_commands.guild_only()
    @app_commands.describe(match="The match (not needed inside its thread)",
                           revoke="Make every web link you were given stop working")
    async def web_link(self, interaction: Interaction, match: int | None = None,
                       revoke: bool = False) -> None:
        async with acknowledged(interaction):
            user = interaction.user.id
            if revoke:
                await self.service.revoke_web_links(user)
                await say(interaction, _("Your web links no longer work; {web} gives you a "
                                         "new one.", web=command("web")))
                return
            m = await self._match(interaction, match)
            epoch = await self.service.web_pass(m.id, user, caller=caller_of(interaction))
            if self.web is None:
                raise errors.AdapterError(_("The web pages are not set up for this bot."))
            expires = datetime.now(UTC) + timedelta(days=PLAYER_DAYS)
            token = self.web.signer.player(PlayerPass(m.id, m.guild_id, user,
                                                      int(expires.timestamp()), epoch))
            # in <>: Discord then shows no preview of the private link (its crawler
            # fetching a player's signed page, a card repeating the reply for nothing)
            await say(interaction, _(
                "Your own link to play match {match} on the web (keep it to yourself; it "
                "works until {when}, and {revoke} ends it): {url}", match=str(m.id),
                when=f"<t:{int(expires.timestamp())}:f>", revoke=command("web", revoke=True),
                url=f"<{player_url(self.web.base_url, token)}>"))

    # ------------------------------------------------------------------ rematch

    @app_commands.command(name="rematch", description="Play a finished match again: "
                          "colours swapped, same terms")
    @app_commands.guild_only()
    @app_commands.describe(match="The finished match (not needed inside its thread)")
    async def rematch(self, interaction: Interaction, match: int | None = None) -> None:
        async with acknowledged(interaction):
            m = await self._match(interaction, match)
            await self._rematch(interaction, m)

    async def _rematch(self, interaction: Interaction, m: MatchView) -> None:
        async with self.notices.after_reply():
            new = await self.service.rematch(m.id, interaction.user.id,
                                             caller=caller_of(interaction))
            if new.status is MatchStatus.ACTIVE:  # the computer took it: it has begun
                player = listing(computer_title(u) for u in new.players() if is_computer(u))
                await say(interaction, _(
                    "Your casual match against {player} begins in {channel} (match "
                    "{match}).", player=player, channel=f"<#{new.thread_id}>",
                    match=new.id) if new.thread_id else _(
                    "Your casual match against {player} begins (match {match}).",
                    player=player, match=new.id))
                return
            await say(interaction, _("Rematch asked: match {match}. The other players "
                                     "accept it like any challenge.", match=str(new.id)))

    # ------------------------------------------------------------------ takeback

    @app_commands.command(name="takeback", description="Ask to take your last move back, "
                          "or answer such a request")
    @app_commands.guild_only()
    @app_commands.describe(action="ask (your last move, before the reply), accept or "
                           "decline", match="The match (not needed inside its thread)")
    async def takeback(self, interaction: Interaction,
                       action: Literal["ask", "accept", "decline"] = "ask",
                       match: int | None = None) -> None:
        async with acknowledged(interaction):
            m = await self._match(interaction, match)
            await self._takeback(interaction, m.id, action)

    async def _takeback(self, interaction: Interaction, match_id: int, action: str) -> None:
        user = interaction.user.id
        async with self.notices.after_reply():
            if action == "ask":
                await self.service.request_takeback(match_id, user, caller=caller_of(interaction))
                await say(interaction, _("Takeback asked; your opponent answers. It lapses "
                                         "if they move instead."))
            elif action == "accept":
                await self.service.accept_takeback(match_id, user, caller=caller_of(interaction))
                await say(interaction, _("You accepted: the move is taken back."))
            else:
                await self.service.decline_takeback(match_id, user, caller=caller_of(interaction))
                await say(interaction, _("You declined the takeback."))

    # ------------------------------------------------------------------ conditional moves

    @app_commands.command(name="premove", description="Conditional moves: if they play X, "
                          "you play Y (private until played)")
    @app_commands.guild_only()
    @app_commands.describe(
        action="add a line, list yours, or clear them",
        line="Their move, yours, theirs, yours…: h10-g8 b1-c3 b10-c8 h1-g3; alternatives "
             "after ; (commas between moves that hold spaces)",
        match="The match (not needed inside its thread)")
    async def premove(self, interaction: Interaction,
                      action: Literal["add", "list", "clear"] = "list",
                      line: str | None = None, match: int | None = None) -> None:
        async with acknowledged(interaction):
            m = await self._match(interaction, match)
            user = interaction.user.id
            if action == "clear":
                n = await self.service.clear_conditional_moves(m.id, user,
                                                               caller=caller_of(interaction))
                await say(interaction, _n("{count} conditional line cleared.",
                                          "{count} conditional lines cleared.", n))
                return
            if action == "add":
                if not line:
                    raise errors.AdapterError(_(
                        "Write the line in `{line}`: their move, then yours, in pairs "
                        "(e.g. `h10-g8 b1-c3`).", line=option("line")))
                async with self.notices.after_reply():
                    lines = await self.service.add_conditional_moves(m.id, user, line,
                                                                     caller=caller_of(interaction))
            else:
                lines = await self.service.conditional_moves(m.id, user,
                                                             caller=caller_of(interaction))
            if not lines:
                await say(interaction, _("You have no conditional moves in match {match}.",
                                         match=str(m.id)))
                return
            shown = "\n".join(f"{n}. {pairs(moves)}" for n, moves in enumerate(lines, 1))
            await say(interaction, _("Your conditional moves in match {match} (only you "
                                     "see them):\n{lines}", match=str(m.id), lines=shown))

    # ------------------------------------------------------------------ notes

    @app_commands.command(name="note", description="Your private note on a match (only "
                          "you see it)")
    @app_commands.guild_only()
    @app_commands.describe(action="show, set or clear your note (a text alone sets it)",
                           text="The note (set)",
                           match="The match (not needed inside its thread)")
    async def note(self, interaction: Interaction,
                   action: Literal["show", "set", "clear"] | None = None,
                   text: str | None = None, match: int | None = None) -> None:
        async with acknowledged(interaction):
            m = await self._match(interaction, match)
            user = interaction.user.id
            if action is None:  # a note typed without an action is one to keep
                action = "set" if text else "show"
            if action == "set":
                await self.service.set_note(m.id, user, text or "", caller=caller_of(interaction))
                await say(interaction, _("Note kept on match {match}; only you see it, and "
                                         "{history} gives it to you.", match=str(m.id),
                                         history=command("history")))
            elif action == "clear":
                gone = await self.service.clear_note(m.id, user, caller=caller_of(interaction))
                await say(interaction, _("Note cleared.") if gone else
                          _("You had no note on match {match}.", match=str(m.id)))
            else:
                found = await self.service.note(m.id, user, caller=caller_of(interaction))
                await say(interaction, _("Your note on match {match}:\n{note}",
                                         match=str(m.id), note=found)
                          if found is not None else
                          _("You have no note on match {match} (`{note}` keeps one).",
                            match=str(m.id), note=command("note", action="set")))

    # ------------------------------------------------------------------ follows

    @app_commands.command(name="follow", description="Be told of each move of a match or "
                          "a player (by DM); alone: what you follow")
    @app_commands.guild_only()
    @app_commands.describe(match="A match of this server", player="A player: all their "
                           "matches in this server", digest="Your games here at a glance "
                           "once a day, by DM")
    async def follow(self, interaction: Interaction, match: int | None = None,
                     player: discord.Member | None = None,
                     digest: Literal["on", "off"] | None = None) -> None:
        async with acknowledged(interaction):
            where, user = guild_id(interaction), interaction.user.id
            if digest is not None:  # issue 42: the daily digest, asked for or stopped
                if match is not None or player is not None:
                    raise errors.AdapterError(_("Give `{digest}` alone: `{follow}`.",
                                                digest=option("digest"),
                                                follow=command("follow", digest="on")))
                when = await self.service.set_digest(where, user, digest == "on")
                await say(interaction, _(
                    "Daily digest on: your games here at a glance by DM, the first {when}.",
                    when=embeds.moment(when)) if when is not None else
                    _("Daily digest off."))
                return
            if match is None and player is None:
                found = await self.service.follows(where, user)
                # issue 42: the followed and own live games at a glance, one picture
                boards = await self.service.glance(where, user)
                shown = await asyncio.to_thread(glance_picture, boards, user,
                                                self.service.clock.now(), reader(interaction))
                extra = {} if shown is None else {"file": discord.File(
                    io.BytesIO(shown[0]), filename="glance.png", description=shown[1][:1024])}
                if not found:
                    await answer(interaction, _(
                        "You follow nothing yet: `{match}` or `{player}`.",
                        match=command("follow", match=""),
                        player=command("follow", player="")), **extra)
                    return
                lines = joined(*(
                    _("match {match}", match=str(f.match_id))
                    if f.match_id is not None else f"<@{f.player_id}>" for f in found),
                    separator="\n")
                await answer(interaction, _("You follow:\n{lines}", lines=lines), **extra)
                return
            await self.service.follow(where, user, match_id=match,
                                      player=player.id if player is not None else None)
            await say(interaction, _("Following. You get a direct message for each move "
                                     "(with DMs closed: a mention in the match's thread)."))

    @app_commands.command(name="unfollow", description="Stop following a match or a player")
    @app_commands.guild_only()
    @app_commands.describe(match="The match", player="The player")
    async def unfollow(self, interaction: Interaction, match: int | None = None,
                       player: discord.Member | None = None) -> None:
        async with acknowledged(interaction):
            await self.service.unfollow(guild_id(interaction), interaction.user.id,
                                        match_id=match,
                                        player=player.id if player is not None else None)
            await say(interaction, _("You no longer follow that."))

    # ------------------------------------------------------------------ blocks

    @app_commands.command(name="block", description="Refuse a person's challenges, in "
                          "every server (only you see it); alone: whom you block")
    @app_commands.guild_only()
    @app_commands.describe(player="The person whose challenges, joins and follows you "
                           "refuse", challenges="Off: nobody challenges you directly for "
                           "now (your open challenges stay open)")
    async def block(self, interaction: Interaction,
                    player: discord.Member | None = None,
                    challenges: Literal["on", "off"] | None = None) -> None:
        async with acknowledged(interaction):
            user = interaction.user.id
            if challenges is not None:
                if player is not None:
                    raise errors.AdapterError(challenges_alone())
                await self.service.set_challenges(user, challenges == "on")
                await say(interaction, challenges_words(challenges == "on"))
                return
            if player is None:
                blocked = await self.service.blocked(user)
                said = _("You block {players}.", players=listing(
                    f"<@{u}>" for u in blocked)) if blocked else \
                    _("You block nobody: `{block}`.", block=command("block", player=""))
                off = not await self.service.challenges_on(user)
                await say(interaction, joined(said, challenges_off_words()) if off else said)
                return
            if player.bot:
                raise errors.AdapterError(_("Bots challenge nobody: there is nothing to "
                                            "block."))
            async with self.notices.after_reply():
                made = await self.service.block(user, player.id)
                await say(interaction, block_words(made, player.mention))

    @app_commands.command(name="unblock", description="Take a person's challenges again")
    @app_commands.guild_only()
    @app_commands.describe(player="The person you blocked")
    async def unblock(self, interaction: Interaction, player: discord.Member) -> None:
        async with acknowledged(interaction):
            gone = await self.service.unblock(interaction.user.id, player.id)
            await say(interaction, _("You no longer block {player}.", player=player.mention)
                      if gone else _("You do not block {player}.", player=player.mention))

    # ------------------------------------------------------------------ buttons

    @commands.Cog.listener()
    async def on_match_button(self, interaction: Interaction, button: MatchButton) -> None:
        """The Rematch button of a result post, the turn post's Take back and the
        takeback answers."""
        if button.action not in ("rematch", "takeback", "takeyes", "takeno"):
            return
        async with acknowledged(interaction):
            m = await clicked_match(self.service, interaction, button)
            if button.action == "rematch":
                await self._rematch(interaction, m)
                return
            if button.action == "takeback":  # the service says who may ask, and when
                await self._takeback(interaction, m.id, "ask")
                return
            if m.takeback_by is None:
                raise errors.StaleButton()
            await self._takeback(interaction, m.id,
                                 "accept" if button.action == "takeyes" else "decline")
