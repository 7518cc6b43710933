"""Reading: matches, positions, board images, descriptions, lists of games, history and
records, ladders and stats, guild settings and user preferences."""

from __future__ import annotations

import asyncio
import dataclasses
import enum
import json
import logging
from collections.abc import Sequence
from datetime import datetime

from locales.i18n import DEFAULT_LOCALE, LOCALES, Words, _, negotiate, render
from locales.results import result_sentence
from rules import MoveMarks, Position, Variant
from rules.records import tag_pair
from service import texts
from service.boards import draw_board
from service.core import MAX_DAYS, MIN_DAYS, ServiceCore
from service.errors import InvalidOption, MatchBroken, NotAllowed
from service.exports import KeptExports, terms_tags, unnamed
from service.ids import MAX_ID
from service.plies import PlyBoard, at_ply, drawn, reader_seat, setting_up
from service.records import (
    LIVE_STATUSES,
    SPECIAL_PREFIX,
    MatchRecord,
    MatchStatus,
    RatingRecord,
    RecordEntry,
)
from service.seasons import NoSuchSeason, SeasonRecord
from service.states import ladder_of, public_view
from service.timecontrol import (
    MAX_PAUSES_RATED,
    MAX_VACATION_DAYS,
    TimeControlError,
    format_time_control,
    parse_time_control,
)
from service.turns import rezoned
from service.views import (
    BoardImage,
    BoardState,
    Caller,
    GameRecord,
    GlanceBoard,
    GuildSettings,
    HistoryView,
    LeaderboardEntry,
    LeaderboardPage,
    MatchView,
    PlayerStats,
    UserPrefs,
)
from service.weekends import checked_zone

log = logging.getLogger(__name__)

NOTIFY_CHOICES = ("mention", "dm")
GLANCE_BOARDS = 9
"""The most boards ``glance`` gives: one grid picture of three by three."""
HISTORY_EXPORTS = 256
"""The most matches whose /history export is kept (by version) to be written on."""


class Unchanged(enum.Enum):
    """A setting ``update_guild_settings`` leaves as it is: no text, so nothing typed
    can mean it (the sentinel was the word "keep": ``/settings language:keep`` changed
    nothing and said the settings)."""

    KEEP = "keep"


KEEP = Unchanged.KEEP


