"""Persistent buttons: their custom ids carry everything needed to act after a restart.

``tablero:<action>:<match id>:<ply>`` for match buttons (accept, decline, join, cancel,
draw-yes, draw-no, +1 day, claim win, keep waiting, rematch, take back, takeback
yes/no, pause yes/no; "next game"
carries the match the list or the last jump showed, and ply 0) and
``tablero:lbp:<page>:<ladder>`` / ``tablero:lbn:…`` for leaderboard pages, and
``tablero:tjoin:<tournament id>`` / ``tablero:tleave:…`` for a tournament's post, and
``tablero:pick:<user id>`` for the game menu of the "Challenge to a game" context menu, and
``tablero:st<mode><direction>:<match id>:<ply>`` for the replay stepper (issue 42), and
``tablero:cseat:<match id>`` / ``tablero:cwho:<match id>:<seat>`` for the menus "Continue as
a match" opens under an import (issue 44: the seat to play, then the opponents), and
``tablero:xstep:<place>`` / ``tablero:xback:<place>`` / ``tablero:xstart:<place>`` for the
opening explorer's menu and buttons (the place as the service names it). The
ply is the match's ply when the button was posted: a click on a button whose ply is no
longer the match's (the draw offer lapsed, the game moved on) gets an ephemeral refusal.
The classes are registered with ``Client.add_dynamic_items`` at start-up, so no view state
is needed.

A click is announced as a custom event (``Client.dispatch``): ``on_match_button(interaction,
button)``, ``on_leaderboard_page(interaction, button)``, ``on_step_button(interaction, button)`` and
``on_game_pick(interaction, menu)``, which the cogs listen to. The
buttons know nothing of the cogs, and the notifier can build them.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

import discord

from locales.i18n import DEFAULT_LOCALE, Text, _, _n, render

MATCH_ACTIONS: dict[str, tuple[Text, discord.ButtonStyle]] = {
    "accept": (_("Accept"), discord.ButtonStyle.success),
    "decline": (_("Decline"), discord.ButtonStyle.secondary),
    "join": (_("Join"), discord.ButtonStyle.primary),
    "cancel": (_("Cancel"), discord.ButtonStyle.danger),
    "drawyes": (_("Accept draw"), discord.ButtonStyle.success),
    "drawno": (_("Decline draw"), discord.ButtonStyle.secondary),
    # issue 16: +1 day on turn messages, the claim-win question, the next game of /games
    "moretime": (_("+1 day"), discord.ButtonStyle.secondary),
    "claim": (_("Claim win"), discord.ButtonStyle.danger),
    "wait": (_("Keep waiting"), discord.ButtonStyle.secondary),
    "next": (_("Next game"), discord.ButtonStyle.primary),
    "rematch": (_("Rematch"), discord.ButtonStyle.primary),
    # issue 42: the turn post's Take back (asks, as /takeback does)
    "takeback": (_("Take back"), discord.ButtonStyle.secondary),
    "takeyes": (_("Accept takeback"), discord.ButtonStyle.success),
    "takeno": (_("Decline takeback"), discord.ButtonStyle.secondary),
    # issue 43: the answers to a pause by agreement
    "pauseyes": (_("Accept pause"), discord.ButtonStyle.success),
    "pauseno": (_("Decline pause"), discord.ButtonStyle.secondary),
    # issue 44: under /import's reply, what /continue does (its ply: the imported one)
    "continue": (_("Continue as a match"), discord.ButtonStyle.primary),
}
"""Each match button's label (in the language of the post it is under) and style."""


def match_custom_id(action: str, match_id: int, ply: int) -> str:
    """The custom id of the button ``action`` on match ``match_id`` at ``ply``.

    >>> match_custom_id("accept", 12, 0)
    'tablero:accept:12:0'
    """
    return f"tablero:{action}:{match_id}:{ply}"


class MatchButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
                  template=r"tablero:(?P<action>accept|decline|join|cancel|drawyes|drawno|moretime"
                           r"|claim|wait|next|rematch|takeback|takeyes|takeno|pauseyes|pauseno"
                           r"|continue)"
                           r":(?P<match>[0-9]{1,19}):(?P<ply>[0-9]{1,9})"):
    """A button acting on one match at one ply."""

    def __init__(self, action: str, match_id: int, ply: int,
                 loc: str = DEFAULT_LOCALE) -> None:
        label, style = MATCH_ACTIONS[action]
        super().__init__(discord.ui.Button(
            label=render(label, loc), style=style,
            custom_id=match_custom_id(action, match_id, ply)))
        self.action = action
        self.match_id = match_id
        self.ply = ply

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any],
                             item: discord.ui.Item[Any], match: re.Match[str],
                             /) -> MatchButton:
        return cls(match["action"], int(match["match"]), int(match["ply"]))

    async def interaction_check(self, interaction: discord.Interaction[Any], /) -> bool:
        return not interaction.user.bot

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        interaction.client.dispatch("match_button", interaction, self)


class LeaderboardButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
                        template=r"tablero:lb(?P<dir>[pn]):(?P<page>[0-9]{1,6})"
                                 r"(?:s(?P<season>[0-9]{1,9}))?:(?P<ladder>[a-z0-9:=,_-]{1,60})"):
    """Turns to a page of a ladder (of a season: ``s<number>`` after the page; buttons
    posted before seasons existed have none and still work)."""

    def __init__(self, ladder: str, page: int, direction: str, *,
                 disabled: bool = False, loc: str = DEFAULT_LOCALE,
                 season: int | None = None) -> None:
        label = _("◀ Previous") if direction == "p" else _("Next ▶")
        marker = f"s{season}" if season is not None else ""
        super().__init__(discord.ui.Button(
            label=render(label, loc), style=discord.ButtonStyle.secondary, disabled=disabled,
            custom_id=f"tablero:lb{direction}:{page}{marker}:{ladder}"))
        self.ladder = ladder
        self.page = page
        self.season = season

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any],
                             item: discord.ui.Item[Any], match: re.Match[str],
                             /) -> LeaderboardButton:
        season = match["season"]
        return cls(match["ladder"], int(match["page"]), match["dir"],
                   season=int(season) if season else None)

    async def interaction_check(self, interaction: discord.Interaction[Any], /) -> bool:
        return not interaction.user.bot

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        interaction.client.dispatch("leaderboard_page", interaction, self)


class GamePick(discord.ui.DynamicItem[discord.ui.Select[Any]],
               template=r"tablero:pick:(?P<opponent>[0-9]{1,20})"):
    """The game menu offered to challenge one member; the menu's options are the games.
    The member's id is in the custom id, so a pick still works after a restart."""

    def __init__(self, opponent_id: int, options: list[discord.SelectOption], *,
                 disabled: bool = False, placeholder: str = "") -> None:
        super().__init__(discord.ui.Select(
            custom_id=f"tablero:pick:{opponent_id}",
            placeholder=placeholder or render(_("Choose a game"), DEFAULT_LOCALE),
            options=options, disabled=disabled))
        self.opponent_id = opponent_id

    @property
    def picked(self) -> str:
        """The value of the game chosen."""
        return self.item.values[0]

    def label_of(self, value: str) -> str:
        return next((o.label for o in self.item.options if o.value == value), value)

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any],
                             item: discord.ui.Item[Any], match: re.Match[str],
                             /) -> GamePick:
        options = item.options if isinstance(item, discord.ui.Select) else []
        return cls(int(match["opponent"]), list(options))

    async def interaction_check(self, interaction: discord.Interaction[Any], /) -> bool:
        return not interaction.user.bot

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        interaction.client.dispatch("game_pick", interaction, self)


def game_menu(opponent_id: int, options: list[discord.SelectOption], *,
              chosen: str | None = None, loc: str = DEFAULT_LOCALE) -> discord.ui.View:
    """The game menu; once ``chosen`` it shows the choice and is disabled, so the same
    menu cannot make a second challenge."""
    view = discord.ui.View(timeout=None)
    view.add_item(GamePick(opponent_id, options[:25], disabled=chosen is not None,
                           placeholder=chosen or render(_("Choose a game"), loc)))
    return view


