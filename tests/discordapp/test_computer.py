"""Playing the computer in Discord: ``/challenge computer:``, ``/fill`` for a lobby; the
computer is named, never mentioned, and answers; naming the bot itself as the opponent
(``/challenge @Tablero``) plays the computer too."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path
from typing import Any

import pytest

from bot.computer import InlineMovePicker
from bot.discordapp import TableroBot, create_bot
from service.computer import DEFAULT_LEVEL
from service.computer_seats import computer_user, is_computer
from tests.discordapp.conftest import SHARDS, SWEEP_SECONDS, DiscordClock, World
from tests.discordapp.helpers import buttons, post_text, reply


@pytest.fixture
def simcord_bot(tmp_path: Path, repository: Any) -> TableroBot:
    """The bot with an in-process computer player (small node budgets: fast tests)."""
    return create_bot(repository, DiscordClock(), renderer=None,
                      database=tmp_path / "tablero.db", sweep_seconds=SWEEP_SECONDS,
                      rng=random.Random(1), shard_count=SHARDS,
                      picker=InlineMovePicker(nodes=150))


async def settle(w: World) -> None:
    """Let the computer's turns and the posts about them finish."""
    for _ in range(5):
        await w.service.computers_idle()
        await asyncio.sleep(0.05)


async def delivered(w: World) -> None:
    """The computer's turns played and every post about them out (no waiting)."""
    cog: Any = w.bot.get_cog("Deliveries")
    for _ in range(2):
        await w.service.computers_idle()
        await cog.notifier.drain()


def texts(channel: Any) -> str:
    out = []
    for m in channel.history():
        out.append(m.content or "")
        out += [(e.description or "") + (e.title or "") for e in m.embeds]
    return "\n".join(out)


async def test_challenge_the_computer_it_moves_first_and_is_named(world: World) -> None:
    w = world
    result = await w.alice.slash(w.channel, "challenge", game="xiangqi", computer=True,
                                 level=3, seat=1)
    assert result.ephemeral
    await settle(w)
    (thread,) = w.channel.threads
    match = await w.service.match_in_thread(thread.id)
    assert match is not None and not match.rated
    assert match.ply == 1 and match.to_move == (w.alice.id,)
    assert computer_user(3) in [s.user_id for s in match.seats]
    posted = texts(thread) + texts(w.channel)
    assert "Tablero level 3" in posted
    assert f"<@{computer_user(3)}>" not in posted  # the computer is named, never mentioned
    turn = thread.last_message  # the card (issue 42): its seats rated or not
    said = post_text(turn)
    assert "**Red**: Tablero level 3 · not rated (computer)" in said
    assert f"▶ **Black**: {w.alice.mention} · no rating yet" in said
    await w.alice.slash(thread, "move", move=(await w.alice.autocomplete(
        thread, "move", "move", ""))[0]["value"])
    await settle(w)
    assert all("Take back" not in [b.label for b in buttons(m)]  # it answers no request
               for m in thread.history())


async def test_a_lobby_filled_with_computers_begins(world: World) -> None:
    w = world
    await w.alice.slash(w.channel, "challenge", game="alquerque-grande:players=4,mode=teams")
    lobbies = await w.service.open_challenges(w.guild.id)
    (lobby,) = lobbies
    answer = await w.alice.slash(w.channel, "fill", level=2)
    assert answer.ephemeral
    await settle(w)
    m = await w.service.get_match(lobby.id)
    assert m.status.value == "active" and not m.rated
    assert sum(1 for s in m.seats if is_computer(s.user_id)) == 3
    # the start post names the three: no post of each join came after it, as "Tablero
    # level 2 joined the Alquerque grande lobby (2/4)" and "(3/4)" under it did
    said = [post_text(p) for p in w.channel.history()]
    assert not any("joined the Alquerque grande lobby" in s for s in said)
    # the lobby's post said "(3 days per move, rated)": its closing line says casual
    assert said[0].endswith("\n✅ The lobby is full: the match has started, casual (it "
                            "has computer players).")
    assert "started: " in said[-2] and "Tablero level 2" in said[-2]  # then its thread
    # three computers at one level: each has a name of its own (all three were "Tablero
    # (level 2)", and the teams line could not tell them apart)
    assert all(f"{name}," in said[-2] or f"{name} " in said[-2] or f"{name}\n" in said[-2]
               for name in ("Tablero level 2", "Tablero 2 level 2", "Tablero 3 level 2")), \
        said[-2]


async def test_stats_show_games_against_the_computer(world: World) -> None:
    w = world
    await w.alice.slash(w.channel, "challenge", game="damas", computer=True, level=1,
                        seat=0)
    await settle(w)
    (thread,) = w.channel.threads
    await w.alice.slash(thread, "move", move="d3-c4")  # two plies: a resignation counts
    await settle(w)
    await w.alice.slash(thread, "resign")
    await settle(w)
    result = await w.alice.slash(w.channel, "stats")
    embed = (result.followups[-1] if result.followups else result.response).embeds[0]
    (field,) = [f for f in embed.fields if f.name == "Against the computer (casual)"]
    assert field.value == "0W 1L 0D"


