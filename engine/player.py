"""Choosing a move: the engine's one entry point (:func:`choose_move`).

>>> import rules
>>> v = rules.variant("alquerque")
>>> choice = choose_move(v.start(), level=3, seed=1, fairy=False)
>>> choice.text in {v.format_move(v.start(), m) for m in v.start().legal_moves()}
True
>>> choose_move(v.start(), level=3, seed=1, fairy=False).text == choice.text
True
"""

from __future__ import annotations

import atexit
import gc
import random
import time
from collections.abc import Callable, Hashable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from engine.errors import EngineError, NotToMoveError, TerminalPositionError, position_text
from engine.fairy import FairyError, FairyStockfish, Strength, find_binary
from engine.levels import DEFAULT_SECONDS, Level, level
from engine.models import model_at_level
from engine.search import WON, Limits, Search
from engine.tables import KEPT
from rules import Position, RulesError

SLIP_MARGIN = 400
"""A slip plays a move at most this many centipawns worse than the best at one ply
(four pawns: a beginner does leave a piece hanging; with 150 level 2 scored 55 % against
level 1 in grande fast, with 400 68 %)."""

FAIRY_LEVELS: dict[int, Strength] = {7: Strength(skill=5), 8: Strength(skill=20)}
"""Xiangqi levels that Fairy-Stockfish plays when it is installed (the strongest).
Measured (bench/bench_engine.py --fairy 10 --fairy-movetime 300, Fairy-Stockfish 11.1):
our own level 8 scores 10/10 against Skill Level -20 and -10, 9/10 against 0, 10/10
against UCI_Elo 1350 and 6/10 against Skill Level 5 at 300 ms a move (ours took longer:
its 12 000-node floor, about 1.1 s); so level 7 is Skill Level 5 on its full second
(stronger than our level 6) and level 8 is full strength."""


@dataclass(frozen=True, slots=True)
class Choice:
    """The engine's move and how it found it.

    ``move`` is the rules' move value and ``text`` its canonical string; ``score`` is
    centipawns for the mover (beyond ±990 000: a forced win or loss); ``depth`` the last
    completed search depth (0: forced, random, set-up or Fairy-Stockfish); ``pv`` the
    expected line as canonical strings; ``engine`` ``'tablero'``, ``'random'`` or
    ``'fairy-stockfish'``.
    """

    move: Hashable
    text: str
    seat: int
    level: int
    score: int
    depth: int
    nodes: int
    pv: tuple[str, ...]
    seconds: float
    engine: str


Progress = Callable[[str, int, bool], None]
"""``progress(text, depth, final)``: the best move found so far (canonical text), the
search depth that found it, and whether it is the move finally chosen."""


TIME_RESERVE = 0.1
"""Seconds of a time-bound level's budget kept back from its search (at most a
twentieth of the budget): finishing the node at hand and the move's text take some, and
more on a loaded machine (with 50 ms, xiangqi's level 8 took 2 037 ms at the 95th
percentile of its 2 s under load)."""


def choose_move(position: Position[Any], level: int = 8, *, seed: int = 0,
                seconds: float | None = None, nodes: int | None = None,
                seat: int | None = None, fairy: bool = True,
                progress: Progress | None = None, floors: bool = False) -> Choice:
    """The move ``level`` (0..8) plays in ``position`` for ``seat`` (default: the seat to
    move; name it during a Querni ``choose`` set-up while both seats are pending).

    ``seconds`` is the time budget (default 2 s; level 8 uses it all, level 7 half,
    levels 1-6 stop sooner on their node budgets); ``nodes`` overrides the level's node
    budget (searches that end on a node budget are reproducible on any machine: the
    same ``seed`` gives the same move). Levels 7 and 8 search at least their node floor
    (:attr:`engine.levels.Level.min_nodes`) but never past ``seconds`` (level 7 may
    take the rest of it to reach its floor), unless ``floors``: then they search
    their floor however long it takes, and with a tiny budget stop on it, reproducibly
    (what the strength ladder and the reproducible-play fixture measure). ``fairy``
    lets Fairy-Stockfish play xiangqi levels 7 and 8 when installed. ``progress`` hears
    the best move after every completed iteration and then the choice (``final``):
    whoever runs the search elsewhere keeps the best move found so far if it is cut off.

    Raises :class:`TerminalPositionError` when the game is over, :class:`NotToMoveError`
    when ``seat`` is not to move, :class:`LevelError` for an unknown level.

    >>> import rules
    >>> heard = []
    >>> v = rules.variant("damas")
    >>> c = choose_move(v.start(), 8, nodes=3000, seconds=60,
    ...                 progress=lambda text, depth, final: heard.append((depth, final)))
    >>> heard[0], heard[-1] == (c.depth, True), len(heard) == c.depth + 1
    ((1, False), True, True)
    """
    choice = _choose(position, level, seed, seconds, nodes, seat, fairy, progress, floors)
    if progress is not None:
        progress(choice.text, choice.depth, True)
    return choice


