"""Turning errors into the ephemeral message a person sees: the one place where that is
decided. ``replying`` answers what a command or component body raises (the cogs run every
body in it); the command tree's ``on_error`` answers what fails before a body runs
(checks, options). Refusals are answered inside the body because discord.py hands every
error that escapes a command to ``on_error``, where it counts as a failure of the bot.

Typed service errors carry lazy words (``locales.i18n``) and the adapter adds what to do
next, rendered in the reader's Discord locale. Rules errors come from the pure rules core
with a code and params: the adapter frames them in the reader's language (what kind of
refusal and what to do next) around the core's reason in the same language
(``locales.rules_words``), which names points and moves. Anything else is
a bug: the user gets a short apology, the log gets the traceback (never the token: it is a
SecretStr and no error message contains it).
"""

from __future__ import annotations

import logging
import re
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import discord
from discord import app_commands

import rules
from bot.discordapp.mentions import CommandIds, cut, mentioning, plain_commands
from bot.ops.logs import log_context
from bot.ops.metrics import Metrics
from locales.i18n import Text, Words, _, _n, capitalized, command, listing, negotiate, render
from locales.rules_words import rules_words
from locales.terms import permission_name
from service import errors as service_errors
from service.seasons import NoSuchSeason

log = logging.getLogger("tablero.discord")

GENERIC_APOLOGY = _(
    "Sorry, something went wrong on my side and nothing was changed. "
    "Please try again in a moment; if it keeps happening, tell the server's admins.")


COMMANDS_UPDATING = _("Tablero's commands are being updated, try again in a minute.")
"""For an interaction with a command this version of the bot does not have, or has with
other options: Discord still shows the old commands for a while after a sync."""


class AdapterError(Exception):
    """A refusal decided by the Discord layer itself (wrong place, missing permission...)."""

    def __init__(self, text: Words) -> None:
        with plain_commands():  # for the log
            english = render(text, "en-US")
        super().__init__(english)
        self.text = text
        self.message = english


class NoMatchHere(AdapterError):
    """No match option was given and the channel is not a match thread."""


class StaleButton(AdapterError):
    """A click on a button the match has moved past."""

    def __init__(self) -> None:
        super().__init__(_("This button is out of date: the match has moved on. "
                           "Use `{board}` to see where it stands.", board=command("board")))


class MissingPermissions(AdapterError):
    """The bot lacks channel permissions; the message names them."""

    def __init__(self, missing: list[str], where: str) -> None:
        names = listing(_("**{permission}**", permission=permission_name(m)) for m in missing)
        super().__init__(_n(
            "I can't do that in {where}: I'm missing the {permissions} permission. Ask a "
            "server admin to grant it to me (or to my role) there.",
            "I can't do that in {where}: I'm missing the {permissions} permissions. Ask a "
            "server admin to grant them to me (or to my role) there.",
            len(missing), where=where, permissions=names))
        self.missing = missing


_NEXT_STEP: dict[type[BaseException], Text] = {
    NoSuchSeason: _("Pick one of the suggested seasons, or see them all with `{list}`.",
                    list=command("season list")),
    service_errors.MatchNotFound: _("Use `{games}` to see your matches.",
                                    games=command("games")),
    service_errors.NotAPlayer: _("Only the players of this match can do that; "
                                 "use `{challenge}` to start your own.",
                                 challenge=command("challenge")),
    # (told: mentioned in the thread, or by DM as /notify chose)
    service_errors.NotYourTurn: _("You'll be told when it's your turn."),
    service_errors.MatchOver: _("Use `{history}` to see how it went, or `{challenge}` for a "
                                "new one.", history=command("history"),
                                challenge=command("challenge")),
    service_errors.MatchNotStarted: _("The match starts once the challenge is accepted."),
    service_errors.StaleMove: _("Someone moved first: look at the new `{board}` and try "
                                "again.", board=command("board")),
    service_errors.MatchBroken: _("Ask a server admin to look at it; nothing else was "
                                  "changed."),
}


def rules_detail(exc: rules.RulesError) -> Words:
    """The rules core's reason for ``exc`` in the reader's words (points and moves as
    notation); an uncoded error says a generic sentence, never English detail."""
    return rules_words(exc)


