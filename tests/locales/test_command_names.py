"""A text names a slash command by the name its reader's Discord shows (``/ziehen`` for a
German reader, ``/move`` for an English one), through one mechanism, ``command`` (and
``option`` for an option's name), whatever the text: a refusal of the service, a reply
of the Discord adapter, a post, a web page, a game's rules. The console's commands are
English, written as it reads them: it names them so in every language
(``commands_written(CONSOLE_SYNTAX)``).

The walks here are what keeps it so: no message id shown outside the console writes a
command literally, and every text that names one through ``command`` says the reader's
name in every language (a translation that lost the placeholder fails too)."""

from __future__ import annotations

import ast
import asyncio
import json
import re
from functools import cache
from pathlib import Path

import pytest

from bot.console_args import CONSOLE_SYNTAX
from locales.i18n import (
    CATALOGUES,
    COMMAND_NAME,
    DOMAIN,
    LOCALES,
    Command,
    Option,
    Text,
    _,
    _n,
    catalogue_path,
    command,
    command_mentions,
    commands_written,
    from_data,
    option,
    to_data,
)
from locales.summaries import rules_summary
from tests.catalogues import read
from tests.console.test_languages import play

ROOT = Path(__file__).resolve().parents[2]
OTHER_LOCALES = [x for x in LOCALES if not x.startswith("en-")]
CONSOLE_SOURCES = ("bot/console/", "bot/console_args.py")
TREE = "bot/discordapp (command tree)"
POT_PATH = CATALOGUES / f"{DOMAIN}.pot"


@cache
def command_names() -> frozenset[str]:
    """Every command and group name of the Discord command tree (English)."""
    return frozenset(str(m.id) for m in read(POT_PATH) if m.context == COMMAND_NAME)


def named_literally(text: str) -> list[str]:
    """The commands ``text`` writes out (``/move``, ``/tournament``), not through a
    placeholder."""
    return [m[1] for m in re.finditer(r"(?<![\w/<{])/([a-z][\w-]*)", text)
            if m[1] in command_names()]


def test_a_command_is_named_as_each_readers_discord_shows_it() -> None:
    move = command("move")
    assert move.render("en-US") == move.render("en-GB") == "/move"
    assert move.render("de") == "/ziehen"
    assert {move.render(x) for x in OTHER_LOCALES} >= {"/ziehen", "/jugar", "/drag"}
    # a group's command, an option, a choice: each by its shown name
    assert command("tournament create").render("de") == "/turnier erstellen"
    assert command("pause", action="resume").render("de") == "/pause aktion:fortsetzen"
    assert command("history", match=7).render("es-ES") == "/historial partida:7"
    assert option("match").render("de") == "partie"
    # a value that is no choice is written as it is (a mention, a number, nothing)
    assert command("continue", match=3, opponent="@…").render("de") == \
        "/fortsetzen partie:3 gegner:@…"
    assert command("follow", player="").render("sv-SE").endswith(":")


def test_the_console_names_every_command_in_english_whatever_its_language() -> None:
    said = _("play moves with {move}; {resume} ends the pause; the `{match}` option",
             move=command("move"), resume=command("pause", action="resume"),
             match=option("match"))
    with commands_written(CONSOLE_SYNTAX):
        assert said.render("de") == \
            "play moves with /move; /pause resume ends the pause; the `match` option"
    # and only inside it: Discord's texts name them in the reader's words again
    assert "/ziehen" in said.render("de")
    # the console's syntax wins over Discord's mentions (a console line never mentions)
    with command_mentions({"move": 1, "pause": 2}), commands_written(CONSOLE_SYNTAX):
        assert said.render("de").startswith("play moves with /move; /pause resume")


def test_a_command_kept_in_a_stored_text_reads_back_the_same() -> None:
    said = _("{a} {b}", a=command("puzzle next", puzzle=12), b=option("digest"))
    back = from_data(to_data(said))
    assert isinstance(back, Text)
    assert isinstance(back.params["a"], Command) and isinstance(back.params["b"], Option)
    assert [back.render(x) for x in LOCALES] == [said.render(x) for x in LOCALES]


YES_OR_NO = _("{a}; {b}; {c}", a=command("web", revoke=True),
              b=command("settings", threads=True), c=command("settings", reminders=False))


def test_a_yes_or_no_kept_in_a_stored_text_stays_one_for_each_client() -> None:
    """Kept as the outbox keeps a text (``to_data``, JSON, ``from_data``), an option
    given as True or False reads back as one, which each client writes its own way:
    Discord as its True/False choice, the console as it reads a yes or no (checked
    against the console in ``tests/console/test_command_syntax.py``). Before, it came
    back as the text "True", which the console wrote ``/web revoke:True``."""
    back = from_data(json.loads(json.dumps(to_data(YES_OR_NO))))
    assert isinstance(back, Text) and back == YES_OR_NO
    assert [back.render(x) for x in LOCALES] == [YES_OR_NO.render(x) for x in LOCALES]
    assert back.render("en-US") == \
        "/web revoke:True; /settings threads:True; /settings reminders:False"
    with commands_written(CONSOLE_SYNTAX):
        assert back.render("de") == YES_OR_NO.render("de") == \
            "/web revoke; /settings threads:yes; /settings reminders:no"


