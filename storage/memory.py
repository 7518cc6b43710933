"""An in-memory repository: the same contract as SQLite, for tests and quick runs.

Every method runs without awaiting anything in between its checks and its writes, so on
one event loop each call is atomic, like a transaction.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping, Sequence
from datetime import datetime, timedelta

from service.errors import Conflict
from service.records import (
    ConditionalLine,
    Downtime,
    Follow,
    MatchRecord,
    MatchStatus,
    OutboxEntry,
    OutboxFn,
    PostedMessage,
    RatingChange,
    RatingRecord,
    RecordEntry,
    VacationRecord,
    special_entries,
)
from service.shards import shard_of
from service.views import GuildSettings, UserPrefs
from storage.analyses import MemoryAnalyses
from storage.blocks import MemoryBlocks
from storage.counts import MoveCounts
from storage.explorer import MemoryExplorer
from storage.imported import MemoryImportedPlayers
from storage.puzzles import MemoryPuzzles
from storage.seasons import MemorySeasons
from storage.tournaments import MemoryTournaments


class MemoryRepository(MemoryAnalyses, MemoryBlocks, MemoryExplorer, MemoryImportedPlayers,
                       MemoryPuzzles, MemorySeasons, MemoryTournaments):
    """Dicts behind the ``Repository`` and ``TournamentRepository`` Protocols."""

    def __init__(self) -> None:
        super().__init__()
        self.counts = MoveCounts()
        self._matches: dict[int, MatchRecord] = {}
        self._entries: dict[int, list[RecordEntry]] = {}
        self._ratings: dict[tuple[int, str, int], RatingRecord] = {}
        self._guilds: dict[int, GuildSettings] = {}
        self._prefs: dict[int, UserPrefs] = {}
        self._web_epochs: dict[int, int] = {}  # /web revoke: each user's link generation
        self._beats: dict[tuple[int, int], datetime] = {}  # (shard count, shard id): beat
        self._leases: dict[int, tuple[str, datetime, int]] = {}  # shard: owner, beat, count
        self._names: dict[tuple[int, int], str] = {}
        self._next_id = 1
        self._outbox: dict[int, OutboxEntry] = {}
        self._next_entry = 1
        self._dms_closed: dict[int, bool] = {}  # user -> told yet
        self._posts: dict[tuple[int, str], PostedMessage] = {}  # (match, kind) -> post
        self._vacations: dict[int, VacationRecord] = {}
        self._lines: dict[int, ConditionalLine] = {}
        self._next_line = 1
        self._notes: dict[tuple[int, int], str] = {}
        self._follows: list[Follow] = []
        self._digests: dict[tuple[int, int], datetime] = {}  # (user, guild) -> next one
        self._rematches: dict[int, int] = {}  # match -> its rematch

    async def remember_name(self, guild_id: int, user_id: int, name: str,
                            seen_at: datetime) -> None:
        self._names[guild_id, user_id] = name

    async def known_names(self, guild_id: int | None = None
                          ) -> list[tuple[int, int, str]]:
        return [(g, u, n) for (g, u), n in self._names.items()
                if guild_id is None or g == guild_id]

    def _store_outbox(self, stored: MatchRecord, outbox: OutboxFn | None) -> None:
        self._store_entries(outbox(stored) if outbox is not None else ())

    def _store_entries(self, entries: Iterable[OutboxEntry]) -> None:
        for entry in entries:
            self._outbox[self._next_entry] = dataclasses.replace(entry, id=self._next_entry)
            self._next_entry += 1

    async def create_match(self, record: MatchRecord, outbox: OutboxFn | None = None,
                           entries: Sequence[RecordEntry] = ()) -> MatchRecord:
        if record.import_key is not None and \
                await self.imported_match(record.guild_id, record.import_key) is not None:
            raise Conflict(f"guild {record.guild_id} holds import {record.import_key} already")
        stored = dataclasses.replace(record, id=self._next_id, version=1,
                                     specials=special_entries(entries))
        self._next_id += 1
        self._matches[stored.id] = stored
        self._entries[stored.id] = list(entries)
        self._store_outbox(self._with_prefs(stored), outbox)
        return stored

    def _with_prefs(self, rec: MatchRecord) -> MatchRecord:
        """``rec`` with each participant's notification choice, time zone and rating on
        the match's ladder (read with the match, as the SQLite repository does in the
        same statement)."""
        seats = tuple(dataclasses.replace(
            s, notify=self._prefs[s.user_id].notify if s.user_id in self._prefs
            else "mention",
            time_zone=self._prefs[s.user_id].time_zone if s.user_id in self._prefs
            else None,
            rating=self._ratings.get((rec.guild_id, rec.ladder, s.user_id)))
            for s in rec.seats)
        users = {s.user_id for s in rec.seats}
        followers = tuple(sorted({
            f.user_id for f in self._follows
            if f.match_id == rec.id or (f.guild_id == rec.guild_id and f.player_id in users)}))
        lines = sum(1 for line in self._lines.values() if line.match_id == rec.id)
        return dataclasses.replace(rec, seats=seats, followers=followers, conditionals=lines,
                                   specials=special_entries(self._entries.get(rec.id, ())))

    async def load_match(self, match_id: int) -> MatchRecord | None:
        found = self._matches.get(match_id)
        return self._with_prefs(found) if found is not None else None

    async def load_entries(self, match_id: int, *, start: int = 0,
                           stop: int | None = None) -> list[RecordEntry]:
        return [e for e in self._entries.get(match_id, ())
                if e.ply >= start and (stop is None or e.ply < stop)]

    async def load_texts_of(self, stops: Mapping[int, int]) -> dict[int, list[str]]:
        return {i: [e.text for e in await self.load_entries(i, stop=stop)]
                for i, stop in stops.items()}

    async def save(self, before: MatchRecord, after: MatchRecord,
                   append: Sequence[RecordEntry] = (),
                   ratings: RatingChange | None = None,
                   outbox: OutboxFn | None = None) -> MatchRecord:
        current = self._matches.get(before.id)
        if current is None or current.version != before.version:
            raise Conflict(f"match {before.id} changed")
        entries = self._entries[before.id]
        taken = {e.ply for e in entries}
        if any(e.ply in taken for e in append):
            raise Conflict(f"match {before.id}: ply already played")
        new_ratings = []
        season_ratings = []
        if ratings is not None:
            keys = {u: (ratings.guild_id, ratings.ladder, u) for u in ratings.results}
            new_ratings = ratings.rows_after({u: self._ratings.get(k)
                                              for u, k in keys.items()})
            season_ratings = self._credit_plan(ratings)
        stored = dataclasses.replace(after, id=before.id, version=before.version + 1,
                                     specials=special_entries((*entries, *append)))
        self._matches[before.id] = stored
        entries.extend(append)
        entries.sort(key=lambda e: e.ply)
        for r in new_ratings:
            self._ratings[(r.guild_id, r.ladder, r.user_id)] = r
        self._season_ratings.update(season_ratings)
        self._store_outbox(stored, outbox)
        self.counts.stored(after.game, append)
        return stored

    @property
    def moves_stored(self) -> Mapping[str, int]:
        """The moves stored since it was made (the operator's metrics)."""
        return self.counts.moves_stored

    @property
    def refusals(self) -> Mapping[str, int]:
        """Requests refused by kind: none (memory never fails)."""
        return {}

    async def save_vacation(self, vacation: VacationRecord,
                            changes: Sequence[tuple[MatchRecord, MatchRecord, OutboxFn]]
                            ) -> tuple[VacationRecord, list[MatchRecord]]:
        for before, _, _ in changes:  # checked first: all or nothing
            current = self._matches.get(before.id)
            if current is None or current.version != before.version:
                raise Conflict(f"match {before.id} changed")
        if vacation.id and vacation.id not in self._vacations:
            raise KeyError(vacation.id)
        stored = vacation if vacation.id else dataclasses.replace(
            vacation, id=len(self._vacations) + 1)
        self._vacations[stored.id] = stored
        saved = [await self.save(b, a, outbox=o) for b, a, o in changes]
        return stored, saved

    async def vacations_of(self, guild_id: int, user_id: int, since: datetime
                           ) -> list[VacationRecord]:
        return sorted((v for v in self._vacations.values()
                       if v.guild_id == guild_id and v.user_id == user_id
                       and (v.started_at >= since or v.until > since)),
                      key=lambda v: (v.started_at, v.id))

    async def match_in_thread(self, thread_id: int) -> MatchRecord | None:
        found = [m for m in self._matches.values() if m.thread_id == thread_id]
        return self._with_prefs(max(found, key=lambda m: m.id)) if found else None

    async def matches_of(self, user_id: int, guild_id: int | None = None,
                         statuses: Sequence[MatchStatus] = ()) -> list[MatchRecord]:
        return sorted(
            (self._with_prefs(m) for m in self._matches.values()
             if (guild_id is None or m.guild_id == guild_id)
             and (not statuses or m.status in statuses)
             and any(s.user_id == user_id for s in m.seats)),
            key=lambda m: -m.id)

    async def open_challenges(self, guild_id: int) -> list[MatchRecord]:
        return sorted(
            (self._with_prefs(m) for m in self._matches.values()
             if m.guild_id == guild_id and m.status.is_waiting
             and len(m.seats) < m.seat_count),
            key=lambda m: -m.id)

    async def live_matches(self, guild_id: int, limit: int) -> list[MatchRecord]:
        return sorted((self._with_prefs(m) for m in self._matches.values()
                       if m.guild_id == guild_id and m.status is MatchStatus.ACTIVE),
                      key=lambda m: -m.id)[:max(0, limit)]

    async def unfinished_imports(self, guild_id: int, limit: int) -> list[MatchRecord]:
        return sorted((self._with_prefs(m) for m in self._matches.values()
                       if m.guild_id == guild_id and m.import_key is not None
                       and m.status is MatchStatus.ABORTED),
                      key=lambda m: -m.id)[:max(0, limit)]

    async def due_matches(self, now: datetime) -> list[MatchRecord]:
        return sorted(
            (self._with_prefs(m) for m in self._matches.values()
             if m.status is MatchStatus.ACTIVE and (
                 (m.deadline is not None and m.deadline <= now)
                 or (m.remind_at is not None and m.remind_at <= now))),
            key=lambda m: m.id)

    async def match_ids(self) -> list[int]:
        return sorted(self._matches)

    def _last_beat(self, shard_id: int, shard_count: int) -> datetime | None:
        """The shard's own beat or one of another shard count (as ``storage.sql``)."""
        found = [at for (count, shard), at in self._beats.items()
                 if (count, shard) == (shard_count, shard_id) or count != shard_count]
        return max(found, default=None)

    async def heartbeat(self, shard_id: int = 0, shard_count: int = 1) -> datetime | None:
        return self._last_beat(shard_id, shard_count)

    async def beat(self, now: datetime, shard_ids: Sequence[int] = (0,),
                   shard_count: int = 1) -> None:
        for shard in shard_ids:
            self._beats[shard_count, shard] = now

    async def lease_shards(self, shard_ids: Sequence[int], shard_count: int, owner: str,
                           now: datetime, stale: timedelta) -> list[int]:
        live = {s: held for s, held in self._leases.items()
                if held[0] != owner and held[1] >= now - stale}
        taken = sorted(s for s in live if s in shard_ids or live[s][2] != shard_count)
        if not taken:
            for s in shard_ids:
                self._leases[s] = (owner, now, shard_count)
        return taken

    async def release_shards(self, owner: str) -> None:
        self._leases = {s: held for s, held in self._leases.items() if held[0] != owner}

    async def extend_clocks(self, downtime: Downtime, outbox: OutboxFn | None = None, *,
                            shard_id: int = 0, shard_count: int = 1
                            ) -> list[MatchRecord] | None:
        if self._last_beat(shard_id, shard_count) != downtime.since:
            return None
        out = []
        for match_id, m in sorted(self._matches.items()):
            if m.status is MatchStatus.ACTIVE and m.deadline is not None and \
                    shard_of(m.guild_id, shard_count) == shard_id:
                # read with its players' time zones as they are now (as SQL reads it),
                # not as they were when it was last saved
                moved = downtime.moved(self._with_prefs(m))
                if moved is None:
                    continue  # every clock of it was paused by a vacation throughout
                m = dataclasses.replace(moved, seats=m.seats, version=m.version + 1)
                self._matches[match_id] = m
                out.append(self._with_prefs(m))
                self._store_outbox(out[-1], outbox)
        self._beats[shard_count, shard_id] = downtime.now
        return out

    async def pending_outbox(self, match_id: int | None = None, limit: int = 100
                             ) -> list[OutboxEntry]:
        found = [e for _, e in sorted(self._outbox.items())
                 if match_id is None or e.match_id == match_id]
        return found[:limit]

    async def mark_delivered(self, entry_id: int) -> None:
        self._outbox.pop(entry_id, None)

    async def set_dms_closed(self, user_id: int, closed: bool) -> None:
        if not closed:
            self._dms_closed.pop(user_id, None)
        elif user_id not in self._dms_closed:
            self._dms_closed[user_id] = False

    async def dms_closed_untold(self) -> list[int]:
        return sorted(u for u, told in self._dms_closed.items() if not told)

    async def dms_closed_told(self, user_id: int) -> None:
        if user_id in self._dms_closed:
            self._dms_closed[user_id] = True

    async def remember_post(self, match_id: int, kind: str, post: PostedMessage) -> None:
        self._posts[match_id, kind] = post

    async def post_of(self, match_id: int, kind: str) -> PostedMessage | None:
        return self._posts.get((match_id, kind))

    async def forget_post(self, match_id: int, kind: str) -> None:
        self._posts.pop((match_id, kind), None)

    def _ladder(self, guild_id: int, ladder: str) -> list[RatingRecord]:
        rows = [r for (g, l_, _), r in self._ratings.items() if g == guild_id and l_ == ladder]
        return sorted(rows, key=_ladder_order)

    async def leaderboard(self, guild_id: int, ladder: str, offset: int,
                          limit: int) -> tuple[list[RatingRecord], int]:
        rows = self._ladder(guild_id, ladder)
        return rows[offset:offset + limit], len(rows)

    async def rank_of(self, guild_id: int, ladder: str,
                      user_id: int) -> tuple[int, RatingRecord] | None:
        mine = self._ratings.get((guild_id, ladder, user_id))
        if mine is None:
            return None
        better = sum(1 for r in self._ladder(guild_id, ladder)
                     if _ladder_order(r)[:2] < _ladder_order(mine)[:2])
        return better + 1, mine

    async def ratings_of(self, guild_id: int, user_id: int) -> list[RatingRecord]:
        return sorted((r for (g, _, u), r in self._ratings.items()
                       if g == guild_id and u == user_id), key=lambda r: r.ladder)

    async def get_guild_settings(self, guild_id: int) -> GuildSettings | None:
        return self._guilds.get(guild_id)

    async def save_guild_settings(self, settings: GuildSettings) -> None:
        kept = self._guilds.get(settings.guild_id)  # the schedule: ``change_seasons``'s
        self._guilds[settings.guild_id] = dataclasses.replace(
            settings, seasons=kept.seasons if kept is not None else settings.seasons)

    async def get_user_prefs(self, user_id: int) -> UserPrefs | None:
        return self._prefs.get(user_id)

    async def save_user_prefs(self, prefs: UserPrefs) -> None:
        known = self._prefs.get(prefs.user_id)
        self._prefs[prefs.user_id] = dataclasses.replace(
            prefs, locale=known.locale if known is not None else None,
            time_zone=known.time_zone if known is not None else None)

    async def web_epoch(self, user_id: int) -> int:
        return self._web_epochs.get(user_id, 0)

    async def revoke_web_links(self, user_id: int) -> int:
        self._web_epochs[user_id] = self._web_epochs.get(user_id, 0) + 1
        return self._web_epochs[user_id]

    async def remember_locale(self, user_id: int, locale: str) -> None:
        known = self._prefs.get(user_id) or UserPrefs(user_id)
        self._prefs[user_id] = dataclasses.replace(known, locale=locale)

    async def set_time_zone(self, user_id: int, zone: str | None) -> None:
        known = self._prefs.get(user_id) or UserPrefs(user_id)
        self._prefs[user_id] = dataclasses.replace(known, time_zone=zone)

    async def close(self) -> None:
        return None

    # ------------------------------------------------------------------ comforts

    async def take_back(self, before: MatchRecord, after: MatchRecord,
                        outbox: OutboxFn | None = None) -> MatchRecord:
        current = self._matches.get(before.id)
        if current is None or current.version != before.version or current.ply != before.ply:
            raise Conflict(f"match {before.id} changed")
        kept = [e for e in self._entries[before.id] if e.ply < after.ply]
        stored = dataclasses.replace(after, id=before.id, version=before.version + 1,
                                     conditionals=0, specials=special_entries(kept))
        self._matches[before.id] = stored
        self._entries[before.id] = kept
        self._lines = {k: v for k, v in self._lines.items() if v.match_id != before.id}
        self._store_outbox(self._with_prefs(stored), outbox)
        return stored

    async def add_conditional_lines(self, match_id: int, user_id: int, start_ply: int,
                                    lines: Sequence[Sequence[str]], now: datetime
                                    ) -> list[ConditionalLine]:
        out = []
        for moves in lines:
            line = ConditionalLine(self._next_line, match_id, user_id, start_ply,
                                   tuple(moves), now)
            self._lines[line.id] = line
            self._next_line += 1
            out.append(line)
        return out

    async def conditional_lines(self, match_id: int) -> list[ConditionalLine]:
        return [line for _, line in sorted(self._lines.items()) if line.match_id == match_id]

    async def delete_conditional_lines(self, match_id: int, user_id: int | None = None,
                                       ids: Sequence[int] | None = None) -> int:
        gone = [k for k, line in self._lines.items() if line.match_id == match_id
                and (user_id is None or line.user_id == user_id)
                and (ids is None or k in ids)]
        for k in gone:
            del self._lines[k]
        return len(gone)

    async def matches_with_conditionals(self) -> list[int]:
        due = set()
        for line in self._lines.values():
            m = self._matches.get(line.match_id)
            if m is None:
                continue
            if m.status is not MatchStatus.ACTIVE or (
                    m.ply > line.start_ply and (m.ply - line.start_ply) % 2 == 1):
                due.add(line.match_id)
        return sorted(due)

    async def set_note(self, match_id: int, user_id: int, text: str | None,
                       now: datetime) -> None:
        if text is None:
            self._notes.pop((match_id, user_id), None)
        else:
            self._notes[match_id, user_id] = text

    async def note_of(self, match_id: int, user_id: int) -> str | None:
        return self._notes.get((match_id, user_id))

    async def add_follow(self, follow: Follow) -> bool:
        if follow in self._follows:
            return False
        self._follows.append(follow)
        return True

    async def remove_follow(self, follow: Follow) -> bool:
        if follow not in self._follows:
            return False
        self._follows.remove(follow)
        return True

    async def follows_of(self, user_id: int, guild_id: int) -> list[Follow]:
        return [f for f in self._follows if f.user_id == user_id and f.guild_id == guild_id]

    async def set_digest(self, user_id: int, guild_id: int,
                         next_at: datetime | None) -> None:
        if next_at is None:
            self._digests.pop((user_id, guild_id), None)
        else:
            self._digests[user_id, guild_id] = next_at

    async def digest_of(self, user_id: int, guild_id: int) -> datetime | None:
        return self._digests.get((user_id, guild_id))

    async def due_digests(self, now: datetime, limit: int = 100
                          ) -> list[tuple[int, int, datetime]]:
        due = sorted((t, u, g) for (u, g), t in self._digests.items() if t <= now)
        return [(u, g, t) for t, u, g in due[:limit]]

    async def advance_digest(self, user_id: int, guild_id: int, was: datetime,
                             next_at: datetime, entries: Sequence[OutboxEntry]) -> bool:
        if self._digests.get((user_id, guild_id)) != was:
            return False
        self._digests[user_id, guild_id] = next_at
        self._store_entries(entries)
        return True

    async def create_rematch(self, original_id: int, record: MatchRecord,
                             outbox: OutboxFn | None = None) -> MatchRecord | None:
        waiting = self._rematches.get(original_id)
        if waiting is not None and self._matches[waiting].status.is_live:
            return None
        stored = await self.create_match(record, outbox)
        self._rematches[original_id] = stored.id
        return stored

    async def rematch_of(self, match_id: int) -> int | None:
        return self._rematches.get(match_id)

    async def rematch_source(self, rematch_id: int) -> int | None:
        return next((m for m, r in self._rematches.items() if r == rematch_id), None)


def _ladder_order(r: RatingRecord) -> tuple[bool, float, int]:
    """Established players first (``RatingRecord.provisional``), then by ordinal."""
    return (r.provisional, -r.ordinal, r.user_id)
