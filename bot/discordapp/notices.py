"""The person acting hears first: the events a command causes are posted after his reply.

:class:`ReplyFirst` is the service's ``Notifier`` in front of the Discord notifier. Inside
``after_reply()`` the events the service announces are held, and posted in order when the
block ends, also when it ends with an error (what the service stored is still announced).
Outside such a block (the deadline sweep) events go straight through.

>>> import asyncio
>>> class Printer:
...     async def notify(self, event): print("posted", event)
>>> async def command(notices):
...     async with notices.after_reply():
...         await notices.notify("turn")
...         print("replied")
>>> asyncio.run(command(ReplyFirst(Printer())))
replied
posted turn
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from contextvars import ContextVar

from service import Event, Notifier

_held: ContextVar[list[Event] | None] = ContextVar("tablero_held_events", default=None)


class ReplyFirst:
    """Holds a command's events until its reply is out (see the module docstring)."""

    def __init__(self, notifier: Notifier) -> None:
        self._notifier = notifier

    async def notify(self, event: Event) -> None:
        held = _held.get()
        if held is None:
            await self._notifier.notify(event)
        else:
            held.append(event)

    @asynccontextmanager
    async def after_reply(self) -> AsyncIterator[None]:
        held: list[Event] = []
        token = _held.set(held)
        try:
            yield
        finally:
            _held.reset(token)
            for event in held:
                await self._notifier.notify(event)
