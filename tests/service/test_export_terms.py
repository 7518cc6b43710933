"""A match's options and terms go with its export and come back with its import: a WXF
(Xiangqi), PDN (Spanish draughts) or Tablero record (the other games) carries the game
options (``Options``) and the match's clock, claim and weekends (Tablero's tags,
``rules.records.MATCH_TAGS``), and the import reads them back; a value that does not read
is refused by its tag's name. Before, an export said none of them and its import was a
match of one day a move with the default options."""

from __future__ import annotations

import random
import re

import pytest

from service import InvalidOption, MatchService, MatchStatus, NullNotifier
from storage import MemoryRepository
from tests.service.conftest import (
    ALICE,
    BOB,
    CAROL,
    CHANNEL,
    DAVE,
    GUILD,
    SetClock,
    play_random,
)

TAGS = re.compile(r'^\[(Options|Tablero\w+) ["\'](.*)["\']\]$', re.MULTILINE)


def service() -> MatchService:
    return MatchService(MemoryRepository(), NullNotifier(), SetClock(), rng=random.Random(7))


async def exported(s: MatchService, game: str, options: dict[str, object],
                   moves: list[str]) -> tuple[str, str]:
    """The export format and text of a match of ``game`` with ``options``, a bank with a
    claim and weekends off, ``moves`` played (none: four at random), then resigned."""
    opponents = [BOB, CAROL, DAVE] if options.get("players") == 4 else [BOB]
    m = await s.challenge(GUILD, CHANNEL, ALICE, game, opponents=opponents, options=options,
                          seat=0, clock="3d+1d/10d", claim_win=True, weekends_off=True)
    for user in opponents:
        m = await s.accept(m.id, user)
    for text in moves:
        m = (await s.move(m.id, m.to_move[0], text)).match
    if not moves:
        m = await play_random(s, m.id, 4)
    await s.resign(m.id, m.to_move[0])
    history = await s.history(m.id)
    return history.export_format, history.export


@pytest.mark.parametrize(("game", "options", "moves", "fmt"), [
    ("xiangqi", {}, ["h3-e3", "h10-g8"], "wxf"),
    ("damas", {}, ["11-15", "22-18"], "pdn"),
    ("alquerque-grande", {"players": 4, "mode": "fast"}, [], "tablero"),
])
async def test_an_export_imported_again_keeps_its_options_and_terms(
        game: str, options: dict[str, object], moves: list[str], fmt: str) -> None:
    s = service()
    said, text = await exported(s, game, options, moves)
    tags = dict(TAGS.findall(text))
    assert said == fmt
    assert (tags["TableroClock"], tags["TableroClaim"], tags["TableroWeekends"]) == \
        ("3d+1d/10d", "yes", "off")
    done = await s.import_record(GUILD + 1, CHANNEL, ALICE, text)  # another server's
    m = await s.repository.load_match(done.match.id)
    assert m is not None and m.status is MatchStatus.FINISHED
    assert {k: m.options[k] for k in options} == options
    assert (m.clock.control, m.clock.claim, m.clock.weekends) == \
        (parse("3d+1d/10d"), True, True)
    again = dict(TAGS.findall((await s.history(m.id)).export))
    assert again == tags  # the same options and terms, exported again


QUOTED = {ALICE: 'Ana "la roja"', BOB: "C:\\tablero\\"}
"""Players' names with what a record's tag must escape: a double quote, a backslash."""


@pytest.mark.parametrize(("game", "moves"), [
    ("xiangqi", ["h3-e3", "h10-g8"]), ("damas", ["11-15", "22-18"]), ("alquerque", [])])
async def test_an_export_names_the_players_as_they_are_called(
        game: str, moves: list[str]) -> None:
    """Each format escapes the players' tags (``rules.records.tag_pair``), so a name with
    a double quote or a backslash is exported as it is (a quote was written as ``'``
    before; a final backslash broke the file) and an import reads it back."""
    s = MatchService(MemoryRepository(), NullNotifier(), SetClock(), rng=random.Random(7),
                     names=lambda _guild, user: QUOTED.get(user, ""))
    _fmt, text = await exported(s, game, {}, moves)
    imported = await s.import_record(GUILD + 1, CHANNEL, ALICE, text)
    assert [seat.player for seat in imported.match.seats] == [QUOTED[ALICE], QUOTED[BOB]]


def parse(text: str) -> object:
    from service.timecontrol import parse_time_control
    return parse_time_control(text)


@pytest.mark.parametrize(("tag", "said"), [
    ('[TableroClock "forever"]', "the record's tag TableroClock is not a time control"),
    ('[TableroClock "999d"]', "the record's tag TableroClock is not a time control"),
    ('[TableroClaim "perhaps"]', "the record's tag TableroClaim is yes or no, not 'perhaps'"),
    ('[TableroWeekends "' + "x" * 500 + '"]', "the record's tag TableroWeekends is off or on"),
    ('[TableroCoach "x"]', "a tag this format does not have: TableroCoach"),
    ("[Options '{\"rules\": \"grande\"}']", "cannot be imported"),
    ("[Options 'not json']", "cannot be imported"),
])
async def test_a_tag_that_does_not_read_is_refused_by_its_name(tag: str, said: str) -> None:
    s = service()
    for record in (f'[Game "Chinese Chess"]\n{tag}\n1. C2.5 H8+7 *',
                   f'[GameType "24"]\n{tag}\n1. 11-15 22-18 *'):
        with pytest.raises(InvalidOption) as refused:
            await s.import_record(GUILD, CHANNEL, ALICE, record)
        assert said in str(refused.value), str(refused.value)
        assert len(str(refused.value)) < 300
    assert await s.repository.match_ids() == []
