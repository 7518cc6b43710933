"""Alquerque grande: one scenario per rule and fine point of RULES §2."""

from __future__ import annotations

import pytest

import rules
from rules import alquerque_grande
from rules.alquerque_grande import AlquerqueGrandePosition

G = rules.variant("alquerque-grande")
GRANDE_OPTIONS = tuple(o for o in G.example_options
                       if isinstance(G.start(**o), AlquerqueGrandePosition))
"""The example option sets played by the author's rule set (§2.3-2.4)."""
FILES = "abcdefg"


def gpos(stones: dict[str, str], turn: str = "w", *, players: int = 4, mode: str = "teams",
         markers: str | None = None, captures: str | None = None, out: str = "-",
         quiet: int = 0, huff: str = "-", end: str = "-") -> AlquerqueGrandePosition:
    """A position from stone lists per seat letter, via the position text."""
    where = {pt: letter for letter, pts in stones.items() for pt in pts.split()}
    rows = ["".join(where.get(f"{f}{r}", ".") for f in FILES) for r in range(7, 0, -1)]
    markers = markers or ",".join("-" * players)
    captures = captures or ",".join("0" * players)
    options = "players=2" if players == 2 else f"players=4,mode={mode}"
    p = G.from_text(f"{'/'.join(rows)} {turn} {markers} {captures} {out} {quiet} {huff} "
                    f"{options} {end}")
    assert isinstance(p, AlquerqueGrandePosition)
    return p


def duel(white: str, black: str, turn: str = "w", **kw: object) -> AlquerqueGrandePosition:
    return gpos({"W": white, "B": black}, turn, players=2, **kw)  # type: ignore[arg-type]


def moves(p: rules.Position) -> list[str]:
    return sorted(G.format_move(p, m) for m in p.legal_moves())


def shown(p: rules.Position, text: str) -> str:
    return G.display_move(p, G.parse_move(p, text))


def play(p: rules.Position, *texts: str) -> AlquerqueGrandePosition:
    for text in texts:
        p = p.play(G.parse_move(p, text))
    assert isinstance(p, AlquerqueGrandePosition)
    return p


def refused(p: rules.Position, text: str) -> str:
    with pytest.raises(rules.IllegalMoveError) as info:
        G.parse_move(p, text)
    return str(info.value)


def point(name: str) -> tuple[int, int]:
    return FILES.index(name[0]), int(name[1:]) - 1


def at(p: rules.Position) -> dict[str, str]:
    letters = "WTBR" if p.seat_count == 4 else "WB"
    return {f"{FILES[x]}{y + 1}": letters[pc.seat] for (x, y), pc in p.pieces().items()}


# --------------------------------------------------------------------------- options, start

def test_options_and_defaults() -> None:
    p = G.start()
    assert (p.players, p.mode, p.seat_count) == (4, "teams", 4)
    two = G.start(players=2, rules="grande")
    assert (two.players, two.mode, two.seat_count) == (2, None, 2)
    assert G.start(players=4, mode="slow").mode == "slow"
    with pytest.raises(rules.OptionError, match="mode is for 4 players only"):
        G.start(players=2, mode="teams")
    for bad in ({"players": 3}, {"mode": "chaos"}):
        with pytest.raises(rules.OptionError):
            G.start(**bad)
    assert [G.seat_name(s, 4) for s in range(4)] == ["White", "Turquoise", "Black", "Red"]
    assert [G.seat_name(s, 2) for s in range(2)] == ["White", "Black"]


FIGURE = """
R B B B B B B
R R B B B B T
R R R B B T T
R R R . T T T
R R W W T T T
R W W W W T T
W W W W W W T
"""


