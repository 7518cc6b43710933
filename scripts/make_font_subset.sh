#!/usr/bin/env bash
# Rebuilds the font subsets bundled in render/fonts/ from Debian's OFL-licensed Noto CJK
# fonts, so the renderer never depends on fonts installed on the host at run time.
#
#   apt-get update && apt-get install -y fonts-noto-cjk     # Debian 12: 1:20220127+repack1-1
#   scripts/make_font_subset.sh [python]                     # needs fonttools (pyftsubset)
#
# Outputs:
#   render/fonts/TableroHan-Bold.otf   Noto Serif CJK TC Bold: the 14 Xiangqi piece characters
#                                      帥仕相傌俥炮兵 將士象馬車砲卒 plus 楚河漢界 for the river
#   render/fonts/TableroSans-Bold.otf  Noto Sans CJK SC Bold: Latin, a few symbols, the Chinese
#                                      catalogues' characters and the letters of people's names
#                                      (NAMES below): about 2.5 MB
#   render/fonts/TableroSans-Regular.otf  the same glyphs in the Regular weight (about 2.4 MB)
# The subsets are renamed ("Tablero ...") as the OFL asks of modified versions; copyright
# and licence name records are kept, and render/fonts/OFL.txt carries the licence text.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${1:-.venv/bin/python}
NOTO=/usr/share/fonts/opentype/noto
OUT=render/fonts
HAN="帥仕相傌俥炮兵將士象馬車砲卒楚河漢界"
# printable ASCII, Latin-1 and Latin Extended-A (German, Spanish, Swedish: ä ß ñ ¿ å ...),
# typographic quotes, dashes, ellipsis, arrows, bullet, and the CJK punctuation Chinese
# labels use
LATIN="U+0020-007E,U+00A0-017F,U+2013,U+2014,U+2018-201E,U+2022,U+2026,U+2190-2193,U+25B6,U+25CF,U+3001,U+3002,U+300C,U+300D,U+FF08,U+FF09,U+FF0C,U+FF1A,U+FF1B"
# every Han character the Chinese catalogues use (labels drawn into images are rendered
# from them), so words drawn in zh-CN / zh-TW have their glyphs; rerun after a catalogue
# changes (a test fails while a drawn label lacks a glyph: render falls back to English)
CJK=$("$PY" - <<'PYEOF'
import pathlib, re
chars = set()
for po in pathlib.Path("locales").glob("zh_*/LC_MESSAGES/tablero.po"):
    for line in po.read_text("utf-8").splitlines():
        if line.startswith(("msgstr", '"')):
            chars.update(ch for ch in line if ord(ch) >= 0x2E80)
print("".join(sorted(chars)) or "中")
PYEOF
)

# the letters players' display names are commonly written in, drawn on boards, standings
# and other pictures (both weights draw names: a board's seat labels in Bold, a table's
# rows in Regular): the common Han characters of Simplified Chinese (GB 2312 levels 1
# and 2), of Traditional Chinese (Big5's frequently used set, A440-C67E) and of Japanese
# (JIS X 0208 level 1), kana and the iteration marks, the 2,350 Hangul syllables of
# KS X 1001, and Greek and Cyrillic (Noto CJK has the basic letters only: Russian, not
# Ukrainian's і ї є ґ nor Greek's accented vowels, which render.style.drawable shows
# as ? or unaccented). 12,140 glyphs, 2.5 MB per weight.
NAMES=$("$PY" - <<'PYEOF'
def table(codec, rows, cells=range(0xA1, 0xFF)):
    found = set()
    for hi in rows:
        for lo in cells:
            try:
                found.add(bytes([hi, lo]).decode(codec))
            except UnicodeDecodeError:
                pass
    return found
chars = table("gb2312", range(0xB0, 0xF8))                      # GB 2312 levels 1 and 2
chars |= {c for c in table("big5", range(0xA4, 0xC7), [*range(0x40, 0x7F), *range(0xA1, 0xFF)])
          if c.encode("big5") < b"\xc6\x7f"}                    # Big5 frequently used
chars |= table("euc_jp", range(0xB0, 0xD0))                     # JIS X 0208 level 1
chars |= table("euc_kr", range(0xB0, 0xC9))                     # KS X 1001 Hangul
chars |= {chr(c) for c in (*range(0x3041, 0x3097), *range(0x3099, 0x3100))}  # kana
chars |= set("々〆ヶ")
chars |= {chr(c) for c in (*range(0x0370, 0x0400), *range(0x0400, 0x0460))}  # Greek, Cyrillic
print("".join(sorted(chars)))
PYEOF
)

