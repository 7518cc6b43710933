"""Alquerque grande with two players (RULES §2 options, §2.5): by default the original
Alquerque rules of §1 on the 7×7 board; ``rules=grande`` keeps the author's rule set;
matches recorded under rules version 1 keep ``grande``.

Each test names the clause it guards; tests/rules/RULES_COVERAGE.md maps every clause.
"""

from __future__ import annotations

import pytest

import rules
from rules.alquerque import AlquerquePosition
from rules.alquerque_grande import AlquerqueGrandePosition

G = rules.variant("alquerque-grande")
FILES = "abcdefg"


def pos(white: str, black: str, turn: str = "w", memories: str = "-") -> AlquerquePosition:
    """A §2.5 position from point lists, through the three-field position text."""
    cells = {name: "W" for name in white.split()} | {name: "B" for name in black.split()}
    ranks = ["".join(cells.get(f"{f}{r}", ".") for f in FILES) for r in range(7, 0, -1)]
    p = G.from_text(f"{'/'.join(ranks)} {turn} {memories}")
    assert isinstance(p, AlquerquePosition)
    return p


def moves(p: rules.Position) -> list[str]:
    return sorted(G.format_move(p, m) for m in p.legal_moves())


def refused(p: rules.Position, text: str) -> str:
    with pytest.raises(rules.IllegalMoveError) as err:
        G.parse_move(p, text)
    return err.value.message


def play(p: rules.Position, text: str) -> rules.Position:
    return p.play(G.parse_move(p, text))


# --------------------------------------------------------------------------- §2 options


def test_two_players_play_the_original_rules_by_default() -> None:
    p = G.start(players=2)
    assert isinstance(p, AlquerquePosition) and p.variant is G and p.seat_count == 2
    assert G.start(players=2, rules="alquerque") == p
    assert isinstance(G.start(players=2, rules="grande"), AlquerqueGrandePosition)
    assert G.options["rules"] == ("alquerque", "grande")
    assert G.check_options({"players": 2}) == {"players": 2, "rules": "alquerque"}
    assert G.check_options({}) == {"players": 4, "mode": "teams"}


def test_rules_is_refused_with_four_players_and_checked() -> None:
    with pytest.raises(rules.OptionError, match="rules is for 2 players only"):
        G.start(players=4, rules="grande")
    with pytest.raises(rules.OptionError, match="not allowed"):
        G.start(players=2, rules="huffing")
    with pytest.raises(rules.OptionError, match="mode is for 4 players only"):
        G.start(players=2, rules="alquerque", mode="fast")


# --------------------------------------------------------------------------- §2.5 start and steps


def test_the_two_player_start_of_2_2_with_original_moves() -> None:
    p = G.start(players=2)
    white = {f"{f}{r}" for f in FILES for r in (1, 2, 3)} | {"e4", "f4", "g4"}
    black = {f"{f}{r}" for f in FILES for r in (5, 6, 7)} | {"a4", "b4", "c4"}
    pieces = {f"{FILES[x]}{y + 1}": pc.seat for (x, y), pc in p.pieces().items()}
    assert {k for k, s in pieces.items() if s == 0} == white
    assert {k for k, s in pieces.items() if s == 1} == black
    assert moves(p) == ["c3-d4", "d3-d4", "e3-d4", "e4-d4"]
    assert p.to_text() == ("BBBBBBB/BBBBBBB/BBBBBBB/BBB.WWW/WWWWWWW/WWWWWWW/WWWWWWW w -")


def test_steps_go_forward_diagonally_forward_or_sideways_never_back() -> None:
    p = pos("d4", "a7")
    assert moves(p) == ["d4-c4", "d4-c5", "d4-d5", "d4-e4", "d4-e5"]
    assert refused(p, "d4-d3") == "pieces never move backwards"
    assert refused(p, "d4-c3") == "pieces never move backwards"
    # no diagonal through c4 (x + y odd): only the orthogonal steps
    assert moves(pos("c4", "a7")) == ["c4-b4", "c4-c5", "c4-d4"]
    # Black's forward is towards rank 1
    assert moves(pos("a1", "d4", turn="b")) == ["d4-c3", "d4-c4", "d4-d3", "d4-e3", "d4-e4"]


def test_a_piece_on_the_far_rank_of_the_7x7_board_cannot_step_but_captures() -> None:
    p = pos("d7 a1", "g1")
    assert "d7-c7" not in moves(p) and "d7-e7" not in moves(p)
    assert refused(p, "d7-e7") == "a piece on rank 7 cannot step any more"
    q = pos("d7", "e7 a1")
    assert moves(q) == ["d7xf7"]  # sideways: the only first jump from the back rank
    # rank 5 is not the far rank here (it is on the 5×5 board)
    assert "d5-d6" in moves(pos("d5", "a1"))


