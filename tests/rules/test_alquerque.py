"""Alquerque (BrainKing rules): one scenario per rule and fine point of RULES §1."""

from __future__ import annotations

import pytest

import rules
from rules import alquerque
from rules.alquerque import AlquerquePosition

V = rules.variant("alquerque")


def pos(white: str, black: str, side: str = "w", memories: str = "-") -> AlquerquePosition:
    """A position from piece lists, via the position text."""
    where = {p: "W" for p in white.split()} | {p: "B" for p in black.split()}
    rows = ["".join(where.get(f"{f}{rank}", ".") for f in "abcde") for rank in range(5, 0, -1)]
    p = V.from_text(f"{'/'.join(rows)} {side} {memories}")
    assert isinstance(p, AlquerquePosition)
    return p


def moves(p: rules.Position) -> list[str]:
    return sorted(V.format_move(p, m) for m in p.legal_moves())


def play(p: rules.Position, *texts: str) -> rules.Position:
    for text in texts:
        p = p.play(V.parse_move(p, text))
    return p


def refused(p: rules.Position, text: str) -> str:
    with pytest.raises(rules.IllegalMoveError) as info:
        V.parse_move(p, text)
    return str(info.value)


def names(points: object) -> set[str]:
    return {f"{'abcde'[x]}{y + 1}" for x, y in points}  # type: ignore[attr-defined]


# --------------------------------------------------------------------------- start

def test_start_position_and_first_moves() -> None:
    p = V.start()
    board = p.pieces()
    white = {f"{f}{r}" for f in "abcde" for r in (1, 2)} | {"d3", "e3"}
    black = {f"{f}{r}" for f in "abcde" for r in (4, 5)} | {"a3", "b3"}
    assert names(pt for pt, pc in board.items() if pc.seat == 0) == white
    assert names(pt for pt, pc in board.items() if pc.seat == 1) == black
    assert {pc.kind for pc in board.values()} == {"stone"}
    assert p.to_move == {0}
    assert moves(p) == ["b2-c3", "c2-c3", "d2-c3", "d3-c3"]
    assert p.to_text() == "BBBBB/BBBBB/BB.WW/WWWWW/WWWWW w -"
    assert V.seat_name(0) == "White" and V.seat_name(1) == "Black"


def test_diagonals_only_through_even_points() -> None:
    grid = alquerque.GRID
    on_diagonals = {grid.names[i] for i in range(25)
                    if any(grid.direction(i, j) % 2 for j in grid.steps[i])}
    assert on_diagonals == {"a1", "c1", "e1", "b2", "d2", "a3", "c3", "e3", "b4", "d4", "a5",
                            "c5", "e5"}


# --------------------------------------------------------------------------- steps

def test_white_steps_forward_diagonally_forward_and_sideways() -> None:
    assert moves(pos("c3", "a5")) == ["c3-b3", "c3-b4", "c3-c4", "c3-d3", "c3-d4"]
    assert moves(pos("b3", "a5")) == ["b3-a3", "b3-b4", "b3-c3"]  # no diagonal at b3


def test_black_steps_towards_rank_one() -> None:
    assert moves(pos("a1", "c3", "b")) == ["c3-b2", "c3-b3", "c3-c2", "c3-d2", "c3-d3"]


def test_pieces_never_move_backwards() -> None:
    p = pos("c3", "a5")
    assert refused(p, "c3-c2") == "pieces never move backwards"
    assert refused(p, "c3-b2") == "pieces never move backwards"
    assert refused(pos("a1", "c3", "b"), "c3-c4") == "pieces never move backwards"


def test_a_piece_on_the_far_rank_cannot_step() -> None:
    p = pos("c5 a1", "e3")
    assert moves(p) == ["a1-a2", "a1-b1", "a1-b2"]
    assert refused(p, "c5-d5") == "a piece on rank 5 cannot step any more"
    black = pos("e5", "c1 c4", "b")
    assert moves(black) == ["c4-b4", "c4-c3", "c4-d4"]
    assert refused(black, "c1-d1") == "a piece on rank 1 cannot step any more"


