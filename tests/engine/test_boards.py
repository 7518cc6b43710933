"""The search's own boards (:mod:`engine.board`: xiangqi's, damas', Querni's, the
original Alquerque rules' and Alquerque grande's, moves made and unmade in place) answer
exactly what the rules API and the model answer: the same legal moves in the same order,
the same outcomes, keys equal to the keys of the pieces, the same evaluation, after any
sequence of moves made and taken back. And the search plays the same moves, with the same
nodes, on them as on the rules' own positions, every move it hands out being one of the
rules' legal moves."""

from __future__ import annotations

import random
from collections.abc import Callable, Hashable, Sequence
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import rules
from engine.board import PositionBoard, SearchBoard
from engine.errors import BoardMismatch
from engine.models import GameModel, Pieces, model_for
from engine.models.alquerque import (
    AlquerqueModel,
    AlquerqueTopModel,
    GrandeAlquerqueRulesModel,
)
from engine.models.alquerque_grande import (
    AlquerqueGrandeFastModel,
    AlquerqueGrandeModel,
    AlquerqueGrandeRivalsModel,
    AlquerqueGrandeTopModel,
    AlquerqueGrandeTwoSidesModel,
)
from engine.models.damas import DamasModel
from engine.models.grande_board import GrandeBoard
from engine.models.querni import QuerniModel, QuerniTopModel
from engine.models.xiangqi import XiangqiModel
from engine.search import Limits, Search
from engine.zobrist import position_key
from rules import Outcome, Position
from rules.damas import DamasMove

XIANGQI_ENDGAMES = (
    "3k5/9/9/9/9/9/9/9/4R4/4K4 w - - 0 1",
    "3ak4/4a4/9/9/9/2C6/9/9/4R4/3K5 w - - 0 1",
    "4k4/4a4/4b4/9/2p6/9/9/3R5/4A4/3K5 b - - 0 1",
    "3k5/9/3N5/9/9/9/9/9/4r4/5K3 w - - 0 1",
)
"""Sparse positions where checks, repetitions and perpetual checks come quickly."""


