"""The service's Notifier on Discord: every event becomes a NEW message in the match's
thread (or channel), so mentions always notify (Discord does not notify mentions added by
an edit). Users who chose DM notifications get a direct message instead of a ping.

It never calls the service: an event carries everything needed to tell people about it
(the match, the board to draw, each participant's /notify choice, the record for a
replay), and the notifier is built before the service (``create_bot``: the Discord
client, then this notifier, then the service). Deliveries run in order, each after the
previous one, off the caller's path: the service hands the event over and returns, so
the player's own reply goes out before the board is drawn and posted.

It is also the service's ``MatchRooms``: when a match starts it opens the match's thread.

Failures are logged and swallowed here (the change is already stored); the command that
caused the event checks the bot's permissions beforehand so the user learns what is missing.
"""

from __future__ import annotations

import asyncio
import io
import logging
from collections.abc import Awaitable, Sequence
from typing import Any

import discord

from bot.discordapp import embeds, media
from bot.discordapp.components import match_buttons
from bot.discordapp.permissions import THREAD_OPENING_PERMISSIONS, missing_permissions
from bot.service import events as ev
from bot.service import texts
from bot.service.boards import draw_board
from bot.service.ports import BoardRenderer, NameResolver
from bot.service.states import StoredRecord
from bot.service.views import BoardState, MatchView, RatingUpdate, ResultView
from locales.results import leaving_note

log = logging.getLogger("tablero.discord")

Messageable = discord.TextChannel | discord.Thread


