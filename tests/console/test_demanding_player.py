"""What a demanding new player tripped over in the console (helper "leavings"): each
test failed before its fix."""

from __future__ import annotations

from pathlib import Path

from tests.console.test_explorer import session

RECORDS = Path(__file__).parents[1] / "rules" / "records"


def test_continue_with_the_computer_is_refused_not_sent_to_a_person_called_so() -> None:
    """``@computer`` is Tablero itself, as in /challenge; an imported game is continued
    by people: refused in the service's words, not a lobby waiting for a "computer"."""
    wxf = RECORDS / "liu-dianzhong-liu-dahua-1997.wxf"
    text = session(["as alice", f"/import {wxf}", "/continue #1 @computer",
                    "/continue #1 @Tablero", "/games"])
    refusal = ("! an imported game is continued by people of the server: challenge "
               "members, not the computer")
    assert text.count(refusal) == 2
    assert "asks computer" not in text and "match #2" not in text
    assert "no live matches" in text.split("> /games\n", 1)[1]


def test_an_imported_player_out_of_a_continued_game_has_no_rating_to_come(
        tmp_path: Path) -> None:
    """The record's player of a seat that left stays in the continued match; he is never
    rated (imported games and continued ones are casual, he plays no more): his line said
    "no rating yet" as if a rating were on its way."""
    record = tmp_path / "left-early.txt"
    record.write_text('[Game "alquerque-grande"]\n[Options \'{"mode": "fast", "players": 4}\']'
                      '\n[Turquoise "Tomás"]\n\n1. c3-d4 2. {Turquoise is skipped} 3. e5xc3 '
                      '4. c5xe5\n', encoding="utf-8")
    said = session(["as alice", f"/import {record}", "/continue #1 @bob @carol",
                    "as bob", "/accept", "as carol", "/accept", "/board #2"])
    board = said.split("> /board #2\n", 1)[1]
    assert "  Turquoise: Tomás (imported) (skipped since move 2) (out)\n" in board
    assert "▶ White: alice · no rating yet\n" in board  # the people's lines as they were


def test_tournament_words_it_does_not_take_are_refused_not_dropped() -> None:
    """``/tournament pairings abc`` (or a round past the last) showed this round's
    pairings, ``/tournament mine @bob`` one's own games, ``standings CSV`` the table:
    each read as something the player did not ask for."""
    text = session(["as alice", "/tournament create damas rr name:Cup", "/tournament join",
                    "as bob", "/tournament join", "as alice", "/tournament start",
                    "/tournament pairings abc", "/tournament pairings 1000",
                    "/tournament pairings round:1", "/tournament mine @bob",
                    "/tournament standings nonsense", "/tournament standings CSV"])

    def said(command: str) -> str:
        return text.split(f"> {command}\n", 1)[1].split("\n> ", 1)[0].strip()
    assert said("/tournament pairings abc") == \
        "! /tournament pairings [#T] [ROUND]: ROUND is a round's number, not 'abc'"
    assert said("/tournament pairings 1000") == "! Cup has rounds 1 to 1"
    assert said("/tournament pairings round:1").startswith("round 1: ")
    assert said("/tournament mine @bob") == "! /tournament mine [#T]: what is '@bob'?"
    assert said("/tournament standings nonsense") == \
        "! /tournament standings [#T] [csv]: what is 'nonsense'?"
    assert said("/tournament standings CSV").startswith("place,player,player_id,points")


def test_an_option_a_challenge_cannot_use_is_refused_in_words() -> None:
    """A game without options said "(options: -)"; a level for a lobby whose late seats
    are skipped (no computer plays there) was taken and dropped in silence."""
    text = session(["as alice", "/challenge @bob xiangqi players:4",
                    "/challenge @bob @carol @dave alquerque-grande mode:fast "
                    "on_timeout:skip level:3",
                    "/challenge @bob @carol @dave alquerque-grande mode:fast "
                    "on_timeout:computer level:3", "/games"])
    assert "! Xiangqi has no option 'players' (it takes no options)" in text
    assert "options: -" not in text
    assert text.split("on_timeout:skip level:3\n", 1)[1].startswith(
        "! level: is for games against the computer (@computer)\n")
    assert "created #1 Alquerque grande" in text  # on_timeout:computer takes a level
    assert "#2" not in text
