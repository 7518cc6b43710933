"""``MatchService``: every use-case of a match, put together from one mixin per group of
use-cases. Where to look (see also the package docstring):

* ``core``: ``ServiceCore`` declares what the use-cases may use; the machinery is in its
  collaborators (``matches``, ``states``, ``ratings``, ``texts``, ``boards``)
* ``challenges``: challenge, accept/join, decline, cancel, seating, attach_thread
* ``play``: move, submit_setup, suggest_moves, copied notes
* ``endings``: resign, draw offers
* ``deadlines``: sweep_deadlines (reminders, timeouts), verify_all; the whole sweep is
  ``MatchService.sweepers``
* ``clocks``: resume (the heartbeat; clocks extended after Tablero was away), beat
* ``computer``: challenge_computer, add_computers, play_computers (computer players)
* ``tournament_service``: tournaments (create, join/leave, start, remove, cancel,
  rounds through challenge/accept, results, standings); the pure core is ``tournaments/``
* ``season_service``: leaderboard seasons (schedule, reset, list, the sweep that ends
  them); what a season is: ``seasons``
* ``comforts``: rematch, takeback, conditional moves (/premove), notes, follows
* ``web``: what the web pages read (a match for spectators, the board of any ply)
* ``queries``: get_match, position, board_image, describe, games_of, history, record,
  leaderboard, stats, settings, preferences
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from service.challenges import ChallengesMixin
from service.clocks import ClocksMixin
from service.comforts import ComfortsMixin
from service.computer import ComputerMixin
from service.core import Subscriber, Sweeper
from service.deadlines import DeadlinesMixin
from service.endings import EndingsMixin
from service.events import Event
from service.ids import checked_ids
from service.play import PlayMixin
from service.queries import QueriesMixin
from service.season_service import SeasonsMixin
from service.tournament_service import TournamentsMixin
from service.vacations import VacationsMixin
from service.views import PlayerStats
from service.web import WebMixin


# the one door: every id is a plain int in SQLite's range, the caller may see what it
# names, and every text is valid text (no lone surrogate, no control character)
@checked_ids
class MatchService(ComputerMixin, SeasonsMixin, TournamentsMixin, ComfortsMixin, ChallengesMixin,
                   PlayMixin, DeadlinesMixin, VacationsMixin, ClocksMixin,
                   EndingsMixin, WebMixin, QueriesMixin):
    """Every use-case of a match. See the package docstring for the list.

    How the parts react is data here, not a chain of overrides: the sweep is the list of
    :meth:`sweepers`, and the parts that follow announcements are :meth:`_subscribers`.
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.actions = self  # the computer acts through the doors a person's moves take

    async def stats(self, guild_id: int, user: int) -> PlayerStats:
        """A player's record in a server: his rated games (``queries``) with his casual
        games against the computer (``computer``)."""
        rated = await QueriesMixin.stats(self, guild_id, user)
        return await self._with_computer_games(rated, guild_id, user)

    def sweepers(self) -> tuple[Sweeper, ...]:
        """The parts of the periodic sweep, in order: conditional answers a restart left
        due (moves the opponent already waits for), reminders and timeouts, tournaments
        (registration closed, rounds to finish), seasons that ended, and last the
        computer turns left unplayed."""
        return (self.sweep_due_conditionals, self.sweep_deadlines, self.sweep_tournaments,
                self.sweep_seasons, self.sweep_computers)

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
        """After the notifier, in order: a finished match moves its tournament on, and a
        computer's turn starts its search."""
        return (self._tournament_follows, self._computer_follows)