def test_four_player_start_matches_the_lists_the_figure_and_a_quarter_turn() -> None:
    board = at(G.start())
    lists = {"W": "a1 b1 c1 d1 e1 f1 b2 c2 d2 e2 c3 d3",
             "T": "g1 f2 g2 e3 f3 g3 e4 f4 g4 f5 g5 g6",
             "B": "d5 e5 c6 d6 e6 f6 b7 c7 d7 e7 f7 g7",
             "R": "a2 a3 b3 a4 b4 c4 a5 b5 c5 a6 b6 a7"}
    assert board == {pt: letter for letter, pts in lists.items() for pt in pts.split()}
    rows = FIGURE.split("\n")[1:-1]
    figure = {f"{FILES[x]}{7 - r}": ch for r, row in enumerate(rows)
              for x, ch in enumerate(row.split()) if ch != "."}
    assert figure == board
    order = "WTBR"
    for name, letter in board.items():  # a quarter turn counter-clockwise: seat s -> s+1
        x, y = point(name)
        turned = f"{FILES[6 - y]}{x + 1}"
        assert board[turned] == order[(order.index(letter) + 1) % 4]
    assert G.start().to_move == {0}


def test_two_player_start() -> None:
    board = at(G.start(players=2, rules="grande"))
    white = {f"{f}{r}" for f in FILES for r in (1, 2, 3)} | {"e4", "f4", "g4"}
    black = {f"{f}{r}" for f in FILES for r in (5, 6, 7)} | {"a4", "b4", "c4"}
    assert {k for k, v in board.items() if v == "W"} == white
    assert {k for k, v in board.items() if v == "B"} == black
    assert moves(G.start(players=2, rules="grande")) == ["c3-d4", "d3-d4", "e3-d4", "e4-d4"]


def test_the_board_has_ten_diagonal_lines() -> None:
    grid = alquerque_grande.GRID
    starts = 0
    for i in range(grid.count):
        dirs = {grid.direction(i, j) for j in grid.steps[i]}
        starts += sum(1 for d in (1, 3) if d in dirs and d + 4 not in dirs)
    assert starts == 10
    for corner in ("a1", "g1", "a7", "g7", "d4"):
        i = grid.index[corner]
        assert any(grid.direction(i, j) % 2 for j in grid.steps[i])


# --------------------------------------------------------------------------- steps, marker

def test_steps_go_any_way_along_lines() -> None:
    assert moves(duel("d4", "a7")) == ["d4-c3", "d4-c4", "d4-c5", "d4-d3", "d4-d5", "d4-e3",
                                       "d4-e4", "d4-e5"]
    assert moves(duel("c4", "a7")) == ["c4-b4", "c4-c3", "c4-c5", "c4-d4"]


def test_no_return_marker_binds_that_stone_for_one_turn_and_steps_only() -> None:
    p = play(duel("d3 d2 a1", "g7"), "d3-d4", "g7-g6")
    assert p.markers[0] == (point("d3"), point("d4"))
    assert "d4-d3" not in moves(p) and "d2-d3" in moves(p)  # another stone may go there
    assert refused(p, "d4-d3") == ("this stone came from d3 and may not step back there "
                                   "this turn")
    p = play(p, "a1-a2", "g6-f6")
    assert "d4-d3" in moves(p)  # only in the player's next turn


def test_the_marker_is_set_by_captures_and_dropped_with_its_stone() -> None:
    p = play(duel("d3 a1", "d4 g7"), "d3xd5")
    assert p.to_text().split()[2] == "d3>d5,-"
    p = play(duel("d4 a1", "d5 g7", markers="d3>d4,-"), "a1-a2")
    assert p.markers[0] == (point("a1"), point("a2"))
    p = play(duel("d4 a1", "d5 g7", "b", markers="d3>d4,-"), "d5xd3")
    assert p.markers == (None, (point("d5"), point("d3")))


# --------------------------------------------------------------------------- captures

def fan(mode: str) -> AlquerqueGrandePosition:
    """Black on d6 can jump Turquoise on d5, then White on d3."""
    return gpos({"B": "d6", "T": "d5 g1", "W": "d3 a1", "R": "a7"}, "b", mode=mode)


def test_a_sequence_may_take_stones_of_different_opponents() -> None:
    p = fan("fast")
    assert {"d6xd4", "d6xd4xd2"} <= set(moves(p))
    after = play(p, "d6xd4xd2")
    assert at(after) == {"d2": "B", "g1": "T", "a1": "W", "a7": "R"}
    assert after.captured == (0, 0, 2, 0) and after.last_removal() == ()


