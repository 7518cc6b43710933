"""The Discord notifier has one handler for every event the core announces (issue 37): a
new event without one fails here instead of never reaching Discord."""

from __future__ import annotations

from bot.discordapp.notifier import DiscordNotifier
from tests.event_classes import event_classes, unhandled


def test_every_event_has_a_discord_handler() -> None:
    assert event_classes()
    assert unhandled(DiscordNotifier.handlers.handled()) == []
