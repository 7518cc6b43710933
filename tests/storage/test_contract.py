"""The repository contract: the same tests against memory, SQLite and PostgreSQL."""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from service import (
    Conflict,
    GuildSettings,
    MatchRecord,
    MatchStatus,
    RatingChange,
    RecordEntry,
    Repository,
    SeatRecord,
    UserPrefs,
)
from service.ratings import rate_groups
from service.records import LIVE_STATUSES, PostedMessage, UnkeyedGame
from storage import SqliteRepository
from storage.errors import NotATableroDatabase
from storage.sql import due_sql, matches_of_sql
from storage.sqlite import _ESTABLISHED, MIGRATIONS
from tests.conftest import REPOSITORY_KINDS, open_repository_of
from tests.storage.older_schemas import back_to

T0 = datetime(2026, 3, 1, 9, 30, tzinfo=UTC)


@pytest.fixture(params=REPOSITORY_KINDS)
async def repo(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Repository]:
    r = await open_repository_of(request.param, tmp_path, request)
    yield r
    await r.close()


def record(guild: int = 1, users: tuple[int, ...] = (11, 22), **kw: object) -> MatchRecord:
    base = MatchRecord(
        id=0, guild_id=guild, channel_id=5, thread_id=None, game="xiangqi", ladder="xiangqi",
        rules_version="1", options={"seed": 3, "arrangement": [[1, 2], [3]]},
        start_text="start", seat_count=2, status=MatchStatus.ACTIVE, challenger_id=users[0],
        seats=tuple(SeatRecord(u, i, None) for i, u in enumerate(users)), seat_pref=None,
        seating="random", ply=0, position_text="start", to_move=(0,), last_move=None,
        days_per_move=3, rated=True, deadline=T0 + timedelta(days=3),
        remind_at=T0 + timedelta(days=2), draw_offer=None, result=None, broken=None,
        created_at=T0, updated_at=T0)
    return dataclasses.replace(base, **kw)  # type: ignore[arg-type]


def entry(ply: int, text: str = "h3-e3") -> RecordEntry:
    return RecordEntry(ply, ply % 2, text, 11, T0 + timedelta(minutes=ply))


async def test_create_and_load_round_trip(repo: Repository) -> None:
    a = await repo.create_match(record())
    b = await repo.create_match(record(thread_id=77))
    assert a.id != b.id and a.version == 1
    loaded = await repo.load_match(a.id)
    assert loaded == a
    assert loaded is not None and loaded.options == {"seed": 3, "arrangement": [[1, 2], [3]]}
    assert loaded.deadline == T0 + timedelta(days=3)
    assert await repo.load_match(9999) is None
    found = await repo.match_in_thread(77)
    assert found is not None and found.id == b.id
    assert await repo.match_ids() == [a.id, b.id]


async def test_save_is_compare_and_set_on_the_version(repo: Repository) -> None:
    a = await repo.create_match(record())
    after = dataclasses.replace(a, ply=1, position_text="one", last_move="h3-e3 (C2.5)")
    saved = await repo.save(a, after, [entry(0)])
    assert saved.version == a.version + 1
    assert await repo.load_match(a.id) == saved
    with pytest.raises(Conflict):  # a writer that read the old version loses
        await repo.save(a, dataclasses.replace(a, ply=1, position_text="other"), [entry(0)])
    assert (await repo.load_match(a.id)) == saved
    assert [e.text for e in await repo.load_entries(a.id)] == ["h3-e3"]


async def test_append_is_compare_and_set_on_the_ply(repo: Repository) -> None:
    a = await repo.create_match(record())
    a = await repo.save(a, dataclasses.replace(a, ply=1), [entry(0)])
    # right version but an already played ply: refused, nothing written
    with pytest.raises(Conflict):
        await repo.save(a, dataclasses.replace(a, ply=2, position_text="x"), [entry(0, "b1-c3")])
    assert (await repo.load_match(a.id)) == a
    assert [e.text for e in await repo.load_entries(a.id)] == ["h3-e3"]


