"""The games offered in ``/challenge``: every registered variant with each menu option set.

Each entry is one choice of the ``game`` option: a label people read ("Alquerque grande ·
4 players · teams") and a short value that maps back to the variant key and its options.
The option sets are the variant's own (``Variant.option_sets``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

import rules


@dataclass(frozen=True, slots=True)
class GameChoice:
    """One entry of the game menu."""

    value: str
    label: str
    key: str
    options: Mapping[str, object] = field(default_factory=dict)


def _option_sets(v: rules.Variant) -> list[dict[str, object]]:
    return [dict(options) for options in v.option_sets()]


def _describe(name: str, value: object) -> str:
    if name == "players":
        return f"{value} players"
    if name in ("mode", "setup"):
        return f"{value}" if name == "mode" else f"{value} setup"
    if name == "rules":
        return "original rules" if value == "alquerque" else f"{value} rules"
    return f"{name} {value}"


def game_choices() -> list[GameChoice]:
    """Every game and option set, in registry order, defaults first."""
    out: list[GameChoice] = []
    for key, v in rules.VARIANTS.items():
        sets = _option_sets(v)
        for opts in sets:
            defaults = {n: vals[0] for n, vals in v.options.items() if vals}
            # players and the two-player rule set are always named: both change the game
            shown = {n: x for n, x in opts.items() if (len(sets) > 1 and x != defaults.get(n))
                     or (n in ("players", "rules") and len(sets) > 1)}
            label = " · ".join([v.name, *(_describe(n, x) for n, x in shown.items())])
            value = key if not opts else key + ":" + ",".join(f"{n}={x}" for n, x in opts.items())
            out.append(GameChoice(value=value[:100], label=label[:100], key=key, options=opts))
    return out


def find_choice(value: str) -> GameChoice | None:
    """The catalogue entry for a menu value, or a bare variant key with default options."""
    for choice in game_choices():
        if choice.value == value:
            return choice
    if value in rules.VARIANTS:
        return GameChoice(value=value, label=rules.VARIANTS[value].name, key=value)
    return None
