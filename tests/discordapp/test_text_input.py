"""Issue 36 §3 through Discord: a slash command's text with a lone surrogate (JSON may
carry ``"\\ud800"``) or a control character gets an ephemeral refusal naming the code
point, nothing is stored, and the same command with valid text works."""

from __future__ import annotations

import pytest

from tests.discordapp.conftest import World
from tests.discordapp.helpers import reply, start_match


@pytest.mark.parametrize(("text", "said"), [
    ("Centre \ud800 cannon", "The note contains U+D800, half of a character without its "
                             "other half"),
    ("a\x00b", "The note contains the control character U+0000, which text cannot hold"),
])
async def test_a_note_that_is_not_text_is_refused_privately(world: World, text: str,
                                                            said: str) -> None:
    w = world
    m, thread = await start_match(w, w.alice, w.bob)
    refused = await w.alice.slash(thread, "note", action="set", text=text)
    assert reply(refused).ephemeral and said in reply(refused).content
    assert await w.service.note(m.id, w.alice.id) is None
    kept = await w.alice.slash(thread, "note", action="set", text="Centre cannon 🀄")
    assert "Note kept" in reply(kept).content
    assert await w.service.note(m.id, w.alice.id) == "Centre cannon 🀄"
    w.env.raise_errors()


async def test_a_move_with_a_control_character_is_refused_privately(world: World) -> None:
    w = world
    m, thread = await start_match(w, w.alice, w.bob)
    mover = w.alice if m.to_move[0] == w.alice.id else w.bob
    refused = await mover.slash(thread, "move", move="h3-e3\x1b[2J")
    assert reply(refused).ephemeral
    assert "The move contains the control character U+001B" in reply(refused).content
    assert (await w.service.get_match(m.id)).ply == 0
    w.env.raise_errors()