def test_no_text_shown_in_discord_writes_a_command_out() -> None:
    """Every message id that names a command literally is the console's own (its commands
    are English), or a description of Discord's command tree (static text per language,
    checked below)."""
    pot = [m for m in read(POT_PATH) if m.id and not m.context]
    wrong = []
    for m in pot:
        ids = m.id if isinstance(m.id, tuple) else (m.id,)
        files = {path for path, _line in m.locations}
        if any(named_literally(x) for x in ids) and not all(
                f.startswith(CONSOLE_SOURCES) or f == TREE for f in files):
            wrong.append((ids[0][:70], sorted(files)))
    assert not wrong, wrong


def test_no_text_shown_in_discord_writes_an_options_name_out() -> None:
    """``the `match` option`` names an option of Discord's commands, which a German
    reader sees as ``partie``: through ``option``, never written out."""
    pot = list(read(POT_PATH))
    options = {str(m.id) for m in pot if m.context == "option name"}
    wrong = [m.id for m in pot if m.id and not m.context
             and not all(path.startswith(CONSOLE_SOURCES) for path, _line in m.locations)
             and any(name in options for x in (m.id if isinstance(m.id, tuple) else (m.id,))
                     for name in re.findall(r"`([a-z_]+)`", x))]
    assert not wrong, wrong


@pytest.mark.parametrize("locale", OTHER_LOCALES)
def test_a_command_description_names_commands_as_its_readers_discord_does(
        locale: str) -> None:
    """A description is one fixed text per language: it writes the command under the
    name Discord shows in that language (``/herausfordern``, not ``/challenge``)."""
    described = [m for m in read(POT_PATH) if m.id and not m.context
                 and {p for p, _line in m.locations} == {TREE}
                 and named_literally(str(m.id))]
    assert described, "the walk finds the descriptions that name a command"
    catalogue = read(catalogue_path(locale))
    for m in described:
        said = str(catalogue.get(m.id).string)
        for name in named_literally(str(m.id)):
            assert command(name).render(locale) in said, (locale, said)


# ---------------------------------------------------------------- every text, in code

def _sources() -> list[Path]:
    paths = [p for top in ("bot", "service", "locales", "render")
             for p in (ROOT / top).rglob("*.py")]
    return sorted(p for p in paths
                  if not p.relative_to(ROOT).as_posix().startswith(CONSOLE_SOURCES))


def _lazy_of(node: ast.expr) -> Command | Option | None:
    """The command or option a ``command(...)``/``option(...)`` call builds (values
    that are not literals stand in as 7)."""
    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
            and node.func.id in ("command", "option", "command_of")):
        return None
    first = node.args[0]
    if not isinstance(first, ast.Constant) or not isinstance(first.value, str):
        return None  # a name given at run time (the command an error answers)
    if node.func.id == "option":
        return option(first.value)
    options = {k.arg: (k.value.value if isinstance(k.value, ast.Constant) else 7)
               for k in node.keywords if k.arg is not None}
    return command(first.value, **options)


@cache
def _texts_naming_commands() -> tuple[tuple[str, Text, dict[str, Command | Option]], ...]:
    """Each text of the sources that names a command or an option through ``command``
    or ``option``: where, the text, what it names (parsed once: every test walks it)."""
    found = []
    for path in _sources():
        tree = ast.parse(path.read_text("utf-8"))
        for node in ast.walk(tree):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                    and node.func.id in ("_", "_n")):
                continue
            named: dict[str, Command | Option] = {}
            others: dict[str, object] = {}
            for k in node.keywords:
                if k.arg is None and isinstance(k.value, ast.Dict):  # **{"continue": …}
                    for key, value in zip(k.value.keys, k.value.values, strict=True):
                        lazy = _lazy_of(value)
                        if isinstance(key, ast.Constant) and lazy is not None:
                            named[str(key.value)] = lazy
                elif k.arg is not None:
                    lazy = _lazy_of(k.value)
                    if lazy is not None:
                        named[k.arg] = lazy
                    else:
                        others[k.arg] = "X"
            if not named:
                continue
            ids = [a.value for a in node.args if isinstance(a, ast.Constant)
                   and isinstance(a.value, str)]
            if not ids:  # a game's rules, its own message id: checked below
                continue
            if node.func.id == "_n":
                text = _n(ids[0], ids[1], 2, **others, **named)
            else:
                text = _(ids[0], **others, **named)
            where = f"{path.relative_to(ROOT).as_posix()}:{node.lineno}"
            found.append((where, text, named))
    return tuple(found)


