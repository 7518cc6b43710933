"""``tablero selfplay``: engines against each other, to measure strength reproducibly.

``tablero selfplay GAME [--option KEY=VALUE ...] --levels A,B[,C,D] --games N
[--movetime MS] [--seed S] [--records FILE]`` plays N games of GAME, one level per seat
(level 0: uniformly random legal moves), the levels rotating one seat further each game;
it shows a progress bar and prints each level's wins, draws, losses and points. With
``--records`` every game becomes one JSON line::

    {"game": "damas", "options": {}, "levels": [5, 4], "moves": ["c3-d4", ...],
     "result": {"winners": [0], "ranking": [[0], [1]], "reason": "no-moves"}}

``levels`` is per seat for that game (after rotation); ``moves`` are canonical strings
in order, a Querni ``choose`` game starting with the two arrangements (seat 0's, then
seat 1's), as the match service records them. So that games differ, each game's first
moves (after any set-up) are random quiet legal moves (no capture or removal, when
there is one) drawn from the game's seed, one per seat and more where one each leaves
fewer than :data:`OPENING_LINES` ways the opening could go, those later ones only among
the quiet moves that keep the balance (:data:`OPENING_MARGIN`; in Alquerque and
Alquerque grande but ``fast`` from the first move on, and each opening played from
every seat in turn); the record holds them like
every other move, and a random deal (Querni ``setup=random``) is dealt from the run's seed unless
``--option seed=S`` fixes it (``options`` in the record then holds the drawn seed); each
deal is played from every seat in turn (games 1 and 2 share one, with the seats
swapped), so a lopsided deal does not decide a match-up.
Points: 1 for a win, ½ for a draw; with four seats, the share of the other seats
ranked below (ties count half).

>>> stats = run("alquerque", {}, [2, 0], games=2, seed=1, seconds=0.2, progress=None)
>>> sorted(stats)
[0, 2]
>>> stats[2].games
2
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, field
from typing import IO, Any

import rules
from engine.models import model_for
from engine.player import choose_move
from engine.search import Limits, Search, place_share
from rules import Position

MAX_PLIES = 3000
"""A game still running here is stopped and scored as a draw (no game reached it)."""
OPENING_LINES = 1000
"""The random opening goes on, one quiet move a ply, until every seat has played one
and the opening could have gone at least this many ways (the product of the choices
met on the way). Levels 7 and 8 make no mistakes, so two of them replay a game move
for move from the same opening: with one random move per seat Alquerque had 5
openings, Alquerque grande 4-8 (four seats: 2 x 1 x 2 x 3 quiet moves), so a ladder
pair of 100 games between them was 8-16 games replayed. Xiangqi (1 770 ways) and
Querni stop after one move per seat as before; damas (49) and Alquerque play a
second round, Alquerque grande two or three."""
OPENING_MARGIN = 50
"""A later opening move (after each seat's first) is random among the quiet moves at
most this much (half a stone or pawn) worse than the best quiet one by a one-ply look,
each followed by the captures it allows: a balanced opening, as engine testers draw
them. A quiet move can still leave a stone to be taken, and a game thrown away before
the levels play squeezes every pair's score toward 50 %: over 400 games with the
trial seeds, Alquerque level 1 scored 73.8 % against random moves with any quiet
opening move and 77.8 % with balanced ones, level 3 against 2 61.3 % and 63.5 %.
Each seat's first move stays any quiet move, so the openings of xiangqi and Querni,
which stop there, are unchanged, except in the games whose model asks for paired,
balanced openings (:attr:`engine.models.GameModel.paired_balanced_openings`:
Alquerque, Alquerque grande but ``fast``): there the first move keeps the balance too,
and :func:`run` plays each opening from every seat. Alquerque's level 8 scored 96 %
against random moves with a first move of any quiet one: ``b2-c3`` gives a stone
away, and in one lost game level 8 stood three stones down when the opening ended."""
OPENING_PLIES_PER_SEAT = 4
"""The opening's limit, whatever the ways (a seat with one quiet move adds none)."""


@dataclass
class Score:
    """One level's results over a run."""

    games: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    points: float = 0.0
    seconds: list[float] = field(default_factory=list)

    @property
    def share(self) -> float:
        """Points per game, 0..1."""
        return self.points / self.games if self.games else 0.0


@dataclass(frozen=True)
class GameRecord:
    game: str
    options: dict[str, object]
    levels: tuple[int, ...]
    moves: tuple[str, ...]
    winners: tuple[int, ...]
    ranking: tuple[tuple[int, ...], ...]
    reason: str
    move_seconds: tuple[tuple[int, float], ...] = ()
    """(level, seconds) of every engine move, for the benchmarks."""

    def to_json(self) -> str:
        return json.dumps({
            "game": self.game, "options": self.options, "levels": list(self.levels),
            "moves": list(self.moves),
            "result": {"winners": list(self.winners),
                       "ranking": [list(g) for g in self.ranking], "reason": self.reason}})


def play_game(key: str, options: dict[str, object], levels: Sequence[int], *, seed: int,
              seconds: float | None, fairy: bool = True, opening: bool = True,
              opening_seed: str | None = None, floors: bool = False) -> GameRecord:
    """One game, ``levels[seat]`` playing each seat. A game with a random deal (Querni
    ``setup=random``) and no ``seed`` option is dealt from the game's seed, as the match
    service draws one per match, and the record's options hold it so the game replays.
    The random opening is drawn from ``opening_seed`` when given (games that share it
    share their opening), else from the game's seed. ``floors``: levels 7 and 8 search
    their node floors however short ``seconds`` is (:func:`engine.choose_move`)."""
    v = rules.variant(key)
    rng = random.Random(f"selfplay:{seed}")
    if "seed" in v.options and "seed" not in options and "arrangement" not in options \
            and options.get("setup", "random") == "random":
        options = {**options, "seed": rng.randrange(2**31)}
    p = v.start(**options)
    moves: list[str] = []
    timings: list[tuple[int, float]] = []
    opening_rng = rng if opening_seed is None else random.Random(opening_seed)
    opening_moves = Opening(p.seat_count, opening_rng) if opening else None
    while p.outcome() is None and len(moves) < MAX_PLIES:
        seat = min(p.to_move)
        level = levels[seat]
        if opening_moves is not None and not p.in_setup:
            move = opening_moves.move(p, seat)
            if move is not None:
                moves.append(v.format_move(p, move))
                p = p.play(move)
                continue
        choice = choose_move(p, level, seed=rng.getrandbits(32), seconds=seconds,
                             seat=seat, fairy=fairy, floors=floors)
        if level:
            timings.append((level, choice.seconds))
        moves.append(choice.text)
        p = p.play(choice.move)
    outcome = p.outcome()
    if outcome is None:
        everyone = tuple(range(p.seat_count))
        return GameRecord(key, options, tuple(levels), tuple(moves), (), (everyone,),
                          "selfplay-ply-limit", tuple(timings))
    return GameRecord(key, options, tuple(levels), tuple(moves),
                      tuple(sorted(outcome.winners)),
                      tuple(tuple(sorted(g)) for g in outcome.ranking), outcome.reason,
                      tuple(timings))


class Opening:
    """The random opening of one game: each seat's first move, then quiet moves that keep
    the balance (:data:`OPENING_MARGIN`) until the opening could have gone
    :data:`OPENING_LINES` ways (see there).

    >>> import random, rules
    >>> p = rules.variant("xiangqi").start()
    >>> opening = Opening(2, random.Random(1))
    >>> first = opening.move(p, 0)
    >>> p = p.play(first)
    >>> second = opening.move(p, 1)
    >>> opening.move(p.play(second), 0) is None  # 42 x 44 ways: enough
    True
    """

    def __init__(self, seats: int, rng: random.Random) -> None:
        self.rng = rng
        self.first_left = set(range(seats))
        self.plies_left = OPENING_PLIES_PER_SEAT * seats
        self.ways = 1
        self.over = False

    def move(self, position: Position[Any], seat: int) -> Hashable | None:
        """``seat``'s random move in ``position``, or None: the engine plays this ply
        (a later move with no quiet one), or the opening is over (for good)."""
        if self.over:
            return None
        first = seat in self.first_left
        if not first and (self.ways >= OPENING_LINES or not self.plies_left):
            self.over = True
            return None
        # a seat's first move is random in any case; a later one only when quiet (a
        # random capture, a stopped jump that is huffed, can decide a game): where there
        # is none the engine plays that ply
        quiet = _quiet_moves(position, only=not first)
        if not first or model_for(position.variant, position).paired_balanced_openings:
            quiet = _balanced(position, quiet)
        if not quiet:
            return None
        self.first_left.discard(seat)
        self.ways *= len(quiet)
        self.plies_left -= 1
        move: Hashable = self.rng.choice(quiet)
        return move


def _quiet_moves(position: Position[Any], *, only: bool = False) -> Sequence[Hashable]:
    """The opening's random move is a quiet one where there are any: a random capture or
    Querni removal can decide a game by itself (a removal that strands a number makes
    that seat's win impossible). Without a quiet move: every move, or none if ``only``."""
    moves = position.legal_moves()
    pieces = position.pieces()
    model = model_for(position.variant, position)
    quiet = [m for m in moves if not model.is_tactical(position, pieces, m)]
    return quiet if quiet or only else moves


def _balanced(position: Position[Any], quiet: Sequence[Hashable]) -> Sequence[Hashable]:
    """The quiet moves that keep the balance: at most :data:`OPENING_MARGIN` worse than
    the best of them by a one-ply look (each followed by the captures it allows)."""
    if len(quiet) <= 1:
        return quiet
    model = model_for(position.variant, position)
    ranked = Search(model, position, Limits()).ranked()
    allowed = set(quiet)
    values = [(value, move) for value, move in ranked if move in allowed]
    best = values[0][0]
    keep = {move for value, move in values if value >= best - OPENING_MARGIN}
    return [m for m in quiet if m in keep]


def paired_openings(key: str, options: dict[str, object]) -> bool:
    """Whether :func:`run` opens this configuration with paired, balanced openings
    (:attr:`engine.models.GameModel.paired_balanced_openings` of its model).

    >>> paired_openings("alquerque", {}), paired_openings("xiangqi", {})
    (True, False)
    """
    v = rules.variant(key)
    return model_for(v, v.start(**options)).paired_balanced_openings


def points(record: GameRecord, seat: int) -> float:
    """The seat's points: 1/½/0 with two seats; with more, the share of the other seats
    ranked below it (ties half)."""
    return place_share(record.ranking, seat, len(record.levels) - 1)


def run(key: str, options: dict[str, object], levels: Sequence[int], *, games: int,
        seed: int = 0, seconds: float | None = None, fairy: bool = True,
        records: IO[str] | None = None,
        progress: Callable[[int, int, dict[int, Score]], None] | None = None,
        first: int = 0, floors: bool = False) -> dict[int, Score]:
    """Play ``games`` games rotating ``levels`` over the seats; the score per level.

    ``first`` numbers the first game: a run of games ``first`` .. ``first + games - 1``
    plays exactly those games of a longer run with the same seed (seats, deals and
    seeds follow the game's number), so one run can be split over processes.
    ``floors`` as :func:`play_game`'s."""
    v = rules.variant(key)
    seats = v.seat_count(**options)
    if len(levels) != seats:
        raise ValueError(f"{key} with {options or 'its default options'} has {seats} "
                         f"seats: give {seats} levels, not {len(levels)}")
    scores: dict[int, Score] = {level: Score() for level in levels}
    deals = "seed" in v.options and "seed" not in options and "arrangement" not in options \
        and options.get("setup", "random") == "random"
    paired = not deals and paired_openings(key, options)
    # the seatings that differ: two for [a, b] and [a, b, a, b] (a rotation by two
    # seats seats them the same, and would replay a game between levels that make no
    # mistakes), four for four levels
    seatings = next(n for n in range(1, seats + 1)
                    if list(levels[n:]) + list(levels[:n]) == list(levels))
    for done, g in enumerate(range(first, first + games), start=1):
        seated = [levels[(s + g) % seats] for s in range(seats)]
        game_options = options
        if deals:  # each deal once from every seat: the luck of the deal evens out
            deal = random.Random(f"selfplay-deal:{seed}:{g // seats}").randrange(2**31)
            game_options = {**options, "seed": deal}
        # paired openings: each opening played once from every seating (games
        # ``seatings * k`` .. ``seatings * k + seatings - 1`` share one), so its bias for
        # a seat evens out; the engine's own choices still follow the game's seed
        opening_seed = f"selfplay-opening:{seed}:{g // seatings}" if paired else None
        record = play_game(key, game_options, seated, seed=seed * 1_000_003 + g,
                           seconds=seconds, fairy=fairy, opening_seed=opening_seed,
                           floors=floors)
        for seat, level in enumerate(seated):
            score = scores[level]
            score.games += 1
            if seat in record.winners:
                score.wins += 1
            elif not record.winners:
                score.draws += 1
            else:
                score.losses += 1
            score.points += points(record, seat)
        for level, secs in record.move_seconds:
            scores[level].seconds.append(secs)
        if records is not None:
            records.write(record.to_json() + "\n")
            records.flush()
        if progress is not None:
            progress(done, games, scores)
    return scores


# --------------------------------------------------------------------------- command line


def _option(text: str) -> tuple[str, object]:
    key, sep, value = text.partition("=")
    if not sep or not key:
        raise argparse.ArgumentTypeError(f"{text!r} is not KEY=VALUE")
    parsed: object = int(value) if value.lstrip("-").isdigit() else value
    return key.strip(), parsed


def _levels(text: str) -> list[int]:
    try:
        levels = [int(t) for t in text.split(",")]
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"{text!r}: levels are numbers 0..8 like 5,4") from None
    if not 2 <= len(levels) <= 4 or any(not 0 <= lv <= 8 for lv in levels):
        raise argparse.ArgumentTypeError(f"{text!r}: two to four levels, each 0..8")
    return levels


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The ``selfplay`` options (shared by ``tablero selfplay`` and ``python -m``)."""
    parser.add_argument("game", help="the game key (tablero games lists them)")
    parser.add_argument("--option", action="append", type=_option, default=[],
                        metavar="KEY=VALUE", help="a start option, e.g. players=4 (repeat)")
    parser.add_argument("--levels", type=_levels, required=True,
                        help="one level per seat, 0 (random moves) to 8, e.g. 5,4")
    parser.add_argument("--games", type=int, required=True, help="how many games")
    parser.add_argument("--movetime", type=int, default=None, metavar="MS",
                        help="time budget per engine move in milliseconds (default 2000)")
    parser.add_argument("--floors", action="store_true",
                        help="levels 7 and 8 search their node floors however short the "
                             "move time (reproducible: what the strength ladder measures); "
                             "otherwise --movetime is kept")
    parser.add_argument("--seed", type=int, default=0, help="seed: the same seed replays")
    parser.add_argument("--records", type=argparse.FileType("w"), default=None,
                        metavar="FILE", help="write one JSON line per game here")
    parser.add_argument("--no-fairy", action="store_true",
                        help="xiangqi: our own engine at levels 7-8 even if "
                             "fairy-stockfish is installed")


def main(args: argparse.Namespace, out: IO[str] | None = None,
         err: IO[str] | None = None) -> int:
    """Run ``tablero selfplay`` with parsed ``args`` (printing to stdout and stderr)."""
    out = out if out is not None else sys.stdout
    err = err if err is not None else sys.stderr
    options = dict(args.option)
    try:
        rules.variant(args.game).seat_count(**options)
    except rules.RulesError as e:
        print(f"selfplay: {e}", file=err)
        return 2
    if args.games < 1:
        print("selfplay: --games must be at least 1", file=err)
        return 2

    def bar(done: int, total: int, scores: dict[int, Score]) -> None:
        width = 30
        filled = width * done // total
        standing = "  ".join(f"L{lv} {s.points:g}" for lv, s in sorted(scores.items()))
        print(f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total}  {standing}",
              end="" if done < total else "\n", file=err, flush=True)

    seconds = None if args.movetime is None else args.movetime / 1000
    try:
        scores = run(args.game, options, args.levels, games=args.games, seed=args.seed,
                     seconds=seconds, fairy=not args.no_fairy, records=args.records,
                     progress=bar, floors=args.floors)
    except ValueError as e:
        print(f"selfplay: {e}", file=err)
        return 2
    finally:
        if args.records is not None:
            args.records.close()
    print(f"{args.game} {options or ''} levels {','.join(map(str, args.levels))}, "
          f"{args.games} games".replace("  ", " "), file=out)
    print(f"{'level':>5} {'games':>5} {'wins':>5} {'draws':>5} {'losses':>6} {'points':>7}"
          f" {'score':>6}", file=out)
    for level, s in sorted(scores.items(), reverse=True):
        print(f"{level:>5} {s.games:>5} {s.wins:>5} {s.draws:>5} {s.losses:>6} "
              f"{s.points:>7g} {100 * s.share:>5.1f}%", file=out)
    return 0


def _standalone(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m engine.selfplay")
    add_arguments(parser)
    return main(parser.parse_args(argv))


if __name__ == "__main__":
    sys.exit(_standalone())


__all__ = ["GameRecord", "Score", "add_arguments", "main", "paired_openings", "play_game",
           "points", "run"]
