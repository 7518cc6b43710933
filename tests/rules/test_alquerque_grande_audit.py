"""Audit of RULES §2 (Alquerque grande): scenarios for clauses and fine points the main
test file leaves open or checks only indirectly. See RULES_COVERAGE.md."""

from __future__ import annotations

import rules
from rules.alquerque_grande import GrandePosition
from tests.rules.test_alquerque_grande import (
    BOX,
    G,
    at,
    duel,
    gpos,
    moves,
    play,
    point,
    reference_captures,
    shown,
)

# --------------------------------------------------------------------------- huff choice


def test_the_moved_stone_is_huffed_even_if_another_could_take_more() -> None:
    # a1 could take one stone, e1 two; a1 steps: the moved stone goes, not the best one
    p = duel("a1 e1 g1", "a2 e2 e4 g7")
    assert shown(p, "g1-f1") == "g1-f1 (huff e1)"  # not the mover: the best capture
    assert shown(p, "a1-b1") == "a1-b1 (huff b1)"
    assert at(play(p, "a1-b1")) == {"e1": "W", "g1": "W", "a2": "B", "e2": "B", "e4": "B",
                                    "g7": "B"}


def test_the_best_counts_are_those_before_the_step() -> None:
    # before d5-e5, e1 takes two (e1xe3xe5) and a1 one: e1 is huffed. After the step e1
    # would take only one, tying with a1, which comes first in rank-major order.
    p = duel("a1 e1 d5", "a2 e2 e4 g7")
    assert shown(p, "d5-e5") == "d5-e5 (huff e1)"
    assert at(play(p, "d5-e5"))["a1"] == "W"


def test_a_huff_goes_by_the_best_sequence_not_the_first_jump() -> None:
    # both stones start with one jump; f1's sequence goes on to take three in all, so
    # f1 goes although b1 comes first in rank-major order
    p = duel("b1 f1 a7", "b2 f2 e3 d4 g7")
    assert shown(p, "a7-a6") == "a7-a6 (huff f1)"
    assert "f1xf3xd3xd5" in moves(p)


def test_huffed_stones_count_for_nobody_with_four_players() -> None:
    p = gpos({"W": "a1 g1", "T": "a2 f6", "B": "g7", "R": "a7"}, mode="fast",
             captures="1,2,3,4")
    after = play(p, "g1-f1")
    assert "a1" not in at(after) and after.captured == (1, 2, 3, 4)


# --------------------------------------------------------------------------- stopped sequences


def test_a_stopped_sequence_that_could_go_on_to_its_own_start_point_is_huffed() -> None:
    p = duel("b2 a1", "c2 d3 c4 b3 g7")
    assert shown(p, "b2xb4xd4xd2") == "b2xb4xd4xd2 (huff d2)"
    assert shown(p, "b2xb4xd4xd2xb2") == "b2xb4xd4xd2xb2"


def test_captures_ignore_the_no_return_marker() -> None:
    # White's last move was c1xc3: the stone may not step back to c1 (it cannot: c1 is
    # not next to it) but a capture may land there, and a sequence that could go on to
    # c1 is a stopped one
    p = duel("c3 g1", "b2 b1 g7", markers="c1>c3,-")
    assert {"c3xa1", "c3xa1xc1"} <= set(moves(p))
    assert shown(p, "c3xa1") == "c3xa1 (huff a1)"
    assert shown(p, "c3xa1xc1") == "c3xa1xc1"
    # the huff after a step is judged ignoring the marker too
    assert shown(p, "g1-f1") == "g1-f1 (huff c3)"


def test_every_prefix_of_a_sequence_is_legal_and_only_complete_ones_escape_the_huff() -> None:
    p = duel("a1 g1", "a2 a4 b5 g7")  # a1xa3xa5xc5 takes three
    prefixes = ["a1xa3", "a1xa3xa5", "a1xa3xa5xc5"]
    assert set(prefixes) <= set(moves(p))
    assert [shown(p, m) for m in prefixes] == ["a1xa3 (huff a3)", "a1xa3xa5 (huff a5)",
                                               "a1xa3xa5xc5"]


# --------------------------------------------------------------------------- last stones


def test_a_huff_of_the_movers_last_stone_ends_a_fast_game() -> None:
    p = gpos({"W": "a1", "T": "a2 g1", "B": "g7", "R": "a7"}, mode="fast")
    outcome = play(p, "a1-b1").outcome()
    assert outcome is not None and outcome.reason == "no-pieces"
    assert outcome.ranking == ({1}, {2, 3}, {0}) and outcome.winners == {1}


