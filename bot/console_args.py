"""How every console command reads its arguments: one parser, run before any command sees
them, so each command takes its parameters in all three forms: in their place (``/vacation
start 5``), or by name as ``name:value`` or ``name=value`` (``/vacation start days:5``,
``/vacation action=start days=5``), as Discord's options are named. ``match:N`` and
``tournament:N`` are ``#N``; ``player:``, ``user:`` and ``opponent:`` (``opponent2:``,
``opponent3:``) name ``@someone``. Every option of a command Discord has too is read by
Discord's name (shown in the console's help), and by the console's older name where it had
one (``/settings claim_win:on`` and ``claim:on``); a yes/no option of Discord's that the
console reads as a word is that word (``/web revoke:yes`` is ``/web revoke``).

A command's options that are not in its positional list (``days:3`` of ``/challenge``)
are left as written for the command's own reader (``options_of``), which reads ``:`` and
``=`` alike. A token is an option only when its name is a word (``c4:e6``, a move with
``:`` for ``x``, stays a move). An option with nothing after it (``seat:``) is refused by
its name, whatever the command: an empty value is never read as "not given".

The other way round, :class:`ConsoleSyntax` writes the commands a text names (one it
shares with Discord, where it says ``/history match:7``) as the console reads them:
``/history #7``.

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

from locales.i18n import _, render_value
from service import InvalidOption, ServiceError

OPTION = re.compile(r"(?P<name>opponent[23]|[A-Za-z][A-Za-z_-]*)[:=](?P<value>.*)",
                    re.DOTALL)
"""``name:value`` or ``name=value`` (the name a word: ``c4:e6`` is no option; Discord's
``opponent2`` and ``opponent3`` are)."""

MATCH_NAMES = frozenset({"match", "tournament"})
"""Options naming a match or a tournament: ``match:3`` is ``#3``."""
PERSON_NAMES = frozenset({"player", "user", "opponent", "opponent2", "opponent3"})
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
    silent: str = ""
    """The action the command takes without its word, its parameters alone in their
    place (``/note TEXT`` sets the note, ``/pause 3`` proposes a pause): written so."""
    by_name: frozenset[str] = frozenset()
    """Parameters read in their place too, but written by name (``/board #2 ply:5``)."""
    needs: int = 0
    """How many of the first positional parameters the command cannot go without
    (``/leaderboard`` its GAME): written, in capitals where a text leaves them to the
    reader, whenever anything follows the command (``/leaderboard GAME season:2``); a
    command named alone stays alone (``see /leaderboard``)."""
    switches: Mapping[str, str] = field(default_factory=dict)
    """Discord's yes/no options the console reads as a word, and the word (``/web
    revoke``; ``export`` of ``/tournament standings`` is ``csv``): one given as True is
    written so, and read so (``revoke:yes``; ``revoke:no`` is not giving it); any other
    yes/no option by its name, ``threads:yes`` or ``rated:no``, as the console's
    commands read a yes or no."""
    renamed: Mapping[str, str] = field(default_factory=dict)
    """Discord's names of the options the command reads itself under an older name of
    the console's, and that name (``claim_win``, the console's ``claim``): both are
    read (the console's names stay, as typed in scripts); its help shows Discord's."""

    def names(self) -> set[str]:
        """Every parameter name, whatever the action."""
        out = set(self.positional) | set(self.aliases)
        for more in self.actions.values():
            out |= set(more)
        return out


