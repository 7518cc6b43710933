"""What there is to know: /help, /games-list, /rules, /leaderboard, /stats, /season,
/settings, /web.

Each command is ``async def NAME(console, args, line)``; the table of commands is
:data:`bot.console.commands.COMMANDS`."""

from __future__ import annotations

from datetime import timedelta

import rules
from bot.console.common import (
    CONSOLE_CHANNEL,
    CONSOLE_GUILD,
    HELP,
    HELP_BLOCKS,
    HELP_CONTINUE,
    HELP_PUZZLES,
    HELP_SCHOOL,
    HELP_WEEKS,
    _on_off,
    digits,
    is_game,
    options_of,
    padded,
    weekends_switch,
)
from bot.console.session import (
    Console,
)
from bot.console_args import SWITCH_VALUES
from bot.web.links import PLAYER_DAYS, PlayerPass, player_url
from locales.i18n import (
    _,
    _n,
    joined,
    render,
)
from locales.summaries import HIDDEN_OPTIONS, plain, rules_summary
from locales.terms import game_name, ladder_name
from service import (
    InvalidOption,
    ServiceError,
)
from service.queries import KEEP
from service.states import ladders
from service.timecontrol import describe_time_control, parse_time_control
from service.views import RATING_MEANING
from service.weekends import local_clock


async def cmd_help(console: Console, args: list[str], line: str) -> None:
    console.say(HELP)
    console.say(HELP_SCHOOL)
    console.say(HELP_CONTINUE)
    console.say(HELP_BLOCKS)
    console.say(HELP_PUZZLES)
    console.say(HELP_WEEKS)

async def cmd_games_list(console: Console, args: list[str], line: str) -> None:
    for key, v in rules.VARIANTS.items():
        opts = " ".join(f"{k}:{'|'.join(map(str, vals)) or '...'}"
                        for k, vals in v.options.items() if k not in HIDDEN_OPTIONS)
        console.say(joined(f"{key:18}", game_name(key, v.name), f" {opts}" if opts else ""))

async def cmd_rules(console: Console, args: list[str], line: str) -> None:
    if not args:
        console.say(_("/rules GAME, with GAME one of: {games}",
                   games=", ".join(rules.VARIANTS)))
        return
    key = args[0].lower().removesuffix("-4")
    if key not in rules.VARIANTS:
        raise ServiceError(_("there is no game called {game} (games: {known})",
                             game=repr(args[0]), known=", ".join(rules.VARIANTS)))
    console.say(plain(render(rules_summary(key), console.printer.locale)))

async def cmd_leaderboard(console: Console, args: list[str], line: str) -> None:
    season: int | None = None
    words: list[str] = []
    for a in options_of(args):
        if isinstance(a, tuple) and a[0] == "season":
            if not digits(a[1]) or len(a[1]) > 9:
                raise ServiceError(_("a season is given by its number"))
            season = int(a[1])
        elif isinstance(a, tuple):
            raise ServiceError(_("/leaderboard GAME [PAGE] [season:N]"))
        else:
            words.append(a)
    args = words
    if not args:
        raise ServiceError(_("which game? name one of: {games}", games=", ".join(ladders())))
    if len(args) > 2:
        raise ServiceError(_("/leaderboard GAME [PAGE] [season:N]"))
    board = await console.service.leaderboard(CONSOLE_GUILD, args[0], 1, season=season)
    if len(args) > 1:
        text = args[1]
        page = int(text) if digits(text) and len(text) < 7 else 0
        if not 1 <= page <= board.pages:
            raise ServiceError(_("there is no page {page}: pages go from 1 to {pages}",
                                 page=repr(text), pages=board.pages))
        if page != 1:
            board = await console.service.leaderboard(CONSOLE_GUILD, args[0], page,
                                                   season=season)
    if season is not None:
        named = await console.service.season(CONSOLE_GUILD, season)
        console.say(named.name())
    if board.total == 0:
        console.say(_("no rated results on {ladder} yet (4-player games: /leaderboard "
                   "{key}-4)", ladder=ladder_name(board.ladder), key=board.ladder)
                 if f"{board.ladder}-4" in ladders() else
                 _("no rated results on {ladder} yet", ladder=ladder_name(board.ladder)))
        return
    console.say(_n("{ladder} leaderboard, page {page}/{pages} ({count} player)",
                "{ladder} leaderboard, page {page}/{pages} ({count} players)",
                board.total, ladder=ladder_name(board.ladder), page=board.page,
                pages=board.pages))
    for e in board.entries:
        name = padded(render(console.name(e.user_id), console.printer.locale), 12, left=True)
        console.say(joined(f"{e.rank:3}. {name} {render(e.shown, console.locale):>7} ",
                        _("{wins}W {losses}L {draws}D", wins=e.wins, losses=e.losses,
                          draws=e.draws)))
    console.say(plain(render(RATING_MEANING, console.printer.locale)))

