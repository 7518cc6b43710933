"""Spanish draughts (RULES.md §4): a scenario per rule, notation, position text, PDN, perft.

Positions are written with square names (``"d3"``, ``"Kh1"`` for a king) and turned into
PDN FEN by :func:`fen`, so each scenario reads like the diagram it describes.
"""

from __future__ import annotations

import pytest

import rules
from rules import AmbiguousMoveError, IllegalMoveError, NotationError, PositionError
from rules.core import Variant
from rules.damas import DamasMove, export_pdn, perft
from tests.rules.helpers.damas import V, fen, kinds, legal, play, pos, sq

# --------------------------------------------------------------------------- board


def test_variant_identity() -> None:
    assert V.key == "damas" and V.name == "Spanish draughts" and V.board_size == (8, 8)
    assert V.seat_name(0) == "White" and V.seat_name(1) == "Black"


def test_numbering_starts_bottom_right_and_counts_right_to_left() -> None:
    names = {"h1": 1, "f1": 2, "d1": 3, "b1": 4, "g2": 5, "e2": 6, "c2": 7, "a2": 8,
             "h3": 9, "b3": 12, "a8": 32, "g8": 29}
    for name, number in names.items():
        assert sq(name) == number


def test_playing_squares_have_odd_file_plus_rank() -> None:
    from rules.damas import POINT, SQUARES
    for n in SQUARES:
        x, y = POINT[n]
        assert (x + 1 + y + 1) % 2 == 1
    assert len({POINT[n] for n in SQUARES}) == 32
    with pytest.raises(NotationError, match="d4 is not a playing square"):
        V.parse_move(V.start(), "d4-c5")


def test_start_position() -> None:
    p = V.start()
    board = kinds(p)
    assert len(board) == 24
    assert all(board[n] == (0, "man") for n in board if int(n[1]) <= 3)
    assert all(board[n] == (1, "man") for n in board if int(n[1]) >= 6)
    assert p.to_move == {0}
    assert p.to_text() == "W:W1,2,3,4,5,6,7,8,9,10,11,12:B21,22,23,24,25,26,27,28,29,30,31,32"
    assert legal(p) == ["b3-a4", "b3-c4", "d3-c4", "d3-e4", "f3-e4", "f3-g4", "h3-g4"]


# --------------------------------------------------------------------------- men


def test_men_move_one_square_diagonally_forward() -> None:
    white = pos("W", ["d3"], ["e8"])
    assert legal(white) == ["d3-c4", "d3-e4"]
    black = pos("B", ["d1"], ["e6"])
    assert legal(black) == ["e6-d5", "e6-f5"]
    with pytest.raises(IllegalMoveError, match="men move forwards only"):
        V.parse_move(white, "d3-c2")
    with pytest.raises(IllegalMoveError, match="men move one square at a time"):
        V.parse_move(white, "d3-b5")


def test_men_capture_forward_only() -> None:
    p = pos("W", ["c4"], ["b3", "g8"])
    assert legal(p) == ["c4-b5", "c4-d5"]  # the man behind cannot be taken
    with pytest.raises(IllegalMoveError, match="men do not capture backwards"):
        V.parse_move(p, "c4xa2")
    # Black's men capture downwards, their forward
    q = pos("B", ["c4", "h1"], ["d5"])
    assert legal(q) == ["d5xb3"]


def test_men_capture_sequence_continues_forward_only() -> None:
    # from d3 the man goes on forward over c4 and c6; e2 behind it is not taken
    p = pos("W", ["b1"], ["c2", "c4", "c6", "e2"])
    assert legal(p) == ["b1xd3xb5xd7"]
    after = play(p, "b1xd3xb5xd7")
    assert kinds(after) == {"d7": (0, "man"), "e2": (1, "man")}


def test_man_three_captures_ending_on_the_far_rank() -> None:
    p = pos("W", ["e2"], ["f3", "f5", "f7", "d3"])
    assert legal(p) == ["e2xg4xe6xg8"]
    after = play(p, "e2xg4xe6xg8")
    assert kinds(after) == {"g8": (0, "king"), "d3": (1, "man")}


# --------------------------------------------------------------------------- promotion


def test_a_man_on_the_far_rank_is_crowned() -> None:
    p = pos("W", ["b7"], ["h5"])
    move = V.parse_move(p, "b7-a8")
    assert V.display_move(p, move) == "b7-a8 (28-32) crowned"
    assert kinds(p.play(move))["a8"] == (0, "king")
    black = play(pos("B", ["a4"], ["c2"]), "c2-d1")
    assert kinds(black)["d1"] == (1, "king")


