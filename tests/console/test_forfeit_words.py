"""A console transcript: a tournament game resigned before every player had moved is a
forfeit in every line the console prints about it (the end, the reply, /board, /history),
as the pairings score it ("+/-"); a casual game ended the same way stays "aborted"."""

from __future__ import annotations

import io
from pathlib import Path

from bot.console import run_console

FORFEIT = "forfeit: ana (Black) resigned before every player had moved; bo (Red) wins"


async def test_an_early_resignation_in_a_tournament_reads_as_the_forfeit_it_scores(
        tmp_path: Path) -> None:
    script = "\n".join([
        "as ana", "/tournament create xiangqi rr name:Duo", "/tournament join",
        "as bo", "/tournament join", "as ana", "/tournament start",
        "as bo", "/move h3-e3",  # bo (Red) moved, ana (Black) never did
        "as ana", "/resign #1", "/board #1", "/history #1", "/tournament pairings",
        "/challenge @bo xiangqi", "as bo", "/accept", "/resign #2",  # not a tournament's
    ]) + "\n"
    out = io.StringIO()
    assert await run_console(tmp_path / "t.db", stdin=io.StringIO(script), stdout=out,
                             seed=4) == 0
    text = out.getvalue()
    assert f"* #1 is over: {FORFEIT}\n" in text
    assert text.count("* #1: bo played h3-e3") == 1  # the end is no move: not said again
    assert f"resigned: #1 Xiangqi (rated, 3d/move) - Red: bo; Black: ana - {FORFEIT}\n" \
        in text
    assert f"Xiangqi, match #1, after 1 move: game over ({FORFEIT}); last move h3-e3" in text
    assert f"#1 Xiangqi (rated, 3d/move) - Red: bo; Black: ana - {FORFEIT} (wxf export):" \
        in text
    assert "round 1: bo - ana  +/- match #1" in text
    assert "aborted" not in text[:text.index("> /challenge @bo")]
    assert "* #2 is over: aborted: bo (Red) resigned before every player had moved\n" \
        in text
