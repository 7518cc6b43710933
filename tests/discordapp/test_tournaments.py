"""Tournaments on Discord (SimCord): creation needs Manage Server, players join with the
post's button, the organiser starts it, every game gets its thread, standings come as
an embed with the table image (and the CSV on request)."""

from __future__ import annotations

import io

import discord
import pytest
from PIL import Image

from tests.discordapp.conftest import World
from tests.discordapp.helpers import mention, reply
from tests.discordapp.languages import speaking
from tests.discordapp.test_outbox_delivery import notifier_of


async def test_create_join_start_and_standings(world: World) -> None:
    w = world
    plain = reply(await w.alice.slash(w.channel, "tournament create", game="xiangqi",
                                      format="round robin"))
    assert plain.ephemeral and "Manage Server" in plain.content
    admins = w.guild.create_role("admins", permissions=discord.Permissions(manage_guild=True))
    admin = w.guild.add_member(w.env.create_user("admin"), roles=[admins])
    refused = reply(await admin.slash(w.channel, "tournament create",
                                      game="alquerque-grande:players=4,mode=teams",
                                      format="round robin"))
    assert refused.ephemeral and "two-player games" in refused.content
    assert "choose it for 2 players" in refused.content  # the menu has no 'players=2'
    made = reply(await admin.slash(w.channel, "tournament create", game="xiangqi",
                                   format="round robin", name="Club cup"))
    assert made.ephemeral and "Tournament #1 Club cup is open" in made.content
    post = w.channel.last_message
    assert post.embeds[0].title == "Tournament #1: Club cup"

    for member in (w.alice, w.bob, w.carol):
        joined = reply(await member.click(post, label="Join"))
        assert joined.ephemeral and "You are in Club cup" in joined.content
    again = reply(await w.bob.click(post, label="Join"))
    assert again.ephemeral and "already in" in again.content
    post = next(m for m in w.channel.history() if m.id == post.id)
    assert post.embeds[0].fields[0].name == "Players (3)"  # the post follows the joins

    not_organiser = reply(await w.bob.slash(w.channel, "tournament start"))
    assert not_organiser.ephemeral and "only the organiser" in not_organiser.content.lower()
    threads_before = len(w.channel.threads)
    started = reply(await admin.slash(w.channel, "tournament start"))
    assert "has started: round 1" in started.content
    assert len(w.channel.threads) == threads_before + 1  # 3 players: one game, one rest

    pairings = reply(await w.alice.slash(w.channel, "tournament pairings"))
    assert pairings.ephemeral and "Round 1:" in pairings.content and "rests" in pairings.content
    mine = reply(await w.bob.slash(w.channel, "tournament mine"))
    assert mine.ephemeral and w.bob.mention in mine.content

    t = await w.service.get_tournament(1)
    [game] = [g for g in t.games_of_round(1) if g.match_id is not None]
    await w.service.resign(game.match_id or 0, game.second or 0)
    standings = reply(await w.carol.slash(w.channel, "tournament standings", export=True))
    assert standings.embeds and standings.embeds[0].title == "Club cup"
    assert "round 2 of 3" in standings.embeds[0].footer.text
    names = [a.filename for a in standings.attachments]
    assert names == ["standings.png", "standings.csv"]
    png = await standings.attachments[0].read()
    assert Image.open(io.BytesIO(png)).size[0] > 300
    csv = (await standings.attachments[1].read()).decode()
    assert csv.startswith("place,player,player_id,points")