def test_a_huff_of_the_movers_last_stone_puts_him_out_in_slow() -> None:
    p = gpos({"W": "a1", "T": "a2 g1", "B": "g7", "R": "a7"}, mode="slow")
    after = play(p, "a1-b1")
    assert after.eliminated == ((0,),) and after.to_move == {1} and after.outcome() is None


def test_a_stopped_sequence_may_huff_the_movers_last_stone_with_two_players() -> None:
    p = duel("a1", "a2 a4 g7")
    after = play(p, "a1xa3")
    assert after.outcome() == rules.Outcome.win(1, seats=2, reason="no-pieces")


# --------------------------------------------------------------------------- teams


def test_an_out_seat_in_teams_blocks_and_is_captured_only_by_the_other_team() -> None:
    stones = {"W": "d3 a1", "T": "e3 g1", "B": "d4 g7", "R": "a7"}
    after = G.resign(gpos(stones), 0)  # White goes out at his turn; his stones stay
    assert isinstance(after, GrandePosition)
    assert after.out == {0} and after.to_move == {1} and at(after)["d3"] == "W"
    assert "e3xc3" in moves(after)  # Turquoise may capture the out seat's stone
    assert "e3-d3" not in moves(after)  # and it blocks
    p = play(after, "g1-f1")  # Turquoise declines the capture: e3 is huffed
    assert p.to_move == {2} and "e3" not in at(p)
    assert not any(m.startswith("d4x") for m in moves(p))  # Black never jumps d3
    assert "d4-e3" in moves(p) and "d4-d3" not in moves(p)


def test_a_team_mate_left_alone_still_plays_for_the_team() -> None:
    p = gpos({"W": "a1", "T": "g1", "B": "g7", "R": "a7"}, "t", out="W")
    after = play(p, "g1-f1")
    assert after.to_move == {2} and after.outcome() is None


# --------------------------------------------------------------------------- safeguard


def test_the_limit_is_checked_before_the_next_seat_is_examined_two_players() -> None:
    # after White's quiet move Black (walled in on a1) has no legal move; on the
    # hundredth quiet move the safeguard comes first: a draw, not a win
    walled = duel("a2 b1 b2 a3 c1 c3 g1", "a1")
    assert play(walled, "g1-g2").outcome() == rules.Outcome.win(0, seats=2,
                                                                 reason="no-moves")
    walled = duel("a2 b1 b2 a3 c1 c3 g1", "a1", quiet=99)
    assert play(walled, "g1-g2").outcome() == rules.Outcome.draw(seats=2,
                                                                 reason="move-limit")


def test_the_limit_is_checked_before_the_next_seat_is_examined_four_players() -> None:
    slow = play(gpos(BOX, mode="slow", quiet=199), "g1-g2")
    outcome = slow.outcome()
    assert outcome is not None and outcome.reason == "move-limit"
    assert slow.eliminated == () and at(slow)["a6"] == "T"  # Turquoise never examined
    assert outcome.ranking == ({3}, {1}, {0, 2})  # by stones: 10, 3, 1 and 1
    teams = play(gpos(BOX, mode="teams", quiet=199), "g1-g2")
    assert teams.eliminated == () and teams.outcome() == rules.Outcome.draw(
        seats=4, reason="move-limit")


def test_a_slow_players_stone_removal_is_not_a_move() -> None:
    slow = play(gpos(BOX, mode="slow", quiet=10), "g1-g2")
    assert slow.eliminated == ((1,),) and slow.quiet == 11
    teams = play(gpos(BOX, mode="teams", quiet=10), "g1-g2")
    assert teams.eliminated == ((1,), (2,)) and teams.quiet == 11


def test_the_slow_limit_counts_the_seats_not_out() -> None:
    stones = {"W": "a1 b1", "T": "", "B": "g7", "R": "a7"}
    assert play(gpos(stones, mode="slow", out="T", quiet=148), "b1-c1").outcome() is None
    p = play(gpos(stones, mode="slow", out="T", quiet=149), "b1-c1")
    outcome = p.outcome()
    assert outcome is not None and outcome.reason == "move-limit"
    assert outcome.ranking == ({0}, {2, 3}, {1}) and outcome.winners == {0}


def test_the_fast_limit_is_two_hundred_moves() -> None:
    stones = {"W": "a1 b1", "T": "g1", "B": "g7", "R": "a7"}
    assert play(gpos(stones, mode="fast", quiet=198), "b1-c1").outcome() is None
    outcome = play(gpos(stones, mode="fast", quiet=199), "b1-c1").outcome()
    assert outcome is not None and outcome.reason == "move-limit"
    assert outcome.ranking == ({0}, {1, 2, 3}) and outcome.winners == {0}


