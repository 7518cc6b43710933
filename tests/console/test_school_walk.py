"""What a demanding new player met in the console's school commands (puzzles, the opening
explorer, imports): each test is one thing he tripped over, walked as he would."""

from __future__ import annotations

from tests.console.test_puzzles import session


def test_the_daily_puzzle_on_an_empty_server_says_when_it_comes() -> None:
    """"/puzzle daily on" on a console with no finished game said "the first at the next
    sweep"; the sweeps came and went with no puzzle, and nothing said why."""
    text = session(["as alice", "/puzzle daily on", "/sweep", "/sweep +1"])
    assert ("Daily puzzle on: one a day. There is no puzzle to post yet: the first comes "
            "within a day of one being found in this server's finished games.") in text
    assert "the first at the next sweep" not in text
