"""A 4-player Alquerque grande lobby filling through buttons and played to a result."""

from __future__ import annotations

from bot.boards import replay_frames
from locales.i18n import render
from render.replay import SeatLeft, positions
from tests.discordapp.conftest import World
from tests.discordapp.helpers import (
    FOUR_PLAYER_GAME as GAME,
)
from tests.discordapp.helpers import (
    play_some_moves,
    post_text,
    reply,
    result_post,
    start_four_player_match,
    words,
)


async def test_invited_lobby_fills_and_a_team_resigns(world: World) -> None:
    w = world
    result = await w.alice.slash(w.channel, "challenge", game=GAME, opponent=w.bob,
                                 opponent2=w.carol, opponent3=w.dave)
    assert reply(result).ephemeral
    lobby = w.channel.last_message
    # listed the CLDR way for en-US (the serial comma)
    assert lobby.content.startswith(f"{w.bob.mention}, {w.carol.mention}, and "
                                    f"{w.dave.mention}")
    await w.bob.click(lobby, label="Accept")
    assert "joined" in w.channel.last_message.content and "(2/4)" in \
        w.channel.last_message.content
    outsider = await w.guild.add_member(w.env.create_user("erin")).click(lobby, label="Accept")
    assert reply(outsider).ephemeral and "invited" in reply(outsider).content
    await w.carol.click(lobby, label="Accept")
    await w.dave.click(lobby, label="Accept")
    (thread,) = w.channel.threads
    m = await w.service.match_in_thread(thread.id)
    assert m is not None and m.seat_count == 4 and len(m.players()) == 4
    assert thread.name.startswith("Alquerque grande: ")
    # the game with its options as the game menu says them, whether the match was read
    # back from the database (its options in another order) or not
    title = "Alquerque grande · 4 players · teams"
    assert title in post_text(lobby)
    assert title in post_text(next(iter(thread.history())))
    await play_some_moves(w, thread, m.id, 6)
    m = await w.service.get_match(m.id)
    teams = {s.user_id: s.team for s in m.seats}
    losing_team = teams[w.alice.id]
    people = {a.id: a for a in (w.alice, w.bob, w.carol, w.dave)}
    losers = [people[u] for u, t in teams.items() if t == losing_team]
    winners = {u for u, t in teams.items() if t != losing_team}
    for loser in losers:
        answer = reply(await loser.slash(thread, "resign"))
        assert answer.ephemeral and "resigned" in answer.content
    done = await w.service.get_match(m.id)
    assert done.is_over and done.result is not None
    assert set(done.result.winners) == winners
    end = result_post(thread)
    assert "won" in end.content and all(f"<@{u}>" in end.content for u in winners)
    board = reply(await w.alice.slash(w.channel, "leaderboard",
                                      game="alquerque-grande-4"))
    assert "4 rated players" in board.embeds[0].footer.text


async def test_open_lobby_fills_by_join(world: World) -> None:
    w = world
    await w.alice.slash(w.channel, "challenge", game=GAME)
    lobby = w.channel.last_message
    assert "tablero:join:" in str(lobby.components) and "looking for players" in lobby.content
    for actor in (w.bob, w.carol):
        joined = await actor.click(lobby, label="Join")
        assert reply(joined).ephemeral
    assert w.channel.threads == []
    last = await w.dave.click(lobby, label="Join")
    assert "begins" in reply(last).content
    (thread,) = w.channel.threads
    start = thread.last_message
    m = await w.service.match_in_thread(thread.id)
    assert m is not None and words(start).startswith(f"<@{m.to_move[0]}>")


async def test_a_late_player_is_out_and_the_game_goes_on(world: World) -> None:
    w = world
    m, thread = await start_four_player_match(w)
    await play_some_moves(w, thread, m.id, 4)
    late = (await w.service.get_match(m.id)).to_move[0]
    await w.env.advance_time(25 * 3600)
    texts = [msg.content for msg in thread.history()]
    assert any(t.startswith(f"⏰ <@{late}>") for t in texts)
    assert any(t.startswith(f"<@{late}> ran out of time and is out") for t in texts)
    after = await w.service.get_match(m.id)
    assert not after.is_over and late not in after.to_move
    assert any(s.out for s in after.seats if s.user_id == late)


async def test_on_timeout_skip_skips_the_late_seat_and_says_so(world: World) -> None:
    w = world
    said = reply(await w.alice.slash(w.channel, "challenge",
                                     game="alquerque-grande:players=4,mode=fast",
                                     opponent=w.bob, opponent2=w.carol, opponent3=w.dave,
                                     days=1, on_timeout="skip"))
    assert said.ephemeral and "Challenge posted" in said.content
    lobby = w.channel.last_message
    for actor in (w.bob, w.carol, w.dave):
        await actor.click(lobby, label="Accept")
    (thread,) = w.channel.threads
    m = await w.service.match_in_thread(thread.id)
    assert m is not None and m.on_timeout == "skip"
    await play_some_moves(w, thread, m.id, 4)
    late = (await w.service.get_match(m.id)).to_move[0]
    await w.env.advance_time(25 * 3600)
    texts = [msg.content for msg in thread.history()]
    assert any(t.startswith(f"<@{late}> ran out of time (their turns are skipped for the "
                            "rest of the game; they rank last) and is out; the game goes on")
               for t in texts)
    after = await w.service.get_match(m.id)
    assert not after.is_over and late not in after.to_move
    assert after.skipped_since(late) == 5
    # the replay GIF's frame of the skip says whose turns are skipped
    record = await w.service.record(m.id)
    frames, _frame_of = replay_frames(record)
    (left,) = [f for f in frames if isinstance(f, SeatLeft)]
    seat = after.seat_of(late)
    assert (left.seat, left.how) == (seat, "skip") and frames.index(left) == 4
    colour = record.variant.seat_name(seat, 4)
    caption = positions(record.variant, record.start, frames)[5][3]
    assert caption is not None and render(caption, "en-US") == f"5. {colour} is skipped"
    people = {a.id: a for a in (w.alice, w.bob, w.carol, w.dave)}
    other = people[after.to_move[0]]
    board = reply(await other.slash(thread, "board"))
    assert f"<@{late}> (skipped since move 5)" in post_text(board)
    # the board's count is of moves, as the console's "move 5" and a board's caption
    # ("after 4 moves") count them: the skip is the record's fifth entry but no move (the
    # embed said "Ply 5")
    assert board.embeds[0].fields[1].name == "Move 5"
    games = reply(await other.slash(w.channel, "games"))
    assert f"<@{late}> (skipped since move 5)" in post_text(games)
    own = reply(await people[late].slash(w.channel, "games"))
    assert "your time ran out: your turns are skipped since move 5" in post_text(own)
    refused = reply(await w.alice.slash(w.channel, "challenge", game="xiangqi",
                                        opponent=w.bob, on_timeout="skip"))
    assert refused.ephemeral and "for four-player games" in refused.content
