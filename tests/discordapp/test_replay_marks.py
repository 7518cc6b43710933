"""The replay GIF marks the costly moves of a stored analysis (issue 42, SimCord): as a
game ends there is none, and its result post's GIF is the plain replay; once
``/analysis`` has stored one, ``/history``'s GIF, and a result post delivered after it
(a delivery after a restart), frame its three costliest moves in red, hold them longer
and write their note under the board. An analysis of another record length marks
nothing (it would mark the wrong moves)."""

from __future__ import annotations

import io
from datetime import UTC, datetime
from typing import Any

from PIL import Image

from locales.analysis import CostKind
from render.replay import FLAG, FLAG_MS
from service.views import AnalysedMove, MatchAnalysis
from tests.discordapp.conftest import World
from tests.discordapp.helpers import reply, result_post, start_match
from tests.discordapp.test_outbox_delivery import notifier_of

MOVES = ("h3-e3", "h8-e8", "b1-c3", "b10-c8", "a1-b1")


async def framed(attachment: Any) -> tuple[list[int], list[int], int]:
    """The frames of a GIF framed in red, those held ``FLAG_MS``, and its height."""
    gif = Image.open(io.BytesIO(await attachment.read()))
    red, held = [], []
    for frame in range(gif.n_frames):
        gif.seek(frame)
        rgb = gif.convert("RGB")
        if rgb.getpixel((1, rgb.height // 2)) == FLAG and \
                rgb.getpixel((rgb.width - 2, 3)) == FLAG:
            red.append(frame)
        if gif.info["duration"] == FLAG_MS:
            held.append(frame)
    return red, held, gif.height


def analysis_of(match_id: int, plies: int, alice: int, bob: int) -> MatchAnalysis:
    """A stored analysis: four costly moves, worst first (the replay marks three)."""
    costly = (
        AnalysedMove(3, 1, bob, "b10-c8", "h10-g8", 420, CostKind.PAWNS, 420),
        AnalysedMove(0, 0, alice, "h3-e3", "b3-e3", 250, CostKind.PAWNS, 250),
        AnalysedMove(4, 0, alice, "a1-b1", "h1-g3", 180, CostKind.PAWNS, 180),
        AnalysedMove(1, 1, bob, "h8-e8", "b8-e8", 120, CostKind.PAWNS, 120))
    return MatchAnalysis(match_id, datetime(2026, 1, 2, tzinfo=UTC), plies, 5, 4000, 1.5,
                         (), costly)


async def test_the_replay_marks_the_costly_moves_once_an_analysis_is_stored(
        world: World) -> None:
    w = world
    m, thread = await start_match(w, w.alice, w.bob, seat=0, rated=False)
    for i, move in enumerate(MOVES):
        await (w.alice if i % 2 == 0 else w.bob).slash(thread, "move", move=move)
    await w.bob.slash(thread, "resign")
    result_post(thread)
    (plain,) = thread.last_message.attachments  # the end: nothing stored, nothing marked
    assert (await framed(plain))[:2] == ([], [])
    assert "framed in red" not in (plain.description or "")
    repository = w.service.repository
    ended = await w.service.get_match(m.id)
    plies = ended.ply  # five moves and the resignation

    await repository.save_analysis(analysis_of(m.id, plies + 1, w.alice.id, w.bob.id))
    history = reply(await w.alice.slash(thread, "history"))
    (gif,) = [a for a in history.attachments if a.filename.endswith(".gif")]
    assert (await framed(gif))[:2] == ([], [])  # weighed another record: no marks

    await repository.save_analysis(analysis_of(m.id, plies, w.alice.id, w.bob.id))
    history = reply(await w.alice.slash(thread, "history"))
    (gif,) = [a for a in history.attachments if a.filename.endswith(".gif")]
    red, held, height = await framed(gif)
    assert red == [1, 4, 5]  # frame n is the position after move n; not move 2
    assert held == [1, 4]  # (the last frame is held longer still, as every replay's)
    assert (gif.description or "").startswith(
        f"Replay of match {m.id}: the marked moves are framed in red. It shows 5 moves, "
        "one frame each. ")
    plain_height = Image.open(io.BytesIO(await plain.read())).height
    assert height > plain_height  # the notes' band below the board

    notifier = notifier_of(w)  # the result delivered again (after a restart, say)
    posts = len(thread.history())
    await notifier.post_replay(ended, None)
    assert len(thread.history()) == posts + 1
    (late,) = thread.last_message.attachments
    assert (await framed(late))[:2] == ([1, 4, 5], [1, 4])
    assert "framed in red" in (late.description or "")
