"""The local console: the match service over SQLite in a terminal, one person playing
several users, split the way the Discord adapter's cogs are:

* ``session``: the reader of lines (who speaks, which match a command means, one line run)
* ``commands/``: the commands, one module per feature (play, challenges, computer,
  clocks, comforts, info, tournaments), named in ``commands.COMMANDS``
* ``printer``: the one printer of replies and announcements (shared with nothing else)
* ``common``: what they share (the console's server, the help text, words to numbers)
* ``app``: the wiring (``run_console``, ``open_console``)
"""

from bot.console.app import console_locale, open_console, run_console
from bot.console.commands import COMMANDS
from bot.console.common import (
    CONSOLE_CHANNEL,
    CONSOLE_GUILD,
    ShiftedClock,
    display_width,
    note_text,
    padded,
    user_id,
)
from bot.console.printer import ConsolePrinter
from bot.console.session import Console

__all__ = ["COMMANDS", "CONSOLE_CHANNEL", "CONSOLE_GUILD", "Console", "ConsolePrinter",
           "ShiftedClock", "console_locale", "display_width", "note_text", "open_console",
           "padded", "run_console", "user_id"]
