"""Xiangqi (RULES §3): perft tables, one scenario per special rule, notation and FEN."""

from __future__ import annotations

import random

import pytest

from rules import (
    AmbiguousMoveError,
    IllegalMoveError,
    MoveMarks,
    NotationError,
    Piece,
    PositionError,
    Variant,
)
from rules.xiangqi import XiangqiMove, XiangqiPosition, format_wxf
from tests.rules.helpers.xiangqi import V, canonical, play, pos

START = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"
PERFT = [
    (START, (44, 1920, 79666, 3290240)),
    ("r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1",
     (38, 1128, 43929, 1339047)),
    ("1cbak4/9/n2a5/2p1p3p/5cp2/2n2N3/6PCP/3AB4/2C6/3A1K1N1 w - - 0 1",
     (7, 281, 8620, 326201)),
    ("5a3/3k5/3aR4/9/5r3/5n3/9/3A1A3/5K3/2BC2B2 w - - 0 1", (25, 424, 9850, 202884)),
    ("CRN1k1b2/3ca4/4ba3/9/2nr5/9/9/4B4/4A4/4KA3 w - - 0 1", (28, 516, 14808, 395483)),
]


def refused(p: XiangqiPosition, text: str, error: type[Exception] = IllegalMoveError) -> str:
    with pytest.raises(error) as info:
        V.parse_move(p, text)
    return str(info.value)


# --------------------------------------------------------------------------- perft


@pytest.mark.parametrize(("fen", "counts"), PERFT, ids=[f"pos{i + 1}" for i in range(5)])
def test_perft_table_to_depth_3(fen: str, counts: tuple[int, ...]) -> None:
    p = pos(fen)
    assert [V.perft(p, d) for d in (1, 2, 3)] == list(counts[:3])


@pytest.mark.parametrize(("fen", "counts"), PERFT[1:], ids=[f"pos{i + 2}" for i in range(4)])
def test_perft_depth_4_of_the_smaller_positions(fen: str, counts: tuple[int, ...]) -> None:
    # the start's depth 4 (3.3 million leaves) is in bench/bench_xiangqi.py
    assert V.perft(pos(fen), 4) == counts[3]


@pytest.mark.parametrize(("fen", "counts"), PERFT, ids=[f"pos{i + 1}" for i in range(5)])
def test_the_public_api_walks_the_same_tree_as_the_fast_path(
        fen: str, counts: tuple[int, ...]) -> None:
    # Variant.perft of the base class uses only legal_moves() and play()
    assert Variant.perft(V, pos(fen), 3) == counts[2]


# --------------------------------------------------------------------------- pieces


def test_blocked_horse() -> None:
    p = V.start()
    assert {"b1-a3", "b1-c3"} <= canonical(p)
    assert "b1-d2" not in canonical(p)
    assert "the horse is blocked at c1" in refused(p, "b1-d2")
    # a horse on e1 with e2 occupied cannot jump to d3 or f3; with e2 free it can
    p = pos("3k5/9/9/9/9/9/9/9/4A4/4NK3 w - - 0 1")
    assert {m for m in canonical(p) if m.startswith("e1")} == {"e1-c2"}  # f1 blocks g2
    assert "the horse is blocked at e2" in refused(p, "e1-f3")
    assert "the horse is blocked at f1" in refused(p, "e1-g2")
    p = pos("3k5/9/9/9/9/9/9/9/9/4NK3 w - - 0 1")
    assert {m for m in canonical(p) if m.startswith("e1")} == {"e1-c2", "e1-d3", "e1-f3"}


def test_elephant_eye() -> None:
    p = pos("3k5/9/9/9/9/9/9/9/3N5/2B1K4 w - - 0 1")
    assert "c1-e3" not in canonical(p)
    assert "the elephant is blocked at d2" in refused(p, "c1-e3")
    assert "c1-a3" in canonical(p)


