"""The shared vocabulary of every game: errors, outcomes, and the Variant/Position bases.

A game module subclasses :class:`Variant` and :class:`Position` (positions are immutable
values, usually frozen dataclasses) and registers one Variant instance per key with
:func:`rules.registry.register`.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, NamedTuple

# --------------------------------------------------------------------------- errors


class RulesError(ValueError):
    """Base of every error the rules core raises about user input.

    ``text`` is the input that was refused (a move string, a position text...), so a
    caller can quote it back. The message is written to be shown to a person.

    >>> str(RulesError("no such point", text="z9"))
    'no such point'
    """

    def __init__(self, message: str, *, text: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.text = text


class NotationError(RulesError):
    """The text is not a move in any notation the game understands."""


class IllegalMoveError(RulesError):
    """The text names a move, but it is not legal here; the message says why."""


class AmbiguousMoveError(RulesError):
    """The text matches several legal moves; ``candidates`` lists their canonical strings."""

    def __init__(self, message: str, *, text: str | None = None,
                 candidates: Sequence[str] = ()) -> None:
        super().__init__(message, text=text)
        self.candidates = tuple(candidates)


class PositionError(RulesError):
    """A position text is malformed or describes an impossible position."""


class OptionError(ValueError):
    """An unknown option, or an invalid value for a known one, was passed to ``start``."""


class UnknownVariantError(ValueError):
    """``rules.variant(key)`` was asked for a key that is not registered."""


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
    "agreement": "agreed",
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

Move = Hashable
"""A move is a game-specific immutable, hashable value (each game documents its own)."""


class Position(ABC):
    """An immutable game position. Subclasses are frozen dataclasses of one game."""

    @property
    @abstractmethod
    def variant(self) -> Variant:
        """The variant this position belongs to."""

    @property
    @abstractmethod
    def seat_count(self) -> int:
        """How many seats the game has (2 or 4)."""

    @property
    @abstractmethod
    def to_move(self) -> frozenset[int]:
        """The seats to move: one seat, two during a Querni ``choose`` setup, none at the end."""

    @abstractmethod
    def legal_moves(self) -> Sequence[Any]:
        """Every legal move (empty once the game is over)."""

    @abstractmethod
    def play(self, move: Any) -> Position:
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

    @property
    def mover(self) -> int:
        """The single seat to move (raises if none or several are)."""
        seats = self.to_move
        if len(seats) != 1:
            raise ValueError(f"{len(seats)} seats are to move, not exactly one")
        (seat,) = seats
        return seat


class Variant(ABC):
    """One playable game (a registry entry): a factory of positions plus notation.

    ``options`` maps each start option to its allowed values, the default first; it is
    what menus offer. ``example_options`` are the option sets the conformance suite plays.
    """

    key: ClassVar[str]
    name: ClassVar[str]
    board_size: ClassVar[tuple[int, int]]
    """``(files, ranks)`` of the board, e.g. ``(9, 10)`` for Xiangqi."""
    options: ClassVar[Mapping[str, tuple[object, ...]]] = {}
    example_options: ClassVar[tuple[Mapping[str, object], ...]] = ({},)

    @abstractmethod
    def start(self, **options: Any) -> Position:
        """The start position for ``options`` (see the game's RULES section)."""

    @abstractmethod
    def from_text(self, text: str) -> Position:
        """Read a position text; raises PositionError."""

    @abstractmethod
    def format_move(self, position: Position, move: Any) -> str:
        """The canonical string of a legal ``move`` in ``position`` (RULES §6)."""

    @abstractmethod
    def parse_move(self, position: Position, text: str) -> Any:
        """Forgiving input: the legal move ``text`` names, or NotationError /
        IllegalMoveError / AmbiguousMoveError."""

    @abstractmethod
    def move_marks(self, position: Position, move: Any) -> MoveMarks:
        """The points ``move`` (legal in ``position``) touches, for highlighting it."""

    def display_move(self, position: Position, move: Any) -> str:
        """The move as shown to people (canonical form plus any alternative notation or
        side effect). Defaults to the canonical string."""
        return self.format_move(position, move)

    def seat_name(self, seat: int, seat_count: int = 2) -> str:
        """A colour or role name for a seat, e.g. 'Red'."""
        return f"Seat {seat}"

    def resign(self, position: Position, seat: int) -> Position | Outcome:
        """The effect of ``seat`` resigning (or running out of time).

        Two-seat games end at once: the other seat wins. Games with more seats override
        this and return the position that continues without that seat when they can.
        """
        if seat not in range(position.seat_count):
            raise ValueError(f"no seat {seat} in this game")
        others = frozenset(range(position.seat_count)) - {seat}
        return Outcome(others, (others, frozenset([seat])), "resignation")

    def perft(self, position: Position, depth: int) -> int:
        """Leaf count of the legal move tree (games override with a fast path)."""
        if depth == 0:
            return 1
        moves = position.legal_moves()
        if depth == 1:
            return len(moves)
        return sum(self.perft(position.play(m), depth - 1) for m in moves)

    def check_options(self, given: Mapping[str, object]) -> dict[str, object]:
        """Validate start options against ``options``; fill in defaults.

        Options whose allowed values are an empty tuple accept anything (the game
        validates them itself, e.g. Querni's seed).
        """
        unknown = sorted(set(given) - set(self.options))
        if unknown:
            allowed = ", ".join(self.options) or "none"
            raise OptionError(
                f"{self.key} has no option {', '.join(map(repr, unknown))} "
                f"(options: {allowed})")
        result: dict[str, object] = {}
        for name, values in self.options.items():
            if name in given:
                value = given[name]
                if values and value not in values:
                    choices = ", ".join(repr(v) for v in values)
                    raise OptionError(
                        f"{self.key}: {name}={value!r} is not allowed (choose from {choices})")
                result[name] = value
            elif values:
                result[name] = values[0]
        return result

    def __repr__(self) -> str:
        return f"rules.variant({self.key!r})"
