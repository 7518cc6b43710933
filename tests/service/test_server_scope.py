"""Issue 21, defect 7: the service's reads are scoped. With a ``Caller`` a match is
visible from its own server and, in DMs, to its participants; to anyone else every read
use-case raises ``MatchNotFound`` worded like a number never used."""

from __future__ import annotations

import pytest

from bot.service import Caller, MatchNotFound, MatchService
from tests.service.conftest import ALICE, BOB, EVE, GUILD, start_match


async def test_reads_are_scoped_to_the_server_and_the_players(service: MatchService) -> None:
    m = await start_match(service)
    await service.move(m.id, ALICE, "h3-e3")
    for caller in (Caller(GUILD + 1, ALICE), Caller(None, EVE)):
        for read in (lambda c: service.get_match(m.id, c), lambda c: service.position(m.id, c),
                     lambda c: service.board_image(m.id, caller=c),
                     lambda c: service.history(m.id, c), lambda c: service.record(m.id, c)):
            with pytest.raises(MatchNotFound) as err:
                await read(caller)
            assert err.value.message == f"there is no match #{m.id}"
    with pytest.raises(MatchNotFound) as never:
        await service.get_match(m.id + 100, Caller(GUILD, EVE))
    assert never.value.message == f"there is no match #{m.id + 100}"
    assert (await service.get_match(m.id, Caller(GUILD, EVE))).id == m.id  # same server
    assert (await service.history(m.id, Caller(None, BOB))).entries  # a player, in DMs
    assert await service.games_of(GUILD + 1, ALICE) == []
