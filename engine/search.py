"""The search: negamax with alpha-beta over two sides, for every game and configuration.

Sides. Two-seat games are two sides. Alquerque grande ``teams`` is two sides (the
teams). Four individual seats (``fast``, ``slow``) are searched *paranoid* (but for
their top level): the seat to move against a coalition of the three others.
Paranoid search keeps alpha-beta's deep cut-offs (MCTS needs thousands of playouts, each
hundreds of ``play`` calls on immutable positions: too slow in a 2-second budget in
Python). Their level 8 searches *best-reply* (:attr:`engine.models.GameModel.best_reply`;
Schadd and Winands 2011, with the other rivals' moves of Esser et al.'s BRS+): after the
seat's move one layer holds every rival's moves, the rivals in turn order each taking
its best capture (where it has none, passing) but the one that replies, and the
strongest reply of any rival is searched, the seat moving next; so two plies see a round
where paranoid search needs four, and the captures that huffing all but forces are
made. It needs a board that hands the move to any seat
(:meth:`engine.board.SearchBoard.pass_to`), and searches paranoid on any other; a
rivals' layer keeps ``(seat, move)`` pairs in the table, its killers and its history
(seat -1). Max^n was measured against paranoid
in ``fast``, where rivals also take each other's stones (each seat maximising its own
evaluation minus the others' mean, a finished game worth its ranking points, no
pruning): head to head over 8-16 four-seat games, max^n level 6 scored 37 % against
level 5 and level 2 61 % against level 1, paranoid 80 % and 71 % (level 3 against 2);
max^n's deeper searches trusted three rivals each to find their best reply and played
worse for it. So ``fast`` is paranoid too, its levels (and ``slow``'s) set apart by
slips (:attr:`engine.levels.Level.slip`,
:class:`engine.models.alquerque_grande.AlquerqueGrandeRivalsModel`); levels 7 and 8 also
value a finish they do not win by its place
(:class:`engine.models.alquerque_grande.AlquerqueGrandeTopModel`), which the coalition's
search otherwise scores as a loss, however many rivals the seat still finishes above.
Since turn order can skip seats that are out, a side may move twice in a row: the child
is then searched with the same window and sign instead of negated.

Per node: iterative deepening under a time and node budget, a transposition table keyed
by a Zobrist hash (see :mod:`engine.zobrist`; a time-bound level's table is handed on to
its next search, :mod:`engine.tables`), move ordering (the table's move, captures by
MVV-LVA, two killer moves per ply, the history heuristic; where a position has thousands
of moves, in Querni, the first two are tried before the rest are listed and ordered),
and quiescence over the game's tactical moves (captures; Querni's removals; every reply
when in check, and no standing pat where a capture is compulsory and every move
captures).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Collection, Hashable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, cast

from engine.board import PositionBoard, SearchBoard
from engine.errors import BoardMismatch
from engine.models import GameModel
from rules import Outcome, Position

WIN = 1_000_000
"""A won game's score (minus the plies to reach it: quicker wins score higher)."""
WON = WIN - 10_000
"""Scores beyond this are forced wins (losses below its negation)."""
INFINITE = 10 * WIN


def forced_plies(score: int) -> int | None:
    """The plies to the forced end a search score holds, counted from the root: > 0 a
    forced win reached at that ply, < 0 a forced loss; None where no forced end is seen.

    >>> forced_plies(WIN - 3), forced_plies(-WIN + 2), forced_plies(-WIN + 4 + 100)
    (3, -2, -4)
    >>> forced_plies(250) is None
    True
    """
    if score > WON:
        return WIN - score
    if score < -WON:
        # a loss scores -WIN + ply + 100 per seat ranked below ours (``_terminal``); a
        # search's plies stay far below 100
        return -max(1, (score + WIN) % 100)
    return None
EXACT, LOWER, UPPER = 0, 1, 2
QUIESCENCE_PLIES = 8


class Stop(Exception):
    """The time or node budget ran out in the middle of an iteration."""


