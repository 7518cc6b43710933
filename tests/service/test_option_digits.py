"""Digits that are not ASCII (superscripts, other scripts) in seat and option text: a typed
error, never a bare ValueError from ``int`` (a case hypothesis found)."""

from __future__ import annotations

import pytest

from service import InvalidOption, MatchService
from tests.service.conftest import ALICE, BOB, CHANNEL, GUILD


@pytest.mark.parametrize("seat", ["¹", "²", "١", "-¹"])
async def test_a_non_ascii_digit_seat_is_an_invalid_option(service: MatchService,
                                                           seat: str) -> None:
    with pytest.raises(InvalidOption, match="no seat"):
        await service.challenge(GUILD, CHANNEL, ALICE, "xiangqi", opponents=[BOB], seat=seat)


@pytest.mark.parametrize("seed", ["¹", "-²"])
async def test_a_non_ascii_digit_option_is_an_invalid_option(service: MatchService,
                                                             seed: str) -> None:
    with pytest.raises(InvalidOption):
        await service.challenge(GUILD, CHANNEL, ALICE, "querni", opponents=[BOB],
                                options={"seed": seed})


async def test_ascii_digits_still_choose_a_seat(service: MatchService) -> None:
    m = await service.challenge(GUILD, CHANNEL, ALICE, "xiangqi", opponents=[BOB], seat="1")
    m = await service.accept(m.id, BOB)
    assert {s.seat: s.user_id for s in m.seats}[1] == ALICE
