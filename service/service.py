"""``MatchService``: every use-case of a match, as a façade over one part per group of
use-cases. Each part is a plain class that receives in ``__init__`` what it uses (the
shared ``ServiceCore``, from which it takes its ports and shared steps, and the other
parts it calls); ``MatchService`` builds them and delegates each operation to one of
them, one line each. Where to look (see also the package docstring):

* ``core``: ``ServiceCore``, the ports, the collaborators (``matches``, ``states``,
  ``ratings``, ``texts``, ``boards``) and the shared steps every part may take
* ``challenges``: ``Challenges``: challenge, accept/join, decline, cancel, seating,
  attach_thread
* ``play``: ``Play``: move, submit_setup, suggest_moves, copied notes
* ``endings``: ``Endings``: resign, draw offers
* ``deadlines``: ``Deadlines``: sweep_deadlines (reminders, timeouts), verify_all
* ``vacations``: ``Vacations``: vacation_status, start/end, the automatic vacation
* ``clocks``: ``Clocks``: resume (the heartbeat; clocks extended after Tablero was
  away), beat, give_time, claim_win
* ``pauses``: ``Pauses``: pause by agreement (propose, accept, decline, resume early)
* ``computer``: ``Computers``: challenge_computer, add_computers, play_computers
  (computer players, acting through this façade: ``MatchActions``)
* ``tournament_service``: ``Tournaments`` (create, join/leave, start, remove, cancel,
  rounds through challenge/accept, results, standings); the pure core is ``tournaments/``
* ``season_service``: ``Seasons``: leaderboard seasons (schedule, reset, list, the
  sweep that ends them); what a season is: ``seasons``
* ``comforts``: ``Comforts``: rematch, takeback, conditional moves (/premove), notes,
  follows
* ``blocks``: ``Blocks``: block, unblock, blocked (whom one blocks), set_challenges
  and challenges_on (no direct challenges for now); ``Guard``, the
  checks ``Challenges`` and ``Comforts`` take before a challenge, a join, a rematch or
  a follow (blocks, the bound on waiting challenges)
* ``web``: ``Web``: what the web pages read (a match for spectators, the board of any ply)
* ``queries``: ``Queries``: get_match, position, board_image, board_at (the board at any
  ply), describe, games_of, glance (games at a glance), history, record, leaderboard,
  stats, settings, preferences
* ``digests``: ``Digests``: the daily digest of games at a glance (set_digest, the
  sweep that writes the ones due into the outbox); it reads through ``Queries``
* ``explorer``: ``Explorer``: the opening explorer (counts each finished match as it
  ends, backfills, catches up at the sweep, answers ``explorer``)
* ``importer``: ``Importer``: ``import_record`` (record files as matches; counted in the
  explorer through ``Explorer``), the played games' fingerprints (``fingerprint_games``)
* ``puzzles``: ``Puzzles``: puzzles from finished games (``mine_puzzles``, the sweep's
  mining and daily puzzles, ``puzzle``, ``answer_puzzle``, ``puzzle_leaderboard``)
* ``background``: ``Background``: the stop (``stop_background``): the mining stopped,
  the explorer counts and fingerprints of the matches that just ended waited for

Who calls whom among the parts (each receives the ones it calls): ``Clocks`` and
``Deadlines`` end a match through ``Endings``; ``Deadlines`` spends vacation through
``Vacations``; ``Comforts`` makes rematches with ``Challenges`` (asking ``Computers``
whether the computer can play a rematch's seats) and plays conditional answers through
``Play``; ``Tournaments`` makes and ends its games through
``Challenges`` and ``Endings``. Two links would be cycles and go through this façade,
each as a narrow Protocol: a move plays the conditional answers it makes due
(``play.ConditionalAnswers``), and the computer acts through the doors a person's moves
take (``computer.MatchActions``). Reactions are data: the sweep is :meth:`sweepers`,
the parts that follow announcements are :meth:`_subscribers` (handed to the core).
"""

from __future__ import annotations

import random
from collections.abc import Awaitable, Callable, Mapping, Sequence
from datetime import datetime, timedelta

