"""The match page shows the clock's state (issue 43) in the reader's language, as /board
does in Discord: weekends off and the time zone each player's weekend counts in, a pause
proposed and then in force (until when), a vacation (until when), and after a timeout a
seat the computer plays or whose turns are skipped."""

from __future__ import annotations

import re
from html import unescape

from service import MatchService, MatchView
from tests.service.conftest import ALICE, BOB, CAROL, CHANNEL, DAVE, GUILD, SetClock, play_random
from tests.web.conftest import Site


def words(html: str) -> str:
    """The page's text without its tags, white space squeezed."""
    return " ".join(unescape(re.sub(r"<[^>]+>", " ", html)).split())


def clock_of(html: str) -> str:
    return html.split('<section class="clock">', 1)[1].split("</section>", 1)[0]


def players_of(html: str) -> str:
    return html.split('<section class="players">', 1)[1].split("</section>", 1)[0]


async def _two(site: Site, **kw: object) -> MatchView:
    await site.service.update_guild_settings(GUILD, web=True)
    m = await site.service.challenge(GUILD, CHANNEL, ALICE, "xiangqi", opponents=[BOB],
                                     seat=0, days=2, **kw)  # type: ignore[arg-type]
    return await site.service.accept(m.id, BOB)


async def test_weekends_off_and_each_players_time_zone(site: Site) -> None:
    await site.service.set_time_zone(ALICE, "Europe/Madrid")
    m = await _two(site, weekends_off=True)
    html = await (await site.client.get(site.path(m))).text()
    clock = words(clock_of(html))
    assert "2 days per move, weekends off, rated" in clock
    assert ("Weekends off: no clock runs from Saturday 00:00 to Monday 00:00 in the time "
            "zone of the player whose clock it is") in clock
    players = players_of(html)
    alice = words(players.split("alice", 1)[1].split("</li>", 1)[0])
    bob = words(players.split("bob", 1)[1].split("</li>", 1)[0])
    assert "weekends in Europe/Madrid" in alice and "no time zone" not in alice
    assert "weekends in UTC (no time zone set)" in bob
    german = await (await site.client.get(site.path(m) + "?lang=de")).text()
    assert "Wochenende" in words(clock_of(german))
    plain = await _two(site)  # weekends on: nothing said about zones
    html = await (await site.client.get(site.path(plain))).text()
    assert "weekends in" not in words(html) and "Weekends off" not in words(html)


async def test_a_pause_proposed_then_in_force_until_when(site: Site) -> None:
    m = await _two(site, rated=False)
    await site.service.propose_pause(m.id, BOB, 3, "exams")
    html = await (await site.client.get(site.path(m))).text()
    assert "bob proposes to pause the match for 3 days; waiting for an answer" in \
        words(clock_of(html))
    await site.service.accept_pause(m.id, ALICE)
    paused = await site.service.get_match(m.id)
    assert paused.paused is not None
    until = paused.paused[1].isoformat(timespec="seconds")
    html = await (await site.client.get(site.path(m))).text()
    clock = clock_of(html)
    assert "Paused by agreement until" in words(clock) and f'datetime="{until}"' in clock
    assert "proposes" not in words(clock)
    spanish = await (await site.client.get(site.path(m) + "?lang=es-ES")).text()
    assert f'datetime="{until}"' in clock_of(spanish) and "Paused" not in spanish


async def test_a_player_on_vacation_until_when(site: Site) -> None:
    m = await _two(site)
    await site.service.start_vacation(GUILD, BOB, 1)
    seen = await site.service.get_match(m.id)
    until = seen.away_until(BOB, site.service.clock.now())
    assert until is not None
    players = players_of(await (await site.client.get(site.path(m))).text())
    bob = players.split("bob", 1)[1].split("</li>", 1)[0]
    assert "on vacation until" in words(bob)
    assert f'datetime="{until.isoformat(timespec="seconds")}"' in bob


async def _four(service: MatchService, on_timeout: str, **kw: object) -> int:
    await service.update_guild_settings(GUILD, web=True)
    m = await service.challenge(GUILD, CHANNEL, ALICE, "alquerque-grande",
                                opponents=[BOB, CAROL, DAVE],
                                options={"players": 4, "mode": "fast"}, days=1,
                                on_timeout=on_timeout, **kw)  # type: ignore[arg-type]
    for user in (BOB, CAROL, DAVE):
        await service.accept(m.id, user)
    await play_random(service, m.id, 4, seed=3)
    return m.id


async def test_a_skipped_seat_and_a_seat_the_computer_plays(site: Site) -> None:
    clock = site.service.clock
    assert isinstance(clock, SetClock)
    skipped = await _four(site.service, "skip")
    late = (await site.service.get_match(skipped)).to_move[0]
    clock.advance(days=1, minutes=1)
    await site.service.sweep_deadlines()
    m = await site.service.get_match(skipped)
    name = {ALICE: "alice", BOB: "bob"}.get(late)
    html = await (await site.client.get(site.path(m))).text()
    said = words(players_of(html))
    assert "(skipped since move 5)" in said
    if name is not None:  # a player whose name the site knows
        assert f"{name} (skipped since move 5)" in said
    german = await (await site.client.get(site.path(m) + "?lang=de")).text()
    assert "(übersprungen seit Zug 5)" in words(players_of(german))
    # the computer takes over another match's late seat
    taken = await _four(site.service, "computer", stand_in_level=1)
    clock.advance(days=1, minutes=1)
    await site.service.sweep_deadlines()
    m = await site.service.get_match(taken)
    assert m.stand_ins
    html = await (await site.client.get(site.path(m))).text()
    assert "(computer since move 5)" in words(players_of(html))