async def cmd_stats(console: Console, args: list[str], line: str) -> None:
    """``/stats [@user]``: one player's results and every ladder he is on (an option or
    a second word was read as a player's name: ``/stats game:xiangqi``)."""
    for a in options_of(args):
        if isinstance(a, tuple):
            raise InvalidOption(_("/stats takes no option {option}: it shows a player's "
                                  "results and their rank in every game (/stats [@user])",
                                  option=a[0]))
    if len(args) > 1:
        raise InvalidOption(_("/stats [@user]: one player at most, not {words}",
                              words=repr(" ".join(args)[:80])))
    if args and not args[0].startswith("@") and \
            is_game(args[0].lower().removesuffix("-4")):
        # /stats xiangqi showed a player called "xiangqi", who never played
        raise InvalidOption(_("{word} is a game, and /stats shows a player: /stats @NAME "
                              "(their results and their rank in every game); /leaderboard "
                              "{game} ranks the players of that game",
                              word=repr(args[0][:40]), game=args[0].lower()))
    uid = await console.person(args[0]) if args else console.user()
    s = await console.service.stats(CONSOLE_GUILD, uid)
    console.say(_("{player}: {wins}W {losses}L {draws}D, {active} active",
               player=console.name(uid), wins=s.wins, losses=s.losses, draws=s.draws,
               active=s.active_matches))
    for key, e in zip(s.ladder_keys, s.ladders, strict=True):
        console.say(_("  {ladder}: rank {rank}, {rating}", ladder=key, rank=e.rank,
                   rating=e.shown))
    if any(s.against_computer):
        w, d, lost = s.against_computer
        console.say(_("  against the computer (casual): {wins}W {losses}L {draws}D",
                   wins=w, losses=lost, draws=d))
        if s.with_hints:
            console.say(_n("  hints taken in {count} of them", "  hints taken in {count} of them",
                        s.with_hints))

async def cmd_season(console: Console, args: list[str], line: str) -> None:
    # Discord's /season schedule every:..., list and reset; "schedule" is no schedule
    args = [a for a in args if a.lower() != "schedule"]
    what = args[0].lower() if args else "list"
    if len(args) > 1 or what not in ("list", "reset", "monthly", "quarterly", "manual",
                                     "off"):
        raise ServiceError(_("/season [monthly|quarterly|manual|off|reset]"))
    if what == "reset":
        started = await console.service.reset_season(CONSOLE_GUILD, CONSOLE_CHANNEL)
        console.say(_("{season} has started; the all-time leaderboards go on.",
                   season=started.name()))
    elif what != "list":
        change = await console.service.configure_seasons(CONSOLE_GUILD, CONSOLE_CHANNEL,
                                                      what)
        console.say(change.words())
        return
    settings = await console.service.get_guild_settings(CONSOLE_GUILD)
    console.say(_("Seasons: {schedule}.", schedule=settings.seasons))
    for s in await console.service.seasons(CONSOLE_GUILD):
        console.say(joined("  ", s.name(), separator=""))