def test_teams_never_capture_or_jump_a_team_mate() -> None:
    p = fan("teams")
    assert "d6xd4xd2" not in moves(p)
    assert shown(p, "d6xd4") == "d6xd4"  # complete: it cannot jump the team-mate
    assert refused(p, "d6xd4xd2") == "d3 is your team-mate's stone: team-mates are never jumped"
    assert refused(p, "d3-d4") == "d3 is your team-mate's stone"
    assert refused(p, "d5-d4") == "d5 is Turquoise's stone"
    assert refused(p, "c5-c4") == "there is no stone on c5"


def test_an_out_seat_keeps_its_stones_in_teams() -> None:
    stones = {"W": "d3 a1", "T": "d2 g1", "B": "d5 g7", "R": "a7"}
    p = gpos(stones, "t", out="W")
    assert "d2xd4" in moves(p)  # the other team may capture an out seat's stones
    mate = gpos({**stones, "B": "d4 g7", "T": "g1"}, "b", out="W")
    assert refused(mate, "d4xd2") == "d3 is your team-mate's stone: team-mates are never jumped"
    after = play(gpos(stones, "r", out="W"), "a7-a6")
    assert after.to_move == {1}  # White is skipped
    assert at(after)["a1"] == "W"


def test_every_prefix_is_a_move_and_a_stopped_sequence_is_huffed() -> None:
    p = duel("a1 g1", "a2 a4 g7")
    assert {"a1xa3", "a1xa3xa5"} <= set(moves(p))
    assert shown(p, "a1xa3") == "a1xa3 (huff a3)"
    assert shown(p, "a1xa3xa5") == "a1xa3xa5"
    stopped = play(p, "a1xa3")
    assert at(stopped) == {"g1": "W", "a4": "B", "g7": "B"}
    assert stopped.captured == (1, 0) and stopped.last_removal() == (point("a3"),)
    assert G.move_marks(p, G.parse_move(p, "a1xa3")).removed == (point("a3"),)
    assert G.move_marks(p, G.parse_move(p, "a1xa3xa5")).removed == ()
    complete = play(p, "a1xa3xa5")
    assert complete.last_removal() == () and complete.captured == (2, 0)


# --------------------------------------------------------------------------- huffing a step

def test_a_step_while_a_capture_exists_is_legal_and_huffed() -> None:
    p = duel("a1 g1", "a2 g7")
    assert shown(p, "g1-f1") == "g1-f1 (huff a1)"
    assert at(play(p, "g1-f1")) == {"f1": "W", "a2": "B", "g7": "B"}


def test_the_stepping_stone_is_huffed_on_its_new_point_if_it_could_capture() -> None:
    p = duel("a1 g1", "a2 g7")
    assert shown(p, "a1-b1") == "a1-b1 (huff b1)"
    assert at(play(p, "a1-b1")) == {"g1": "W", "a2": "B", "g7": "B"}


def test_the_huff_takes_the_stone_with_the_best_capture() -> None:
    p = duel("a1 e1 g1", "a2 e2 e4 a7")  # a1 takes one stone, e1 two
    assert shown(p, "g1-g2") == "g1-g2 (huff e1)"


def test_huff_ties_go_to_the_first_point_in_rank_major_order() -> None:
    p = duel("c1 a2 g1", "c2 a3 a7")  # one stone each; c1 comes before a2 rank-major
    assert shown(p, "g1-g2") == "g1-g2 (huff c1)"


def test_the_huff_is_judged_on_the_position_before_the_step() -> None:
    blocked = duel("a1 b2", "a2 a7")  # b2-a3 takes a1's landing point, a1 still pays
    assert shown(blocked, "b2-a3") == "b2-a3 (huff a1)"
    freed = duel("c1 c3", "c2 a7")  # c3-d4 opens c1xc3 only after the step: no huff
    assert shown(freed, "c3-d4") == "c3-d4"
    assert play(freed, "c3-d4").quiet == 1


def test_a_huff_may_take_the_last_stone() -> None:
    p = play(duel("a1", "a2 g7"), "a1-b1")
    assert p.outcome() == rules.Outcome.win(1, seats=2, reason="no-pieces")
    teams = gpos({"W": "a1", "T": "a2 g1", "B": "g7", "R": "a7"})
    after = play(teams, "a1-b1")
    assert after.out_seats() == {0} and after.eliminated == ((0,),) and after.to_move == {1}
    assert after.outcome() is None


