"""The catalogues (issue 14): the template holds every message the code marks, every
catalogue holds every message of the template with the same placeholders, and every
non-English catalogue has each of them translated.

The completeness tests of de, es-ES, es-419, sv-SE, zh-CN and zh-TW fail until their
translations are written (``locales/<xx_YY>/LC_MESSAGES/tablero.po``); nothing here is
skipped.
"""

from __future__ import annotations

import importlib.util
import io
import re
import subprocess
import sys
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog, Message
from babel.messages.pofile import read_po

from locales.i18n import CATALOGUES, DOMAIN, LOCALES, catalogue_path
from tests.catalogues import read

ROOT = Path(__file__).resolve().parents[2]
POT = CATALOGUES / f"{DOMAIN}.pot"
PLACEHOLDER = re.compile(r"\{(\w*)\}")
ENGLISH = ("en-US", "en-GB")


def key(m: Message) -> tuple[str | None, str]:
    ident = m.id[0] if isinstance(m.id, tuple | list) else m.id
    return m.context, str(ident)


def placeholders(text: str) -> set[str]:
    return set(PLACEHOLDER.findall(text))


def template_messages() -> dict[tuple[str | None, str], Message]:
    return {key(m): m for m in read(POT) if m.id}


def test_the_template_holds_every_marked_message(tmp_path: Path) -> None:
    """``scripts/extract_messages`` was run: extracting again adds no message id (a
    sentence added or changed without re-extracting would be shown in English)."""
    fresh = tmp_path / "fresh.pot"
    subprocess.run([sys.executable, "-m", "babel.messages.frontend", "extract", "-k", "_",
                    "-k", "_n:1,2", "-k", "N_", "--no-default-keywords", "-o", str(fresh),
                    "bot", "service", "locales", "render", "rules"],
                   cwd=ROOT, check=True, capture_output=True)
    wanted = {key(m) for m in read(fresh) if m.id}
    missing = wanted - set(template_messages())
    assert not missing, f"run scripts/extract_messages: {sorted(missing)[:10]}"


@pytest.mark.parametrize("locale", LOCALES)
def test_every_message_is_in_the_catalogue_with_its_placeholders(locale: str) -> None:
    """One test per catalogue: each message id of the template is there, and each
    translation (every plural form) uses exactly the placeholders of its English text."""
    path = catalogue_path(locale)
    assert path.is_file(), f"{path} is missing"
    catalogue = {key(m): m for m in read(path, locale.replace("-", "_")) if m.id}
    template = template_messages()
    missing = sorted(set(template) - set(catalogue))
    assert not missing, f"{locale} lacks {len(missing)} messages, e.g. {missing[:5]}"
    wrong = []
    for k, m in catalogue.items():
        if k not in template:
            continue
        ids = list(m.id) if isinstance(m.id, tuple | list) else [m.id]
        expected = placeholders(ids[0]) | placeholders(ids[-1])
        strings = list(m.string) if isinstance(m.string, tuple | list) else [m.string]
        for s in strings:
            if s and (placeholders(s) - expected or (len(ids) == 1 and placeholders(s)
                                                     != expected)):
                wrong.append((k, s))
    assert not wrong, f"{locale}: placeholders differ from the English: {wrong[:5]}"


@pytest.mark.parametrize("locale", [x for x in LOCALES if x not in ENGLISH])
def test_every_message_is_translated(locale: str) -> None:
    """One test per language: no message (nor any plural form) left empty or fuzzy.
    Red until the translators' catalogue for ``locale`` is merged."""
    catalogue = read(catalogue_path(locale), locale.replace("-", "_"))
    untranslated = []
    for m in catalogue:
        if not m.id:
            continue
        strings = list(m.string) if isinstance(m.string, tuple | list) else [m.string]
        if m.fuzzy or not all(strings):
            untranslated.append(key(m))
    assert not untranslated, (f"{locale}: {len(untranslated)} of {len(catalogue)} messages "
                              f"untranslated, e.g. {[m[1][:60] for m in untranslated[1:4]]}")


@pytest.mark.parametrize("locale", ENGLISH)
def test_english_catalogues_say_the_english_text(locale: str) -> None:
    """en-US and en-GB are filled (en-GB may only change spelling: same placeholders,
    checked above); a message rendered in them reads as the English source."""
    catalogue = read(catalogue_path(locale), locale.replace("-", "_"))
    empty = [key(m) for m in catalogue if m.id and not all(
        m.string if isinstance(m.string, tuple | list) else [m.string])]
    assert not empty, empty[:5]


MATCH_AS_LOANWORD = {"de": r"\bMatch(es)?\b", "es_ES": r"\bmatch\b", "es_419": r"\bmatch\b",
                     "sv_SE": r"\bmatch(en|er|erna|ens)?\b"}
"""A Tablero match is 'Partie', 'partida', 'parti' (``locales/glossary``): never the
English loanword, which Swedish once used for every pause and rematch text ('matchen är
pausad' beside 'partiet är slut')."""


@pytest.mark.parametrize("locale", list(MATCH_AS_LOANWORD))
def test_a_match_is_called_by_the_glossarys_word(locale: str) -> None:
    typed = re.compile(r"\{[^}]*\}|`[^`]*`|/\S+|\b\w+[:=]\S+|#<match>")  # not words
    found = [f"{m.id!r}: {said!r}" for m in read(catalogue_path(locale)) if m.id
             for said in ((m.string,) if isinstance(m.string, str) else m.string or ())
             if re.search(MATCH_AS_LOANWORD[locale], typed.sub("", said or ""))]
    assert not found, "\n".join(found)


@pytest.mark.parametrize("locale", LOCALES)
def test_no_catalogue_keeps_obsolete_entries(locale: str) -> None:
    """A message gone from the code is gone from the catalogues: no ``#~`` entry (202 a
    catalogue had piled up, read by nothing; git keeps the old translations)."""
    path = catalogue_path(locale)
    kept = [line for line in path.read_text(encoding="utf-8").splitlines()
            if line.startswith("#~")]
    assert not kept, f"{path}: {len(kept)} obsolete lines, e.g. {kept[:3]}"


def test_extract_messages_drops_the_messages_gone_from_the_template() -> None:
    """``scripts/extract_messages`` merges a catalogue with its template without keeping
    what the template lost as obsolete entries, so they never come back."""
    spec = importlib.util.spec_from_file_location("extract_messages",
                                                  ROOT / "scripts" / "extract_messages.py")
    assert spec is not None and spec.loader is not None
    script = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(script)
    catalogue = Catalog(locale="de", domain=DOMAIN)
    catalogue.add("kept", "behalten")
    catalogue.add("gone", "weg")
    fresh = Catalog()
    fresh.add("kept")
    fresh.add("new")
    script.merge(catalogue, fresh, "de")
    written = io.BytesIO()
    script.write_catalogue(written, catalogue)
    text = written.getvalue().decode()
    assert "#~" not in text and "weg" not in text, text
    back = read_po(io.BytesIO(written.getvalue()), locale="de")
    assert {m.id: m.string for m in back if m.id} == {"kept": "behalten", "new": ""}
    assert not back.obsolete