def test_elephant_cannot_cross_the_river() -> None:
    p = pos("3k5/9/9/9/9/2B6/9/9/9/4K4 w - - 0 1")
    assert canonical(p) & {"c5-a7", "c5-e7"} == set()
    assert {"c5-a3", "c5-e3"} <= canonical(p)
    assert "an elephant cannot cross the river" in refused(p, "c5-e7")
    assert "exactly two points diagonally" in refused(p, "c5-d6")


def test_general_and_advisor_stay_in_the_palace() -> None:
    p = pos("4k4/9/9/9/9/9/9/9/9/3K1A3 w - - 0 1")
    assert {m for m in canonical(p) if m.startswith("d1")} == {"d1-d2"}  # e1 faces e10
    assert "the general must stay in the palace" in refused(p, "d1-c1")
    assert "one point along a line" in refused(p, "d1-d3")
    assert {m for m in canonical(p) if m.startswith("f1")} == {"f1-e2"}
    assert "the advisor must stay in the palace" in refused(p, "f1-g2")
    assert "the advisor moves one point diagonally" in refused(p, "f1-f2")


def test_cannon_captures_over_exactly_one_screen_and_moves_without_one() -> None:
    p = V.start()
    assert "h3xh10" in canonical(p)  # over the black cannon on h8
    assert "a cannon needs exactly one screen to capture (nothing stands between)" in \
        refused(p, "h3xh8")
    assert "the cannon is blocked at h8: it jumps only to capture" in refused(p, "h3-h9")
    assert {"h3-h4", "h3-h7", "h3-e3", "h3-i3"} <= canonical(p)
    # two screens on the file: no capture
    p = pos("4k4/4r4/9/9/9/4p4/4P4/9/4C4/3K5 w - - 0 1")
    assert "e9" not in {m[-2:] for m in canonical(p) if m.startswith("e2")}
    assert "(2 stand between)" in refused(p, "e2xe9")
    assert "e2xe5" in {m for m in canonical(p) if m.startswith("e2")}  # one screen: e4


def test_soldier_moves() -> None:
    p = pos("4k4/9/9/9/2P6/4P4/9/9/9/3K5 w - - 0 1")
    soldier_moves = {m for m in canonical(p) if m[:2] in ("c6", "e5")}
    assert soldier_moves == {"c6-c7", "c6-b6", "c6-d6", "e5-e6"}
    assert "a soldier cannot move backwards" in refused(p, "c6-c5")
    assert "sideways only after crossing the river" in refused(p, "e5-d5")
    # a soldier on the last rank only steps sideways
    p = pos("2P1k4/9/9/9/9/9/9/9/9/3K5 w - - 0 1")
    assert {m for m in canonical(p) if m.startswith("c10")} == {"c10-b10", "c10-d10"}


# --------------------------------------------------------------------------- check


def test_flying_general_pins_the_piece_between() -> None:
    p = pos("4k4/9/9/9/9/4N4/9/9/9/4K4 w - - 0 1")  # the horse is all that separates them
    assert not any(m.startswith("e5") for m in canonical(p))
    assert "the generals would face each other" in refused(p, "e5-d7")
    # a chariot pinned the same way may still move along the file
    p = pos("4k4/4a4/9/9/9/4R4/9/9/9/3K5 w - - 0 1")
    assert "e5xe9" in canonical(p)
    # the general itself may not step onto the open file either
    p = pos("4k4/9/9/9/9/9/9/9/9/3K5 w - - 0 1")
    assert "d1-e1" not in canonical(p)
    assert "the generals would face each other" in refused(p, "d1-e1")


def test_moving_into_check_and_ignoring_check_are_refused() -> None:
    p = pos("5k3/9/9/9/9/9/9/9/r8/3K5 w - - 0 1")  # the chariot on a2 guards d2
    assert canonical(p) == {"d1-e1"}
    message = refused(p, "d1-d2")
    assert "the general would be in check (from the chariot on a2)" in message
    # in check, only moves that answer it are legal
    p = pos("3k5/9/9/9/9/9/9/9/9/R2rK4 w - - 0 1")
    assert p.in_check() and p.checked_point() == (4, 0)
    assert canonical(p) == {"a1xd1", "e1-e2"}
    assert "the general would be in check" in refused(p, "a1-a2")
    assert "the generals would face each other" in refused(p, "e1xd1")
    # a cannon checks over one screen; moving the screen away answers it
    p = pos("4k4/9/9/9/9/9/4c4/9/4A4/4K4 w - - 0 1")
    assert p.in_check()
    assert "e2-d1" in canonical(p) and "e2-f3" in canonical(p)