def match_buttons(match_id: int, ply: int, actions: list[str],
                  loc: str = DEFAULT_LOCALE) -> discord.ui.View:
    """A persistent view (no timeout) with the given match buttons, labelled in ``loc``."""
    view = discord.ui.View(timeout=None)
    for action in actions:
        view.add_item(MatchButton(action, match_id, ply, loc))
    return view


def with_web_link(view: discord.ui.View | None, url: str,
                  loc: str = DEFAULT_LOCALE) -> discord.ui.View:
    """``view`` (a new one when None) with an "Open on the web" link button to ``url``, a
    match's page (a link button: Discord opens it, the bot hears no click)."""
    view = view if view is not None else discord.ui.View(timeout=None)
    view.add_item(discord.ui.Button(style=discord.ButtonStyle.link, url=url,
                                    label=render(_("Open on the web"), loc)))
    return view


def leaderboard_buttons(ladder: str, page: int, pages: int, loc: str = DEFAULT_LOCALE,
                        season: int | None = None) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(LeaderboardButton(ladder, max(1, page - 1), "p", disabled=page <= 1,
                                    loc=loc, season=season))
    view.add_item(LeaderboardButton(ladder, min(pages, page + 1), "n", disabled=page >= pages,
                                    loc=loc, season=season))
    return view


class TournamentButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
                       template=r"tablero:t(?P<action>join|leave):(?P<tournament>[0-9]{1,19})"):
    """Join or leave a tournament from its post (``tablero:tjoin:<id>``)."""

    def __init__(self, action: str, tournament_id: int, loc: str = DEFAULT_LOCALE) -> None:
        label, style = {"join": (_("Join"), discord.ButtonStyle.success),
                        "leave": (_("Leave"), discord.ButtonStyle.secondary)}[action]
        super().__init__(discord.ui.Button(
            label=render(label, loc), style=style, custom_id=f"tablero:t{action}:{tournament_id}"))
        self.action = action
        self.tournament_id = tournament_id

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any],
                             item: discord.ui.Item[Any], match: re.Match[str],
                             /) -> TournamentButton:
        return cls(match["action"], int(match["tournament"]))

    async def interaction_check(self, interaction: discord.Interaction[Any], /) -> bool:
        return not interaction.user.bot

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        interaction.client.dispatch("tournament_button", interaction, self)


def tournament_buttons(tournament_id: int, loc: str = DEFAULT_LOCALE) -> discord.ui.View:
    """Join and Leave under a tournament's post."""
    view = discord.ui.View(timeout=None)
    view.add_item(TournamentButton("join", tournament_id, loc))
    view.add_item(TournamentButton("leave", tournament_id, loc))
    return view


STEPS = {"f": "⏮", "p": "◀", "n": "▶", "l": "⏭"}
"""The replay stepper's buttons (issue 42): first, previous, next and last ply."""


class StepButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
                 template=r"tablero:st(?P<mode>[ne])(?P<dir>[fpnl])"
                          r":(?P<match>[0-9]{1,19}):(?P<ply>[0-9]{1,9})"):
    """A replay stepper button: shows match ``match`` after ``ply`` plies (⏭: after the
    latest, whatever the ply it carries). ``mode`` ``e``: the click edits the message
    it is under (the stepper's own); ``n``: the click opens a private stepper for the
    one who clicked (under a public post or another reply). The custom id carries
    everything, so the buttons work after a restart."""

    def __init__(self, direction: str, match_id: int, ply: int, *, edit: bool = True,
                 disabled: bool = False) -> None:
        mode = "e" if edit else "n"
        super().__init__(discord.ui.Button(
            emoji=STEPS[direction], style=discord.ButtonStyle.secondary, disabled=disabled,
            custom_id=f"tablero:st{mode}{direction}:{match_id}:{ply}"))
        self.direction = direction
        self.match_id = match_id
        self.ply = ply
        self.edit = edit

    @property
    def target(self) -> int | None:
        """The ply to show (None: the latest)."""
        return None if self.direction == "l" else self.ply

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any],
                             item: discord.ui.Item[Any], match: re.Match[str],
                             /) -> StepButton:
        return cls(match["dir"], int(match["match"]), int(match["ply"]),
                   edit=match["mode"] == "e")

    async def interaction_check(self, interaction: discord.Interaction[Any], /) -> bool:
        return not interaction.user.bot

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        interaction.client.dispatch("step_button", interaction, self)


