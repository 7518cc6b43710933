"""The console reads Discord's option names (a console command and its documented
options stay as shipped): every option of a slash command the console has too is read by
the console under Discord's name, and its help shows Discord's names; the console's
older names (``claim``, ``autovacation``...) are still read."""

from __future__ import annotations

import re
from typing import Any

from discord import app_commands

from bot.console import COMMANDS
from bot.console.common import (
    HELP,
    HELP_BLOCKS,
    HELP_CONTINUE,
    HELP_PUZZLES,
    HELP_SCHOOL,
    HELP_WEEKS,
)
from bot.console_args import MATCH_NAMES, PERSON_NAMES, SIGNATURES, Signature
from bot.discordapp import create_bot
from locales.i18n import render
from service import SystemClock
from storage import MemoryRepository
from tests.console.test_messages import after, play

DISCORD_ONLY = {
    ("settings", "channel"): "the console is one channel",
    ("settings", "clear_channel"): "the console is one channel",
    ("settings", "organiser_role"): "the console has no roles",
    ("settings", "clear_organiser_role"): "the console has no roles",
    ("puzzle", "channel"): "the console is one channel",
    ("import", "text"): "a console line holds no record file: /import PATH reads one",
}
"""Discord's options with no meaning in the console, and why."""

READ_BY_THE_COMMAND = {
    "explorer": {"game", "line"}, "follow": {"digest"},
    "puzzle": {"puzzle", "move", "state"},
}
"""Options a command's own reader takes by Discord's name without its help naming them
(the by-name forms of tests/console/test_new_player_trips.py try each)."""


async def shared_options() -> list[tuple[str, str]]:
    """(the console command, the option's name) of every option of every slash command
    the console has too."""
    bot = create_bot(MemoryRepository(), SystemClock(), auto_sync=False, background=False)
    for cog in bot._cogs_to_add:
        if cog.qualified_name not in ("Deliveries", "Deadlines"):
            await bot.add_cog(cog)
    found: list[tuple[str, str]] = []
    command: Any
    for command in bot.tree.walk_commands():
        head = command.qualified_name.split()[0]
        if isinstance(command, app_commands.Command) and head in COMMANDS:
            found += [(head, p.name) for p in command.parameters]
    return found


def read_by_the_console(head: str) -> set[str]:
    """The option names the console reads for ``/head``: its parser's (positional,
    references, Discord's switches and renamed options), the ones its help shows
    (``name:``), and those its reader takes unshown."""
    signature = SIGNATURES.get(head, Signature())
    shown = " ".join(render(h, "en-US") for h in (HELP, HELP_SCHOOL, HELP_CONTINUE,
                                                  HELP_BLOCKS, HELP_PUZZLES, HELP_WEEKS))
    return (signature.names() | MATCH_NAMES | PERSON_NAMES | set(signature.switches)
            | set(signature.renamed) | set(re.findall(r"([a-z_]+[0-9]?):", shown))
            | READ_BY_THE_COMMAND.get(head, set()))


async def test_every_discord_option_of_a_shared_command_is_read_by_the_console() -> None:
    options = await shared_options()
    assert ("challenge", "claim_win") in options and len(options) > 80
    missing = [(head, name) for head, name in options
               if (head, name) not in DISCORD_ONLY and name not in read_by_the_console(head)]
    assert missing == []
    assert set(DISCORD_ONLY) <= set(options)  # no exemption outlives its option
    # the help shows Discord's names, not the console's older ones
    help_text = render(HELP, "en-US")
    for older in ("[claim:", "autovacation:", "takebacks:", "registration:"):
        assert older not in help_text


# each line by Discord's names, and as the console wrote it before: the same answer
SAME = [
    ("/settings claim_win:on auto_vacation:off takebacks_rated:on",
     "/settings claim:on autovacation:off takebacks:on"),
    ("/settings seasons:monthly", "/season monthly"),
    ("/season schedule every:quarterly", "/season quarterly"),
    ("/timezone clear:yes", "/timezone clear"),
    ("/web revoke:yes", "/web revoke"),
    ("/challenge opponent:bob opponent2:carol opponent3:dan game:alquerque-grande "
     "claim_win:yes", "/challenge @bob @carol @dan alquerque-grande claim:yes"),
    ("/tournament create game:damas format:rr registration_days:3 claim_win:yes",
     "/tournament create damas rr registration:3 claim:yes"),
    ("/tournament standings tournament:1 export:yes", "/tournament standings #1 csv"),
    ("/import file:/no/such/file.pgn", "/import /no/such/file.pgn"),
]


async def test_discords_names_read_as_the_consoles() -> None:
    lead = "as alice\n/timezone Europe/Madrid\n"
    by_discord = await play(lead + "\n".join(discord for discord, _console in SAME))
    by_console = await play(lead + "\n".join(console for _discord, console in SAME))
    for discord, console in SAME:
        assert after(by_discord, discord) == after(by_console, console), discord
    out = by_discord
    assert after(out, "/web revoke:yes").strip() == \
        "your web links no longer work; /web gives you a new one"
    assert after(out, "/timezone clear:yes").strip() == \
        "your time zone: none set (UTC counts)"
    # a switch says yes or no; anything else is refused by its name
    out = await play("as alice\n/web revoke:maybe\n/timezone clear:no")
    assert after(out, "/web revoke:maybe").strip() == "! revoke must be yes or no, not 'maybe'"
    assert after(out, "/timezone clear:no").strip() == "your time zone: none set (UTC counts)"