subset() {  # ttc font-number text-or-unicodes-flag value output family [more-text]
    "$PY" -m fontTools.subset "$1" --font-number="$2" "$3=$4" ${7:+--text="$7"} \
        --output-file="$5" \
        --layout-features='' --no-hinting --desubroutinize --name-IDs='0,1,2,3,4,5,6,13,14' \
        --name-languages='1033' --drop-tables+=DSIG,vhea,vmtx,VORG
    "$PY" - "$5" "$6" <<'PYEOF'
import sys
from fontTools.ttLib import TTFont
path, family = sys.argv[1], sys.argv[2]
font = TTFont(path)
style = font["name"].getDebugName(2) or "Regular"
ps = (family + "-" + style).replace(" ", "")
for rec in font["name"].names:
    if rec.nameID in (1, 16):
        rec.string = family
    elif rec.nameID == 4:
        rec.string = f"{family} {style}"
    elif rec.nameID in (3, 6):
        rec.string = ps
if "CFF " in font:
    cff = font["CFF "].cff
    cff.fontNames = [ps]
    top = cff.topDictIndex[0]
    top.FullName = f"{family} {style}"
    top.FamilyName = family
font.save(path)
PYEOF
}

subset "$NOTO/NotoSerifCJK-Bold.ttc" 3 --text "$HAN" "$OUT/TableroHan-Bold.otf" "Tablero Han"
# font 2 of the collections is the Simplified Chinese face (its Latin glyphs are the same
# as the Japanese face's)
subset "$NOTO/NotoSansCJK-Bold.ttc" 2 --unicodes "$LATIN" "$OUT/TableroSans-Bold.otf" \
    "Tablero Sans" "$CJK$NAMES"
subset "$NOTO/NotoSansCJK-Regular.ttc" 2 --unicodes "$LATIN" "$OUT/TableroSans-Regular.otf" \
    "Tablero Sans" "$CJK$NAMES"
# the characters both Sans weights draw: render.style.covers() reads this
"$PY" - "$OUT" <<'PYEOF'
import pathlib, sys
from fontTools.ttLib import TTFont
out = pathlib.Path(sys.argv[1])
have = None
for name in ("TableroSans-Bold.otf", "TableroSans-Regular.otf"):
    cmap = set(TTFont(out / name).getBestCmap())
    have = cmap if have is None else have & cmap
chars = "".join(chr(c) for c in sorted(have) if chr(c).isprintable())
lines = [chars[i:i + 64] for i in range(0, len(chars), 64)]
(out / "coverage.txt").write_text("\n".join(lines) + "\n", "utf-8")
PYEOF
{
    echo "Copyright © 2014-2022 Adobe (http://www.adobe.com/), Google Inc. (Noto CJK, Source Han)."
    echo "The subsets in this directory are Modified Versions of Noto Serif CJK TC Bold and"
    echo "Noto Sans CJK JP Bold/Regular, renamed \"Tablero Han\" and \"Tablero Sans\"."
    echo
    awk '/SIL OPEN FONT LICENSE Version 1.1/{p=1; print " -----------------------------------------------------------"}
         /^License: GPL-3\+$/{p=0} p' /usr/share/doc/fonts-noto-cjk/copyright | sed 's/^ //; s/^\.$//'
} > "$OUT/OFL.txt"
ls -l "$OUT"
# the web pages' Chinese fonts are subsets of the Regular one (bot/web/static/FONTS.md)
"$PY" scripts/make_web_fonts.py