# --------------------------------------------------------------------------- elimination

def test_a_seat_without_stones_is_out_at_once_and_skipped() -> None:
    p = gpos({"W": "d3 a1", "T": "d4", "B": "g7", "R": "a7"})
    after = play(p, "d3xd5")
    assert after.eliminated == ((1,),) and after.to_move == {2}
    assert after.outcome() is None


BOX = {"W": "g1", "B": "a7", "T": "a6 b7 b6",
       "R": "a5 a4 c7 d7 c5 d4 b5 b4 c6 d6"}
"""Turquoise cannot move; Black on a7 can move only once Turquoise's stones are gone."""


def test_a_seat_that_cannot_move_is_out_and_in_slow_its_stones_go_first() -> None:
    slow = play(gpos(BOX, mode="slow"), "g1-g2")
    assert slow.eliminated == ((1,),) and slow.to_move == {2}
    assert not {"a6", "b7", "b6"} & set(at(slow))  # removed before Black was examined
    assert moves(slow) == ["a7-a6", "a7-b6", "a7-b7"]
    teams = play(gpos(BOX, mode="teams"), "g1-g2")
    assert teams.eliminated == ((1,), (2,)) and teams.to_move == {3}
    assert at(teams)["a6"] == "T"  # stones stay in teams
    assert teams.outcome() is None


def test_fast_ends_when_the_seat_to_move_cannot_move() -> None:
    p = play(gpos(BOX, mode="fast", captures="0,1,3,3"), "g1-g2")
    outcome = p.outcome()
    assert outcome is not None and outcome.reason == "no-moves"
    # captures first (Black 3, Red 3, Turquoise 1, White 0), then stones: Red 10 > Black 1
    assert outcome.ranking == ({3}, {2}, {1}, {0}) and outcome.winners == {3}


# --------------------------------------------------------------------------- endings

def test_teams_win_when_every_stone_of_the_other_team_is_gone() -> None:
    p = gpos({"W": "d3 a1", "T": "", "B": "g7", "R": "d4"}, out="T")
    after = play(p, "d3xd5")
    assert after.outcome() == rules.Outcome.win({0, 2}, seats=4, reason="no-pieces")
    assert after.outcome().ranking == ({0, 2}, {1, 3})  # type: ignore[union-attr]
    assert after.to_move == frozenset() and not after.legal_moves()


def test_teams_win_when_neither_opponent_can_move() -> None:
    # Turquoise is out with stones on the board, walling in Red's only stone
    p = gpos({"W": "d4", "T": "a2 b1 b2", "B": "g7", "R": "a1"}, "b", out="T")
    after = play(p, "g7-g6")
    assert after.eliminated == ((1,), (3,))
    assert after.outcome() == rules.Outcome.win({0, 2}, seats=4, reason="no-moves")


def test_one_move_putting_both_teams_out_is_a_draw() -> None:
    # White takes Red's last stone and could go on over Turquoise's (out, still on the
    # board): the stopped sequence huffs White's last stone too
    p = gpos({"W": "d3", "T": "d6 g1", "B": "", "R": "d4"}, out="B,T")
    after = play(p, "d3xd5")
    assert after.eliminated == ((2,), (1,), (0, 3))
    assert after.outcome() == rules.Outcome.draw(seats=4, reason="both-teams-out")


def test_fast_ends_when_a_seat_loses_its_last_stone_ranked_by_captures_then_stones() -> None:
    p = gpos({"W": "d3 a1", "T": "d4", "B": "g7 f7", "R": "a7"}, mode="fast",
             captures="0,0,2,2")
    outcome = play(p, "d3xd5").outcome()
    assert outcome is not None and outcome.reason == "no-pieces"
    assert outcome.ranking == ({2}, {3}, {0}, {1}) and outcome.winners == {2}
    tied = gpos({"W": "d3 a1", "T": "d4", "B": "g7 f7", "R": "a7 b7"}, mode="fast",
                captures="0,0,2,2")
    outcome = play(tied, "d3xd5").outcome()
    assert outcome is not None and outcome.winners == frozenset()  # shared first place
    assert outcome.ranking == ({2, 3}, {0}, {1})


