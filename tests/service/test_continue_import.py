"""Continuing an imported game as a new correspondence match (issue 44), on every
repository: the challenge names the imported game; once the invited player accepts, the
match starts from the record's last position, its record beginning with the imported
moves (so it replays exactly), casual, kept out of the opening explorer; declined, it never
starts and the imported game is untouched; a game the record ends, a match that is not an
imported game and a wrong set of opponents are refused in words."""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path

import pytest

import rules
from service import (
    Caller,
    ChallengeReceived,
    InvalidOption,
    MatchNotFound,
    MatchService,
    MatchStatus,
    NotAllowed,
    NullNotifier,
    Repository,
    ServiceError,
)
from service.computer_seats import computer_user
from service.errors import MatchOver
from service.imported_seats import is_imported
from service.records import MatchRecord
from storage import MemoryRepository
from tests.service.conftest import (
    ALICE,
    BOB,
    CAROL,
    CHANNEL,
    DAVE,
    GUILD,
    Recorder,
    SetClock,
    finishing_game,
    start_match,
)

RECORDS = Path(__file__).parents[1] / "rules" / "records"


async def _legal_move(service: MatchService, match_id: int) -> str:
    p, _ = await service.position(match_id)
    return str(p.variant.format_move(p, next(iter(p.legal_moves()))))


async def test_a_wxf_xiangqi_game_goes_on_from_its_last_position(
        service: MatchService, recorder: Recorder) -> None:
    data = (RECORDS / "liu-dianzhong-liu-dahua-1997.wxf").read_bytes()
    imported = (await service.import_record(GUILD, CHANNEL, CAROL, data)).match
    before = await service.record(imported.id)
    asked = await service.continue_import(GUILD, CHANNEL, ALICE, imported.id, [BOB])
    assert asked.status is MatchStatus.OPEN and asked.continued_from == imported.id
    assert not asked.rated and asked.ply == 20
    received = recorder.of(ChallengeReceived)[-1]
    assert isinstance(received, ChallengeReceived)
    assert received.match.id == asked.id and received.to == (BOB,)
    assert received.match.continued_from == imported.id
    started = await service.accept(asked.id, BOB)
    assert started.status is MatchStatus.ACTIVE and started.ply == 20
    # Red is to move after 20 plies: the challenger takes the side to move
    assert [s.user_id for s in started.seats] == [ALICE, BOB] and started.to_move == (ALICE,)
    assert started.position_text == imported.position_text
    record = await service.record(started.id)
    assert [p.canonical for p in record.plies] == [p.canonical for p in before.plies]
    assert all(is_imported(p.user_id) for p in record.plies)  # played by the record's players
    with pytest.raises(NotAllowed, match="only the last move can be taken back"):
        await service.request_takeback(started.id, BOB)  # the record's move, not his
    move = await _legal_move(service, started.id)
    moved = (await service.move(started.id, ALICE, move)).match
    assert moved.ply == 21 and moved.to_move == (BOB,)
    await service.resign(started.id, BOB)
    assert await service.verify_all() == []  # both replay exactly, from the start
    assert (await service.record(imported.id)).plies == before.plies  # untouched
    await service.explorer_idle()
    shown = await service.explorer(GUILD, ALICE, "xiangqi", "", "all")
    assert shown.moves == ()  # it did not start at the start: not in the explorer
    assert await service.rank_of(GUILD, "xiangqi", ALICE) is None  # casual


async def test_a_pdn_damas_game_goes_on_with_the_seat_asked_for(
        service: MatchService) -> None:
    text = (RECORDS / "cucujaes-2022.pdn").read_text()
    imported = (await service.import_record(GUILD, CHANNEL, ALICE, text, "damas")).match
    assert imported.ply == 7  # White moved last: Black is to move
    asked = await service.continue_import(GUILD, CHANNEL, ALICE, imported.id, [BOB],
                                          seat="white", days=5)
    started = await service.accept(asked.id, BOB)
    assert [s.user_id for s in started.seats] == [ALICE, BOB]
    assert started.to_move == (BOB,) and started.days_per_move == 5
    move = await _legal_move(service, started.id)
    assert (await service.move(started.id, BOB, move)).match.ply == 8
    assert await service.verify_all() == []


