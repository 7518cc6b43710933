"""The service refuses an empty seat or game (an adapter's empty option): ``seat=""`` was
a random seat, an import's ``game=""`` "the file says"."""

from __future__ import annotations

import pytest

from service import InvalidOption, MatchService
from service.importer import ImportRefused
from tests.service.conftest import ALICE, BOB, CHANNEL, GUILD

RECORD = ('[Game "alquerque-grande"]\n[Options \'{"mode": "slow", "players": 4}\']\n\n'
          "1. c3-d4 2. e3xc3\n")


async def test_the_service_refuses_an_empty_seat(service: MatchService) -> None:
    for seat in ("", "   "):
        with pytest.raises(InvalidOption, match=r"^there is no seat '\s*' \(seats: red, "
                                                r"black, or random\)$"):
            await service.challenge(GUILD, CHANNEL, ALICE, "xiangqi", opponents=[BOB],
                                    seat=seat)
    assert await service.games_of(GUILD, ALICE) == []
    m = await service.challenge(GUILD, CHANNEL, ALICE, "xiangqi", opponents=[BOB],
                                seat="random")  # the words for "any seat" still are
    assert m.id


async def test_the_service_refuses_an_empty_game_to_import(service: MatchService) -> None:
    for game in ("", " "):
        with pytest.raises(ImportRefused, match=r"unknown game ''"):
            await service.import_record(GUILD, CHANNEL, ALICE, RECORD, game)
    done = await service.import_record(GUILD, CHANNEL, ALICE, RECORD)
    assert done.moves == 2