def agree(board: SearchBoard, position: Position[Any], model: GameModel,
          strangers: Sequence[Hashable] = ()) -> None:
    """Everything the search asks of ``board`` equals the rules' and the model's answer
    for ``position``; ``strangers`` are moves of other positions (a table's move may be
    one)."""
    outcome = position.outcome()
    assert board.outcome() == outcome
    if outcome is not None:
        return
    pieces = position.pieces()
    legal = position.legal_moves()
    moves = board.moves()
    assert [board.rules_move(m) for m in moves] == list(legal)
    assert board.mover() == position.mover
    assert board.key() == position_key(position, pieces)
    assert board.in_check() == (position.checked_point() is not None)
    assert board.evaluate() == model.evaluate(position, pieces)
    gains = board.tactical_gains(moves)
    assert gains == model.tactical_gains(position, pieces, legal)
    assert [board.is_tactical(m) for m in moves] == [
        model.is_tactical(position, pieces, m) for m in legal]
    assert [board.gain(m) for m in moves] == [model.gain(position, pieces, m) for m in legal]
    # what a staged board answers without listing its moves, as the listing says
    sample = list(moves[::max(1, len(moves) // 30)])
    listed = set(moves)
    for move in (*sample, *strangers, 0, -1, 1 << 40, "e2"):
        assert board.holds(move) == (move in listed), move
    order = tactical_order(moves, gains)
    best = best_tactical(order, None)
    for besides in (None, best, *sample[:4], *strangers[-2:]):
        assert board.best_tactical(besides) == best_tactical(order, besides), besides


def tactical_order(moves: Sequence[Hashable], gains: Sequence[int | None]
                   ) -> list[Hashable]:
    """The tactical moves, the highest gain first, equals in the order listed."""
    found = sorted((-gain, i) for i, gain in enumerate(gains) if gain is not None)
    assert len(gains) == len(moves)
    return [moves[i] for _, i in found]


def best_tactical(order: Sequence[Hashable], besides: Hashable | None) -> Hashable | None:
    """The tactical move of the highest gain, the first among equals, but ``besides``
    (``order``: :func:`tactical_order`'s)."""
    return next((move for move in order if move != besides), None)


def walk(model: GameModel, root: Position[Any], rng: random.Random, steps: int,
         pick: Any = None) -> list[str]:
    """Moves made and taken back at random on ``model``'s board from ``root``, beside
    the rules' positions, checking :func:`agree` at every step and after a rewind; the
    reasons of the game ends met."""
    board = model.board(root)
    assert board is not None
    positions = [root]
    made: list[Hashable] = []
    ends = []
    for _ in range(steps):
        position = positions[-1]
        agree(board, position, model, made)
        outcome = position.outcome()
        if outcome is not None:
            ends.append(outcome.reason)
        if len(positions) > 1 and (outcome is not None or rng.random() < 0.2):
            board.unmake()
            positions.pop()
            made.pop()
            continue
        if outcome is not None:
            break
        moves = board.moves()
        i = pick(board, moves, made, rng) if pick is not None else rng.randrange(len(moves))
        board.make(moves[i])
        made.append(moves[i])
        positions.append(position.play(position.legal_moves()[i]))
    board.rewind()
    agree(board, root, model)
    return ends


def back_and_forth(board: SearchBoard, moves: Sequence[Hashable], made: list[Hashable],
                   rng: random.Random) -> int:
    """Xiangqi: mostly the way back of the mover's last move (repetitions), captures
    often, else any move."""
    ints = [int(m) for m in moves]  # type: ignore[call-overload]
    if len(made) >= 2 and rng.random() < 0.7:
        last = int(made[-2])  # type: ignore[call-overload]
        back = (last & 127) << 7 | last >> 7
        if back in ints:
            return ints.index(back)
    captures = [i for i, g in enumerate(board.tactical_gains(moves)) if g is not None]
    if captures and rng.random() < 0.5:
        return rng.choice(captures)
    return rng.randrange(len(moves))


def damas_back(board: SearchBoard, moves: Sequence[Hashable], made: list[Hashable],
               rng: random.Random) -> int:
    """Damas: mostly a king's way back (repetitions), captures when there are (they are
    compulsory), else any move."""
    if len(made) >= 2 and rng.random() < 0.7:
        last = made[-2]
        assert isinstance(last, DamasMove)
        back = DamasMove((last.path[-1], last.path[0]))
        if back in moves:
            return list(moves).index(back)
    return rng.randrange(len(moves))


def removing(board: SearchBoard, moves: Sequence[Hashable], made: list[Hashable],
             rng: random.Random) -> int:
    """Querni: a removal more often than not (games that end), else any turn."""
    removals = [i for i, g in enumerate(board.tactical_gains(moves)) if g is not None]
    if removals and rng.random() < 0.6:
        return rng.choice(removals)
    return rng.randrange(len(moves))


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), start=st.integers(0, len(XIANGQI_ENDGAMES)))
def test_the_xiangqi_board_agrees_with_the_rules(seed: int, start: int) -> None:
    v = rules.variant("xiangqi")
    root = v.start() if start == len(XIANGQI_ENDGAMES) else v.from_text(
        XIANGQI_ENDGAMES[start])
    walk(XiangqiModel(), root, random.Random(seed), 160, back_and_forth)


def test_the_xiangqi_board_ends_games_as_the_rules_do() -> None:
    """Repetitions, perpetual checks, mates and the 100-ply limit, also where the root
    already has a history (a game played by the rules before the search starts) or is
    close to the limit."""
    v = rules.variant("xiangqi")
    ends: set[str] = set()
    for seed in range(40):
        rng = random.Random(seed)
        root = v.from_text(XIANGQI_ENDGAMES[seed % len(XIANGQI_ENDGAMES)])
        for _ in range(rng.randrange(8)):  # a history the board must take over
            if root.outcome() is not None:
                break
            root = root.play(rng.choice(root.legal_moves()))
        if root.outcome() is not None:
            continue
        ends.update(walk(XiangqiModel(), root, rng, 200, back_and_forth))
    near_limit = v.from_text("3k5/9/9/9/9/9/9/9/4R4/4K4 w - - 97 60")
    ends.update(walk(XiangqiModel(), near_limit, random.Random(1), 60))
    assert {"repetition", "checkmate", "move-limit"} <= ends
    # a chariot checking from two points in turn, the general stepping between two:
    # the checker loses on the third repetition; the first moves made by the rules
    # (the root's history), the rest on the board
    texts = ["i1-i10", "d10-d9", "i10-i9", "d9-d10", "i9-i10", "d10-d9", "i10-i9",
             "d9-d10", "i9-i10"]
    for played in (0, 3, 8):
        p = v.from_text("3k5/9/9/9/9/9/9/9/9/4K3R w - - 0 1")
        for text in texts[:played]:
            p = p.play(v.parse_move(p, text))
        model = XiangqiModel()
        board = model.board(p)
        assert board is not None
        for text in texts[played:]:
            agree(board, p, model)
            move = v.parse_move(p, text)
            board.make(board.moves()[p.legal_moves().index(move)])
            p = p.play(move)
        agree(board, p, model)
        assert board.outcome() == Outcome.win(1, seats=2, reason="perpetual-check")


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), plies=st.integers(0, 40))
def test_the_damas_board_agrees_with_the_rules(seed: int, plies: int) -> None:
    v = rules.variant("damas")
    rng = random.Random(seed)
    root = v.start()
    for _ in range(plies):  # a root deeper in the game, with its history
        if root.outcome() is not None:
            break
        root = root.play(rng.choice(root.legal_moves()))
    if root.outcome() is None:
        walk(DamasModel(), root, rng, 150)


