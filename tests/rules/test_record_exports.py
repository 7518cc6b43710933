"""A record's export written on move by move (``rules.records.RecordExport``, what the
web's match page keeps between versions) is the whole export, byte for byte: over random
Xiangqi (WXF) and Spanish draughts (PDN) games from the usual start and from another one,
their headers (players whose names need escaping, the options and match terms' tags) and
their ends (by the rules, a resignation, a lapsed clock, an agreed draw). Only the new
moves are written; a record that did not only grow (a move taken back, another start) is
written whole. And Xiangqi's player tags are escaped as PDN's are, and read back."""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Callable
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

import rules
from rules import GameRecord, Outcome, Position, Variant
from rules.damas import PDN
from rules.records import RecordWriter, export_of, read_any_record
from rules.xiangqi import WXF, format_wxf
from rules.xiangqi_records import read_wxf
from tests.rules.helpers.damas import fen

XIANGQI, DAMAS = rules.variant("xiangqi"), rules.variant("damas")

STARTS = {
    "xiangqi": (XIANGQI.start().to_text(),
                "3k5/4a4/9/9/9/9/9/9/4R4/4K4 w - - 0 1"),  # a chariot against a lone side
    "damas": (DAMAS.start().to_text(),  # and a few men, Black to move: games end soon
              fen("B", ["b1", "d1", "f1", "c2"], ["d5", "g8", "a6"])),
}
MAX_PLIES = 60
"""The longest random game (Xiangqi's moves cost most: kept cheap)."""

ENDS = (None, Outcome.win(0, seats=2, reason="resignation"),
        Outcome.win(1, seats=2, reason="timeout"), Outcome.draw(seats=2, reason="agreement"),
        Outcome.win(0, seats=2, reason="checkmate"))
"""How a record may say its game ended (None: as its last position says, or not yet)."""

NAMES = st.text(alphabet='Ana "\\\'{}[]é玉', max_size=10)
"""Players' names, with what a tag must escape (quotes, backslashes) and more."""

TAGS = st.fixed_dictionaries({}, optional={  # the options and rules.records.MATCH_TAGS
    "Options": st.just(json.dumps({"rule": "x"}, sort_keys=True)),
    "TableroClock": st.sampled_from(("3d+1d/10d", "1d", "10m+5s")),
    "TableroClaim": st.just("yes"), "TableroWeekends": st.just("off")})


OTHER_NOTATION: dict[str, Callable[[Any, Any], str]] = {
    "xiangqi": format_wxf, "damas": lambda _p, move: move.numeric()}
"""A move as a person may write it besides the stored notation: WXF (``C2.5``), PDN
numbers (``11-15``)."""


def random_game(v: Variant, start: str, seed: int, plies: int) -> tuple[str, ...]:
    """Up to ``plies`` random legal moves from ``start`` (fewer when the game ends),
    written as the store keeps them or as a person may (:data:`OTHER_NOTATION`)."""
    rng = random.Random(seed)
    p: Position = v.from_text(start)
    moves: list[str] = []
    for _ in range(plies):
        legal = p.legal_moves()
        if not legal:
            break
        move = rng.choice(legal)
        written = OTHER_NOTATION[v.key] if rng.random() < 0.3 else v.format_move
        moves.append(written(p, move))
        p = p.play(move)
    return tuple(moves)


@st.composite
def records(draw: st.DrawFn, key: str) -> GameRecord:
    """A record of a random game of ``key`` with random headers and end."""
    v = rules.variant(key)
    start = draw(st.sampled_from(STARTS[key]))
    moves = random_game(v, start, draw(st.integers(0, 2**32 - 1)),
                        draw(st.integers(0, MAX_PLIES)))
    return GameRecord(start, moves, draw(st.sampled_from(ENDS)),
                      draw(st.dictionaries(st.sampled_from((0, 1)), NAMES)),
                      draw(st.sampled_from(("?", "Tablero match 7"))),
                      draw(st.sampled_from(("????.??.??", "2026.11.30"))), draw(TAGS))


def headers_of(record: GameRecord, other: GameRecord) -> GameRecord:
    """``record`` with ``other``'s headers and end (a record's may change as it grows:
    a player's name, a clock's terms, how it ended)."""
    return GameRecord(record.start, record.moves, other.outcome, other.players,
                      other.event, other.date, other.tags)


CHEAP = settings(max_examples=20)