def stepper_buttons(match_id: int, ply: int, last: int, *, edit: bool = True,
                    live: bool = False) -> discord.ui.View:
    """⏮ ◀ ▶ ⏭ for match ``match_id`` shown after ``ply`` of ``last`` plies: each
    button carries the ply it goes to, and those that would not move are disabled (but
    ⏭ while the match is ``live``: its latest ply moves on). ``edit`` False: under a
    public post or another reply (a click opens a stepper)."""
    view = discord.ui.View(timeout=None)
    targets = {"f": 0, "p": max(0, ply - 1), "n": min(last, ply + 1), "l": last}
    for direction, target in targets.items():
        still = target == ply and not (live and direction == "l")
        view.add_item(StepButton(direction, match_id, target, edit=edit, disabled=still))
    return view


EXPLORER_ROOM = 100 - len("tablero:xstart:")
"""The characters a place of the explorer may take in its buttons' ids (Discord's custom
ids hold 100): the service names a longer place by a short mark
(``MatchService.explorer_token``)."""


def _explorer_id(action: str, place: str | None) -> str:
    """``tablero:x<action>:<place>``; without ``place``, the id of a message posted
    before the place moved into the ids (its place is in its footer)."""
    return f"tablero:x{action}" if place is None else f"tablero:x{action}:{place}"


class ExplorerStep(discord.ui.DynamicItem[discord.ui.Select[Any]],
                   template=rf"tablero:xstep(?::(?P<place>.{{1,{EXPLORER_ROOM}}}))?"):
    """The opening explorer's menu of next moves (``/explorer``): a move picked goes one
    move deeper. Where the explorer stands (its game, games and line) is in the custom
    id (``tablero:xstep:<place>``, the service's name of it), so a pick still works after
    a restart, with nothing shown to the reader; a menu with no place is an older one,
    whose message says where it stands in its footer."""

    def __init__(self, options: list[discord.SelectOption], *, place: str | None = None,
                 placeholder: str = "", disabled: bool = False) -> None:
        super().__init__(discord.ui.Select(
            custom_id=_explorer_id("step", place), placeholder=placeholder,
            options=options or [discord.SelectOption(label="-", value="-")],
            disabled=disabled or not options))
        self.place = place

    @property
    def picked(self) -> str:
        return self.item.values[0]

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any],
                             item: discord.ui.Item[Any], match: re.Match[str],
                             /) -> ExplorerStep:
        options = item.options if isinstance(item, discord.ui.Select) else []
        return cls(list(options), place=match["place"])

    async def interaction_check(self, interaction: discord.Interaction[Any], /) -> bool:
        return not interaction.user.bot

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        interaction.client.dispatch("explorer_step", interaction, self)


class ExplorerBack(discord.ui.DynamicItem[discord.ui.Button[Any]],
                   template=rf"tablero:x(?P<where>back|start)"
                            rf"(?::(?P<place>.{{1,{EXPLORER_ROOM}}}))?"):
    """One move back, or back to the start, in the opening explorer; the place it goes
    back from in its custom id, as :class:`ExplorerStep`."""

    def __init__(self, where: str, *, place: str | None = None, loc: str = DEFAULT_LOCALE,
                 disabled: bool = False) -> None:
        label = _("◀ One move back") if where == "back" else _("⏮ Start")
        super().__init__(discord.ui.Button(
            label=render(label, loc), style=discord.ButtonStyle.secondary, disabled=disabled,
            custom_id=_explorer_id(where, place)))
        self.where = where
        self.place = place

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any],
                             item: discord.ui.Item[Any], match: re.Match[str],
                             /) -> ExplorerBack:
        return cls(match["where"], place=match["place"])

    async def interaction_check(self, interaction: discord.Interaction[Any], /) -> bool:
        return not interaction.user.bot

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        interaction.client.dispatch("explorer_back", interaction, self)


