"""The service's Notifier on Discord: every event becomes a NEW message in the match's
thread (or channel), so mentions always notify (Discord does not notify mentions added by
an edit). Users who chose DM notifications get a direct message instead of a ping.

It never calls the service: an event carries everything needed to tell people about it
(the match, the board to draw, each participant's /notify choice, the record for a
replay), and the notifier is built before the service (``create_bot``: the Discord
client, then this notifier, then the service).

Every event reaches it twice: stored in the outbox with the change that caused it, and
live from the service. Its :class:`OutboxRelay` delivers each match's entries in order
off the caller's path (the player's own reply goes out before the board is drawn and
posted), with the live event when it has it, from the stored entry after a restart;
transient failures are retried, and an entry leaves the outbox only once Discord took
it. Posting goes through ``dispatcher.Routes``: the fallback ladder that always reaches
the person (thread, parent channel, direct messages; DMs, then a mention).

It is also the service's ``MatchRooms``: when a match starts it opens the match's thread.
"""

from __future__ import annotations

import asyncio
import dataclasses
import io
import logging
from collections.abc import Callable, Sequence
from typing import Any, ClassVar

import discord

from bot import puzzles
from bot.boards import glance_picture
from bot.discordapp import cards, embeds, media
from bot.discordapp.components import match_buttons, stepper_buttons, with_web_link
from bot.discordapp.dispatcher import (
    Attachment,
    DeliveryOptions,
    Progress,
    Routes,
    remembered_layout,
    reopenable,
)
from bot.discordapp.mentions import CommandIds
from bot.discordapp.names import MemberNames, in_text
from bot.discordapp.outcomes import outcome_line, rematch_line
from bot.discordapp.permissions import THREAD_OPENING_PERMISSIONS, missing_permissions
from bot.event_handlers import EventHandlers
from bot.ops.metrics import Metrics
from bot.web.links import WebLinks, spectator_url
from locales.i18n import Words, _, _n, command, joined, render
from locales.results import leaving_note
from locales.terms import game_name
from render.table import draw_table
from service import MatchStatus, texts
from service import events as ev
from service.boards import draw_board
from service.computer_seats import computer_title, computer_user, is_computer
from service.deliveries import DeliveryFacts, settled_rematch_stage
from service.imported_seats import is_imported
from service.outbox import OutboxRelay
from service.ports import BoardRenderer, NameResolver
from service.records import OutboxEntry, PostedMessage
from service.states import StoredRecord
from service.views import BoardState, MatchView

log = logging.getLogger("tablero.discord")

Messageable = discord.TextChannel | discord.Thread



def dm_offer(user_id: int) -> str:
    """How a challenge's DM to ``user_id``, sent with its Accept and Decline, is
    remembered (``PostedMessage``) to be closed with the challenge's post.

    >>> dm_offer(7)
    'challenge:dm:7'
    """
    return f"challenge:dm:{user_id}"


