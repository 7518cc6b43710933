"""Issue 38, item 8: one rule for how errors are written, in every language.

The rule (README, Languages): an error the service or the console raises is a clause,
like the rules' own refusals ("a capture is compulsory: c4xc2"): it starts with a small
letter (unless its first word is a name, a command, a number or a placeholder) and ends
without a full stop. The console prints it after "! "; Discord makes a sentence of it at
its edge (a capital letter and a full stop, ``bot.discordapp.errors.user_message``), so
a message of its own never ends in "..". German capitalises its nouns, Chinese has no
letter case: their first letters are not checked, their final stops are.

The errors are found in the code: every message marked with ``_()`` in the arguments
of the service's error family (``ServiceError`` and its subclasses, ``TournamentError``,
``TimeControlError``) and of the guard that raises what it is given."""

from __future__ import annotations

import ast
from functools import cache
from pathlib import Path

import pytest

import bot.console
import bot.discordapp.app
from locales.i18n import CATALOGUES, LOCALES, catalogue_path
from service.errors import ServiceError
from tests.catalogues import read

ROOT = Path(__file__).resolve().parents[2]
NAMES_FIRST = ("Tablero", "Xiangqi", "Querni", "Alquerque", "Discord", "I ", "WXF", "PDN",
               "UTC", "Swiss")
"""First words that keep their capital: names."""
OPERATORS = ("DatabaseUnusable",)
"""Errors for the operator, not for players: a database start-up refuses, printed by the
command line as sentences ("tablero: FILE is in use by ... Stop that process first.")."""
NO_CASE = ("de", "zh-CN", "zh-TW")
"""German capitalises nouns; Chinese has no case: their first letters are free."""


def _error_classes() -> set[str]:
    """The error family (every module defining one is imported: the console, the
    Discord adapter and, through them, the service), and the guard that raises the text
    it is given."""
    assert bot.console and bot.discordapp.app
    found = {"ServiceError", "TournamentError", "TimeControlError", "_require_seated"}

    def walk(cls: type) -> None:
        for sub in cls.__subclasses__():
            if sub.__name__ in OPERATORS:
                continue
            found.add(sub.__name__)
            walk(sub)
    walk(ServiceError)
    return found


@cache
def error_messages() -> dict[str, str]:
    """Every error message id in the code, with where it is."""
    classes = _error_classes()
    out: dict[str, str] = {}
    for path in sorted(p for folder in ("service", "bot") for p in (ROOT / folder).rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call):
                continue
            f = node.func
            name = f.id if isinstance(f, ast.Name) else f.attr \
                if isinstance(f, ast.Attribute) else ""
            if name not in classes:
                continue
            for sub in (x for arg in node.args for x in ast.walk(arg)):
                if isinstance(sub, ast.Call) and isinstance(sub.func, ast.Name) and \
                        sub.func.id in ("_", "_n") and sub.args and \
                        isinstance(sub.args[0], ast.Constant) and \
                        isinstance(sub.args[0].value, str):
                    where = f"{path.relative_to(ROOT)}:{sub.lineno}"
                    for arg in sub.args[:2 if sub.func.id == "_n" else 1]:
                        if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                            out.setdefault(arg.value, where)
    return out


def wrong(text: str, *, case: bool) -> str | None:
    """What breaks the rule in ``text`` (None: nothing)."""
    said = text.rstrip()
    if said.endswith((".", "。")) and not said.endswith(("...", "…")):
        return "ends with a full stop"
    first = said[:1]
    if case and first.isalpha() and first.isupper() and not said.startswith(NAMES_FIRST):
        return "starts with a capital letter"
    return None


def test_the_code_raises_errors_the_scan_finds() -> None:
    found = error_messages()
    assert len(found) > 150  # the scan reads the raises (a broken scan finds nothing)
    assert "which match? add #<number> (see /games)" in found


def test_every_error_message_id_is_a_clause() -> None:
    bad = [f"{where}: {msgid!r} {why}" for msgid, where in error_messages().items()
           if (why := wrong(msgid, case=True)) is not None]
    assert not bad, "\n".join(bad)


@pytest.mark.parametrize("locale", [x for x in LOCALES if x != "en-US"])
def test_every_translated_error_keeps_the_rule(locale: str) -> None:
    ids = error_messages()
    catalog = read(catalogue_path(locale), locale.replace("-", "_"))
    bad = []
    for message in catalog:
        msgid = message.id[0] if isinstance(message.id, tuple) else message.id
        if msgid not in ids or not message.string:
            continue
        english_lower = msgid[:1].isalpha() and msgid[:1].islower()
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        for said in strings:
            why = wrong(said, case=locale not in NO_CASE and english_lower)
            if why is not None:
                bad.append(f"{msgid!r} -> {said!r}: {why}")
    assert not bad, f"{CATALOGUES.name}/{locale}:\n" + "\n".join(bad)


def test_discord_makes_one_sentence_of_an_error() -> None:
    """Before the rule, a comfort's error read "You follow that already.." in Discord."""
    from bot.discordapp.errors import user_message
    from locales.i18n import _, render
    from service import NotAllowed

    said = user_message(NotAllowed(_("you follow that already")))
    assert said is not None and render(said, "en-US") == "You follow that already."
    assert render(said, "de").endswith(".") and not render(said, "de").endswith("..")