@dataclass(frozen=True, slots=True)
class Limits:
    """How far and how carefully to search.

    ``depth`` the deepest iteration; ``nodes`` and ``seconds`` budgets (``None``: no
    limit; the first iteration always completes within the node budget, only time cuts
    it); ``quiescence`` how many plies of captures leaves follow (0: none); ``noise``
    the half-width of a seeded, per-position evaluation error in centipawns (weaker levels misjudge
    positions the way people do, consistently within a search); ``seed`` that noise's
    seed; ``min_nodes`` how many nodes to search before time may stop the search;
    ``ceiling`` the seconds after which time stops it even short of ``min_nodes``
    (``None``: the floor holds however long it takes); ``best_reply`` whether a model
    that searches best-reply may (False: in turn order only, as puzzles need: their
    lines are played as they stand and their forced wins must be forced).
    """

    depth: int = 64
    nodes: int | None = None
    seconds: float | None = None
    quiescence: int = QUIESCENCE_PLIES
    noise: int = 0
    seed: int = 0
    min_nodes: int = 0
    ceiling: float | None = None
    best_reply: bool = True


@dataclass(frozen=True, slots=True)
class SearchResult:
    """The outcome of one search: the move, its score for the side to move (centipawns,
    or beyond :data:`WON` for a forced win), the last completed depth, nodes visited, the
    principal variation's moves, the elapsed seconds, and whether a budget cut it."""

    move: Hashable
    score: int
    depth: int
    nodes: int
    pv: tuple[Hashable, ...]
    seconds: float
    stopped: bool


