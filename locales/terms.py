"""The game's own words in every language: game names, seat colours, outcome reasons and
option values. The rules core names things in English (``Variant.name``,
``Variant.seat_name``, ``rules.core.REASONS``); a reader sees them through here.
Notation (points, moves, WXF) is never translated.

>>> game_name("xiangqi").render("en-US"), seat_colour("Red").render("en-US")
('Xiangqi', 'Red')
>>> reason("no-pieces").render("en-GB")
'opponent out of pieces'
>>> reason("aborted: no move in time").render("en-US")
'aborted: no move in time'
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any, Final

import rules
from locales.i18n import Text, Words, _, _n, joined

SEAT_COLOURS: Final[dict[str, Text]] = {
    "White": _("White"),
    "Black": _("Black"),
    "Red": _("Red"),
    "Turquoise": _("Turquoise"),
    "Blue": _("Blue"),
    "Pink": _("Pink"),
}
"""The games' seat names (``Variant.seat_name``), by their English name."""

REASONS: Final[dict[str, Text]] = {
    "checkmate": _("checkmate"),
    "stalemate": _("stalemate, no legal move"),
    "perpetual-check": _("perpetual check"),
    "repetition": _("repetition"),
    "move-limit": _("move limit reached"),
    "no-moves": _("opponent cannot move"),
    "no-pieces": _("opponent out of pieces"),
    "all-removed": _("all stones removed"),
    "no-chains": _("no chain can be formed"),
    "three-kings": _("three kings could not win in 13 moves"),
    "last-player": _("last player left"),
    "both-teams-out": _("both teams out"),
    "resignation": _("opponent resigned"),
    "timeout": _("opponent ran out of time"),
    "resignation-ranked": _("a player resigned; ranked on captures"),
    "timeout-ranked": _("a player ran out of time; ranked on captures"),
    "agreement": _("agreed"),
    "recorded": _("as recorded"),
}
"""Every ``Outcome.reason`` key in words (``rules.core.REASONS``, the same keys: a test
keeps them together)."""

SERVICE_REASONS: Final[dict[str, Text]] = {
    "aborted": _("aborted"),
    "cancelled": _("cancelled"),
    "declined": _("declined"),
    "broken": _("broken"),
    "aborted: no move in time": _("aborted: no move in time"),
    "aborted: draw agreed before every player had moved":
        _("aborted: draw agreed before every player had moved"),
    # a tournament game that ends before every player has moved says what the
    # tournament scores (``service.early_ends``): a draw agreed, or a double forfeit
    "draw agreed before every player had moved":
        _("draw agreed before every player had moved"),
    "double forfeit: no move in time; both players lose":
        _("double forfeit: no move in time; both players lose"),
}
"""Reasons the service writes as words for matches that end outside the rules."""

STATUSES: Final[dict[str, Text]] = {
    "open": _("open"),
    "lobby": _("lobby"),
    "active": _("active"),
    "finished": _("finished"),
    "aborted": _("aborted"),
    "declined": _("declined"),
    "cancelled": _("cancelled"),
    "broken": _("broken"),
    "registration": _("registration"),
    "running": _("running"),
}
"""A match's (or a tournament's) status (``MatchStatus`` values) in words."""

# TRANSLATORS: option names and values as shown in titles (people type them in English)
OPTION_VALUES: Final[dict[str, Text]] = {
    "players": _("players"),
    "mode": _("mode"),
    "rules": _("rules"),
    "setup": _("setup"),
    "teams": _("teams"),
    "fast": _("fast"),
    "slow": _("slow"),
    "random": _("random"),
    "choose": _("choose"),
    "alquerque": _("alquerque"),
    "grande": _("grande"),
}
"""Option names and values as shown to people (typed as the English keys in commands)."""


_ABORTED_LEAVING = re.compile(
    r"aborted: (?P<who>.+) (?P<how>resigned|ran out of time) before every player had moved")

_FORFEITED = re.compile(
    r"forfeit: (?P<who>.+) (?P<how>resigned|ran out of time) before every player had "
    r"moved; (?P<winner>.+) wins")


def _player(text: str) -> Words:
    """A player as a stored reason names him (``'alice (Black)'``): his seat's colour in
    the reader's words."""
    named = _NAMED_SEAT.fullmatch(text)
    if named is not None and named["seat"] in SEAT_COLOURS:  # "alice (Black)": the colour
        return _("{player} ({seat})", player=named["player"], seat=seat_colour(named["seat"]))
    return text


