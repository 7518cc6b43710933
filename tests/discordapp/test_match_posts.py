"""What a match posts: rating changes in the result post, "alice played ... — @bob, your
move", names in the board's alt text, moves copied with their note, replays of a game a
player left, and clearing the games channel."""

from __future__ import annotations

import io
from typing import Any

import discord
from PIL import Image

import rules
from tests.discordapp.conftest import World
from tests.discordapp.helpers import (
    mention,
    pinged,
    play_some_moves,
    post_text,
    reply,
    result_post,
    start_four_player_match,
    start_match,
    words,
)


async def test_the_result_post_shows_each_rating_change(world: World) -> None:
    w = world
    m, thread = await start_match(w, w.alice, w.bob, seat=0)
    await play_some_moves(w, thread, m.id, 2)  # both moved: the result is rated
    await w.bob.slash(thread, "resign")
    first = result_post(thread).content
    after: dict[int, float] = {}
    for who in (w.alice, w.bob):
        entry = await w.service.rank_of(w.guild.id, "xiangqi", who.id)
        assert entry is not None
        after[who.id] = entry.ordinal
        delta = entry.ordinal - 0.0  # a first rated match starts from the default 0.0
        # provisional before and after (a new player's first games): "?" as the ladder
        assert f"{who.mention} 0.0? → {entry.ordinal:.1f}? ({delta:+.1f}), #{entry.rank}" \
            in first
    board = reply(await w.carol.slash(w.channel, "leaderboard", game="xiangqi"))
    assert f"{after[w.alice.id]:.1f}" in board.embeds[0].description  # the same number
    m, thread = await start_match(w, w.alice, w.bob, seat=0)
    await play_some_moves(w, thread, m.id, 2)
    await w.alice.slash(thread, "resign")
    second = result_post(thread).content
    entry = await w.service.rank_of(w.guild.id, "xiangqi", w.bob.id)
    assert entry is not None
    assert (f"{w.bob.mention} {after[w.bob.id]:.1f}? → {entry.ordinal:.1f}? "
            f"({entry.ordinal - after[w.bob.id]:+.1f}), #1") in second


async def test_an_unrated_result_has_no_rating_lines(world: World) -> None:
    w = world
    m, thread = await start_match(w, w.alice, w.bob, seat=0, rated=False)
    await play_some_moves(w, thread, m.id, 2)
    await w.bob.slash(thread, "resign")
    assert "→" not in result_post(thread).content


async def test_turn_messages_say_who_played_and_boards_name_the_players(
        world: World) -> None:
    w = world
    _, thread = await start_match(w, w.alice, w.bob, seat=0)
    (start_image,) = thread.last_message.attachments
    assert "Red (alice) to move" in start_image.description
    await w.alice.slash(thread, "move", move="h3-e3")
    last = thread.last_message
    assert words(last).startswith(
        f"alice played **h3-e3 (C2.5)** — {w.bob.mention}, your move (")
    assert pinged(w, last) == [w.bob.id]  # the mover is named, not pinged
    assert "alice played **h3-e3 (C2.5)**" in post_text(last)
    (image,) = last.attachments
    assert "Black (bob) to move" in image.description and "h3-e3" in image.description
    shown = reply(await w.bob.slash(thread, "board"))
    assert shown.embeds[0].description == "alice played **h3-e3 (C2.5)**"
    assert "Black (bob) to move" in shown.attachments[0].description


async def test_a_move_copied_from_a_post_with_its_note(world: World) -> None:
    w = world
    match, thread = await start_match(w, w.alice, w.bob, seat=0)
    played = reply(await w.alice.slash(thread, "move", move="h3-e3 (C2.5)"))
    assert played.ephemeral and played.content == "You played **h3-e3 (C2.5)**."
    p, _ = await w.service.position(match.id)
    v = rules.variant("xiangqi")
    shown = v.display_move(p, v.parse_move(p, "h8-e8"))
    wrong = reply(await w.bob.slash(thread, "move", move="h8-e8 (C2.5)"))
    assert wrong.ephemeral
    assert f"'(C2.5)' after it is not its note: it is written {shown}" in wrong.content
    assert (await w.service.get_match(match.id)).ply == 1


async def test_history_replays_a_four_player_game_a_player_left(world: World) -> None:
    """The GIF comes from ``service.record``: a seat timed out mid-game is a frame too
    (reading the stored strings alone, the moves after it did not replay)."""
    w = world
    m, thread = await start_four_player_match(w)
    await play_some_moves(w, thread, m.id, 4)  # everyone moved: a timeout puts one out
    await w.env.advance_time(25 * 3600)
    await play_some_moves(w, thread, m.id, 2)
    m = await w.service.get_match(m.id)
    assert any(s.out for s in m.seats) and not m.is_over
    history = reply(await w.alice.slash(thread, "history"))
    gif = next(a for a in history.attachments if a.filename.endswith(".gif"))
    data = await gif.read()
    frames = Image.open(io.BytesIO(data))
    assert getattr(frames, "n_frames", 1) == m.ply + 1  # the start and every ply


async def test_settings_can_clear_the_games_channel(world: World) -> None:
    w = world
    admins = w.guild.create_role("admins", permissions=discord.Permissions(manage_guild=True))
    admin = w.guild.add_member(w.env.create_user("admin"), roles=[admins])
    lobby = w.guild.create_text_channel("lobby")
    await admin.slash(w.channel, "settings", channel=lobby)
    assert (await w.service.get_guild_settings(w.guild.id)).games_channel_id == lobby.id
    both: Any = reply(await admin.slash(w.channel, "settings", channel=lobby,
                                        clear_channel=True))
    assert both.ephemeral and "not both" in both.content
    cleared = reply(await admin.slash(w.channel, "settings", clear_channel=True))
    assert f"challenges go to the channel where {mention(w, 'challenge')} is used" in \
        cleared.content
    assert (await w.service.get_guild_settings(w.guild.id)).games_channel_id is None
    posted = reply(await w.alice.slash(w.channel, "challenge", game="xiangqi",
                                       opponent=w.bob))
    assert "lobby" not in posted.content and w.channel.last_message.content.startswith(
        w.bob.mention)
