"""The rules API is used, not guessed at: code outside ``rules/`` asks a game for its
facts through typed members (``Position.out_seats()``, ``Variant.option_sets()``...),
never by probing attributes by name or by comparing variant keys.

The scan reads the source of every rules consumer (``render/``, ``bot/``, ``storage/``,
``engine/``)
and fails on

* ``getattr(x, ...)`` / ``hasattr(x, ...)`` unless ``x`` is on the small allow-list
  below of objects that are not rules objects (fonts, argparse results, Discord
  namespaces, the optional render module...);
* a comparison with ``==``/``!=``/``in`` of something's ``.key``, or of a registered
  variant key with a name that holds one (``key != "alquerque-grande"``,
  ``rec.game == "querni"``): what differs between games is a member of the game.
"""

from __future__ import annotations

import ast
import functools
from collections.abc import Callable
from pathlib import Path

import pytest

import rules

ROOT = Path(__file__).resolve().parents[2]
CONSUMERS = ("render", "service", "bot", "storage", "engine", "locales")

ALLOWED_PROBES = {
    "f": "a Pillow font: FreeTypeFont.getlength is missing from older stubs",
    "args": "an argparse namespace: subcommands add different flags",
    "module": "the optional render module (bot/boards.py)",
    "importlib.import_module('render.draw')": "the optional render module",
    "render": "the optional render module (the bot runs without Pillow)",
    "interaction.namespace": "a Discord interaction's options",
    "event": "a notification event, for a log line",
    "getattr(event, 'match', None)": "a notification event, for a log line",
    "have": "Discord permissions",
    "drawn": "a drawn board from the BoardRenderer port",
    "interaction.client": "the Discord client's metrics and command ids, read by "
                          "errors.replying, which sits below the client's module",
    "record": "a log record's extras (extra={'match': ...}) for the JSON log line",
}
"""Objects that may be probed: ``ast.unparse`` of the first argument -> why."""


def _sources() -> list[Path]:
    return sorted(p for root in CONSUMERS for p in (ROOT / root).rglob("*.py"))


def _probes(tree: ast.AST) -> list[tuple[int, str]]:
    return [(node.lineno, f"{node.func.id}({ast.unparse(node.args[0])}, ...)")
            for node in ast.walk(tree)
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
            and node.func.id in ("getattr", "hasattr") and node.args
            and ast.unparse(node.args[0]) not in ALLOWED_PROBES]


KEY_NAMES = ("key", "game", "variant")
"""Names that hold a variant key in consumers (``v.key``, ``rec.game``)."""


def _name(node: ast.expr) -> str | None:
    if isinstance(node, ast.Attribute):
        return node.attr
    return node.id if isinstance(node, ast.Name) else None


def _compares_keys(left: ast.expr, right: ast.expr) -> bool:
    for this, other in ((left, right), (right, left)):
        if isinstance(this, ast.Attribute) and this.attr == "key":
            return True  # a variant's key compared with anything
        if isinstance(this, ast.Constant) and this.value in rules.VARIANTS and \
                _name(other) in KEY_NAMES:
            return True  # key == "querni", rec.game != "xiangqi"
    return False


def _key_comparisons(tree: ast.AST) -> list[tuple[int, str]]:
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Compare):
            continue
        sides = [node.left, *node.comparators]
        for op, left, right in zip(node.ops, sides, sides[1:], strict=False):
            if isinstance(op, ast.Eq | ast.NotEq | ast.In | ast.NotIn) and \
                    _compares_keys(left, right):
                found.append((node.lineno, ast.unparse(node)))
    return found


ALLOWED_GAME_KEYED = {
    "locales/terms.py": "OPTION_VALUES: 'alquerque' there is a value of Alquerque grande's "
                        "rules option (the rule set), not the game's key",
}
"""Files whose dict literals may have a registered game key as a key, and why."""


def _game_keyed_tables(tree: ast.AST) -> list[tuple[int, str]]:
    """Dict literals keyed by a registered game's key (``{"xiangqi": ...}``): a table
    about games outside the games, which the game should declare itself."""
    return [(node.lineno, ast.unparse(node)[:60]) for node in ast.walk(tree)
            if isinstance(node, ast.Dict)
            and any(isinstance(k, ast.Constant) and k.value in rules.VARIANTS
                    for k in node.keys)]


Scan = Callable[[ast.AST], list[tuple[int, str]]]


@functools.cache
def _findings() -> dict[Scan, tuple[tuple[str, int, str], ...]]:
    """What each scan finds in each consumer's source: (file, line, text). Each file is
    parsed once for the module's three scans (and its tree let go: the trees of every
    consumer kept alive would slow every later garbage collection of the process)."""
    found: dict[Scan, list[tuple[str, int, str]]] = {
        scan: [] for scan in (_probes, _key_comparisons, _game_keyed_tables)}
    for path in _sources():
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for scan, out in found.items():
            out += [(str(path.relative_to(ROOT)), line, text) for line, text in scan(tree)]
    return {scan: tuple(out) for scan, out in found.items()}


def _violations(check: Scan, allowed: dict[str, str] | None = None) -> list[str]:
    return [f"{path}:{line}: {text}" for path, line, text in _findings()[check]
            if not (allowed and path in allowed)]


def test_no_attribute_probes_on_rules_objects() -> None:
    assert _violations(_probes) == []


def test_no_variant_key_comparisons() -> None:
    assert _violations(_key_comparisons) == []


def test_no_table_keyed_by_a_game_outside_the_game() -> None:
    """What differs between games is declared by the game (its variant, its engine
    module), never a table elsewhere keyed by its name (issue 37)."""
    assert _violations(_game_keyed_tables, ALLOWED_GAME_KEYED) == []
    assert _game_keyed_tables(ast.parse("SPECS = {'querni': 1}"))
    assert not _game_keyed_tables(ast.parse("LOOKS = {'cells': 1}"))


@pytest.mark.parametrize("source, expected", [
    ("x = getattr(position, 'out', None)", ["getattr(position, ...)"]),
    ("ok = hasattr(p, 'has_submitted')", ["hasattr(p, ...)"]),
    ("w = getattr(f, 'getlength')", []),
])
def test_the_probe_scan_catches_probes(source: str, expected: list[str]) -> None:
    assert [text for _, text in _probes(ast.parse(source))] == expected


@pytest.mark.parametrize("source, caught", [
    ("if position.variant.key == 'querni': pass", True),
    ("if v.key != 'xiangqi': pass", True),
    ("if key == 'alquerque-grande': pass", True),
    ("if rec.game == 'damas': pass", True),
    ("if key == 'days': pass", False),
    ("if spec.piece == 'querni': pass", False),  # render's own piece style names
    ("spec = SPECS[v.key]", False),
])
def test_the_key_scan_catches_key_comparisons(source: str, caught: bool) -> None:
    assert bool(_key_comparisons(ast.parse(source))) is caught
