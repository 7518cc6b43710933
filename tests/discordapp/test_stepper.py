"""The replay stepper in Discord (issue 42, SimCord): ⏮ ◀ ▶ ⏭ under a finished match's
replay post open a private stepper; its buttons edit that one message, before and after a
restart; ``/board ply:K`` opens one on a live match; ``/history`` carries the buttons."""

from __future__ import annotations

from typing import Any

from tests.discordapp.conftest import World, make_bot, make_repository
from tests.discordapp.helpers import reply, start_match

MOVES = ("h3-e3", "h8-e8", "h1-g3", "h10-g8")


def step_ids(message: Any) -> dict[str, tuple[str, bool]]:
    """The stepper buttons under ``message``: emoji -> (custom id, disabled)."""
    out = {}
    for row in message.components:
        items = row["components"] if isinstance(row, dict) else row.children
        for c in items:
            emoji = c["emoji"]["name"] if isinstance(c, dict) else str(c.emoji)
            cid = c["custom_id"] if isinstance(c, dict) else c.custom_id
            disabled = c.get("disabled", False) if isinstance(c, dict) else c.disabled
            if cid.startswith("tablero:st"):
                out[emoji] = (cid, bool(disabled))
    return out


async def step(actor: Any, message: Any, emoji: str) -> Any:
    return await actor.click(message, custom_id=step_ids(message)[emoji][0])


async def restart(w: World) -> Any:
    repository = await make_repository(w.tmp_path / "tablero.db")
    fresh = make_bot(w.tmp_path, repository)
    await w.env.restart_bot(fresh)
    w.bot = fresh
    return repository


async def finished_game(w: World) -> tuple[Any, Any]:
    match, thread = await start_match(w, w.alice, w.bob, seat=0)
    for i, move in enumerate(MOVES):
        await (w.alice if i % 2 == 0 else w.bob).slash(thread, "move", move=move)
    await w.alice.slash(thread, "resign")
    return match, thread


async def test_step_a_finished_game_to_its_ends_and_back_across_a_restart(
        world: World) -> None:
    w = world
    match, thread = await finished_game(w)
    replay_post = thread.last_message
    assert replay_post.content.startswith(f"Replay of match {match.id}")
    buttons = step_ids(replay_post)
    assert list(buttons) == ["⏮", "◀", "▶", "⏭"]
    # the post shows the end (5 plies: four moves and the resignation)
    assert [d for _cid, d in buttons.values()] == [False, False, True, True]

    opened = await step(w.carol, replay_post, "⏮")  # anyone in the server may step
    first = reply(opened)
    assert opened.acknowledged and first.ephemeral
    assert first.embeds[0].description == "Start position (4 moves played)"
    assert first.embeds[0].footer.text == "Record entry 0 of 5"
    assert [a.filename for a in first.attachments] == ["ply.png"]
    assert first.attachments[0].description.startswith("Xiangqi")
    assert [d for _cid, d in step_ids(first).values()] == [True, True, False, False]

    last = await step(w.carol, first, "⏭")
    assert last.response is not None and last.response.id == first.id  # edited in place
    assert not last.followups
    ended = last.response
    # the resignation is the record's fifth entry, but no move
    assert ended.embeds[0].description == "After move 4 of 4: Red resigns"
    assert ended.embeds[0].footer.text == "Record entry 5 of 5"
    assert [a.filename for a in ended.attachments] == ["ply.png"]
    assert [d for _cid, d in step_ids(ended).values()] == [False, False, True, True]

    repository = await restart(w)  # the stepper outlives the process
    back = (await step(w.carol, ended, "◀")).response
    assert back.id == first.id
    assert back.embeds[0].description.startswith("After move 4 of 4: bob played **h10-g8")
    start = (await step(w.carol, back, "⏮")).response
    assert start.embeds[0].description == "Start position (4 moves played)"
    again = (await step(w.carol, start, "▶")).response
    assert again.embeds[0].description == "After move 1 of 4: alice played **h3-e3 (C2.5)**"
    await repository.close()