def test_a_shared_first_place_at_the_limit_has_no_winner() -> None:
    stones = {"W": "a1 b1", "T": "g1 g2", "B": "g7", "R": "a7"}
    outcome = play(gpos(stones, mode="fast", quiet=199), "b1-c1").outcome()
    assert outcome is not None and outcome.winners == frozenset()
    assert outcome.ranking == ({0, 1}, {2, 3})


# --------------------------------------------------------------------------- text


def test_the_text_round_trips_after_the_moved_stone_is_huffed() -> None:
    after = play(duel("a1 g1", "a2 g7"), "a1-b1")
    assert after.markers[0] is None and after.last_huff == point("b1")
    assert G.from_text(after.to_text()).to_text() == after.to_text()
    stopped = play(duel("a1 g1", "a2 a4 g7"), "a1xa3")
    assert stopped.markers[0] is None
    assert G.from_text(stopped.to_text()).to_text() == stopped.to_text()


def test_a_complete_capture_by_a_lesser_stone_is_not_huffed() -> None:
    # no majority rule: a1 takes one while e1 could take two, and nothing is huffed
    p = duel("a1 e1 g1", "a2 e2 e4 g7")
    assert shown(p, "a1xa3") == "a1xa3"
    assert play(p, "a1xa3").last_huff is None


# --------------------------------------------------------------------------- reference


def reference_huff(p: GrandePosition, text: str) -> str | None:
    """The stone RULES §2.3 rule 5 huffs for the move ``text``, worked out from the
    brute-force capture list of the main test file and a direct look at the board."""
    captures = reference_captures(p)
    if "x" in text:
        path = text.split("x")
        taken = next(c for (s, e, c), t in captures.items() if t == text)
        board = {k: v for k, v in at(p).items() if k not in taken and k != path[0]}
        letters = "WTBR" if p.players == 4 else "WB"
        me = p.turn

        def foe(letter: str) -> bool:
            other = letters.index(letter)
            return other != me and (p.mode != "teams" or other % 2 != me % 2)

        x, y = point(path[-1])
        for dx in (-1, 0, 1):
            for dy in (-1, 0, 1):
                if not (dx or dy) or (dx and dy and (x + y) % 2):
                    continue
                if not (0 <= x + 2 * dx < 7 and 0 <= y + 2 * dy < 7):
                    continue
                over = f"{'abcdefg'[x + dx]}{y + dy + 1}"
                land = f"{'abcdefg'[x + 2 * dx]}{y + 2 * dy + 1}"
                if over in board and foe(board[over]) and land not in board:
                    return path[-1]  # a stopped sequence: the capturing stone goes
        return None
    start, end = text.split("-")
    best: dict[str, int] = {}
    for (s, _, taken), _t in captures.items():
        best[s] = max(best.get(s, 0), len(taken))
    if not best:
        return None
    if start in best:
        return end
    return min(best, key=lambda s: (-best[s], int(s[1:]), s[0]))  # rank-major


def test_huffs_match_a_reference_over_random_games() -> None:
    import random
    checked = 0
    for options in G.example_options:
        for seed in range(2):
            rng = random.Random(100 + seed)
            p = G.start(**options)
            for _ in range(120):
                legal = p.legal_moves()
                if not legal:
                    break
                for m in legal:
                    text = G.format_move(p, m)
                    huff = p.huff_of(m)
                    got = f"{'abcdefg'[huff[0]]}{huff[1] + 1}" if huff else None
                    assert got == reference_huff(p, text), text
                    checked += 1
                p = p.play(rng.choice(legal))
    assert checked > 2000


def test_two_players_capturing_the_last_stone_wins() -> None:
    white = play(duel("d3 a1", "d4"), "d3xd5")
    assert white.outcome() == rules.Outcome.win(0, seats=2, reason="no-pieces")
    black = play(duel("d3", "d4 g7", "b"), "d4xd2")
    assert black.outcome() == rules.Outcome.win(1, seats=2, reason="no-pieces")


def test_out_is_for_good_turn_order_skips_every_out_seat() -> None:
    # Turquoise and Black are out (their stones stay in teams): White, Red, White, ...
    p = gpos({"W": "a1", "T": "g1", "B": "g7", "R": "a7"}, out="T,B")
    p = play(p, "a1-b1")
    assert p.to_move == {3}
    p = play(p, "a7-a6")
    assert p.to_move == {0}
    p = play(p, "b1-c1")
    assert p.to_move == {3} and p.out == {1, 2} and at(p)["g7"] == "B"
