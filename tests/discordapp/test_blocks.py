"""/block, /unblock and /cancel through SimCord: the blocker's answers and the blocked
user's refusals are ephemeral (only he sees them) and post nothing in the channel; the
"Challenge to a game" menu is refused the same way (the service's tests:
tests/service/test_blocks.py)."""

from __future__ import annotations

from service import MatchStatus
from tests.discordapp.conftest import World
from tests.discordapp.helpers import reply


async def test_a_block_is_made_listed_and_undone_privately(world: World) -> None:
    w = world
    await w.bob.slash(w.channel, "challenge", game="xiangqi", opponent=w.alice)
    waiting = await w.service.games_of(w.guild.id, w.bob.id)
    made = reply(await w.alice.slash(w.channel, "block", player=w.bob))
    assert made.ephemeral and f"You block {w.bob.mention}" in made.content
    assert f"declined (match #{waiting[0].id})" in made.content
    assert (await w.service.get_match(waiting[0].id)).status is MatchStatus.DECLINED
    posts = len(w.channel.history())
    refused = reply(await w.bob.slash(w.channel, "challenge", game="damas",
                                      opponent=w.alice))
    assert refused.ephemeral and "does not take challenges from you" in refused.content
    shown = await w.bob.context_menu(w.channel, "Challenge to a game", w.alice)
    picked = reply(await w.bob.select(shown.response, ["damas"]))
    assert picked.ephemeral and "does not take challenges from you" in picked.content
    assert len(w.channel.history()) == posts  # nothing posted, nobody else told
    listed = reply(await w.alice.slash(w.channel, "block"))
    assert listed.ephemeral and f"You block {w.bob.mention}." in listed.content
    undone = reply(await w.alice.slash(w.channel, "unblock", player=w.bob))
    assert undone.ephemeral and "You no longer block" in undone.content
    asked = reply(await w.bob.slash(w.channel, "challenge", game="damas", opponent=w.alice))
    assert "Challenge posted" in asked.content


async def test_a_second_challenge_to_the_same_person_names_cancel(world: World) -> None:
    w = world
    await w.alice.slash(w.channel, "challenge", game="xiangqi", opponent=w.bob)
    first = (await w.service.games_of(w.guild.id, w.alice.id))[0]
    again = reply(await w.alice.slash(w.channel, "challenge", game="xiangqi",
                                      opponent=w.bob))
    assert again.ephemeral and f"(match #{first.id})" in again.content
    assert "/cancel" in again.content
    withdrawn = reply(await w.alice.slash(w.channel, "cancel", match=first.id))
    assert withdrawn.ephemeral and "Challenge cancelled" in withdrawn.content
    assert (await w.service.get_match(first.id)).status is MatchStatus.CANCELLED


async def test_challenges_off_for_now_and_on_again(world: World) -> None:
    w = world
    off = reply(await w.alice.slash(w.channel, "block", challenges="off"))
    assert off.ephemeral and "You take no challenges for now" in off.content
    both = reply(await w.alice.slash(w.channel, "block", player=w.bob, challenges="on"))
    assert both.ephemeral and "alone" in both.content
    listed = reply(await w.alice.slash(w.channel, "block"))
    assert "You block nobody" in listed.content and "takes them again" in listed.content
    refused = reply(await w.bob.slash(w.channel, "challenge", game="damas",
                                      opponent=w.alice))
    assert refused.ephemeral and "takes no challenges for now" in refused.content
    on = reply(await w.alice.slash(w.channel, "block", challenges="on"))
    assert "You take challenges again." in on.content
    assert await w.service.challenges_on(w.alice.id)
