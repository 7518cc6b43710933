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
