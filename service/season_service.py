"""Leaderboard seasons as use-cases: set a server's schedule, reset by hand, list the
seasons, and end them in the sweep (archived and announced exactly once, catching up
after a stop). What a season is, and which one a result counts in: ``seasons.py``.

Ending a season is one transaction (``Repository.close_season``, compare-and-set on its
``closed_at``) that also stores its announcement in the outbox, so two processes, or a
sweep racing an organiser's reset, never announce it twice, and a stop after the commit
loses nothing (the outbox delivers it after the restart).
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from datetime import datetime

from locales.i18n import _
from service.core import ServiceCore
from service.errors import Conflict, InvalidOption, NotAllowed
from service.events import SEASON_BOARD_SIZE, SeasonBoard, SeasonEnded
from service.matches import RETRIES
from service.outbox import entry_of
from service.records import OutboxEntry, RatingRecord
from service.seasons import (
    Schedule,
    SeasonChange,
    SeasonRecord,
    parse_schedule,
    rescheduled,
)
from service.views import LeaderboardEntry, notice_lane

log = logging.getLogger(__name__)


class Seasons:
    """Season use-cases (see the module docstring)."""

    def __init__(self, core: ServiceCore) -> None:
        self.repository = core.repository
        self.clock = core.clock
        self.shards = core.shards
        self.get_guild_settings = core.get_guild_settings
        self._notify = core.notify

    async def configure_seasons(self, guild_id: int, channel_id: int, schedule: str
                                ) -> SeasonChange:
        """Run the server's leaderboards by ``schedule`` ("monthly", "quarterly",
        "manual" or "off"). A running season goes on under the new schedule (its end
        moved); "off" ends it now (announced at once); with none running (seasons were
        off) one starts. Returns the season running after the change and whether it
        began now. Ends are announced in the server's games channel if it has one, else
        in ``channel_id`` (where the organiser asked)."""
        try:
            wanted = parse_schedule(schedule)
        except ValueError:
            raise InvalidOption(_("seasons are monthly, quarterly, manual or off")) from None
        settings = await self.get_guild_settings(guild_id)
        if Schedule(settings.seasons) is wanted:
            raise NotAllowed(_("the seasons of this server are already {schedule}",
                               schedule=wanted.value) if wanted is not Schedule.OFF
                             else _("this server has no seasons"))
        latest = next(iter(await self.repository.seasons_of(guild_id)), None)
        running = rescheduled(latest, wanted, self.clock.now())
        season = await self._change_seasons(guild_id, channel_id, wanted,
                                            keep=running is not None)
        return SeasonChange(season, began=season is not None and running is None)

    async def reset_season(self, guild_id: int, channel_id: int) -> SeasonRecord:
        """End the running season now and start the next one (same schedule)."""
        settings = await self.get_guild_settings(guild_id)
        schedule = Schedule(settings.seasons)
        if schedule is Schedule.OFF:
            raise NotAllowed(_("this server has no seasons: choose a schedule first"))
        started = await self._change_seasons(guild_id, channel_id, schedule)
        assert started is not None
        return started

    async def _change_seasons(self, guild_id: int, channel_id: int, schedule: Schedule,
                              *, keep: bool = False) -> SeasonRecord | None:
        settings = await self.get_guild_settings(guild_id)
        where = settings.games_channel_id or channel_id
        for _attempt in range(RETRIES):
            try:
                started = await self.repository.change_seasons(
                    guild_id, schedule, self.clock.now(), where, keep=keep)
                break
            except Conflict:
                continue
        else:
            raise Conflict(_("the seasons are being changed by someone else; try again"))
        await self.sweep_seasons(guild_ids=(guild_id,))
        return started

    # ------------------------------------------------------------------ sweep

    async def sweep_seasons(self, now: datetime | None = None, *,
                            guild_ids: Sequence[int] | None = None) -> list[SeasonEnded]:
        """Close every season that has ended (of this process's servers, or of
        ``guild_ids``): its ratings stay as they are, its final boards are announced,
        and a scheduled server's next season opens. Exactly once per season, whoever
        runs it; after a stop it closes what ended meanwhile."""
        now = now or self.clock.now()
        announced: list[SeasonEnded] = []
        for season in await self.repository.seasons_due(now):
            if not self.shards.owns(season.guild_id) or \
                    (guild_ids is not None and season.guild_id not in guild_ids):
                continue
            events: list[SeasonEnded] = []

            def build(closed: SeasonRecord, rows: Sequence[RatingRecord],
                      events: list[SeasonEnded] = events) -> list[OutboxEntry]:
                ended = self._season_ended(closed, rows)
                events.append(ended)
                return [entry_of(ended, 0, now)]
            if await self.repository.close_season(season, now, build) is None:
                continue  # another process closed it
            for e in events:
                await self._notify(e)
            announced += events
        return announced

    @staticmethod
    def _season_ended(season: SeasonRecord, rows: Sequence[RatingRecord]) -> SeasonEnded:
        """The announcement of ``season``'s end: the top of each ladder's final board
        (``rows`` come ranked, ladder by ladder)."""
        by_ladder: dict[str, list[RatingRecord]] = {}
        for r in rows:
            by_ladder.setdefault(r.ladder, []).append(r)
        boards = tuple(
            SeasonBoard(ladder, len(board), tuple(
                LeaderboardEntry(i + 1, r.user_id, r.ordinal, r.mu, r.sigma, r.wins,
                                 r.losses, r.draws)
                for i, r in enumerate(board[:SEASON_BOARD_SIZE])))
            for ladder, board in sorted(by_ladder.items()))
        assert season.ends_at is not None
        return SeasonEnded(notice_lane(season.guild_id, season.channel_id, season.number),
                           season.number, season.schedule.value, season.starts_at,
                           season.ends_at, boards)