async def test_hint_is_private_and_names_a_legal_move(world: World) -> None:
    w = world
    await w.alice.slash(w.channel, "challenge", game="alquerque", computer=True, level=2,
                        seat=0)
    await settle(w)
    (thread,) = w.channel.threads
    result = await w.alice.slash(thread, "hint")
    assert result.ephemeral
    text = (result.followups[-1] if result.followups else result.response).content
    assert text.startswith("Hint: `")


def bot_as_option(w: World, monkeypatch: pytest.MonkeyPatch) -> Any:
    """The bot's own user as a slash-command option value, with the member entry
    Discord resolves for it (the bot is a member of the guild). SimCord resolves a
    ``UserHandle`` as a bare user, so its resolver is extended for this one handle: the
    payload then has the bot's id in ``resolved.users`` and ``resolved.members``, as
    Discord sends it when someone picks the bot in the user option."""
    from simcord import interactions
    from simcord.backend import serializers
    from simcord.builders import UserHandle

    backend = w.env.backend
    me = UserHandle(w.env, backend.bot_user)
    plain = interactions.resolve_handle

    def resolve(actor: Any, value: Any, resolved: dict[str, dict[str, Any]], *,
                channel_id: int) -> None:
        plain(actor, value, resolved, channel_id=channel_id)
        if value is me:
            guild = backend.get_guild(w.guild.id)
            resolved.setdefault("members", {})[str(me.id)] = dict(
                serializers.member_payload(backend, guild, guild.members[me.id],
                                           with_user=False))

    monkeypatch.setattr(interactions, "resolve_handle", resolve)
    return me


