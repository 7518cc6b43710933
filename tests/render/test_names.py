"""Players' names are drawn in their own letters: the bundled fonts carry the common Han
characters of Simplified and Traditional Chinese and Japanese, kana, Hangul and the basic
Greek and Cyrillic letters (``scripts/make_font_subset.sh``), so "李小龍" is no longer
drawn "?小?"; a script the fonts still lack falls back to ``?`` as before."""

from __future__ import annotations

import pytest
from PIL import ImageChops

import render
import rules
from render import style
from render.style import covers, drawable, font
from render.table import draw_table

NAMES = {
    "simplified": "张伟 王小明",
    "traditional": "李小龍 陳美鳳",
    "japanese": "佐々木さくら 山田タロウ",
    "korean": "김민준 이서연",
    "russian": "Дмитрий Ёлкин",
    "greek": "Αλέξανδρος",  # its accents dropped (Noto CJK has the basic letters only)
}
NOT_DRAWN = "ฎ"  # Thai: in no bundled font, so each size draws Noto's empty box


@pytest.mark.parametrize("language", sorted(NAMES))
def test_a_name_is_drawn_in_its_own_letters(language: str) -> None:
    name = NAMES[language]
    drawn = drawable(name)
    assert "?" not in drawn
    if language == "greek":
        assert drawn == "Αλεξανδρος" and covers(drawn)
    else:
        assert drawn == name and covers(name)
    # every letter has its own glyph in both weights (the board's seat labels are bold,
    # a table's rows regular): ink, and not the empty box of a letter the font lacks
    for kind in ("bold", "regular"):
        f = font(kind, 24)
        box = f.getmask(NOT_DRAWN)
        for ch in drawn.replace(" ", ""):
            mask = f.getmask(ch)
            assert mask.getbbox() is not None, (kind, ch)
            assert mask.size != box.size or bytes(mask) != bytes(box), (kind, ch)


def test_the_names_put_ink_where_they_go_on_a_board_and_a_table() -> None:
    p = rules.variant("xiangqi").start()
    names = [NAMES["traditional"].split()[0], NAMES["korean"].split()[0]]
    board = render.draw_board(p, names=names)
    ask = render.draw_board(p, names=["?" * len(n) for n in names])
    assert board.png != ask.png
    rows = [["1", NAMES["simplified"].split()[1], "3"], ["2", NAMES["russian"], "1"]]
    table = draw_table(["#", "name", "pts"], rows, title="Standings")
    asked = draw_table(["#", "name", "pts"], [[r[0], drawable("?" * len(r[1])), r[2]]
                                               for r in rows], title="Standings")
    assert table.png != asked.png


def test_the_ink_is_in_the_name_and_differs_from_question_marks() -> None:
    """The name's pixels, drawn alone in the seat labels' weight, are not those of ``?``."""
    from PIL import Image, ImageDraw

    def ink(text: str) -> Image.Image:
        im = Image.new("L", (400, 40), 0)
        ImageDraw.Draw(im).text((4, 4), drawable(text), font=font("bold", 24), fill=255)
        return im

    for name in ("李小龍", "佐々木", "김민준", "Ёлкин"):
        drawn, asked = ink(name), ink("?" * len(name))
        assert drawn.getbbox() is not None
        assert ImageChops.difference(drawn, asked).getbbox() is not None, name


@pytest.mark.parametrize(("name", "drawn"), [("🎲 Bo", "? Bo"), ("राम", "???")])
def test_a_name_in_letters_still_not_bundled_falls_back_as_before(name: str,
                                                                  drawn: str) -> None:
    assert not covers(name)
    assert drawable(name) == drawn


def test_letters_noto_cjk_lacks_are_unaccented_or_question_marks() -> None:
    assert drawable("Олеся Їжак") == "Олеся ?жак"  # Ukrainian's Ї (nor і, є, ґ)
    assert drawable("Ἀθηνᾶ") == "Αθηνα"  # polytonic accents dropped


def test_the_fonts_are_opened_from_their_files_not_copied_into_every_size(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The Sans files are 2.5 MB each: opened from bytes, Pillow would copy the whole
    file into the face of every size drawn; from the file, FreeType maps it once."""
    opened = font("regular", 23)
    assert isinstance(opened.path, str) and opened.path.endswith("TableroSans-Regular.otf")
    # a package with no directory (a zip) still draws, from the bytes
    monkeypatch.setattr(style, "_font_file", lambda name: None)
    from_bytes = style.font.__wrapped__("regular", 23)
    assert not isinstance(from_bytes.path, str)
    assert bytes(from_bytes.getmask("李小龍")) == bytes(opened.getmask("李小龍"))