def test_a_man_crowned_by_capture_ends_its_move_there() -> None:
    # From e8 a king could go on over f7 to g6, but the man's move ends when it arrives.
    p = pos("W", ["c6"], ["d7", "f7"])
    assert legal(p) == ["c6xe8"]
    after = play(p, "c6xe8")
    assert kinds(after) == {"e8": (0, "king"), "f7": (1, "man")}
    assert after.to_move == {1}


# --------------------------------------------------------------------------- kings


def test_kings_fly_any_distance_both_ways() -> None:
    p = pos("W", ["Ke4"], ["a6"])
    assert legal(p) == sorted(["e4-d5", "e4-c6", "e4-b7", "e4-a8", "e4-f5", "e4-g6", "e4-h7",
                               "e4-f3", "e4-g2", "e4-h1", "e4-d3", "e4-c2", "e4-b1"])


def test_king_captures_at_a_distance_and_lands_anywhere_beyond() -> None:
    p = pos("W", ["Kh1"], ["f3"])
    assert legal(p) == ["h1xa8", "h1xb7", "h1xc6", "h1xd5", "h1xe4"]


def test_a_king_cannot_jump_two_pieces_in_a_row() -> None:
    p = pos("W", ["Kh1"], ["f3", "e4"])
    assert not any("x" in m for m in legal(p))
    with pytest.raises(IllegalMoveError, match="passes 2 pieces"):
        V.parse_move(p, "h1xd5")


def test_a_king_must_land_where_the_capture_goes_on() -> None:
    # After f3 the king may stop on e4..a8, but only from d5 does the capture continue.
    p = pos("W", ["Kh1"], ["f3", "e6"])
    assert legal(p) == ["h1xd5xf7", "h1xd5xg8"]
    with pytest.raises(IllegalMoveError, match=r"you must take the most pieces \(2\)"):
        V.parse_move(p, "h1xc6")
    after = play(p, "h1xd5xg8")
    assert kinds(after) == {"g8": (0, "king")}


def test_captured_pieces_stay_until_the_move_ends_and_block() -> None:
    # a2xe6xc8xa6 takes c4, d7, b7. From a6, b5 could only be taken by jumping through c4,
    # which is still on the board (no "Turkish strike"), so the move ends at a6.
    p = pos("W", ["Ka2"], ["c4", "d7", "b7", "b5"])
    assert legal(p) == ["a2xe6xc8xa6"]
    move = V.parse_move(p, "a2xe6xc8xa6")
    assert move.captured == (sq("c4"), sq("d7"), sq("b7"))
    assert kinds(p.play(move)) == {"a6": (0, "king"), "b5": (1, "man")}


def test_a_captured_piece_cannot_be_jumped_twice() -> None:
    # Landing on e4 after taking f3, the king may not take f3 again on the way back.
    p = pos("W", ["Kh1"], ["f3"])
    assert all(len(m.captured) == 1 for m in p.legal_moves())


def test_a_king_may_cross_the_same_square_again_and_end_where_it_started() -> None:
    p = pos("W", ["Kd1"], ["e2", "e4", "c4", "c2"])
    assert legal(p) == ["d1xb3xd5xf3xd1"]
    after = play(p, "d1xb3xd5xf3xd1")
    assert kinds(after) == {"d1": (0, "king")}
    assert after.outcome() == rules.Outcome.win(0, seats=2, reason="no-pieces")


# --------------------------------------------------------------------------- compulsory capture


def test_capturing_is_compulsory() -> None:
    p = pos("W", ["c4", "e2"], ["d5", "g8"])
    assert legal(p) == ["c4xe6"]
    with pytest.raises(IllegalMoveError, match="a capture is compulsory: c4xe6"):
        V.parse_move(p, "e2-f3")


def test_quantity_rule_takes_the_most_pieces() -> None:
    p = pos("W", ["e2"], ["f3", "f5", "f7", "d3"])
    with pytest.raises(IllegalMoveError, match=r"you must take the most pieces \(3\)"):
        V.parse_move(p, "e2xc4")
    # the king's three (b7, f5, f7) and the man's three both stay; c2 alone would be one
    q = pos("W", ["e2", "Ka8"], ["f3", "f5", "f7", "b7", "c2"])
    assert legal(q) == ["a8xe4xg6xe8", "e2xg4xe6xg8"]


def test_quality_rule_takes_the_most_kings() -> None:
    p = pos("W", ["d3"], ["c4", "Ke4"])
    assert legal(p) == ["d3xf5"]
    with pytest.raises(IllegalMoveError, match="of equal captures you must take the most kings"):
        V.parse_move(p, "d3xb5")


