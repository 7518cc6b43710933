"""Tablero speaks its readers' languages on Discord (issue 14).

Who reads decides: a reply speaks the user's ``interaction.locale``; a post in a match's
thread the server's language (``/settings language``, else Discord's preferred locale of
the server); a DM the recipient's last seen locale, stored when he last acted.

Two kinds of test. With a pseudo-language (every message between ``⟦ ⟧``) the plumbing
is checked now: every word the bot sends went through the catalogues for the right
reader. With the real catalogues a whole match is played in German and in Chinese and
the same match in English, and no message the bot sent may read as its English twin
(notation and names aside): those fail until the German and Chinese catalogues are
translated, as does the Swedish reminder's.
"""

from __future__ import annotations

from typing import Any

import discord
import pytest

from bot.discordapp.dispatcher import LOCALE_TTL
from locales.i18n import _, render
from service.views import GuildSettings
from tests.discordapp.conftest import World
from tests.discordapp.helpers import reply, words
from tests.discordapp.languages import (
    MARK,
    sent_texts,
    speak_pseudo,
    speaking,
    words_left,
)
from tests.service.conftest import finishing_game

NAMES = ("alice", "bob", "carol", "dave", "admin", "Tablero", "games", "Board", "Xiangqi",
         "Alquerque")
"""Names, and the game's own name, which may read the same in a language."""


class Server:
    """A server of its own in the test's Discord: a channel, two players, an admin."""

    def __init__(self, w: World, name: str, preferred_locale: str | None = None) -> None:
        self.w = w
        self.guild = w.env.create_guild(name, preferred_locale=preferred_locale)
        self.channel = self.guild.create_text_channel("games")
        self.alice = self.guild.add_member(w.env.create_user("alice"))
        self.bob = self.guild.add_member(w.env.create_user("bob"))
        admins = self.guild.create_role("admins",
                                        permissions=discord.Permissions(manage_guild=True))
        self.admin = self.guild.add_member(w.env.create_user("admin"), roles=[admins])


FINISHING = finishing_game("alquerque", {}, seed=2)
"""An Alquerque game that the rules end after 26 moves (white wins or is stuck)."""


async def play_a_match(s: Server) -> None:
    """A whole Alquerque match as people play it, to the end the rules give it: a
    challenge and its acceptance, moves with autocomplete, the board, a draw offered and
    declined, the games list, the history, the result post with ratings and replay."""
    w = s.w
    assert FINISHING
    await s.alice.slash(s.channel, "challenge", game="alquerque", opponent=s.bob, seat=0)
    await accept(s.bob, s.channel.last_message)
    (thread,) = s.channel.threads
    for i, move in enumerate(FINISHING):
        actor = (s.alice, s.bob)[i % 2]
        if i == 4:
            await s.alice.slash(thread, "board")
            await s.alice.slash(thread, "draw", action="offer")
            await s.bob.slash(thread, "draw", action="decline")
            await s.bob.slash(s.channel, "games")
            await s.alice.slash(thread, "history")
        if i % 5 == 0:
            await actor.autocomplete(thread, "move", "move", move[:2])
        result = await actor.slash(thread, "move", move=move)
        assert reply(result).ephemeral
    await w.env.settle()
    m = await w.service.match_in_thread(thread.id)
    assert m is not None and m.is_over and m.result is not None


async def accept(actor: Any, message: Any) -> Any:
    """Click a challenge's Accept button, whatever language its label is in."""
    ids = [child.custom_id for row in message.components for child in row.children
           if (child.custom_id or "").startswith("tablero:accept:")]
    assert len(ids) == 1, ids
    return await actor.click(message, custom_id=ids[0])


def untranslated(texts: list[tuple[str, str]]) -> list[str]:
    """The texts with words that the pseudo-language did not mark."""
    return [f"{path}: {text!r}" for path, text in texts
            if words_left(text, NAMES) and MARK not in text]


# ------------------------------------------------------------------ the plumbing


@pytest.mark.parametrize(("locale", "by_settings"), [("de", True), ("zh-CN", False)])
async def test_every_word_of_a_match_goes_through_the_readers_catalogue(
        world: World, monkeypatch: pytest.MonkeyPatch, locale: str, by_settings: bool
        ) -> None:
    """German by ``/settings language`` on an English server, Chinese as the server's
    own Discord language: every word sent in the match (thread posts, replies, buttons,
    embeds, menus, choices, thread names, alt texts) is the reader's language."""
    speak_pseudo(monkeypatch, locale)
    people = speaking(monkeypatch)
    s = Server(world, "Spieleabend" if by_settings else "棋社",
               preferred_locale=None if by_settings else locale)
    for member in (s.alice, s.bob, s.admin):
        people[member.id] = locale
    if by_settings:
        answer = reply(await s.admin.slash(s.channel, "settings", language=locale))
        assert MARK in answer.content and "Deutsch" in answer.content
    start = len(world.env.http_requests)
    await play_a_match(s)
    texts = sent_texts(world.env, start)
    assert len(texts) > 40  # the match said a lot
    assert not untranslated(texts), "\n".join(untranslated(texts))


