"""Issue 36 §3: text from people is always valid text. Every text-taking operation of the
service (found from the service itself: each public coroutine with a parameter annotated
``str``) is sent arbitrary code points, lone surrogates and control characters included,
on SQLite and PostgreSQL: a text with a character that is not valid text is refused with
``InvalidText`` naming its code point; any other text is stored intact (a note, a
tournament's name) or refused with a typed error; never an untyped exception (before: a
note with ``"\\ud800"`` raised ``UnicodeEncodeError`` from aiosqlite)."""

from __future__ import annotations

import asyncio
import inspect
import random
import re
import uuid
from collections.abc import Callable, Coroutine, Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import rules
from service import MatchService, ServiceError
from service.inputs import (
    NOT_TYPED,
    InvalidText,
    check_characters,
    invalid_character,
    text_parameters,
    without_invalid,
)
from service.tournament_records import TournamentRecord
from storage import PostgresRepository, SqliteRepository
from tests.conftest import _on_server
from tests.service.conftest import ALICE, BOB, CHANNEL, GUILD, Recorder, SetClock, start_match


def text_operations() -> list[tuple[str, str]]:
    """(operation, text parameter) for every public coroutine of the service."""
    out = []
    for name, method in inspect.getmembers(MatchService, inspect.iscoroutinefunction):
        if not name.startswith("_"):
            out += [(name, p) for p in text_parameters(method)]
    return sorted(out)


OPERATIONS = text_operations()

# Code points of every kind: any category, surrogates and controls made common.
CHARACTERS = st.one_of(
    st.characters(categories=["L", "M", "N", "P", "S", "Z", "C"]),
    st.characters(codec=None, min_codepoint=0xD800, max_codepoint=0xDFFF),
    st.characters(max_codepoint=0x9F),
    st.sampled_from(["\ufffe", "\uffff", "\U0010ffff", "\ue000", "🀄", "\u200b", "\t"]),
)
TEXTS = st.one_of(
    st.text(CHARACTERS, max_size=40),
    st.builds(lambda a, b, c: a + b + c, st.sampled_from(["h3-e3", "xiangqi", "Cup", "", "d"]),
              st.sampled_from(["\ud800", "\udfff", "\x00", "\x1b[2J", "\x7f", "\x85", ""]),
              st.text(CHARACTERS, max_size=5)),
)


class TextWorld:
    """A service on a real database with a match, a set-up match and a tournament."""

    def __init__(self, repository: Callable[[], Coroutine[Any, Any, Any]]) -> None:
        self.loop = asyncio.new_event_loop()
        self.repo = self.run(repository())
        self.service = MatchService(self.repo, Recorder(), SetClock(), rng=random.Random(3))
        s = self.service
        self.xq = self.run(start_match(s)).id
        self.querni = self.run(start_match(s, "querni", options={"setup": "choose"})).id
        cup: TournamentRecord = self.run(s.create_tournament(
            GUILD, CHANNEL, ALICE, "xiangqi", fmt="swiss", name="Club cup", rounds=3))
        self.cup = cup.id

    def run(self, coro: Any) -> Any:
        return self.loop.run_until_complete(coro)

    def arguments(self, operation: str, parameter: str, text: str) -> dict[str, Any]:
        """Valid arguments for ``operation`` with ``text`` in ``parameter``."""
        valid: dict[str, Any] = {
            "match_id": self.querni if operation == "submit_setup" else self.xq,
            "user": ALICE, "challenger": ALICE, "guild_id": GUILD, "channel_id": CHANNEL,
            "tournament_id": self.cup, "player": BOB, "game": "xiangqi", "fmt": "swiss",
            "text": "h3-e3", "notify": "dm", "schedule": "monthly", "prefix": "",
            "level": 1, "number": 1, "opponents": [BOB], "ply": 0, "epoch": 0,
            "data": "[Game \"xiangqi\"]\n\n1. h3-e3 2. h10-g8",
            "zone": "Europe/Madrid", "days": 2, "token": "axiangqi;"}
        method = getattr(MatchService, operation)
        args = {p.name: valid[p.name] for p in inspect.signature(method).parameters.values()
                if p.name != "self" and p.default is inspect.Parameter.empty}
        if parameter == "options":
            args[parameter] = {"seed": text} if len(text) % 2 else {text: "1"}
        else:
            args[parameter] = text
        return args

    def call(self, operation: str, parameter: str, text: str) -> Any:
        method = getattr(self.service, operation)
        return self.run(method(**self.arguments(operation, parameter, text)))

    def close(self) -> None:
        self.run(self.repo.close())
        self.loop.close()


