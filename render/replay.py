"""Animated GIF replays of a game record: one frame per ply, the last one held; an
analysis's flagged moves framed in red on the replay and gathered on one sheet."""

from __future__ import annotations

import io
import itertools
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from PIL import Image, ImageChops, ImageDraw

from locales.i18n import DEFAULT_LOCALE, Words, _, joined, render
from render.draw import PNG_LEVEL, compose, to_palette
from render.style import CAPTURE_MARK, PAPER
from rules import Position, Variant

FRAME_MS = 900
HOLD_MS = 4000
FLAG_MS = 2500
"""How long a flagged move's frame stays up: long enough to read why it is marked."""
FLAG = CAPTURE_MARK
"""The frame colour of a flagged move (the red of a capture's cross: in every palette)."""


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


def _flag(img: Image.Image) -> None:
    """A red frame round the whole image: this move is one the analysis marks."""
    width = max(4, round(min(img.size) * 0.012))
    ImageDraw.Draw(img).rectangle((0, 0, img.width - 1, img.height - 1), outline=FLAG,
                                  width=width)


def replay_gif(variant: Variant, start: Position, moves: Iterable[Any], *,
               perspective: int = 0, names: Sequence[str] | None = None, size: int = 560,
               frame_ms: int = FRAME_MS, hold_ms: int = HOLD_MS,
               locale: str = DEFAULT_LOCALE,
               flagged: Mapping[int, str] | None = None) -> bytes:
    """The whole game as an animated GIF: the start, then one frame per ply with the
    move highlighted and written in the header; the last frame is held ``hold_ms``.

    ``flagged`` maps plies (1 = the first move) to a short note (an analysis: "lost
    about 3.0 pawns"): those frames get a red frame, the note after the move in the
    header, and stay up ``FLAG_MS``.

    Every frame shares one cached palette, so the GIF has a single global colour table
    and Pillow stores each frame as the small rectangle that changed. Its words are in
    ``locale``.
    """
    flagged = flagged or {}
    frames: list[Image.Image] = []
    durations: list[int] = []
    for ply, (position, marks, before, caption) in enumerate(
            positions(variant, start, moves)):
        note = flagged.get(ply)
        if note is not None and caption is not None:
            caption = joined(caption, note, separator=" — ")
        img, _ = compose(position, last_move=marks, before=before, perspective=perspective,
                         names=names, caption=caption, size=size, locale=locale)
        if note is not None:
            _flag(img)
        frames.append(to_palette(img, position, size))
        durations.append(FLAG_MS if note is not None else frame_ms)
    durations[-1] = max(durations[-1], hold_ms)
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


@dataclass(frozen=True, slots=True)
class RenderedSheet:
    """Several boards side by side as one PNG, with its alt text and size."""

    png: bytes
    alt_text: str
    width: int
    height: int


def flagged_sheet(variant: Variant, start: Position, moves: Iterable[Any],
                  flagged: Mapping[int, str], *, perspective: int = 0,
                  names: Sequence[str] | None = None, size: int = 400,
                  columns: int = 3, locale: str = DEFAULT_LOCALE) -> RenderedSheet:
    """The positions right after each flagged ply (see :func:`replay_gif`), each with
    its move drawn, the note in its header and a red frame, in ply order on one sheet
    of up to ``columns`` boards a row. ``flagged`` must name at least one ply of the
    record; the alt text lists the flagged moves and their notes (and nothing else, so
    the caller can put a heading in its reader's language before it).
    """
    frames = positions(variant, start, moves)
    wanted = sorted(ply for ply in flagged if 0 < ply < len(frames))
    if not wanted:
        raise ValueError("no flagged ply is a move of this record")
    boards: list[Image.Image] = []
    lines: list[str] = []
    for ply in wanted:
        position, marks, before, caption = frames[ply]
        text = joined(caption, flagged[ply], separator=" — ")
        img, _ = compose(position, last_move=marks, before=before, perspective=perspective,
                         names=names, caption=text, size=size, locale=locale)
        _flag(img)
        boards.append(img)
        lines.append(render(text, locale))
    gap = max(6, size // 40)
    cols = min(columns, len(boards))
    rows = (len(boards) + cols - 1) // cols
    w = max(b.width for b in boards)
    h = max(b.height for b in boards)
    sheet = Image.new("RGB", (cols * w + (cols + 1) * gap, rows * h + (rows + 1) * gap), PAPER)
    for i, board in enumerate(boards):
        r, c = divmod(i, cols)
        sheet.paste(board, (gap + c * (w + gap), gap + r * (h + gap)))
    buf = io.BytesIO()
    sheet.save(buf, "PNG", optimize=False, compress_level=PNG_LEVEL)
    alt = "; ".join(lines)[:1000]  # the caller adds a heading in its reader's words
    return RenderedSheet(buf.getvalue(), alt, sheet.width, sheet.height)


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
