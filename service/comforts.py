"""Correspondence comforts (issue 16): rematch, takeback by consent, conditional moves
(``/premove``), private notes and follows.

Decisions where the issue is silent (the README and the report repeat them):

* **Rematch**: asked by one of the match's players once it is finished or aborted; a
  new challenge on the same terms (game, options, days per move, rated) with colours
  swapped (two players) or every seat moved one place on (four players: seat ``s`` of
  the old match sits at ``s + 1``); a random Querni deal is dealt anew. The others accept
  or decline it like any challenge. One live rematch per match at a time (stored with
  the new match, in its transaction). The computer takes its seats at once, at their
  levels (casual, as its games are): against it alone the rematch starts at once.
* **Takeback**: two-player games only (in a game of four, three players would all have
  to agree before the next one moves; Tablero does not offer it). The player who played
  the record's last move may ask while it is the last one; a move the rules answered at
  once (a forced pass) or a set-up submission cannot be taken back. Accepting undoes
  that one ply (a compound move or multi-capture is one ply) in one compare-and-set
  transaction that also deletes the match's conditional lines (their positions are
  gone); a pending draw offer lapses. Clocks: the player to move again gets back the
  time he had left when he played the move, at least an hour (a bank control: his bank
  as it was before the move, and the time he had left then, kept by ``turns.banked``;
  a per-move control: his turn's start plus the period, minus when he played); a
  vacation he is on delays it like any turn; the time the request waited is nobody's.
  Rated games allow it only when the server's ``takebacks_rated`` setting says so.
* **Conditional moves**: a line is the opponent's move and the answer in turn,
  separated by spaces, or by commas when a move has a space in it (Querni's removals);
  alternatives are separated by ``;`` or new lines. Entered while the opponent is to
  move; every move is checked against the position it would be played in; two lines
  may not answer the same moves differently. The line's state is read from the record
  (see ``records.ConditionalLine``), so nothing needs updating when a move lands and a
  crash between the opponent's move and the answer is caught up by the next sweep.
  Cancelled lines are dropped silently (the owner sees the move itself).
* **Notes**: players only; one note per player and match, up to ``MAX_NOTE``
  characters; shown only to him, and added to his own ``/history``.
* **Follow**: a match (in its server, while live, not one's own) or a player (every
  match of his in that server); told by direct message of each move; when DMs are
  closed the adapter's ladder mentions him in the match's thread instead (which adds
  him to it). At most ``MAX_FOLLOWS`` per person and server.
"""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Sequence
from datetime import datetime, timedelta

from locales.i18n import Text, _, command
from locales.rules_words import refusal_words, rules_words
from locales.terms import game_name
from rules import Position, RulesError
from service.challenges import Challenges
from service.computer import Computers
from service.computer_seats import is_computer, made_level
from service.core import ServiceCore
from service.errors import (
    InvalidOption,
    NotAllowed,
    NotAPlayer,
    ServiceError,
    StorageError,
)
from service.events import (
    ChallengeReceived,
    Event,
    TakebackDeclined,
    TakebackOffered,
    TakenBack,
)
from service.imported_seats import is_imported
from service.outbox import Announce
from service.play import Play
from service.records import (
    SPECIAL_PREFIX,
    ClockState,
    ConditionalLine,
    Follow,
    MatchRecord,
    MatchStatus,
    RecordEntry,
    SeatRecord,
    TakebackRequest,
)
from service.states import Replay, public_view, replay
from service.timecontrol import reminder_for
from service.turns import calendar_of, taken_back
from service.views import BoardState, Caller, MatchView, MoveResult
from service.weekends import Calendar

log = logging.getLogger(__name__)

MAX_NOTE = 1000
"""Characters in one private note."""
MAX_LINES = 10
"""Conditional lines one player may keep in one match."""
MAX_LINE_MOVES = 20
"""Moves in one conditional line (ten pairs)."""
MAX_LINE_TEXT = 2000
"""Characters of one /premove text (several lines)."""
MAX_FOLLOWS = 50
"""Follows one person may keep in one server."""
MIN_TAKEBACK_TIME = timedelta(hours=1)
"""The least time a player gets back with his move."""