async def test_entries_come_back_in_ply_order(repo: Repository) -> None:
    a = await repo.create_match(record())
    for ply in range(5):
        a = await repo.save(a, dataclasses.replace(a, ply=ply + 1), [entry(ply, f"m{ply}")])
    got = await repo.load_entries(a.id)
    assert [(e.ply, e.text, e.seat, e.user_id) for e in got] == \
        [(i, f"m{i}", i % 2, 11) for i in range(5)]
    assert got[3].played_at == T0 + timedelta(minutes=3)
    b = await repo.create_match(record(), entries=[entry(0, "b0"), entry(1, "b1")])
    none = await repo.create_match(record())
    # several records' texts in one read, each as load_entries gives it up to its stop
    assert await repo.load_texts_of({b.id: 9, a.id: 3, none.id: 5, 999: 1}) == {
        b.id: ["b0", "b1"], a.id: ["m0", "m1", "m2"], none.id: [], 999: []}
    assert await repo.load_texts_of({}) == {}


async def test_unkeyed_games_are_read_as_what_a_fingerprint_needs(repo: Repository) -> None:
    """``tablero db fingerprints`` reads a server's ended, played, unfingerprinted
    matches as their game, options, start and ply alone (``UnkeyedGame``), not whole
    matches with their seats, clocks, ratings and followers."""
    ended = await repo.create_match(record(status=MatchStatus.FINISHED, ply=2,
                                           start_text="s0"))
    aborted = await repo.create_match(record(status=MatchStatus.ABORTED, ply=1))
    await repo.create_match(record(status=MatchStatus.ACTIVE, ply=2))  # not ended
    await repo.create_match(record(status=MatchStatus.ABORTED, ply=0))  # nothing played
    await repo.create_match(record(guild=2, status=MatchStatus.FINISHED, ply=3))
    options = {"seed": 3, "arrangement": [[1, 2], [3]]}
    assert await repo.unkeyed_games(1, 10) == [
        UnkeyedGame(ended.id, "xiangqi", options, "s0", 2),
        UnkeyedGame(aborted.id, "xiangqi", options, "start", 1)]
    await repo.set_game_keys({ended.id: "k"})
    assert await repo.unkeyed_games(1, 10) == [
        UnkeyedGame(aborted.id, "xiangqi", options, "start", 1)]
    assert await repo.unkeyed_games(1, 0) == []


async def test_a_match_comes_with_the_count_of_its_special_entries(repo: Repository) -> None:
    """A resignation, a timeout, a skip or an agreed draw is an entry of the record but
    no move: each match read says how many it has (``specials``), so that its moves are
    counted without reading its record; a save, a takeback and a match created with its
    first entries keep the count."""
    a = await repo.create_match(record(seat_count=4, users=(11, 22, 33, 44)))
    assert a.specials == 0
    a = await repo.save(a, dataclasses.replace(a, ply=2), [entry(0), entry(1, "#resign 1")])
    assert a.specials == 1 and (await repo.load_match(a.id)) == a
    a = await repo.save(a, dataclasses.replace(a, ply=4),
                        [entry(2, "h10-g8"), entry(3, "#skip 2")])
    assert a.specials == 2 and (await repo.load_match(a.id)) == a
    a = await repo.save(a, dataclasses.replace(a, ply=5), [entry(4, "h1-g3")])
    back = await repo.take_back(a, dataclasses.replace(a, ply=3))  # the skip goes too
    assert back.specials == 1 and (await repo.load_match(a.id)) == back
    # a continued game's first entries come with the new match
    c = await repo.create_match(record(), entries=[entry(0), entry(1, "#timeout 1")])
    assert c.specials == 1 and (await repo.load_match(c.id)) == c
    assert (await repo.matches_of(11))[0].specials == 1


