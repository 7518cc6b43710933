"""Permissions, settings, notification preferences, the context menu and the read-only
commands, through SimCord."""

from __future__ import annotations

import discord

from tests.discordapp.conftest import World
from tests.discordapp.helpers import is_turn_post, mention, reply, start_match, words


async def test_a_missing_permission_is_named(world: World) -> None:
    w = world
    me = w.guild.me
    assert me is not None
    closed = w.guild.create_text_channel(
        "no-embeds", overwrites={me: discord.PermissionOverwrite(embed_links=False)})
    result = await w.alice.slash(closed, "challenge", game="xiangqi", opponent=w.bob)
    answer = reply(result)
    assert answer.ephemeral and "**Embed Links**" in answer.content
    assert closed.last_message is None


async def test_without_thread_permission_the_match_stays_in_the_channel(world: World) -> None:
    w = world
    me = w.guild.me
    assert me is not None
    plain = w.guild.create_text_channel(
        "plain", overwrites={me: discord.PermissionOverwrite(create_public_threads=False)})
    await w.alice.slash(plain, "challenge", game="xiangqi", opponent=w.bob, seat=0)
    await w.bob.click(plain.last_message, label="Accept")
    assert plain.threads == []
    board = plain.last_message
    assert is_turn_post(board) and words(board).startswith(w.alice.mention)
    # Outside a thread the match is found from the user's only active match.
    moved = await w.alice.slash(plain, "move", move="h3-e3")
    assert "h3-e3" in reply(moved).content
    assert words(plain.last_message).startswith(
        f"alice played **h3-e3 (C2.5)** — {w.bob.mention}, your move")
    # Permissions revoked later: the move is refused with the missing permission named.
    me_member = w.guild.me
    assert me_member is not None
    await me_member.guild.get_channel(plain.id).set_permissions(
        me_member, overwrite=discord.PermissionOverwrite(create_public_threads=False,
                                                         attach_files=False))
    refused = reply(await w.bob.slash(plain, "move", move="h8-e8"))
    assert refused.ephemeral and "**Attach Files**" in refused.content


async def test_settings_need_manage_server_and_change_new_matches(world: World) -> None:
    w = world
    assert "settings" not in w.alice.available_commands(w.channel)
    admins = w.guild.create_role("admins", permissions=discord.Permissions(manage_guild=True))
    admin = w.guild.add_member(w.env.create_user("admin"), roles=[admins])
    lobby = w.guild.create_text_channel("lobby")
    result = await admin.slash(w.channel, "settings", days=5, threads=False, channel=lobby,
                               reminders=False)
    answer = reply(result)
    assert answer.ephemeral and "5 days" in answer.content and "threads off" in answer.content
    posted = await w.alice.slash(w.channel, "challenge", game="xiangqi", opponent=w.bob)
    assert lobby.mention in reply(posted).content
    assert "5 days per move" in lobby.last_message.content
    await w.bob.click(lobby.last_message, label="Accept")
    assert lobby.threads == [] and is_turn_post(lobby.last_message)


async def test_dm_notification_preference(world: World) -> None:
    w = world
    now = reply(await w.bob.slash(w.channel, "notify"))  # what he has now (it needed a mode)
    assert now.ephemeral and now.content == (
        "You are mentioned in the match thread when it's your move; "
        f"{mention(w, 'notify')} mode:dm sends you a direct message instead.")
    chosen = await w.bob.slash(w.channel, "notify", mode="dm")
    assert reply(chosen).ephemeral and "direct message" in reply(chosen).content
    now = reply(await w.bob.slash(w.channel, "notify"))
    assert now.content.startswith("You get a direct message when it's your move; ")
    _, thread = await start_match(w, w.alice, w.bob, seat=0)
    await w.alice.slash(thread, "move", move="h3-e3")
    dms = w.bob.user.dm_channel.history()
    assert dms and "Your move in Xiangqi" in dms[-1].content
    assert thread.last_message.jump_url in dms[-1].content
    await w.carol.slash(w.channel, "notify", mode="dm")
    await w.alice.slash(w.channel, "challenge", game="damas", opponent=w.carol)
    invitation = w.carol.user.dm_channel.history()[-1]
    assert "challenges you to **Spanish draughts**" in invitation.content
    assert w.channel.last_message.jump_url in invitation.content
    games = reply(await w.carol.slash(w.channel, "games")).embeds[0].description
    assert "you're invited" in games


async def test_context_menu_challenge(world: World) -> None:
    w = world
    shown = await w.alice.context_menu(w.channel, "Challenge to a game", w.bob)
    assert shown.ephemeral
    picked = await w.alice.select(shown.response, ["damas"])
    assert "Challenge posted" in reply(picked).content
    challenge = w.channel.last_message
    assert challenge.content.startswith(w.bob.mention) and "Spanish draughts" in \
        challenge.content
    self_pick = await w.alice.context_menu(w.channel, "Challenge to a game", w.alice)
    assert "yourself" in reply(self_pick).content


async def test_information_commands(world: World) -> None:
    w = world
    match, thread = await start_match(w, w.alice, w.bob, seat=0)
    await w.alice.slash(thread, "move", move="h3-e3")
    games = reply(await w.bob.slash(w.channel, "games"))
    assert games.ephemeral
    text = games.embeds[0].description
    assert text.startswith(f"`{match.id}` Xiangqi") and "**your move**" in text
    assert "<t:" in text and ":R>" in text
    board = reply(await w.carol.slash(thread, "board"))
    assert board.ephemeral and "h3-e3" in board.embeds[0].description
    history = reply(await w.alice.slash(thread, "history"))
    assert "1. h3-e3" in history.content
    names = [a.filename for a in history.attachments]
    assert names[0].startswith(f"match-{match.id}.") and names[1] == f"match-{match.id}.gif"
    export = await history.attachments[0].read()
    assert b"C2.5" in export  # the WXF record of h3-e3
    rules_answer = reply(await w.carol.slash(w.channel, "rules", game="xiangqi"))
    assert "Xiangqi" in rules_answer.embeds[0].title and "h3-e3" in \
        rules_answer.embeds[0].description
    assert rules_answer.attachments[0].description.startswith("Xiangqi")
    choices = await w.alice.autocomplete(w.channel, "board", "match", "")
    assert [c["value"] for c in choices] == [match.id]


async def test_querni_choose_setup(world: World) -> None:
    w = world
    match, thread = await start_match(w, w.alice, w.bob, game="querni:setup=choose",
                                      seat=0)
    start = thread.last_message
    assert {u.id for u in start.mentions} == {w.alice.id, w.bob.id}
    arrangement = " ".join(str(n) for n in range(1, 17))
    bad = reply(await w.alice.slash(thread, "setup", arrangement="1 2 3"))
    assert bad.ephemeral and "each once, for your cells a1 b1 c1 h1" in bad.content
    done = reply(await w.alice.slash(thread, "setup", arrangement=arrangement))
    assert done.ephemeral and "hidden" in done.content
    assert "submitted an arrangement" in thread.last_message.content
    await w.bob.slash(thread, "setup", arrangement=arrangement)
    view = await w.service.get_match(match.id)
    assert len(view.to_move) == 1
    assert words(thread.last_message).startswith(f"<@{view.to_move[0]}>")
    choices = await w.alice.autocomplete(thread, "move", "move", "")
    assert choices or view.to_move != (w.alice.id,)