def test_the_damas_board_ends_games_as_the_rules_do() -> None:
    """No pieces, no moves, repetitions, the 40 king plies and three kings against one."""
    v = rules.variant("damas")
    ends: set[str] = set()
    for seed in range(10):
        ends.update(walk(DamasModel(), v.start(), random.Random(seed), 200))
    for seed, text in enumerate(("W:WK3,K14,K28:BK20", "W:WK3:BK30:H37",
                                 "W:WK1,K5:BK32,K28", "W:WK3,K14,K28:BK20:T11",
                                 "B:W10,25:B6,K7,15,17,27,29")):
        ends.update(walk(DamasModel(), v.from_text(text), random.Random(seed), 120,
                         damas_back))
    assert ends == {"no-pieces", "no-moves", "repetition", "move-limit", "three-kings"}


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), grande=st.booleans(), top=st.booleans())
def test_the_alquerque_board_agrees_with_the_rules(seed: int, grande: bool,
                                                   top: bool) -> None:
    """The original rules on either board (Alquerque's 5×5, Alquerque grande's 7×7 with
    two players), games to their end (no stones left, or no move); on the 5×5 board
    with level 8's judgement too (:class:`AlquerqueTopModel`: its own stones' worth)."""
    v = rules.variant("alquerque-grande" if grande else "alquerque")
    root = v.start(players=2, rules="alquerque") if grande else v.start()
    model = AlquerqueTopModel() if top and not grande else model_for(v, root)
    ends = walk(model, root, random.Random(seed), 250)
    assert set(ends) <= {"no-moves", "no-pieces"}


GRANDE_GAMES = ({"players": 4, "mode": "teams"}, {"players": 4, "mode": "fast"},
                {"players": 4, "mode": "slow"}, {"players": 2, "rules": "grande"})
"""Alquerque grande by its own rules: four seats in every mode, and two."""


def grande_captures(board: SearchBoard, moves: Sequence[Hashable], made: list[Hashable],
                    rng: random.Random) -> int:
    """Alquerque grande: captures most of the time (games that end), else any move
    (steps that ignore a capture are huffed)."""
    captures = [i for i, g in enumerate(board.tactical_gains(moves)) if g is not None]
    if captures and rng.random() < 0.8:
        return rng.choice(captures)
    return rng.randrange(len(moves))


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), game=st.sampled_from(GRANDE_GAMES))
def test_the_alquerque_grande_board_agrees_with_the_rules(seed: int,
                                                          game: dict[str, object]) -> None:
    """Every mode, huffs, seats going out, games to their end."""
    v = rules.variant("alquerque-grande")
    walk(model_for(v, v.start(**game)), v.start(**game), random.Random(seed), 300,
         grande_captures)


