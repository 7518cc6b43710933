"""The shared vocabulary of every game: errors, outcomes, the Variant/Position bases, and
the registry of variants.

A game module subclasses :class:`Variant` and :class:`Position` (positions are immutable
values, usually frozen dataclasses) and registers one Variant instance per key with
:func:`register`. The registry lives here, not in a module of its own, because an error's
English sentence names a game by the registered variant's name: errors, variants and the
registry are one layer, below notation and the games (the import contracts hold it so).
"""

from __future__ import annotations

import itertools
from abc import ABC, abstractmethod
from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, ClassVar, Generic, NamedTuple, cast

from typing_extensions import TypeVar

from rules.messages import MESSAGES
from rules.noted import note_heads
from rules.noted import squash as squash

# --------------------------------------------------------------------------- errors


@dataclass(frozen=True, slots=True)
class Detail:
    """Why the rules refuse something, as data: a stable ``code`` (snake_case, one per
    concept across every game: ``"empty_point"`` is "no piece on {point}" in each of
    them) and the ``params`` its sentence names. ``message`` is the English sentence,
    formatted from the code's one template (``rules.messages.MESSAGES``), so English text
    and code cannot drift; other languages map the same code to their own sentence.

    >>> d = detail("occupied", point="c3")
    >>> d.code, dict(d.params), d.message
    ('occupied', {'point': 'c3'}, 'c3 is occupied')
    >>> detail("must_capture", moves=("a1xc3", "e1xc3")).message
    'a capture is compulsory: a1xc3 or e1xc3'
    """

    code: str
    params: Mapping[str, Param]

    @property
    def message(self) -> str:
        """The English sentence (:data:`rules.messages.MESSAGES` filled with ``params``)."""
        return MESSAGES[self.code].format_map(
            {name: _english(name, value) for name, value in self.params.items()})


Param = str | int | tuple[str, ...] | Detail
"""A value a :class:`Detail` names: notation (a point ``'c3'``, a move, the quoted input),
a number, an English game word whose param name says what it is (``game`` a variant key,
said by the game's name; ``seat`` / ``other`` a seat's name like ``'Red'``; ``piece`` a
piece kind like ``'horse'``; ``ending`` an ``Outcome.reason``), a tuple of alternatives
(moves, values: "a, b or c"), or a nested detail."""


def detail(code: str, /, **params: Param) -> Detail:
    """A :class:`Detail`; ``code`` must be a key of ``rules.messages.MESSAGES`` and
    ``params`` its placeholders (a test checks every call in the rules core).

    >>> detail("off_board", point="j1", last="i10").message
    'j1 is off the board (a1 to i10)'
    """
    return Detail(code, MappingProxyType(dict(params)))


def _english(name: str, value: Param) -> str:
    if name in ("game", "named_game") and isinstance(value, str):
        found = _VARIANTS.get(value)
        return found.name if found is not None else value
    if isinstance(value, Detail):
        return value.message
    if isinstance(value, tuple):
        return value[0] if len(value) == 1 else ", ".join(value[:-1]) + " or " + value[-1]
    return str(value)


class RulesError(ValueError):
    """Base of every error the rules core raises about user input.

    ``text`` is the input that was refused (a move string, a position text...), so a
    caller can quote it back. The message is written to be shown to a person (in
    English). Built from a :class:`Detail`, the error also says why as data: ``code``
    (stable, snake_case) and ``params`` (what the sentence names), so an application can
    say it in its reader's language; ``message`` and ``str(exc)`` are the English
    sentence. Built from a plain message (as callers outside the core may), ``code`` is
    ``""`` and ``params`` empty.

    >>> str(RulesError("no such point", text="z9"))
    'no such point'
    >>> e = IllegalMoveError(detail("occupied", point="c4"), text="c3-c4")
    >>> e.message, e.code, dict(e.params), e.text
    ('c4 is occupied', 'occupied', {'point': 'c4'}, 'c3-c4')
    """

    code: str
    """Why, for programs: a key of ``rules.messages.MESSAGES`` (``""`` when uncoded)."""
    params: Mapping[str, Param]
    """The values the message names, by placeholder (see :data:`Param`)."""

    def __init__(self, message: str | Detail, *, text: str | None = None) -> None:
        if isinstance(message, Detail):
            self.code, self.params, message = message.code, message.params, message.message
        else:
            self.code, self.params = "", MappingProxyType({})
        super().__init__(message)
        self.message = message
        self.text = text

    @property
    def detail(self) -> Detail:
        """The coded reason, to raise again as another error class or to nest."""
        return Detail(self.code, self.params)

    def __reduce__(self) -> tuple[Any, ...]:
        # pickled across the engine's process pool: keep the code and params
        state = {**self.__dict__, "params": dict(self.params)}
        return (_restored, (type(self), self.message, state))


