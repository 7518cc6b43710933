"""A demanding new player's walk through Tablero in a server, read for the command
mentions (``</move:ID>``) every text now names commands by: /help, a challenge and its
acceptance, moves and a refused one, a draw offer, a pause proposal, /board, /history,
a puzzle, a command in the wrong place, in English, German and Chinese. Every word the
bot sent (posts, embeds, buttons, menus, thread names, replies, DMs) is read as Discord
shows it: a mention only where Discord renders one (a message's content, an embed's
description and field values, a card's text), never in code marks, beside a stray
backtick, cut in half, or in a direct message; no command written by name in a server
where its mention is known."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest

from service import GuildSettings
from tests.discordapp.conftest import World
from tests.discordapp.helpers import buttons, reply
from tests.discordapp.languages import speaking
from tests.discordapp.test_puzzles import finished, mined
from tests.locales.test_chinese_spacing import HAN
from tests.service.puzzle_games import ALQUERQUE, DAMAS

pytestmark = pytest.mark.simcord(settle_timeout=30.0)

MENTION = re.compile(r"</([^<>\n:]{1,100}):(\d+)>")
CODE = re.compile(r"```.*?```|``.*?``|`[^`]*`", re.S)


def _texts(data: Any, trail: tuple[str, ...] = ()) -> Iterator[tuple[tuple[str, ...], str]]:
    """Every string in a request's body with the keys that lead to it."""
    if isinstance(data, dict):
        for k, v in data.items():
            if isinstance(v, str):
                yield (*trail, k), v
            elif isinstance(v, dict | list):
                yield from _texts(v, (*trail, k))
    elif isinstance(data, list):
        for item in data:
            yield from _texts(item, trail)


WORDY = frozenset({"content", "title", "description", "name", "value", "text", "label",
                   "placeholder"})


def renders_mentions(trail: tuple[str, ...]) -> bool:
    """Whether Discord renders a mention where ``trail`` leads: a message's content (a
    card's text display's too), an embed's description, an embed field's value; not a
    title, footer, author, field name, button label, menu option, thread name, choice."""
    key, parents = trail[-1], trail[:-1]
    if key == "content":
        return "choices" not in parents
    if key == "description":
        return bool(parents) and parents[-1] == "embeds"
    if key == "value":
        return bool(parents) and parents[-1] == "fields"
    return False


def command_names(w: World) -> tuple[set[str], set[tuple[str, str]]]:
    """Every name (each locale's) of a command Discord runs alone, and of each group's
    subcommands as (group, subcommand): what a server text must mention, not write."""
    alone: set[str] = set()
    subs: set[tuple[str, str]] = set()

    def names(item: dict[str, Any]) -> set[str]:
        return {item["name"], *(item.get("name_localizations") or {}).values()}

    for cmd in w.env.backend.commands[None].values():
        if cmd.get("type", 1) != 1:
            continue
        groups = [o for o in cmd.get("options") or [] if o["type"] in (1, 2)]
        if not groups:
            alone |= names(cmd)
        for g in groups:
            subs |= {(top, sub) for top in names(cmd) for sub in names(g)}
    return alone, subs


def problems(text: str, trail: tuple[str, ...], in_dm: bool, alone: set[str],
             subs: set[tuple[str, str]]) -> list[str]:
    """What reads wrong in ``text``, found where ``trail`` leads in a request's body (in a
    DM if ``in_dm``); ``alone``, ``subs``: the commands' names (:func:`command_names`)."""
    found = []
    if "</" in MENTION.sub("", text):
        found.append("half a mention")
    if in_dm or not renders_mentions(trail):
        return [*found, "mention shown as raw text"] if MENTION.search(text) else found
    if any(MENTION.search(code.group()) for code in CODE.finditer(text)):
        found.append("mention in code marks")
    if re.search(f"`{MENTION.pattern}|{MENTION.pattern}`", text):
        found.append("backtick against a mention")
    for named in re.finditer(r"(?<![\w/<:.])/([^\W\d][\w-]*)(?: ([^\W\d][\w-]*))?", text):
        if named.group(1) in alone or (named.group(1), named.group(2)) in subs:
            found.append("command by name where its mention is known")
    return found


