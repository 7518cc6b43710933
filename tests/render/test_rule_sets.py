"""Alt text of Alquerque grande with two players names the rule set (RULES §2 option
``rules``, issue 18); other games and four players say nothing of it."""

from __future__ import annotations

import rules
from render.alt import describe


def test_alt_text_names_the_two_player_rule_set() -> None:
    g = rules.variant("alquerque-grande")
    original = describe(g.start(players=2))
    assert "Rules: the original Alquerque rules (no backward steps, compulsory " \
        "captures)." in original
    grande = describe(g.start(players=2, rules="grande"))
    assert "Rules: the grande rules (steps in any direction, huffing)." in grande
    assert "Rules:" not in describe(g.start())
    assert "Rules:" not in describe(rules.variant("alquerque").start())
