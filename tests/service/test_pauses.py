"""Pause by agreement (issue 43), on the virtual clock: proposed, accepted or declined,
nobody moves and no clock runs while it lasts, resumed early, never an escape from a
lapsed clock, limited in rated matches; across a weekend (weekends off), across a restart
and an outage; on memory, SQLite and PostgreSQL."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta

import pytest

from locales.i18n import people_mentions, render
from service import (
    InvalidOption,
    MatchService,
    NotAllowed,
    PauseDeclined,
    PauseEnded,
    PauseOffered,
    PauseStarted,
    Repository,
)
from tests.service.conftest import (
    ALICE,
    BOB,
    CAROL,
    CHANNEL,
    DAVE,
    GUILD,
    Recorder,
    SetClock,
    start_match,
)

DAY, HOUR = timedelta(days=1), timedelta(hours=1)


def at(*args: int) -> datetime:
    return datetime(*args, tzinfo=UTC)  # type: ignore[misc]


async def test_a_pause_stops_every_clock_and_every_move_until_it_ends(
        repo: Repository, clock: SetClock, recorder: Recorder) -> None:
    service = MatchService(repo, recorder, clock, rng=random.Random(1))
    m = await start_match(service, days=3)
    before = m.deadline
    assert before is not None
    clock.advance(hours=5)
    offered = await service.propose_pause(m.id, BOB, 4, "  moving house  ")
    assert offered.pause_offer_by == BOB and offered.pause_offer_days == 4
    said = [e for e in recorder.events if isinstance(e, PauseOffered)]
    assert len(said) == 1 and said[0].reason == "moving house" and said[0].days == 4
    with pytest.raises(NotAllowed, match="you proposed this pause"):
        await service.accept_pause(m.id, BOB)
    clock.advance(hours=1)
    paused = await service.accept_pause(m.id, ALICE)
    until = clock.t + 4 * DAY
    assert paused.pause_ends(clock.t) == until and paused.pause_offer_by is None
    assert paused.deadline == before + 4 * DAY  # Alice's clock waits the whole pause
    started = [e for e in recorder.events if isinstance(e, PauseStarted)]
    assert [(e.by, e.accepted_by, e.until, e.reason) for e in started] == \
        [(BOB, ALICE, until, "moving house")]
    with pytest.raises(NotAllowed, match="is paused until"):
        await service.move(m.id, ALICE, "h3-e3")
    # a restart in the middle: the pause is stored, and still holds
    service = MatchService(repo, recorder, clock, rng=random.Random(2))
    clock.advance(days=2)
    with pytest.raises(NotAllowed, match="is paused until"):
        await service.move(m.id, ALICE, "h3-e3")
    assert await service.sweep_deadlines() == []  # nobody is reminded or timed out
    with pytest.raises(NotAllowed, match="paused already"):
        await service.propose_pause(m.id, ALICE, 1)
    clock.t = until
    moved = await service.move(m.id, ALICE, "h3-e3")  # the pause is over by itself
    assert moved.match.pause_ends(clock.t) is None


async def test_either_player_may_resume_early_and_gets_the_rest_back(
        service: MatchService, clock: SetClock, recorder: Recorder) -> None:
    m = await start_match(service, days=3)
    before = m.deadline
    assert before is not None
    await service.propose_pause(m.id, ALICE, 10)
    await service.accept_pause(m.id, BOB)
    clock.advance(days=2)
    resumed = await service.resume_pause(m.id, ALICE)
    # paused for two days of the ten: the deadline is two days later than before
    assert resumed.deadline == before + 2 * DAY
    assert resumed.pause_ends(clock.t) is None
    assert [e.by for e in recorder.events if isinstance(e, PauseEnded)] == [ALICE]
    await service.move(m.id, ALICE, "h3-e3")
    with pytest.raises(NotAllowed, match="is not paused"):
        await service.resume_pause(m.id, BOB)


async def test_a_declined_or_lapsed_offer_changes_nothing(
        service: MatchService, clock: SetClock, recorder: Recorder) -> None:
    m = await start_match(service, days=3)
    await service.propose_pause(m.id, BOB, 2)
    declined = await service.decline_pause(m.id, ALICE)
    assert declined.pause_offer_by is None and declined.deadline == m.deadline
    assert [e.by for e in recorder.events if isinstance(e, PauseDeclined)] == [ALICE]
    with pytest.raises(NotAllowed, match="nobody has proposed a pause"):
        await service.accept_pause(m.id, ALICE)
    await service.propose_pause(m.id, BOB, 2)
    await service.move(m.id, ALICE, "h3-e3")  # the offer was about the position before
    with pytest.raises(NotAllowed, match="nobody has proposed a pause"):
        await service.accept_pause(m.id, ALICE)
    assert (await service.get_match(m.id)).pause_offer_by is None


async def test_a_pause_cannot_escape_a_lapsed_clock(service: MatchService,
                                                    clock: SetClock) -> None:
    m = await start_match(service, days=1)
    await service.propose_pause(m.id, ALICE, 3)
    clock.advance(days=1, minutes=1)  # Alice's time ran out before Bob accepted
    with pytest.raises(NotAllowed, match="has run out"):
        await service.accept_pause(m.id, BOB)
    with pytest.raises(NotAllowed, match="has run out"):
        await service.propose_pause(m.id, ALICE, 3)
    claim = await service.challenge(GUILD, CHANNEL, ALICE, "xiangqi", opponents=[BOB],
                                    seat=0, days=1, claim_win=True)
    await service.accept(claim.id, BOB)
    await service.move(claim.id, ALICE, "h3-e3")
    await service.move(claim.id, BOB, "h10-g8")  # both have moved: a lapse, not an abort
    clock.advance(days=1, minutes=1)
    await service.sweep_deadlines()
    assert (await service.get_match(claim.id)).lapsed is not None  # waiting for a claim
    with pytest.raises(NotAllowed, match="has run out"):
        await service.propose_pause(claim.id, ALICE, 3)


async def test_rated_matches_allow_the_server_s_number_of_pauses(
        service: MatchService) -> None:
    await service.update_guild_settings(GUILD, pauses_rated=1)
    rated = await start_match(service, days=3)
    await service.propose_pause(rated.id, ALICE, 1)
    await service.accept_pause(rated.id, BOB)
    await service.resume_pause(rated.id, BOB)
    with pytest.raises(NotAllowed, match="allows 1 pause in a rated match"):
        await service.propose_pause(rated.id, ALICE, 1)
    casual = await start_match(service, days=3, rated=False)
    for _ in range(3):  # casual games: any number
        await service.propose_pause(casual.id, BOB, 1)
        await service.accept_pause(casual.id, ALICE)
        await service.resume_pause(casual.id, ALICE)
    await service.update_guild_settings(GUILD, pauses_rated=0)
    other = await start_match(service, days=3)
    with pytest.raises(NotAllowed, match="allows no pauses in rated matches"):
        await service.propose_pause(other.id, ALICE, 1)
    for bad in (0, 31, -1, True, "2"):
        with pytest.raises(InvalidOption, match="whole days, from 1 to 30"):
            await service.propose_pause(casual.id, ALICE, bad)  # type: ignore[arg-type]
    with pytest.raises(InvalidOption, match="at most 200 characters"):
        await service.propose_pause(casual.id, ALICE, 1, "x" * 201)


async def test_four_player_games_take_no_pause(service: MatchService) -> None:
    lobby = await service.challenge(GUILD, CHANNEL, ALICE, "alquerque-grande",
                                    opponents=[BOB, CAROL, DAVE], options={"players": 4})
    for user in (BOB, CAROL, DAVE):
        await service.accept(lobby.id, user)
    with pytest.raises(NotAllowed, match="two-player games"):
        await service.propose_pause(lobby.id, ALICE, 2)


async def test_a_pause_across_a_weekend_and_an_outage_counts_running_time_once(
        repo: Repository, clock: SetClock, recorder: Recorder) -> None:
    service = MatchService(repo, recorder, clock, rng=random.Random(1))
    await service.set_time_zone(ALICE, "Europe/Madrid")
    clock.t = at(2026, 1, 7, 11)  # Wednesday noon in Madrid
    m = await service.challenge(GUILD, CHANNEL, ALICE, "xiangqi", opponents=[BOB], seat=0,
                                days=3, weekends_off=True)
    m = await service.accept(m.id, BOB)
    assert m.deadline == at(2026, 1, 12, 11)  # Wed, Thu, Fri, then Monday noon
    await service.beat()
    clock.t = at(2026, 1, 8, 11)  # Thursday noon: two running days left
    await service.propose_pause(m.id, BOB, 2)
    paused = await service.accept_pause(m.id, ALICE)
    # paused until Saturday noon, inside her weekend: her two days run from Monday 00:00
    assert paused.deadline == at(2026, 1, 13, 23)
    # Tablero away from Friday to Sunday, all inside the pause and the weekend
    await service.beat()
    clock.t = at(2026, 1, 11, 12)
    service = MatchService(repo, recorder, clock, rng=random.Random(2))  # restarted
    extended = await service.resume()
    assert [e.match.id for e in extended] == []  # no clock ran: nothing to give back
    assert (await service.get_match(m.id)).deadline == at(2026, 1, 13, 23)


async def test_a_paused_match_says_until_when_in_each_reader_s_own_time(
        service: MatchService, clock: SetClock) -> None:
    """A move refused while paused names the pause's end as Discord's timestamp, which
    each reader's Discord shows in his own time zone (it said "… UTC" to everyone);
    where no such markup is read (the console, the web) the time says its zone."""
    m = await start_match(service, days=3)
    await service.propose_pause(m.id, BOB, 2)
    await service.accept_pause(m.id, ALICE)
    until = clock.t + 2 * DAY
    with pytest.raises(NotAllowed) as refused:
        await service.move(m.id, ALICE, "h3-e3")
    with people_mentions():
        shown = render(refused.value.text, "de")
    assert f"<t:{int(until.timestamp())}:f>" in shown and "UTC" not in shown
    assert f"{until:%Y-%m-%d %H:%M} UTC" in render(refused.value.text, "de")
