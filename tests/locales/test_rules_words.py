"""The rules core's refusals in every language: each raise in ``rules/`` carries a code,
every code has an English template and a message id with the same placeholders, no entry
is stale, and real refusals read in German with no English left in them."""

from __future__ import annotations

import ast
import re
import string
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

import rules
from locales.i18n import Text, translations
from locales.rules_words import UNCODED, WORDS, refusal_words, rules_words
from rules.core import Detail, RulesError, detail
from rules.messages import MESSAGES

RULES_DIR = Path(rules.__file__).resolve().parent
ERROR_CLASSES = frozenset(
    name for name, value in vars(rules.core).items()
    if isinstance(value, type) and issubclass(value, RulesError))


def placeholders(pattern: str) -> set[str]:
    return {field for _, field, _, _ in string.Formatter().parse(pattern) if field}


def modules() -> Iterator[tuple[str, ast.Module]]:
    for path in sorted(RULES_DIR.glob("*.py")):
        yield path.name, ast.parse(path.read_text(encoding="utf-8"))


def called(node: ast.Call) -> str | None:
    func = node.func
    return func.id if isinstance(func, ast.Name) else \
        func.attr if isinstance(func, ast.Attribute) else None


def detail_codes(node: ast.Call) -> list[str]:
    """The codes a ``detail(...)`` call can name (a literal or a choice of literals)."""
    first = node.args[0]
    choices = [first.body, first.orelse] if isinstance(first, ast.IfExp) else [first]
    assert all(isinstance(c, ast.Constant) and isinstance(c.value, str) for c in choices), \
        f"line {node.lineno}: detail() must name its code as a literal string"
    return [c.value for c in choices if isinstance(c, ast.Constant)]


def detail_calls() -> Iterator[tuple[str, ast.Call]]:
    for name, tree in modules():
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and called(node) == "detail" and node.args:
                yield name, node


def test_the_error_classes_are_found() -> None:
    assert {"RulesError", "NotationError", "IllegalMoveError", "AmbiguousMoveError",
            "PositionError", "OptionError", "UnknownVariantError"} <= ERROR_CLASSES


def test_every_rules_error_in_the_core_is_built_from_a_coded_detail() -> None:
    """No message written as a string: each RulesError gets a ``detail(...)`` or a value
    typed as a Detail (a nested reason, ``e.detail``, an explainer's verdict)."""
    built = 0
    for name, tree in modules():
        for node in ast.walk(tree):
            if not (isinstance(node, ast.Call) and called(node) in ERROR_CLASSES):
                continue
            built += 1
            assert node.args, f"{name}:{node.lineno}: a rules error with no detail"
            first = node.args[0]
            stringy = isinstance(first, ast.Constant | ast.JoinedStr | ast.BinOp) or (
                isinstance(first, ast.Call) and called(first) in {"str", "format", "repr"})
            assert not stringy, f"{name}:{node.lineno}: a rules error built from a string"
    assert built > 150  # every raise site of the core is seen


def test_every_detail_names_a_known_code_with_exactly_its_placeholders() -> None:
    for name, node in detail_calls():
        given = {k.arg for k in node.keywords}
        assert None not in given, f"{name}:{node.lineno}: pass params by name, not **"
        for code in detail_codes(node):
            assert code in MESSAGES, f"{name}:{node.lineno}: {code!r} has no template"
            assert code in WORDS, f"{name}:{node.lineno}: {code!r} has no message id"
            assert given == placeholders(MESSAGES[code]), (name, node.lineno, code)


def test_every_code_is_raised_somewhere_and_known_to_both_tables() -> None:
    raised = {code for _, node in detail_calls() for code in detail_codes(node)}
    assert set(MESSAGES) == raised, f"stale templates: {set(MESSAGES) - raised}"
    assert set(WORDS) == set(MESSAGES)


@pytest.mark.parametrize("code", sorted(MESSAGES))
def test_the_message_id_has_the_templates_placeholders(code: str) -> None:
    assert placeholders(WORDS[code].msgid) == placeholders(MESSAGES[code])
    assert re.fullmatch(r"[a-z][a-z0-9_]*", code)


def test_an_error_keeps_its_english_message_and_adds_code_and_params() -> None:
    e = rules.IllegalMoveError(detail("occupied", point="c3"), text="c2-c3")
    assert (str(e), e.message, e.text, e.code, dict(e.params)) == (
        "c3 is occupied", "c3 is occupied", "c2-c3", "occupied", {"point": "c3"})
    assert isinstance(e, ValueError) and e.detail == Detail("occupied", e.params)
    plain = rules.RulesError("written by hand", text="x")
    assert (plain.message, plain.code, dict(plain.params)) == ("written by hand", "", {})


