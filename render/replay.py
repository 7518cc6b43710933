"""Animated GIF replays of a game record: one frame per ply, the last one held."""

from __future__ import annotations

import io
import itertools
from collections.abc import Iterable, Sequence
from typing import Any

from PIL import Image, ImageChops

from locales.i18n import DEFAULT_LOCALE, Words, _
from render.draw import compose, to_palette
from rules import Position, Variant

FRAME_MS = 900
HOLD_MS = 4000


def positions(variant: Variant, start: Position, moves: Iterable[Any]
              ) -> list[tuple[Position, Any, Position | None, Words | None]]:
    """``(position, marks, position before, caption)`` for the start and after each move.

    ``moves`` are Move objects or move strings (canonical or any accepted input); strings
    are read with ``variant.parse_move`` in the position they are played from. (A Querni
    ``choose`` setup submission names no seat, so while both seats are pending pass it as
    the game's ``Arrangement`` object, which carries its seat.) A ``Position`` entry is
    the position reached without a move (a seat resigned or timed out of a 4-player game
    that went on); it is shown unmarked.
    """
    frames: list[tuple[Position, Any, Position | None, Words | None]] = [
        (start, None, None, None)]
    p = start
    for ply, move in enumerate(moves, 1):
        if isinstance(move, Position):  # reached without a move: a seat left the game
            frames.append((move, None, None, _("{ply}. a player is out", ply=ply)))
            p = move
            continue
        m = variant.parse_move(p, move) if isinstance(move, str) else move
        marks = variant.move_marks(p, m)
        caption = (_("{ply}. arrangement handed in", ply=ply) if p.in_setup
                   else f"{ply}. {variant.display_move(p, m)}")
        after = p.play(m)
        frames.append((after, marks, p, caption))
        p = after
    return frames


def replay_gif(variant: Variant, start: Position, moves: Iterable[Any], *,
               perspective: int = 0, names: Sequence[str] | None = None, size: int = 560,
               frame_ms: int = FRAME_MS, hold_ms: int = HOLD_MS,
               locale: str = DEFAULT_LOCALE) -> bytes:
    """The whole game as an animated GIF: the start, then one frame per ply with the
    move highlighted and written in the header; the last frame is held ``hold_ms``.

    Every frame shares one cached palette, so the GIF has a single global colour table
    and Pillow stores each frame as the small rectangle that changed. Its words are in
    ``locale``.
    """
    frames: list[Image.Image] = []
    for position, marks, before, caption in positions(variant, start, moves):
        img, _ = compose(position, last_move=marks, before=before, perspective=perspective,
                         names=names, caption=caption, size=size, locale=locale)
        frames.append(to_palette(img, position, size))
    durations = [frame_ms] * (len(frames) - 1) + [hold_ms]
    palette = frames[0].getpalette() or []
    clear = len(palette) // 3  # one extra entry, used by no drawing, marks "unchanged"
    palette = [*palette, 255, 0, 255]
    for f in frames:
        f.putpalette(palette)
    frames = [frames[0]] + [_changes_only(a, b, clear)
                            for a, b in itertools.pairwise(frames)]
    buf = io.BytesIO()
    frames[0].save(buf, "GIF", save_all=True, append_images=frames[1:], duration=durations,
                   loop=0, optimize=False, disposal=1, transparency=clear)
    return buf.getvalue()


def _changes_only(previous: Image.Image, frame: Image.Image, clear: int) -> Image.Image:
    """``frame`` with every pixel equal to ``previous`` set to the transparent index
    ``clear`` (the previous frame stays on screen under it), which LZW compresses to
    almost nothing."""
    a = Image.frombytes("L", previous.size, previous.tobytes())
    b = Image.frombytes("L", frame.size, frame.tobytes())
    changed = ImageChops.difference(a, b).point(lambda v: 255 if v else 0)
    out = Image.new("P", frame.size, clear)
    out.putpalette(frame.getpalette() or [])
    out.paste(frame, (0, 0), changed)
    out.info["transparency"] = clear
    return out
