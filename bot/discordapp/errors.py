"""Turning errors into the ephemeral message a person sees: the one place where that is
decided. ``replying`` answers what a command or component body raises (the cogs run every
body in it); the command tree's ``on_error`` answers what fails before a body runs
(checks, options). Refusals are answered inside the body because discord.py hands every
error that escapes a command to ``on_error``, where it counts as a failure of the bot.

Typed service errors and rules errors carry a message written for people; the adapter adds
what to do next. Anything else is a bug: the user gets a short apology, the log gets the
traceback (never the token: it is a SecretStr and no error message contains it).
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import discord
from discord import app_commands

import rules
from bot.service import errors as service_errors

log = logging.getLogger("tablero.discord")

GENERIC_APOLOGY = (
    "Sorry, something went wrong on my side and nothing was changed. "
    "Please try again in a moment; if it keeps happening, tell the server's admins.")


COMMANDS_UPDATING = "Tablero's commands are being updated, try again in a minute."
"""For an interaction with a command this version of the bot does not have, or has with
other options: Discord still shows the old commands for a while after a sync."""


class AdapterError(Exception):
    """A refusal decided by the Discord layer itself (wrong place, missing permission...)."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class NoMatchHere(AdapterError):
    """No match option was given and the channel is not a match thread."""


class StaleButton(AdapterError):
    """A click on a button the match has moved past."""

    def __init__(self) -> None:
        super().__init__("This button is out of date: the match has moved on. "
                         "Use `/board` to see where it stands.")


class MissingPermissions(AdapterError):
    """The bot lacks channel permissions; the message names them."""

    def __init__(self, missing: list[str], where: str) -> None:
        names = ", ".join(f"**{m}**" for m in missing)
        super().__init__(
            f"I can't do that in {where}: I'm missing the {names} permission"
            f"{'s' if len(missing) > 1 else ''}. Ask a server admin to grant "
            f"{'them' if len(missing) > 1 else 'it'} to me (or to my role) there.")
        self.missing = missing


_NEXT_STEP: dict[type[BaseException], str] = {
    service_errors.MatchNotFound: "Use `/games` to see your matches.",
    service_errors.NotAPlayer: "Only the players of this match can do that; "
                               "use `/challenge` to start your own.",
    service_errors.NotYourTurn: "You'll be mentioned when it's your turn.",
    service_errors.MatchOver: "Use `/history` to see how it went, or `/challenge` for a new one.",
    service_errors.MatchNotStarted: "The match starts once the challenge is accepted.",
    service_errors.StaleMove: "Someone moved first: look at the new `/board` and try again.",
    service_errors.InvalidOption: "Check the options and run `/challenge` again.",
    service_errors.MatchBroken: "Ask a server admin to look at it; nothing else was changed.",
}


def _rules_message(exc: rules.RulesError) -> str:
    if isinstance(exc, rules.AmbiguousMoveError):
        options = ", ".join(f"`{c}`" for c in exc.candidates[:10])
        return f"{exc.message}. Did you mean {options}? Type the full move."
    if isinstance(exc, rules.IllegalMoveError):
        return (f"{exc.message}. Pick one of the suggestions that appear as you type "
                "in `/move`, or look at `/board`.")
    if isinstance(exc, rules.NotationError):
        return (f"{exc.message}. Moves are written with points, like `c3-c4` or "
                "`f3xd5`; start typing in `/move` to see the legal ones.")
    return f"{exc.message}."


def _check_message(exc: app_commands.AppCommandError) -> str | None:
    """What a refused command check or option says (discord.py's own errors)."""
    if isinstance(exc, app_commands.CommandSignatureMismatch | app_commands.CommandNotFound):
        return COMMANDS_UPDATING
    if isinstance(exc, app_commands.MissingPermissions):
        names = ", ".join(f"**{n.replace('_', ' ').title().replace('Guild', 'Server')}**"
                          for n in exc.missing_permissions)
        return f"You need the {names} permission to do that here."
    if isinstance(exc, app_commands.NoPrivateMessage):
        return "Use this in a server channel, not in DMs."
    if isinstance(exc, app_commands.TransformerError):
        return f"I couldn't understand `{exc.value}`: pick one of the suggested values."
    if isinstance(exc, app_commands.CheckFailure):
        return "You can't use this command here."
    return None


def user_message(exc: BaseException, locale: str | None = None) -> str | None:
    """The message for an expected error, or ``None`` when ``exc`` is a bug. A service
    error written with ``locales.i18n`` is rendered in ``locale``."""
    if isinstance(exc, app_commands.CommandInvokeError):
        exc = exc.original
    if isinstance(exc, app_commands.AppCommandError):
        return _check_message(exc)
    if isinstance(exc, AdapterError):
        return exc.message
    if isinstance(exc, rules.RulesError):
        return _rules_message(exc)
    if isinstance(exc, service_errors.ServiceError):
        text = exc.render(locale).rstrip(".") + "."
        text = text[0].upper() + text[1:]
        for cls in type(exc).__mro__:
            hint = _NEXT_STEP.get(cls)
            if hint:
                return f"{text} {hint}"
        return text
    if isinstance(exc, rules.OptionError):
        return f"{exc}. Check the game options and try again."
    if isinstance(exc, discord.Forbidden):
        return ("Discord refused that: I'm missing a permission in this channel. "
                "Ask a server admin to check my role's permissions here.")
    return None


def describe(exc: BaseException, where: str = "an interaction",
             locale: str | None = None) -> str:
    """What the user sees for ``exc`` (in ``locale`` where it was written to be); logs
    unexpected errors with their traceback and ``where`` they happened."""
    message = user_message(exc, locale)
    if message is None:
        if isinstance(exc, app_commands.CommandInvokeError):
            exc = exc.original
        log.error("unexpected error in %s", where, exc_info=exc)
        return GENERIC_APOLOGY
    return message


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


async def reply_error(interaction: discord.Interaction[Any], exc: BaseException) -> None:
    """Send ``exc`` as an ephemeral reply, whether or not the interaction was answered."""
    text = describe(exc, _where(interaction), str(interaction.locale))
    try:
        if interaction.response.is_done():
            await interaction.followup.send(text, ephemeral=True)
        else:
            await interaction.response.send_message(text, ephemeral=True)
    except discord.HTTPException:
        log.warning("could not deliver an error message for interaction %s", interaction.id)


@asynccontextmanager
async def replying(interaction: discord.Interaction[Any]) -> AsyncIterator[None]:
    """Run a component's work, answering an error the way a command's is answered."""
    try:
        yield
    except Exception as exc:
        await reply_error(interaction, exc)