def test_an_error_survives_pickling_with_its_code() -> None:
    import pickle

    e = rules.AmbiguousMoveError(detail("ambiguous_move", input="c3", moves=("a", "b")),
                                 text="c3", candidates=("a", "b"))
    back = pickle.loads(pickle.dumps(e))
    assert (type(back), back.message, back.code, dict(back.params), back.text,
            back.candidates) == (type(e), e.message, e.code, dict(e.params), "c3", ("a", "b"))


# --------------------------------------------------------------------------- real refusals

def refused(action: Callable[[], Any]) -> RulesError:
    with pytest.raises(RulesError) as caught:
        action()
    return caught.value


def move(key: str, text: str, **options: Any) -> Callable[[], Any]:
    v = rules.variant(key)
    return lambda: v.parse_move(v.start(**options), text)


def start(key: str, **options: Any) -> Callable[[], Any]:
    return lambda: rules.variant(key).start(**options)


def position(key: str, text: str) -> Callable[[], Any]:
    return lambda: rules.variant(key).from_text(text)


# (what provokes it, the code it must give, the notation the sentence must name)
REFUSALS: list[tuple[str, Callable[[], Any], str, str]] = [
    ("alquerque occupied", move("alquerque", "a1-a2"), "occupied", "a2"),
    ("alquerque not yours", move("alquerque", "b5-b4"), "not_your_piece", "b5"),
    ("alquerque off board", move("alquerque", "a1-f9"), "off_board", "f9"),
    ("alquerque malformed", move("alquerque", "c3x"), "ends_with_separator", "c3x"),
    ("alquerque bad text", position("alquerque", "x y z"), "placement_ranks", "5"),
    ("grande empty", move("alquerque-grande", "d4-d5"), "empty_point", "d4"),
    ("grande other's stone", move("alquerque-grande", "a7-a6"), "others_piece", "a7"),
    ("grande option", start("alquerque-grande", players=3), "option_value", "players=3"),
    ("grande mode", start("alquerque-grande", players=2, mode="teams"), "mode_needs_four",
     "Alquerque grande"),
    ("xiangqi empty", move("xiangqi", "c3-c4"), "move_refused", "c3"),
    ("xiangqi horse", move("xiangqi", "b1-b4"), "move_refused", "b1-b4"),
    ("xiangqi general", move("xiangqi", "e1-e3"), "move_refused", "e1-e3"),
    ("xiangqi WXF", move("xiangqi", "C2.2"), "input_refused", "C2.2"),
    ("xiangqi captures nothing", move("xiangqi", "h3xh4"), "captures_nothing", "h4"),
    ("xiangqi ICCS", move("xiangqi", "a0-a1"), "iccs_rank_zero", "a0-a1"),
    ("xiangqi option", start("xiangqi", foo=1), "no_options", "foo"),
    ("xiangqi FEN", position("xiangqi", "rnbakabnr/9 w"), "fen_rank_count", "10"),
    ("damas other's piece", move("damas", "21-17"), "opponents_piece", "g6"),
    ("damas diagonal", move("damas", "11-16"), "not_diagonal", "d3-a4"),
    ("damas square", move("damas", "40-41"), "no_such_square", "40"),
    ("damas playing square", move("damas", "a1-b2"), "not_a_playing_square", "a1"),
    ("damas FEN", position("damas", "W:W29:B1"), "man_on_crowning_row", "g8"),
    ("querni null move", move("querni", "a1-a1"), "null_move", "a1"),
    ("querni chain", move("querni", "r3-4"), "chain_too_short", "r3-4"),
    ("querni malformed", move("querni", "zz"), "not_point_move", "zz"),
    ("querni seed", start("querni", seed="x"), "seed_not_integer", "'x'"),
    ("querni setup text", position("querni", "setup 1,2,3 -"), "arrangement_length", "3"),
    ("unknown game", lambda: rules.variant("chess"), "unknown_game", "chess"),
]


@pytest.mark.parametrize(("provoke", "code", "named"),
                         [r[1:] for r in REFUSALS], ids=[r[0] for r in REFUSALS])
def test_real_refusals_say_their_code_and_read_the_same_in_english(
        provoke: Callable[[], Any], code: str, named: str) -> None:
    e = refused(provoke)
    assert e.code == code
    assert named in e.message
    # en-GB lists choices as the core does ("a, b or c"): the same sentence word for word
    assert rules_words(e).render("en-GB") == e.message


