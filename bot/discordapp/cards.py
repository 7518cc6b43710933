"""The match card as a Components V2 layout (issue 42): one container accented in the
mover's colour, the post's words at the top (its mentions notify, as a message's content
does: Discord's Text Display reference), the board in a media gallery, a block per seat
(rating, team: ``embeds.seat_lines``), the clock, and the buttons that apply in an
action row (:func:`card_actions`: +1 day, Take back; Claim win and Keep waiting once a
claim-win clock lapsed, which the lapse's post shows as a card too).

discord.py 2.7.1 sends it (``LayoutView``, ``Container``, ``TextDisplay``,
``MediaGallery``, ``ActionRow``) and SimCord 3.2.1 checks it (the components_v2 flag, no
content nor embeds beside it, the types a layout may hold), clicks the buttons nested in
it, and notifies the mentions in its text displays. A V2 message carries no ``content``:
the dispatcher puts the post's words into the card (:func:`with_words`), so the DM
copies and the fallbacks keep using those same words.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import discord

import rules
from bot.discordapp import embeds
from bot.discordapp.components import MatchButton
from bot.discordapp.mentions import cut
from locales.i18n import _, render
from service import MatchView
from service.comforts import takeback_asker

SEAT_ACCENTS: dict[str, int] = {
    "red": 0xDC4628, "black": 0x2E2A28, "white": 0xD8D0BE, "blue": 0x2C62C4,
    "turquoise": 0x1E92A6, "pink": 0xF6A0C4,
}
"""The container's accent by the mover's seat colour (the pieces' colours of render)."""
NEUTRAL = embeds.COLOUR.value
MAX_TEXT = 4000
"""Discord: the text displays of one message hold at most 4,000 characters in all."""
MAX_COMPONENTS = 40
"""Discord: at most 40 components in one message, nested ones included."""

WORDS_ID = 1
"""The id of the text display that holds the post's words (filled by the dispatcher)."""


def accent(m: MatchView) -> int:
    """The colour of the seat to move (the first of several), else Tablero's own."""
    movers = [s.seat for s in m.seats if s.user_id in m.to_move and s.seat is not None]
    if not movers:
        return NEUTRAL
    try:
        name = rules.variant(m.game).seat_name(movers[0], m.seat_count)
    except ValueError:
        return NEUTRAL
    return SEAT_ACCENTS.get(name.strip().lower(), NEUTRAL)


def card_actions(m: MatchView, by: int | None, takebacks_rated: bool) -> list[str]:
    """The match buttons that apply to ``m`` as it is posted (``by`` played its last
    move; ``takebacks_rated``: the server's rated games allow takebacks): a lapsed
    claim-win clock asks the waiting players to claim or keep waiting; else "+1 day"
    while a clock runs for someone, and "Take back" for the player whose move this
    was, where ``/takeback`` would let him ask (``service.comforts.takeback_asker``).
    The service checks each click again (who clicks, and whether it still applies)."""
    if not m.status.is_live:
        return []
    if m.lapsed is not None and m.claim_win and m.deadline is None:
        return ["claim", "wait"]
    actions = ["moretime"] if m.to_move and m.deadline is not None else []
    if takeback_asker(m, by, takebacks_rated) is not None:
        actions.append("takeback")
    return actions


def match_card(m: MatchView, loc: str, *, board: tuple[str, str] | None = None,
               actions: Sequence[str] = (), web_url: str | None = None
               ) -> discord.ui.LayoutView:
    """The turn post of ``m`` as a layout, its words in ``loc``: ``board`` the board's
    attachment name and alt text; ``actions`` the match buttons under it (``+1 day``);
    ``web_url`` the match's page ("Open on the web", when the server has the web on).
    The seat lines say each player's rating as the match was read (``embeds.seat_lines``).
    The post's own words are put in by :func:`with_words`."""
    view = discord.ui.LayoutView(timeout=None)
    parts: list[discord.ui.Item[Any]] = [
        discord.ui.TextDisplay(render(embeds.game_title(m), loc)[:200], id=WORDS_ID + 1)]
    if board is not None:
        filename, alt = board
        parts.append(discord.ui.MediaGallery(discord.MediaGalleryItem(
            f"attachment://{filename}", description=alt[:1024])))
    for line in embeds.seat_lines(m, loc).splitlines():
        parts.append(discord.ui.TextDisplay(line[:500]))
    if m.to_move:  # whose move and his clock, as the embed's field says it
        parts.append(discord.ui.TextDisplay(render(_(
            "{players} to move, {deadline}", players=embeds.mentions(m.to_move),
            deadline=embeds.clock_status(m)), loc)[:500]))
    if actions or web_url is not None:
        row: discord.ui.ActionRow[Any] = discord.ui.ActionRow()
        for action in actions[:4]:
            row.add_item(MatchButton(action, m.id, m.ply, loc))
        if web_url is not None:
            row.add_item(discord.ui.Button(style=discord.ButtonStyle.link, url=web_url,
                                           label=render(_("Open on the web"), loc)))
        parts.append(row)
    footer = render(embeds.terms(m), loc)
    parts.append(discord.ui.TextDisplay(cut(f"-# {footer}", 300)))
    view.add_item(discord.ui.Container(*parts, accent_colour=accent(m)))
    return view


def with_words(card: discord.ui.LayoutView, words: str) -> discord.ui.LayoutView:
    """``card`` with ``words`` (the post's text, mentions included) at the top of its
    container; the rest of the card is cut, never the words, to keep Discord's limit."""
    container = next(c for c in card.children if isinstance(c, discord.ui.Container))
    text = cut(words, 2000)
    shown: list[discord.ui.Item[Any]] = \
        [discord.ui.TextDisplay(text, id=WORDS_ID)] if text.strip() else []
    room = MAX_TEXT - len(text)
    kept: list[discord.ui.Item[Any]] = []
    for child in container.children:
        if isinstance(child, discord.ui.TextDisplay):
            if child.id == WORDS_ID:
                continue  # a retry: the words are put in again
            if len(child.content) > room:
                continue
            room -= len(child.content)
        kept.append(child)
    fresh = discord.ui.LayoutView(timeout=None)
    fresh.add_item(discord.ui.Container(*shown, *kept,
                                        accent_colour=container.accent_colour))
    return fresh


def words_of(message: discord.Message) -> str:
    """The words a posted card holds (its text display :data:`WORDS_ID`, put in by
    :func:`with_words`), as Discord keeps them; "" when there are none."""
    def walk(components: Sequence[Any]) -> str | None:
        for c in components:
            if isinstance(c, discord.components.TextDisplay) and c.id == WORDS_ID:
                return str(c.content)
            if isinstance(c, discord.components.Container | discord.components.ActionRow
                          | discord.components.SectionComponent):
                found = walk(c.children)
                if found is not None:
                    return found
        return None
    return walk(message.components) or ""
