"""A match or a tournament belongs to its server (issue 21, defect 7; issue 36, part 1).

Every operation of the service that takes a match or tournament id receives the caller
(``Caller``: who acts, and in which server) and the service checks it in one place, its
door (``service.ids.checked_ids``). These tests enumerate the operations from
``MatchService`` itself, so an operation added later is called too, and call each one
from another server: every call is refused in the words used for a number never used,
and the database is byte for byte what it was."""

from __future__ import annotations

import ast
import inspect
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from service import Caller, MatchNotFound, MatchService, Repository
from service.errors import ServiceError, TournamentNotFound
from service.ids import SCOPED, checked_ids
from tests.service.conftest import ALICE, BOB, CAROL, CHANNEL, DAVE, EVE, GUILD, start_match

OTHER = GUILD + 1
ROOT = Path(__file__).resolve().parents[2]

NO_ID = {
    # the caller's own server is the scope: each acts in (or reads) ``guild_id``, the
    # server the adapter is called from, so there is nothing of another server to name
    "challenge", "challenge_computer", "create_tournament", "tournaments",
    "configure_seasons", "reset_season", "seasons", "season", "leaderboard", "rank_of",
    "stats", "games_of", "active_matches_of", "open_challenges", "next_game", "follows",
    "glance", "web_server", "set_digest", "digest_status",
    "get_guild_settings", "update_guild_settings", "start_vacation", "end_vacation",
    "vacation_status", "explorer", "explorer_token", "explorer_named", "import_record",
    "continuable_imports",
    # blocks: a person's own, in every server (``service.blocks``)
    "block", "unblock", "blocked", "set_challenges", "challenges_on",
    # puzzles (issue 44): the caller's own in his server; a puzzle of another server
    # named by its number is "no puzzle #N here", like one never found
    "puzzle", "answer_puzzle", "puzzle_moves", "puzzle_leaderboard", "puzzle_record",
    "set_daily_puzzle", "daily_puzzle_status", "daily_puzzle_ready",
    # the user's own preferences, in every server alike
    "get_user_prefs", "update_user_prefs", "remember_locale", "reader_locale",
    "revoke_web_links", "set_time_zone",
    # a thread id comes from the channel the adapter is called in (never typed)
    "match_in_thread",
    # the service's own machinery (sweeps, clocks, computer players): no caller acts
    "sweep", "sweep_conditionals", "sweep_seasons", "sweep_tournaments", "resume",
    "sweep_deadlines", "sweep_due_conditionals", "sweep_computers",
    "beat", "verify_all", "computers_idle", "wake_computers", "sweep_digests",
    "backfill_explorer", "explorer_idle", "sweep_puzzles", "sweep_daily_puzzles",
    "mine_puzzles", "puzzles_idle", "stop_mining", "stop_background",
    "fingerprint_games",
    # the store's word of committed changes, for the web's live pages (no match named)
    "web_listen",
}
"""The public operations that take no match or tournament id, and why each needs none."""


def operations() -> dict[str, inspect.Signature]:
    """Every public coroutine of the service, by name."""
    return {name: inspect.signature(method)
            for name, method in inspect.getmembers(MatchService, inspect.iscoroutinefunction)
            if not name.startswith("_")}


def scoped_operations() -> dict[str, inspect.Signature]:
    return {n: s for n, s in operations().items() if set(s.parameters) & SCOPED}


def test_every_operation_either_is_scoped_or_takes_no_id() -> None:
    ops = operations()
    scoped = scoped_operations()
    assert len(scoped) >= 45, sorted(scoped)
    assert {"move", "resign", "start_tournament", "cancel_tournament", "get_tournament",
            "remove_from_tournament", "tournament_pairings", "tournament_games_of",
            "follow"} <= set(scoped)
    assert set(ops) - set(scoped) == NO_ID  # a new operation is sorted here by hand
    for name, signature in scoped.items():
        params = set(signature.parameters)
        assert "caller" in params or {"guild_id", "user"} <= params, name


def test_an_operation_without_its_caller_cannot_be_built() -> None:
    class Forgetful:
        async def peek(self, match_id: int) -> None: ...

    with pytest.raises(TypeError, match="peek takes"):
        checked_ids(Forgetful)