class Search:
    """One search from ``root`` for the seat to move there.

    The search walks one :class:`engine.board.SearchBoard` (the model's own board for
    its game, else the rules' positions on a stack); the moves it hands out (the result,
    its line, :meth:`ranked`, ``on_iteration``) are the rules API's values, those of
    ``root.legal_moves()``."""

    def __init__(self, model: GameModel, root: Position[Any], limits: Limits,
                 root_moves: Sequence[Hashable] | None = None,
                 table: dict[int, tuple[int, int, int, Hashable | None]] | None = None
                 ) -> None:
        # the time budget runs from here: building the board and matching the root's
        # moves with the rules' (thousands in Querni) count against it
        self._created = time.perf_counter()
        self.model = model
        self.root = root
        self.limits = limits
        board = model.board(root)
        self.board: SearchBoard = board if board is not None else PositionBoard(model, root)
        # the root's moves as the board's values, each matched with the rules' own (the
        # referee): the board must list the same moves in the same order
        legal = root.legal_moves()
        if board is None:
            self._legal: Sequence[Hashable] = legal
            self._to_rules: dict[Hashable, Hashable] | None = None
        else:
            ours = self.board.moves() if root.outcome() is None else ()
            if len(ours) != len(legal):
                raise BoardMismatch(f"the {model.key} board lists {len(ours)} moves where "
                                    f"the rules list {len(legal)}")
            to_rules: dict[Hashable, Hashable] = {}
            for mine, theirs in zip(ours, legal, strict=True):
                if board.rules_move(mine) != theirs:
                    raise BoardMismatch(f"the {model.key} board lists {mine!r} where the "
                                        f"rules list {theirs!r}")
                to_rules[mine] = theirs
            self._legal, self._to_rules = ours, to_rules
        self.root_moves: tuple[Hashable, ...] | None = None
        """Search only these of the root's moves (an analysis scores a played move as
        deeply as the best one), as the board's values; None: all of them."""
        if root_moves is not None:
            wanted = set(root_moves)
            self.root_moves = tuple(m for m in self._legal if self._rules_move(m) in wanted)
        self.seat = root.mover
        team = next((t for t in root.teams if self.seat in t), frozenset([self.seat]))
        self.allies = team
        self.enemies = frozenset(range(root.seat_count)) - team
        # per seat its side, and the seats of each side as tuples: read at every node
        self._side_of = tuple(0 if s in team else 1 for s in range(root.seat_count))
        self._ally_seats = tuple(sorted(team))
        self._enemy_seats = tuple(sorted(self.enemies))
        # the rivals in turn order after the searching seat (best-reply search)
        seats = root.seat_count
        self._rivals_in_turn = tuple(s for s in ((self.seat + i) % seats
                                                 for i in range(1, seats))
                                     if s in self.enemies)
        # a finish's place counts only for a seat on its own among several rivals
        self._place_value = model.place_value \
            if len(team) == 1 and len(self.enemies) > 1 else 0
        # a table handed in holds an earlier search's positions (:mod:`engine.tables`)
        self.tt: dict[int, tuple[int, int, int, Hashable | None]] = \
            table if table is not None else {}
        self.killers: dict[int, list[Hashable]] = {}
        self.history: dict[tuple[int, Hashable], int] = {}
        # each change to history (the count before it; None: none) and the highest count
        self._history_log: list[tuple[tuple[int, Hashable], int | None]] = []
        self._history_peak = 0
        # a staged board's nodes try their first moves before listing the rest; only
        # they read the log (other boards keep none)
        self._staged = self.board.staged() and not model.mobility_weight
        # best-reply search: a seat on its own against several rivals, on a board that
        # can hand the move to any of them
        self._best_reply = limits.best_reply and model.best_reply and len(team) == 1 \
            and len(self.enemies) > 1 and self.board.plays_out_of_turn()
        self.nodes = 0
        self.started = 0.0
        self.deadline: float | None = None
        self.ceiling_at: float | None = None
        # how often the clock is read: every 128 nodes, where the floors decide (they
        # stop on a multiple of 128: reproducible), at every node where time is kept (a
        # Querni node can order thousands of moves: 16 of them overran the budget)
        self._clock_mask = 127 if limits.ceiling is None else 0
        self._clock_read = 0.0
        """When the clock was last read (where time is kept)."""
        self._longest_gap = 0.0
        """The longest time between two readings so far."""
        self.node_limit: int | None = None
        self.best_so_far: tuple[Hashable, int] | None = None
        self.on_iteration: Callable[[Hashable, int], None] | None = None
        """Called with the best move (the rules' value) and its depth after each
        completed iteration (a caller that may lose this search midway keeps the best
        move found so far)."""
        self._noise_seed = (limits.seed * 0x9E3779B97F4A7C15 + 0x632BE59BD9B4E019) \
            & 0xFFFFFFFFFFFFFFFF

    def _rules_move(self, move: Hashable) -> Hashable:
        """The rules' value of the board's ``move`` (a root move: the root's own)."""
        to_rules = self._to_rules
        if to_rules is None:
            return move
        found = to_rules.get(move)
        return found if found is not None else self.board.rules_move(move)

    # ------------------------------------------------------------------ sides and scores

    def side(self, seat: int) -> int:
        """0 for the root seat's side (its team), 1 for the others."""
        return self._side_of[seat]

    def _terminal(self, outcome: Outcome, ply: int) -> int:
        """A finished game's score for side 0: a win, a draw, or a loss (softened by
        the seats still ranked below ours); with several rivals and a model that values
        places (:attr:`engine.models.GameModel.place_value`), every finish but a win is
        worth its place."""
        if outcome.winners & self.allies:
            return WIN - ply
        if self._place_value:
            return self._place_score(outcome)
        if not outcome.winners:
            return 0
        below = 0
        for i, group in enumerate(outcome.ranking):
            if self.seat in group:
                below = sum(len(g) for g in outcome.ranking[i + 1:])
        return -WIN + ply + 100 * below

    def _place_score(self, outcome: Outcome) -> int:
        """``place_value`` times (the share of rivals ranked below ours, ties half,
        less one half)."""
        share = place_share(outcome.ranking, self.seat, len(self.enemies))
        return round(self._place_value * (share - 0.5))

    def _static(self) -> int:
        """The evaluation of the board's position for side 0, with the level's seeded
        noise."""
        board = self.board
        per_seat = board.evaluate()
        allies, enemies = self._ally_seats, self._enemy_seats
        if len(allies) == 1:
            mine = per_seat[allies[0]]
        else:
            mine = sum([per_seat[s] for s in allies]) // len(allies)
        if len(enemies) == 1:
            theirs = per_seat[enemies[0]]
        else:
            theirs = sum([per_seat[s] for s in enemies]) // len(enemies) if enemies else 0
        value = mine - theirs
        noise = self.limits.noise
        if noise:
            # the key only seeds the noise (the table is not consulted at the leaves)
            mixed = ((board.key() ^ self._noise_seed) * 0xBF58476D1CE4E5B9) \
                & 0xFFFFFFFFFFFFFFFF
            value += (mixed >> 17) % (2 * noise + 1) - noise
        return value

    # ------------------------------------------------------------------ budget

    def _tick(self) -> None:
        nodes = self.nodes = self.nodes + 1
        limit = self.node_limit
        if limit is not None and nodes >= limit:
            raise Stop
        if not nodes & self._clock_mask and self.deadline is not None:
            ceiling_at = self.ceiling_at
            if ceiling_at is None:  # the floors decide: stop past them, on time
                if nodes >= self.limits.min_nodes and time.perf_counter() >= self.deadline:
                    raise Stop
                return
            # where time is kept, the next stretch between two clock readings may last as
            # long as the longest so far (a Querni node orders thousands of moves; a
            # loaded machine leaves the search waiting): stop that much before the time
            now = time.perf_counter()
            gap = now - self._clock_read
            self._clock_read = now
            if gap > self._longest_gap:
                self._longest_gap = gap
            ahead = now + self._longest_gap
            if ahead >= (self.deadline if nodes >= self.limits.min_nodes else ceiling_at):
                raise Stop

    # ------------------------------------------------------------------ the search

    def run(self) -> SearchResult:
        """Iterative deepening until the depth, node or time limit; the move of the
        deepest completed iteration (or a better one the cut iteration had already
        proved)."""
        self.started = self._clock_read = time.perf_counter()
        limits = self.limits
        if limits.seconds is not None:
            self.deadline = self._created + limits.seconds
            if limits.ceiling is not None:
                self.ceiling_at = self._created + max(limits.ceiling, limits.seconds)
        board = self.board
        legal = self._legal
        moves = self._root_moves(legal)
        if not moves:
            raise ValueError("no legal move")
        gains = board.tactical_gains(moves)
        ordered = self._order(self.seat, moves, gains, None, 0)
        # the children compare their freedom with the root's whole choice of moves
        mobility = self._mobility(moves, gains) if self.root_moves is None else \
            self._mobility(legal, board.tactical_gains(legal))
        best_move, best_score, depth_done = ordered[0], 0, 0
        stopped = False
        if len(moves) == 1 and self.root_moves is None:
            move = self._rules_move(best_move)
            return SearchResult(move, 0, 0, 0, (move,),
                                time.perf_counter() - self.started, False)
        for depth in range(1, max(1, limits.depth) + 1):
            # the first iteration ignores the node budget, so every level sees one ply
            self.node_limit = limits.nodes if depth > 1 else None
            try:
                score, move = self._root(depth, mobility)
            except Stop:
                board.rewind()
                stopped = True
                if self.best_so_far is not None:
                    move, score = self.best_so_far
                    if move != best_move and score > best_score:
                        best_move, best_score = move, score
                break
            best_move, best_score, depth_done = move, score, depth
            if self.on_iteration is not None:
                self.on_iteration(self._rules_move(best_move), depth)
            if abs(score) >= WON:
                break
        return SearchResult(self._rules_move(best_move), best_score, depth_done, self.nodes,
                            self._pv(best_move), time.perf_counter() - self.started, stopped)

    def ranked(self) -> list[tuple[int, Hashable]]:
        """The root's moves with their scores, best first by a one-ply look (each child
        followed by the quiescence search): the choices a slipping level picks a lesser
        one from."""
        board = self.board
        moves = self._legal
        mobility = self._mobility(moves, board.tactical_gains(moves))
        scored = [(self._child(move, 0, 0, -INFINITE, INFINITE, 0, mobility, 0), i)
                  for i, move in enumerate(moves)]
        scored.sort(key=lambda t: (-t[0], t[1]))
        return [(value, self._rules_move(moves[i])) for value, i in scored]

    def _root(self, depth: int, mobility: int) -> tuple[int, Hashable]:
        # reset here, not in run(): there the compiled core would take it for None
        self.best_so_far = None
        board = self.board
        key = board.key()
        entry = self.tt.get(key)
        moves = self._root_moves(self._legal)
        gains = board.tactical_gains(moves)
        ordered = self._order(self.seat, moves, gains, entry[3] if entry else None, 0)
        alpha, beta = -INFINITE, INFINITE
        best_move = ordered[0]
        for move in ordered:
            value = self._child(move, 0, depth - 1, alpha, beta, 0, mobility, 0)
            if value > alpha:
                alpha, best_move = value, move
                self.best_so_far = (move, value)
        self.tt[key] = (depth, EXACT, alpha, best_move)
        return alpha, best_move

    def _root_moves(self, legal: Sequence[Hashable]) -> Sequence[Hashable]:
        if self.root_moves is None:
            return legal
        return self.root_moves

    def _child(self, move: Hashable, side: int, depth: int, alpha: int, beta: int,
               ply: int, mobility: int, qply: int) -> int:
        """The value of ``move`` for ``side`` (the mover's side in the board's position):
        made on the board, searched, and unmade (a :class:`Stop` leaves it made: the
        caller rewinds)."""
        board = self.board
        board.make(move)
        outcome = board.outcome()
        if outcome is not None:
            self._tick()
            board.unmake()
            value = self._terminal(outcome, ply + 1)
            return value if side == 0 else -value
        seat = board.mover()
        if self._best_reply and self._side_of[seat]:
            # the rivals' turn: whichever of them replies best (side 0 moved)
            value = -self._rivals(depth, -beta, -alpha, ply + 1, mobility, qply)
        elif self._side_of[seat] == side:
            value = self._node(seat, depth, alpha, beta, ply + 1, mobility, qply)
        else:
            value = -self._node(seat, depth, -beta, -alpha, ply + 1, mobility, qply)
        board.unmake()
        return value

    def _node(self, seat: int, depth: int, alpha: int, beta: int, ply: int,
              parent_mobility: int, qply: int) -> int:
        """Negamax value of the board's position (a running game) for the side to move
        (``seat``)."""
        if depth <= 0:
            return self._quiesce(seat, alpha, beta, ply, parent_mobility, qply)
        self._tick()
        board = self.board
        key = board.key()
        settled, value, tt_move = self._probe(key, depth, alpha, beta, ply)
        if settled:
            return value
        side = self._side_of[seat]
        ordered: Iterable[Hashable]
        if self._staged:
            # the moves are listed and ordered only if the first ones do not cut
            ordered = self._staged_order(seat, tt_move, ply)
            mobility = -1  # as _mobility answers without a mobility weight
        else:
            moves = board.moves()
            gains = board.tactical_gains(moves)
            mobility = self._mobility(moves, gains)
            ordered = self._order(seat, moves, gains, tt_move, ply)
        alpha0 = alpha
        best, best_move = -INFINITE, None
        for i, move in enumerate(ordered):
            if i and beta - alpha > 1:
                # principal variation search: prove the rest no better with a null window
                value = self._child(move, side, depth - 1, alpha, alpha + 1, ply,
                                    mobility, 0)
                if alpha < value < beta:
                    value = self._child(move, side, depth - 1, alpha, beta, ply,
                                        mobility, 0)
            else:
                value = self._child(move, side, depth - 1, alpha, beta, ply, mobility, 0)
            if value > best:
                best, best_move = value, move
                if value > alpha:
                    alpha = value
                    if alpha >= beta:
                        if not board.is_tactical(move):
                            self._remember(seat, move, depth, ply)
                        break
        flag = EXACT if alpha0 < best < beta else (LOWER if best >= beta else UPPER)
        self.tt[key] = (depth, flag, _to_table(best, ply), best_move)
        return best

    def _probe(self, key: int, depth: int, alpha: int, beta: int,
               ply: int) -> tuple[bool, int, Hashable | None]:
        """What the table holds for the position ``key`` searched ``depth`` deep:
        whether its value settles the node within (``alpha``, ``beta``), that value,
        and the best move it recorded (None: none)."""
        entry = self.tt.get(key)
        if entry is None:
            return False, 0, None
        e_depth, flag, value, move = entry
        if e_depth >= depth:
            value = _from_table(value, ply)
            if flag == EXACT or (flag == LOWER and value >= beta) or (
                    flag == UPPER and value <= alpha):
                return True, value, move
        return False, 0, move

    def _quiesce(self, seat: int, alpha: int, beta: int, ply: int, parent_mobility: int,
                 qply: int) -> int:
        """Stand pat on the evaluation, or follow the tactical moves (all replies in
        check; no standing pat when every move captures in a game that forces it)."""
        self._tick()
        model = self.model
        board = self.board
        side = self._side_of[seat]
        static = self._static()
        stand = static if side == 0 else -static
        searching = model.quiescence and qply < min(self.limits.quiescence, QUIESCENCE_PLIES)
        if not searching and not model.mobility_weight:
            return stand  # Querni: its moves are many and dear, and not needed here
        moves = board.moves()
        gains = board.tactical_gains(moves)
        tactical = [m for m, g in zip(moves, gains, strict=True) if g is not None]
        in_check = board.in_check()
        forced = in_check or (model.captures_compulsory and len(tactical) == len(moves))
        if not forced and parent_mobility >= 0:
            # a side forced to capture (or answer a check) has few moves for a moment:
            # that is no lack of mobility, so only free positions count it
            stand += model.mobility_weight * (len(moves) - parent_mobility)
        mobility = -1 if forced else len(moves)
        if not searching:
            return stand
        if forced:
            gain = board.gain
            ordered = sorted(moves, key=lambda m: -gain(m))
            best = -INFINITE
        else:
            if stand >= beta:
                return stand
            alpha = max(alpha, stand)
            # by gain, best first, ties in move order (as a stable sort by -gain)
            tactical_gains = [g for g in gains if g is not None]
            order = sorted(range(len(tactical)), key=tactical_gains.__getitem__,
                           reverse=True)
            ordered = [tactical[i] for i in order]
            best = stand
        if not ordered:
            return stand
        for move in ordered:
            value = self._child(move, side, 0, alpha, beta, ply, mobility, qply + 1)
            if value > best:
                best = value
                if value > alpha:
                    alpha = value
                    if alpha >= beta:
                        break
        return best

    # ------------------------------------------------------------------ best reply

    def _replies(self) -> tuple[list[tuple[int, Hashable]], list[int | None], int]:
        """Every rival's moves as ``(seat, move)`` pairs, rivals in turn order, each
        listed as it stands when that rival's turn comes: after the rivals before it
        took their best capture (a rival without one passes, as do those that
        cannot move); their tactical gains; and the moves per rival that has any (the
        layer's mobility)."""
        board = self.board
        replies: list[tuple[int, Hashable]] = []
        gains: list[int | None] = []
        movers = made = 0
        last = len(self._rivals_in_turn) - 1
        for i, seat in enumerate(self._rivals_in_turn):
            if not board.pass_to(seat):
                continue
            made += 1
            movers += 1
            moves = board.moves()
            replies.extend([(seat, move) for move in moves])
            gains.extend(board.tactical_gains(moves))
            if i < last:
                capture = board.best_tactical(None)
                if capture is not None:
                    board.make(capture)
                    made += 1
                    if board.outcome() is not None:
                        break
        for _ in range(made):
            board.unmake()
        return replies, gains, len(replies) // movers if movers else 0

    def _reply(self, reply: tuple[int, Hashable], depth: int, alpha: int, beta: int,
               ply: int, mobility: int, qply: int) -> int:
        """The rivals' value (side 1) of ``reply``, one rival's move: the rivals in turn
        order take their best capture (or pass), the replying one plays its move
        instead, and the searching seat moves next (or, when it has no move, the rivals
        once more): made on the board, searched, and unmade."""
        board = self.board
        seat, move = reply
        made = 0
        value = 0
        ended = False
        for other in self._rivals_in_turn:
            if not board.pass_to(other):
                continue
            made += 1
            if other == seat:
                chosen: Hashable | None = move
            else:
                chosen = board.best_tactical(None)
                if chosen is None:
                    continue
            board.make(chosen)
            made += 1
            outcome = board.outcome()
            if outcome is not None:
                self._tick()
                value = -self._terminal(outcome, ply + 1)
                ended = True
                break
        if not ended:
            if board.pass_to(self.seat):
                made += 1
                value = -self._node(self.seat, depth, -beta, -alpha, ply + 1, mobility, qply)
            else:
                value = self._rivals(depth, alpha, beta, ply + 1, mobility, qply)
        for _ in range(made):
            board.unmake()
        return value

    def _rivals(self, depth: int, alpha: int, beta: int, ply: int, parent_mobility: int,
                qply: int) -> int:
        """Negamax value, for the rivals (side 1), of the position at hand with a rival
        to move, by best-reply search: one layer holds every rival's moves
        (:meth:`_replies`), the strongest reply of any of them is played
        (:meth:`_reply`), and the searching seat moves next, so that a round of four
        seats is two plies (paranoid search needs four)."""
        if depth <= 0:
            return self._rivals_quiesce(alpha, beta, ply, parent_mobility, qply)
        self._tick()
        key = self.board.key()
        settled, value, tt_move = self._probe(key, depth, alpha, beta, ply)
        if settled:
            return value
        replies, gains, mobility = self._replies()
        if not replies:  # no rival can move: as the evaluation stands
            return -self._static()
        tactical = {reply for reply, gain in zip(replies, gains, strict=True)
                    if gain is not None}
        ordered = cast(list[tuple[int, Hashable]],
                       self._order(-1, replies, gains, tt_move, ply))
        alpha0 = alpha
        best, best_move = -INFINITE, None
        for i, reply in enumerate(ordered):
            if i and beta - alpha > 1:
                value = self._reply(reply, depth - 1, alpha, alpha + 1, ply, mobility, 0)
                if alpha < value < beta:
                    value = self._reply(reply, depth - 1, alpha, beta, ply, mobility, 0)
            else:
                value = self._reply(reply, depth - 1, alpha, beta, ply, mobility, 0)
            if value > best:
                best, best_move = value, reply
                if value > alpha:
                    alpha = value
                    if alpha >= beta:
                        if reply not in tactical:
                            self._remember(-1, reply, depth, ply)
                        break
        flag = EXACT if alpha0 < best < beta else (LOWER if best >= beta else UPPER)
        self.tt[key] = (depth, flag, _to_table(best, ply), best_move)
        return best

    def _rivals_quiesce(self, alpha: int, beta: int, ply: int, parent_mobility: int,
                        qply: int) -> int:
        """:meth:`_quiesce` for the rivals' layer: stand pat, or follow any rival's
        tactical moves (no standing pat when every reply of every rival captures, in a
        game that forces captures); mobility is the moves per rival that has any."""
        self._tick()
        model = self.model
        stand = -self._static()
        searching = model.quiescence and qply < min(self.limits.quiescence, QUIESCENCE_PLIES)
        if not searching and not model.mobility_weight:
            return stand  # as _quiesce: nothing here needs the rivals' moves
        replies, gains, mobility = self._replies()
        tactical = [(r, g) for r, g in zip(replies, gains, strict=True) if g is not None]
        forced = model.captures_compulsory and bool(replies) \
            and len(tactical) == len(replies)
        if not forced and parent_mobility >= 0 and model.mobility_weight and replies:
            stand += model.mobility_weight * (mobility - parent_mobility)
        if not searching or not tactical:
            return stand
        if forced:
            best = -INFINITE
            mobility = -1
        else:
            if stand >= beta:
                return stand
            alpha = max(alpha, stand)
            best = stand
        tactical.sort(key=lambda t: -(t[1] or 0))  # stable: ties in seat and move order
        for reply, _ in tactical:
            value = self._reply(reply, 0, alpha, beta, ply, mobility, qply + 1)
            if value > best:
                best = value
                if value > alpha:
                    alpha = value
                    if alpha >= beta:
                        break
        return best

    def _mobility(self, moves: Sequence[Hashable], gains: Sequence[int | None]) -> int:
        """The move count a child compares its own with, or -1 when this side's moves
        are forced (a compulsory capture, a check) and say nothing of its freedom.
        ``gains`` are the moves' tactical gains (None: not tactical)."""
        model = self.model
        if not model.mobility_weight:
            return -1
        if self.board.in_check() or (model.captures_compulsory and None not in gains):
            return -1
        return len(moves)

    # ------------------------------------------------------------------ ordering

    def _order(self, seat: int, moves: Sequence[Hashable], gains: Sequence[int | None],
               tt_move: Hashable | None, ply: int,
               history: dict[tuple[int, Hashable], int] | None = None) -> list[Hashable]:
        """``moves`` of ``seat`` best first; ``gains`` their tactical gains; ``history``
        the history heuristic's counts to order by (None: as they are now)."""
        killers = self.killers.get(ply, ())
        if history is None:
            history = self.history
        # the table's move first, captures by gain, killers, then by history; the keys in
        # one loop (a Querni node has thousands of moves), skipping the tests that cannot
        # hold: no table move, no killers, an empty history
        keys: list[int] = []
        add = keys.append
        for move, gain in zip(moves, gains, strict=True):
            if tt_move is not None and move == tt_move:
                add(1 << 40)
            elif gain is not None:
                add((1 << 30) + gain)
            elif killers and move in killers:
                add((1 << 29) - killers.index(move))
            else:
                add(history.get((seat, move), 0) if history else 0)
        order = sorted(range(len(keys)), key=keys.__getitem__, reverse=True)
        return [moves[i] for i in order]

    def _staged_order(self, seat: int, tt_move: Hashable | None,
                      ply: int) -> Iterator[Hashable]:
        """The board's moves in the order :meth:`_order` gives them when the node
        begins, found lazily (a board that :meth:`engine.board.SearchBoard.staged`):
        the table's move and the best tactical move without listing the others, then,
        only if those did not cut, the rest, ordered by the history counts as they stood
        when the node began (the children searched since changed them: the log of
        changes takes those back)."""
        board = self.board
        log = self._history_log
        mark = len(log)
        peak = self._history_peak
        early = 0
        if tt_move is not None and board.holds(tt_move):
            early = 1
            yield tt_move
        tactical = board.best_tactical(tt_move)
        # _order puts it next when its key ((1 << 30) + its gain) is above every other
        # move's: a killer's is below 1 << 29, a history count at most the peak
        if tactical is not None and (1 << 30) + board.gain(tactical) > max(peak, 1 << 29):
            early += 1
            yield tactical
        history = self.history
        if len(log) > mark:
            history = dict(history)
            for entry, count in reversed(log[mark:]):  # the earliest change wins
                if count is None:
                    del history[entry]
                else:
                    history[entry] = count
        moves = board.moves()
        ordered = self._order(seat, moves, board.tactical_gains(moves), tt_move, ply,
                              history)
        yield from ordered[early:]

    def _remember(self, seat: int, move: Hashable, depth: int, ply: int) -> None:
        killers = self.killers.setdefault(ply, [])
        if move not in killers:
            killers.insert(0, move)
            del killers[2:]
        entry = (seat, move)
        count = self.history.get(entry)
        if self._staged:
            self._history_log.append((entry, count))
        count = self.history[entry] = (count or 0) + depth * depth
        if count > self._history_peak:
            self._history_peak = count

    def _pv(self, first: Hashable) -> tuple[Hashable, ...]:
        """The principal variation, following the table's moves from the root (the
        rules' values)."""
        board = self.board
        line = [first]
        seen = {board.key()}
        board.make(first)
        while len(line) < 16 and board.outcome() is None:
            key = board.key()
            entry = self.tt.get(key)
            if key in seen or entry is None or entry[3] is None:
                break
            move = entry[3]
            if self._best_reply and self._side_of[board.mover()]:
                # a rivals' layer keeps (seat, move): the line goes on only while the
                # rival that replied is the one whose turn it is
                seat, move = cast(tuple[int, Hashable], move)
                if seat != board.mover():
                    break
            if move not in board.moves():
                break
            seen.add(key)
            line.append(move)
            board.make(move)
        board.rewind()
        return (self._rules_move(first), *[board.rules_move(m) for m in line[1:]])


def place_share(ranking: Sequence[Collection[int]], seat: int, others: int) -> float:
    """The share of the ``others`` other seats that ``ranking`` (groups of seats, best
    first) puts below ``seat``, ties counting half: 1 first alone, 0 last alone.

    >>> place_share([{1}, {0, 2}, {3}], 0, 3)
    0.5
    """
    below = tied = 0
    seen = False
    for group in ranking:
        if seat in group:
            seen, tied = True, len(group) - 1
        elif seen:
            below += len(group)
    return (below + 0.5 * tied) / others if others else 0.0


def _to_table(value: int, ply: int) -> int:
    """Forced-win scores are stored relative to the node, not the root."""
    if value >= WON:
        return value + ply
    if value <= -WON:
        return value - ply
    return value


def _from_table(value: int, ply: int) -> int:
    if value >= WON:
        return value - ply
    if value <= -WON:
        return value + ply
    return value
