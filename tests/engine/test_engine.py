"""The engine plays only legal moves, everywhere; refuses finished games; is reproducible;
and each game's evaluation sees what matters in that game.

Budgets are node budgets of a few hundred nodes, so the whole file runs in seconds and
every result is the same on any machine.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import engine
import rules
from engine import (
    LevelError,
    NotToMoveError,
    TerminalPositionError,
    Weighing,
    choose_move,
    weigh_move,
)
from engine.fairy import find_binary
from engine.models import model_for
from engine.models.querni import _querni_start_cells
from rules import Position, Variant

CONFIGS = [
    pytest.param(v, opts, id=f"{key}-" + ("-".join(f"{k}={o}" for k, o in opts.items())
                                          or "default"))
    for key, v in rules.VARIANTS.items()
    for opts in v.option_sets()
]

NODES = 300  # per search in the property tests: a handful of milliseconds
# Searches here stop on node budgets with a generous time budget, so a busy machine
# changes nothing: the levels' time caps (a quarter of the budget) never bind.


def reach(v: Variant, options: dict[str, object], seed: int, plies: int) -> Position[Any]:
    """A position reached by ``plies`` seeded random moves (arrangements in a set-up)."""
    rng = random.Random(seed)
    p = v.start(**options)
    for _ in range(plies):
        if p.outcome() is not None:
            break
        if p.in_setup:
            seat = min(p.to_move)
            p = p.play(model_for(v).arrange(p, seat, rng, 0))
            continue
        p = p.play(rng.choice(p.legal_moves()))
    return p


@pytest.mark.parametrize(("v", "options"), CONFIGS)
@settings(max_examples=12, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 2**32 - 1), plies=st.integers(0, 120),
       level=st.integers(0, 8))
def test_only_legal_moves_from_reachable_positions(v: Variant, options: dict[str, object],
                                                   seed: int, plies: int, level: int) -> None:
    p = reach(v, options, seed, plies)
    if p.outcome() is not None:
        with pytest.raises(TerminalPositionError):
            choose_move(p, level, seed=seed, nodes=NODES, fairy=False, seconds=60)
        return
    for seat in sorted(p.to_move):
        choice = choose_move(p, level, seed=seed, nodes=NODES, seat=seat, seconds=60,
                             fairy=False)
        assert choice.seat == seat
        if p.in_setup:
            after = p.play(choice.move)
            assert after.has_submitted(seat) or not after.in_setup
            assert v.parse_arrangement(p, seat, choice.text) == choice.move
        else:
            assert choice.move in p.legal_moves()
            assert v.parse_move(p, choice.text) == choice.move
            assert choice.pv[0] == choice.text


SINGLE_MOVE = [
    ("alquerque", "BBBBB/BBBBB/BBW.W/WWWWW/WWWWW b d3>c3", "b3xd3"),
    ("alquerque-grande", "RBBBBBB/RRBBBBT/RRRBBTT/RRRWTTT/RRW.TTT/RWWWWTT/WWWWWWT t "
     "d3>d4,-,-,- 0,0,0,0 - 1 - players=4,mode=fast -", None),
    ("alquerque-grande", "BBBBBBB/BBBBBBB/BBBBBBB/BBBWWWW/WWW.WWW/WWWWWWW/WWWWWWW b "
     "d3>d4,- 0,0 - 1 - players=2 -", "d5xd3"),
    ("xiangqi", "2b2a3/9/2n2k3/6p1P/4p1P2/R1P6/2n6/3AK4/6N2/p2A5 w - - 7 84", None),
    ("damas", "B:W1,2,3,4,5,6,7,8,10,11,12,18:B19,21,23,24,25,26,27,28,29,30,31,32", None),
]


@pytest.mark.parametrize(("key", "text", "expected"), SINGLE_MOVE)
@pytest.mark.parametrize("level", [1, 5, 8])
def test_single_legal_move_is_played_without_searching(key: str, text: str,
                                                       expected: str | None,
                                                       level: int) -> None:
    v = rules.variant(key)
    p = v.from_text(text)
    (only,) = p.legal_moves()
    choice = choose_move(p, level, seed=1, nodes=NODES, fairy=False, seconds=60)
    assert choice.move == only
    assert choice.depth == 0
    if expected:
        assert choice.text == expected


FINISHED = [
    ("xiangqi", "3rkr3/4R4/9/9/9/9/9/9/9/4K4 b - - 0 1"),  # checkmate
    ("damas", "B:W1:B"),  # Black, to move, has no pieces
    ("alquerque", "....W/...../...../...../..... b -"),
]


@pytest.mark.parametrize(("key", "text"), FINISHED)
@pytest.mark.parametrize("level", [0, 1, 8])
def test_terminal_positions_are_refused_with_a_typed_error(key: str, text: str,
                                                           level: int) -> None:
    p = rules.variant(key).from_text(text)
    assert p.outcome() is not None
    with pytest.raises(TerminalPositionError) as caught:
        choose_move(p, level)
    assert isinstance(caught.value, ValueError)
    assert caught.value.text == p.to_text()


def test_terminal_positions_of_random_games_are_refused() -> None:
    for key, v in rules.VARIANTS.items():
        options = v.option_sets()[0]
        if options.get("setup") == "choose":
            options = {}
        p = reach(v, dict(options), 7, 10_000)
        assert p.outcome() is not None, key
        with pytest.raises(TerminalPositionError):
            choose_move(p, 3, nodes=NODES, fairy=False, seconds=60)


def test_seat_must_be_to_move() -> None:
    v = rules.variant("querni")
    setup = v.start(setup="choose")
    with pytest.raises(NotToMoveError):
        choose_move(setup, 5)  # both seats pending: which one?
    p = v.start(seed=3)
    with pytest.raises(NotToMoveError):
        choose_move(p, 5, seat=1)


@pytest.mark.parametrize("bad", [-1, 9, True])
def test_unknown_levels_are_refused(bad: int) -> None:
    p = rules.variant("damas").start()
    with pytest.raises(LevelError):
        choose_move(p, bad)


@pytest.mark.parametrize(("v", "options"), CONFIGS)
def test_same_seed_same_move_other_seeds_vary(v: Variant, options: dict[str, object]) -> None:
    p = reach(v, options, 11, 6)
    seat = min(p.to_move)
    first = choose_move(p, 2, seed=5, nodes=NODES, seat=seat, fairy=False, seconds=60)
    again = choose_move(p, 2, seed=5, nodes=NODES, seat=seat, fairy=False, seconds=60)
    assert (first.text, first.score, first.nodes) == (again.text, again.score, again.nodes)


def test_random_level_varies_with_the_seed() -> None:
    p = rules.variant("xiangqi").start()
    assert len({choose_move(p, 0, seed=s).text for s in range(20)}) > 5


# --------------------------------------------------------------------------- what it sees


def play(v: Variant, p: Position[Any], text: str) -> Position[Any]:
    return p.play(v.parse_move(p, text))


@pytest.mark.parametrize("level", [2, 5, 8])
def test_xiangqi_mates_in_one(level: int) -> None:
    v = rules.variant("xiangqi")
    # Black's general is boxed in by its own chariots on d10 and f10: a2-e2 mates.
    p = v.from_text("3rkr3/9/9/9/9/9/9/3A5/R8/3K5 w - - 0 1")
    choice = choose_move(p, level, seed=0, nodes=5_000, fairy=False, seconds=60)
    after = p.play(choice.move)
    assert after.outcome() is not None and after.outcome().winners == {0}, choice.text


def test_xiangqi_takes_a_hanging_chariot() -> None:
    v = rules.variant("xiangqi")
    p = v.from_text("r3k4/9/9/9/9/9/9/9/9/R2K5 w - - 0 1")
    assert choose_move(p, 5, seed=0, nodes=3_000, fairy=False, seconds=60).text == "a1xa10"


def test_low_levels_look_less_far_than_high_ones() -> None:
    """Level 1 looks one move ahead (and one capture beyond); level 4 sees the reply:
    from the start it never gives a piece away."""
    v = rules.variant("xiangqi")
    start = v.start()
    # (a slip searches nothing: depth 0; the seeds below are choices that searched)
    low = next(c for c in (choose_move(start, 1, seed=s, fairy=False, seconds=60)
                           for s in range(20)) if c.depth)
    high = next(c for c in (choose_move(start, 4, seed=s, nodes=4_000, fairy=False,
                                        seconds=60) for s in range(20)) if c.depth)
    assert low.depth == 1 and high.depth >= 2
    assert start.play(high.move).captured_counts() == (0, 0)


def test_damas_crowns_when_it_can() -> None:
    v = rules.variant("damas")
    # White man on 28 (one step from crowning), Black king far away.
    p = v.from_text("W:W28:BK1")
    choice = choose_move(p, 6, seed=0, nodes=2_000, fairy=False, seconds=60)
    assert any(piece.kind == "king" and piece.seat == 0
               for piece in p.play(choice.move).pieces().values()), choice.text


def test_alquerque_capture_duty_chain_is_followed() -> None:
    """A compulsory capture with a choice: the engine takes the longer chain."""
    v = rules.variant("alquerque")
    p = v.start()
    for _ in range(2):
        p = p.play(choose_move(p, 6, seed=0, nodes=3_000, fairy=False, seconds=60).move)
    assert p.outcome() is None


def test_alquerque_level_8_counts_a_stone_on_the_far_rank_as_almost_nothing() -> None:
    """A stone on its far rank can no longer step, and most games end with the side to
    move out of moves: level 8 counts such a stone as almost nothing (one stone with its
    steps left outweighs two of them, and the side with it wins here), levels 7 and
    below as a stone."""
    from engine.levels import LEVELS
    from engine.models import model_at_level
    from engine.models.alquerque import AlquerqueModel, AlquerqueTopModel
    v = rules.variant("alquerque")
    p = v.from_text("...../...../..W../...../B...B w -")
    # whatever White steps, Black is to move without a move
    assert {p.play(m).outcome() for m in p.legal_moves()} == {
        rules.Outcome.win(0, seats=2, reason="no-moves")}
    top, _ = model_at_level(p, LEVELS[8])
    shared, _ = model_at_level(p, LEVELS[7])
    assert type(top) is AlquerqueTopModel and type(shared) is AlquerqueModel
    white, black = top.evaluate(p, p.pieces())
    assert white > 10 * black > 0
    white, black = shared.evaluate(p, p.pieces())
    assert white < black


def test_grande_avoids_being_huffed() -> None:
    """With huffing, stepping while a capture exists costs a stone: the engine captures."""
    v = rules.variant("alquerque-grande")
    rows = ["......."] * 3 + ["...B...", "...W...", ".......", "......W"]
    p = v.from_text("/".join(rows) + " w -,- 0,0 - 0 - players=2 -")
    choice = choose_move(p, 4, seed=0, nodes=2_000, fairy=False, seconds=60)
    assert choice.text == "d3xd5", choice.text


def test_weighing_a_move_against_the_best_one() -> None:
    """An analysis weighs the played move against the best, both scored for the mover:
    the capture the rules make worth taking costs nothing, a step that gets huffed
    costs at least a pawn."""
    v = rules.variant("alquerque-grande")
    rows = ["......."] * 3 + ["...B...", "...W...", ".......", "......W"]
    p = v.from_text("/".join(rows) + " w -,- 0,0 - 0 - players=2 -")
    capture = weigh_move(p, v.parse_move(p, "d3xd5"), nodes=2_000)
    assert capture.lost == 0 and capture.best == capture.played
    step = weigh_move(p, v.parse_move(p, "g1-g2"), nodes=2_000)
    assert step.best == capture.best and step.lost >= 100


def test_weighing_in_four_seats_is_for_the_mover() -> None:
    """In four seats on their own the best move's weighing is the mover's own score."""
    v = rules.variant("alquerque-grande")
    p = v.start(players=4, mode="fast")
    best = choose_move(p, 8, nodes=400, seconds=60, fairy=False)
    weighed = weigh_move(p, best.move, nodes=400)
    assert weighed.lost == 0 and weighed.best == best.score
    others = [weigh_move(p, m, nodes=400) for m in p.legal_moves()[:6]]
    assert all(w.best == best.score and w.lost >= 0 for w in others)


def test_weighing_refuses_what_is_no_single_move() -> None:
    v = rules.variant("querni")
    setup = v.start(setup="choose")
    with pytest.raises(NotToMoveError, match="arrangement"):
        weigh_move(setup, None)
    x = rules.variant("xiangqi")
    mate = x.from_text("3rkr3/4R4/9/9/9/9/9/9/9/4K4 b - - 0 1")
    with pytest.raises(TerminalPositionError):
        weigh_move(mate, None)
    start = x.start()
    with pytest.raises(NotToMoveError, match="not a legal move") as err:
        weigh_move(start, "h3-e3")  # text, not a move value
    assert isinstance(err.value, ValueError) and err.value.text == start.to_text()
    for key, text, _expected in SINGLE_MOVE:  # a forced move costs nothing
        forced = rules.variant(key).from_text(text)
        only = forced.legal_moves()[0]
        assert weigh_move(forced, only) == Weighing(0, 0, only)


def test_querni_removes_a_chain_and_never_strands_a_number() -> None:
    v = rules.variant("querni")
    p = v.start(arrangement=(tuple(range(1, 17)), tuple(range(1, 17))))
    choice = choose_move(p, 5, seed=0, nodes=3_000, fairy=False, seconds=60)
    assert choice.move.removal is not None, choice.text
    low, high = choice.move.removal
    # what is left must still be removable in runs of three or more
    assert low - 1 in (0, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13)
    assert 16 - high in (0, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13)


def test_querni_arrangement_chains_its_numbers_and_keeps_the_other_secret() -> None:
    v = rules.variant("querni")
    p = v.start(setup="choose")
    weak = choose_move(p, 0, seed=4, seat=0)
    strong = choose_move(p, 8, seed=4, seat=0)
    model = model_for(v)

    def quality(choice: engine.Choice) -> int:
        played = p.play(choice.move).play(choose_move(p, 0, seed=9, seat=1).move)
        return model.evaluate(played, played.pieces())[0]

    assert quality(strong) > quality(weak)
    # Seat 1 chooses the same whatever seat 0 submitted (it sees only its own view).
    a = p.play(v.parse_arrangement(p, 0, " ".join(map(str, range(1, 17)))))
    b = p.play(v.parse_arrangement(p, 0, " ".join(map(str, range(16, 0, -1)))))
    assert choose_move(a, 6, seed=2).text == choose_move(b, 6, seed=2).text


def test_grande_teams_searches_for_the_team() -> None:
    """In teams the two partners are one side: the search's allies are the team."""
    from engine.search import Limits, Search

    p = rules.variant("alquerque-grande").start(players=4, mode="teams")
    search = Search(model_for(p.variant), p, Limits(depth=1))
    assert search.allies == {0, 2} and search.enemies == {1, 3}
    fast = rules.variant("alquerque-grande").start(players=4, mode="fast")
    paranoid = Search(model_for(fast.variant), fast, Limits(depth=1))
    assert paranoid.allies == {0} and paranoid.enemies == {1, 2, 3}


