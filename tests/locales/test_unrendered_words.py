"""Issue 38, item 1: lazy words never reach a person unrendered. An f-string, ``format``
or ``str()`` over them raises (mypy cannot see it: it accepts any object in an
f-string); a repr slipped into a line is caught by the console and Discord checks the
whole suite runs (``tests/unrendered.py``)."""

from __future__ import annotations

import io

import pytest

from bot.console import ConsolePrinter
from locales.i18n import _, _n, capitalized, decimal, joined, listing
from tests.discordapp.wire_contract import violations

LAZY = [_("draw"), _n("{count} day", "{count} days", 2), listing(["a", "b"]),
        joined(_("draw"), "x"), capitalized(_("draw")), decimal(1.5)]


@pytest.mark.parametrize("words", LAZY, ids=lambda w: type(w).__name__)
def test_lazy_words_refuse_str_and_f_strings(words: object) -> None:
    with pytest.raises(TypeError, match="render it for its reader"):
        f"#1: {words}"  # the f-string itself is what must fail
    with pytest.raises(TypeError, match="render it for its reader"):
        str(words)
    with pytest.raises(TypeError, match="render it for its reader"):
        format(words, ">10")


def test_a_repr_printed_by_the_console_fails_the_test_that_printed_it() -> None:
    printer = ConsolePrinter(io.StringIO())
    printer.say(_("#{match}: {result}", match=1, result=_("draw")))
    with pytest.raises(AssertionError, match="unrendered words: Text"):
        printer.say(f"#1: {[_('draw')]}")


def test_a_repr_sent_to_discord_is_a_wire_contract_violation() -> None:
    body = {"content": "ok", "embeds": [{"description": f"{[_('draw')]!s}"}]}
    assert violations("POST", "/channels/1/messages", body) == [
        "POST /channels/1/messages: unrendered words: "
        "Text(msgid='draw', params={}, plural=None, count=None)]"]