def _rules_message(exc: rules.RulesError, answered: str | None = None) -> Text:
    """A refused move in words; one typed in ``/puzzle answer`` (``answered``) points
    there and to the puzzle, not to ``/move`` and a match's ``/board``."""
    detail = rules_detail(exc)
    puzzle = (answered or "").split() == ["puzzle", "answer"]
    if puzzle and isinstance(exc, rules.IllegalMoveError):
        return _("That move is not legal in your puzzle ({detail}). Pick one of the "
                 "suggestions that appear as you type in `{answer}`; `{again}` shows the "
                 "puzzle again.", detail=detail, answer=command("puzzle answer"),
                 again=command("puzzle next"))
    if puzzle and isinstance(exc, rules.NotationError):
        return _("That is not a move ({detail}). Start typing in `{answer}` to see the "
                 "legal ones in your puzzle.", detail=detail, answer=command("puzzle answer"))
    if isinstance(exc, rules.AmbiguousMoveError):
        options = ", ".join(f"`{c}`" for c in exc.candidates[:10])
        return _("That move is ambiguous ({detail}). Did you mean {options}? Type the full "
                 "move.", detail=detail, options=options)
    if isinstance(exc, rules.IllegalMoveError):
        return _("That move is not legal here ({detail}). Pick one of the suggestions that "
                 "appear as you type in `{move}`, or look at `{board}`.", detail=detail,
                 move=command("move"), board=command("board"))
    if isinstance(exc, rules.NotationError):
        # the detail shows the game's own way of writing (its squares, its notation):
        # a generic "like `c3-c4`" next to "c3 is not a playing square" (draughts) was wrong
        return _("That is not a move ({detail}). Start typing in `{move}` to see the legal "
                 "ones.", detail=detail, move=command("move"))
    if isinstance(exc, rules.OptionError):
        return _("Those game options do not work ({detail}). Check the game options and try "
                 "again.", detail=detail)
    return _("The rules refuse that: {detail}.", detail=detail)


def _check_message(exc: app_commands.AppCommandError) -> Words | None:
    """What a refused command check or option says (discord.py's own errors)."""
    if isinstance(exc, app_commands.CommandSignatureMismatch | app_commands.CommandNotFound):
        return COMMANDS_UPDATING
    if isinstance(exc, app_commands.MissingPermissions):
        names = listing(_("**{permission}**", permission=permission_name(
            n.replace('_', ' ').title().replace('Guild', 'Server')))
            for n in exc.missing_permissions)
        return _n("You need the {permissions} permission to do that here.",
                  "You need the {permissions} permissions to do that here.",
                  len(exc.missing_permissions), permissions=names)
    if isinstance(exc, app_commands.NoPrivateMessage):
        return _("Use this in a server channel, not in DMs.")
    if isinstance(exc, app_commands.TransformerError):
        return _("I couldn't understand `{value}`: pick one of the suggested values.",
                 value=exc.value)
    if isinstance(exc, app_commands.CheckFailure):
        return _("You can't use this command here.")
    return None


def user_message(exc: BaseException, answered: str | None = None) -> Words | None:
    """The message for an expected error (lazy words), or ``None`` when ``exc`` is a bug.
    ``answered``: the slash command it answers (qualified English name), which a refused
    option's next step names in the reader's words."""
    if isinstance(exc, app_commands.CommandInvokeError):
        exc = exc.original
    if isinstance(exc, app_commands.AppCommandError):
        return _check_message(exc)
    if isinstance(exc, AdapterError):
        return exc.text
    if isinstance(exc, rules.RulesError):
        return _rules_message(exc, answered)
    if isinstance(exc, service_errors.ServiceError):
        said = _("{error}.", error=capitalized(exc.text))
        for cls in type(exc).__mro__:
            hint = _NEXT_STEP.get(cls)
            if cls is service_errors.InvalidOption:
                # the same options error comes from /challenge, /tournament create, …
                hint = _("Check the options and try again.") if answered is None else _(
                    "Check the options and run `{command}` again.",
                    command=command(answered))
            if hint:
                return _("{error}. {next}", error=capitalized(exc.text), next=hint)
        return said
    if isinstance(exc, discord.Forbidden):
        return _("Discord refused that: I'm missing a permission in this channel. "
                 "Ask a server admin to check my role's permissions here.")
    return None


def describe(exc: BaseException, where: str = "an interaction",
             locale: str | None = None, command: str | None = None) -> str:
    """What the user sees for ``exc``, in ``locale`` (``command``: the slash command it
    answers); logs unexpected errors with their traceback and ``where`` they happened."""
    message = user_message(exc, command)
    if message is None:
        if isinstance(exc, app_commands.CommandInvokeError):
            exc = exc.original
        log.error("unexpected error in %s", where, exc_info=exc)
        return render(GENERIC_APOLOGY, locale)
    return render(message, locale)


