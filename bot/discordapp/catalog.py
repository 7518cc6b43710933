"""The games offered in ``/challenge``: every registered variant with each menu option set.

Each entry is one choice of the ``game`` option: a label people read ("Alquerque grande ·
4 players · teams") and a short value that maps back to the variant key and its options.
The option sets are the variant's own (``Variant.option_sets``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

import rules
from locales.i18n import Words, render
from locales.terms import choice_title, shown_options


@dataclass(frozen=True, slots=True)
class GameChoice:
    """One entry of the game menu."""

    value: str
    label: str  # in English: the choice's name (its translations go through the Translator)
    key: str
    options: Mapping[str, object] = field(default_factory=dict)

    @property
    def title(self) -> Words:
        """The label in the reader's words."""
        return choice_title(self.key, self.options, self.shown)

    shown: tuple[str, ...] = ()  # the option names the label shows


def _option_sets(v: rules.Variant) -> list[dict[str, object]]:
    return [dict(options) for options in v.option_sets()]


def game_choices() -> list[GameChoice]:
    """Every game and option set, in registry order, defaults first."""
    out: list[GameChoice] = []
    for key, v in rules.VARIANTS.items():
        for opts in _option_sets(v):
            shown = shown_options(v, opts)
            label = render(choice_title(key, opts, tuple(shown)), "en-US")
            value = key if not opts else key + ":" + ",".join(f"{n}={x}" for n, x in opts.items())
            out.append(GameChoice(value=value[:100], label=label[:100], key=key, options=opts,
                                  shown=tuple(shown)))
    return out


def find_choice(value: str) -> GameChoice | None:
    """The catalogue entry for a menu value, or a bare variant key with default options."""
    for choice in game_choices():
        if choice.value == value:
            return choice
    if value in rules.VARIANTS:
        return GameChoice(value=value, label=rules.VARIANTS[value].name, key=value)
    return None
