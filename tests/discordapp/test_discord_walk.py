"""What a demanding new player and a new server admin tripped over in Discord, through
SimCord: each test is one thing they met, walked as they would."""

from __future__ import annotations

import discord
import pytest

from tests.discordapp.conftest import World
from tests.discordapp.helpers import (
    mention,
    pinged,
    post_text,
    reply,
    result_post,
    start_four_player_match,
    start_match,
)
from tests.discordapp.languages import speaking

HOUR = 3600.0
ARRANGEMENT = " ".join(str(n) for n in range(1, 17))


async def test_the_last_arrangement_handed_in_waits_for_nobody(world: World) -> None:
    """Querni choose: the second arrangement begins the game; its post said "Waiting for
    @alice" (who had handed hers in first, and now simply moves) and "kept hidden until
    both have" when both were in."""
    w = world
    _m, thread = await start_match(w, w.alice, w.bob, game="querni:setup=choose", seat=0)
    handed = reply(await w.alice.slash(thread, "setup", arrangement=ARRANGEMENT))
    assert "stays hidden from your opponent until both have submitted" in handed.content
    first = post_text(thread.last_message)
    assert "kept hidden until both have" in first and f"Waiting for {w.bob.mention}" in first
    before = len(thread.history())
    done = reply(await w.bob.slash(thread, "setup", arrangement=ARRANGEMENT))
    assert done.ephemeral
    assert done.content == "Arrangement submitted: both are in, and the game begins."
    said, turn = thread.history()[before:]
    assert post_text(said) == (f"{w.bob.mention} submitted an arrangement: both are in, "
                               "and the game begins.")
    assert post_text(turn).startswith(f"{w.alice.mention}, your move")


async def test_a_teams_thread_is_named_by_its_teams(world: World) -> None:
    """A teams match's thread read "dave vs alice vs carol vs bob" (every man for
    himself) beside the post above it saying "@dave and @carol vs @alice and @bob"."""
    w = world
    m, thread = await start_four_player_match(w)
    names = {a.id: a.name for a in (w.alice, w.bob, w.carol, w.dave)}
    (one, two), (three, four) = m.sides()
    assert thread.name == (f"Alquerque grande: {names[one]} and {names[two]} vs "
                           f"{names[three]} and {names[four]}")
    await w.alice.slash(w.channel, "challenge", game="alquerque-grande:players=4,mode=fast",
                        opponent=w.bob, opponent2=w.carol, opponent3=w.dave)
    lobby = w.channel.last_message
    for actor in (w.bob, w.carol, w.dave):
        await actor.click(lobby, label="Accept")
    fast = await w.service.match_in_thread(w.channel.threads[-1].id)
    assert fast is not None and fast.id != m.id
    order = " vs ".join(names[u] for u in fast.players())
    assert w.channel.threads[-1].name == f"Alquerque grande: {order}"


async def test_the_match_menu_offers_the_matches_waiting_on_you_first(world: World) -> None:
    """With more live matches than Discord's 25 choices, the `match` option listed the
    newest first and left out an older one waiting on the player, whose move it is."""
    w = world
    waiting = await w.service.challenge(w.guild.id, w.channel.id, w.bob.id, "xiangqi",
                                        opponents=[w.alice.id], seat=1)
    await w.service.accept(waiting.id, w.alice.id)
    for n in range(26):  # alice plays black in these: not her move
        rival = w.guild.add_member(w.env.create_user(f"rival{n}"))
        m = await w.service.challenge(w.guild.id, w.channel.id, rival.id, "xiangqi",
                                      opponents=[w.alice.id], seat=0)
        await w.service.accept(m.id, w.alice.id)
    choices = await w.alice.autocomplete(w.channel, "move", "match", "")
    assert len(choices) == 25
    assert choices[0]["value"] == waiting.id and choices[0]["name"].endswith("your move")
    assert [c["value"] for c in choices[1:]] == sorted(
        (c["value"] for c in choices[1:]), reverse=True)  # then the newest, as before