def test_the_first_jump_goes_in_a_stepping_direction_later_jumps_any_way() -> None:
    p = pos("d4", "d3 a7")
    assert "d4xd2" not in moves(p)
    assert refused(p, "d4xd2") == "the first jump must go forward, diagonally forward or sideways"
    sideways = pos("c3", "c4 b5 a7")  # c3xc5 forward, then over b5 sideways
    assert moves(sideways) == ["c3xc5xa5"]
    # c3xc5, then c5 over d4 diagonally backward to e3 (own e5 blocks c3 over d4 first)
    backward = pos("c3 e5", "c4 d4 a7")
    assert moves(backward) == ["c3xc5xe3"]


def test_capturing_is_compulsory_and_sequences_complete() -> None:
    p = pos("d3 a1", "d4 g7")
    assert moves(p) == ["d3xd5"]
    assert refused(p, "a1-a2") == "a capture is compulsory: d3xd5"
    q = pos("c3 a1", "c4 b5 g7")
    assert moves(q) == ["c3xc5xa5"]
    assert refused(q, "c3xc5") == "a capture must continue: c3xc5 can go on to a5"
    # no huffing: nothing is removed besides the captured pieces
    after = play(q, "c3xc5xa5")
    assert isinstance(after, AlquerquePosition)
    assert after.last_removal() == ()
    assert after.captured_counts()[0] - q.captured_counts()[0] == 2 and after.pieces().keys() == {
        (0, 4), (0, 0), (6, 6)}


def test_the_per_piece_no_return_memory() -> None:
    p = pos("d4", "a7", turn="b")
    q = play(play(p, "a7-b7"), "d4-e4")
    assert isinstance(q, AlquerquePosition)
    assert q.memories == {(4, 3): (3, 3), (1, 6): (0, 6)}
    r = play(q, "b7-c7")
    assert "e4-d4" not in moves(r)
    assert refused(r, "e4-d4") == "this piece came from d4 and may not return there"


def test_a_player_wins_when_the_opponent_has_no_pieces_or_no_move() -> None:
    p = pos("d3", "d4")
    done = play(p, "d3xd5")
    assert done.outcome() == rules.Outcome.win(0, seats=2, reason="no-pieces")
    stuck = pos("a7", "a1 b1", turn="w")  # White's only piece is on the far rank
    assert stuck.outcome() == rules.Outcome.win(1, seats=2, reason="no-moves")


def test_resignation_with_the_original_rules_ends_the_game() -> None:
    assert G.resign(G.start(players=2), 0) == rules.Outcome.win(1, seats=2,
                                                                   reason="resignation")


def test_position_text_round_trips_and_is_read_by_the_variant() -> None:
    p = play(G.start(players=2), "d3-d4")
    text = p.to_text()
    assert text == "BBBBBBB/BBBBBBB/BBBBBBB/BBBWWWW/WWW.WWW/WWWWWWW/WWWWWWW b d3>d4"
    assert G.from_text(text) == p and G.from_text(text).to_text() == text
    with pytest.raises(rules.PositionError, match="more than 24 pieces"):
        G.from_text("WWWWWWW/WWWWWWW/WWWWWWW/WWWW.../......./......./......B b -")
    with pytest.raises(rules.PositionError, match="nine fields"):
        G.from_text("BBBBBBB w")


def test_every_legal_move_round_trips_through_notation_in_random_games() -> None:
    import random
    for seed in range(6):
        rng = random.Random(seed)
        p: rules.Position = G.start(players=2)
        while p.legal_moves():
            for m in p.legal_moves():
                assert G.parse_move(p, G.format_move(p, m)) == m
            p = p.play(rng.choice(list(p.legal_moves())))
        out = p.outcome()
        assert out is not None and out.reason in ("no-pieces", "no-moves")


# --------------------------------------------------------------------------- stored matches


def test_matches_recorded_under_version_1_keep_the_grande_rules() -> None:
    assert G.rules_version == "2"
    old = G.start_recorded("1", players=2)
    assert isinstance(old, AlquerqueGrandePosition)
    assert old.to_text() == G.start(players=2, rules="grande").to_text()
    assert old.to_text().endswith(" players=2 -")  # the text version 1 stored
    assert isinstance(G.start_recorded("2", players=2, rules="alquerque"), AlquerquePosition)
    four = G.start_recorded("1", players=4, mode="fast")
    assert isinstance(four, AlquerqueGrandePosition) and four.mode == "fast"
    with pytest.raises(rules.OptionError, match="no rules version"):
        G.start_recorded("0", players=2)