def _restored(cls: type[RulesError], message: str, state: dict[str, Any]) -> RulesError:
    error = cls.__new__(cls)
    ValueError.__init__(error, message)
    error.__dict__.update(state, params=MappingProxyType(state["params"]))
    return error


class NotationError(RulesError):
    """The text is not a move in any notation the game understands."""


class IllegalMoveError(RulesError):
    """The text names a move, but it is not legal here; the message says why."""


class AmbiguousMoveError(RulesError):
    """The text matches several legal moves; ``candidates`` lists their canonical strings."""

    def __init__(self, message: str | Detail, *, text: str | None = None,
                 candidates: Sequence[str] = ()) -> None:
        super().__init__(message, text=text)
        self.candidates = tuple(candidates)


class PositionError(RulesError):
    """A position text is malformed or describes an impossible position."""


class OptionError(RulesError):
    """An unknown option, or an invalid value for a known one, was passed to ``start``."""


class UnknownVariantError(RulesError):
    """``rules.variant(key)`` was asked for a key that is not registered."""


class SeatSkipError(RulesError):
    """:meth:`Variant.skip_seat` cannot put that seat out: the game cannot go on without
    a seat (every two-seat game), it is over, or the seat is none of its own or out."""


# --------------------------------------------------------------------------- outcome


REASONS: dict[str, str] = {
    "checkmate": "checkmate",
    "stalemate": "stalemate, no legal move",
    "perpetual-check": "perpetual check",
    "repetition": "repetition",
    "move-limit": "move limit reached",
    "no-moves": "opponent cannot move",
    "no-pieces": "opponent out of pieces",
    "all-removed": "all stones removed",
    "no-chains": "no chain can be formed",
    "three-kings": "three kings could not win in 13 moves",
    "last-player": "last player left",
    "both-teams-out": "both teams out",
    # ends decided outside the rules (the match service)
    "resignation": "opponent resigned",
    "timeout": "opponent ran out of time",
    # a leaving that ends a game ranked on its own terms (Alquerque grande ``fast``): the
    # leaver may lead and win, so never "opponent resigned" (RULES §2.4)
    "resignation-ranked": "a player resigned; ranked on captures",
    "timeout-ranked": "a player ran out of time; ranked on captures",
    "agreement": "agreed",
    # a record's result, as an imported file says it (issue 44)
    "recorded": "as recorded",
}
"""Every ``Outcome.reason`` key (the games' and the service's) in words for people."""