async def test_matches_of_and_open_challenges(repo: Repository) -> None:
    a = await repo.create_match(record(users=(11, 22)))
    b = await repo.create_match(record(users=(11, 33), status=MatchStatus.FINISHED))
    c = await repo.create_match(record(guild=2, users=(22, 11)))
    lobby = await repo.create_match(record(users=(44,), status=MatchStatus.LOBBY,
                                           seat_count=4))
    assert [m.id for m in await repo.matches_of(11)] == [c.id, b.id, a.id]
    assert [m.id for m in await repo.matches_of(11, 1)] == [b.id, a.id]
    assert [m.id for m in await repo.matches_of(11, 1, (MatchStatus.ACTIVE,))] == [a.id]
    assert await repo.matches_of(99) == []
    assert [m.id for m in await repo.open_challenges(1)] == [lobby.id]
    # seats changes are reflected in the lookup
    a2 = await repo.save(a, dataclasses.replace(a, seats=(SeatRecord(55, 0), SeatRecord(22, 1))))
    assert [m.id for m in await repo.matches_of(55)] == [a2.id]
    assert [m.id for m in await repo.matches_of(11, 1)] == [b.id]


async def test_live_matches_are_a_servers_active_ones_newest_first(repo: Repository) -> None:
    a = await repo.create_match(record())
    await repo.create_match(record(status=MatchStatus.FINISHED))
    await repo.create_match(record(guild=2))
    await repo.create_match(record(users=(44,), status=MatchStatus.LOBBY, seat_count=4))
    c = await repo.create_match(record(users=(33, 44)))
    assert [m.id for m in await repo.live_matches(1, 10)] == [c.id, a.id]
    assert [m.id for m in await repo.live_matches(1, 1)] == [c.id]
    assert [s.user_id for s in (await repo.live_matches(1, 1))[0].seats] == [33, 44]
    assert await repo.live_matches(3, 10) == []


async def test_due_matches(repo: Repository) -> None:
    a = await repo.create_match(record())
    await repo.create_match(record(deadline=T0 + timedelta(days=9), remind_at=None))
    await repo.create_match(record(status=MatchStatus.FINISHED, deadline=T0, remind_at=None))
    assert await repo.due_matches(T0) == []
    assert [m.id for m in await repo.due_matches(T0 + timedelta(days=2))] == [a.id]
    assert len(await repo.due_matches(T0 + timedelta(days=10))) == 2


def change(results: dict[int, str], ranks: list[int], guild: int = 1,
           ladder: str = "xiangqi") -> RatingChange:
    users = list(results)

    def rate(current):  # type: ignore[no-untyped-def]
        return rate_groups(current, [[u] for u in users], ranks)
    return RatingChange(guild, ladder, results, rate)


async def test_ratings_are_written_with_the_ending_save(repo: Repository) -> None:
    a = await repo.create_match(record())
    done = dataclasses.replace(a, status=MatchStatus.FINISHED)
    await repo.save(a, done, (), change({11: "win", 22: "loss"}, [1, 2]))
    rows, total = await repo.leaderboard(1, "xiangqi", 0, 10)
    assert total == 2 and [r.user_id for r in rows] == [11, 22]
    assert (rows[0].wins, rows[0].losses, rows[1].losses) == (1, 0, 1)
    assert rows[0].mu > 25 > rows[1].mu
    rank = await repo.rank_of(1, "xiangqi", 22)
    assert rank is not None and rank[0] == 2
    assert await repo.rank_of(1, "xiangqi", 99) is None
    assert await repo.rank_of(2, "xiangqi", 11) is None
    # a conflicting save writes no ratings either
    with pytest.raises(Conflict):
        await repo.save(a, done, (), change({11: "loss", 22: "win"}, [2, 1]))
    rows2, _ = await repo.leaderboard(1, "xiangqi", 0, 10)
    assert rows2 == rows
    # a second result builds on the first
    b = await repo.create_match(record())
    await repo.save(b, dataclasses.replace(b, status=MatchStatus.FINISHED), (),
                    change({11: "draw", 22: "draw"}, [1, 1]))
    r11 = (await repo.ratings_of(1, 11))[0]
    assert (r11.wins, r11.draws, r11.games) == (1, 1, 2)


