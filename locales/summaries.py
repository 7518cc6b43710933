"""The rules of each game in a few sentences: the same words for Discord's ``/rules`` and
the console's (Discord markdown: ``**bold**`` and ``code``; :func:`plain` strips it).

>>> "Red moves first" in rules_summary("xiangqi").render("en-US")
True
>>> plain("**Xiangqi** `h3-e3`")
'Xiangqi h3-e3'
"""

from __future__ import annotations

import rules
from locales.i18n import Text, Words, _, joined
from locales.terms import game_name

SUMMARIES: dict[str, Text] = {
    "alquerque": _(
        "**Alquerque** (BrainKing rules), 2 players on a 5×5 board of points and lines. "
        "White starts. A turn is one move: step along a line forward, diagonally forward "
        "(where a diagonal exists) or sideways onto an empty point; or capture by jumping "
        "an adjacent enemy piece onto the empty point beyond it. Capturing is compulsory "
        "and a capturing piece keeps jumping while it can (later jumps in any direction). "
        "A piece may not return to the point its last move started from. You win when "
        "your opponent has no pieces or no legal move.\n"
        "Moves: `c2-c3`, captures list every landing point: `a1xc3xe1`."),
    "alquerque-grande": _(
        "**Alquerque grande**, 7×7, for 2 or 4 players (4: two teams of facing players, or "
        "everyone for himself in the `fast` and `slow` modes). Four players play the "
        "author's rules: steps along a line in any direction, jumps over opponents' "
        "stones, and the huff: a player who could capture and did not loses the "
        "capturing stone. A team loses when both partners are out of stones or moves. "
        "Two players play the original Alquerque rules on this board by default "
        "(`rules: alquerque`: forward and sideways steps only, compulsory captures, no "
        "huff), or the author's rules with `rules: grande`.\n"
        "Modes (4 players): `teams`: the facing players are partners; a team wins when "
        "the other team has no stone or no move left. `fast`: everyone for himself; the "
        "game ends as soon as one player cannot move or has lost his last stone, and "
        "players are ranked by stones captured. `slow`: everyone for himself; a player "
        "who cannot move is out and play goes on until one is left, the others ranked "
        "by when they went out.\n"
        "Moves: `d2-d3`, captures `b2xd4xf6`."),
    "xiangqi": _(
        "**Xiangqi** (Chinese chess) on 9×10 points with a river and two palaces. Red "
        "moves first. General and advisors stay in the palace, elephants never cross the "
        "river, horses and elephants can be blocked, cannons capture by jumping exactly "
        "one piece, soldiers move sideways after crossing the river. The generals may "
        "never face each other on an open file. A player with no legal move loses "
        "(checkmate or stalemate); perpetual check loses; other repetitions draw.\n"
        "Moves: `h3-e3`, captures `h3xh10`; WXF input like `C2.5` works too."),
    "damas": _(
        "**Spanish draughts** (damas) on the light squares of an 8×8 board. White moves "
        "first. Men move and capture diagonally forward only; kings fly along diagonals. "
        "Capturing is compulsory, and you must take the most pieces, then the most "
        "kings. A man reaching the far rank becomes a king. You win when your opponent "
        "has no pieces or no legal move.\n"
        "Moves: `d3-c4`, captures list every landing square: `f3xd5xf7`."),
    "querni": _(
        "**Querni** on a 10×7 board: each player has stones numbered 1-16. A turn is a "
        "step or a jump sequence (jumped stones stay), a chain removal (three or more own "
        "stones with consecutive numbers, each next to the one before, leave the board), "
        "or a step followed by a removal. A jump sequence never passes over the same cell "
        "twice. You pass only when you can neither move nor remove: Tablero then plays "
        "the pass for you at once and says so. Remove all 16 of your stones to win. "
        "In the `choose` setup both players first arrange their numbers in secret "
        "(`/setup`).\n"
        "Moves: `c2-e4`, removal `r3-5`, both `c2-e4 r3-5`."),
}


def rules_summary(key: str) -> Words:
    """A short summary of a game's rules and its options (Discord markdown)."""
    v = rules.variant(key)
    text: Words = SUMMARIES.get(key) or _("**{game}**", game=game_name(key, v.name))
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
