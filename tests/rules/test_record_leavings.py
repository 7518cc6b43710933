"""Tablero's own record with seats that left in the middle of a game (issue 44's import
of issue 43's leavings): ``{Turquoise is skipped}``, ``{Red resigns}``, ``{White ran out
of time}`` between the moves are replayed by the rules' own ``skip_seat`` and ``resign``
where they stand; a closing one ends the game as the service ended it; a comment that is
not one of them, names no seat of the game, or cannot happen there is refused with the
entry's number as the record writes it."""

from __future__ import annotations

import pytest

import rules
from rules.records import RecordError, SeatLeft, read_any_record

GRANDE = rules.variant("alquerque-grande")


def _four(mode: str, body: str) -> str:
    return (f'[Game "alquerque-grande"]\n[Options \'{{"mode": "{mode}", "players": 4}}\']'
            f"\n\n{body}\n")


TWO = '[Game "alquerque-grande"]\n[Options \'{"players": 2}\']\n\n'


def test_a_skip_between_moves_is_replayed_where_it_stands() -> None:
    """The issue's own example: White, then Turquoise's turns are skipped, so Black
    moves (e5xc3 was refused as "e5 is Black's stone": Turquoise was still to move)."""
    game = read_any_record(_four("slow", "1. c3-d4 2. {Turquoise is skipped} 3. e5xc3"))
    assert game.moves == ("c3-d4", "e5xc3")
    assert game.leavings == (SeatLeft(1, 1, "skip"),)
    p = GRANDE.start(players=4, mode="slow")
    p = GRANDE.skip_seat(p.play(GRANDE.parse_move(p, "c3-d4")), 1)
    p = p.play(GRANDE.parse_move(p, "e5xc3"))
    assert game.end is not None and game.end.to_text() == p.to_text()
    assert game.end.skipped_seats() == {1} and game.outcome is None


def test_each_kind_of_leaving_in_each_mode() -> None:
    # slow: a resignation removes the stones; the game goes on
    slow = read_any_record(_four("slow", "1. c3-d4 2. {Red resigns} 3. e3xc3"))
    assert slow.leavings == (SeatLeft(1, 3, "resign"),) and slow.end is not None
    assert slow.end.out_seats() == {3}
    assert 3 not in {piece.seat for piece in slow.end.pieces().values()}  # his stones went
    # teams: the partner plays on; written in any case and spacing
    teams = read_any_record(_four("teams", "1. c3-d4 2. {turquoise  RAN out of time} "
                                           "3. b3-c3"))
    assert teams.leavings == (SeatLeft(1, 1, "timeout"),) and teams.outcome is None
    # fast: a resignation ends the game, ranked on captures (the leaver may lead)
    fast = read_any_record(_four("fast", "1. c3-d4 2. e3xc3 3. {White resigns}"))
    assert fast.outcome is not None and fast.outcome.reason == "resignation-ranked"
    assert fast.outcome.winners == {1}  # Turquoise took a stone
    # a closing skip is an ending too: the third seat gone leaves one player
    last = read_any_record(_four("fast", "1. c3-d4 2. {Turquoise is skipped} "
                                          "3. {Black is skipped} 4. {Red is skipped}"))
    assert last.outcome is not None and last.outcome.reason == "last-player"
    assert last.outcome.winners == {0} and len(last.leavings) == 3


def test_an_agreed_draw_after_a_seat_left_ranks_him_last() -> None:
    game = read_any_record(_four("slow", "1. c3-d4 2. {Red resigns} 3. e3xc3 "
                                          "4. {draw agreed}"))
    assert game.outcome is not None and game.outcome.reason == "agreement"
    assert game.outcome.winners == frozenset()
    assert game.outcome.ranking == (frozenset({0, 1, 2}), frozenset({3}))


