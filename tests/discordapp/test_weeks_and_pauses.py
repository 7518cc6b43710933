"""Issue 43 in Discord, through SimCord: /timezone with autocomplete, /settings weekends
and pauses, a challenge with weekends off said on its board, and a pause by agreement
proposed with /pause, answered with its buttons across a restart, and resumed early."""

from __future__ import annotations

import re

import discord
import pytest

from tests.discordapp.conftest import World, service_of
from tests.discordapp.helpers import posts_left_open, reply, start_match
from tests.discordapp.test_comforts import restart


async def test_a_time_zone_is_set_with_autocomplete_and_checked(world: World) -> None:
    w = world
    choices = await w.alice.autocomplete(w.channel, "timezone", "zone", "madr")
    assert [c["value"] for c in choices] == ["Europe/Madrid"]
    none = reply(await w.alice.slash(w.channel, "timezone"))
    assert none.ephemeral and "no time zone" in none.content
    bad = reply(await w.alice.slash(w.channel, "timezone", zone="Mars/Olympus"))
    assert bad.ephemeral and "is not a time zone" in bad.content
    good = reply(await w.alice.slash(w.channel, "timezone", zone="europe/madrid"))
    assert "Europe/Madrid" in good.content
    # what time it is there now, and the offset, to check the zone by
    assert re.search(r"it is \d\d:\d\d UTC\+0[12]:00 there now", good.content)
    assert (await w.service.get_user_prefs(w.alice.id)).time_zone == "Europe/Madrid"
    both = reply(await w.alice.slash(w.channel, "timezone", zone="UTC", clear=True))
    assert both.ephemeral and "not both" in both.content
    cleared = reply(await w.alice.slash(w.channel, "timezone", clear=True))
    assert "no time zone" in cleared.content
    assert (await w.service.get_user_prefs(w.alice.id)).time_zone is None


async def test_weekends_off_from_the_settings_and_said_on_the_board(world: World) -> None:
    w = world
    admins = w.guild.create_role("admins", permissions=discord.Permissions(manage_guild=True))
    admin = w.guild.add_member(w.env.create_user("admin"), roles=[admins])
    said = reply(await admin.slash(w.channel, "settings", weekends="off", pauses=1))
    assert "weekends off" in said.content and "at most 1" in said.content
    settings = await w.service.get_guild_settings(w.guild.id)
    assert settings.weekends_off and settings.pauses_rated == 1
    await w.bob.slash(w.channel, "timezone", zone="Asia/Tokyo")
    m, thread = await start_match(w, w.alice, w.bob, "xiangqi", seat=0)
    assert (await w.service.get_match(m.id)).weekends
    board = reply(await w.alice.slash(thread, "board"))
    shown = " ".join([board.content, *(e.description or "" for e in board.embeds),
                      *(f.value for e in board.embeds for f in e.fields),
                      *(e.footer.text or "" for e in board.embeds)])
    assert "weekends off" in shown  # the terms, in the board's footer
    assert "weekends in UTC for" in shown and w.alice.mention in shown  # no zone set
    assert w.bob.mention not in shown.split("weekends in UTC for")[1]
    plain = await w.alice.slash(w.channel, "challenge", game="xiangqi", opponent=w.carol,
                                weekends="on")
    assert "Challenge posted" in reply(plain).content
    found = [g for g in await w.service.games_of(w.guild.id, w.carol.id) if g.id != m.id]
    assert len(found) == 1 and not found[0].weekends


async def test_a_pause_is_proposed_accepted_with_a_button_and_resumed(
        world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    w = world
    # the answer closes the post (test_closed_posts); these clicks race that edit
    posts_left_open(monkeypatch)
    m, thread = await start_match(w, w.alice, w.bob, "xiangqi", rated=False, seat=0)
    before = (await w.service.get_match(m.id)).deadline
    assert before is not None
    missing = reply(await w.bob.slash(thread, "pause"))
    assert missing.ephemeral and "how many days" in missing.content
    asked = reply(await w.bob.slash(thread, "pause", days=3, reason="exams"))
    assert asked.ephemeral and "Pause proposed" in asked.content
    post = thread.last_message
    assert "proposes to pause" in post.content and "exams" in post.content
    assert w.alice.mention in post.content
    fresh, repository = await restart(w)
    try:
        nosy = await w.carol.click(post, label="Accept pause")
        assert reply(nosy).ephemeral and "not playing" in reply(nosy).content
        mine = await w.bob.click(post, label="Accept pause")
        assert "your opponent answers it" in reply(mine).content
        done = reply(await w.alice.click(post, label="Accept pause"))
        assert done.ephemeral and "is paused until" in done.content
        assert "is paused until" in thread.last_message.content
        service = service_of(fresh)
        paused = await service.get_match(m.id)
        assert paused.paused is not None and paused.deadline is not None
        assert paused.deadline - before >= paused.paused[1] - paused.paused[0]
        refused = reply(await w.alice.slash(thread, "move", move="h3-e3"))
        assert refused.ephemeral and "paused until" in refused.content
        # until when, as Discord shows each reader in his own time: not "… UTC"
        assert f"<t:{int(paused.paused[1].timestamp())}:f>" in refused.content
        assert "UTC" not in refused.content
        stale = reply(await w.alice.click(post, label="Decline pause"))
        assert stale.ephemeral  # answered already
        resumed = reply(await w.bob.slash(thread, "pause", action="resume"))
        assert "clocks run again" in resumed.content
        assert "resumed the match" in thread.last_message.content
        moved = reply(await w.alice.slash(thread, "move", move="h3-e3"))
        assert not moved.ephemeral or "paused" not in moved.content
        assert (await service.get_match(m.id)).ply == 1
    finally:
        await repository.close()
