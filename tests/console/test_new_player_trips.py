"""Issue 38 in the console: what a new player tripped over in the new features (the
claim reply, the rematch asked twice, "aborted: aborted:", notes, the translation
leftovers, seasons, Swiss standings, clock wording, options, tournaments that ended)."""

from __future__ import annotations

import io
import random
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path

import pytest

from bot.computer import InlineMovePicker
from bot.console import COMMANDS, ShiftedClock, display_width, open_console, padded
from rules import MoveMarks, Position
from storage import MemoryRepository
from tests.console.test_clocks import session
from tests.console.test_messages import after, play
from tests.service.conftest import SetClock

OPENING = """
as alice
/settings claim:on
/challenge @bob xiangqi seat:red days:1
as bob
/accept
as alice
/move h3-e3
as bob
/move h10-g8
"""


async def test_claim_says_who_won_in_words() -> None:
    out = await play(OPENING + "/sweep +3\n/claim")
    said = after(out, "/claim")
    assert "Text(" not in said and "msgid" not in said
    assert said.strip().endswith("claimed: #1 Xiangqi (rated, 1d/move, claim win on time) "
                                 "- Red: alice (out); Black: bob - finished: bob won "
                                 "(opponent ran out of time)")


async def test_asking_a_rematch_again_names_the_rematch_already_asked() -> None:
    out = await play(OPENING + "/resign\n/rematch\n/rematch\n/rematch #1")
    first, again = (part.split("\n> ", 1)[0].strip()
                    for part in out.split("> /rematch\n")[1:3])
    assert "rematch asked: #2" in first  # the current match is now #2, the rematch
    assert again == "! a rematch of match #1 is already under way: match #2"
    assert after(out, "/rematch #1").strip() == \
        "! a rematch of match #1 is already under way: match #2"


async def test_a_resignation_before_both_moved_says_aborted_once() -> None:
    out = await play("""
as alice
/challenge @bob xiangqi seat:red
as bob
/accept
as alice
/move h3-e3
/resign
""")
    said = after(out, "/resign")
    assert "aborted: aborted" not in said.lower()
    assert "aborted: alice (Red) resigned before every player had moved" in said


async def test_note_falls_back_to_the_only_live_match_and_keeps_quotes(
        tmp_path: Path) -> None:
    db, clock = tmp_path / "n.db", ShiftedClock(SetClock())
    await session(db, clock, """
        as alice
        /challenge @bob xiangqi seat:red
        as bob
        /accept
    """)
    # a new session: nobody has a current match, alice has one live match
    out = await session(db, clock, """
        as alice
        /note remember "the cannon" first
        /note
        /note keep a 'single' and a "double"
        /note
    """)
    assert after(out, '/note remember "the cannon" first').strip() == \
        "note kept (only you see it)"
    assert 'your note on #1: remember "the cannon" first' in out
    assert after(out, "/note").strip() == \
        "your note on #1: keep a 'single' and a \"double\""


async def test_clock_wording_for_hours_alone_and_no_increment() -> None:
    out = await play("""
as alice
/challenge @bob xiangqi clock:3h
/challenge @bob damas clock:1h+0h/1h
""")
    assert "(rated, 3 hours per move)" in after(out, "/challenge @bob xiangqi clock:3h")
    said = after(out, "/challenge @bob damas clock:1h+0h/1h")
    assert "1 hour for the whole game, no time added per move" in said
    assert "0 days" not in said


async def play_in(locale: str, lines: str) -> str:
    out = io.StringIO()
    console = open_console(MemoryRepository(), out, clock=ShiftedClock(SetClock()),
                           rng=random.Random(1), locale=locale,
                           picker=InlineMovePicker(nodes=150))
    for line in lines.strip().splitlines():
        out.write(f"> {line}\n")
        await console.handle(line)
    return out.getvalue()


async def test_an_abort_reason_names_the_colour_in_the_readers_words() -> None:
    out = await play_in("de", """
as alice
/challenge @bob xiangqi seat:red
as bob
/accept
as alice
/move h3-e3
/resign
""")
    said = after(out, "/resign")
    assert "alice (Rot) hat aufgegeben" in said, said
    assert "(Red)" not in said and "abgebrochen: abgebrochen" not in said


class StuckPicker:
    """A computer that never finds its move (its turn waits for the next sweep)."""

    async def pick(self, position: Position, seat: int, level: int, *, seed: int) -> str:
        raise RuntimeError("no move today")

    async def weigh(self, moves: Sequence[tuple[Position, str]]
                    ) -> list[tuple[int, int] | None]:
        return [None for _ in moves]


@dataclass
class Drawn:
    png: bytes = b"png"
    alt_text: str = ""


