"""A replay GIF's alt text says what the animation shows: which replay, how many moves,
and how the match ended (it said only "Replay of match 7", or "Animated replay of
Alquerque match 7, move by move": a screen reader's user learnt nothing of the game)."""

from __future__ import annotations

from bot.discordapp.media import replay_description
from locales.i18n import _, render
from service import MatchService
from storage import MemoryRepository
from tests.service.conftest import ALICE, BOB, Recorder, SetClock, start_match


async def test_the_replay_alt_text_counts_the_moves_and_tells_the_end() -> None:
    svc = MatchService(MemoryRepository(), Recorder(), SetClock())
    m = await start_match(svc, "alquerque", seat="white")
    await svc.move(m.id, ALICE, "b2-c3")
    await svc.move(m.id, BOB, "d4xb2")
    said = _("{sentence}.", sentence=_("Replay of match {match}", match=m.id))
    live = replay_description(await svc.record(m.id), said, ["alice", "bob"])
    assert render(live, "en-US") == \
        f"Replay of match {m.id}. It shows 2 moves, one frame each."
    await svc.resign(m.id, ALICE)
    over = replay_description(await svc.record(m.id), said, ["alice", "bob"])
    assert render(over, "en-US") == (f"Replay of match {m.id}. It shows 2 moves, one frame "
                                     "each. Black (bob) wins: opponent resigned.")
    assert render(over, "de").startswith(f"Wiederholung von Partie {m.id}. Sie zeigt 2 Züge")
    assert render(over, "zh-CN") == \
        f"对局 {m.id} 的回放。共 2 步，每步一帧。黑方（bob）获胜：对手认输。"
