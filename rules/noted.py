"""Reading a typed move that carries a note copied from a post (what
:meth:`rules.Variant.parse_noted_move` tries): the shorter readings of the text, and the
loose comparison of what people type. Plain text helpers, below the core (which builds
the errors that name a game), so the core imports them rather than holding them.
"""

from __future__ import annotations

_NOTE_START = "("


def note_heads(text: str) -> list[str]:
    """Shorter readings of a typed move that may carry a copied note (see
    :meth:`rules.Variant.parse_noted_move`): the text before its first ``(``, then the
    text with trailing words dropped one at a time.

    >>> note_heads("b7-a8 (28-32) crowned"), note_heads("b7-a8 crowned")
    (['b7-a8'], ['b7-a8'])
    """
    heads: list[str] = []
    stripped = text.strip()
    if _NOTE_START in stripped:
        head = stripped.split(_NOTE_START, 1)[0].strip()
        if head:
            heads.append(head)
    words = stripped.split()
    for n in range(len(words) - 1, 0, -1):
        head = " ".join(words[:n])
        if head not in heads and _NOTE_START not in head:
            heads.append(head)
    return heads


def squash(text: str) -> str:
    """Lowercase without any white space, to compare what people type loosely.

    >>> squash(" H3-e3 (C2.5) ")
    'h3-e3(c2.5)'
    """
    return "".join(text.lower().split())
