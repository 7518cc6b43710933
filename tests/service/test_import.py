"""/import (issue 44) on every repository: real records become finished (or unfinished)
matches that replay, can be read in every export and are counted in the explorer apart;
bad files are refused with the reason and change nothing."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from service import InvalidOption, MatchService, MatchStatus, Repository
from service.imported_seats import imported_player, is_imported
from service.importer import MAX_RECORD_BYTES
from tests.service.conftest import ALICE, CHANNEL, GUILD, Recorder, SetClock, finishing_game

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


async def test_imported_players_are_named_in_every_later_view(
        repo: Repository, clock: SetClock, recorder: Recorder) -> None:
    """The names stay with the ids: a service started later (nothing in memory) names
    them in the export, the replay, the web page's names and the words about the match."""
    from locales.i18n import render
    from service import texts
    data = (RECORDS / "liu-dianzhong-liu-dahua-1997.wxf").read_bytes()
    done = await MatchService(repo, recorder, clock).import_record(GUILD, CHANNEL, ALICE, data)
    red, black = (s.user_id for s in done.match.seats)
    later = MatchService(repo, recorder, clock)
    assert later.imported_name(red) == ""  # not read yet: nothing is kept in memory
    history = await later.history(done.match.id)
    assert '[Red "Liu Dianzhong"]' in history.export
    assert '[Black "Liu Dahua"]' in history.export
    assert (later.imported_name(red), later.imported_name(black)) == \
        ("Liu Dianzhong", "Liu Dahua")
    record = await later.record(done.match.id)
    assert [s.player for s in record.match.seats] == ["Liu Dianzhong", "Liu Dahua"]
    await later.update_guild_settings(GUILD, web=True)
    web = await later.web_match(done.match.id)
    assert web.names == ("Liu Dianzhong", "Liu Dahua")
    said = render(texts.who(record.match, [0, 1], list(web.names)), "en-US")
    assert said == "Liu Dianzhong (imported) (Red) and Liu Dahua (imported) (Black)"
    assert render(texts.who(record.match, [1], list(web.names)), "de") == \
        "Liu Dahua (importiert) (Schwarz)"


async def test_two_names_with_one_checksum_get_two_ids(service: MatchService) -> None:
    """'plumless' and 'buckeroo' have the same CRC-32: the second name gets the next id,
    and each import names its own player; the same name again keeps its id. (Three
    games: the same moves would be the same game, refused.)"""
    assert imported_player("plumless", 0) == imported_player("buckeroo", 0)
    first = await service.import_record(GUILD, CHANNEL, ALICE,
                                        '[White "plumless"]\n[Black "Ana"]\n1. 9-13 *')
    second = await service.import_record(GUILD, CHANNEL, ALICE,
                                         '[White "Buckeroo"]\n[Black "plumless"]\n1. 10-14 *')
    plumless, buckeroo = first.match.seats[0].user_id, second.match.seats[0].user_id
    assert buckeroo == plumless + 1 and is_imported(buckeroo)
    assert second.match.seats[1].user_id == plumless
    assert (service.imported_name(plumless), service.imported_name(buckeroo)) == \
        ("plumless", "Buckeroo")
    again = await service.import_record(GUILD, CHANNEL, ALICE,
                                        '[White "BUCKEROO"]\n[Black "?"]\n1. 11-15 *')
    assert again.match.seats[0].user_id == buckeroo
    assert service.imported_name(buckeroo) == "Buckeroo"  # the first spelling stays
    assert again.match.seats[1].player == ""  # unnamed: no name stored


