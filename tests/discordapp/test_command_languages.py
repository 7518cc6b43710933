"""The command tree in every language (issue 14): names, descriptions and choices come
from the catalogues through ``CatalogueTranslator``, and every localization Discord gets
keeps its rules (names lowercase, 1-32 characters of its regex; descriptions and choices
at most 100 characters), in every locale."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import discord
import pytest
from babel.messages.pofile import read_po
from discord.app_commands import TranslationContextLocation as Where

from bot.discordapp import create_bot
from bot.discordapp.translator import CatalogueTranslator, localized, valid_name
from locales.i18n import LOCALES, catalogue_path
from service import SystemClock
from storage import MemoryRepository

# Discord's own pattern for names (its \p{L}, \p{N}, Devanagari and Thai) and lengths
NAME = re.compile(r"^[-_\w\u0900-\u097F\u0E00-\u0E7F]{1,32}$")


async def translated_tree() -> list[dict[str, Any]]:
    bot = create_bot(MemoryRepository(), SystemClock(), auto_sync=False, background=False)
    for cog in bot._cogs_to_add:
        if cog.qualified_name not in ("Deliveries", "Deadlines"):
            await bot.add_cog(cog)
    translator = CatalogueTranslator()
    return [await c.get_translated_payload(bot.tree, translator)
            for c in bot.tree.get_commands()]


def names_and_texts(payload: dict[str, Any]) -> Iterator[tuple[str, str, str, bool]]:
    """(kind, locale, text, is a context menu) of every localization in ``payload``."""
    menu = payload.get("type", 1) != 1
    for locale, name in (payload.get("name_localizations") or {}).items():
        yield "menu" if menu else "name", locale, name, menu
    for locale, text in (payload.get("description_localizations") or {}).items():
        yield "description", locale, text, menu
    for option in payload.get("options") or ():
        yield from names_and_texts(option)
        for choice in option.get("choices") or ():
            for locale, text in (choice.get("name_localizations") or {}).items():
                yield "choice", locale, text, menu


async def test_every_localization_of_the_command_tree_keeps_discords_rules() -> None:
    broken = []
    for payload in await translated_tree():
        for kind, locale, text, _menu in names_and_texts(payload):
            assert locale in LOCALES, locale
            if kind == "name" and not (NAME.fullmatch(text) and text == text.lower()):
                broken.append((kind, locale, text))
            if kind == "menu" and not 1 <= len(text) <= 32:
                broken.append((kind, locale, text))
            if kind in ("description", "choice") and not 1 <= len(text) <= 100:
                broken.append((kind, locale, text))
    assert not broken, broken


def breaks_discords_rules(context: str | None, text: str,
                          locations: list[tuple[str, int | None]]) -> bool:
    """Whether a catalogue's translation of a command-tree string breaks Discord's rule."""
    if context in ("command name", "option name"):
        return not valid_name(text)
    if context == "context menu":
        return len(text) > 32
    in_tree = any("command tree" in path for path, _line in locations)
    return in_tree and len(text) > 100


@pytest.mark.parametrize("locale", [x for x in LOCALES if x != "en-US"])
def test_no_translation_of_a_name_breaks_discords_rules(locale: str) -> None:
    """Every translated command, option and context-menu name and every description
    and choice in the catalogue keeps Discord's rules: one that broke them would be
    dropped at sync (``localized``) and that command would show English."""
    with catalogue_path(locale).open("rb") as f:
        catalogue = read_po(f, locale=locale.replace("-", "_"))
    broken = []
    for m in catalogue:
        text = m.string if isinstance(m.string, str) else ""
        if not m.id or not text:
            continue
        if breaks_discords_rules(m.context, text, m.locations):
            broken.append((m.context, m.id, text))
    assert not broken, broken


def test_the_translator_drops_what_discord_would_refuse(monkeypatch: pytest.MonkeyPatch
                                                        ) -> None:
    """A translation that breaks a rule falls back to English instead of failing the
    whole sync; a catalogue that says the English gets no localization."""
    import bot.discordapp.translator as translator

    said = {("command name", "move"): "Zug machen", ("option name", "match"): "partie",
            (None, "Show a match's board"): "x" * 101, ("context menu", "Challenge to a game"):
            "Zu einer Partie herausfordern"}
    monkeypatch.setattr(translator, "command_text",
                        lambda english, locale, context=None: said.get((context, english),
                                                                       english))
    assert localized("move", "de", Where.command_name) is None  # a space, a capital
    assert localized("match", "de", Where.parameter_name) == "partie"
    assert localized("Show a match's board", "de", Where.command_description) is None
    assert localized("Challenge to a game", "de", Where.command_name, menu=True) == \
        "Zu einer Partie herausfordern"
    assert localized("games", "en-US", Where.command_name) is None  # the same: none


@pytest.mark.parametrize(("name", "ok"), [
    ("zug", True), ("partida", True), ("走棋", True), ("schweizer_system", True),
    ("Zug", False), ("zug machen", False), ("", False), ("a" * 33, False), ("züge", True),
    ("ход", True), ("चाल", True)])
def test_names_follow_discords_pattern(name: str, ok: bool) -> None:
    assert valid_name(name) is ok
    assert bool(NAME.fullmatch(name) and name == name.lower()) is ok


def test_discord_locales_outside_the_eight_are_left_to_english() -> None:
    from bot.discordapp.translator import discord_locale

    assert discord_locale(discord.Locale.german) == "de"
    assert discord_locale(discord.Locale.taiwan_chinese) == "zh-TW"
    assert discord_locale(discord.Locale.french) is None
    assert discord_locale(discord.Locale.japanese) is None


async def test_the_bot_installs_the_translator_before_it_syncs() -> None:
    bot = create_bot(MemoryRepository(), SystemClock(), auto_sync=False, background=False)
    bot._cogs_to_add.clear()  # the tree's translator does not depend on them
    await bot.setup_hook()
    assert isinstance(bot.tree.translator, CatalogueTranslator)