def test_the_walk_finds_the_texts_that_name_commands() -> None:
    found = {where.split(":")[0] for where, _text, _named in _texts_naming_commands()}
    # a service refusal, a Discord reply, a post, a web page, a game's rules, a puzzle
    assert {"service/play.py", "bot/discordapp/errors.py", "bot/discordapp/notifier.py",
            "bot/web/pages.py", "bot/discordapp/cogs/common.py", "bot/puzzles.py"} <= found


def test_every_leaderboard_with_options_a_text_names_is_read_by_the_console() -> None:
    """Each text that names /leaderboard with an option (the season's end names it with
    ``season:N``), as the console writes it, is what the console's /leaderboard reads:
    typed with its GAME filled in where the text leaves it to the reader, it shows the
    board. Before, ``season:2`` alone was written ``/leaderboard season:2``, which the
    console answers "which game?" (its syntax: ``/leaderboard GAME [PAGE] [season:N]``);
    in Discord the text names the game option, left to the reader, as /leaderboard
    needs it there too."""
    boards = [lazy for _where, _text, named in _texts_naming_commands()
              for lazy in named.values()
              if isinstance(lazy, Command) and lazy.qualified == "leaderboard" and lazy.options]
    assert any(name == "season" for board in boards for name, _value in board.options)
    assert all(any(name == "game" for name, _value in board.options) for board in boards)
    with commands_written(CONSOLE_SYNTAX):
        written = sorted({board.render("en-US") for board in boards})
    assert all(line.startswith("/leaderboard GAME ") for line in written), written
    typed = [line.replace("GAME", "xiangqi").replace("season:7", "season:1")
             for line in written]  # the walk's values are 7s: the season there is 1
    said = asyncio.run(play(["as alice", "/season manual", *typed], None))
    assert [line for line in said if line.startswith("!")] == [], said
    assert said[2:] == ["Season 1 (since 2026-01-01)", "no rated results on Xiangqi yet"] \
        * len(typed)


@pytest.mark.parametrize("locale", OTHER_LOCALES)
def test_every_text_that_names_a_command_names_it_as_the_readers_discord_does(
        locale: str) -> None:
    wrong = []
    for where, text, named in _texts_naming_commands():
        said = text.render(locale)
        for lazy in named.values():
            shown = lazy.render(locale)
            if shown not in said:
                wrong.append((where, shown, said))
    assert not wrong, wrong[:5]


@pytest.mark.parametrize("locale", LOCALES)
def test_in_a_server_every_text_names_its_commands_by_their_mentions(locale: str) -> None:
    """Where the commands' ids are known (a server, after the sync), each text names its
    commands by Discord's mention, ``</move:ID>``, never inside code marks (Discord would
    show it written out), and its options in the reader's words after it."""
    found = _texts_naming_commands()
    paths = sorted({lazy.qualified for _where, _text, named in found
                    for lazy in named.values() if isinstance(lazy, Command)})
    ids = {path: n for n, path in enumerate(paths, start=1)}
    assert {"move", "puzzle next", "tournament create", "challenge"} <= set(ids)
    wrong = []
    with command_mentions(ids):
        for where, text, named in found:
            said = text.render(locale)
            spans = re.findall(r"`[^`]*`", said)
            for lazy in named.values():
                if isinstance(lazy, Command):
                    shown = f"</{lazy.qualified}:{ids[lazy.qualified]}>"
                    options = lazy.shown_options(locale)
                    if shown not in said or options not in said:
                        wrong.append((where, shown, said))
                elif lazy.render(locale) not in said:  # an option alone: its name
                    wrong.append((where, lazy.render(locale), said))
            wrong += [(where, span, said) for span in spans if "</" in span]
    assert not wrong, wrong[:5]
    # and outside a server the same texts name them as before
    where, text, _named = found[0]
    assert "</" not in text.render(locale), where


def test_in_some_language_every_command_a_text_names_has_another_name() -> None:
    """The walk checks something: each command it meets is localized somewhere (a
    German reader's refusal names ``/ziehen``), so an English name left in a text would
    show."""
    for where, _text, named in _texts_naming_commands():
        for lazy in named.values():
            english = lazy.render("en-US")
            assert any(lazy.render(x) != english for x in OTHER_LOCALES), (where, english)


@pytest.mark.parametrize("locale", OTHER_LOCALES)
def test_a_games_rules_name_its_commands_as_the_readers_discord_does(locale: str) -> None:
    """Querni's rules name the setup command (``{setup}`` in its summary)."""
    said = rules_summary("querni").render(locale)
    assert command("setup").render(locale) in said and "/setup" not in said
    assert "`/setup`" in rules_summary("querni").render("en-US")
