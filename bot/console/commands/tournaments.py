"""Tournaments: /tournaments, /tournament
create|join|leave|start|cancel|remove|mine|pairings|standings.

Each command is ``async def NAME(console, args, line)``; the table of commands is
:data:`bot.console.commands.COMMANDS`."""

from __future__ import annotations

from collections.abc import Iterable

import rules
from bot.console.common import (
    CONSOLE_CHANNEL,
    CONSOLE_GUILD,
    digits,
    no_such_tournament,
    number_token,
    options_of,
    weekends_switch,
)
from bot.console.session import (
    Console,
)
from bot.console_args import yes_or_no
from locales.i18n import (
    Words,
    _,
    _n,
    joined,
    render,
)
from locales.terms import status
from service import (
    ServiceError,
)
from service.tournament_records import (
    TournamentGame,
    TournamentRecord,
    describe_clock,
    vacation_words,
)
from service.tournaments import Result
from service.tournaments.model import format_words, tournament_title


async def cmd_tournaments(console: Console, args: list[str], line: str) -> None:
    found = await console.service.tournaments(CONSOLE_GUILD)
    if not found:
        console.say(_("no tournaments yet"))
    for t in found:
        console.say(_tournament_line(console, t))

def _tournament_usage() -> Words:
    return _("/tournament create|join|leave|start|cancel|remove|standings|pairings|mine")


async def cmd_tournament(console: Console, args: list[str], line: str) -> None:
    if not args:
        raise ServiceError(_tournament_usage())
    what, rest = args[0].lower(), args[1:]
    uid = console.user()
    if what == "create":
        await _create_tournament(console, uid, rest)
        return
    tid = await _pick_tournament(console, rest, ended_too=what in ("standings", "pairings",
                                                               "mine"))
    svc = console.service
    if what == "join":
        console.say(_tournament_line(console, await svc.join_tournament(tid, uid,
                                                                 caller=console.caller())))
    elif what == "leave":
        console.say(_tournament_line(console, await svc.leave_tournament(tid, uid,
                                                                  caller=console.caller())))
    elif what == "start":
        console.say(_tournament_line(console, await svc.start_tournament(tid, uid,
                                                                  caller=console.caller())))
    elif what == "cancel":
        console.say(_tournament_line(console, await svc.cancel_tournament(tid, uid,
                                                                   caller=console.caller())))
    elif what == "remove":
        who = [a for a in rest if a.startswith("@")]
        if len(who) != 1:
            raise ServiceError(_("/tournament remove [#T] @user"))
        t = await svc.remove_from_tournament(tid, uid, await console.person(who[0]),
                                             caller=console.caller())
        console.say(_tournament_line(console, t))
    elif what == "standings":
        # a word it does not take is refused, not dropped (nor "CSV" read as no csv)
        for word in rest:
            if word.lower() != "csv":
                raise ServiceError(_("/tournament standings [#T] [csv]: what is {word}?",
                                     word=repr(word[:40])))
        await _standings(console, tid, csv=bool(rest))  # every word is "csv"
    elif what == "pairings":
        # a word that is no round's number is refused, not read as "this round"
        if len(rest) > 1 or (rest and not digits(rest[0])):
            raise ServiceError(_("/tournament pairings [#T] [ROUND]: ROUND is a round's "
                                 "number, not {word}", word=repr(rest[-1][:40])))
        games = await svc.tournament_pairings(tid, int(rest[0]) if rest else None,
                                              caller=console.caller())
        _say_games(console, games)
    elif what == "mine":
        if rest:  # "/tournament mine @bob" showed one's own games, as if bob's
            raise ServiceError(_("/tournament mine [#T]: what is {word}?",
                                 word=repr(rest[0][:40])))
        _say_games(console, await svc.tournament_games_of(tid, uid, caller=console.caller()))
    else:
        # "/tournament #1" alone: name the actions, one of which was meant
        raise ServiceError(joined(_("/tournament has no {what}", what=repr(what)),
                                  _tournament_usage(), separator=": "))

async def _pick_tournament(console: Console, args: list[str], *, ended_too: bool = False) -> int:
    """The tournament named by ``#N`` (removed from ``args``), else the newest open
    one of the console's server; ``ended_too`` (what only reads it: standings,
    pairings, mine): else the newest of all."""
    for a in list(args):
        if (number := number_token(a, no_such_tournament)) is not None:
            args.remove(a)
            return number
    found = await console.service.tournaments(CONSOLE_GUILD, running_only=True)
    if not found and ended_too:
        found = await console.service.tournaments(CONSOLE_GUILD)
    if not found:
        raise ServiceError(_("no tournament is open: /tournament create GAME FORMAT"))
    return found[0].id

