"""Imported players the record did not name are told apart by their seats (in a
four-player import all four read "an imported player"): "an imported player
(Turquoise) played e3xc3", "an imported player (Turquoise) won", a team-mate "(with an
imported player (Black))"; in a list of seats, where the seat is said beside him, he is
"an imported player" as before. Named ones keep their names."""

from __future__ import annotations

import io
import random
from pathlib import Path

from bot.console import ShiftedClock, open_console
from storage import MemoryRepository
from tests.console.test_messages import after
from tests.service.conftest import SetClock


def _four(mode: str, body: str, tags: str = "") -> str:
    return (f'[Game "alquerque-grande"]\n[Options \'{{"mode": "{mode}", "players": 4}}\']'
            f"\n{tags}\n{body}\n")


async def _run(lines: list[str], locale: str | None = None) -> str:
    out = io.StringIO()
    console = open_console(MemoryRepository(), out, clock=ShiftedClock(SetClock()),
                           rng=random.Random(1), locale=locale)
    for line in lines:
        out.write(f"> {line}\n")
        await console.handle(line)
    return out.getvalue()


async def test_each_ply_names_its_player_by_seat(tmp_path: Path) -> None:
    record = tmp_path / "four.txt"
    record.write_text(_four("slow", "1. c3-d4 2. e3xc3"))
    out = await _run(["as alice", f"/import {record}", "/board #1 ply:1", "/board #1 ply:2"])
    assert after(out, "/board #1 ply:1").startswith(
        "#1 · After move 1 of 2: an imported player (White) played c3-d4\n")
    two = after(out, "/board #1 ply:2")
    assert two.startswith(
        "#1 · After move 2 of 2: an imported player (Turquoise) played e3xc3\n")
    assert "  White: an imported player\n" in two  # beside its seat: no seat twice
    german = await _run(["as alice", f"/import {record}", "/board #1 ply:2"], "de")
    assert "ein importierter Spieler (Türkis)" in after(german, "/board #1 ply:2")


async def test_the_result_and_team_mates_name_them_by_seat(tmp_path: Path) -> None:
    fast = tmp_path / "fast.txt"
    fast.write_text(_four("fast", "1. c3-d4 2. e3xc3 3. {White resigns.}"))
    teams = tmp_path / "teams.txt"
    teams.write_text(_four("teams", "1. c3-d4 2. e3xc3"))
    out = await _run(["as alice", f"/import {fast}", "/history #1", f"/import {teams}",
                      "/history #2"])
    header = after(out, "/history #1").splitlines()[0]
    assert "finished: an imported player (Turquoise) won (a player resigned; ranked on " \
        "captures)" in header
    assert "White: an imported player (out); Turquoise: an imported player;" in header
    mates = after(out, "/history #2").splitlines()[0]
    assert "White: an imported player (with an imported player (Black))" in mates
    assert "Turquoise: an imported player (with an imported player (Red))" in mates


async def test_named_players_keep_their_names(tmp_path: Path) -> None:
    record = tmp_path / "named.txt"
    record.write_text(_four("teams", "1. c3-d4 2. e3xc3",
                            '[White "Ana"]\n[Turquoise "Tomás"]\n[Black "Bea"]\n'))
    out = await _run(["as alice", f"/import {record}", "/board #1 ply:2", "/history #1"])
    assert after(out, "/board #1 ply:2").startswith(
        "#1 · After move 2 of 2: Tomás (imported) played e3xc3\n")
    header = after(out, "/history #1").splitlines()[0]
    assert "White: Ana (imported) (with Bea (imported))" in header
    assert "Turquoise: Tomás (imported) (with an imported player (Red))" in header


async def test_the_analysis_notes_name_them_by_seat() -> None:
    """The analysis pictures' notes (Discord and the console draw them) and the web's
    costly moves name an unnamed imported player by his seat in the game."""
    from bot.discordapp.media import move_notes
    from locales.analysis import CostKind
    from locales.i18n import render
    from service import MatchService
    from service.imported_seats import imported_player
    from service.views import AnalysedMove
    from tests.service.conftest import ALICE, CHANNEL, GUILD, Recorder

    service = MatchService(MemoryRepository(), Recorder(), SetClock())
    done = await service.import_record(GUILD, CHANNEL, ALICE, _four("slow", "1. c3-d4 2. e3xc3"))
    turquoise = imported_player("", 1)
    marked = [AnalysedMove(1, 1, turquoise, "e3xc3", "e3-d3", 250, CostKind.PAWNS, 250)]
    note = move_notes(marked, GUILD, service.names, done.match)[1]
    assert render(note, "en-US").startswith("Move 2, an imported player (Turquoise): ")
    assert render(move_notes(marked, GUILD, service.names)[1], "en-US").startswith(
        "Move 2, an imported player: ")  # no game to name the seat of
