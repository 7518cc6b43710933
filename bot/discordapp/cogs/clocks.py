"""Clocks in Discord (issue 16): ``/vacation start|end|status``, ``/pause`` (issue 43:
by agreement), and the buttons "+1 day" (on turn messages), "Claim win" / "Keep waiting"
(when a claim-win clock runs out), "Accept pause" / "Decline pause" and "Next game" (on
``/games``). Every sentence is a ``locales.i18n`` text rendered for the
person acting (``common.reader``: ``interaction.locale``)."""

from __future__ import annotations

from typing import Literal

import discord
from discord import app_commands
from discord.ext import commands

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
from bot.discordapp.components import MatchButton, match_buttons
from bot.discordapp.notices import ReplyFirst
from locales.i18n import Text, Words, _, _n, command, joined
from service import MatchService
from service.views import VacationView


def vacation_text(v: VacationView) -> Text:
    """A player's vacation status in words."""
    balance = _n("{count} day", "{count} days", v.balance)
    auto = _("on") if v.auto else _("off")
    status = _("You have {balance} of vacation left this year ({earned} earned of {yearly}, "
               "{used} used). Automatic vacation on this server: {auto}.", balance=balance,
               earned=v.earned, yearly=v.yearly, used=v.used, auto=auto)
    if v.until is None:
        return status
    return _("You are on vacation until {until}. {status}", until=embeds.moment(v.until),
             status=status)


