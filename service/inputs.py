"""Text from people, checked at the service boundary (issue 36 §3): every text a person
typed (a move, a note, conditional moves, a tournament's name, a challenge's options, a
setting, a seat...) is valid text before any use-case sees it, so no database driver,
terminal or log is handed a character it cannot take.

Refused (never stripped: what is stored is what was typed, or nothing):

* lone surrogates (U+D800-U+DFFF): half of a character; UTF-8 cannot encode them (a note
  with ``"\\ud800"`` ended in aiosqlite's ``UnicodeEncodeError``). They reach us from
  JSON escapes and from terminals decoding broken bytes;
* control characters but tab, line feed and carriage return: U+0000 (PostgreSQL refuses
  it in text; C strings end at it), the rest of C0, DEL and C1 (U+007F-U+009F): nobody
  types them, and in the console they are terminal escapes.

Every other code point (any script, emoji, private use, unassigned) is text and is kept.

:func:`text_checks` gives the service's door (``ids.checked_ids``, which wraps every public
coroutine of the service) a check for each parameter annotated with ``str`` (also inside a
mapping or a list, e.g. a challenge's options): :func:`check_characters` before the
use-case runs; :func:`check_text` adds the
type and length check the use-cases apply to a single text. A display name (decoration
from Discord, not typed to an operation) is cleaned instead: :func:`without_invalid`.

>>> check_characters("h3-e3 (C2.5) 炮二平五", "move")
'h3-e3 (C2.5) 炮二平五'
>>> try:
...     check_characters("good\\ud800", "note")
... except InvalidText as e:
...     print(e.message)
the note contains U+D800, half of a character without its other half; type it again without it
>>> without_invalid("ali\\x00ce\\udc80")
'alice'
"""

from __future__ import annotations

import inspect
import re
from collections.abc import Callable, Mapping
from typing import Any

from locales.i18n import Words, _
from service.errors import InvalidOption
from service.states import MAX_TEXT

INVALID = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ud800-\udfff]")
"""What text may not hold: lone surrogates and control characters but tab, LF, CR."""


class InvalidText(InvalidOption):
    """Text with a character that is not valid text (a lone surrogate, a control)."""


def invalid_character(text: str) -> str | None:
    """The first character of ``text`` that is not valid text, or None."""
    found = INVALID.search(text)
    return found.group() if found is not None else None


def check_characters(text: str, what: Words) -> str:
    """``text`` when every character is valid text, else ``InvalidText`` naming the
    first wrong one by its code point (never echoing it: it is what cannot be shown)."""
    bad = invalid_character(text)
    if bad is None:
        return text
    code = f"U+{ord(bad):04X}"
    if "\ud800" <= bad <= "\udfff":
        raise InvalidText(_("the {what} contains {code}, half of a character without its "
                            "other half; type it again without it", what=what, code=code))
    raise InvalidText(_("the {what} contains the control character {code}, which text "
                        "cannot hold; type it again without it", what=what, code=code))


def check_text(text: object, what: Words) -> str:
    """``text`` if it is a ``str`` of at most ``MAX_TEXT`` characters, all valid text."""
    if not isinstance(text, str):
        raise InvalidOption(_("the {what} must be text", what=what))
    if len(text) > MAX_TEXT:
        raise InvalidOption(_("that {what} is too long ({count} characters)", what=what,
                              count=len(text)))
    return check_characters(text, what)


def without_invalid(text: str) -> str:
    """``text`` without the characters that are not valid text (for decoration, such as
    a display name, which is shown rather than refused)."""
    return INVALID.sub("", text)


# What a text parameter of the public API holds, by name, for the sentence that refuses it
# (``text`` by method: it is the move, the note...). A parameter not named here is "text".
_WHAT: dict[str, Words] = {
    "game": _("game"), "name": _("tournament name"), "seat": _("seat"),
    "clock": _("time control"), "default_clock": _("time control"),
    "fmt": _("tournament format"), "schedule": _("season schedule"),
    "language": _("language"), "locale": _("language"), "notify": _("choice"),
    "prefix": _("move"), "games_channel_id": _("games channel"),
    "organiser_role_id": _("organiser role"),
    "line": _("line of moves"), "source": _("choice"), "data": _("record"),
}
_TEXT_OF: dict[str, Words] = {
    "move": _("move"), "set_note": _("note"), "submit_setup": _("arrangement"),
    "add_conditional_moves": _("conditional moves"), "answer_puzzle": _("move"),
}
NOT_TYPED = frozenset({"names"})
"""Text parameters that are not a person's input: display names the adapter knows
(decoration, cleaned where they are seen, ``bot.names``)."""

_STR = re.compile(r"\bstr\b")


def text_parameters(method: Callable[..., Any]) -> list[str]:
    """The parameters of ``method`` that take text (annotated with ``str`` anywhere:
    ``str | None``, ``int | str``, ``Mapping[str, object]``), but ``NOT_TYPED``."""
    return [p.name for p in inspect.signature(method).parameters.values()
            if _STR.search(str(p.annotation)) and p.name not in NOT_TYPED]


def _check_value(value: object, what: Words, key_what: Words) -> None:
    """Check the text in ``value``: a str, or the keys and values of a mapping, or the
    items of a list or tuple; other values are the use-case's to judge."""
    if isinstance(value, str):
        check_characters(value, what)
    elif isinstance(value, Mapping):
        for k, v in value.items():
            _check_value(k, key_what, key_what)
            _check_value(v, what, key_what)
    elif isinstance(value, list | tuple):
        for item in value:
            _check_value(item, what, key_what)


def _what(method_name: str, parameter: str) -> tuple[Words, Words]:
    if parameter == "options":
        return _("option"), _("option name")
    if parameter == "text":
        found = _TEXT_OF.get(method_name, _("text"))
        return found, found
    found = _WHAT.get(parameter, _("text"))
    return found, found


def text_checks(name: str, method: Callable[..., Any]) -> dict[str, Callable[[Any], None]]:
    """Per text parameter of the operation ``name`` (see :func:`text_parameters`), the
    check the service's door (``ids.checked_ids``) runs on it before the use-case:
    :func:`check_characters` on the text, or on the keys and values of a mapping."""
    def check(what: Words, key_what: Words) -> Callable[[Any], None]:
        return lambda value: _check_value(value, what, key_what)
    return {p: check(*_what(name, p)) for p in text_parameters(method)}
