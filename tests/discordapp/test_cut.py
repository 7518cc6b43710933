"""A text over Discord's limit is cut with "…", never inside what Discord shows as one
thing (a command's mention, a member's, a channel's, a timestamp): half of one would
show as raw text (``</move:12``)."""

from __future__ import annotations

import re

import pytest

from bot.discordapp.mentions import cut

PIECES = ["</move:123456789012345678>", "</tournament create:98765432109876543>",
          "<@123456789012345678>", "<@!12345678901234567>", "<@&4242424242>",
          "<#777777777777777777>", "<t:1700000000:R>", "<:tablero:1234567890>"]
HALF = re.compile(r"<[^>]*$")  # a mention begun and not ended


@pytest.mark.parametrize("piece", PIECES)
def test_a_cut_never_splits_a_mention(piece: str) -> None:
    for at in range(1, 60):
        text = "x" * at + piece + " more words after it" * 3
        for limit in range(at, at + len(piece) + 3):
            shown = cut(text, limit)
            assert len(shown) <= limit and shown.endswith("…")
            assert not HALF.search(shown[:-1]), (limit, shown)
            assert piece in shown or shown == "x" * at + "…" or \
                shown == "x" * (limit - 1) + "…", (limit, shown)


def test_a_text_that_fits_is_left_as_it_is() -> None:
    text = "play with </move:1> now " + "a" * 1976
    assert len(text) == 2000 and cut(text, 2000) == text
    assert cut(text + "!", 2000) == text[:1999] + "…"