def test_horse_check_needs_a_free_leg() -> None:
    p = pos("3k5/9/9/9/9/9/9/3n5/9/4K4 w - - 0 1")  # horse d3 attacks e1 via leg d2
    assert p.in_check()
    p = pos("3k5/9/9/9/9/9/9/3n5/3R5/4K4 w - - 0 1")  # leg d2 blocked by a chariot
    assert not p.in_check()
    assert "d2xd3" in canonical(p)
    assert "the general would be in check (from the horse on d3)" in refused(p, "d2-a2")


def test_checkmate_loses() -> None:
    p = pos("R3k4/1R7/9/9/9/9/9/9/9/3K5 b - - 0 1")
    assert p.legal_moves() == ()
    outcome = p.outcome()
    assert outcome is not None and outcome.winners == {0} and outcome.reason == "checkmate"
    assert p.to_move == frozenset()
    assert p.checked_point() == (4, 9)
    with pytest.raises(IllegalMoveError, match="game is over"):
        V.parse_move(p, "e10-e9")


def test_stalemate_loses() -> None:
    # Black is not in check but every general move walks into a chariot or faces Red's general
    p = pos("4k4/R8/9/9/9/9/9/9/5R3/3K5 b - - 0 1")
    assert not p.in_check()
    assert p.legal_moves() == ()
    outcome = p.outcome()
    assert outcome is not None and outcome.winners == {0} and outcome.reason == "stalemate"


# --------------------------------------------------------------------------- long games


def test_perpetual_check_loses_on_the_third_occurrence() -> None:
    p = pos("3k5/R8/9/9/9/9/9/9/9/5K3 w - - 0 1")
    cycle = ("a9-a10", "d10-d9", "a10-a9", "d9-d10")
    p = play(p, *cycle)
    assert p.repetitions() == 2 and p.outcome() is None
    p = play(p, *cycle[:3])
    assert p.outcome() is None
    p = play(p, cycle[3])
    assert p.repetitions() == 3
    outcome = p.outcome()
    assert outcome is not None
    assert outcome.reason == "perpetual-check" and outcome.winners == {1}
    assert p.legal_moves() == () and p.to_move == frozenset()
    # the text keeps no history: read back, the position goes on (RULES §7)
    assert V.from_text(p.to_text()).outcome() is None


def test_perpetual_check_by_black_loses_for_black() -> None:
    p = pos("5k3/9/9/9/9/9/9/9/r8/3K5 b - - 0 1")
    p = play(p, *("a2-a1", "d1-d2", "a1-a2", "d2-d1") * 2)
    outcome = p.outcome()
    assert outcome is not None
    assert outcome.reason == "perpetual-check" and outcome.winners == {0}


def test_plain_repetition_draws() -> None:
    p = pos("r2k5/9/9/9/9/9/9/9/9/R3K4 w - - 0 1")
    cycle = ("a1-b1", "a10-b10", "b1-a1", "b10-a10")
    p = play(p, *cycle)
    assert p.outcome() is None
    p = play(p, *cycle)
    outcome = p.outcome()
    assert outcome is not None and outcome.reason == "repetition" and outcome.is_draw


def test_checks_by_only_some_moves_are_a_plain_repetition() -> None:
    # Red checks with every other move only: not perpetual, a draw
    p = pos("3k5/R8/9/9/9/9/9/9/9/5K3 w - - 0 1")
    p = play(p, "a9-a10", "d10-d9", "a10-a9", "d9-d10")  # two checks: second occurrence
    p = play(p, "f1-f2", "d10-e10", "f2-f1", "e10-d10")  # two quiet moves: the third
    outcome = p.outcome()
    assert outcome is not None and outcome.reason == "repetition"


