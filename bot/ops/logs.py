"""Log lines for people (``TABLERO_LOG_FORMAT=text``, the default) or machines
(``json``: one JSON object a line).

A JSON line holds ``time`` (UTC, ISO 8601), ``level``, ``logger``, ``message``, an
``exception`` when there is one, and ``match``, ``server`` and ``shard`` where known: the
adapters say what they work on with :func:`log_context` (an interaction its server and
shard, and its match when it names one; a delivery its match), and a call may pass them
itself (``log.info(..., extra={"match": 7})``). Token redaction happens when a record is
made (``bot.ops.redaction``, installed by :func:`configure`), before any formatter, so it
holds in both formats and in every process.

>>> import logging
>>> record = logging.LogRecord("tablero.discord", logging.INFO, "x.py", 1,
...                            "match %s ended", (7,), None)
>>> record.created = 0.0
>>> with log_context(server=42, match=7, shard=1):
...     print(JsonFormatter().format(record))
{"time": "1970-01-01T00:00:00.000Z", "level": "INFO", "logger": "tablero.discord", \
"message": "match 7 ended", "match": 7, "server": 42, "shard": 1}
"""

from __future__ import annotations

import contextlib
import json
import logging
import sys
import time
from collections.abc import Iterator, Mapping
from contextvars import ContextVar
from types import MappingProxyType

from bot.ops import redaction

FORMATS = ("text", "json")

TEXT_FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"

CONTEXT_FIELDS = ("match", "server", "shard")

_configured = "text"
"""The format :func:`configure` set last (what :func:`refuse` writes by default)."""

_NOTHING: Mapping[str, int] = MappingProxyType({})
_context: ContextVar[Mapping[str, int]] = ContextVar("tablero_log_context", default=_NOTHING)


@contextlib.contextmanager
def log_context(**fields: int | None) -> Iterator[None]:
    """While the block runs (in this task and the tasks it starts), log lines carry
    ``fields`` (``match``, ``server``, ``shard``; None: not known, left out)."""
    known = {k: int(v) for k, v in fields.items() if v is not None and k in CONTEXT_FIELDS}
    token = _context.set({**_context.get(), **known})
    try:
        yield
    finally:
        _context.reset(token)


def current_context() -> Mapping[str, int]:
    """What :func:`log_context` says now."""
    return _context.get()


class JsonFormatter(logging.Formatter):
    """One JSON object a line (see the module docstring)."""

    def format(self, record: logging.LogRecord) -> str:
        seconds = int(record.created)
        millis = int((record.created - seconds) * 1000)
        stamp = time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(seconds))
        line: dict[str, object] = {
            "time": f"{stamp}.{millis:03d}Z",
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        context = current_context()
        for field in CONTEXT_FIELDS:
            value = getattr(record, field, None)
            if value is None:
                value = context.get(field)
            if isinstance(value, int) and not isinstance(value, bool):
                line[field] = value
        if record.exc_info and not record.exc_text:
            record.exc_text = self.formatException(record.exc_info)
        if record.exc_text:
            line["exception"] = record.exc_text
        if record.stack_info:
            line["stack"] = record.stack_info
        return json.dumps(line, ensure_ascii=False)


def configure(level: str, log_format: str = "text") -> None:
    """The root logger's one handler (standard error), in ``log_format``; tokens and the
    web's signed links redacted from every record (``bot.ops.redaction``)."""
    global _configured
    redaction.install()
    _configured = log_format
    handler = logging.StreamHandler()
    handler.setFormatter(JsonFormatter() if log_format == "json"
                         else logging.Formatter(TEXT_FORMAT))
    logging.basicConfig(level=level, handlers=[handler])


def refuse(line: str, log_format: str | None = None) -> None:
    """A start-up refusal (settings that do not parse, a port taken, no token): ``line``
    on standard error as it is (``text``), or as one ERROR record of the ``tablero``
    logger in JSON (``json``: standard error holds nothing but JSON objects then, so a
    log shipper reads the refusal; its ``message`` is the same sentence). ``log_format``
    None: the one :func:`configure` set."""
    if (log_format or _configured) != "json":
        print(line, file=sys.stderr)
        return
    redaction.install()
    record = logging.getLogRecordFactory()("tablero", logging.ERROR, __file__, 0, "%s",
                                           (line,), None)
    print(JsonFormatter().format(record), file=sys.stderr, flush=True)