async def test_leaderboard_pages(repo: Repository) -> None:
    for i in range(7):
        m = await repo.create_match(record(users=(100 + i, 200 + i)))
        await repo.save(m, dataclasses.replace(m, status=MatchStatus.FINISHED), (),
                        change({100 + i: "win", 200 + i: "loss"}, [1, 2]))
    first, total = await repo.leaderboard(1, "xiangqi", 0, 5)
    second, _ = await repo.leaderboard(1, "xiangqi", 5, 5)
    assert total == 14 and len(first) == 5 and len(second) == 5
    ordinals = [r.ordinal for r in first + second]
    assert ordinals == sorted(ordinals, reverse=True)
    assert (await repo.leaderboard(1, "damas", 0, 5)) == ([], 0)


async def test_settings_and_prefs(repo: Repository) -> None:
    assert await repo.get_guild_settings(1) is None
    s = GuildSettings(1, default_days=7, use_threads=False, games_channel_id=42,
                      reminders=False)
    await repo.save_guild_settings(s)
    assert await repo.get_guild_settings(1) == s
    await repo.save_guild_settings(GuildSettings(1))
    assert await repo.get_guild_settings(1) == GuildSettings(1)
    assert await repo.get_user_prefs(5) is None
    await repo.save_user_prefs(UserPrefs(5, "dm"))
    assert await repo.get_user_prefs(5) == UserPrefs(5, "dm")


async def test_languages_are_stored_per_server_and_per_user(repo: Repository) -> None:
    """Migration 10 (issue 14): a server's thread language and a user's last seen
    locale; each write keeps the other preferences."""
    await repo.save_guild_settings(GuildSettings(1, default_days=5, language="de"))
    assert await repo.get_guild_settings(1) == GuildSettings(1, 5, language="de")
    await repo.save_guild_settings(GuildSettings(1, default_days=5))  # back to the server's
    assert (await repo.get_guild_settings(1)) == GuildSettings(1, 5, language=None)
    await repo.remember_locale(7, "sv-SE")  # a user seen before any /notify
    assert await repo.get_user_prefs(7) == UserPrefs(7, "mention", "sv-SE")
    await repo.save_user_prefs(UserPrefs(7, "dm"))  # /notify keeps the locale
    assert await repo.get_user_prefs(7) == UserPrefs(7, "dm", "sv-SE")
    await repo.remember_locale(7, "zh-TW")  # and a new locale keeps /notify
    assert await repo.get_user_prefs(7) == UserPrefs(7, "dm", "zh-TW")


# ---------------------------------------------------------------- SQLite only


async def test_sqlite_migrates_once_and_keeps_data(tmp_path: Path) -> None:
    path = tmp_path / "keep.db"
    repo = await SqliteRepository.open(path)
    assert await repo.schema_version() == len(MIGRATIONS)
    m = await repo.create_match(record())
    await repo.close()
    again = await SqliteRepository.open(path)
    assert await again.schema_version() == len(MIGRATIONS)
    assert await again.load_match(m.id) == m
    async with again._reader.execute("PRAGMA journal_mode") as cur:
        assert (await cur.fetchone())[0] == "wal"  # type: ignore[index]
    async with again._writer.execute("PRAGMA foreign_keys") as cur:
        assert (await cur.fetchone())[0] == 1  # type: ignore[index]
    await again.close()


async def test_sqlite_upgrades_an_old_schema_in_place(tmp_path: Path) -> None:
    import sqlite3
    path = tmp_path / "old.db"
    conn = sqlite3.connect(path)
    conn.executescript(MIGRATIONS[0])
    conn.execute("PRAGMA user_version = 1")
    conn.execute("INSERT INTO ratings VALUES (1, 'xiangqi', 5, 25.0, 8.0, 1.0, 1, 0, 0)")
    conn.commit()
    conn.close()
    repo = await SqliteRepository.open(path)
    assert await repo.schema_version() == len(MIGRATIONS) >= 2
    rows, total = await repo.leaderboard(1, "xiangqi", 0, 10)
    assert total == 1 and rows[0].user_id == 5
    async with repo._reader.execute(
            "EXPLAIN QUERY PLAN SELECT user_id, mu, sigma, wins, losses, draws FROM ratings "
            f"WHERE guild_id = 1 AND ladder = 'x' ORDER BY {_ESTABLISHED} DESC, ordinal DESC "
            "LIMIT 5") as cur:
        plan = " ".join(str(r[-1]) for r in await cur.fetchall())
    assert "COVERING INDEX ratings_board" in plan
    await repo.close()