def test_the_alquerque_grande_board_ends_games_as_the_rules_do() -> None:
    """Every way each mode ends (a seat or team emptied or stuck, the last player left,
    the safeguard, from a position close to it too), each model of the game's own rules
    on it."""
    v = rules.variant("alquerque-grande")
    ends: dict[str, set[str]] = {}
    models = (AlquerqueGrandeModel(), AlquerqueGrandeTopModel(), AlquerqueGrandeTwoSidesModel(),
              AlquerqueGrandeRivalsModel(), AlquerqueGrandeFastModel())
    for seed in range(24):
        game = GRANDE_GAMES[seed % len(GRANDE_GAMES)]
        found = walk(models[seed % len(models)], v.start(**game), random.Random(seed), 500,
                     grande_captures)
        ends.setdefault(str(game.get("mode")), set()).update(found)
    empty = "......."
    for mode, quiet in (("teams", 198), ("slow", 198), (None, 99)):
        rows = [empty, "..BB...", empty, "T.....R", empty, "..WW...", empty] if mode else \
            [empty, "..BB...", empty, empty, empty, "..WW...", empty]
        options = f"players=4,mode={mode}" if mode else "players=2"
        seats = "-,-,-,-" if mode else "-,-"
        text = f"{'/'.join(rows)} w {seats} {seats.replace('-', '0')} - {quiet} - {options} -"
        ends.setdefault(str(mode), set()).update(
            walk(AlquerqueGrandeModel(), v.from_text(text), random.Random(quiet), 40))
    # White and Black stuck in their corners, their stones on the board: in ``teams``
    # Black goes out after Turquoise's move, White after Red's, and their team has
    # lost; in ``fast`` the game ends when Black cannot move
    for mode in ("teams", "fast"):
        stuck = v.from_text("....RRR/....RRB/....R.R/......R/T.T..../TT...../WTT.... t "
                            f"-,-,-,- 0,0,0,0 - 0 - players=4,mode={mode} -")
        for seed in range(4):
            ends[mode].update(walk(AlquerqueGrandeModel(), stuck, random.Random(seed), 40))
    assert {"no-pieces", "no-moves", "move-limit"} <= ends["teams"]
    assert {"no-pieces", "no-moves"} <= ends["fast"]
    assert {"last-player", "move-limit"} <= ends["slow"]
    assert {"no-pieces", "move-limit"} <= ends["None"]


def test_the_alquerque_grande_board_starts_from_the_positions_state() -> None:
    """The seat to move, the seats out, the markers and counts are the position's (a
    seat put out by resigning or skipped is passed over), and a finished game has no
    board."""
    v = rules.variant("alquerque-grande")
    p = v.start(players=4, mode="slow")
    for _ in range(5):
        p = p.play(p.legal_moves()[0])
    resigned = v.resign(p, (p.mover + 1) % 4)
    assert isinstance(resigned, rules.Position) and resigned.out_seats()
    skipped = [v.skip_seat(v.start(players=4, mode=mode), 1) for mode in ("fast", "teams")]
    assert all(q.skipped_seats() == {1} for q in skipped)
    for position in (p, resigned, *skipped):
        assert isinstance(model_for(v, position).board(position), GrandeBoard)
        walk(AlquerqueGrandeModel(), position, random.Random(3), 80, grande_captures)
    over = v.resign(v.start(players=4, mode="fast"), 2)
    assert isinstance(over, rules.Position) and over.outcome() is not None
    assert GrandeBoard.of(over, 100, 0, 300) is None  # type: ignore[arg-type]


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), deal=st.integers(0, 2**16),
       version=st.sampled_from(["1", "2"]), top=st.booleans())
def test_the_querni_board_agrees_with_the_rules(seed: int, deal: int, version: str,
                                                top: bool) -> None:
    v = rules.variant("querni")
    root = v.start_recorded(version, seed=deal)
    model = QuerniTopModel() if top else QuerniModel()
    walk(model, root, random.Random(seed), 60, removing)