def _aborted(text: str) -> Text | None:
    """The words of an abort reason the service stored (``'aborted: alice (Red) resigned
    before every player had moved'``; in a tournament game, ``'forfeit: alice (Red)
    resigned before every player had moved; bob (Black) wins'``); None when
    ``text`` is not one.

    >>> _aborted("forfeit: bob (Black) resigned before every player had moved; "
    ...          "alice (Red) wins").render("zh-CN")
    '不战而负：bob（黑方）在所有玩家都走棋之前认输；alice（红方）获胜'
    """
    forfeited = _FORFEITED.fullmatch(text)
    if forfeited is not None:
        who, winner = _player(forfeited["who"]), _player(forfeited["winner"])
        if forfeited["how"] == "resigned":
            return _("forfeit: {who} resigned before every player had moved; {winner} wins",
                     who=who, winner=winner)
        return _("forfeit: {who} ran out of time before every player had moved; {winner} "
                 "wins", who=who, winner=winner)
    found = _ABORTED_LEAVING.fullmatch(text)
    if found is None:
        return None
    who = _player(found["who"])
    if found["how"] == "resigned":
        return _("aborted: {who} resigned before every player had moved", who=who)
    return _("aborted: {who} ran out of time before every player had moved", who=who)


_NAMED_SEAT = re.compile(r"(?P<player>.+) \((?P<seat>[A-Z][a-z]+)\)")

_SPECIAL_MOVE = re.compile(r"(?P<seat>[A-Z][a-z]+) (?P<how>resigns|ran out of time|is skipped)")


def move_display(text: str) -> Words:
    """A move as the record shows it: notation as it is; the service's own entries
    (``'setup submitted'``, ``'draw agreed'``, ``'Red resigns'``) in words.

    >>> move_display("h3-e3 (C2.5)"), move_display("Red resigns").render("en-US")
    ('h3-e3 (C2.5)', 'Red resigns')
    """
    if text == "setup submitted":
        return _("setup submitted")
    if text == "draw agreed":
        return _("draw agreed")
    found = _SPECIAL_MOVE.fullmatch(text)
    if found is not None and found["seat"] in SEAT_COLOURS:
        colour = SEAT_COLOURS[found["seat"]]
        if found["how"] == "resigns":
            return _("{seat} resigns", seat=colour)
        if found["how"] == "is skipped":  # on_timeout:skip (issue 43)
            return _("{seat} ran out of time: that seat's turns are skipped from now on",
                     seat=colour)
        return _("{seat} ran out of time", seat=colour)
    return text


PERMISSION_NAMES: dict[str, Text] = {
    "View Channel": _("View Channel"),
    "Send Messages": _("Send Messages"),
    "Send Messages in Threads": _("Send Messages in Threads"),
    "Create Public Threads": _("Create Public Threads"),
    "Read Message History": _("Read Message History"),
    "Embed Links": _("Embed Links"),
    "Attach Files": _("Attach Files"),
    "Manage Server": _("Manage Server"),
}
"""Permission names as Discord's client shows them in each language."""


# TRANSLATORS: a piece as the rules' refusals name it ("there is no stone on c3"); the
# same entries as the alt text's piece counts, used here in the singular
PIECE_NAMES: Final[dict[str, Text]] = {
    "piece": _n("piece", "pieces", 1),
    "stone": _n("stone", "stones", 1),
    "man": _n("man", "men", 1),
    "king": _n("king", "kings", 1),
    "general": _n("general", "generals", 1),
    "advisor": _n("advisor", "advisors", 1),
    "elephant": _n("elephant", "elephants", 1),
    "horse": _n("horse", "horses", 1),
    "chariot": _n("chariot", "chariots", 1),
    "cannon": _n("cannon", "cannons", 1),
    "soldier": _n("soldier", "soldiers", 1),
}
"""The pieces the rules core names in its refusals (``piece`` params), by English word."""


def piece_name(kind: str) -> Words:
    """A piece (``'horse'``, ``'stone'``) in the reader's words; unknown ones as they are.

    >>> piece_name("horse").render("en-GB"), piece_name("unicorn")
    ('horse', 'unicorn')
    """
    return PIECE_NAMES.get(kind, kind)


def permission_name(label: str) -> Words:
    """A permission's label (``permission_label``) in the reader's words."""
    return PERMISSION_NAMES.get(label, label)


def game_name(key: str, fallback: str | None = None) -> Words:
    """A game's name by its variant key: the name the game declares (``Variant.name``,
    marked for the catalogues), or the English ``fallback`` for an unknown key."""
    v = rules.VARIANTS.get(key)
    if v is not None:
        return _(v.name)
    return fallback if fallback is not None else key


