"""What Discord replies name a command by the name the reader's Discord shows: a German
reader's refusal names ``/ziehen``, an English reader's ``/move``; the service's own
refusals (shared with the console, which names ``/move`` in every language) too. And a
refusal that starts with a move, a name or ``#N`` keeps it as written."""

from __future__ import annotations

import random

import pytest

import rules
from bot.discordapp import errors
from locales.i18n import LOCALES, _, command, render
from locales.rules_words import rules_words
from service import MatchService, ServiceError
from service.errors import InvalidOption, MatchOver, NotAPlayer
from storage import MemoryRepository
from tests.discordapp.conftest import World
from tests.discordapp.helpers import mention, reply
from tests.discordapp.languages import speaking
from tests.discordapp.test_languages import Server, accept
from tests.service.conftest import ALICE, Recorder, SetClock, start_match


def illegal(game: str, position_text: str | None, move: str) -> rules.RulesError:
    v = rules.variant(game)
    p = v.start() if position_text is None else v.from_text(position_text)
    try:
        v.parse_move(p, move)
    except rules.RulesError as e:
        return e
    raise AssertionError(f"{move} was legal")


def test_a_refused_move_names_move_and_board_as_the_readers_discord_does() -> None:
    e = illegal("xiangqi", None, "a1-a9")
    german = errors.describe(e, locale="de")
    assert "`/ziehen`" in german and "`/brett`" in german and "/move" not in german
    english = errors.describe(e, locale="en-US")
    assert "`/move`" in english and "`/board`" in english
    for locale in LOCALES:
        said = errors.describe(e, locale=locale)
        assert command("move").render(locale) in said, said
        # the move in the reason stays as typed, in every language
        assert "a1-a9" in said and "A1-a9" not in said


async def test_a_service_refusal_names_the_readers_command_in_discord() -> None:
    """The service's text is the console's too: one text, the name chosen where it is
    read (the console's test: tests/console/test_languages.py)."""
    service = MatchService(MemoryRepository(), Recorder(), SetClock(), rng=random.Random(7))
    m = await start_match(service, "xiangqi")
    try:
        await service.submit_setup(m.id, ALICE, "1 2 3")
    except ServiceError as e:
        refusal = e
    else:
        raise AssertionError("a set-up was taken outside a set-up phase")
    assert errors.describe(refusal, locale="de").endswith("/ziehen.")
    assert errors.describe(refusal, locale="en-US").endswith("/move.")
    assert "/drag" in errors.describe(refusal, locale="sv-SE")


def test_next_steps_and_adapter_refusals_name_the_readers_commands() -> None:
    stale = errors.StaleButton()
    assert "`/brett`" in render(stale.text, "de") and "`/board`" in render(stale.text, "en-GB")
    over = errors.describe(MatchOver(_("the match is over")), locale="es-ES")
    assert "`/historial`" in over and "`/retar`" in over
    assert "`/herausfordern`" in errors.describe(NotAPlayer(_("not yours")), locale="de")
    # an options refusal names the command it answers in the reader's words
    said = errors.describe(InvalidOption(_("bad")), locale="de", command="tournament create")
    assert "`/turnier erstellen`" in said


def test_a_refusal_that_starts_with_a_move_keeps_it_as_written() -> None:
    """``{error}.`` capitalizes a service refusal's first word: never a move's."""
    e = illegal("xiangqi", None, "a1-a9")
    for locale in LOCALES:
        said = errors.describe(InvalidOption(rules_words(e)), locale=locale)
        assert "a1-a9" in said and "A1-a9" not in said, (locale, said)
        named = errors.describe(InvalidOption(_("{player} is not in this game",
                                                player="bob")), locale=locale)
        assert "bob" in named and "Bob" not in named, (locale, named)
    # the language's own first word still takes its capital
    assert errors.describe(InvalidOption(_("the game is over")), locale="en-US") \
        .startswith("The game is over")


async def test_a_post_names_options_in_its_servers_language_a_reply_in_its_readers(
        world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    """A German server, a Swedish player: in a server the commands are mentions, which
    each reader's Discord shows in his language (``test_command_mentions``); the options
    after them are words: his own reply names them as his Discord does (Swedish), the
    thread's post, read by everybody, as the rest of the post speaks, the server's
    language (German)."""
    people = speaking(monkeypatch)
    s = Server(world, "Spieleabend", preferred_locale="de")
    people[s.bob.id] = "sv-SE"
    await s.alice.slash(s.channel, "challenge", game="xiangqi", opponent=s.bob, seat=0)
    await accept(s.bob, s.channel.last_message)
    (thread,) = s.channel.threads
    missing = reply(await s.bob.slash(thread, "pause"))
    pause = mention(world, "pause")
    assert command("pause", days=3).render("sv-SE") == "/paus dagar:3"
    assert missing.ephemeral and f"{pause} dagar:3" in missing.content, missing.content
    await s.bob.slash(thread, "pause", days=3)
    await s.alice.slash(thread, "pause", action="accept")
    await world.env.settle()
    post = thread.last_message.content
    assert "⏸" in post and f"{pause} aktion:fortsetzen" in post, post
    assert "dagar" not in post and "/paus" not in post.replace(pause, "")


def test_a_mistyped_move_is_shown_the_games_own_way_of_writing() -> None:
    """A draughts move on a square the game does not play on was answered "c3 is not a
    playing square ... Moves are written with points, like `c3-c4`": an example of
    another game, wrong in this one; the rules' reason says the game's own way."""
    v = rules.variant("damas")
    with pytest.raises(rules.NotationError) as refused:
        v.parse_move(v.start(), "c3-d4")
    said = errors.describe(refused.value, locale="en-US")
    assert said == ("That is not a move (c3 is not a playing square: pieces stand only on "
                    "squares like h1, g2, a8 (file + rank odd)). Start typing in `/move` to "
                    "see the legal ones.")
    assert "c3-c4" not in errors.describe(refused.value, locale="de")
