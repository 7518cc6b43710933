"""Issue 16 in the console: a bank time control in /challenge and /settings, +1 day
(/moretime), vacation (/vacation start|end|status, seen in /games by the opponent),
claim-win (/claim, /wait), /next; with the console closed and reopened in the middle."""

from __future__ import annotations

import io
from pathlib import Path

from bot.console import ShiftedClock, run_console
from tests.console.test_messages import after, play
from tests.service.conftest import SetClock


async def session(db: Path, clock: ShiftedClock, script: str) -> str:
    out = io.StringIO()
    stdin = io.StringIO("".join(f"{line.strip()}\n" for line in script.strip().splitlines()))
    assert await run_console(db, stdin=stdin, stdout=out, seed=1, clock=clock) == 0
    return out.getvalue()


async def test_vacation_more_time_and_claim_across_a_restart(tmp_path: Path) -> None:
    db, clock = tmp_path / "c.db", ShiftedClock(SetClock())  # 2026-01-01
    first = await session(db, clock, """
        as alice
        /settings vacation:24 claim:on
        /challenge @bob xiangqi seat:red clock:2d+1d/5d
        as bob
        /accept
        as alice
        /move h3-e3
        /moretime
        /vacation start 9
        as bob
        /vacation start 1
        as alice
        /games
    """)
    assert "24 days of vacation a year" in first and "claim win on time on" in first
    assert "2 days + 1 day per move, at most 5 days banked, claim win on time" in first
    assert "! it is your move" not in first  # alice is not to move after h3-e3
    assert "one day more given" in first  # alice gave bob a day
    assert "! you have 2 days of vacation left this year" in first  # 9 > 2 (January)
    assert "on vacation until 2026-01-02 12:00 UTC: 1 match paused; 1 day left" in first
    assert "bob is on vacation until 2026-01-02 12:00 UTC; their clock is paused" in first
    assert "(bob on vacation until 2026-01-02 12:00 UTC)" in first  # alice's /games

    second = await session(db, clock, """
        as bob
        /vacation status
        /vacation end
        /move h10-g8
        /moretime
        /sweep +5
        as bob
        /claim
        /wait
        as alice
        /next
        /claim
    """)
    assert "on vacation until 2026-01-02 12:00 UTC" in second  # remembered over the restart
    assert "back from vacation: your clocks run again; 2 days left this year" in second
    assert "bob gave alice one day more (now due 2026-01-05 12:00 UTC)" in second
    assert "alice's time ran out; bob may claim the win (/claim)" in second
    assert "bob won" in second  # the claim ended it as a timeout win
    assert "! you are not playing" not in second


async def test_bad_clock_input_is_refused_and_changes_nothing() -> None:
    out = await play("""
as alice
/challenge @bob xiangqi clock:3d+1d/2d
/challenge @bob xiangqi clock:3d+1d/10d days:2
/challenge @bob xiangqi claim:maybe
/vacation start 99
/vacation start 5
/vacation end
/claim #1
/games
""")
    assert "! the cap (2 days) must be at least the starting bank (3 days)" in out
    assert "! give either days per move or a time control, not both" in out
    assert "! claim must be yes or no, not 'maybe'" in out
    assert "! vacation is booked in whole days, from 1 to 60" in out
    assert "! you have 1 day of vacation left this year" in out  # January: 14 // 12
    assert "! you are not on vacation in this server" in out
    assert after(out, "/games").strip() == "no live matches (/challenge someone)"


async def test_querni_set_up_shows_each_players_own_deadline(tmp_path: Path) -> None:
    """While both arrange at once and Alice is on vacation, their clocks differ: /games
    shows each player's own deadline, not the earlier one for both."""
    db, clock = tmp_path / "c.db", ShiftedClock(SetClock())  # 2026-01-01 12:00
    said = await session(db, clock, """
        as alice
        /settings vacation:24
        /challenge @bob querni setup:choose clock:2d+1d/5d
        as bob
        /accept
        as alice
        /vacation start 1
        /games
    """)
    assert "alice (by 2026-01-04 12:00 UTC), bob (by 2026-01-03 12:00 UTC) to move" in said


async def test_a_vacation_says_paused_only_where_the_clock_ran_and_never_after_a_lapse(
        tmp_path: Path) -> None:
    """Issue 38, items 4 and 17: Alice goes on vacation in a match where it is Bob's
    move (no clock of hers to pause: her next turn waits), and in one where her time
    already ran out with claim-win (not paused, and she is told so; Bob still claims)."""
    db, clock = tmp_path / "v.db", ShiftedClock(SetClock())  # 2026-01-01
    text = await session(db, clock, """
        as alice
        /settings vacation:24
        /challenge @bob damas seat:white days:1 claim:yes casual
        as bob
        /accept
        as alice
        /move d3-c4
        as bob
        /move e6-d5
        /sweep +2
        as alice
        /challenge @bob damas seat:white days:3 casual
        as bob
        /accept
        as alice
        /move #2 d3-c4
        /vacation start 2
        as bob
        /claim #1
    """)
    assert "your time in #1 has already run out: not paused (the win may be claimed)" in text
    assert "on vacation until 2026-01-05 12:00 UTC: 1 match paused" in text
    assert "* #2: alice is on vacation until 2026-01-05 12:00 UTC; their next turn " \
        "starts no earlier than then" in text
    assert "* #1: alice is on vacation" not in text and "clock is paused" not in text
    assert "bob won (opponent ran out of time)" in text


