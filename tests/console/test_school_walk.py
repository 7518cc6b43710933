"""What a demanding new player met in the console's school commands (puzzles, the opening
explorer, imports): each test is one thing he tripped over, walked as he would."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from tests.console.test_languages import play
from tests.console.test_puzzles import session


def test_the_daily_puzzle_on_an_empty_server_says_when_it_comes() -> None:
    """"/puzzle daily on" on a console with no finished game said "the first at the next
    sweep"; the sweeps came and went with no puzzle, and nothing said why."""
    text = session(["as alice", "/puzzle daily on", "/sweep", "/sweep +1"])
    assert ("Daily puzzle on: one a day. There is no puzzle to post yet: the first comes "
            "within a day of one being found in this server's finished games.") in text
    assert "the first at the next sweep" not in text


RECORDS = Path(__file__).parents[1] / "rules" / "records"


@pytest.mark.parametrize("locale", ["de", "sv-SE", "zh-TW"])
def test_a_wrong_seat_names_the_words_that_are_typed(locale: str) -> None:
    """"/continue #1 @bob seat:green" in German answered "(Plätze: red, black oder
    zufällig)": the seats as they are typed, then "random" translated into a word the
    seat option refuses."""
    wxf = RECORDS / "liu-dianzhong-liu-dahua-1997.wxf"
    said = asyncio.run(play(["as alice", f"/import {wxf}", "/continue #1 @bob seat:green",
                             "/continue #1 @bob seat:random"], locale))
    refused = next(line for line in said if line.startswith("! "))
    assert refused.endswith("random)") or refused.endswith("random）"), refused
    assert sum(line.startswith("! ") for line in said) == 1  # "random" is taken


def test_commands_are_named_bare_as_everywhere_in_the_console() -> None:
    """"/puzzle answer e4" with no puzzle open answered "you have no puzzle open:
    `/puzzle next` gives you one": Discord's code marks, shown as backticks in a terminal,
    where every other line names a command bare ("see /games")."""
    text = session(["as alice", "/puzzle answer e4"])
    assert "! you have no puzzle open: /puzzle next gives you one" in text
    assert "`" not in text


def test_an_unknown_tag_is_named_with_the_one_meant_not_every_tag(tmp_path: Path) -> None:
    """A record with a misspelt tag was refused with every tag the format has."""
    pdn = tmp_path / "cup.pdn"
    pdn.write_text('[Evnt "Copa"]\n' + (RECORDS / "cucujaes-2022.pdn").read_text())
    said = asyncio.run(play(["as alice", f"/import {pdn}"], "sv-SE"))
    refused = [line for line in said if line.startswith("! ")]
    assert refused == ["! partiet kan inte importeras: partiet har en tagg som formatet inte "
                       "har: Evnt (menade du Event?)"], said


def test_the_same_game_imported_twice_is_refused_with_the_match_it_is() -> None:
    """The same record imported twice became two matches."""
    wxf = RECORDS / "liu-dianzhong-liu-dahua-1997.wxf"
    iccs = RECORDS / "liu-dianzhong-liu-dahua-1997.iccs.pgn"
    said = asyncio.run(play(["as alice", f"/import {wxf}", "as bob", f"/import {iccs}"],
                            None))
    assert [line for line in said if line.startswith("! ")] == [
        "! this game is imported in this server already, as match 1: see it with "
        "/history #1"], said


def test_continue_with_no_game_lists_the_games_that_can_go_on() -> None:
    """"/continue @bob" said only the usage, "/continue #N @PLAYER": the number was
    the one /import printed, long gone up the screen. It lists the imported games that
    can go on, newest first, as Discord suggests them."""
    wxf = RECORDS / "liu-dianzhong-liu-dahua-1997.wxf"
    said = asyncio.run(play(["as alice", f"/import {wxf}", "/continue @bob"], None))
    at = said.index("imported games that can go on:")
    assert said[at + 1].startswith("  #1 · Xiangqi · Liu Dianzhong – Liu Dahua · 20 moves · ")
    assert said[at + 2].startswith("! /continue #N @PLAYER")
    empty = asyncio.run(play(["as alice", "/continue @bob"], None))
    assert "imported games that can go on:" not in empty


def test_a_label_keeps_number_game_moves_and_day_whatever_the_names() -> None:
    """Four players named at the longest a record's names are kept (64 characters), in
    Chinese: the label holds in Discord's 100 characters with the number, the game, the
    moves and the day; the names are what is cut."""
    from bot.imports import import_label
    from service import MatchService, NullNotifier
    from storage import MemoryRepository
    from tests.service.conftest import ALICE, CHANNEL, GUILD, SetClock
    names = "".join(f'[{seat} "{seat[0] * 64}"]\n' for seat in
                    ("White", "Turquoise", "Black", "Red"))
    text = (f'[Game "alquerque-grande"]\n[Options \'{{"mode": "slow", "players": 4}}\']\n'
            f'{names}\n'
            "1. c3-d4 2. {Turquoise resigns} 3. e5xc3 4. c5xe5\n")

    async def run() -> list[str]:
        service = MatchService(MemoryRepository(), NullNotifier(), SetClock())
        await service.import_record(GUILD, CHANNEL, ALICE, text)
        (game,) = await service.continuable_imports(GUILD, ALICE)
        return [import_label(game, locale) for locale in ("en-US", "zh-CN", "de")]
    for label in asyncio.run(run()):
        assert len(label) <= 100, label
        assert label.startswith("1 · ") and "W" * 23 + "…" in label, label
    english, chinese, _german = asyncio.run(run())
    assert english.endswith(" · 3 moves · 2026-01-01") and "Alquerque grande" in english
    assert chinese.endswith(" · 3 步 · 2026-01-01")