def test_the_querni_board_ends_games_as_the_rules_do() -> None:
    """All stones removed, no chains left, the 30-turn limit (from a position close to
    it too)."""
    v = rules.variant("querni")
    ends: set[str] = set()
    for seed in range(12):
        rng = random.Random(seed)
        ends.update(walk(QuerniModel(), v.start(seed=seed), rng, 150, removing))
    p = v.start(seed=4)
    quiet = v.from_text(p.to_text().replace(" b 0 ", " b 27 "))
    ends.update(walk(QuerniModel(), quiet, random.Random(2), 40))
    for seed, text in enumerate(("P1,P2,P3,7/10/10/10/10/10/B1,B2,B3,7 b 0 13,13",
                                 "P1,P2,1,P4,6/10/10/10/10/10/B1,B2,B3,1,B5,5 b 0 12,13")):
        ends.update(walk(QuerniModel(), v.from_text(text), random.Random(seed), 40,
                         removing))
    assert ends == {"all-removed", "move-limit", "no-chains"}


def on_positions(model: GameModel, board: Callable[[Position[Any]], SearchBoard | None]
                 = lambda position: None) -> GameModel:
    """``model``'s judgement without its board (the search then walks the rules'
    positions: :class:`engine.board.PositionBoard`), or with ``board``'s."""
    inner = model

    class OnPositions(GameModel):
        key = inner.key
        mobility_weight = inner.mobility_weight
        quiescence = inner.quiescence
        captures_compulsory = inner.captures_compulsory
        place_value = inner.place_value

        def evaluate(self, position: Position[Any], pieces: Pieces) -> tuple[int, ...]:
            return inner.evaluate(position, pieces)

        def is_tactical(self, position: Position[Any], pieces: Pieces,
                        move: Hashable) -> bool:
            return inner.is_tactical(position, pieces, move)

        def gain(self, position: Position[Any], pieces: Pieces, move: Hashable) -> int:
            return inner.gain(position, pieces, move)

        def tactical_gains(self, position: Position[Any], pieces: Pieces,
                           moves: Sequence[Hashable]) -> list[int | None]:
            return inner.tactical_gains(position, pieces, moves)

        def key_change(self, pieces: Pieces, move: Hashable) -> int | None:
            return inner.key_change(pieces, move)

        def board(self, position: Position[Any]) -> SearchBoard | None:
            return board(position)

    return OnPositions()


def _positions(key: str, **options: object) -> list[Position[Any]]:
    """The start and two positions of a seeded random game."""
    v = rules.variant(key)
    p = v.start(**options)
    rng = random.Random(key)
    out = [p]
    for ply in range(16):
        if p.outcome() is not None:
            break
        p = p.play(rng.choice(p.legal_moves()))
        if ply in (7, 15) and p.outcome() is None:
            out.append(p)
    return out


def tables(search: Search) -> tuple[dict[int, tuple[int, int, int, Hashable]],
                                     dict[tuple[int, Hashable], int],
                                     dict[int, list[Hashable]]]:
    """What ``search`` remembers (its transposition table, history counts and killer
    moves), in the rules' moves."""
    name = search.board.rules_move
    return ({key: (depth, flag, value, move if move is None else name(move))
             for key, (depth, flag, value, move) in search.tt.items()},
            {(seat, name(move)): count for (seat, move), count in search.history.items()},
            {ply: [name(move) for move in moves] for ply, moves in search.killers.items()})


@pytest.mark.parametrize(("key", "options", "model"), [
    ("xiangqi", {}, XiangqiModel()),
    ("damas", {}, DamasModel()),
    ("alquerque", {}, AlquerqueModel()),
    ("alquerque", {}, AlquerqueTopModel()),
    ("alquerque-grande", {"players": 2, "rules": "alquerque"}, GrandeAlquerqueRulesModel()),
    ("alquerque-grande", {"players": 2, "rules": "grande"}, AlquerqueGrandeTwoSidesModel()),
    ("alquerque-grande", {"players": 4, "mode": "teams"}, AlquerqueGrandeModel()),
    ("alquerque-grande", {"players": 4, "mode": "fast"}, AlquerqueGrandeTopModel()),
    ("alquerque-grande", {"players": 4, "mode": "slow"}, AlquerqueGrandeRivalsModel()),
    ("querni", {"seed": 8}, QuerniModel()),
    ("querni", {"seed": 9}, QuerniTopModel()),
], ids=["xiangqi", "damas", "alquerque", "alquerque-top", "grande-alquerque-rules",
        "grande-two", "grande-teams", "grande-fast-top", "grande-slow", "querni", "querni-top"])
