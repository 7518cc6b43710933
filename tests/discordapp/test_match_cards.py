"""The match card as a Components V2 layout (issue 42, SimCord; the default):
the turn post is one container accented in the mover's colour, the post's words at its
top (their mention notifies, as in a message's content), the board in a media gallery,
a line per seat, the +1 day button nested in it (clicked before and after a restart);
Discord's V2 limits hold (``wire_contract``). ``TABLERO_MATCH_CARDS=off`` posts the
embed, as before."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import discord
import pytest

from bot.boards import load_renderer
from bot.discordapp import TableroBot, create_bot
from bot.discordapp.cards import SEAT_ACCENTS, with_words
from tests.discordapp.conftest import (
    DELIVERY,
    SHARDS,
    SWEEP_SECONDS,
    DiscordClock,
    World,
    make_repository,
)
from tests.discordapp.helpers import (
    buttons,
    is_card,
    pinged,
    post_text,
    reply,
    shows_board,
    start_match,
    words,
)


def carded_bot(tmp_path: Path, repository: Any, *, cards: bool = True) -> TableroBot:
    return create_bot(repository, DiscordClock(), renderer=load_renderer(),
                      database=tmp_path / "tablero.db", sweep_seconds=SWEEP_SECONDS,
                      rng=random.Random(1), shard_count=SHARDS, delivery=DELIVERY,
                      match_cards=cards)


@pytest.fixture
def simcord_bot(tmp_path: Path, repository: Any) -> TableroBot:
    return carded_bot(tmp_path, repository)


def walk(components: list[Any]) -> list[Any]:
    out = []
    for c in components:
        out.append(c)
        out += walk(list(getattr(c, "children", None) or getattr(c, "components", None)
                         or []))
    return out


async def test_the_turn_post_is_one_layout_whose_mention_notifies(world: World) -> None:
    w = world
    _match, thread = await start_match(w, w.alice, w.bob, seat=0)
    await w.alice.slash(thread, "move", move="h3-e3")
    turn = thread.last_message
    assert turn.flags.components_v2 and not turn.content and not turn.embeds
    (container,) = turn.components
    assert isinstance(container, discord.Container)
    assert container.accent_colour is not None
    assert container.accent_colour.value == SEAT_ACCENTS["black"]  # bob, Black, to move
    every = walk(list(container.children))
    texts = [c.content for c in every if isinstance(c, discord.TextDisplay)]
    assert texts[0].startswith(f"alice played **h3-e3 (C2.5)** — {w.bob.mention}, your move")
    assert w.bob.id in [u.id for u in turn.mentions]  # the mention in the card notifies
    assert pinged(w, turn) == [w.bob.id]  # him alone: the seat lines ping nobody
    # a line per seat, the mover marked, each player's rating (neither has one yet)
    assert f"**Red**: {w.alice.mention} · no rating yet" in texts
    assert f"▶ **Black**: {w.bob.mention} · no rating yet" in texts
    assert any(t.startswith(f"{w.bob.mention} to move, <t:") for t in texts)  # his clock
    (gallery,) = [c for c in every if isinstance(c, discord.MediaGalleryComponent)]
    assert gallery.items[0].media.url.endswith("/board.png")  # the attachment, resolved
    assert gallery.items[0].description.startswith("Xiangqi")
    assert [a.filename for a in turn.attachments] == ["board.png"]
    (button,) = [c for c in every if isinstance(c, discord.Button)]
    assert button.label == "+1 day"

    repository = await make_repository(w.tmp_path / "tablero.db")  # a new process
    fresh = carded_bot(w.tmp_path, repository)
    await w.env.restart_bot(fresh)
    w.bot = fresh
    given = reply(await w.alice.click(turn, label="+1 day"))  # nested in the layout
    assert given.ephemeral and "one day more" in given.content
    await repository.close()


def test_the_words_are_put_in_and_never_cut() -> None:
    card = discord.ui.LayoutView()
    card.add_item(discord.ui.Container(discord.ui.TextDisplay("y" * 3000),
                                       discord.ui.TextDisplay("short"),
                                       accent_colour=0x123456))
    shown = with_words(card, "x" * 1500)
    (container,) = shown.children
    assert isinstance(container, discord.ui.Container)
    contents = [c.content for c in container.children if isinstance(c, discord.ui.TextDisplay)]
    assert contents == ["x" * 1500, "short"]  # the long line goes, the words stay
    again = with_words(shown, "z")  # a retry puts the words in once
    (container,) = again.children
    assert isinstance(container, discord.ui.Container)
    assert [c.content for c in container.children
            if isinstance(c, discord.ui.TextDisplay)] == ["z", "short"]


def test_the_card_opens_the_match_on_the_web_when_the_server_has_it_on() -> None:
    import dataclasses

    from bot.discordapp.cards import match_card
    from service.records import MatchStatus
    from service.views import SeatView, notice_lane

    m = dataclasses.replace(notice_lane(1, 2, 1), id=5, game="xiangqi", game_name="Xiangqi",
                            status=MatchStatus.ACTIVE, to_move=(2,),
                            seats=(SeatView(0, 1, None, "Red"), SeatView(1, 2, None, "Black")))
    card = match_card(m, "en-US", actions=["moretime"], web_url="https://t.example/m/x")
    rows = [c for c in walk(list(card.children)) if isinstance(c, discord.ui.ActionRow)]
    (row,) = rows
    buttons = [getattr(b, "item", b) for b in row.children]  # a match button is dynamic
    labels = [(b.label, b.url) for b in buttons if isinstance(b, discord.ui.Button)]
    assert labels == [("+1 day", None), ("Open on the web", "https://t.example/m/x")]


async def test_with_the_cards_off_the_turn_post_is_a_message_with_an_embed(
        world: World) -> None:
    w = world
    repository = await make_repository(w.tmp_path / "tablero.db")
    plain = carded_bot(w.tmp_path, repository, cards=False)  # TABLERO_MATCH_CARDS=off
    await w.env.restart_bot(plain)
    w.bot = plain
    _match, thread = await start_match(w, w.alice, w.bob, seat=0)
    await w.alice.slash(thread, "move", move="h3-e3")
    turn = thread.last_message
    assert not turn.flags.components_v2 and not is_card(turn)
    assert turn.content.startswith(f"alice played **h3-e3 (C2.5)** — {w.bob.mention}")
    assert words(turn) == turn.content and pinged(w, turn) == [w.bob.id]
    (embed,) = turn.embeds
    assert embed.description == "alice played **h3-e3 (C2.5)**"
    assert embed.image.url == "attachment://board.png" and shows_board(turn)
    assert f"▶ **Black**: {w.bob.mention}" in post_text(turn)
    assert [b.label for b in buttons(turn)] == ["+1 day"]
    given = reply(await w.alice.click(turn, label="+1 day"))
    assert given.ephemeral and "one day more" in given.content
    await repository.close()


def test_seat_lines_say_ratings_while_the_match_is_live() -> None:
    """A rated player's number (``?`` while provisional), none yet, the computer's seat
    and a seat it stands in for are not rated; once the match is over, no ratings (its
    end may have moved them)."""
    import dataclasses

    from bot.discordapp.embeds import seat_lines
    from service.computer_seats import computer_user
    from service.records import MatchStatus
    from service.views import SeatView, notice_lane

    bot = computer_user(2)
    m = dataclasses.replace(
        notice_lane(1, 2, 1), id=5, game="alquerque-grande", game_name="Alquerque grande",
        status=MatchStatus.ACTIVE, to_move=(2,), seat_count=4, stand_ins=((4, 40),),
        seats=(SeatView(0, 1, None, "Red", rating=12.34),
               SeatView(1, 2, None, "Blue", rating=-1.26, provisional=True),
               SeatView(2, bot, None, "Turquoise"),
               SeatView(3, 4, None, "Pink", rating=20.0)))
    lines = seat_lines(m, "de").splitlines()
    assert lines[0] == "**Rot**: <@1> · Wertung 12,3"
    assert lines[1] == "▶ **Blau**: <@2> · Wertung -1,3?"
    assert lines[2].endswith("· nicht gewertet (Computer)")
    assert lines[3].endswith("· nicht gewertet (Computer)")  # stood in for since move 40
    english = seat_lines(dataclasses.replace(m, seats=(SeatView(0, 3, None, "Red"),)), "en-US")
    assert english == "**Red**: <@3> · no rating yet"
    chinese = seat_lines(dataclasses.replace(m, seats=(SeatView(0, 3, None, "Red"),)), "zh-TW")
    assert chinese == "**紅方**：<@3> · 尚無積分"
    over = dataclasses.replace(m, status=MatchStatus.FINISHED)
    assert "rating" not in seat_lines(over, "en-US")


def test_a_moment_is_bracketed_in_the_readers_way() -> None:
    from datetime import UTC, datetime

    from bot.discordapp.embeds import moment
    from locales.i18n import render

    when = moment(datetime(2026, 11, 26, 14, tzinfo=UTC))
    stamp = int(datetime(2026, 11, 26, 14, tzinfo=UTC).timestamp())
    assert render(when, "en-GB") == f"<t:{stamp}:R> (<t:{stamp}:f>)"
    assert render(when, "zh-TW") == f"<t:{stamp}:R>（<t:{stamp}:f>）"