def test_a_capture_clears_the_repetition_history() -> None:
    p = pos("r2k5/9/9/9/9/9/9/9/p8/R3K4 w - - 0 1")
    p = play(p, "a1xa2")
    assert p.history == () and p.halfmove == 0


def test_one_hundred_plies_without_capture_draw() -> None:
    p = pos("3k5/9/9/9/9/9/9/9/9/R3K4 w - - 98 60")
    p = play(p, "a1-a2")
    assert p.outcome() is None and p.to_text().endswith(" b - - 99 60")
    p = play(p, "d10-d9")
    outcome = p.outcome()
    assert outcome is not None and outcome.reason == "move-limit" and outcome.is_draw
    assert p.to_text().endswith(" w - - 100 61")
    assert V.from_text(p.to_text()).outcome() == outcome
    # a capture resets the count
    p = pos("3k5/9/9/9/9/9/9/9/r8/R3K4 w - - 99 60")
    assert play(p, "a1xa2").halfmove == 0


# --------------------------------------------------------------------------- notation


def test_canonical_notation_display_and_marks() -> None:
    p = V.start()
    m = V.parse_move(p, "h3e3")
    assert m == XiangqiMove((7, 2), (4, 2))
    assert V.format_move(p, m) == "h3-e3"
    assert V.display_move(p, m) == "h3-e3 (C2.5)"
    assert V.move_marks(p, m) == MoveMarks(((7, 2), (4, 2)))
    capture = V.parse_move(p, "H3-H10")  # '-' on a capture is accepted
    assert V.format_move(p, capture) == "h3xh10"
    assert V.display_move(p, capture) == "h3xh10 (C2+7)"
    assert V.move_marks(p, capture) == MoveMarks(((7, 2), (7, 9)), captured=((7, 9),))
    assert "captures nothing" in refused(p, "h3xe3")


@pytest.mark.parametrize(("wxf", "move"), [
    ("C2.5", "h3-e3"), ("C2=5", "h3-e3"), ("c2 . 5", "h3-e3"), ("H8+7", "b1-c3"),
    ("N8+7", "b1-c3"), ("H2+3", "h1-g3"), ("R1+1", "i1-i2"), ("P7+1", "c4-c5"),
    ("A6+5", "d1-e2"), ("E3+5", "g1-e3"), ("B3+5", "g1-e3"), ("K5+1", "e1-e2"),
    ("C8+7", "b3xb10"),
])
def test_wxf_input_for_red(wxf: str, move: str) -> None:
    p = V.start()
    assert V.format_move(p, V.parse_move(p, wxf)) == move


@pytest.mark.parametrize(("wxf", "move"), [
    ("C2.5", "b8-e8"), ("H8+7", "h10-g8"), ("R9+1", "i10-i9"), ("P3+1", "c7-c6"),
    ("C8-1", "h8-h9"), ("A4+5", "d10-e9"), ("A6+5", "f10-e9"),
])
def test_wxf_input_for_black_counts_files_from_blacks_right(wxf: str, move: str) -> None:
    p = play(V.start(), "h3-e3")
    assert V.format_move(p, V.parse_move(p, wxf)) == move
    assert format_wxf(p, V.parse_move(p, move)) == wxf.replace("=", ".")


