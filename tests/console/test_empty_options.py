"""An option written with nothing after its colon (``seat:``, ``game:``, ``days:``) is
refused by name, the same way for every option of every command: ``seat:`` was read as
"no seat asked" (a random one), ``/import FILE game:`` as "the file says", ``/settings
days:`` changed nothing and said so, ``/explorer GAME line:`` showed the start. Free text
that merely ends with a colon (a note's ``todo:``) stays text."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.console.test_messages import after, play

RECORD = ('[Game "alquerque-grande"]\n[Options \'{"mode": "slow", "players": 4}\']\n\n'
          "1. c3-d4 2. e3xc3\n")


@pytest.mark.parametrize(("command", "option"), [
    ("/challenge @bob xiangqi seat:", "seat"),
    ("/challenge @bob xiangqi seat=", "seat"),
    ("/challenge @bob game:", "game"),
    ("/challenge @bob xiangqi rated:", "rated"),
    ("/challenge @bob xiangqi days:", "days"),
    ("/challenge @bob alquerque-grande players:", "players"),
    ("/settings days:", "days"),
    ("/settings vacation:", "vacation"),
    ("/leaderboard game:", "game"),
    ("/explorer xiangqi line:", "line"),
    ("/web action:", "action"),
    ("/follow player:", "player"),
    ("/board match:", "match"),
    ("/note text:", "text"),
])
async def test_an_empty_option_is_refused_by_its_name(command: str, option: str) -> None:
    out = await play(f"as alice\n{command}")
    assert after(out, command).strip() == \
        f"! the option {option} is empty: write {option}:VALUE, or leave it out"
    assert "created" not in out


async def test_empty_seat_and_game_are_refused_where_they_are_read(tmp_path: Path) -> None:
    """The lines the issue names: /challenge seat:, /join seat:, /continue seat:,
    /import FILE game: (each went on as if the option were not there)."""
    record = tmp_path / "game.txt"
    record.write_text(RECORD)
    lines = ["as alice", "/challenge alquerque-grande players:4", "as bob", "/join seat:",
             f"/import {record} game:", f"/import {record}", "/continue #2 @carol @dave "
             "@erin seat:", "/games"]
    out = await play("\n".join(lines))
    said = "! the option {0} is empty: write {0}:VALUE, or leave it out"
    assert after(out, "/join seat:").strip() == said.format("seat")
    assert after(out, f"/import {record} game:").strip() == said.format("game")
    assert after(out, "/continue #2 @carol @dave @erin seat:").strip() == said.format("seat")
    assert "lobby #1" not in after(out, "/join seat:")
    assert after(out, "/games").count("#") == 0  # bob joined nothing, nobody was asked


async def test_text_ending_with_a_colon_stays_text() -> None:
    out = await play("as alice\n/challenge @bob xiangqi seat:red\nas bob\n/accept\n"
                     "/note remember: todo:\n/note")
    assert after(out, "/note").strip().endswith("remember: todo:")
