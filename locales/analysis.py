"""What ``/analysis`` says of a move, in words a player understands, the same in the
console, on Discord and drawn into the analysis images (issue 38): the move number, the
player, the move, the better move, and what the move cost — the game's own pieces (the
stones of Alquerque and Querni, the men of draughts, the soldiers of Xiangqi: the piece
the game declares as its ``worth_unit``, never pawns a game does not have), or a forced
win it missed ("misses a forced win in 3 moves"), or a forced loss it walked into. An
engine score is never printed as pieces beyond its forced-end cap.

>>> cost_words(CostKind.PAWNS, 250, "stone").render("en-US")
'costs about 2.5 stones'
>>> cost_words(CostKind.PAWNS, 120, worth_unit("xiangqi")).render("de")
'kostet etwa 1,2 Soldaten'
>>> cost_words(CostKind.MISSED_WIN, 3, "stone").render("en-US")
'lets a won game slip: misses a forced win in 3 moves'
>>> analysed_line(12, "alice", "c3-d4", "b2-c3", cost_words(CostKind.ALLOWED_LOSS, 1, "stone")
...               ).render("en-US")
'move 12, alice: c3-d4; better b2-c3 (allows a forced loss in 1 move)'
"""

from __future__ import annotations

from enum import StrEnum

import rules
from locales.i18n import Text, Words, _, _n, decimal


class CostKind(StrEnum):
    """How a move's cost is told."""

    PAWNS = "pawns"  # centipawns lost against the best move
    MISSED_WIN = "missed-win"  # the best move won by force in N moves; this one did not
    ALLOWED_LOSS = "allowed-loss"  # this move lets the opponents win by force in N moves


UNITS = ("stone", "man", "soldier", "piece")
"""The pieces a move's cost is counted in (``rules.Variant.worth_unit``)."""


def worth_unit(game: str) -> str:
    """The piece the game ``game`` (a variant key) counts a move's cost in: one of
    :data:`UNITS` (``'piece'`` for a game unknown, or naming one not there).

    >>> worth_unit("damas"), worth_unit("querni"), worth_unit("chess")
    ('man', 'stone', 'piece')
    """
    v = rules.VARIANTS.get(game)
    unit = v.worth_unit if v is not None else "piece"
    return unit if unit in UNITS else "piece"


def _pieces(unit: str, amount: Words) -> Text:
    if unit == "stone":
        return _("costs about {amount} stones", amount=amount)
    if unit == "man":
        # TRANSLATORS: a draughts man (the plain piece, not a king)
        return _("costs about {amount} men", amount=amount)
    if unit == "soldier":
        # TRANSLATORS: the Xiangqi soldier
        return _("costs about {amount} soldiers", amount=amount)
    return _("costs about {amount} pieces", amount=amount)


def cost_words(kind: CostKind, amount: int, unit: str) -> Text:
    """``amount``: centipawns (hundredths of the game's ``unit``, :func:`worth_unit`) for
    ``PAWNS``, else the moves to the forced end."""
    if kind is CostKind.MISSED_WIN:
        return _n("lets a won game slip: misses a forced win in {count} move",
                  "lets a won game slip: misses a forced win in {count} moves", amount)
    if kind is CostKind.ALLOWED_LOSS:
        return _n("allows a forced loss in {count} move",
                  "allows a forced loss in {count} moves", amount)
    return _pieces(unit, decimal(amount / 100))


def nothing_lost(unit: str) -> Text:
    """What ``/analysis`` says when no move cost a ``unit`` or more.

    >>> nothing_lost("man").render("en-US")
    "No move lost a man's worth or more."
    """
    if unit == "stone":
        return _("No move lost a stone's worth or more.")
    if unit == "man":
        return _("No move lost a man's worth or more.")
    if unit == "soldier":
        return _("No move lost a soldier's worth or more.")
    return _("No move lost a piece's worth or more.")


def units(unit: str) -> Text:
    """The pieces the analysis graph's scale counts, as its label names them ("stones";
    the graph's caption and its alt text)."""
    if unit == "stone":
        return _("stones")
    if unit == "man":
        return _("men")
    if unit == "soldier":
        return _("soldiers")
    return _("pieces")


def graph_caption(unit: str, first: Words | None = None,
                  second: Words | None = None) -> Text:
    """The analysis graph's caption: its scale and which side is which (``first`` and
    ``second``, two players; none: each player's own view against the other three).

    >>> graph_caption("stone", "White (alice)", "Black (bob)").render("en-US")
    'stones; above the line White (alice) is better, below it Black (bob)'
    """
    if first is None or second is None:
        return _("{units}, each player's own view (against the other three)",
                 units=units(unit))
    return _("{units}; above the line {first} is better, below it {second}",
             units=units(unit), first=first, second=second)


def analysed_line(number: int, player: Words, move: Words, better: Words,
                  cost: Words) -> Text:
    """One analysed move: ``number`` is the move's number in the record (1 = the first
    move of the game), ``player`` who played it."""
    return _("move {number}, {player}: {move}; better {better} ({cost})", number=number,
             player=player, move=move, better=better, cost=cost)
