"""Discord's documented limits, checked on every request the bot sends in a SimCord test.

The conftest runs :func:`violations` over ``env.http_requests`` after each test that ran a
bot: a request Discord would refuse (or cut) fails the suite. The 3 s window of a first
response and the 15 minutes of follow-ups are SimCord's own checks (a late one is refused
with Unknown interaction, which fails the test as a bot error). File sizes are not in
SimCord's request log, so the conftest also watches the files each request carries and
checks them with :func:`upload_violations`.

>>> violations("POST", "/channels/1/messages", {"content": "x" * 2001})
['POST /channels/1/messages: content has 2001 characters (limit 2000)']
>>> violations("POST", "/channels/1/messages", {"flags": 1 << 15, "content": "hi",
...            "components": [{"type": 17, "components": [{"type": 10, "content": "x"}]}]})
['POST /channels/1/messages: a components v2 message also has content']
"""

from __future__ import annotations

import re
from typing import Any

from tests.unrendered import unrendered_in

COMMAND_NAME = re.compile(r"^[-_\w\u0900-\u097F\u0E00-\u0E7F]{1,32}$")
MESSAGE_PATHS = (
    re.compile(r"^/channels/\d+/messages(/\d+)?$"),
    re.compile(r"^/webhooks/\d+/[^/]+(/messages/(@original|\d+))?$"),
)
CALLBACK = re.compile(r"^/interactions/\d+/[^/]+/callback$")
THREAD = re.compile(r"^/channels/\d+(/messages/\d+)?/threads$")
COMMANDS = re.compile(r"^/applications/\d+(/guilds/\d+)?/commands$")


def _limit(where: str, what: str, size: int, limit: int) -> list[str]:
    return [f"{where}: {what} has {size} characters (limit {limit})"] if size > limit else []


def _count(where: str, what: str, count: int, limit: int) -> list[str]:
    return [f"{where}: {count} {what} (limit {limit})"] if count > limit else []


def _embed(where: str, e: dict[str, Any]) -> tuple[list[str], int]:
    out: list[str] = []
    title, text = e.get("title") or "", e.get("description") or ""
    footer = (e.get("footer") or {}).get("text") or ""
    author = (e.get("author") or {}).get("name") or ""
    fields = e.get("fields") or []
    out += _limit(where, "embed title", len(title), 256)
    out += _limit(where, "embed description", len(text), 4096)
    out += _limit(where, "embed footer", len(footer), 2048)
    out += _limit(where, "embed author", len(author), 256)
    out += _count(where, "embed fields", len(fields), 25)
    total = len(title) + len(text) + len(footer) + len(author)
    for f in fields:
        out += _limit(where, "field name", len(f.get("name") or ""), 256)
        out += _limit(where, "field value", len(f.get("value") or ""), 1024)
        total += len(f.get("name") or "") + len(f.get("value") or "")
    return out, total


def _components(where: str, rows: list[dict[str, Any]]) -> list[str]:
    out = _count(where, "action rows", len(rows), 5)
    for row in rows:
        items = row.get("components") or []
        out += _count(where, "components in a row", len(items), 5)
        for item in items:
            out += _limit(where, "custom_id", len(item.get("custom_id") or ""), 100)
            out += _limit(where, "button label", len(item.get("label") or ""), 80)
            options = item.get("options") or []
            out += _count(where, "select options", len(options), 25)
            for o in options:
                out += _limit(where, "option label", len(o.get("label") or ""), 100)
                out += _limit(where, "option value", len(o.get("value") or ""), 100)
    return out


COMPONENTS_V2 = 1 << 15
"""The message flag of a Components V2 layout (issue 42)."""
LAYOUT_CHILDREN = {1, 9, 10, 12, 13, 14}
"""What a container may hold: action rows, sections, text displays, media galleries,
files, separators."""


