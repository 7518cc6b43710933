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
from locales.terms import seat_colour
from render.draw import PNG_LEVEL, compose, draw_arrow, to_palette
from render.style import CAPTURE_MARK, INK, PAPER, RGB, drawn_words, font
from rules import Position, Variant

FRAME_MS = 900
HOLD_MS = 4000
LONGEST_MS = 90_000
"""About the longest a replay's moves play for: a long game's frames go faster, down to
``FASTEST_MS`` each (at 900 ms a 190-ply game played for nearly three minutes)."""
FASTEST_MS = 450
FLAG_MS = 2500
"""How long a flagged move's frame stays up: long enough to read why it is marked."""
FLAG = CAPTURE_MARK
"""The frame colour of a flagged move (the red of a capture's cross: in every palette)."""


@dataclass(frozen=True, slots=True)
class SeatLeft:
    """A record entry that is no move: seat ``seat`` left a four-player game that went
    on, leaving ``position``; ``how`` it left: ``"resign"``, ``"timeout"`` (out of time,
    out of the game) or ``"skip"`` (out of time, its turns skipped from then on)."""

    position: Position
    seat: int
    how: str


def _left_caption(variant: Variant, before: Position, entry: SeatLeft | Position,
                  ply: int) -> Words:
    """The caption of a frame reached without a move: which seat left and how, as the
    other frames say which move was played. The seat by its colour: the header's chips
    name its player beside it, and a long name would push the "how" out of the line. A
    bare ``Position`` does not say how: the seat that went out is found on the board,
    "skipped" when the rules skip it."""
    after = entry.position if isinstance(entry, SeatLeft) else entry
    if isinstance(entry, SeatLeft):
        seat, how = entry.seat, entry.how
    else:
        gone = sorted(after.out_seats() - before.out_seats())
        if not gone:
            return _("{ply}. a player is out", ply=ply)
        seat = gone[0]
        how = "skip" if seat in after.skipped_seats() else "out"
    who = seat_colour(variant.seat_name(seat, after.seat_count))
    said: Words
    if how == "resign":
        said = _("{seat} resigns", seat=who)
    elif how == "timeout":
        said = _("{seat} ran out of time", seat=who)
    elif how == "skip":
        # TRANSLATORS: a replay frame's caption, after the ply's number: a player's time
        # ran out in a four-player game that goes on without him, his turns skipped
        # from then on
        said = _("{seat} is skipped", seat=who)
    else:
        said = _("{seat} is out", seat=who)
    return joined(f"{ply}. ", said, separator="")


def positions(variant: Variant, start: Position, moves: Iterable[Any]
              ) -> list[tuple[Position, Any, Position | None, Words | None]]:
    """``(position, marks, position before, caption)`` for the start and after each move.

    ``moves`` are Move objects or move strings (canonical or any accepted input); strings
    are read with ``variant.parse_move`` in the position they are played from. (A Querni
    ``choose`` setup submission names no seat, so while both seats are pending pass it as
    the game's ``Arrangement`` object, which carries its seat.) A ``SeatLeft`` entry is
    a seat leaving a 4-player game that went on (resigned, out of time or skipped), a
    bare ``Position`` the position so reached; either is shown unmarked, its caption
    saying which seat left and how.
    """
    frames: list[tuple[Position, Any, Position | None, Words | None]] = [
        (start, None, None, None)]
    p = start
    for ply, move in enumerate(moves, 1):
        if isinstance(move, SeatLeft | Position):  # reached without a move: a seat left
            after = move.position if isinstance(move, SeatLeft) else move
            frames.append((after, None, None, _left_caption(variant, p, move, ply)))
            p = after
            continue
        m = variant.parse_move(p, move) if isinstance(move, str) else move
        marks = variant.move_marks(p, m)
        caption = (_("{ply}. arrangement handed in", ply=ply) if p.in_setup
                   else f"{ply}. {variant.display_move(p, m)}")
        after = p.play(m)
        frames.append((after, marks, p, caption))
        p = after
    return frames


NOTE_LINES = 4
"""The most lines an analysis note may take below its board (a longer one is shrunk)."""


def _wrap(text: str, f: Any, width: float) -> list[str]:
    """``text`` in lines no wider than ``width``: broken at spaces, and inside a word
    only when the word alone is too wide (Chinese has no spaces)."""
    lines: list[str] = []
    line = ""
    for word in text.split(" "):
        trial = f"{line} {word}" if line else word
        if f.getlength(trial) <= width:
            line = trial
            continue
        if line:
            lines.append(line)
        line = ""
        for ch in word:
            if line and f.getlength(line + ch) > width:
                lines.append(line)
                line = ""
            line += ch
    if line:
        lines.append(line)
    return lines


