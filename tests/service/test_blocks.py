"""Blocks and the bound on waiting challenges (``service.blocks``), on every store: a
blocked user's challenges, continued games, rematches, joins and follows are refused the
blocker, in every server; his waiting challenges are declined when the block is made;
tournaments and live matches go on; one person has at most ``MAX_WAITING`` challenges
waiting in a server, one per person and game."""

from __future__ import annotations

from pathlib import Path

import pytest

from locales.i18n import people_mentions, render
from service import ChallengeClosed, MatchService, MatchStatus
from service.blocks import MAX_WAITING
from service.computer_seats import computer_user
from service.errors import InvalidOption, NotAllowed
from tests.service.conftest import ALICE, BOB, CAROL, CHANNEL, DAVE, GUILD, Recorder

OTHER_GUILD = GUILD + 1
RECORD = Path(__file__).parents[1] / "rules" / "records" / "liu-dianzhong-liu-dahua-1997.wxf"


async def test_a_blocked_users_challenges_are_refused_and_his_waiting_one_declined(
        service: MatchService, recorder: Recorder) -> None:
    waiting = await service.challenge(GUILD, CHANNEL, BOB, "xiangqi", opponents=[ALICE])
    elsewhere = await service.challenge(OTHER_GUILD, CHANNEL, BOB, "damas",
                                        opponents=[ALICE])
    mine = await service.challenge(GUILD, CHANNEL, ALICE, "damas", opponents=[BOB])
    live = await service.accept((await service.challenge(
        GUILD, CHANNEL, BOB, "alquerque", opponents=[ALICE])).id, ALICE)
    made = await service.block(ALICE, BOB)
    assert made.new and made.declined == (waiting.id, elsewhere.id)
    assert (await service.get_match(waiting.id)).status is MatchStatus.DECLINED
    closed = [e for e in recorder.of(ChallengeClosed) if isinstance(e, ChallengeClosed)]
    assert [(e.match.id, e.reason) for e in closed] == [(waiting.id, "declined"),
                                                         (elsewhere.id, "declined")]
    # her own challenge to him stays hers; the live match goes on
    assert (await service.get_match(mine.id)).status is MatchStatus.OPEN
    assert (await service.get_match(live.id)).status is MatchStatus.ACTIVE
    for guild in (GUILD, OTHER_GUILD):  # in every server
        with pytest.raises(NotAllowed, match="does not take challenges from you"):
            await service.challenge(guild, CHANNEL, BOB, "querni", opponents=[ALICE])
    # others still challenge her, and she him
    await service.challenge(GUILD, CHANNEL, CAROL, "querni", opponents=[ALICE])
    await service.challenge(GUILD, CHANNEL, ALICE, "querni", opponents=[BOB])
    assert not (await service.block(ALICE, BOB)).new
    assert await service.blocked(ALICE) == [BOB] and await service.blocked(BOB) == []
    assert await service.unblock(ALICE, BOB) and not await service.unblock(ALICE, BOB)
    await service.challenge(GUILD, CHANNEL, BOB, "querni", opponents=[ALICE])


async def test_a_blocked_user_cannot_join_rematch_continue_or_follow(
        service: MatchService) -> None:
    open_one = await service.challenge(GUILD, CHANNEL, ALICE, "xiangqi")
    lobby = await service.challenge(GUILD, CHANNEL, CAROL, "alquerque-grande",
                                    options={"players": 4, "mode": "teams"})
    await service.join(lobby.id, ALICE)
    played = await service.accept((await service.challenge(
        GUILD, CHANNEL, BOB, "xiangqi", opponents=[ALICE])).id, ALICE)
    await service.resign(played.id, ALICE)
    await service.follow(GUILD, BOB, player=ALICE)
    await service.block(ALICE, BOB)
    assert await service.follows(GUILD, BOB) == []  # his follow of her ended
    for joining in (open_one.id, lobby.id):
        with pytest.raises(NotAllowed, match="so you cannot join match"):
            await service.join(joining, BOB)
    with pytest.raises(NotAllowed, match="does not take challenges from you"):
        await service.rematch(played.id, BOB)
    with pytest.raises(NotAllowed, match="cannot be followed by you"):
        await service.follow(GUILD, BOB, player=ALICE)
    imported = (await service.import_record(GUILD, CHANNEL, CAROL, RECORD.read_bytes())).match
    with pytest.raises(NotAllowed, match="does not take challenges from you"):
        await service.continue_import(GUILD, CHANNEL, BOB, imported.id, [ALICE])
    await service.join(open_one.id, CAROL)  # anyone else still joins
    rematch = await service.rematch(played.id, ALICE)  # she may still ask him
    assert (await service.accept(rematch.id, BOB)).status is MatchStatus.ACTIVE
    with pytest.raises(InvalidOption, match="yourself"):
        await service.block(ALICE, ALICE)
    with pytest.raises(InvalidOption, match="computer"):
        await service.block(ALICE, computer_user(3))