def test_quantity_beats_quality() -> None:
    # two men beat one king
    p = pos("W", ["d3"], ["Kc4", "e4", "e6"])
    assert legal(p) == ["d3xf5xd7"]


def test_further_ties_are_a_free_choice_of_man_or_king() -> None:
    p = pos("W", ["d3", "Kh7"], ["c4", "f5"])
    assert legal(p) == ["d3xb5", "h7xe4"]


# --------------------------------------------------------------------------- move identity


def test_paths_with_the_same_start_end_and_captures_are_one_move() -> None:
    p = pos("W", ["Kd1"], ["e2", "e4", "c4", "c2"])
    assert len(p.legal_moves()) == 1 and perft(p, 1) == 1
    # either way round names the move; its canonical string is the smaller path
    assert V.parse_move(p, "d1xf3xd5xb3xd1") == V.parse_move(p, "d1xb3xd5xf3xd1")
    assert V.format_move(p, V.parse_move(p, "3x10x19x12x3")) == "d1xb3xd5xf3xd1"
    alternative = DamasMove((sq("d1"), sq("f3"), sq("d5"), sq("b3"), sq("d1")),
                            tuple(sq(n) for n in ("e2", "e4", "c4", "c2")))
    assert p.play(alternative) == p.play(p.legal_moves()[0])


def test_different_captured_sets_are_different_moves() -> None:
    p = pos("W", ["e2"], ["f3", "f5", "d3", "d5"])
    assert legal(p) == ["e2xc4xe6", "e2xg4xe6"]
    with pytest.raises(AmbiguousMoveError) as err:
        V.parse_move(p, "e2xe6")
    assert err.value.candidates == ("e2xc4xe6", "e2xg4xe6")
    with pytest.raises(IllegalMoveError, match="no capture leads from e2 to e8"):
        V.parse_move(p, "e2xe8")


# --------------------------------------------------------------------------- notation


def test_pdn_numbers_and_short_captures_are_accepted() -> None:
    p = V.start()
    assert V.format_move(p, V.parse_move(p, "11-15")) == "d3-c4"
    assert V.format_move(p, V.parse_move(p, " 11 - 15 ")) == "d3-c4"
    assert V.format_move(p, V.parse_move(p, "D3C4")) == "d3-c4"
    q = pos("W", ["e2"], ["f3", "f5", "f7", "d3"])
    full = V.parse_move(q, "6x13x22x29")
    assert V.parse_move(q, "6x29") == full == V.parse_move(q, "e2xg8")
    assert V.parse_move(q, "6:13:22:29") == full
    assert V.display_move(q, full) == "e2xg4xe6xg8 (6x13x22x29) crowned"
    assert V.display_move(p, V.parse_move(p, "11-15")) == "d3-c4 (11-15)"


def test_move_marks_list_every_landing_square_and_the_captures() -> None:
    p = pos("W", ["Kh1"], ["f3", "e6"])
    marks = V.move_marks(p, V.parse_move(p, "h1xd5xg8"))
    assert marks.path == ((7, 0), (3, 4), (6, 7))
    assert marks.captured == ((5, 2), (4, 5))


@pytest.mark.parametrize(("text", "error", "message"), [
    ("d3-c5", NotationError, "c5 is not a playing square"),
    ("33-29", NotationError, "there is no square 33"),
    ("11-", NotationError, "is not a move"),
    ("e4-f5", IllegalMoveError, "there is no piece on e4"),
    ("22-18", IllegalMoveError, "is Black's; White is to move"),
    ("d1-c2", IllegalMoveError, "c2 is occupied"),
    ("d3-h5", IllegalMoveError, "not along a diagonal"),
    ("h3-e6", IllegalMoveError, "e6 is occupied"),
])
def test_errors_say_why(text: str, error: type[Exception], message: str) -> None:
    with pytest.raises(error, match=message):
        V.parse_move(V.start(), text)


def test_playing_an_illegal_move_value_says_why() -> None:
    p = pos("W", ["c4", "e2"], ["d5", "g8"])
    with pytest.raises(IllegalMoveError, match="a capture is compulsory"):
        p.play(DamasMove((sq("e2"), sq("f3"))))
    with pytest.raises(IllegalMoveError):
        p.play("e2-f3")


# --------------------------------------------------------------------------- endings


def test_no_pieces_loses() -> None:
    p = pos("W", ["c4"], ["d5"])
    after = play(p, "c4xe6")
    assert after.outcome() == rules.Outcome.win(0, seats=2, reason="no-pieces")
    assert after.legal_moves() == () and after.to_move == frozenset()


