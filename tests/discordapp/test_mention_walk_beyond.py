"""The mention walk's sibling: the texts the first walk (``test_mention_walk``) does not
reach, read the same way (a command's mention only where Discord renders one, never in
code marks, cut, beside a backtick or in a DM; no command by name where its mention is
known), for a space between two Chinese characters or Latin punctuation after one, and
for a player mentioned twice over. A player whose DMs are closed (a challenge and his
turns mentioned in the place instead, the notice after his next command), a tournament
created, joined, started, its rounds paired and finished, and a puzzle solved to its
"Next"."""

from __future__ import annotations

import discord
import pytest

from bot.discordapp.dispatcher import DMS_CLOSED_NOTICE
from locales.i18n import render
from service import GuildSettings
from tests.discordapp.conftest import World
from tests.discordapp.faults import FaultyHTTP
from tests.discordapp.helpers import buttons, reply
from tests.discordapp.languages import speaking
from tests.discordapp.test_mention_walk import (
    MENTION,
    chinese_spaced,
    defects,
    half_width_after_chinese,
    named_twice,
)
from tests.discordapp.test_outbox_delivery import Inbox, notifier_of
from tests.discordapp.test_puzzles import finished, mined
from tests.service.puzzle_games import ALQUERQUE

pytestmark = pytest.mark.simcord(settle_timeout=30.0)

def test_the_reading_finds_a_space_between_chinese_characters_and_a_double_mention() -> None:
    assert chinese_spaced(["x content: '輪到 紅方 走棋'"]) == ["x content: '輪到 紅方 走棋'"]
    assert chinese_spaced(["x content: '**象棋** 已開始'"]) == ["x content: '**象棋** 已開始'"]
    assert chinese_spaced(["x content: '輪到 bob 走棋；</pause:1> 動作:恢復 可提前結束'"]) == []
    assert half_width_after_chinese(["x content: '▶ **紅方**: <@7>'",
                                     "x content: '輪到你，<t:1:R> (<t:1:f>)'"]) == [
        "x content: '▶ **紅方**: <@7>'"]
    assert half_width_after_chinese(["x content: '第 1/2 輪 (x)'"]) != []
    assert half_width_after_chinese(["x content: '</pause:1> 動作:恢復 可提前結束'"]) == []
    assert named_twice(["x content: '<@7> <@7>: <@8> challenges you'"]) != []
    assert named_twice(["x content: 'alice played — <@7>, your move.\\n<@7>'"]) != []
    assert named_twice(["x content: '<@7>: <@8> challenges you\\n✅ Accepted by <@7>'",
                        "x content: '<@7> Your move.'"]) == []


async def test_closed_dms_a_tournament_and_a_solved_puzzle_read_as_discord_renders_them(
        world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    """One walk in three languages (cheaper than one a language): the server (its
    threads and posts) and Carol speak Chinese, Bob and Dave German, the organiser
    English; each reply and DM speaks its reader's."""
    w = world
    await w.repository.save_guild_settings(GuildSettings(w.guild.id, language="zh-TW"))
    langs = speaking(monkeypatch)
    admins = w.guild.create_role("admins", permissions=discord.Permissions(manage_guild=True))
    admin = w.guild.add_member(w.env.create_user("admin"), roles=[admins])
    langs.update({w.alice.id: "zh-TW", w.bob.id: "de", w.carol.id: "zh-TW", w.dave.id: "de",
                  admin.id: "en-US"})
    notifier = notifier_of(w)
    start = len(w.env.http_requests)

    # Bob wants DMs, but his DMs are closed: his turn is a mention in the thread, and
    # his next command tells him (once, privately)
    await w.bob.slash(w.channel, "notify", mode="dm")
    faults = FaultyHTTP.install(w.bot)
    closed = Inbox(w).dm_channel(w.bob.id)
    faults.add("POST", "/channels/*/messages", "dms-closed",
               when=lambda path: int(path.split("/")[2]) == closed)
    await w.alice.slash(w.channel, "challenge", game="xiangqi", opponent=w.bob, seat=0)
    challenge = next(post for post in w.channel.history() if buttons(post))
    await w.bob.click(challenge, custom_id=buttons(challenge)[0].custom_id)
    (thread,) = w.channel.threads
    await w.alice.slash(thread, "move", move="h3-e3")
    await notifier.drain()
    told = await w.bob.slash(w.channel, "games")
    notice = render(DMS_CLOSED_NOTICE, "de")[:20]
    assert any(notice in (f.content or "")[:20] for f in told.followups), "the notice came"
    assert faults.failed, "a DM to Bob was refused"
    await w.alice.slash(w.channel, "games")  # her list, in Chinese: 象棋對 <@bob>

    # a tournament: created, joined with the post's button, started, two rounds paired
    # one after the other, finished
    made = reply(await admin.slash(w.channel, "tournament create", game="damas",
                                   format="double round robin"))
    assert made.ephemeral
    post = w.channel.last_message
    assert post is not None
    for member in (w.carol, w.dave):
        assert reply(await member.click(post, custom_id=buttons(post)[0].custom_id)).ephemeral
    await admin.slash(w.channel, "tournament start")
    await notifier.drain()
    t = await w.service.get_tournament(1)
    for _round in range(2):
        (game,) = t.games_of_round(t.round)
        await w.service.resign(game.match_id or 0, game.second or 0)
        await notifier.drain()
        t = await w.service.get_tournament(1)
    assert t.status.value == "finished"
    await w.carol.slash(w.channel, "tournament standings")

    # a puzzle solved to its end: the reply names the next one
    await finished(w, ALQUERQUE)
    await mined(w)
    await w.dave.slash(w.channel, "puzzle next")
    await w.dave.slash(w.channel, "puzzle answer", move="c3-d3")
    solved = reply(await w.dave.slash(w.channel, "puzzle answer", move="c4xc2xa2xa4"))
    assert "✓" in (solved.content or "") + "".join(e.description or "" for e in solved.embeds)
    await w.env.settle()

    found, seen = defects(w, start)
    assert any(MENTION.search(s) for s in seen)
    assert not found, "\n".join(found)
    spaced = chinese_spaced(seen)
    assert not spaced, "\n".join(spaced)
    half = half_width_after_chinese(seen)
    assert not half, "\n".join(half)
    twice = named_twice(seen)
    assert not twice, "\n".join(twice)
