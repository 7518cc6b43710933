"""Rules summaries, the start-position picture for ``/rules`` and replay GIFs.

Pictures come from ``render`` when it is installed with the functions used here; without
them the commands answer with text only (the service works without a renderer too).
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import rules
from bot.service import MatchService, NameResolver
from bot.service.views import GameRecord

log = logging.getLogger("tablero.discord")

SUMMARIES = {
    "alquerque": (
        "**Alquerque** (BrainKing rules), 2 players on a 5×5 board of points and lines. "
        "White starts. A turn is one move: step along a line forward, diagonally forward "
        "(where a diagonal exists) or sideways onto an empty point; or capture by jumping "
        "an adjacent enemy piece onto the empty point beyond it. Capturing is compulsory "
        "and a capturing piece keeps jumping while it can (later jumps in any direction). "
        "A piece may not return to the point its last move started from. You win when "
        "your opponent has no pieces or no legal move.\n"
        "Moves: `c2-c3`, captures list every landing point: `a1xc3xe1`."),
    "alquerque-grande": (
        "**Alquerque grande**, 7×7, for 2 or 4 players (4: two teams of facing players, or "
        "everyone for himself in the `fast` and `slow` modes). Four players play the "
        "author's rules: steps along a line in any direction, jumps over opponents' "
        "stones, and the huff: a player who could capture and did not loses the "
        "capturing stone. A team loses when both partners are out of stones or moves. "
        "Two players play the original Alquerque rules on this board by default "
        "(`rules: alquerque`: forward and sideways steps only, compulsory captures, no "
        "huff), or the author's rules with `rules: grande`.\n"
        "Moves: `d2-d3`, captures `b2xd4xf6`."),
    "xiangqi": (
        "**Xiangqi** (Chinese chess) on 9×10 points with a river and two palaces. Red "
        "moves first. General and advisors stay in the palace, elephants never cross the "
        "river, horses and elephants can be blocked, cannons capture by jumping exactly "
        "one piece, soldiers move sideways after crossing the river. The generals may "
        "never face each other on an open file. A player with no legal move loses "
        "(checkmate or stalemate); perpetual check loses; other repetitions draw.\n"
        "Moves: `h3-e3`, captures `h3xh10`; WXF input like `C2.5` works too."),
    "damas": (
        "**Spanish draughts** (damas) on the light squares of an 8×8 board. White moves "
        "first. Men move and capture diagonally forward only; kings fly along diagonals. "
        "Capturing is compulsory, and you must take the most pieces, then the most "
        "kings. A man reaching the far rank becomes a king. You win when your opponent "
        "has no pieces or no legal move.\n"
        "Moves: `d3-c4`, captures list every landing square: `f3xd5xf7`."),
    "querni": (
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


def rules_summary(key: str) -> str:
    """A short summary of a game's rules, for ``/rules``."""
    v = rules.variant(key)
    text = SUMMARIES.get(key, f"**{v.name}**")
    options = ", ".join(f"`{name}`: {' / '.join(map(str, vals)) or 'free'}"
                        for name, vals in v.options.items())
    return text + (f"\nOptions: {options}." if options else "")


def _render_module() -> Any:
    try:
        import render
    except ImportError:  # pragma: no cover - render is part of the distribution
        return None
    return render


async def start_picture(key: str, seats: int | None = None) -> tuple[bytes, str] | None:
    """A PNG of the start position (of the first menu option set with ``seats`` seats,
    else the default one) and its alt text, or None without a renderer."""
    render = _render_module()
    if render is None or not hasattr(render, "draw_board"):
        return None
    v = rules.variant(key)
    options = next((o for o in v.option_sets() if v.seat_count(**o) == seats), {})
    try:
        board = await asyncio.to_thread(render.draw_board, v.start(**options), perspective=0)
    except Exception:
        log.exception("could not draw the start position of %s", key)
        return None
    return bytes(board.png), str(board.alt_text)


async def replay_gif(service: MatchService, match_id: int,
                     name_of: NameResolver | None = None) -> bytes | None:
    """An animated replay of the match's record (``service.record``), players named by
    ``name_of(guild_id, user_id)``; None without a renderer."""
    if _render_module() is None:
        return None
    try:
        record = await service.record(match_id)
    except Exception:
        log.exception("could not read the record of match %s", match_id)
        return None
    return await replay_gif_of(record, name_of)


async def replay_gif_of(record: GameRecord,
                        name_of: NameResolver | None = None) -> bytes | None:
    """An animated replay of a replayed record (``GameRecord``), players named by
    ``name_of(guild_id, user_id)``; None without a renderer."""
    render = _render_module()
    if render is None or not hasattr(render, "replay_gif"):
        return None
    try:
        names: list[str] = []
        if name_of is not None:
            names = [(name_of(record.match.guild_id, s.user_id) if s.user_id else "")
                     or s.name for s in record.match.seats]
        # Moves as the service parsed them (a Querni arrangement carries its seat); a seat
        # leaving a 4-player game that went on is the position it left behind.
        frames: list[Any] = []
        previous = record.start
        for ply in record.plies:
            if ply.move is not None:
                frames.append(ply.move)
            elif ply.position is not previous:
                frames.append(ply.position)
            previous = ply.position
        return bytes(await asyncio.to_thread(render.replay_gif, record.variant,
                                             record.start, frames,
                                             names=names or None))
    except Exception:
        log.exception("could not draw the replay of match %s", record.match.id)
        return None
