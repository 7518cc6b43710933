"""The match service: every use-case of a Tablero match, with users as plain ints.

No discord, storage or render import (import-linter enforces it): the service declares the
Protocols it talks through and the adapters (console, Discord) wire implementations in.

Files (``MatchService`` in ``service.py`` is a façade over one part per group of
use-cases, each a plain class given what it uses; look for a change in the file named
for its use-case):

* ``core.py`` - ``ServiceCore``: the ports and the collaborators below (built in
  ``__init__``) and the shared steps; one instance, handed to every part
* collaborators: ``matches.py`` (load, compare-and-set save and retry, the view of a
  record), ``states.py`` (positions cached by ``(match, ply)``, replays), ``ratings.py``
  (openskill, the rating change of a result and its report, the win/draw/loss counting
  both repositories apply), ``texts.py`` (names, descriptions, board lines; the result
  sentence itself is ``locales.results``), ``boards.py`` (drawing a board from a view)
* ``challenges.py`` - challenge, accept/join, decline, cancel, seating, attach_thread
* ``play.py`` - move, submit_setup, suggest_moves, a move copied with its note
* ``endings.py`` - resign, offer/accept/decline draws
* ``deadlines.py`` - sweep (reminders, timeouts), verify_all
* ``explorer.py`` - the opening explorer (``Explorer``, a part of its own: counts each
  finished match, backfills, answers ``explorer``)
* ``puzzles.py`` - puzzles from finished games (``Puzzles``: mining in the background
  within an hourly bound, /puzzle's next puzzle and answers, puzzle ratings, streaks, the
  leaderboard, the daily puzzle)
* ``queries.py`` - get_match, position, board_image, describe, games_of, history,
  record, leaderboard, stats, settings, preferences
* ``ids.py``, ``inputs.py`` - the ids and the text of every public call, checked before
  any use-case (lone surrogates and control characters are refused: ``InvalidText``)
* ``errors.py``, ``events.py``, ``views.py``, ``records.py`` - the types it raises,
  announces, returns and stores; ``ports.py`` - the Protocols; ``ratings.py`` -
  ladders and openskill; ``exports.py`` - the text export of a record

Construction::

    service = MatchService(repository, notifier, clock, renderer=None, rng=None,
                           names=None, rooms=None)

Built in one direction: the ports first (repository, notifier, renderer, rooms), then the
service over them, then the adapter over the service. The service calls down into its
ports; a port never calls the service back.

``repository``: ``storage.SqliteRepository`` / ``storage.MemoryRepository`` (Protocol
``Repository``); ``notifier``: anything with ``async notify(event)`` (``Notifier``);
``clock``: ``now() -> aware datetime`` (``Clock``, ``SystemClock``); ``renderer``:
``render(position, last_move=, perspective=, names=) -> DrawnBoard`` (``.png`` and
``.alt_text``; ``BoardRenderer``, optional); ``names``: ``(guild_id, user_id) -> display
name`` (``NameResolver``, optional; board images and messages from queries name the
players with it; a move never asks for names); ``rooms``: ``async open_room(match) ->
thread id | None`` (``MatchRooms``, optional: where a match that has just started is
played; the service stores the id before announcing the start).

API (all ``async``; ids are plain ints; errors are ``ServiceError`` subclasses with a
``.message`` for people, and ``rules.RulesError`` passes through with its ``.message``; a
database that fails raises a ``StorageError``, during an outage a ``StorageUnavailable``:
nothing was changed, the same request may go through later):

* ``challenge(guild_id, channel_id, challenger, game, *, opponents=(), options=None,
  days=None, rated=True, seat=None) -> MatchView`` - no opponents = open challenge;
  2-player games -> status ``open``; 4-player -> ``lobby`` (up to 3 invited). ``days``
  1-14, default from the guild settings (3). ``seat``: index, seat name ("red") or None
  = random. Options are coerced from text ("4" -> 4); Querni's seed is drawn and stored.
* ``accept(match_id, user, seat=None) -> MatchView`` (never one's own challenge);
  ``join(match_id, user, seat=None)`` (lobbies; seats chosen only if the challenger
  chose his); ``decline(match_id, user)``; ``cancel(match_id, user)`` (challenger
  withdraws; a lobby member leaves).
* ``attach_thread(match_id, thread_id, channel_id=None) -> MatchView``
* ``move(match_id, user, text, expected_ply=None) -> MoveResult``. The display form
  copied from the bot's posts is accepted (``h3-e3 (C2.5)``): when the whole text is not
  a move, the part before the trailing note is read and the note must match the game's.
* ``suggest_moves(match_id, user, prefix="", limit=25) -> list[(canonical, display)]``
  (captures/removals first, then checks, then alphabetical; [] when he cannot move)
* ``resign(match_id, user)``; ``offer_draw`` / ``accept_draw`` / ``decline_draw``
  ``(match_id, user) -> MatchView`` (an offer lapses when an opponent moves)
* ``submit_setup(match_id, user, text) -> MoveResult`` (Querni ``choose``)
* Everything is scoped (issue 36): every operation that takes a match or tournament
  id also takes ``caller=Caller(guild_id | None, user)`` (``follow``/``unfollow``: their
  ``guild_id`` and ``user``), checked in one place, the door ``ids.checked_ids``: a
  match is visible from its own server and, in DMs, to its participants, a tournament
  from its own server; to anyone else ``MatchNotFound`` / ``TournamentNotFound`` (as if
  it did not exist), before anything changes. Adapters always pass one (a test reads
  their source); ``None`` is for the service's own callers.
* ``get_match(match_id) -> MatchView``; ``match_in_thread(thread_id) -> MatchView | None``
* ``position(match_id) -> (Position, MoveMarks | None)``; ``board_image(match_id,
  perspective=None) -> BoardImage | None``; ``describe(match, position) -> str``
* ``games_of(guild_id, user)`` (waiting on him first) / ``active_matches_of(guild_id,
  user)`` / ``open_challenges(guild_id)`` ``-> list[MatchView]``
* ``leaderboard(guild_id, game, page=1, per_page=10) -> LeaderboardPage``;
  ``rank_of(guild_id, game, user) -> LeaderboardEntry | None``;
  ``stats(guild_id, user) -> PlayerStats``. Ladders: the game key, ``<key>-4`` for
  4-player games (``alquerque-grande-4``).
* ``history(match_id) -> HistoryView`` (entries + export text); ``record(match_id) ->
  GameRecord`` (variant, options, start text and position, every ply with its Move object
  and the position after it: what a replay needs)
* ``get_guild_settings(guild_id)`` / ``update_guild_settings(guild_id, default_days=,
  use_threads=, games_channel_id=, reminders=) -> GuildSettings``;
  ``get_user_prefs(user)`` / ``update_user_prefs(user, notify) -> UserPrefs``
  (notify: "mention" or "dm")
* ``sweep(now=None) -> list[Event]`` - reminders (a day before the deadline, or half the
  period if shorter) and timeouts (2 players: the late player loses; 4 players:
  ``variant.resign`` puts him out; before every player has moved: aborted, unrated).
* Tournaments (``tournament_service.py``; the pure pairing/standings core is
  ``tournaments/``): ``create_tournament(guild_id, channel_id, user, game, *, fmt,
  name=, rounds=, options=, days=, rated=, cap=, registration_days=, vacation=)``
  (two-player games only), ``join_tournament`` / ``leave_tournament(tournament_id,
  user)``, ``start_tournament`` / ``cancel_tournament(tournament_id, user, manager=)``,
  ``remove_from_tournament(tournament_id, user, player, manager=)``,
  ``tournament_standings`` / ``tournament_table`` / ``tournament_csv`` /
  ``tournament_pairings(tournament_id, round)`` / ``tournament_games_of(tournament_id,
  user)``; ``sweep`` also runs ``sweep_tournaments`` (registration deadlines, catching
  up after a stop).
* Seasons (``season_service.py``; what a season is: ``seasons.py``):
  ``configure_seasons(guild_id, channel_id, schedule)`` (monthly, quarterly, manual,
  off), ``reset_season(guild_id, channel_id)``, ``seasons(guild_id)``,
  ``season(guild_id, number)``, ``leaderboard(..., season=N)``; ``sweep`` also runs
  ``sweep_seasons`` (ends them, archived and announced once, catching up after a stop).
* Comforts (``comforts.py``, issue 16; its docstring lists the decisions):
  ``rematch(match_id, user) -> MatchView`` (a new challenge on the same terms, colours
  swapped / seats rotated); ``request_takeback`` / ``accept_takeback`` /
  ``decline_takeback(match_id, user)``; ``add_conditional_moves(match_id, user, text)``
  / ``conditional_moves`` / ``clear_conditional_moves(match_id, user)`` (/premove);
  ``set_note(match_id, user, text)`` / ``note`` / ``clear_note``; ``follow`` /
  ``unfollow(guild_id, user, match_id=|player=)``, ``follows(guild_id, user)``.
* ``verify_all() -> list[(match_id, problem)]`` - replay every match, mark broken ones.
* Clocks (issue 16; ``timecontrol.py`` pure values, ``turns.py`` a turn's deadline,
  ``clocks.py``, ``vacations.py``): ``challenge(..., clock="3d+1d/10d", claim_win=)``;
  ``give_time(match_id, user)`` (+1 day, by a player not to move); ``claim_win`` /
  ``keep_waiting(match_id, user)``; ``start_vacation(guild_id, user, days=None)`` /
  ``end_vacation`` / ``vacation_status(guild_id, user) -> VacationView``;
  ``next_game(guild_id, user, after=None)``; ``update_guild_settings(...,
  default_clock=, claim_win=, vacation_days=, auto_vacation=)``. Events: VacationStarted,
  VacationEnded, AutoVacation, TimeGiven, TimeLapsed.

Decisions (documented here because the issue left them open):

* Positions: the stored position text is a cache, but Xiangqi's repetition history lives
  outside its text, so the service keeps the position object in memory keyed by
  ``(match, ply)`` (checked against the stored text); a miss replays the record once, which
  is also where a corrupted record is found and the match marked ``broken``.
* Concurrency: no locks; every save is compare-and-set on the match version and the ply.
  A lost race on the ply is ``StaleMove`` ("the position changed: ..."); a lost race on
  anything else is retried with fresh data.
* Record entries that are not moves: ``#resign <seat>``, ``#timeout <seat>`` (replayed
  with ``variant.resign``) and ``#draw``; they count as plies of the record.
* Ladders: the game key; 4-player games ``<key>-4`` (all modes share it). Teams are
  openskill teams; equal places share a rank. A draw (or a shared first place without
  winners) counts as a draw for those sharing first place, a loss for the rest (a player
  already out of a 4-player game does not share the others' agreed draw).
* Fair ladders (issue 21): a match that ends before every player has moved a move of his
  own (a resignation, an agreed draw, a timeout; set-up submissions and forced passes
  are not moves) is aborted and unrated; a tournament game ended so is unrated too, but
  named as its tournament scores it: a forfeit, a double forfeit, a draw
  (``early_ends``). Fewer than ``PROVISIONAL_GAMES`` (5) rated games
  on a ladder: provisional, shown with ``?`` and ranked after every established player
  (kept on the list so a newcomer sees himself, but a few lucky or agreed results cannot
  top it). The number is openskill's ordinal μ − 3σ (``views.RATING_MEANING``).
* Teams in ``mode=teams``: seats 0+2 against 1+3 (RULES §2.1). In lobbies the challenger
  either picks his seat (then joiners may pick theirs) or all seats are drawn at start.
* 4-player draw offers need every remaining opponent of the offerer to accept.
* Querni: a random deal's seed is drawn by the service and stored in the options; in
  ``choose`` mode arrangements are hidden until both are in: every view, event, position,
  board, history and record shows ``matches.public_view`` (``view_for`` of every seat).

Clock decisions (issue 16 left them open):

* A bank's deadline is the turn's start plus the mover's bank; on a move the bank becomes
  what the deadline left (never below zero) plus the increment, capped. The cap applies
  when banking: a +1 day gift may exceed it until the next move. No cap given = the
  starting bank. A per-move control stays in ``days_per_move`` (old matches unchanged).
* +1 day moves the running deadline a day later; on a lapsed claim-win clock it gives a
  fresh day from now (and the lapse is forgotten).
* Claim-win applies once every player has moved; before that a lapse still aborts the
  match unrated (as issue 21 decided). In four-player games any waiting player may claim;
  the late player is put out as by a timeout.
* Vacation pauses only the vacationer's clock (opponents keep theirs and may move). It
  is booked in whole days (default: the whole balance), charged at start, refunded to the
  days begun when ended early. The vacation time is never banked. Automatic vacation is a
  server setting (not a per-user opt-in: the server decides how strict its clocks are);
  one automatic day covers every match of his lapsing during it. With claim-win too,
  vacation days are spent first; the claim comes when none is left. A vacation that ran
  out by itself needs no command (views stop showing it at its end).
* ``/games`` keeps "waiting on you" first, each part by least time left (a lapsed clock
  by when it lapsed); Next game cycles through the matches where it is your move.

Computer players (``computer.py``): ``MatchService(..., picker=MovePicker)``;
``challenge_computer(guild_id, channel_id, user, game, level=5, options=, days=, seat=)``
(casual; two-player games start at once), ``add_computers(match_id, user, level)`` (the
lobby's creator fills its empty seats), ``play_computers(match_id)`` /
``computers_idle()``. A computer is a negative user id (``computer_user(level, n)``)
named "Tablero level N" ("Tablero 2 level N" for a second one at that level); its turns
start by themselves when announced and its moves go through ``move``/``submit_setup`` like anyone's.

Events given to the Notifier (``service.events``): ChallengeReceived, LobbyChanged,
ChallengeClosed, TurnStarted, DeadlineReminder, PlayerOut, MovePlayedFor (a move the rules
left no choice about, played at once: Querni's forced pass), DrawOffered, DrawAccepted (a
four-player draw one more player agreed to, still waiting for the others), DrawDeclined,
SetupSubmitted, TakebackOffered, TakebackDeclined, TakenBack, ConditionalMovePlayed,
MoveFollowed, MatchEnded (``left_by``: whose resignation or timeout ended it; a reason
``resignation-ranked``/``timeout-ranked`` means the game ranked the seats itself, so the
leaver may have won), ClocksExtended, OfferSettled (a question asked with buttons, a
challenge or lobby, a draw offer, a takeback, a pause, a lapsed claim-win clock or a
turn, was answered, lapsed or is over: added by ``commit`` to every change that does so,
``settled.py``, so its post can be closed; a turn's last of all, unless the change
posts the next turn: then its ``TurnStarted.closes`` names the ply whose card goes).
``TurnStarted.by`` (and ``MatchView.last_move_by``) is who played the last move;
``MatchEnded.ratings`` holds each rated player's ``RatingUpdate`` (ordinal before ->
after, the number /leaderboard shows, and his rank afterwards).

The outbox (``outbox.py``): every announced event is also an ``OutboxEntry`` (kind + JSON
payload, self-contained) written by the repository in the transaction of the change
that causes it (``save``/``create_match``/``extend_clocks`` take an ``outbox``: an
``Announce`` building the events from the stored match). Adapters put an ``OutboxRelay``
in front of their delivery: it delivers each match's entries in order (the live event
when it has it, the decoded entry after a restart), retries ``Retry``, and removes an
entry once delivered. A live event finds its entry by ``(match id, MatchView.version,
place among the change's events)``. Ratings and the replay's record are not stored in
an entry (known only after the commit): after a restart the result goes out without the
rating lines and the replay is drawn from the record read again.

Clocks never run while Tablero is away (``clocks.py``): adapters call ``resume`` at start
and before every sweep; after a gap longer than a grace period every active deadline and
reminder moves later by the gap and each match gets one ``ClocksExtended``.

Events carry what telling people needs, so a notifier never reads again nor calls the
service: ``TurnStarted.board`` / ``MatchEnded.board`` (``BoardState``: the position
object and the last move's marks; draw it with ``service.boards.draw_board``),
``MatchView.notify_by_dm`` (each participant's /notify choice, read with the seats) and
``MatchEnded.record`` (the stored record, replayed on demand for a replay GIF). One
/move is at most 2 repository reads, 1 write and 1 render (tests/service/
test_return_path.py counts them).
"""

