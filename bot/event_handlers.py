"""One handler per event class: how an adapter (the console's printer, the Discord notifier)
turns each of the core's events (``service.events``) into what people see.

An adapter keeps one :class:`EventHandlers` table, filled once as its class body is read
by decorating one small method per event (``@handlers.on(TurnStarted)``), and hands every
event to :meth:`EventHandlers.handle`. mypy checks that each method takes the event
class it is registered for; the adapters' tests check that every event has one, so a new
event cannot be dropped in silence.

>>> import asyncio
>>> from service.events import DrawOffered, TurnStarted
>>> class Teller:
...     handlers = EventHandlers()
...     @handlers.on(DrawOffered)
...     async def draw_offered(self, event: DrawOffered) -> None:
...         print(f"{event.by} offers a draw")
>>> Teller.handlers.handled() == {DrawOffered}
True
>>> asyncio.run(Teller.handlers.handle(Teller(), DrawOffered(match=None, by=7)))
7 offers a draw
>>> asyncio.run(Teller.handlers.handle(Teller(), TurnStarted(None, (), None)))
Traceback (most recent call last):
TypeError: Teller has no handler for TurnStarted
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any, Generic, TypeVar

from service.events import Event

Owner = TypeVar("Owner")
E = TypeVar("E", bound=Event)


class EventHandlers(Generic[Owner]):
    """A table from event class to the ``Owner`` method that handles it (a class
    attribute of ``Owner``)."""

    def __init__(self) -> None:
        self.owner = "?"  # the adapter's name, for the error when an event has no handler
        self._by_class: dict[type[object], Callable[[Owner, Any], Awaitable[None]]] = {}

    def __set_name__(self, owner: type[Any], name: str) -> None:
        self.owner = owner.__name__

    def on(self, kind: type[E]) -> Callable[[Callable[[Owner, E], Awaitable[None]]],
                                            Callable[[Owner, E], Awaitable[None]]]:
        """Register the decorated method as the handler of ``kind`` (once per class)."""
        def register(handler: Callable[[Owner, E], Awaitable[None]]
                     ) -> Callable[[Owner, E], Awaitable[None]]:
            if kind in self._by_class:
                raise TypeError(f"{self.owner} handles {kind.__name__} twice")
            self._by_class[kind] = handler
            return handler
        return register

    def handled(self) -> frozenset[type[object]]:
        """The event classes that have a handler."""
        return frozenset(self._by_class)

    async def handle(self, owner: Owner, event: Event) -> None:
        """Run ``owner``'s handler of ``event``'s class."""
        handler = self._by_class.get(type(event))
        if handler is None:
            raise TypeError(f"{self.owner} has no handler for {type(event).__name__}")
        await handler(owner, event)
