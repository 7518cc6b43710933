"""Every concrete event the core announces (``service.events``), for the tests that check
an adapter has a handler for each (the console's printer, the Discord notifier).

The union ``service.events.Event`` names them; a class of the module that carries a
``match`` (what every event does) but is missing from the union fails here too, so an
event added to the module alone is not missed.
"""

from __future__ import annotations

import dataclasses
import inspect
from typing import get_args

from service import events


def event_classes() -> frozenset[type[object]]:
    """The event classes of ``service.events`` (checked against the module's classes)."""
    named: frozenset[type[object]] = frozenset(get_args(events.Event))
    carrying_a_match = {
        cls for _, cls in inspect.getmembers(events, inspect.isclass)
        if cls.__module__ == events.__name__ and dataclasses.is_dataclass(cls)
        and "match" in {f.name for f in dataclasses.fields(cls)}}
    missing = sorted(c.__name__ for c in carrying_a_match - named)
    assert not missing, f"events not in the union service.events.Event: {missing}"
    return named


def unhandled(handled: frozenset[type[object]]) -> list[str]:
    """The events without a handler, and the handlers of a class that is no event."""
    every = event_classes()
    return sorted([f"no handler: {c.__name__}" for c in every - handled]
                  + [f"not an event: {c.__name__}" for c in handled - every])
