"""Messages and embeds: boards, challenges, results, lists. Pure formatting, no I/O."""

from __future__ import annotations

import io
from collections.abc import Iterable, Sequence
from datetime import datetime

import discord

from bot.service.computer import computer_name, is_computer
from bot.service.timecontrol import describe_time_control, parse_time_control
from bot.service.tournaments.table import StandingsTable
from bot.service.views import (
    RATING_MEANING,
    HistoryView,
    LeaderboardPage,
    MatchView,
    PlayerStats,
    RatingUpdate,
    ResultView,
)
from locales.i18n import Text, _
from locales.results import ResultKind, result_sentence

COLOUR = discord.Colour(0x2E7D5B)
BOARD_FILE = "board.png"


def mention(user_id: int | None) -> str:
    """``<@id>``; the computer player by its name (it has no Discord account)."""
    if user_id is not None and is_computer(user_id):
        return computer_name(user_id)
    return f"<@{user_id}>" if user_id else "an open seat"


def mentions(user_ids: Iterable[int]) -> str:
    ids = [mention(u) for u in user_ids]
    if len(ids) <= 1:
        return "".join(ids)
    return ", ".join(ids[:-1]) + " and " + ids[-1]


def plural(n: int, one: str, many: str | None = None) -> str:
    """A count with its noun.

    >>> plural(1, "win"), plural(2, "loss", "losses")
    ('1 win', '2 losses')
    """
    return f"{n} {one if n == 1 else (many or one + 's')}"


def relative(when: datetime | None) -> str:
    """A Discord timestamp shown as 'in 2 days' in each reader's own locale."""
    if when is None:
        return "no deadline"
    return f"<t:{int(when.timestamp())}:R>"


def say(text: Text) -> str:
    """A sentence of ``locales.i18n`` as posted: in the server's language (the default
    until servers choose one)."""
    return text.render(None)


def moment(when: datetime) -> str:
    """A Discord timestamp 'in 2 days (26 November 2026 14:00)', each reader's own time."""
    return f"<t:{int(when.timestamp())}:R> (<t:{int(when.timestamp())}:f>)"


def clock_status(m: MatchView, now: datetime | None = None) -> str:
    """When the player to move runs out of time (exact, as Discord timestamps), a lapsed
    claim-win clock, and who is on vacation in this match (now: Discord's clock)."""
    now = now or discord.utils.utcnow()
    if m.deadline is not None:
        text = moment(m.deadline)
    elif m.lapsed is not None:
        text = say(_("time ran out {when}; waiting for a claim",
                     when=f"<t:{int(m.lapsed.timestamp())}:R>"))
    else:
        text = relative(None)
    for user, until in m.away:
        if until > now:
            text += " · " + say(_("{player} is on vacation until {until}",
                                  player=mention(user), until=moment(until)))
    return text


def game_title(m: MatchView) -> str:
    opts = ", ".join(f"{k} {v}" for k, v in m.options.items() if k not in ("seed", "arrangement"))
    return f"{m.game_name}{f' ({opts})' if opts else ''}"


def terms(m: MatchView) -> str:
    pace = f"{m.days_per_move} day{'s' if m.days_per_move != 1 else ''} per move" \
        if "+" not in m.time_control \
        else say(describe_time_control(parse_time_control(m.time_control)))
    if m.claim_win:
        pace += ", " + say(_("claim win on time"))
    return f"{pace}, {'rated' if m.rated else 'casual'}"


def seat_lines(m: MatchView) -> str:
    lines = []
    for s in m.seats:
        mates = m.team_mates(s.user_id) if s.user_id is not None else ()
        team = f" · team {s.team + 1}" if s.team is not None and m.seat_count > 2 else ""
        team += f" with {mentions(mates)}" if mates else ""
        out = " · out" if s.out else ""
        arrow = "▶ " if s.user_id is not None and s.user_id in m.to_move else ""
        lines.append(f"{arrow}**{s.name}**: {mention(s.user_id)}{team}{out}")
    return "\n".join(lines) or "—"


def sides_text(m: MatchView) -> str:
    """``'@alice and @carol vs @bob and @dave'`` (teams), else every player."""
    sides = m.sides()
    if len(sides) > 1 and any(len(side) > 1 for side in sides):
        return " vs ".join(" and ".join(mention(u) for u in side) for side in sides)
    return mentions(m.players())


def thread_name(m: MatchView, names: dict[int, str]) -> str:
    """'Xiangqi: alice vs bob' (at most 100 characters, Discord's limit)."""
    players = [names.get(u, str(u)) for u in m.players()] or ["open"]
    return f"{m.game_name}: {' vs '.join(players)}"[:100]


def played(by: str | None, move: str) -> str:
    """'alice played **h3-e3 (C2.5)**' (who played it left out when unknown).

    >>> played("alice", "h3-e3 (C2.5)"), played(None, "h3-e3")
    ('alice played **h3-e3 (C2.5)**', 'Last move: **h3-e3**')
    """
    return f"{by} played **{move}**" if by else f"Last move: **{move}**"


def rating_line(r: RatingUpdate) -> str:
    """'<@7> 12.3 → 14.1 (+1.8), #2': the rating number /leaderboard and /stats show."""
    return r.text(mention(r.user_id))


def board_file(png: bytes, alt: str, filename: str = BOARD_FILE) -> discord.File:
    """The board as an attachment whose description is the alt text screen readers read."""
    return discord.File(io.BytesIO(png), filename=filename, description=alt[:1024])


