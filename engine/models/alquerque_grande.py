"""Alquerque grande: two sides, four rivals, and the original rules on its board."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any, ClassVar

from engine.board import SearchBoard
from engine.levels import LEVELS, TOP, Level
from engine.models.alquerque import GRANDE_TWO_SIDES_LEVELS
from engine.models.base import GameModel, PathGameModel, Pieces, register
from engine.models.grande_board import GrandeBoard
from rules import Position
from rules.alquerque_grande import AlquerqueGrandePosition, AlquerqueGrandeVariant


class AlquerqueGrandeModel(PathGameModel):
    """Alquerque grande: the stones each seat keeps and has captured (``fast`` ranks by
    captures first), stones out of the game counting for nobody. Huffing is a rule of
    ``play``: a step that ignores a capture loses a stone, which the material sees one ply
    later, so the search weighs the capture duty by itself. Where the position offers
    only captures (the original rules' duty), quiescence does not stand pat.

    Levels 7 and 8 play with :class:`AlquerqueGrandeTopModel` (:meth:`for_level`)."""

    key = "alquerque-grande"
    mobility_weight = 2
    captures_compulsory = True  # only binds when every legal move captures
    # a first move next to the empty centre can give a stone away (up to 2.8 stones by
    # the one-ply look in ``fast``, 2 in ``slow``, 1 with two players)
    paired_balanced_openings = True
    STONE = 100
    CAPTURED_FAST = 120
    OUT = 300

    def evaluate(self, position: Position[Any], pieces: Pieces) -> tuple[int, ...]:
        seats = [piece.seat for piece in pieces.values()]  # counted in C below
        score = [self.STONE * seats.count(seat) for seat in range(position.seat_count)]
        if position.mode == "fast":
            captured = position.captured_counts() or ()
            for seat, count in enumerate(captured):
                score[seat] += self.CAPTURED_FAST * count
        for seat in position.out_seats():
            score[seat] -= self.OUT
        return tuple(score)

    def board(self, position: Position[Any]) -> SearchBoard | None:
        """The search's board (:class:`engine.models.grande_board.GrandeBoard`) for this
        model's evaluation (every model of the game's own rules shares it)."""
        if type(self).evaluate is not AlquerqueGrandeModel.evaluate \
                or not isinstance(position, AlquerqueGrandePosition):
            return None
        captured = self.CAPTURED_FAST if position.mode == "fast" else 0
        return GrandeBoard.of(position, self.STONE, captured, self.OUT)

    def for_level(self, level: Level) -> GameModel:
        """Levels 7 and 8 value a finish by its place (:class:`AlquerqueGrandeTopModel`).

        >>> from engine.levels import LEVELS
        >>> type(AlquerqueGrandeModel().for_level(LEVELS[7])).__name__
        'AlquerqueGrandeTopModel'
        >>> type(AlquerqueGrandeModel().for_level(LEVELS[6])).__name__
        'AlquerqueGrandeModel'
        """
        return _GRANDE_TOP if level.number >= 7 else self


class AlquerqueGrandeTopModel(AlquerqueGrandeModel):
    """Alquerque grande's levels 7 and 8: a finished game is worth its place.

    With four individual seats a finish the seat does not win is still not all alike:
    second of four beats last, and in ``fast`` (the game ends as soon as one seat is
    emptied or stuck, ranked by captures) such finishes are everywhere in the search.
    The levels below score every finish but a win as a loss (a shared first place
    without them even as a draw), so a deeper search that sees a rival's win coming
    stops telling its moves apart; here a finish is worth :attr:`place_value` times
    (the share of rivals finished above, ties half, less one half): last -2 000, third
    -667, second +667. Two sides (two players, ``teams``) have no places between a win
    and a loss: the same play as the levels below.

    Measured in ``fast`` (level 7 against level 6, 100 four-seat games, seat
    comparisons): 56.0 % without, 60.5 % with 4 000 (60.1 % with 12 000) in a trial;
    on the ladder 59.4 % (56.9 % without). Judging the leading rival (the evaluation
    against the best of the three instead of their mean) scored 22.5 %, the own stones
    and captures alone 42.1 %, captures at 300 instead of 120 50.9 %: the mean of the
    rivals stays.

    With four individual seats more search hardly pays (in ``fast`` level 8 scored
    32.2 % against level 7 on replayed openings and 55.4 % after 14 games with varied
    ones), so ``fast`` and ``slow`` set their levels apart by their mistakes:
    :class:`AlquerqueGrandeRivalsModel`.
    """

    place_value = 4000


class AlquerqueGrandeTwoSidesModel(AlquerqueGrandeModel):
    """Alquerque grande played by two sides (two players by the grande rules, or four in
    ``teams``): level 8 searches four times level 7's nodes, not twice
    (:data:`GRANDE_TWO_SIDES_LEVELS`, which says why).

    Not ``slow``: with four rivals on their own, four times the nodes finished a ply
    more in only half the positions and chose the same move in five of six; its levels
    are set apart by their mistakes (:class:`AlquerqueGrandeRivalsModel`).

    >>> from engine.levels import LEVELS
    >>> AlquerqueGrandeTwoSidesModel().adapt_level(LEVELS[8]).min_nodes
    24000
    >>> AlquerqueGrandeTwoSidesModel().adapt_level(LEVELS[7]) is LEVELS[7]
    True
    """

    level_changes: ClassVar[Mapping[int, Mapping[str, Any]]] = GRANDE_TWO_SIDES_LEVELS


class AlquerqueGrandeRivalsModel(AlquerqueGrandeModel):
    """Alquerque grande with four individual seats (``fast``, ``slow``): the same
    judgement, with levels of their own (:attr:`level_changes`), set apart by their
    mistakes rather than their search.

    With three rivals each on its own, looking further hardly pays:

    - ``fast`` (the game over as soon as one seat is emptied or stuck): with the varied
      openings of :class:`engine.selfplay.Opening` level 7 of the shared levels (6 000
      nodes, no mistakes) scored 47.2 % against level 6 (3 000 nodes, slips 3 % of the
      time) after 27 games, and level 8 (12 000 nodes) 55.4 % against level 7 after 14
      (both pairs cut short), and before that 32.2 % on replayed openings;
    - ``slow`` (play on until one seat is left): from six middlegames, 12 000 nodes
      finished a ply more than 6 000 in two and chose the same move in five; on the
      ladder (paired openings) the shared level 8 scored 54.2 % against level 7 and
      level 7 59.2 % against level 6 over the first 20 of their 200 games, while the
      shared levels 1-6 had each scored 65-85 % against the one below.

    What sets two levels apart here is how often they slip: each step of 0.1-0.2 in the
    slip rate scored 61-67 % over the shared levels 1-6 in ``fast``. So the levels here
    are the shared levels 1-5 moved up two (level 3 plays as the shared level 1, ...,
    level 7 as the shared level 5: 1 500 nodes, a slip one move in ten, and the place
    judgement of the levels above 6, :meth:`for_level`), level 8 is the shared top (as
    well as the time allows, no mistakes) searched best-reply
    (:class:`AlquerqueGrandeBestReplyModel`), and two levels come in below, both one ply
    without following captures (no quiescence: they leave a stone to be taken back),
    level 2 slipping 65 % of the time, level 1 always (a runner-up move within
    :data:`engine.player.SLIP_MARGIN` of the best whenever there is one).

    Trials in ``fast`` (100-200 four-seat games, openings with any quiet move): level 1
    so scored 78-79 % against random moves; without quiescence a level 2 scored 53 %
    against it slipping 85 % of the time, 61 % slipping 70 %, 70 % slipping 60 % and
    80 % slipping 40 %, and level 3 67 % against the 70 % one but 59 % against the 60 %
    one; a level 2 following captures (quiescence 1, always slipping) scored 73-78 %
    against level 1, but level 3 only 59-63 % against it. Level 8 scored 68.4 % against
    this level 7 over the ladder's seeds. The ladder itself (``bench/results/``) passes
    every pair of ``fast``: 63-79 % for levels 1-7, 64.2 % for 8 against 7, 99.2 % for
    8 against random moves (paranoid; best-reply 60.0 % and 99.5 %); ``slow``'s (paired
    openings) scores 65-79 % for levels 1-7 and 79.4 % for 8 against 7 (paranoid;
    best-reply 88.8 %).

    >>> from engine.levels import LEVELS
    >>> model = AlquerqueGrandeRivalsModel()
    >>> three = model.adapt_level(LEVELS[3])
    >>> (three.depth, three.nodes, three.slip) == (LEVELS[1].depth, LEVELS[1].nodes, 0.8)
    True
    >>> seven = model.adapt_level(LEVELS[7])
    >>> seven.nodes, seven.slip
    (1500, 0.1)
    """

    level_changes: ClassVar[Mapping[int, Mapping[str, Any]]] = {
        1: {"quiescence": 0, "noise": 300, "slip": 1.0},
        2: {"depth": 1, "nodes": 100, "min_nodes": 100, "quiescence": 0, "noise": 150,
            "slip": 0.65},
        **{number: {name: value for name, value in dataclasses.asdict(LEVELS[number - 2]).items()
                    if name not in ("number", "arrange_effort", "arrange_chain")}
           for number in range(3, 8)}}

    def for_level(self, level: Level) -> GameModel:
        """Level 8 searches best-reply (:class:`AlquerqueGrandeBestReplyModel`), level 7
        paranoid with the place judgement (:class:`AlquerqueGrandeTopModel`), in ``fast``
        and ``slow`` alike.

        >>> from engine.levels import LEVELS
        >>> type(AlquerqueGrandeRivalsModel().for_level(LEVELS[8])).__name__
        'AlquerqueGrandeBestReplyModel'
        >>> type(AlquerqueGrandeFastModel().for_level(LEVELS[8])).__name__
        'AlquerqueGrandeBestReplyModel'
        >>> type(AlquerqueGrandeRivalsModel().for_level(LEVELS[7])).__name__
        'AlquerqueGrandeTopModel'
        """
        return _GRANDE_BEST_REPLY if level.number == TOP else super().for_level(level)


class AlquerqueGrandeBestReplyModel(AlquerqueGrandeTopModel):
    """Alquerque grande's level 8 with four individual seats (``fast``, ``slow``): the
    place judgement of :class:`AlquerqueGrandeTopModel`, searched best-reply
    (:attr:`engine.models.GameModel.best_reply`, :mod:`engine.search`).

    Paranoid search turns speed into hardly any strength here: four times the nodes
    (issue 39's faster engine) is one ply more, a quarter of a round, and the level 8 so
    sped up scored 50 % in ``fast`` over 100 games (44.6 % over 40) against the level 8
    before it at 100 ms of CPU a move, 56.4 % in ``slow`` at 50 ms. Best-reply sees a
    round in two plies (depth 4, two moves of its own, where paranoid reaches 4-6 plies
    in 100 ms); with the other rivals passing it scored 52.7 % in ``fast`` over 100
    games and 48.7 % in ``slow`` over 43, with the other rivals taking their best
    capture (huffing all but forces it) 55.4 % in ``fast`` over 300 (56.2 % over the
    first 200) and 59.25 % in ``slow`` over 400 openings at 50 ms
    (``bench/results/engine-strength-2026-11-29.txt``, sections 6-11: BRS+'s quiet
    moves for the other rivals, other place and capture values (the capture worth fitted
    to level-8 games too), more mobility, and paranoid search in some positions (near
    the end, when leading, unless leading) scored less). The level 8 before it, given
    three times its time, scores 50.4 % against itself in ``fast`` and 54.3 % in
    ``slow`` (section 11): in ``fast`` thinking longer buys nothing, in ``slow`` best-reply
    at the same time is worth more than three times the time is to the paranoid search.
    Level 7
    stays paranoid, so the ladder below is unchanged; on its 12 000-node floor level 8 scored
    60.0 % against it in ``fast`` and 88.8 % in ``slow`` (paranoid: 64.2 % and 79.4 %),
    99.5 % and 99.7 % against random moves.
    """

    best_reply = True


class AlquerqueGrandeFastModel(AlquerqueGrandeRivalsModel):
    """Alquerque grande ``fast``: the rivals' levels (:class:`AlquerqueGrandeRivalsModel`),
    opened by self-play with a first move of any quiet one, as its ladder was measured
    (and passes); ``slow`` keeps the paired openings of the other Alquerque grande
    configurations."""

    paired_balanced_openings = False


_GRANDE = AlquerqueGrandeModel()
_GRANDE_TOP = AlquerqueGrandeTopModel()
_GRANDE_BEST_REPLY = AlquerqueGrandeBestReplyModel()
_GRANDE_FAST = AlquerqueGrandeFastModel()
_GRANDE_SLOW = AlquerqueGrandeRivalsModel()
_GRANDE_TWO_SIDES = AlquerqueGrandeTwoSidesModel()


@register(AlquerqueGrandeVariant, AlquerqueGrandePosition)
def _choose(position: Position[Any] | None) -> GameModel:
    """Four individual seats (``fast``, ``slow``) and two sides by the grande rules (two
    players, ``teams``) play levels of their own (:class:`AlquerqueGrandeRivalsModel`,
    :class:`AlquerqueGrandeTwoSidesModel`)."""
    if position is None:
        return _GRANDE
    if position.mode == "fast":
        return _GRANDE_FAST
    if position.mode == "slow":
        return _GRANDE_SLOW
    if position.seat_count == 2 or position.mode == "teams":
        return _GRANDE_TWO_SIDES
    return _GRANDE