def _choose(position: Position[Any], level: int, seed: int, seconds: float | None,
            nodes: int | None, seat: int | None, fairy: bool,
            progress: Progress | None, floors: bool = False) -> Choice:
    settings = _level(level)
    started = time.perf_counter()
    outcome = position.outcome()
    if outcome is not None or not position.to_move:
        raise TerminalPositionError(
            f"the game is over ({outcome.reason_text if outcome else 'nobody to move'}): "
            "there is no move to choose", text=position_text(position))
    mover = _seat(position, seat)
    variant = position.variant
    model, settings = model_at_level(position, settings)
    view = position.view_for(mover)
    rng = random.Random(f"{seed}:{level}:{mover}:{view.to_text()}")

    budget = DEFAULT_SECONDS if seconds is None else seconds
    # a time-bound level keeps to the time promised, floor or not, keeping back a little
    # for what follows its work (the last nodes, the line's text)
    timed = not floors and settings.nodes is None and nodes is None
    reserve = min(TIME_RESERVE, budget / 20)
    if position.in_setup:
        deadline = started + budget * settings.time_share - reserve if timed else None
        move = model.arrange(position, mover, rng, settings.arrange_effort,
                             settings.arrange_chain, deadline)
        return _choice(position, move, mover, settings, 0, 0, 0, (), started,
                       "random" if level == 0 else "tablero")
    moves = position.legal_moves()
    if not moves:
        raise TerminalPositionError("no legal move", text=position_text(position))
    if level == 0:
        return _choice(position, rng.choice(moves), mover, settings, 0, 0, 0, (), started,
                       "random")

    if fairy and level in FAIRY_LEVELS and model.fairy_stockfish and len(moves) > 1:
        fairy_move = _fairy_move(position, FAIRY_LEVELS[level],
                                 budget * settings.time_share)
        if fairy_move is not None:
            return _choice(position, fairy_move, mover, settings, 0, 0, 0, (), started,
                           "fairy-stockfish")

    depth = settings.depth
    if settings.overlook and rng.random() < settings.overlook:
        depth = 1  # a moment of inattention: the reply is not looked at
    seconds_left, ceiling = budget * settings.time_share, None
    if timed:
        # what was spent before the search counts (Querni: a few dozen milliseconds)
        spent = time.perf_counter() - started + reserve
        seconds_left, ceiling = max(0.0, seconds_left - spent), max(0.0, budget - spent)
    limits = Limits(depth=depth, nodes=settings.nodes if nodes is None else nodes,
                    seconds=seconds_left, quiescence=settings.quiescence,
                    noise=settings.noise, seed=rng.getrandbits(32),
                    min_nodes=settings.min_nodes, ceiling=ceiling)
    # a time-bound level's search hands its table on to the seat's next one (the
    # positions two plies on were weighed: the time goes to the plies beyond them);
    # never a node-bound one (its moves must not depend on what the process did before)
    table = None
    if timed and not limits.noise:
        team = next((t for t in position.teams if mover in t), frozenset([mover]))
        table = KEPT.table((type(model), variant.key, position.seat_count, position.mode,
                            position.rule_set, team, limits.quiescence))
    search = Search(model, position, limits, table=table)
    if progress is not None:
        def iteration(move: Hashable, depth: int) -> None:
            progress(variant.format_move(position, move), depth, False)
        search.on_iteration = iteration
    if settings.slip and rng.random() < settings.slip:
        ranked = search.ranked()
        best = ranked[0][0]
        # a plausible lesser move: close to the best at one ply, and never when the
        # best one wins outright (nobody misses a mate they look at)
        lesser = [move for value, move in ranked[1:4]
                  if best < WON and value >= best - SLIP_MARGIN]
        if lesser:
            return _choice(position, rng.choice(lesser), mover, settings, 0, 0, 0, (),
                           started, "tablero")
    with _collector_paused(timed):
        result = search.run()
        pv_text = _line(position, result.pv)
        return _choice(position, result.move, mover, settings, result.score, result.depth,
                       result.nodes, pv_text, started, "tablero")


