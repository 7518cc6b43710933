"""``tablero selfplay``: the command line, the score table and the JSON-lines records,
whose moves replay to the recorded result (Querni ``choose`` arrangements first)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import rules
from bot.__main__ import main


def replay(record: dict[str, object]) -> rules.Outcome | None:
    v = rules.variant(str(record["game"]))
    p = v.start(**dict(record["options"]))  # type: ignore[arg-type]
    for text in record["moves"]:  # type: ignore[attr-defined]
        if p.in_setup:
            seat = min(p.to_move)
            p = p.play(v.parse_arrangement(p, seat, text))
        else:
            p = p.play(v.parse_move(p, text))
    return p.outcome()


@pytest.mark.parametrize(("game", "options", "levels"), [
    ("alquerque", [], "2,0"),
    ("querni", ["--option", "setup=choose"], "3,1"),
    ("alquerque-grande", ["--option", "players=4", "--option", "mode=fast"], "1,0,1,0"),
])
def test_selfplay_prints_scores_and_writes_replayable_records(
        game: str, options: list[str], levels: str, tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    records = tmp_path / "games.jsonl"
    code = main(["selfplay", game, *options, "--levels", levels, "--games", "2",
                 "--movetime", "200", "--seed", "4", "--records", str(records)])
    assert code == 0
    out, err = capsys.readouterr()
    assert "2/2" in err  # the progress bar
    assert "wins" in out and "points" in out
    lines = records.read_text().splitlines()
    assert len(lines) == 2
    seats = len(levels.split(","))
    for i, line in enumerate(lines):
        record = json.loads(line)
        assert set(record) == {"game", "options", "levels", "moves", "result"}
        assert len(record["levels"]) == seats
        rotated = levels.split(",")[i:] + levels.split(",")[:i]
        assert record["levels"] == [int(x) for x in rotated]  # seats rotate
        outcome = replay(record)
        assert outcome is not None
        assert record["result"]["winners"] == sorted(outcome.winners)
        assert record["result"]["reason"] == outcome.reason


def test_selfplay_refuses_the_wrong_number_of_levels(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["selfplay", "damas", "--levels", "1,2,3", "--games", "1"]) == 2
    assert "give 2 levels" in capsys.readouterr().err


def test_same_seed_same_games(tmp_path: Path) -> None:
    texts = []
    for name in ("a", "b"):
        path = tmp_path / f"{name}.jsonl"
        assert main(["selfplay", "damas", "--levels", "3,2", "--games", "2", "--seed", "9",
                     "--movetime", "60000",
                     "--records", str(path)]) == 0
        texts.append(path.read_text())
    assert texts[0] == texts[1]


def test_each_random_deal_is_played_from_both_seats(tmp_path: Path) -> None:
    path = tmp_path / "games.jsonl"
    assert main(["selfplay", "querni", "--option", "setup=random", "--levels", "1,0",
                 "--games", "4", "--seed", "3", "--movetime", "50",
                 "--records", str(path)]) == 0
    records = [json.loads(line) for line in path.read_text().splitlines()]
    deals = [record["options"]["seed"] for record in records]
    assert deals[0] == deals[1] and deals[2] == deals[3] and deals[0] != deals[2]
    assert records[0]["levels"] == records[1]["levels"][::-1]  # the seats swapped
    assert all(replay(record) is not None for record in records)


def test_a_run_split_in_pieces_plays_the_same_games() -> None:
    """The ladder plays a long pair in pieces (``first``): games 2-3 of a run are the
    run's own games 2-3, deals and seat rotation included, so the pieces add up."""
    import io

    from engine.selfplay import run

    whole, tail = io.StringIO(), io.StringIO()
    run("querni", {"setup": "random"}, [1, 0], games=4, seed=5, seconds=60.0, records=whole)
    scores = run("querni", {"setup": "random"}, [1, 0], games=2, seed=5, seconds=60.0,
                 records=tail, first=2)
    assert tail.getvalue().splitlines() == whole.getvalue().splitlines()[2:]
    assert scores[1].games == scores[0].games == 2