class ContinueSeat(discord.ui.DynamicItem[discord.ui.Select[Any]],
                   template=r"tablero:cseat:(?P<match>[0-9]{1,19})"):
    """The seat to play when continuing imported game ``match`` (issue 44); the options
    are its seats by number. A pick rewrites the menus with it (it is carried in the
    opponents menu's custom id), so nothing is kept anywhere."""

    def __init__(self, match_id: int, options: list[discord.SelectOption], *,
                 disabled: bool = False, placeholder: str = "") -> None:
        super().__init__(discord.ui.Select(
            custom_id=f"tablero:cseat:{match_id}", options=options, disabled=disabled,
            placeholder=placeholder))
        self.match_id = match_id

    @property
    def picked(self) -> str:
        return self.item.values[0]

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any],
                             item: discord.ui.Item[Any], match: re.Match[str],
                             /) -> ContinueSeat:
        options = item.options if isinstance(item, discord.ui.Select) else []
        return cls(int(match["match"]), list(options))

    async def interaction_check(self, interaction: discord.Interaction[Any], /) -> bool:
        return not interaction.user.bot

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        interaction.client.dispatch("continue_seat", interaction, self)


class ContinueOpponents(discord.ui.DynamicItem[discord.ui.UserSelect[Any]],
                        template=r"tablero:cwho:(?P<match>[0-9]{1,19}):(?P<seat>[0-9]{1,2})"):
    """Who plays on with the one continuing imported game ``match`` from ``seat``
    (issue 44): every other seat's player, picked at once."""

    def __init__(self, match_id: int, seat: int, opponents: int = 1, *,
                 disabled: bool = False, placeholder: str = "",
                 chosen: Sequence[int] = ()) -> None:
        super().__init__(discord.ui.UserSelect(
            custom_id=f"tablero:cwho:{match_id}:{seat}", min_values=opponents,
            max_values=opponents, disabled=disabled, placeholder=placeholder,
            default_values=[discord.Object(u, type=discord.User) for u in chosen]))
        self.match_id = match_id
        self.seat = seat

    @property
    def picked(self) -> list[discord.User | discord.Member]:
        return list(self.item.values)

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any],
                             item: discord.ui.Item[Any], match: re.Match[str],
                             /) -> ContinueOpponents:
        count = item.max_values if isinstance(item, discord.ui.UserSelect) else 1
        return cls(int(match["match"]), int(match["seat"]), count)

    async def interaction_check(self, interaction: discord.Interaction[Any], /) -> bool:
        return not interaction.user.bot

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        interaction.client.dispatch("continue_opponents", interaction, self)


def continue_menus(match_id: int, seats: list[discord.SelectOption], seat: int,
                   opponents: int, *, loc: str = DEFAULT_LOCALE,
                   chosen: Sequence[int] = ()) -> discord.ui.View:
    """The seat menu (``seats``, the one at ``seat`` chosen) and the menu of the
    ``opponents`` to invite; with the ``chosen`` ones (the challenge is made) both show
    the choice, disabled, so the same menus cannot make a second challenge."""
    view = discord.ui.View(timeout=None)
    options = [discord.SelectOption(label=o.label, value=o.value,
                                    default=o.value == str(seat)) for o in seats]
    view.add_item(ContinueSeat(match_id, options, disabled=bool(chosen),
                               placeholder=render(_("Your seat"), loc)[:150]))
    view.add_item(ContinueOpponents(
        match_id, seat, opponents, disabled=bool(chosen), chosen=chosen,
        placeholder=render(_n("Pick who plays on with you", "Pick the {count} who play on "
                              "with you", opponents, count=opponents), loc)[:150]))
    return view