def reason_text(reason: str) -> str:
    """An outcome reason in words, for messages and images; unknown keys lose their dashes.

    >>> reason_text("no-pieces"), reason_text("timeout"), reason_text("aborted: no move")
    ('opponent out of pieces', 'opponent ran out of time', 'aborted: no move')
    """
    return REASONS.get(reason, reason.replace("-", " "))


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a game ended.

    ``winners`` is empty for a draw; a team win names every seat of the team.
    ``ranking`` lists groups of seats best first; seats that tie share a group.

    >>> Outcome.win(1, seats=2, reason="checkmate").ranking
    (frozenset({1}), frozenset({0}))
    >>> Outcome.draw(seats=2, reason="repetition").winners
    frozenset()
    """

    winners: frozenset[int]
    ranking: tuple[frozenset[int], ...]
    reason: str

    @classmethod
    def win(cls, winner: int | Iterable[int], *, seats: int, reason: str) -> Outcome:
        """``winner`` (a seat or a team) first, every other seat sharing second place."""
        top = frozenset([winner]) if isinstance(winner, int) else frozenset(winner)
        rest = frozenset(range(seats)) - top
        ranking = (top, rest) if rest else (top,)
        return cls(top, ranking, reason)

    @classmethod
    def draw(cls, *, seats: int, reason: str) -> Outcome:
        """No winners; every seat shares the only place."""
        return cls(frozenset(), (frozenset(range(seats)),), reason)

    @classmethod
    def ranked(cls, ranking: Sequence[Iterable[int]], *, reason: str) -> Outcome:
        """From a full ranking; the first group wins unless it holds every seat (a draw)
        or it is shared by several seats in a game where ties at the top mean no winner
        (pass ``winners`` explicitly via the constructor in that case)."""
        groups = tuple(frozenset(g) for g in ranking if g)
        winners = groups[0] if len(groups) > 1 else frozenset()
        return cls(winners, groups, reason)

    @property
    def is_draw(self) -> bool:
        return not self.winners

    @property
    def reason_text(self) -> str:
        """The reason in words (:func:`reason_text`): ``'opponent cannot move'``."""
        return reason_text(self.reason)


# --------------------------------------------------------------------------- board views

Point = tuple[int, int]
"""``(x, y)`` with ``a1 = (0, 0)``; x grows to the right and y upwards, seen by seat 0."""


@dataclass(frozen=True, slots=True)
class Piece:
    """What stands on a point, in terms every renderer and text board understand.

    ``kind`` is the game's own short label: Xiangqi ``K A B N R C P``; draughts ``man``
    or ``king``; Alquerque ``stone``; Querni the stone's number ``'1'``..``'16'``.
    """

    seat: int
    kind: str


@dataclass(frozen=True, slots=True)
class MoveMarks:
    """The points a move touched, for highlighting it: every point visited in order
    (start, each landing point), the points whose pieces it captured, and the points
    whose pieces left the board otherwise (a huff, a Querni removal)."""

    path: tuple[Point, ...]
    captured: tuple[Point, ...] = ()
    removed: tuple[Point, ...] = ()


class PathMove(NamedTuple):
    """A move that walks a path: the points visited (start, then every landing point) and
    the points whose pieces it captures, in the order it captures them.

    Games with jump captures (the Alquerque lattice, draughts) share it; each game says
    how its points are numbered. A plain tuple underneath, so it is hashable, compares by
    value and is cheap to build in move generators.

    >>> m = PathMove((0, 12, 4), (6, 8))
    >>> m.start, m.end, m.is_capture
    (0, 4, True)
    """

    path: tuple[int, ...]
    captured: tuple[int, ...] = ()

    @property
    def start(self) -> int:
        return self.path[0]

    @property
    def end(self) -> int:
        return self.path[-1]

    @property
    def is_capture(self) -> bool:
        return bool(self.captured)


# --------------------------------------------------------------------------- variant / position

M = TypeVar("M", bound=Hashable, default=Any)
"""A game's move type: an immutable, hashable value each game documents
(:class:`rules.xiangqi.XiangqiMove`, :class:`rules.damas.DamasMove`...)."""

P = TypeVar("P", bound="Position[Any]", default=Any)
"""A game's position type."""

Move = Hashable
"""Any game's move, where the game is not known."""


def N_(text: str) -> str:
    """Mark ``text``, English words a game declares (its name, its rules summary), for
    the translation catalogues, and return it unchanged: the rules core never translates
    (``scripts/extract_messages`` reads ``rules/`` for ``N_``; ``locales`` says them in
    the reader's language).

    >>> N_("Xiangqi")
    'Xiangqi'
    """
    return text


@dataclass(frozen=True, slots=True)
class BoardFacts:
    """What a picture of a game must show, as facts a game declares
    (:attr:`Variant.board_facts`); the renderer adds the colours, fonts and sprites.

    ``family``: ``'lines'`` (points joined by lines, pieces on intersections; with
    ``diagonals`` through the points with x + y even), ``'river'`` (points, a river and
    palaces: Xiangqi), ``'squares'`` (checkered squares; ``square_numbers``: PDN numbers
    in the playing squares) or ``'cells'`` (a grid of cells; ``marked`` cells drawn
    specially, ``areas`` tinted per seat). ``pieces``: the piece style (``'stone'``,
    ``'characters'``: a character on a disc, ``'draughts'``, ``'numbered'``: stones with
    numbers), a piece filling ``piece_scale`` of the point spacing; ``kinds``: one piece
    kind of each look (the palette draws them: Xiangqi's seven, Querni's one-digit,
    two-digit and hidden stones); ``kind_names``: each kind's English word where the
    kind itself is not one (alt text: ``'K'`` -> ``'general'``).

    >>> import rules
    >>> rules.variant("querni").board_facts.marked
    ((1, 1), (8, 1), (1, 5), (8, 5))
    """

    family: str
    pieces: str
    piece_scale: float
    kinds: tuple[str, ...] = ("stone",)
    kind_names: Mapping[str, str] = field(default_factory=dict)
    marked: tuple[Point, ...] = ()
    areas: tuple[tuple[int, tuple[Point, ...]], ...] = ()
    square_numbers: bool = False
    diagonals: bool = False