def english_words(pattern: str) -> set[str]:
    """The template's own words (placeholders and notation-like tokens dropped)."""
    text = re.sub(r"\{[a-z_]+\}", " ", pattern)
    return {w.lower() for w in re.findall(r"[A-Za-z]{4,}", text)} - {"xiangqi", "querni",
                                                                    "alquerque", "grande"}


@pytest.mark.parametrize(("provoke", "code", "named"),
                         [r[1:] for r in REFUSALS], ids=[r[0] for r in REFUSALS])
def test_real_refusals_read_in_german_with_no_english_detail(
        provoke: Callable[[], Any], code: str, named: str) -> None:
    """Fails for a code whose German sentence the catalogue lacks (a translator's task)."""
    e = refused(provoke)
    said = rules_words(e).render("de")
    codes = [code, *(v.code for v in e.params.values() if isinstance(v, Detail))]
    untranslated = [c for c in codes
                    if translations("de").gettext(WORDS[c].msgid) == WORDS[c].msgid]
    assert not untranslated, f"no German sentence for {untranslated}: {said!r}"
    assert named in said, f"the German sentence lost {named!r}: {said!r}"
    typed = {w.lower() for v in e.params.values() if not isinstance(v, Detail)
             for w in re.findall(r"[A-Za-z]{4,}", str(v))}  # notation and typed values
    prose = re.sub(r"[A-Za-z_]+=\S+", "", said)  # option=value is what people type
    leftover = {w for c in codes for w in re.findall(r"[A-Za-z]{4,}", prose)
                if w.lower() in english_words(MESSAGES[c]) and w.lower() not in typed}
    assert said != e.message and not leftover, f"English left in {said!r}: {leftover}"


def test_game_terms_in_params_are_the_readers_words() -> None:
    e = refused(move("alquerque-grande", "a7-a6"))
    said = rules_words(e)
    assert isinstance(said, Text)
    assert said.params["seat"] != "Red" and said.params["piece"] != "stone"  # lazy terms
    assert said.render("en-US") == "a7 is Red's stone"
    choices = rules_words(refused(start("alquerque-grande", players=3)))
    assert choices.render("en-US").endswith("(choose from 4 or 2)")
    assert choices.render("de").endswith("4 oder 2)")


def test_an_uncoded_error_gets_the_generic_words_never_its_english() -> None:
    assert rules_words(RulesError("some English detail")) is UNCODED
    assert refusal_words(TypeError("an unexpected keyword argument")) is UNCODED
    assert refusal_words(refused(move("querni", "a1-a1"))) != UNCODED


# --------------------------------------------------------------------------- the edges

@pytest.mark.parametrize(("provoke", "code", "named"),
                         [r[1:] for r in REFUSALS], ids=[r[0] for r in REFUSALS])
def test_the_discord_reply_says_the_reason_through_the_catalogue(
        monkeypatch: pytest.MonkeyPatch, provoke: Callable[[], Any], code: str,
        named: str) -> None:
    """In a pseudo-language marking every catalogue sentence, the reply's detail is the
    catalogue's (marked), not the core's English dropped into a translated frame."""
    from bot.discordapp.errors import describe
    from tests.discordapp.languages import MARK, speak_pseudo

    speak_pseudo(monkeypatch, "de")
    e = refused(provoke)
    said = describe(e, locale="de")
    # the core's English words appear only as the pseudo-catalogue's (marked) sentence
    assert e.message not in said.replace(MARK + e.message, "") and named in said
    assert rules_words(e).render("de").startswith(MARK)
    assert rules_words(e).render("de") in said


def test_an_uncoded_rules_error_never_puts_its_english_in_a_reply() -> None:
    from bot.discordapp.errors import describe

    said = describe(rules.IllegalMoveError("the moon is in the wrong phase"), locale="de")
    assert "moon" not in said and UNCODED.render("de") in said


async def test_the_console_says_the_reason_in_its_language(
        monkeypatch: pytest.MonkeyPatch) -> None:
    import io
    import random

    from bot.console import ShiftedClock, open_console
    from storage import MemoryRepository
    from tests.discordapp.languages import MARK, speak_pseudo
    from tests.service.conftest import SetClock

    speak_pseudo(monkeypatch, "de")
    out = io.StringIO()
    console = open_console(MemoryRepository(), out, clock=ShiftedClock(SetClock()),
                           rng=random.Random(1), locale="de")
    for line in ["as alice", "/challenge @bob xiangqi seat:red", "as bob", "/accept",
                 "as alice", "/move c3-c4"]:
        await console.handle(line)
    refusal = out.getvalue().splitlines()[-1]
    assert refusal.startswith("!") and "c3" in refusal
    assert f"{MARK}there is no {MARK}piece⟧ on c3⟧" in refusal
