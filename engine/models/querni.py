"""Querni: all 16 stones off the board, in runs of three or more."""

from __future__ import annotations

import collections
import dataclasses
import itertools
import random
import time
from collections.abc import Hashable, Sequence
from typing import Any, ClassVar, cast

import rules
from engine.board import SearchBoard
from engine.levels import TOP, Level
from engine.models.base import GameModel, Pieces, register
from engine.zobrist import mover_key, piece_key
from rules import Outcome, Position
from rules.querni import MOVE_LIMIT as _MOVE_LIMIT_TURNS
from rules.querni import PASS, QuerniPosition, QuerniSetupPosition, QuerniVariant, Turn
from rules.querni_board import (
    ADJACENT,
    POINTS,
    SIZE,
    STONES,
    cells_of,
    destination_mask,
    has_three_in_a_row,
    link_mask,
    number_of,
    runs_of_links,
    seat_of,
)
from rules.querni_moves import movement_removal_turn, movement_turn, removal_turn, stone_cells


def _chebyshev(a: tuple[int, int], b: tuple[int, int]) -> int:
    return max(abs(a[0] - b[0]), abs(a[1] - b[1]))


def _segments(cells: dict[int, tuple[int, int]]) -> list[tuple[tuple[int, int], ...]]:
    """The points of each stretch of consecutive numbers among ``cells`` (number ->
    point), in number order: removed runs cut a seat's numbers into these."""
    numbers = sorted(cells)
    segments = []
    start = 0
    for i in range(1, len(numbers) + 1):
        if i == len(numbers) or numbers[i] != numbers[i - 1] + 1:
            segments.append(tuple([cells[n] for n in numbers[start:i]]))
            start = i
    return segments