def test_grande_top_levels_value_a_finish_by_its_place() -> None:
    """With four individual seats, levels 7-8 score a finish they do not win by its
    place (second of four beats last); the levels below score every such finish as a
    loss, and a shared first place without them as a draw. Two sides are unchanged."""
    from engine.models.alquerque_grande import AlquerqueGrandeModel, AlquerqueGrandeTopModel
    from engine.search import WIN, WON, Limits, Search
    from rules import Outcome

    fast = rules.variant("alquerque-grande").start(players=4, mode="fast")
    top = Search(AlquerqueGrandeTopModel(), fast, Limits(depth=1))  # seat 0 to move
    below = Search(AlquerqueGrandeModel(), fast, Limits(depth=1))

    def ranked(*groups: tuple[int, ...]) -> Outcome:
        return Outcome.ranked(groups, reason="captures")

    second, third, last = ranked((1,), (0,), (2, 3)), ranked((1,), (2,), (0,), (3,)), \
        ranked((1,), (2,), (3,), (0,))
    # a shared first place has no winner in fast (RULES 2.4)
    shared_first_without_us = Outcome(frozenset(), (frozenset({1, 2}), frozenset({0, 3})),
                                      "captures")
    assert top._terminal(second, 5) == 667 and top._terminal(third, 5) == -667
    assert top._terminal(last, 5) == -2000
    assert top._terminal(shared_first_without_us, 5) == round(4000 * (0.5 / 3 - 0.5))
    assert top._terminal(ranked((0,), (1, 2, 3)), 5) == WIN - 5
    assert below._terminal(second, 5) < -WON and below._terminal(last, 5) < -WON
    assert below._terminal(shared_first_without_us, 5) == 0
    teams = rules.variant("alquerque-grande").start(players=4, mode="teams")
    team_loss = Outcome.win((1, 3), seats=4, reason="captures")
    assert Search(AlquerqueGrandeTopModel(), teams, Limits(depth=1))._terminal(
        team_loss, 5) == Search(AlquerqueGrandeModel(), teams, Limits(depth=1))._terminal(
        team_loss, 5) < -WON