def ladder_name(ladder: str) -> Words:
    """A leaderboard (``xiangqi``, ``alquerque-grande-4``) in words: the game's name (its
    4-player ladder says so); an unknown key as it is.

    >>> ladder_name("xiangqi").render("zh-CN"), ladder_name("alquerque-grande-4").render("en-US")
    ('象棋', 'Alquerque grande, 4 players')
    """
    key = ladder.removesuffix("-4")
    if key not in rules.VARIANTS:
        return ladder
    name = game_name(key)
    return _("{game}, 4 players", game=name) if ladder != key else name


def seat_colour(name: str) -> Words:
    """A seat's name (``'Red'``) in the reader's words; unknown names as they are."""
    return SEAT_COLOURS.get(name, name)


def reason(key: str) -> Words:
    """An outcome reason in words; unknown keys lose their dashes (as ``reason_text``)."""
    found = REASONS.get(key) or SERVICE_REASONS.get(key) or _aborted(key)
    return found if found is not None else key.replace("-", " ")


def status(value: str) -> Words:
    """A match status (``'finished'``) in words."""
    return STATUSES.get(value, value)


def option_word(word: object) -> Words:
    """An option's name or value shown to people (numbers and unknown words as they are)."""
    return OPTION_VALUES.get(str(word), str(word))


def _describe(name: str, value: object) -> Words:
    if name == "players":
        return _("{count} players", count=value)
    if name == "mode":
        return option_word(value)
    if name == "setup":
        return _("{setup} setup", setup=option_word(value))
    if name == "rules":
        return _("original rules") if value == "alquerque" else \
            _("{rules} rules", rules=option_word(value))
    return _("{option} {value}", option=option_word(name), value=option_word(value))


def shown_options(v: rules.Variant[Any, Any], options: Mapping[str, object]) -> tuple[str, ...]:
    """The options that tell one of ``v``'s option sets apart from the others, in the
    order the game declares them (a stored match's options come back in another order):
    those that differ from the defaults, and the players, the four-player mode and the
    two-player rule set whenever the game has more than one set (each changes the game,
    so "teams" is said as "fast" and "slow" are). Options declared without values (a
    deal's seed, an arrangement) are the game's own record, never a choice: not shown.

    >>> shown_options(rules.variant("alquerque-grande"), {"mode": "teams", "players": 4})
    ('players', 'mode')
    >>> shown_options(rules.variant("querni"), {"setup": "random", "seed": 7})
    ()
    """
    sets = v.option_sets()
    if len(sets) <= 1:
        return ()
    defaults = {n: vals[0] for n, vals in v.options.items() if vals}
    return tuple(n for n, vals in v.options.items()
                 if vals and n in options
                 and (options[n] != defaults.get(n) or n in ("players", "mode", "rules")))


def chosen_options(key: str, options: Mapping[str, object]) -> tuple[tuple[str, object], ...]:
    """The options a player chose for a match of game ``key``, in the order the game
    declares them: those declared with values (a deal's seed or an arrangement is the
    game's record, not a choice). An unknown game's options as they are.

    >>> chosen_options("alquerque-grande", {"mode": "teams", "players": 4})
    (('players', 4), ('mode', 'teams'))
    >>> chosen_options("querni", {"seed": 7, "setup": "random"})
    (('setup', 'random'),)
    """
    v = rules.VARIANTS.get(key)
    if v is None:
        return tuple(options.items())
    return tuple((n, options[n]) for n, vals in v.options.items() if vals and n in options)


def choice_title(key: str, options: Mapping[str, object],
                 shown: tuple[str, ...] | None = None, fallback: str | None = None) -> Words:
    """A game with its options as its menu entry says it ("Alquerque grande · 4 players ·
    fast"): the game and the options that tell it apart (``shown``; by default those of
    :func:`shown_options`).

    >>> choice_title("alquerque-grande", {"players": 4, "mode": "fast"}).render("de")
    'Alquerque grande · 4 Spieler · schnell'
    >>> choice_title("xiangqi", {}).render("zh-CN")
    '象棋'
    """
    v = rules.VARIANTS.get(key)
    if v is None:  # a game this build does not know: its English ``fallback`` name
        return game_name(key, fallback)
    if shown is None:
        shown = shown_options(v, options)
    return joined(game_name(key, v.name), *(_describe(n, options[n]) for n in shown
                                            if n in options), separator=" · ")
