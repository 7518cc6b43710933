"""The match service: every use-case of a Tablero match, with users as plain ints.

No discord, storage or render import (import-linter enforces it): the service declares the
Protocols it talks through and the adapters (console, Discord) wire implementations in.

Construction::

    service = MatchService(repository, notifier, clock, renderer=None, rng=None)

``repository``: ``storage.SqliteRepository`` / ``storage.MemoryRepository`` (Protocol
``Repository``); ``notifier``: anything with ``async notify(event)`` (``Notifier``);
``clock``: ``now() -> aware datetime`` (``Clock``, ``SystemClock``); ``renderer``:
``render(position, last_move=, perspective=) -> PNG bytes`` (``BoardRenderer``, optional).

API (all ``async``; ids are plain ints; errors are ``ServiceError`` subclasses with a
``.message`` for people, and ``rules.RulesError`` passes through with its ``.message``):

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
* ``move(match_id, user, text, expected_ply=None) -> MoveResult``
* ``suggest_moves(match_id, user, prefix="", limit=25) -> list[(canonical, display)]``
  (captures/removals first, then checks, then alphabetical; [] when he cannot move)
* ``resign(match_id, user)``; ``offer_draw`` / ``accept_draw`` / ``decline_draw``
  ``(match_id, user) -> MatchView`` (an offer lapses when an opponent moves)
* ``submit_setup(match_id, user, text) -> MoveResult`` (Querni ``choose``)
* ``get_match(match_id) -> MatchView``; ``match_in_thread(thread_id) -> MatchView | None``
* ``position(match_id) -> (Position, MoveMarks | None)``; ``board_image(match_id,
  perspective=None) -> BoardImage | None``; ``describe(match, position) -> str``
* ``games_of(guild_id, user)`` (waiting on him first) / ``active_matches_of(guild_id,
  user)`` / ``open_challenges(guild_id)`` ``-> list[MatchView]``
* ``leaderboard(guild_id, game, page=1, per_page=10) -> LeaderboardPage``;
  ``rank_of(guild_id, game, user) -> LeaderboardEntry | None``;
  ``stats(guild_id, user) -> PlayerStats``. Ladders: the game key, ``<key>-4`` for
  4-player games (``alquerque-grande-4``).
* ``history(match_id) -> HistoryView`` (entries + export text)
* ``get_guild_settings(guild_id)`` / ``update_guild_settings(guild_id, default_days=,
  use_threads=, games_channel_id=, reminders=) -> GuildSettings``;
  ``get_user_prefs(user)`` / ``update_user_prefs(user, notify) -> UserPrefs``
  (notify: "mention" or "dm")
* ``sweep(now=None) -> list[Event]`` - reminders (a day before the deadline, or half the
  period if shorter) and timeouts (2 players: the late player loses; 4 players:
  ``variant.resign`` puts him out; fewer than two moves played: aborted, unrated).
* ``verify_all() -> list[(match_id, problem)]`` - replay every match, mark broken ones.

Events given to the Notifier (``bot.service.events``): ChallengeReceived, LobbyChanged,
ChallengeClosed, TurnStarted, DeadlineReminder, PlayerOut, DrawOffered, DrawDeclined,
SetupSubmitted, MatchEnded.
"""

from bot.service.errors import (
    Conflict,
    InvalidOption,
    MatchBroken,
    MatchNotFound,
    MatchNotStarted,
    MatchOver,
    NotAllowed,
    NotAPlayer,
    NotYourTurn,
    ServiceError,
    StaleMove,
)
from bot.service.events import (
    ChallengeClosed,
    ChallengeReceived,
    DeadlineReminder,
    DrawDeclined,
    DrawOffered,
    Event,
    LobbyChanged,
    MatchEnded,
    PlayerOut,
    SetupSubmitted,
    TurnStarted,
)
from bot.service.ports import (
    BoardRenderer,
    Clock,
    Notifier,
    NullNotifier,
    Repository,
    SystemClock,
)
from bot.service.records import (
    DrawOffer,
    MatchRecord,
    MatchStatus,
    RatingChange,
    RatingRecord,
    RecordEntry,
    ResultRecord,
    SeatRecord,
)
from bot.service.service import MatchService
from bot.service.views import (
    BoardImage,
    GuildSettings,
    HistoryView,
    LeaderboardEntry,
    LeaderboardPage,
    MatchView,
    MoveResult,
    PlayerStats,
    ResultView,
    SeatView,
    UserPrefs,
)

__all__ = [
    "BoardImage", "BoardRenderer", "ChallengeClosed", "ChallengeReceived", "Clock",
    "Conflict", "DeadlineReminder", "DrawDeclined", "DrawOffer", "DrawOffered", "Event",
    "GuildSettings", "HistoryView", "InvalidOption", "LeaderboardEntry", "LeaderboardPage",
    "LobbyChanged", "MatchBroken", "MatchEnded", "MatchNotFound", "MatchNotStarted",
    "MatchOver", "MatchRecord", "MatchService", "MatchStatus", "MatchView", "MoveResult",
    "NotAPlayer", "NotAllowed", "NotYourTurn", "Notifier", "NullNotifier", "PlayerOut",
    "PlayerStats", "RatingChange", "RatingRecord", "RecordEntry", "Repository",
    "ResultRecord", "ResultView", "SeatRecord", "SeatView", "ServiceError",
    "SetupSubmitted", "StaleMove", "SystemClock", "TurnStarted", "UserPrefs",
]
