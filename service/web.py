"""What the web pages read (issue 40): a match for spectators and a board of any ply.

The web adapter reaches a match only through a signed link that names the match and its
server; it calls these operations with ``Caller(that server, user)`` (user 0: an anonymous
spectator), so the door checks the server as for every other adapter. A server with the
web off answers exactly like an unknown match (``MatchNotFound``): nothing tells a
stranger the match exists.

Nothing hidden leaves here: the record is ``GameRecord``'s (a Querni arrangement stays
hidden until both are in), and notes, conditional moves and user ids beyond the seats are
never read.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

import rules
from locales.i18n import DEFAULT_LOCALE, Words, _, command
from locales.terms import game_name
from service import plies
from service.core import ServiceCore
from service.errors import MatchNotFound, NotAllowed
from service.exports import KeptExports
from service.imported_seats import is_imported
from service.ports import MatchChanged, MatchChanges
from service.records import MatchStatus
from service.states import Replays, ladders
from service.tournament_records import TournamentGame, TournamentRecord
from service.tournaments.model import tournament_title
from service.tournaments.standings import standings
from service.tournaments.table import StandingsTable, numbered, standings_table
from service.views import (
    BoardImage,
    Caller,
    GameRecord,
    LeaderboardEntry,
    MatchAnalysis,
    MatchView,
)

log = logging.getLogger(__name__)


class WebLinkRevoked(NotAllowed):
    """A player's web link of an older generation (he revoked his links since)."""


SPECTATOR = 0
"""The user id of an anonymous web reader (no Discord user is 0)."""


@dataclass(frozen=True, slots=True)
class WebMatch:
    """A match as a web page shows it: the replayed public record (its seats carry the
    players' ratings, read with the match), the players' names by seat ("" where none is
    known) and, once it is finished, the analysis ``/analysis`` stored of it (None: none
    made; never while the match is live: no engine help to its players)."""

    record: GameRecord
    names: tuple[str, ...]
    analysis: MatchAnalysis | None = None
    people: tuple[tuple[int, str], ...] = ()
    """A match that never started (``MatchStatus.never_started``): the name of each of
    its challenger, the players in and the players invited, by user ("" where none is
    known), for its page to say who it is between (they hold no seat yet)."""

    def name_of(self, user: int) -> str:
        """``user``'s name among :attr:`people` ("" where none is known)."""
        return next((n for u, n in self.people if u == user), "")


WEB_RECORDS = 256
"""Replayed records the web pages keep (least recently used first out), each valid for
the match's stored version it was replayed at: a page asked for again, a board picture,
a page redrawn after a live update or a player's move does not replay the whole record
again until the match changed (a game tapped to its end would replay quadratically)."""
SERVER_LADDER_ROWS = 10
"""The best players each leaderboard of a server page lists."""
SERVER_SEASONS = 3
"""The newest seasons whose leaderboards a server page lists (besides all time)."""
SERVER_TOURNAMENTS = 5
"""The newest tournaments a server page lists."""
SERVER_LIVE = 30
"""The newest matches in play a server page lists."""
RECENT_GAMES = 20
"""The newest games a player's page lists."""
PLAYED = (MatchStatus.ACTIVE, MatchStatus.FINISHED, MatchStatus.ABORTED)
"""The matches a player's page lists: those that began (a board to watch)."""


@dataclass(frozen=True, slots=True)
class WebLadder:
    """One leaderboard of a server page: ``ladder`` (a game's key; ``...-4`` its
    4-player board) of all time (``season`` None) or of a season, its best ``entries``
    with their names ("" where none is known) and how many are rated on it."""

    ladder: str
    season: int | None
    total: int
    entries: tuple[tuple[LeaderboardEntry, str], ...]


@dataclass(frozen=True, slots=True)
class WebTournament:
    """A tournament of a server page: its standings and the pairings of its round (the
    players' names, one not known "Player 3" as in the standings; "" for a bye)."""

    record: TournamentRecord
    table: StandingsTable
    pairings: tuple[tuple[TournamentGame, Words, Words], ...]


@dataclass(frozen=True, slots=True)
class WebServer:
    """A server's page: its leaderboards, tournaments and matches in play (each with
    its players' names by seat)."""

    guild_id: int
    ladders: tuple[WebLadder, ...]
    tournaments: tuple[WebTournament, ...]
    live: tuple[tuple[MatchView, tuple[str, ...]], ...]


@dataclass(frozen=True, slots=True)
class WebMember:
    """A player's page in one server: his name, his ratings there (by ladder) and his
    newest games there (with their players' names)."""

    name: str
    ratings: tuple[tuple[str, LeaderboardEntry], ...]
    recent: tuple[tuple[MatchView, tuple[str, ...]], ...]
    imported: bool = False  # an imported player (issue 44): his record's name ("": none)
    seat: str = ""  # the seat's name he was reached through (names one his record did not)


