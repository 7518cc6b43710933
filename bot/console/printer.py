"""The console's one printer: every reply and every announcement (outbox entry) the console
shows, as lines of text (and boards as PNGs with ``--boards``)."""

from __future__ import annotations

import asyncio
import re
from collections.abc import Callable, Iterable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import ClassVar, TextIO

from bot import puzzles
from bot.boards import glance_picture, glance_status, text_board
from bot.console.common import (
    CONSOLE_GUILD,
    ENDED_WITHOUT_A_MOVE,
    display_width,
    padded,
)
from bot.console_args import CONSOLE_SYNTAX
from bot.event_handlers import EventHandlers
from bot.names import NameBook
from locales.i18n import (
    DEFAULT_LOCALE,
    Words,
    _,
    _n,
    commands_written,
    joined,
    listing,
    moment,
    moments_in,
    negotiate,
    person,
    render,
)
from locales.results import leaving_note, result_sentence
from locales.terms import (
    choice_title,
    chosen_options,
    game_name,
    ladder_name,
    move_display,
    seat_colour,
    status,
)
from service import (
    ChallengeClosed,
    ChallengeReceived,
    Clock,
    ClocksExtended,
    ConditionalMovePlayed,
    DeadlineReminder,
    DrawAccepted,
    DrawDeclined,
    DrawOffered,
    Event,
    LobbyChanged,
    MatchEnded,
    MatchStatus,
    MatchView,
    MoveFollowed,
    MovePlayedFor,
    OfferSettled,
    PauseDeclined,
    PauseEnded,
    PauseOffered,
    PauseStarted,
    PlayerOut,
    SeatTakenOver,
    SetupSubmitted,
    StandingsChanged,
    TakebackDeclined,
    TakebackOffered,
    TakenBack,
    TurnStarted,
    texts,
)
from service.computer_seats import computer_name, computer_title, computer_user, is_computer
from service.events import (
    AutoVacation,
    DailyPuzzle,
    DigestDue,
    SeasonEnded,
    TimeGiven,
    TimeLapsed,
    VacationEnded,
    VacationStarted,
)
from service.imported_seats import imported_in, is_imported
from service.records import OutboxEntry
from service.seasons import Schedule, SeasonRecord
from service.timecontrol import (
    as_seated,
    describe_time_control,
    parse_time_control,
    weekends_in_utc,
    with_claim,
    with_weekends,
)
from service.tournaments.table import StandingsTable
from service.views import SeatView

CODE_COMMAND = re.compile(r"`(/[^`\n]+)`")
"""A command in Markdown's code marks, as texts shared with Discord write it."""


def plain_commands(line: str) -> str:
    """``line`` with its commands out of Markdown's code marks: Discord shows
    `` `/puzzle next` `` as code, a terminal would show the backticks; the console names
    commands bare everywhere else (``see /games``). Other code spans (a move, a word to
    type) keep their marks.

    >>> plain_commands("you have no puzzle open: `/puzzle next` gives you one (`h3-e3`)")
    'you have no puzzle open: /puzzle next gives you one (`h3-e3`)'
    """
    return CODE_COMMAND.sub(r"\1", line)


