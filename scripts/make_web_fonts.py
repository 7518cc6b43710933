"""Writes the web pages' Chinese fonts (bot/web/static/*.woff2) from the renderer's
`render/fonts/TableroSans-Regular.otf` (issue 40: a Chinese page's first load within
150 KB; the whole font, 200 KB, was most of it):

* `TableroSans-zh-CN.woff2`, `TableroSans-zh-TW.woff2`: the Chinese characters (and
  full-width punctuation) of that language's catalogue only, WOFF2 (Brotli): a page in
  Simplified Chinese never loads the Traditional characters, nor the other way round;
* `TableroLanguages.woff2`: the language switch's Chinese names, `中文（简体）（繁體）`,
  shown on every page.

Only the blocks the style sheet's unicode-range names are kept (Latin text is drawn in
the reader's own font). Run by scripts/make_font_subset.sh after it rebuilt the renderer's
fonts, or alone after a Chinese catalogue changed: `.venv/bin/python
scripts/make_web_fonts.py` (needs fonttools and brotli: scripts/bootstrap installs both).
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SOURCE = ROOT / "render" / "fonts" / "TableroSans-Regular.otf"
OUT = ROOT / "bot" / "web" / "static"
CJK = ((0x2E80, 0x9FFF), (0xF900, 0xFAFF), (0xFE30, 0xFE4F), (0xFF00, 0xFFEF))
"""The blocks the page's Chinese fonts are used for (their unicode-range in site.css)."""
SWITCH = "中文（简体）（繁體）"
LANGUAGES = {"zh-CN": "zh_CN", "zh-TW": "zh_TW"}


def chinese(text: str) -> set[str]:
    return {ch for ch in text if any(low <= ord(ch) <= high for low, high in CJK)}


def catalogue_characters(folder: str) -> set[str]:
    """Every character of the CJK blocks in a catalogue's translations."""
    found: set[str] = set()
    po = ROOT / "locales" / folder / "LC_MESSAGES" / "tablero.po"
    for line in po.read_text("utf-8").splitlines():
        if line.startswith(("msgstr", '"')):
            found |= chinese(line)
    return found


def write(characters: set[str], path: Path) -> int:
    """Subset the source font to ``characters`` as WOFF2 at ``path``; its size."""
    from fontTools import subset
    from fontTools.ttLib import TTFont

    font = TTFont(SOURCE, recalcTimestamp=False)  # the same bytes for the same glyphs
    options = subset.Options()
    options.flavor = "woff2"
    options.layout_features = []
    options.hinting = False
    options.name_IDs = ["*"]  # the names and licence kept, as the OFL asks
    options.notdef_outline = True
    subsetter = subset.Subsetter(options)
    subsetter.populate(unicodes=sorted(ord(c) for c in characters))
    subsetter.subset(font)
    font.flavor = "woff2"
    font.save(path)
    return path.stat().st_size


def main() -> int:
    try:
        import brotli  # noqa: F401  (fontTools writes WOFF2 with it)
    except ImportError:
        print("brotli is missing: run scripts/bootstrap (it installs the test extra)",
              file=sys.stderr)
        return 1
    from fontTools.ttLib import TTFont

    have = {chr(c) for c in TTFont(SOURCE).getBestCmap()}
    for tag, folder in LANGUAGES.items():
        wanted = catalogue_characters(folder)
        missing = wanted - have
        if missing:
            print(f"{tag}: the renderer's font lacks {''.join(sorted(missing))}: run "
                  "scripts/make_font_subset.sh", file=sys.stderr)
            return 1
        size = write(wanted, OUT / f"TableroSans-{tag}.woff2")
        print(f"bot/web/static/TableroSans-{tag}.woff2: {len(wanted)} characters, {size:,} B")
    size = write(chinese(SWITCH), OUT / "TableroLanguages.woff2")
    print(f"bot/web/static/TableroLanguages.woff2: {size:,} B")
    return 0


if __name__ == "__main__":
    sys.exit(main())