def _tournament_line(console: Console, t: TournamentRecord) -> Words:
    v = rules.variant(t.game)
    parts: list[Words] = [format_words(t.format)]
    if t.rounds:
        parts.append(_n("{count} round", "{count} rounds", t.rounds))
    parts += [describe_clock(t), vacation_words(t), _("rated") if t.rated else _("casual"),
              _n("{count} player", "{count} players", len(t.players)),
              status(t.status.value)]
    if t.round:
        parts.append(_("round {round}", round=t.round))
    return _("tournament #{tournament} {name}: {details}", tournament=t.id,
             name=tournament_title(t.name, v.key, v.name, t.format),
             details=joined(*parts, separator=", "))

async def _create_tournament(console: Console, uid: int, args: list[str]) -> None:
    words = [a for a in options_of(args) if isinstance(a, str)]
    values = dict(a for a in options_of(args) if isinstance(a, tuple))
    rated = not any(w.lower() in ("casual", "unrated") for w in words)
    words = [w for w in words if w.lower() not in ("casual", "unrated", "rated")]
    if "rated" in values:  # as /challenge reads it (it went to the game as an option)
        rated = yes_or_no("rated", values.pop("rated")) and rated
    if len(words) != 2:
        raise ServiceError(_("/tournament create GAME FORMAT [rounds:N] ... "
                             "(FORMAT: rr, double, swiss, knockout)"))

    def number(key: str) -> int | None:
        text = values.pop(key, None)
        if text is None:
            return None
        if not (text.isascii() and text.isdigit()) or len(text) > 4:
            raise ServiceError(_("{key} must be a whole number", key=key))
        return int(text)
    claim = values.pop("claim", None)
    vacation = values.pop("vacation", None)
    weekends = values.pop("weekends", None)
    if "on_timeout" in values:  # a four-player game's choice (issue 43); pairs are two
        raise ServiceError(_("tournaments pair two players a game: on_timeout is for "
                             "four-player games (/challenge)"))
    t = await console.service.create_tournament(
        CONSOLE_GUILD, CONSOLE_CHANNEL, uid, words[0], fmt=words[1],
        name=values.pop("name", None), rounds=number("rounds"), days=number("days"),
        cap=number("cap"), registration_days=number("registration"), rated=rated,
        clock=values.pop("clock", None),
        claim_win=yes_or_no("claim", claim) if claim is not None else False,
        vacation=yes_or_no("vacation", vacation) if vacation is not None else True,
        weekends_off=weekends_switch(weekends) if weekends is not None else False,
        options=values)
    console.say(_("created {tournament_line}: /tournament join #{tournament}",
               tournament_line=_tournament_line(console, t), tournament=t.id))

def _say_games(console: Console, games: Iterable[TournamentGame]) -> None:
    shown = False
    for g in games:
        shown = True
        if g.second is None:
            console.say(_("  round {round}: {player} bye", round=g.round,
                       player=console.name(g.first)) if g.result is Result.BYE else
                     _("  round {round}: {player} rests", round=g.round,
                       player=console.name(g.first)))
            continue
        result: Words = g.result.value if g.result is not None else _("playing")
        line = _("  round {round} (replay {replay}): {first} - {second}  {result}",
                 round=g.round, replay=g.replay, first=console.name(g.first),
                 second=console.name(g.second), result=result) if g.replay else \
            _("  round {round}: {first} - {second}  {result}", round=g.round,
              first=console.name(g.first), second=console.name(g.second), result=result)
        console.say(joined(line, _("match #{match}", match=g.match_id))
                 if g.match_id is not None else line)
    if not shown:
        console.say(_("  no games"))

async def _standings(console: Console, tid: int, *, csv: bool) -> None:
    t = await console.service.get_tournament(tid, caller=console.caller())
    names = {p: render(console.name(p), console.printer.locale) for p in t.players}
    if csv:
        csv_text = await console.service.tournament_csv(tid, names, caller=console.caller())
        console.say(csv_text.rstrip())
        return
    table = await console.service.tournament_table(tid, names, caller=console.caller())
    await console.printer.print_table(table, f"tournament{tid}-round{t.round}")