class ConsolePrinter:
    """The console's output and the service's ``Notifier`` and ``NameResolver``: prints
    replies and what Discord would post, names users, and remembers each user's current
    match. Built first: the service is built over it, then the ``Console`` over both."""

    def __init__(self, out: TextIO, locale: str = DEFAULT_LOCALE) -> None:
        self.out = out
        self.locale = negotiate(locale)  # the language it prints in (``--lang``)
        self.names: dict[int, str] = {}
        self.name_book = NameBook()  # the names seen, stored so they outlive the session
        self.current_match: dict[int, int] = {}
        self.declining: int | None = None  # who is declining now (a lobby says "declined")
        self.boards_dir: Path | None = None  # set by the Console: where images are drawn
        self.clock: Clock | None = None  # set by the Console: its (shifted) clock
        self.imported: Callable[[int], str] = lambda user: ""
        self.zone: str | None = None
        """The time zone the console writes times in: that of the person it acts as
        (``as NAME``, his ``/timezone``); None (UTC) before anyone is named or when he
        set none. One person reads the terminal, whoever's words it prints."""
        """An imported player's name (the wiring hands it the service's ``imported_name``)."""

    locale = "en-US"  # the console's reader (new sentences are rendered for him)

    def say(self, text: Words) -> None:
        # the console's commands are English in every language (``/move``, not the name
        # a German reader's Discord shows), written as it reads them (``/history #7``,
        # not Discord's ``match:7``): texts shared with Discord name them so here; its
        # times are in its reader's own zone (``zone``)
        with commands_written(CONSOLE_SYNTAX), moments_in(self.zone):
            print(plain_commands(render(text, self.locale)), file=self.out, flush=True)

    def when(self, t: datetime | None) -> Words:
        """An instant as the console's reader reads it: in his time zone (``zone``),
        naming it (``2026-03-29 14:00 CEST``), else in UTC."""
        return "-" if t is None else moment(t)

    async def print_table(self, words: StandingsTable, stem: str) -> None:
        """The standings as text, and as an image file when boards are drawn."""
        table = words.shown(self.locale)
        self.say(f"{table.title} - {table.subtitle}")
        widths = [max(display_width(r[i]) for r in (table.headers, *table.rows))
                  for i in range(len(table.headers))]
        for row in (table.headers, *table.rows):
            self.say("  " + "  ".join(padded(c, w, left=i == 1)
                                      for i, (c, w) in enumerate(zip(row, widths,
                                                                     strict=True))))
        if self.boards_dir is not None:
            from render.table import draw_table  # the console draws only when asked to
            image = await asyncio.to_thread(
                draw_table, table.headers, table.rows, title=table.title,
                subtitle=table.subtitle, align=table.align, top_rows=table.top_rows,
                faded_rows=table.faded_rows, locale=self.locale)
            self.boards_dir.mkdir(parents=True, exist_ok=True)
            path = self.boards_dir / f"{stem}.png"
            path.write_bytes(image.png)
            self.say(_("standings image: {path}", path=str(path)))

    def name(self, uid: int | None, m: MatchView | None = None) -> Words:
        """``uid``'s name; an imported player the record did not name is named by his
        seat in ``m`` (without it, "an imported player": a list of seats says it)."""
        if uid is None:
            return _("(empty)")
        if is_computer(uid):
            return computer_title(uid)
        if is_imported(uid):
            return imported_in(m, uid, self.imported(uid))
        return self.names.get(uid) or person(uid)  # neutral words, never his id

    def seat_name(self, guild_id: int, user_id: int) -> str:
        """The service's ``NameResolver``: names on board images."""
        if is_imported(user_id):
            return self.imported(user_id)
        return computer_name(user_id) if is_computer(user_id) \
            else self.names.get(user_id, "")

    async def learn(self, uid: int, name: str) -> None:
        """Remember ``uid``'s name, in this session and in the database."""
        self.names[uid] = name
        await self.name_book.seen(CONSOLE_GUILD, uid, name)

    def names_of(self, uids: Iterable[int], m: MatchView | None = None) -> Words:
        names = [self.name(u, m) for u in uids]
        return joined(*names, separator=", ") if names else _("nobody")

    def seat_words(self, m: MatchView, s: SeatView) -> Words:
        """``'Red: alice'``, with whether the seat is out and its team-mates."""
        player = as_seated(self.name(s.user_id), m.stand_in_since(s.user_id),
                           m.skipped_since(s.user_id))
        said: Words = _("{seat}: {player}", seat=seat_colour(s.name), player=player)
        if s.out:
            said = _("{seat} (out)", seat=said)
        mates = m.team_mates(s.user_id) if s.user_id is not None else ()
        if mates:
            said = _("{seat} (with {players})", seat=said, players=self.names_of(mates, m))
        return said

    def seat_lines(self, m: MatchView, *, ratings: bool = True) -> list[Words]:
        """A line per seat, as Discord's board and turn post list the players: the mover
        marked, and each player's rating while the match is live (``texts.seat_rating``:
        casual games too; none once it is over, nor with ``ratings`` False)."""
        lines: list[Words] = []
        for s in m.seats:
            arrow = "▶ " if s.user_id is not None and s.user_id in m.to_move else "  "
            rating = texts.seat_rating(m, s) if ratings else None
            said = self.seat_words(m, s) if rating is None else \
                joined(self.seat_words(m, s), rating, separator=" · ")
            lines.append(joined(arrow, said, separator=""))
        return lines

    def describe(self, m: MatchView) -> Words:
        seats: Words = joined(*(self.seat_words(m, s) for s in m.seats), separator="; ")
        if m.status.is_waiting:
            # Nobody is seated yet: say who is in, who is invited, and what is still open.
            joined_users = [u for u in m.joined]
            free = m.seat_count - len(joined_users) - len(m.invited)
            parts: list[Words] = [_("{players} in", players=self.names_of(joined_users))]
            if m.invited:
                parts.append(_("{players} invited", players=self.names_of(m.invited)))
            if free > 0:
                parts.append(_n("{count} open place", "{count} open places", free))
            chosen = [_("{seat}: {player}", seat=seat_colour(s.name),
                        player=self.name(s.user_id)) for s in m.seats
                      if s.user_id is not None]
            seats = joined(*parts, separator=", ")
            if chosen:
                seats = _("{players} (seats {seats})", players=seats,
                          seats=joined(*chosen, separator="; "))
        # a challenge that never started: who it was between, not its empty seats
        never_seated = m.status in (MatchStatus.CANCELLED, MatchStatus.DECLINED) and \
            all(s.user_id is None for s in m.seats)
        if (not m.seats or never_seated) and not m.status.is_waiting:
            others = [u for u in (*m.joined, *m.invited) if u != m.challenger_id]
            seats = _("{challenger} vs {players}", challenger=self.name(m.challenger_id),
                      players=self.names_of(others) if others else _("anyone"))
        state: Words = status(m.status.value)
        if m.status is MatchStatus.ACTIVE:
            state = _("move {n}, {players} to move", n=m.moves_played + 1,
                      players=self.names_of(m.to_move))
            if m.deadlines_differ:  # each on his own clock
                each = [_("{player} (by {deadline})", player=self.name(u),
                          deadline=moment(d)) for u, d in m.own_deadlines]
                state = _("move {n}, {players} to move", n=m.moves_played + 1,
                          players=joined(*each, separator=", "))
            elif m.deadline:
                state = _("{state} by {deadline}", state=state,
                          deadline=moment(m.deadline))
            elif m.lapsed is not None:
                state = joined(state, _("(time ran out {when}; waiting for a claim)",
                                        when=self.when(m.lapsed)))
            for who, until in m.away:
                if self.clock is not None and until <= self.clock.now():
                    continue  # over: the vacation ended by itself
                state = joined(state, _("({player} on vacation until {until})",
                                        player=self.name(who), until=self.when(until)))
            paused = m.pause_ends(self.clock.now()) if self.clock is not None else None
            if paused is not None:
                state = joined(state, _("(paused by agreement until {until})",
                                        until=self.when(paused)))
            utc = [u for u, zone in m.time_zones if zone is None]
            if m.weekends and utc:
                state = joined(state, _("({note})", note=weekends_in_utc(
                    self.names_of(utc))))
        elif m.result is not None and m.status is MatchStatus.ABORTED:
            state = self.result_text(m)  # its reason says "aborted: ..." itself
        elif m.result is not None:
            state = _("{state}: {result}", state=state, result=self.result_text(m))
        # the options as the console's /challenge takes them, in the game's order
        opts = " ".join(f"{k}:{v}" for k, v in chosen_options(m.game, m.options))
        game: Words = joined(game_name(m.game, m.game_name), opts) if opts \
            else game_name(m.game, m.game_name)
        terms: Words
        if "+" not in m.time_control and not m.claim_win and not m.weekends:
            terms = _n("rated, {count}d/move", "rated, {count}d/move", m.days_per_move) \
                if m.rated else _n("casual, {count}d/move", "casual, {count}d/move",
                                   m.days_per_move)
        else:
            pace: Words = describe_time_control(parse_time_control(m.time_control)) \
                if "+" in m.time_control else \
                _n("{count}d/move", "{count}d/move", m.days_per_move)
            pace = with_weekends(with_claim(pace, m.claim_win), m.weekends)
            terms = _("rated, {pace}", pace=pace) if m.rated else \
                _("casual, {pace}", pace=pace)
        return _("#{match} {game} ({terms}) - {seats} - {state}", match=m.id, game=game,
                 terms=terms, seats=seats, state=state)

    def result_text(self, m: MatchView) -> Words:
        r = m.result
        if r is None:
            return status(m.status.value)
        # A ranking without a single winner (4 players) says the places, not "draw".
        places = joined(*(_("{place}. {players}", place=i + 1, players=self.names_of(g, m))
                          for i, g in enumerate(r.ranking)), separator="; ")
        return result_sentence("console", r.kind, reason=r.reason,
                               winners=self.names_of(r.winners, m),
                               winner_count=len(r.winners), places=places)

    async def deliver(self, entry: OutboxEntry, event: Event) -> None:
        """The console's outbox deliverer: print the entry's event."""
        await self.notify(event)

    async def notify(self, event: Event) -> None:
        """Print what Discord would post: the handler of the event's class."""
        self.remember(event.match)
        await self.handlers.handle(self, event)

    handlers: ClassVar[EventHandlers[ConsolePrinter]] = EventHandlers()
    """One method per event class (``bot.event_handlers``)."""

    @handlers.on(ChallengeReceived)
    async def challenge_received(self, event: ChallengeReceived) -> None:
        m = event.match
        game = choice_title(m.game, m.options, fallback=m.game_name)  # what is offered
        if event.taken:  # the computer took the rematch: its start follows, nobody is asked
            return
        if event.rematch_of is not None:
            self.say(_("* {player} asks {others} for a rematch of #{old}: {game}, match "
                       "#{match} (/accept or /decline)", player=self.name(event.by),
                       others=self.names_of(event.to), old=str(event.rematch_of),
                       game=game, match=str(m.id)))
            return
        if m.continued_from is not None:
            self.say(_n("* {player} asks {others} to continue imported game #{old} "
                        "({game}) from its last position, after {count} move: match "
                        "#{match} (/accept or /decline)", "* {player} asks {others} to "
                        "continue imported game #{old} ({game}) from its last position, "
                        "after {count} moves: match #{match} (/accept or /decline)",
                        m.ply, player=self.name(event.by), others=self.names_of(event.to),
                        old=str(m.continued_from), game=game, match=str(m.id)))
            return
        to = self.names_of(event.to) if event.to else _("anyone (open challenge)")
        self.say(_("* {player} challenges {players} to {game} (match #{match}): /accept "
                   "or /decline", player=self.name(event.by), players=to, game=game,
                   match=m.id))

    @handlers.on(LobbyChanged)
    async def lobby_changed(self, event: LobbyChanged) -> None:
        m = event.match
        who, filled = self.name(event.user_id), len(m.joined)
        if event.joined:
            said = _("* {player} joined lobby #{match} ({joined}/{seats})", player=who,
                     match=m.id, joined=filled, seats=m.seat_count)
        elif self.declining == event.user_id:
            said = _("* {player} declined lobby #{match} ({joined}/{seats})", player=who,
                     match=m.id, joined=filled, seats=m.seat_count)
        else:
            said = _("* {player} left lobby #{match} ({joined}/{seats})", player=who,
                     match=m.id, joined=filled, seats=m.seat_count)
        self.say(said)

    @handlers.on(ChallengeClosed)
    async def challenge_closed(self, event: ChallengeClosed) -> None:
        m = event.match
        self.say(_("* match #{match} declined by {player}", match=m.id,
                   player=self.name(event.by)) if event.reason == "declined" else
                 _("* match #{match} cancelled by {player}", match=m.id,
                   player=self.name(event.by)))

    @handlers.on(TurnStarted)
    async def turn_started(self, event: TurnStarted) -> None:
        m = event.match
        if not event.last_move:
            self.say(_("* #{match}: {players} to move", match=m.id,
                       players=self.names_of(event.users)))
            return
        move = move_display(event.last_move)
        self.say(_("* #{match}: {player} played {move} - {players} to move",
                   match=m.id, player=self.name(event.by), move=move,
                   players=self.names_of(event.users)) if event.by is not None else
                 _("* #{match}: after {move} - {players} to move", match=m.id,
                   move=move, players=self.names_of(event.users)))
        if event.draw_lapsed_by is not None:
            self.say(_("* #{match}: {player}'s draw offer lapsed (a move was played "
                       "instead of an answer)", match=m.id,
                       player=self.name(event.draw_lapsed_by)))

    @handlers.on(DeadlineReminder)
    async def deadline_reminder(self, event: DeadlineReminder) -> None:
        # the time left in words, to the nearest minute (half an hour is "30 minutes",
        # never "0 h"; 11:59:58 is "12 hours"), and when
        left = timedelta(minutes=round(event.remaining / timedelta(minutes=1)))
        self.say(_("* reminder #{match}: {players}, your move is due in {left} (by {when})",
                   match=event.match.id, players=self.names_of(event.users),
                   left=texts.duration(left), when=self.when(event.match.deadline)))

    @handlers.on(PlayerOut)
    async def player_out(self, event: PlayerOut) -> None:
        self.say(_("* #{match}: {player} {what} and is out", match=event.match.id,
                   player=self.name(event.user_id), what=event.what))

    @handlers.on(MovePlayedFor)
    async def move_played_for(self, event: MovePlayedFor) -> None:
        self.say(_("* #{match}: {player} {what}", match=event.match.id,
                   player=self.name(event.user_id), what=event.what))

    @handlers.on(DrawOffered)
    async def draw_offered(self, event: DrawOffered) -> None:
        self.say(_("* #{match}: {player} offers a draw (/draw accept or /draw decline)",
                   match=event.match.id, player=self.name(event.by)))

    @handlers.on(DrawAccepted)
    async def draw_accepted(self, event: DrawAccepted) -> None:
        self.say(_("* #{match}: {player} agreed to the draw; waiting for {players}",
                   match=event.match.id, player=self.name(event.by),
                   players=listing(self.name(u) for u in event.waiting)))

    @handlers.on(OfferSettled)
    async def offer_settled(self, event: OfferSettled) -> None:
        """Nothing to close in a terminal: the answer itself was printed."""

    @handlers.on(DrawDeclined)
    async def draw_declined(self, event: DrawDeclined) -> None:
        if event.withdrawn:
            self.say(_("* #{match}: {player} withdrew the draw offer", match=event.match.id,
                       player=self.name(event.by)))
        else:
            self.say(_("* #{match}: {player} declined the draw", match=event.match.id,
                       player=self.name(event.by)))

    @handlers.on(SetupSubmitted)
    async def setup_submitted(self, event: SetupSubmitted) -> None:
        self.say(_("* #{match}: {player} submitted an arrangement", match=event.match.id,
                   player=self.name(event.user_id)))

    @handlers.on(MatchEnded)
    async def match_ended(self, event: MatchEnded) -> None:
        m = event.match
        # an aborted match (a tournament game's says how it was scored: a forfeit, a
        # draw) ended without a move, whatever its reason
        if m.last_move and event.reason not in ENDED_WITHOUT_A_MOVE \
                and m.status is not MatchStatus.ABORTED:
            who = self.name(m.last_move_by) if m.last_move_by is not None \
                else _("someone")
            self.say(_("* #{match}: {player} played {move}", match=m.id, player=who,
                       move=move_display(m.last_move)))
        note = leaving_note(event.reason, self.name(event.left_by)) \
            if event.left_by is not None else None
        if note is not None:
            self.say(_("* #{match}: {note}", match=m.id, note=note))
        over = _("* #{match} is over: {result}", match=m.id, result=self.result_text(m))
        self.say(joined(over, m.broken, separator=" - ") if m.broken else over)
        for r in event.ratings:
            self.say(_("  rating {line}", line=r.text(render(self.name(r.user_id),
                                                             self.locale))))

    @handlers.on(ClocksExtended)
    async def clocks_extended(self, event: ClocksExtended) -> None:
        self.say(_("* #{match}: {notice}", match=event.match.id,
                   notice=texts.offline_notice(event.gap)))

    @handlers.on(SeasonEnded)
    async def season_ended(self, event: SeasonEnded) -> None:
        m = event.match
        self.say(_("* {season} is over: final leaderboards", season=SeasonRecord(
            m.guild_id, event.season, Schedule(event.schedule), event.starts_at,
            event.ends_at, m.channel_id).name()))
        if not event.boards:
            self.say(joined("  ", _("No rated game ended in this season."), separator=""))
        for board in event.boards:
            self.say(joined("  ", ladder_name(board.ladder), ":", separator=""))
            for x in board.entries:
                name = padded(render(self.name(x.user_id), self.locale), 12, left=True)
                self.say(joined(f"  {x.rank:3}. {name} {render(x.shown, self.locale):>7} ",
                                _("{wins}W {losses}L {draws}D", wins=x.wins,
                                  losses=x.losses, draws=x.draws)))

    @handlers.on(VacationStarted)
    async def vacation_started(self, event: VacationStarted) -> None:
        m = event.match
        if event.user_id in m.to_move:
            self.say(_("* #{match}: {player} is on vacation until {until}; their clock "
                        "is paused", match=str(m.id), player=self.name(event.user_id),
                        until=self.when(event.until)))
        else:  # not his move: no clock of his runs to pause (issue 38)
            self.say(_("* #{match}: {player} is on vacation until {until}; their next "
                        "turn starts no earlier than then", match=str(m.id),
                        player=self.name(event.user_id), until=self.when(event.until)))

    @handlers.on(VacationEnded)
    async def vacation_ended(self, event: VacationEnded) -> None:
        self.say(_("* #{match}: {player} is back from vacation; their clock runs again",
                    match=str(event.match.id), player=self.name(event.user_id)))

    @handlers.on(AutoVacation)
    async def auto_vacation(self, event: AutoVacation) -> None:
        m = event.match
        if event.days_spent > 1:
            self.say(_n("* #{match}: {player}'s time ran out long ago; {spent} of vacation "
                         "spent at once instead (until {until}, {count} day left)",
                         "* #{match}: {player}'s time ran out long ago; {spent} of vacation "
                         "spent at once instead (until {until}, {count} days left)",
                         event.days_left, match=str(m.id), player=self.name(event.user_id),
                         spent=_n("{count} day", "{count} days", event.days_spent),
                         until=self.when(event.until)))
            return
        self.say(_n("* #{match}: {player}'s time ran out; a vacation day was spent "
                     "instead (until {until}, {count} day left)",
                     "* #{match}: {player}'s time ran out; a vacation day was spent "
                     "instead (until {until}, {count} days left)", event.days_left,
                     match=str(m.id), player=self.name(event.user_id),
                     until=self.when(event.until)))

    @handlers.on(TimeGiven)
    async def time_given(self, event: TimeGiven) -> None:
        m = event.match
        self.say(_("* #{match}: {giver} gave {players} one day more (now due {when})",
                    match=str(m.id), giver=self.name(event.by),
                    players=self.names_of(event.to), when=self.when(m.deadline)))

    @handlers.on(TimeLapsed)
    async def time_lapsed(self, event: TimeLapsed) -> None:
        self.say(_("* #{match}: {late}'s time ran out; {waiting} may claim the win "
                    "(/claim) or keep waiting (/wait); {late} may still move until then",
                    match=str(event.match.id), late=self.names_of(event.late),
                    waiting=self.names_of(event.waiting)))

    @handlers.on(SeatTakenOver)
    async def seat_taken_over(self, event: SeatTakenOver) -> None:
        self.say(_("* #{match}: {player}'s time ran out; {computer} plays their seat "
                   "from move {move} on (unrated for them)",
                   match=str(event.match.id), player=self.name(event.user),
                   computer=computer_title(computer_user(event.level)), move=event.move))

    @handlers.on(PauseOffered)
    async def pause_offered(self, event: PauseOffered) -> None:
        m = event.match
        days = _n("{count} day", "{count} days", event.days)
        self.say(_("* #{match}: {player} proposes to pause for {days} ({reason}) "
                   "(/pause accept or /pause decline)", match=str(m.id),
                   player=self.name(event.by), days=days, reason=event.reason)
                 if event.reason else
                 _("* #{match}: {player} proposes to pause for {days} (/pause accept "
                   "or /pause decline)", match=str(m.id), player=self.name(event.by),
                   days=days))

    @handlers.on(PauseDeclined)
    async def pause_declined(self, event: PauseDeclined) -> None:
        self.say(_("* #{match}: {player} declined the pause", match=str(event.match.id),
                   player=self.name(event.by)))

    @handlers.on(PauseStarted)
    async def pause_started(self, event: PauseStarted) -> None:
        self.say(_("* #{match}: {player} agreed: paused until {until}; nobody moves "
                   "and no clock runs (/pause resume ends it earlier)",
                   match=str(event.match.id), player=self.name(event.accepted_by),
                   until=self.when(event.until)))

    @handlers.on(PauseEnded)
    async def pause_ended(self, event: PauseEnded) -> None:
        m = event.match
        self.say(_("* #{match}: {player} resumed the match; {players} to move (due "
                   "{when})", match=str(m.id), player=self.name(event.by),
                   players=self.names_of(m.to_move), when=self.when(m.deadline)))

    @handlers.on(TakebackOffered)
    async def takeback_offered(self, event: TakebackOffered) -> None:
        self.say(_("* #{match}: {player} asks to take back {move} (/takeback accept "
                    "or /takeback decline)", match=str(event.match.id),
                    player=self.name(event.by), move=event.move))

    @handlers.on(TakebackDeclined)
    async def takeback_declined(self, event: TakebackDeclined) -> None:
        self.say(_("* #{match}: {player} declined the takeback", match=str(event.match.id),
                    player=self.name(event.by)))

    @handlers.on(TakenBack)
    async def taken_back(self, event: TakenBack) -> None:
        self.say(_("* #{match}: {player} agreed: {move} is taken back; "
                    "{mover} to move again", match=str(event.match.id),
                    player=self.name(event.accepted_by), move=event.move,
                    mover=self.name(event.by)))

    @handlers.on(ConditionalMovePlayed)
    async def conditional_move_played(self, event: ConditionalMovePlayed) -> None:
        self.say(_("* #{match}: {player}'s conditional move {move} answers at once",
                    match=str(event.match.id), player=self.name(event.user_id),
                    move=event.move))

    @handlers.on(MoveFollowed)
    async def move_followed(self, event: MoveFollowed) -> None:
        self.say(_("* to {followers} (following): {player} played {move} in #{match}",
                    followers=self.names_of(event.followers),
                    player=self.name(event.by), move=event.move, match=str(event.match.id)))

    @handlers.on(DigestDue)
    async def digest_due(self, event: DigestDue) -> None:
        """The daily digest (issue 42): a line for each game, and its picture when boards
        are drawn."""
        self.say(_n("* to {player}, the daily digest: {count} game at a glance",
                    "* to {player}, the daily digest: {count} games at a glance",
                    len(event.games), player=self.name(event.user_id)))
        now = self.clock.now() if self.clock is not None else datetime.now(UTC)
        for g in event.games:
            status_line, _mine = glance_status(g.match, event.user_id, g.names, now)
            self.say(joined("  ", _("#{match} {game}", match=g.match.id,
                                    game=game_name(g.match.game, g.match.game_name)),
                            ": ", status_line, separator=""))
        if self.boards_dir is None:
            return
        shown = await asyncio.to_thread(glance_picture, event.games, event.user_id, now,
                                        self.locale)
        if shown is not None:
            self.boards_dir.mkdir(parents=True, exist_ok=True)
            path = self.boards_dir / f"digest-{event.user_id}-{event.match.version}.png"
            path.write_bytes(shown[0])
            self.say(_("your games at a glance: {path}", path=str(path)))

    @handlers.on(DailyPuzzle)
    async def daily_puzzle(self, event: DailyPuzzle) -> None:
        """The daily puzzle (issue 44): the task and the board, to solve with /puzzle."""
        position = puzzles.daily_position(event.game, event.position)
        if position is None:
            return
        self.say(_("* the daily puzzle, #{puzzle} ({game}): {task}. Solve it with "
                   "/puzzle next #{puzzle}", puzzle=event.puzzle_id,
                   game=game_name(event.game), task=puzzles.task(
                       event.game, position, event.seat, event.goal)))
        self.say(text_board(position))

    @handlers.on(StandingsChanged)
    async def standings_changed(self, event: StandingsChanged) -> None:
        m, t = event.match, event.tournament_id
        if event.final:
            who = self.name(event.winner) if event.winner is not None else _("shared")
            self.say(_("* tournament #{tournament} is over: winner {player}",
                       tournament=t, player=who))
        else:
            self.say(_("* tournament #{tournament}: standings after match #{match}",
                       tournament=t, match=m.id))
        await self.print_table(
            event.table, f"tournament{t}-" + ("final" if event.final else f"m{m.id}"))

    def remember(self, m: MatchView) -> None:
        for uid in (*m.players(), *m.invited, m.challenger_id):
            self.current_match.setdefault(uid, m.id)
        if m.status is MatchStatus.ACTIVE and m.ply == 0:
            # A match that has just started is what its players want to look at next.
            for uid in m.players():
                self.current_match[uid] = m.id
        for uid in m.to_move:
            self.current_match[uid] = m.id