class Web:
    """Reads for the web pages, scoped by the door and by the server's web switch."""

    def __init__(self, core: ServiceCore) -> None:
        self.repository = core.repository
        self.renderer = core.renderer
        self.get_guild_settings = core.get_guild_settings
        self._record = core.record
        self._scored = core.as_scored  # what is shown of an old tournament abort
        self._view = core.view
        self._entries = core.entries
        self._replayed_record = core.replayed_record
        self._require_player = core.require_player
        self._seat_names = core.seat_names
        self._drawn_names = core.drawn_names
        self._names = core.names
        self._imported = core.imported
        self._replays = Replays(WEB_RECORDS)
        self._exports = KeptExports(WEB_RECORDS, user_ids=False)  # never by user id

    async def _web_on(self, guild_id: int, match_id: int) -> None:
        settings = await self.get_guild_settings(guild_id)
        if not settings.web:
            raise MatchNotFound(_("there is no match #{match}", match=match_id))

    async def web_match(self, match_id: int, caller: Caller | None = None) -> WebMatch:
        """The match for a web page; ``MatchNotFound`` when its server has the web off."""
        rec = await self._scored(await self._record(match_id))
        await self._web_on(rec.guild_id, match_id)
        view = self._view(rec)
        record = await self._replayed_record(rec, self._replays)
        names = tuple(self._seat_names(view) or ("",) * len(view.seats))
        analysis = None if rec.status.is_live else \
            await self.repository.analysis_of(match_id)
        if analysis is not None and analysis.plies != len(record.plies):
            analysis = None  # weighed on another record: its plies would not match
        people: tuple[tuple[int, str], ...] = ()
        if rec.status.never_started:  # who it is between: nobody holds a seat yet
            users = dict.fromkeys((view.challenger_id, *view.joined, *view.invited))
            people = tuple((u, self._name(rec.guild_id, u)) for u in users)
        return WebMatch(record, names, analysis, people)

    async def web_export(self, match_id: int, caller: Caller | None = None
                         ) -> tuple[str, str] | None:
        """The match in its game's standard record format for its page, ``(format,
        text)``: WXF for xiangqi, PDN for damas; None for the other games. Players are
        named as on the page, never by user id."""
        rec = await self._record(match_id)
        await self._web_on(rec.guild_id, match_id)
        if rec.status.never_started:  # no game: nothing to record
            return None
        names = self._seat_names(self._view(rec))
        kept = self._exports.get(rec, names)
        if kept is not None:
            return kept[0]
        try:
            return self._exports.export(rec, await self._entries(rec), names)
        except Exception:  # an exporter bug must not take the page down
            log.exception("export failed for match %s", match_id)
            return None

    def _name(self, guild_id: int, user: int | None) -> str:
        return self._names(guild_id, user) if self._names is not None and user else ""

    def _named(self, view: MatchView) -> tuple[MatchView, tuple[str, ...]]:
        return view, tuple(self._seat_names(view) or ("",) * len(view.seats))

    async def web_server(self, guild_id: int, caller: Caller | None = None) -> WebServer:
        """A server's page: every leaderboard with a rated player (all time and the
        newest seasons), the newest tournaments with their standings and pairings, the
        matches in play; ``MatchNotFound`` when the server has the web off."""
        settings = await self.get_guild_settings(guild_id)
        if not settings.web:
            raise MatchNotFound(_("there is nothing here"))
        seasons = [s.number for s in (await self.repository.seasons_of(guild_id))
                   [:SERVER_SEASONS]]
        boards: list[WebLadder] = []
        for season in (None, *seasons):
            for ladder in ladders():
                if season is None:
                    rows, total = await self.repository.leaderboard(
                        guild_id, ladder, 0, SERVER_LADDER_ROWS)
                else:
                    rows, total = await self.repository.season_board(
                        guild_id, season, ladder, 0, SERVER_LADDER_ROWS)
                if rows:
                    boards.append(WebLadder(ladder, season, total, tuple(
                        (LeaderboardEntry(i + 1, r.user_id, r.ordinal, r.mu, r.sigma,
                                          r.wins, r.losses, r.draws),
                         self._name(guild_id, r.user_id)) for i, r in enumerate(rows))))
        tournaments = []
        for t in (await self.repository.tournaments_in(guild_id))[:SERVER_TOURNAMENTS]:
            names = {p: self._name(guild_id, p) for p in t.players}
            v = rules.variant(t.game)
            placed = standings(list(t.players), [g.game() for g in t.games], t.format,
                               t.withdrawn)
            table = standings_table(placed, t.format, names,
                                    title=tournament_title(t.name, v.key, v.name, t.format),
                                    subtitle=game_name(v.key, v.name))
            # a player nobody knows is "Player 3", as in the standings, never "?"
            known = numbered(names, placed)
            pairs = tuple((g, known[g.first], known[g.second] if g.second is not None else "")
                          for g in (t.games_of_round(t.round) if t.round else ()))
            tournaments.append(WebTournament(t, table, pairs))
        live = tuple(self._named(self._view(rec)) for rec in
                     await self.repository.live_matches(guild_id, SERVER_LIVE))
        return WebServer(guild_id, tuple(boards), tuple(tournaments), live)

    async def web_member(self, match_id: int, seat: int, caller: Caller | None = None
                         ) -> WebMember:
        """The page of the player in ``seat`` of match ``match_id`` (a page reaches a
        player only through a match he plays, so no user id is ever in an address): his
        ratings in that server and his newest games there."""
        rec = await self._record(match_id)
        await self._web_on(rec.guild_id, match_id)
        view = self._view(rec)
        if isinstance(seat, bool) or not isinstance(seat, int) or \
                not 0 <= seat < len(view.seats) or view.seats[seat].user_id is None:
            raise MatchNotFound(_("there is no match #{match}", match=match_id))
        user = view.seats[seat].user_id
        assert user is not None
        ratings = []
        for r in await self.repository.ratings_of(rec.guild_id, user):
            ranked = await self.repository.rank_of(rec.guild_id, r.ladder, user)
            ratings.append((r.ladder, LeaderboardEntry(
                ranked[0] if ranked else 0, user, r.ordinal, r.mu, r.sigma, r.wins,
                r.losses, r.draws)))
        # games played (live or over): not a challenge he was sent, a lobby still
        # filling, nor one declined or cancelled before it began (no board to watch)
        newest = (await self.repository.matches_of(user, rec.guild_id, PLAYED))[:RECENT_GAMES]
        await self._imported.learn(s.user_id for m in newest for s in m.seats)
        # an old tournament abort among them reads as its tournament scored it, as
        # on its own page (``ServiceCore.as_scored``)
        recent = tuple([self._named(self._view(await self._scored(m))) for m in newest])
        names = self._seat_names(view) or ()
        held = view.seats[seat]
        if is_imported(user):  # his record's name, if it gave one (not the seat's colour)
            return WebMember(held.player, tuple(ratings), recent, True, held.name)
        name = names[seat] if seat < len(names) else ""
        return WebMember(name, tuple(ratings), recent, seat=held.name)

    async def web_listen(self, changed: MatchChanged
                         ) -> Callable[[], Awaitable[None]] | None:
        """Follow every committed match change where the store says them
        (PostgreSQL's LISTEN/NOTIFY): the function that stops it; None where it does not
        (the pages poll)."""
        if isinstance(self.repository, MatchChanges):
            return await self.repository.listen_matches(changed)
        return None

    async def web_pass(self, match_id: int, user: int, caller: Caller | None = None) -> int:
        """The link generation to put in ``user``'s link to play match ``match_id``: he
        must be one of its players and its server must have the web on."""
        rec = await self._record(match_id)
        await self._web_on(rec.guild_id, match_id)
        self._require_player(rec, user)
        return await self.repository.web_epoch(user)

    async def web_player(self, match_id: int, user: int, epoch: int,
                         caller: Caller | None = None) -> WebMatch:
        """The match for ``user``'s own page, while his link is of his current generation
        (``WebLinkRevoked`` otherwise) and he is one of its players."""
        found = await self.web_match(match_id, caller)
        if user not in found.record.match.players():
            raise MatchNotFound(_("there is no match #{match}", match=match_id))
        if epoch != await self.repository.web_epoch(user):
            raise WebLinkRevoked(_("this link was revoked: ask for a new one with {web}",
                                   web=command("web")))
        return found

    async def revoke_web_links(self, user: int) -> int:
        """Every web link ``user`` was given stops working (``/web revoke``); the new
        generation."""
        return await self.repository.revoke_web_links(user)

    async def web_board(self, match_id: int, ply: int, caller: Caller | None = None,
                        locale: str = DEFAULT_LOCALE, seat: int = 0) -> BoardImage | None:
        """The board after ``ply`` plies of the record (0: the start), drawn from the
        stored record alone, seen from ``seat`` (the first; a player's page: his own);
        None without a renderer, when the record has no such ply or seat, or when the
        match never started (a challenge or lobby: no board to show). Only the last ply's
        picture says how the match ended."""
        if self.renderer is None:
            return None
        found = await self.web_match(match_id, caller)
        record = found.record
        if record.match.status.never_started:
            return None
        if isinstance(ply, bool) or not isinstance(ply, int) or \
                not 0 <= ply <= len(record.plies) or isinstance(seat, bool) or \
                not isinstance(seat, int) or not 0 <= seat < len(record.match.seats):
            return None
        # the match as it stood at that ply, as the stepper shows it in Discord and the
        # console: its holders, who was out and to move, not over before its last ply
        board = plies.at_ply(record, ply)
        drawn = await asyncio.to_thread(plies.drawn, board, self.renderer,
                                        self._drawn_names(board.match, locale), seat, locale)
        return drawn.image