def test_a_far_rank_piece_captures_sideways_only() -> None:
    assert moves(pos("c5", "d5 a1")) == ["c5xe5"]
    p = pos("c5 a1", "c4 e3")  # c5xc3 would start backwards
    assert moves(p) == ["a1-a2", "a1-b1", "a1-b2"]
    assert refused(p, "c5xc3") == "the first jump must go forward, diagonally forward or sideways"


def test_a_capture_that_leaves_the_far_rank_frees_the_piece() -> None:
    p = pos("c5", "b5 a4 e3")
    assert moves(p) == ["c5xa5xa3"]  # sideways first, then backwards
    p = play(p, "c5xa5xa3", "e3-e2")
    assert moves(p) == ["a3-a4", "a3-b3", "a3-b4"]


# --------------------------------------------------------------------------- captures

def test_later_jumps_go_any_way_and_a_sequence_must_go_on() -> None:
    p = pos("b2", "c3 d3 a5")
    assert moves(p) == ["b2xd4xd2"]  # the second jump goes backwards
    assert refused(p, "b2xd4") == "a capture must continue: b2xd4 can go on to d2"


def test_reaching_the_far_rank_does_not_stop_a_sequence_and_choice_is_free() -> None:
    # c3xc5 reaches rank 5 and goes on; c3xa5 takes one piece only: both are legal
    assert moves(pos("c3", "c4 b4 e1")) == ["c3xa5", "c3xc5xa3"]


def test_capturing_is_compulsory() -> None:
    p = pos("c3 a1", "c4 e5")
    assert moves(p) == ["c3xc5"]
    assert refused(p, "a1-a2") == "a capture is compulsory: c3xc5"
    black = pos("c3 e1", "c4 a5", "b")
    assert moves(black) == ["c4xc2"]
    assert refused(black, "a5-a4") == "a capture is compulsory: c4xc2"


def test_own_pieces_are_never_jumped() -> None:
    p = pos("c2 c3", "a5")
    assert "c2xc4" not in moves(p)
    assert refused(p, "c2xc4") == "you cannot jump your own piece on c3"


def test_a_captured_piece_leaves_the_board_and_the_mover_keeps_going() -> None:
    before = pos("b2", "c3 d3 a5")
    p = play(before, "b2xd4xd2")
    assert names(p.pieces()) == {"d2", "a5"}
    assert isinstance(p, AlquerquePosition)
    gained = [a - b for a, b in zip(p.captured_counts(), before.captured_counts(), strict=True)]
    assert gained == [2, 0]
    assert play(V.start(), "d3-c3", "b3xd3").captured_counts() == (0, 1)
    assert p.to_move == {1}


# --------------------------------------------------------------------------- no return

def test_no_return_by_step() -> None:
    p = pos("c3", "a5", memories="b3>c3")
    assert moves(p) == ["c3-b4", "c3-c4", "c3-d3", "c3-d4"]
    assert refused(p, "c3-b3") == "this piece came from b3 and may not return there"


def test_no_return_binds_jumps_and_whether_a_capture_exists() -> None:
    p = pos("c3 a1", "c4 e5", memories="c5>c3")
    assert "c3xc5" not in moves(p)
    assert "a1-a2" in moves(p)  # the only capture is barred, so stepping is allowed
    assert refused(p, "c3xc5") == "this piece came from c5 and may not return there"


def test_no_return_binds_a_later_jump_of_the_sequence() -> None:
    # without memory the piece would have to go on b2xd4xd2
    assert moves(pos("b2", "c3 d3 a5", memories="d2>b2")) == ["b2xd4"]


