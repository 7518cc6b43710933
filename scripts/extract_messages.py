"""Extract every message people read into ``locales/tablero.pot`` and update the
catalogues from it (``scripts/extract_messages`` runs this).

1. ``pybabel extract -k _ -k _n:1,2 -k N_`` over ``bot``, ``locales``, ``render`` and
   ``rules`` (where a game marks its own words, its name and summary, with ``N_``): the
   sentences, with their source lines and ``{placeholders}`` (python-brace-format);
2. the Discord command tree as the bot builds it: each command, group and option name
   (gettext contexts ``command name`` / ``option name``), each choice (``choice``), each
   description, and the context menu's name (``context menu``), with a comment saying
   Discord's rule for it;
3. each catalogue ``locales/<xx_YY>/LC_MESSAGES/tablero.po`` is created or updated from
   the template (Babel keeps translations, never fuzzy-matches); a message gone from the
   template is dropped, not kept as an obsolete ``#~`` entry (they piled up, about 200 a
   catalogue that nothing read: git keeps old translations); en-US and en-GB get the
   English text itself (en-GB spelling where it differs: ``EN_GB``).
"""

from __future__ import annotations

import asyncio
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import BinaryIO

from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from locales.i18n import CATALOGUES, DOMAIN, LOCALES, catalogue_path  # noqa: E402

POT = CATALOGUES / f"{DOMAIN}.pot"

EN_GB: dict[str, str] = {}
"""British spellings of message ids written the American way (none: Tablero's English is
British already: colour, cancelled, organiser)."""

EN_US: dict[str, str] = {
    "The colour or seat you want (random if empty)":
        "The color or seat you want (random if empty)",
    "{seat}'s advisor on {point}: an advisor stands only on the palace's corners and centre":
        "{seat}'s advisor on {point}: an advisor stands only on the palace's corners and center",
}
"""American spellings for en-US where a message id is written the British way (Discord
shows command descriptions to en-US users as en-US)."""

NAME_RULE = ("Discord command/option name: lowercase, 1-32 letters, digits, - or _; "
             "no spaces")


def extract_code() -> Catalog:
    subprocess.run([sys.executable, "-m", "babel.messages.frontend", "extract",
                    "-k", "_", "-k", "_n:1,2", "-k", "N_", "--no-default-keywords",
                    "--sort-by-file", "--add-comments=TRANSLATORS:",
                    "--project=Tablero", "--copyright-holder=Tablero",
                    "-o", str(POT), "bot", "service", "locales", "render", "rules"],
                   cwd=ROOT, check=True, capture_output=True)
    with POT.open("rb") as f:
        return read_po(f)


def command_tree_strings() -> Iterator[tuple[str, str | None, str]]:
    """(text, gettext context, translator comment) for every string of the tree."""
    from discord import app_commands

    from bot.discordapp.app import create_bot
    from service import SystemClock
    from storage.memory import MemoryRepository

    async def tree() -> list[object]:
        bot = create_bot(MemoryRepository(), SystemClock(), auto_sync=False,
                         background=False)
        for cog in bot._cogs_to_add:
            if cog.qualified_name not in ("Deliveries", "Deadlines"):  # no commands
                await bot.add_cog(cog)
        return list(bot.tree.get_commands())

    def walk(command: object) -> Iterator[tuple[str, str | None, str]]:
        if isinstance(command, app_commands.ContextMenu):
            yield command.name, "context menu", "Discord context menu name: 1-32 characters"
            return
        assert isinstance(command, app_commands.Command | app_commands.Group)
        yield command.name, "command name", NAME_RULE
        yield command.description, None, "Discord command description: at most 100 characters"
        if isinstance(command, app_commands.Group):
            for sub in command.commands:
                yield from walk(sub)
            return
        for p in command.parameters:
            yield p.display_name, "option name", NAME_RULE
            yield p.description, None, "Discord option description: at most 100 characters"
            for c in p.choices:
                yield c.name, "choice", "Discord choice name: at most 100 characters"

    for command in asyncio.run(tree()):
        yield from walk(command)


def template() -> Catalog:
    pot = extract_code()
    for text, context, comment in command_tree_strings():
        if not text or text == "…":
            continue
        found = pot.get(text, context=context)
        if found is None:
            pot.add(text, context=context, auto_comments=[comment],
                    locations=[("bot/discordapp (command tree)", 0)])
    with POT.open("wb") as f:
        write_po(f, pot, width=100, sort_by_file=True)
    return pot


def update() -> None:
    for locale in LOCALES:
        path = catalogue_path(locale)
        babel_locale = locale.replace("-", "_")
        if path.is_file():
            with path.open("rb") as f:
                catalog = read_po(f, locale=babel_locale, domain=DOMAIN)
        else:
            catalog = Catalog(locale=babel_locale, domain=DOMAIN, project="Tablero",
                              copyright_holder="Tablero", fuzzy=False)
        with POT.open("rb") as f:  # a fresh template each time: update() shares messages
            fresh = read_po(f)
        merge(catalog, fresh, locale)
        path.parent.mkdir(parents=True, exist_ok=True)
        with path.open("wb") as f:
            write_catalogue(f, catalog)
        print(f"{path.relative_to(ROOT)}: {len(catalog)} messages")


def merge(catalog: Catalog, fresh: Catalog, locale: str) -> None:
    """``catalog`` brought up to the template ``fresh``: new messages added (the English
    text itself in en-US and en-GB), translations kept, and the messages gone from the
    template dropped (Babel would keep them as obsolete ``#~`` entries)."""
    catalog.update(fresh, no_fuzzy_matching=True)
    catalog.obsolete.clear()
    if locale.startswith("en-"):
        for message in catalog:
            if not message.id:
                continue
            english = EN_GB if locale == "en-GB" else EN_US
            if isinstance(message.id, tuple):
                message.string = tuple(english.get(x, x) for x in message.id)
            else:
                message.string = english.get(message.id, message.id)


def write_catalogue(f: BinaryIO, catalog: Catalog) -> None:
    """``catalog`` written as a ``.po``, without obsolete entries whatever it holds."""
    write_po(f, catalog, width=100, omit_header=False, include_previous=False,
             ignore_obsolete=True)


if __name__ == "__main__":
    template()
    update()