async def cmd_settings(console: Console, args: list[str], line: str) -> None:
    values: dict[str, str] = {}
    for a in options_of(args):
        if not isinstance(a, tuple):
            raise ServiceError(_("what is {word}? write days:N, reminders:on|off, "
                                 "threads:on|off, language:LOCALE", word=repr(a)))
        values[a[0]] = a[1] if a[0] in ("language", "timezone") else a[1].lower()
    unknown = set(values) - {"days", "reminders", "threads", "language", "clock", "claim",
                             "vacation", "autovacation", "takebacks", "web", "weekends",
                             "pauses", "seasons", "timezone"}
    if unknown:  # (Discord's names said: claim_win is read as claim, by console_args)
        raise ServiceError(_("unknown setting {setting} (settings: days, reminders, "
                             "threads, language, clock, claim_win, vacation, auto_vacation, "
                             "takebacks_rated, web, weekends, pauses, seasons, timezone)",
                             setting=repr(sorted(unknown)[0])))
    if "seasons" in values:  # Discord's /settings seasons: the console's /season
        if values["seasons"] not in ("monthly", "quarterly", "manual", "off"):
            raise ServiceError(_("/season [monthly|quarterly|manual|off|reset]"))
        change = await console.service.configure_seasons(CONSOLE_GUILD, CONSOLE_CHANNEL,
                                                         values.pop("seasons"))
        console.say(change.words())
        if not values:
            return
    if "timezone" in values:  # the person's own, in every server
        await _time_zone(console, values.pop("timezone"))
        if not values:
            return

    def flag(key: str) -> bool | None:
        if key not in values:
            return None
        if values[key] not in SWITCH_VALUES:
            raise ServiceError(_("{key} must be on or off, not {value}", key=key,
                                 value=repr(values[key])))
        return SWITCH_VALUES[values[key]]
    days = values.get("days")
    if days is not None and (not digits(days) or len(days) > 3):
        raise ServiceError(_("days must be a number from 1 to 14"))
    reminders, threads = flag("reminders"), flag("threads")
    vacation = values.get("vacation")
    if vacation is not None and (not digits(vacation) or len(vacation) > 3):
        raise ServiceError(_("vacation is a number of days a year, from 0 to 60"))
    pauses = values.get("pauses")
    if pauses is not None and (not digits(pauses) or len(pauses) > 3):
        raise ServiceError(_("pauses is a number of pauses a rated match allows, from 0 "
                             "to 10"))
    s = await console.service.update_guild_settings(
        CONSOLE_GUILD, default_days=int(days) if days else None,
        reminders=reminders, use_threads=threads, default_clock=values.get("clock"),
        claim_win=flag("claim"), vacation_days=int(vacation) if vacation else None,
        auto_vacation=flag("autovacation"), language=values.get("language", KEEP),
        takebacks_rated=flag("takebacks"), web=flag("web"),
        weekends_off=weekends_switch(values["weekends"]) if "weekends" in values else None,
        pauses_rated=int(pauses) if pauses is not None else None)
    if "language" in values and s.language:
        console.printer.locale = s.language  # the console is this one server's threads
    pace = describe_time_control(parse_time_control(s.default_clock)) \
        if s.default_clock else _n("{count} day per move", "{count} days per move",
                                   s.default_days)
    console.say(_("settings: {pace}, reminders {reminders}, threads {threads}, claim win "
                "on time {claim}, {vacation} of vacation a year, automatic vacation "
                "{auto}", pace=pace, reminders=_on_off(s.reminders),
                threads=_on_off(s.use_threads), claim=_on_off(s.claim_win),
                vacation=_n("{count} day", "{count} days", s.vacation_days),
                auto=_on_off(s.auto_vacation)))
    if "takebacks" in values or s.takebacks_rated:
        console.say(_("takebacks in rated games: allowed") if s.takebacks_rated
                 else _("takebacks in rated games: not allowed (casual games: always)"))
    if "web" in values or s.web:
        console.say(_("matches on the web: on") if s.web else _("matches on the web: off"))
    if "weekends" in values or s.weekends_off:
        console.say(_("challenges: weekends off (no clock runs on Saturday and Sunday in "
                      "each player's time zone)") if s.weekends_off
                    else _("challenges: clocks run on weekends"))
    if "pauses" in values:
        console.say(_n("pauses by agreement in a rated match: at most {count}",
                       "pauses by agreement in a rated match: at most {count}",
                       s.pauses_rated))


async def _time_zone(console: Console, zone: str) -> None:
    """Set (or with ``clear`` forget) the speaker's time zone, and say what it is."""
    prefs = await console.service.set_time_zone(
        console.user(), None if zone.strip().lower() == "clear" else zone)
    console.printer.zone = prefs.time_zone  # the console's times follow his zone
    _say_zone(console, prefs.time_zone)


def _say_zone(console: Console, zone: str | None) -> None:
    # the time there now and its offset: a zone given by mistake shows at once
    console.say(_("your time zone: {zone} (it is {time} there now)", zone=zone,
                  time=local_clock(zone, console.clock.now())) if zone is not None
                else _("your time zone: none set (UTC counts)"))


async def cmd_timezone(console: Console, args: list[str], line: str) -> None:
    """``/timezone [ZONE | clear]``: set your time zone (an IANA name), forget it, or
    (alone) show it."""
    if not args:
        _say_zone(console, (await console.service.get_user_prefs(console.user())).time_zone)
        return
    if len(args) != 1:
        raise ServiceError(_("/timezone ZONE: one IANA name such as Europe/Madrid"))
    await _time_zone(console, args[0])

async def cmd_web(console: Console, args: list[str], line: str) -> None:
    """``/web [#N]``: your own link to play match N on the web (the current match
    without #N); ``/web revoke``: every link you were given stops working."""
    user = console.user()
    if [a.lower() for a in args] == ["revoke"]:
        await console.service.revoke_web_links(user)
        console.say(_("your web links no longer work; /web gives you a new one"))
        return
    match_id = await console.pick_only_match(args)
    epoch = await console.service.web_pass(match_id, user, caller=console.caller())
    if console.web is None:
        raise ServiceError(_("the web is not set up here (TABLERO_WEB_SECRET)"))
    expires = console.clock.now() + timedelta(days=PLAYER_DAYS)
    token = console.web.signer.player(PlayerPass(match_id, CONSOLE_GUILD, user,
                                              int(expires.timestamp()), epoch))
    console.say(_("your own link to play #{match} on the web (keep it to yourself; it "
               "works until {when}, /web revoke ends it): {url}", match=str(match_id),
               when=console.when(expires), url=player_url(console.web.base_url, token)))