def test_wxf_front_and_rear_of_two_pieces_on_a_file() -> None:
    p = pos("4k4/9/9/9/9/7C1/9/7C1/9/3K5 w - - 0 1")  # red cannons h5 (front), h3
    for text in ("C+.5", "+C.5", "c+=5"):
        assert V.format_move(p, V.parse_move(p, text)) == "h5-e5"
    assert V.format_move(p, V.parse_move(p, "C-.5")) == "h3-e3"
    assert V.format_move(p, V.parse_move(p, "-C.5")) == "h3-e3"
    assert format_wxf(p, V.parse_move(p, "h3-e3")) == "C-.5"
    with pytest.raises(AmbiguousMoveError) as info:
        V.parse_move(p, "C2.5")
    assert info.value.candidates == ("h3-e3", "h5-e5")
    # for Black the front piece is the lower one
    p = pos("4k4/9/1c7/9/1c7/9/9/9/9/3K5 b - - 0 1")  # black cannons b8 (rear), b6 (front)
    assert V.format_move(p, V.parse_move(p, "C+.5")) == "b6-e6"
    assert V.format_move(p, V.parse_move(p, "C-+1")) == "b8-b7"


def test_wxf_tandem_pawns() -> None:
    # three red pawns on c6, c7, c8 (Red's file 7): front, middle (plain), rear
    p = pos("4k4/9/2P6/2P6/2P6/9/9/9/9/3K5 w - - 0 1")
    assert V.format_move(p, V.parse_move(p, "P+.6")) == "c8-d8"
    assert V.format_move(p, V.parse_move(p, "P7.6")) == "c7-d7"
    assert V.format_move(p, V.parse_move(p, "P-.6")) == "c6-d6"
    # doubled on two files: the file digit replaces the letter
    p = pos("4k4/9/9/2P3P2/2P3P2/9/9/9/9/3K5 w - - 0 1")
    assert V.format_move(p, V.parse_move(p, "7+.6")) == "c7-d7"
    assert V.format_move(p, V.parse_move(p, "3-.4")) == "g6-f6"
    assert format_wxf(p, V.parse_move(p, "g7-g8")) == "3++1"
    # four on a file: ++, P+, P-, --
    p = pos("4k4/2P6/2P6/2P6/2P6/9/9/9/9/3K5 w - - 0 1")
    assert [format_wxf(p, V.parse_move(p, f"c{r}-b{r}")) for r in (9, 8, 7, 6)] == \
        ["++.8", "P+.8", "P-.8", "--.8"]


def test_wxf_round_trips_for_every_legal_move_of_random_games() -> None:
    rng = random.Random(11)
    for _ in range(3):
        p = V.start()
        for _ in range(150):
            moves = p.legal_moves()
            if not moves:
                break
            for m in moves:
                assert V.parse_move(p, format_wxf(p, m)) == m, format_wxf(p, m)
            p = p.play(rng.choice(moves))


def test_notation_errors_say_what_is_wrong() -> None:
    p = V.start()
    assert "ICCS" in refused(p, "h0e0", NotationError)
    assert "there is no piece on h2" in refused(p, "h2e2")  # read 1-based, not as ICCS
    assert "two points" in refused(p, "h3-e3-e4", NotationError)
    assert "off the board" in refused(p, "j3-j4", NotationError)
    refused(p, "castle", NotationError)
    assert "has no piece that 'C9' names" in refused(p, "C9.5")
    assert "the horse on h1 never moves sideways" in refused(p, "H2.3")
    assert "the horse on h1 cannot reach file 5" in refused(p, "H2+5")
    assert "the chariot on i1 would leave the board" in refused(p, "R1-1")
    assert "a sideways move must leave file 2" in refused(p, "C2.2")
    assert "the horse is blocked at g1" in refused(p, "H2+4")
    assert "the piece on h10 is Black's; Red is to move" in refused(p, "h10-g8")
    assert "there is no piece on e3" in refused(p, "e3-e4")
    assert "your own horse stands on b1" in refused(p, "a1-b1")


def test_play_refuses_illegal_moves_and_leaves_the_position_unchanged() -> None:
    p = V.start()
    before = p.to_text()
    with pytest.raises(IllegalMoveError, match="the horse is blocked at c1"):
        p.play(XiangqiMove((1, 0), (3, 1)))
    with pytest.raises(IllegalMoveError):
        p.play("h3-e3")
    after = p.play(XiangqiMove((7, 2), (4, 2)))
    assert p.to_text() == before and after.to_text() != before