def _opening(game: str, plies: int, seed: int, **options: object) -> list[str]:
    """The first ``plies`` moves of a seeded random game of ``game`` (never its end)."""
    v = rules.variant(game)
    rng = random.Random(seed)
    p = v.start(**options)
    moves: list[str] = []
    for _ in range(plies):
        safe = [m for m in p.legal_moves() if p.play(m).outcome() is None]
        move = rng.choice(safe)
        moves.append(str(v.format_move(p, move)))
        p = p.play(move)
    return moves


async def test_an_alquerque_game_in_tablero_notation_goes_on(service: MatchService) -> None:
    moves = _opening("alquerque", 6, 3)
    text = '[Game "alquerque"]\n[White "Ana"]\n[Black "Luis"]\n\n' + " ".join(
        f"{i + 1}. {m}" for i, m in enumerate(moves))
    imported = (await service.import_record(GUILD, CHANNEL, ALICE, text)).match
    asked = await service.continue_import(GUILD, CHANNEL, BOB, imported.id, [ALICE])
    started = await service.accept(asked.id, ALICE)
    assert started.ply == 6 and started.to_move == (BOB,)
    move = await _legal_move(service, started.id)
    assert (await service.move(started.id, BOB, move)).match.ply == 7
    history = await service.history(started.id)
    assert [e[2] for e in history.entries][:6] == moves
    assert await service.verify_all() == []


async def test_a_four_player_game_goes_on_once_all_three_accept(
        service: MatchService) -> None:
    """Alquerque grande for four, in teams: the challenger takes the seat to move, the
    invited the other seats in the order named; it starts when the last one accepts."""
    moves = _opening("alquerque-grande", 6, 2, players=4, mode="teams")
    text = ('[Game "alquerque-grande"]\n[Options "{\\"players\\": 4, \\"mode\\": '
            '\\"teams\\"}"]\n\n' + " ".join(f"{i + 1}. {m}" for i, m in enumerate(moves)))
    imported = (await service.import_record(GUILD, CHANNEL, ALICE, text)).match
    with pytest.raises(InvalidOption, match="continuing it needs 3 opponents"):
        await service.continue_import(GUILD, CHANNEL, ALICE, imported.id, [BOB])
    lobby = await service.continue_import(GUILD, CHANNEL, ALICE, imported.id,
                                          [BOB, CAROL, DAVE])
    assert lobby.status is MatchStatus.LOBBY
    for user in (BOB, CAROL):
        assert (await service.accept(lobby.id, user)).status is MatchStatus.LOBBY
    started = await service.accept(lobby.id, DAVE)
    assert started.status is MatchStatus.ACTIVE and started.ply == 6
    # after six plies seat 2 is to move: Alice; Bob, Carol and Dave on 0, 1 and 3
    assert [(s.seat, s.user_id, s.team) for s in started.seats] == [
        (0, BOB, 0), (1, CAROL, 1), (2, ALICE, 0), (3, DAVE, 1)]
    assert started.to_move == (ALICE,)
    move = await _legal_move(service, started.id)
    assert (await service.move(started.id, ALICE, move)).match.ply == 7
    assert await service.verify_all() == []


async def test_declined_it_never_starts(service: MatchService, repo: Repository) -> None:
    data = (RECORDS / "liu-dianzhong-liu-dahua-1997.wxf").read_bytes()
    imported = (await service.import_record(GUILD, CHANNEL, ALICE, data)).match
    asked = await service.continue_import(GUILD, CHANNEL, ALICE, imported.id, [BOB])
    declined = await service.decline(asked.id, BOB)
    assert declined.status is MatchStatus.DECLINED
    assert await service.games_of(GUILD, BOB) == [] and await service.games_of(GUILD, ALICE) == []
    with pytest.raises(MatchOver, match=r"is over: declined$"):
        await service.move(asked.id, ALICE, "h1-g3")
    assert (await service.get_match(imported.id)).status is MatchStatus.ABORTED
    # the challenger may withdraw one too; then anyone may ask again
    again = await service.continue_import(GUILD, CHANNEL, CAROL, imported.id, [BOB])
    assert (await service.cancel(again.id, CAROL)).status is MatchStatus.CANCELLED
    assert await service.verify_all() == []


