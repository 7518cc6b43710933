"""No English sentence for people left in ``bot/`` outside the catalogues (issue 14).

Every literal that reads like words (two words in a row) must be marked with ``_()`` or
``_n()``, be a docstring, a log line, or a command-tree text (names, descriptions and
choices reach Discord through ``bot.discordapp.translator``), or be listed below with the
reason it is not for a reader of Tablero's messages.
"""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Any

from tests.locales.english_scan import english_literals

ROOT = Path(__file__).resolve().parents[2]

ALLOWED_FILES = {
    "bot/__main__.py": "the operator's command line (argparse help, start-up errors): English",
    "bot/discordapp/cli.py": "the operator's command line (sync, invite): English",
    "bot/operations.py": "the operator's db backup/check/copy reports: English",
    "bot/settings.py": "configuration errors for the operator: English",
    "service/exports.py": "exported records are file formats (WXF, PDN headers)",
    "service/shards.py": "shard leases: refusals for the operator starting a process",
    "service/tournaments/pairing.py": "internal invariants of the pairing (logged)",
    "service/tournaments/knockout.py": "internal invariants of the bracket (logged)",
    "bot/discordapp/translator.py": "gettext context names (command name, option name...)",
    "bot/web/app.py": "HTTP headers and the event stream's protocol lines",
    "bot/web/pages.py": "HTML markup around translated words (its sentences are _())",
    "bot/web/community.py": "HTML markup around translated words (its sentences are _())",
    "bot/web/graph.py": "SVG and HTML markup around translated words (its sentences are _())",
    "bot/web/links.py": "the operator's configuration error (a short web secret)",
    "bot/ops/health.py": "/readyz's reasons, for the operator and the orchestrator: English",
    "bot/ops/metrics.py": "Prometheus' HELP texts and content type, for the operator",
    "bot/ops/probe.py": "the container's health check (its argparse help): English",
}
"""Whole files whose words are not for the players."""

ALLOWED = {
    # the computer's English name the name caches and files keep (``computer_title`` is
    # the reader's)
    ("service/computer_seats.py", "Tablero level {}"),
    # stored words: the record keeps English, ``locales.terms`` puts them in words
    # (a match ended before every player had moved: ``service.early_ends``)
    ("service/early_ends.py", "draw agreed before every player had moved"),
    ("service/early_ends.py", "no move in time"),
    ("service/early_ends.py", "double forfeit: no move in time; both players lose"),
    ("service/early_ends.py", "ran out of time"),
    # the words' end, written by early_end and read back by left_words
    ("service/early_ends.py", " before every player had moved"),
    ("service/play.py", "setup submitted"),
    ("service/queries.py", "setup submitted"),
    ("service/states.py", "setup submitted"),
    ("service/comforts.py", "setup submitted"),
    ("service/states.py", "draw agreed"),
    # internal errors, never shown (logged, or turned into a retry)
    ("service/core.py", "match {} changed while it was read"),
    ("service/states.py", "unknown entry {}"),
    ("service/outbox.py", "unknown outbox kind {}"),
    ("service/outbox.py", "outbox entry {} does not read: {}"),
    ("service/outbox.py", "try again later"),
    ("service/tournament_service.py", "tournament #{} is busy; try again"),
    ("service/tournaments/model.py", "player {} is not in this game"),
    ("bot/discordapp/dispatcher.py", "rate limited"),
    ("bot/discordapp/dispatcher.py", "Discord error {}"),
    ("bot/discordapp/errors.py", "an interaction"),
    ("bot/discordapp/errors.py", " in channel {}"),
    ("bot/discordapp/errors.py", " in match {}"),
    # a shard's state as /readyz names it, for the operator
    ("bot/discordapp/client.py", "not connected to Discord yet"),
    ("bot/discordapp/client.py", "closed (the bot is stopping)"),
    ("bot/discordapp/client.py", "disconnected from the gateway"),
    ("bot/discordapp/client.py", "not ready yet"),
    ("service/seasons.py", "{} seasons have no calendar"),  # a caller's bug
    # a programmer's error, raised when the service class is built (never at run time)
    ("service/ids.py",
     "{}.{} takes {} but not the caller: add `caller: Caller | None = None`"),
    # a programmer's error: every event has a handler (tests/console/test_printer_handlers.py,
    # tests/discordapp/test_notifier_handlers.py)
    ("bot/event_handlers.py", "{} has no handler for {}"),
    # what people type (the parser reads the same words in every language)
    ("service/tournaments/model.py", "round robin"),
    ("service/tournaments/model.py", "single round robin"),
    ("service/tournaments/model.py", "double round robin"),
    # keys: the English labels ``locales.terms.permission_name`` translates
    ("bot/discordapp/permissions.py", "View Channel"),
    ("bot/discordapp/permissions.py", "Send Messages"),
    ("bot/discordapp/permissions.py", "Send Messages in Threads"),
    ("bot/discordapp/permissions.py", "Create Public Threads"),
    ("bot/discordapp/permissions.py", "Read Message History"),
    ("bot/discordapp/permissions.py", "Embed Links"),
    ("bot/discordapp/permissions.py", "Attach Files"),
    ("bot/discordapp/permissions.py", "Manage Server"),
}
"""Single literals (file, text) that are not sentences for players, with why."""


@functools.cache
def _literals() -> tuple[Any, ...]:
    """The English literals of the application core and the adapters (the sources
    scanned once for the module's tests, not three times)."""
    return tuple(x for folder in ("service", "bot")
                 for x in english_literals(ROOT / folder, ROOT))


def test_no_english_sentence_is_left_outside_the_catalogues() -> None:
    left = [f"{x.path}:{x.line}: {x.text!r}" for x in _literals()
            if x.path not in ALLOWED_FILES and (x.path, x.text) not in ALLOWED]
    assert not left, "mark these with _() (or allow them, saying why):\n" + "\n".join(left)


def test_the_allow_list_has_no_stale_entries() -> None:
    """An allowed literal that is gone must leave the list (it could hide a new one)."""
    found = {(x.path, x.text) for x in _literals()}
    assert found >= ALLOWED, sorted(ALLOWED - found)
    files = {x.path for x in _literals()}
    assert set(ALLOWED_FILES) <= files, sorted(set(ALLOWED_FILES) - files)


def test_the_scan_finds_an_unmarked_sentence(tmp_path: Path) -> None:
    """The scan itself works: an f-string sentence is found, a marked one is not."""
    folder = tmp_path / "bot"
    folder.mkdir()
    (folder / "x.py").write_text(
        'from locales.i18n import _\n'
        'def f(n: int) -> object:\n'
        '    """Docstrings are not messages."""\n'
        '    log.info("logs are English %s", n)\n'
        '    if n:\n'
        '        return f"you have {n} matches"\n'
        '    return _("you have no match")\n', "utf-8")
    found = [(x.line, x.text) for x in english_literals(folder, tmp_path)]
    assert found == [(6, "you have {} matches")]
