"""Names survive restarts (issue 20 §2): the display names seen are stored per server, so
after reopening the console (or restarting the bot) results and boards say "alice",
not ``user4123768104`` or a seat colour."""

from __future__ import annotations

import io
from pathlib import Path

from bot.console import CONSOLE_GUILD, ShiftedClock, run_console, user_id
from bot.names import MAX_NAME, NameBook
from storage import MemoryRepository, SqliteRepository


async def console(db: Path, script: str, clock: ShiftedClock | None = None) -> str:
    out = io.StringIO()
    assert await run_console(db, stdin=io.StringIO(script), stdout=out, seed=1,
                             clock=clock) == 0
    return out.getvalue()


async def test_the_console_names_players_after_it_is_reopened(tmp_path: Path) -> None:
    db = tmp_path / "n.db"
    await console(db, "as alice\n/challenge @bob xiangqi seat:red days:1\nas bob\n/accept\n"
                      "as alice\n/move h3-e3\nas bob\n/move h10-g8\nas alice\n/move i1-i2\n"
                      "as bob\n/resign\n")
    # Reopened by someone else, who has not typed anyone's name: the result, the export
    # and the leaderboard still name both players.
    text = await console(db, "as carol\n/history #1\n/leaderboard xiangqi\n")
    assert "alice won (opponent resigned)" in text
    assert "user" + str(user_id("alice")) not in text
    assert "user" + str(user_id("bob")) not in text
    assert '[Red "alice"]' in text and '[Black "bob"]' in text
    assert "1. alice" in text and "2. bob" in text  # the leaderboard


async def test_names_are_stored_per_server_and_the_newest_wins(tmp_path: Path) -> None:
    repo = await SqliteRepository.open(tmp_path / "b.db")
    try:
        book = NameBook(repo)
        await book.seen(1, 42, "alice")
        await book.seen(2, 42, "Alice in server 2")
        await book.seen(1, 42, "  alice   the   great ")
        await book.seen(1, 43, "x" * 100)
        await book.seen(1, 44, "   ")  # nothing to remember
        fresh = NameBook(repo)
        await fresh.load()
        assert fresh(1, 42) == "alice the great" and fresh(2, 42) == "Alice in server 2"
        assert fresh(1, 43) == "x" * MAX_NAME and fresh(1, 44) == "" and fresh(3, 42) == ""
        one = NameBook(repo)
        await one.load(2)
        assert one.in_guild(2) == {42: "Alice in server 2"} and one(1, 42) == ""
    finally:
        await repo.close()


async def test_a_book_without_a_store_keeps_names_in_memory_only() -> None:
    book = NameBook(object())  # not a NameStore: nothing is written anywhere
    await book.seen(CONSOLE_GUILD, 7, "dave")
    assert book(CONSOLE_GUILD, 7) == "dave" and book.store is None
    memory = NameBook(MemoryRepository())
    await memory.seen(5, 6, "erin")
    again = NameBook(memory.store)
    await again.load()
    assert again(5, 6) == "erin"


async def test_every_player_named_with_an_at_is_named_after_a_restart(tmp_path: Path) -> None:
    """Issue 38, item 12: a player named only in /follow, /stats or /tournament remove
    (never with ``as`` or /challenge) is named after the console is reopened, not
    ``user1655898019``."""
    db = tmp_path / "f.db"
    await console(db, "as carol\n/follow @dave\n/stats @erin\n"
                      "/tournament create damas swiss rounds:2\n/tournament remove @frank\n")
    text = await console(db, "as carol\n/follow\n/stats @erin\n")
    for name in ("dave", "erin"):
        assert "user" + str(user_id(name)) not in text
    assert "following dave" in text
    repo = await SqliteRepository.open(db)
    try:
        book = NameBook(repo)
        await book.load()
        assert book(CONSOLE_GUILD, user_id("frank")) == "frank"
    finally:
        await repo.close()


async def test_moves_played_on_the_web_are_told_with_names_when_the_console_opens(
        tmp_path: Path) -> None:
    """A move played on the web page (``tablero web``: another process over the same
    file) is told by the console when it opens next, as an entry its outbox kept: with
    the players' names, not ``user4123768104`` (the entries were told before the stored
    names were read)."""
    from service import MatchService, NullNotifier, SystemClock

    db = tmp_path / "w.db"
    await console(db, "as alice\n/challenge @bob xiangqi seat:red\nas bob\n/accept\n")
    repo = await SqliteRepository.open(db)
    try:  # the web process's service: it tells nobody; the console tells its entries
        web = MatchService(repo, NullNotifier(), SystemClock())
        await web.move(1, user_id("alice"), "h3-e3")
    finally:
        await repo.close()
    text = await console(db, "as carol\n")
    assert "#1: alice played h3-e3 (C2.5) - bob to move" in text
    assert "user" + str(user_id("alice")) not in text