async def test_games_with_more_matches_than_fit_says_how_many_more(world: World) -> None:
    """/games cut its list at 4000 characters wherever that fell: mid-line, inside a
    mention or a channel link, and without a word about the matches left out."""
    w = world
    for n in range(45):
        rival = w.guild.add_member(w.env.create_user(f"rival{n}"))
        m = await w.service.challenge(w.guild.id, w.channel.id, rival.id, "xiangqi",
                                      opponents=[w.alice.id], seat=0)
        await w.service.accept(m.id, w.alice.id)
    (embed,) = reply(await w.alice.slash(w.channel, "games")).embeds
    *shown, more = embed.description.split("\n")
    assert len(embed.description) <= 4096
    assert all(line.startswith("`") and line.endswith(">") for line in shown)
    assert more == f"… and {45 - len(shown)} more matches."


async def test_every_player_is_pinged_by_the_result(world: World) -> None:
    """A result post names its players only where the words happen to (the winner, the
    rating lines): a casual game lost on time told its loser nothing, and a match aborted
    by a lapsed clock pinged nobody, the player left waiting included."""
    w = world
    _m, thread = await start_match(w, w.alice, w.bob, seat=0, days=1, rated=False)
    await w.alice.slash(thread, "move", move="h3-e3")
    await w.bob.slash(thread, "move", move="h10-g8")
    await w.env.advance_time(25 * HOUR)
    lost = result_post(thread)
    assert post_text(lost).startswith(f"{w.alice.mention}: {w.bob.mention} won match 1")
    assert sorted(pinged(w, lost)) == sorted([w.alice.id, w.bob.id])
    _m, thread = await start_match(w, w.alice, w.bob, seat=0, days=1)
    await w.alice.slash(thread, "move", move="h3-e3")
    await w.env.advance_time(25 * HOUR)
    aborted = result_post(thread)
    assert post_text(aborted).startswith(
        f"{w.alice.mention} and {w.bob.mention}: Match 2 (Xiangqi) ended: aborted: no "
        "move in time.")
    assert sorted(pinged(w, aborted)) == sorted([w.alice.id, w.bob.id])
    _m, thread = await start_match(w, w.alice, w.bob, seat=0, days=1)
    await w.alice.slash(thread, "move", move="h3-e3")
    await w.bob.slash(thread, "move", move="h10-g8")
    await w.alice.slash(thread, "resign")
    rated = result_post(thread)  # the rating lines name both: nothing added
    assert post_text(rated).startswith(f"{w.bob.mention} won match 3")
    assert sorted(pinged(w, rated)) == sorted([w.alice.id, w.bob.id])


async def test_a_casual_resignation_pings_the_winner_alone(world: World) -> None:
    """The player who resigned was answered: the result pings the other, once (an
    aborted match too)."""
    w = world
    _m, thread = await start_match(w, w.alice, w.bob, seat=0, rated=False)
    await w.alice.slash(thread, "move", move="h3-e3")
    await w.bob.slash(thread, "move", move="h10-g8")
    await w.alice.slash(thread, "resign")
    over = result_post(thread)
    assert post_text(over).startswith(f"{w.bob.mention} won match 1")
    assert pinged(w, over) == [w.bob.id]
    _m, thread = await start_match(w, w.alice, w.bob, seat=0)
    await w.alice.slash(thread, "resign")  # before any move: aborted, said to bob alone
    aborted = thread.last_message
    assert post_text(aborted) == (f"{w.bob.mention}: Match 2 (Xiangqi) ended: aborted: "
                                  "alice (Red) resigned before every player had moved.")
    assert pinged(w, aborted) == [w.bob.id]