def _walk(components: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Every component of a layout, nested ones included, in order."""
    out: list[dict[str, Any]] = []
    for c in components:
        out.append(c)
        out += _walk(c.get("components") or [])
        if isinstance(c.get("accessory"), dict):
            out += _walk([c["accessory"]])
    return out


def _layout(where: str, data: dict[str, Any]) -> list[str]:
    """Discord's limits of a Components V2 message: no content, embeds, poll or stickers
    beside the layout; at most 40 components in all (nested ones counted) and 4,000
    characters of text in all; an action row of at most 5, a media gallery of 1 to 10
    items (their descriptions at most 1,024 characters), an accent colour a 24-bit
    colour, a container holding only what a container may."""
    out = [f"{where}: a components v2 message also has {key}"
           for key in ("content", "embeds", "poll", "sticker_ids") if data.get(key)]
    every = _walk(data.get("components") or [])
    out += _count(where, "components in all (v2)", len(every), 40)
    out += _limit(where, "text displays in all (v2)",
                  sum(len(c.get("content") or "") for c in every if c.get("type") == 10),
                  4000)
    for c in every:
        kind, children = c.get("type"), c.get("components") or []
        if kind == 1:
            out += _count(where, "components in a row", len(children), 5)
        elif kind == 17:
            colour = c.get("accent_color")
            if colour is not None and not 0 <= colour <= 0xFFFFFF:
                out.append(f"{where}: accent colour {colour} is not a 24-bit colour")
            out += [f"{where}: a container holds a component of type {x.get('type')}"
                    for x in children if x.get("type") not in LAYOUT_CHILDREN]
        elif kind == 12:
            items = c.get("items") or []
            if not 1 <= len(items) <= 10:
                out.append(f"{where}: a media gallery of {len(items)} items (1 to 10)")
            for item in items:
                out += _limit(where, "media description", len(item.get("description") or ""),
                              1024)
        elif kind == 2:
            out += _limit(where, "custom_id", len(c.get("custom_id") or ""), 100)
            out += _limit(where, "button label", len(c.get("label") or ""), 80)
    return out


def _message(where: str, data: dict[str, Any]) -> list[str]:
    if int(data.get("flags") or 0) & COMPONENTS_V2:
        out = _layout(where, data)
        attachments = data.get("attachments") or []
        out += _count(where, "attachments", len(attachments), 10)
        return out
    out = _limit(where, "content", len(data.get("content") or ""), 2000)
    out += _limit(where, "nonce", len(str(data.get("nonce") or "")), 25)
    embeds = data.get("embeds") or []
    out += _count(where, "embeds", len(embeds), 10)
    total = 0
    for e in embeds:
        found, size = _embed(where, e)
        out += found
        total += size
    out += _limit(where, "embeds in all", total, 6000)
    out += _components(where, data.get("components") or [])
    attachments = data.get("attachments") or []
    out += _count(where, "attachments", len(attachments), 10)
    for a in attachments:
        out += _limit(where, "attachment description", len(a.get("description") or ""), 1024)
    return out


def _choices(where: str, choices: list[dict[str, Any]]) -> list[str]:
    out = _count(where, "choices", len(choices), 25)
    for c in choices:
        name = c.get("name") or ""
        if not 1 <= len(name) <= 100:
            out.append(f"{where}: choice name {name!r} is not 1-100 characters")
        if isinstance(c.get("value"), str):
            out += _limit(where, "choice value", len(c["value"]), 100)
    return out


def _command(where: str, command: dict[str, Any]) -> list[str]:
    name = command.get("name") or ""
    out: list[str] = []
    if command.get("type", 1) == 1:
        if not COMMAND_NAME.match(name) or name != name.lower():
            out.append(f"{where}: command name {name!r} is not a valid slash command name")
        if not 1 <= len(command.get("description") or "") <= 100:
            out.append(f"{where}: /{name} description is not 1-100 characters")
    elif not 1 <= len(name) <= 32:
        out.append(f"{where}: context menu name {name!r} is not 1-32 characters")
    options = command.get("options") or []
    out += _count(where, f"options on /{name}", len(options), 25)
    for o in options:
        if not COMMAND_NAME.match(o.get("name") or "") or o["name"] != o["name"].lower():
            out.append(f"{where}: option name {o.get('name')!r} of /{name} is not valid")
        if not 1 <= len(o.get("description") or "") <= 100:
            out.append(f"{where}: option {o.get('name')} of /{name}: description is not "
                       "1-100 characters")
        out += _choices(f"{where} /{name} {o.get('name')}", o.get("choices") or [])
    return out


MAX_UPLOAD = 10 * 1024 * 1024
"""Bytes a file may have (Discord's limit for a bot in a server without boosts)."""


def upload_violations(method: str, path: str, sizes: list[int]) -> list[str]:
    """The limits the files of one request break: at most 10 files of 10 MiB each.

    >>> upload_violations("POST", "/channels/1/messages", [MAX_UPLOAD + 1])
    ['POST /channels/1/messages: file 1 has 10485761 bytes (limit 10485760)']
    """
    where = f"{method} {path}"
    out = _count(where, "files", len(sizes), 10)
    out += [f"{where}: file {i} has {n} bytes (limit {MAX_UPLOAD})"
            for i, n in enumerate(sizes, start=1) if n > MAX_UPLOAD]
    return out


COMMAND_MENTION = re.compile(r"</[^<>:\n]+:\d+>")
CODE_SPAN = re.compile(r"`[^`]*`")
PLAIN_TEXT = frozenset({"title", "label", "placeholder", "name", "text", "description"})
"""The keys whose text Discord shows as it is (an embed's title, footer text, author and
field names; a button's label; a menu's placeholder, options; a choice's name; a thread's
name; an attachment's description): a command mention there is written out. An embed's
own description is Markdown (checked as content is)."""


def written_out_mentions(body: Any, key: str = "") -> list[str]:
    """Where a command mention (``</move:1>``) would be written out, not shown: in a
    field Discord shows as plain text, or inside code marks.

    >>> written_out_mentions({"content": "see `</move:1>`", "embeds": [{"type": "rich",
    ...     "description": "</board:2>", "footer": {"text": "</board:2>"}}]})
    ['content: `</move:1>`', 'text: </board:2>']
    """
    if isinstance(body, list):
        return [x for item in body for x in written_out_mentions(item, key)]
    if isinstance(body, dict):
        embed = body.get("type") == "rich"
        return [x for k, v in body.items() for x in written_out_mentions(
            v, "markdown" if embed and k == "description" else k)]
    if not isinstance(body, str) or not COMMAND_MENTION.search(body):
        return []
    if key in PLAIN_TEXT:
        return [f"{key}: {body}"]
    return [f"{key}: {span}" for span in CODE_SPAN.findall(body)
            if COMMAND_MENTION.search(span)]


def violations(method: str, path: str, body: Any) -> list[str]:
    """Every documented limit the request breaks (none: an empty list), every string
    in it that shows a person an unrendered lazy text (``Text(msgid=...)``), and every
    command mention it would show written out.

    >>> violations("POST", "/channels/1/messages", {"content": "#1: Text(msgid='x')"})
    ["POST /channels/1/messages: unrendered words: Text(msgid='x')"]
    """
    where = f"{method} {path}"
    if not isinstance(body, dict | list):
        return []
    leaks = [f"{where}: unrendered words: {x}" for x in unrendered_in(body)]
    leaks += [f"{where}: a command mention written out: {x}"
              for x in written_out_mentions(body)]
    return leaks + _limits(where, method, path, body)


def _limits(where: str, method: str, path: str, body: dict[str, Any] | list[Any]
            ) -> list[str]:
    if method in ("POST", "PATCH") and isinstance(body, dict) and any(
            p.match(path) for p in MESSAGE_PATHS):
        return _message(where, body)
    if method == "POST" and CALLBACK.match(path) and isinstance(body, dict):
        data = body.get("data") or {}
        if body.get("type") == 8:
            return _choices(where, data.get("choices") or [])
        return _message(where, data)
    if method == "POST" and THREAD.match(path) and isinstance(body, dict):
        name = body.get("name") or ""
        return [] if 1 <= len(name) <= 100 else [f"{where}: thread name {name!r} is not "
                                                 "1-100 characters"]
    if method == "PUT" and COMMANDS.match(path) and isinstance(body, list):
        return [v for c in body for v in _command(where, c)]
    return []