from locales.i18n import DEFAULT_LOCALE, Words
from rules import MoveMarks, Position
from service.background import STOP_GRACE, Background, Drained
from service.blocks import BlockMade, Blocks
from service.challenges import Challenges, ContinuableGame
from service.clocks import DEFAULT_GRACE, Clocks
from service.comforts import Comforts
from service.computer import DEFAULT_LEVEL, Computers, with_computer_names
from service.core import ServiceCore, Subscriber, Sweeper
from service.deadlines import Deadlines
from service.digests import Digests
from service.endings import Endings
from service.events import ClocksExtended, Event, SeasonEnded
from service.explorer import Explorer, ExplorerPlace, ExplorerView
from service.ids import checked_ids
from service.importer import ImportedMatch, Importer
from service.pauses import Pauses
from service.play import Play
from service.plies import PlyBoard
from service.ports import (
    BoardRenderer,
    Clock,
    MatchChanged,
    MatchRooms,
    MovePicker,
    NameResolver,
    Notifier,
    PuzzleMiner,
    Repository,
)
from service.puzzles import DEFAULT_PER_HOUR, PuzzleAnswer, Puzzles, PuzzleView
from service.queries import GLANCE_BOARDS, KEEP, Queries, Unchanged
from service.records import Follow, MatchRecord, PuzzlePlayer
from service.season_service import Seasons
from service.seasons import SeasonChange, SeasonRecord
from service.shards import ALL_SHARDS, ShardSet
from service.tournament_records import TournamentGame, TournamentRecord
from service.tournament_service import Tournaments
from service.tournaments import Format, StandingRow
from service.tournaments.table import StandingsTable
from service.vacations import Vacations
from service.views import (
    AnalysedMove,
    BoardImage,
    Caller,
    GameAnalysis,
    GameRecord,
    GlanceBoard,
    GuildSettings,
    HistoryView,
    LeaderboardEntry,
    LeaderboardPage,
    MatchAnalysis,
    MatchView,
    MoveResult,
    PlayerStats,
    UserPrefs,
    VacationView,
)
from service.web import Web, WebMatch, WebMember, WebServer


