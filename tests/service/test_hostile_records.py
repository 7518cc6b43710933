"""Records made to hurt the reader: nested or unclosed comments and
variations, endless tags, escapes, numbers and annotations, each filling the whole
64 KB an import reads, are refused in words of their own, and quickly: no pattern of the
reader backtracks over such a file (measured in CPU time: about 0.03 s each)."""

from __future__ import annotations

import time

import pytest

from rules import RulesError
from rules.records import read_any_record
from service.errors import InvalidOption
from service.importer import MAX_RECORD_BYTES, record_text

N = MAX_RECORD_BYTES - 100
HOSTILE = {
    "{" * N: "a comment or a variation is not closed",
    "(" * N: "a comment or a variation is not closed",
    "(" * (N // 2) + ")" * (N // 2): "the record holds no move",
    '[Event "' + "\\" * N: "is not a tag",
    '[Event "' + '\\"' * (N // 2): "is not a tag",
    "[" + " " * N: "is not a tag",
    "[A" + "a" * N: "is not a tag",
    '[Game "' + "a" * N: "is not a tag",
    "[  " * (N // 3): "is not a tag",
    "1" + "." * N: "the record holds no move",
    " 1." * (N // 3): "the record holds no move",
    "1-2 " * (N // 4): "the record has more than 2000 moves",
    ";" * N: "the record holds no move",
    "$" + "1" * N: "the record holds no move",
    '[Game "Chinese Chess"]\n' + "1. C2.5 C8.5 " * (N // 14): "more than 2000 moves",
    "{" + "1. " * (N // 3) + "}": "the record holds no move",
}


@pytest.mark.parametrize("game", [None, "damas", "xiangqi"])
def test_hostile_records_are_refused_in_words_and_quickly(game: str | None) -> None:
    spent = time.process_time()
    for text, said in HOSTILE.items():
        with pytest.raises((RulesError, InvalidOption)) as refused:
            read_any_record(record_text(text.encode()), game)
        message = str(refused.value)
        assert "Traceback" not in message and len(message) < 400
        if game == "xiangqi":  # (unnamed, or named another, the game is refused first)
            assert said in message, (text[:20], message)
    assert time.process_time() - spent < 5.0  # about 0.5 s for the sixteen
