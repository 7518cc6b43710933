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


FOUR_PLAYER_GAME = "alquerque-grande:players=4,mode=teams"


async def start_four_player_match(w: World, days: int = 1) -> tuple[Any, Any]:
    """Alice invites Bob, Carol and Dave to a 4-player teams game; all accept.
    Returns (match view, thread)."""
    await w.alice.slash(w.channel, "challenge", game=FOUR_PLAYER_GAME, opponent=w.bob,
                        opponent2=w.carol, opponent3=w.dave, days=days)
    lobby = w.channel.last_message
    for actor in (w.bob, w.carol, w.dave):
        await actor.click(lobby, label="Accept")
    (thread,) = w.channel.threads
    m = await w.service.match_in_thread(thread.id)
    assert m is not None
    return m, thread


async def play_some_moves(w: World, thread: Any, match_id: int, count: int) -> None:
    """The players to move play ``count`` moves, each the first autocomplete suggestion."""
    people = {a.id: a for a in (w.alice, w.bob, w.carol, w.dave)}
    for _ in range(count):
        m = await w.service.get_match(match_id)
        (user,) = m.to_move
        actor = people[user]
        choices = await actor.autocomplete(thread, "move", "move", "")
        assert choices, "the player to move gets suggestions"
        result = await actor.slash(thread, "move", move=choices[0]["value"])
        assert "You played" in reply(result).content
        assert thread.last_message.embeds


def result_post(thread: Any) -> Any:
    """The result message of a finished match (the replay GIF follows it)."""
    history = thread.history()
    assert history[-1].content.startswith("Replay of match")
    assert [a.filename for a in history[-1].attachments] == ["replay.gif"]
    return history[-2]