async def test_board_with_a_ply_steps_a_live_match_and_history_opens_it(world: World) -> None:
    w = world
    _match, thread = await start_match(w, w.alice, w.bob, seat=0)
    for i, move in enumerate(MOVES[:3]):
        await (w.alice if i % 2 == 0 else w.bob).slash(thread, "move", move=move)
    shown = reply(await w.bob.slash(thread, "board", ply=2))
    assert shown.ephemeral
    assert shown.embeds[0].description == "After move 2 of 3: bob played **h8-e8 (C8.5)**"
    assert shown.attachments[0].filename == "ply.png"
    # bob plays Black: his stepper shows the board from his side, as his /board does
    assert "seen from Black" in shown.attachments[0].description
    latest = (await step(w.bob, shown, "⏭")).response
    assert latest.embeds[0].description.startswith("After move 3 of 3: alice played **h1-g3")

    await w.bob.slash(thread, "move", move=MOVES[3])  # the game moves on: ⏭ follows it
    newest = (await step(w.bob, latest, "⏭")).response
    assert newest.embeds[0].description.startswith("After move 4 of 4: bob played **h10-g8")

    beyond = reply(await w.bob.slash(thread, "board", ply=9))
    assert beyond.ephemeral and "plies 0 to 4" in beyond.content and "no ply 9" in \
        beyond.content
    history = reply(await w.alice.slash(thread, "history"))
    assert list(step_ids(history)) == ["⏮", "◀", "▶", "⏭"]
    opened = reply(await step(w.alice, history, "▶"))
    assert opened.id != history.id  # the history reply keeps its files
    assert opened.embeds[0].description.startswith("After move 1 of 4: alice played")


async def test_a_foreign_server_cannot_step_a_match(world: World) -> None:
    w = world
    match, _thread = await finished_game(w)
    other = w.env.create_guild("Elsewhere")
    channel = other.create_text_channel("games")
    stranger = other.add_member(w.env.create_user("eve"))
    refused = reply(await stranger.slash(channel, "board", match=match.id, ply=1))
    assert refused.ephemeral and f"no match #{match.id}" in refused.content
    assert not refused.attachments


async def test_the_steppers_players_show_ratings_only_while_the_match_is_live(
        world: World) -> None:
    """A finished game's plies are shown as if it went on, but its seats' ratings are
    today's (its end moved them): none at any ply; a live match's plies show them."""
    w = world
    _match, thread = await finished_game(w)  # rated: both players have a rating now
    stepper = reply(await step(w.carol, thread.last_message, "⏮"))
    seen = []
    for ply in range(6):  # the start, then each ply: the message is edited in place
        seen.append((stepper.embeds[0].description, stepper.embeds[0].fields[0].value))
        if ply < 5:
            stepper = (await step(w.carol, stepper, "▶")).response
    assert [said.split(":")[0] for said, _p in seen] == [
        "Start position (4 moves played)", *(f"After move {n} of 4" for n in (1, 2, 3, 4, 4))]
    for _said, players in seen:
        assert f"**Red**: {w.alice.mention}" in players and "rating" not in players

    _live, live_thread = await start_match(w, w.alice, w.bob, rated=False, seat=0)
    await w.alice.slash(live_thread, "move", move=MOVES[0])
    stepped = reply(await w.bob.slash(live_thread, "board", ply=0))
    players = stepped.embeds[0].fields[0].value
    # ply 0: Red to move, as it stood then (today Black is)
    assert f"▶ **Red**: {w.alice.mention} · rating -" in players  # she resigned the rated one
    assert f"\n**Black**: {w.bob.mention} · rating " in players  # a casual game: shown too


async def test_a_querni_set_up_ply_says_why_its_board_is_bare() -> None:
    """The stepper's embed at a set-up ply (Querni ``setup:choose``): its board is bare by
    the rules, and the description says who still arranges and why."""
    import random

    from bot.discordapp.cogs.replays import ply_embed
    from service import MatchService
    from storage import MemoryRepository
    from tests.service.conftest import ALICE, BOB, CHANNEL, GUILD, Recorder, SetClock

    svc = MatchService(MemoryRepository(), Recorder(), SetClock(), rng=random.Random(1),
                       names=lambda g, u: {ALICE: "alice", BOB: "bob"}.get(u, ""))
    m = await svc.challenge(GUILD, CHANNEL, ALICE, "querni", opponents=[BOB],
                            options={"setup": "choose"}, seat=0)
    await svc.accept(m.id, BOB)
    await svc.submit_setup(m.id, BOB, " ".join(str(n) for n in range(1, 17)))
    embed = ply_embed(await svc.board_at(m.id, 0), None, "de")
    assert embed.description == (
        "Anfangsstellung (0 Züge gespielt)\nalice (Blau) und bob (Rosa) ordnen ihre "
        "Steine an; kein Stein steht auf dem Brett, bis beide Aufstellungen da sind")
    await svc.submit_setup(m.id, ALICE, " ".join(str(n) for n in range(1, 17)))
    played = ply_embed(await svc.board_at(m.id, 2), None, "en-US")
    # an arrangement is no move: said as what it is
    assert played.description == ("Set-up, before the first move: "
                                   "**1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16**")
