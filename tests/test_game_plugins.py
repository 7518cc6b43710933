"""A game is one plug-in (issue 37): everything the other parts need of a game is
declared by its variant and registered once. For every registered game this fails on any
missing part: its words (name and summary, marked for the catalogues and translated in
every language), its board facts (in a family the renderer colours), its record format,
its engine model, and its seat names and option words in the reader's language."""

from __future__ import annotations

from typing import Any

import pytest

import rules
from engine.models import GameModel, model_for
from locales.i18n import LOCALES, catalogue_path
from locales.terms import OPTION_VALUES, SEAT_COLOURS, game_name
from render.style import FAMILY_LOOKS, spec_for
from rules import GameRecord
from tests.catalogues import read

GAMES = sorted(rules.VARIANTS)


def _translated(locale: str) -> dict[str, str]:
    return {str(m.id): str(m.string) for m in read(catalogue_path(locale))
            if m.id and m.string}


@pytest.fixture(scope="module")
def catalogues() -> dict[str, dict[str, str]]:
    return {locale: _translated(locale) for locale in LOCALES}


@pytest.mark.parametrize("key", GAMES)
def test_a_game_declares_its_words_and_every_language_has_them(
        key: str, catalogues: dict[str, dict[str, str]]) -> None:
    v = rules.variant(key)
    assert v.name and v.summary, f"{key} declares no name or summary"
    assert v.summary.startswith(f"**{v.name}**"), "the summary opens with the game's name"
    for locale, said in catalogues.items():
        assert v.name in said and v.summary in said, (key, locale)
    assert game_name(key).render("de") == catalogues["de"][v.name]
    for seat in range(max(v.seat_count(**opts) for opts in v.example_options)):
        assert v.seat_name(seat, 4 if seat > 1 else 2) in SEAT_COLOURS, (key, seat)
    for option, values in v.options.items():
        shown = [option, *(str(x) for x in values if isinstance(x, str))]
        assert all(word in OPTION_VALUES for word in shown if option not in
                   ("seed", "arrangement")), (key, option)


@pytest.mark.parametrize("key", GAMES)
def test_a_game_declares_its_board_and_the_renderer_draws_it(key: str) -> None:
    v = rules.variant(key)
    facts = v.board_facts
    assert facts.family in FAMILY_LOOKS, f"{key}: no colours for family {facts.family!r}"
    assert 0 < facts.piece_scale < 1 and facts.kinds
    spec = spec_for(key)
    assert (spec.family, spec.marked, spec.areas) == (facts.family, facts.marked, facts.areas)


@pytest.mark.parametrize("key", GAMES)
def test_a_game_declares_its_record_format_or_none(key: str) -> None:
    v = rules.variant(key)
    start = v.start(**v.example_options[0])
    exported = v.export_record(GameRecord(start=start.to_text(), moves=()))
    assert (exported is None) == (v.record_format is None), key


@pytest.mark.parametrize("key", GAMES)
def test_a_game_has_its_engine_model(key: str) -> None:
    v = rules.variant(key)
    for options in v.example_options:
        model: Any = model_for(v, v.start(**options))
        assert type(model) is not GameModel, (key, options)
