"""Small helpers shared by the Discord tests."""

from __future__ import annotations

from typing import Any

import discord
import pytest

from bot.discordapp.dispatcher import Routes
from tests.discordapp.conftest import World


def posts_left_open(monkeypatch: pytest.MonkeyPatch) -> None:
    """Answered questions keep their buttons, as a client that has not yet seen the edit
    closing them shows them (``Routes.close_post``; ``test_closed_posts``): for tests of
    a click that races that edit (a stale or repeated click)."""
    async def left_open(self: Routes, post: Any, note: str) -> bool:
        return True
    monkeypatch.setattr(Routes, "close_post", left_open)


def registered_id(w: World, name: str, guild_id: int | None = None) -> int:
    """The id SimCord's Discord gave the command ``name`` when the bot synced its tree
    (globally, or to server ``guild_id``)."""
    return int(w.env.backend.commands[guild_id][(name, 1)]["id"])


def mention(w: World, path: str) -> str:
    """Discord's mention of the command ``path`` (``"puzzle next"``) as the bot's texts
    write it in a server once the sync gave the ids: ``</puzzle next:ID>``."""
    return f"</{path}:{registered_id(w, path.split()[0])}>"


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


async def start_four_player_match(w: World, days: int = 1, game: str = FOUR_PLAYER_GAME,
                                  **options: Any) -> tuple[Any, Any]:
    """Alice invites Bob, Carol and Dave to a 4-player game (teams unless ``game`` says
    otherwise; ``options``: more of /challenge's); all accept. Returns (match view,
    thread)."""
    await w.alice.slash(w.channel, "challenge", game=game, opponent=w.bob,
                        opponent2=w.carol, opponent3=w.dave, days=days, **options)
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
        assert is_turn_post(thread.last_message)


def result_post(thread: Any) -> Any:
    """The result message of a finished match (the replay GIF follows it)."""
    history = thread.history()
    assert history[-1].content.startswith("Replay of match")
    assert [a.filename for a in history[-1].attachments] == ["replay.gif"]
    return history[-2]


def _walk(items: list[Any]) -> list[Any]:
    out: list[Any] = []
    for c in items:
        out.append(c)
        out += _walk(list(getattr(c, "children", None) or getattr(c, "components", None)
                          or []))
    return out


def is_card(message: Any) -> bool:
    """Whether ``message`` is a Components V2 match card (issue 42)."""
    return any(isinstance(c, discord.Container) for c in message.components)


def words(message: Any) -> str:
    """The post's own words, whichever form the turn post takes: a message's content, or
    in a match card the text display the dispatcher put them in (the card's first)."""
    if message.content or not is_card(message):
        return str(message.content)
    texts = [c.content for c in _walk(list(message.components))
             if isinstance(c, discord.TextDisplay)]
    return texts[0] if texts else ""


def post_text(message: Any) -> str:
    """Every word a post shows, one block a line: its content, its embeds' title,
    description, fields and footer, and a card's text displays."""
    parts = [str(message.content or "")]
    for e in message.embeds:
        parts += [e.title or "", e.description or ""]
        parts += [f"{f.name}\n{f.value}" for f in e.fields]
        parts.append(e.footer.text or "")
    parts += [c.content for c in _walk(list(message.components))
              if isinstance(c, discord.TextDisplay)]
    return "\n".join(p for p in parts if p)


def board_urls(message: Any) -> list[str]:
    """Where the post's pictures point: the embeds' images and the card's media gallery."""
    urls = [e.image.url for e in message.embeds if e.image and e.image.url]
    return urls + [item.media.url for g in _walk(list(message.components))
                   if isinstance(g, discord.MediaGalleryComponent) for item in g.items]


def shows_board(message: Any) -> bool:
    """Whether the turn post shows the attached board: the embed's image or the card's
    media gallery, pointing at an attachment the message carries."""
    names = [a.filename for a in message.attachments]
    return any(any(u.endswith("/" + n) or u == f"attachment://{n}" for n in names)
               for u in board_urls(message))


def is_turn_post(message: Any) -> bool:
    """A turn post: an embed (``TABLERO_MATCH_CARDS=off``) or a match card."""
    return bool(message.embeds) or is_card(message)


def buttons(message: Any) -> list[Any]:
    """Every button of a posted message, nested in a card or in action rows."""
    return [c for c in _walk(list(message.components)) if isinstance(c, discord.Button)]


def body_words(body: Any) -> str:
    """The words of a request's message body: its content, else (a match card) the text
    displays (type 10) in its components, one a line."""
    if not isinstance(body, dict):
        return ""
    if body.get("content"):
        return str(body["content"])
    found: list[str] = []

    def visit(items: list[Any]) -> None:
        for c in items:
            if isinstance(c, dict):
                if c.get("type") == 10:
                    found.append(str(c.get("content") or ""))
                visit(list(c.get("components") or []))

    visit(list(body.get("components") or []))
    return "\n".join(found)


def pinged(w: World, message: Any) -> list[int]:
    """The users ``message`` notifies: those its request allowed to be pinged and that it
    mentions (a card's seat lines name every player, without pinging them)."""
    path = f"/channels/{message.channel.id}/messages"
    first = words(message)
    sent = [r.json for r in w.env.http_requests if r.method == "POST" and r.path == path
            and isinstance(r.json, dict) and body_words(r.json).startswith(first)]
    assert sent, f"no request posted {first!r}"
    allowed = [int(u) for u in (sent[-1].get("allowed_mentions") or {}).get("users") or []]
    return list(dict.fromkeys(u.id for u in message.mentions if u.id in allowed))
