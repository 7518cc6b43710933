"""Issue 21, defect 6: move text is normalized once, in the notation layer (NFKC and the
dash family), so every game accepts the same variants of a move: full-width letters and
digits, full-width and typographic dashes, the minus sign."""

from __future__ import annotations

import pytest

import rules

FULL_WIDTH = {chr(c): chr(c + 0xFEE0) for c in range(0x21, 0x7F)}
DASHES = "\u2010\u2011\u2012\u2013\u2014\u2015\u2212\uff0d"


def full_width(text: str) -> str:
    return "".join(FULL_WIDTH.get(ch, ch) for ch in text)


@pytest.mark.parametrize("game", sorted(rules.VARIANTS))
def test_every_game_accepts_full_width_text_and_every_dash(game: str) -> None:
    v = rules.variant(game)
    # the first option set that starts with moves (a setup phase reads numbers, not moves)
    p = next(p for p in (v.start(**o) for o in v.option_sets() or ({},)) if not p.in_setup)
    tried = 0
    for move in list(p.legal_moves())[:12]:
        text = v.format_move(p, move)
        variants = [full_width(text), full_width(text.upper())]
        if "-" in text:
            variants += [text.replace("-", d) for d in DASHES]
        for variant in variants:
            assert v.parse_move(p, variant) == move, (game, variant)
            tried += 1
    assert tried