def test_slow_plays_on_until_one_is_left_ranked_by_elimination() -> None:
    p = gpos({"B": "d6", "T": "d5", "W": "d3", "R": ""}, "b", mode="slow", out="R")
    after = play(p, "d6xd4xd2")
    assert after.eliminated == ((3,), (0, 1))  # emptied by one move: out together
    outcome = after.outcome()
    assert outcome is not None and outcome.reason == "last-player"
    assert outcome.winners == {2} and outcome.ranking == ({2}, {0, 1}, {3})
    goes_on = play(gpos({"B": "d6", "T": "d5", "W": "d3", "R": "a7"}, "b", mode="slow"),
                   "d6xd4xd2")
    assert goes_on.eliminated == ((0, 1),) and goes_on.to_move == {3}


# --------------------------------------------------------------------------- safeguard

def test_the_counter_counts_quiet_moves_and_resets_on_captures_and_huffs() -> None:
    p = duel("a1 g1", "a3 g7", quiet=5)
    assert play(p, "g1-f1").quiet == 6
    assert play(duel("a1 g1", "a2 g7", quiet=5), "a1xa3").quiet == 0
    assert play(duel("a1 g1", "a2 g7", quiet=5), "g1-f1").quiet == 0  # huffed


def test_two_players_draw_after_fifty_quiet_rounds() -> None:
    assert play(duel("a1 g1", "a3 g7", quiet=98), "g1-f1").outcome() is None
    p = play(duel("a1 g1", "a3 g7", quiet=99), "g1-f1")
    assert p.outcome() == rules.Outcome.draw(seats=2, reason="move-limit")


def test_the_limit_counts_only_seats_not_out() -> None:
    stones = {"W": "a1", "T": "g1", "B": "g7", "R": "a7"}
    assert play(gpos(stones, out="T", quiet=148), "a1-b1").outcome() is None
    p = play(gpos(stones, out="T", quiet=149), "a1-b1")
    assert p.outcome() == rules.Outcome.draw(seats=4, reason="move-limit")
    assert play(gpos(stones, quiet=198), "a1-b1").outcome() is None
    skipped = play(gpos(stones, out="T", quiet=10), "a1-b1")
    assert skipped.quiet == 11 and skipped.to_move == {2}
    # a seat going out without a move lowers the limit; it is checked after the next move
    after_resign = G.resign(gpos(stones, quiet=160), 3)
    assert isinstance(after_resign, AlquerqueGrandePosition) and after_resign.outcome() is None
    assert G.from_text(after_resign.to_text()).quiet == 160
    assert play(after_resign, "a1-b1").outcome() == rules.Outcome.draw(
        seats=4, reason="move-limit")


def test_the_fast_limit_ranks_and_the_slow_limit_ranks_by_stones() -> None:
    stones = {"W": "a1 b1 c1", "T": "g1", "B": "g7 f7", "R": "a7 b7"}
    fast = play(gpos(stones, mode="fast", captures="0,5,1,0", quiet=199), "c1-c2")
    assert fast.outcome() == rules.Outcome(frozenset({1}), ({1}, {2}, {0}, {3}),
                                           "move-limit")  # type: ignore[arg-type]
    slow = play(gpos({**stones, "T": ""}, mode="slow", out="T", quiet=149), "c1-c2")
    assert slow.outcome() == rules.Outcome(frozenset({0}), ({0}, {2, 3}, {1}),
                                           "move-limit")  # type: ignore[arg-type]


# --------------------------------------------------------------------------- resigning

def test_resigning_with_two_players_ends_the_game() -> None:
    out = G.resign(G.start(players=2, rules="grande"), 1)
    assert out == rules.Outcome.win(0, seats=2, reason="resignation")


def test_resigning_in_teams_puts_the_seat_out_and_keeps_its_stones() -> None:
    p = G.start()
    after = G.resign(p, 1)
    assert isinstance(after, AlquerqueGrandePosition)
    assert after.out_seats() == {1} and after.to_move == {0} and at(after) == at(p)
    assert G.from_text(after.to_text()).to_text() == after.to_text()
    again = G.resign(after, 0)  # the seat to move resigns: the turn passes on
    assert isinstance(again, AlquerqueGrandePosition) and again.to_move == {2}
    with pytest.raises(ValueError, match="already out"):
        G.resign(after, 1)
    last = G.resign(after, 3)
    assert isinstance(last, AlquerqueGrandePosition)
    assert last.outcome() == rules.Outcome.win({0, 2}, seats=4, reason="resignation")
    assert G.from_text(last.to_text()).outcome() == last.outcome()