def test_only_grande_levels_7_and_8_search_with_places(monkeypatch: Any) -> None:
    """choose_move hands levels 7 and 8 the model that values places, 1-6 the other."""
    import engine.player
    from engine.search import Search

    used: list[int] = []

    def spy(model: Any, root: Any, limits: Any, table: Any = None) -> Search:
        # a function, not a subclass: the compiled Search cannot be subclassed here
        used.append(model.place_value)
        return Search(model, root, limits, table=table)

    monkeypatch.setattr(engine.player, "Search", spy)
    fast = rules.variant("alquerque-grande").start(players=4, mode="fast")
    for level in (6, 7, 8):
        choose_move(fast, level, seed=1, nodes=200)
    assert used == [0, 4000, 4000]


def test_grande_four_seat_levels_are_set_apart_by_mistakes() -> None:
    """``fast`` and ``slow`` play the rivals' levels (more search hardly pays there,
    mistakes do): levels 3-7 search as the shared levels 1-5 do, levels 1 and 2 one ply
    without following captures, and level 8 is the shared top. Two sides (``teams``,
    two players) keep the shared levels 1-7 (their level 8:
    test_grande_two_sides_level_8_searches_four_times_level_7)."""
    from engine.levels import LEVELS
    from engine.models.alquerque_grande import AlquerqueGrandeRivalsModel

    grande = rules.variant("alquerque-grande")
    search = ("depth", "nodes", "min_nodes", "quiescence", "noise", "overlook", "slip",
              "time_share")
    for mode in ("fast", "slow"):
        model = model_for(grande, grande.start(players=4, mode=mode))
        assert isinstance(model, AlquerqueGrandeRivalsModel), mode
        shaped = [model.adapt_level(LEVELS[n]) for n in range(9)]
        assert [s.number for s in shaped] == list(range(9))
        assert shaped[0] is LEVELS[0] and shaped[8] is LEVELS[8]
        for n in range(3, 8):
            assert [getattr(shaped[n], f) for f in search] == \
                [getattr(LEVELS[n - 2], f) for f in search], (mode, n)
        assert [s.quiescence for s in shaped[1:4]] == [0, 0, 1]
        assert shaped[1].slip == 1.0 and shaped[1].slip > shaped[2].slip > 0
        slips = [s.slip for s in shaped[3:9]]
        assert slips == sorted(slips, reverse=True) and len(set(slips)) == 6
        for s in shaped[1:8]:
            assert s.nodes == s.min_nodes and s.nodes is not None  # node-bound: reproducible
    for options in ({"players": 4, "mode": "teams"}, {"players": 2, "rules": "grande"}):
        two_sides = model_for(grande, grande.start(**options))  # type: ignore[arg-type]
        assert all(two_sides.adapt_level(LEVELS[n]) is LEVELS[n] for n in range(8))