def test_no_legal_move_loses() -> None:
    p = pos("B", ["b1"], ["a2"])
    assert p.outcome() == rules.Outcome.win(0, seats=2, reason="no-moves")
    with pytest.raises(IllegalMoveError, match="the game is over"):
        V.parse_move(p, "a2-b1")


SHUFFLE = ["b1-a2", "a8-b7", "a2-b1", "b7-a8"]


def test_threefold_repetition_draws() -> None:
    p = pos("W", ["Kb1"], ["Ka8"])
    seen = play(p, *SHUFFLE[:3])
    assert seen.outcome() is None
    twice = play(p, *SHUFFLE)  # the start position for the second time
    assert twice.outcome() is None
    thrice = play(twice, *SHUFFLE[:3])
    assert thrice.outcome() is None
    drawn = play(thrice, SHUFFLE[3])
    assert drawn.outcome() == rules.Outcome.draw(seats=2, reason="repetition")
    assert drawn.legal_moves() == ()
    # loaded from text, a position is its own first occurrence
    fresh = V.from_text(thrice.to_text())
    assert play(fresh, SHUFFLE[3]).outcome() is None


def test_a_man_move_clears_the_repetition_history() -> None:
    p = play(pos("W", ["Kb1", "h3"], ["Ka8"]), *SHUFFLE)  # the start, second time
    moved = play(p, "h3-g4")  # men cannot go back: nothing before this can repeat
    assert moved.history == ()
    black_shuffle = ["a8-b7", "b1-a2", "b7-a8", "a2-b1"]
    assert play(moved, *black_shuffle).outcome() is None
    drawn = play(moved, *black_shuffle, *black_shuffle)
    assert drawn.outcome() == rules.Outcome.draw(seats=2, reason="repetition")


def test_forty_king_plies_without_capture_draw() -> None:
    p = pos("W", ["Kb1"], ["Ka8"], ":H36")
    assert p.to_text().endswith(":H36")
    p = play(p, "b1-c2", "a8-b7", "c2-d1")
    assert p.king_plies == 39 and p.outcome() is None
    p = play(p, "b7-a8")
    assert p.outcome() == rules.Outcome.draw(seats=2, reason="move-limit")


def test_a_man_move_or_capture_resets_the_king_ply_count() -> None:
    p = pos("W", ["Kb1", "h3"], ["Ka8"], ":H38")
    assert play(p, "h3-g4").king_plies == 0
    q = pos("W", ["Kb1"], ["Ka8", "c2"], ":H38")
    assert play(q, "b1xd3").king_plies == 0


def test_a_win_on_the_fortieth_king_ply_beats_the_draw() -> None:
    # the king's 40th ply blocks Black's last man: Black cannot move and loses
    p = pos("W", ["Kc2"], ["a2"], ":H39")
    after = play(p, "c2-b1")
    assert after.king_plies == 40
    assert after.outcome() == rules.Outcome.win(0, seats=2, reason="no-moves")


def test_three_kings_count_starts_counts_the_strong_side_and_keeps_running() -> None:
    p = pos("W", ["Kd5", "Kb1", "Kd1"], ["Ka6"])  # d5 is on the long diagonal h1-a8
    assert p.three_kings == 0 and p.to_text().endswith(":T0")
    p = play(p, "d5-e6")  # leaves the diagonal: the count runs on
    assert p.three_kings == 1
    p = play(p, "a6-b7")  # the lone king's moves do not count
    assert p.three_kings == 1
    p = play(p, "e6-f7")
    assert p.three_kings == 2 and p.outcome() is None
    # without a king on the diagonal the count never starts
    assert pos("W", ["Ke6", "Kb1", "Kd1"], ["Ka6"]).three_kings is None


def test_three_kings_draw_after_thirteen_moves() -> None:
    p = pos("W", ["Kd5", "Kb1", "Kd1"], ["Kg8"], ":T12")
    after = play(p, "b1-a2")
    assert after.three_kings == 13
    assert after.outcome() == rules.Outcome.draw(seats=2, reason="three-kings")


def test_three_kings_count_stops_when_the_material_changes() -> None:
    p = pos("B", ["Kd5", "Kb1", "Kd1"], ["Kg8"], ":T5")
    after = play(p, "g8xc4")
    assert after.three_kings is None and ":T" not in after.to_text()


def test_three_kings_win_on_the_thirteenth_move_beats_the_draw() -> None:
    p = pos("W", ["Kh3", "Kf3", "Kb1"], ["Kh1"], ":T12")
    after = play(p, "h3-g2")
    assert after.outcome() == rules.Outcome.win(0, seats=2, reason="no-moves")