SPACED = re.compile(f"{HAN}[*_~]* +[*_~]*{HAN}")
TYPED = re.compile(r"(?:/\w+|\w+:\w+)$")
"""A command or an option as typed (``/匯入``, ``動作:恢復``): the space after it ends it."""


def chinese_spaced(seen: list[str]) -> list[str]:
    """The texts in ``seen`` (as :func:`defects` lists them) with a space between two
    Chinese characters, but the one that ends a command or an option as typed."""
    return [where for where in seen if any(
        not TYPED.search(where[:m.start() + 1]) for m in SPACED.finditer(where))]


HALF_WIDTH = re.compile(f"{HAN}[*_~]* ?(?:[.,;!?(]|:(?!\\S))")


def half_width_after_chinese(seen: list[str]) -> list[str]:
    """The texts in ``seen`` with Latin punctuation (``.,:;!?(``) right after a Chinese
    character, where Chinese writes its own (``。，：；！？（``); an option as typed
    (``動作:恢復``) keeps its colon."""
    return [where for where in seen if HALF_WIDTH.search(where)]


def named_twice(seen: list[str]) -> list[str]:
    """The texts in ``seen`` that mention someone twice over: his mention before a text
    that starts with it, or after one that has it already."""
    return [where for where in seen if re.search(r"'(<@\d+>) \1", where) or any(
        where.count(m) > 1 for m in re.findall(r"\\n(<@\d+>)'$", where))]


def test_the_reading_finds_what_discord_would_show_wrong() -> None:
    """The walk's reading fails a mention in code marks, in a title, a label or a DM, cut
    in half or against a backtick, and a command written by name."""
    alone, subs = {"move", "ziehen"}, {("puzzle", "next")}

    def read(text: str, *trail: str, dm: bool = False) -> list[str]:
        return problems(text, trail or ("content",), dm, alone, subs)

    assert read("play with </move:12> or </puzzle next:3> `match:2`") == []
    assert read("no match: /puzzle alone, https://x.org/move") == []
    assert read("play with `</move:12>`") == ["mention in code marks",
                                              "backtick against a mention"]
    assert read("play with </move:12>`x`") == ["backtick against a mention"]
    assert read("play with </move:12") == ["half a mention"]
    assert read("play with /ziehen") == ["command by name where its mention is known"]
    assert read("see /puzzle next") == ["command by name where its mention is known"]
    assert read("</move:12>", "embeds", "title") == ["mention shown as raw text"]
    assert read("</move:12>", "embeds", "footer", "text") == ["mention shown as raw text"]
    assert read("</move:12>", "embeds", "fields", "name") == ["mention shown as raw text"]
    assert read("</move:12>", "components", "components", "label") == [
        "mention shown as raw text"]
    assert read("</move:12>", "name") == ["mention shown as raw text"]  # a thread's
    assert read("</move:12>", dm=True) == ["mention shown as raw text"]
    assert read("</move:12>", "embeds", "fields", "value") == []
    assert read("</move:12>", "embeds", "description") == []
    assert read("</move:12>", "components", "components", "content") == []


def defects(w: World, start: int = 0) -> tuple[list[str], list[str]]:
    """(what reads wrong, every text read) in what the bot sent since request
    ``start``."""
    dms = {str(c) for c in w.env.backend.dm_channels.values()}
    alone, subs = command_names(w)
    found: list[str] = []
    seen: list[str] = []
    for r in w.env.http_requests[start:]:
        if r.method not in ("POST", "PATCH", "PUT") or r.json is None or "/commands" in r.path:
            continue
        in_dm = any(f"/channels/{c}/" in r.path + "/" for c in dms)
        for trail, text in _texts(r.json):
            if trail[-1] not in WORDY or (trail[-1] == "value" and "choices" in trail):
                continue
            where = f"{r.path} {'.'.join(trail)}: {text!r}"
            seen.append(where)
            found += [f"{p}: {where}" for p in problems(text, trail, in_dm, alone, subs)]
    return found, seen