def test_grande_fast_level_7_stops_on_its_nodes_whatever_the_time() -> None:
    """Level 7 of ``fast`` is node-bound (1 500 nodes) and judges finishes by their
    place: the same move for the same seed with a tiny or a large time budget."""
    grande = rules.variant("alquerque-grande")
    p = grande.start(players=4, mode="fast")
    for _ in range(4):  # one move each: a position off the start
        p = p.play(p.legal_moves()[0])
    seed = next(s for s in range(50)  # a seed on which level 7 searches (no slip)
                if choose_move(p, 7, seed=s, seconds=0.001).nodes)
    quick = choose_move(p, 7, seed=seed, seconds=0.001)
    slow = choose_move(p, 7, seed=seed, seconds=30)
    assert 0 < quick.nodes <= 1_500 + 256
    assert (quick.text, quick.nodes, quick.depth) == (slow.text, slow.nodes, slow.depth)


# --------------------------------------------------------------------------- Fairy-Stockfish


def test_xiangqi_top_levels_use_fairy_stockfish_when_installed_else_our_engine(
        fairy_stockfish: str | None) -> None:
    """Runs either way: with the binary (the fixture installs it where it can) the top
    levels are Fairy-Stockfish's; without it our own search answers every level."""
    v = rules.variant("xiangqi")
    p = v.start()
    choice = choose_move(p, 8, seed=0, seconds=0.2)
    assert choice.move in p.legal_moves()
    assert choice.engine == ("fairy-stockfish" if fairy_stockfish else "tablero")
    assert find_binary() == fairy_stockfish
    # a level below the Fairy-Stockfish ones is always ours
    assert choose_move(p, 5, seed=0, nodes=NODES, seconds=60).engine == "tablero"
    # other games never go to Fairy-Stockfish
    d = rules.variant("damas").start()
    assert choose_move(d, 8, seed=0, nodes=NODES, seconds=0.2).engine == "tablero"


