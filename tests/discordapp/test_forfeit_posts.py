"""A tournament game resigned before every player had moved, on Discord (SimCord): the
game's thread says the forfeit the standings score, in the result post and on its
board, never "aborted"."""

from __future__ import annotations

from tests.discordapp.conftest import World
from tests.discordapp.helpers import play_some_moves, post_text, reply, result_post
from tests.discordapp.test_outbox_delivery import notifier_of


async def test_the_result_post_of_an_early_resignation_in_a_tournament_says_forfeit(
        world: World) -> None:
    w = world
    notifier = notifier_of(w)
    t = await w.service.create_tournament(w.guild.id, w.channel.id, w.alice.id, "xiangqi",
                                          fmt="round robin", name="Duo", cap=2)
    for member in (w.alice, w.bob):
        t = await w.service.join_tournament(t.id, member.id)  # the cap starts it
    await notifier.drain()
    [thread] = w.channel.threads
    m = await w.service.match_in_thread(thread.id)
    assert m is not None
    await play_some_moves(w, thread, m.id, 1)  # Red moved, Black never did
    m = await w.service.get_match(m.id)
    [black] = [a for a in (w.alice, w.bob) if a.id in m.to_move]
    red = w.bob if black is w.alice else w.alice
    resigned = reply(await black.slash(thread, "resign"))
    assert resigned.ephemeral and resigned.content == "You resigned."
    await notifier.drain()
    words = (f"forfeit: {black.name} (Black) resigned before every player had moved; "
             f"{red.name} (Red) wins")
    post = result_post(thread)
    assert f"Match {m.id} (Xiangqi) ended: {words}." in post.content
    assert f"Over: {words}" in post_text(post)  # the board under it
    assert "aborted" not in post_text(post).lower()
    t = await w.service.get_tournament(t.id)
    assert t.games[0].result is not None and not t.games[0].result.played  # F+ / F-
