"""How every console command reads its arguments: one parser, run before any command sees
them, so each command takes its parameters in all three forms: in their place (``/vacation
start 5``), or by name as ``name:value`` or ``name=value`` (``/vacation start days:5``,
``/vacation action=start days=5``), as Discord's options are named. ``match:N`` and
``tournament:N`` are ``#N``; ``player:``, ``user:`` and ``opponent:`` name ``@someone``.

A command's options that are not in its positional list (``days:3`` of ``/challenge``)
are left as written for the command's own reader (``options_of``), which reads ``:`` and
``=`` alike. A token is an option only when its name is a word (``c4:e6``, a move with
``:`` for ``x``, stays a move). An option with nothing after it (``seat:``) is refused by
its name, whatever the command: an empty value is never read as "not given".

>>> arranged("vacation", ["start", "days:5"])
['start', '5']
>>> arranged("vacation", ["days=5", "action=start"]), arranged("vacation", ["days:5"])
(['start', '5'], ['start', '5'])
>>> arranged("leaderboard", ["page:2", "game=xiangqi", "season:1"])
['xiangqi', '2', 'season:1']
>>> arranged("tournament", ["create", "damas", "swiss", "rounds=2", "name=Cup"])
['create', 'damas', 'swiss', 'rounds=2', 'name=Cup']
>>> arranged("move", ["match:3", "c4:e6"])
['c4:e6', '#3']
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from locales.i18n import _
from service import ServiceError

OPTION = re.compile(r"(?P<name>[A-Za-z][A-Za-z_-]*)[:=](?P<value>.*)", re.DOTALL)
"""``name:value`` or ``name=value`` (the name a word: ``c4:e6`` is no option)."""

MATCH_NAMES = frozenset({"match", "tournament"})
"""Options naming a match or a tournament: ``match:3`` is ``#3``."""
PERSON_NAMES = frozenset({"player", "user", "opponent"})
"""Options naming a person: ``player:bob`` is ``@bob``."""


@dataclass(frozen=True, slots=True)
class Signature:
    """A command's positional parameters by name, in order; ``actions``: the
    parameters after the first (the action) for each action that takes more;
    ``aliases``: other names of a parameter (Discord's, where they differ); ``text``:
    free text follows, where only the first word may name the match, so a reference
    given by name goes first."""

    positional: tuple[str, ...] = ()
    actions: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    aliases: Mapping[str, str] = field(default_factory=dict)
    text: bool = False

    def names(self) -> set[str]:
        """Every parameter name, whatever the action."""
        out = set(self.positional) | set(self.aliases)
        for more in self.actions.values():
            out |= set(more)
        return out


SIGNATURES: Mapping[str, Signature] = {
    "help": Signature(), "games-list": Signature(), "games": Signature(),
    "open": Signature(), "board": Signature(("ply",)), "history": Signature(),
    "resign": Signature(), "hint": Signature(), "analysis": Signature(),
    "accept": Signature(), "join": Signature(), "decline": Signature(),
    "cancel": Signature(), "fill": Signature(), "moretime": Signature(),
    "claim": Signature(), "wait": Signature(), "next": Signature(),
    "rematch": Signature(), "follow": Signature(), "unfollow": Signature(),
    "tournaments": Signature(),
    "challenge": Signature(("game",)),
    "move": Signature(("move",)),
    "moves": Signature(("prefix",)),
    "setup": Signature(("arrangement",)),
    "draw": Signature(("action",)),
    "leaderboard": Signature(("game", "page")),
    "stats": Signature(),
    "rules": Signature(("game",)),
    "notify": Signature(("mode",)),
    "timezone": Signature(("zone",)),
    "sweep": Signature(("days",)),
    "settings": Signature(),
    "season": Signature(("action",), aliases={"every": "action"}),
    "vacation": Signature(("action",), actions={"start": ("days",)}),
    "pause": Signature(("action",), actions={"propose": ("days", "reason")}, text=True),
    "takeback": Signature(("action",)),
    "web": Signature(("action",)),
    "premove": Signature(("action",), actions={"add": ("line",)}),
    "note": Signature(("action",), actions={"set": ("text",)}, text=True),
    "tournament": Signature(("action",), actions={"create": ("game", "format"),
                                                  "pairings": ("round",)}),
}
"""Every console command's positional parameters (a test checks each command has one)."""


def arranged(command: str, args: Sequence[str]) -> list[str]:
    """``args`` of ``command`` with each parameter given by name moved to its place: the
    positional parameters in order, then the ``#N`` and ``@name`` references, then the
    words left over, then the options the command reads itself. Unchanged when nothing
    is given by name. A parameter named twice is refused, and so is an option with an
    empty value (but for words of free text ending with a colon).

    >>> arranged("challenge", ["@bob", "xiangqi", "seat:"])
    Traceback (most recent call last):
    ...
    service.errors.ServiceError: the option seat is empty: write seat:VALUE, or leave it out
    """
    signature = SIGNATURES.get(command, Signature())
    known = signature.names()
    references: list[str] = []
    renamed = False  # a reference given by name (match:3)
    named: dict[str, str] = {}
    bare: list[str] = []
    others: list[str] = []
    for token in args:
        found = OPTION.fullmatch(token)
        name = found["name"].lower() if found is not None else ""
        if found is not None and not found["value"].strip() and \
                (not signature.text or name in known | MATCH_NAMES | PERSON_NAMES):
            # an option written with nothing after it is refused, never read as not given
            # (in free text a word may end with a colon: "todo:")
            raise ServiceError(_("the option {option} is empty: write {option}:VALUE, or "
                                 "leave it out", option=name))
        if token.startswith(("#", "@")) or found is None:
            (references if token.startswith(("#", "@")) else bare).append(token)
        elif name in MATCH_NAMES:
            references.append("#" + found["value"].removeprefix("#"))
            renamed = True
        elif name in PERSON_NAMES:
            references.append("@" + found["value"].removeprefix("@"))
            renamed = True
        elif name in known:
            name = signature.aliases.get(name, name)
            if name in named:
                raise ServiceError(_("{key} is given twice: say it once", key=name))
            named[name] = found["value"]
        else:
            others.append(token)
    if not named and not renamed:
        return list(args)
    order = list(signature.positional)
    implied = [a for a, more in signature.actions.items() if set(more) & set(named)]
    if order[:1] == ["action"] and "action" not in named and len(implied) == 1 and \
            (not bare or bare[0].lower() != implied[0]):
        named["action"] = implied[0]  # text:... alone is /note set, days:5 /vacation start
    action = named.get("action") or (bare[0] if bare else None)
    if order[:1] == ["action"] and action is not None:
        order += list(signature.actions.get(action.lower(), ()))
    placed: list[str] = []
    for name in order:
        if name in named:
            placed.append(named.pop(name))
        elif bare:
            placed.append(bare.pop(0))
        else:
            break
    # a later parameter named while an earlier one is missing: the command says what is
    placed += [named[name] for name in order if name in named]
    if signature.text:
        return [*references, *placed, *bare, *others]
    return [*placed, *references, *bare, *others]
