"""/block and /unblock in the console, and the bound on waiting challenges: a transcript
over one database (the service's tests: tests/service/test_blocks.py)."""

from __future__ import annotations

import io
from pathlib import Path

from bot.console import run_console


async def test_a_blocked_player_is_refused_plainly_until_unblocked(tmp_path: Path) -> None:
    out = io.StringIO()
    script = """
as bob
/challenge @alice xiangqi
as alice
/block @bob
/block
/block @alice
/challenge xiangqi
as bob
/challenge @alice damas
/join #2
/follow @alice
as alice
/unblock @bob
/unblock @bob
/block
as bob
/challenge @alice damas
/challenge @alice damas
as alice
/block challenges:off
/block
as carol
/challenge @alice querni
/help
"""
    assert await run_console(tmp_path / "b.db", stdin=io.StringIO(script), stdout=out,
                             seed=3) == 0
    said = out.getvalue()
    assert "* match #1 declined by alice" in said
    assert "You block bob: their challenges to you are refused, in every server. " \
           "Their waiting challenge to you was declined (match #1)." in said
    assert "\nyou block bob\n" in said
    assert "! you cannot block yourself" in said
    assert "! alice does not take challenges from you\n" in said
    assert "! alice does not take challenges from you, so you cannot join match #2" in said
    assert "! alice cannot be followed by you" in said
    assert "you no longer block bob\n> /unblock @bob\nyou do not block bob\n> /block\n" \
           "you block nobody" in said
    assert "created #3 Spanish draughts" in said
    assert "! your challenge to alice at Spanish draughts waits for an answer already " \
           "(match #3): withdraw it with /cancel #3 to ask again" in said
    assert "You take no challenges for now: a challenge naming you is refused" in said
    assert "\nyou block nobody (/block @name)\nYou take no challenges for now (/block " \
           "challenges:on takes them again)." in said
    assert "! alice takes no challenges for now: ask again later, or post an open " \
           "challenge" in said
    assert "/block [@user]   /unblock @user" in said and "/block challenges:off|on" in said
