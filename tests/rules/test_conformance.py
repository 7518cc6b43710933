"""The conformance suite: every registered variant, every example option set.

A game joins by registering its variant (``rules/__init__.py``) and listing the option sets
to exercise in ``Variant.example_options``. Nothing here knows any game.
"""

from __future__ import annotations

import random
from collections.abc import Mapping

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import rules
from rules import Position, RulesError, Variant

PLAYOUTS = 4  # seeded random games per option set
MAX_PLIES = 400  # a playout stops here even if the game goes on

CASES = [
    pytest.param(v, dict(opts), id=f"{key}-" + ("-".join(f"{k}={o}" for k, o in opts.items())
                                                  or "default"))
    for key, v in rules.VARIANTS.items()
    for opts in v.example_options
]


def playout(v: Variant, options: Mapping[str, object], seed: int) -> list[tuple[Position, str]]:
    """A seeded random game: the positions met and the canonical move played from each."""
    rng = random.Random(seed)
    p = v.start(**options)
    trail: list[tuple[Position, str]] = []
    for _ in range(MAX_PLIES):
        moves = list(p.legal_moves())
        if not moves:
            break
        move = rng.choice(moves)
        trail.append((p, v.format_move(p, move)))
        p = p.play(move)
    trail.append((p, ""))
    return trail


@pytest.fixture(scope="module")
def playouts() -> dict[str, list[list[tuple[Position, str]]]]:
    cache: dict[str, list[list[tuple[Position, str]]]] = {}
    return cache


def games(v: Variant, options: Mapping[str, object],
          cache: dict[str, list[list[tuple[Position, str]]]]) -> list[list[tuple[Position, str]]]:
    key = f"{v.key}:{sorted(options.items())}"
    if key not in cache:
        cache[key] = [playout(v, options, seed) for seed in range(PLAYOUTS)]
    return cache[key]


@pytest.mark.parametrize(("v", "options"), CASES)
def test_text_round_trips(v: Variant, options: dict[str, object], playouts) -> None:
    for game in games(v, options, playouts):
        for p, _ in game:
            text = p.to_text()
            again = v.from_text(text)
            assert again.to_text() == text
            # RULES §7 lets repetition history live in the record instead of the text, so a
            # position that ended by repetition may come back as one that goes on.
            if p.outcome() is None:
                assert again.to_move == p.to_move
                assert sorted(v.format_move(again, m) for m in again.legal_moves()) == \
                    sorted(v.format_move(p, m) for m in p.legal_moves())
            elif again.outcome() is not None:
                assert again.outcome() == p.outcome()


@pytest.mark.parametrize(("v", "options"), CASES)
def test_every_legal_move_round_trips_through_notation(
        v: Variant, options: dict[str, object], playouts) -> None:
    for game in games(v, options, playouts):
        for p, _ in game[::3]:
            for move in p.legal_moves():
                text = v.format_move(p, move)
                assert v.parse_move(p, text) == move, text
                assert v.parse_move(p, f"  {text.upper()} ") == move, text


@pytest.mark.parametrize(("v", "options"), CASES)
def test_play_leaves_the_old_position_unchanged(
        v: Variant, options: dict[str, object], playouts) -> None:
    for game in games(v, options, playouts):
        for p, played in game[:-1]:
            before = p.to_text()
            p.play(v.parse_move(p, played))
            assert p.to_text() == before


@pytest.mark.parametrize(("v", "options"), CASES)
def test_replaying_the_record_reproduces_the_position(
        v: Variant, options: dict[str, object], playouts) -> None:
    for game in games(v, options, playouts):
        p = v.start(**options)
        for recorded, played in game[:-1]:
            assert p.to_text() == recorded.to_text()
            p = p.play(v.parse_move(p, played))
        assert p.to_text() == game[-1][0].to_text()


@pytest.mark.parametrize(("v", "options"), CASES)
def test_outcome_is_none_exactly_while_a_move_exists(
        v: Variant, options: dict[str, object], playouts) -> None:
    ended = 0
    for game in games(v, options, playouts):
        for p, _ in game:
            outcome = p.outcome()
            moves = list(p.legal_moves())
            if outcome is None:
                assert moves, f"no legal move but no outcome: {p.to_text()}"
                assert p.to_move
            else:
                assert not moves, f"moves after the end: {p.to_text()}"
                assert not p.to_move
                seats = frozenset().union(*outcome.ranking)
                assert seats == frozenset(range(p.seat_count))
                assert outcome.winners <= outcome.ranking[0]
                ended += 1
    assert ended <= PLAYOUTS