async def test_sqlite_refuses_a_newer_schema(tmp_path: Path) -> None:
    import sqlite3
    path = tmp_path / "new.db"
    conn = sqlite3.connect(path)
    conn.execute(f"PRAGMA user_version = {len(MIGRATIONS) + 1}")
    conn.close()
    with pytest.raises(NotATableroDatabase, match="newer Tablero"):
        await SqliteRepository.open(path)


async def test_sqlite_moves_need_their_match(tmp_path: Path) -> None:
    import sqlite3
    repo = await SqliteRepository.open(tmp_path / "fk.db")
    with pytest.raises(sqlite3.IntegrityError):
        await repo._writer.execute("INSERT INTO moves (match_id, ply, notation, played_at) "
                                   "VALUES (999, 0, 'x', 0)")
    await repo.close()


async def test_sqlite_leaderboard_and_games_queries_use_indexes(tmp_path: Path) -> None:
    repo = await SqliteRepository.open(tmp_path / "plan.db")
    plans = []
    for sql, params in (
        ("SELECT user_id FROM ratings WHERE guild_id = ? AND ladder = ? "
         f"ORDER BY {_ESTABLISHED} DESC, ordinal DESC, user_id LIMIT 10", (1, "xiangqi")),
        ("SELECT id FROM matches WHERE id IN (SELECT match_id FROM seats WHERE user_id = ?)",
         (5,)),
        ("SELECT id FROM matches WHERE status = 'active' AND deadline <= ?", (0,)),
    ):
        async with repo._reader.execute(f"EXPLAIN QUERY PLAN {sql}", params) as cur:
            plans.append(" ".join(str(r[-1]) for r in await cur.fetchall()))
    assert "ratings_board" in plans[0] and "TEMP B-TREE" not in plans[0]
    assert "seats_user" in plans[1]
    assert "matches_deadline" in plans[2]
    await repo.close()


async def test_sqlite_sweep_and_games_queries_use_indexes_with_planner_statistics(
        tmp_path: Path) -> None:
    """With ANALYZE's statistics (a DBA's ANALYZE, PRAGMA optimize) the sweep's query once
    became two full scans of the table in id order (1 s at 1,000,000 matches)."""
    repo = await SqliteRepository.open(tmp_path / "stats.db")
    for i in range(300):
        await repo.create_match(record(status=MatchStatus.ACTIVE if i % 10 == 0
                                       else MatchStatus.FINISHED))
    await repo._writer.execute("ANALYZE")  # sqlite_stat1 is SQLite's own: still accepted
    await repo.close()
    repo = await SqliteRepository.open(tmp_path / "stats.db")
    try:
        plans = []
        for sql, params in ((due_sql(repo._select_match), (0, 0)),
                            (matches_of_sql(repo._select_match, True, LIVE_STATUSES),
                             (11, 1))):
            rows = await repo._all(f"EXPLAIN QUERY PLAN {sql}", params)
            plans.append(" | ".join(str(r[-1]) for r in rows))
        assert "SCAN matches" not in plans[0], plans[0]
        assert "matches_deadline" in plans[0] and "matches_remind" in plans[0]
        assert "SCAN" not in plans[1] and "seats_user" in plans[1], plans[1]
        assert [m.id for m in await repo.due_matches(T0 + timedelta(days=3))] == \
            list(range(1, 301, 10))
    finally:
        await repo.close()