class NamesSeen:
    """A board renderer that keeps the names it was asked to draw."""

    def __init__(self) -> None:
        self.names: list[list[str]] = []

    def render(self, position: Position, *, last_move: MoveMarks | None = None,
               perspective: int | None = None, names: Sequence[str] | None = None,
               result: str | None = None, locale: str = "en-US") -> Drawn:
        self.names.append(list(names or ()))
        return Drawn()


async def test_the_computer_is_named_in_the_readers_words_on_the_board(
        tmp_path: Path) -> None:
    out, renderer = io.StringIO(), NamesSeen()
    console = open_console(MemoryRepository(), out, clock=ShiftedClock(SetClock()),
                           locale="de", picker=StuckPicker(), renderer=renderer,
                           boards_dir=tmp_path)
    for line in ("as alice", "/challenge @computer alquerque level:2 seat:black", "/board"):
        out.write(f"> {line}\n")
        await console.handle(line)
    board = after(out.getvalue(), "/board")
    assert "Tablero Stufe 2 (Weiß) am Zug" in board, board  # no nested parentheses
    assert "level" not in board
    assert renderer.names[-1] == ["Tablero Stufe 2", "alice"]


async def test_sweep_counts_its_events_with_a_plural() -> None:
    out = await play("as alice\n/sweep\n/challenge @bob xiangqi days:1\nas bob\n/accept\n"
                     "/sweep +0.9\n/sweep +3")
    assert after(out, "/sweep").strip() == "sweep: 0 events"
    assert after(out, "/sweep +0.9").strip().endswith("\nsweep: 1 event")  # the reminder


async def test_an_empty_leaderboard_names_the_game_in_the_readers_words() -> None:
    assert after(await play_in("zh-CN", "/leaderboard xiangqi"),
                 "/leaderboard xiangqi").strip().count("象棋") == 1
    assert "Xiangqi" in after(await play("/leaderboard xiangqi"), "/leaderboard xiangqi")


PRELUDE = """
as alice
/challenge @bob xiangqi seat:red days:1
as bob
/accept
as alice
/move h3-e3
/challenge @carol damas
as bob
"""
"""Bob to move in #1; alice's challenge #2 waits for carol."""