async def test_the_same_game_imported_again_is_refused_naming_the_match_it_is(
        service: MatchService, repo: Repository) -> None:
    """The same record imported twice became two matches. A game is imported once in a
    server: the same moves of the same game are refused whatever the file says around
    them (another format, spacing, move numbers, comments, tags, players' names), with
    the match it is and the command that shows it; nothing is stored. Another game, or
    another server, imports it."""
    from locales.i18n import render
    from service.importer import AlreadyImported
    wxf = (RECORDS / "liu-dianzhong-liu-dahua-1997.wxf").read_text()
    first = await service.import_record(GUILD, CHANNEL, ALICE, wxf)
    before = await dump(repo)
    iccs = (RECORDS / "liu-dianzhong-liu-dahua-1997.iccs.pgn").read_text()
    retold = ('[Game "Chinese Chess"]\n[Event "Another event"]\n[Red "LIU D."]\n'
              '[Format "WXF"]\n\n1.C2.5 {the central cannon} H2+3\n2. H2+3 (2. P7+1) C8.6 '
              + wxf.split("2. H2+3  C8.6", 1)[1].split("}END")[0] + " *")
    for again in (wxf, iccs, "\n\n" + wxf.replace("  ", "   "), retold):
        with pytest.raises(AlreadyImported) as refused:
            await service.import_record(GUILD, CHANNEL + 1, ALICE, again)
        assert refused.value.match_id == first.match.id
        assert render(refused.value.text, "en-US") == (
            f"this game is imported in this server already, as match {first.match.id}: "
            f"see it with /history match:{first.match.id}")
        assert await dump(repo) == before
    assert render(refused.value.text, "de") == (
        f"diese Partie ist auf diesem Server schon importiert, als Partie "
        f"{first.match.id}: sieh sie dir mit /verlauf partie:{first.match.id} an")
    longer = wxf.replace("10. C5.4  R4-1", "10. C5.4  R4-1\n 11. R8+1")
    assert (await service.import_record(GUILD, CHANNEL, ALICE, longer)).moves == 21
    elsewhere = await service.import_record(GUILD + 1, CHANNEL, ALICE, iccs)
    assert elsewhere.match.id not in (first.match.id,)


async def test_a_finished_game_imported_twice_is_counted_once_in_the_explorer(
        service: MatchService) -> None:
    from service.importer import AlreadyImported
    moves = finishing_game("damas", {}, 4)
    assert moves is not None
    text = "[Game \"damas\"]\n\n" + " ".join(f"{i + 1}. {m}" for i, m in enumerate(moves))
    await service.import_record(GUILD, CHANNEL, ALICE, text)
    with pytest.raises(AlreadyImported):
        await service.import_record(GUILD, CHANNEL, ALICE, '[Event "x"]\n' + text + "\n")
    imported = await service.explorer(GUILD, ALICE, "damas", "", "imported")
    assert [(m.move, m.games) for m in imported.moves] == [(moves[0], 1)]


FOUR_LEFT = ('[Game "alquerque-grande"]\n[Options \'{"mode": "slow", "players": 4}\']\n'
             '[White "Ana"]\n[Turquoise "Tomás"]\n[Black "Bea"]\n[Red "Rui"]\n\n'
             "1. c3-d4 2. {Turquoise resigns} 3. e5xc3 4. c5xe5\n")


@pytest.mark.parametrize("text", [
    (RECORDS / "liu-dianzhong-liu-dahua-1997.wxf").read_text(),
    (RECORDS / "cucujaes-2022.pdn").read_text(),
    FOUR_LEFT,
    '[Game "xiangqi"]\n\n1. h3-e3 2. h10-g8 3. {Red resigns}',
    '[Game "damas"]\n\n1. h3-g4 2. a6-b5 3. {draw agreed}',
])
async def test_an_imports_fingerprint_is_worked_out_again_from_what_is_stored(
        service: MatchService, repo: Repository, text: str) -> None:
    """An import stored before fingerprints gets its own from its stored record: the
    same as the file's, for every kind of record (leavings and a draw included)."""
    from rules.records import read_any_record
    from service.importer import record_key, stored_key
    done = await service.import_record(GUILD, CHANNEL, ALICE, text, None)
    rec = await repo.load_match(done.match.id)
    assert rec is not None and rec.import_key == record_key(read_any_record(text))
    assert stored_key(rec, await repo.load_entries(rec.id)) == rec.import_key