async def test_what_cannot_go_on_is_refused_in_words(service: MatchService) -> None:
    resigned = (await service.import_record(
        GUILD, CHANNEL, ALICE, '[Game "xiangqi"]\n\n1. h3-e3 2. h10-g8 3. {Red resigns}'
    )).match
    with pytest.raises(MatchOver) as over:
        await service.continue_import(GUILD, CHANNEL, ALICE, resigned.id, [BOB])
    assert over.value.message == (f"imported game #{resigned.id} is over: its record ends "
                                  "it, so no move is left to play")
    played = await start_match(service)
    with pytest.raises(NotAllowed) as not_imported:
        await service.continue_import(GUILD, CHANNEL, ALICE, played.id, [CAROL])
    assert not_imported.value.message == (
        f"match #{played.id} is not an imported game: only imported games are continued "
        "(/import a record first)")
    data = (RECORDS / "liu-dianzhong-liu-dahua-1997.wxf").read_bytes()
    open_game = (await service.import_record(GUILD, CHANNEL, ALICE, data)).match
    refusals = {
        "xiangqi seats 2: continuing it needs 1 opponent": [],
        "you cannot challenge yourself": [ALICE],
        "an imported game is continued by people of the server: challenge members, not "
        "the computer": [computer_user(3)],
    }
    for said, opponents in refusals.items():
        with pytest.raises(InvalidOption) as refused:
            await service.continue_import(GUILD, CHANNEL, ALICE, open_game.id, opponents)
        assert refused.value.message.lower() == said.lower()
    with pytest.raises(InvalidOption, match="there is no seat 'green'"):
        await service.continue_import(GUILD, CHANNEL, ALICE, open_game.id, [BOB],
                                      seat="green")
    assert await service.games_of(GUILD, ALICE) == [played]


async def test_continuable_checks_as_continue_does_before_anyone_is_invited(
        service: MatchService) -> None:
    """What the "Continue as a match" button asks first (issue 44): the imported game
    with its seats and the side to move, or the refusal ``continue_import`` would give,
    in the same words; another server's game does not exist; nothing is created."""
    data = (RECORDS / "liu-dianzhong-liu-dahua-1997.wxf").read_bytes()
    imported = (await service.import_record(GUILD, CHANNEL, ALICE, data)).match
    shown = await service.continuable(imported.id, Caller(GUILD, CAROL))
    assert (shown.match.id, shown.match.ply, shown.match.seat_count) == (imported.id, 20, 2)
    assert shown.to_move == 0  # Red to move
    after_black = (await service.import_record(  # an odd number of plies: Black to move
        GUILD, CHANNEL, ALICE, '[Game "xiangqi"]\n\n1. h3-e3 2. h10-g8 3. h1-g3')).match
    assert (await service.continuable(after_black.id, Caller(GUILD, CAROL))).to_move == 1
    resigned = (await service.import_record(
        GUILD, CHANNEL, ALICE, '[Game "xiangqi"]\n\n1. h3-e3 2. h10-g8 3. {Red resigns}'
    )).match
    played = await start_match(service)
    for match_id in (resigned.id, played.id):
        with pytest.raises(ServiceError) as asked:
            await service.continuable(match_id, Caller(GUILD, ALICE))
        with pytest.raises(ServiceError) as made:
            await service.continue_import(GUILD, CHANNEL, ALICE, match_id, [BOB])
        assert type(asked.value) is type(made.value)
        assert asked.value.message == made.value.message
    with pytest.raises(MatchNotFound, match=f"no match #{imported.id}"):
        await service.continuable(imported.id, Caller(GUILD + 1, CAROL))
    assert await service.games_of(GUILD, CAROL) == []