from service.errors import (
    Conflict,
    InvalidOption,
    MatchBroken,
    MatchNotFound,
    MatchNotStarted,
    MatchOver,
    NotAllowed,
    NotAPlayer,
    NotYourTurn,
    PuzzleNotFound,
    ServiceError,
    StaleMove,
    StorageError,
    StorageUnavailable,
)
from service.events import (
    ChallengeClosed,
    ChallengeReceived,
    ClocksExtended,
    ConditionalMovePlayed,
    DailyPuzzle,
    DeadlineReminder,
    DigestDue,
    DrawAccepted,
    DrawDeclined,
    DrawOffered,
    Event,
    LobbyChanged,
    MatchEnded,
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
)
from service.explorer import ExplorerMove, ExplorerPlace, ExplorerView
from service.ports import (
    BoardRenderer,
    Clock,
    DrawnBoard,
    FoundPuzzle,
    MatchRooms,
    MovePicker,
    MoveWeighing,
    NameResolver,
    Notifier,
    NullNotifier,
    PuzzleMiner,
    Repository,
    SystemClock,
)
from service.puzzles import PuzzleAnswer, PuzzleView
from service.records import (
    ConditionalLine,
    DrawOffer,
    Follow,
    MatchRecord,
    MatchStatus,
    RatingChange,
    RatingRecord,
    RecordEntry,
    ResultRecord,
    SeatRecord,
)
from service.service import MatchService
from service.shards import ALL_SHARDS, ShardSet, shard_of
from service.views import (
    AnalysedMove,
    BoardImage,
    BoardState,
    Caller,
    EvalPoint,
    GameAnalysis,
    GameRecord,
    GuildSettings,
    HistoryView,
    LeaderboardEntry,
    LeaderboardPage,
    MatchAnalysis,
    MatchView,
    MoveResult,
    PlayerStats,
    PlyView,
    RatingUpdate,
    ResultView,
    SeatView,
    UserPrefs,
)