class DiscordNotifier:
    """Posts service events to Discord through ``client``; draws boards with
    ``renderer`` and names players with ``names`` (the client's caches)."""

    def __init__(self, client: discord.Client, *, renderer: BoardRenderer | None = None,
                 names: NameResolver | None = None) -> None:
        self.client = client
        self.renderer = renderer
        self.names = names
        self._tasks: set[asyncio.Task[None]] = set()
        self._last: asyncio.Task[None] | None = None

    # ------------------------------------------------------------------ plumbing

    async def channel(self, channel_id: int) -> Messageable | None:
        found = self.client.get_channel(channel_id)
        if found is None:
            try:
                found = await self.client.fetch_channel(channel_id)
            except discord.HTTPException:
                log.warning("channel %s is gone or hidden from me", channel_id)
                return None
        return found if isinstance(found, discord.TextChannel | discord.Thread) else None

    async def where(self, m: MatchView) -> Messageable | None:
        """The match thread, else the channel the match was made in."""
        if m.thread_id:
            found = await self.channel(m.thread_id)
            if found is not None:
                return found
        return await self.channel(m.channel_id)

    @staticmethod
    def split_by_preference(m: MatchView, users: Sequence[int]) -> tuple[list[int], list[int]]:
        """(users to mention, users to DM), by the choices that came with the match."""
        ping = [u for u in users if not m.prefers_dm(u)]
        dm = [u for u in users if m.prefers_dm(u)]
        return ping, dm

    async def post(self, m: MatchView, content: str, *, ping: Sequence[int] = (),
                   dm_note: str | None = None, dm: Sequence[int] = (),
                   **kwargs: Any) -> discord.Message | None:
        """A new message in the match's place; ``ping`` are mentioned (and notified), ``dm``
        get ``dm_note`` privately with a link to the message."""
        target = await self.where(m)
        message = None
        if target is not None:
            message = await target.send(
                content[:2000],
                allowed_mentions=discord.AllowedMentions(
                    users=[discord.Object(u) for u in ping], everyone=False, roles=False),
                **kwargs)
        for u in dm:
            await self.direct(u, f"{dm_note or content}"
                                 f"{f' {message.jump_url}' if message else ''}")
        return message

    async def direct(self, user_id: int, text: str) -> None:
        try:
            # the DM channel is opened by id: no user fetch (nor its API call) needed
            channel = await self.client.create_dm(discord.Object(user_id))
            await channel.send(text[:2000])
        except discord.HTTPException:
            log.info("could not DM user %s (DMs closed?)", user_id)

    async def open_room(self, m: MatchView) -> int | None:
        """The service's ``MatchRooms``: open the thread of a match that has just started
        (the service asks only when the server uses threads), or None when the bot may not
        create one there: the match then stays in its channel."""
        channel = await self.channel(m.channel_id)
        if not isinstance(channel, discord.TextChannel):
            return None
        perms = channel.permissions_for(channel.guild.me)
        if missing_permissions(perms, THREAD_OPENING_PERMISSIONS):
            log.info("no thread permissions in #%s; match %s stays in the channel",
                     channel.name, m.id)
            return None
        # names from the caches (everyone who used a command or button is known): a
        # thread's name is not worth an API call per player
        names = {u: (self.names(m.guild_id, u) if self.names is not None else "") or str(u)
                 for u in m.players()}
        name = embeds.thread_name(m, names)
        starter = None
        try:
            starter = await channel.send(
                f"**{embeds.game_title(m)}** started: {embeds.mentions(m.players())} "
                f"({embeds.terms(m)}). The game is played in the thread below.",
                allowed_mentions=discord.AllowedMentions.none())
            thread = await starter.create_thread(name=name, auto_archive_duration=10080)
        except discord.HTTPException:
            log.warning("could not create a thread for match %s; using the channel", m.id)
            if starter is not None:  # announces a thread that is not there: take it back
                try:
                    await starter.delete()
                except discord.HTTPException:
                    log.warning("could not delete the starter message of match %s", m.id)
            return None
        return thread.id

    async def board_attachment(self, m: MatchView, board: BoardState | None
                               ) -> discord.File | None:
        """The board PNG with its alt text, or None (no renderer, no board, or drawing
        failed: the message goes out without a picture rather than not at all)."""
        if self.renderer is None or board is None:
            return None
        try:
            image = await asyncio.to_thread(draw_board, self.renderer, m, board,
                                            texts.seat_names(m, self.names))
        except Exception:
            log.exception("could not draw the board of match %s", m.id)
            return None
        return embeds.board_file(image.png, image.alt)

    def name(self, m: MatchView, user_id: int | None) -> str | None:
        """A player's display name for "alice played ..." (not a mention: the player who
        just moved is not pinged), his mention if the caches do not know him."""
        if user_id is None:
            return None
        known = self.names(m.guild_id, user_id) if self.names is not None else ""
        return known or embeds.mention(user_id)

    def background(self, work: Awaitable[None], what: str) -> None:
        """Run slow, optional work (a replay GIF) after the reply; failures are logged."""
        async def guarded() -> None:
            try:
                await work
            except Exception:
                log.exception("background task failed: %s", what)
        task = asyncio.get_running_loop().create_task(guarded())
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def drain(self) -> None:
        """Wait until every delivery handed over so far (and its background work) is done."""
        while self._tasks:
            await asyncio.wait(set(self._tasks))

    # ------------------------------------------------------------------ events

    async def notify(self, event: ev.Event) -> None:
        """Hand ``event`` over: it is delivered after the ones before it, off the
        caller's path."""
        previous = self._last

        async def deliver() -> None:
            if previous is not None and not previous.done():
                await asyncio.wait({previous})
            try:
                await self._dispatch(event)
            except Exception:
                log.exception("could not post %s for match %s", type(event).__name__,
                              event.match.id)
        task = asyncio.get_running_loop().create_task(deliver())
        self._last = task
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _dispatch(self, event: ev.Event) -> None:
        m = event.match
        if isinstance(event, ev.ChallengeReceived):
            await self.challenge(m, event.by, event.to)
        elif isinstance(event, ev.LobbyChanged):
            verb = "joined" if event.joined else "left"
            filled = len(m.joined)
            await self.post(m, f"{embeds.mention(event.user_id)} {verb} the "
                               f"{m.game_name} lobby ({filled}/{m.seat_count}).")
        elif isinstance(event, ev.ChallengeClosed):
            await self.post(m, f"{embeds.mention(event.by)} {event.reason} the "
                               f"{m.game_name} challenge (match {m.id}).")
        elif isinstance(event, ev.TurnStarted):
            await self.turn(m, event.users, event.last_move, event.by,
                            lapsed=event.draw_lapsed_by, board=event.board)
        elif isinstance(event, ev.DeadlineReminder):
            ping, dm = self.split_by_preference(m, event.users)
            text = (f"⏰ {embeds.mentions(event.users)}: it's your move in {m.game_name} "
                    f"(match {m.id}); time runs out {embeds.relative(m.deadline)}.")
            await self.post(m, text, ping=ping, dm=dm)
        elif isinstance(event, ev.PlayerOut):
            await self.post(m, f"{embeds.mention(event.user_id)} {event.what} and is out; "
                               "the game goes on.")
        elif isinstance(event, ev.MovePlayedFor):
            await self.post(m, f"⏭ {embeds.mention(event.user_id)} {event.what}.")
        elif isinstance(event, ev.DrawOffered):
            others = [u for u in m.players() if u != event.by]
            ping, dm = self.split_by_preference(m, others)
            await self.post(
                m, f"{embeds.mentions(others)}: {embeds.mention(event.by)} offers a draw. "
                   "It lapses when the next move is played.",
                ping=ping, dm=dm, view=match_buttons(m.id, m.ply, ["drawyes", "drawno"]))
        elif isinstance(event, ev.DrawDeclined):
            await self.post(m, f"{embeds.mention(event.by)} declined the draw offer.")
        elif isinstance(event, ev.SetupSubmitted):
            waiting = [u for u in m.to_move if u != event.user_id]
            rest = (f" Waiting for {embeds.mentions(waiting)}." if waiting else "")
            await self.post(m, f"{embeds.mention(event.user_id)} submitted an arrangement "
                               f"(kept hidden until both have).{rest}")
        elif isinstance(event, ev.MatchEnded):
            await self.ended(m, event.result, event.reason, event.ratings, event.left_by,
                             board=event.board, record=event.record)
        elif isinstance(event, ev.ClocksExtended):
            await self.post(m, f"⏸ {texts.offline_notice(event.gap)} (match {m.id}).")

    async def challenge(self, m: MatchView, by: int, to: Sequence[int]) -> None:
        actions = ["accept", "decline"] if to else []
        if not to or m.seat_count > len(to) + 1:
            actions.append("join")
        actions.append("cancel")
        ping, dm = self.split_by_preference(m, to)
        await self.post(m, embeds.challenge_text(m, by, to), ping=ping, dm=dm,
                        view=match_buttons(m.id, m.ply, actions))

    async def turn(self, m: MatchView, users: Sequence[int], last_move: str | None,
                   by: int | None = None, *, lapsed: int | None = None,
                   board: BoardState | None = None) -> None:
        picture = await self.board_attachment(m, board)
        ping, dm = self.split_by_preference(m, users)
        if last_move is None:
            headline = f"The match begins. {embeds.mentions(users)}: your move."
            played = ""
        else:
            headline = embeds.played(self.name(m, by), last_move)
            played = f"{headline} — "
        content = (f"{played}{embeds.mentions(users)}, your move "
                   f"({embeds.relative(m.deadline)}).") if users else played.rstrip(" —")
        if lapsed is not None:
            content += f" ({embeds.mention(lapsed)}'s draw offer lapsed with this move.)"
        extra: dict[str, Any] = {"file": picture} if picture is not None else {}
        await self.post(m, content, ping=ping, dm=dm,
                        dm_note=f"Your move in {m.game_name} (match {m.id}).",
                        embed=embeds.board_embed(m, headline=headline,
                                                 image=picture is not None), **extra)

    async def ended(self, m: MatchView, result: ResultView | None, reason: str,
                    ratings: Sequence[RatingUpdate] = (), left_by: int | None = None, *,
                    board: BoardState | None = None,
                    record: StoredRecord | None = None) -> None:
        text = embeds.result_text(m, result, reason)
        note = leaving_note(reason, embeds.mention(left_by)) if left_by is not None else None
        if note is not None:  # the leaver may lead on captures and win: say who left first
            text = f"{note}. {text}"
        if ratings:
            text += "\nRatings:\n" + "\n".join(embeds.rating_line(r) for r in ratings)
        extra: dict[str, Any] = {}
        if m.ply > 0 and m.status.value != "broken":
            picture = await self.board_attachment(m, board)
            extra["embed"] = embeds.board_embed(
                m, headline=embeds.played(self.name(m, m.last_move_by), m.last_move)
                if m.last_move else None, image=picture is not None)
            if picture is not None:
                extra["file"] = picture
        ping, dm = self.split_by_preference(m, m.players())
        await self.post(m, text, ping=ping, dm=dm, **extra)
        if m.ply > 0 and record is not None:
            # The replay takes a while to draw: it follows the result, off the reply path.
            self.background(self.post_replay(m, record), f"replay of match {m.id}")

    async def post_replay(self, m: MatchView, record: StoredRecord) -> None:
        game_record = await asyncio.to_thread(record.game_record)
        gif = await media.replay_gif_of(game_record, self.names)
        if gif is None:
            return
        await self.post(m, f"Replay of match {m.id}:", file=discord.File(
            io.BytesIO(gif), filename="replay.gif",
            description=f"Animated replay of {m.game_name} match {m.id}, move by move"))
