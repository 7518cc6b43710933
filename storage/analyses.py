"""The analyses ``/analysis`` made (``AnalysisStore``: issue 40's graph on the web page,
issue 42's result picture), in memory and in SQL (``SqlRepository`` and
``MemoryRepository`` inherit them): one row per match, the curve and the costly moves as
JSON (they are read and written whole, never searched).

>>> from datetime import UTC, datetime
>>> from locales.analysis import CostKind
>>> a = MatchAnalysis(7, datetime(2026, 3, 1, tzinfo=UTC), 2, 8, 400, 0.25,
...                   (EvalPoint(0, 0, 30), EvalPoint(1, 1, -999_998, -1)),
...                   (AnalysedMove(1, 1, 22, "c3-d4", "b2-c3", 999_998,
...                                 CostKind.ALLOWED_LOSS, 1),))
>>> _analysis_of(7, a.made_at.timestamp(), *_row(a)[2:]) == a
True
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from datetime import datetime
from typing import Any

from locales.analysis import CostKind
from service.views import AnalysedMove, EvalPoint, MatchAnalysis
from storage.times import moment


def _row(a: MatchAnalysis) -> tuple[Any, ...]:
    """``a`` as the columns of ``analyses``, in order."""
    curve = [[p.ply, p.seat, p.centipawns, p.end] for p in a.curve]
    costly = [[m.ply, m.seat, m.user, m.move, m.better, m.lost, m.kind.value, m.amount]
              for m in a.costly]
    return (a.match_id, a.made_at.timestamp(), a.plies, a.level, a.nodes, a.seconds,
            json.dumps(curve, separators=(",", ":")),
            json.dumps(costly, separators=(",", ":"), ensure_ascii=False))


def _analysis_of(match_id: int, made_at: float, plies: int, level: int, nodes: int | None,
                 seconds: float, curve: str, costly: str) -> MatchAnalysis:
    return MatchAnalysis(
        int(match_id), _moment(made_at), int(plies), int(level),
        None if nodes is None else int(nodes), float(seconds),
        tuple(EvalPoint(int(ply), int(seat), int(cp), None if end is None else int(end))
              for ply, seat, cp, end in json.loads(curve)),
        tuple(AnalysedMove(int(ply), int(seat), None if user is None else int(user),
                           str(move), str(better), int(lost), CostKind(kind), int(amount))
              for ply, seat, user, move, better, lost, kind, amount in json.loads(costly)))


def _moment(value: float) -> datetime:
    when = moment(float(value))
    assert when is not None
    return when


class MemoryAnalyses:
    """The analyses in a dict (``MemoryRepository``)."""

    def __init__(self) -> None:
        super().__init__()
        self._analyses: dict[int, MatchAnalysis] = {}

    async def save_analysis(self, analysis: MatchAnalysis) -> None:
        self._analyses[analysis.match_id] = analysis

    async def analysis_of(self, match_id: int) -> MatchAnalysis | None:
        return self._analyses.get(match_id)


class SqlAnalyses:
    """The analyses in SQL (``SqlRepository``: SQLite and PostgreSQL), through the
    repository's write transaction and read helpers."""

    _exec: Callable[..., Awaitable[Any]]
    _transaction: Callable[[Callable[[], Awaitable[Any]]], Awaitable[Any]]
    _all: Callable[..., Awaitable[list[Any]]]

    async def save_analysis(self, analysis: MatchAnalysis) -> None:
        async def body() -> None:
            await self._exec(
                "INSERT INTO analyses (match_id, made_at, plies, level, nodes, seconds, "
                "curve, costly) VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (match_id) DO "
                "UPDATE SET made_at = excluded.made_at, plies = excluded.plies, "
                "level = excluded.level, nodes = excluded.nodes, seconds = excluded.seconds, "
                "curve = excluded.curve, costly = excluded.costly", _row(analysis))
        await self._transaction(body)

    async def analysis_of(self, match_id: int) -> MatchAnalysis | None:
        rows = await self._all(
            "SELECT match_id, made_at, plies, level, nodes, seconds, curve, costly "
            "FROM analyses WHERE match_id = ?", (match_id,))
        return _analysis_of(*rows[0]) if rows else None
