"""Making matches: ``/challenge`` (with the game menu and seat autocomplete), the
"Challenge to a game" context menu and the challenge buttons (accept, decline, join,
cancel)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal

import discord
from discord import app_commands
from discord.ext import commands

import rules
from bot.discordapp import errors
from bot.discordapp.catalog import find_choice, game_choices
from bot.discordapp.cogs.common import (
    Interaction,
    acknowledged,
    answer,
    caller_of,
    check_post,
    clicked_match,
    games_matching,
    guild_id,
    known_game,
    match_place,
    reader,
    within_budget,
)
from bot.discordapp.components import (
    ContinueOpponents,
    ContinueSeat,
    GamePick,
    MatchButton,
    continue_menus,
    game_menu,
)
from bot.discordapp.embeds import game_of
from bot.discordapp.mentions import cut
from bot.discordapp.notices import ReplyFirst
from bot.imports import import_label
from locales.i18n import Words, _, _n, command, joined, option, render
from locales.terms import seat_colour
from service import Caller, MatchService, MatchStatus, ServiceError
from service.challenges import ContinuableGame
from service.computer import DEFAULT_LEVEL
from service.computer_seats import computer_title, computer_user


def _game_menu() -> list[app_commands.Choice[str]]:
    return [app_commands.Choice(name=c.label, value=c.value) for c in game_choices()]


GAME_MENU = _game_menu()
"""The ``game`` option's choices; past Discord's 25 the option autocompletes instead."""


def continue_menu(game: ContinuableGame, seat: int | None, loc: str, *,
                  chosen: Sequence[int] = ()) -> tuple[str, discord.ui.View]:
    """What "Continue as a match" shows for an imported game: where it goes on and what
    the menus do, the seat menu (``seat``; None: the side to move, as ``/continue``
    plays by default) and the opponents menu; with the ``chosen`` opponents, the
    challenge is made: both disabled, showing the choice."""
    source, to_move = game.match, game.to_move
    playing = [s for s in source.seats if s.seat not in game.out]  # the out stay out
    mine = seat if seat is not None and any(s.seat == seat for s in playing) else to_move
    others = len(playing) - 1
    # TRANSLATORS: the seat menu of "Continue as a match": the seat whose move it is
    options = [discord.SelectOption(
        label=render(_("{seat} (to move)", seat=seat_colour(s.name)) if s.seat == to_move
                     else seat_colour(s.name), loc)[:100], value=str(s.seat))
        for s in playing]
    mine_words = seat_colour(source.seats[mine].name)
    lines: list[Words] = [
        _n("Continue imported game {match} ({game}) from its last position, after "
           "{count} move.", "Continue imported game {match} ({game}) from its last "
           "position, after {count} moves.", source.ply, match=source.id,
           game=game_of(source), count=source.ply),
        _("You play {seat}, the side to move.", seat=mine_words) if mine == to_move else
        _("You play {seat}; {other} moves next.", seat=mine_words,
          other=seat_colour(source.seats[to_move].name)),
        _n("Pick who plays on with you: they accept or decline, as any challenge.",
           "Pick the {count} who play on with you: they accept or decline, as any "
           "challenge.", others, count=others),
        _("The clock is the server's default; `{continue}` sets days per move or a time "
          "control.", **{"continue": command("continue")})]
    view = continue_menus(source.id, options, mine, others, loc=loc, chosen=chosen)
    return cut(render(joined(*lines, separator="\n"), loc), 2000), view


class ChallengesCog(commands.Cog, name="Challenges"):
    """Challenges, lobbies and their buttons."""

    def __init__(self, service: MatchService, notices: ReplyFirst,
                 tree: app_commands.CommandTree[Any]) -> None:
        self.service = service
        self.notices = notices
        self.tree = tree
        # discord.py has no context-menu decorator for cog methods: built here, added to
        # the tree while the cog is loaded.
        self.challenge_menu = app_commands.guild_only()(app_commands.ContextMenu(
            name="Challenge to a game", callback=self.pick_game))

    async def cog_load(self) -> None:
        self.tree.add_command(self.challenge_menu)

    async def cog_unload(self) -> None:
        self.tree.remove_command(self.challenge_menu.name, type=self.challenge_menu.type)

    # ------------------------------------------------------------------ autocomplete

    async def game_autocomplete(self, interaction: Interaction,
                                current: str) -> list[app_commands.Choice[str]]:
        return games_matching(interaction, current)

    async def seat_autocomplete(self, interaction: Interaction,
                                current: str) -> list[app_commands.Choice[int]]:
        choice = find_choice(interaction.namespace.game or "")
        if choice is None:
            return []
        v = rules.variant(choice.key)
        seats = v.seat_count(**choice.options)
        loc = reader(interaction)
        out = [app_commands.Choice(name=render(
            _("{seat} (moves first)", seat=seat_colour(v.seat_name(s, seats))) if s == 0
            else seat_colour(v.seat_name(s, seats)), loc), value=s) for s in range(seats)]
        return [c for c in out if current.lower() in c.name.lower()][:25]

    async def continue_match_autocomplete(self, interaction: Interaction,
                                          current: str) -> list[app_commands.Choice[int]]:
        return await within_budget(self._continuable_choices(interaction, current), "match")

    async def _continuable_choices(self, interaction: Interaction,
                                   current: str) -> list[app_commands.Choice[int]]:
        """The server's imported games that can go on, newest first, each named by its
        number, game, players, moves and day (``bot.imports``); what was typed picks
        them: digits by the number they start, words by the name holding them."""
        if interaction.guild_id is None:
            return []
        games = await self.service.continuable_imports(interaction.guild_id,
                                                       interaction.user.id)
        loc, typed = reader(interaction), current.strip().lower()
        out = []
        for game in games:
            label = import_label(game, loc)
            if typed and not (str(game.match.id).startswith(typed) if typed.isdigit()
                              else typed in label.lower()):
                continue
            out.append(app_commands.Choice(name=label, value=game.match.id))
        return out[:25]

    async def continue_seat_autocomplete(self, interaction: Interaction,
                                         current: str) -> list[app_commands.Choice[str]]:
        """The seats of the imported game the ``match`` option names, as the "Continue as
        a match" menu offers them (the side to move first and marked; the seats out of
        the game left out); none while the number names no game that can go on."""
        match = interaction.namespace.match
        if not isinstance(match, int) or isinstance(match, bool):
            return []
        try:
            game = await self.service.continuable(match, caller_of(interaction))
        except ServiceError:
            return []
        loc = reader(interaction)
        playing = sorted((s for s in game.match.seats if s.seat not in game.out),
                         key=lambda s: s.seat != game.to_move)
        out = [app_commands.Choice(name=render(
            _("{seat} (to move)", seat=seat_colour(s.name)) if s.seat == game.to_move
            else seat_colour(s.name), loc)[:100], value=str(s.seat)) for s in playing]
        return [c for c in out if current.lower() in c.name.lower()][:25]

    # ------------------------------------------------------------------ commands

    @app_commands.command(name="challenge",
                          description="Challenge someone (or anyone) to a game")
    @app_commands.guild_only()
    @app_commands.describe(
        game="The game and its options",
        opponent="Who you challenge (leave empty for an open challenge anyone may join)",
        opponent2="A second opponent (4-player games)",
        opponent3="A third opponent (4-player games)",
        days="Days per move (1-14; the server's default if empty)",
        clock="Or a time control: a bank with increment, e.g. 3d+1d/10d (3 days + 1 a "
              "move, at most 10)",
        claim_win="A lapsed clock waits for your claim instead of ending the game",
        weekends="Off: clocks stop on each player's Saturday and Sunday (empty: the "
                 "server's default)",
        on_timeout="4 players, one out of time: out (end), skipped and last (skip), or the "
                   "computer plays on",
        rated="Rated (counts for the leaderboard) or casual",
        seat="The colour or seat you want (random if empty)",
        computer="Play Tablero itself (or name the bot as the opponent); always casual",
        level="The computer's strength: 1 (beginner) to 8 (strongest); 5 if empty")
    @app_commands.autocomplete(seat=seat_autocomplete)
    async def challenge(self, interaction: Interaction, game: str,
                        opponent: discord.Member | None = None,
                        opponent2: discord.Member | None = None,
                        opponent3: discord.Member | None = None,
                        days: app_commands.Range[int, 1, 14] | None = None,
                        rated: bool = True, seat: int | None = None,
                        computer: bool = False,
                        level: app_commands.Range[int, 1, 8] | None = None,
                        clock: str | None = None, claim_win: bool | None = None,
                        weekends: Literal["off", "on"] | None = None,
                        on_timeout: Literal["end", "skip", "computer"] | None = None
                        ) -> None:
        opponents = [o for o in (opponent, opponent2, opponent3) if o is not None]
        me = interaction.client.user
        if me is not None and any(o.id == me.id for o in opponents):
            computer = True  # naming Tablero itself
            opponents = [o for o in opponents if o.id != me.id]
        if computer or (level is not None and on_timeout != "computer"):
            # what a game with the computer does not take is refused, not dropped
            unused = [name for name, given in (("clock", clock), ("claim_win", claim_win),
                                               ("weekends", weekends),
                                               ("on_timeout", on_timeout))
                      if given is not None]
            await self.challenge_computer(interaction, game, opponents, days, seat,
                                          level or DEFAULT_LEVEL, unused=unused)
            return
        await self.make_challenge(interaction, game, opponents, days, rated, seat, clock,
                                  claim_win,
                                  None if weekends is None else weekends == "off",
                                  on_timeout, level)

    if 0 < len(GAME_MENU) <= 25:
        challenge = app_commands.choices(game=GAME_MENU)(challenge)
    else:
        challenge = app_commands.autocomplete(game=game_autocomplete)(challenge)

    async def make_challenge(self, interaction: Interaction, game: str,
                             opponents: Sequence[discord.Member], days: int | None,
                             rated: bool, seat: int | None, clock: str | None = None,
                             claim_win: bool | None = None,
                             weekends_off: bool | None = None,
                             on_timeout: str | None = None,
                             level: int | None = None) -> None:
        async with acknowledged(interaction):
            where_id = guild_id(interaction)
            choice = known_game(game)
            if any(o.bot for o in opponents):
                raise errors.AdapterError(_("Bots can't play: challenge a person (or nobody, "
                                            "for an open challenge)."))
            if any(o.id == interaction.user.id for o in opponents):
                raise errors.AdapterError(_("You can't challenge yourself: pick someone else, or "
                                            "leave the opponent empty for an open challenge."))
            channel = await self._games_channel(interaction, where_id)
            check_post(channel)
            async with self.notices.after_reply():
                m = await self.service.challenge(
                    where_id, channel.id, interaction.user.id, choice.key,
                    options=dict(choice.options), opponents=[o.id for o in opponents],
                    days=days, rated=rated, seat=seat, clock=clock, claim_win=claim_win,
                    weekends_off=weekends_off, on_timeout=on_timeout,
                    stand_in_level=level)
                await answer(interaction, _("Challenge posted (match {match}).", match=m.id)
                             if channel.id == interaction.channel_id else
                             _("Challenge posted in {channel} (match {match}).",
                               channel=channel.mention, match=m.id))

    @app_commands.command(name="cancel", description="Withdraw your challenge or lobby, "
                          "or leave a lobby you joined")
    @app_commands.guild_only()
    @app_commands.describe(match="The challenge's match number")
    async def cancel(self, interaction: Interaction, match: int) -> None:
        async with acknowledged(interaction), self.notices.after_reply():
            await self.service.cancel(match, interaction.user.id,
                                      caller=caller_of(interaction))
            await answer(interaction, _("Challenge cancelled."))

    @app_commands.command(name="continue",
                          description="Go on with an imported game from its last position")
    @app_commands.guild_only()
    @app_commands.describe(
        match="The imported game's match number (what /import answered)",
        opponent="Who plays on with you (they accept or decline, as any challenge)",
        opponent2="A second opponent (4-player games)",
        opponent3="A third opponent (4-player games)",
        seat="Your colour or seat (empty: the side to move)",
        days="Days per move (1-14; the server's default if empty)",
        clock="Or a time control: a bank with increment, e.g. 3d+1d/10d",
        on_timeout="4 players, one out of time: out (end), skipped and last (skip), or the "
                   "computer plays on",
        level="The computer's strength: 1 (beginner) to 8 (strongest); 5 if empty")
    @app_commands.autocomplete(match=continue_match_autocomplete)
    @app_commands.autocomplete(seat=continue_seat_autocomplete)
    async def continue_import(self, interaction: Interaction, match: int,
                              opponent: discord.Member,
                              opponent2: discord.Member | None = None,
                              opponent3: discord.Member | None = None,
                              seat: str | None = None,
                              days: app_commands.Range[int, 1, 14] | None = None,
                              clock: str | None = None,
                              on_timeout: Literal["end", "skip", "computer"] | None = None,
                              level: app_commands.Range[int, 1, 8] | None = None) -> None:
        """A challenge to continue an imported game: a new casual match from its last
        position, started once every invited player accepts; ``on_timeout`` and
        ``level`` as ``/challenge`` takes them for a lobby."""
        async with acknowledged(interaction):
            opponents = [o for o in (opponent, opponent2, opponent3) if o is not None]
            await self._continue(interaction, match, opponents, seat=seat, days=days,
                                 clock=clock, on_timeout=on_timeout, level=level)

    async def _continue(self, interaction: Interaction, match_id: int,
                        opponents: Sequence[discord.abc.User], *, seat: int | str | None,
                        days: int | None = None, clock: str | None = None,
                        on_timeout: str | None = None, level: int | None = None) -> None:
        """What ``/continue`` and the "Continue as a match" menus do: the challenge to
        go on with imported game ``match_id``, posted where challenges go."""
        where_id = guild_id(interaction)
        if any(o.bot for o in opponents):
            raise errors.AdapterError(_("Bots can't play: challenge a person."))
        channel = await self._games_channel(interaction, where_id)
        check_post(channel)
        async with self.notices.after_reply():
            m = await self.service.continue_import(
                where_id, channel.id, interaction.user.id, match_id,
                [o.id for o in opponents], seat=seat, days=days, clock=clock,
                on_timeout=on_timeout, stand_in_level=level)
            await answer(interaction, _("Challenge posted (match {match}).", match=m.id)
                         if channel.id == interaction.channel_id else
                         _("Challenge posted in {channel} (match {match}).",
                           channel=channel.mention, match=m.id))

    @commands.Cog.listener("on_match_button")
    async def on_continue_button(self, interaction: Interaction,
                                 button: MatchButton) -> None:
        """"Continue as a match" under an import: the menus of the seat to play and of
        the opponents, privately, once the game is known to go on (refused in the words
        of ``/continue`` otherwise)."""
        if button.action != "continue":
            return
        async with acknowledged(interaction):
            guild_id(interaction)  # in a server only, as /continue
            source = await self.service.continuable(button.match_id, caller_of(interaction))
            text, view = continue_menu(source, None, reader(interaction))
            await interaction.followup.send(text, view=view, ephemeral=True)

    @commands.Cog.listener()
    async def on_continue_seat(self, interaction: Interaction, menu: ContinueSeat) -> None:
        """Another seat picked: the menus again, the opponents' carrying it."""
        async with errors.replying(interaction):
            await interaction.response.defer()
            source = await self.service.continuable(menu.match_id, caller_of(interaction))
            text, view = continue_menu(source, int(menu.picked) if menu.picked.isdigit()
                                       else None, reader(interaction))
            await interaction.edit_original_response(content=text, view=view)

    @commands.Cog.listener()
    async def on_continue_opponents(self, interaction: Interaction,
                                    menu: ContinueOpponents) -> None:
        """The opponents picked: the challenge, as ``/continue`` makes it (the server's
        clock); then the menus show the choice, disabled, so they make one challenge (the
        button under the import opens new ones). Refused, they stay as they were."""
        async with errors.replying(interaction):
            await interaction.response.defer()
            source = await self.service.continuable(menu.match_id, caller_of(interaction))
            picked = menu.picked
            await self._continue(interaction, menu.match_id, picked, seat=menu.seat)
            text, view = continue_menu(source, menu.seat, reader(interaction),
                                       chosen=[o.id for o in picked])
            await interaction.edit_original_response(content=text, view=view)

    async def challenge_computer(self, interaction: Interaction, game: str,
                                 opponents: Sequence[discord.Member], days: int | None,
                                 seat: int | None, level: int,
                                 unused: Sequence[str] = ()) -> None:
        """A casual match against the computer: it starts at once (a 4-player game opens
        a lobby with the computer in it; ``/fill`` adds more). ``unused``: options given
        that such a match does not take (refused)."""
        async with acknowledged(interaction):
            where_id = guild_id(interaction)
            choice = known_game(game)
            if unused:
                raise errors.AdapterError(
                    _("A game against the computer takes no {option}: it is casual, and "
                      "days sets its pace.", option=unused[0]))
            if opponents:
                raise errors.AdapterError(
                    _("Play the computer on your own (leave the opponents empty); in a "
                      "4-player lobby, `{fill}` gives the empty seats to computer players.",
                      fill=command("fill")))
            channel = await self._games_channel(interaction, where_id)
            check_post(channel)
            async with self.notices.after_reply():
                m = await self.service.challenge_computer(
                    where_id, channel.id, interaction.user.id, choice.key, level=level,
                    options=dict(choice.options), days=days, seat=seat)
                name = computer_title(computer_user(level))
                here = channel.id == interaction.channel_id
                said: Words
                if m.status is MatchStatus.ACTIVE:
                    said = _("Your casual match against {player} begins (match {match}).",
                             player=name, match=m.id) if here else \
                        _("Your casual match against {player} begins in {channel} (match "
                          "{match}).", player=name, channel=channel.mention, match=m.id)
                else:
                    said = _("Your casual match against {player} waits in a lobby (match "
                             "{match}).", player=name, match=m.id) if here else \
                        _("Your casual match against {player} waits in a lobby in {channel} "
                          "(match {match}).", player=name, channel=channel.mention,
                          match=m.id)
                await answer(interaction, said)

    @app_commands.command(name="fill",
                          description="Give your lobby's empty seats to computer players")
    @app_commands.guild_only()
    @app_commands.describe(level="Their strength: 1 (beginner) to 8 (strongest); 5 if empty",
                           match="The lobby (not needed inside its thread)")
    async def fill(self, interaction: Interaction,
                   level: app_commands.Range[int, 1, 8] | None = None,
                   match: int | None = None) -> None:
        async with acknowledged(interaction):
            if match is None:
                waiting = [m for m in await self.service.open_challenges(
                    guild_id(interaction)) if m.challenger_id == interaction.user.id
                    and m.status is MatchStatus.LOBBY]
                if len(waiting) != 1:
                    raise errors.AdapterError(
                        _("Which lobby? Name it in the `{match}` option (`{games}` lists "
                          "yours).", match=option("match"), games=command("games")))
                match = waiting[0].id
            async with self.notices.after_reply():
                m = await self.service.add_computers(match, interaction.user.id,
                                                     level or DEFAULT_LEVEL,
                                                     caller=caller_of(interaction))
                await answer(interaction, _("Computer players took the empty seats: match "
                                            "{match} begins (casual).", match=m.id))

    async def _games_channel(self, interaction: Interaction,
                             where_id: int) -> discord.TextChannel:
        settings = await self.service.get_guild_settings(where_id)
        channel: object = interaction.channel
        if settings.games_channel_id:
            configured = interaction.client.get_channel(settings.games_channel_id)
            if configured is not None:
                channel = configured
        if isinstance(channel, discord.Thread) and channel.parent is not None:
            channel = channel.parent
        if not isinstance(channel, discord.TextChannel):
            raise errors.AdapterError(_("Challenges are posted in text channels: use this "
                                        "command in one."))
        return channel

    async def pick_game(self, interaction: Interaction, member: discord.Member) -> None:
        """The user context menu: pick a game from a menu, then the challenge is made."""
        if member.bot or member.id == interaction.user.id:
            await answer(interaction, _("Pick another member: you can't challenge a bot.")
                         if member.bot else
                         _("Pick another member: you can't challenge yourself."))
            return
        loc = reader(interaction)
        options = [discord.SelectOption(label=render(c.title, loc)[:100], value=c.value)
                   for c in game_choices()]
        await interaction.response.send_message(
            render(_("Which game do you want to play with {player}?",
                     player=member.mention), loc),
            view=game_menu(member.id, options, loc=loc), ephemeral=True)

    @commands.Cog.listener()
    async def on_game_pick(self, interaction: Interaction, menu: GamePick) -> None:
        """A game picked in the context menu's game menu: the menu is disabled first (it
        makes one challenge), then the challenge is made as ``/challenge`` makes it."""
        async with errors.replying(interaction):
            picked = menu.picked
            label = menu.label_of(picked)
            await interaction.response.edit_message(
                view=game_menu(menu.opponent_id, list(menu.item.options), chosen=label,
                               loc=reader(interaction)))
            guild = interaction.guild
            if guild is None:
                raise errors.AdapterError(_("Use this in a server channel, not in DMs."))
            try:  # after a restart the member is not in the cache (no member intent)
                opponent = guild.get_member(menu.opponent_id) or \
                    await guild.fetch_member(menu.opponent_id)
            except discord.NotFound:
                raise errors.AdapterError(_("That member has left the server.")) from None
            await self.make_challenge(interaction, picked, [opponent], None, True, None)

    # ------------------------------------------------------------------ buttons

    @commands.Cog.listener()
    async def on_match_button(self, interaction: Interaction, button: MatchButton) -> None:
        """Accept, decline, join and cancel (the draw buttons are the Play cog's). A
        challenge's DM to a player who chose ``/notify mode:dm`` carries Accept and
        Decline too: a click there has no server, so the match is read as a DM reads it
        (its participants only: to anyone else it does not exist) and the answer is
        given in the match's own server."""
        if button.action not in ("accept", "decline", "join", "cancel"):
            return
        async with acknowledged(interaction):
            m = await clicked_match(self.service, interaction, button)
            user = interaction.user.id
            caller = caller_of(interaction) if interaction.guild_id is not None \
                else Caller(m.guild_id, user)
            if button.action in ("accept", "join"):
                check_post(match_place(interaction, m))
            async with self.notices.after_reply():
                if button.action == "accept":
                    m = await self.service.accept(m.id, user, caller=caller)
                    text = _("Challenge accepted.") if m.status.is_waiting is False else \
                        _("You're in; waiting for the other players.")
                elif button.action == "join":
                    m = await self.service.join(m.id, user, caller=caller)
                    text = _("You joined.") if m.status.is_waiting else \
                        _("You joined: the match begins.")
                elif button.action == "decline":
                    await self.service.decline(m.id, user, caller=caller)
                    text = _("Challenge declined.")
                else:
                    await self.service.cancel(m.id, user, caller=caller)
                    text = _("Challenge cancelled.")
                await answer(interaction, text)
