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


def _opening_line(key: str, options: dict[str, object], seed: int, plies: int) -> tuple[str, ...]:
    """The first ``plies`` moves of a game whose engine plays the first legal move: the
    random opening's moves and the plies it leaves to the engine."""
    import random

    from engine.selfplay import Opening

    v = rules.variant(key)
    p = v.start(**options)  # type: ignore[arg-type]
    opening = Opening(p.seat_count, random.Random(seed))
    line: list[str] = []
    while len(line) < plies and p.outcome() is None:
        seat = min(p.to_move)
        move = opening.move(p, seat)
        if move is None:
            move = p.legal_moves()[0]
        line.append(v.format_move(p, move))
        p = p.play(move)
    return tuple(line)


@pytest.mark.parametrize(("key", "options"), [
    ("alquerque", {}),
    ("alquerque-grande", {"players": 4, "mode": "fast"}),
    ("alquerque-grande", {"players": 4, "mode": "teams"}),
    ("alquerque-grande", {"players": 2, "rules": "grande"}),
    ("damas", {}),
])
def test_openings_vary_where_one_random_move_per_seat_would_repeat_games(
        key: str, options: dict[str, object]) -> None:
    """Levels 7 and 8 make no mistakes: from the same opening they replay the same
    game. One random move per seat gave Alquerque 5 openings and Alquerque grande 4-8,
    so the ladder's 100 games were a dozen replayed; the opening now goes on with quiet
    moves until it could have gone 1 000 ways: 24 games, at least 18 different."""
    lines = {_opening_line(key, options, seed, 16) for seed in range(24)}
    assert len(lines) >= 18


def test_xiangqi_and_querni_openings_stay_one_random_move_per_seat() -> None:
    """Where one move per seat already gives 1 000 ways (xiangqi 42 x 44, Querni's 60
    moves a turn) the opening is as before, so their measured ladders stand."""
    import random

    from engine.selfplay import Opening

    for key in ("xiangqi", "querni"):
        p = rules.variant(key).start()
        opening = Opening(2, random.Random(3))
        for seat in (0, 1):
            move = opening.move(p, seat)
            assert move is not None
            p = p.play(move)
        assert opening.move(p, 0) is None and opening.over


@pytest.mark.parametrize(("key", "options"), [
    ("alquerque", {}),
    ("alquerque-grande", {"players": 4, "mode": "fast"}),
    ("damas", {}),
])
def test_later_opening_moves_keep_the_balance(key: str, options: dict[str, object]) -> None:
    """After each seat's first move (in Alquerque from the first move on) the random
    opening picks only among quiet moves at most OPENING_MARGIN worse than the best
    quiet one by a one-ply look: a random move that throws a stone away would decide
    the game before the levels play. Over 8 openings some quiet moves were left out,
    and none of them was played."""
    import random

    from engine.models import model_for
    from engine.search import Limits, Search
    from engine.selfplay import OPENING_MARGIN, Opening, _quiet_moves

    v = rules.variant(key)
    left_out = 0
    for seed in range(8):
        p = v.start(**options)  # type: ignore[arg-type]
        opening = Opening(p.seat_count, random.Random(seed))
        firsts: set[int] = set()
        balanced_first = model_for(v, p).paired_balanced_openings
        while not opening.over and p.outcome() is None:
            seat = min(p.to_move)
            quiet = _quiet_moves(p, only=True)
            move = opening.move(p, seat)
            if move is not None and quiet and (seat in firsts or balanced_first):
                ranked = Search(model_for(v, p), p, Limits()).ranked()
                values = {m: value for value, m in ranked if m in quiet}
                best = max(values.values())
                assert values[move] >= best - OPENING_MARGIN
                left_out += sum(value < best - OPENING_MARGIN for value in values.values())
            firsts.add(seat)
            p = p.play(move if move is not None else p.legal_moves()[0])
    assert left_out > 0


