"""Preferences: ``/settings`` for a server (Manage Server: days, threads, games channel,
reminders, the organiser role, the seasons' schedule) and ``/notify`` for a person."""

from __future__ import annotations

from collections.abc import Callable
from typing import Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.discordapp import errors
from bot.discordapp.cogs.common import (
    Interaction,
    acknowledged,
    answer,
    check_post,
    guild_id,
)
from bot.discordapp.cogs.seasons import SCHEDULES, schedule_words
from locales.i18n import LOCALES, Words, _, _n, command, joined, negotiate
from service import MatchService
from service.queries import KEEP, Unchanged
from service.timecontrol import describe_time_control, parse_time_control
from service.weekends import local_clock, zones_like

LANGUAGE_NAMES = {
    "en-US": "English (US)", "en-GB": "English (UK)", "de": "Deutsch",
    "es-ES": "Español (España)", "es-419": "Español (Latinoamérica)", "sv-SE": "Svenska",
    "zh-CN": "简体中文", "zh-TW": "繁體中文"}
"""Each language by its own name (how Discord's language menu shows them)."""


class SettingsCog(commands.Cog, name="Settings"):
    """Server settings and notification preferences."""

    def __init__(self, service: MatchService,
                 place_changed: Callable[[int], None] | None = None) -> None:
        self.service = service
        self.place_changed = place_changed  # the notifier reads the settings again

    @app_commands.command(name="settings", description="Server settings for Tablero "
                                                       "(Manage Server)")
    @app_commands.guild_only()
    @app_commands.default_permissions(manage_guild=True)
    @app_commands.checks.has_permissions(manage_guild=True)
    @app_commands.describe(days="Default days per move (1-14)",
                           threads="Open a thread per match",
                           channel="Post new challenges in this channel",
                           reminders="Remind players before their time runs out",
                           clear_channel="Post challenges where /challenge is used again "
                                         "(forget the games channel)",
                           language="The language of match threads (the server's Discord "
                                    "language if not set)",
                           organiser_role="Members with this role may run tournaments and "
                                          "seasons",
                           clear_organiser_role="Only Manage Server runs tournaments and "
                                                "seasons again",
                           seasons="Run the leaderboards by season (ends the running one)",
                           clock="Default time control: days per move (3) or a bank "
                                 "with increment (3d+1d/10d)",
                           claim_win="A lapsed clock waits for the opponent to claim the "
                                     "win instead of ending the game",
                           vacation="Vacation days per player per year (earned monthly)",
                           auto_vacation="Spend a vacation day instead of a timeout while "
                                         "a player has any",
                           takebacks_rated="Allow takebacks by consent in rated games "
                                           "(casual games always allow them)",
                           web="Show this server's matches on the web (spectator and "
                               "player links)",
                           weekends="Challenges default to weekends off (clocks stop on "
                                    "each player's Saturday and Sunday)",
                           pauses="Pauses by agreement a rated match allows (0-10)")
    @app_commands.choices(language=[
        app_commands.Choice(name=LANGUAGE_NAMES[x], value=x) for x in LOCALES
    ] + [app_commands.Choice(name="Server default", value="server")])
    async def settings(self, interaction: Interaction,
                       days: app_commands.Range[int, 1, 14] | None = None,
                       threads: bool | None = None,
                       channel: discord.TextChannel | None = None,
                       reminders: bool | None = None,
                       clear_channel: bool = False, language: str | None = None,
                       organiser_role: discord.Role | None = None,
                       clear_organiser_role: bool = False,
                       seasons: SCHEDULES | None = None, clock: str | None = None,
                       claim_win: bool | None = None,
                       vacation: app_commands.Range[int, 0, 60] | None = None,
                       auto_vacation: bool | None = None,
                       takebacks_rated: bool | None = None,
                       web: bool | None = None,
                       weekends: Literal["off", "on"] | None = None,
                       pauses: app_commands.Range[int, 0, 10] | None = None) -> None:
        async with acknowledged(interaction):
            where_id = guild_id(interaction)
            if channel is not None and clear_channel:
                raise errors.AdapterError(_("Either set a games channel or clear it, not both."))
            if organiser_role is not None and clear_organiser_role:
                raise errors.AdapterError(_("Either set an organiser role or clear it, not "
                                            "both."))
            if channel is not None:
                check_post(channel)
            chosen: int | Unchanged | None = channel.id if channel else KEEP
            if clear_channel:
                chosen = None
            role: int | Unchanged | None = organiser_role.id if organiser_role else KEEP
            if clear_organiser_role:
                role = None
            s = await self.service.update_guild_settings(
                where_id, default_days=days, use_threads=threads, games_channel_id=chosen,
                reminders=reminders, language=KEEP if language is None
                else None if language == "server" else language, organiser_role_id=role,
                default_clock=clock, claim_win=claim_win, vacation_days=vacation,
                auto_vacation=auto_vacation, takebacks_rated=takebacks_rated, web=web,
                weekends_off=None if weekends is None else weekends == "off",
                pauses_rated=pauses)
            started: list[Words] = []  # a season begun (or seasons ended) by this change
            if seasons is not None and seasons != s.seasons:
                change = await self.service.configure_seasons(
                    where_id, interaction.channel_id or 0, seasons)
                started = [change.words()]
                s = await self.service.get_guild_settings(where_id)
            where = f"<#{s.games_channel_id}>" if s.games_channel_id else \
                _("the channel where {challenge} is used", challenge=command("challenge"))
            if (language is not None or takebacks_rated is not None) \
                    and self.place_changed is not None:
                self.place_changed(where_id)
            guild = interaction.guild
            own = negotiate(str(guild.preferred_locale)) if guild is not None else None
            spoken = LANGUAGE_NAMES[s.language] if s.language else \
                _("{language} (the server's language)",
                  language=LANGUAGE_NAMES[negotiate(own)])
            threads_on = _("on") if s.use_threads else _("off")
            reminding = _("on") if s.reminders else _("off")
            said = _(
                "Settings: {days} days per move by default; threads {threads}; challenges "
                "go to {where}; reminders {reminders}; match threads in {language}.",
                days=s.default_days, threads=threads_on, where=where, reminders=reminding,
                language=spoken) if not s.default_clock else _(
                "Settings: {pace} by default; threads {threads}; challenges go to {where}; "
                "reminders {reminders}; match threads in {language}.",
                pace=describe_time_control(parse_time_control(s.default_clock)),
                threads=threads_on, where=where, reminders=reminding, language=spoken)
            await answer(interaction, joined(said, _(
                "Claim win on time {claim}; {vacation} of vacation a year; automatic "
                "vacation {auto}.", claim=_("on") if s.claim_win else _("off"),
                vacation=_n("{count} day", "{count} days", s.vacation_days),
                auto=_("on") if s.auto_vacation else _("off")), _(
                "Organiser role: {role}. Seasons: {schedule}.",
                role=f"<@&{s.organiser_role_id}>" if s.organiser_role_id
                else _("none (Manage Server only)"),
                schedule=schedule_words(s.seasons)),
                _("Takebacks in rated games: allowed.") if s.takebacks_rated
                else _("Takebacks in rated games: not allowed (casual games always allow "
                       "them)."), _("Matches on the web: on.") if s.web
                else _("Matches on the web: off."),
                _("Challenges: weekends off (no clock runs on Saturday and Sunday in each "
                  "player's time zone).") if s.weekends_off
                else _("Challenges: clocks run on weekends."),
                _n("Pauses by agreement in a rated match: at most {count}.",
                   "Pauses by agreement in a rated match: at most {count}.",
                   s.pauses_rated), *started))

    @app_commands.command(name="timezone",
                          description="Your time zone: your weekends and reminder hours")
    @app_commands.allowed_contexts(guilds=True, dms=True, private_channels=False)
    @app_commands.describe(zone="An IANA name such as Europe/Madrid (empty: show yours)",
                           clear="Forget your time zone (UTC counts again)")
    async def timezone(self, interaction: Interaction, zone: str | None = None,
                       clear: bool = False) -> None:
        async with acknowledged(interaction):
            user = interaction.user.id
            if zone is not None and clear:
                raise errors.AdapterError(_("Either set a time zone or clear it, not both."))
            if zone is not None or clear:
                prefs = await self.service.set_time_zone(user, None if clear else zone)
            else:
                prefs = await self.service.get_user_prefs(user)
            # the time there now and its offset: a zone given by mistake shows at once
            await answer(interaction, _("Your time zone: {zone} (it is {time} there now).",
                                        zone=prefs.time_zone, time=local_clock(
                                            prefs.time_zone, self.service.clock.now()))
                         if prefs.time_zone is not None else
                         _("You have set no time zone: UTC counts for your weekends "
                           "(weekends off) and reminders keep to no hours of yours."))

    @timezone.autocomplete("zone")
    async def zone_autocomplete(self, interaction: Interaction, current: str
                                ) -> list[app_commands.Choice[str]]:
        return [app_commands.Choice(name=z, value=z) for z in zones_like(current)]

    @app_commands.command(name="notify", description="How you are told it's your move")
    @app_commands.allowed_contexts(guilds=True, dms=True, private_channels=False)
    @app_commands.describe(mode="A mention in the match thread, or a direct message (empty: "
                                "how you are told now)")
    async def notify(self, interaction: Interaction,
                     mode: Literal["mention", "dm"] | None = None) -> None:
        async with acknowledged(interaction):
            if mode is None:  # a player could not see what he had chosen
                prefs = await self.service.get_user_prefs(interaction.user.id)
                await answer(interaction, _(
                    "You get a direct message when it's your move; {other} mentions you "
                    "in the match thread instead.", other=command("notify", mode="mention"))
                    if prefs.notify == "dm" else _(
                    "You are mentioned in the match thread when it's your move; {other} "
                    "sends you a direct message instead.", other=command("notify", mode="dm")))
                return
            await self.service.update_user_prefs(interaction.user.id, mode)
            await answer(interaction,
                         _("You'll be mentioned in the match thread when it's your move.")
                         if mode == "mention" else
                         _("You'll get a direct message when it's your move (keep DMs from "
                           "server members open)."))