# Each command's lines in their three forms: in place, name:value, name=value (the last
# line of each is compared; ``True``: the first form must succeed, no "!" line).
FORMS: list[tuple[str, tuple[str, str, str], bool]] = [
    ("move", ("/move h10-g8", "/move move:h10-g8", "/move move=h10-g8"), True),
    ("move", ("/move #1 h10-g8", "/move match:1 move:h10-g8", "/move match=1 move=h10-g8"),
     True),
    ("moves", ("/moves h10", "/moves prefix:h10", "/moves prefix=h10"), True),
    ("board", ("/board #1", "/board match:1", "/board match=1"), True),
    ("history", ("/history #1", "/history match:1", "/history match=1"), True),
    ("resign", ("/resign #1", "/resign match:1", "/resign match=1"), True),
    ("hint", ("/hint #1", "/hint match:1", "/hint match=1"), False),
    ("analysis", ("/analysis #1", "/analysis match:1", "/analysis match=1"), False),
    ("draw", ("/draw offer", "/draw action:offer", "/draw action=offer"), True),
    ("leaderboard", ("/leaderboard xiangqi 1", "/leaderboard game:xiangqi page:1",
                     "/leaderboard game=xiangqi page=1"), True),
    ("stats", ("/stats @alice", "/stats user:alice", "/stats player=alice"), True),
    ("rules", ("/rules damas", "/rules game:damas", "/rules game=damas"), True),
    ("notify", ("/notify dm", "/notify mode:dm", "/notify mode=dm"), True),
    ("timezone", ("/timezone Europe/Madrid", "/timezone zone:Europe/Madrid",
                  "/timezone zone=Europe/Madrid"), True),
    ("sweep", ("/sweep +1", "/sweep days:1", "/sweep days=1"), True),
    ("settings", ("/settings days:4", "/settings days:4", "/settings days=4"), True),
    ("season", ("/season monthly", "/season every:monthly", "/season action=monthly"), True),
    ("vacation", ("/vacation start 1", "/vacation start days:1",
                  "/vacation action=start days=1"), True),
    ("pause", ("/pause #1 2 exams", "/pause match:1 days:2 reason:exams",
               "/pause match=1 days=2 reason=exams"), True),
    ("web", ("/web #1", "/web match:1", "/web match=1"), False),  # the web is off there
    ("web", ("/web revoke", "/web action:revoke", "/web action=revoke"), True),
    ("explorer", ("/explorer xiangqi h3-e3", "/explorer game:xiangqi line:h3-e3",
                  "/explorer game=xiangqi line=h3-e3"), True),
    ("import", ("/import /no/such/record.pgn", "/import path:/no/such/record.pgn",
                "/import path=/no/such/record.pgn"), False),  # the file is not there
    ("puzzle", ("/puzzle answer h10-g8", "/puzzle action:answer move:h10-g8",
                "/puzzle action=answer move=h10-g8"), False),  # no puzzle open
    ("puzzle", ("/puzzle daily on", "/puzzle action:daily state:on",
                "/puzzle action=daily state=on"), True),
    ("takeback", ("/takeback #1 ask", "/takeback match:1 action:ask",
                  "/takeback match=1 action=ask"), False),
    ("premove", ("/premove #1 list", "/premove match:1 action:list",
                 "/premove match=1 action=list"), True),
    ("note", ("/note #1 keep it\n/note #1", '/note match:1 action:set text:"keep it"\n'
              "/note match:1", '/note match=1 text="keep it"\n/note match=1'), True),
    ("follow", ("as carol\n/follow #1", "as carol\n/follow match:1",
                "as carol\n/follow match=1"), True),
    ("unfollow", ("as carol\n/follow #1\n/unfollow #1", "as carol\n/follow #1\n"
                  "/unfollow match:1", "as carol\n/follow #1\n/unfollow match=1"), True),
    ("follow", ("as carol\n/follow @alice", "as carol\n/follow player:alice",
                "as carol\n/follow player=alice"), True),
    ("block", ("as carol\n/block @alice", "as carol\n/block player:alice",
               "as carol\n/block player=alice"), True),
    ("unblock", ("as carol\n/block @alice\n/unblock @alice", "as carol\n/block @alice\n"
                 "/unblock player:alice", "as carol\n/block @alice\n/unblock player=alice"),
     True),
    ("continue", ("/continue #1 @carol", "/continue match:1 opponent:carol",
                  "/continue match=1 opponent=carol"), False),  # #1 is no imported game
    ("challenge", ("/challenge @carol damas days:2", "/challenge opponent:carol "
                   "game:damas days:2", "/challenge opponent=carol game=damas days=2"), True),
    ("accept", ("as carol\n/accept #2", "as carol\n/accept match:2",
                "as carol\n/accept match=2"), True),
    ("decline", ("as carol\n/decline #2", "as carol\n/decline match:2",
                 "as carol\n/decline match=2"), True),
    ("cancel", ("as alice\n/cancel #2", "as alice\n/cancel match:2",
                "as alice\n/cancel match=2"), True),
    ("join", ("as dan\n/join #2", "as dan\n/join match:2", "as dan\n/join match=2"), False),
    ("fill", ("as alice\n/fill #2 level:3", "as alice\n/fill match:2 level:3",
              "as alice\n/fill match=2 level=3"), False),
    ("setup", ("/setup #1 1 2", "/setup match:1 arrangement:'1 2'",
               "/setup match=1 arrangement='1 2'"), False),
    ("moretime", ("as alice\n/moretime #1", "as alice\n/moretime match:1",
                  "as alice\n/moretime match=1"), True),
    ("claim", ("/claim #1", "/claim match:1", "/claim match=1"), False),
    ("wait", ("/wait #1", "/wait match:1", "/wait match=1"), False),
    ("rematch", ("/resign #1\n/rematch #1", "/resign #1\n/rematch match:1",
                 "/resign #1\n/rematch match=1"), True),
    ("tournament", ("/tournament create damas swiss rounds:2 name:Cup",
                    "/tournament action:create game:damas format:swiss rounds:2 name:Cup",
                    "/tournament action=create game=damas format=swiss rounds=2 name=Cup"),
     True),
    ("tournament", ("/tournament create damas rr\n/tournament pairings #1 1",
                    "/tournament create damas rr\n/tournament action:pairings tournament:1 "
                    "round:1", "/tournament create damas rr\n/tournament action=pairings "
                    "tournament=1 round=1"), True),
]
WITHOUT_PARAMETERS = {"help", "games-list", "games", "open", "next", "tournaments"}


async def test_every_console_command_is_checked_in_every_form() -> None:
    assert {command for command, _forms, _ok in FORMS} | WITHOUT_PARAMETERS == \
        set(COMMANDS)
    for command in sorted(WITHOUT_PARAMETERS):
        said = after(await play(f"{PRELUDE}\n/{command}"), f"/{command}")
        assert not said.startswith("! "), said


@pytest.mark.parametrize(("forms", "succeeds"), [(f, ok) for _c, f, ok in FORMS],
                         ids=[c for c, _f, _ok in FORMS])
async def test_a_command_reads_its_parameters_in_place_or_by_name(
        forms: tuple[str, str, str], succeeds: bool) -> None:
    said = []
    for form in forms:
        out = await play(f"{PRELUDE}\n{form}")
        # what the form printed, its own lines left out (they differ by design)
        tail = out.rsplit("> as bob\n", 1)[1]
        said.append("\n".join(x for x in tail.splitlines() if not x.startswith("> ")))
    in_place, colon, equals = said
    assert colon == in_place and equals == in_place
    if succeeds:
        assert "\n! " not in in_place and not in_place.startswith("! "), in_place