def takeback_asker(m: MatchView, by: int | None, rated_allowed: bool) -> int | None:
    """Who may ask to take back the move ``by`` just played in ``m`` (the Take back
    button of its turn post, issue 42), by the rules ``request_takeback`` checks: an
    active two-player game, rated ones only where the server allows it
    (``rated_allowed``), the record's last entry a move on the board that ``by`` played
    (not a pass the rules played for the other, not a set-up), none asked yet; and
    never against the computer, which answers no request. None: nobody may."""
    if m.status is not MatchStatus.ACTIVE or m.seat_count != 2 or (m.rated and not
                                                                   rated_allowed):
        return None
    if by is None or m.last_move_by != by or by in m.to_move or m.takeback_by is not None:
        return None
    last = m.last_move or ""
    if not last or last.startswith(SPECIAL_PREFIX) or last == "setup submitted":
        return None
    if any(is_computer(u) for u in m.players()):
        return None
    return by


class ConditionalLineError(ServiceError):
    """A conditional line that cannot be stored; the message names the line and move."""


def split_lines(text: str) -> list[list[str]]:
    """The moves of each alternative line of a ``/premove`` text: lines separated by
    ``;`` or new lines; moves by commas when the line has any, else by spaces.

    >>> split_lines("h3-e3 c7-c6 h2-e2 b8-c6; h3-e5 c7-c6")
    [['h3-e3', 'c7-c6', 'h2-e2', 'b8-c6'], ['h3-e5', 'c7-c6']]
    >>> split_lines("c2-e4 r3-5, d8-d7")
    [['c2-e4 r3-5', 'd8-d7']]
    """
    out = []
    for raw in text.replace("\n", ";").split(";"):
        raw = raw.strip()
        if not raw:
            continue
        parts = raw.split(",") if "," in raw else raw.split()
        out.append([" ".join(p.split()) for p in parts])
    return out


SHOWN_TOKEN = 30
"""Characters of a typed move an error message repeats (a 2,000-character word is not
echoed back whole)."""


def shown(token: str) -> str:
    """``token`` as an error message repeats it: cut to ``SHOWN_TOKEN`` characters.

    >>> shown("h3-e3"), shown("x" * 40)
    ('h3-e3', 'xxxxxxxxxxxxxxxxxxxxxxxxxxxxx…')
    """
    return token if len(token) <= SHOWN_TOKEN else token[:SHOWN_TOKEN - 1] + "…"


def parse_lines(p: Position, text: str) -> list[tuple[str, ...]]:
    """Each line of ``text`` as canonical moves, checked against ``p`` (the opponent to
    move) move by move; ``ConditionalLineError`` names the first move that fails."""
    v = p.variant
    lines = split_lines(text)
    if not lines:
        raise ConditionalLineError(_(
            "write a line: their move, then yours, in pairs (e.g. `h3-e3 c7-c6`); "
            "separate alternative lines with `;`"))
    out: list[tuple[str, ...]] = []
    for n, tokens in enumerate(lines, start=1):
        if any(not t for t in tokens):
            raise ConditionalLineError(_("line {line} has an empty move (two commas in a "
                                         "row?)", line=str(n)))
        if len(tokens) % 2:
            raise ConditionalLineError(_(
                "line {line} ends with their move {move}: give your answer to it too "
                "(moves go in pairs: theirs, then yours)", line=str(n),
                move=shown(tokens[-1])))
        if len(tokens) > MAX_LINE_MOVES:
            raise ConditionalLineError(_(
                "line {line} has {count} moves; at most {most} (ten pairs)",
                line=str(n), count=len(tokens), most=MAX_LINE_MOVES))
        q = p
        canonical: list[str] = []
        for i, token in enumerate(tokens):
            whose = _("their") if i % 2 == 0 else _("your")
            if q.outcome() is not None:
                raise ConditionalLineError(_(
                    "line {line}: the game is over before move {n} ({move})",
                    line=str(n), n=str(i + 1), move=shown(token)))
            try:
                move = v.parse_noted_move(q, token)
            except RulesError as e:
                raise ConditionalLineError(_(
                    "line {line}, move {n} ({whose} move {move}) cannot be played there: "
                    "{why}", line=str(n), n=str(i + 1), whose=whose, move=shown(token),
                    why=rules_words(e))) from None
            canonical.append(v.format_move(q, move))
            q = q.play(move)
        out.append(tuple(canonical))
    return out


