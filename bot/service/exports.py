"""Export texts for ``history``: WXF with FEN for xiangqi, PDN for damas (through the game
modules' own helpers, imported lazily so a game that is not installed costs nothing), and
``None`` for games without a standard format (the caller then writes Tablero's record)."""

from __future__ import annotations

import importlib
from collections.abc import Callable, Sequence
from typing import Any

import rules
from bot.service.records import SPECIAL_PREFIX, MatchRecord, RecordEntry
from rules import Outcome

Exporter = Callable[[MatchRecord, Sequence[RecordEntry], Sequence[str] | None],
                    tuple[str, str]]


def _outcome(rec: MatchRecord) -> Outcome | None:
    if rec.result is None or rec.status.value != "finished":
        return None
    return Outcome(frozenset(rec.result.winners),
                   tuple(frozenset(g) for g in rec.result.ranking), rec.result.reason)


def _players(rec: MatchRecord, names: Sequence[str] | None) -> dict[int, str]:
    """Each seat's player: his display name when known, else ``user <id>``."""
    out = {s.seat: f"user {s.user_id}" for s in rec.seats if s.seat is not None}
    v = rules.variant(rec.game)
    for seat, name in enumerate(names or ()):
        if seat in out and name and name != v.seat_name(seat, rec.seat_count):
            out[seat] = name.replace('"', "'")
    return out


def _xiangqi(rec: MatchRecord, entries: Sequence[RecordEntry],
             seat_names: Sequence[str] | None) -> tuple[str, str]:
    module: Any = importlib.import_module("rules.xiangqi")
    v = rules.variant("xiangqi")
    p = v.from_text(rec.start_text)
    names = _players(rec, seat_names)
    outcome = _outcome(rec)
    result = "*"
    if outcome is not None:
        result = "1/2-1/2" if outcome.is_draw else ("1-0" if 0 in outcome.winners else "0-1")
    lines = ['[Game "Chinese Chess"]', f'[Red "{names.get(0, "?")}"]',
             f'[Black "{names.get(1, "?")}"]', f'[Result "{result}"]',
             f'[FEN "{rec.start_text}"]', '[Format "WXF"]', "", "START{"]
    ply = 0
    row: list[str] = []
    for e in entries:
        if e.text.startswith(SPECIAL_PREFIX):
            continue
        move = v.parse_move(p, e.text)
        row.append(module.format_wxf(p, move))
        p = p.play(move)
        ply += 1
        if ply % 2 == 0:
            lines.append(f"{ply // 2:3d}. " + "  ".join(row))
            row = []
    if row:
        lines.append(f"{ply // 2 + 1:3d}. " + "  ".join(row))
    lines += ["}END", f"FINAL FEN: {p.to_text()}"]
    return "wxf", "\n".join(lines) + "\n"


def _damas(rec: MatchRecord, entries: Sequence[RecordEntry],
           seat_names: Sequence[str] | None) -> tuple[str, str]:
    module: Any = importlib.import_module("rules.damas")
    names = _players(rec, seat_names)
    moves = [e.text for e in entries if not e.text.startswith(SPECIAL_PREFIX)]
    text: str = module.export_pdn(
        moves, outcome=_outcome(rec), start=rec.start_text,
        headers={"White": names.get(0, "?"), "Black": names.get(1, "?"),
                 "Event": f"Tablero match {rec.id}",
                 "Date": rec.created_at.strftime("%Y.%m.%d")})
    return "pdn", text


EXPORTERS: dict[str, Exporter] = {"xiangqi": _xiangqi, "damas": _damas}


def export_record(rec: MatchRecord, entries: Sequence[RecordEntry],
                  names: Sequence[str] | None = None) -> tuple[str, str] | None:
    """``(format, text)`` for games with a standard format, else None. ``names``: the
    players' display names by seat (the headers say ``user <id>`` without them)."""
    exporter = EXPORTERS.get(rec.game)
    return exporter(rec, entries, names) if exporter is not None else None