class World:
    """Server ``GUILD``'s matches and tournaments in every state, on one service."""

    matches: dict[str, int]
    tournaments: dict[str, int]

    async def build(self, service: MatchService) -> None:
        active = await start_match(service)
        await service.move(active.id, ALICE, "h3-e3")
        await service.offer_draw(active.id, BOB)
        await service.add_conditional_moves(active.id, ALICE, "h8-e8 b1-c3")
        await service.set_note(active.id, ALICE, "keep the cannon")
        done = await start_match(service, "damas")
        await service.resign(done.id, ALICE)
        challenge = await service.challenge(GUILD, CHANNEL, ALICE, "xiangqi",
                                            opponents=[BOB], seat=0)
        lobby = await service.challenge(GUILD, CHANNEL, ALICE, "alquerque-grande", seat=0,
                                        opponents=[BOB])
        self.matches = {"active": active.id, "finished": done.id,
                        "challenge": challenge.id, "lobby": lobby.id}
        registering = await service.create_tournament(GUILD, CHANNEL, ALICE, "damas",
                                                      fmt="round robin", name="Club cup")
        for u in (BOB, CAROL):
            await service.join_tournament(registering.id, u)
        running = await service.create_tournament(GUILD, CHANNEL, ALICE, "xiangqi",
                                                  fmt="knockout", name="Spring")
        for u in (BOB, CAROL, DAVE):
            await service.join_tournament(running.id, u)
        await service.start_tournament(running.id, ALICE)
        self.tournaments = {"registering": registering.id, "running": running.id}


def arguments(name: str, signature: inspect.Signature, *, match_id: int | None,
              tournament_id: int | None, caller: Caller) -> dict[str, Any]:
    """Arguments for ``name``: the id under test, the caller, and for the rest what the
    rightful user would pass (so nothing but the server is wrong)."""
    plausible: dict[str, Any] = {
        "user": caller.user_id, "player": BOB, "text": "h8-e8", "level": 1,
        "guild_id": caller.guild_id, "thread_id": 99, "channel_id": CHANNEL,
        "manager": True, "seat": None, "top": 3, "prefix": "", "limit": 5,
        "names": None, "rnd": None, "perspective": None, "expected_ply": None, "ply": 0,
        "epoch": 0, "days": 2}
    given: dict[str, Any] = {}
    for p in signature.parameters.values():
        if p.name == "self":
            continue
        if p.name == "match_id":
            given[p.name] = match_id
        elif p.name == "tournament_id":
            given[p.name] = tournament_id
        elif p.name == "caller":
            given[p.name] = caller
        elif p.name in plausible:
            given[p.name] = plausible[p.name]
        elif p.default is inspect.Parameter.empty:
            raise AssertionError(f"{name}: give the test a value for {p.name!r}")
    return given


async def dump(repo: Repository) -> object:
    """Everything the repository holds, comparable before and after."""
    from storage.copy import TABLE_ORDER
    from storage.sql import SqlRepository

    if isinstance(repo, SqlRepository):
        return {t: sorted(map(repr, await repo._all(f"SELECT * FROM {t}")))
                for t in TABLE_ORDER}
    return repr(sorted((k, repr(v)) for k, v in vars(repo).items()
                       if isinstance(v, dict | list | set)))


async def test_every_operation_refuses_another_servers_caller(
        service: MatchService, repo: Repository) -> None:
    world = World()
    await world.build(service)
    before = await dump(repo)
    tried = refused = 0
    callers = [Caller(OTHER, u) for u in (ALICE, BOB, EVE)]  # players and strangers alike
    for name, signature in sorted(scoped_operations().items()):
        method: Callable[..., Any] = getattr(service, name)
        params = signature.parameters
        targets: list[tuple[int | None, int | None, ServiceError]] = []
        if "match_id" in params:
            targets += [(m, None, MatchNotFound(f"there is no match #{m}"))
                        for m in world.matches.values()]
        if "tournament_id" in params:
            targets += [(None, t, TournamentNotFound(f"there is no tournament #{t} here"))
                        for t in world.tournaments.values()]
        for match_id, tournament_id, expected in targets:
            for caller in callers:
                tried += 1
                with pytest.raises(type(expected)) as refusal:
                    await method(**arguments(name, signature, match_id=match_id,
                                             tournament_id=tournament_id, caller=caller))
                assert refusal.value.message == expected.message, name
                refused += 1
    assert await dump(repo) == before  # not a row written by any refused call
    print(f"forbidden calls refused / tried: {refused} / {tried} "
          f"({len(scoped_operations())} operations)")
    assert refused == tried >= 45 * 3