def test_resigning_in_slow_removes_the_stones_and_fast_ends_at_once() -> None:
    slow = G.resign(G.start(mode="slow"), 3)
    assert isinstance(slow, AlquerqueGrandePosition)
    assert "R" not in at(slow).values() and slow.eliminated == ((3,),)
    fast = G.resign(G.start(mode="fast"), 2)
    assert isinstance(fast, AlquerqueGrandePosition)
    outcome = fast.outcome()
    assert outcome is not None and outcome.reason == "resignation"
    assert outcome.ranking == ({0, 1, 2, 3},) and outcome.winners == frozenset()
    assert G.from_text(fast.to_text()).outcome() == outcome


# --------------------------------------------------------------------------- notation

def test_paths_with_the_same_captures_are_one_move() -> None:
    p = duel("b2", "c2 d3 c4 b3 g7")
    round_trip = [m for m in moves(p) if m.endswith("xb2")]
    assert round_trip == ["b2xb4xd4xd2xb2"]
    assert G.format_move(p, G.parse_move(p, "b2xd2xd4xb4xb2")) == "b2xb4xd4xd2xb2"


def test_abbreviated_captures_and_ambiguity() -> None:
    p = duel("c1", "c2 c4 b2 b4 g7")
    with pytest.raises(rules.AmbiguousMoveError) as info:
        G.parse_move(p, "c1xc5")
    assert {"c1xa3xc5", "c1xc3xc5"} <= set(info.value.candidates)
    assert G.format_move(p, G.parse_move(p, "c1 x a3")) == "c1xa3"


def test_errors_say_why() -> None:
    p = G.start(players=2, rules="grande")
    assert refused(p, "d3-c3") == "c3 is occupied"
    assert refused(p, "c2-e5") == "c2 and e5 are not joined by a line"
    assert refused(p, "d4-d5") == "there is no stone on d4"
    assert refused(p, "d5-d4") == "d5 is Black's stone"
    assert refused(p, "d3xd5") == "there is no stone to jump on d4"
    assert refused(p, "d2xd4") == "you cannot jump your own stone on d3"
    for text in ("d3-d4 (huff c3)", "h1-h2", "zz"):
        with pytest.raises(rules.NotationError):
            G.parse_move(p, text)


# --------------------------------------------------------------------------- position text

def test_position_text_holds_every_field() -> None:
    text = ("......./......./..B..../...T.../..W..../......./R...... b d2>c3,-,-,- "
            "3,1,0,2 - 0 d5 players=4,mode=fast -")
    p = G.from_text(text)
    assert p.to_text() == text
    assert p.last_removal() == (point("d5"),) and p.captured == (3, 1, 0, 2)  # type: ignore[attr-defined]
    teams = ("......./......./..B..../...T.../..W..../......./R...... w -,-,-,- 0,0,0,0 T 17 - "
             "players=4,mode=teams -")
    assert G.from_text(teams).to_text() == teams
    groups = ("......./......./..B..../......./......./......./......B b -,-,-,- 0,0,5,0 R,TW 0 "
              "- players=4,mode=slow last-player")
    assert G.from_text(groups).to_text() == groups.replace("R,TW", "R,WT")


START = "RBBBBBB/RRBBBBT/RRRBBTT/RRR.TTT/RRWWTTT/RWWWWTT/WWWWWWT"