def test_alquerque_first_opening_moves_keep_the_balance_elsewhere_any_quiet_move() -> None:
    """Alquerque's (and Alquerque grande's but ``fast``) first opening move keeps the
    balance too: ``b2-c3`` gives a stone away (the reply takes it), and level 8 lost
    games to random moves from such openings. Xiangqi, damas, Querni and ``fast`` keep
    a first move of any quiet one, so the openings their measured ladders were played
    with stand: there a first move that gives material away is still drawn."""
    import random

    from engine.models import model_for
    from engine.selfplay import Opening

    v = rules.variant("alquerque")
    p = v.start()
    firsts = {v.format_move(p, Opening(2, random.Random(seed)).move(p, 0))  # type: ignore[arg-type]
              for seed in range(40)}
    assert "b2-c3" not in firsts and "d2-c3" not in firsts and firsts
    assert {v.format_move(p, m) for m in p.legal_moves()} > firsts

    grande = rules.variant("alquerque-grande")
    on = {key: model_for(grande, grande.start(**opts)).paired_balanced_openings  # type: ignore[arg-type]
          for key, opts in [("2p alquerque", {"players": 2, "rules": "alquerque"}),
                            ("2p grande", {"players": 2, "rules": "grande"}),
                            ("teams", {"players": 4, "mode": "teams"}),
                            ("slow", {"players": 4, "mode": "slow"}),
                            ("fast", {"players": 4, "mode": "fast"})]}
    assert on == {"2p alquerque": True, "2p grande": True, "teams": True, "slow": True,
                  "fast": False}
    for key in ("xiangqi", "damas", "querni"):
        assert not model_for(rules.variant(key)).paired_balanced_openings

    # fast still draws a first move that gives stones away: its ladder was measured so
    p = grande.start(players=4, mode="fast")
    drawn = {Opening(4, random.Random(seed)).move(p, 0) for seed in range(40)}
    assert len(drawn) == len(p.legal_moves()) == 2


def test_paired_openings_are_played_from_every_seating_and_only_where_asked() -> None:
    """Where the model asks for paired openings (Alquerque), games 2k and 2k+1 open
    alike with the levels' seats swapped, and the next pair opens otherwise (over 8
    pairs, at least 2 different openings); with four seats ([a, b, a, b]: two
    seatings) likewise. Elsewhere (damas) each game draws its own opening. (Only the
    first plies are compared: where the opening has no quiet move the engine fills
    in a ply, and two levels may fill it differently.)"""
    import io
    import json

    from engine.selfplay import run

    def openings(key: str, options: dict[str, object], levels: list[int],
                 games: int, plies: int) -> list[tuple[list[int], tuple[str, ...]]]:
        out = io.StringIO()
        run(key, options, levels, games=games, seed=5, records=out)
        return [(r["levels"], tuple(r["moves"][:plies]))
                for r in map(json.loads, out.getvalue().splitlines())]

    games = openings("alquerque", {}, [1, 0], 16, 3)
    for (levels_a, line_a), (levels_b, line_b) in zip(games[::2], games[1::2], strict=True):
        assert levels_a == levels_b[::-1] and line_a == line_b
    assert len({line for _, line in games}) >= 2

    four = openings("alquerque-grande", {"players": 4, "mode": "teams"}, [1, 0, 1, 0], 4, 4)
    assert four[0][1] == four[1][1] and four[2][1] == four[3][1]
    assert four[0][0] == [1, 0, 1, 0] and four[1][0] == [0, 1, 0, 1]

    damas = openings("damas", {}, [1, 0], 8, 4)
    assert sum(a == b for (_, a), (_, b) in zip(damas[::2], damas[1::2], strict=True)) < 4


def test_a_ladder_pair_played_in_parts_is_the_pair_played_at_once(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """``bench_ladder --part K`` plays the K-th piece of a pair alone (a long pair over
    several sittings); the table shows the pieces so far as unfinished, and once every
    piece is in, the pair exactly as one run of all its games."""
    import sys

    from bench import bench_ladder

    def ladder(*args: str) -> str:
        monkeypatch.setattr(sys, "argv", ["bench_ladder.py", *args])
        bench_ladder.main()
        return capsys.readouterr().out

    common = ["--config", "alquerque", "--pairs", "1v0", "--games", "6", "--jobs", "1"]
    parts, whole = tmp_path / "parts.jsonl", tmp_path / "whole.jsonl"
    ladder(*common, "--pieces", "3", "--part", "3", "--results", str(parts))
    ladder(*common, "--pieces", "3", "--part", "1", "--results", str(parts))
    unfinished = ladder("--table", str(parts))
    assert "4 games so far (2 of 3 pieces)" in unfinished
    assert "L1 vs L0     6 games" not in unfinished
    ladder(*common, "--pieces", "3", "--part", "2", "--results", str(parts))
    ladder(*common, "--results", str(whole))

    def row(table: str) -> str:
        line = next(x for x in table.splitlines() if "L1 vs L0" in x)
        return line.rsplit(" s", 1)[0].rsplit(maxsplit=1)[0]  # without the seconds
    assert row(ladder("--table", str(parts))) == row(ladder("--table", str(whole)))
    assert "so far" not in ladder("--table", str(parts))
    with pytest.raises(SystemExit):
        ladder(*common, "--pieces", "3", "--part", "4")


def test_ladder_docstring_examples() -> None:
    """The ladder's examples (joining pieces, parsing pairs) are run, not just read."""
    import doctest

    from bench import bench_ladder

    failed, tried = doctest.testmod(bench_ladder)
    assert failed == 0 and tried > 0
