"""The rules of each game in a few sentences (each game declares its own,
``Variant.summary``) with its options: the same words for Discord's ``/rules`` and the
console's (Discord markdown: ``**bold**`` and ``code``; :func:`plain` strips it).

>>> "Red moves first" in rules_summary("xiangqi").render("en-US")
True
>>> plain("**Xiangqi** `h3-e3`")
'Xiangqi h3-e3'
"""

from __future__ import annotations

import rules
from locales.i18n import Words, _, command, joined
from locales.terms import game_name


def rules_summary(key: str) -> Words:
    """A short summary of a game's rules and its options (Discord markdown)."""
    v = rules.variant(key)
    # the game declares its summary (``Variant.summary``, marked for the catalogues); it
    # names a command as a placeholder (``{setup}``, ``{move}``), never as ``/setup``: the
    # reader's Discord may show it under another name
    text: Words = _(v.summary, move=command("move"), setup=command("setup")) if v.summary \
        else _("**{game}**", game=game_name(key, v.name))
    # option values are what people type in commands: the same in every language
    options = [_("`{option}`: {values}", option=name,
                 values=" / ".join(map(str, vals)) if vals else _("free"))
        for name, vals in v.options.items() if name not in HIDDEN_OPTIONS]
    if not options:
        return text
    return joined(text, _("Options: {options}.", options=joined(*options, separator=", ")),
                  separator="\n")


HIDDEN_OPTIONS = frozenset({"seed", "arrangement"})
"""Options the service sets itself (Querni's seed) or that tests and replays use
(a fixed Querni ``arrangement``): not offered to players."""


def plain(text: str) -> str:
    """``text`` without Discord's markdown, for the console."""
    return text.replace("**", "").replace("`", "")