def clashes(lines: Sequence[tuple[str, ...]]) -> tuple[int, int, str] | None:
    """Two lines that answer the same moves differently: ``(first, second, their
    move)`` (1-based line numbers), else None. A move has one answer."""
    answers: dict[tuple[str, ...], tuple[str, int]] = {}
    for n, line in enumerate(lines, start=1):
        for k in range(1, len(line), 2):
            before = line[:k]
            found = answers.setdefault(before, (line[k], n))
            if found[0] != line[k]:
                return found[1], n, line[k - 1]
    return None


def line_state(line: ConditionalLine, ply: int, played: dict[int, str]
               ) -> tuple[bool, str | None]:
    """Whether ``line`` is still alive with the match at ``ply`` (``played``: the record's
    texts by ply from the line's start), and the answer due now if there is one."""
    k = ply - line.start_ply
    if k < 0:
        return True, None
    if k >= len(line.moves):
        return False, None  # played out (or outrun)
    if [played.get(line.start_ply + i) for i in range(k)] != list(line.moves[:k]):
        return False, None  # another reply: the line is cancelled
    return True, line.moves[k] if k % 2 == 1 else None


class Comforts:
    """Rematch, takeback, conditional moves, notes and follows."""

    def __init__(self, core: ServiceCore, challenges: Challenges, play: Play,
                 computers: Computers) -> None:
        self.repository = core.repository
        self.clock = core.clock
        self.shards = core.shards
        self.states = core.states
        self.get_guild_settings = core.get_guild_settings
        self._variant = core.variant
        self._record = core.record
        self._retrying = core.retrying
        self._commit = core.commit
        self._with_settled = core.with_settled
        self._announce = core.announce
        self._view = core.view
        self._entries = core.entries
        self._read_state = core.read_state
        self._require_player = core.require_player
        self._require_active = core.require_active
        self._challenges = challenges
        self._play = play
        self._computers = computers

    async def sweep_due_conditionals(self, now: datetime | None = None) -> list[Event]:
        """Conditional answers a restart left due (the sweep's first part: they are
        moves the opponent already waits for)."""
        await self.sweep_conditionals()
        return []

    # ------------------------------------------------------------------ rematch

    async def rematch(self, match_id: int, user: int, *, caller: Caller | None = None) -> MatchView:
        """A new challenge from ``user`` to the other players of the finished match on
        the same terms, colours swapped (two players) or seats rotated (four). The
        computer's seats are taken at once, at their levels (it accepts; the match is
        casual); when every other seat is the computer's, the match starts at once, as
        ``challenge_computer`` starts one (its last seat accepted through ``accept``)."""
        rec = await self._record(match_id)
        me = rec.seat_of(user)
        if me is not None and rec.status.is_live:
            # asked again from the rematch itself (the console's current match after the
            # first ask; against the computer it has started already): name the
            # rematch, not a refusal meant for strangers
            source = await self.repository.rematch_source(rec.id)
            if source is not None:
                raise NotAllowed(_("a rematch of match #{match} is already under way: "
                                   "match #{rematch}", match=str(source),
                                   rematch=str(rec.id)))
        if me is None or me.seat is None or not me.accepted:
            raise NotAPlayer(_("only the players of match #{match} can ask for a rematch",
                               match=str(rec.id)))
        if rec.status not in (MatchStatus.FINISHED, MatchStatus.ABORTED):
            raise NotAllowed(_("match #{match} is not over: a rematch is asked for once "
                               "the game has ended", match=str(rec.id)))
        others = [s for s in rec.seats if s.user_id != user and s.seat is not None]
        computers = {s.user_id for s in others if made_level(s.user_id) is not None}
        gone = sorted(made_level(u) or 0 for u in computers if not is_computer(u))
        if gone:  # a level taken out since the match was played
            raise NotAllowed(_("the computer no longer plays at level {level}: challenge "
                               "it again with {challenge}", level=str(gone[0]),
                               challenge=command("challenge")))
        if computers:
            self._computers.require_available()
        v = self._variant(rec.game)
        options = dict(rec.options)
        if "seed" in options and "arrangement" not in options:
            del options["seed"]  # a random deal is dealt anew
        opts = self._challenges.coerce_options(v, options)
        try:
            start = v.start(**opts)
        except (RulesError, ValueError, TypeError) as e:
            raise InvalidOption(_("{game} cannot start with those options any more: "
                                  "{why}", game=game_name(v.key, v.name),
                                  why=refusal_words(e))) from None
        people = [s.user_id for s in others if s.user_id not in computers]
        await self._challenges.guard.refuse_blocked(rec.guild_id, user, people)
        if people:
            asked = await self.repository.rematch_of(rec.id)
            if asked is not None and (await self._record(asked)).status.is_live:
                raise self._under_way(rec.id, asked)  # (said before the bound's refusal)
            await self._challenges.guard.refuse_too_many(rec.guild_id, user, rec.game, people)
        count = rec.seat_count
        # an imported record's player (a seat out of a continued game) is nobody to ask:
        # he could never accept, and the lobby never started; his seat is an open place
        others = [s for s in others if not is_imported(s.user_id)]
        # every other seat the computer's: its last one accepts through ``accept``,
        # which starts the match; the others (and every one beside people) sit at once
        last = others[-1].user_id if len(computers) == count - 1 else None

        def seated(s: SeatRecord, seat: int | None) -> SeatRecord:
            return SeatRecord(s.user_id, seat, None,
                              accepted=s.user_id in computers and s.user_id != last,
                              notify=s.notify, time_zone=s.time_zone)
        if count == 2:
            mine: int | None = None
            pref: int | None = 1 - me.seat  # colours swapped
            invited = [seated(s, None) for s in others]
        else:
            pref = (me.seat + 1) % count  # every seat one place on
            mine = pref
            invited = [seated(s, ((s.seat or 0) + 1) % count) for s in others]
        new = self._challenges.challenge_record(
            rec.guild_id, rec.channel_id, user, v, opts, start,
            (dataclasses.replace(me, seat=mine, team=None, out=False), *invited),
            rec.days_per_move, rec.rated and not computers,  # the computer's: casual
            pref, ClockState(rec.clock.control, rec.clock.claim,
                             weekends=rec.clock.weekends,  # the same time control
                             on_timeout=rec.clock.on_timeout,  # and lobby's choice
                             stand_in_level=rec.clock.stand_in_level))
        to = tuple(s.user_id for s in invited if s.user_id not in computers)
        announce: Announce[MatchRecord] = Announce(
            lambda s: [ChallengeReceived(self._view(s), user, to, rematch_of=rec.id,
                                         taken=last is not None)],
            self.clock.now())
        saved = await self.repository.create_rematch(rec.id, new, announce)
        if saved is None:
            raise self._under_way(rec.id, await self.repository.rematch_of(rec.id))
        await self._announce(announce.events)
        if last is not None:  # the computer accepts: the match starts
            return await self._challenges.accept(saved.id, last)
        return self._view(saved)

    @staticmethod
    def _under_way(match_id: int, rematch: int | None) -> NotAllowed:
        return NotAllowed(_("a rematch of match #{match} is already under way: match "
                            "#{rematch}", match=str(match_id), rematch=str(rematch)))

    # ------------------------------------------------------------------ takeback

    async def request_takeback(self, match_id: int, user: int,
                               *, caller: Caller | None = None) -> MatchView:
        """``user`` asks to take back his move, the last of the record."""
        async def attempt(rec: MatchRecord) -> MatchView:
            self._require_active(rec)
            self._require_player(rec, user)
            await self._takeback_allowed(rec)
            if rec.takeback is not None and rec.takeback.ply == rec.ply:
                raise NotAllowed(_("you have asked already; wait for the answer"))
            entries = await self._entries(rec, max(0, rec.ply - 1))
            self._own_last(rec, user, entries[-1] if entries else None)
            move = rec.last_move or entries[-1].text
            saved, events = await self._commit(rec, dataclasses.replace(
                rec, takeback=TakebackRequest(user, rec.ply)),
                lambda s: [TakebackOffered(self._view(s), user, move)])
            await self._announce(events)
            return self._view(saved)
        return await self._retrying(match_id, attempt)

    async def accept_takeback(self, match_id: int, user: int,
                              *, caller: Caller | None = None) -> MatchView:
        """The opponent agrees: the last ply is undone (see the module's decisions)."""
        async def attempt(rec: MatchRecord) -> MatchView:
            self._require_active(rec)
            self._require_player(rec, user)
            asked = self._pending_takeback(rec, user)
            entries = await self._entries(rec)
            last = entries[-1]
            self._own_last(rec, asked.by, last)
            before = self._replay_before(rec, entries)
            p = before.position
            now = self.clock.now()
            mover = self._require_player(rec, asked.by).seat
            assert mover is not None  # an active match has seated every player
            calendar = calendar_of(rec, mover)
            deadline, clock = taken_back(rec, mover, now,
                                         self._time_back(rec, entries, calendar),
                                         MIN_TAKEBACK_TIME)
            prior = before.entries[-1] if before.entries else None
            after = dataclasses.replace(
                rec, ply=rec.ply - 1, position_text=p.to_text(),
                to_move=tuple(sorted(p.to_move)),
                last_move=prior[3] if prior else None,
                last_move_by=prior[1] if prior else None, takeback=None, draw_offer=None,
                deadline=deadline, remind_at=reminder_for(now, deadline, calendar), updated_at=now,
                clock=clock)
            board = BoardState(public_view(p), before.last_marks, before.moves)
            move = rec.last_move or last.text
            announce: Announce[MatchRecord] = Announce(self._with_settled(
                rec, lambda s: [TakenBack(self._view(s), asked.by, user, move, board)],
                user), now)
            saved = await self.repository.take_back(rec, after, announce)
            self.states.replayed(saved, before)
            await self._announce(announce.events)
            return self._view(saved)
        return await self._retrying(match_id, attempt)

    async def decline_takeback(self, match_id: int, user: int,
                               *, caller: Caller | None = None) -> MatchView:
        async def attempt(rec: MatchRecord) -> MatchView:
            self._require_active(rec)
            self._require_player(rec, user)
            self._pending_takeback(rec, user)
            saved, events = await self._commit(rec, dataclasses.replace(
                rec, takeback=None), lambda s: [TakebackDeclined(self._view(s), user)],
                by=user)
            await self._announce(events)
            return self._view(saved)
        return await self._retrying(match_id, attempt)

    async def _takeback_allowed(self, rec: MatchRecord) -> None:
        if rec.seat_count != 2:
            raise NotAllowed(_("takebacks are for two-player games: in a game of four, "
                               "every other player would have to agree first"))
        if rec.rated:
            settings = await self.get_guild_settings(rec.guild_id)
            if not settings.takebacks_rated:
                raise NotAllowed(_("this server does not allow takebacks in rated games "
                                   "(a server manager can allow them with {settings})",
                                   settings=command("settings")))

    @staticmethod
    def _own_last(rec: MatchRecord, user: int, last: RecordEntry | None) -> None:
        """Refuse unless ``last`` (the record's last entry) is a move ``user`` played."""
        if last is None or last.user_id != user or rec.last_move_by != user:
            raise NotAllowed(_("only the last move can be taken back, by the player who "
                               "played it, before the reply"))
        if last.text.startswith(SPECIAL_PREFIX) or rec.last_move == "setup submitted":
            raise NotAllowed(_("that was not a move on the board: it cannot be taken "
                               "back"))

    @staticmethod
    def _pending_takeback(rec: MatchRecord, user: int) -> TakebackRequest:
        asked = rec.takeback
        if asked is None or asked.ply != rec.ply:
            raise NotAllowed(_("nobody has asked for a takeback in match #{match} (or "
                               "the move was answered already)", match=str(rec.id)))
        if asked.by == user:
            raise NotAllowed(_("you asked for this takeback: your opponent answers it"))
        return asked

    def _replay_before(self, rec: MatchRecord, entries: Sequence[RecordEntry]) -> Replay:
        """The record replayed without its last entry (a checked replay of the whole
        record first, so a broken match is never rewritten)."""
        replay(rec, entries)
        return replay(rec, entries[:-1], check=False)

    @staticmethod
    def _time_back(rec: MatchRecord, entries: Sequence[RecordEntry],
                   calendar: Calendar) -> timedelta:
        """The time the player had left when he played the move taken back, by a
        per-move control (a bank control keeps it exactly: ``turns.banked``), in the
        running time of his ``calendar``."""
        period = rec.control.start
        if len(entries) < 2:
            return period
        left = period - calendar.running(entries[-2].played_at, entries[-1].played_at)
        return max(timedelta(0), min(period, left))

    # ------------------------------------------------------------------ conditional moves

    async def add_conditional_moves(self, match_id: int, user: int, text: str,
                                    *, caller: Caller | None = None
                                    ) -> list[tuple[str, ...]]:
        """Store ``user``'s conditional lines (see ``parse_lines``); his live lines after
        it, as ``conditional_moves`` gives them."""
        if not isinstance(text, str) or len(text) > MAX_LINE_TEXT:
            raise InvalidOption(_("that is too long for conditional moves (at most "
                                  "{most} characters)", most=MAX_LINE_TEXT))
        rec, state = await self._read_state(match_id)
        self._require_active(rec)
        me = self._require_player(rec, user)
        if rec.seat_count != 2:
            raise NotAllowed(_("conditional moves are for two-player games"))
        p = state.position
        if p.in_setup:
            raise NotAllowed(_("conditional moves start once the board is set up"))
        if me.seat in p.to_move:
            raise NotAllowed(_("it is your move: play it first. Conditional moves answer "
                               "your opponent's next move"))
        mine = [line for line in await self._live_lines(rec) if line.user_id == user]
        # what each live line still holds from here (a line from an earlier move is
        # at its opponent's move now too)
        current = [line.moves[rec.ply - line.start_ply:] for line in mine]
        # a line he holds already (or gives twice) is stored once; ``numbers``: where
        # each new line was in his text
        typed = parse_lines(p, text)
        numbers = [n for n, line in enumerate(typed, start=1)
                   if line not in current and line not in typed[:n - 1]]
        new = [typed[n - 1] for n in numbers]
        if len(mine) + len(new) > MAX_LINES:
            raise NotAllowed(_("at most {most} conditional lines per match: clear some "
                               "first", most=MAX_LINES))
        clash = clashes([*current, *new])
        if clash is not None:
            first, second, theirs = clash
            raise ConditionalLineError(_(
                "line {second} answers {move} differently from line {first}: a move has "
                "one answer (clear your lines first to change it)",
                second=str(numbers[second - len(current) - 1]) if second > len(current)
                else str(second),
                first=str(first), move=theirs))
        if new:
            await self.repository.add_conditional_lines(rec.id, user, rec.ply, new,
                                                        self.clock.now())
        # the opponent may have moved since the position was read (his move saw no
        # line): the record decides at once rather than at the next sweep
        await self.advance_conditionals(rec.id)
        return await self.conditional_moves(match_id, user)

    async def conditional_moves(self, match_id: int, user: int,
                                *, caller: Caller | None = None) -> list[tuple[str, ...]]:
        """``user``'s live conditional lines in the match: the moves still to come."""
        rec = await self._record(match_id)
        self._require_player(rec, user)
        lines = [line for line in await self._live_lines(rec) if line.user_id == user]
        return [line.moves[max(0, rec.ply - line.start_ply):] for line in lines]

    async def clear_conditional_moves(self, match_id: int, user: int,
                                      *, caller: Caller | None = None) -> int:
        """Drop all of ``user``'s conditional lines in the match; how many were live."""
        rec = await self._record(match_id)
        self._require_player(rec, user)
        live = [line for line in await self._live_lines(rec) if line.user_id == user]
        await self.repository.delete_conditional_lines(rec.id, user_id=user)
        return len(live)

    async def _live_lines(self, rec: MatchRecord) -> list[ConditionalLine]:
        lines = await self.repository.conditional_lines(rec.id)
        if not lines or rec.status is not MatchStatus.ACTIVE:
            return []
        played = await self._played_since(rec, lines)
        return [line for line in lines if line_state(line, rec.ply, played)[0]]

    async def _played_since(self, rec: MatchRecord, lines: Sequence[ConditionalLine]
                            ) -> dict[int, str]:
        start = min(line.start_ply for line in lines)
        if start >= rec.ply:
            return {}
        return {e.ply: e.text for e in await self._entries(rec, start)}

    async def advance_conditionals(self, match_id: int, *, caller: Caller | None = None) -> int:
        """Play every conditional answer now due in the match (the record decides, so
        it is safe to call at any time), dropping lines a reply cancelled or that are
        played out; how many answers were played."""
        answered = 0
        for _round in range(MAX_LINE_MOVES + 2):
            rec = await self._record(match_id)
            lines = await self.repository.conditional_lines(match_id)
            if not lines:
                return answered
            if rec.status is not MatchStatus.ACTIVE:
                await self.repository.delete_conditional_lines(match_id)
                return answered
            played = await self._played_since(rec, lines)
            dead: list[int] = []
            due: tuple[ConditionalLine, str] | None = None
            for line in lines:
                alive, answer = line_state(line, rec.ply, played)
                if not alive:
                    dead.append(line.id)
                elif answer is not None and due is None:
                    due = (line, answer)
            if dead:
                await self.repository.delete_conditional_lines(match_id, ids=dead)
            if due is None:
                return answered
            line, answer = due
            owner, ply = line.user_id, rec.ply

            async def play(r: MatchRecord, owner: int = owner, answer: str = answer,
                           ply: int = ply) -> MoveResult:
                return await self._play.play_move(r, owner, answer, ply, setup=False,
                                        conditional=True)
            try:
                await self._retrying(match_id, play)
            except StorageError:
                raise  # the database failed, not the line: it stays for a later try
            except (ServiceError, RulesError) as e:
                # the line no longer fits (a rules detail outside the position, a race):
                # it is dropped, never retried forever
                log.info("conditional move %s in match %s not played: %s", answer,
                         match_id, e)
                await self.repository.delete_conditional_lines(match_id, ids=[line.id])
                continue
            answered += 1
        return answered

    async def sweep_conditionals(self) -> int:
        """Catch up after a restart: play the answers due in this process's matches."""
        played = 0
        for match_id in await self.repository.matches_with_conditionals():
            rec = await self.repository.load_match(match_id)
            if rec is None or not self.shards.owns(rec.guild_id):
                continue
            try:
                played += await self.advance_conditionals(match_id)
            except StorageError:
                raise  # the database failed: the whole sweep waits for the next tick
            except ServiceError as e:
                log.warning("conditional moves of match %s skipped: %s", match_id,
                            e.message)
        return played

    # ------------------------------------------------------------------ notes

    async def set_note(self, match_id: int, user: int, text: str,
                       *, caller: Caller | None = None) -> str:
        """Store ``user``'s private note on the match (replacing the one he had)."""
        if not isinstance(text, str) or not text.strip():
            raise InvalidOption(_("write the note's text"))
        if len(text) > MAX_NOTE:
            raise InvalidOption(_("a note holds at most {most} characters (that one has "
                                  "{count})", most=MAX_NOTE, count=len(text)))
        rec = await self._record(match_id)
        self._require_seated(rec, user, _("only the players of match #{match} keep notes "
                                          "on it", match=str(rec.id)))
        await self.repository.set_note(rec.id, user, text.strip(), self.clock.now())
        return text.strip()

    async def note(self, match_id: int, user: int, *, caller: Caller | None = None) -> str | None:
        rec = await self._record(match_id)
        self._require_seated(rec, user, _("only the players of match #{match} keep notes "
                                          "on it", match=str(rec.id)))
        return await self.repository.note_of(rec.id, user)

    async def clear_note(self, match_id: int, user: int, *, caller: Caller | None = None) -> bool:
        """Delete the note; False when there was none."""
        found = await self.note(match_id, user)
        if found is not None:
            await self.repository.set_note(match_id, user, None, self.clock.now())
        return found is not None

    @staticmethod
    def _require_seated(rec: MatchRecord, user: int, why: Text) -> None:
        seat = rec.seat_of(user)
        if seat is None or seat.seat is None or not seat.accepted:
            raise NotAPlayer(why)

    # ------------------------------------------------------------------ follows

    async def follow(self, guild_id: int, user: int, *, match_id: int | None = None,
                     player: int | None = None) -> Follow:
        """Follow a live match of this server or a player (his matches in it)."""
        wanted = self._follow_of(guild_id, user, match_id, player)
        if wanted.match_id is not None:
            rec = await self._record(wanted.match_id)
            if rec.status not in (MatchStatus.OPEN, MatchStatus.LOBBY, MatchStatus.ACTIVE):
                raise NotAllowed(_("match #{match} is over: there is nothing to follow",
                                   match=str(rec.id)))
            if rec.seat_of(user) is not None:
                raise NotAllowed(_("you play in match #{match}: you are told of its "
                                   "moves already", match=str(rec.id)))
        elif wanted.player_id == user:
            raise NotAllowed(_("you are told of your own matches already"))
        elif wanted.player_id is not None:
            await self._challenges.guard.refuse_following(guild_id, user, wanted.player_id)
        if len(await self.repository.follows_of(user, guild_id)) >= MAX_FOLLOWS:
            raise NotAllowed(_("you follow {most} already, the most there may be: "
                               "unfollow some first", most=MAX_FOLLOWS))
        if not await self.repository.add_follow(wanted):
            raise NotAllowed(_("you follow that already"))
        return wanted

    async def unfollow(self, guild_id: int, user: int, *, match_id: int | None = None,
                       player: int | None = None) -> Follow:
        wanted = self._follow_of(guild_id, user, match_id, player)
        if not await self.repository.remove_follow(wanted):
            raise NotAllowed(_("you do not follow that"))
        return wanted

    async def follows(self, guild_id: int, user: int) -> list[Follow]:
        return await self.repository.follows_of(user, guild_id)

    @staticmethod
    def _follow_of(guild_id: int, user: int, match_id: int | None,
                   player: int | None) -> Follow:
        """What ``user`` names to follow (the door saw that a match is of this server)."""
        if (match_id is None) == (player is None):
            raise InvalidOption(_("name a match or a player to follow (one of them)"))
        if match_id is not None:
            return Follow(user, guild_id, match_id=match_id)
        if isinstance(player, bool) or not isinstance(player, int) or player <= 0:
            raise InvalidOption(_("that is not a player"))
        return Follow(user, guild_id, player_id=player)