async def test_sqlite_schema_9_keeps_days_per_move_matches(tmp_path: Path) -> None:
    """Migrations 10-15 (migration 14: time controls, vacation) on a database of schema 9
    (the release before languages) holding a running match and server settings: the
    match reads as days per move (its deadline untouched) and the settings get the
    defaults (no bank, no claim-win, 14 days of vacation, no language, seasons off)."""
    path = tmp_path / "nine.db"
    repo = await SqliteRepository.open(path)
    old = await repo.create_match(record())
    await repo.save_guild_settings(GuildSettings(old.guild_id, default_days=5))
    await repo.close()
    await back_to(path, 9)  # as the release before languages (issue 14) left it
    repo = await SqliteRepository.open(path)
    assert await repo.schema_version() == len(MIGRATIONS) >= 15
    kept = await repo.load_match(old.id)
    assert kept is not None and kept == old
    assert kept.control.per_move == timedelta(days=kept.days_per_move)
    assert not kept.control.is_bank and not kept.clock.claim and kept.clock.away == ()
    assert await repo.get_guild_settings(old.guild_id) == GuildSettings(
        old.guild_id, default_days=5, vacation_days=14)
    await repo.close()


async def test_sqlite_schema_3_stores_who_played_the_last_move(tmp_path: Path) -> None:
    """Migration 3 adds ``last_move_by`` to a database holding matches from schema 2."""
    path = tmp_path / "two.db"
    repo = await SqliteRepository.open(path)
    old = await repo.create_match(record())
    await repo.close()
    await back_to(path, 2)  # as an older Tablero left it
    repo = await SqliteRepository.open(path)
    assert await repo.schema_version() == len(MIGRATIONS) >= 3
    kept = await repo.load_match(old.id)
    assert kept is not None and kept.last_move_by is None and kept.ply == old.ply
    moved = dataclasses.replace(kept, ply=kept.ply + 1, last_move="h3-e3 (C2.5)",
                                last_move_by=kept.challenger_id)
    saved = await repo.save(kept, moved)
    assert (await repo.load_match(old.id)) == saved and saved.last_move_by == \
        kept.challenger_id
    await repo.close()


async def test_each_participants_notification_choice_comes_with_the_match(
        repo: Repository) -> None:
    """Telling people about a change needs no read of its own: every query that returns a
    match gives each participant's /notify choice with his seat (invited ones too)."""
    invited = dataclasses.replace(SeatRecord(33), accepted=False)
    a = await repo.create_match(record(thread_id=5, seats=(
        SeatRecord(11, 0), SeatRecord(22, 1), invited)))
    await repo.save_user_prefs(UserPrefs(22, "dm"))
    await repo.save_user_prefs(UserPrefs(33, "dm"))
    await repo.save_user_prefs(UserPrefs(44, "dm"))  # not in the match

    def choices(m: MatchRecord | None) -> dict[int, str]:
        assert m is not None
        return {s.user_id: s.notify for s in m.seats}
    expected = {11: "mention", 22: "dm", 33: "dm"}
    assert choices(await repo.load_match(a.id)) == expected
    assert choices(await repo.match_in_thread(5)) == expected
    (mine,) = await repo.matches_of(22)
    assert choices(mine) == expected
    (due,) = await repo.due_matches(T0 + timedelta(days=4))
    assert choices(due) == expected
    await repo.save_user_prefs(UserPrefs(22, "mention"))  # a change applies at once
    assert choices(await repo.load_match(a.id))[22] == "mention"