def test_the_search_plays_the_same_on_its_board_as_on_the_rules_positions(
        key: str, options: dict[str, object], model: GameModel) -> None:
    """Same move, score, depth, nodes and line, with noise (seeded by the keys) too;
    the move and line are the rules' own values, the move one of ``legal_moves()``."""
    for p in _positions(key, **options):
        for limits in (Limits(nodes=3000, depth=4), Limits(nodes=1500, noise=40, seed=5)):
            fast = Search(model, p, limits)
            assert type(fast.board) is not PositionBoard
            slow = Search(on_positions(model), p, limits)
            ours, theirs = fast.run(), slow.run()
            assert (ours.move, ours.score, ours.depth, ours.nodes, ours.pv) == (
                theirs.move, theirs.score, theirs.depth, theirs.nodes, theirs.pv)
            # the same nodes in the same order leave the same tables behind (the order
            # of a Querni node's moves is found lazily on its board: staged)
            assert tables(fast) == tables(slow)
            assert any(m is ours.move for m in p.legal_moves())
            line = p
            for move in ours.pv:
                line = line.play(move)  # the rules referee the whole line
        ranked = Search(model, p, Limits()).ranked()
        assert ranked == Search(on_positions(model), p, Limits()).ranked()
        assert sorted(map(repr, (m for _, m in ranked))) == sorted(map(repr, p.legal_moves()))


@pytest.mark.parametrize(("text", "model"), [
    ("P16,1,P8,4,P3,P14,P9/1,P2,P6,6,P4/1,P13,P1,P15,5,P7/2,P5,7/B16,B9,B13,B10,3,B8,1,B14/"
     "B5,6,B12,B11,B7/B1,B3,B2,4,B6,B4,B15 p 5 0,3", QuerniModel()),
    ("P4,6,P5,P12,P10/P13,6,P3,B16,P6/P1,1,P2,1,P14,3,P11,P16/7,P15,2/B1,B6,5,B7,B2,B5/"
     "B14,6,B15,1,B13/1,B4,B12,4,B8,B3,1 p 0 3,3", QuerniTopModel()),
], ids=["querni", "querni-top"])
def test_a_querni_node_orders_its_moves_lazily_as_all_at_once(text: str,
                                                              model: GameModel) -> None:
    """A node on Querni's board tries the table's move and the longest removal before
    it lists and orders its thousands of moves (:meth:`SearchBoard.staged`), and the rest
    by the history counts as they stood when the node began, not as its first children
    left them: the same order as the rules' positions, all moves at once. (In these
    positions, four plies deep, counts taken as the children left them change the
    tables.)"""
    p = rules.variant("querni").from_text(text)
    limits = Limits(nodes=6000, depth=4)
    fast, slow = Search(model, p, limits), Search(on_positions(model), p, limits)
    assert fast.board.staged() and not slow.board.staged()
    ours, theirs = fast.run(), slow.run()
    assert (ours.move, ours.score, ours.depth, ours.nodes, ours.pv) == (
        theirs.move, theirs.score, theirs.depth, theirs.nodes, theirs.pv)
    assert tables(fast) == tables(slow)


def test_the_search_plays_only_the_moves_its_root_position_allows() -> None:
    """The root's moves on the board are matched one by one with the rules' (the
    referee): a search whose board lists other moves is refused, never played."""
    v = rules.variant("xiangqi")
    start = v.start()
    elsewhere = start.play(start.legal_moves()[0])

    model = model_for(v)
    astray = on_positions(model, lambda position: PositionBoard(model, elsewhere))
    with pytest.raises(BoardMismatch, match="xiangqi board lists"):
        Search(astray, start, Limits(depth=1))
    # analysis searches a played move alone: named by the rules' value, on the board
    only = start.legal_moves()[5]
    result = Search(model_for(v), start, Limits(depth=2), root_moves=(only,)).run()
    assert result.move is only


def test_a_finished_game_has_no_move_to_search() -> None:
    v = rules.variant("querni")
    over = v.from_text(v.start(seed=1).to_text().replace(" b 0 ", " b 30 "))
    assert over.outcome() is not None
    with pytest.raises(ValueError, match="0 seats are to move"):
        Search(model_for(v, over), over, Limits(depth=1)).run()

