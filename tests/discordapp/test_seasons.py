"""Seasons and the organiser role on Discord (SimCord): ``/settings organiser_role`` lets
members with that role run tournaments and seasons (Manage Server still can, others
cannot); a monthly season ends by the sweep on the virtual clock, its final board is
posted in the channel, and ``/leaderboard season:`` (autocompleted with the server's
seasons) shows it; the tournament post's Join / Leave buttons work after a restart."""

from __future__ import annotations

from datetime import timedelta

import discord

from tests.discordapp.conftest import World, make_bot, make_repository, service_of
from tests.discordapp.helpers import reply
from tests.discordapp.test_outbox_delivery import notifier_of


async def rated_win(w: World, winner: int, loser: int) -> None:
    """A rated xiangqi game through the service: each side moves once, then a resignation."""
    service = w.service
    m = await service.challenge(w.guild.id, w.channel.id, winner, "xiangqi",
                                opponents=[loser], seat=0)
    m = await service.accept(m.id, loser)
    for user in (winner, loser):
        p, _ = await service.position(m.id)
        mv = next(iter(p.legal_moves()))
        await service.move(m.id, user, p.variant.format_move(p, mv))
    await service.resign(m.id, loser)


async def test_the_organiser_role_runs_tournaments_and_seasons(world: World) -> None:
    w = world
    admins = w.guild.create_role("admins", permissions=discord.Permissions(manage_guild=True))
    admin = w.guild.add_member(w.env.create_user("admin"), roles=[admins])
    organisers = w.guild.create_role("organisers")
    olga = w.guild.add_member(w.env.create_user("olga"), roles=[organisers])

    refused = reply(await olga.slash(w.channel, "tournament create", game="xiangqi",
                                     format="round robin"))
    assert refused.ephemeral and "organiser role" in refused.content
    refused = reply(await olga.slash(w.channel, "season schedule", every="monthly"))
    assert refused.ephemeral and "organiser role" in refused.content

    done = reply(await admin.slash(w.channel, "settings", organiser_role=organisers))
    assert f"Organiser role: <@&{organisers.id}>" in done.content
    assert (await w.service.get_guild_settings(w.guild.id)).organiser_role_id == organisers.id

    made = reply(await olga.slash(w.channel, "tournament create", game="xiangqi",
                                  format="round robin", name="Olga's cup"))
    assert "Tournament #1 Olga's cup is open" in made.content
    # a tournament someone else organised: the role may manage it too
    t = await w.service.create_tournament(w.guild.id, w.channel.id, admin.id, "xiangqi",
                                          fmt="rr", name="Admin's cup")
    cancelled = reply(await olga.slash(w.channel, "tournament cancel", tournament=t.id))
    assert "Admin's cup is cancelled" in cancelled.content
    started = reply(await olga.slash(w.channel, "season schedule", every="monthly"))
    assert "Seasons: monthly" in started.content and "Season 1" in started.content
    plain = reply(await w.bob.slash(w.channel, "season reset"))
    assert plain.ephemeral and "organiser role" in plain.content
    assert [s.number for s in await w.service.seasons(w.guild.id)] == [1]

    cleared = reply(await admin.slash(w.channel, "settings", clear_organiser_role=True))
    assert "Organiser role: none" in cleared.content
    again = reply(await olga.slash(w.channel, "season reset"))
    assert again.ephemeral and "organiser role" in again.content


async def test_a_season_ends_and_its_board_is_posted_and_viewable(world: World) -> None:
    w = world
    notifier = notifier_of(w)
    admins = w.guild.create_role("admins", permissions=discord.Permissions(manage_guild=True))
    admin = w.guild.add_member(w.env.create_user("admin"), roles=[admins])
    reply(await admin.slash(w.channel, "settings", seasons="monthly"))
    [season] = await w.service.seasons(w.guild.id)
    assert season.ends_at is not None
    await rated_win(w, w.alice.id, w.bob.id)
    await rated_win(w, w.alice.id, w.carol.id)
    await notifier.drain()

    # the sweep after the month's end (the periodic loop's very call, given the instant:
    # SimCord steps through every gateway heartbeat, so a month of virtual time is slow)
    await w.service.sweep(season.ends_at + timedelta(hours=1))
    await notifier.drain()
    [post] = [m for m in w.channel.history() if "is over" in (m.content or "")]
    assert post.content.startswith("🏁 Season 1 (")
    [field] = post.embeds[0].fields
    assert field.name == "Xiangqi" and (field.value or "").startswith(f"**1.** <@{w.alice.id}>")
    # the way to see it again, with the game /leaderboard cannot go without
    assert (post.embeds[0].footer.text or "").endswith(
        "see them with /leaderboard game: season:1")
    assert [s.number for s in await w.service.seasons(w.guild.id)] == [2, 1]

    choices = await w.carol.autocomplete(w.channel, "leaderboard", "season", "",
                                         game="xiangqi")
    assert [c["value"] for c in choices] == [2, 1]
    assert choices[1]["name"].startswith("Season 1 (")
    old = reply(await w.carol.slash(w.channel, "leaderboard", game="xiangqi", season=1))
    embed = old.embeds[0]
    assert "Season 1" in (embed.title or "")
    lines = (embed.description or "").splitlines()
    assert lines[0].startswith(f"**1.** <@{w.alice.id}>") and "(2W 0L 0D)" in lines[0]
    now = reply(await w.carol.slash(w.channel, "leaderboard", game="xiangqi", season=2))
    assert "Season 2" in (now.embeds[0].title or "")
    assert (now.embeds[0].description or "").startswith("Nobody is rated")  # afresh
    alltime = reply(await w.carol.slash(w.channel, "leaderboard", game="xiangqi"))
    assert "Season" not in (alltime.embeds[0].title or "")
    assert "3 rated players" in (alltime.embeds[0].footer.text or "")
    missing = reply(await w.carol.slash(w.channel, "leaderboard", game="xiangqi", season=9))
    assert "no season 9: seasons go from 1 to 2" in missing.content.lower()
    assert "/season list" in missing.content


async def test_join_and_leave_buttons_work_after_a_restart(world: World) -> None:
    w = world
    admins = w.guild.create_role("admins", permissions=discord.Permissions(manage_guild=True))
    admin = w.guild.add_member(w.env.create_user("admin"), roles=[admins])
    reply(await admin.slash(w.channel, "tournament create", game="xiangqi",
                            format="round robin", name="Restart cup"))
    post = w.channel.last_message
    joined = reply(await w.alice.click(post, label="Join"))
    assert "You are in Restart cup" in joined.content

    # a new process: a new client over a new connection to the same database
    repository = await make_repository(w.tmp_path / "tablero.db")
    fresh = make_bot(w.tmp_path, repository)
    await w.env.restart_bot(fresh)
    joined = reply(await w.bob.click(post, label="Join"))
    assert joined.ephemeral and "You are in Restart cup" in joined.content
    left = reply(await w.alice.click(post, label="Leave"))
    assert left.ephemeral and "Restart cup" in left.content
    t = await service_of(fresh).get_tournament(1)
    assert t.players == (w.bob.id,)
    await repository.close()
