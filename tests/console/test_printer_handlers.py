"""The console's printer has one handler for every event the core announces (issue 37):
a new event without one fails here instead of printing nothing."""

from __future__ import annotations

import io

import pytest

from bot.console.printer import ConsolePrinter
from service.events import SeasonBoard, TurnStarted
from tests.event_classes import event_classes, unhandled


def test_every_event_has_a_console_handler() -> None:
    handled = ConsolePrinter.handlers.handled()
    assert unhandled(handled) == []
    # the check itself: one handler fewer is named
    assert unhandled(handled - {TurnStarted}) == ["no handler: TurnStarted"]
    assert TurnStarted in event_classes()


async def test_an_event_without_a_handler_is_refused_not_dropped() -> None:
    printer = ConsolePrinter(io.StringIO())
    with pytest.raises(TypeError, match="ConsolePrinter has no handler for SeasonBoard"):
        # a SeasonBoard is part of an event, not one
        await ConsolePrinter.handlers.handle(printer, SeasonBoard("xiangqi", 0, ()))