@pytest.mark.parametrize(("v", "options"), CASES)
def test_a_forced_move_is_the_only_legal_move(
        v: Variant, options: dict[str, object], playouts) -> None:
    for game in games(v, options, playouts):
        for p, _ in game:
            forced = p.forced_move()
            if forced is not None:
                assert list(p.legal_moves()) == [forced], p.to_text()


def _recorded_cases() -> list[object]:
    """Every example option set under every rules version a game can still start (the
    versions stored matches were recorded under), where that version had those options."""
    out: list[object] = []
    for key, v in rules.VARIANTS.items():
        assert v.rules_version == v.recorded_versions[-1], key
        for version in v.recorded_versions:
            for opts in v.example_options:
                try:
                    v.start_recorded(version, **opts)
                except rules.OptionError:
                    continue
                name = "-".join(f"{k}={o}" for k, o in opts.items()) or "default"
                out.append(pytest.param(v, version, dict(opts), id=f"{key}-v{version}-{name}"))
    return out


@pytest.mark.parametrize(("v", "version", "options"), _recorded_cases())
def test_every_recorded_rules_version_plays_and_replays(
        v: Variant, version: str, options: dict[str, object]) -> None:
    for seed in range(2):
        rng = random.Random(seed)
        p = v.start_recorded(version, **options)
        record: list[str] = []
        texts = [p.to_text()]
        for _ in range(MAX_PLIES):
            moves = list(p.legal_moves())
            if not moves:
                assert p.outcome() is not None
                break
            move = rng.choice(moves)
            record.append(v.format_move(p, move))
            p = p.play(move)
            texts.append(p.to_text())
        again = v.start_recorded(version, **options)
        for played, text in zip(record, texts, strict=False):
            assert again.to_text() == text
            again = again.play(v.parse_move(again, played))
        assert again.to_text() == texts[-1]


@pytest.mark.parametrize(("v", "options"), CASES)
def test_the_start_refuses_unknown_options(v: Variant, options: dict[str, object]) -> None:
    with pytest.raises(ValueError, match="no option"):
        v.start(**options, no_such_option=1)


texts = st.one_of(
    st.text(max_size=60),
    st.text(alphabet="abcdefghijklmnopqrstuvwxyz0123456789-x: /+.=KRrnbcpPw", max_size=40),
    st.from_regex(r"[a-k](10|[0-9])[-x:]?[a-k](10|[0-9])([-x:][a-k](10|[0-9])){0,4}",
                  fullmatch=True),
)

FUZZ = settings(max_examples=150, deadline=None,
                suppress_health_check=[HealthCheck.function_scoped_fixture,
                                       HealthCheck.too_slow])


@pytest.mark.parametrize(("v", "options"), CASES)
@FUZZ
@given(text=texts)
def test_arbitrary_move_text_raises_only_rules_errors(
        v: Variant, options: dict[str, object], text: str) -> None:
    p = v.start(**options)
    try:
        move = v.parse_move(p, text)
    except RulesError:
        return
    assert move in list(p.legal_moves())


@pytest.mark.parametrize(("v", "options"), CASES)
@FUZZ
@given(data=st.data())
def test_arbitrary_position_text_raises_only_rules_errors(
        v: Variant, options: dict[str, object], data: st.DataObject) -> None:
    start = v.start(**options).to_text()
    # Mutations of a valid text reach deeper into the parser than random text alone.
    i = data.draw(st.integers(0, len(start)))
    j = data.draw(st.integers(i, len(start)))
    junk = data.draw(st.text(max_size=12))
    text = data.draw(st.sampled_from([start[:i] + junk + start[j:], junk, start[:i]]))
    try:
        p = v.from_text(text)
    except RulesError:
        return
    p.legal_moves()
    p.outcome()
    assert v.from_text(p.to_text()).to_text() == p.to_text()