async def test_the_servers_games_that_can_go_on_are_listed_newest_first(
        service: MatchService, repo: Repository) -> None:
    """What ``/continue`` suggests (issue 44): the server's imported games that
    ``continue_import`` takes up, newest first, as ``continuable`` shows them (the side
    to move, the seats out) with the day they were imported and their players' names
    read; not a game the record ends, not a match played here, not another server's."""
    import dataclasses
    data = (RECORDS / "liu-dianzhong-liu-dahua-1997.wxf").read_bytes()
    first = (await service.import_record(GUILD, CHANNEL, ALICE, data)).match
    await service.import_record(GUILD + 1, CHANNEL, ALICE, data)  # another server's
    await service.import_record(  # its record ends it
        GUILD, CHANNEL, ALICE, '[Game "xiangqi"]\n\n1. h3-e3 2. h10-g8 3. {Red resigns}')
    played = await start_match(service)
    await service.resign(played.id, ALICE)
    after_black = (await service.import_record(
        GUILD, CHANNEL, ALICE, '[Game "xiangqi"]\n\n1. h3-e3 2. h10-g8 3. h1-g3')).match
    listed = await service.continuable_imports(GUILD, CAROL)
    assert [g.match.id for g in listed] == [after_black.id, first.id]
    for game in listed:
        shown = await service.continuable(game.match.id, Caller(GUILD, CAROL))
        assert dataclasses.replace(game, imported_at=None) == shown
        stored = await repo.load_match(game.match.id)
        assert stored is not None and game.imported_at == stored.created_at
    assert [s.player for s in listed[1].match.seats] == ["Liu Dianzhong", "Liu Dahua"]
    assert [g.match.id for g in await service.continuable_imports(GUILD + 2, CAROL)] == []
    # a game whose stored last position is over, or unreadable, is not offered (a
    # record that ends is stored finished: these are damaged rows)
    v = rules.variant("alquerque")
    over = v.start()
    for text in finishing_game("alquerque", {}, 4) or ():
        over = over.play(v.parse_move(over, text))
    assert over.outcome() is not None
    for key, text in (("r1:over", over.to_text()), ("r1:unread", "no position")):
        await repo.create_match(dataclasses.replace(
            await repo.load_match(first.id),  # type: ignore[arg-type]
            id=0, game="alquerque", import_key=key, position_text=text))
    assert [g.match.id for g in await service.continuable_imports(GUILD, CAROL)] == \
        [after_black.id, first.id]


async def test_the_imported_game_a_match_continues_is_read_once(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A continued match's record names the imported record's players for its first
    plies (``ServiceCore.with_record_players``): the imported game never changes, so it
    is read once, not again at every new version of the match's page or stepper."""
    s = MatchService(MemoryRepository(), NullNotifier(), SetClock(), rng=random.Random(7))
    await s.update_guild_settings(GUILD, web=True)
    data = (RECORDS / "liu-dianzhong-liu-dahua-1997.wxf").read_bytes()
    imported = (await s.import_record(GUILD, CHANNEL, CAROL, data)).match
    m = await s.accept((await s.continue_import(GUILD, CHANNEL, ALICE, imported.id,
                                                [BOB])).id, BOB)
    reads = Counter[int]()
    load = s.repository.load_match

    async def counted(match_id: int) -> MatchRecord | None:
        reads[match_id] += 1
        return await load(match_id)

    monkeypatch.setattr(s.repository, "load_match", counted)
    for _ in range(3):  # a new version each time: a move
        m = (await s.move(m.id, m.to_move[0], await _legal_move(s, m.id))).match
        page = (await s.web_match(m.id)).record  # the web's page
        stepped = await s.board_at(m.id, 1)  # the stepper
        assert page.record_plies == 20 and is_imported(page.record_seats[0].user_id)
        assert is_imported(stepped.match.seats[0].user_id)  # the record's player
    assert reads[imported.id] == 1