def test_fairy_stockfish_speaks_uci_at_every_strength_we_use(
        fairy_stockfish: str | None) -> None:
    """Skill levels (levels 7 and 8) and an Elo cap (the bench's) each give a legal
    xiangqi move from a middlegame; without the binary our own engine plays it."""
    from engine.fairy import FairyError, FairyStockfish, Strength
    from engine.player import FAIRY_LEVELS

    v = rules.variant("xiangqi")
    p = reach(v, {}, seed=3, plies=12)
    if fairy_stockfish is None:
        with pytest.raises(FairyError, match="not installed"):
            FairyStockfish()
        assert choose_move(p, 8, seed=0, seconds=0.2).engine == "tablero"
        return
    strengths = [*FAIRY_LEVELS.values(), Strength(skill=-20), Strength(elo=1350)]
    with FairyStockfish(fairy_stockfish) as fairy:
        for strength in strengths:
            fairy.set_strength(strength)
            assert fairy.strength == strength
            assert v.parse_move(p, fairy.best_move(p.to_text(), 0.05)) in p.legal_moves()


# --------------------------------------------------------------------------- issue 13 ladder


def test_querni_work_left_falls_when_a_number_joins_its_run() -> None:
    """The Querni evaluation counts the turns needed to take every number off: a stone
    moved next to its consecutive neighbour lowers that work; a lone pair or single
    number between removed runs can never come off and loses the game's value."""
    from engine.models.querni import QuerniModel

    model = QuerniModel()
    apart = {1: (0, 0), 2: (1, 0), 3: (5, 5)}
    close = {1: (0, 0), 2: (1, 0), 3: (2, 1)}
    assert model._standing(close) == 1300 > model._standing(apart)  # 13 off, no work
    # 1-5 left: taking 3-5 off would strand 1 and 2 (worse than any removal gains)
    five = {n: (n, 0) for n in range(1, 6)}
    two = {1: (1, 0), 2: (2, 0)}
    assert model._standing(two) < model._standing(five) - 1000
    # the cheapest split: 1-6 comes off as 1-3 and 4-6 (the gap between 3 and 4 needs
    # no closing), while 1-5 cannot split and must close it
    six = {1: (0, 0), 2: (1, 0), 3: (2, 0), 4: (4, 0), 5: (5, 0), 6: (6, 0)}
    assert model._standing(six) == 1000
    del six[6]
    assert model._standing(six) == 1100 - QuerniModel.GAP[2]


def test_querni_top_level_judges_by_the_turns_still_to_go() -> None:
    """Level 8's Querni judgement is the turns a seat still needs, about the larger of
    its movements (the work left) and its runs to take off (one removal a turn): 16
    touching numbers are one turn from the win and beat three scattered numbers left
    after 13 removed (two movements and a removal), which the progress judgement of
    the levels below ranks the other way round."""
    from engine.models.querni import QuerniModel, QuerniTopModel

    top, below = QuerniTopModel(), QuerniModel()
    chain = {n: (n - 1, 0) for n in range(1, 10)}  # 1-9 along a row, 10-16 back
    chain.update({n: (18 - n, 1) for n in range(10, 17)})
    scattered = {14: (0, 0), 15: (2, 0), 16: (4, 0)}
    assert top._standing(chain) > top._standing(scattered)
    assert below._standing(chain) < below._standing(scattered)
    assert top._standing(chain) == -100  # one removal turn, no movement
    assert top._standing(scattered) == 13 * QuerniTopModel.TAKEN - 2 * QuerniModel.GAP[2]
    # removals count too: 1-9 touching come off in one turn, three separate runs of
    # three (1-3, 5-7, 9-11) need three, which progress alone does not tell apart
    line = {n: (n, 0) for n in range(1, 10)}
    apart = {1: (0, 0), 2: (1, 0), 3: (2, 0), 5: (0, 3), 6: (1, 3), 7: (2, 3),
             9: (0, 6), 10: (1, 6), 11: (2, 6)}
    assert top._standing(line) == 7 * QuerniTopModel.TAKEN - 100
    assert top._standing(apart) == 7 * QuerniTopModel.TAKEN - 300
    assert below._standing(line) == below._standing(apart)
    # a lone pair still strands the seat, as below
    assert top._standing({1: (0, 0), 2: (1, 0)}) < top._standing(line) - 1000


def test_only_querni_level_8_plays_with_the_turns_judgement(monkeypatch: Any) -> None:
    """The search of level 8 judges with QuerniTopModel; level 7's with the work-left
    model (the model each search is handed: the compiled core's classes cannot be
    patched, so the search's construction is watched)."""
    import engine.player
    from engine.search import Search

    asked: list[str] = []

    def spy(model: Any, root: Any, limits: Any, table: Any = None) -> Search:
        asked.append(type(model).__name__)
        return Search(model, root, limits, table=table)

    monkeypatch.setattr(engine.player, "Search", spy)
    p = rules.variant("querni").start(seed=5)
    eight = choose_move(p, 8, seed=1, nodes=300)
    assert asked == ["QuerniTopModel"] and eight.nodes > 0
    asked.clear()
    seven = choose_move(p, 7, seed=1, nodes=300)
    assert asked == ["QuerniModel"] and seven.nodes > 0


