"""Point names, tolerant move-text tokenising, and matching input against legal moves.

Every game names points ``<file><rank>`` (``a1`` = (0, 0), seat 0's bottom left), so the
helpers here serve all of them.

>>> point_name(7, 2)
'h3'
>>> parse_point("H10", width=9, height=10)
(7, 9)
>>> tokenize("H3 - e3")
MoveText(points=('h3', 'e3'), separators=('-',))
>>> tokenize("f3:d5:f7").separators
('x', 'x')
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import TypeVar

from rules.core import AmbiguousMoveError, NotationError, detail

FILES = "abcdefghijklmnopqrstuvwxyz"
MAX_INPUT = 200  # longer move text is refused outright: no legal move is that long

Point = tuple[int, int]
M = TypeVar("M")


def point_name(x: int, y: int) -> str:
    """``(x, y)`` -> ``'a1'``-style name (0-based x and y)."""
    return f"{FILES[x]}{y + 1}"


def parse_point(token: str, *, width: int, height: int) -> Point:
    """``'c3'`` -> ``(2, 2)``; case and surrounding space are ignored.

    Raises NotationError naming the token when it is not a point of a width x height board.
    """
    raw = token
    token = token.strip().lower()
    m = _POINT.fullmatch(token)
    if not m:
        raise NotationError(detail("not_a_point", input=raw.strip()), text=raw)
    x = ord(m.group(1)) - ord("a")
    y = int(m.group(2)) - 1
    if not (0 <= x < width and 0 <= y < height):
        last = point_name(width - 1, height - 1)
        raise NotationError(detail("off_board", point=token, last=last), text=raw)
    return x, y


_POINT = re.compile(r"([a-z])(\d{1,2})")
_SEPARATORS = {"-": "-", "x": "x", ":": "x", "*": "x", "×": "x", "–": "-", "—": "-"}


@dataclass(frozen=True, slots=True)
class MoveText:
    """Move text split into point tokens and the separators between them.

    ``separators[i]`` sits between ``points[i]`` and ``points[i+1]``: ``'-'`` (a plain
    move), ``'x'`` (a capture; ``:`` is read as ``x``) or ``''`` (written together,
    as in ``h3e3``).
    """

    points: tuple[str, ...]
    separators: tuple[str, ...]

    @property
    def is_capture(self) -> bool:
        return "x" in self.separators


DASHES = dict.fromkeys(map(ord, "\u2010\u2011\u2012\u2013\u2014\u2015\u2212\ufe58\ufe63"),
                       "-")
"""The dash family (hyphens, figure dash, en and em dashes, horizontal bar, minus) that
NFKC leaves alone: each reads as ``-``."""


def normalize(text: str) -> str:
    """The one place move text is made uniform for every game: NFKC (full-width letters
    and digits, ``：``, ``－`` become ASCII), the dash family read as ``-``, lowercased
    and stripped; absurdly long input is refused (it cannot be a move).

    >>> normalize(" ＨＳ３\u2010ｅ３ "), normalize("h3\u2212e3"), normalize("Ｃ２．５")
    ('hs3-e3', 'h3-e3', 'c2.5')
    """
    if len(text) > MAX_INPUT:
        raise NotationError(detail("move_too_long", length=len(text)), text=text[:MAX_INPUT])
    return unicodedata.normalize("NFKC", text).translate(DASHES).strip().lower()


def tokenize(text: str) -> MoveText:
    """Split ``'a1xc3xe1'``, ``'h3 - e3'``, ``'H3E3'``, ``'f3:d5:f7'`` into points.

    Raises NotationError when the text is not a sequence of at least two point names
    joined by ``-``, ``x``, ``:`` or nothing.
    """
    s = normalize(text)
    points: list[str] = []
    separators: list[str] = []
    i = 0
    pending = ""
    n = len(s)
    while i < n:
        c = s[i]
        if c.isspace():
            i += 1
            continue
        # 'x' is never a file letter here (no board is 24 files wide): always a capture mark
        if points and c in _SEPARATORS:
            if pending:
                raise NotationError(detail("two_separators", input=text.strip()), text=text)
            pending = _SEPARATORS[c]
            i += 1
            continue
        m = _POINT.match(s, i)
        if not m:
            raise NotationError(detail("not_point_move", input=text.strip()), text=text)
        if points:
            separators.append(pending)
        pending = ""
        points.append(f"{m.group(1)}{int(m.group(2))}")
        i = m.end()
    if pending:
        raise NotationError(detail("ends_with_separator", input=text.strip()), text=text)
    if len(points) < 2:
        raise NotationError(detail("one_point_move", input=text.strip()), text=text)
    return MoveText(tuple(points), tuple(separators))


def resolve(text: str, legal: Iterable[M], *, matches: Callable[[M], bool],
            format_move: Callable[[M], str]) -> M | None:
    """The single legal move that ``matches``; ``None`` when none does.

    Raises AmbiguousMoveError listing the canonical strings when several match, so the
    player learns exactly what to type.
    """
    found = [m for m in legal if matches(m)]
    if not found:
        return None
    if len(found) > 1:
        names = sorted(format_move(m) for m in found)
        raise AmbiguousMoveError(detail("ambiguous_move", input=text.strip(),
                                        moves=tuple(names)), text=text, candidates=names)
    return found[0]


def path_matches(written: Sequence[Point], path: Sequence[Point]) -> bool:
    """Whether written points name a move whose visited points are ``path``.

    Either every point is written (``a1xc3xe1``), or only start and end (``a1xe1``),
    which callers accept when it leaves exactly one candidate.
    """
    if len(written) == len(path):
        return tuple(written) == tuple(path)
    return len(written) == 2 and written[0] == path[0] and written[-1] == path[-1]


def or_list(items: Sequence[str]) -> str:
    """``['a', 'b', 'c']`` -> ``'a, b or c'`` for error messages."""
    if len(items) == 1:
        return items[0]
    return ", ".join(items[:-1]) + " or " + items[-1]
