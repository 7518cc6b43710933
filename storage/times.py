"""Times as the SQL stores keep them: UTC epoch seconds (8-byte floats, so they compare as
numbers), and back.

>>> from datetime import UTC, datetime
>>> when = datetime(2026, 11, 29, 8, 0, tzinfo=UTC)
>>> epoch(when), moment(epoch(when)) == when, epoch(None), moment(None)
(1795939200.0, True, None, None)
"""

from __future__ import annotations

from datetime import UTC, datetime


def epoch(value: datetime | None) -> float | None:
    """``value`` as UTC epoch seconds (None stays None)."""
    return None if value is None else value.timestamp()


def moment(value: float | None) -> datetime | None:
    """UTC epoch seconds as an aware datetime (None stays None)."""
    return None if value is None else datetime.fromtimestamp(value, UTC)
