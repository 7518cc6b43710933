"""Helpers for the language tests: who speaks what (SimCord sends every interaction as
``en-US``; the tests give each user his Discord locale), a pseudo-language whose every
message is visibly marked, and every word the bot sent, read from SimCord's request log.
"""

from __future__ import annotations

import gettext
import re
from collections.abc import Iterator
from typing import Any

import pytest
from simcord import interactions as simcord_interactions

import locales.i18n

MARK = "⟦"
"""What the pseudo-language puts around every message (never in notation or names)."""


class Pseudo(gettext.NullTranslations):
    """A language that says every English sentence between ``⟦ ⟧`` (placeholders kept),
    so a message that bypassed the catalogues shows at once. Command-tree names keep
    their English (Discord's rules for names)."""

    def gettext(self, message: str) -> str:
        return f"{MARK}{message}⟧"

    def ngettext(self, msgid1: str, msgid2: str, n: int) -> str:
        return f"{MARK}{msgid1 if n == 1 else msgid2}⟧"

    def pgettext(self, context: str, message: str) -> str:
        return message


def speak_pseudo(monkeypatch: pytest.MonkeyPatch, locale: str) -> None:
    """Make ``locale``'s catalogue the pseudo-language for this test."""
    real = locales.i18n.translations

    def patched(wanted: str) -> gettext.NullTranslations:
        return Pseudo() if wanted == locale else real(wanted)
    monkeypatch.setattr(locales.i18n, "translations", patched)


def speaking(monkeypatch: pytest.MonkeyPatch) -> dict[int, str]:
    """A map user id -> Discord locale that every SimCord interaction then carries
    (``interaction.locale``); users not in it speak en-US."""
    chosen: dict[int, str] = {}
    real = simcord_interactions.base_payload

    def base_payload(backend: Any, **kwargs: Any) -> Any:
        record, payload = real(backend, **kwargs)
        payload["locale"] = chosen.get(int(kwargs["user_id"]), "en-US")
        return record, payload
    monkeypatch.setattr(simcord_interactions, "base_payload", base_payload)
    return chosen


WORDY_KEYS = frozenset({"content", "title", "description", "name", "value", "text",
                        "label", "placeholder"})
"""Where a Discord payload carries words people read (``value`` of an embed field; an
autocomplete choice's ``value`` is data and is skipped)."""


def _words_in(data: Any, parent: str = "") -> Iterator[str]:
    if isinstance(data, dict):
        is_choice = "name" in data and "value" in data and parent == "choices"
        for k, v in data.items():
            if isinstance(v, str) and k in WORDY_KEYS and not (is_choice and k == "value"):
                yield v
            elif isinstance(v, dict | list):
                yield from _words_in(v, k)
    elif isinstance(data, list):
        for item in data:
            yield from _words_in(item, parent)


def sent_texts(env: Any, start: int = 0) -> list[tuple[str, str]]:
    """(request path, text) of every word the bot sent since request ``start``: posts,
    DMs, interaction replies and follow-ups, edits, embeds, buttons, menus, thread
    names, attachment descriptions, autocomplete choices."""
    out = []
    for r in env.http_requests[start:]:
        if r.method not in ("POST", "PATCH") or r.json is None:
            continue
        if "/commands" in r.path:  # the command tree: the Translator's, tested apart
            continue
        for text in _words_in(r.json):
            out.append((r.path, text))
    return out


_NOT_WORDS = [
    re.compile(r"<(@!?|#|@&)\d+>"),  # mentions
    re.compile(r"<t:\d+(:\w)?>"),  # Discord timestamps (Discord localizes them)
    re.compile(r"https?://\S+"),
    re.compile(r"`[^`]*`"),  # code: notation, commands, option values
    re.compile(r"\b[a-j](?:10|[1-9])(?:[-x][a-j](?:10|[1-9]))+\b"),  # moves
    re.compile(r"\b[A-Z][1-9][.+=-][1-9]\b"),  # WXF
    re.compile(r"\b\w+\.(png|gif|csv|wxf|pdn|tablero)\b"),  # file names
]


def words_left(text: str, names: tuple[str, ...] = ()) -> str:
    """``text`` without what is the same in every language (mentions, timestamps,
    notation, code, names, numbers, punctuation): the words a reader reads."""
    for pattern in _NOT_WORDS:
        text = pattern.sub(" ", text)
    for name in names:
        text = re.sub(rf"\b{re.escape(name)}\b", " ", text)
    return " ".join(re.findall(r"[^\W\d_]{2,}", text))