async def test_help_tells_a_new_player_how_to_begin(world: World,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """A new player's first command in a fresh server is /help: Tablero had none, so the
    command menu offered nothing of it. It answers privately, in the reader's language,
    with the first steps and the commands by their mentions (which his Discord shows by
    the names it gives them, and a click types in): /help alone named them as "/move" in
    code marks, the one text left outside the mentions' context."""
    w = world
    said = reply(await w.carol.slash(w.channel, "help"))
    assert said.ephemeral
    (embed,) = said.embeds
    text = post_text(said)
    for command in ("challenge", "move", "setup", "games", "board", "history",
                    "draw", "resign", "rules", "stats", "leaderboard", "settings",
                    "tournament create"):
        assert mention(w, command) in text, command
        assert f"`{mention(w, command)}" not in text and f"`/{command}" not in text
    assert "Accept" in text and "your thread" not in text
    assert len(embed.description) <= 4096
    speaking(monkeypatch)[w.carol.id] = "de"
    german = post_text(reply(await w.carol.slash(w.channel, "help")))
    assert mention(w, "move") in german and "Dort bietet" in german
    assert "/herausfordern" not in german and "/ziehen" not in german


async def test_a_four_player_draw_accepted_by_one_says_it_waits_on_the_others(
        world: World) -> None:
    """In a four-player game a draw needs every other player: the first to accept was
    told "You accepted the draw." as if it were agreed."""
    w = world
    m, thread = await start_four_player_match(w, game="alquerque-grande:players=4,mode=fast")
    people = {a.id: a for a in (w.alice, w.bob, w.carol, w.dave)}
    offerer = people[m.to_move[0]]
    await offerer.slash(thread, "draw", action="offer")
    offer = thread.last_message
    first, second, third = [a for a in people.values() if a is not offerer]
    said = reply(await first.click(offer, label="Accept draw"))
    assert said.content == ("You accepted the draw; it is agreed once the other players "
                            "accept too.")
    said = reply(await second.slash(thread, "draw", action="accept"))
    assert said.content.endswith("once the other players accept too.")
    said = reply(await third.click(offer, label="Accept draw"))
    assert said.content == "You accepted the draw."
    assert not (await w.service.get_match(m.id)).status.is_live


async def test_the_explorers_average_rating_says_what_its_number_is(world: World) -> None:
    """The explorer wrote "average rating -1.8" beside a move, with no word of what the
    number is: the leaderboard's (openskill's ordinal, 0 at the start, below 0 after a
    loss), which /leaderboard explains and the explorer did not."""
    w = world
    m = await w.service.challenge(w.guild.id, w.channel.id, w.alice.id, "xiangqi",
                                  opponents=[w.bob.id], seat=0)
    await w.service.accept(m.id, w.bob.id)
    await w.service.move(m.id, w.alice.id, "h3-e3")
    await w.service.move(m.id, w.bob.id, "h10-g8")
    await w.service.resign(m.id, w.alice.id)
    await w.service.explorer_idle()
    (embed,) = reply(await w.carol.slash(w.channel, "explorer", game="xiangqi")).embeds
    lines = embed.description.split("\n")
    assert lines[1].endswith("· average rating -1.8")  # alice's, after her loss
    assert lines[-1] == (
        f"Average rating: of those who played the move in rated games, as "
        f"{mention(w, 'leaderboard')} rates players (the skill estimate minus 3× its "
        "uncertainty: a new player starts at 0 and can go below it).")


async def test_a_swiss_without_rounds_names_the_option_to_give(
        world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    """A new organiser's /tournament create format:swiss was refused "A Swiss needs 1 to
    30 rounds." (he had given none, and nothing said which option takes them)."""
    w = world
    admins = w.guild.create_role("admins", permissions=discord.Permissions(manage_guild=True))
    admin = w.guild.add_member(w.env.create_user("admin"), roles=[admins])
    said = reply(await admin.slash(w.channel, "tournament create", game="damas",
                                   format="swiss"))
    assert said.ephemeral and said.content.startswith(
        "A Swiss is played over a number of rounds you choose: give the rounds option "
        "(1 to 30).")
    speaking(monkeypatch)[admin.id] = "de"
    said = reply(await admin.slash(w.channel, "tournament create", game="damas",
                                   format="swiss"))
    assert "Option runden an" in said.content  # the option as his Discord names it


async def test_a_casual_draw_agreed_before_any_move_says_so(world: World) -> None:
    """A casual match drawn by agreement before every player had moved: the offer closed
    with "🤝 Draw agreed.", then the result post said only "ended: aborted."; it now says
    what happened, as a tournament game's does (still aborted and unrated)."""
    w = world
    m, thread = await start_match(w, w.alice, w.bob, seat=0, rated=False)
    await w.alice.slash(thread, "draw", action="offer")
    await w.bob.slash(thread, "draw", action="accept")
    said = post_text(thread.last_message)  # no move: no replay follows it
    assert said == (f"{w.alice.mention} and {w.bob.mention}: Match 1 (Xiangqi) ended: "
                    "aborted: draw agreed before every player had moved.")
    assert (await w.service.get_match(m.id)).status.value == "aborted"
