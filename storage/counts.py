"""What a repository stored and refused since it opened, for the operator's metrics
(``bot.ops.metrics`` reads them at each scrape; nothing here is stored in the database).

>>> from datetime import UTC, datetime
>>> from service.records import RecordEntry
>>> counts = MoveCounts()
>>> at = datetime(2026, 1, 1, tzinfo=UTC)
>>> counts.stored("damas", [RecordEntry(4, 0, "c3-d4", 1, at),
...                         RecordEntry(5, None, "#draw-offer", None, at)])
>>> dict(counts.moves_stored)
{'damas': 1}
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from service.records import SPECIAL_PREFIX, RecordEntry


class MoveCounts:
    """Moves stored by game (a record's special entries are not moves)."""

    def __init__(self) -> None:
        self.moves_stored: Counter[str] = Counter()

    def stored(self, game: str, entries: Iterable[RecordEntry]) -> None:
        """``entries`` of a match of ``game`` were committed."""
        n = sum(1 for e in entries if not e.text.startswith(SPECIAL_PREFIX))
        if n:
            self.moves_stored[game] += n