@dataclass(frozen=True, slots=True)
class GameRecord:
    """A game as a standard file format needs it (:meth:`Variant.export_record`): the
    start position's text, the moves as stored (any notation ``parse_move`` reads), how
    it ended when the rules alone do not say (resignation, agreement, time; None while it
    runs or when the final position says), each seat's player, the event and date
    (``YYYY.MM.DD``) for the headers, and more tags (a match's options and terms:
    ``rules.records.MATCH_TAGS``), written after the format's own."""

    start: str
    moves: tuple[str, ...]
    outcome: Outcome | None = None
    players: Mapping[int, str] = field(default_factory=dict)
    event: str = "?"
    date: str = "????.??.??"
    tags: Mapping[str, str] = field(default_factory=dict)


class Position(ABC, Generic[M]):
    """An immutable game position. Subclasses are frozen dataclasses of one game.

    Besides the abstract core (moves, outcome, text, pieces) a position answers every
    game fact a caller may ask, with a default here that the games which have the fact
    override: :meth:`captured_counts`, :meth:`removed_counts`, :meth:`out_seats`,
    :attr:`teams`, :attr:`mode`, :meth:`checked_point`, :meth:`last_removal`, and the
    setup-phase protocol :attr:`in_setup`, :meth:`has_submitted`, :meth:`view_for`.

    >>> import rules
    >>> p = rules.variant("damas").start()
    >>> p.seat_count, p.in_setup, p.out_seats(), p.teams, p.checked_point()
    (2, False, frozenset(), (), None)
    """

    @property
    @abstractmethod
    def variant(self) -> Variant[Any, M]:
        """The variant this position belongs to."""

    @property
    def seat_count(self) -> int:
        """How many seats the game has: 2, unless the game says otherwise (Alquerque
        grande with four players)."""
        return 2

    @property
    @abstractmethod
    def to_move(self) -> frozenset[int]:
        """The seats to move: one seat, two during a Querni ``choose`` setup, none at the end."""

    @abstractmethod
    def legal_moves(self) -> Sequence[M]:
        """Every legal move (empty once the game is over)."""

    @abstractmethod
    def play(self, move: M) -> Position[M]:
        """The position after ``move``; ``self`` is unchanged. Raises IllegalMoveError."""

    @abstractmethod
    def outcome(self) -> Outcome | None:
        """``None`` while the game goes on."""

    @abstractmethod
    def to_text(self) -> str:
        """One line holding the whole game state; ``variant.from_text`` reads it back."""

    @abstractmethod
    def pieces(self) -> Mapping[Point, Piece]:
        """Every occupied point and what stands there (for renderers and text boards)."""

    def forced_move(self) -> M | None:
        """The move the seat to move must make when it is his only legal move and the
        rules say it is made for him (Querni's forced pass, RULES §5: the service plays
        it at once and announces it); None otherwise, and by default.

        >>> import rules
        >>> rules.variant("xiangqi").start().forced_move() is None
        True
        """
        return None

    @property
    def mover(self) -> int:
        """The single seat to move (raises if none or several are)."""
        seats = self.to_move
        if len(seats) != 1:
            raise ValueError(f"{len(seats)} seats are to move, not exactly one")
        (seat,) = seats
        return seat

    # ------------------------------------------------------------------ game facts

    def captured_counts(self) -> tuple[int, ...] | None:
        """Per seat, how many enemy pieces it has captured; ``None`` in a game that
        captures nothing (Querni takes its own stones off: :meth:`removed_counts`).

        >>> import rules
        >>> v = rules.variant("xiangqi")
        >>> p = v.start()
        >>> for text in ("h3-h10", "i10-h10"):
        ...     p = p.play(v.parse_move(p, text))
        >>> p.captured_counts()
        (1, 1)
        """
        return None

    def removed_counts(self) -> tuple[int, ...] | None:
        """Per seat, how many of its own pieces it has taken off the board, in a game
        where that is the aim (Querni); ``None`` elsewhere and while the numbers are
        secret (a setup phase).

        >>> import rules
        >>> rules.variant("querni").start(seed=1).removed_counts()
        (0, 0)
        """
        return None

    def out_seats(self) -> frozenset[int]:
        """The seats that are out of the game while others play on (Alquerque grande with
        four players, ``teams`` and ``slow``); empty in every other game.

        >>> import rules
        >>> rules.variant("alquerque-grande").start(players=4).out_seats()
        frozenset()
        """
        return frozenset()

    def skipped_seats(self) -> frozenset[int]:
        """The seats whose turns are skipped for the rest of the game, their player gone
        (:meth:`Variant.skip_seat`); they are among :meth:`out_seats` too. Empty in every
        game that cannot skip a seat, and by default."""
        return frozenset()

    @property
    def teams(self) -> tuple[frozenset[int], ...]:
        """The teams, when seats play in teams that win and lose together (Alquerque
        grande ``teams``: seats 0 and 2 against 1 and 3); ``()`` when every seat plays
        for itself.

        >>> import rules
        >>> rules.variant("alquerque-grande").start(players=4, mode="teams").teams
        (frozenset({0, 2}), frozenset({1, 3}))
        """
        return ()

    def team_mate(self, seat: int) -> int | None:
        """The other seat of ``seat``'s team, or ``None`` without teams.

        >>> import rules
        >>> rules.variant("alquerque-grande").start(players=4).team_mate(1)
        3
        """
        for team in self.teams:
            if seat in team:
                return next((s for s in sorted(team) if s != seat), None)
        return None

    @property
    def mode(self) -> str | None:
        """The named rule set in force when the game offers several (Alquerque grande
        with four players: ``'teams'``, ``'fast'`` or ``'slow'``); ``None`` otherwise."""
        return None

    @property
    def rule_set(self) -> str | None:
        """Which of the game's rule sets for the same seats this position is played by,
        in words for people, when the game offers several (Alquerque grande with two
        players: the original Alquerque rules or the author's); ``None`` otherwise.

        >>> import rules
        >>> rules.variant("alquerque-grande").start(players=2, rules="grande").rule_set
        'the grande rules (steps in any direction, huffing)'
        """
        return None

    def checked_point(self) -> Point | None:
        """The point of the royal piece that is in check (Xiangqi: the general of the
        side to move, also after a checkmate); ``None`` in games without check.

        >>> import rules
        >>> v = rules.variant("xiangqi")
        >>> v.from_text("4k4/9/9/9/9/9/9/9/4R4/3K5 b - - 0 1").checked_point()
        (4, 9)
        """
        return None

    def last_removal(self) -> tuple[Point, ...]:
        """The points whose pieces the move that led here took off the board other than
        by capturing them (Alquerque grande: the huffed stone), so a board drawn without
        the last move's marks still shows it; ``()`` when there were none.

        >>> import rules
        >>> v = rules.variant("alquerque-grande")
        >>> rows = ["......."] * 3 + ["...B...", "...W...", ".......", "......W"]
        >>> p = v.from_text("/".join(rows) + " w -,- 0,0 - 0 - players=2 -")
        >>> p.play(v.parse_move(p, "g1-f1")).last_removal()
        ((3, 2),)
        """
        return ()

    # ------------------------------------------------------------------ setup phase

    @property
    def in_setup(self) -> bool:
        """Whether the game is in a setup phase, where each seat hands in a secret
        arrangement (Querni ``choose``) instead of moving: :meth:`has_submitted`,
        :meth:`view_for` and :meth:`Variant.parse_arrangement` then apply."""
        return False

    def has_submitted(self, seat: int) -> bool:
        """In a setup phase, whether ``seat`` has handed in its arrangement (never what
        it is); ``False`` outside one.

        >>> import rules
        >>> v = rules.variant("querni")
        >>> p = v.start(setup="choose")
        >>> p = p.play(v.parse_arrangement(p, 1, " ".join(map(str, range(1, 17)))))
        >>> p.in_setup, p.has_submitted(0), p.has_submitted(1)
        (True, False, True)
        """
        return False

    def setup_cells(self, seat: int) -> tuple[Point, ...]:
        """In a setup phase, the points ``seat``'s arrangement is written over, in the
        order it is written (what a player arranges, e.g. by tapping them); ``()``
        outside one.

        >>> import rules
        >>> v = rules.variant("querni")
        >>> v.start(setup="choose").setup_cells(0)[:3], v.start().setup_cells(0)
        (((0, 0), (1, 0), (2, 0)), ())
        """
        return ()

    def view_for(self, seat: int) -> Position[M]:
        """This position as ``seat`` may see it: another seat's secret (a submitted
        arrangement) hidden. Outside a setup phase every seat sees everything: ``self``."""
        return self


