"""A match from /challenge to the end, through SimCord (the real discord.py code paths)."""

from __future__ import annotations

from typing import Any

from tests.discordapp.conftest import World
from tests.discordapp.helpers import is_turn_post, pinged, post_text, shows_board, words


def bot_messages(channel: Any) -> list[Any]:
    return [m for m in channel.history() if m.author.bot]


async def start_xiangqi(w: World, seat: int | None = 0) -> tuple[Any, Any]:
    """alice (Red, seat 0) challenges bob; bob accepts; returns (match view, thread)."""
    options: dict[str, Any] = {"game": "xiangqi", "opponent": w.bob}
    if seat is not None:
        options["seat"] = seat
    result = await w.alice.slash(w.channel, "challenge", **options)
    assert result.ephemeral
    challenge = w.channel.last_message
    assert w.bob.mention in challenge.content
    assert challenge.mentions and challenge.mentions[0].id == w.bob.id
    accepted = await w.bob.click(challenge, label="Accept")
    assert accepted.ephemeral
    (thread,) = w.channel.threads
    match = await w.service.match_in_thread(thread.id)
    assert match is not None
    return match, thread


async def test_challenge_accept_opens_a_thread_and_pings_the_first_player(world: World) -> None:
    w = world
    match, thread = await start_xiangqi(w)
    assert thread.name == "Xiangqi: alice vs bob"
    first = thread.history()
    board = first[-1]
    assert is_turn_post(board) and "Xiangqi" in post_text(board)
    assert pinged(w, board) == [w.alice.id]
    assert match.to_move == (w.alice.id,)


async def test_moves_post_a_new_message_mentioning_the_next_player(world: World) -> None:
    w = world
    match, thread = await start_xiangqi(w)
    result = await w.alice.slash(thread, "move", move="h3-e3")
    assert result.ephemeral and "h3-e3" in result.followups[-1].content \
        if result.followups else "h3-e3" in result.response.content
    last = thread.last_message
    assert pinged(w, last) == [w.bob.id]
    assert "h3-e3" in words(last)
    # The board image is the post's attachment; its description is the alt text.
    (image,) = last.attachments
    assert image.filename == "board.png" and image.content_type == "image/png"
    assert shows_board(last)
    assert image.description and "Black" in image.description and "to move" in \
        image.description
    after = await w.service.get_match(match.id)
    assert after.ply == 1 and after.to_move == (w.bob.id,)


async def test_illegal_and_foreign_moves_get_ephemeral_errors(world: World) -> None:
    w = world
    match, thread = await start_xiangqi(w)
    before = len(thread.history())
    illegal = await w.alice.slash(thread, "move", move="h3-h9")
    reply = (illegal.followups[-1] if illegal.followups else illegal.response)
    assert reply.ephemeral
    assert "h3-h9" in reply.content or "not" in reply.content.lower()
    foreign = await w.carol.slash(thread, "move", move="h3-e3")
    reply = (foreign.followups[-1] if foreign.followups else foreign.response)
    assert reply.ephemeral and "/challenge" in reply.content
    out_of_turn = await w.bob.slash(thread, "move", move="h8-e8")
    reply = (out_of_turn.followups[-1] if out_of_turn.followups else out_of_turn.response)
    assert reply.ephemeral and "turn" in reply.content.lower()
    assert len(thread.history()) == before
    assert (await w.service.get_match(match.id)).ply == 0


async def test_move_autocomplete_offers_legal_moves_by_prefix(world: World) -> None:
    w = world
    _, thread = await start_xiangqi(w)
    choices = await w.alice.autocomplete(thread, "move", "move", "h3")
    values = [c["value"] for c in choices]
    assert values and all(v.startswith("h3") for v in values)
    assert "h3-e3" in values and len(values) <= 25
    names = {c["value"]: c["name"] for c in choices}
    assert "C2.5" in names["h3-e3"]  # the display form shows WXF beside the move
    everything = await w.alice.autocomplete(thread, "move", "move", "")
    assert len(everything) == 25
    assert await w.bob.autocomplete(thread, "move", "move", "h") == []


async def test_challenge_options_autocomplete_seats_of_the_chosen_game(world: World) -> None:
    w = world
    seats = await w.alice.autocomplete(w.channel, "challenge", "seat", "", game="xiangqi")
    assert [(c["name"], c["value"]) for c in seats] == [("Red (moves first)", 0),
                                                        ("Black", 1)]
    four = await w.alice.autocomplete(w.channel, "challenge", "seat", "",
                                      game="alquerque-grande:players=4,mode=teams")
    assert [c["value"] for c in four] == [0, 1, 2, 3]
    # Black chosen: bob gets Red and moves first.
    await w.alice.slash(w.channel, "challenge", game="xiangqi", opponent=w.bob, seat=1,
                        days=7, rated=False)
    challenge = w.channel.last_message
    assert "7 days per move, casual" in challenge.content
    await w.bob.click(challenge, label="Accept")
    (thread,) = w.channel.threads
    match = await w.service.match_in_thread(thread.id)
    assert match.to_move == (w.bob.id,) and match.days_per_move == 7 and not match.rated
