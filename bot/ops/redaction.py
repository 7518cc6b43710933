"""Tokens never reach a log, at any level, in any process (:func:`bot.ops.logs.configure`
installs this for every ``tablero`` command).

discord.py logs, at DEBUG, every HTTP route it calls (an interaction's follow-ups go to
``/webhooks/<application id>/<interaction token>``) and every gateway event it receives
(``INTERACTION_CREATE`` carries the interaction's ``token``); a traceback of a failed
request may quote its URL. :func:`install` wraps the process's log-record factory so
every record, whatever its logger, level or handler, has those tokens and anything shaped
like a bot token replaced before any handler sees it.

>>> redact("POST https://discord.com/api/v10/webhooks/123/aW50ZXJhY3Rpb246MTIz/messages/@original")
'POST https://discord.com/api/v10/webhooks/123/<redacted>/messages/@original'
>>> redact("{'type': 2, 'token': 'aW50ZXJhY3Rpb24', 'id': '9'}")
"{'type': 2, 'token': '<redacted>', 'id': '9'}"
>>> redact("MTIzNDU2Nzg5MDEyMzQ1Njc4.Gabcde.c2VjcmV0LXBhcnQtbmV2ZXItcHJpbnRlZA")
'<redacted>'

The web's signed links are secrets too (a player's ``/p/`` link moves for him): their
token is cut from a logged path or address.

>>> redact("web request /p/AAAAAAAAAAEAAAAAAAAAAb2fGY0wDtj7lnhBPlHAd5Y/move refused")
'web request /p/<redacted>/move refused'
>>> redact("https://tablero.example/m/AAAAAAAAAAEAAAAAAAAAAb2fGY0wDtj7lnhBPlHAd5Y")
'https://tablero.example/m/<redacted>'
"""

from __future__ import annotations

import logging
import re
from typing import Any

REDACTED = "<redacted>"

_PATTERNS = (
    # /webhooks/<id>/<token> and /interactions/<id>/<token>: interaction tokens in routes
    (re.compile(r"(/(?:webhooks|interactions)/\d+/)[^/\s'\"?]+"), rf"\g<1>{REDACTED}"),
    # "token": "..." in a payload (a gateway event, a JSON body), quoted either way
    (re.compile(r"""(['"]token['"]\s*:\s*['"])[^'"]*(['"])"""), rf"\g<1>{REDACTED}\g<2>"),
    # a web link's signed token: /m/ (spectators), /p/ (a player), /s/ (a server's page)
    (re.compile(r"(/[mps]/)[A-Za-z\d_-]{16,}"), rf"\g<1>{REDACTED}"),
    # a bot token: base64 user id . timestamp . HMAC
    (re.compile(r"[A-Za-z\d_-]{17,30}\.[A-Za-z\d_-]{5,8}\.[A-Za-z\d_-]{25,}"), REDACTED),
)


def redact(text: str) -> str:
    """``text`` with every interaction or bot token replaced by ``<redacted>``."""
    for pattern, replacement in _PATTERNS:
        text = pattern.sub(replacement, text)
    return text


def _redacted(record: logging.LogRecord) -> logging.LogRecord:
    try:
        message = record.getMessage()
    except Exception:  # a malformed call: keep its parts, redacted
        message = f"{record.msg} {record.args}"
    record.msg, record.args = redact(message), None
    if record.exc_info and not record.exc_text:
        record.exc_text = redact(logging.Formatter().formatException(record.exc_info))
    if record.stack_info:
        record.stack_info = redact(record.stack_info)
    return record


_installed = False


def install() -> None:
    """Redact every log record made from now on in this process (once)."""
    global _installed
    if _installed:
        return
    make = logging.getLogRecordFactory()

    def factory(*args: Any, **kwargs: Any) -> logging.LogRecord:
        return _redacted(make(*args, **kwargs))

    logging.setLogRecordFactory(factory)
    _installed = True