@pytest.mark.parametrize(("text", "code", "said"), [
    # a move refused after a leaving is named by the number the record writes
    (_four("slow", "1. c3-d4 2. {Turquoise is skipped} 3. e3xc3"), "record_illegal_move",
     "move 3 (e3xc3) cannot be played: e3 is Turquoise's stone"),
    (_four("slow", "1. c3-d4 2. {Blue resigns} 3. e5xc3"), "record_unknown_seat",
     "entry 2 ('Blue resigns'): no seat of this game is called Blue; a seat is called "
     "White, Turquoise, Black or Red"),
    (TWO + "1. c3-d4 2. {Turquoise resigns}", "record_unknown_seat",
     "a seat is called White or Black"),
    (_four("slow", "1. c3-d4 2. {a fine move}"), "record_unknown_entry",
     "entry 2 ('a fine move') is not a move: between braces a record says only how a seat "
     "left ('White resigns') or 'draw agreed'"),
    (_four("teams", "1. c3-d4 2. {Turquoise is skipped} 3. b3-c3 4. {Turquoise resigns}"),
     "record_leaving_refused", "entry 4 ('Turquoise resigns') cannot happen here: "
     "Turquoise is out already"),
    (_four("fast", "1. c3-d4 2. {Red is skipped} 3. e3xc3 4. {Red is skipped}"),
     "record_leaving_refused", "entry 4 ('Red is skipped') cannot happen here: "
     "Red is out already"),
    (TWO + "1. c3-d4 2. {Black is skipped}", "record_leaving_refused",
     "entry 2 ('Black is skipped') cannot happen here: Alquerque grande cannot go on "
     "without one of its players"),
    (TWO + "1. c3-d4 2. {Black resigns} 3. {White resigns}", "record_leaving_refused",
     "entry 3 ('White resigns') cannot happen here: the game is over (resignation)"),
    (TWO + "1. c3-d4 2. {Black ran out of time} 3. c5-d4", "record_after_end",
     "move 3 (c5-d4) comes after the end of the game (timeout)"),
    (_four("fast", "1. c3-d4 2. e3xc3 3. {White resigns} 4. e5-e4"), "record_after_end",
     "move 4 (e5-e4) comes after the end of the game (resignation-ranked)"),
    (_four("slow", "1. c3-d4 2. {draw agreed} 3. {Red resigns}"), "record_leaving_refused",
     "the game is over (agreement)"),
    (_four("slow", "1. c3-d4 2. {Red {resigns}}"), "record_ply_syntax", "ply 2"),
    (_four("slow", "1. {Red resigns}"), "record_no_moves", "holds no move"),
])
def test_a_bad_entry_between_braces_is_refused_by_its_number(text: str, code: str,
                                                             said: str) -> None:
    with pytest.raises(RecordError) as refused:
        read_any_record(text)
    assert refused.value.code == code
    assert said in refused.value.message


def test_a_long_comment_or_ply_is_quoted_back_cut_short() -> None:
    for body in ("1. c3-d4 2. {" + "so " * 3000 + "}", "1. " + "c3-d4" * 2000):
        with pytest.raises(RecordError) as refused:
            read_any_record(_four("slow", body))
        assert refused.value.code in ("record_unknown_entry", "record_illegal_move")
        assert len(refused.value.message) < 400


def test_a_number_may_touch_its_entry_as_pgn_allows() -> None:
    """A hand-written record's ``1.c3-d4 2.{Turquoise resigns}``: it was refused as
    "'1.c3-d4 …' comes before the first move number", which it is."""
    tight = read_any_record(_four("slow", "1.c3-d4 2.{Turquoise resigns} 3.e5xc3"))
    spaced = read_any_record(_four("slow", "1. c3-d4 2. {Turquoise resigns} 3. e5xc3"))
    assert tight.moves == spaced.moves == ("c3-d4", "e5xc3")
    assert tight.leavings == spaced.leavings == (SeatLeft(1, 1, "resign"),)
    with pytest.raises(RecordError) as refused:  # what is not a number still is refused
        read_any_record(_four("slow", "c3-d4 1. e3xc3"))
    assert refused.value.message == "'c3-d4' comes before the first move number"


@pytest.mark.parametrize("written", [
    "Turquoise resigns.", "Turquoise resigns!", "turquoise resigns .", "Turquoise resigns。",
    "Turquoise resigns！"])
def test_a_leaving_may_end_as_a_sentence_does(written: str) -> None:
    """``{Turquoise resigns.}``, as a person types it, was refused as "not a move" while
    ``{Turquoise resigns}`` was read: one closing full stop or exclamation mark (a
    full-width one too) is the sentence's end, nothing more."""
    game = read_any_record(_four("slow", f"1. c3-d4 2. {{{written}}} 3. e5xc3"))
    assert game.leavings == (SeatLeft(1, 1, "resign"),)
    assert game.moves == ("c3-d4", "e5xc3")


def test_an_agreed_draw_may_end_as_a_sentence_does() -> None:
    for written in ("Draw agreed.", "draw  agreed!"):
        game = read_any_record(TWO + f"1. c3-d4 2. e5xc3 3. {{{written}}}")
        assert game.outcome is not None and game.outcome.reason == "agreement"


@pytest.mark.parametrize("written", [
    "Turquoise resigns?", "Turquoise resigns..", "Turquoise resigns.!", "Turquoise resigns,",
    "Turquoise resigns;", "Turquoise resigns. Sad.", ".Turquoise resigns", "Turquoise. resigns"])
def test_nothing_looser_than_a_closing_mark_is_read(written: str) -> None:
    with pytest.raises(RecordError) as refused:
        read_any_record(_four("slow", f"1. c3-d4 2. {{{written}}} 3. e5xc3"))
    assert refused.value.code in ("record_unknown_entry", "record_unknown_seat")


def test_an_unknown_seat_is_named_without_the_full_stop() -> None:
    with pytest.raises(RecordError) as refused:
        read_any_record(_four("slow", "1. c3-d4 2. {Blue resigns.} 3. e5xc3"))
    assert refused.value.code == "record_unknown_seat"
    assert "no seat of this game is called Blue;" in refused.value.message