class QuerniModel(GameModel):
    """Querni's own goal: all 16 stones off the board, in runs of three or more.

    Per seat: 100 per stone removed, minus the *work left*: the remaining numbers split
    into segments of consecutive numbers (removed runs cut them), and each segment must
    come off as runs of at least three; the work of a run is the turns needed to make
    its numbers touch (about one movement per gap, a little more the farther apart), and
    a segment's work is that of its cheapest split into runs (a small dynamic
    programme). A segment of one or two numbers can never come off: that seat cannot win
    (``STRANDED``, more than every removal together).

    The earlier model scored every pair of consecutive numbers by their distance and
    drifted: moving a stone closer to one neighbour moved it away from the other, and
    the 30-turn limit drew games it led (level 8 scored 85 % against random moves). The
    work left always falls by a movement that helps a plan, and a removal that would
    leave unremovable numbers behind (take 1-3 out of 1-5) is seen at once.
    """

    key = "querni"
    quiescence = False  # removals are not exchanges; the work left already prices them
    REMOVED: ClassVar[int] = 100
    STRANDED: ClassVar[int] = 5000
    """A segment that can never come off: that seat cannot win, whatever else it did
    (the 30-turn limit must not tempt the engine into stranding numbers to remove some)."""
    GAP: ClassVar[tuple[int, ...]] = (0, 0, 100, 130, 155, 175, 190, 200, 210, 220)
    """The work (centi-turns) to close the gap between two numbers by their distance:
    touching is none; one movement closes a short gap, a long one may need two."""
    LINK: ClassVar[tuple[int, ...]] = (0, 40, 28, 20, 14, 10, 7, 5, 3, 2)
    """How well two consecutive numbers chain in an arrangement by their distance (the
    ``choose`` set-up's hill climbing)."""
    LOOK: ClassVar[dict[int, tuple[int, int, float]]] = {
        1: (1, 300, 0.6), 2: (1, 190, 0.5), 3: (1, 125, 0.42), 4: (1, 55, 0.27),
        5: (2, 30, 0.15), 6: (3, 0, 0.0)}
    """Querni's levels 1-6 (see :meth:`adapt_level`): plies looked ahead, evaluation
    noise (centi-turns either way) and slip rate."""
    LOOK_NODES: ClassVar[int] = 4_000
    """Enough nodes to finish a two-ply look however many moves there are (a full
    two-ply search takes about five times the moves: 200-1 000 nodes); level 6 spends
    the rest on the third ply, its best two-ply moves first."""
    DEEP: ClassVar[dict[int, tuple[int, int]]] = {7: (3, 20_000), 8: (64, 80_000)}
    """Levels 7 and 8: the deepest ply and the node floor. Three whole plies take
    5 000-80 000 nodes (50-90 moves; 20 000-25 000 nodes a second on the rules'
    positions, 100 000-250 000 on the search's own board, :class:`QuerniBoard`): level 7
    finishes the third ply in most positions and never starts a fourth; level 8
    finishes it nearly always and spends the rest, and any time left, on the fourth,
    its best three-ply moves first. (More nodes within the same plies changed little:
    8 000 nodes on the third ply scored 55 % against two plies and part of a third over
    40 random deals; the whole third ply 62.5 % over 100 random deals and 67 % over 100
    ``choose`` games.)"""

    TOP_ARRANGE_EFFORT: ClassVar[int] = 48_000
    """Level 8's hill-climbing rounds for a ``choose`` arrangement (about 0.2 s). With
    ``choose`` the arrangement is nearly the whole game: 1-8 chained around one ring of
    start cells and 9-16 around the other clear the board in two turns, which nothing
    the opponent does can prevent, so between two such arrangements the first player
    wins. The shared 6 000 rounds found one 83 % of the time (level 7's 3 000: 49 %) and
    level 8 scored only 56 % against level 7 over 100 games; 24 000 found one for each
    of 100 deals per seat. The top level must not miss it."""

    def evaluate(self, position: Position[Any], pieces: Pieces) -> tuple[int, ...]:
        # a turn moves or removes its own seat's stones only, so the other seat's
        # standing was met at a sibling leaf: each seat's is remembered by its stones
        # (bounded; per model class, since the top model judges otherwise)
        stones: tuple[list[tuple[str, tuple[int, int]]], ...] = ([], [])
        for point, piece in pieces.items():
            stones[piece.seat].append((piece.kind, point))
        memo = _QUERNI_STANDINGS[type(self)]
        standings = []
        for seat_stones in stones:
            key = frozenset(seat_stones)
            found = memo.get(key)
            if found is None:
                if len(memo) >= _QUERNI_WORK_SIZE:
                    memo.clear()
                found = memo[key] = self._standing(
                    {int(kind): point for kind, point in seat_stones})
            standings.append(found)
        return standings[0], standings[1]

    def standing_at(self, where: Sequence[int]) -> int:
        """A seat's standing in :meth:`evaluate` from the cell of each of its numbers
        (``where[n]``, -1 off the board; :class:`QuerniBoard`'s view), remembered by
        them (bounded, per model class)."""
        memo = _QUERNI_STANDINGS_AT[type(self)]
        key = tuple(where)
        found = memo.get(key)
        if found is None:
            if len(memo) >= _QUERNI_WORK_SIZE:
                memo.clear()
            found = memo[key] = self._standing(
                {n: POINTS[cell] for n, cell in enumerate(where) if cell >= 0})
        return found

    def board(self, position: Position[Any]) -> SearchBoard | None:
        """The search's board (:class:`QuerniBoard`) in the play phase."""
        if type(self) in (QuerniModel, QuerniTopModel) \
                and isinstance(position, QuerniPosition):
            return QuerniBoard(position, self)
        return None

    def _standing(self, cells: dict[int, tuple[int, int]]) -> int:
        score = self.REMOVED * (16 - len(cells))
        for segment in _segments(cells):
            score -= self._work(segment) if len(segment) >= 3 else self.STRANDED
        return score

    def _gaps_before(self, segment: tuple[tuple[int, int], ...]) -> list[int]:
        """``before[k]``: the work of the first ``k`` gaps of ``segment`` (consecutive
        numbers at these points), so the gaps inside a run are one subtraction."""
        gaps = [self.GAP[min(_chebyshev(a, b), len(self.GAP) - 1)]
                for a, b in itertools.pairwise(segment)]
        return [0, *itertools.accumulate(gaps)]

    def _work(self, segment: tuple[tuple[int, int], ...]) -> int:
        """The cheapest split of consecutive stones (at ``segment``'s points, in number
        order) into runs of three or more: the sum of the gaps inside the runs.

        Remembered by segment (bounded): a turn moves one stone, so most segments of a
        search's leaves were met before."""
        memo = _QUERNI_WORK
        found = memo.get(segment)
        if found is not None:
            return found
        before = self._gaps_before(segment)
        n = len(segment)
        best = [0] + [1 << 30] * n  # best[i]: the first i stones split into runs
        for i in range(3, n + 1):
            for j in range(0, i - 2):  # the last run is stones j..i-1
                if best[j] < 1 << 30:
                    best[i] = min(best[i], best[j] + before[i - 1] - before[j])
        if len(memo) >= _QUERNI_WORK_SIZE:
            memo.clear()
        memo[segment] = best[n]
        return best[n]

    def adapt_level(self, level: Level) -> Level:
        """Levels 1-6 look ahead a whole number of plies (:attr:`LOOK`), and their
        mistakes are sized to Querni's evaluation.

        With 50-200 moves a turn, the shared node budgets of levels 1-5 (100-1 500
        nodes) end inside the second ply (levels 1-3) or the third (a full two-ply
        search takes 200-1 000 nodes, three plies about the square of the move count:
        2 000-20 000), so each looked one or two plies: the levels differed by their
        mistakes, and those are too small here: a Querni score counts turns of work (a
        movement is worth about 100), so 10-40 points of noise only reorder moves that
        are nearly equal, and the three runner-up moves a slip picks from are often as
        good as the best. Measured over 40 games each (random
        deals): one ply with no noise scored 61 % against noise 60; no slip 55 % against
        a slip half the time; two plies 55 % against one; but noise 100 scored 79 %
        against 200, and each halving from 300 to 35 about 64 %. So the levels here
        misjudge by 300, 190, 125, 55, 30 and 0 centi-turns (three movements' worth down
        to none) and slip less as they rise; levels 1-4 look one ply (their own move),
        level 5 two (the reply too) with a budget that always finishes them and never
        starts a third, and level 6 two and as much of the third as 4 000 nodes allow
        (two plies without mistakes scored only 50 % against two plies with level 5's
        mistakes over 100 games: the third ply, the engine's own next move, is the
        step). Levels 7 and 8 play without mistakes and look further (:attr:`DEEP`):
        level 7 three whole plies (a node floor of 20 000 ends the third only in the
        largest positions), level 8 the third ply and part of the fourth on a floor of
        80 000 (about 4 s on the rules' positions, under a second on the search's own
        board); level 8 also judges positions by the turns still to go
        (:meth:`for_level`) and arranges a ``choose`` set-up with
        :attr:`TOP_ARRANGE_EFFORT`.

        Why the levels are spaced so. Querni's random deals leave little between the
        best search and random moves (level 1 draws most games with level 0, and the
        whole ladder spans about 900 Elo), so no step may be wasted: a level that
        searched the third ply and part of a fourth with the work-left judgement (40 000
        nodes) scored 61 % against three whole plies and was 56 % short of level 8, too
        close on both sides; it went, and a level between the old 1 and 2 (whose 75 %
        was two steps' worth) came in at level 2: it scores 61 % against level 1 and
        level 3 63 % against it (100 random deals; 64.5 % and 63.5 % with ``choose``).

        >>> from engine.levels import LEVELS
        >>> shaped = QuerniModel().adapt_level(LEVELS[4])
        >>> shaped.depth, shaped.noise, shaped.nodes
        (1, 55, 4000)
        >>> seven = QuerniModel().adapt_level(LEVELS[7])
        >>> seven.depth, seven.nodes, seven.min_nodes
        (3, None, 20000)
        >>> QuerniModel().adapt_level(LEVELS[8]).min_nodes
        80000
        """
        look = self.LOOK.get(level.number)
        if look is not None:
            depth, noise, slip = look
            return dataclasses.replace(level, depth=depth, nodes=self.LOOK_NODES,
                                       min_nodes=self.LOOK_NODES, noise=noise, slip=slip,
                                       overlook=0.0)
        deep = self.DEEP.get(level.number)
        if deep is None:
            return level
        depth, budget = deep
        nodes = budget if level.nodes is not None else None  # 7 and 8 are time-bound
        effort = self.TOP_ARRANGE_EFFORT if level.number == TOP else level.arrange_effort
        return dataclasses.replace(level, depth=depth, nodes=nodes, min_nodes=budget,
                                   noise=0, slip=0.0, overlook=0.0, arrange_effort=effort)

    def is_tactical(self, position: Position[Any], pieces: Pieces, move: Hashable) -> bool:
        return isinstance(move, Turn) and move.removal is not None

    def gain(self, position: Position[Any], pieces: Pieces, move: Hashable) -> int:
        removal = move.removal if isinstance(move, Turn) else None
        return 0 if removal is None else 100 * (removal[1] - removal[0] + 1)

    def tactical_gains(self, position: Position[Any], pieces: Pieces,
                       moves: Sequence[Hashable]) -> list[int | None]:
        try:  # turns (the search's case, thousands a node): their removal read directly
            return [None if (r := m.removal) is None  # type: ignore[attr-defined]
                    else 100 * (r[1] - r[0] + 1) for m in moves]
        except AttributeError:  # moves without one (a set-up arrangement): the hooks
            return super().tactical_gains(position, pieces, moves)

    def arrange(self, position: Position[Any], seat: int, rng: random.Random,
                effort: int, chain: int = 16, deadline: float | None = None) -> Hashable:
        """Numbers over the 16 start cells: ``effort`` rounds of hill climbing on how
        well the numbers chain (touching consecutive numbers), from a random deal, never
        holding a chain of more than ``chain`` touching consecutive numbers; fewer when
        ``time.perf_counter()`` passes ``deadline`` (a time-bound level keeps its time).

        At the top levels it usually finds arrangements whose numbers run around each
        ring of eight cells, so long chains can come off from the first turn (in Querni
        ``choose`` that is the whole game: a perfect arrangement takes 1-8 off, then
        9-16); the lower levels' ``chain`` keeps them from it."""
        variant = position.variant
        numbers = list(range(1, 17))
        rng.shuffle(numbers)
        cells = _querni_start_cells(seat)
        for _deal in range(100):  # a deal within the level's chain (nearly every one)
            if _longest_chain(numbers, cells) <= chain:
                break
            rng.shuffle(numbers)
        if effort <= 0:
            move: Hashable = variant.parse_arrangement(position, seat, " ".join(map(str, numbers)))
            return move

        def quality(nums: Sequence[int]) -> int:
            at = {n: cells[i] for i, n in enumerate(nums)}
            total = 0
            run = longest = 1
            for n in range(1, 16):
                d = _chebyshev(at[n], at[n + 1])
                total += self.LINK[d] if d < len(self.LINK) else 0
                run = run + 1 if d == 1 else 1
                longest = max(longest, run)
            return total if longest <= chain else -1  # never past the level's chain

        # hill climbing from several random deals (more effort, more restarts): the
        # best local optimum wins
        restarts = 1 + effort // 1500
        best_numbers, best = list(numbers), quality(numbers)
        late = False
        for restart in range(restarts):
            if late:
                break
            if restart:
                rng.shuffle(numbers)
            score = quality(numbers)
            for step in range(effort // restarts):
                if deadline is not None and not step & 31 and time.perf_counter() >= deadline:
                    late = True
                    break
                i, j = rng.randrange(16), rng.randrange(16)
                numbers[i], numbers[j] = numbers[j], numbers[i]
                q = quality(numbers)
                if q >= score:
                    score = q
                else:
                    numbers[i], numbers[j] = numbers[j], numbers[i]
            if score > best:
                best_numbers, best = list(numbers), score
        numbers = best_numbers
        best_move: Hashable = variant.parse_arrangement(position, seat,
                                                        " ".join(map(str, numbers)))
        return best_move

    def for_level(self, level: Level) -> GameModel:
        """Level 8 judges by the turns still to go (:class:`QuerniTopModel`), the
        others by the work left.

        >>> from engine.levels import LEVELS
        >>> type(QuerniModel().for_level(LEVELS[8])).__name__
        'QuerniTopModel'
        >>> type(QuerniModel().for_level(LEVELS[7])).__name__
        'QuerniModel'
        """
        return _QUERNI_TOP if level.number == TOP else _QUERNI


class QuerniTopModel(QuerniModel):
    """Querni's top level: each seat's standing is the *turns still to go*, not its
    progress.

    A turn is one movement and at most one removal, so a seat needs at least as many
    turns as movements (the work left, in centi-turns) and at least as many as runs to
    take off: it needs about ``max(work, 100 × runs)`` (minimised over the ways to
    split its segments into runs). The progress the levels below count (100 a removed
    stone minus the work) misreads a race: 16 touching numbers (one turn from the win)
    score nothing there, three far-apart numbers after 13 removed (two movements and a
    removal) score 1 100. Removed stones add :attr:`TAKEN` each, a tie-break (all 16
    together are worth less than a turn): a run off the board can no longer be
    blocked.

    Why only level 8. With the work-left judgement, searching part of a fourth ply as
    well (the opponent's reply) changed little: 40 000 nodes scored 61 % against three
    whole plies, and level 8 with that search and judgement 50.5 % against it (100
    random deals). Judging by turns is level 8's step: with the same search as the
    work-left model it scored 57.5 % over 100 games at two plies and 67 % over 50
    games at three (20 000 nodes, random deals played from both seats, a tie-break of
    10 a stone), but only 56 % against the 40 000-node work-left level, which sat
    between three whole plies and level 8 too close to both; that level went
    (:meth:`QuerniModel.adapt_level`). Against three whole plies (level 7 now) level 8
    scores 62 % over 100 random deals and 65 % over 100 ``choose`` games (100 %
    against random moves).

    What did not close the gap (measured, not kept): stopping level 8 after three plies
    (its choice never overridden by a fourth) scored 55 % on the ladder; the same
    search both sides at three plies scores 64-69 % (50 games each, 20 000 or 40 000
    nodes, tie-break 5 or 10), so level 7's part of a fourth ply is worth about as
    much to the work-left judgement as this judgement is. Letting one movement close
    the two gaps around a stone (the stone between two numbers at most two cells
    apart) cleared the board 1.5-2 turns sooner against random moves but scored 53.5 %
    (two plies, 100 games) and 64 % (three plies, 50) against the work-left judgement.

    >>> import rules
    >>> p = rules.variant("querni").start(seed=1)
    >>> QuerniTopModel().evaluate(p, p.pieces())[0] < 0  # turns to go: a cost
    True
    """

    TAKEN: ClassVar[int] = 5

    def _standing(self, cells: dict[int, tuple[int, int]]) -> int:
        runs_work: dict[int, int] = {0: 0}  # runs to take off -> the least work for them
        stranded = 0
        for segment in _segments(cells):
            if len(segment) < 3:
                stranded += 1
                continue
            combined: dict[int, int] = {}
            for runs, work in runs_work.items():
                for more_runs, more_work in self._splits(segment):
                    total = work + more_work
                    if total < combined.get(runs + more_runs, 1 << 30):
                        combined[runs + more_runs] = total
            runs_work = combined
        turns = min(max(work, 100 * runs) for runs, work in runs_work.items())
        return self.TAKEN * (16 - len(cells)) - turns - self.STRANDED * stranded

    def _splits(self, segment: tuple[tuple[int, int], ...]) -> tuple[tuple[int, int], ...]:
        """Per number of runs (1-5), the least work to split ``segment`` (consecutive
        numbers at these points, at least three) into that many runs of three or more.

        Remembered by segment (bounded), as :meth:`QuerniModel._work` is."""
        memo = _QUERNI_SPLITS
        found = memo.get(segment)
        if found is not None:
            return found
        before = self._gaps_before(segment)
        n = len(segment)
        none = 1 << 30
        # best[i][r]: the first i stones as r runs
        best = [[none] * 6 for _ in range(n + 1)]
        best[0][0] = 0
        for i in range(3, n + 1):
            for j in range(0, i - 2):  # the last run is stones j..i-1
                inside = before[i - 1] - before[j]
                row = best[j]
                for runs in range(5):
                    if row[runs] + inside < best[i][runs + 1]:
                        best[i][runs + 1] = row[runs] + inside
        splits = tuple((runs, best[n][runs]) for runs in range(1, 6) if best[n][runs] < none)
        if len(memo) >= _QUERNI_WORK_SIZE:
            memo.clear()
        memo[segment] = splits
        return splits


_QUERNI_WORK: dict[tuple[tuple[int, int], ...], int] = {}
_QUERNI_SPLITS: dict[tuple[tuple[int, int], ...], tuple[tuple[int, int], ...]] = {}
_QUERNI_WORK_SIZE = 1 << 16
_QUERNI_STANDINGS: collections.defaultdict[type[QuerniModel], dict[
    frozenset[tuple[str, tuple[int, int]]], int]] = collections.defaultdict(dict)
"""Per model class, a seat's standing by its stones (:meth:`QuerniModel.evaluate`)."""
_QUERNI_STANDINGS_AT: collections.defaultdict[type[QuerniModel], dict[
    tuple[int, ...], int]] = collections.defaultdict(dict)
"""Per model class, a seat's standing by the cells of its numbers
(:meth:`QuerniModel.standing_at`)."""

_ZOBRIST: tuple[tuple[int, ...], ...] = tuple(
    tuple(piece_key(point, seat_of(code), str(number_of(code))) if code else 0
          for point in POINTS) for code in range(2 * STONES + 1))
"""Per stone code (:mod:`rules.querni_board`), per cell: the stone's Zobrist number
(:func:`engine.zobrist.piece_key`)."""
_SWAP = mover_key(frozenset([0])) ^ mover_key(frozenset([1]))
_ALL_REMOVED = tuple(Outcome.win(seat, seats=2, reason="all-removed") for seat in (0, 1))
_NO_CHAINS = Outcome.draw(seats=2, reason="no-chains")
_MOVE_LIMIT = Outcome.draw(seats=2, reason="move-limit")
_MOVEMENT = 10
"""A move int holds its movement (start cell × 70 + end cell, plus one) from this bit
on; below it the removal's lowest number (5 bits) and highest (5 bits)."""


class QuerniBoard(SearchBoard):
    """Querni for the search (:mod:`engine.board`): the 70 cells as a list, each seat's
    cell per number and a mask of its numbers on the board, moves made and unmade in
    place, the Zobrist key following each. A move is an int: its movement (start ×
    70 + end + 1, shifted by :data:`_MOVEMENT`; 0: none) and its removal's lowest and
    highest numbers (0: none); 0 is ``pass``. The moves are listed in the rules' order
    (:meth:`rules.querni.QuerniPosition.legal_moves`), with the rules' own board
    functions (reachable cells, removable runs); the evaluation is the model's, by the
    cells of each seat's numbers (:meth:`QuerniModel.standing_at`).

    >>> import rules
    >>> p = rules.variant("querni").start(seed=3)
    >>> board = QuerniBoard(p, QuerniModel())
    >>> [board.rules_move(m) for m in board.moves()] == list(p.legal_moves())
    True
    """

    def __init__(self, position: QuerniPosition, model: QuerniModel) -> None:
        self.model = model
        cells = self.cells = list(position.cells)
        self.where = [stone_cells(cells, 0), stone_cells(cells, 1)]
        self.present = [0, 0]
        key = mover_key(frozenset([position.turn]))
        for cell, code in enumerate(cells):
            if code:
                self.present[seat_of(code)] |= 1 << number_of(code)
                key ^= _ZOBRIST[code][cell]
        self.turn = position.turn
        self.once = position.rules_version != "1"
        # per ply (the root's first): key, turns without a removal, legal moves once known
        self._keys = [key]
        self._quiets = [position.quiet]
        self._legal: list[list[int] | None] = [None]
        # per move made: the move and the cells its removal emptied
        self._made: list[int] = []
        self._emptied: list[list[int]] = []

    def moves(self) -> list[int]:
        legal = self._legal[-1]
        if legal is None:
            legal = self._legal[-1] = self._generate()
        return legal

    def _generate(self) -> list[int]:
        """As :meth:`rules.querni.QuerniPosition.legal_moves`, as ints."""
        cells = self.cells
        turn = self.turn
        once = self.once
        where = self.where[turn]
        links = link_mask(where)
        out = [r[0] << 5 | r[1] for r in runs_of_links(links)]
        add = out.append
        low_code = turn * STONES
        for start in range(SIZE):
            code = cells[start] - low_code
            if not 1 <= code <= STONES:
                continue
            below = where[code - 1] if code > 1 else -1
            above = where[code + 1] if code < STONES else -1
            # only the links to the moved stone's neighbours in number can change
            base = links & ~((1 << (code - 1)) | (1 << code))
            for end in cells_of(destination_mask(cells, start, once=once)):
                movement = (start * SIZE + end + 1) << _MOVEMENT
                add(movement)
                after = base
                if below >= 0 and ADJACENT[end] >> below & 1:
                    after |= 1 << (code - 1)
                if above >= 0 and ADJACENT[end] >> above & 1:
                    after |= 1 << code
                for r in runs_of_links(after):
                    add(movement | r[0] << 5 | r[1])
        if not out or not once:
            add(0)
        return out

    def make(self, move: Hashable) -> None:
        m = cast(int, move)
        turn = self.turn
        cells = self.cells
        where = self.where[turn]
        key = self._keys[-1] ^ _SWAP
        movement = m >> _MOVEMENT
        if movement:
            start, end = divmod(movement - 1, SIZE)
            code = cells[start]
            cells[end] = code
            cells[start] = 0
            where[code - turn * STONES] = end
            zobrist = _ZOBRIST[code]
            key ^= zobrist[start] ^ zobrist[end]
        low = m >> 5 & 31
        emptied: list[int] = []
        if low:
            high = m & 31
            for n in range(low, high + 1):
                cell = where[n]
                key ^= _ZOBRIST[cells[cell]][cell]
                cells[cell] = 0
                where[n] = -1
                emptied.append(cell)
            self.present[turn] &= ~((1 << (high + 1)) - (1 << low))
            self._quiets.append(0)
        else:
            self._quiets.append(self._quiets[-1] + 1)
        self.turn = turn ^ 1
        self._keys.append(key)
        self._legal.append(None)
        self._made.append(m)
        self._emptied.append(emptied)

    def unmake(self) -> None:
        m = self._made.pop()
        emptied = self._emptied.pop()
        turn = self.turn = self.turn ^ 1
        cells = self.cells
        where = self.where[turn]
        low = m >> 5 & 31
        if low:
            high = m & 31
            for i, n in enumerate(range(low, high + 1)):
                cell = emptied[i]
                cells[cell] = turn * STONES + n
                where[n] = cell
            self.present[turn] |= (1 << (high + 1)) - (1 << low)
        movement = m >> _MOVEMENT
        if movement:
            start, end = divmod(movement - 1, SIZE)
            code = cells[end]
            cells[start] = code
            cells[end] = 0
            where[code - turn * STONES] = start
        self._keys.pop()
        self._quiets.pop()
        self._legal.pop()

    def rewind(self) -> None:
        while self._made:
            self.unmake()

    def outcome(self) -> Outcome | None:
        # as :meth:`rules.querni.QuerniPosition._judge`
        present = self.present
        if not present[0]:
            return _ALL_REMOVED[0]
        if not present[1]:
            return _ALL_REMOVED[1]
        if not (has_three_in_a_row(present[0]) or has_three_in_a_row(present[1])):
            return _NO_CHAINS
        if self._quiets[-1] >= _MOVE_LIMIT_TURNS:
            return _MOVE_LIMIT
        return None

    def mover(self) -> int:
        return self.turn

    def key(self) -> int:
        return self._keys[-1]

    def in_check(self) -> bool:
        return False

    def evaluate(self) -> tuple[int, ...]:
        model = self.model
        return model.standing_at(self.where[0]), model.standing_at(self.where[1])

    def tactical_gains(self, moves: Sequence[Hashable]) -> list[int | None]:
        out: list[int | None] = []
        add = out.append
        for move in moves:
            m = cast(int, move)
            low = m >> 5 & 31
            add(100 * ((m & 31) - low + 1) if low else None)
        return out

    def is_tactical(self, move: Hashable) -> bool:
        return cast(int, move) >> 5 & 31 != 0

    def gain(self, move: Hashable) -> int:
        m = cast(int, move)
        low = m >> 5 & 31
        return 100 * ((m & 31) - low + 1) if low else 0

    def staged(self) -> bool:
        return True

    def holds(self, move: Hashable) -> bool:
        # as "move in self.moves()" without listing them: the movement's stone, its
        # destination, and the removal's run among the links after it
        if not isinstance(move, int) or move <= 0:
            return move == 0 and 0 in self.moves()  # a pass only where nothing else is
        movement = move >> _MOVEMENT
        low = move >> 5 & 31
        high = move & 31
        if (low or high) and not 1 <= low <= high - 2 <= STONES - 2:
            return False
        cells = self.cells
        turn = self.turn
        where = self.where[turn]
        links = link_mask(where)
        if movement:
            if movement > SIZE * SIZE:
                return False
            start, end = divmod(movement - 1, SIZE)
            code = cells[start] - turn * STONES
            if not 1 <= code <= STONES \
                    or not destination_mask(cells, start, once=self.once) >> end & 1:
                return False
            links = _links_after(links, where, code, end)
        run = (1 << high) - (1 << low)  # the links low..high-1
        return links & run == run

    def best_tactical(self, besides: Hashable | None) -> Hashable | None:
        # the longest run among the removals alone, then after each movement in the
        # order :meth:`moves` lists them (a longer one only replaces the first found)
        skip = besides if isinstance(besides, int) else -1
        cells = self.cells
        turn = self.turn
        once = self.once
        where = self.where[turn]
        links = link_mask(where)
        best, most = _longest_run(links, 0, skip)
        low_code = turn * STONES
        for start in range(SIZE):
            code = cells[start] - low_code
            if not 1 <= code <= STONES or _longest(links | 3 << (code - 1)) <= most:
                continue  # no longer run whatever the links to its neighbours in number
            for end in cells_of(destination_mask(cells, start, once=once)):
                after = _links_after(links, where, code, end)
                if after & (after >> 1):  # a run of three
                    move, length = _longest_run(after, (start * SIZE + end + 1) << _MOVEMENT,
                                                skip)
                    if length > most:
                        best, most = move, length
        return best if most else None

    def rules_move(self, move: Hashable) -> Hashable:
        m = cast(int, move)
        movement = m >> _MOVEMENT
        low = m >> 5 & 31
        high = m & 31
        if not movement:
            return removal_turn((low, high)) if low else PASS
        start, end = divmod(movement - 1, SIZE)
        turn = movement_turn(start, end)
        if not low:
            return turn
        return movement_removal_turn((start * SIZE + end) << 10 | low << 5 | high, turn,
                                     (low, high))


def _links_after(links: int, where: Sequence[int], code: int, end: int) -> int:
    """The link mask (:func:`rules.querni_board.link_mask`) once number ``code`` of the
    seat whose numbers stand at ``where`` moves to ``end``: only the links to its
    neighbours in number can change."""
    after = links & ~((1 << (code - 1)) | (1 << code))
    if code > 1 and where[code - 1] >= 0 and ADJACENT[end] >> where[code - 1] & 1:
        after |= 1 << (code - 1)
    if code < STONES and where[code + 1] >= 0 and ADJACENT[end] >> where[code + 1] & 1:
        after |= 1 << code
    return after


def _longest(links: int) -> int:
    """The most consecutive links in ``links`` (a mask).

    >>> _longest(0b1101110), _longest(0)
    (3, 0)
    """
    length = 0
    while links:
        links &= links >> 1
        length += 1
    return length


def _longest_run(links: int, movement: int, skip: int) -> tuple[int, int]:
    """The first of the longest removable runs for the link mask ``links`` in the order
    :func:`rules.querni_board.runs_of_links` lists them, as a :class:`QuerniBoard` move
    with ``movement`` (its movement bits), leaving out the move ``skip``; and its links
    (its length less one; 0: none).

    >>> _longest_run(0b1101110, 0, -1)  # numbers 1-4 and 5-7 touching: 1-4 first
    (36, 3)
    >>> _longest_run(0b1101110, 0, 36)  # then 1-3 (listed before 2-4)
    (35, 2)
    """
    if not links & (links >> 1):
        return -1, 0
    starts = links  # bit n: links n..n+length-1 all there
    length = 1
    while True:
        longer = starts & (starts >> 1)
        if not longer:
            break
        starts = longer
        length += 1
    low = (starts & -starts).bit_length() - 1
    move = movement | low << 5 | (low + length)
    if move != skip:
        return move, length
    best, most = -1, 0
    for run in runs_of_links(links):
        move = movement | run[0] << 5 | run[1]
        if move != skip and run[1] - run[0] > most:
            best, most = move, run[1] - run[0]
    return best, most


def _longest_chain(numbers: Sequence[int], cells: Sequence[tuple[int, int]]) -> int:
    """The longest run of consecutive numbers on touching cells when ``numbers[i]``
    stands on ``cells[i]``.

    >>> _longest_chain(list(range(1, 17)), _querni_start_cells(0)) >= 2
    True
    """
    at = {n: cells[i] for i, n in enumerate(numbers)}
    run = longest = 1
    for n in range(1, 16):
        run = run + 1 if _chebyshev(at[n], at[n + 1]) == 1 else 1
        longest = max(longest, run)
    return longest


def _querni_start_cells(seat: int) -> tuple[tuple[int, int], ...]:
    """A seat's 16 start cells in the order an arrangement lists them (RULES §5): the
    cells of its side holding a stone once a known arrangement is placed."""
    sample = rules.variant("querni").start(seed=0)
    ordered = sorted((p for p, piece in sample.pieces().items() if piece.seat == seat),
                     key=lambda p: (p[1], p[0]))
    return tuple(ordered)


_QUERNI = QuerniModel()
_QUERNI_TOP = QuerniTopModel()


@register(QuerniVariant, QuerniPosition, QuerniSetupPosition)
def _choose(position: Position[Any] | None) -> GameModel:
    return _QUERNI
