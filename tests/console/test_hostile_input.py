"""Random ids, pages and option values into every console command over SQLite (issue 21):
nothing escapes ``Console.handle`` (before: ``#9223372036854775808`` ended the console with
an OverflowError, ``#²``, ``days:²`` and ``/leaderboard xiangqi ²`` with a ValueError)."""

from __future__ import annotations

import asyncio
import functools
import io
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.console import COMMANDS, open_console, run_console
from storage import SqliteRepository

UNICODE_DIGITS = "²³¹٣۴߃६৬੬૬୬௬౬೬൬๖໖༦၆႖០᠖᥆᧖᪆᭖᮶᱆᱖꘦꣖꤆꧖꩖꯶０１"

NUMBERS = st.one_of(
    st.integers(min_value=-(2**70), max_value=2**70).map(str),
    st.sampled_from(["9223372036854775807", "9223372036854775808", "18446744073709551616",
                     "0", "-1", "00", "1e3", "0x10", "1_000"]),
    st.text(alphabet=UNICODE_DIGITS + "0123456789", min_size=1, max_size=25),
)
OPTION_NAMES = st.sampled_from(["days", "seat", "players", "mode", "setup", "rated",
                                "reminders", "threads", "arrangement", "variant", "page"])
ARGS = st.one_of(
    NUMBERS.map(lambda n: f"#{n}"),
    NUMBERS,
    st.builds(lambda k, v: f"{k}:{v}", OPTION_NAMES, st.one_of(NUMBERS, st.text(max_size=12))),
    st.builds(lambda k, v: f"{k}={v}", OPTION_NAMES, NUMBERS),
    st.sampled_from(["xiangqi", "damas", "querni", "alquerque", "alquerque-grande", "@bob",
                     "@carol", "offer", "accept", "decline", "h3-e3", "casual", "+3", "dm"]),
    st.text(max_size=15),
)
LINE = st.builds(lambda c, args: " ".join([f"/{c}", *args]),
                 st.sampled_from(sorted(COMMANDS)), st.lists(ARGS, max_size=4))
SETUP = ["as alice", "/challenge @bob xiangqi seat:red", "as bob", "/accept", "as alice",
         "/move h3-e3", "/challenge @carol alquerque-grande players:4", "as bob"]


@functools.cache
def migrated_database() -> bytes:
    """An empty Tablero database, its schema made (a copy opens as a new file does, in
    a tenth of the time: every example starts from one)."""
    async def make(path: Path) -> None:
        repo = await SqliteRepository.open(path, synchronous="NORMAL")
        await repo.close()
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "empty.db"
        asyncio.run(make(path))
        return path.read_bytes()


@settings(max_examples=60, deadline=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(lines=st.lists(LINE, min_size=1, max_size=16), switch=st.booleans())
def test_no_id_page_or_option_value_escapes_the_console(lines: list[str],
                                                        switch: bool) -> None:
    """Each example plays ``SETUP`` first (two thirds of its time): 60 examples of up to
    16 lines try as many hostile lines as 120 of up to 8 did, in half the time."""
    empty = migrated_database()

    async def go() -> str:
        with tempfile.TemporaryDirectory() as folder:
            (Path(folder) / "f.db").write_bytes(empty)
            repo = await SqliteRepository.open(Path(folder) / "f.db", synchronous="NORMAL")
            out = io.StringIO()
            console = open_console(repo, out)
            try:
                for line in [*SETUP, *(["as alice"] if switch else []), *lines]:
                    assert await console.handle(line) or line.startswith("/quit")
            finally:
                await repo.close()
            return out.getvalue()
    text = asyncio.run(go())
    assert "Traceback" not in text


def test_the_lines_from_the_issue_get_clear_refusals() -> None:
    async def go() -> str:
        with tempfile.TemporaryDirectory() as folder:
            repo = await SqliteRepository.open(Path(folder) / "f.db")
            out = io.StringIO()
            console = open_console(repo, out)
            try:
                for line in [*SETUP, "/board #9223372036854775808", "/move #18446744073709551616 a",
                             "/resign #²", "/challenge @bob xiangqi days:²",
                             "/leaderboard xiangqi ²", "/history #9223372036854775808",
                             "/accept #99999999999999999999"]:
                    assert await console.handle(line)
            finally:
                await repo.close()
            return out.getvalue()
    text = asyncio.run(go())
    assert text.count("! there is no match #9223372036854775808") == 2
    assert "! there is no match #18446744073709551616" in text
    assert "! there is no match #99999999999999999999" in text
    assert "! days must be a number from 1 to 14" in text


def test_bytes_that_are_not_text_get_a_refusal_and_the_console_goes_on(
        tmp_path: Path) -> None:
    """Issue 36 §3: a terminal hands broken UTF-8 on as lone surrogates and a script may
    hold control characters; each such line is refused with a ``!`` line naming the code
    point (the echo drops what cannot be shown), nothing is stored, and the next lines
    run. The output is strict UTF-8: a surrogate written to it would end the console."""
    script = (b"as alice\n/challenge @bob xiangqi seat:red\nas bob\n/accept\nas alice\n"
              b"/note #1 centre \xed\xa0\x80 cannon\n"  # an encoded surrogate: not UTF-8
              b"as \xff\xfe\n"
              b"/note #1 a\x00b\n"
              b"/note #1 \x1b[2Jwiped\n"
              b"/note #1 centre cannon\n/note #1\n")
    stdin = io.TextIOWrapper(io.BytesIO(script), encoding="utf-8", errors="surrogateescape")
    raw = io.BytesIO()
    stdout = io.TextIOWrapper(raw, encoding="utf-8", errors="strict", write_through=True)
    status = asyncio.run(run_console(tmp_path / "t.db", stdin=stdin, stdout=stdout))
    text = raw.getvalue().decode("utf-8")
    assert status == 0 and "Traceback" not in text
    assert "! the line contains U+DCED, half of a character without its other half" in text
    assert "! the line contains U+DCFF, half of a character" in text
    assert "! the line contains the control character U+0000, which text cannot hold" in text
    assert "! the line contains the control character U+001B" in text
    assert "\x1b" not in text and "\x00" not in text
    assert text.count("note kept") == 1
    assert "your note on #1: centre cannon" in text
