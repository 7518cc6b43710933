"""Discord announcements of issue 18's rules: Querni's forced pass is played at once and
posted in the match thread; an Alquerque grande ``fast`` game ended by a leaving player
who leads on captures names who left and never says "opponent resigned" about him."""

from __future__ import annotations

from typing import Any

from tests.discordapp.conftest import World
from tests.discordapp.helpers import reply, start_four_player_match, start_match, words
from tests.rules.helpers.querni import FORCED_PASS_BLUE, FORCED_PASS_MOVES, FORCED_PASS_PINK


def bot_texts(thread: Any) -> list[str]:
    return [words(m) for m in thread.history() if m.author.bot]


async def test_a_forced_pass_is_played_and_posted(world: World) -> None:
    w = world
    m, thread = await start_match(w, w.alice, w.bob, "querni:setup=choose", seat=0)
    await w.service.submit_setup(m.id, w.alice.id, " ".join(map(str, FORCED_PASS_BLUE)))
    await w.service.submit_setup(m.id, w.bob.id, " ".join(map(str, FORCED_PASS_PINK)))
    for i, text in enumerate(FORCED_PASS_MOVES[:-1]):
        await w.service.move(m.id, (w.alice.id, w.bob.id)[i % 2], text)
    result = await w.alice.slash(thread, "move", move=FORCED_PASS_MOVES[-1])
    assert "You played" in reply(result).content
    texts = bot_texts(thread)
    notice = (f"⏭ <@{w.bob.id}> can neither move nor remove a chain, so their turn is a pass "
              "(played for them).")
    assert notice in texts
    # then the turn post: Alice's move, and Alice to move again
    after = texts[texts.index(notice) + 1:]
    assert after and f"<@{w.alice.id}>, your move" in after[0]
    assert (await w.service.get_match(m.id)).to_move == (w.alice.id,)


async def test_a_fast_game_ended_by_a_leader_resigning_says_so(world: World) -> None:
    w = world
    m, thread = await start_four_player_match(w, game="alquerque-grande:players=4,mode=fast",
                                              seat=0)
    seats = {s.seat: s.user_id for s in m.seats}
    plays = ["c3-d4", "e3xc3", "d5xd3", "c5-d5", "b2xd4", "e4-e3"]
    for i, text in enumerate(plays):
        await w.service.move(m.id, seats[i % 4], text)
    # Black, to move, leads (one capture like White and Turquoise, more stones): resigning
    # ends the fast game, ranked on captures, and Black wins it (RULES §2.4)
    black = seats[2]
    people = {a.id: a for a in (w.alice, w.bob, w.carol, w.dave)}
    await people[black].slash(thread, "resign")
    m = await w.service.get_match(m.id)
    assert m.result is not None and m.result.reason == "resignation-ranked"
    assert m.result.winners == (black,)
    texts = bot_texts(thread)
    ended = next(t for t in texts if "resigned; the game is ranked on captures" in t)
    assert ended.startswith(f"<@{black}> resigned; the game is ranked on captures. <@{black}> "
                            "won match")
    assert "opponent resigned" not in " ".join(texts)


def test_the_challenge_menu_offers_both_two_player_rule_sets() -> None:
    from bot.discordapp.catalog import find_choice, game_choices
    labels = {c.value: c.label for c in game_choices()}
    assert labels["alquerque-grande:players=2,rules=alquerque"] == \
        "Alquerque grande · 2 players · original rules"
    assert labels["alquerque-grande:players=2,rules=grande"] == \
        "Alquerque grande · 2 players · grande rules"
    assert not any("rules" in v for v in labels if "players=4" in v)
    choice = find_choice("alquerque-grande:players=2,rules=grande")
    assert choice is not None and choice.options == {"players": 2, "rules": "grande"}


async def test_rules_shows_the_two_player_rule_sets_and_picture(world: World) -> None:
    w = world
    answer = reply(await w.carol.slash(w.channel, "rules", game="alquerque-grande"))
    text = answer.embeds[0].description
    assert "Two players play the original Alquerque rules on this board by default" in text
    assert "`rules`: alquerque / grande" in text
    alt = answer.attachments[0].description
    assert "Rules: the original Alquerque rules" in alt
    four = reply(await w.carol.slash(w.channel, "rules", game="alquerque-grande-4"))
    assert "Teams:" in four.attachments[0].description
    querni = reply(await w.carol.slash(w.channel, "rules", game="querni")).embeds[0].description
    assert "You pass only when you can neither move nor remove" in querni
    assert "never passes over the same cell twice" in querni
