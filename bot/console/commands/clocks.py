"""Time: /moretime, /claim, /wait, /vacation, and /sweep (moves the console's clock on).

Each command is ``async def NAME(console, args, line)``; the table of commands is
:data:`bot.console.commands.COMMANDS`."""

from __future__ import annotations

import re
from datetime import timedelta

from bot.console.common import (
    CONSOLE_GUILD,
    _on_off,
    digits,
)
from bot.console.session import (
    Console,
)
from locales.i18n import (
    _,
    _n,
)
from service import (
    ServiceError,
)

SWEEP_DAYS = re.compile(r"\+?(?P<days>[0-9]{1,9}(?:\.[0-9]{1,9})?|\.[0-9]{1,9})d?")
"""What ``/sweep`` moves the clock by: a decimal number of days."""


async def cmd_moretime(console: Console, args: list[str], line: str) -> None:
    m = await console.service.give_time(await console.pick_only_match(args), console.user(),
                                     caller=console.caller())
    console.say(_("#{match}: one day more given; now due {when}", match=str(m.id),
                when=console.when(m.deadline)))

async def cmd_claim(console: Console, args: list[str], line: str) -> None:
    m = await console.service.claim_win(await console.pick_only_match(args), console.user(),
                                     caller=console.caller())
    console.say(_("claimed: {match_line}", match_line=console.describe(m)))

async def cmd_wait(console: Console, args: list[str], line: str) -> None:
    m = await console.service.keep_waiting(await console.pick_only_match(args), console.user(),
                                        caller=console.caller())
    console.say(_("#{match}: you keep waiting; /claim claims the win while the clock "
                "stays out", match=str(m.id)))

async def cmd_pause(console: Console, args: list[str], line: str) -> None:
    """``/pause [#N] DAYS [REASON ...]`` proposes a pause by agreement (``/pause propose
    DAYS ...`` too); ``/pause accept|decline|resume [#N]`` answer it or end it early."""
    uid, caller = console.user(), console.caller()
    match_id = await console.pick_match(args)
    what = args[0].lower() if args else ""
    if what == "propose":
        args, what = args[1:], (args[1] if len(args) > 1 else "")
    if digits(what) and len(what) <= 3:
        reason = " ".join(args[1:]).strip() or None
        await console.service.propose_pause(match_id, uid, int(what), reason, caller=caller)
        console.say(_("pause proposed; your opponent answers (it lapses if a move is "
                      "played first)"))
    elif what == "accept":
        m = await console.service.accept_pause(match_id, uid, caller=caller)
        console.say(_("#{match} is paused until {until}", match=str(m.id),
                      until=console.when(m.paused[1] if m.paused else None)))
    elif what == "decline":
        await console.service.decline_pause(match_id, uid, caller=caller)
        console.say(_("pause declined"))
    elif what == "resume":
        m = await console.service.resume_pause(match_id, uid, caller=caller)
        console.say(_("#{match}: the pause is over; due {when}", match=str(m.id),
                      when=console.when(m.deadline)))
    else:
        raise ServiceError(_("/pause DAYS [REASON], /pause accept, /pause decline or "
                             "/pause resume"))

async def cmd_vacation(console: Console, args: list[str], line: str) -> None:
    uid = console.user()
    what = args[0].lower() if args else "status"
    if what == "start":
        days = args[1] if len(args) > 1 else None
        if days is not None and (not digits(days) or len(days) > 3):
            raise ServiceError(_("/vacation start [DAYS]: a whole number of days"))
        v = await console.service.start_vacation(CONSOLE_GUILD, uid,
                                              int(days) if days else None)
        console.say(_("on vacation until {until}: {paused} paused; {balance} left this "
                    "year", until=console.when(v.until),
                    paused=_n("{count} match", "{count} matches", len(v.paused)),
                    balance=_n("{count} day", "{count} days", v.balance)))
        if v.forbidden:
            console.say(_("not paused (their tournament forbids vacation): {matches}",
                        matches=", ".join(f"#{i}" for i in v.forbidden)))
        if v.late:
            console.say(_("your time in {matches} has already run out: not paused (the "
                        "win may be claimed)", matches=", ".join(f"#{i}" for i in v.late)))
        return
    if what == "end":
        v = await console.service.end_vacation(CONSOLE_GUILD, uid)
        console.say(_("back from vacation: your clocks run again; {balance} left this year",
                    balance=_n("{count} day", "{count} days", v.balance)))
        return
    if what != "status":
        raise ServiceError(_("/vacation start [DAYS], /vacation end or /vacation status"))
    v = await console.service.vacation_status(CONSOLE_GUILD, uid)
    if v.until is not None:
        console.say(_("on vacation until {until}", until=console.when(v.until)))
    console.say(_("vacation: {balance} left this year ({earned} earned of {yearly}, "
                "{used} used); automatic vacation {auto}",
                balance=_n("{count} day", "{count} days", v.balance),
                earned=v.earned, yearly=v.yearly, used=v.used, auto=_on_off(v.auto)))

async def cmd_sweep(console: Console, args: list[str], line: str) -> None:
    if args:
        # days as written: 2, +2, +1.5, +3d (float alone also read 1e2, 1_0, inf)
        found = SWEEP_DAYS.fullmatch(args[0])
        if len(args) > 1 or found is None:
            raise ServiceError(_("/sweep +DAYS, e.g. /sweep +3"))
        days = float(found["days"])
        if not 0 <= days <= 365:
            raise ServiceError(_("between 0 and 365 days, please"))
        console.clock.offset += timedelta(days=days)
    await console.service.beat()  # time moved on purpose: never an extension
    events = await console.service.sweep()
    console.say(_n("sweep: {count} event", "sweep: {count} events", len(events)))
