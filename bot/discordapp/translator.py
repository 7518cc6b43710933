"""The command tree in every language: discord.py's ``app_commands.Translator`` over the
same gettext catalogues as every other sentence (``locales/<locale>/LC_MESSAGES``).

Descriptions are looked up by their English text; names (commands, groups, options,
choices) by their English name under a gettext context (``command name``, ``option
name``, ``choice``), because a name such as ``move`` must not share a translation with a
sentence. Discord refuses a whole sync for one bad localization, so each one is checked
against Discord's rules here (:func:`valid_name`, 100 characters for descriptions and
choices) and left out, falling back to English, when it breaks them; a test checks every
catalogue so that never happens unnoticed. Texts name a command the same way
(``locales.i18n.command``, the names a reader's Discord shows), with the same rule
(``valid_name``).
"""

from __future__ import annotations

from typing import Final

import discord
from discord import app_commands
from discord.app_commands import TranslationContextLocation as Where

from locales.i18n import (
    CHOICE,
    COMMAND_NAME,
    LOCALES,
    MAX_CHOICE,
    MAX_NAME,
    OPTION_NAME,
    translations,
    valid_name,
)

NAME_CONTEXTS: Final = {
    Where.command_name: COMMAND_NAME,
    Where.group_name: COMMAND_NAME,
    Where.parameter_name: OPTION_NAME,
    Where.choice_name: CHOICE,
}
"""The gettext context of each kind of name (descriptions have none)."""

MENU_CONTEXT: Final = "context menu"
"""A context menu's name (``Challenge to a game``): free text, up to 32 characters."""

MAX_DESCRIPTION: Final = 100


def discord_locale(locale: discord.Locale) -> str | None:
    """The catalogue serving a Discord locale exactly (None for one Tablero does not
    speak: Discord then shows English)."""
    return locale.value if locale.value in LOCALES else None


def command_text(english: str, locale: str, context: str | None = None) -> str:
    """``english`` (a name or description of the command tree) in ``locale``."""
    t = translations(locale)
    return t.pgettext(context, english) if context else t.gettext(english)


def localized(english: str, locale: str, where: Where, *, menu: bool = False) -> str | None:
    """The localization Discord gets for one string, or None (the English source is
    shown): none when the catalogue says the same (English mostly does), none when it
    breaks a rule."""
    context = MENU_CONTEXT if menu else NAME_CONTEXTS.get(where)
    said = command_text(english, locale, context)
    if not said or said == english:
        return None
    if menu:
        return said if len(said) <= MAX_NAME else None
    if context in (COMMAND_NAME, OPTION_NAME):
        return said if valid_name(said) else None
    limit = MAX_CHOICE if where is Where.choice_name else MAX_DESCRIPTION
    return said if len(said) <= limit else None


class CatalogueTranslator(app_commands.Translator):
    """Localizes the command tree from the gettext catalogues at sync time."""

    async def translate(self, string: app_commands.locale_str, locale: discord.Locale,
                        context: app_commands.TranslationContextTypes) -> str | None:
        chosen = discord_locale(locale)
        if chosen is None:
            return None
        menu = context.location is Where.command_name and isinstance(
            context.data, app_commands.ContextMenu)
        return localized(string.message, chosen, context.location, menu=menu)