async def test_a_tournament_pairs_the_blocked_and_the_blocker_all_the_same(
        service: MatchService) -> None:
    await service.block(ALICE, BOB)
    t = await service.create_tournament(GUILD, CHANNEL, CAROL, "xiangqi", fmt="rr")
    for user in (ALICE, BOB):
        await service.join_tournament(t.id, user)
    await service.start_tournament(t.id, CAROL)
    live = await service.active_matches_of(GUILD, BOB)
    assert [sorted(m.players()) for m in live] == [[ALICE, BOB]]


async def test_waiting_challenges_are_bounded_per_server_and_per_person_and_game(
        service: MatchService) -> None:
    first = await service.challenge(GUILD, CHANNEL, ALICE, "xiangqi", opponents=[BOB])
    with pytest.raises(NotAllowed, match=f"waits for an answer already .match #{first.id}"):
        await service.challenge(GUILD, CHANNEL, ALICE, "xiangqi", opponents=[BOB])
    await service.challenge(GUILD, CHANNEL, ALICE, "damas", opponents=[BOB])
    await service.challenge(GUILD, CHANNEL, ALICE, "xiangqi", opponents=[CAROL])
    while len([m for m in await service.games_of(GUILD, ALICE)
               if m.status.is_waiting]) < MAX_WAITING:
        await service.challenge(GUILD, CHANNEL, ALICE, "querni")  # open ones count too
    with pytest.raises(NotAllowed, match=f"you have {MAX_WAITING} challenges waiting") as e:
        await service.challenge(GUILD, CHANNEL, ALICE, "alquerque", opponents=[DAVE])
    assert f"#{first.id}" in str(e.value) and "/cancel" in str(e.value)
    await service.challenge(OTHER_GUILD, CHANNEL, ALICE, "alquerque", opponents=[DAVE])
    await service.cancel(first.id, ALICE)  # withdrawn: room for one more
    await service.challenge(GUILD, CHANNEL, ALICE, "xiangqi", opponents=[BOB])


async def test_challenges_off_for_now_refuses_direct_ones_only(service: MatchService) -> None:
    waiting = await service.challenge(GUILD, CHANNEL, BOB, "xiangqi", opponents=[ALICE])
    assert await service.challenges_on(ALICE)
    assert await service.set_challenges(ALICE, False)
    assert not await service.set_challenges(ALICE, False)
    assert not await service.challenges_on(ALICE) and await service.blocked(ALICE) == []
    for guild in (GUILD, OTHER_GUILD):
        with pytest.raises(NotAllowed, match="takes no challenges for now"):
            await service.challenge(guild, CHANNEL, CAROL, "damas", opponents=[ALICE])
    # what waits for her stays hers to answer; her open challenge is joined; she is
    # followed; she still challenges
    assert (await service.accept(waiting.id, ALICE)).status is MatchStatus.ACTIVE
    open_one = await service.challenge(GUILD, CHANNEL, ALICE, "damas")
    assert (await service.join(open_one.id, CAROL)).status is MatchStatus.ACTIVE
    await service.follow(GUILD, CAROL, player=ALICE)
    assert await service.set_challenges(ALICE, True)
    await service.challenge(GUILD, CHANNEL, CAROL, "damas", opponents=[ALICE])


async def test_a_refusal_names_a_blocker_nobody_has_seen_as_discord_can(
        service: MatchService) -> None:
    """Alice's name was never seen where Bob is refused: Discord names her by her
    mention (it shows her name; the refusal is a private reply, which pings nobody),
    other media in neutral words."""
    await service.block(ALICE, BOB)
    with pytest.raises(NotAllowed) as refused:
        await service.challenge(OTHER_GUILD, CHANNEL, BOB, "querni", opponents=[ALICE])
    with people_mentions():
        assert render(refused.value.text, "de") == \
            f"<@{ALICE}> nimmt keine Herausforderungen von dir an"
    assert render(refused.value.text, "en-US") == \
        "that player does not take challenges from you"
