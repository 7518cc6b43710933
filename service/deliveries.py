"""What an adapter that delivers announcements needs to know from storage, read through
the core (``DeliveryFacts``): the language a server chose for its threads (and whether
its rated games allow takebacks), whether it shows its matches on the web, the locale a
user was last seen with, who keeps his DMs closed, a finished match's stored record
and analysis for its replay, where the posts that asked a question with buttons are
(to close them once answered: ``service.settled``), and where a finished match's latest
rematch stands (its result post shows it: :data:`REMATCH_STAGES`). The Discord adapter
is given one by the wiring instead of the repository.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

from service.errors import StorageError
from service.ports import Repository
from service.records import MatchStatus, PostedMessage
from service.states import StoredRecord
from service.views import GuildSettings, MatchAnalysis, MatchView

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class PlaceSettings:
    """A server's settings its posts depend on: ``language`` of its match threads
    (None: Discord's locale of the server), ``takebacks_rated``: rated games allow
    takebacks by consent."""

    language: str | None
    takebacks_rated: bool


REMATCH_STAGES = ("asked", "started", "declined", "open")
"""Where a finished match's rematch stands, as its result post shows it: ``asked`` (the
rematch's challenge waits for an answer: the result's "Rematch" is gone, its line names
the new match), ``started`` (accepted, or its lobby filled: settled for good),
``declined`` (settled for good), ``open`` (none, or the last one was withdrawn or broke
before it started: "Rematch" is offered again, since one may ask again)."""


def rematch_stage(status: MatchStatus) -> str:
    """The stage (:data:`REMATCH_STAGES`) of a rematch whose match has ``status``."""
    if status.is_waiting:
        return "asked"
    if status is MatchStatus.DECLINED:
        return "declined"
    if status in (MatchStatus.CANCELLED, MatchStatus.BROKEN):
        return "open"
    return "started"


def settled_rematch_stage(outcome: str) -> str:
    """The stage a rematch reaches when its challenge is settled with ``outcome``
    (``OfferSettled.outcome`` of a challenge: accepted, filled, declined, withdrawn,
    closed)."""
    if outcome in ("accepted", "filled"):
        return "started"
    return "declined" if outcome == "declined" else "open"


@dataclass(frozen=True, slots=True)
class RematchState:
    """The latest rematch asked of a finished match: the new match (``match_id``), who
    asked (``asked_by``) and its ``stage`` (:data:`REMATCH_STAGES`)."""

    match_id: int
    asked_by: int
    stage: str


class DeliveryFacts:
    """Storage's answers for the delivery of announcements (see the module docstring)."""

    def __init__(self, repository: Repository) -> None:
        self._repository = repository

    async def server_language(self, guild_id: int) -> str | None:
        """The language a server set for its match threads (``/settings language``)."""
        return (await self.place_settings(guild_id)).language

    async def place_settings(self, guild_id: int) -> PlaceSettings:
        """What a server's posts depend on, in one read: the language of its match
        threads and whether its rated games allow takebacks (the card's Take back)."""
        settings = await self._repository.get_guild_settings(guild_id)
        if settings is None:
            return PlaceSettings(None, GuildSettings(guild_id).takebacks_rated)
        return PlaceSettings(settings.language or None, settings.takebacks_rated)

    async def web_on(self, guild_id: int) -> bool:
        """Whether a server shows its matches on the web (``/settings web:on``): its posts
        then carry a link to the match's page."""
        settings = await self._repository.get_guild_settings(guild_id)
        return settings is not None and settings.web

    async def user_locale(self, user_id: int) -> str | None:
        """The locale ``user_id`` was last seen with (his DMs speak it)."""
        prefs = await self._repository.get_user_prefs(user_id)
        return prefs.locale if prefs is not None else None

    async def set_dms_closed(self, user_id: int, closed: bool) -> None:
        """Remember that ``user_id`` takes no DMs (or takes them again)."""
        await self._repository.set_dms_closed(user_id, closed)

    async def dms_closed_untold(self) -> list[int]:
        """Users whose closed DMs nobody has told them about yet."""
        return await self._repository.dms_closed_untold()

    async def dms_closed_told(self, user_id: int) -> None:
        """``user_id`` has been told that his DMs are closed."""
        await self._repository.dms_closed_told(user_id)

    async def remember_post(self, match_id: int, offer: str, post: PostedMessage) -> None:
        """``match_id``'s question ``offer`` (``OfferSettled.offer``) was posted as
        ``post``: its answer closes it."""
        await self._repository.remember_post(match_id, offer, post)

    async def post_of(self, match_id: int, offer: str) -> PostedMessage | None:
        """The post of ``match_id``'s question ``offer`` still to close (None: none was
        posted, or it was closed already)."""
        return await self._repository.post_of(match_id, offer)

    async def forget_post(self, match_id: int, offer: str) -> None:
        """That post was closed (or cannot be): nothing more to do with it."""
        await self._repository.forget_post(match_id, offer)

    async def rematch_of(self, match_id: int) -> RematchState | None:
        """The latest rematch asked of the finished match ``match_id`` and where it
        stands (None: none was asked)."""
        rematch = await self._repository.rematch_of(match_id)
        rec = await self._repository.load_match(rematch) if rematch is not None else None
        if rec is None:
            return None
        return RematchState(rec.id, rec.challenger_id, rematch_stage(rec.status))

    async def rematch_source(self, rematch_id: int) -> int | None:
        """The finished match whose latest rematch ``rematch_id`` is (None: it is no
        rematch, or a later one was asked since)."""
        return await self._repository.rematch_source(rematch_id)

    async def stored_analysis(self, match_id: int) -> MatchAnalysis | None:
        """The analysis ``/analysis`` stored of a finished match (its replay marks the
        costly moves), None when there is none or it cannot be read: the marks are
        optional, the replay goes without them."""
        try:
            return await self._repository.analysis_of(match_id)
        except StorageError as e:
            log.warning("the analysis of match %s could not be read: %s", match_id,
                        e.message)
            return None

    async def stored_record(self, view: MatchView) -> StoredRecord | None:
        """``view``'s match as stored, with its entries (None: it is gone)."""
        rec = await self._repository.load_match(view.id)
        if rec is None:
            return None
        entries = await self._repository.load_entries(view.id, stop=rec.ply)
        return StoredRecord(view, rec, tuple(entries))