# --------------------------------------------------------------------------- helpers


@contextmanager
def _collector_paused(paused: bool) -> Iterator[None]:
    """Python's cycle collector held off while a time-bound search runs (``paused``).

    A full collection walks every object the process holds, and a kept table
    (:mod:`engine.tables`) holds tens of thousands: one took 80-110 ms in the middle of
    a damas search of 100 ms (its level 8 took 0.21 s at p95). The search makes no
    cycles to collect, so the collector waits until the move is chosen, its line
    written out too (a collection the search's allocations set off would otherwise
    fall there, inside the move's time: 25-105 ms measured after best-reply searches of
    100 ms in Alquerque grande ``fast``), and runs once the caller has its move; one
    already off (the caller's choice) stays off."""
    if not paused or not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


def _level(number: int) -> Level:
    return level(number)


def _seat(position: Position[Any], seat: int | None) -> int:
    movers = position.to_move
    if seat is None:
        if len(movers) != 1:
            raise NotToMoveError(
                f"seats {sorted(movers)} are all to move: name the seat to play for",
                text=position_text(position))
        return next(iter(movers))
    if seat not in movers:
        raise NotToMoveError(f"seat {seat} is not to move (seats to move: "
                             f"{sorted(movers)})", text=position_text(position))
    return seat


def _line(position: Position[Any], moves: tuple[Hashable, ...]) -> tuple[str, ...]:
    texts = []
    variant = position.variant
    for move in moves:
        try:
            texts.append(variant.format_move(position, move))
            position = position.play(move)
        except RulesError:
            break
    return tuple(texts)


def _choice(position: Position[Any], move: Hashable, seat: int, settings: Level, score: int,
            depth: int, nodes: int, pv: tuple[str, ...], started: float,
            engine: str) -> Choice:
    text = position.variant.format_move(position, move)
    return Choice(move, text, seat, settings.number, score, depth, nodes, pv or (text,),
                  time.perf_counter() - started, engine)


_FAIRY: list[FairyStockfish] = []


def _fairy_move(position: Position[Any], strength: Strength, seconds: float) -> Hashable | None:
    """Fairy-Stockfish's move, or None when it is not installed or fails (the caller
    then searches itself)."""
    if find_binary() is None:
        return None
    for _attempt in range(2):
        try:
            if not _FAIRY:
                _FAIRY.append(FairyStockfish())
            engine = _FAIRY[0]
            engine.set_strength(strength)
            uci = engine.best_move(position.to_text(), seconds)
            move: Hashable = position.variant.parse_move(position, uci)
            return move
        except (FairyError, OSError, RulesError):
            _close_fairy()
    return None


def _close_fairy() -> None:
    while _FAIRY:
        _FAIRY.pop().close()


atexit.register(_close_fairy)


def fairy_available() -> bool:
    """Whether Fairy-Stockfish can play xiangqi's strongest levels here."""
    return find_binary() is not None


__all__ = ["Choice", "EngineError", "choose_move", "fairy_available"]
