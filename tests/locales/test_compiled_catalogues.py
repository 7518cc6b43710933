"""A catalogue is compiled once for its very bytes (``locales.i18n.compiled``): later
processes read the kept ``.mo``, which says what compiling the ``.po`` says; an edited
``.po`` is compiled again (its old ``.mo`` removed), and nothing is kept where Python
keeps no compiled modules either."""

from __future__ import annotations

import gettext
import io
import re
import shutil
import sys
from pathlib import Path

import pytest

import locales.i18n as i18n
from locales.i18n import catalogue_path, compiled

GERMAN, SWEDISH = catalogue_path("de"), catalogue_path("sv-SE")


def _a_translation(po: str) -> tuple[str, str]:
    """A message of one line and its translation, from the text of a ``.po``."""
    found = re.search(r'\n#: [^\n]*\nmsgid "([^"\n]+)"\nmsgstr "([^"\n]+)"\n', po)
    assert found is not None
    return found[1], found[2]


def _kept(cache: Path, locale: str) -> list[Path]:
    return sorted((cache / "__pycache__").glob(f"tablero-{locale}-*.mo"))


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Where ``compiled`` keeps its ``.mo`` files in this test (not the package's)."""
    monkeypatch.setattr(i18n, "CATALOGUES", tmp_path)
    monkeypatch.setattr(sys, "dont_write_bytecode", False)
    return tmp_path


def test_a_catalogue_is_compiled_once_and_read_back(cache: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    po = cache / "de.po"
    shutil.copyfile(GERMAN, po)
    first = compiled(po, "de")
    (kept,) = _kept(cache, "de")
    assert kept.read_bytes() == first

    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("the .po was read again")
    monkeypatch.setattr(i18n, "read_po", refuse)
    assert compiled(po, "de") == first  # read back, not compiled again
    message, translation = _a_translation(po.read_text("utf-8"))
    assert gettext.GNUTranslations(io.BytesIO(first)).gettext(message) == translation


def test_an_edited_catalogue_is_compiled_again(cache: Path) -> None:
    po = cache / "de.po"
    shutil.copyfile(GERMAN, po)
    compiled(po, "de")
    (old,) = _kept(cache, "de")
    text = po.read_text("utf-8")
    message, translation = _a_translation(text)
    po.write_text(text.replace(f'msgstr "{translation}"', f'msgstr "Neu: {translation}"', 1),
                  "utf-8")
    said = gettext.GNUTranslations(io.BytesIO(compiled(po, "de")))
    assert said.gettext(message) == f"Neu: {translation}"
    (new,) = _kept(cache, "de")
    assert new != old and not old.exists()


def test_nothing_is_kept_where_python_keeps_no_compiled_modules(
        cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "dont_write_bytecode", True)
    po = cache / "sv.po"
    shutil.copyfile(SWEDISH, po)
    made = compiled(po, "sv-SE")
    assert made.startswith(b"\xde\x12\x04\x95") and _kept(cache, "sv-SE") == []