async def test_naming_the_bot_itself_starts_a_computer_game(
        world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    """``/challenge @Tablero xiangqi``: the bot user as the opponent is the computer at
    the default level, casual, and it answers (here it plays Red: alice chose Black)."""
    w = world
    me = bot_as_option(w, monkeypatch)
    assert me.id == w.bot.user.id and me.bot
    result = await w.alice.slash(w.channel, "challenge", game="xiangqi", opponent=me, seat=1)
    assert result.ephemeral
    await settle(w)
    (thread,) = w.channel.threads
    match = await w.service.match_in_thread(thread.id)
    assert match is not None and not match.rated
    assert computer_user(DEFAULT_LEVEL) in [s.user_id for s in match.seats]
    assert me.id not in [s.user_id for s in match.seats]
    assert match.ply == 1 and match.to_move == (w.alice.id,)
    assert f"Tablero level {DEFAULT_LEVEL}" in texts(thread) + texts(w.channel)


# drawing the graph, the sheet and the GIF takes seconds of wall time on a loaded 2-core
# machine: SimCord's default 5 s deadline for the bot to settle failed it there
@pytest.mark.simcord(settle_timeout=30.0)
async def test_analysis_draws_the_marked_moves_on_the_replay(world: World) -> None:
    """After a finished game: the costliest moves as text, the graph of the evaluation,
    a sheet of the boards before them with the move played and the better move as
    arrows, and the replay with them framed in red, all in the reply."""
    import io

    from PIL import Image

    from render.replay import BETTER_ARROW, PLAYED_ARROW
    from tests.discordapp.helpers import reply, start_match
    from tests.service.conftest import finishing_game

    w = world
    moves = finishing_game("damas", {}, 3)
    assert moves
    match, thread = await start_match(w, w.alice, w.bob, "damas", seat=0)
    for i, text in enumerate(moves):
        await w.service.move(match.id, (w.alice.id, w.bob.id)[i % 2], text)
    result = reply(await w.alice.slash(thread, "analysis", match=match.id))
    assert result.ephemeral
    lines = result.content.splitlines()
    assert 1 <= len(lines) <= 3 and all(line.startswith("Move ") for line in lines)
    marked = [int(line.split(",")[0].removeprefix("Move ")) for line in lines]
    assert all(", alice: `" in line or ", bob: `" in line for line in lines)
    assert all("; better `" in line for line in lines)
    graph, sheet, replay = result.attachments
    assert graph.filename == f"analysis-{match.id}-graph.png"  # issue 42: the graph
    assert (graph.description or "").startswith(
        f"Spanish draughts, match {match.id}: the analysis: the engine's evaluation after "
        "each of ")
    assert f"Marked: move{'s' if len(marked) > 1 else ''} " \
        f"{', '.join(map(str, sorted(marked)))}." in (graph.description or "")
    drawn = Image.open(io.BytesIO(await graph.read()))
    assert (drawn.width, drawn.height) == (800, 460)
    assert sheet.filename == f"analysis-{match.id}.png"
    assert replay.filename == f"analysis-{match.id}.gif"
    assert all(f"Move {n}, " in (sheet.description or "") for n in marked)
    board = Image.open(io.BytesIO(await sheet.read())).convert("RGB")
    colours = {c for _n, c in board.getcolors(1 << 20) or []}
    assert PLAYED_ARROW in colours and BETTER_ARROW in colours
    red = (200, 40, 36)  # the frame round each marked board
    assert sum(board.getpixel((x, board.height // 2)) == red for x in range(board.width)) \
        == 2 * 4 * len(marked)  # two edges of every board, four pixels wide at this size
    gif = Image.open(io.BytesIO(await replay.read()))
    framed = []
    for frame in range(gif.n_frames):
        gif.seek(frame)
        if gif.convert("RGB").getpixel((1, gif.height // 2)) == red:
            framed.append(frame)
    assert framed == sorted(marked)  # frame n shows the position after move n


def test_stats_say_in_how_many_games_against_the_computer_hints_were_taken() -> None:
    """Issue 38, item 18: the /stats embed's computer field adds the games with hints."""
    from bot.discordapp.embeds import stats_embed
    from service.views import PlayerStats

    plain = PlayerStats(1, 2, (), (), 0, against_computer=(2, 0, 1))
    hinted = PlayerStats(1, 2, (), (), 0, against_computer=(2, 0, 1), with_hints=2)
    field = stats_embed(plain, {}, "en-US").fields[0].value or ""
    assert "Hints" not in field
    assert stats_embed(hinted, {}, "en-US").fields[0].value == \
        field + "\nHints taken in 2 of them."
    assert "2 davon Tipps" in (stats_embed(hinted, {}, "de").fields[0].value or "")


async def test_a_four_player_lobby_with_the_computer_asks_nobody_to_accept(
        world: World) -> None:
    """``/challenge computer:True`` of a four-player game opens a lobby the computer has
    joined at once: the post asks people to join the open seats, never the computer to
    accept (it was "Tablero level 5: alice challenges you", with Accept and Decline)."""
    w = world
    await w.alice.slash(w.channel, "challenge", game="alquerque-grande:players=4,mode=teams",
                        computer=True)
    await settle(w)
    (lobby,) = await w.service.open_challenges(w.guild.id)
    assert lobby.invited == () and len(lobby.joined) == 2
    posts = [m for m in w.channel.history() if "Alquerque grande" in post_text(m)]
    asked = next(m for m in posts if "looking for players" in post_text(m))
    assert "challenges you" not in post_text(asked)
    assert [b.label for b in buttons(asked)] == ["Join", "Cancel"]
    said = "\n".join(post_text(m) for m in posts)
    assert "Tablero level 5 joined the Alquerque grande lobby (2/4)." in said
    assert "challenges you" not in said and "Accept" not in \
        [b.label for m in posts for b in buttons(m)]


async def test_the_result_of_a_game_against_the_computer_offers_a_rematch(
        world: World) -> None:
    """A computer match's result post has Rematch (it had no button): clicked, the
    rematch begins at once in a thread of its own, colours swapped at the same level,
    and the result's row closes with it, as a human rematch accepted closes it; clicked
    again, the answer names it."""
    w = world
    await w.alice.slash(w.channel, "challenge", game="alquerque", computer=True, level=2,
                        seat=0)
    await delivered(w)
    (thread,) = w.channel.threads
    old = await w.service.match_in_thread(thread.id)
    assert old is not None
    await w.alice.slash(thread, "resign")
    await delivered(w)
    (result,) = [m for m in thread.history() if "Rematch" in [b.label for b in buttons(m)]]
    clicked = await w.alice.click(result, label="Rematch")
    await delivered(w)
    said = reply(clicked)
    assert said.ephemeral
    rematch = await w.service.repository.rematch_of(old.id)
    assert rematch is not None
    new = await w.service.get_match(rematch)
    assert new.status.value == "active" and not new.rated
    assert new.seat_of(w.alice.id) == 1 and new.seat_of(computer_user(2)) == 0
    assert said.content == "Your casual match against Tablero level 2 begins in " \
        f"<#{new.thread_id}> (match {new.id})."
    assert new.thread_id in [t.id for t in w.channel.threads]
    shown = next(m for m in thread.history() if m.id == result.id)
    assert buttons(shown) == [] and shown.content.splitlines()[-1] == \
        f"🔁 Rematch started: match #{new.id}."
    assert "challenges" not in texts(w.channel)  # nobody was asked to accept
    again = await w.alice.slash(thread, "rematch")
    assert reply(again).content == \
        f"A rematch of match #{old.id} is already under way: match #{new.id}."
