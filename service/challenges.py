"""Challenges and lobbies: challenge, accept/join, decline, cancel, seating, the
start of a match and attaching its thread."""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Mapping, Sequence
from datetime import datetime

from locales.i18n import _, _n, alternatives, command
from locales.rules_words import refusal_words
from locales.terms import game_name, seat_colour, status
from rules import Position, RulesError, SeatSkipError, Variant
from service.blocks import Guard
from service.computer_seats import LEVELS, is_computer
from service.core import MAX_DAYS, MIN_DAYS, ServiceCore
from service.errors import (
    Conflict,
    InvalidOption,
    MatchOver,
    NotAllowed,
    NotAPlayer,
    ServiceError,
)
from service.events import ChallengeClosed, ChallengeReceived, LobbyChanged, TurnStarted
from service.imported_seats import is_imported
from service.outbox import Announce
from service.ratings import ladder_key
from service.records import ClockState, MatchRecord, MatchStatus, RecordEntry, SeatRecord
from service.states import replay
from service.timecontrol import TimeControl, TimeControlError, parse_time_control
from service.turns import turn_started
from service.views import BoardState, Caller, GuildSettings, MatchView

log = logging.getLogger(__name__)

ON_TIMEOUT = ("end", "skip", "computer")
"""What a four-player game does with a seat whose time runs out (issue 43)."""
STAND_IN_LEVEL = 5
"""The computer's level on a seat it takes over, unless the lobby chose one."""


def _json_ready(value: object) -> object:
    if isinstance(value, tuple | list):
        return [_json_ready(v) for v in value]
    return value


def _is_int_text(text: str) -> bool:
    """ASCII digits with an optional leading minus: ``str.isdigit`` alone also accepts
    characters such as superscripts that ``int`` refuses."""
    digits = text[1:] if text.startswith("-") else text
    return digits.isascii() and digits.isdigit()


@dataclasses.dataclass(frozen=True, slots=True)
class ContinuableGame:
    """An imported game that can go on (issue 44): the match (its seats, plies, game)
    and the seat to move at its last position, which its challenger plays unless he
    picks another (an imported match keeps no one to move: it is not live)."""

    match: MatchView
    to_move: int
    out: tuple[int, ...] = ()
    """The seats out of the game (they left it, or the rules put them out): they stay
    the record's players', nobody takes them."""
    imported_at: datetime | None = None
    """When it was imported."""