async def test_a_reply_speaks_its_readers_language_and_the_thread_the_servers(
        world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    """On an English server a German user's replies are German, while what the match
    thread tells everybody stays English."""
    speak_pseudo(monkeypatch, "de")
    people = speaking(monkeypatch)
    s = Server(world, "Board games")
    people[s.bob.id] = "de"
    await s.alice.slash(s.channel, "challenge", game="xiangqi", opponent=s.bob, seat=0)
    accepted = await accept(s.bob, s.channel.last_message)
    assert MARK in reply(accepted).content
    (thread,) = s.channel.threads
    await s.alice.slash(thread, "move", move="h3-e3")
    start = len(world.env.http_requests)
    moved = await s.bob.slash(thread, "move", move="h8-e8")
    await world.env.settle()
    assert MARK in reply(moved).content
    posts = [text for path, text in sent_texts(world.env, start)
             if path.startswith(f"/channels/{thread.id}/")]
    assert posts and not any(MARK in text for text in posts)


async def test_a_dm_reminder_reaches_a_swedish_user_in_swedish_without_an_interaction(
        world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    """Bob's locale is stored when he acts; days later the reminder (no interaction:
    the sweep sends it) comes to his DMs in his language, while the thread (an English
    server) stays English."""
    speak_pseudo(monkeypatch, "sv-SE")
    people = speaking(monkeypatch)
    s = Server(world, "Board games")
    people[s.bob.id] = "sv-SE"
    await s.bob.slash(s.channel, "notify", mode="dm")
    await s.alice.slash(s.channel, "challenge", game="xiangqi", opponent=s.bob, seat=0,
                        days=1)
    await accept(s.bob, s.channel.last_message)
    (thread,) = s.channel.threads
    await s.alice.slash(thread, "move", move="h3-e3")
    await world.env.settle()
    prefs = await world.repository.get_user_prefs(s.bob.id)
    assert prefs is not None and prefs.locale == "sv-SE"
    start = len(world.env.http_requests)
    await world.env.advance_time(13 * 3600)  # the reminder: 12 h before the deadline
    await world.env.settle()
    dm = f"/channels/{world.env.backend.get_dm_channel(s.bob.id).id}/messages"
    texts = sent_texts(world.env, start)
    reminders = [t for p, t in texts if p == dm and "⏰" in t]
    assert reminders and all(MARK in t for t in reminders)
    assert not any(MARK in t for p, t in texts if p != dm)


async def test_a_servers_language_change_reaches_its_threads_at_once(
        world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    """``/settings language`` applies to the next thread post without waiting for the
    notifier's minute-long memory of the server's language (``LOCALE_TTL``)."""
    assert LOCALE_TTL >= 60
    speak_pseudo(monkeypatch, "es-ES")
    speaking(monkeypatch)
    s = Server(world, "Board games")
    await s.alice.slash(s.channel, "challenge", game="xiangqi", opponent=s.bob, seat=0)
    await accept(s.bob, s.channel.last_message)
    (thread,) = s.channel.threads
    await s.alice.slash(thread, "move", move="h3-e3")
    await world.env.settle()
    assert MARK not in words(thread.last_message)
    await s.admin.slash(s.channel, "settings", language="es-ES")
    await s.bob.slash(thread, "move", move="h8-e8")
    await world.env.settle()
    assert MARK in words(thread.last_message)
    await s.admin.slash(s.channel, "settings", language="server")
    settings = await world.service.get_guild_settings(s.guild.id)
    assert settings == GuildSettings(s.guild.id, language=None)


# ------------------------------------------------------------------ the real catalogues


async def english_and_foreign(world: World, monkeypatch: pytest.MonkeyPatch, locale: str
                              ) -> list[tuple[str, str]]:
    """The same match on an English server with English players, then on a server
    whose language and players are ``locale``: the texts of each, paired in order."""
    people = speaking(monkeypatch)
    english = Server(world, "Board games")
    start = len(world.env.http_requests)
    await play_a_match(english)
    english_texts = [t for _, t in sent_texts(world.env, start)]
    foreign = Server(world, "Server", preferred_locale=locale)
    for member in (foreign.alice, foreign.bob, foreign.admin):
        people[member.id] = locale
    start = len(world.env.http_requests)
    await play_a_match(foreign)
    foreign_texts = [t for _, t in sent_texts(world.env, start)]
    assert len(english_texts) == len(foreign_texts) > 40
    return list(zip(english_texts, foreign_texts, strict=True))


@pytest.mark.parametrize("locale", ["de", "es-ES", "es-419", "sv-SE", "zh-CN", "zh-TW"])
async def test_a_match_played_to_its_end_is_entirely_in_the_servers_language(
        world: World, monkeypatch: pytest.MonkeyPatch, locale: str) -> None:
    """Every message the bot sends in the German (Spanish, Swedish, Chinese) match
    differs from the one it sent at the same point of the English match, unless it is
    only notation and names. Needs the translated catalogue of ``locale``."""
    pairs = await english_and_foreign(world, monkeypatch, locale)
    # one screen of the match in its language, for the closing note (pytest -s)
    print(f"--- {locale}", *(foreign[:160] for _english, foreign in pairs[-24:]), sep="\n")
    same = [english for english, foreign in pairs
            if words_left(english, NAMES) and words_left(english, NAMES) ==
            words_left(foreign, NAMES)]
    assert not same, f"{len(same)} of {len(pairs)} texts still English, e.g. {same[:5]}"


async def test_the_swedish_reminder_reads_in_swedish(world: World,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """The reminder text itself, in the real Swedish catalogue, is not the English one.
    Needs the translated ``sv_SE`` catalogue."""
    reminder = _("⏰ {players}: it's your move in {game} (match {match}); time runs out "
                 "{deadline}.", players="<@1>", game=_("Xiangqi"), match=1,
                 deadline="<t:0:R>")
    assert render(reminder, "sv-SE") != render(reminder, "en-US")