async def test_imports_from_before_fingerprints_are_recognised_at_the_next_import(
        service: MatchService, repo: Repository) -> None:
    """The imports an upgraded database holds (``match:<id>``) are fingerprinted at the
    server's next import: the same game is refused, naming the first of them; a game the
    server held twice keeps its second match apart, still an import to continue."""
    from service.importer import AlreadyImported
    wxf = (RECORDS / "liu-dianzhong-liu-dahua-1997.wxf").read_text()
    first = (await service.import_record(GUILD, CHANNEL, ALICE, wxf)).match.id
    twice = (await service.import_record(GUILD + 1, CHANNEL, ALICE, wxf)).match.id
    other = (await service.import_record(GUILD, CHANNEL, ALICE, FOUR_LEFT)).match.id
    for match_id in (first, twice, other):  # as migration 26 left them
        rec = await repo.load_match(match_id)
        assert rec is not None and rec.import_key is not None
        assert await repo.set_import_key(match_id, rec.import_key, f"match:{match_id}")
    moved = await repo.load_match(twice)  # the second import of the game, in GUILD too
    assert moved is not None
    twice = (await repo.create_match(dataclasses.replace(moved, id=0, guild_id=GUILD),
                                     entries=await repo.load_entries(moved.id))).id
    iccs = (RECORDS / "liu-dianzhong-liu-dahua-1997.iccs.pgn").read_text()
    with pytest.raises(AlreadyImported) as refused:
        await service.import_record(GUILD, CHANNEL, ALICE, iccs)
    assert refused.value.match_id == first
    assert await repo.unkeyed_imports(GUILD) == []
    keys = {m: (await repo.load_match(m)).import_key  # type: ignore[union-attr]
            for m in (first, twice, other)}
    assert keys[twice] == f"{keys[first]}#{twice}" and keys[other].startswith("r2:")
    assert {g.match.id for g in await service.continuable_imports(GUILD, ALICE)} == \
        {first, twice, other}
    with pytest.raises(AlreadyImported):
        await service.import_record(GUILD, CHANNEL, ALICE, FOUR_LEFT)


async def _played_to_the_end(service: MatchService, moves: list[str]) -> int:
    """A damas match Alice and Bob play through the service with ``moves``, then the
    player to move resigns: its number."""
    from tests.service.conftest import start_match
    m = await start_match(service, "damas")
    for text in moves:
        m = (await service.move(m.id, m.to_move[0], text)).match
    m = await service.resign(m.id, m.to_move[0])
    assert m.status is MatchStatus.FINISHED
    await service.explorer_idle()
    return m.id


async def test_a_played_games_export_imported_in_its_server_is_refused_naming_it(
        service: MatchService, repo: Repository) -> None:
    """The ``/history`` export of a match played in the server, imported there, became a
    second match, counted in the explorer once as played and once as imported. A played
    game is in its server as an import is: refused, naming the played match; nothing is
    stored, the explorer counts it once. One that ended aborted (a move played) too; one
    still being played may be imported (a snapshot), and another server imports any."""
    from locales.i18n import render
    from service.importer import AlreadyImported
    from tests.service.conftest import BOB, start_match
    moves = finishing_game("damas", {}, 4)
    assert moves is not None
    played = await _played_to_the_end(service, moves[:3])
    assert await repo.unkeyed_games(GUILD, 10) == []  # fingerprinted as it ended
    export = (await service.history(played)).export
    count = len(await repo.match_ids())
    with pytest.raises(AlreadyImported) as refused:
        await service.import_record(GUILD, CHANNEL, ALICE, export)
    assert (refused.value.match_id, refused.value.played) == (played, True)
    assert render(refused.value.text, "en-US") == (
        f"this game was played in this server, as match {played}: see it with "
        f"/history match:{played}")
    assert render(refused.value.text, "de").startswith(
        f"diese Partie wurde auf diesem Server gespielt, als Partie {played}")
    assert len(await repo.match_ids()) == count
    every = await service.explorer(GUILD, ALICE, "damas", "", "all")
    assert [(m.move, m.games) for m in every.moves] == [(moves[0], 1)]
    assert (await service.explorer(GUILD, ALICE, "damas", "", "imported")).moves == ()
    # aborted with a move played: in the server too
    aborted = await start_match(service, "damas")
    await service.move(aborted.id, ALICE, moves[0])
    assert (await service.resign(aborted.id, BOB)).status is MatchStatus.ABORTED
    with pytest.raises(AlreadyImported) as refused:
        await service.import_record(GUILD, CHANNEL, ALICE,
                                    (await service.history(aborted.id)).export)
    assert refused.value.match_id == aborted.id
    # still being played: a snapshot imports (its game is not what it will be)
    live = await start_match(service, "damas")
    await service.move(live.id, ALICE, moves[0])
    await service.move(live.id, BOB, moves[1])
    snapshot = (await service.history(live.id)).export
    assert (await service.import_record(GUILD, CHANNEL, ALICE, snapshot)).moves == 2
    elsewhere = await service.import_record(GUILD + 1, CHANNEL, ALICE, export)
    assert elsewhere.match.status is MatchStatus.FINISHED