class ClocksCog(commands.Cog, name="Clocks"):
    """Vacation, more time, claims on time and the next game."""

    vacation = app_commands.Group(name="vacation", guild_only=True,
                                  description="Pause your clocks in this server")

    def __init__(self, service: MatchService, notices: ReplyFirst) -> None:
        self.service = service
        self.notices = notices

    @vacation.command(name="start", description="Go on vacation: your clocks here pause")
    @app_commands.describe(days="Whole days (your whole balance if empty)")
    async def vacation_start(self, interaction: Interaction,
                             days: app_commands.Range[int, 1, 60] | None = None) -> None:
        async with acknowledged(interaction), self.notices.after_reply():
            v = await self.service.start_vacation(guild_id(interaction),
                                                  interaction.user.id, days)
            assert v.until is not None
            text = _("You are on vacation until {until}: {paused} paused, {balance} "
                     "left this year.", until=embeds.moment(v.until),
                     paused=_n("{count} match", "{count} matches", len(v.paused)),
                     balance=_n("{count} day", "{count} days", v.balance))
            reply: Words = text
            if v.forbidden:
                reply = joined(reply, _(
                    "Not paused, their tournament forbids vacation: {matches}.",
                    matches=", ".join(f"`{i}`" for i in v.forbidden)))
            if v.late:
                reply = joined(reply, _(
                    "Your time in {matches} has already run out: not paused (the win may "
                    "be claimed).", matches=", ".join(f"`{i}`" for i in v.late)))
            await answer(interaction, reply)

    @vacation.command(name="end", description="End your vacation: your clocks run again")
    async def vacation_end(self, interaction: Interaction) -> None:
        async with acknowledged(interaction), self.notices.after_reply():
            v = await self.service.end_vacation(guild_id(interaction),
                                                interaction.user.id)
            await answer(interaction, _(
                "Welcome back: your clocks run again. {balance} of vacation left this "
                "year.", balance=_n("{count} day", "{count} days", v.balance)))

    @vacation.command(name="status", description="Your vacation balance on this server")
    async def vacation_status(self, interaction: Interaction) -> None:
        async with acknowledged(interaction):
            v = await self.service.vacation_status(guild_id(interaction), interaction.user.id)
            await answer(interaction, vacation_text(v))

    # ------------------------------------------------------------------ pause

    @app_commands.command(name="pause", description="Pause a match by agreement: propose, "
                                                    "answer, or resume it early")
    @app_commands.guild_only()
    @app_commands.describe(action="propose (for days), accept, decline, or resume early",
                           days="Whole days (1-30)", reason="Why (optional)",
                           match="The match (not needed inside its thread)")
    async def pause(self, interaction: Interaction,
                    action: Literal["propose", "accept", "decline", "resume"] = "propose",
                    days: app_commands.Range[int, 1, 30] | None = None,
                    reason: app_commands.Range[str, 1, 200] | None = None,
                    match: int | None = None) -> None:
        async with acknowledged(interaction):
            m = await resolve_match(self.service, interaction, match)
            if action == "propose" and days is None:
                raise errors.AdapterError(_("Say for how many days: {pause}.",
                                            pause=command("pause", days=3)))
            await self._pause(interaction, m.id, action, days, reason)

    async def _pause(self, interaction: Interaction, match_id: int, action: str,
                     days: int | None = None, reason: str | None = None) -> None:
        user, caller = interaction.user.id, caller_of(interaction)
        async with self.notices.after_reply():
            if action == "propose":
                assert days is not None
                await self.service.propose_pause(match_id, user, days, reason, caller=caller)
                text = _("Pause proposed; your opponent answers. It lapses if a move is "
                         "played first.")
            elif action == "accept":
                m = await self.service.accept_pause(match_id, user, caller=caller)
                until = m.pause_ends(discord.utils.utcnow()) or m.deadline
                text = _("You agreed: match {match} is paused until {until}.",
                         match=str(m.id), until=embeds.moment(until)) if until else \
                    _("You agreed to the pause.")
            elif action == "decline":
                await self.service.decline_pause(match_id, user, caller=caller)
                text = _("You declined the pause.")
            else:
                await self.service.resume_pause(match_id, user, caller=caller)
                text = _("The pause is over: the clocks run again.")
            await answer(interaction, text)

    # ------------------------------------------------------------------ buttons

    @commands.Cog.listener()
    async def on_match_button(self, interaction: Interaction, button: MatchButton) -> None:
        """+1 day, Claim win, Keep waiting, the pause's answers (at the ply they were
        posted) and Next game."""
        if button.action not in ("moretime", "claim", "wait", "next", "pauseyes", "pauseno"):
            return
        async with acknowledged(interaction):
            user = interaction.user.id
            if button.action == "next":
                await self._next_game(interaction, button.match_id)
                return
            m = await clicked_match(self.service, interaction, button)
            if button.action in ("pauseyes", "pauseno"):
                if m.pause_offer_by is None:
                    raise errors.StaleButton()
                await self._pause(interaction, m.id,
                                  "accept" if button.action == "pauseyes" else "decline")
                return
            async with self.notices.after_reply():
                if button.action == "moretime":
                    m = await self.service.give_time(m.id, user, caller=caller_of(interaction))
                    assert m.deadline is not None
                    text = _("You gave one day more: the move is now due {when}.",
                             when=embeds.moment(m.deadline))
                elif button.action == "claim":
                    await self.service.claim_win(m.id, user, caller=caller_of(interaction))
                    text = _("You claimed the win on time.")
                else:
                    await self.service.keep_waiting(m.id, user, caller=caller_of(interaction))
                    text = _("You keep waiting. The buttons stay: claim whenever you want, "
                             "until your opponent moves.")
                await answer(interaction, text)

    async def _next_game(self, interaction: Interaction, after: int) -> None:
        m = await self.service.next_game(guild_id(interaction), interaction.user.id,
                                         after or None)
        if m is None:
            await answer(interaction, _("No match is waiting on you."))
            return
        where = f"<#{m.thread_id or m.channel_id}>"
        text = _("Your move in {game} (match {match}) in {where}, {when}.",
                 game=embeds.game_title(m), match=str(m.id), where=where,
                 when=embeds.clock_status(m))
        await answer(interaction, text,
                     view=match_buttons(m.id, 0, ["next"], reader(interaction)))
