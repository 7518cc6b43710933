"""Render behaviour a demanding player checked: the status line of an over match."""

from __future__ import annotations

import rules
from render import draw_board
from render.alt import status


def test_a_result_line_replaces_the_side_to_move() -> None:
    p = rules.variant("xiangqi").start()
    board = draw_board(p, names=["alice", "bob"], result="Black (bob) wins: opponent resigned")
    assert "Black (bob) wins: opponent resigned." in board.alt_text
    assert "to move" not in board.alt_text


def test_a_ranking_without_a_single_winner_is_not_called_a_draw() -> None:
    v = rules.variant("alquerque-grande")
    p = v.start(players=4, mode="fast")
    for move in ("d3-d4", "e3-d3", "e5xe3", "c4xe4", "d2xd4"):
        p = p.play(v.parse_move(p, move))
    p = v.resign(p, 1)  # fast: the game ends at once, ranked by captures and stones
    assert not isinstance(p, rules.Outcome) and p.outcome() is not None
    outcome = p.outcome()
    assert outcome is not None and not outcome.winners and len(outcome.ranking) > 1
    text = status(p)
    assert not text.startswith("Draw") and text.startswith("No single winner, first: ")


def test_the_status_starts_its_sentence_with_a_capital_in_every_language() -> None:
    # Spanish says "juega {players}" (lowercase: it is a clause in other sentences); the
    # board's alt text and status line gave it as a name, uncapitalised: "…visto desde
    # Blanco. juega Blanco (ana)."
    p = rules.variant("damas").start()
    for locale in ("es-ES", "es-419"):
        assert status(p, None, locale) == "Juega Blanco"
        board = draw_board(p, names=["ana", "bob"], locale=locale)
        assert " visto desde Blanco. Juega Blanco (ana). " in board.alt_text
    assert status(p, ["ana", "bob"]) == "White (ana) to move"
