"""Reading game records (issue 44's import): real records written by hand from published
games (tests/rules/records/, each citing its source) read move by move by the rules;
Tablero's own record of every game read back; every bad file refused with the reason."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

import rules
from rules.records import MAX_PLIES, RecordError, parse_record, read_any_record

RECORDS = Path(__file__).parent / "records"
LIU_1997 = ("h3-e3", "b10-c8", "h1-g3", "h8-f8", "g4-g5", "h10-g8", "b3-c3", "i10-h10",
            "b1-a3", "a10-b10", "a1-b1", "b8-b4", "c4-c5", "h10-h6", "i1-h1", "h6-d6",
            "c3xc7", "c10-e8", "e3-f3", "d6-d7")


def test_a_published_xiangqi_game_reads_the_same_in_iccs_and_wxf() -> None:
    iccs = read_any_record((RECORDS / "liu-dianzhong-liu-dahua-1997.iccs.pgn").read_text())
    wxf = read_any_record((RECORDS / "liu-dianzhong-liu-dahua-1997.wxf").read_text())
    assert iccs.variant.key == wxf.variant.key == "xiangqi"
    assert iccs.moves == wxf.moves == LIU_1997
    assert iccs.players == wxf.players == {0: "Liu Dianzhong", 1: "Liu Dahua"}
    assert iccs.outcome is None and iccs.tags["Event"] == "Jiafun Cup National Championship"


def test_a_published_damas_game_reads_in_pdn() -> None:
    game = read_any_record((RECORDS / "cucujaes-2022.pdn").read_text())
    assert game.variant.key == "damas"
    assert game.moves == ("f3-e4", "c6-d5", "e4xc6", "b7xd5", "b3-a4", "a8-b7", "h3-g4")
    assert game.players == {} and game.outcome is None


@pytest.mark.parametrize("options", [o for v in rules.VARIANTS.values()
                                     for o in v.option_sets() if o.get("setup") != "choose"],
                         ids=str)
def test_tablero_records_of_every_game_read_back(options: dict[str, object]) -> None:
    """A random game of each configuration, written as ``/history`` writes it, reads back
    to the same moves and the same end."""
    for v in rules.VARIANTS.values():
        if set(options) <= set(v.options) and options in v.option_sets():
            break
    rng = random.Random(7)
    given = dict(options, seed=5) if "seed" in v.options else dict(options)
    p = v.start(**given)
    moves = []
    for _ in range(60):
        legal = list(p.legal_moves())
        if not legal:
            break
        m = rng.choice(legal)
        moves.append(v.format_move(p, m))
        p = p.play(m)
    import json
    text = (f'[Game "{v.key}"]\n[Rules "{v.rules_version}"]\n'
            f"[Options '{json.dumps(given, sort_keys=True)}']\n"
            f'[Start "{v.start(**given).to_text()}"]\n[Match "12"]\n\n'
            + " ".join(f"{i + 1}. {m}" for i, m in enumerate(moves)) + "\n")
    game = parse_record(v, text)
    assert game.moves == tuple(moves)
    assert game.outcome == p.outcome()
    assert game.end is not None and game.end.to_text() == p.to_text()


def test_a_resignation_comment_ends_a_tablero_record() -> None:
    game = read_any_record('[Game "alquerque"]\n\n1. d2-c3 2. {White resigns}\n')
    assert game.moves == ("d2-c3",)
    assert game.outcome is not None and game.outcome.winners == frozenset({1})
    assert game.outcome.reason == "resignation"
    drawn = read_any_record('[Game "damas"]\n\n1. h3-g4 2. a6-b5 3. {draw agreed}')
    assert drawn.outcome is not None and drawn.outcome.is_draw


@pytest.mark.parametrize(("text", "code", "said"), [
    ('[Game "Chinese Chess"]\n[Player "x"]\n1. C2.5', "record_unknown_tag",
     "the record has a tag this format does not have: Player"),
    ('[Red "a"]\n[Red "b"]\n[Format "WXF"]\n1. C2.5', "record_tag_twice",
     "the tag Red is given twice"),
    ('[Format "WXF"]\n[Red "a\n1. C2.5', "record_tag_syntax", "is not a tag"),
    ('[Format "WXF"]\n1. C2.5 H8+7 2. R1+1 H2+3 3. R1+9', "record_illegal_move",
     "move 5 (R1+9) cannot be played"),
    ('[Format "WXF"]\n1. C2.5 {a comment never closed', "record_unclosed", "not closed"),
    ('[Format "WXF"]\n1. C2.5 1-0 H8+7', "record_after_result",
     "'H8+7' comes after the result 1-0"),
    ('[GameType "20"]\n1. 32-28', "record_game_type", "GameType 20"),
    ('[FEN "W:W1,2:B31,32"]\n1. 1-5', "record_custom_start",
     "starts from another position than the game's start"),
    ('[Game "chess"]\n1. e4', "record_unknown_game", "'chess'"),
    ("just some words", "record_which_game", "which game is this?"),
    ('[Game "Chinese Chess"]\n[Format "PGN"]\n1. C2.5', "record_format",
     "Xiangqi records are read in WXF or ICCS"),
    ('[Game "querni"]\n[Options \'{"setup": "choose"}\']\n1. 1 2 3', "record_secret_setup",
     "secret arrangements"),
    ('[Game "xiangqi"]\n[Options \'{"players": 4}\']\n1. h3-e3', "record_options",
     "options do not start a game"),
    ('[Game "damas"]\n', "record_no_moves", "holds no move"),
    ('[Format "ICCS"]\n1. h2-e2 C2.5', "record_illegal_move", "is not an ICCS move"),
])
def test_bad_records_are_refused_with_the_reason(text: str, code: str, said: str) -> None:
    with pytest.raises(RecordError) as refused:
        read_any_record(text)
    assert refused.value.code == code
    assert said in refused.value.message


@pytest.mark.parametrize(("tag", "code", "said"), [
    ("Whiteelo", "record_unknown_tag_near", "Whiteelo (did you mean WhiteElo?)"),
    ("white", "record_unknown_tag_near", "white (did you mean White?)"),
    ("EventDay", "record_unknown_tag_near", "EventDay (did you mean EventDate or Event?)"),
    ("Coach", "record_unknown_tag", "Coach (delete its line and import the record again)"),
    ("X" * 300, "record_unknown_tag", f"{'X' * 40}… (delete its line"),
])
def test_an_unknown_tag_is_named_with_the_nearest_known_ones_not_all(
        tag: str, code: str, said: str) -> None:
    """A tag the format does not have was refused with every tag it has (over thirty):
    the refusal names the tag and the near ones, or says to take it out."""
    with pytest.raises(RecordError) as refused:
        read_any_record(f'[White "Ana"]\n[Black "Luis"]\n[{tag} "x"]\n1. 9-13 24-20 *')
    assert refused.value.code == code
    assert said in refused.value.message
    assert "Annotator" not in refused.value.message and "tags:" not in refused.value.message


def test_a_record_may_hold_at_most_max_plies() -> None:
    text = '[Format "WXF"]\n' + " ".join(["H2+3 H8+7 H3-2 H7-8"] * (MAX_PLIES // 4 + 1))
    with pytest.raises(RecordError, match=f"more than {MAX_PLIES} moves"):
        read_any_record(text)


def test_a_chess_pgn_is_not_read_as_spanish_draughts() -> None:
    """A chess game's result ("1-0") looked like a move between numbered squares: the
    file was read as Spanish draughts and refused at "move 1 (e4)", as if its moves were
    wrong rather than its game."""
    chess = '[Event "Club"]\n[White "A"]\n[Black "B"]\n\n1. e4 e5 2. Nf3 Nc6 1-0\n'
    with pytest.raises(RecordError, match="which game is this"):
        read_any_record(chess)
    assert read_any_record("1. 11-15 22-18 0-1").variant.key == "damas"
    assert read_any_record('[White "Ana"] 1. 9-13 24-20 1-0').variant.key == "damas"


def test_a_record_of_another_game_than_the_one_named_says_so() -> None:
    """A PDN imported with game:xiangqi was refused for its White tag, with the 32 tags a
    Xiangqi record may have; the record itself said it was Spanish draughts."""
    pdn = (RECORDS / "cucujaes-2022.pdn").read_text()
    wxf = (RECORDS / "liu-dianzhong-liu-dahua-1997.wxf").read_text()
    with pytest.raises(RecordError, match="the record is of Spanish draughts, not Xiangqi: "
                       "import it without naming the game"):
        read_any_record(pdn, "xiangqi")
    with pytest.raises(RecordError, match="the record is of Xiangqi, not Spanish draughts"):
        read_any_record(wxf, "damas")
    assert read_any_record(pdn, "damas").variant.key == "damas"
    assert read_any_record("1. 11-15 22-18", "damas").variant.key == "damas"  # says nothing