async def test_sweep_far_ahead_spends_automatic_vacation_at_once(tmp_path: Path) -> None:
    """Issue 38, item 9: /sweep +3 with automatic vacation spends the days the gap
    covers in one go; the following commands spend nothing more."""
    db, clock = tmp_path / "a.db", ShiftedClock(SetClock())  # 2026-01-01
    text = await session(db, clock, """
        as alice
        /settings vacation:60 autovacation:on
        /challenge @bob damas seat:white days:1 casual
        as bob
        /accept
        as alice
        /move d3-c4
        as bob
        /move e6-d5
        /sweep +3
        /games
        /games
    """)
    assert text.count("vacation spent at once") == 1  # 5 days earned in January
    assert "alice's time ran out long ago; 3 days of vacation spent at once instead " \
        "(until 2026-01-05 12:00 UTC, 2 days left)" in text
    assert "a vacation day was spent" not in text


async def test_after_a_timeout_the_last_board_keeps_the_ply_it_shows(tmp_path: Path) -> None:
    """Issue 38, item 17: the timeout is a ply of the record that moves nothing, so the
    final board (after two moves) is written as ply 2, not ply 3; a resignation too."""
    db, clock = tmp_path / "t.db", ShiftedClock(SetClock())
    boards = tmp_path / "boards"
    out = io.StringIO()
    script = "\n".join(["as alice", "/challenge @bob damas seat:white days:1 casual",
                        "as bob", "/accept", "as alice", "/move d3-c4", "as bob",
                        "/move e6-d5", "/sweep +2", "/board #1",
                        "as alice", "/challenge @bob damas seat:white days:1 casual",
                        "as bob", "/accept", "as alice", "/move #2 d3-c4", "as bob",
                        "/move #2 e6-d5", "/resign #2", "/board #2"]) + "\n"
    assert await run_console(db, stdin=io.StringIO(script), stdout=out, seed=1,
                             clock=clock, boards_dir=boards) == 0
    text = out.getvalue()
    assert f"board image: {boards / 'match1-ply2.png'}" in text.split("> /board #1")[1]
    assert f"board image: {boards / 'match2-ply2.png'}" in text.split("> /board #2")[1]
    assert sorted(p.name for p in boards.iterdir()) == [
        f"match{m}-ply{n}.png" for m in (1, 2) for n in range(3)]


async def test_the_console_writes_times_in_the_zone_of_the_person_it_acts_as(
        tmp_path: Path) -> None:
    """Every time the console shows is in its reader's own zone: the person it acts as
    (``as NAME``), once he set one (a zone with no letters for its time says its
    offset); UTC, saying so, for one who set none."""
    db, clock = tmp_path / "z.db", ShiftedClock(SetClock())  # 2026-01-01 12:00 UTC
    said = await session(db, clock, """
        as alice
        /timezone Europe/Berlin
        /challenge @bob xiangqi seat:red days:1
        as bob
        /accept
        /games
        /timezone Asia/Kathmandu
        /games
        as alice
        /games
    """)
    assert "alice to move by 2026-01-02 12:00 UTC" in said  # bob before he set one
    assert "by 2026-01-02 17:45 UTC+05:45" in said  # bob in Kathmandu
    # setting a zone says what time it is there now, and its offset (Etc/GMT+2 is two
    # hours behind UTC: its sign surprises, the answer shows it)
    assert "your time zone: Asia/Kathmandu (it is 17:45 UTC+05:45 there now)" in said
    assert said.rsplit("> as alice", 1)[1].count("by 2026-01-02 13:00 CET") == 1


async def test_a_reminder_half_an_hour_ahead_says_so(tmp_path: Path) -> None:
    """An hour per move is reminded half an hour before: "due in 30 minutes", in the
    reader's zone, not "due in 0 h"."""
    db, clock = tmp_path / "r.db", ShiftedClock(SetClock())  # 2026-01-01 12:00 UTC
    said = await session(db, clock, """
        as alice
        /timezone Europe/Berlin
        /challenge @bob xiangqi seat:red clock:1h
        as bob
        /accept
        as alice
        /sweep +0.021
    """)
    assert "* reminder #1: alice, your move is due in 30 minutes (by 2026-01-01 14:00 CET)" \
        in said