async def test_a_game_played_before_fingerprints_is_recognised_at_the_next_import(
        service: MatchService, repo: Repository) -> None:
    """A match that ended before played games were fingerprinted (an upgraded database:
    ``game_key`` empty; on a real upgraded file in tests/storage) gets its fingerprint at
    its server's next import, which then refuses its export naming it; one whose record
    does not read is marked, so that it is not read at every import."""
    from service.importer import UNREADABLE, AlreadyImported
    moves = finishing_game("damas", {}, 4)
    assert moves is not None
    played = await _played_to_the_end(service, moves[:3])
    other = await _played_to_the_end(service, moves[:2])
    await forget_game_keys(repo)
    assert [m.id for m in await repo.unkeyed_games(GUILD, 10)] == [played, other]
    with pytest.raises(AlreadyImported) as refused:
        await service.import_record(GUILD, CHANNEL, ALICE,
                                    (await service.history(played)).export)
    assert (refused.value.match_id, refused.value.played) == (played, True)
    assert await repo.unkeyed_games(GUILD, 10) == []
    assert await repo.game_match(GUILD, f"{UNREADABLE}{other}") is None
    await forget_game_keys(repo)
    rec = await repo.load_match(other)
    assert rec is not None
    await repo.save(rec, dataclasses.replace(rec, start_text="not a position"))
    with pytest.raises(AlreadyImported):
        await service.import_record(GUILD, CHANNEL, ALICE,
                                    (await service.history(played)).export)
    assert await repo.unkeyed_games(GUILD, 10) == []  # the unreadable one is marked


async def forget_game_keys(repo: Repository) -> None:
    """The played games' fingerprints gone, as in a database from before them."""
    from storage.memory import MemoryRepository
    if isinstance(repo, MemoryRepository):
        repo._game_keys.clear()
    else:
        async def body() -> None:
            await repo._exec("UPDATE matches SET game_key = NULL")  # type: ignore[attr-defined]
        await repo._transaction(body)  # type: ignore[attr-defined]


def test_a_fingerprint_holds_the_start_as_a_value_not_as_its_text() -> None:
    """Version 1 hashed the start position's text: another spelling of the same start
    (FEN's "r" for red to move, as other programs write it; any later change to a
    game's text format) made the same game another, and an import no longer matched the
    match stored before. The start is held as a value now: the game's own start, or the
    older rules version's start it is."""
    import rules
    from rules.records import read_any_record
    from service.importer import record_key, stored_key
    from tests.storage.test_contract import entry, record
    x = rules.variant("xiangqi")
    standard = x.start().to_text()
    spelt = standard.replace(" w ", " r ")
    assert spelt != standard and x.from_text(spelt) == x.start()
    entries = [entry(0, "h3-e3"), entry(1, "h10-g8")]
    keys = {stored_key(record(options={}, start_text=t), entries) for t in (standard, spelt)}
    assert keys == {record_key(read_any_record('[Game "xiangqi"]\n\n1. h3-e3 2. h10-g8'))}
    # a record of an older rules version (Querni's first): the file's and the stored
    # match's are one, though the start read from the stored text carries today's rules
    q = rules.variant("querni")
    first = q.start_recorded("1", setup="random", seed=3)
    move = q.format_move(first, next(iter(first.legal_moves())))
    read = read_any_record('[Game "querni"]\n[Rules "1"]\n'
                           '[Options \'{"seed": 3, "setup": "random"}\']\n\n1. ' + move)
    assert read.start != q.from_text(read.start.to_text())
    assert record_key(read) == stored_key(record(
        game="querni", options={"seed": 3, "setup": "random"},
        start_text=read.start.to_text()), [entry(0, move)])