def test_levels_7_and_8_search_their_node_floor_however_short_the_time() -> None:
    """A machine too slow for the time budget cannot make level 7 or 8 weaker than the
    node-bound level 6: they search at least 6 000 / 12 000 nodes (the ladder's
    reproducible setting), and levels 1-6 are never cut short by time."""
    p = rules.variant("damas").start()
    seven = choose_move(p, 7, seed=1, seconds=0.001, floors=True)
    eight = choose_move(p, 8, seed=1, seconds=0.001, floors=True)
    assert 6_000 <= seven.nodes < 6_000 + 256 and 12_000 <= eight.nodes < 12_000 + 256
    again = choose_move(p, 8, seed=1, seconds=0.001, floors=True)
    assert (again.text, again.nodes) == (eight.text, eight.nodes)
    six = choose_move(p, 6, seed=1, seconds=0.001)
    assert six.text == choose_move(p, 6, seed=1, seconds=60).text


def test_a_slipping_level_plays_a_plausible_move_not_its_best() -> None:
    """The low levels sometimes play one of the next three moves of a one-ply look
    (never a random one, nor one much worse), the lower the level the more often; 7
    and 8 never slip; a mate in one is never missed (test_xiangqi_mates_in_one)."""
    from engine.search import Limits, Search

    v = rules.variant("xiangqi")
    p = v.start()
    for _ in range(6):
        p = p.play(choose_move(p, 3, seed=len(p.to_text()), fairy=False).move)
    ranked = Search(model_for(v), p, Limits(depth=1, quiescence=1)).ranked()  # as level 1
    # here the fourth move is 100 centipawns clear of the fifth (more than level 1's
    # noise either way): a slip is one of the first four, never one of the other 33
    assert ranked[3][0] - ranked[4][0] > 2 * 60 and len(ranked) == 37
    plausible = {v.format_move(p, m) for _, m in ranked[:4]}
    choices = [choose_move(p, 1, seed=s, fairy=False) for s in range(40)]
    slips = [c for c in choices if c.depth == 0]  # no search: a slip
    assert 24 <= len(slips) <= 38  # level 1 slips 80 % of the time
    assert {c.text for c in slips} <= plausible and len({c.text for c in slips}) > 1
    d = rules.variant("damas").start()
    slipped = [sum(choose_move(d, lv, seed=s, nodes=100).depth == 0 for s in range(40))
               for lv in (1, 4, 7)]
    assert slipped[0] > slipped[1] > 0 and slipped[2] == 0


def test_querni_levels_look_whole_plies_other_games_keep_the_shared_levels() -> None:
    """Querni's 50-200 moves a turn ended the shared node budgets of levels 1-5 inside
    the second or third ply; its model shapes its levels (whole plies, mistakes sized to
    its evaluation, node floors rising above). Damas, xiangqi and the other games play
    the shared levels unchanged."""
    from engine.levels import LEVELS

    querni = model_for(rules.variant("querni"))
    shaped = [querni.adapt_level(LEVELS[n]) for n in range(1, 9)]
    assert [s.number for s in shaped] == list(range(1, 9))
    assert [s.depth for s in shaped[:7]] == [1, 1, 1, 1, 2, 3, 3]
    assert [s.noise for s in shaped[5:]] == [0] * 3 and not any(s.slip for s in shaped[5:])
    noises = [s.noise for s in shaped]
    assert noises == sorted(noises, reverse=True) and noises[0] > LEVELS[1].noise
    assert len(set(noises[:6])) == 6  # each level 1-6 misjudges less than the one below
    slips = [s.slip for s in shaped[:6]]
    assert slips == sorted(slips, reverse=True) and len(set(slips)) == 6
    for s in shaped[:6]:
        assert s.nodes == s.min_nodes and s.nodes is not None  # node-bound: reproducible
    floors = [s.min_nodes for s in shaped[5:]]
    assert floors == sorted(set(floors)) and floors[-1] > LEVELS[8].min_nodes
    assert floors[1] >= 4 * floors[0]  # level 7 finishes the third ply level 6 starts
    assert shaped[6].nodes is None and shaped[6].time_share == LEVELS[7].time_share
    assert shaped[7].nodes is None and shaped[7].time_share == LEVELS[8].time_share
    assert querni.adapt_level(LEVELS[0]) is LEVELS[0]
    for key in ("damas", "xiangqi", "alquerque-grande"):
        model = model_for(rules.variant(key))
        assert all(model.adapt_level(LEVELS[n]) is LEVELS[n] for n in LEVELS), key
    grande = rules.variant("alquerque-grande")
    two_sides = ({"players": 2, "rules": "alquerque"}, {"players": 2, "rules": "grande"},
                 {"players": 4, "mode": "teams"})
    for opts in two_sides:  # level 8 apart
        two = model_for(grande, grande.start(**opts))
        assert all(two.adapt_level(LEVELS[n]) is LEVELS[n] for n in range(8)), opts
        assert two.adapt_level(LEVELS[8]).min_nodes == 4 * LEVELS[7].min_nodes, opts