# --------------------------------------------------------------------------- FEN and views


def test_fen_aliases_are_read_and_written_canonically() -> None:
    text = "rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAKAEHR r"
    assert V.from_text(text).to_text() == START
    assert V.from_text("  " + START.replace(" ", "  ") + " ").to_text() == START


@pytest.mark.parametrize(("fen", "why"), [
    ("rnbakabnr/9/1c5c1/p1p1p1p1p/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1", "10 ranks"),
    ("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNX w - - 0 1", "'X'"),
    ("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABN w - - 0 1", "covers 8"),
    ("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBA1ABNR w - - 0 1",
     "Red needs exactly one general, not 0"),
    ("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4P4/RNBAKABNR w - - 0 1",
     "6 soldiers"),
    (START.replace(" w ", " x "), "side to move"),
    (START.replace(" - - ", " K - "), "'-'"),
    (START.replace(" 0 1", " -3 1"), "halfmove clock"),
    (START.replace(" 0 1", " 0 0"), "move number"),
    ("3k5/9/9/9/9/9/9/9/9/2A1K4 w - - 0 1", "outside its palace"),
    ("3k5/9/9/9/9/9/9/9/3A5/4K4 w - - 0 1", "advisor stands only"),
    ("3k5/9/9/9/2B6/9/9/9/9/4K4 w - - 0 1", "elephant cannot reach"),
    ("3k5/9/9/9/9/9/9/9/4P4/4K4 w - - 0 1", "soldier cannot reach"),
    ("3k5/9/9/9/9/9/9/9/9/3RK4 w - - 0 1", "Black's general is in check"),
    ("4k4/9/9/9/9/9/9/9/9/4K4 w - - 0 1", "the generals face each other"),
    ("", "placement"),
])
def test_bad_fen_is_refused_with_a_reason(fen: str, why: str) -> None:
    with pytest.raises(PositionError, match=why.replace("(", r"\(")):
        V.from_text(fen)


def test_board_views() -> None:
    p = V.start()
    pieces = p.pieces()
    assert len(pieces) == 32
    assert pieces[(4, 0)] == Piece(0, "K") and pieces[(7, 9)] == Piece(1, "N")
    assert {piece.kind for piece in pieces.values()} == set("KABNRCP")
    assert V.seat_name(0) == "Red" and V.seat_name(1) == "Black"
    assert V.board_size == (9, 10) and V.key == "xiangqi" and V.name == "Xiangqi"
    assert not p.in_check() and p.checked_point() is None
    assert p.king_point(1) == (4, 9)


def test_the_legality_shortcut_agrees_with_testing_every_move() -> None:
    # Most moves are accepted without being made (rules.xiangqi_board._illegal); check that
    # against making every pseudo-legal move and testing the general in positions of
    # random games.
    from rules import xiangqi_board as xq

    rng = random.Random(5)
    for _ in range(4):
        p = V.start()
        for _ in range(120):
            board = xq.Board(p.board, p.side)
            s = p.side
            k = board.kings[s]
            expected = []
            for m in xq.pseudo_moves(board.b, board.pieces[s], s):
                after = list(p.board)
                fr, to = m >> 7, m & 127
                after[to], after[fr] = after[fr], 0
                if not xq.attacked(after, to if fr == k else k, s):
                    expected.append(m)
            assert board.legal() == expected, p.to_text()
            moves = p.legal_moves()
            if not moves:
                break
            p = p.play(rng.choice(moves))


def test_display_for_black_and_tandem_pieces() -> None:
    p = play(V.start(), "h3-e3")
    assert V.display_move(p, V.parse_move(p, "h10-g8")) == "h10-g8 (H8+7)"
    p = pos("4k4/9/9/9/9/7C1/9/7C1/9/3K5 w - - 0 1")
    assert V.display_move(p, V.parse_move(p, "h5-h9")) == "h5-h9 (C++4)"
    assert V.display_move(p, V.parse_move(p, "h3-h4")) == "h3-h4 (C-+1)"
