"""The shared core: registry, errors, outcomes, notation helpers."""

from __future__ import annotations

import pytest

import rules
from rules.core import Outcome
from rules.notation import MoveText, parse_point, path_matches, point_name, resolve, tokenize


def test_errors_form_the_documented_hierarchy() -> None:
    for cls in (rules.NotationError, rules.IllegalMoveError, rules.AmbiguousMoveError,
                rules.PositionError):
        assert issubclass(cls, rules.RulesError)
    assert issubclass(rules.RulesError, ValueError)
    err = rules.NotationError("bad", text="zz")
    assert err.text == "zz" and str(err) == "bad"


def test_unknown_variant_is_a_clear_value_error() -> None:
    with pytest.raises(ValueError, match="unknown game 'chess'"):
        rules.variant("chess")


def test_registered_variants_are_found_by_key() -> None:
    for key, v in rules.VARIANTS.items():
        assert rules.variant(key) is v
        assert rules.variant(key.upper()) is v


def test_outcome_constructors() -> None:
    win = Outcome.win(1, seats=2, reason="checkmate")
    assert win.winners == {1} and win.ranking == ({1}, {0}) and not win.is_draw
    team = Outcome.win({0, 2}, seats=4, reason="no-pieces")
    assert team.ranking == ({0, 2}, {1, 3})
    draw = Outcome.draw(seats=4, reason="move-limit")
    assert draw.is_draw and draw.ranking == ({0, 1, 2, 3},)
    ranked = Outcome.ranked([[2], [0, 1], [3]], reason="captures")
    assert ranked.winners == {2} and len(ranked.ranking) == 3


def test_point_names_and_parsing() -> None:
    assert point_name(0, 0) == "a1"
    assert point_name(8, 9) == "i10"
    assert parse_point(" C3 ", width=5, height=5) == (2, 2)
    with pytest.raises(rules.NotationError, match="off the board"):
        parse_point("f1", width=5, height=5)
    with pytest.raises(rules.NotationError, match="not a point"):
        parse_point("3c", width=5, height=5)


@pytest.mark.parametrize(("text", "points", "seps"), [
    ("c2-c3", ("c2", "c3"), ("-",)),
    ("  C2 - C3 ", ("c2", "c3"), ("-",)),
    ("h3e3", ("h3", "e3"), ("",)),
    ("a1xc3xe1", ("a1", "c3", "e1"), ("x", "x")),
    ("f3:d5:f7", ("f3", "d5", "f7"), ("x", "x")),
    ("h3xh10", ("h3", "h10"), ("x",)),
    ("a01-a02", ("a1", "a2"), ("-",)),
])
def test_tokenize_is_tolerant(text: str, points: tuple[str, ...], seps: tuple[str, ...]) -> None:
    assert tokenize(text) == MoveText(points, seps)


@pytest.mark.parametrize("text", ["", "c2", "c2--c3", "c2-", "hello", "c2 c3 ?", "x" * 500])
def test_tokenize_refuses_what_is_not_a_move(text: str) -> None:
    with pytest.raises(rules.NotationError):
        tokenize(text)


def test_resolve_reports_ambiguity_with_candidates() -> None:
    legal = ["a1xc3xe1", "a1xc1xe1", "a1-a2"]
    with pytest.raises(rules.AmbiguousMoveError) as info:
        resolve("a1xe1", legal, matches=lambda m: m.startswith("a1x") and m.endswith("e1"),
                format_move=str)
    assert info.value.candidates == ("a1xc1xe1", "a1xc3xe1")
    assert "a1xc1xe1 or a1xc3xe1" in str(info.value)
    assert resolve("a1-a2", legal, matches=lambda m: m == "a1-a2", format_move=str) == "a1-a2"
    assert resolve("b1-b2", legal, matches=lambda m: m == "b1-b2", format_move=str) is None


def test_path_matches_full_or_abbreviated() -> None:
    path = [(0, 0), (2, 2), (4, 0)]
    assert path_matches([(0, 0), (2, 2), (4, 0)], path)
    assert path_matches([(0, 0), (4, 0)], path)
    assert not path_matches([(0, 0), (2, 2)], path)