def test_querni_level_5_looks_two_whole_plies_where_the_shared_budget_stops_inside_three(
        ) -> None:
    """With 93 moves, the shared level 4 (700 nodes) stops inside its third ply (a
    partial look that is noise more than sight); Querni's level 5 looks exactly two
    plies, finished, and still stops on nodes: the same move for the same seed."""
    from engine.levels import LEVELS
    from engine.search import Limits, Search

    v = rules.variant("querni")
    p = v.from_text(QUERNI_93)
    assert len(p.legal_moves()) == 93
    shared = LEVELS[4]
    cut = Search(model_for(v), p, Limits(depth=shared.depth, nodes=shared.nodes,
                                         quiescence=shared.quiescence)).run()
    assert cut.depth == 2 and cut.stopped and cut.nodes == shared.nodes
    choices = [choose_move(p, 5, seed=s, fairy=False, seconds=60) for s in range(6)]
    searched = [c for c in choices if c.depth]  # a slip searches nothing
    assert searched and all(c.depth == 2 and c.nodes < 4_000 for c in searched)
    again = choose_move(p, 5, seed=0, fairy=False, seconds=60)
    assert (again.text, again.nodes) == (choices[0].text, choices[0].nodes)
    below = [choose_move(p, 4, seed=s, fairy=False, seconds=60) for s in range(6)]
    assert all(c.depth in (0, 1) for c in below)  # level 4 looks at its own move only


QUERNI_93 = ("1,P2,P12,6,P11/6,P4,1,P16,1/P3,P9,P10,4,P8,2/B15,7,B16,P1/"
             "2,B8,5,B7,1/B4,B10,1,B9,3,B5,B14,1/7,B6,2 b 2 6,6")
"""A Querni position with 93 legal moves."""


def test_querni_level_7_finishes_the_third_ply_that_level_6_only_starts() -> None:
    """One more whole ply is Querni's step (more nodes within the same plies scored
    55 % against two plies and part of a third): with 93 moves, level 6's 4 000 nodes
    end inside the third ply; level 7 finishes it and stops there (no partial fourth
    ply, however much time it has), and a tiny time budget changes nothing (its node
    floor binds), so the same seed gives the same move."""
    v = rules.variant("querni")
    p = v.from_text(QUERNI_93)
    six = choose_move(p, 6, seed=0, fairy=False, seconds=60)
    assert six.depth == 2 and six.nodes == 4_000
    seven = choose_move(p, 7, seed=0, fairy=False, seconds=60)
    assert seven.depth == 3 and 4_000 < seven.nodes < 20_000
    again = choose_move(p, 7, seed=0, fairy=False, seconds=0.001, floors=True)
    assert (again.text, again.depth, again.nodes) == (seven.text, seven.depth, seven.nodes)


def test_alquerque_level_8_searches_eight_times_level_7() -> None:
    """On Alquerque's 5×5 board level 8's floor is 48 000 nodes (twice level 7's changed
    no game: see AlquerqueModel.adapt_level), and it looks deeper; the 7×7 board with
    the original rules has four times level 7's (GRANDE_TWO_SIDES_LEVELS)."""
    v = rules.variant("alquerque")
    p = v.start()
    for text in ("c2-c3", "c4xc2", "c1xc3", "a3xc1", "c3xa3"):
        p = p.play(v.parse_move(p, text))
    assert len(p.legal_moves()) > 1
    eight = choose_move(p, 8, seed=1, seconds=0.001, floors=True)
    seven = choose_move(p, 7, seed=1, seconds=0.001, floors=True)
    assert 48_000 <= eight.nodes < 48_000 + 256 and 6_000 <= seven.nodes < 6_000 + 256
    assert eight.depth > seven.depth
    grande = rules.variant("alquerque-grande")
    g = grande.start(players=2, rules="alquerque")
    assert 24_000 <= choose_move(g, 8, seed=1, seconds=0.001, floors=True).nodes < 24_000 + 256


def test_grande_two_sides_level_8_searches_four_times_level_7() -> None:
    """Alquerque grande played by two sides: level 8's floor is 24 000 nodes (with
    12 000 it finished level 7's iteration and played alike: see
    GRANDE_TWO_SIDES_LEVELS), and from these middlegames it finishes a ply more, with two
    players by the grande rules and in ``teams``; ``slow`` keeps the shared 12 000."""
    grande = rules.variant("alquerque-grande")
    p = grande.from_text("BBBBBBB/BBBBBBB/B.B..BB/BBB.WWW/WWBBWW./W.W.WWW/WWWW.WW w "
                         "g3>f4,b5>b4 0,3 - 0 d2 players=2 -")
    teams = grande.from_text("RB.BBBB/RR...B./.RRB.TT/......T/.R..T../....W.T/.W.WWWT r "
                             "-,f3>e3,-,- 3,1,1,3 - 0 c7 players=4,mode=teams -")
    for position in (p, teams):
        eight = choose_move(position, 8, seed=1, seconds=0.001, floors=True)
        seven = choose_move(position, 7, seed=1, seconds=0.001, floors=True)
        assert 24_000 <= eight.nodes < 24_000 + 256 and 6_000 <= seven.nodes < 6_000 + 256
        assert eight.depth > seven.depth
    slow = grande.start(players=4, mode="slow")
    for _ in range(8):
        slow = slow.play(slow.legal_moves()[0])
    assert 12_000 <= choose_move(slow, 8, seed=1, seconds=0.001, floors=True).nodes < 12_000 + 256