@pytest.mark.parametrize(("text", "why"), [
    (f"{START} w -,-,-,- 0,0,0,0 - 0 - players=3 -", "players=2 or players=4"),
    (f"{START} w -,-,- 0,0,0,0 - 0 - players=4,mode=teams -", "give 4 markers"),
    (f"{START} w d2>d4,-,-,- 0,0,0,0 - 0 - players=4,mode=teams -", "no stone of White"),
    (f"{START} w -,-,-,- 0,0,0 - 0 - players=4,mode=teams -", "4 capture counts"),
    (f"{START} w -,-,-,- 0,0,0,x - 0 - players=4,mode=teams -", "whole number"),
    (f"{START} w -,-,-,- 0,0,0,0 T 0 - players=4,mode=fast -", "only teams and slow"),
    (f"{START} w -,-,-,- 0,0,0,0 T,T 0 - players=4,mode=teams -", "out twice"),
    (f"{START} w -,-,-,- 0,0,0,0 T 0 - players=4,mode=slow -", "off the board"),
    (f"{START} w -,-,-,- 0,0,0,0 - 0 a1 players=4,mode=teams -", "must be empty"),
    (f"{START} w -,-,-,- 0,0,0,0 - 199 - players=4,mode=teams move-limit", "below 200"),
    (f"{START} w -,-,-,- 0,0,0,0 - 0 - players=4,mode=teams no-pieces", "no team is out"),
    (f"{START} w -,-,-,- 0,0,0,0 - 0 - players=4,mode=teams last-player", "not an ending"),
    (f"{START} w -,-,-,- 0,0,0,0 - 0 - players=4,mode=fast no-moves", "could still move"),
    (f"{START} w -,-,-,- 0,0,0,0 T,R 0 - players=4,mode=teams -", "the game is over"),
    (f"{START.replace('T', '.')} w -,-,-,- 0,0,0,0 - 0 - players=4,mode=teams -",
     "Turquoise has no stones"),
    (f"{START} w -,-,-,- 0,0,0,0 - 0 - players=2 -", "not a piece"),
    (f"{START} w -,-,-,- 0,0,0,0 - 0 - players=4,mode=teams", "nine fields"),
])
def test_bad_position_texts_are_refused(text: str, why: str) -> None:
    with pytest.raises(rules.PositionError, match=why):
        G.from_text(text)


def test_the_seat_to_move_must_have_a_move() -> None:
    with pytest.raises(rules.PositionError, match="Turquoise is to move but has no legal move"):
        gpos(BOX, "t")


def reference_captures(p: AlquerqueGrandePosition) -> dict[tuple[str, str, frozenset[str]], str]:
    """Every capture of the seat to move by brute force over all jump paths (independent
    of the engine's search): (start, end, captured set) -> the smallest path string."""
    letters = "WTBR" if p.players == 4 else "WB"
    board = at(p)
    me = letters[p.turn]

    def foe(letter: str) -> bool:
        if letter == me:
            return False
        if p.mode == "teams":
            return letters.index(letter) % 2 != p.turn % 2
        return True

    def jumps(name: str) -> list[tuple[str, str]]:
        x, y = point(name)
        found = []
        for dx in (-1, 0, 1):
            for dy in (-1, 0, 1):
                if ((dx or dy) and not (dx and dy and (x + y) % 2)
                        and 0 <= x + 2 * dx < 7 and 0 <= y + 2 * dy < 7):
                    found.append((f"{FILES[x + dx]}{y + dy + 1}",
                                  f"{FILES[x + 2 * dx]}{y + 2 * dy + 1}"))
        return found

    result: dict[tuple[str, str, frozenset[str]], str] = {}

    def extend(path: list[str], taken: list[str], stones: dict[str, str]) -> None:
        for over, land in jumps(path[-1]):
            if over in stones and foe(stones[over]) and land not in stones:
                rest = {k: v for k, v in stones.items() if k != over}
                longer, more = [*path, land], [*taken, over]
                key = (path[0], land, frozenset(more))
                text = "x".join(longer)
                result[key] = min(result.get(key, text), text)
                extend(longer, more, rest)

    for start, letter in board.items():
        if letter == me:
            extend([start], [], {k: v for k, v in board.items() if k != start})
    return result


def test_capture_search_matches_a_brute_force_reference() -> None:
    import random
    checked = 0
    for options in GRANDE_OPTIONS:
        for seed in range(4):
            rng = random.Random(seed)
            p = G.start(**options)
            while p.legal_moves():
                captures = sorted(G.format_move(p, m) for m in p.legal_moves() if m.captured)
                assert captures == sorted(reference_captures(p).values())
                checked += len(captures)
                p = p.play(rng.choice(p.legal_moves()))
    assert checked > 500
