"""Discord's smaller failure paths (issue 12): a thread that cannot be created leaves no
orphan announcement, the context-menu game menu makes one challenge and still works
after a restart, mentions cost no user fetch."""

from __future__ import annotations

import pytest
from simcord.backend.errors import SetupError

from tests.discordapp.conftest import World, make_bot, make_repository
from tests.discordapp.helpers import is_turn_post, post_text, reply, words


async def test_a_thread_that_cannot_be_created_leaves_no_orphan_starter(world: World) -> None:
    w = world
    await w.alice.slash(w.channel, "challenge", game="xiangqi", opponent=w.bob, seat=0)
    before = [m.id for m in w.channel.history()]
    w.env.inject_error("POST", "/channels/*/messages/*/threads", status=500)
    accepted = reply(await w.bob.click(w.channel.last_message, label="Accept"))
    assert "accepted" in accepted.content.lower()
    assert w.channel.threads == []
    new = [m for m in w.channel.history() if m.id not in before]
    # no "the game is played in the thread below" without a thread: only the board
    assert all("thread below" not in post_text(m) for m in new), [post_text(m) for m in new]
    (board,) = new
    assert is_turn_post(board) and words(board).startswith(w.alice.mention)
    moved = reply(await w.alice.slash(w.channel, "move", move="h3-e3"))
    assert "h3-e3" in moved.content


def challenges_posted(w: World) -> int:
    return sum(1 for m in w.channel.history() if " challenges you to " in m.content)


async def test_the_game_menu_disables_itself_after_the_pick(world: World) -> None:
    w = world
    shown = await w.alice.context_menu(w.channel, "Challenge to a game", w.bob)
    picked = await w.alice.select(shown.response, ["damas"])
    assert "Challenge posted" in reply(picked).content
    menu = picked.response  # the menu itself, edited: disabled, showing the choice
    (row,) = menu.components
    (select,) = row["components"]
    assert select["disabled"] and select["placeholder"] == "Spanish draughts"
    assert challenges_posted(w) == 1
    with pytest.raises(SetupError, match="disabled"):  # nobody can pick a second time
        await w.alice.select(menu, ["damas"])
    assert challenges_posted(w) == 1


async def test_the_game_menu_works_after_a_restart(world: World) -> None:
    w = world
    shown = await w.alice.context_menu(w.channel, "Challenge to a game", w.bob)
    repository = await make_repository(w.tmp_path / "tablero.db")
    await w.env.restart_bot(make_bot(w.tmp_path, repository))
    picked = await w.alice.select(shown.response, ["xiangqi"])
    assert "Challenge posted" in reply(picked).content
    challenge = w.channel.last_message
    assert challenge.content.startswith(w.bob.mention) and "Xiangqi" in challenge.content
    await repository.close()


async def test_mentions_need_no_user_fetch(world: World) -> None:
    w = world
    await w.alice.slash(w.channel, "notify", mode="dm")
    await w.alice.slash(w.channel, "challenge", game="xiangqi", opponent=w.bob, seat=0)
    await w.bob.click(w.channel.last_message, label="Accept")
    (thread,) = w.channel.threads
    await w.alice.slash(thread, "move", move="h3-e3")
    await w.bob.slash(thread, "move", move="h8-e8")
    fetched = [r.path for r in w.env.http_requests
               if r.method == "GET" and r.path.startswith("/users/")]
    assert fetched == []