async def test_a_created_tournament_reads_in_german_word_order() -> None:
    out = await play_in("de", "as alice\n/tournament create damas rr")
    said = after(out, "/tournament create damas rr").strip()
    assert said.startswith("erstellt: Turnier #1 "), said
    assert said.endswith(": /tournament join #1") and "Anmeldung erstellt" not in said


async def test_the_chinese_standings_table_lines_up_by_display_width() -> None:
    out = await play_in("zh-CN", """
as 小明
/tournament create damas rr
/tournament join
as bob
/tournament join
/tournament start
/tournament standings
""")
    table = after(out, "/tournament standings").splitlines()[1:]
    assert len(table) == 3 and any("小明" in row for row in table)
    assert len({display_width(row) for row in table}) == 1, table
    assert display_width("小明 b") == 6 and padded("小明", 6) == "  小明"


async def test_changing_the_season_schedule_does_not_end_the_season() -> None:
    out = await play("""
as alice
/season monthly
/season quarterly
/season manual
/season
/season off
""")
    assert "is over" not in out.split("> /season off")[0]
    assert after(out, "/season quarterly").strip().endswith(
        "goes on under the new schedule; only a reset (or turning seasons off) ends it "
        "early.")
    listed = after(out, "/season").splitlines()
    assert listed[0] == "Seasons: manual." and len(listed) == 2  # one season, still open
    assert listed[1].startswith("  Season 1 (since ")
    off = after(out, "/season off")
    assert "* Season 1 (" in off and "is over: final leaderboards" in off


async def test_swiss_standings_rank_by_fide_rules_and_show_byes() -> None:
    out = await play("""
as alice
/tournament create damas swiss rounds:2
/tournament join
as bob
/tournament join
as carol
/tournament join
as alice
/tournament start
/move 11-15
as bob
/move 22-18
/resign
/tournament standings
""")
    started = after(out, "/tournament start")
    assert "/accept" not in started and "challenges" not in started  # a started game
    assert "* #1: alice to move" in started
    table = [row.split() for row in after(out, "/tournament standings").splitlines()[1:]]
    assert table[0] == ["#", "Player", "Pts", "Games", "W", "D", "L", "Bye", "F+", "F-",
                        "F=", "Buchholz", "Median", "Wins"]
    rows = {row[1]: row for row in table[1:]}
    # bob lost his only game and has the round-2 bye: he no longer ranks above alice
    assert [row[1] for row in table[1:]] == ["alice", "bob", "carol"]
    assert rows["carol"][2:10] == ["1", "0", "0", "0", "0", "1", "0", "0"]
    for row in table[1:]:  # every round is counted once: games (W + D + L) and byes
        games, w, d, lost = map(int, row[3:7])
        assert games == w + d + lost


async def test_a_game_against_the_computer_is_announced_as_started() -> None:
    out = await play_in("en-US", "as alice\n/challenge @computer damas level:1")
    said = after(out, "/challenge @computer damas level:1")
    assert "challenges" not in said and "/accept" not in said
    assert "created #1 " in said


async def test_tournament_reads_fall_back_to_the_latest_after_it_ended() -> None:
    out = await play("""
as alice
/tournament create damas rr
/tournament join
as bob
/tournament join
as alice
/tournament start
/move 11-15
as bob
/move 22-18
/resign
/tournament standings
/tournament pairings
/tournament mine
/tournament join
""")
    assert "tournament #1 is over: winner alice" in out
    assert after(out, "/tournament standings").splitlines()[0].endswith(
        "final standings after 1 round")
    assert "round 1: bob - alice  -/+ match #1" in after(out, "/tournament pairings")
    assert "round 1: bob - alice" in after(out, "/tournament mine")
    # joining still needs an open one
    assert after(out, "/tournament join").startswith("! no tournament is open")


async def test_sweep_days_add_up_across_calls() -> None:
    console = open_console(MemoryRepository(), io.StringIO(), clock=ShiftedClock(SetClock()))
    for line in ("/sweep +2", "/sweep +3", "/sweep", "/sweep +0.5"):
        await console.handle(line)
    assert console.clock.offset == timedelta(days=5.5)


async def test_a_mode_for_a_game_for_two_is_refused_in_words_the_console_has() -> None:
    """The console types ``players:2``; the refusal once said ``players=2`` (the rules
    API's keyword), a syntax nobody can type here."""
    out = await play("as alice\n/challenge @bob alquerque-grande players:2 mode:teams")
    said = after(out, "/challenge @bob alquerque-grande players:2 mode:teams")
    assert "mode is for 4 players only (a game for 2 has no mode)" in said
    assert "players=2" not in said