def _note_layout(text: str, width: int, size: int) -> tuple[int, list[str]]:
    """The font size and lines of a note drawn ``width`` wide: the whole text on at
    most ``NOTE_LINES`` lines, shrinking the font as far as needed, never cut."""
    px = max(8, round(size * 0.03))
    while True:
        lines = _wrap(text, font("regular", px), width)
        if len(lines) <= NOTE_LINES or px <= 8:
            return px, lines
        px -= 1


def _note_height(notes: Iterable[str], width: int, size: int) -> int:
    """The height of a band holding the tallest of ``notes``."""
    tallest = 0
    for text in notes:
        px, lines = _note_layout(text, width, size)
        tallest = max(tallest, round(len(lines) * px * 1.3))
    return tallest + 2 * max(4, size // 60) if tallest else 0


def _with_note(img: Image.Image, text: str | None, band: int, size: int) -> Image.Image:
    """``img`` with a band ``band`` high below it, holding ``text`` whole (the analysis
    note: a caption in the header would be cut before its figure in a 4-player
    header)."""
    if band <= 0:
        return img
    out = Image.new("RGB", (img.width, img.height + band), PAPER)
    out.paste(img, (0, 0))
    if text:
        pad = max(4, size // 60)
        px, lines = _note_layout(text, img.width - 4 * pad, size)
        f = font("regular", px)
        draw = ImageDraw.Draw(out)
        for i, line in enumerate(lines):
            draw.text((2 * pad, img.height + pad + round(i * px * 1.3)), line, font=f,
                      fill=INK)
    return out


def _flag(img: Image.Image) -> None:
    """A red frame round the whole image: this move is one the analysis marks."""
    width = max(4, round(min(img.size) * 0.012))
    ImageDraw.Draw(img).rectangle((0, 0, img.width - 1, img.height - 1), outline=FLAG,
                                  width=width)


def frame_time(plies: int) -> int:
    """How long each move's frame of a replay of ``plies`` moves stays up: ``FRAME_MS``,
    less in a game long enough to play for more than ``LONGEST_MS``, never under
    ``FASTEST_MS``.

    >>> frame_time(40), frame_time(150), frame_time(400)
    (900, 600, 450)
    """
    return max(FASTEST_MS, min(FRAME_MS, LONGEST_MS // max(1, plies)))


def replay_gif(variant: Variant, start: Position, moves: Iterable[Any], *,
               perspective: int = 0, names: Sequence[str] | None = None, size: int = 560,
               frame_ms: int | None = None, hold_ms: int = HOLD_MS,
               locale: str = DEFAULT_LOCALE,
               flagged: Mapping[int, Words] | None = None) -> bytes:
    """The whole game as an animated GIF: the start, then one frame per ply with the
    move highlighted and written in the header, each up ``frame_ms`` (by default
    :func:`frame_time`: faster in a long game); the last frame is held ``hold_ms``.

    ``flagged`` maps plies (1 = the first move) to a note (an analysis: "move 12,
    alice: c3-d4; better b2-c3 (costs about 3.0 pawns)"): those frames get a red frame,
    the note whole in a band below the board (every frame has the band, so the GIF keeps
    one size), and stay up ``FLAG_MS``.

    Every frame shares one cached palette, so the GIF has a single global colour table
    and Pillow stores each frame as the small rectangle that changed. Its words are in
    ``locale``.
    """
    notes = {ply: drawn_words(note, locale) for ply, note in (flagged or {}).items()}
    frames: list[Image.Image] = []
    band = -1
    for ply, (position, marks, before, caption) in enumerate(
            positions(variant, start, moves)):
        note = notes.get(ply)
        img, _ = compose(position, last_move=marks, before=before, perspective=perspective,
                         names=names, caption=caption, size=size, locale=locale)
        if band < 0:
            band = _note_height(notes.values(), img.width - 4 * max(4, size // 60), size)
        img = _with_note(img, note, band, size)
        if note is not None:
            _flag(img)
        frames.append(to_palette(img, position, size))
    pace = frame_time(len(frames) - 1) if frame_ms is None else frame_ms
    durations = [FLAG_MS if ply in notes else pace for ply in range(len(frames))]
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


PLAYED_ARROW: RGB = (226, 112, 20)
"""The arrow of the move played (orange: not the red of a capture's cross)."""
BETTER_ARROW: RGB = (30, 110, 210)
"""The arrow of the better move (blue: beside the orange one, a green read as the same
olive by protanopes and deuteranopes, and faded into the boards' wood)."""


def _legend(width: int, size: int, locale: str) -> Image.Image:
    """A strip below the boards saying which arrow is which."""
    px = max(10, round(size * 0.035))
    pad = max(6, size // 40)
    f = font("regular", px)
    items = [(colour, drawn_words(words, locale)) for colour, words in (
        (PLAYED_ARROW, _("the move played")), (BETTER_ARROW, _("the better move")))]
    widths = [round(4 * px + f.getlength(text) + 3 * pad) for _c, text in items]
    stacked = 2 * pad + sum(widths) > width  # one board wide: one item a line
    line_h = round(px * 2.2)
    strip = Image.new("RGB", (width, line_h * (len(items) if stacked else 1)), PAPER)
    dr = ImageDraw.Draw(strip)
    x, y = 2 * pad, line_h // 2
    for (colour, text), item_w in zip(items, widths, strict=True):
        dr.line((x, y, x + 3 * px, y), fill=colour, width=max(3, px // 3))
        dr.polygon([(x + 3 * px + px // 2, y), (x + 3 * px - px // 4, y - px // 2),
                    (x + 3 * px - px // 4, y + px // 2)], fill=colour)
        dr.text((x + 4 * px, y), text, font=f, fill=INK, anchor="lm")
        if stacked:
            y += line_h
        else:
            x += item_w
    return strip


def flagged_sheet(variant: Variant, start: Position, moves: Iterable[Any],
                  flagged: Mapping[int, Words], *, perspective: int = 0,
                  names: Sequence[str] | None = None, size: int = 400,
                  columns: int = 3, locale: str = DEFAULT_LOCALE,
                  better: Mapping[int, Any] | None = None) -> RenderedSheet:
    """The positions right after each flagged ply (see :func:`replay_gif`), each with
    its move drawn, the note whole below it and a red frame, in ply order on one sheet
    of up to ``columns`` boards a row. ``flagged`` must name at least one ply of the
    record; the alt text lists the notes (and nothing else, so the caller can put a
    heading in its reader's language before it).

    ``better`` (an analysis's better moves, by flagged ply; issue 42): each flagged
    board is then the position the move was played from, with the move played drawn as
    an orange arrow and the better move (a Move object or its text) as a blue one,
    and a legend below the sheet.
    """
    frames = positions(variant, start, moves)
    wanted = sorted(ply for ply in flagged if 0 < ply < len(frames))
    if not wanted:
        raise ValueError("no flagged ply is a move of this record")
    boards: list[Image.Image] = []
    lines: list[str] = []
    for ply in wanted:
        position, marks, before, caption = frames[ply]
        note = drawn_words(flagged[ply], locale)
        if better is not None and before is not None and marks is not None:
            alternative = better.get(ply)
            if isinstance(alternative, str):
                alternative = variant.parse_move(before, alternative)
            # the position the move was played from: the note below says which move
            img, lay = compose(before, perspective=perspective, names=names, size=size,
                               locale=locale)
            if alternative is not None:
                draw_arrow(img, lay, variant.move_marks(before, alternative).path,
                       BETTER_ARROW)
            draw_arrow(img, lay, marks.path, PLAYED_ARROW)
        else:
            img, _ = compose(position, last_move=marks, before=before,
                             perspective=perspective, names=names, caption=caption,
                             size=size, locale=locale)
        img = _with_note(img, note, _note_height([note], img.width - 4 * max(4, size // 60),
                                                 size), size)
        _flag(img)
        boards.append(img)
        lines.append(render(flagged[ply], locale))
    gap = max(6, size // 40)
    cols = min(columns, len(boards))
    rows = (len(boards) + cols - 1) // cols
    w = max(b.width for b in boards)
    h = max(b.height for b in boards)
    sheet = Image.new("RGB", (cols * w + (cols + 1) * gap, rows * h + (rows + 1) * gap), PAPER)
    for i, board in enumerate(boards):
        r, c = divmod(i, cols)
        sheet.paste(board, (gap + c * (w + gap), gap + r * (h + gap)))
    if better is not None:
        legend = _legend(sheet.width, size, locale)
        framed = Image.new("RGB", (sheet.width, sheet.height + legend.height), PAPER)
        framed.paste(sheet, (0, 0))
        framed.paste(legend, (0, sheet.height - gap // 2))
        sheet = framed
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