SIGNATURES: Mapping[str, Signature] = {
    "help": Signature(), "games-list": Signature(), "games": Signature(),
    "open": Signature(), "board": Signature(("ply",), by_name=frozenset({"ply"})),
    "history": Signature(),
    "resign": Signature(), "hint": Signature(), "analysis": Signature(),
    "accept": Signature(), "join": Signature(), "decline": Signature(),
    "cancel": Signature(), "fill": Signature(), "moretime": Signature(),
    "claim": Signature(), "wait": Signature(), "next": Signature(),
    "rematch": Signature(), "follow": Signature(), "unfollow": Signature(),
    "block": Signature(), "unblock": Signature(),
    "tournaments": Signature(),
    "challenge": Signature(("game",), needs=1, switches={"computer": "computer"},
                           renamed={"claim_win": "claim"}),
    "move": Signature(("move",)),
    "moves": Signature(("prefix",)),
    "setup": Signature(("arrangement",)),
    "draw": Signature(("action",)),
    "leaderboard": Signature(("game", "page"), needs=1),
    "stats": Signature(),
    "rules": Signature(("game",)),
    "notify": Signature(("mode",)),
    "timezone": Signature(("zone",), switches={"clear": "clear"}),
    "sweep": Signature(("days",)),
    "settings": Signature(renamed={"claim_win": "claim", "auto_vacation": "autovacation",
                                   "takebacks_rated": "takebacks"}),
    "season": Signature(("action",), aliases={"every": "action"}),
    "vacation": Signature(("action",), actions={"start": ("days",)}),
    "pause": Signature(("action",), actions={"propose": ("days", "reason")}, text=True,
                       silent="propose"),
    "takeback": Signature(("action",)),
    "web": Signature(("action",), switches={"revoke": "revoke"}),
    "premove": Signature(("action",), actions={"add": ("line",)}),
    "note": Signature(("action",), actions={"set": ("text",)}, text=True, silent="set"),
    "tournament": Signature(("action",), actions={"create": ("game", "format"),
                                                  "pairings": ("round",)},
                            switches={"export": "csv"},
                            renamed={"claim_win": "claim",
                                     "registration_days": "registration"}),
    "import": Signature(renamed={"file": "path"}),
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
    args = discord_names(signature, args)
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


def discord_names(signature: Signature, args: Sequence[str]) -> list[str]:
    """``args`` with Discord's names of ``signature``'s options read as the console's:
    a renamed option under the console's name (``claim_win:on`` is ``claim:on``), a
    switch given yes as its word (``revoke:yes`` is ``revoke``), given no left out.

    >>> discord_names(SIGNATURES["web"], ["revoke:yes"])
    ['revoke']
    >>> discord_names(SIGNATURES["settings"], ["claim_win=on", "days:3"])
    ['claim:on', 'days:3']
    """
    out: list[str] = []
    for token in args:
        found = OPTION.fullmatch(token)
        name = found["name"].lower() if found is not None else ""
        if found is None or not found["value"].strip():
            out.append(token)  # (an empty value is refused by arranged, by its name)
        elif name in signature.renamed:
            out.append(f"{signature.renamed[name]}:{found['value']}")
        elif name in signature.switches:
            if yes_or_no(name, found["value"]):
                out.append(signature.switches[name])
        else:
            out.append(token)
    return out


SWITCH_VALUES = {"on": True, "off": False, "yes": True, "no": False, "true": True,
                 "false": False}
"""What an on/off or yes/no option accepts (``reminders:on``), refused otherwise."""


def yes_or_no(option: str, value: str) -> bool:
    """A yes/no option's value (``rated:no``, ``claim:yes``; also on/off, true/false as
    :data:`SWITCH_VALUES` says): any other word is refused by the option's name, never
    read as one of the two (``rated:maybe`` made a rated match)."""
    if value.strip().lower() not in SWITCH_VALUES:
        raise InvalidOption(_("{option} must be yes or no, not {value}", option=option,
                              value=repr(value[:40])))
    return SWITCH_VALUES[value.strip().lower()]


# ---------------------------------------------------------------- writing a command

MARKS: Mapping[str, str] = {**dict.fromkeys(MATCH_NAMES, "#"), "puzzle": "#",
                            **dict.fromkeys(PERSON_NAMES, "@")}
"""How the console writes a reference: a match, a tournament or a puzzle by its number
(``#7``: ``/puzzle next #7`` as its help says), a person by ``@name``."""
PLACEHOLDERS: Mapping[str, str] = {"match": "#N", "tournament": "#T", "puzzle": "#N",
                                   **dict.fromkeys(PERSON_NAMES, "@NAME")}
"""What stands for a reference a text leaves to the reader (``/follow #N``)."""


class ConsoleSyntax:
    """How the console writes the commands its texts name, the ones it shares with
    Discord too (``command("history", match=7)``, ``/history match:7`` there): as its
    reader types them, what :func:`arranged` reads back. A match, a tournament or a
    puzzle is ``#N``, a person ``@name``; a positional parameter (:data:`SIGNATURES`)
    stands in its place (``/pause resume``, ``/leaderboard xiangqi 2``; one missing
    before it by its name in capitals: ``GAME``), an action the console takes without
    its word without it (``/pause 3``); a parameter it cannot go without is written
    whenever anything follows (``/leaderboard GAME season:2``); a switch given as true
    is its word (``/web revoke``), any other yes or no ``name:yes`` or ``name:no`` (the
    console's commands read both); any other option is ``name:value`` (``season:2``,
    ``seat:red``). An option
    named alone (``option("season")``) keeps its English name: the console reads every
    option by it (``match:7`` too).

    >>> from locales.i18n import command, commands_written
    >>> with commands_written(CONSOLE_SYNTAX):
    ...     [command("history", match=7).render("de"),
    ...      command("pause", action="resume").render("de"),
    ...      command("continue", match=3, opponent="@…").render("en-US"),
    ...      command("leaderboard", season=1).render("en-US")]
    ['/history #7', '/pause resume', '/continue #3 @…', '/leaderboard GAME season:1']
    """

    def command(self, qualified: str, options: Sequence[tuple[str, object]],
                locale: str) -> str:
        head, *path = qualified.split()
        signature = SIGNATURES.get(head, Signature())
        order = [p for p in signature.positional if p not in signature.by_name]
        values: dict[str, str] = {}
        references: list[str] = []
        switches: list[str] = []
        others: list[str] = []
        leading: list[str] = []
        if order[:1] == ["action"] and path:
            values["action"] = " ".join(path)  # a group's command is the action
        else:
            leading = path
        for name, value in options:
            said = render_value(value, locale)
            if name in MARKS:
                mark = MARKS[name]
                references.append(mark + said.removeprefix(mark) if said
                                  else PLACEHOLDERS[name])
            elif isinstance(value, bool) and value and name in signature.switches:
                switches.append(signature.switches[name])
            elif isinstance(value, bool):
                others.append(f"{name}:{'yes' if value else 'no'}")
            elif name in signature.names() - signature.by_name:
                values[signature.aliases.get(name, name)] = said or name.upper()
            else:
                others.append(f"{name}:{said or 'VALUE'}")
        action = values.get("action")
        if order[:1] == ["action"] and action is None:
            implied = [a for a, more in signature.actions.items() if set(more) & set(values)]
            action = implied[0] if len(implied) == 1 else None
        more = list(signature.actions.get(action or "", ())) if order[:1] == ["action"] \
            else []
        if action is not None and action == signature.silent:
            # its word is left out: its first parameter says it (a capital one at least)
            values.pop("action", None)
            order = more
            if more and more[0] not in values:
                values[more[0]] = more[0].upper()
        elif action is not None:
            values["action"] = action
            order += more
        given = [i for i, name in enumerate(order) if name in values]
        if order[:1] != ["action"] and (given or references or switches or others):
            given.append(signature.needs - 1)  # what it cannot go without, written
        placed = [values.get(name, name.upper()) for name in order[:max(given) + 1]] \
            if given else []
        words = [*references, *placed] if signature.text else [*placed, *references]
        return " ".join(["/" + head, *leading, *words, *switches, *others])

    def option(self, english: str, locale: str) -> str:
        return english


CONSOLE_SYNTAX = ConsoleSyntax()
"""The console's way of writing commands: every line it shows is rendered with it
(``commands_written(CONSOLE_SYNTAX)``)."""