class DiscordNotifier:
    """Posts service events to Discord through ``client``, by way of the outbox (its
    ``relay``, which the wiring builds around :meth:`deliver`: ``create_bot``); reads what
    it needs of storage through ``facts`` (the core's ``DeliveryFacts``); draws boards
    with ``renderer`` and names players with ``names`` (the client's caches); ``web``: the
    web's links, for the "Open on the web" button of a server with the web on."""

    relay: OutboxRelay
    """The outbox relay that calls :meth:`deliver` (set by the wiring)."""

    def __init__(self, client: discord.Client, facts: DeliveryFacts, *,
                 renderer: BoardRenderer | None = None, names: NameResolver | None = None,
                 options: DeliveryOptions | None = None, web: WebLinks | None = None,
                 metrics: Metrics | None = None, cards: bool = True,
                 command_ids: CommandIds | None = None) -> None:
        self.client = client
        self.web = web
        self.cards = cards  # turn posts as Components V2 layouts (issue 42)
        self.facts = facts  # storage's answers, through the core
        self.renderer = renderer
        self.names = names
        self.options = options or DeliveryOptions()
        self.routes = Routes(client, facts, metrics, command_ids)
        self._progress: dict[int, Progress] = {}

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

    @staticmethod
    def split_by_preference(m: MatchView, users: Sequence[int]) -> tuple[list[int], list[int]]:
        """(users to mention, users to DM), by the choices that came with the match."""
        ping = [u for u in users if not m.prefers_dm(u)]
        dm = [u for u in users if m.prefers_dm(u)]
        return ping, dm

    @staticmethod
    def others(m: MatchView, *left_out: int | None) -> list[int]:
        """The match's participants but ``left_out`` (who acted: he was answered)."""
        people = m.players() or (*m.joined, *m.invited)
        return [u for u in dict.fromkeys(people) if u not in left_out]

    async def post(self, m: MatchView, content: Words, *, ping: Sequence[int] = (),
                   dm_note: Words | None = None, dm: Sequence[int] = (),
                   closed_note: Callable[[int], Words] | None = None,
                   audience: Sequence[int] = (), step: str = "post",
                   **kwargs: Any) -> discord.Message | None:
        """A new message in the match's place; ``ping`` are mentioned (and notified), ``dm``
        get ``dm_note`` privately with a link to the message (one whose DMs turn out
        closed: a short reply to it, ``closed_note(user)``); ``audience`` must learn it
        by DM if the place cannot be posted to (``Routes.post``)."""
        return await self.routes.post(m, content, ping=ping, dm=dm, dm_note=dm_note,
                                      closed_note=closed_note, audience=audience,
                                      step=step, **kwargs)

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
        # a mention does not render in a thread's name: the names nobody here knows are
        # asked of Discord (once each), the rest named by their seats' colours
        if isinstance(self.names, MemberNames):
            await self.names.fetch(m.guild_id, m.players())
        names = {u: texts.player_words(m, self.names, u) for u in m.players()}
        loc = await self.routes.place_locale(m.guild_id)
        name = embeds.thread_name(m, names, loc)
        starter = None
        try:
            starter = await channel.send(
                render(_("**{title}** started: {players} ({terms}). The game is played in the "
                         "thread below.", title=embeds.game_title(m),
                         players=embeds.sides_text(m), terms=embeds.terms(m)), loc),
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

    async def board_attachment(self, m: MatchView, board: BoardState | None, loc: str
                               ) -> discord.File | None:
        """The board PNG with its alt text in ``loc``, or None (no renderer, no board, or
        drawing failed: the message goes out without a picture rather than not at all)."""
        if self.renderer is None or board is None:
            return None
        if isinstance(self.names, MemberNames):  # a picture names players, no mentions:
            await self.names.fetch(m.guild_id, m.players())  # those unknown asked, once
        try:
            image = await asyncio.to_thread(draw_board, self.renderer, m, board,
                                            texts.drawn_names(m, self.names, loc), None, loc)
        except Exception:
            log.exception("could not draw the board of match %s", m.id)
            return None
        return embeds.board_file(image.png, image.alt)

    def name(self, m: MatchView, user_id: int | None) -> Words | None:
        """A player's display name for "alice played ..." (not a mention: the player who
        just moved is not pinged), his mention if the caches do not know him."""
        if user_id is None:
            return None
        known = self.names(m.guild_id, user_id) if self.names is not None else ""
        return in_text(known) if known else embeds.mention(user_id)

    async def web_url(self, m: MatchView) -> str | None:
        """The address of ``m``'s page on the web, when the web is set up here and ``m``'s
        server turned it on (``/settings web:on``); else None."""
        if self.web is None or not await self.facts.web_on(m.guild_id):
            return None
        return spectator_url(self.web.base_url, self.web.signer.spectator(m.id, m.guild_id))

    async def drain(self, timeout: float | None = None) -> bool:
        """Wait until every delivery handed over so far is done (False: ``timeout``
        passed; what is left stays in the outbox)."""
        return await self.relay.drain(timeout)

    async def flush(self) -> bool:
        """On shutdown: deliver as far as the flush time allows, then stop."""
        return await self.relay.flush(self.options.flush_seconds)

    # ------------------------------------------------------------------ events

    async def notify(self, event: ev.Event) -> None:
        """Hand ``event`` over: it is delivered after the ones before it in its match,
        off the caller's path (its entry is already in the outbox)."""
        await self.relay.notify(event)

    async def deliver(self, entry: OutboxEntry, event: ev.Event) -> None:
        """The relay's deliverer: the posts of one entry; a retry skips those already
        out, and a redelivery after a restart finds those an earlier process made."""
        await self.routes.delivering(entry, self._dispatch(event), self._progress,
                                     repeat=self.relay.may_be_out(entry))

    async def _dispatch(self, event: ev.Event) -> None:
        """The posts of ``event``: the handler of its class."""
        await self.handlers.handle(self, event)

    handlers: ClassVar[EventHandlers[DiscordNotifier]] = EventHandlers()
    """One method per event class (``bot.event_handlers``)."""

    @handlers.on(ev.ChallengeReceived)
    async def challenge_received(self, event: ev.ChallengeReceived) -> None:
        m, to = event.match, event.to
        if event.taken:  # the computer took the rematch: its start is posted, no question
            await self.rematch_asked(m, event)
            return
        actions = ["accept", "decline"] if to else []
        if not to or m.seat_count > len(to) + len(m.joined):  # (the computer sits at once)
            actions.append("join")
        actions.append("cancel")
        ping, dm = self.split_by_preference(m, to)
        loc = await self.routes.place_locale(m.guild_id)
        text: Words = embeds.challenge_text(m, event.by, to)
        if event.rematch_of is not None:
            text = _("Rematch of match {old}: {challenge}", old=str(event.rematch_of),
                     challenge=text)
        elif m.continued_from is not None:
            text = _n("Continuing imported game {old} from its last position, after "
                      "{count} move: {challenge}", "Continuing imported game {old} from its "
                      "last position, after {count} moves: {challenge}", m.ply,
                      old=str(m.continued_from), challenge=text)

        def closed_note(user: int) -> Words:  # his DMs are closed: the post is above
            return _("{player}, you have a challenge from {challenger}: accept or decline "
                     "it above.", player=embeds.mention(user),
                     challenger=embeds.mention(event.by))

        def dm_buttons(dm_loc: str) -> discord.ui.View:  # answered from the DM itself
            return match_buttons(m.id, m.ply, ["accept", "decline"], dm_loc)

        async def dm_asked(user: int, message: discord.Message, dm_loc: str) -> None:
            await self.asked(m, dm_offer(user), dm_loc, message)

        await self.asked(m, "challenge", loc, await self.post(
            m, text, ping=ping, dm=dm, closed_note=closed_note,
            view=match_buttons(m.id, m.ply, actions, loc), dm_view=dm_buttons,
            dm_asked=dm_asked))
        await self.rematch_asked(m, event)

    async def rematch_asked(self, m: MatchView, event: ev.ChallengeReceived) -> None:
        """The result the rematch ``m`` came from says it was asked (``show_rematch``),
        unless it was answered since (the answer's own entry follows: the start of a
        rematch the computer took at once) or a later rematch was asked meanwhile."""
        if event.rematch_of is None:
            return
        latest = await self.facts.rematch_of(event.rematch_of)
        if latest is not None and latest.match_id == m.id and latest.stage == "asked":
            await self.show_rematch(event.rematch_of, m.id, "asked", event.by)

    @handlers.on(ev.LobbyChanged)
    async def lobby_changed(self, event: ev.LobbyChanged) -> None:
        m = event.match
        # his own answer closes the challenge's DM to him (the lobby waits on)
        await self.close(m.id, dm_offer(event.user_id), ev.OfferSettled(
            m, "challenge", "accepted" if event.joined else "declined", event.user_id))
        who, game = embeds.mention(event.user_id), embeds.game_of(m)
        said = _("{player} joined the {game} lobby ({joined}/{seats}).", player=who,
                 game=game, joined=len(m.joined), seats=m.seat_count) if event.joined \
            else _("{player} left the {game} lobby ({joined}/{seats}).", player=who,
                   game=game, joined=len(m.joined), seats=m.seat_count)
        await self.post(m, said, audience=self.others(m, event.user_id))

    @handlers.on(ev.ChallengeClosed)
    async def challenge_closed(self, event: ev.ChallengeClosed) -> None:
        m = event.match
        who, game = embeds.mention(event.by), embeds.game_of(m)
        closed = _("{player} declined the {game} challenge (match {match}).", player=who,
                   game=game, match=m.id) if event.reason == "declined" else \
            _("{player} cancelled the {game} challenge (match {match}).", player=who,
              game=game, match=m.id)
        await self.post(m, closed,
                        audience=self.others(m, event.by) or
                        [u for u in (m.challenger_id,) if u != event.by])

    @handlers.on(ev.TurnStarted)
    async def turn_started(self, event: ev.TurnStarted) -> None:
        m, users, by = event.match, event.users, event.by
        loc = await self.routes.place_locale(m.guild_id)
        picture = await self.board_attachment(m, event.board, loc)
        ping, dm = self.split_by_preference(m, users)
        content: Words
        if event.last_move is None:
            headline: Words = _("The match begins. {players}: your move.",
                                players=embeds.mentions(users))
            content = _("{players}, your move ({deadline}).", players=embeds.mentions(users),
                        deadline=embeds.relative(m.deadline)) if users else ""
        else:
            headline = embeds.played(self.name(m, by), event.last_move)
            content = _("{played} — {players}, your move ({deadline}).", played=headline,
                        players=embeds.mentions(users),
                        deadline=embeds.relative(m.deadline)) if users else headline
        if event.draw_lapsed_by is not None:
            content = joined(content, _("({player}'s draw offer lapsed with this move.)",
                                        player=embeds.mention(event.draw_lapsed_by)))
        extra: dict[str, Any] = {"file": picture} if picture is not None else {}
        # the player not to move may give a day; the one who moved may ask to take it back
        actions = cards.card_actions(m, by, m.rated and await self.routes.takebacks_in_rated(
            m.guild_id))
        url = await self.web_url(m)
        board = None if picture is None else (embeds.BOARD_FILE, picture.description or "")
        if self.cards:  # one Components V2 layout (issue 42): the words go in it
            extra["view"] = cards.match_card(m, loc, board=board, actions=actions,
                                             web_url=url)
            if not render(content, loc):
                content = headline
        else:
            if actions:
                extra["view"] = match_buttons(m.id, m.ply, actions, loc)
            if url is not None:
                extra["view"] = with_web_link(extra.get("view"), url, loc)
            extra["embed"] = embeds.board_embed(m, loc, headline=headline,
                                                image=picture is not None)
        message = await self.post(m, content, ping=ping, dm=dm,
                                  dm_note=_("Your move in {game} (match {match}).",
                                            game=embeds.game_of(m), match=m.id),
                                  audience=self.others(m, by), **extra)
        if actions:  # its buttons go once the turn is over (``TurnStarted.closes``)
            await self.asked_with_layout(m, f"turn:{m.ply}", loc, message, cards.match_card(
                m, loc, board=board, web_url=url) if self.cards else self.link_only(url, loc))
        if event.closes is not None:  # the card this one replaces, once this one is out
            await self.close_turn(m, event.closes)

    @handlers.on(ev.DeadlineReminder)
    async def deadline_reminder(self, event: ev.DeadlineReminder) -> None:
        m = event.match
        ping, dm = self.split_by_preference(m, event.users)
        text = _("⏰ {players}: it's your move in {game} (match {match}); time runs out "
                 "{deadline}.", players=embeds.mentions(event.users),
                 game=embeds.game_of(m), match=m.id, deadline=embeds.relative(m.deadline))
        await self.post(m, text, ping=ping, dm=dm)

    @handlers.on(ev.PlayerOut)
    async def player_out(self, event: ev.PlayerOut) -> None:
        m = event.match
        await self.post(m, _("{player} {what} and is out; the game goes on.",
                             player=embeds.mention(event.user_id), what=event.what),
                        audience=self.others(m))

    @handlers.on(ev.MovePlayedFor)
    async def move_played_for(self, event: ev.MovePlayedFor) -> None:
        m = event.match
        await self.post(m, _("⏭ {player} {what}.", player=embeds.mention(event.user_id),
                             what=event.what), audience=self.others(m))

    @handlers.on(ev.DrawOffered)
    async def draw_offered(self, event: ev.DrawOffered) -> None:
        m = event.match
        others = [u for u in m.players() if u != event.by]
        ping, dm = self.split_by_preference(m, others)
        loc = await self.routes.place_locale(m.guild_id)
        await self.asked(m, "draw", loc, await self.post(
            m, _("{players}: {player} offers a draw. It lapses when the next move is "
                 "played.", players=embeds.mentions(others),
                 player=embeds.mention(event.by)),
            ping=ping, dm=dm, view=match_buttons(m.id, m.ply, ["drawyes", "drawno"], loc)))

    @handlers.on(ev.DrawAccepted)
    async def draw_accepted(self, event: ev.DrawAccepted) -> None:
        """One more player of four agreed to the draw: everyone learns it, and those it
        still waits for are asked (the offer's buttons stay under the offer)."""
        m = event.match
        ping, dm = self.split_by_preference(m, event.waiting)
        await self.post(m, _("🤝 {player} agreed to the draw; waiting for {players}.",
                             player=embeds.mention(event.by),
                             players=embeds.mentions(event.waiting)),
                        ping=ping, dm=dm, audience=self.others(m, event.by))

    @handlers.on(ev.OfferSettled)
    async def offer_settled(self, event: ev.OfferSettled) -> None:
        """A question asked with buttons was answered or lapsed: its post (remembered
        when it went out) loses its buttons and says what became of it, in the
        language it was written in. Once closed (or found gone) it is forgotten."""
        m = event.match
        if event.offer == "challenge":  # a rematch's answer: the result it rematches
            source = await self.facts.rematch_source(m.id)  # (None: a later one's)
            if source is not None:
                await self.show_rematch(source, m.id, settled_rematch_stage(event.outcome),
                                        event.by)
        offer = event.offer if event.ply is None else f"{event.offer}:{event.ply}"
        await self.close(m.id, offer, event)
        if event.offer == "challenge":  # and the DMs that carried its buttons
            for user in dict.fromkeys((*m.invited, *m.joined, *m.players())):
                await self.close(m.id, dm_offer(user), event)

    async def show_rematch(self, match_id: int, rematch: int, stage: str,
                           by: int | None) -> None:
        """The result post of ``match_id`` (remembered as its ``rematch``) shows where
        its rematch ``rematch`` stands (``service.deliveries.REMATCH_STAGES``): asked,
        its "Rematch" goes and a line names the new match (asking again would be
        refused: one live rematch per match); started or declined, the line says so and
        the post is forgotten (settled for good); open again (withdrawn), "Rematch" comes
        back. Each edit is the same when made again (a redelivery)."""
        post = await self.facts.post_of(match_id, "rematch")
        if post is None:  # never posted, or settled already
            return
        if stage == "asked" and not reopenable(post):
            return  # remembered by an older Tablero, without its button: kept till settled
        if stage == "open":
            await self.routes.reopen_post(post)
            return
        await self.routes.close_post(post, render(rematch_line(stage, rematch, by),
                                                  post.locale))
        if stage != "asked":
            await self.facts.forget_post(match_id, "rematch")

    async def close_turn(self, m: MatchView, ply: int) -> None:
        """The turn at ``ply`` is over and the next turn's post is out
        (``TurnStarted.closes``): its card (remembered as ``turn:PLY`` when it had
        buttons) loses them, as an ``OfferSettled`` "turn" closes it when no turn
        follows (the match ended, a takeback). Closing again (a retry, a redelivery)
        edits nothing more: the card is forgotten once closed."""
        await self.close(m.id, f"turn:{ply}", ev.OfferSettled(m, "turn", "passed", None, ply))

    async def close(self, match_id: int, offer: str, event: ev.OfferSettled) -> None:
        """Close the post remembered as ``match_id``'s ``offer`` (if any) as ``event``
        says, and forget it. A turn's card only loses its buttons (its words said what
        it was)."""
        post = await self.facts.post_of(match_id, offer)
        if post is None:  # never posted in the match's place (or closed already)
            return
        line = outcome_line(event)
        await self.routes.close_post(post, render(line, post.locale)
                                     if line is not None else None)
        await self.facts.forget_post(match_id, offer)

    @staticmethod
    def link_only(url: str | None, loc: str) -> discord.ui.View | None:
        """A closed post's components when it had an "Open on the web" link: the link."""
        return with_web_link(None, url, loc) if url is not None else None

    async def asked_with_layout(self, m: MatchView, offer: str, loc: str,
                                message: discord.Message | None,
                                closed: discord.ui.View | discord.ui.LayoutView | None,
                                opened: discord.ui.View | None = None) -> None:
        """Remember the post ``message`` that asked ``m``'s question ``offer`` in ``loc``
        with what it keeps once closed (``closed``: its card without the buttons, its
        words put in as they were posted; or a plain post's other components), so the
        edit that closes it needs nothing read back (``Routes.close_post``); ``opened``:
        a plain post's components as posted, when its question may be asked again once
        closed (``Routes.reopen_post``)."""
        if message is None:
            return
        content: str | None = message.content
        if isinstance(closed, discord.ui.LayoutView):
            closed, content = cards.with_words(closed, cards.words_of(message)), None
        await self.facts.remember_post(m.id, offer, PostedMessage(
            message.channel.id, message.id, loc, remembered_layout(
                closed.to_components() if closed is not None else [], content,
                opened.to_components() if opened is not None else None)))

    async def asked(self, m: MatchView, offer: str, loc: str,
                    message: discord.Message | None) -> None:
        """Remember the post ``message`` that asked ``m``'s question ``offer`` in ``loc``
        (None: the place took no post, there is nothing to close later)."""
        if message is not None:
            await self.facts.remember_post(m.id, offer, PostedMessage(
                message.channel.id, message.id, loc, message.content))

    @handlers.on(ev.DrawDeclined)
    async def draw_declined(self, event: ev.DrawDeclined) -> None:
        m = event.match
        said = (_("{player} withdrew the draw offer.", player=embeds.mention(event.by))
                if event.withdrawn else
                _("{player} declined the draw offer.", player=embeds.mention(event.by)))
        await self.post(m, said, audience=self.others(m, event.by))

    @handlers.on(ev.SetupSubmitted)
    async def setup_submitted(self, event: ev.SetupSubmitted) -> None:
        m = event.match
        if embeds.all_arranged(m):  # the last one: nobody waits, the turn post follows
            await self.post(m, _("{player} submitted an arrangement: both are in, and the "
                                 "game begins.", player=embeds.mention(event.user_id)),
                            audience=self.others(m, event.user_id))
            return
        waiting = [u for u in m.to_move if u != event.user_id]
        said = _("{player} submitted an arrangement (kept hidden until both have).",
                 player=embeds.mention(event.user_id))
        await self.post(m, joined(said, _("Waiting for {players}.",
                                          players=embeds.mentions(waiting))
                                  if waiting else None),
                        audience=self.others(m, event.user_id))

    @handlers.on(ev.MatchEnded)
    async def match_ended(self, event: ev.MatchEnded) -> None:
        m, left_by = event.match, event.left_by
        loc = await self.routes.place_locale(m.guild_id)
        text: Words = embeds.result_text(m, event.result, event.reason)
        note = leaving_note(event.reason, embeds.mention(left_by)) \
            if left_by is not None else None
        if note is not None:  # the leaver may lead on captures and win: say who left first
            text = _("{note}. {result}", note=note, result=text)
        if event.ratings:
            text = joined(text, _("Ratings:"),
                          *(embeds.rating_line(r, loc) for r in event.ratings),
                          separator="\n")
        ping, dm = self.split_by_preference(m, m.players())
        # the words name the winner and the rated only: the others (a casual loser on
        # time, both players of an aborted match) would learn nothing of it; one who
        # resigned was answered already
        said = render(text, loc)
        resigned = left_by if event.left_how == "resign" else None
        unnamed = [u for u in ping if not is_computer(u) and not is_imported(u)
                   and u != resigned and f"<@{u}>" not in said]
        if unnamed:
            # TRANSLATORS: the players a result post notifies, before the result's words
            text = _("{players}: {result}", players=embeds.mentions(unnamed), result=text)
        extra: dict[str, Any] = {}
        if m.ply > 0 and m.status is not MatchStatus.BROKEN:
            picture = await self.board_attachment(m, event.board, loc)
            extra["embed"] = embeds.board_embed(
                m, loc, headline=embeds.played(self.name(m, m.last_move_by), m.last_move)
                if m.last_move else None, image=picture is not None)
            if picture is not None:
                extra["file"] = picture
        rematch = m.status in (MatchStatus.FINISHED, MatchStatus.ABORTED)
        if rematch:
            extra["view"] = match_buttons(m.id, m.ply, ["rematch"], loc)
        url = await self.web_url(m) if m.ply > 0 else None
        if url is not None:
            extra["view"] = with_web_link(extra.get("view"), url, loc)
        message = await self.post(m, text, ping=ping, dm=dm, **extra)
        if rematch and message is not None:  # its button goes once a rematch is asked
            await self.asked_with_layout(m, "rematch", loc, message,
                                         self.link_only(url, loc), extra["view"])
            # one asked before this post went out (a quick /rematch, a restart): the
            # rematch's own posts found nothing to show it on, so it is shown now
            latest = await self.facts.rematch_of(m.id)
            if latest is not None and latest.stage != "open":
                await self.show_rematch(m.id, latest.match_id, latest.stage,
                                        latest.asked_by if latest.stage == "asked"
                                        else None)
        if m.ply > 0 and m.status is not MatchStatus.BROKEN:
            await self.post_replay(m, event.record)

    @handlers.on(ev.ClocksExtended)
    async def clocks_extended(self, event: ev.ClocksExtended) -> None:
        m = event.match
        await self.post(m, _("⏸ {notice} (match {match}).",
                             notice=texts.offline_notice(event.gap), match=m.id),
                        audience=self.others(m))

    @handlers.on(ev.StandingsChanged)
    async def standings_changed(self, event: ev.StandingsChanged) -> None:
        """The standings (embed and table image) as a new message in the tournament's
        channel, not the game's thread; the final ones mention the winner. Posted, not
        pinned: pinning needs Manage Messages, which Tablero does not ask for."""
        tid = event.tournament_id
        loc = await self.routes.place_locale(event.match.guild_id)
        guild, names = event.match.guild_id, self.names
        if isinstance(names, MemberNames):  # a picture shows no mention: the names nobody
            await names.fetch(guild, event.table.players)  # knows are asked, once each
        table = (event.table.renamed(lambda p: names(guild, p))
                 if names is not None else event.table).shown(loc)
        place = dataclasses.replace(event.match, channel_id=event.channel_id, thread_id=None)
        content: Words
        if event.final:
            content = (_("🏆 Tournament #{tournament} is over: {player} wins!",
                         tournament=tid, player=embeds.mention(event.winner))
                       if event.winner is not None else
                       _("🏆 Tournament #{tournament} is over: first place is shared.",
                         tournament=tid))
        else:
            content = _("Standings of tournament #{tournament} after match {match}.",
                        tournament=tid, match=event.match.id)
        file = None
        try:
            image = await asyncio.to_thread(
                draw_table, table.headers, table.rows, title=table.title,
                subtitle=table.subtitle, align=table.align, top_rows=table.top_rows,
                faded_rows=table.faded_rows, locale=loc)
            file = discord.File(io.BytesIO(image.png), "standings.png",
                                description=image.alt_text[:1000])
        except Exception:  # the standings go out as text rather than not at all
            log.exception("could not draw the standings of tournament %s", tid)
        extra: dict[str, Any] = {"embed": embeds.standings_embed(table, loc,
                                                                 image=file is not None)}
        if file is not None:
            extra["file"] = file
        winner = [event.winner] if event.final and event.winner is not None else []
        await self.post(place, content, ping=winner, step="standings", **extra)

    @handlers.on(ev.SeasonEnded)
    async def season_ended(self, event: ev.SeasonEnded) -> None:
        loc = await self.routes.place_locale(event.match.guild_id)
        content, embed = embeds.season_ended(event, loc)
        await self.post(event.match, content, step="season", embed=embed)

    # Vacations, +1 day and claims on time (issue 16), in the match's place.

    @handlers.on(ev.VacationStarted)
    async def vacation_started(self, event: ev.VacationStarted) -> None:
        m = event.match
        ping, dm = self.split_by_preference(m, self.others(m, event.user_id))
        told = _("⛱ {player} is on vacation until {until}: their clock in this match "
                 "is paused until then.", player=embeds.mention(event.user_id),
                 until=embeds.moment(event.until)) if event.user_id in m.to_move else \
            _("⛱ {player} is on vacation until {until}: their next turn in this match "
              "starts no earlier than then.", player=embeds.mention(event.user_id),
              until=embeds.moment(event.until))  # not his move: no clock of his runs
        await self.post(m, told, ping=ping, dm=dm, audience=self.others(m, event.user_id))

    @handlers.on(ev.VacationEnded)
    async def vacation_ended(self, event: ev.VacationEnded) -> None:
        m = event.match
        await self.post(m, _(
            "{player} is back from vacation: their clock runs again.",
            player=embeds.mention(event.user_id)), audience=self.others(m, event.user_id))

    @handlers.on(ev.AutoVacation)
    async def auto_vacation(self, event: ev.AutoVacation) -> None:
        m = event.match
        ping, dm = self.split_by_preference(m, [event.user_id])
        said = _n(
            "⛱ {player}'s time ran out: a day of vacation was spent instead, the move is "
            "now due {when} ({count} day of vacation left).",
            "⛱ {player}'s time ran out: a day of vacation was spent instead, the move is "
            "now due {when} ({count} days of vacation left).", event.days_left,
            player=embeds.mention(event.user_id), when=embeds.moment(event.until)) \
            if event.days_spent <= 1 else _n(
            "⛱ {player}'s time ran out long ago: {spent} of vacation were spent at once "
            "instead, the move is now due {when} ({count} day of vacation left).",
            "⛱ {player}'s time ran out long ago: {spent} of vacation were spent at once "
            "instead, the move is now due {when} ({count} days of vacation left).",
            event.days_left, player=embeds.mention(event.user_id),
            spent=_n("{count} day", "{count} days", event.days_spent),
            when=embeds.moment(event.until))
        await self.post(m, said, ping=ping, dm=dm, audience=self.others(m))

    @handlers.on(ev.TimeGiven)
    async def time_given(self, event: ev.TimeGiven) -> None:
        m = event.match
        ping, dm = self.split_by_preference(m, event.to)
        await self.post(m, _(
            "{giver} gave {players} one day more: the move is now due {when}.",
            giver=embeds.mention(event.by), players=embeds.mentions(event.to),
            when=embeds.clock_status(m)), ping=ping, dm=dm,
            audience=self.others(m, event.by))

    @handlers.on(ev.TimeLapsed)
    async def time_lapsed(self, event: ev.TimeLapsed) -> None:
        m = event.match
        ping, dm = self.split_by_preference(m, event.waiting)
        loc = await self.routes.place_locale(m.guild_id)
        actions = cards.card_actions(m, None, False)  # Claim win, Keep waiting
        # a card (issue 42): the seats and the lapsed clock with the buttons that apply
        view = cards.match_card(m, loc, actions=actions) if self.cards \
            else match_buttons(m.id, m.ply, actions, loc)
        message = await self.post(m, _(
            "⌛ {late}'s time ran out. {waiting}: claim the win, or keep waiting "
            "({late} may still move until someone claims).",
            late=embeds.mentions(event.late), waiting=embeds.mentions(event.waiting)),
            ping=ping, dm=dm, audience=self.others(m), view=view)
        if self.cards:  # closed once claimed, given a day, or moot (``OfferSettled``)
            await self.asked_with_layout(m, "claim", loc, message,
                                         cards.match_card(m, loc))
        else:
            await self.asked(m, "claim", loc, message)

    # The correspondence comforts (issue 16): in the match's place, in its language; to
    # followers by DM, each in his own.

    @handlers.on(ev.SeatTakenOver)
    async def seat_taken_over(self, event: ev.SeatTakenOver) -> None:
        """``on_timeout:computer`` (issue 43): the computer plays a late seat on."""
        m = event.match
        await self.post(m, _(
            "⌛ {player}'s time ran out: {computer} plays their seat from move {move} on, "
            "as the lobby chose (unrated for them).", player=embeds.mention(event.user),
            computer=computer_title(computer_user(event.level)), move=event.move),
            audience=self.others(m))

    @handlers.on(ev.PauseOffered)
    async def pause_offered(self, event: ev.PauseOffered) -> None:
        """A pause by agreement (issue 43) proposed: the other answers with buttons."""
        m = event.match
        others = [u for u in m.players() if u != event.by]
        ping, dm = self.split_by_preference(m, others)
        loc = await self.routes.place_locale(m.guild_id)
        days = _n("{count} day", "{count} days", event.days)
        said = _("{others}: {player} proposes to pause the match for {days} ({reason}). "
                 "It lapses when a move is played.", others=embeds.mentions(others),
                 player=embeds.mention(event.by), days=days, reason=event.reason) \
            if event.reason else \
            _("{others}: {player} proposes to pause the match for {days}. It lapses "
              "when a move is played.", others=embeds.mentions(others),
              player=embeds.mention(event.by), days=days)
        await self.asked(m, "pause", loc, await self.post(
            m, said, ping=ping, dm=dm,
            view=match_buttons(m.id, m.ply, ["pauseyes", "pauseno"], loc)))

    @handlers.on(ev.PauseDeclined)
    async def pause_declined(self, event: ev.PauseDeclined) -> None:
        m = event.match
        await self.post(m, _("{player} declined the pause.",
                             player=embeds.mention(event.by)),
                        audience=self.others(m, event.by))

    @handlers.on(ev.PauseStarted)
    async def pause_started(self, event: ev.PauseStarted) -> None:
        m = event.match
        await self.post(m, _(
            "⏸ {player} agreed: the match is paused until {until}; nobody moves and no "
            "clock runs. {resume} ends it earlier.",
            player=embeds.mention(event.accepted_by), until=embeds.moment(event.until),
            resume=command("pause", action="resume")),
            audience=self.others(m, event.accepted_by))

    @handlers.on(ev.PauseEnded)
    async def pause_ended(self, event: ev.PauseEnded) -> None:
        m = event.match
        ping, dm = self.split_by_preference(m, m.to_move)
        await self.post(m, _(
            "▶ {player} resumed the match: the clocks run again. {players} to move, "
            "{when}.", player=embeds.mention(event.by),
            players=embeds.mentions(m.to_move), when=embeds.clock_status(m)),
            ping=ping, dm=dm, audience=self.others(m, event.by))

    @handlers.on(ev.TakebackOffered)
    async def takeback_offered(self, event: ev.TakebackOffered) -> None:
        m = event.match
        others = [u for u in m.players() if u != event.by]
        ping, dm = self.split_by_preference(m, others)
        loc = await self.routes.place_locale(m.guild_id)
        await self.asked(m, "takeback", loc, await self.post(m, _(
            "{others}: {player} asks to take back {move}. It lapses when the next move "
            "is played.", others=embeds.mentions(others),
            player=embeds.mention(event.by), move=f"**{event.move}**"),
            ping=ping, dm=dm, view=match_buttons(m.id, m.ply, ["takeyes", "takeno"], loc)))

    @handlers.on(ev.TakebackDeclined)
    async def takeback_declined(self, event: ev.TakebackDeclined) -> None:
        m = event.match
        await self.post(m, _("{player} declined the takeback.",
                             player=embeds.mention(event.by)),
                        audience=self.others(m, event.by))

    @handlers.on(ev.TakenBack)
    async def taken_back(self, event: ev.TakenBack) -> None:
        m = event.match
        loc = await self.routes.place_locale(m.guild_id)
        picture = await self.board_attachment(m, event.board, loc)
        extra: dict[str, Any] = {"file": picture} if picture is not None else {}
        ping, dm = self.split_by_preference(m, [event.by])
        # the clock's moment has its own brackets: no parentheses around it
        await self.post(m, _(
            "{player} agreed: {move} is taken back. {mover}, your move again, {when}.",
            player=embeds.mention(event.accepted_by), move=f"**{event.move}**",
            mover=embeds.mention(event.by), when=embeds.clock_status(m)),
            ping=ping, dm=dm, audience=self.others(m, event.accepted_by),
            embed=embeds.board_embed(m, loc, headline=None, image=picture is not None),
            **extra)

    @handlers.on(ev.ConditionalMovePlayed)
    async def conditional_move_played(self, event: ev.ConditionalMovePlayed) -> None:
        m = event.match
        await self.post(m, _(
            "⚡ {player}'s conditional move {move} answers at once.",
            player=embeds.mention(event.user_id), move=f"**{event.move}**"),
            audience=self.others(m))

    @handlers.on(ev.MoveFollowed)
    async def move_followed(self, event: ev.MoveFollowed) -> None:
        m = event.match
        place = m.thread_id or m.channel_id
        await self.routes.privately(m, event.followers, _(
            "{player} played {move} in {game} (match {match}), which you follow: "
            "{link}", player=self.name(m, event.by) or "", move=f"**{event.move}**",
            game=embeds.game_of(m), match=str(m.id),
            link=f"https://discord.com/channels/{m.guild_id}/{place}"), step="follow")

    @handlers.on(ev.DigestDue)
    async def digest_due(self, event: ev.DigestDue) -> None:
        """The daily digest (issue 42): his games at a glance, one picture, by DM in his
        language (with DMs closed it is not sent: it is his own, asked for by DM)."""
        user = event.user_id
        loc = await self.routes.user_locale(user)
        shown = await asyncio.to_thread(glance_picture, event.games, user,
                                        discord.utils.utcnow(), loc)
        said = await self.routes.for_dm(user, _n(
            "Your daily digest: {count} game at a glance. (`{stop}` stops it.)",
            "Your daily digest: {count} games at a glance. (`{stop}` stops it.)",
            len(event.games), stop=command("follow", digest="off")))
        picture = None if shown is None else Attachment(discord.File(
            io.BytesIO(shown[0]), filename="digest.png", description=shown[1][:1024]))
        await self.routes.dm(user, said, picture, step="digest")

    @handlers.on(ev.DailyPuzzle)
    async def daily_puzzle(self, event: ev.DailyPuzzle) -> None:
        """The server's daily puzzle (issue 44), in its channel: the task, the board seen
        from the puzzle's side, and how to solve it (privately, with /puzzle)."""
        position = puzzles.daily_position(event.game, event.position)
        if position is None:
            return
        loc = await self.routes.place_locale(event.match.guild_id)
        task = puzzles.task(event.game, position, event.seat, event.goal)
        drawn = await asyncio.to_thread(puzzles.picture_of, position, event.seat, task, loc)
        extra: dict[str, Any] = {} if drawn is None else {
            "file": embeds.board_file(drawn.png, drawn.alt_text)}
        await self.post(event.match, _(
            "🧩 Daily puzzle #{puzzle} ({game}, difficulty {difficulty}/5): {task}. Solve it "
            "privately with `{next}`.", puzzle=event.puzzle_id,
            game=game_name(event.game), difficulty=event.difficulty, task=task,
            next=command("puzzle next", puzzle=event.puzzle_id)),
            step="daily-puzzle", **extra)

    async def post_replay(self, m: MatchView, record: StoredRecord | None) -> None:
        """The replay GIF after the result. Without the record at hand (delivered after
        a restart) it is read again from storage."""
        if record is None:
            record = await self.facts.stored_record(m)
            if record is None:
                return
        try:
            game_record = await asyncio.to_thread(record.game_record)
        except Exception:  # a record that does not replay: the result went out anyway
            log.exception("could not replay match %s for its GIF", m.id)
            return
        loc = await self.routes.place_locale(m.guild_id)
        # an analysis stored by then (a delivery after a restart, /analysis run meanwhile)
        # marks its costly moves (issue 42); as the game ends there is none yet
        notes = media.costly_notes(await self.facts.stored_analysis(m.id), game_record,
                                   self.names)
        gif = await media.replay_gif_of(game_record, self.names, loc, costly=notes)
        if gif is None:
            return
        last = len(game_record.plies)  # the stepper's buttons open at the end (issue 42)
        said: Words = _("Replay of match {match}: the marked moves are framed in red.",
                        match=str(m.id)) if notes else \
            _("{sentence}.", sentence=_("Animated replay of {game} match {match}, move by "
                                        "move", game=embeds.game_of(m), match=m.id))
        said = media.replay_description(game_record, said,
                                        media.drawn_names(game_record, self.names, loc))
        await self.post(m, _("Replay of match {match}:", match=m.id), step="replay",
                        view=stepper_buttons(m.id, last, last, edit=False),
                        file=discord.File(io.BytesIO(gif), filename="replay.gif",
                                          description=render(said, loc)[:1024]))