class Challenges:
    """Challenges and lobbies."""

    def __init__(self, core: ServiceCore) -> None:
        self.repository = core.repository
        self.clock = core.clock
        self.rooms = core.rooms
        self.rng = core.rng
        self.states = core.states
        self.get_guild_settings = core.get_guild_settings
        self._variant = core.variant
        self._check_text = core.check_text
        self._retrying = core.retrying
        self._save = core.save
        self._commit = core.commit
        self._announce = core.announce
        self._view = core.view
        self._team = core.team
        self._away_at_start = core.away_at_start
        self._record = core.record
        self._imported = core.imported
        self._entries = core.entries
        self.guard = Guard(core)

    async def challenge(self, guild_id: int, channel_id: int, challenger: int, game: str, *,
                        opponents: Sequence[int] = (),
                        options: Mapping[str, object] | None = None,
                        days: int | None = None, rated: bool = True,
                        seat: int | str | None = None, clock: str | None = None,
                        claim_win: bool | None = None, weekends_off: bool | None = None,
                        on_timeout: str | None = None, stand_in_level: int | None = None,
                        accepted_at_once: bool = False) -> MatchView:
        """Create a challenge (2 players: direct or open) or a lobby (4 players).
        ``clock``: a time control (``"3"`` days per move, ``"3d+1d/10d"`` a bank; not
        with ``days``); neither: the server's default control. ``claim_win``: a lapsed
        clock waits for a claim (default: the server's choice). ``weekends_off``: no
        clock runs on Saturday and Sunday in each player's time zone (default: the
        server's choice). ``on_timeout``: what a game of more than two seats does with a
        player whose time runs out: his turns are skipped and he ranks last (``"skip"``,
        where the rules can go on without him); the computer (at ``stand_in_level``, 5 if
        not given) plays on his seat (``"computer"``, four players without teams); or the
        mode's rules put him out (``"end"``, as ever).
        ``accepted_at_once``:
        the caller accepts for every invited player at once (a tournament pairing, the
        computer), so a challenge that fills every seat is not announced (nobody is to
        accept or decline it): its start is; one with places left is announced as open
        to anyone, asking none of them to accept."""
        v = self._variant(game)
        opts = self.coerce_options(v, options)
        start = self.start_position(v, opts)
        seat_count = start.seat_count
        invited: list[int] = []
        for o in opponents:
            if isinstance(o, bool) or not isinstance(o, int):
                raise InvalidOption(_("opponents must be users"))
            if o == challenger:
                raise InvalidOption(_("you cannot challenge yourself"))
            if o not in invited:
                invited.append(o)
        if len(invited) > seat_count - 1:
            raise InvalidOption(_n("{game} seats {seats}: invite at most {count} opponent",
                                   "{game} seats {seats}: invite at most {count} opponents",
                                   seat_count - 1, game=game_name(v.key, v.name),
                                   seats=seat_count))
        settings = await self.get_guild_settings(guild_id)
        control = self.time_control(settings, days, clock)
        days = control.days_column
        if claim_win is not None and not isinstance(claim_win, bool):
            raise InvalidOption(_("claim win must be yes or no"))
        claim = settings.claim_win if claim_win is None else claim_win
        if weekends_off is not None and not isinstance(weekends_off, bool):
            raise InvalidOption(_("weekends must be on or off"))
        off = settings.weekends_off if weekends_off is None else weekends_off
        timeout, level = self._on_timeout(start, on_timeout, stand_in_level)
        clock_state = ClockState(control if control.is_bank else None, claim, weekends=off,
                                 on_timeout=timeout, stand_in_level=level)
        pref = self._seat_choice(v, seat_count, seat)
        if not accepted_at_once:  # (a tournament's pairing, the computer: never refused)
            await self.guard.refuse_blocked(guild_id, challenger, invited)
            await self.guard.refuse_too_many(guild_id, challenger, v.key, invited)
        now = self.clock.now()
        seats = [await self._new_seat(challenger, pref if seat_count > 2 else None)]
        seats += [await self._new_seat(u, accepted=False) for u in invited]
        rec = self.challenge_record(guild_id, channel_id, challenger, v, opts, start,
                                     seats, days, rated, pref, clock_state)
        # those accepted for at once (the computer) are asked nothing: what is left to
        # announce is the open places of a lobby they joined
        asked = () if accepted_at_once else tuple(invited)
        announce: Announce[MatchRecord] = Announce(
            lambda s: [] if accepted_at_once and len(invited) + 1 == seat_count else
            [ChallengeReceived(self._view(s), challenger, asked)], now)
        rec = await self.repository.create_match(rec, announce)
        await self._announce(announce.events)
        return self._view(rec)

    async def continue_import(self, guild_id: int, channel_id: int, user: int,
                              match_id: int, opponents: Sequence[int] = (), *,
                              seat: int | str | None = None, days: int | None = None,
                              clock: str | None = None, on_timeout: str | None = None,
                              stand_in_level: int | None = None) -> MatchView:
        """Challenge ``opponents`` (every other seat) to go on with imported game
        ``match_id`` from its last position (issue 44): a new correspondence match,
        casual, whose record starts with the imported moves (so it replays exactly), which
        starts once every invited player accepts (declined or cancelled, it never starts;
        the imported game is never changed). ``user`` plays ``seat`` (default: the side
        to move), the invited the other seats in the order given. Anyone of the server
        may continue an imported game of the server, as often as wanted; a game the
        record ends cannot be continued. ``on_timeout`` and ``stand_in_level``: as
        :meth:`challenge` takes them, checked against the position it goes on from (a
        level without ``on_timeout="computer"`` is refused: nothing would use it)."""
        source = await self._record(match_id)
        entries = await self._entries(source)
        end = self._continued_position(source, entries)
        v = self._variant(source.game)
        count = source.seat_count
        invited: list[int] = []
        for o in opponents:
            if isinstance(o, bool) or not isinstance(o, int):
                raise InvalidOption(_("opponents must be users"))
            if o == user:
                raise InvalidOption(_("you cannot challenge yourself"))
            if is_computer(o) or is_imported(o):
                raise InvalidOption(_("an imported game is continued by people of the "
                                      "server: challenge members, not the computer"))
            if o not in invited:
                invited.append(o)
        # a seat that left the game (resigned, ran out of time, skipped) or that the
        # rules put out stays out, kept by the record's player: only the others go on
        out = end.out_seats()
        playing = [s for s in range(count) if s not in out]
        if len(invited) != len(playing) - 1 and not out:
            raise InvalidOption(_n("{game} seats {seats}: continuing it needs {count} "
                                   "opponent", "{game} seats {seats}: continuing it needs "
                                   "{count} opponents", count - 1,
                                   game=game_name(v.key, v.name), seats=count))
        if len(invited) != len(playing) - 1:  # some seats are out
            raise InvalidOption(_n(
                "{playing} of the {seats} seats of imported game #{match} still play: "
                "continuing it needs {count} opponent", "{playing} of the {seats} seats of "
                "imported game #{match} still play: continuing it needs {count} opponents",
                len(playing) - 1, playing=len(playing), seats=count, match=source.id))
        chosen = self._seat_choice(v, count, seat)
        if chosen is not None and chosen in out:
            raise InvalidOption(_("{seat} is out of imported game #{match}: play a seat that "
                                  "is still in it", match=source.id,
                                  seat=seat_colour(v.seat_name(chosen, count))))
        mine = chosen if chosen is not None else min(end.to_move)
        others = [s for s in playing if s != mine]
        timeout, level = self._on_timeout(end, on_timeout, stand_in_level)
        if stand_in_level is not None and timeout != "computer":
            raise InvalidOption(_("a level is for the computer that plays a late "
                                  "player's seat: it goes with on_timeout:computer"))
        await self.guard.refuse_blocked(guild_id, user, invited)
        await self.guard.refuse_too_many(guild_id, user, v.key, invited)
        settings = await self.get_guild_settings(guild_id)
        control = self.time_control(settings, days, clock)
        state = ClockState(control if control.is_bank else None, settings.claim_win,
                           weekends=settings.weekends_off, skipped=source.clock.skipped,
                           on_timeout=timeout, stand_in_level=level)
        seats = [await self._new_seat(user, mine if count > 2 else None)]
        seats += [await self._new_seat(u, others[i] if count > 2 else None, accepted=False)
                  for i, u in enumerate(invited)]
        seats += [dataclasses.replace(s, team=None, out=True) for s in source.seats
                  if s.seat in out]
        rec = dataclasses.replace(
            self.challenge_record(guild_id, channel_id, user, v, source.options, end, seats,
                                  control.days_column, False, mine, state),
            rules_version=source.rules_version, start_text=source.start_text,
            seating="chosen", ply=source.ply, position_text=source.position_text,
            to_move=source.to_move, last_move=source.last_move,
            last_move_by=source.last_move_by, continued_from=source.id)
        now = self.clock.now()
        announce: Announce[MatchRecord] = Announce(
            lambda s: [ChallengeReceived(self._view(s), user, tuple(invited))], now)
        rec = await self.repository.create_match(rec, announce, entries)
        await self._announce(announce.events)
        return self._view(rec)

    async def continuable(self, match_id: int, caller: Caller | None = None
                          ) -> ContinuableGame:
        """Imported game ``match_id`` as ``continue_import`` takes it up, checked as it
        checks it: refused in the same words when it is not an imported game, its record
        ends it, or no move is left (the "Continue as a match" button asks before the
        opponents are chosen)."""
        source = await self._record(match_id)
        end = self._continued_position(source, await self._entries(source))
        return ContinuableGame(self._view(source), min(end.to_move),
                               tuple(sorted(end.out_seats())))

    async def continuable_imports(self, guild_id: int, user: int, limit: int = 25
                                  ) -> list[ContinuableGame]:
        """The imported games of ``guild_id`` that ``continue_import`` takes up (what
        ``/continue`` suggests), newest first, at most ``limit``: those the record leaves
        unfinished with a move to play at their last position (the stored one: nothing
        is replayed), their players' names read."""
        found = await self.repository.unfinished_imports(guild_id, limit)
        await self._imported.learn(s.user_id for rec in found for s in rec.seats)
        games = []
        for rec in found:
            try:
                end = self._variant(rec.game).from_text(rec.position_text)
            except (ValueError, ServiceError):  # a game no longer known, a broken text
                continue
            if end.outcome() is not None or end.in_setup or not end.to_move \
                    or next(iter(end.legal_moves()), None) is None:
                continue
            games.append(ContinuableGame(self._view(rec), min(end.to_move),
                                         tuple(sorted(end.out_seats())), rec.created_at))
        return games

    @staticmethod
    def _continued_position(source: MatchRecord, entries: Sequence[RecordEntry]) -> Position:
        """The last position of imported game ``source``, where it goes on; refused for a
        match that is not an imported game, or one that has ended."""
        if not source.seats or not all(is_imported(s.user_id) for s in source.seats):
            raise NotAllowed(_("match #{match} is not an imported game: only imported games "
                               "are continued ({import} a record first)", match=source.id,
                               **{"import": command("import")}))
        if source.status is MatchStatus.FINISHED:
            raise MatchOver(_("imported game #{match} is over: its record ends it, so no "
                              "move is left to play", match=source.id))
        if source.status is not MatchStatus.ABORTED:
            raise NotAllowed(_("imported game #{match} cannot be continued ({status})",
                               match=source.id, status=status(source.status.value)))
        end = replay(source, entries).position
        if end.outcome() is not None or end.in_setup or not end.to_move \
                or next(iter(end.legal_moves()), None) is None:
            raise MatchOver(_("imported game #{match} has no move left to play",
                              match=source.id))
        return end

    @staticmethod
    def _on_timeout(start: Position, choice: str | None, level: int | None
                    ) -> tuple[str, int]:
        """The lobby's choice for a seat whose time runs out, and the computer's level."""
        if level is not None and (isinstance(level, bool) or not isinstance(level, int)
                                  or level not in LEVELS):
            raise InvalidOption(_("the computer plays at levels 1 (beginner) to 8 "
                                  "(strongest)"))
        if choice is None:
            return "end", 0
        if not isinstance(choice, str) or choice.strip().lower() not in ON_TIMEOUT:
            raise InvalidOption(_("on_timeout must be end, skip or computer"))
        chosen = choice.strip().lower()
        if chosen == "skip":
            # the rules say whether this game can go on without one more seat (of those
            # still in: a continued game may have lost some)
            still_in = [s for s in range(start.seat_count) if s not in start.out_seats()]
            try:
                start.variant.skip_seat(start, still_in[-1] if still_in else 0)
            except SeatSkipError:
                raise InvalidOption(_("on_timeout:skip is for four-player games (two "
                                      "players cannot go on without one)")) from None
        if chosen == "computer" and (start.seat_count != 4 or start.teams):
            raise InvalidOption(_("on_timeout:computer is for four-player games without "
                                  "teams (teams keep their rules)"))
        return chosen, (level or STAND_IN_LEVEL) if chosen == "computer" else 0

    @staticmethod
    def time_control(settings: GuildSettings, days: int | None, clock: str | None
                      ) -> TimeControl:
        """The control a challenge asks for: ``clock`` text, ``days`` per move, or the
        server's default (its bank control, else its days per move)."""
        if days is not None and clock is not None:
            raise InvalidOption(_("give either days per move or a time control, not both"))
        if clock is not None:
            try:
                return parse_time_control(clock)
            except TimeControlError as e:
                raise InvalidOption(e.message) from None
        if days is None:
            if settings.default_clock:
                return parse_time_control(settings.default_clock)
            days = settings.default_days
        if isinstance(days, bool) or not isinstance(days, int) or \
                not MIN_DAYS <= days <= MAX_DAYS:
            raise InvalidOption(_("days per move must be a whole number from {low} to {high}",
                                  low=MIN_DAYS, high=MAX_DAYS))
        return TimeControl.days(days)

    def challenge_record(self, guild_id: int, channel_id: int, challenger: int,
                          v: Variant, opts: Mapping[str, object], start: Position,
                          seats: Sequence[SeatRecord], days: int, rated: bool,
                          pref: int | None, clock: ClockState) -> MatchRecord:
        """A new challenge (``open``) or lobby, not stored yet: the challenger first in
        ``seats``, then the invited (a lobby's seats may be reserved: a rematch); ``clock``:
        its time control beyond days per move, and claim-win."""
        now = self.clock.now()
        seat_count = start.seat_count
        return MatchRecord(
            id=0, guild_id=guild_id, channel_id=channel_id, thread_id=None, game=v.key,
            ladder=ladder_key(v.key, seat_count),
            rules_version=v.rules_version,
            options={k: _json_ready(o) for k, o in opts.items()}, start_text=start.to_text(),
            seat_count=seat_count,
            status=MatchStatus.OPEN if seat_count == 2 else MatchStatus.LOBBY,
            challenger_id=challenger, seats=tuple(seats), seat_pref=pref,
            seating="chosen" if pref is not None else "random", ply=0,
            position_text=start.to_text(), to_move=tuple(sorted(start.to_move)),
            last_move=None, days_per_move=days, rated=bool(rated), deadline=None,
            remind_at=None, draw_offer=None, result=None, broken=None, created_at=now,
            updated_at=now, clock=clock)

    def start_position(self, v: Variant, opts: Mapping[str, object]) -> Position:
        """The start position of ``v`` with ``opts``: options the rules refuse are an
        ``InvalidOption`` naming the game."""
        try:
            start: Position = v.start(**opts)
        except (RulesError, ValueError, TypeError) as e:
            raise InvalidOption(_("{game} cannot start with those options: {error}",
                                  game=game_name(v.key, v.name),
                                  error=refusal_words(e))) from None
        return start

    def coerce_options(self, v: Variant, given: Mapping[str, object] | None
                        ) -> dict[str, object]:
        chosen: dict[str, object] = {}
        for raw_name, raw_value in (given or {}).items():
            name = self._check_text(raw_name, _("option name")).strip().lower()
            if name not in v.options and not v.options:  # not "(options: -)"
                raise InvalidOption(_("{game} has no option {given} (it takes no options)",
                                      game=game_name(v.key, v.name), given=repr(name)))
            if name not in v.options:
                raise InvalidOption(_("{game} has no option {option} (options: {allowed})",
                                      game=game_name(v.key, v.name), option=repr(name),
                                      allowed=alternatives(v.options)))
            allowed_values = v.options[name]
            if allowed_values:
                wanted = str(raw_value).strip().lower()
                match = [a for a in allowed_values if str(a).lower() == wanted]
                if not match:
                    choices = alternatives(str(a) for a in allowed_values)
                    raise InvalidOption(_("{option} cannot be {value} (choose from {choices})",
                                          option=name, value=repr(str(raw_value)[:40]),
                                          choices=choices))
                chosen[name] = match[0]
            elif isinstance(raw_value, str):
                text = self._check_text(raw_value, name).strip()
                if name == "arrangement":
                    raise InvalidOption(_("an arrangement is submitted with {setup}",
                                          setup=command("setup")))
                chosen[name] = int(text) if _is_int_text(text) \
                    else text
            else:
                chosen[name] = raw_value
        # A random deal must replay: draw its seed now and store it with the options.
        if "seed" in v.options and "seed" not in chosen and "arrangement" not in chosen \
                and chosen.get("setup", "random") == "random":
            chosen["seed"] = self.rng.randrange(2**31)
        try:
            return v.check_options(chosen)
        except ValueError as e:
            raise InvalidOption(refusal_words(e)) from None

    @staticmethod
    def _seat_choice(v: Variant, seat_count: int, seat: int | str | None) -> int | None:
        if seat is None:
            return None
        if isinstance(seat, str):
            text = seat.strip().lower()
            if text in ("random", "any"):  # an empty seat is no choice: refused below
                return None
            names = {v.seat_name(i, seat_count).lower(): i for i in range(seat_count)}
            if text in names:
                return names[text]
            if _is_int_text(text) and len(text) < 3:
                seat = int(text)
            else:
                raise InvalidOption(_("there is no seat {seat} (seats: {seats}, or random)",
                                      seat=repr(seat[:30]), seats=", ".join(names)))
        if isinstance(seat, bool) or not isinstance(seat, int) or \
                not 0 <= seat < seat_count:
            raise InvalidOption(_("there is no seat {seat} in this game", seat=repr(seat)))
        return seat

    async def _new_seat(self, user: int, seat: int | None = None, *, accepted: bool = True,
                        joining: MatchRecord | None = None) -> SeatRecord:
        """A user new to a match, with how he wants to be told and his time zone
        (participants already in it come with theirs from the repository); one
        ``joining`` a match already stored comes with his rating on its ladder too, as
        the seats read with it do (the start's turn post shows it)."""
        found = await self.repository.get_user_prefs(user)
        rated = None if joining is None else \
            await self.repository.rank_of(joining.guild_id, joining.ladder, user)
        return SeatRecord(user, seat, None, accepted,
                          notify=found.notify if found is not None else "mention",
                          time_zone=found.time_zone if found is not None else None,
                          rating=rated[1] if rated is not None else None)

    def _seated(self, rec: MatchRecord) -> tuple[SeatRecord, ...]:
        """Give every accepted participant a seat (challenge/lobby full); each keeps the
        preferences read with him (how to be told, his time zone)."""
        by_user = {s.user_id: s for s in rec.seats}

        def seated(user: int, seat: int, team: int | None = None) -> SeatRecord:
            # nobody is out at a start, but in a continued game the seats that left it
            # (kept by the record's players) are
            kept = by_user[user].out and rec.continued_from is not None
            return dataclasses.replace(by_user[user], seat=seat, team=team, accepted=True,
                                       out=kept)
        taken = {s.seat for s in rec.seats if s.seat is not None}
        free = [i for i in range(rec.seat_count) if i not in taken]
        if rec.seat_count == 2:
            users = [s.user_id for s in rec.seats if s.accepted]
            challenger_seat = rec.seat_pref if rec.seat_pref is not None \
                else self.rng.randrange(2)
            other = next(u for u in users if u != rec.challenger_id)
            return (seated(rec.challenger_id, challenger_seat),
                    seated(other, 1 - challenger_seat))
        if rec.seating == "random":
            order = [s.user_id for s in rec.seats]
            self.rng.shuffle(order)
            return tuple(seated(u, i, self._team(rec, i)) for i, u in enumerate(order))
        self.rng.shuffle(free)
        out = []
        for s in rec.seats:
            seat = s.seat if s.seat is not None else free.pop()
            out.append(seated(s.user_id, seat, self._team(rec, seat)))
        return tuple(sorted(out, key=lambda s: s.seat or 0))

    async def _start(self, rec: MatchRecord) -> MatchRecord:
        now = self.clock.now()
        rec = dataclasses.replace(rec, status=MatchStatus.ACTIVE, seats=self._seated(rec))
        return turn_started(await self._away_at_start(rec, now), now)

    async def accept(self, match_id: int, user: int, seat: int | str | None = None,
                     *, caller: Caller | None = None
                     ) -> MatchView:
        """Accept a challenge (or join a lobby). The challenger cannot accept his own."""
        return await self._retrying(match_id, lambda rec: self._accept(rec, user, seat))

    async def join(self, match_id: int, user: int, seat: int | str | None = None,
                   *, caller: Caller | None = None, announced: bool = True
                   ) -> MatchView:
        """Join a lobby (or an open 2-player challenge); ``seat`` when seats are chosen.
        ``announced``: whether a join that leaves seats empty says so (``LobbyChanged``);
        not the computers /fill seats one by one, whose last join starts the match and
        its start post names them all."""
        return await self._retrying(match_id, lambda rec: self._accept(rec, user, seat,
                                                                       announced))

    async def _accept(self, rec: MatchRecord, user: int, seat: int | str | None,
                      announced: bool = True) -> MatchView:
        if not rec.status.is_waiting:
            if rec.status is MatchStatus.ACTIVE:
                raise NotAllowed(_("match #{match} has already started", match=rec.id))
            raise MatchOver(_("match #{match} is over ({status})", match=rec.id,
                              status=status(rec.status.value)))
        if user == rec.challenger_id:
            raise NotAllowed(_("you cannot accept your own challenge"))
        current = rec.seat_of(user)
        if current is not None and current.accepted:
            raise NotAllowed(_("you are already in match #{match}", match=rec.id))
        invited = [s for s in rec.seats if not s.accepted]
        accepted = [s for s in rec.seats if s.accepted]
        free_places = rec.seat_count - len(accepted) - len(invited)
        if current is None and free_places <= 0:
            raise NotAllowed(_("match #{match} is for invited players only", match=rec.id))
        if current is None:  # joining uninvited: not where someone blocks him
            await self.guard.refuse_joining(rec, user)
        v = self._variant(rec.game)
        choice = self._seat_choice(v, rec.seat_count, seat)
        if choice is not None:
            if rec.seat_count == 2 or rec.seating == "random":
                raise NotAllowed(_("seats in this match are drawn at random"))
            if any(s.seat == choice and s.user_id != user for s in rec.seats):
                raise NotAllowed(_("the {seat} seat is taken",
                                   seat=seat_colour(v.seat_name(choice, rec.seat_count))))
        if choice is None and current is not None and rec.seat_count > 2:
            choice = current.seat  # a seat kept for him (a rematch's rotated seats)
        me = dataclasses.replace(current, seat=choice if rec.seat_count > 2 else None,
                                 team=None, accepted=True) if current is not None \
            else await self._new_seat(user, choice if rec.seat_count > 2 else None,
                                      joining=rec)
        seats = tuple(me if s.user_id == user else s for s in rec.seats)
        if current is None:
            seats += (me,)
        after = dataclasses.replace(rec, seats=seats)
        full = sum(1 for s in seats if s.accepted) == rec.seat_count
        if not full:
            saved, events = await self._commit(
                rec, after, lambda s: [LobbyChanged(self._view(s), user, True)]
                if announced else [])
            await self._announce(events)
            return self._view(saved)
        after = await self._start(after)
        try:  # the start position: no entry was played yet (a continued game's were)
            start = replay(after, await self._entries(after) if after.ply else ())
            board: BoardState | None = BoardState(start.position, start.last_marks,
                                                  start.moves)
        except ServiceError:
            start, board = None, None

        def started(s: MatchRecord) -> list[TurnStarted]:
            view = self._view(s)
            return [TurnStarted(view, view.to_move, None, board=board)]
        saved, events = await self._commit(rec, after, started, by=user)
        if start is not None:
            self.states.replayed(saved, start)
        roomed = await self._open_room(saved)
        if roomed is not saved:
            # Announced in its room; still the start's events (the version they were
            # stored with: a restart would post the stored ones in the channel).
            where = dataclasses.replace(self._view(roomed), version=saved.version)
            events = [dataclasses.replace(e, match=where) for e in events]
        await self._announce(events)
        return self._view(roomed)

    async def _open_room(self, rec: MatchRecord) -> MatchRecord:
        """Have the adapter open the place where the match just started is played (a
        Discord thread, if the server uses them) and store it, before the start is
        announced there. A room that cannot be opened leaves the match in its channel."""
        if self.rooms is None or rec.thread_id:
            return rec
        settings = await self.get_guild_settings(rec.guild_id)
        if not settings.use_threads:
            return rec
        try:
            room = await self.rooms.open_room(self._view(rec))
        except Exception:  # the match has started; it is played in its channel instead
            log.exception("could not open a room for match %s", rec.id)
            return rec
        if room is None:
            return rec
        try:
            return await self._save(rec, dataclasses.replace(rec, thread_id=room))
        except Conflict:  # someone was quicker (a first move): attach it to the fresh match
            async def attach(fresh: MatchRecord) -> MatchRecord:
                return await self._save(fresh, dataclasses.replace(fresh, thread_id=room))
            return await self._retrying(rec.id, attach)

    async def decline(self, match_id: int, user: int, *, caller: Caller | None = None) -> MatchView:
        """An invited user says no: a 2-player challenge ends; a lobby frees his place."""
        async def attempt(rec: MatchRecord) -> MatchView:
            if not rec.status.is_waiting:
                raise NotAllowed(_("match #{match} is not waiting for an answer", match=rec.id))
            mine = rec.seat_of(user)
            if mine is None or mine.accepted:
                if user == rec.challenger_id:
                    raise NotAllowed(_("that is your own challenge: use cancel"))
                raise NotAPlayer(_("you are not invited to match #{match}", match=rec.id))
            if rec.seat_count == 2:
                after = dataclasses.replace(rec, status=MatchStatus.DECLINED)
                saved, events = await self._commit(rec, after, lambda s: [
                    ChallengeClosed(self._view(s), user, "declined")], by=user)
            else:
                after = dataclasses.replace(
                    rec, seats=tuple(s for s in rec.seats if s.user_id != user))
                saved, events = await self._commit(rec, after, lambda s: [
                    LobbyChanged(self._view(s), user, False)])
            await self._announce(events)
            return self._view(saved)
        return await self._retrying(match_id, attempt)

    async def cancel(self, match_id: int, user: int, *, caller: Caller | None = None) -> MatchView:
        """The challenger withdraws a challenge or lobby; a lobby member leaves it."""
        async def attempt(rec: MatchRecord) -> MatchView:
            if rec.status is MatchStatus.ACTIVE:
                raise NotAllowed(_("match #{match} has started or ended; resign instead",
                                   match=rec.id))
            if not rec.status.is_waiting:  # nothing to resign: a cancelled one, say
                raise MatchOver(_("match #{match} is over ({status})", match=rec.id,
                                  status=status(rec.status.value)))
            if user == rec.challenger_id:
                saved, events = await self._commit(rec, dataclasses.replace(
                    rec, status=MatchStatus.CANCELLED), lambda s: [
                    ChallengeClosed(self._view(s), user, "cancelled")], by=user)
                await self._announce(events)
                return self._view(saved)
            mine = rec.seat_of(user)
            if mine is None:
                raise NotAPlayer(_("you are not in match #{match}", match=rec.id))
            if not mine.accepted:
                raise NotAllowed(_("you were invited: decline instead"))
            saved, events = await self._commit(rec, dataclasses.replace(
                rec, seats=tuple(s for s in rec.seats if s.user_id != user)), lambda s: [
                LobbyChanged(self._view(s), user, False)])
            await self._announce(events)
            return self._view(saved)
        return await self._retrying(match_id, attempt)

    async def attach_thread(self, match_id: int, thread_id: int | None,
                            channel_id: int | None = None,
                            *, caller: Caller | None = None) -> MatchView:
        """Remember where the adapter posts about this match."""
        async def attempt(rec: MatchRecord) -> MatchView:
            after = dataclasses.replace(
                rec, thread_id=thread_id,
                channel_id=channel_id if channel_id is not None else rec.channel_id)
            return self._view(await self._save(rec, after))
        return await self._retrying(match_id, attempt)