async def test_the_refusal_reads_like_an_unknown_number(service: MatchService) -> None:
    world = World()
    await world.build(service)
    m, t = world.matches["active"], world.tournaments["running"]
    with pytest.raises(MatchNotFound) as unknown:
        await service.resign(m + 1000, ALICE, caller=Caller(GUILD, ALICE))
    with pytest.raises(MatchNotFound) as foreign:
        await service.resign(m, ALICE, caller=Caller(OTHER, ALICE))
    assert unknown.value.message == f"there is no match #{m + 1000}"
    assert foreign.value.message == f"there is no match #{m}"
    with pytest.raises(TournamentNotFound) as far:
        await service.tournament_pairings(t, caller=Caller(OTHER, ALICE))
    with pytest.raises(TournamentNotFound) as never:
        await service.tournament_pairings(t + 1000, caller=Caller(GUILD, ALICE))
    assert far.value.message == f"there is no tournament #{t} here"
    assert never.value.message == f"there is no tournament #{t + 1000} here"
    with pytest.raises(TournamentNotFound, match="there is no tournament #-5 here"):
        await service.get_tournament(-5)
    with pytest.raises(TournamentNotFound, match=f"#{t} here"):  # tournaments: not in DMs
        await service.get_tournament(t, caller=Caller(None, ALICE))


async def test_the_own_server_and_the_players_dms_still_see_it(service: MatchService) -> None:
    world = World()
    await world.build(service)
    m, t = world.matches["active"], world.tournaments["running"]
    home = Caller(GUILD, EVE)
    assert (await service.get_match(m, home)).id == m
    assert (await service.tournament_pairings(t, caller=home))
    assert (await service.get_tournament(t, caller=home)).name == "Spring"
    assert (await service.history(m, Caller(None, BOB))).entries  # a player, in DMs
    with pytest.raises(MatchNotFound):
        await service.get_match(m, Caller(None, EVE))  # in DMs only to its players
    moved = await service.move(m, BOB, "h8-e8", caller=Caller(GUILD, BOB))
    assert moved.match.ply == 3  # after Alice's conditional answer b1-c3 (issue 38)
    cancelled = await service.cancel_tournament(t, ALICE, caller=Caller(GUILD, ALICE))
    assert cancelled.status.value == "cancelled"
    assert await service.games_of(OTHER, ALICE) == []


async def test_reads_are_scoped_to_the_server_and_the_players(service: MatchService) -> None:
    m = await start_match(service)
    await service.move(m.id, ALICE, "h3-e3")
    for caller in (Caller(GUILD + 1, ALICE), Caller(None, EVE)):
        for read in (lambda c: service.get_match(m.id, c), lambda c: service.position(m.id, c),
                     lambda c: service.board_image(m.id, caller=c),
                     lambda c: service.board_at(m.id, 1, c),
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


ADAPTERS = [*sorted((ROOT / "bot" / "discordapp").rglob("*.py")),
            *sorted((ROOT / "bot" / "console").rglob("*.py"))]


def test_the_adapters_pass_the_caller_to_every_scoped_operation() -> None:
    """Source check: in the Discord and console adapters every call of a scoped operation
    names its caller (a keyword, or the reads' positional ``caller``), and no scoped
    operation is handed around uncalled (where its caller could be left out)."""
    scoped = scoped_operations()
    calls = 0
    for path in ADAPTERS:
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        called = {id(node.func): node for node in ast.walk(tree) if isinstance(node, ast.Call)}
        for node in ast.walk(tree):
            if not (isinstance(node, ast.Attribute) and node.attr in scoped):
                continue
            receiver = ast.unparse(node.value)
            if not (receiver.endswith("service") or receiver == "svc"):
                continue
            where = f"{path.relative_to(ROOT)}:{node.lineno} {node.attr}"
            call = called.get(id(node))
            assert call is not None, f"{where} is passed around uncalled"
            bound = scoped[node.attr].bind_partial(
                None, *call.args, **{k.arg: k.value for k in call.keywords if k.arg})
            assert "caller" in bound.arguments or {"guild_id", "user"} <= set(
                bound.arguments), f"{where} does not pass the caller"
            calls += 1
    assert calls >= 80, calls