def board_embed(m: MatchView, *, headline: str | None = None,
                image: bool = True) -> discord.Embed:
    e = discord.Embed(title=f"{game_title(m)} · match {m.id}", colour=COLOUR,
                      description=headline or None)
    e.add_field(name="Players", value=seat_lines(m), inline=True)
    status: str
    if m.is_over:
        status = f"Over: {m.result.reason_text if m.result else m.status.value}"
    elif m.to_move:
        status = f"{mentions(m.to_move)} to move, {clock_status(m)}"
    else:
        status = m.status.value
    e.add_field(name=f"Ply {m.ply}", value=status, inline=True)
    if m.draw_offer_by and not m.is_over:
        e.add_field(name="Draw offer", value=f"from {mention(m.draw_offer_by)}", inline=False)
    if image:
        e.set_image(url=f"attachment://{BOARD_FILE}")
    e.set_footer(text=terms(m))
    return e


def challenge_text(m: MatchView, by: int, to: Sequence[int]) -> str:
    what = f"**{game_title(m)}** ({terms(m)})"
    if to:
        extra = ""
        if m.seat_count > len(to) + 1:
            extra = f" {m.seat_count - len(to) - 1} more seat(s) are open: anyone may join."
        return f"{mentions(to)}: {mention(by)} challenges you to {what}.{extra}"
    return f"{mention(by)} is looking for {'players' if m.seat_count > 2 else 'an opponent'}" \
           f" for {what}. Click **Join** to play."


def result_text(m: MatchView, result: ResultView | None, reason: str) -> str:
    """The post announcing how the match ended (``locales.results``: one place for it)."""
    if result is None:  # aborted or broken: the event's reason key is all there is
        return result_sentence("post", ResultKind.ABORTED, reason=reason, reason_is_text=True,
                               match=m.id, game=m.game_name)
    places = "; ".join(f"{i + 1}. {mentions(g)}" for i, g in enumerate(result.ranking))
    return result_sentence("post", result.kind, reason=result.reason,
                           winners=mentions(result.winners), places=places, match=m.id,
                           game=m.game_name)


def games_embed(user_id: int, matches: Sequence[MatchView],
                now: datetime | None = None) -> discord.Embed:
    e = discord.Embed(title="Your matches", colour=COLOUR)
    waiting = [m for m in matches if user_id in m.to_move]
    others = [m for m in matches if user_id not in m.to_move]
    lines = []
    for m in [*waiting, *others]:
        where = f"<#{m.thread_id or m.channel_id}>"
        if m.status.is_waiting and user_id in m.invited:
            state = "**you're invited**: answer with the buttons"
        elif m.status.is_waiting:
            state = f"waiting for players ({len(m.joined)}/{m.seat_count})"
        elif user_id in m.to_move:
            state = f"**your move**, {clock_status(m, now)}"
        else:
            state = f"{mentions(m.to_move)} to move, {clock_status(m, now)}"
        mates = m.team_mates(user_id)
        opponents = [u for u in m.players() if u != user_id and u not in mates]
        vs = (f" with {mentions(mates)}" if mates else "") + \
            (f" vs {mentions(opponents)}" if opponents else "")
        lines.append(f"`{m.id}` {m.game_name}{vs} — {state} · {where}")
    e.description = "\n".join(lines)[:4000] if lines else \
        "No matches here yet. Start one with `/challenge`."
    return e


def leaderboard_embed(page: LeaderboardPage, title: str) -> discord.Embed:
    e = discord.Embed(title=f"Leaderboard · {title}", colour=COLOUR)
    if not page.entries:
        e.description = "Nobody is rated on this ladder yet: play a rated match!"
    else:
        e.description = "\n".join(
            f"**{x.rank}.** {mention(x.user_id)} — {x.shown} "
            f"({x.wins}W {x.losses}L {x.draws}D)" for x in page.entries)
        e.description += f"\n\n{RATING_MEANING}"
    e.set_footer(text=f"Page {page.page} of {page.pages} · {page.total} rated players")
    return e


def stats_embed(stats: PlayerStats, titles: dict[str, str]) -> discord.Embed:
    active = plural(stats.active_matches, "active match", "active matches")
    e = discord.Embed(title="Stats", colour=COLOUR,
                      description=f"{mention(stats.user_id)} — "
                                  f"{plural(stats.wins, 'win')}, "
                                  f"{plural(stats.losses, 'loss', 'losses')}, "
                                  f"{plural(stats.draws, 'draw')}; {active}")
    for key, x in zip(stats.ladder_keys, stats.ladders, strict=False):
        e.add_field(name=titles.get(key, key),
                    value=f"#{x.rank} · rating {x.shown} (μ {x.mu:.1f}, σ {x.sigma:.2f})"
                          f"\n{x.wins}W {x.losses}L {x.draws}D", inline=True)
    if any(stats.against_computer):
        won, drawn, lost = stats.against_computer
        e.add_field(name="Against the computer (casual)",
                    value=f"{won}W {lost}L {drawn}D", inline=False)
    return e


def history_text(h: HistoryView) -> str:
    lines = []
    for ply, who, _canonical, display in h.entries:
        lines.append(f"{ply + 1}. {display}" + (f" ({mention(who)})" if who else ""))
    body = "\n".join(lines) or "No moves yet."
    if len(body) > 1800:
        body = "…\n" + body[-1800:].split("\n", 1)[-1]
    return f"**{game_title(h.match)}** · match {h.match.id}\n{body}"


def standings_embed(table: StandingsTable, *, image: bool = True) -> discord.Embed:
    """A tournament's standings: the first 20 places (the table image has them all,
    attached as ``standings.png`` when ``image``)."""
    lines = [f"**{r[0]}.** {r[1]} · {r[2]} pts" for r in table.rows[:20]]
    embed = discord.Embed(title=table.title, description="\n".join(lines) or "-")
    embed.set_footer(text=table.subtitle)
    if image:
        embed.set_image(url="attachment://standings.png")
    return embed