async def test_standings_are_posted_in_the_tournament_channel_after_each_game(
        world: World) -> None:
    """After each game the standings (embed and table image) come as a new message in
    the tournament's channel, not the game's thread; the final ones mention the winner.
    Posted, not pinned: Tablero does not ask for Manage Messages."""
    w = world
    notifier = notifier_of(w)
    t = await w.service.create_tournament(w.guild.id, w.channel.id, w.alice.id, "xiangqi",
                                          fmt="round robin", name="Trio", cap=3)
    for member in (w.alice, w.bob, w.carol):
        t = await w.service.join_tournament(t.id, member.id)
    await notifier.drain()
    winner = w.carol.id
    played = []
    while t.status.value == "running":
        for g in t.games_of_round(t.round):
            if g.match_id is None or g.result is not None:
                continue
            loser = g.first if g.second == winner else g.second
            if winner not in (g.first, g.second):
                loser = g.first
            await w.service.resign(g.match_id, loser or 0)
            played.append(g.match_id)
            await notifier.drain()
        t = await w.service.get_tournament(t.id)
    posts = [m for m in w.channel.history() if "tournament #1" in (m.content or "").lower()]
    posts.sort(key=lambda m: m.id)
    assert [m.content for m in posts[:-1]] == \
        [f"Standings of tournament #1 after match {mid}." for mid in played]
    for m in posts:
        assert m.embeds[0].title == "Trio" and not m.pinned
        assert [a.filename for a in m.attachments] == ["standings.png"]
        assert m.embeds[0].image.url == "attachment://standings.png"
    final = posts[-1]
    assert final.content == f"🏆 Tournament #1 is over: <@{winner}> wins!"
    assert "final standings" in (final.embeds[0].footer.text or "")
    assert (final.embeds[0].description or "").startswith("**1.** ")
    png = await final.attachments[0].read()
    assert Image.open(io.BytesIO(png)).size[0] > 300
    # nobody here used a command: the picture's names were asked of Discord, once each
    drawn = final.attachments[0].description or ""
    assert all(m.name in drawn and str(m.id) not in drawn for m in (w.alice, w.bob, w.carol))
    asked = [r.path for r in w.env.http_requests if r.method == "GET" and "/members/" in r.path]
    assert sorted(asked) == sorted(f"/guilds/{w.guild.id}/members/{m.id}"
                                   for m in (w.alice, w.bob, w.carol))


async def test_create_with_a_bank_control(world: World) -> None:
    w = world
    admins = w.guild.create_role("admins", permissions=discord.Permissions(manage_guild=True))
    admin = w.guild.add_member(w.env.create_user("admin"), roles=[admins])
    bad = reply(await admin.slash(w.channel, "tournament create", game="xiangqi",
                                  format="round robin", clock="3d+1d/2d"))
    assert bad.ephemeral and \
        "The cap (2 days) must be at least the starting bank (3 days)" in bad.content
    assert await w.service.tournaments(w.guild.id) == []
    made = reply(await admin.slash(w.channel, "tournament create", game="xiangqi",
                                   format="round robin", name="Bank cup",
                                   clock="3d+1d/10d", claim_win=True))
    assert made.ephemeral and "Tournament #1 Bank cup is open" in made.content
    post = w.channel.last_message
    assert "3 days + 1 day per move, at most 10 days banked, claim win on time" in \
        (post.embeds[0].description or "")
    for member in (w.alice, w.bob):
        reply(await member.click(post, label="Join"))
    reply(await admin.slash(w.channel, "tournament start"))
    [game] = (await w.service.get_tournament(1)).games_of_round(1)
    m = await w.service.get_match(game.match_id or 0)
    assert m.time_control == "3d+1d/10d" and m.claim_win


async def test_a_refused_option_names_the_command_that_was_used(
        world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    """A refused option's next step names the command the user ran, in the name his
    Discord shows him (``/torneo crear`` in Spanish), not always ``/challenge``."""
    w = world
    people = speaking(monkeypatch)
    admins = w.guild.create_role("admins", permissions=discord.Permissions(manage_guild=True))
    admin = w.guild.add_member(w.env.create_user("admin"), roles=[admins])
    bad_clock = reply(await admin.slash(w.channel, "tournament create", game="xiangqi",
                                        format="round robin", clock="3d+1d/2d"))
    assert bad_clock.ephemeral
    create = mention(w, "tournament create")
    assert bad_clock.content.endswith(f"Check the options and run {create} again.")
    assert "/challenge" not in bad_clock.content
    people[admin.id] = "es-ES"
    in_spanish = reply(await admin.slash(w.channel, "tournament create", game="xiangqi",
                                         format="round robin", clock="3d+1d/2d"))
    assert in_spanish.content.endswith(f"{create}.") and "Revisa" in in_spanish.content
    challenged = reply(await w.alice.slash(w.channel, "challenge", game="xiangqi",
                                           opponent=w.bob, clock="3d+1d/2d"))
    assert challenged.content.endswith(
        f"Check the options and run {mention(w, 'challenge')} again.")
    assert await w.service.tournaments(w.guild.id) == []
