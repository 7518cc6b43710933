"""Match and tournament numbers typed in the console (issue 38, item 5; issue 36, part 1).

A ``#`` token that is not a valid number (``#-5``, ``#٣``, a number past the largest id)
and a stray word where only a match may stand (``/rematch abc``) are refused in the words
of an unknown number, never ignored in favour of the current match or the open
tournament. And the console acts only in its own server: a match of another server on
the same database is refused in those same words."""

from __future__ import annotations

import io
import sqlite3
from pathlib import Path

from bot.console import CONSOLE_GUILD, run_console, user_id
from service import MatchService, NullNotifier, SystemClock
from storage import SqliteRepository


async def session(db: Path, text: str) -> str:
    out = io.StringIO()
    code = await run_console(db, stdin=io.StringIO(text), stdout=out, seed=3)
    assert code == 0
    return out.getvalue()


SESSION_BOOKKEEPING = ('"clock_beats"', '"process_lock"', '"names"')
"""Rows every console session writes (its heartbeat, its lock, when it saw a name)."""


def rows(db: Path) -> list[str]:
    conn = sqlite3.connect(db)
    try:
        return [line for line in conn.iterdump()
                if not line.startswith(tuple(f"INSERT INTO {t}" for t in SESSION_BOOKKEEPING))]
    finally:
        conn.close()


SETUP = """
as alice
/challenge @bob xiangqi seat:red claim:on clock:1d
as bob
/accept
as alice
/move h3-e3
/tournament create damas swiss rounds:2
"""

REFUSED = {
    "/moretime #-5": "! there is no match #-5",
    "/claim #٣": "! there is no match #٣",
    "/wait #²": "! there is no match #²",
    "/rematch #٣": "! there is no match #٣",
    "/rematch abc": "! there is no match abc",
    "/resign now": "! there is no match now",
    "/resign #99999999999999999999999": "! there is no match #99999999999999999999999",
    "/cancel #1x": "! there is no match #1x",
    "/move #-1 h8-e8": "! there is no match #-1",
    "/premove #+1 list": "! there is no match #+1",
    "/note #٣ a thought": "! there is no match #٣",
    "/follow #abc": "! there is no match #abc",
    "/fill #0x1": "! there is no match #0x1",
    "/analysis #1.0": "! there is no match #1.0",
    "/accept #-2": "! there is no match #-2",
    "/board #٣": "! there is no match #٣",
    "/tournament standings #99999999999999999999999":
        "! there is no tournament #99999999999999999999999 here",
    "/tournament join #٣": "! there is no tournament #٣ here",
    "/tournament start #-1": "! there is no tournament #-1 here",
    "/tournament cancel #1e3": "! there is no tournament #1e3 here",
}


async def test_a_bad_number_is_refused_like_an_unknown_one(tmp_path: Path) -> None:
    db = tmp_path / "n.db"
    await session(db, SETUP)
    before = rows(db)
    for actor in ("alice", "bob"):
        said = await session(db, f"as {actor}\n" + "\n".join(REFUSED) + "\n")
        for command, refusal in REFUSED.items():
            assert f"> {command}\n{refusal}\n" in said, command
    assert rows(db) == before  # nothing acted on the current match or the open cup
    unknown = await session(db, "as alice\n/moretime #7\n/tournament standings #7\n")
    assert "! there is no match #7\n" in unknown
    assert "! there is no tournament #7 here\n" in unknown
    good = await session(db, "as alice\n/moretime #1\n/tournament standings #1\n")
    assert "#1: one day more given" in good and "Swiss" in good


async def test_the_console_does_not_reach_into_another_server(tmp_path: Path) -> None:
    db = tmp_path / "s.db"
    await session(db, "as alice\n/games\n")  # the console's schema, and the names
    repo = await SqliteRepository.open(db)
    try:
        service = MatchService(repo, NullNotifier(), SystemClock())
        alice, bob = user_id("alice"), user_id("bob")
        far = await service.challenge(CONSOLE_GUILD + 1, 5, alice, "xiangqi",
                                      opponents=[bob], seat=0)
        await service.accept(far.id, bob)
        cup = await service.create_tournament(CONSOLE_GUILD + 1, 5, alice, "damas",
                                              fmt="swiss", rounds=2)
    finally:
        await repo.close()
    before = rows(db)
    said = await session(db, f"""
as alice
/move #{far.id} h3-e3
/resign #{far.id}
/history #{far.id}
as bob
/moretime #{far.id}
/note #{far.id} mine
/tournament join #{cup.id}
/tournament cancel #{cup.id}
/tournament standings #{cup.id}
""")
    assert said.count(f"! there is no match #{far.id}\n") == 5
    assert said.count(f"! there is no tournament #{cup.id} here\n") == 3
    assert rows(db) == before