# --------------------------------------------------------------------------- position text


def test_position_text_round_trips_with_counters() -> None:
    for text in ["W:W1,2,K3:B21,22,K30", "B:W18,K30:BK5,K9:H12",
                 fen("W", ["Kd5", "Kb1", "Kd1"], ["Kg8"], ":H7:T4"), "W:W:B21", "B:W12:B"]:
        assert V.from_text(text).to_text() == text


def test_plain_pdn_fen_is_read_forgivingly() -> None:
    p = V.from_text(" w:b21-32:w1-12. ")
    assert p.to_text() == V.start().to_text()
    assert V.from_text("B:WK1,2:B30").king_plies == 0


@pytest.mark.parametrize(("text", "message"), [
    ("W:W29:B1", "White man cannot stand on 29"),
    ("W:W5:B2", "Black man cannot stand on 2"),
    ("W:W5,5:B20", "listed twice"),
    ("W:W5:B5", "listed twice"),
    ("W:W33:B5", "no square 33"),
    ("X:W5:B20", "not a PDN FEN"),
    ("W:W5:W20", "one W list and one B list"),
    ("W:W5:B20:H41", "ends the game at 40"),
    ("W:W5:B20:T2", "three kings"),
    ("W:W5:B20:Z2", "not a counter field"),
    ("W:W1-13:B20", "more than 12 pieces"),
    ("W:W5:B2x", "not a square"),
])
def test_bad_position_texts_are_refused(text: str, message: str) -> None:
    with pytest.raises(PositionError, match=message):
        V.from_text(text)


def test_play_keeps_the_old_position_and_the_history_in_the_new_one() -> None:
    p = pos("W", ["Kb1"], ["Ka8"])
    q = play(p, "b1-a2")
    assert p.to_text() == fen("W", ["Kb1"], ["Ka8"])
    assert q.history == (p.key,)


# --------------------------------------------------------------------------- PDN export


def test_pdn_export_of_a_finished_game() -> None:
    start = fen("W", ["c4"], ["d5", "g8"])
    text = export_pdn(["c4xe6", "g8-h7", "e6-f7", "h7-g6", "f7-e8"], start=start,
                      headers={"White": "Ana", "Black": "Luis", "Event": "Club"})
    lines = text.splitlines()
    assert lines[:7] == ['[Event "Club"]', '[Site "?"]', '[Date "????.??.??"]',
                         '[Round "?"]', '[White "Ana"]', '[Black "Luis"]', '[Result "*"]']
    assert '[GameType "24"]' in lines and '[SetUp "1"]' in lines
    assert f'[FEN "{start}"]' in lines
    assert lines[-1] == "1. 15x22 29-25 2. 22-26 25-21 3. 26-30 *"


def test_pdn_export_result_comes_from_the_rules_or_the_caller() -> None:
    start = fen("W", ["c4"], ["d5"])
    done = export_pdn(["15x22"], start=start)
    assert '[Result "1-0"]' in done and done.rstrip().endswith("1. 15x22 1-0")
    assert "FEN" in done
    resigned = export_pdn(["11-15"], outcome=rules.Outcome.win(1, seats=2,
                                                                reason="resignation"))
    assert resigned.rstrip().endswith("1. 11-15 {White resigns} 0-1") and "FEN" not in resigned
    black_first = export_pdn(["d5-c4"], start=fen("B", ["b1"], ["d5"]))
    assert black_first.rstrip().endswith("1... 19-15 *")
    with pytest.raises(IllegalMoveError):
        export_pdn(["11-16"])


# --------------------------------------------------------------------------- perft


@pytest.mark.parametrize(("depth", "count"), list(enumerate(
    [1, 7, 49, 302, 1469, 7361, 36473, 177532])))
def test_perft_from_the_start(depth: int, count: int) -> None:
    assert V.perft(V.start(), depth) == count


@pytest.mark.parametrize("text", [
    fen("W", ["Kd5", "Kb1", "b3", "e2"], ["Kg8", "f5", "c6", "Ka6", "e4", "h5"]),
    fen("B", ["Kh1", "Ka2", "d3", "f3"], ["Kd7", "Kb7", "e6", "g6", "c4"]),
    fen("W", ["Kd1"], ["e2", "e4", "c4", "c2", "g6"]),
])
def test_fast_perft_agrees_with_the_public_api(text: str) -> None:
    p = V.from_text(text)
    for depth in (1, 2, 3):
        assert V.perft(p, depth) == Variant.perft(V, p, depth)
