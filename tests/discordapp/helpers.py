"""Small helpers shared by the Discord tests."""

from __future__ import annotations

from typing import Any

from tests.discordapp.conftest import World


def reply(result: Any) -> Any:
    """The message a user saw for an interaction: the last followup, else the response."""
    return result.followups[-1] if result.followups else result.response


async def start_match(w: World, challenger: Any, opponent: Any, game: str = "xiangqi",
                      **options: Any) -> tuple[Any, Any]:
    """``challenger`` challenges ``opponent``, who accepts; (match view, thread)."""
    threads_before = {t.id for t in w.channel.threads}
    result = await challenger.slash(w.channel, "challenge", game=game, opponent=opponent,
                                    **options)
    assert reply(result).ephemeral, reply(result).content
    challenge = w.channel.last_message
    accepted = await opponent.click(challenge, label="Accept")
    assert reply(accepted).ephemeral
    new = [t for t in w.channel.threads if t.id not in threads_before]
    assert len(new) == 1
    match = await w.service.match_in_thread(new[0].id)
    assert match is not None
    return match, new[0]


def result_post(thread: Any) -> Any:
    """The result message of a finished match (the replay GIF follows it)."""
    history = thread.history()
    assert history[-1].content.startswith("Replay of match")
    assert [a.filename for a in history[-1].attachments] == ["replay.gif"]
    return history[-2]