def grown_like_the_whole(key: str, record: GameRecord, versions: GameRecord,
                         cuts: list[int]) -> None:
    """``record`` exported version by version (its moves up to each of ``cuts``, each
    version with ``versions``' headers but the last) equals every version's whole export,
    and a takeback after it is written whole, the same as its whole export."""
    v = rules.variant(key)
    done = None
    for cut in [*sorted(c % (len(record.moves) + 1) for c in cuts), len(record.moves)]:
        version = GameRecord(record.start, record.moves[:cut]) \
            if cut < len(record.moves) else record
        version = headers_of(version, versions) if cut < len(record.moves) else version
        done = export_of(v, version, done)
        assert done is not None
        assert done.text == v.export_record(version)
    assert done is not None and done.record == record
    taken_back = GameRecord(record.start, record.moves[:-1], None, record.players)
    again = export_of(v, taken_back, done)
    assert again is not None and again.text == v.export_record(taken_back)


@CHEAP
@given(record=records("xiangqi"), versions=records("xiangqi"),
       cuts=st.lists(st.integers(0, MAX_PLIES), max_size=3))
def test_a_xiangqi_export_written_on_is_the_whole_export(
        record: GameRecord, versions: GameRecord, cuts: list[int]) -> None:
    grown_like_the_whole("xiangqi", record, versions, cuts)


@CHEAP
@given(record=records("damas"), versions=records("damas"),
       cuts=st.lists(st.integers(0, MAX_PLIES), max_size=3))
def test_a_pdn_export_written_on_is_the_whole_export(
        record: GameRecord, versions: GameRecord, cuts: list[int]) -> None:
    grown_like_the_whole("damas", record, versions, cuts)


def counted(writer: RecordWriter, count: Counter[str]) -> RecordWriter:
    """``writer``, each move it writes counted."""
    write: Callable[[Position, str], tuple[str, Position]] = writer.move

    def move(p: Position, text: str) -> tuple[str, Position]:
        count["moves"] += 1
        return write(p, text)
    return RecordWriter(writer.start, move, writer.text)


def test_only_the_new_moves_are_written_and_a_takeback_writes_it_whole() -> None:
    for v, writer in ((XIANGQI, WXF), (DAMAS, PDN)):
        count = Counter[str]()
        moves = random_game(v, v.start().to_text(), 5, 30)
        assert len(moves) == 30
        start = v.start().to_text()
        first = counted(writer, count).export(GameRecord(start, moves[:20]))
        assert count["moves"] == 20
        grown = first.extended(GameRecord(start, moves[:21]))
        again = grown.extended(GameRecord(start, moves, Outcome.win(1, seats=2,
                                                                    reason="resignation")))
        assert count["moves"] == 20 + 1 + 9  # each move written once
        assert again.text == v.export_record(again.record)
        offered = again.extended(again.record)  # a version with no new move: none written
        assert count["moves"] == 30 and offered.text == again.text
        taken_back = again.extended(GameRecord(start, moves[:29]))
        assert count["moves"] == 30 + 29 and taken_back.written == again.written[:29]
        assert taken_back.text == v.export_record(taken_back.record)


def test_a_game_without_a_format_has_no_export() -> None:
    querni = rules.variant("querni")
    assert export_of(querni, GameRecord(querni.start().to_text(), ())) is None


def test_xiangqi_player_names_are_escaped_and_read_back() -> None:
    """A name with a double quote or a backslash (``Ana "la roja"``, ``C:\\``) is
    escaped in its WXF tag, as in PDN (``rules.records.tag_pair``): the file reads, and
    its players are the names given."""
    names = {0: 'Ana "la roja"', 1: "C:\\tablero\\"}
    text = XIANGQI.export_record(GameRecord(XIANGQI.start().to_text(),
                                            ("h3-e3", "h10-g8", "h1-g3"), players=names))
    lines = text.splitlines()
    assert '[Red "Ana \\"la roja\\""]' in lines and '[Black "C:\\\\tablero\\\\"]' in lines
    game = read_wxf(XIANGQI, text)
    assert game.players == names and game.moves == ("h3-e3", "h10-g8", "h1-g3")
    assert read_any_record(text).players == names
    pdn = DAMAS.export_record(GameRecord(DAMAS.start().to_text(), ("11-15",), players=names))
    assert read_any_record(pdn).players == names  # PDN's, the same