async def test_each_seats_rating_on_the_matchs_ladder_comes_with_the_match(
        repo: Repository) -> None:
    """The turn post shows the seats' ratings without a read per seat (issue 42): every
    query that returns a match gives each participant's rating on the match's ladder in
    its server (None: he has none there), as it is when the match is read."""
    invited = dataclasses.replace(SeatRecord(33), accepted=False)
    a = await repo.create_match(record(thread_id=5, seats=(
        SeatRecord(11, 0), SeatRecord(22, 1), invited)))
    unrated = {11: None, 22: None, 33: None}

    def ratings(m: MatchRecord | None) -> dict[int, tuple[float, int] | None]:
        """Each seat's (ordinal to 9 places, games): SQLite's JSON writes a real to 15
        significant digits, far below what anyone is shown (one decimal)."""
        assert m is not None
        return {s.user_id: None if s.rating is None else
                (round(s.rating.ordinal, 9), s.rating.games) for s in m.seats}
    assert ratings(await repo.load_match(a.id)) == unrated
    # rated elsewhere only: another server, another ladder
    for guild, ladder in ((2, "xiangqi"), (1, "damas")):
        b = await repo.create_match(record(guild=guild, ladder=ladder))
        await repo.save(b, dataclasses.replace(b, status=MatchStatus.FINISHED), (),
                        change({11: "win", 33: "loss"}, [1, 2], guild, ladder))
    assert ratings(await repo.load_match(a.id)) == unrated
    c = await repo.create_match(record(users=(11, 22)))
    await repo.save(c, dataclasses.replace(c, status=MatchStatus.FINISHED), (),
                    change({11: "win", 22: "loss"}, [1, 2]))
    found = {u: await repo.rank_of(1, "xiangqi", u) for u in (11, 22)}
    expected = {u: None if f is None else (round(f[1].ordinal, 9), 1)
                for u, f in found.items()}
    expected[33] = None
    assert expected[11] is not None and expected[22] is not None
    assert expected[11][0] > expected[22][0]
    assert ratings(await repo.load_match(a.id)) == expected
    assert ratings(await repo.match_in_thread(5)) == expected
    mine = [m for m in await repo.matches_of(22) if m.id == a.id]
    assert [ratings(m) for m in mine] == [expected]
    due = [m for m in await repo.due_matches(T0 + timedelta(days=4)) if m.id == a.id]
    assert [ratings(m) for m in due] == [expected]
    rating = next(s.rating for s in (await repo.load_match(a.id) or a).seats
                  if s.user_id == 11)
    assert rating is not None and (rating.guild_id, rating.ladder, rating.wins) == \
        (1, "xiangqi", 1)


async def test_sqlite_close_lets_the_write_under_way_finish(tmp_path: Path) -> None:
    """A graceful stop closes the database while a command may be writing: the write
    that has begun commits before the connections close."""
    repo = await SqliteRepository.open(tmp_path / "c.db")
    real_exec = repo._exec
    begun = asyncio.Event()

    async def slow_exec(sql: str, params: Any = ()) -> Any:
        begun.set()
        await asyncio.sleep(0.05)  # the write is between two statements when close comes
        return await real_exec(sql, params)

    repo._exec = slow_exec  # type: ignore[method-assign]
    writing = asyncio.create_task(repo.save_user_prefs(UserPrefs(7, "dm")))
    await begun.wait()
    await repo.close()
    assert writing.done() and writing.exception() is None
    again = await SqliteRepository.open(tmp_path / "c.db")
    assert await again.get_user_prefs(7) == UserPrefs(7, "dm")
    await again.close()


async def test_question_posts_are_remembered_per_match_and_kind(repo: Repository) -> None:
    m = await repo.create_match(record())
    other = await repo.create_match(record())
    assert await repo.post_of(m.id, "draw") is None
    first = PostedMessage(5, 900, "de", "<@11> bietet ein Remis an.")
    await repo.remember_post(m.id, "draw", first)
    await repo.remember_post(m.id, "challenge", PostedMessage(5, 800, "en-US", "x"))
    assert await repo.post_of(m.id, "draw") == first
    assert await repo.post_of(other.id, "draw") is None
    second = PostedMessage(7, 901, "en-GB", "an offer again")  # the next offer's post
    await repo.remember_post(m.id, "draw", second)
    assert await repo.post_of(m.id, "draw") == second
    await repo.forget_post(m.id, "draw")
    await repo.forget_post(m.id, "draw")  # twice: nothing left, no error
    assert await repo.post_of(m.id, "draw") is None
    assert (await repo.post_of(m.id, "challenge")) == PostedMessage(5, 800, "en-US", "x")
