"""A sentence-start capital is the language's own: ``capitalized`` never changes what a
sentence starts with when that is not words of the catalogue: a move (``a1-a9: …``, not
``A1-a9``), a point, a name as its owner wrote it, ``#3``, a command. Words again (a text,
a list, a run of texts) take the capital in their turn."""

from __future__ import annotations

import pytest

from locales.i18n import LOCALES, _, capitalized, command, joined, listing
from locales.rules_words import rules_words
from rules import RulesError, variant


@pytest.mark.parametrize("locale", LOCALES)
def test_a_refusal_that_starts_with_a_move_keeps_the_move_as_typed(locale: str) -> None:
    v = variant("xiangqi")
    with pytest.raises(RulesError) as refused:
        v.parse_move(v.start(), "a1-a9")
    said = capitalized(rules_words(refused.value)).render(locale)
    assert "a1-a9" in said and "A1-a9" not in said, said


@pytest.mark.parametrize("lead", ["a1-a9", "bob", "#3", "c3xe5xc7"])
def test_what_a_sentence_starts_with_is_kept_when_it_is_not_the_languages(lead: str) -> None:
    for locale in LOCALES:
        said = capitalized(_("{move}: {reason}", move=lead,
                             reason=_("the game is over"))).render(locale)
        raised = lead[:1].upper() + lead[1:]
        assert lead in said and (raised == lead or raised not in said), said
        assert capitalized(listing([lead, "x"])).render(locale).startswith(lead)
        assert capitalized(joined(lead, _("draw"))).render(locale).startswith(lead)
    assert capitalized(command("move")).render("de") == "/ziehen"


def test_the_languages_own_words_still_take_the_capital() -> None:
    assert capitalized(_("the game is over")).render("en-US") == "The game is over"
    assert capitalized(_("the game is over")).render("de").startswith("Die ")
    # words inside words: a text that starts with a text capitalizes the inner one
    inner = _("{reason}: {move}", reason=_("the game is over"), move="a1-a9")
    assert capitalized(inner).render("en-US") == "The game is over: a1-a9"
    assert capitalized(listing([_("draw"), "bob"])).render("en-US") == "Draw and bob"
    assert capitalized(joined(_("draw"), "bob")).render("en-US") == "Draw bob"
    # a case-less script is left as it is
    assert capitalized(_("the game is over")).render("zh-CN") == \
        _("the game is over").render("zh-CN")