def test_memory_is_the_start_of_the_piece_own_last_move() -> None:
    p = play(V.start(), "d3-c3")
    assert V.start().memories == {} and p.memories == {(2, 2): (3, 2)}
    p = play(p, "b3xd3")  # the captured piece's memory goes with it
    assert p.memories == {(3, 2): (1, 2)}
    p = play(p, "e3xc3")
    assert p.memories == {(2, 2): (4, 2)}
    p = play(p, "a3-b3")  # other pieces keep their memories
    assert p.memories == {(2, 2): (4, 2), (1, 2): (0, 2)}
    assert p.to_text().split()[2] == "a3>b3,e3>c3"  # rank-major order of the pieces


def test_a_sequence_may_pass_through_and_end_on_its_own_start_point() -> None:
    p = pos("b2", "c2 d3 c4 b3 e5")
    # two paths round the same square are one move, written with the smaller path
    assert moves(p) == ["b2xb4xd4xd2xb2"]
    move = V.parse_move(p, "b2xd2xd4xb4xb2")
    assert V.format_move(p, move) == "b2xb4xd4xd2xb2"
    assert V.parse_move(p, "b2xb2") == move
    after = p.play(move)
    assert after.to_text().split()[2] == "b2>b2"  # its memory is that move's start


# --------------------------------------------------------------------------- end

def test_win_by_capturing_every_piece() -> None:
    p = play(pos("c3", "c4"), "c3xc5")
    assert p.outcome() == rules.Outcome.win(0, seats=2, reason="no-pieces")
    assert p.to_move == frozenset() and not p.legal_moves()


def test_win_when_the_side_to_move_has_no_move() -> None:
    p = pos("a1 c5", "c1", "b")  # c1 is on Black's far rank and has nothing to take
    assert p.outcome() == rules.Outcome.win(0, seats=2, reason="no-moves")
    assert p.to_move == frozenset()
    with pytest.raises(rules.IllegalMoveError, match="the game is over"):
        V.parse_move(p, "c1-b1")


def test_resigning_gives_the_other_side_the_win() -> None:
    out = V.resign(V.start(), 0)
    assert isinstance(out, rules.Outcome) and out.winners == {1}


# --------------------------------------------------------------------------- notation

def test_abbreviated_captures_and_ambiguity() -> None:
    p = pos("e1", "b4 d4 d3 d2 e2")
    assert V.format_move(p, V.parse_move(p, "e1xc1")) == "e1xe3xc1"
    assert V.format_move(p, V.parse_move(p, "E1 : E3 : C1")) == "e1xe3xc1"
    with pytest.raises(rules.AmbiguousMoveError) as info:
        V.parse_move(p, "e1xa5")
    assert info.value.candidates == ("e1xc3xa5", "e1xe3xc3xa5")
    assert refused(p, "e1xa1") == "no capture sequence from e1 ends at a1"


def test_errors_say_why() -> None:
    p = V.start()
    assert refused(p, "d2-d3") == "d3 is occupied"
    assert refused(p, "c2-e5") == "c2 and e5 are not joined by a line"
    assert refused(p, "c3-c4") == "there is no piece on c3"
    assert refused(p, "b3-c3") == "b3 is not your piece"
    assert refused(p, "d3xd5") == "d5 is occupied"
    assert refused(p, "c2xc4") == "there is no piece to jump on c3"
    for text in ("hello", "f1-f2", "c2"):
        with pytest.raises(rules.NotationError):
            V.parse_move(p, text)


def test_move_marks() -> None:
    p = pos("b2", "c3 d3 a5")
    marks = V.move_marks(p, V.parse_move(p, "b2xd4xd2"))
    assert marks.path == ((1, 1), (3, 3), (3, 1))
    assert marks.captured == ((2, 2), (3, 2)) and marks.removed == ()


# --------------------------------------------------------------------------- text

def test_position_text_round_trips_with_memories() -> None:
    text = "..B../.B.../W..../..W.B/..... b c1>c2,a1>a3,c4>b4"
    assert V.from_text(text).to_text() == text


