"""Ratings: the maths (openskill 6.2.0, Plackett-Luce; pure functions) and ``Ratings``,
the service's collaborator that turns a finished match into a ``RatingChange`` for the
repository and reports each player's change afterwards.

A ladder is per guild and game; a 4-player game is its own ladder (``<key>-4``, e.g.
``alquerque-grande-4``), because four-player results say little about two-player skill.
Teams (Alquerque grande ``teams`` mode) are rated as openskill teams; ties share a rank.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from datetime import datetime
from functools import partial

from openskill.models import PlackettLuce

from service.errors import StorageError
from service.matches import team_of
from service.ports import Repository
from service.records import (
    MatchRecord,
    RatingChange,
    ResultRecord,
)
from service.views import RatingUpdate

log = logging.getLogger(__name__)

_MODEL = PlackettLuce()
DEFAULT_MU: float = _MODEL.mu
DEFAULT_SIGMA: float = _MODEL.sigma


def ladder_key(game: str, seat_count: int) -> str:
    """``xiangqi`` -> ``xiangqi``; a 4-player game gets its own ladder."""
    return game if seat_count == 2 else f"{game}-{seat_count}"


def rate_groups(current: Mapping[int, tuple[float, float] | None],
                teams: Sequence[Sequence[int]], ranks: Sequence[int]
                ) -> dict[int, tuple[float, float]]:
    """New ``(mu, sigma)`` per user after a match where ``teams`` (lists of users) finished
    with ``ranks`` (lower is better; equal ranks tie).

    >>> new = rate_groups({1: None, 2: None}, [[1], [2]], [1, 2])
    >>> new[1][0] > new[2][0]
    True
    """
    objects = []
    for team in teams:
        members = []
        for user in team:
            value = current.get(user)
            mu, sigma = value if value is not None else (DEFAULT_MU, DEFAULT_SIGMA)
            members.append(_MODEL.rating(mu=mu, sigma=sigma))
        objects.append(members)
    rated = _MODEL.rate(objects, ranks=[float(r) for r in ranks])
    result: dict[int, tuple[float, float]] = {}
    for team, team_ratings in zip(teams, rated, strict=True):
        for user, r in zip(team, team_ratings, strict=True):
            result[user] = (float(r.mu), float(r.sigma))
    return result


class _RateCapture:
    """The rating function handed to the repository; it remembers what it was given and
    what it returned (inside the repository's transaction), so the service can report
    each player's change without reading the ratings again."""

    def __init__(self, teams: Sequence[Sequence[int]], ranks: Sequence[int]) -> None:
        self.teams = teams
        self.ranks = ranks
        self.current: Mapping[int, tuple[float, float] | None] = {}
        self.new: Mapping[int, tuple[float, float]] = {}

    def __call__(self, current: Mapping[int, tuple[float, float] | None]
                 ) -> Mapping[int, tuple[float, float]]:
        self.current = dict(current)
        self.new = rate_groups(current, self.teams, self.ranks)
        return self.new


class Ratings:
    """Rated results: what to write when a rated match ends, and what changed."""

    def __init__(self, repository: Repository) -> None:
        self.repository = repository

    @staticmethod
    def change(rec: MatchRecord, result: ResultRecord, at: datetime | None = None
               ) -> RatingChange | None:
        """The rating change a result brings (None for a casual match): teams are
        openskill teams, equal places share a rank, and no winners is a draw for all.
        ``at``: when the match ended (it counts in the season holding that instant)."""
        if not rec.rated:
            return None
        # a seat the computer took over after a timeout is unrated (issue 43)
        users_by_seat = {s.seat: s.user_id for s in rec.seats if s.seat is not None
                         and rec.clock.stand_in_since(s.user_id) is None}
        rank_of_seat = {seat: i for i, group in enumerate(result.ranking) for seat in group}
        groups: dict[object, list[int]] = {}
        for seat in sorted(users_by_seat):
            team = team_of(rec, seat)
            groups.setdefault(("team", team) if team is not None else ("seat", seat),
                              []).append(seat)
        teams = [[users_by_seat[s] for s in seats] for seats in groups.values()]
        ranks = [min(rank_of_seat.get(s, len(result.ranking)) for s in seats) + 1
                 for seats in groups.values()]
        outcomes = {user: result.outcome_of(seat) for seat, user in users_by_seat.items()}
        return RatingChange(rec.guild_id, rec.ladder, outcomes, _RateCapture(teams, ranks),
                            at, partial(rate_groups, teams=teams, ranks=ranks))

    async def updates(self, rec: MatchRecord, change: RatingChange | None
                      ) -> tuple[RatingUpdate, ...]:
        """Each rated player's change after ``change`` was saved, in seat order."""
        if change is None or not isinstance(change.rate, _RateCapture):
            return ()
        capture = change.rate
        out = []
        for s in sorted((s for s in rec.seats if s.seat is not None),
                        key=lambda s: s.seat or 0):
            new = capture.new.get(s.user_id)
            if new is None or s.user_id not in change.results:
                continue
            old = capture.current.get(s.user_id)
            mu0, sigma0 = old if old is not None else (DEFAULT_MU, DEFAULT_SIGMA)
            try:
                found = await self.repository.rank_of(change.guild_id, change.ladder,
                                                      s.user_id)
            except StorageError as e:  # the outage is the repository's to log, once
                log.debug("rank read failed for match %s: %s", rec.id, e.message)
                found = None
            except Exception:  # the result is stored; a failed rank read only hides it
                log.exception("rank read failed for match %s", rec.id)
                found = None
            out.append(RatingUpdate(
                s.user_id, change.ladder, mu0 - 3 * sigma0, new[0] - 3 * new[1], mu0, new[0],
                found[0] if found is not None else None, change.results[s.user_id],
                first=old is None, games=found[1].games if found is not None else None))
        return tuple(out)