__all__ = [
    "ALL_SHARDS",
    "AnalysedMove",
    "BoardImage",
    "BoardRenderer",
    "BoardState",
    "Caller",
    "ChallengeClosed",
    "ChallengeReceived",
    "Clock",
    "ClocksExtended",
    "ConditionalLine",
    "ConditionalMovePlayed",
    "Conflict",
    "DailyPuzzle",
    "DeadlineReminder",
    "DigestDue",
    "DrawAccepted",
    "DrawDeclined",
    "DrawOffer",
    "DrawOffered",
    "DrawnBoard",
    "EvalPoint",
    "Event",
    "ExplorerMove",
    "ExplorerPlace",
    "ExplorerView",
    "Follow",
    "FoundPuzzle",
    "GameAnalysis",
    "GameRecord",
    "GuildSettings",
    "HistoryView",
    "InvalidOption",
    "LeaderboardEntry",
    "LeaderboardPage",
    "LobbyChanged",
    "MatchAnalysis",
    "MatchBroken",
    "MatchEnded",
    "MatchNotFound",
    "MatchNotStarted",
    "MatchOver",
    "MatchRecord",
    "MatchRooms",
    "MatchService",
    "MatchStatus",
    "MatchView",
    "MoveFollowed",
    "MovePicker",
    "MovePlayedFor",
    "MoveResult",
    "MoveWeighing",
    "NameResolver",
    "NotAPlayer",
    "NotAllowed",
    "NotYourTurn",
    "Notifier",
    "NullNotifier",
    "OfferSettled",
    "PauseDeclined",
    "PauseEnded",
    "PauseOffered",
    "PauseStarted",
    "PlayerOut",
    "PlayerStats",
    "PlyView",
    "PuzzleAnswer",
    "PuzzleMiner",
    "PuzzleNotFound",
    "PuzzleView",
    "RatingChange",
    "RatingRecord",
    "RatingUpdate",
    "RecordEntry",
    "Repository",
    "ResultRecord",
    "ResultView",
    "SeatRecord",
    "SeatTakenOver",
    "SeatView",
    "ServiceError",
    "SetupSubmitted",
    "ShardSet",
    "StaleMove",
    "StandingsChanged",
    "StorageError",
    "StorageUnavailable",
    "SystemClock",
    "TakebackDeclined",
    "TakebackOffered",
    "TakenBack",
    "TurnStarted",
    "UserPrefs",
    "shard_of",
]
