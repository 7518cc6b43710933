"""What ``/analysis`` says of a move, in words a player understands, the same in the
console, on Discord and drawn into the analysis images (issue 38): the move number, the
player, the move, the better move, and what the move cost — pawns, or a forced win it
missed ("misses a forced win in 3 moves"), or a forced loss it walked into. An engine
score is never printed as pawns beyond its forced-end cap.

>>> cost_words(CostKind.PAWNS, 250).render("en-US")
'costs about 2.5 pawns'
>>> cost_words(CostKind.MISSED_WIN, 3).render("en-US")
'lets a won game slip: misses a forced win in 3 moves'
>>> analysed_line(12, "alice", "c3-d4", "b2-c3", cost_words(CostKind.ALLOWED_LOSS, 1)
...               ).render("en-US")
'move 12, alice: c3-d4; better b2-c3 (allows a forced loss in 1 move)'
"""

from __future__ import annotations

from enum import StrEnum

from locales.i18n import Text, Words, _, _n, decimal


class CostKind(StrEnum):
    """How a move's cost is told."""

    PAWNS = "pawns"  # centipawns lost against the best move
    MISSED_WIN = "missed-win"  # the best move won by force in N moves; this one did not
    ALLOWED_LOSS = "allowed-loss"  # this move lets the opponents win by force in N moves


def cost_words(kind: CostKind, amount: int) -> Text:
    """``amount``: centipawns for ``PAWNS``, else the moves to the forced end."""
    if kind is CostKind.MISSED_WIN:
        return _n("lets a won game slip: misses a forced win in {count} move",
                  "lets a won game slip: misses a forced win in {count} moves", amount)
    if kind is CostKind.ALLOWED_LOSS:
        return _n("allows a forced loss in {count} move",
                  "allows a forced loss in {count} moves", amount)
    return _("costs about {pawns} pawns", pawns=decimal(amount / 100))


def analysed_line(number: int, player: Words, move: Words, better: Words,
                  cost: Words) -> Text:
    """One analysed move: ``number`` is the move's number in the record (1 = the first
    move of the game), ``player`` who played it."""
    return _("move {number}, {player}: {move}; better {better} ({cost})", number=number,
             player=player, move=move, better=better, cost=cost)
