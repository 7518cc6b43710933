"""Words drawn into images are in the reader's language (issue 14) and always drawable:
the bundled fonts carry Latin-1 (German, Spanish, Swedish) and the Han characters of the
Chinese catalogues (``scripts/make_font_subset.sh`` reads them); a label whose glyphs
the fonts lack is drawn in English, never as empty boxes."""

from __future__ import annotations

import io

import pytest
from fontTools.ttLib import TTFont

import render
import rules
from locales.i18n import LOCALES, _, catalogue_path
from render import style
from render.style import coverage, covers, drawn_words
from tests.catalogues import read
from tests.discordapp.languages import MARK, speak_pseudo

DRAWN_FILES = ("render/draw.py", "render/replay.py", "locales/terms.py", "locales/results.py",
               "locales/analysis.py", "render/graph.py", "render/grid.py", "bot/boards.py",
               "render/alt.py")
"""Where the words drawn into images come from (labels, status line, captions)."""


def test_the_coverage_list_is_what_both_latin_fonts_draw() -> None:
    have = None
    for name in ("TableroSans-Bold.otf", "TableroSans-Regular.otf"):
        cmap = set(TTFont(io.BytesIO(style._font_bytes(name))).getBestCmap())
        have = cmap if have is None else have & cmap
    assert have is not None
    assert {ord(c) for c in coverage()} == {c for c in have if chr(c).isprintable()}
    assert set("äöüßÄÖÜéñáíóúüÑ¡¿åÅ、，：") <= coverage()


def test_a_label_the_fonts_cannot_draw_is_drawn_in_english(
        monkeypatch: pytest.MonkeyPatch) -> None:
    speak_pseudo(monkeypatch, "de")  # ⟦ is in no bundled font
    assert not covers(_("winner").render("de"))
    assert drawn_words(_("winner"), "de") == "winner"
    assert drawn_words(_("winner"), "en-GB") == "winner"


def test_a_board_is_drawn_with_its_readers_words_in_its_alt_text(
        monkeypatch: pytest.MonkeyPatch) -> None:
    speak_pseudo(monkeypatch, "de")
    p = rules.variant("xiangqi").start()
    board = render.draw_board(p, names=["alice", "bob"], locale="de")
    english = render.draw_board(p, names=["alice", "bob"])
    assert MARK in board.alt_text and MARK not in english.alt_text
    assert board.png == english.png  # the pseudo-language is not drawable: English labels


@pytest.mark.parametrize("locale", [x for x in LOCALES if not x.startswith("en")])
def test_every_translated_label_drawn_into_images_has_its_glyphs(locale: str) -> None:
    """Every translation of a message drawn into images can be drawn with the bundled
    fonts (else it would be drawn in English). After a Chinese catalogue changes, run
    ``scripts/make_font_subset.sh`` (it subsets the fonts to the catalogues' characters)."""
    catalogue = read(catalogue_path(locale), locale.replace("-", "_"))
    missing = set()
    for m in catalogue:
        if not m.id or not any(path in DRAWN_FILES for path, _line in m.locations):
            continue
        strings = m.string if isinstance(m.string, tuple | list) else (m.string,)
        for s in strings:
            missing |= {c for c in s or "" if not c.isspace() and c not in coverage()}
    assert not missing, f"{locale}: no glyph for {''.join(sorted(missing))}"

