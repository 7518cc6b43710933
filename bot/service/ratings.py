"""Rating maths (openskill 6.2.0, Plackett-Luce): pure functions, no I/O.

A ladder is per guild and game; a 4-player game is its own ladder (``<key>-4``, e.g.
``alquerque-grande-4``), because four-player results say little about two-player skill.
Teams (Alquerque grande ``teams`` mode) are rated as openskill teams; ties share a rank.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from openskill.models import PlackettLuce

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
