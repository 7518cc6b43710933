"""A setting left unchanged is said by ``KEEP``, which no text is: the word "keep" was
the sentinel, so ``/settings language:keep`` (or a channel given as "keep") changed
nothing in silence; typed, it is an unknown language like any other."""

from __future__ import annotations

import pytest

from service import InvalidOption, MatchService
from service.queries import KEEP
from tests.service.conftest import GUILD


async def test_keep_typed_is_no_language(service: MatchService) -> None:
    await service.update_guild_settings(GUILD, language="de")
    for typed in ("keep", "KEEP", " keep "):
        with pytest.raises(InvalidOption, match=r"^there is no language '\s*(keep|KEEP)\s*'"):
            await service.update_guild_settings(GUILD, language=typed)
    assert (await service.get_guild_settings(GUILD)).language == "de"


async def test_keep_typed_is_no_channel_nor_role(service: MatchService) -> None:
    await service.update_guild_settings(GUILD, games_channel_id=7, organiser_role_id=9)
    with pytest.raises(InvalidOption, match=r"^that is not a channel$"):
        await service.update_guild_settings(GUILD, games_channel_id="keep")
    with pytest.raises(InvalidOption, match=r"^that is not a role$"):
        await service.update_guild_settings(GUILD, organiser_role_id="keep")
    s = await service.get_guild_settings(GUILD)
    assert (s.games_channel_id, s.organiser_role_id) == (7, 9)


async def test_what_is_not_given_stays(service: MatchService) -> None:
    await service.update_guild_settings(GUILD, language="sv-SE", games_channel_id=7,
                                        organiser_role_id=9)
    s = await service.update_guild_settings(GUILD, default_days=5, language=KEEP)
    assert (s.language, s.games_channel_id, s.organiser_role_id, s.default_days) == \
        ("sv-SE", 7, 9, 5)
    s = await service.update_guild_settings(GUILD, language=None, games_channel_id=None,
                                            organiser_role_id=None)
    assert (s.language, s.games_channel_id, s.organiser_role_id) == (None, None, None)
