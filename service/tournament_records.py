"""What a repository stores of a tournament, and the Protocol it implements.

A tournament is one record (compare-and-set on ``version``, like a match): its settings,
its players in seeding order, who has withdrawn, and every game with the match that
plays it. The games are the truth the pairing and standings are computed from
(``service.tournaments``).
"""

from __future__ import annotations

import enum
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Protocol

from locales.i18n import Text, Words, _
from service.records import TournamentOutboxFn
from service.timecontrol import TimeControl, describe_time_control, with_claim, with_weekends
from service.tournaments import Format, Game, Result


class TournamentStatus(enum.Enum):
    REGISTRATION = "registration"
    RUNNING = "running"
    FINISHED = "finished"
    CANCELLED = "cancelled"


@dataclass(frozen=True, slots=True)
class TournamentGame:
    """A game of the tournament and the match that plays it (None: no match, e.g. a bye
    or a forfeit decided without play)."""

    round: int
    first: int
    second: int | None
    result: Result | None = None
    replay: int = 0
    timed_out: int | None = None
    match_id: int | None = None

    def game(self) -> Game:
        return Game(self.round, self.first, self.second, self.result, self.replay,
                    self.timed_out)

    @staticmethod
    def of(g: Game, match_id: int | None = None) -> TournamentGame:
        return TournamentGame(g.round, g.first, g.second, g.result, g.replay, g.timed_out,
                              match_id)


@dataclass(frozen=True, slots=True)
class TournamentRecord:
    id: int
    guild_id: int
    channel_id: int
    organiser_id: int
    name: str
    game: str
    options: Mapping[str, object]
    format: Format
    rounds: int | None          # Swiss: the number of rounds; else computed at start
    days_per_move: int
    rated: bool
    cap: int | None              # registration closes and play starts at this many
    registration_deadline: datetime | None
    vacation: bool
    status: TournamentStatus
    players: tuple[int, ...]     # seeding order once started (join order before)
    withdrawn: tuple[int, ...] = ()
    games: tuple[TournamentGame, ...] = ()
    round: int = 0               # the round being played (0 before the start)
    created_at: datetime | None = None
    version: int = 0
    bank: TimeControl | None = None  # a bank control (None: ``days_per_move`` per move)
    claim_win: bool = False      # a lapsed clock in its games waits for a claim
    weekends_off: bool = False   # no clock runs in its games on a player's weekend

    @property
    def control(self) -> TimeControl:
        """The time control of every game (as ``MatchRecord.control``)."""
        return self.bank or TimeControl.days(self.days_per_move)

    def games_of_round(self, rnd: int) -> list[TournamentGame]:
        return [g for g in self.games if g.round == rnd]


def describe_clock(t: TournamentRecord) -> Words:
    """The clock of ``t``'s games in words, as challenges describe theirs: ``'3 days per
    move'``, ``'3 days + 1 day per move, at most 10 days banked, claim win on time'``,
    ``'3 days per move, weekends off'``."""
    return with_weekends(with_claim(describe_time_control(t.control), t.claim_win),
                         t.weekends_off)


def vacation_words(t: TournamentRecord) -> Text:
    """Whether vacation pauses the clocks of ``t``'s games, for its post."""
    return _("vacation allowed") if t.vacation else _("no vacation")


class TournamentRepository(Protocol):
    """Tournament persistence; ``save_tournament`` is compare-and-set on
    ``before.version`` (``service.errors.Conflict`` when another writer was first)
    and keeps the index from match ids to tournaments in the same transaction."""

    async def create_tournament(self, record: TournamentRecord) -> TournamentRecord: ...

    async def load_tournament(self, tournament_id: int) -> TournamentRecord | None: ...

    async def save_tournament(self, before: TournamentRecord, after: TournamentRecord,
                              outbox: TournamentOutboxFn | None = None
                              ) -> TournamentRecord: ...

    async def tournaments_in(self, guild_id: int | None,
                             statuses: Sequence[TournamentStatus] = ()
                             ) -> list[TournamentRecord]:
        """Tournaments of a guild (None: every guild), newest first; statuses empty =
        any."""
        ...

    async def tournament_of_match(self, match_id: int) -> int | None: ...