@pytest.mark.parametrize(("text", "why"), [
    ("BBBBB/BBBBB/BB.WW/WWWWW/WWWWW w", "three fields"),
    ("BBBBB/BBBBB/BB.WW/WWWWW w -", "5 ranks"),
    ("BBBBB/BBBBB/BB.WX/WWWWW/WWWWW w -", "not a piece"),
    ("BBBBB/BBBBB/BB.WW/WWWWW/WWWWW x -", "'w' or 'b'"),
    ("BBBBB/BBBBB/BB.WW/WWWWW/WWWWW w zz>c4", "not a memory"),
    ("BBBBB/BBBBB/BB.WW/WWWWW/WWWWW w c2>c3", "no piece on c3"),
    ("BBBBB/BBBBB/BB.WW/WWWWW/WWWWW w c1>c2,c3>c2", "two memories"),
    ("BBBBB/BBBBB/BBWWW/WWWWW/WWWWW w -", "more than 12"),
    ("...../...../..W../...../..... w -", "Black has no pieces"),
])
def test_bad_position_texts_are_refused(text: str, why: str) -> None:
    with pytest.raises(rules.PositionError, match=why):
        V.from_text(text)


def reference_moves(p: AlquerquePosition) -> list[str]:
    """The legal moves by brute force over all jump paths, straight from RULES §1
    (independent of the engine's search): complete sequences, merged by start, end and
    captured set with the smallest path string; steps only when nothing can capture."""
    me = p.turn
    forward = 1 if me == 0 else -1
    board = {(x, y): pc.seat for (x, y), pc in p.pieces().items()}
    memory = p.memories

    def name(pt: tuple[int, int]) -> str:
        return f"{'abcde'[pt[0]]}{pt[1] + 1}"

    def lines(pt: tuple[int, int], any_way: bool) -> list[tuple[int, int]]:
        x, y = pt
        dirs = [(dx, dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1) if dx or dy]
        return [(dx, dy) for dx, dy in dirs if not (dx and dy and (x + y) % 2)
                and (any_way or dy in (0, forward))]

    found: dict[tuple[str, str, frozenset[str]], str] = {}

    def extend(start: tuple[int, int], path: list[tuple[int, int]], taken: frozenset[str],
               stones: dict[tuple[int, int], int]) -> None:
        x, y = path[-1]
        went_on = False
        for dx, dy in lines(path[-1], any_way=len(path) > 1):
            over, land = (x + dx, y + dy), (x + 2 * dx, y + 2 * dy)
            if (stones.get(over) == 1 - me and 0 <= land[0] < 5 and 0 <= land[1] < 5
                    and land not in stones and land != memory.get(start)):
                went_on = True
                rest = {k: v for k, v in stones.items() if k != over}
                extend(start, [*path, land], taken | {name(over)}, rest)
        if not went_on and taken:
            key = (name(start), name(path[-1]), taken)
            text = "x".join(name(pt) for pt in path)
            found[key] = min(found.get(key, text), text)

    for pt, seat in board.items():
        if seat == me:
            extend(pt, [pt], frozenset(), {k: v for k, v in board.items() if k != pt})
    if found:
        return sorted(found.values())
    steps = []
    for pt, seat in board.items():
        if seat == me and pt[1] != (4 if me == 0 else 0):
            for dx, dy in lines(pt, any_way=False):
                to = (pt[0] + dx, pt[1] + dy)
                if 0 <= to[0] < 5 and 0 <= to[1] < 5 and to not in board \
                        and to != memory.get(pt):
                    steps.append(f"{name(pt)}-{name(to)}")
    return sorted(steps)


def test_move_generation_matches_a_brute_force_reference() -> None:
    import random
    checked = 0
    for seed in range(40):
        rng = random.Random(seed)
        p = V.start()
        while True:
            assert isinstance(p, AlquerquePosition)
            assert moves(p) == reference_moves(p)
            checked += 1
            if not p.legal_moves():
                break
            p = p.play(rng.choice(p.legal_moves()))
    assert checked > 500