@pytest.mark.parametrize("locale", ["en-US", "de", "zh-TW"])
async def test_every_text_of_a_walk_shows_its_mentions_as_discord_renders_them(
        world: World, monkeypatch: pytest.MonkeyPatch, locale: str) -> None:
    w = world
    await w.repository.save_guild_settings(GuildSettings(w.guild.id, language=locale))
    langs = speaking(monkeypatch)
    for actor in (w.alice, w.bob, w.carol, w.dave):
        langs[actor.id] = locale
    start = len(w.env.http_requests)
    await w.bob.slash(w.channel, "notify", mode="dm")  # his turns, offers and results: DMs

    said = reply(await w.carol.slash(w.channel, "help"))
    assert said.embeds and said.embeds[0].description
    help_text = said.embeds[0].description + "".join(f.value for f in said.embeds[0].fields)
    assert MENTION.search(help_text), "help names commands by their mentions"

    outside = reply(await w.carol.slash(w.channel, "move", move="h3-e3"))
    assert outside.ephemeral

    await w.alice.slash(w.channel, "challenge", game="xiangqi", opponent=w.bob, seat=0)
    challenge = w.channel.last_message
    assert challenge is not None
    accepted = await w.bob.click(challenge, custom_id=buttons(challenge)[0].custom_id)
    assert reply(accepted).ephemeral
    (thread,) = w.channel.threads
    await w.alice.slash(thread, "move", move="h3-e3")
    wrong = reply(await w.bob.slash(thread, "move", move="a1-a9"))
    assert wrong.ephemeral
    junk = reply(await w.bob.slash(thread, "move", move="hello"))
    assert junk.ephemeral
    await w.bob.slash(thread, "move", move="h10-g8")
    early = reply(await w.bob.slash(thread, "move", move="c10-e8"))  # not his turn
    # he chose DMs: "You'll be mentioned when it's your turn" was not so for him
    assert early.ephemeral and not any(word in early.content for word in (
        "mentioned", "erwähnt", "提及"))
    await w.alice.slash(thread, "draw", action="offer")
    await w.bob.slash(thread, "pause", days=3)
    await w.alice.slash(thread, "pause", action="accept")
    await w.alice.slash(thread, "board")
    await w.bob.slash(thread, "history")
    await w.carol.slash(w.channel, "history", match=1)
    await w.carol.slash(thread, "setup", arrangement="1 2 3")
    await w.carol.slash(w.channel, "games")
    await w.carol.slash(w.channel, "puzzle next")
    await finished(w, ALQUERQUE)
    await finished(w, DAMAS)
    await mined(w)
    await w.dave.slash(w.channel, "puzzle next")
    await w.dave.slash(w.channel, "puzzle answer", move="hello")
    await w.dave.slash(w.channel, "puzzle answer", move="a1-a2")
    await w.alice.slash(thread, "pause", action="resume")
    for name, options in (("rules", {"game": "xiangqi"}), ("stats", {}),
                          ("leaderboard", {"game": "xiangqi"}),
                          ("tournament create", {"game": "xiangqi", "format": "swiss"}),
                          ("explorer", {"game": "xiangqi"}), ("analysis", {"match": 1}),
                          ("tournament standings", {}), ("follow", {"match": 1}),
                          ("note", {"text": "x"}), ("takeback", {}), ("rematch", {})):
        await w.carol.slash(w.channel, name, **options)
    await w.alice.slash(thread, "takeback")
    await w.bob.slash(thread, "resign")
    await w.env.settle()

    found, seen = defects(w, start)
    assert any(MENTION.search(s) for s in seen)
    dm = w.bob.user.dm_channel
    assert dm is not None and any(f"/channels/{dm.id}/" in s for s in seen)
    found += [f"a space between Chinese characters: {s}" for s in chinese_spaced(seen)]
    found += [f"Latin punctuation after Chinese: {s}" for s in half_width_after_chinese(seen)]
    found += [f"mentioned twice: {s}" for s in named_twice(seen)]
    assert not found, "\n".join(found)