def test_querni_top_level_arranges_both_rings_into_chains() -> None:
    """With ``choose``, 1-8 chained around one ring of start cells and 9-16 around the
    other clear the board in two turns (the first player's win between two such
    arrangements): level 8 always finds one, level 7 not always (the ladder's step)."""
    v = rules.variant("querni")
    setup = v.start(setup="choose")

    def chained(level: int, seat: int, seed: int) -> bool:
        p = setup if seat == 0 else setup.play(
            choose_move(setup, 0, seed=seed, seat=0).move)
        text = choose_move(p, level, seed=seed, seat=seat).text
        at = dict(zip(map(int, text.split()), _querni_start_cells(seat), strict=True))
        return all(max(abs(a - b) for a, b in zip(at[n], at[n + 1], strict=True)) == 1
                   for n in range(1, 16) if n != 8)
    assert all(chained(8, seat, seed) for seat in (0, 1) for seed in range(6))
    assert not all(chained(7, seat, seed) for seat in (0, 1) for seed in range(6))


def test_every_game_has_its_engine_model_found_through_registration() -> None:
    """Each registered variant, in every configuration the conformance suite plays, is
    played by a model its game module registered (never a neutral stand-in); a game
    without one is named by a typed error."""
    from engine.models import GameModel, NoModel

    for key, v in rules.VARIANTS.items():
        for options in v.example_options:
            model = model_for(v, v.start(**options))
            assert type(model) is not GameModel, (key, options)
            assert model.key in {key, "alquerque"}, (key, options, model.key)
        assert type(model_for(v)) is not GameModel
    with pytest.raises(NoModel, match="no engine model"):
        model_for(_unregistered_variant())


def _unregistered_variant() -> rules.Variant[Any, Any]:
    """A variant of a class no engine module registered (a bare subclass of the core's)."""
    from rules.core import Variant

    class Bare(Variant[Any, Any]):
        key = "bare"
        name = "Bare"
        board_size = (1, 1)

        def start(self, **options: Any) -> Any:
            raise NotImplementedError

        def from_text(self, text: str) -> Any:
            raise NotImplementedError

        def format_move(self, position: Any, move: Any) -> str:
            raise NotImplementedError

        def parse_move(self, position: Any, text: str) -> Any:
            raise NotImplementedError

        def move_marks(self, position: Any, move: Any) -> Any:
            raise NotImplementedError

        def seat_name(self, seat: int, seat_count: int = 2) -> str:
            return str(seat)

    return Bare()


def test_xiangqi_keys_followed_move_by_move_equal_the_keys_of_the_pieces() -> None:
    """The search follows a xiangqi child's Zobrist key from the move
    (:meth:`XiangqiModel.key_change`, the movers' numbers swapped); along random games full
    of captures it must be the very key of the child's pieces, or the transposition table
    would mix positions up."""
    from engine.zobrist import mover_key, position_key
    v = rules.variant("xiangqi")
    model = model_for(v)
    captures = 0
    for game in range(6):
        rng = random.Random(game)
        p = v.start()
        for _ in range(120):
            if p.outcome() is not None:
                break
            pieces = p.pieces()
            moves = p.legal_moves()
            taking = [m for m in moves if m[1] in pieces]
            move = rng.choice(taking if taking and rng.random() < 0.5 else moves)
            captures += move[1] in pieces
            child = p.play(move)
            change = model.key_change(pieces, move)
            assert change is not None
            followed = position_key(p, pieces) ^ change ^ mover_key(p.to_move) \
                ^ mover_key(child.to_move)
            assert followed == position_key(child, child.pieces())
            p = child
    assert captures > 20


def test_querni_standings_remembered_by_stones_equal_the_standings_worked_out() -> None:
    """Querni's evaluation remembers each seat's standing by its stones; the remembered
    figure is the one worked out afresh, for both the shared and the top level's model."""
    from engine.models import querni
    v = rules.variant("querni")
    for model in (querni.QuerniModel(), querni.QuerniTopModel()):
        rng = random.Random(3)
        p = v.start(seed=5)
        for _ in range(12):
            if p.outcome() is not None:
                break
            pieces = p.pieces()
            fresh = []
            for seat in (0, 1):
                cells = {int(piece.kind): point for point, piece in pieces.items()
                         if piece.seat == seat}
                fresh.append(model._standing(cells))
            querni._QUERNI_STANDINGS.clear()
            assert model.evaluate(p, pieces) == tuple(fresh)  # worked out
            assert model.evaluate(p, pieces) == tuple(fresh)  # remembered
            p = p.play(rng.choice(p.legal_moves()))


def test_beginner_levels_do_not_arrange_the_strongest_querni_set_up() -> None:
    """Issue 38, item 18: in Querni ``choose`` two rings of eight chained numbers clear
    the board in two turns; levels 1-6 never arrange a chain longer than their
    ``arrange_chain`` (3 at levels 1-2, 7 at level 6), level 8 arranges the strongest."""
    from engine.levels import LEVELS
    from engine.models.querni import _longest_chain, _querni_start_cells

    setup = rules.variant("querni").start(setup="choose")
    longest: dict[int, list[int]] = {}
    for number in (1, 2, 3, 6, 8):
        # level 8 climbs hard (a third of a second an arrangement) and
        # ``test_querni_top_level_arranges_both_rings_into_chains`` checks its rings
        for seed in range(12 if number < 8 else 3):
            for seat in (0, 1):
                choice = choose_move(setup, number, seed=seed, seat=seat, fairy=False,
                                     seconds=60)
                numbers = list(choice.move.numbers)  # type: ignore[attr-defined]
                longest.setdefault(number, []).append(
                    _longest_chain(numbers, _querni_start_cells(seat)))
    for number in (1, 2, 3, 6):
        assert max(longest[number]) <= LEVELS[number].arrange_chain < 8
    assert max(longest[2]) == 3 and min(longest[8]) == 8