@pytest.fixture(scope="module", params=["sqlite", "postgres"])
def world(request: pytest.FixtureRequest,
          tmp_path_factory: pytest.TempPathFactory) -> Iterator[TextWorld]:
    if request.param == "sqlite":
        path: Path = tmp_path_factory.mktemp("text") / "text.db"
        w = TextWorld(lambda: SqliteRepository.open(path, synchronous="NORMAL"))
        yield w
        w.close()
        return
    server: str = request.getfixturevalue("postgres_server")
    schema = f"t_{uuid.uuid4().hex[:16]}"
    _on_server(server, f"CREATE SCHEMA {schema}")
    url = f"{server}{'&' if '?' in server else '?'}search_path={schema}"
    w = TextWorld(lambda: PostgresRepository.open(url))
    try:
        yield w
    finally:
        w.close()
        _on_server(server, f"DROP SCHEMA {schema} CASCADE")


def test_the_operations_are_found_from_the_service() -> None:
    """The enumeration sees the operations people type into, so a new one is not left
    out; only display names the adapter passes (decoration) are not checked."""
    found = {name for name, _ in OPERATIONS}
    assert {"move", "set_note", "add_conditional_moves", "submit_setup", "challenge",
            "challenge_computer", "create_tournament", "update_guild_settings",
            "configure_seasons", "update_user_prefs", "suggest_moves", "move_choices",
            "leaderboard", "accept", "join", "remember_locale"} <= found
    assert ("create_tournament", "name") in OPERATIONS
    assert ("challenge", "options") in OPERATIONS
    assert all(p not in NOT_TYPED for _, p in OPERATIONS)
    assert "names" in inspect.signature(MatchService.tournament_csv).parameters


@pytest.mark.parametrize("bad", ["\ud800", "note \udfff", "\x00", "a\x1b[2Jb", "\x7f",
                                 "\x9b", "ok\x08"])
def test_every_text_operation_refuses_an_invalid_character(world: TextWorld,
                                                           bad: str) -> None:
    """Each (operation, parameter) with ``bad`` in it: ``InvalidText`` naming the code
    point, and nothing stored (the note and the tournament's name are unchanged)."""
    code = re.escape(f"U+{ord(invalid_character(bad) or ' '):04X}")
    s = world.service
    note = world.run(s.note(world.xq, ALICE))
    cups = world.run(s.tournaments(GUILD))
    for operation, parameter in OPERATIONS:
        with pytest.raises(InvalidText, match=code):
            world.call(operation, parameter, bad)
    assert world.run(s.note(world.xq, ALICE)) == note
    assert world.run(s.tournaments(GUILD)) == cups


@settings(max_examples=150, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(pair=st.sampled_from(OPERATIONS), text=TEXTS)
def test_arbitrary_code_points_are_stored_intact_or_refused_typed(
        world: TextWorld, pair: tuple[str, str], text: str) -> None:
    operation, parameter = pair
    try:
        world.call(operation, parameter, text)
    except InvalidText as e:
        assert invalid_character(text) is not None, (operation, parameter, text, e)
        return
    except (ServiceError, rules.RulesError):
        assert invalid_character(text) is None, (operation, parameter, text)
        return
    assert invalid_character(text) is None, (operation, parameter, text)


@settings(max_examples=80, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(text=TEXTS)
def test_a_note_and_a_tournament_name_come_back_as_typed(world: TextWorld,
                                                         text: str) -> None:
    s = world.service
    if invalid_character(text) is not None:
        with pytest.raises(InvalidText):
            world.run(s.set_note(world.xq, ALICE, text))
        with pytest.raises(InvalidText):
            world.run(s.create_tournament(GUILD, CHANNEL, ALICE, "xiangqi", fmt="swiss",
                                          name=text, rounds=3))
        return
    try:
        world.run(s.set_note(world.xq, ALICE, text))
    except ServiceError:  # empty, or too long: refused before storing
        assert not text.strip() or len(text) > 1000
    else:
        # every code point kept (the note is stored without surrounding white space)
        assert world.run(s.note(world.xq, ALICE)) == text.strip()
    try:
        t = world.run(s.create_tournament(GUILD, CHANNEL, ALICE, "xiangqi", fmt="swiss",
                                          name=text, rounds=3))
    except ServiceError:
        return
    # on one line: each run of white space (a newline too) one space
    assert world.run(s.get_tournament(t.id)).name == (" ".join(text.split()) or t.name)
    world.run(s.cancel_tournament(t.id, ALICE, manager=True))


def test_the_checker_keeps_text_and_names_what_it_refuses() -> None:
    # (the module's examples run in tests/test_doctests.py)
    for kept in ["", "h3-e3", "line\nnext\tcol\r", "炮二平五", "🀄\U0010ffff\ufffe\ue000"]:
        assert check_characters(kept, "note") == kept == without_invalid(kept)
    with pytest.raises(InvalidText, match="U\\+D800, half of a character"):
        check_characters("x\ud800", "note")
    with pytest.raises(InvalidText, match="control character U\\+0000"):
        check_characters("\x00", "note")
    assert without_invalid("a\x00b\ud800c\x85d") == "abcd"