class Variant(ABC, Generic[P, M]):
    """One playable game (a registry entry): a factory of positions plus notation.

    ``options`` maps each start option to its allowed values, the default first (an
    empty tuple: any value, the game checks it); ``example_options`` are the option sets
    the conformance suite plays; ``rules_version`` changes when a rule change would make
    stored games replay differently.

    >>> import rules
    >>> v = rules.variant("alquerque-grande")
    >>> v.rules_version, v.seat_count(players=2), v.seat_count()
    ('2', 2, 4)
    >>> v.option_sets()[-1], v.teams(players=4, mode="fast")
    ({'players': 2, 'rules': 'grande'}, ())
    """

    key: ClassVar[str]
    name: ClassVar[str]
    """The game's name in English, marked with :func:`N_` (people read it translated)."""
    summary: ClassVar[str] = ""
    """The game's rules in a few sentences for ``/rules`` (Discord markdown: ``**bold**``,
    ```code```), in English, marked with :func:`N_`; every registered game has one (a
    test checks)."""
    board_size: ClassVar[tuple[int, int]]
    board_facts: ClassVar[BoardFacts]
    """What a picture of the board shows (:class:`BoardFacts`)."""
    """``(files, ranks)`` of the board, e.g. ``(9, 10)`` for Xiangqi."""
    options: ClassVar[Mapping[str, tuple[object, ...]]] = {}
    example_options: ClassVar[tuple[Mapping[str, object], ...]] = ({},)
    rules_version: ClassVar[str] = "1"
    """The version of this game's rules, stored with every match (a game bumps it when
    a rule change would make stored games replay differently; :meth:`start_recorded`
    still starts the older versions)."""
    recorded_versions: ClassVar[tuple[str, ...]] = ("1",)
    """Every rules version :meth:`start_recorded` can start, oldest first."""
    removal_word: ClassVar[str] = "removed"
    """What :attr:`MoveMarks.removed` points mean here, as a past participle for people:
    ``'huffed'`` (Alquerque grande), ``'removed'`` (Querni)."""
    worth_unit: ClassVar[str] = "piece"
    """The piece ``/analysis`` counts a move's cost in, the one the engine's scores count
    as 100: ``'stone'`` (Alquerque, Querni), ``'man'`` (draughts), ``'soldier'``
    (Xiangqi); ``'piece'`` for a game that names none (a game has no pawns unless it
    has them)."""

    @abstractmethod
    def start(self, **options: Any) -> P:
        """The start position for ``options`` (see the game's RULES section)."""

    def start_recorded(self, rules_version: str, **options: Any) -> P:
        """The start position of a match recorded under ``rules_version`` with
        ``options``: the game as it was played by that version's rules, so a stored match
        keeps the rules it began with and its record still replays. Positions carry their
        rules from there on (``play``, ``parse_move`` and the rest need no version).

        The base knows only the current version; a game that changed its rules
        overrides this. Raises OptionError for a version the game never had.

        >>> import rules
        >>> rules.variant("xiangqi").start_recorded("1").to_move
        frozenset({0})
        """
        if rules_version != self.rules_version:
            raise OptionError(detail("unknown_rules_version", game=self.key,
                                     version=str(rules_version),
                                     versions=tuple(self.recorded_versions)))
        return self.start(**options)

    @abstractmethod
    def from_text(self, text: str) -> P:
        """Read a position text; raises PositionError."""

    @abstractmethod
    def format_move(self, position: P, move: M) -> str:
        """The canonical string of a legal ``move`` in ``position`` (RULES §6)."""

    @abstractmethod
    def parse_move(self, position: P, text: str) -> M:
        """Forgiving input: the legal move ``text`` names, or NotationError /
        IllegalMoveError / AmbiguousMoveError."""

    @abstractmethod
    def move_marks(self, position: P, move: M) -> MoveMarks:
        """The points ``move`` (legal in ``position``) touches, for highlighting it."""

    def display_move(self, position: P, move: M) -> str:
        """The move as shown to people (canonical form plus any alternative notation or
        side effect). Defaults to the canonical string."""
        return self.format_move(position, move)

    def parse_noted_move(self, position: P, text: str) -> M:
        """:meth:`parse_move`, also reading the display form people copy from a post
        (``h3-e3 (C2.5)``, ``b7-a8 (28-32) crowned``): when the whole text is no move,
        the part before its trailing note is read, and the note must be the one
        :meth:`display_move` shows for that move.

        >>> import rules
        >>> v = rules.variant("xiangqi")
        >>> p = v.start()
        >>> v.format_move(p, v.parse_noted_move(p, "h3-e3 (C2.5)"))
        'h3-e3'
        >>> v.parse_noted_move(p, "h3-e3 (C2.4)")  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        rules.core.NotationError: 'h3-e3 (C2.4)' is not one move: ... written h3-e3 (C2.5)
        """
        try:
            return self.parse_move(position, text)
        except NotationError as whole:
            first_error: RulesError = whole
        for head in note_heads(text):
            try:
                move = self.parse_move(position, head)
            except NotationError:
                continue
            display = self.display_move(position, move)
            note = text.strip()[len(head):].strip()
            canonical = self.format_move(position, move)
            shown_note = display[len(canonical):] if display.startswith(canonical) else None
            if squash(display) == squash(text) or (
                    shown_note is not None and squash(shown_note) == squash(note)):
                return move
            if display == canonical:
                raise NotationError(detail("move_has_no_note", input=text.strip(),
                                           move=canonical, note=note), text=text)
            raise NotationError(detail("wrong_move_note", input=text.strip(), move=canonical,
                                       note=note, written=display), text=text)
        raise first_error

    def parse_arrangement(self, position: P, seat: int, text: str) -> M:
        """In a setup phase (:attr:`Position.in_setup`), the move that hands in
        ``seat``'s arrangement written as ``text``; games without a setup phase raise
        IllegalMoveError.

        >>> import rules
        >>> v = rules.variant("xiangqi")
        >>> v.parse_arrangement(v.start(), 0, "1 2 3")
        Traceback (most recent call last):
        ...
        rules.core.IllegalMoveError: Xiangqi has no setup phase
        """
        raise IllegalMoveError(detail("no_setup_phase", game=self.key), text=text)

    def seat_name(self, seat: int, seat_count: int = 2) -> str:
        """A colour or role name for a seat, e.g. 'Red'."""
        return f"Seat {seat}"

    def seat_count(self, **options: Any) -> int:
        """How many seats a game started with ``options`` has (2 unless the game says
        otherwise), without starting one; raises OptionError like :meth:`start`."""
        self.check_options(options)
        return 2

    def teams(self, **options: Any) -> tuple[frozenset[int], ...]:
        """The teams of a game started with ``options`` (see :attr:`Position.teams`)."""
        self.check_options(options)
        return ()

    def option_sets(self) -> tuple[dict[str, object], ...]:
        """The option sets a menu offers, defaults first: every combination of the
        options with a fixed list of values (free ones such as Querni's seed keep their
        defaults). Games whose options depend on each other override it.

        >>> import rules
        >>> rules.variant("querni").option_sets()
        ({'setup': 'random'}, {'setup': 'choose'})
        >>> rules.variant("xiangqi").option_sets()
        ({},)
        """
        menu = {name: values for name, values in self.options.items() if values}
        names = list(menu)
        return tuple(dict(zip(names, combo, strict=True))
                     for combo in itertools.product(*(menu[n] for n in names)))

    def resign(self, position: P, seat: int) -> P | Outcome:
        """The effect of ``seat`` resigning (or running out of time).

        Two-seat games end at once: the other seat wins. Games with more seats override
        this and return the position that continues without that seat when they can.
        """
        if seat not in range(position.seat_count):
            raise ValueError(f"no seat {seat} in this game")
        others = frozenset(range(position.seat_count)) - {seat}
        return Outcome(others, (others, frozenset([seat])), "resignation")

    def skip_seat(self, position: P, seat: int) -> P:
        """``position`` with ``seat`` put out while the others play on: his turns are
        skipped from now on and he ranks last (Board Game Arena's rule for a player who
        is gone); what becomes of his pieces is the game's rule. A new position
        (``position`` is unchanged) that lists him in :meth:`Position.skipped_seats`; its
        ``outcome()`` says whether too few seats are left to go on. The hook a game with
        more than two seats overrides; the base, like every game that cannot go on
        without a seat, raises :class:`SeatSkipError`.

        >>> import rules
        >>> v = rules.variant("xiangqi")
        >>> v.skip_seat(v.start(), 1)
        Traceback (most recent call last):
        ...
        rules.core.SeatSkipError: Xiangqi cannot go on without one of its players
        """
        raise SeatSkipError(detail("no_seat_skipping", game=self.key))

    def perft(self, position: P, depth: int) -> int:
        """Leaf count of the legal move tree (games override with a fast path)."""
        if depth == 0:
            return 1
        moves = position.legal_moves()
        if depth == 1:
            return len(moves)
        return sum(self.perft(cast(P, position.play(m)), depth - 1) for m in moves)

    def check_options(self, given: Mapping[str, object]) -> dict[str, object]:
        """Validate start options against ``options``; fill in defaults.

        Options whose allowed values are an empty tuple accept anything (the game
        validates them itself, e.g. Querni's seed).
        """
        unknown = sorted(set(given) - set(self.options))
        if unknown and not self.options:
            raise OptionError(detail("no_options", game=self.key,
                                     given=tuple(map(repr, unknown))))
        if unknown:
            raise OptionError(detail("unknown_option", game=self.key,
                                     given=tuple(map(repr, unknown)),
                                     options=tuple(self.options)))
        result: dict[str, object] = {}
        for name, values in self.options.items():
            if name in given:
                value = given[name]
                if values and value not in values:
                    raise OptionError(detail("option_value", game=self.key, option=name,
                                             value=repr(value),
                                             choices=tuple(repr(v) for v in values)))
                result[name] = value
            elif values:
                result[name] = values[0]
        return result

    record_format: ClassVar[str | None] = None
    """The standard file format this game's records are exported in (``'wxf'``,
    ``'pdn'``: also the file extension), or None when it has none."""

    def export_record(self, record: GameRecord) -> str | None:
        """``record`` in :attr:`record_format`, or None for a game without a standard
        format (the caller then writes Tablero's own record). Raises RulesError on a
        record that does not replay.

        >>> import rules
        >>> rules.variant("querni").export_record(GameRecord(start="", moves=())) is None
        True
        """
        return None

    def __repr__(self) -> str:
        return f"rules.variant({self.key!r})"


# --------------------------------------------------------------------------- registry

_VARIANTS: dict[str, Variant[Any, Any]] = {}
VARIANTS: Mapping[str, Variant[Any, Any]] = MappingProxyType(_VARIANTS)
"""Every registered variant by key, in registration order (read-only)."""


V = TypeVar("V", bound=Variant[Any, Any])
"""A registered variant's own type (:func:`register` returns what it is given)."""


def register(v: V) -> V:
    """Add ``v`` under ``v.key``; a key may be registered once."""
    if v.key in _VARIANTS:
        raise ValueError(f"variant {v.key!r} is already registered")
    _VARIANTS[v.key] = v
    return v


def variant(key: str) -> Variant[Any, Any]:
    """The variant registered under ``key``.

    >>> import rules
    >>> rules.variant("nope")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    rules.core.UnknownVariantError: unknown game 'nope' (games: ...)
    """
    try:
        return _VARIANTS[key.strip().lower()]
    except (KeyError, AttributeError):
        raise UnknownVariantError(detail("unknown_game", input=str(key),
                                         games=tuple(_VARIANTS)), text=str(key)) from None
