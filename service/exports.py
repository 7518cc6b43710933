"""Export texts for ``history``: each game's standard file format where it has one (its
variant's :meth:`rules.Variant.export_record`: WXF with FEN for xiangqi, PDN for damas),
and ``None`` for games without one (the caller then writes Tablero's record). The web's
match page keeps its export (:func:`record_export`) and writes it on by a version's new
moves alone (``rules.records.RecordExport``)."""

from __future__ import annotations

import json
from collections.abc import Sequence

import rules
from rules import GameRecord, Outcome, Variant
from rules.records import RecordExport, export_of
from service.imported_seats import is_imported
from service.records import SPECIAL_PREFIX, MatchRecord, MatchStatus, RecordEntry
from service.states import Recent
from service.timecontrol import format_time_control


def terms_tags(rec: MatchRecord) -> dict[str, str]:
    """The tags of ``rec``'s terms (``rules.records.MATCH_TAGS``): its clock, and a claim
    or weekends off when it has them (an import reads them back)."""
    tags = {"TableroClock": format_time_control(rec.control)}
    if rec.clock.claim:
        tags["TableroClaim"] = "yes"
    if rec.clock.weekends:
        tags["TableroWeekends"] = "off"
    return tags


def unnamed(user_id: int) -> str:
    """How an export names a player whose name is not known: ``user <id>`` (a member of
    the server, by his id), or ``?`` (PGN's unknown, which an import reads as no name)
    for the player of an imported record that gave none: his id is this server's own,
    and re-imported it became his name (``user 9223370938564294905``)."""
    return "?" if is_imported(user_id) else f"user {user_id}"


def _outcome(rec: MatchRecord) -> Outcome | None:
    if rec.result is None or rec.status is not MatchStatus.FINISHED:
        return None
    return Outcome(frozenset(rec.result.winners),
                   tuple(frozenset(g) for g in rec.result.ranking), rec.result.reason)


def _players(rec: MatchRecord, v: Variant, names: Sequence[str] | None,
             user_ids: bool = True) -> dict[int, str]:
    """Each seat's player: his display name when known, else ``user <id>`` (without
    ``user_ids``: the seat's colour, as a page that never shows user ids names him)."""
    out = {s.seat: unnamed(s.user_id) if user_ids else v.seat_name(s.seat, rec.seat_count)
           for s in rec.seats if s.seat is not None}
    for seat, name in enumerate(names or ()):
        if seat in out and name and name != v.seat_name(seat, rec.seat_count):
            out[seat] = name  # (escaped in its tag: rules.records.tag_pair)
    return out


def export_record(rec: MatchRecord, entries: Sequence[RecordEntry],
                  names: Sequence[str] | None = None, *,
                  user_ids: bool = True) -> tuple[str, str] | None:
    """``(format, text)`` for games with a standard format, else None. ``names``: the
    players' display names by seat (the headers say ``user <id>`` without them, or the
    seat's colour without ``user_ids``)."""
    return exported(rec, record_export(rec, entries, names, user_ids=user_ids))


def record_export(rec: MatchRecord, entries: Sequence[RecordEntry],
                  names: Sequence[str] | None = None, *, user_ids: bool = True,
                  earlier: RecordExport | None = None) -> RecordExport | None:
    """What :func:`export_record` writes, with what writing it on needs: written on from
    ``earlier`` (the export of an earlier version of the match) by the moves after its
    own when the record only grew since, else whole; None for a game without a format."""
    v = rules.variant(rec.game)
    record = GameRecord(
        start=rec.start_text,
        moves=tuple(e.text for e in entries if not e.text.startswith(SPECIAL_PREFIX)),
        outcome=_outcome(rec), players=_players(rec, v, names, user_ids),
        event=f"Tablero match {rec.id}", date=rec.created_at.strftime("%Y.%m.%d"),
        tags={**({"Options": json.dumps(dict(rec.options), sort_keys=True)}
                 if rec.options else {}), **terms_tags(rec)})
    return export_of(v, record, earlier)


def exported(rec: MatchRecord, done: RecordExport | None) -> tuple[str, str] | None:
    """``(format, text)`` of ``done``, an export of ``rec`` (None: none)."""
    fmt = rules.variant(rec.game).record_format
    return None if done is None or fmt is None else (fmt, done.text)


Boxed = tuple[tuple[str, str] | None]
"""An export kept (boxed: a game with no standard format has None, kept too)."""


class KeptExports:
    """Each match's export (:func:`export_record`) kept by the match's version and the
    names its headers give the players (least recently used first out), with the facts
    it was written from: a new version that changed none of them (a draw offered or
    declined, a pause, a deadline) keeps the export it has, and one whose record only
    grew is written on by its new moves alone (``rules.records.RecordExport``). The web's
    match page and ``/history`` each keep their own (``user_ids``: how their headers name
    a player whose name is not known, :func:`export_record`)."""

    def __init__(self, size: int, *, user_ids: bool) -> None:
        self.user_ids = user_ids
        self._kept = Recent[int, tuple[Boxed, tuple[object, ...], RecordExport | None]](size)

    def get(self, rec: MatchRecord, names: Sequence[str] | None) -> Boxed | None:
        """The export of ``rec`` at its version, named ``names``, if kept."""
        kept = self._kept.get(rec.id, _version(rec, names))
        return None if kept is None else kept[0]

    def export(self, rec: MatchRecord, entries: Sequence[RecordEntry],
               names: Sequence[str] | None) -> tuple[str, str] | None:
        """``export_record(rec, entries, names)``, kept; raises what the exporter
        raises."""
        version = _version(rec, names)
        kept = self._kept.get(rec.id, version)
        if kept is not None:
            return kept[0][0]
        facts = (version[1], rec.game, rec.start_text, rec.created_at, rec.status,
                 rec.result, rec.seats, tuple(terms_tags(rec).items()),
                 tuple(e.text for e in entries))
        earlier = self._kept.latest(rec.id)
        if earlier is not None and earlier[1] == facts:
            return self._kept.keep(rec.id, version, earlier)[0][0]
        done = record_export(rec, entries, names, user_ids=self.user_ids,
                             earlier=earlier[2] if earlier is not None else None)
        return self._kept.keep(rec.id, version, ((exported(rec, done),), facts, done))[0][0]


def _version(rec: MatchRecord, names: Sequence[str] | None) -> tuple[int, object]:
    return rec.version, tuple(names) if names is not None else None
