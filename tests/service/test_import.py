"""/import (issue 44) on every repository: real records become finished (or unfinished)
matches that replay, can be read in every export and are counted in the explorer apart;
bad files are refused with the reason and change nothing."""

from __future__ import annotations

from pathlib import Path

import pytest

from service import InvalidOption, MatchService, MatchStatus, Repository
from service.imported_seats import imported_player, is_imported
from service.importer import MAX_RECORD_BYTES
from tests.service.conftest import ALICE, CHANNEL, GUILD, finishing_game

RECORDS = Path(__file__).parents[1] / "rules" / "records"


async def test_a_published_xiangqi_game_is_imported_and_replays(
        service: MatchService) -> None:
    data = (RECORDS / "liu-dianzhong-liu-dahua-1997.iccs.pgn").read_bytes()
    done = await service.import_record(GUILD, CHANNEL, ALICE, data)
    assert done.moves == 20 and done.players == {0: "Liu Dianzhong", 1: "Liu Dahua"}
    m = done.match
    assert m.status is MatchStatus.ABORTED and m.result is None  # the record goes on (*)
    assert not m.rated and m.ply == 20
    assert [s.user_id for s in m.seats] == [imported_player("Liu Dianzhong", 0),
                                            imported_player("Liu Dahua", 1)]
    assert all(is_imported(s.user_id) for s in m.seats)
    record = await service.record(m.id)
    assert [p.canonical for p in record.plies][:4] == ["h3-e3", "b10-c8", "h1-g3", "h8-f8"]
    assert await service.verify_all() == []
    history = await service.history(m.id)
    assert history.export_format == "wxf" and "C2.5" in history.export
    # unfinished: not in the explorer
    assert (await service.explorer(GUILD, ALICE, "xiangqi", "", "imported")).moves == ()


async def test_a_finished_import_is_counted_in_the_explorer_as_imported(
        service: MatchService) -> None:
    moves = finishing_game("damas", {}, 4)
    assert moves is not None
    text = "[Game \"damas\"]\n\n" + " ".join(f"{i + 1}. {m}" for i, m in enumerate(moves))
    done = await service.import_record(GUILD, CHANNEL, ALICE, text)
    assert done.match.status is MatchStatus.FINISHED and done.match.result is not None
    imported = await service.explorer(GUILD, ALICE, "damas", "", "imported")
    assert [(m.move, m.games) for m in imported.moves] == [(moves[0], 1)]
    assert (await service.explorer(GUILD, ALICE, "damas", "", "played")).moves == ()
    assert await service.backfill_explorer() == 0  # counted once
    # a resignation in Tablero's own record is stored as the record's end
    resigned = await service.import_record(
        GUILD, CHANNEL, ALICE, '[Game "xiangqi"]\n\n1. h3-e3 2. h10-g8 3. {Red resigns}')
    assert resigned.match.status is MatchStatus.FINISHED
    assert resigned.match.result is not None and resigned.match.result.reason == "resignation"
    assert [p.canonical for p in (await service.record(resigned.match.id)).plies] == \
        ["h3-e3", "h10-g8", "#resign 0"]
    assert await service.verify_all() == []


async def test_a_pdn_game_with_a_result_tag(service: MatchService) -> None:
    done = await service.import_record(GUILD, CHANNEL, ALICE,
                                       (RECORDS / "cucujaes-2022.pdn").read_text(), "damas")
    assert done.moves == 7 and done.match.status is MatchStatus.ABORTED
    won = await service.import_record(GUILD, CHANNEL, ALICE,
                                      '[White "Ana"]\n[Black "Luis"]\n1. 9-13 24-20 0-1')
    assert won.match.status is MatchStatus.FINISHED
    assert won.match.result is not None and won.match.result.reason == "recorded"
    assert won.players == {0: "Ana", 1: "Luis"}


async def dump(repo: Repository) -> object:
    from tests.service.test_server_scope import dump as everything
    return await everything(repo)


@pytest.mark.parametrize(("data", "said"), [
    (b"x" * (MAX_RECORD_BYTES + 1), "the record is too large (65 KB): at most 64 KB are read"),
    ('[Game "Chinese Chess"]\n[Red "柳大华"]\n1. C2.5'.encode("gb2312"),  # 29 bytes, then GB
     "the record is not UTF-8 text (byte 30 is not)"),
    ("   \n", "the record is empty"),
    ('[Game "xiangqi"]\n\n1. h3-e3 2. \x07h10-g8', "contains the control character U+0007"),
    ('[Game "Chinese Chess"]\n[Coach "x"]\n1. C2.5', "has a tag this format does not have: "
                                                     "Coach"),
    ('[Game "Chinese Chess"]\n1. C2.5 H8+7 2. C5+9', "move 3 (C5+9) cannot be played"),
])
async def test_bad_files_are_refused_and_change_nothing(service: MatchService, repo: Repository,
                                                       data: bytes | str, said: str) -> None:
    before = await dump(repo)
    with pytest.raises(InvalidOption) as refused:  # ImportRefused, InvalidText at the door
        await service.import_record(GUILD, CHANNEL, ALICE, data)
    assert said in str(refused.value)
    assert await dump(repo) == before