def _where(interaction: discord.Interaction[Any]) -> str:
    """What the log says about an interaction: its id, command and match (never its
    token)."""
    command = interaction.command.qualified_name if interaction.command else None
    match = interaction.namespace.match if interaction.command else None
    custom_id = interaction.data.get("custom_id") if interaction.data else None
    return (f"interaction {interaction.id}"
            + (f" (/{command})" if command else "")
            + (f" ({custom_id})" if isinstance(custom_id, str) else "")
            + (f" in match {match}" if isinstance(match, int) else "")
            + (f" in channel {interaction.channel_id}" if interaction.channel_id else ""))


def command_ids(interaction: discord.Interaction[Any]) -> CommandIds | None:
    """The ids of the bot's commands (``TableroBot.command_ids``), which sits above this
    module."""
    known = getattr(interaction.client, "command_ids", None)
    return known if isinstance(known, CommandIds) else None


async def reply_error(interaction: discord.Interaction[Any], exc: BaseException) -> None:
    """Send ``exc`` as an ephemeral reply, whether or not the interaction was answered."""
    command = interaction.command
    slash = command.qualified_name if isinstance(
        command, app_commands.Command | app_commands.Group) else None
    with mentioning(command_ids(interaction), interaction.guild_id):
        text = cut(describe(exc, _where(interaction), negotiate(str(interaction.locale)),
                            slash), 2000)
    try:
        if interaction.response.is_done():
            await interaction.followup.send(text, ephemeral=True)
        else:
            await interaction.response.send_message(text, ephemeral=True)
    except discord.HTTPException:
        log.warning("could not deliver an error message for interaction %s", interaction.id)


def outcome_of(exc: BaseException) -> str:
    """An interaction's outcome for the metrics (``bot.ops.metrics.OUTCOMES``) when
    ``exc`` ended it: ``unavailable`` (the database), ``refused`` (a reason the person
    reads) or ``failed`` (a bug).

    >>> outcome_of(service_errors.NotYourTurn(_("it is Bob's turn")))
    'refused'
    >>> outcome_of(service_errors.DatabaseUnreachable("t.db", "gone")), outcome_of(KeyError())
    ('unavailable', 'failed')
    """
    if isinstance(exc, app_commands.CommandInvokeError):
        exc = exc.original
    if isinstance(exc, service_errors.StorageError):
        return "unavailable"
    return "refused" if user_message(exc) is not None else "failed"


_BUTTON = re.compile(r"tablero:([a-z]{1,12})(?::([0-9]{1,20}):)?")


def interaction_name(interaction: discord.Interaction[Any]) -> str:
    """What the metrics call an interaction: its command's name (``tournament
    create``), or ``button accept`` for a component (``tablero:accept:12:0``)."""
    if interaction.command is not None:
        return interaction.command.qualified_name
    custom_id = interaction.data.get("custom_id") if interaction.data else None
    found = _BUTTON.match(custom_id) if isinstance(custom_id, str) else None
    return f"button {found.group(1)}" if found else "unknown"


def _match_named(interaction: discord.Interaction[Any]) -> int | None:
    """The match an interaction names (its ``match`` option, or a match button's id)."""
    if interaction.command is not None:
        match = getattr(interaction.namespace, "match", None)
        return match if isinstance(match, int) and not isinstance(match, bool) else None
    custom_id = interaction.data.get("custom_id") if interaction.data else None
    found = _BUTTON.match(custom_id) if isinstance(custom_id, str) else None
    return int(found.group(2)) if found and found.group(2) else None


@asynccontextmanager
async def replying(interaction: discord.Interaction[Any]) -> AsyncIterator[None]:
    """Run a command's or component's work, answering an error the way a command's is
    answered; its log lines name its server, shard and match; the texts it renders name
    commands by their mentions in that server (``mentions``); it is counted (and timed)
    in the client's metrics."""
    started = time.perf_counter()
    outcome = "failed"  # cancelled, unless the block ends
    guild = interaction.guild
    try:
        with log_context(server=interaction.guild_id,
                         shard=guild.shard_id if guild is not None else None,
                         match=_match_named(interaction)), \
                mentioning(command_ids(interaction), interaction.guild_id):
            try:
                yield
                outcome = "ok"
            except Exception as exc:
                outcome = outcome_of(exc)
                await reply_error(interaction, exc)
    finally:
        metrics = getattr(interaction.client, "metrics", None)
        if isinstance(metrics, Metrics):
            metrics.interaction(interaction_name(interaction), outcome,
                                time.perf_counter() - started)