class Queries:
    """Everything that reads: views, images, lists, history, ladders,
    settings and preferences."""

    def __init__(self, core: ServiceCore) -> None:
        self.repository = core.repository
        self.clock = core.clock
        self.renderer = core.renderer
        self.states = core.states
        self.get_guild_settings = core.get_guild_settings
        self._variant = core.variant
        self._check_text = core.check_text
        self._record = core.record
        self._scored = core.as_scored  # what is shown of an old tournament abort
        self._view = core.view
        self._entries = core.entries
        self._replayed_record = core.replayed_record
        self._replayed = core.replayed
        self._read_state = core.read_state
        self._seat_names = core.seat_names
        self._drawn_names = core.drawn_names
        self._locales_seen: dict[int, str] = {}  # user -> the locale stored for him
        self._save = core.save
        self._retrying = core.retrying
        self._exports = KeptExports(HISTORY_EXPORTS, user_ids=True)  # /history's exports

    async def get_match(self, match_id: int, caller: Caller | None = None) -> MatchView:
        """The match; with a ``caller`` only where he may see it (``Caller.may_see``,
        checked by the service's door, ``ids.checked_ids``), else ``MatchNotFound`` as
        if there were none (adapters always pass one)."""
        return self._view(await self._scored(await self._record(match_id)))

    async def match_in_thread(self, thread_id: int) -> MatchView | None:
        rec = await self.repository.match_in_thread(thread_id)
        return self._view(rec) if rec is not None else None

    async def position(self, match_id: int, caller: Caller | None = None
                       ) -> tuple[Position, MoveMarks | None]:
        """The current position and the last move's marks (for boards)."""
        _rec, state = await self._read_state(match_id)
        return public_view(state.position), state.last_marks

    async def board_image(self, match_id: int, perspective: int | None = None,
                          caller: Caller | None = None, locale: str = DEFAULT_LOCALE
                          ) -> BoardImage | None:
        """A PNG of the board through the injected renderer (None without one), its
        words in ``locale``."""
        if self.renderer is None:
            return None
        rec, state = await self._read_state(match_id)
        view = self._view(await self._scored(rec))
        return await asyncio.to_thread(
            draw_board, self.renderer, view,
            BoardState(public_view(state.position), state.last_marks, state.moves),
            self._drawn_names(view, locale), perspective, locale)

    def describe(self, match: MatchRecord | MatchView, p: Position,
                 moves: int | None = None) -> Words:
        """A one-line description of the position (alt text): whose move it is (with the
        players' names when known), or how the match ended, even when the rules did not
        end it (a resignation, a timeout, an agreed draw)."""
        view = match if isinstance(match, MatchView) else self._view(match)
        if moves is None:
            moves = self.states.moves_at(view.id, view.ply)
        return texts.describe(view, p, self._seat_names(view), moves)

    async def games_of(self, guild_id: int | None, user: int) -> list[MatchView]:
        """The user's live matches (challenges, lobbies, games): the ones waiting on him
        first (his move, or an invitation to answer), each group by the least time left
        (a lapsed claim-win clock counts from when it ran out; no clock: last)."""
        recs = await self.repository.matches_of(user, guild_id, LIVE_STATUSES)
        views = [self._view(r) for r in recs]
        far = datetime.max.replace(tzinfo=self.clock.now().tzinfo)

        def key(m: MatchView) -> tuple[int, datetime, int]:
            waiting = user in m.to_move or user in m.invited
            return (0 if waiting else 1, m.due_for(user) or far, -m.id)
        return sorted(views, key=key)

    async def glance(self, guild_id: int, user: int, limit: int = GLANCE_BOARDS
                     ) -> list[GlanceBoard]:
        """At most ``limit`` live games for ``user`` to see at a glance (``/follow``
        alone, the daily digest; issue 42): his own games in this server (those waiting
        on him first, least time left first), then the matches he follows, then the
        games of the players he follows; each with its board as anybody may see it."""
        wanted: list[MatchView] = [m for m in await self.games_of(guild_id, user)
                                   if m.status is MatchStatus.ACTIVE]
        for follow in await self.repository.follows_of(user, guild_id):
            found: list[MatchRecord] = []
            if follow.match_id is not None:
                rec = await self.repository.load_match(follow.match_id)
                found = [rec] if rec is not None else []
            elif follow.player_id is not None:
                found = await self.repository.matches_of(follow.player_id, guild_id,
                                                         (MatchStatus.ACTIVE,))
            wanted += [self._view(r) for r in found
                       if r.status is MatchStatus.ACTIVE and r.guild_id == guild_id]
        out: list[GlanceBoard] = []
        for m in dict((m.id, m) for m in wanted).values():
            if len(out) >= max(0, limit):
                break
            rec, state = await self._read_state(m.id)
            view = self._view(rec)
            if view.status is not MatchStatus.ACTIVE:
                continue  # it ended since
            names = self._seat_names(view)
            out.append(GlanceBoard(view, BoardState(public_view(state.position),
                                                    state.last_marks, state.moves),
                                   tuple(names) if names is not None else None))
        return out

    async def next_game(self, guild_id: int | None, user: int, after: int | None = None
                        ) -> MatchView | None:
        """The next match where it is ``user``'s move, by least time left, after match
        ``after`` in that order (from the start again past the end; None: the first).
        None when no match waits on him."""
        mine = [m for m in await self.games_of(guild_id, user) if user in m.to_move]
        if not mine:
            return None
        ids = [m.id for m in mine]
        if after in ids:
            return mine[(ids.index(after) + 1) % len(mine)]
        return mine[0]

    async def active_matches_of(self, guild_id: int | None, user: int) -> list[MatchView]:
        """The user's matches in play (for autocomplete of a match)."""
        recs = await self.repository.matches_of(user, guild_id, (MatchStatus.ACTIVE,))
        return [self._view(r) for r in recs]

    async def open_challenges(self, guild_id: int) -> list[MatchView]:
        return [self._view(r) for r in await self.repository.open_challenges(guild_id)]

    async def history(self, match_id: int, caller: Caller | None = None) -> HistoryView:
        """The record and an export text. The replay is the one kept by version
        (:meth:`record`'s): /history asked again replays nothing, and its export is
        written on from the one kept by the moves since (none at the same version)."""
        rec = await self._scored(await self._record(match_id))
        try:
            kept = await self._replayed(rec)
        except MatchBroken:
            unplayed = await self._entries(rec)
            shown = tuple((e.ply, e.user_id, e.text, e.text) for e in unplayed)
            return HistoryView(self._view(rec), shown, "tablero",
                               self._tablero_export(rec, [(e.text, False)
                                                          for e in unplayed]))
        entries, done = kept.entries, kept.done
        fmt, export = "tablero", ""
        try:
            found = self._export(rec, entries)
        except Exception:  # an exporter bug must not hide the record
            log.exception("export failed for match %s", rec.id)
            found = None
        if found is not None:
            fmt, export = found
        shown_entries = done.entries
        if done.position.in_setup:  # a submitted arrangement stays secret until both are in
            shown_entries = tuple((ply, user, "setup", "setup submitted")
                                  for ply, user, _c, _d in shown_entries)
        if not export:
            export = self._tablero_export(
                rec, [(d, True) if c.startswith(SPECIAL_PREFIX) else (c, False)
                      for _p, _u, c, d in shown_entries])
        note = None
        if caller is not None:  # the reader's own note only, never another's
            note = await self.repository.note_of(rec.id, caller.user_id)
        return HistoryView(self._view(rec), shown_entries, fmt, export, note)

    def _export(self, rec: MatchRecord, entries: Sequence[RecordEntry]
                ) -> tuple[str, str] | None:
        """``export_record``'s, kept (:class:`KeptExports`)."""
        return self._exports.export(rec, entries, self._seat_names(self._view(rec)))

    async def record(self, match_id: int, caller: Caller | None = None) -> GameRecord:
        """The record of a match replayed ply by ply (for replays): the variant, options,
        start text and position, and each ply's move object and resulting position. A
        Querni arrangement stays hidden (``move`` None) until both are in. Raises
        ``MatchBroken`` when the record does not replay. The replay is the one kept by
        version (``states.Replays``, as :meth:`board_at`'s): a /history or an /analysis
        asked again reads the match row, and a live match that moved on is played on by
        its new moves only, not replayed from the start at each call."""
        return await self._replayed_record(await self._scored(await self._record(match_id)))

    async def board_at(self, match_id: int, ply: int | None = None,
                       caller: Caller | None = None, locale: str = DEFAULT_LOCALE
                       ) -> PlyBoard:
        """The board after ``ply`` plies of the match's record (None: the latest; 0: the
        start) with its picture in ``locale`` (none without a renderer), seen from the
        caller's seat when he plays, else the first (issue 42: the replay stepper). The
        replayed record is kept (``states.Replays``): stepping through a game reads the
        match row and draws one board, it does not replay the game at each step."""
        rec = await self._scored(await self._record(match_id))
        if rec.status.is_waiting:
            raise NotAllowed(_("match #{match} has not started yet", match=rec.id))
        record = await self._replayed_record(rec)
        board = at_ply(record, len(record.plies) if ply is None else ply)
        seat = reader_seat(record.match, caller.user_id if caller is not None else None)
        # the players named are the ply's (a continued match's first plies: the record's)
        names = self._drawn_names(board.match, locale)
        return await asyncio.to_thread(drawn, setting_up(board, names), self.renderer, names,
                                       seat, locale)

    def _tablero_export(self, rec: MatchRecord, moves: Sequence[tuple[str, bool]]) -> str:
        """Tablero's own record: headers (the players by seat, the result in words), then
        the plies; what is not a move (a resignation, a timeout, an agreed draw) is a
        ``{comment}``."""
        head = [f'[Game "{rec.game}"]', f'[Rules "{rec.rules_version}"]',
                f"[Options '{json.dumps(dict(rec.options), sort_keys=True)}']",
                f'[Start "{rec.start_text}"]', f'[Match "{rec.id}"]',
                *(tag_pair(name, value) for name, value in terms_tags(rec).items())]
        try:
            v: Variant | None = self._variant(rec.game)
        except InvalidOption:
            v = None
        names = self._seat_names(self._view(rec)) if v is not None else None
        for seat in range(rec.seat_count):
            user = rec.user_at(seat)
            if v is None or user is None:
                continue
            colour = v.seat_name(seat, rec.seat_count)
            name = names[seat] if names and names[seat] != colour else unnamed(user)
            head.append(tag_pair(colour, name))
        if rec.result is not None:
            r = rec.result

            def seats(group: Sequence[int]) -> str:
                return " and ".join(v.seat_name(s, rec.seat_count) if v is not None
                                    else f"seat {s}" for s in group)
            said = result_sentence("export", r.kind, reason=r.reason, winners=seats(r.winners),
                                   first=seats(r.ranking[0]) if r.ranking else "")
            # an exported record is a file format: its header stays English
            head.append(f'[Result "{render(said, "en-US")}"]')
        body = " ".join(f"{i + 1}. {{{text}}}" if comment else f"{i + 1}. {text}"
                        for i, (text, comment) in enumerate(moves))
        return "\n".join(head) + "\n\n" + body + "\n"

    def _ladder(self, game: str) -> str:
        return ladder_of(self._check_text(game, _("game")))

    async def leaderboard(self, guild_id: int, game: str, page: int = 1,
                          per_page: int = 10, season: int | None = None) -> LeaderboardPage:
        """A page of the all-time board of ``game``, or of season number ``season``."""
        ladder = self._ladder(game)
        if isinstance(page, bool) or not isinstance(page, int):
            raise InvalidOption(_("the page must be a number"))
        if season is not None:
            await self.season(guild_id, season)  # refuses a season the server lacks
        per_page = max(1, min(int(per_page), 50))
        offset = (page - 1) * per_page if 1 <= page <= 2**31 else 0
        if season is None:
            rows, total = await self.repository.leaderboard(guild_id, ladder, offset,
                                                            per_page)
        else:
            rows, total = await self.repository.season_board(guild_id, season, ladder,
                                                             offset, per_page)
        pages = max(1, -(-total // per_page))
        if not 1 <= page <= pages:  # every page out of range is refused alike
            raise InvalidOption(_("there is no page {page}: pages go from 1 to {pages}",
                                  page=page, pages=pages))
        entries = tuple(self._entry(offset + i + 1, r) for i, r in enumerate(rows))
        return LeaderboardPage(guild_id, ladder, page, per_page, total, entries, season)

    async def seasons(self, guild_id: int) -> list[SeasonRecord]:
        """The server's seasons, newest first (the running one, if any, first)."""
        return await self.repository.seasons_of(guild_id)

    async def season(self, guild_id: int, number: int) -> SeasonRecord:
        """Season ``number`` of the server, or ``InvalidOption`` naming the ones it has."""
        if isinstance(number, bool) or not isinstance(number, int):
            raise NoSuchSeason(_("a season is given by its number"))
        found = await self.repository.seasons_of(guild_id)
        for s in found:
            if s.number == number:
                return s
        if not found:
            raise NoSuchSeason(_("this server has no seasons yet"))
        raise NoSuchSeason(_("there is no season {number}: seasons go from 1 to {last}",
                              number=str(number), last=str(found[0].number)))

    @staticmethod
    def _entry(rank: int, r: RatingRecord) -> LeaderboardEntry:
        return LeaderboardEntry(rank, r.user_id, r.ordinal, r.mu, r.sigma, r.wins,
                                r.losses, r.draws)

    async def rank_of(self, guild_id: int, game: str, user: int) -> LeaderboardEntry | None:
        found = await self.repository.rank_of(guild_id, self._ladder(game), user)
        return None if found is None else self._entry(*found)

    async def stats(self, guild_id: int, user: int) -> PlayerStats:
        ratings = await self.repository.ratings_of(guild_id, user)
        entries: list[LeaderboardEntry] = []
        for r in ratings:
            found = await self.repository.rank_of(guild_id, r.ladder, user)
            entries.append(self._entry(found[0] if found else 0, r))
        active = await self.repository.matches_of(user, guild_id, (MatchStatus.ACTIVE,))
        return PlayerStats(guild_id, user, tuple(entries), tuple(r.ladder for r in ratings),
                           len(active))

    async def update_guild_settings(self, guild_id: int, *, default_days: int | None = None,
                                    use_threads: bool | None = None,
                                    games_channel_id: int | str | Unchanged | None = KEEP,
                                    reminders: bool | None = None,
                                    language: str | Unchanged | None = KEEP,
                                    organiser_role_id: int | str | Unchanged | None = KEEP,
                                    default_clock: str | None = None,
                                    claim_win: bool | None = None,
                                    vacation_days: int | None = None,
                                    auto_vacation: bool | None = None,
                                    takebacks_rated: bool | None = None,
                                    web: bool | None = None,
                                    weekends_off: bool | None = None,
                                    pauses_rated: int | None = None) -> GuildSettings:
        """Change some settings (``games_channel_id=None`` clears the channel,
        ``organiser_role_id=None`` the organiser role; ``language=None`` goes back to the
        server's own Discord locale). ``default_clock``: the default time control as text
        (days per move sets ``default_days`` and forgets a bank); ``vacation_days``: the
        yearly allowance (0-60); ``takebacks_rated``: rated games allow takebacks by
        consent; ``web``: its matches are shown on the web; ``weekends_off``: challenges
        default to weekends off; ``pauses_rated``: pauses by agreement a rated match
        allows (0-10). The seasons' schedule
        changes by ``configure_seasons`` (it ends and starts seasons)."""
        s = await self.get_guild_settings(guild_id)
        if language is not KEEP:
            if language is not None:
                text = self._check_text(language, _("language")).strip()
                chosen = next((x for x in LOCALES if x.lower() == text.lower()), None)
                if chosen is None:
                    raise InvalidOption(_("there is no language {language} (languages: "
                                          "{languages})", language=repr(text[:40]),
                                          languages=", ".join(LOCALES)))
                language = chosen
            s = dataclasses.replace(s, language=language)
        if default_days is not None:
            if isinstance(default_days, bool) or not isinstance(default_days, int) or \
                    not MIN_DAYS <= default_days <= MAX_DAYS:
                raise InvalidOption(_("days per move must be from {low} to {high}",
                                      low=MIN_DAYS, high=MAX_DAYS))
            s = dataclasses.replace(s, default_days=default_days, default_clock=None)
        if default_clock is not None:
            try:
                tc = parse_time_control(default_clock)
            except TimeControlError as e:
                raise InvalidOption(e.message) from None
            s = dataclasses.replace(s, default_clock=format_time_control(tc)) if tc.is_bank \
                else dataclasses.replace(s, default_clock=None, default_days=tc.days_column)
        if vacation_days is not None:
            if isinstance(vacation_days, bool) or not isinstance(vacation_days, int) or \
                    not 0 <= vacation_days <= MAX_VACATION_DAYS:
                raise InvalidOption(_("the yearly vacation must be from 0 to {high} days",
                                      high=MAX_VACATION_DAYS))
            s = dataclasses.replace(s, vacation_days=vacation_days)
        if claim_win is not None:
            s = dataclasses.replace(s, claim_win=bool(claim_win))
        if auto_vacation is not None:
            s = dataclasses.replace(s, auto_vacation=bool(auto_vacation))
        if use_threads is not None:
            s = dataclasses.replace(s, use_threads=bool(use_threads))
        if reminders is not None:
            s = dataclasses.replace(s, reminders=bool(reminders))
        if takebacks_rated is not None:
            s = dataclasses.replace(s, takebacks_rated=bool(takebacks_rated))
        if web is not None:
            s = dataclasses.replace(s, web=bool(web))
        if weekends_off is not None:
            s = dataclasses.replace(s, weekends_off=bool(weekends_off))
        if pauses_rated is not None:
            if isinstance(pauses_rated, bool) or not isinstance(pauses_rated, int) or \
                    not 0 <= pauses_rated <= MAX_PAUSES_RATED:
                raise InvalidOption(_("pauses in a rated match must be from 0 to {high}",
                                      high=MAX_PAUSES_RATED))
            s = dataclasses.replace(s, pauses_rated=pauses_rated)
        if games_channel_id is not KEEP:
            if games_channel_id is not None and not isinstance(games_channel_id, int):
                raise InvalidOption(_("that is not a channel"))
            s = dataclasses.replace(s, games_channel_id=games_channel_id)
        if organiser_role_id is not KEEP:
            if organiser_role_id is not None and (
                    isinstance(organiser_role_id, bool) or not isinstance(organiser_role_id, int)
                    or not 0 <= organiser_role_id <= MAX_ID):
                raise InvalidOption(_("that is not a role"))
            s = dataclasses.replace(s, organiser_role_id=organiser_role_id)
        await self.repository.save_guild_settings(s)
        return s

    async def get_user_prefs(self, user: int) -> UserPrefs:
        found = await self.repository.get_user_prefs(user)
        return found if found is not None else UserPrefs(user)

    async def update_user_prefs(self, user: int, notify: str) -> UserPrefs:
        text = self._check_text(notify, _("choice")).strip().lower()
        if text not in NOTIFY_CHOICES:
            raise InvalidOption(_("notify must be one of: {choices}",
                                  choices=", ".join(NOTIFY_CHOICES)))
        prefs = UserPrefs(user, text)
        await self.repository.save_user_prefs(prefs)
        return prefs

    async def set_time_zone(self, user: int, zone: str | None) -> UserPrefs:
        """``user``'s time zone: an IANA name (``Europe/Madrid``; case forgiven), checked
        with the standard library's ``zoneinfo``; None forgets it (UTC counts again). It
        decides his weekends (weekends off) and the hours his reminders keep."""
        if zone is not None:
            text = self._check_text(zone, _("time zone"))
            checked = checked_zone(text)
            if checked is None:
                raise InvalidOption(_("“{zone}” is not a time zone: give its IANA name, "
                                      "such as Europe/Madrid or America/New_York",
                                      zone=text.strip()[:40]))
            zone = checked
        before = (await self.get_user_prefs(user)).time_zone
        await self.repository.set_time_zone(user, zone)
        if zone != before:
            await self._rezone(user)
        return await self.get_user_prefs(user)

    async def _rezone(self, user: int) -> None:
        """Each running turn of ``user`` after he changed his time zone
        (``turns.rezoned``): a deadline inside his new weekend moves to its end, and a
        reminder not sent yet keeps his new waking hours. Nobody is told: the deadline
        never comes earlier, and the boards show it."""
        for found in await self.repository.matches_of(user, None, (MatchStatus.ACTIVE,)):
            me = found.seat_of(user)
            if me is None or me.seat not in found.to_move or found.deadline is None:
                continue

            async def attempt(rec: MatchRecord, seat: int = me.seat) -> None:
                now = self.clock.now()
                if rec.status is not MatchStatus.ACTIVE or seat not in rec.to_move \
                        or rec.deadline is None or rec.deadline <= now:
                    return  # over, not his turn any more, or his time ran out already
                after = rezoned(rec, seat, now)
                if after != rec:
                    await self._save(rec, after)
            await self._retrying(found.id, attempt)

    async def remember_locale(self, user: int, locale: str | None = None) -> str:
        """Note the language ``user`` reads (his Discord locale, negotiated to one Tablero
        speaks), for what reaches him with no interaction (reminders, timeouts in DMs);
        stored only when it changed. Returns the locale kept."""
        chosen = negotiate(locale)
        if self._locales_seen.get(user) != chosen:
            known = await self.repository.get_user_prefs(user)
            if known is None or known.locale != chosen:
                await self.repository.remember_locale(user, chosen)
            self._locales_seen[user] = chosen
        return chosen

    async def reader_locale(self, user: int) -> str:
        """The language to write to ``user`` in when he did not just ask (a DM): his last
        seen locale, else the default."""
        if user in self._locales_seen:
            return self._locales_seen[user]
        found = await self.repository.get_user_prefs(user)
        return negotiate(found.locale if found is not None else None)