# the one door: every id is a plain int in SQLite's range, the caller may see what it
# names, and every text is valid text (no lone surrogate, no control character)
@checked_ids
class MatchService:
    """Every use-case of a match: a façade that builds the parts and hands each
    operation to one of them (see the module docstring)."""

    def __init__(self, repository: Repository, notifier: Notifier, clock: Clock,
                 renderer: BoardRenderer | None = None, rng: random.Random | None = None,
                 *, cache_size: int = 4096, names: NameResolver | None = None,
                 rooms: MatchRooms | None = None, shards: ShardSet = ALL_SHARDS,
                 picker: MovePicker | None = None, miner: PuzzleMiner | None = None,
                 puzzles_per_hour: int = DEFAULT_PER_HOUR) -> None:
        core = ServiceCore(repository, notifier, clock, renderer, rng, cache_size=cache_size,
                           names=with_computer_names(names), rooms=rooms, shards=shards)
        self.core = core
        # what the wiring and the tests read of the service
        self.repository = core.repository
        self.notifier = core.notifier
        self.clock = core.clock
        self.renderer = core.renderer
        self.shards = core.shards
        self.matches = core.matches
        self.states = core.states
        self.ratings = core.ratings
        # the parts, each given what it calls
        self._challenges = Challenges(core)
        self._endings = Endings(core)
        self._clocks = Clocks(core, self._endings)
        self._pauses = Pauses(core)
        self._vacations = Vacations(core)
        self._deadlines = Deadlines(core, self._endings, self._vacations)
        self._play = Play(core, conditionals=self)
        self._computers = Computers(core, actions=self, picker=picker)
        self._comforts = Comforts(core, self._challenges, self._play, self._computers)
        self._tournaments = Tournaments(core, self._challenges, self._endings)
        self._seasons = Seasons(core)
        self._blocks = Blocks(core, self._challenges)
        self._web = Web(core)
        self._queries = Queries(core)
        self._digests = Digests(core, self._queries)
        self._explorer = Explorer(core.repository, core.clock)
        self._importer = Importer(core.repository, core.clock, self._explorer, core.imported,
                                  core.view)
        self._puzzles = Puzzles(core, miner, picker, puzzles_per_hour)
        self._background = Background((self._puzzles.stop_mining, self._explorer.stop_counting),
                                      self._explorer.counting, self._importer.keying)
        core.subscribers = self._subscribers()

    @property
    def names(self) -> NameResolver | None:
        """Display names by user, computer players included (``ServiceCore.names``)."""
        return self.core.names

    # ------------------------------------------------------------------ reactions

    def sweepers(self) -> tuple[Sweeper, ...]:
        """The parts of the periodic sweep, in order: conditional answers a restart left
        due (moves the opponent already waits for), reminders and timeouts, tournaments
        (registration closed, rounds to finish), seasons that ended, and last the
        computer turns left unplayed, then the daily digests and daily puzzles due, the
        puzzle mining (started in the background within its hourly bound), and last the
        explorer's catch-up on the counts an earlier run left undone (a bounded bite per
        sweep, until none is left: one query at the process's first sweep when none is)
        and, hourly, its removal of the places kept by mark that no answer showed for a
        month."""
        return (self._comforts.sweep_due_conditionals, self._deadlines.sweep_deadlines,
                self._tournaments.sweep_tournaments, self._seasons.sweep_seasons,
                self._computers.sweep_computers, self._digests.sweep_digests,
                self._puzzles.sweep_daily_puzzles, self._puzzles.sweep_puzzles,
                self._explorer.sweep_explorer)

    async def sweep(self, now: datetime | None = None) -> list[Event]:
        """Everything due at ``now`` (default: the clock's now), part by part
        (:meth:`sweepers`); the events sent. Safe at any time and after any downtime: it
        acts on what is stored, and only for this process's shards."""
        now = now or self.clock.now()
        events: list[Event] = []
        for sweeper in self.sweepers():
            events += await sweeper(now)
        return events

    def _subscribers(self) -> tuple[Subscriber, ...]:
        """After the notifier, in order: a finished match moves its tournament on, is
        counted in the opening explorer and its game fingerprinted (not to be imported
        in its server), and a computer's turn starts its search."""
        return (self._tournaments.tournament_follows, self._explorer.follows,
                self._importer.game_follows, self._computers.computer_follows)

    async def _check_scope(self, caller: Caller, match_id: int | None,
                           tournament_id: int | None) -> Callable[[], None]:
        """The door's scope check (``ids.checked_ids``): ``ServiceCore.check_scope``."""
        return await self.core.check_scope(caller, match_id, tournament_id)

    # ------------------------------------------------------------------ composed

    async def stats(self, guild_id: int, user: int) -> PlayerStats:
        """A player's record in a server: his rated games (``queries``) with his casual
        games against the computer (``computer``)."""
        rated = await self._queries.stats(guild_id, user)
        return await self._computers.with_computer_games(rated, guild_id, user)

    async def get_guild_settings(self, guild_id: int) -> GuildSettings:
        return await self.core.get_guild_settings(guild_id)

    # ------------------------------------------------------------------ delegated, by part

    # Challenges (_challenges)

    async def challenge(self, guild_id: int, channel_id: int, challenger: int, game: str, *,
                        opponents: Sequence[int] = (), options: Mapping[str, object] | None = None,
                        days: int | None = None, rated: bool = True, seat: int | str | None = None,
                        clock: str | None = None, claim_win: bool | None = None,
                        weekends_off: bool | None = None, on_timeout: str | None = None,
                        stand_in_level: int | None = None,
                        accepted_at_once: bool = False) -> MatchView:
        return await self._challenges.challenge(guild_id, channel_id, challenger, game,
                                                opponents=opponents, options=options, days=days,
                                                rated=rated, seat=seat, clock=clock,
                                                claim_win=claim_win, weekends_off=weekends_off,
                                                on_timeout=on_timeout,
                                                stand_in_level=stand_in_level,
                                                accepted_at_once=accepted_at_once)

    async def continue_import(self, guild_id: int, channel_id: int, user: int,
                              match_id: int, opponents: Sequence[int] = (), *,
                              seat: int | str | None = None, days: int | None = None,
                              clock: str | None = None, on_timeout: str | None = None,
                              stand_in_level: int | None = None) -> MatchView:
        """Challenge ``opponents`` to go on with imported game ``match_id`` from its last
        position: a new casual match, once they accept (issue 44)."""
        return await self._challenges.continue_import(
            guild_id, channel_id, user, match_id, opponents, seat=seat, days=days,
            clock=clock, on_timeout=on_timeout, stand_in_level=stand_in_level)

    async def continuable_imports(self, guild_id: int, user: int) -> list[ContinuableGame]:
        """The server's imported games that ``continue_import`` takes up, newest first,
        at most 25 (``/continue``'s suggestions; issue 44)."""
        return await self._challenges.continuable_imports(guild_id, user)

    async def continuable(self, match_id: int, caller: Caller | None = None
                          ) -> ContinuableGame:
        """Imported game ``match_id`` if ``continue_import`` can take it up, else refused
        in its words (issue 44)."""
        return await self._challenges.continuable(match_id, caller)

    async def accept(self, match_id: int, user: int, seat: int | str | None = None, *,
                     caller: Caller | None = None) -> MatchView:
        return await self._challenges.accept(match_id, user, seat, caller=caller)

    async def join(self, match_id: int, user: int, seat: int | str | None = None, *,
                   caller: Caller | None = None, announced: bool = True) -> MatchView:
        return await self._challenges.join(match_id, user, seat, caller=caller,
                                           announced=announced)

    async def decline(self, match_id: int, user: int, *,
                      caller: Caller | None = None) -> MatchView:
        return await self._challenges.decline(match_id, user, caller=caller)

    async def cancel(self, match_id: int, user: int, *, caller: Caller | None = None) -> MatchView:
        return await self._challenges.cancel(match_id, user, caller=caller)

    async def attach_thread(self, match_id: int, thread_id: int | None,
                            channel_id: int | None = None, *,
                            caller: Caller | None = None) -> MatchView:
        return await self._challenges.attach_thread(match_id, thread_id, channel_id, caller=caller)

    # Play (_play)

    async def move(self, match_id: int, user: int, text: str, expected_ply: int | None = None, *,
                   caller: Caller | None = None) -> MoveResult:
        return await self._play.move(match_id, user, text, expected_ply, caller=caller)

    async def submit_setup(self, match_id: int, user: int, text: str, *,
                           caller: Caller | None = None) -> MoveResult:
        return await self._play.submit_setup(match_id, user, text, caller=caller)

    async def suggest_moves(self, match_id: int, user: int, prefix: str = '', limit: int = 25, *,
                            caller: Caller | None = None) -> list[tuple[str, str]]:
        return await self._play.suggest_moves(match_id, user, prefix, limit, caller=caller)

    async def move_choices(self, match_id: int, user: int, prefix: str = '',
                           limit: int | None = 25, *,
                           caller: Caller | None = None) -> tuple[list[tuple[str, str]], int]:
        return await self._play.move_choices(match_id, user, prefix, limit, caller=caller)

    # Endings (_endings)

    async def resign(self, match_id: int, user: int, *, caller: Caller | None = None) -> MatchView:
        return await self._endings.resign(match_id, user, caller=caller)

    async def offer_draw(self, match_id: int, user: int, *,
                         caller: Caller | None = None) -> MatchView:
        return await self._endings.offer_draw(match_id, user, caller=caller)

    async def accept_draw(self, match_id: int, user: int, *,
                          caller: Caller | None = None) -> MatchView:
        return await self._endings.accept_draw(match_id, user, caller=caller)

    async def decline_draw(self, match_id: int, user: int, *,
                           caller: Caller | None = None) -> MatchView:
        return await self._endings.decline_draw(match_id, user, caller=caller)

    # Deadlines (_deadlines)

    async def sweep_deadlines(self, now: datetime | None = None) -> list[Event]:
        return await self._deadlines.sweep_deadlines(now)

    async def verify_all(self, progress: Callable[[int, int], None] | None = None
                         ) -> list[tuple[int, str]]:
        return await self._deadlines.verify_all(progress)

    # Vacations (_vacations)

    async def vacation_status(self, guild_id: int, user: int) -> VacationView:
        return await self._vacations.vacation_status(guild_id, user)

    async def start_vacation(self, guild_id: int, user: int,
                             days: int | None = None) -> VacationView:
        return await self._vacations.start_vacation(guild_id, user, days)

    async def end_vacation(self, guild_id: int, user: int) -> VacationView:
        return await self._vacations.end_vacation(guild_id, user)

    # Clocks (_clocks)

    async def give_time(self, match_id: int, user: int, *,
                        caller: Caller | None = None) -> MatchView:
        return await self._clocks.give_time(match_id, user, caller=caller)

    async def propose_pause(self, match_id: int, user: int, days: int,
                            reason: str | None = None, *,
                            caller: Caller | None = None) -> MatchView:
        return await self._pauses.propose_pause(match_id, user, days, reason, caller=caller)

    async def accept_pause(self, match_id: int, user: int, *,
                           caller: Caller | None = None) -> MatchView:
        return await self._pauses.accept_pause(match_id, user, caller=caller)

    async def decline_pause(self, match_id: int, user: int, *,
                            caller: Caller | None = None) -> MatchView:
        return await self._pauses.decline_pause(match_id, user, caller=caller)

    async def resume_pause(self, match_id: int, user: int, *,
                           caller: Caller | None = None) -> MatchView:
        return await self._pauses.resume_pause(match_id, user, caller=caller)

    async def claim_win(self, match_id: int, user: int, *,
                        caller: Caller | None = None) -> MatchView:
        return await self._clocks.claim_win(match_id, user, caller=caller)

    async def keep_waiting(self, match_id: int, user: int, *,
                           caller: Caller | None = None) -> MatchView:
        return await self._clocks.keep_waiting(match_id, user, caller=caller)

    async def resume(self, grace: timedelta = DEFAULT_GRACE,
                     now: datetime | None = None) -> list[ClocksExtended]:
        return await self._clocks.resume(grace, now)

    async def beat(self, now: datetime | None = None) -> None:
        return await self._clocks.beat(now)

    # Comforts (_comforts)

    async def sweep_due_conditionals(self, now: datetime | None = None) -> list[Event]:
        return await self._comforts.sweep_due_conditionals(now)

    async def rematch(self, match_id: int, user: int, *,
                      caller: Caller | None = None) -> MatchView:
        return await self._comforts.rematch(match_id, user, caller=caller)

    async def request_takeback(self, match_id: int, user: int, *,
                               caller: Caller | None = None) -> MatchView:
        return await self._comforts.request_takeback(match_id, user, caller=caller)

    async def accept_takeback(self, match_id: int, user: int, *,
                              caller: Caller | None = None) -> MatchView:
        return await self._comforts.accept_takeback(match_id, user, caller=caller)

    async def decline_takeback(self, match_id: int, user: int, *,
                               caller: Caller | None = None) -> MatchView:
        return await self._comforts.decline_takeback(match_id, user, caller=caller)

    async def add_conditional_moves(self, match_id: int, user: int, text: str, *,
                                    caller: Caller | None = None) -> list[tuple[str, ...]]:
        return await self._comforts.add_conditional_moves(match_id, user, text, caller=caller)

    async def conditional_moves(self, match_id: int, user: int, *,
                                caller: Caller | None = None) -> list[tuple[str, ...]]:
        return await self._comforts.conditional_moves(match_id, user, caller=caller)

    async def clear_conditional_moves(self, match_id: int, user: int, *,
                                      caller: Caller | None = None) -> int:
        return await self._comforts.clear_conditional_moves(match_id, user, caller=caller)

    async def advance_conditionals(self, match_id: int, *, caller: Caller | None = None) -> int:
        return await self._comforts.advance_conditionals(match_id, caller=caller)

    async def sweep_conditionals(self) -> int:
        return await self._comforts.sweep_conditionals()

    async def set_note(self, match_id: int, user: int, text: str, *,
                       caller: Caller | None = None) -> str:
        return await self._comforts.set_note(match_id, user, text, caller=caller)

    async def note(self, match_id: int, user: int, *, caller: Caller | None = None) -> str | None:
        return await self._comforts.note(match_id, user, caller=caller)

    async def clear_note(self, match_id: int, user: int, *, caller: Caller | None = None) -> bool:
        return await self._comforts.clear_note(match_id, user, caller=caller)

    async def follow(self, guild_id: int, user: int, *, match_id: int | None = None,
                     player: int | None = None) -> Follow:
        return await self._comforts.follow(guild_id, user, match_id=match_id, player=player)

    async def unfollow(self, guild_id: int, user: int, *, match_id: int | None = None,
                       player: int | None = None) -> Follow:
        return await self._comforts.unfollow(guild_id, user, match_id=match_id, player=player)

    async def follows(self, guild_id: int, user: int) -> list[Follow]:
        return await self._comforts.follows(guild_id, user)

    # Blocks (_blocks)

    async def block(self, user: int, player: int) -> BlockMade:
        return await self._blocks.block(user, player)

    async def unblock(self, user: int, player: int) -> bool:
        return await self._blocks.unblock(user, player)

    async def blocked(self, user: int) -> list[int]:
        return await self._blocks.blocked(user)

    async def set_challenges(self, user: int, on: bool) -> bool:
        return await self._blocks.set_challenges(user, on)

    async def challenges_on(self, user: int) -> bool:
        return await self._blocks.challenges_on(user)

    # Computers (_computers)

    async def challenge_computer(self, guild_id: int, channel_id: int, challenger: int, game: str,
                                 *, level: int = DEFAULT_LEVEL,
                                 options: dict[str, object] | None = None, days: int | None = None,
                                 seat: int | str | None = None) -> MatchView:
        return await self._computers.challenge_computer(guild_id, channel_id, challenger, game,
                                                        level=level, options=options, days=days,
                                                        seat=seat)

    async def add_computers(self, match_id: int, user: int, level: int = DEFAULT_LEVEL, *,
                            caller: Caller | None = None) -> MatchView:
        return await self._computers.add_computers(match_id, user, level, caller=caller)

    async def play_computers(self, match_id: int, *, caller: Caller | None = None) -> int:
        return await self._computers.play_computers(match_id, caller=caller)

    async def hint(self, match_id: int, user: int, *,
                   caller: Caller | None = None) -> tuple[str, Words, int]:
        return await self._computers.hint(match_id, user, caller=caller)

    async def analysis(self, match_id: int, top: int = 3, *,
                       caller: Caller | None = None) -> list[AnalysedMove]:
        return await self._computers.analysis(match_id, top, caller=caller)

    async def game_analysis(self, match_id: int, top: int = 3, *,
                            caller: Caller | None = None) -> GameAnalysis:
        return await self._computers.game_analysis(match_id, top, caller=caller)

    async def stored_analysis(self, match_id: int, *, caller: Caller | None = None
                              ) -> MatchAnalysis | None:
        return await self._computers.stored_analysis(match_id, caller=caller)

    async def wake_computers(self, match_ids: list[int] | None = None) -> int:
        return await self._computers.wake_computers(match_ids)

    async def sweep_computers(self, now: datetime | None = None) -> list[Event]:
        return await self._computers.sweep_computers(now)

    async def computers_idle(self) -> None:
        return await self._computers.computers_idle()

    # Tournaments (_tournaments)

    async def create_tournament(self, guild_id: int, channel_id: int, user: int, game: str, *,
                                fmt: str | Format, name: str | None = None,
                                rounds: int | None = None,
                                options: Mapping[str, object] | None = None,
                                days: int | None = None, rated: bool = True,
                                cap: int | None = None, registration_days: int | None = None,
                                vacation: bool = True, clock: str | None = None,
                                claim_win: bool = False,
                                weekends_off: bool = False) -> TournamentRecord:
        return await self._tournaments.create_tournament(guild_id, channel_id, user, game, fmt=fmt,
                                                         name=name, rounds=rounds, options=options,
                                                         days=days, rated=rated, cap=cap,
                                                         registration_days=registration_days,
                                                         vacation=vacation, clock=clock,
                                                         claim_win=claim_win,
                                                         weekends_off=weekends_off)

    async def join_tournament(self, tournament_id: int, user: int, *,
                              caller: Caller | None = None) -> TournamentRecord:
        return await self._tournaments.join_tournament(tournament_id, user, caller=caller)

    async def leave_tournament(self, tournament_id: int, user: int, *,
                               caller: Caller | None = None) -> TournamentRecord:
        return await self._tournaments.leave_tournament(tournament_id, user, caller=caller)

    async def remove_from_tournament(self, tournament_id: int, user: int, player: int, *,
                                     manager: bool = False,
                                     caller: Caller | None = None) -> TournamentRecord:
        return await self._tournaments.remove_from_tournament(tournament_id, user, player,
                                                              manager=manager, caller=caller)

    async def cancel_tournament(self, tournament_id: int, user: int, *, manager: bool = False,
                                caller: Caller | None = None) -> TournamentRecord:
        return await self._tournaments.cancel_tournament(tournament_id, user, manager=manager,
                                                         caller=caller)

    async def start_tournament(self, tournament_id: int, user: int, *, manager: bool = False,
                               caller: Caller | None = None) -> TournamentRecord:
        return await self._tournaments.start_tournament(tournament_id, user, manager=manager,
                                                        caller=caller)

    async def sweep_tournaments(self, now: datetime | None = None) -> list[Event]:
        return await self._tournaments.sweep_tournaments(now)

    async def get_tournament(self, tournament_id: int, *,
                             caller: Caller | None = None) -> TournamentRecord:
        return await self._tournaments.get_tournament(tournament_id, caller=caller)

    async def tournaments(self, guild_id: int, *,
                          running_only: bool = False) -> list[TournamentRecord]:
        return await self._tournaments.tournaments(guild_id, running_only=running_only)

    async def tournament_standings(self, tournament_id: int, *,
                                   caller: Caller | None = None) -> list[StandingRow]:
        return await self._tournaments.tournament_standings(tournament_id, caller=caller)

    async def tournament_table(self, tournament_id: int, names: Mapping[int, str] | None = None, *,
                               caller: Caller | None = None) -> StandingsTable:
        return await self._tournaments.tournament_table(tournament_id, names, caller=caller)

    async def tournament_csv(self, tournament_id: int, names: Mapping[int, str] | None = None, *,
                             caller: Caller | None = None) -> str:
        return await self._tournaments.tournament_csv(tournament_id, names, caller=caller)

    async def tournament_pairings(self, tournament_id: int, rnd: int | None = None, *,
                                  caller: Caller | None = None) -> list[TournamentGame]:
        return await self._tournaments.tournament_pairings(tournament_id, rnd, caller=caller)

    async def tournament_games_of(self, tournament_id: int, user: int, *,
                                  caller: Caller | None = None) -> list[TournamentGame]:
        return await self._tournaments.tournament_games_of(tournament_id, user, caller=caller)

    # Seasons (_seasons)

    async def configure_seasons(self, guild_id: int, channel_id: int,
                                schedule: str) -> SeasonChange:
        return await self._seasons.configure_seasons(guild_id, channel_id, schedule)

    async def reset_season(self, guild_id: int, channel_id: int) -> SeasonRecord:
        return await self._seasons.reset_season(guild_id, channel_id)

    async def sweep_seasons(self, now: datetime | None = None, *,
                            guild_ids: Sequence[int] | None = None) -> list[SeasonEnded]:
        return await self._seasons.sweep_seasons(now, guild_ids=guild_ids)

    # Web (_web)

    async def web_match(self, match_id: int, caller: Caller | None = None) -> WebMatch:
        return await self._web.web_match(match_id, caller)

    async def web_pass(self, match_id: int, user: int, caller: Caller | None = None) -> int:
        return await self._web.web_pass(match_id, user, caller)

    async def web_player(self, match_id: int, user: int, epoch: int,
                         caller: Caller | None = None) -> WebMatch:
        return await self._web.web_player(match_id, user, epoch, caller)

    async def revoke_web_links(self, user: int) -> int:
        return await self._web.revoke_web_links(user)

    async def web_export(self, match_id: int, caller: Caller | None = None
                         ) -> tuple[str, str] | None:
        return await self._web.web_export(match_id, caller)

    async def web_listen(self, changed: MatchChanged
                         ) -> Callable[[], Awaitable[None]] | None:
        return await self._web.web_listen(changed)

    async def web_server(self, guild_id: int, caller: Caller | None = None) -> WebServer:
        return await self._web.web_server(guild_id, caller)

    async def web_member(self, match_id: int, seat: int, caller: Caller | None = None
                         ) -> WebMember:
        return await self._web.web_member(match_id, seat, caller)

    async def web_board(self, match_id: int, ply: int, caller: Caller | None = None,
                        locale: str = DEFAULT_LOCALE, seat: int = 0) -> BoardImage | None:
        return await self._web.web_board(match_id, ply, caller, locale, seat)

    # Queries (_queries)

    async def get_match(self, match_id: int, caller: Caller | None = None) -> MatchView:
        return await self._queries.get_match(match_id, caller)

    async def match_in_thread(self, thread_id: int) -> MatchView | None:
        return await self._queries.match_in_thread(thread_id)

    async def position(self, match_id: int,
                       caller: Caller | None = None) -> tuple[Position, MoveMarks | None]:
        return await self._queries.position(match_id, caller)

    async def board_image(self, match_id: int, perspective: int | None = None,
                          caller: Caller | None = None,
                          locale: str = DEFAULT_LOCALE) -> BoardImage | None:
        return await self._queries.board_image(match_id, perspective, caller, locale)

    def describe(self, match: MatchRecord | MatchView, p: Position,
                 moves: int | None = None) -> Words:
        return self._queries.describe(match, p, moves)

    async def games_of(self, guild_id: int | None, user: int) -> list[MatchView]:
        return await self._queries.games_of(guild_id, user)

    async def glance(self, guild_id: int, user: int,
                     limit: int = GLANCE_BOARDS) -> list[GlanceBoard]:
        return await self._queries.glance(guild_id, user, limit)

    async def set_digest(self, guild_id: int, user: int, on: bool) -> datetime | None:
        return await self._digests.set_digest(guild_id, user, on)

    async def digest_status(self, guild_id: int, user: int) -> datetime | None:
        return await self._digests.digest_status(guild_id, user)

    async def sweep_digests(self, now: datetime | None = None) -> list[Event]:
        return await self._digests.sweep_digests(now)

    async def next_game(self, guild_id: int | None, user: int,
                        after: int | None = None) -> MatchView | None:
        return await self._queries.next_game(guild_id, user, after)

    async def active_matches_of(self, guild_id: int | None, user: int) -> list[MatchView]:
        return await self._queries.active_matches_of(guild_id, user)

    async def open_challenges(self, guild_id: int) -> list[MatchView]:
        return await self._queries.open_challenges(guild_id)

    async def history(self, match_id: int, caller: Caller | None = None) -> HistoryView:
        return await self._queries.history(match_id, caller)

    async def record(self, match_id: int, caller: Caller | None = None) -> GameRecord:
        return await self._queries.record(match_id, caller)

    async def board_at(self, match_id: int, ply: int | None = None,
                       caller: Caller | None = None,
                       locale: str = DEFAULT_LOCALE) -> PlyBoard:
        return await self._queries.board_at(match_id, ply, caller, locale)

    async def leaderboard(self, guild_id: int, game: str, page: int = 1, per_page: int = 10,
                          season: int | None = None) -> LeaderboardPage:
        return await self._queries.leaderboard(guild_id, game, page, per_page, season)

    async def seasons(self, guild_id: int) -> list[SeasonRecord]:
        return await self._queries.seasons(guild_id)

    async def season(self, guild_id: int, number: int) -> SeasonRecord:
        return await self._queries.season(guild_id, number)

    async def rank_of(self, guild_id: int, game: str, user: int) -> LeaderboardEntry | None:
        return await self._queries.rank_of(guild_id, game, user)

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
        return await self._queries.update_guild_settings(guild_id, default_days=default_days,
                                                         use_threads=use_threads,
                                                         games_channel_id=games_channel_id,
                                                         reminders=reminders, language=language,
                                                         organiser_role_id=organiser_role_id,
                                                         default_clock=default_clock,
                                                         claim_win=claim_win,
                                                         vacation_days=vacation_days,
                                                         auto_vacation=auto_vacation,
                                                         takebacks_rated=takebacks_rated, web=web,
                                                         weekends_off=weekends_off,
                                                         pauses_rated=pauses_rated)

    async def get_user_prefs(self, user: int) -> UserPrefs:
        return await self._queries.get_user_prefs(user)

    async def update_user_prefs(self, user: int, notify: str) -> UserPrefs:
        return await self._queries.update_user_prefs(user, notify)

    async def remember_locale(self, user: int, locale: str | None = None) -> str:
        return await self._queries.remember_locale(user, locale)

    async def set_time_zone(self, user: int, zone: str | None) -> UserPrefs:
        return await self._queries.set_time_zone(user, zone)

    async def reader_locale(self, user: int) -> str:
        return await self._queries.reader_locale(user)

    # Explorer (_explorer)

    async def explorer(self, guild_id: int, user: int, game: str, line: str = "",
                       source: str = "all") -> ExplorerView:
        """The opening explorer of the server: the moves played after ``line`` in its
        finished games of ``game``. Open to everyone of the server, during live games too
        (a book, not an engine)."""
        return await self._explorer.explorer(guild_id, game, line, source)

    async def explorer_token(self, guild_id: int, user: int, view: ExplorerView,
                             room: int) -> str:
        """A name, in at most ``room`` characters, of the place of the server's explorer
        ``view`` shows (a button keeps it): the place itself, or a short mark under which
        it is kept while answers show it (``explorer.PLACE_KEPT``)."""
        return await self._explorer.explorer_token(guild_id, view, room)

    async def explorer_named(self, guild_id: int, user: int, token: str
                             ) -> ExplorerPlace | None:
        """The place of the server's explorer ``explorer_token`` named ``token`` (to go
        on from with ``explorer``); None: no place of this server goes by it."""
        return await self._explorer.explorer_named(guild_id, token)

    async def backfill_explorer(self, batch: int = 200) -> int:
        """Count every finished match the explorer does not hold yet (after an upgrade);
        how many were counted."""
        return await self._explorer.backfill_explorer(batch)

    async def explorer_idle(self) -> None:
        """Wait until every finished match announced so far is counted in the explorer
        and its game fingerprinted (both done in the background as it ends)."""
        await self._explorer.explorer_idle()
        await self._importer.fingerprints_idle()

    # Importer (_importer)

    async def import_record(self, guild_id: int, channel_id: int, user: int,
                            data: bytes | str, game: str | None = None) -> ImportedMatch:
        """Import a record file: a finished (or unfinished) match of the server, unrated,
        counted in the explorer as imported."""
        return await self._importer.import_record(guild_id, channel_id, user, data, game)

    async def fingerprint_games(self, progress: Callable[[int, int], None] | None = None
                                ) -> int:
        """Fingerprint every played match that ended without one (before fingerprints
        existed, or its write was lost), in every server, ahead of their next import
        (``tablero db fingerprints``); how many. ``progress(done, total)`` per batch."""
        return await self._importer.fingerprint_games(progress)

    def imported_name(self, user: int) -> str:
        """An imported player's name, as his record gave it ("" if none): what the
        adapters' name lookups answer for him (read with his matches and moves)."""
        return self._importer.imported_name(user)

    # Puzzles (_puzzles)

    async def puzzle(self, guild_id: int, user: int, puzzle_id: int | None = None
                     ) -> PuzzleView:
        """``user``'s open puzzle, or the next one for him, or puzzle ``puzzle_id``."""
        return await self._puzzles.puzzle(guild_id, user, puzzle_id)

    async def answer_puzzle(self, guild_id: int, user: int, text: str) -> PuzzleAnswer:
        return await self._puzzles.answer_puzzle(guild_id, user, text)

    async def puzzle_moves(self, guild_id: int, user: int, prefix: str = "",
                           limit: int = 25) -> list[tuple[str, str]]:
        return await self._puzzles.puzzle_moves(guild_id, user, prefix, limit)

    async def puzzle_leaderboard(self, guild_id: int, limit: int = 10
                                 ) -> list[PuzzlePlayer]:
        return await self._puzzles.puzzle_leaderboard(guild_id, limit)

    async def puzzle_record(self, guild_id: int, user: int) -> PuzzlePlayer:
        return await self._puzzles.puzzle_record(guild_id, user)

    async def set_daily_puzzle(self, guild_id: int, channel_id: int | None
                               ) -> datetime | None:
        return await self._puzzles.set_daily_puzzle(guild_id, channel_id)

    async def daily_puzzle_status(self, guild_id: int) -> tuple[int, datetime] | None:
        return await self._puzzles.daily_puzzle_status(guild_id)

    async def daily_puzzle_ready(self, guild_id: int) -> bool:
        return await self._puzzles.daily_puzzle_ready(guild_id)

    async def sweep_daily_puzzles(self, now: datetime | None = None) -> list[Event]:
        return await self._puzzles.sweep_daily_puzzles(now)

    async def sweep_puzzles(self, now: datetime | None = None) -> list[Event]:
        return await self._puzzles.sweep_puzzles(now)

    async def mine_puzzles(self, limit: int | None = None,
                           now: datetime | None = None) -> int:
        """Mine finished matches for puzzles now, within the hourly bound (the sweep does
        it in the background); how many were mined."""
        return await self._puzzles.mine_puzzles(limit, now)

    async def puzzles_idle(self) -> None:
        """Wait until the puzzle mining under way is done."""
        await self._puzzles.puzzles_idle()

    async def stop_mining(self) -> None:
        """Shutdown: stop the puzzle mining under way before the database closes."""
        await self._puzzles.stop_mining()

    async def stop_background(self, seconds: float = STOP_GRACE) -> Drained:
        """Shutdown, before the database closes: the puzzle mining stops and the
        explorer's catch-up starts no more (the next run goes on), and the explorer
        counts and fingerprints of the matches that just ended are waited for,
        ``seconds`` at most in all; what is left then is cancelled and logged in one line
        (``service.background``)."""
        return await self._background.stop_background(seconds)
