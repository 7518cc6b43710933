"""Ratings and evaluations are written with the reader's decimal sign."""

from locales.i18n import decimal, from_data, to_data
from service.views import RatingUpdate


def test_a_rating_change_reads_with_the_readers_decimal_sign() -> None:
    update = RatingUpdate(1, "xiangqi", 12.34, 14.1, 25.0, 26.0, 2, "win")
    assert update.text("alice").render("en-US") == "alice 12.3 → 14.1 (+1.8), #2"
    assert update.text("alice").render("de") == "alice 12,3 → 14,1 (+1,8), #2"
    assert update.text("alice").render("zh-CN") == "alice 12.3 → 14.1 (+1.8), #2"


def test_a_rounded_zero_has_no_minus_and_numbers_survive_the_outbox() -> None:
    assert decimal(-0.01, signed=True).render("en-US") == "+0.0"
    assert decimal(-1.25, 2, signed=True).render("es-ES") == "-1,25"
    assert from_data(to_data(decimal(2.5))).render("sv-SE") == "2,5"


def test_a_provisional_rating_change_is_marked_as_the_ladder_marks_it() -> None:
    """A new player's first result: '0.0? → -1.8?', the '?' the leaderboard puts after a
    provisional rating; the game that establishes it drops the '?' after the arrow."""
    first = RatingUpdate(1, "xiangqi", 0.0, -1.84, 25.0, 24.0, 3, "loss", first=True, games=1)
    assert first.text("bob").render("de") == "bob 0,0? → -1,8? (-1,8), #3"
    fifth = RatingUpdate(1, "xiangqi", 3.0, 4.0, 25.0, 26.0, 1, "win", games=5)
    assert fifth.text("bob").render("en-US") == "bob 3.0? → 4.0 (+1.0), #1"
    assert from_data(to_data(first.text("bob"))).render("en-US") == "bob 0.0? → -1.8? (-1.8), #3"
