"""Messages and embeds: boards, challenges, results, lists. Pure formatting, no I/O.

Message texts are lazy (``locales.i18n``): the caller renders them for its reader (a
reply in the user's locale, a thread post in the server's language). Embeds are built
for one locale (``loc``)."""

from __future__ import annotations

import io
from collections.abc import Callable, Iterable, Mapping, Sequence
from datetime import datetime

import discord

from bot.discordapp.mentions import plain_commands
from locales.i18n import Text, Words, _, _n, command, decimal, joined, listing, render
from locales.results import ResultKind, result_sentence
from locales.terms import (
    choice_title,
    game_name,
    ladder_name,
    move_display,
    reason,
    seat_colour,
    status,
)
from service.computer_seats import computer_title, is_computer
from service.events import SeasonEnded
from service.imported_seats import imported_title, is_imported
from service.texts import player_words, seat_rating
from service.texts import terms as terms
from service.timecontrol import (
    as_seated,
    weekends_in_utc,
)
from service.tournaments.table import ShownTable
from service.views import (
    RATING_MEANING,
    HistoryView,
    LeaderboardPage,
    MatchView,
    PlayerStats,
    RatingUpdate,
    ResultView,
)

COLOUR = discord.Colour(0x2E7D5B)
BOARD_FILE = "board.png"


def mention(user_id: int | None) -> Words:
    """``<@id>``; the computer player by its name, an imported player as one (neither
    has a Discord account: ``seat_lines`` names imported players)."""
    if user_id is not None and is_computer(user_id):
        return computer_title(user_id)
    if is_imported(user_id):
        return imported_title("")
    return f"<@{user_id}>" if user_id else _("an open seat")


def mentions(user_ids: Iterable[int]) -> Words:
    """Mentions listed the reader's way (``<@1>, <@2> and <@3>``)."""
    return listing(mention(u) for u in user_ids)


def relative(when: datetime | None) -> Words:
    """A Discord timestamp shown as 'in 2 days' in each reader's own locale."""
    if when is None:
        return _("no deadline")
    return f"<t:{int(when.timestamp())}:R>"


def game_of(m: MatchView) -> Words:
    """The match's game in the reader's words."""
    return game_name(m.game, m.game_name)


def game_title(m: MatchView) -> Words:
    """The game with the options that set it apart, as the game menu says it:
    ``'Alquerque grande · 4 players · teams'``."""
    return choice_title(m.game, m.options, fallback=m.game_name)


def moment(when: datetime) -> Words:
    """A Discord timestamp 'in 2 days (26 November 2026 14:00)', each reader's own time,
    in the language's brackets (Chinese: ``（…）``)."""
    stamp = int(when.timestamp())
    # TRANSLATORS: a moment as Discord shows it, each reader's own time: "in 2 days
    # (26 November 2026 14:00)"
    return _("{relative} ({absolute})", relative=f"<t:{stamp}:R>", absolute=f"<t:{stamp}:f>")


def clock_status(m: MatchView, now: datetime | None = None,
                 viewer: int | None = None) -> Words:
    """When the player to move runs out of time (exact, as Discord timestamps), a lapsed
    claim-win clock, and who is on vacation in this match (now: Discord's clock). Seats
    moving at once on their own clocks (Querni's set-up): ``viewer``'s own deadline when
    he is one of them, else each one's when they differ."""
    now = now or discord.utils.utcnow()
    parts: list[Words] = []
    own = dict(m.own_deadlines)
    if viewer in own:
        parts.append(moment(own[viewer]))
    elif m.deadlines_differ:
        parts.append(joined(*(_("{player}: {deadline}", player=mention(u), deadline=moment(d))
                              for u, d in m.own_deadlines), separator=", "))
    elif m.deadline is not None:
        parts.append(moment(m.deadline))
    elif m.lapsed is not None:
        parts.append(_("time ran out {when}; waiting for a claim",
                       when=f"<t:{int(m.lapsed.timestamp())}:R>"))
    else:
        parts.append(relative(None))
    for user, until in m.away:
        if until > now:
            parts.append(_("{player} is on vacation until {until}",
                           player=mention(user), until=moment(until)))
    paused = m.pause_ends(now)
    if paused is not None:
        parts.append(_("paused by agreement until {until}", until=moment(paused)))
    utc = [u for u, zone in m.time_zones if zone is None]
    if m.weekends and utc:
        parts.append(weekends_in_utc(mentions(utc)))
    return joined(*parts, separator=" · ")


def seat_lines(m: MatchView, loc: str, *, ratings: bool = True) -> str:
    """A line per seat: whose move, the seat's colour, its player, his rating (not with
    ``ratings`` False), his team and whether he is out."""
    def mate(user: int) -> Words:
        """A team-mate: his mention, an imported one by his record's name or his seat
        (``mention`` knows neither)."""
        held = next((x for x in m.seats if x.user_id == user), None)
        if held is not None and is_imported(user):
            return imported_title(held.player, held.name)
        return mention(user)

    lines = []
    for s in m.seats:
        mates = m.team_mates(s.user_id) if s.user_id is not None else ()
        parts: list[Words] = []
        rating = seat_rating(m, s) if ratings else None
        if rating is not None:
            parts.append(rating)
        if s.team is not None and m.seat_count > 2:
            parts.append(_("team {team} with {players}", team=s.team + 1,
                           players=listing(mate(u) for u in mates)) if mates
                         else _("team {team}", team=s.team + 1))
        if s.out:
            parts.append(_("out"))
        arrow = "▶ " if s.user_id is not None and s.user_id in m.to_move else ""
        extra = "".join(f" · {render(p, loc)}" for p in parts)
        held = imported_title(s.player) if is_imported(s.user_id) else mention(s.user_id)
        player = as_seated(held, m.stand_in_since(s.user_id), m.skipped_since(s.user_id))
        named = _("{seat}: {player}", seat=f"**{render(seat_colour(s.name), loc)}**",
                  player=player)  # the language's colon (紅方：)
        lines.append(f"{arrow}{render(named, loc)}{extra}")
    return "\n".join(lines) or "—"


def all_arranged(m: MatchView) -> bool:
    """Whether every seat of a game that began with a set-up (Querni ``choose``) has
    handed in its arrangement: the set-up is over."""
    return m.arranged > 0 and m.arranged >= m.seat_count


def sides_text(m: MatchView) -> Words:
    """``'@alice and @carol vs @bob and @dave'`` (teams), else every player."""
    sides = m.sides()
    if len(sides) > 1 and any(len(side) > 1 for side in sides):
        return versus([mentions(side) for side in sides])
    return mentions(m.players())


def versus(parts: list[Words]) -> Words:
    """'alice vs bob' in the reader's language ('a vs b vs c' for more than two).

    >>> versus(["alice", "bob", "carol"]).render("en-US")
    'alice vs bob vs carol'
    """
    shown: Words = parts[0]
    for part in parts[1:]:
        # TRANSLATORS: two players or sides facing each other in a thread name or title
        shown = _("{one} vs {other}", one=shown, other=part)
    return shown


def thread_name(m: MatchView, names: Mapping[int, Words], loc: str) -> str:
    """'Xiangqi: alice vs bob', a teams match by its teams ('alice and carol vs bob and
    dave', as ``sides_text``); at most 100 characters, Discord's limit. A mention does
    not render in a thread's name: a player ``names`` lacks is named by his seat's
    colour (``texts.player_words``), never by his id."""
    def name(u: int) -> Words:
        return names.get(u) or player_words(m, None, u)
    sides = m.sides()
    if len(sides) > 1 and any(len(side) > 1 for side in sides):
        parts: list[Words] = [listing(name(u) for u in side) for side in sides]
    else:
        parts = [name(u) for u in m.players()]
    shown: Words = versus(parts) if parts else _("open")
    return render(_("{game}: {players}", game=game_of(m), players=shown), loc)[:100]


def played(by: Words | None, move: str) -> Text:
    """'alice played **h3-e3 (C2.5)**' (who played it left out when unknown).

    >>> played("alice", "h3-e3 (C2.5)").render("en-US")
    'alice played **h3-e3 (C2.5)**'
    >>> played(None, "h3-e3").render("en-US")
    'Last move: **h3-e3**'
    """
    shown = move_display(move)
    if by:
        return _("{player} played **{move}**", player=by, move=shown)
    return _("Last move: **{move}**", move=shown)


def rating_line(r: RatingUpdate, loc: str) -> str:
    """'<@7> 12.3 → 14.1 (+1.8), #2': the rating number /leaderboard and /stats show."""
    return render(r.text(render(mention(r.user_id), loc)), loc)


def board_file(png: bytes, alt: str, filename: str = BOARD_FILE) -> discord.File:
    """The board as an attachment whose description is the alt text screen readers read."""
    return discord.File(io.BytesIO(png), filename=filename, description=alt[:1024])


def move_count(m: MatchView) -> Text:
    """Where a match stands in moves, as players count them (``MatchView.moves_played``:
    a Querni arrangement, a resignation or a timeout is none), as the board's caption
    ("after 4 moves") and the console's "move 5" count: the move to play, or once over
    the moves played. The record's plies (which count those) are the stepper's."""
    if m.is_over:
        return _n("After {count} move", "After {count} moves", m.moves_played)
    return _("Move {number}", number=m.moves_played + 1)


def board_embed(m: MatchView, loc: str, *, headline: Words | None = None,
                image: bool = True) -> discord.Embed:
    e = discord.Embed(title=render(_("{title} · match {match}", title=game_title(m),
                                     match=m.id), loc),
                      colour=COLOUR, description=render(headline, loc) if headline else None)
    e.add_field(name=render(_("Players"), loc), value=seat_lines(m, loc), inline=True)
    state: Words
    if m.is_over:
        state = _("Over: {reason}", reason=reason(m.result.reason) if m.result
                  else status(m.status.value))
    elif m.to_move:
        state = _("{players} to move, {deadline}", players=mentions(m.to_move),
                  deadline=clock_status(m))
    else:
        state = status(m.status.value)
    e.add_field(name=render(move_count(m), loc), value=render(state, loc), inline=True)
    if m.draw_offer_by and not m.is_over:
        e.add_field(name=render(_("Draw offer"), loc),
                    value=render(_("from {player}", player=mention(m.draw_offer_by)), loc),
                    inline=False)
    if image:
        e.set_image(url=f"attachment://{BOARD_FILE}")
    e.set_footer(text=render(terms(m), loc))
    return e


def challenge_text(m: MatchView, by: int, to: Sequence[int]) -> Words:
    what = _("**{title}** ({terms})", title=game_title(m), terms=terms(m))
    if to:
        said = _("{players}: {challenger} challenges you to {game}.", players=mentions(to),
                 challenger=mention(by), game=what)
        more = m.seat_count - len(to) - len(m.joined)  # (the computer sits at once)
        if more > 0:
            return joined(said, _n("{count} more seat is open: anyone may join.",
                                   "{count} more seats are open: anyone may join.", more))
        return said
    if m.seat_count > 2:
        return _("{challenger} is looking for players for {game}. Click **Join** to play.",
                 challenger=mention(by), game=what)
    return _("{challenger} is looking for an opponent for {game}. Click **Join** to play.",
             challenger=mention(by), game=what)


def result_text(m: MatchView, result: ResultView | None, why: str) -> Words:
    """The post announcing how the match ended (``locales.results``: one place for it)."""
    if result is None:  # aborted or broken: the event's reason key is all there is
        return result_sentence("post", ResultKind.ABORTED, reason=reason(why),
                               reason_is_text=True, match=m.id, game=game_of(m))
    places = joined(*(_("{place}. {players}", place=i + 1, players=mentions(g))
                      for i, g in enumerate(result.ranking)), separator="; ")
    return result_sentence("post", result.kind, reason=result.reason,
                           winners=mentions(result.winners),
                           winner_count=len(result.winners), places=places, match=m.id,
                           game=game_of(m))


def record_counts(wins: int, losses: int, draws: int) -> Text:
    """``'3W 1L 0D'``."""
    # TRANSLATORS: wins, losses, draws with one-letter abbreviations (3W 1L 0D)
    return _("{wins}W {losses}L {draws}D", wins=wins, losses=losses, draws=draws)


def games_embed(user_id: int, matches: Sequence[MatchView], loc: str,
                now: datetime | None = None) -> discord.Embed:
    e = discord.Embed(title=render(_("Your matches"), loc), colour=COLOUR)
    waiting = [m for m in matches if user_id in m.to_move]
    others = [m for m in matches if user_id not in m.to_move]
    lines = []
    for m in [*waiting, *others]:
        where = f"<#{m.thread_id or m.channel_id}>"
        state: Words
        skipped = m.skipped_since(user_id)
        if m.status.is_waiting and user_id in m.invited:
            state = _("**you're invited**: answer with the buttons")
        elif skipped is not None and m.status.is_live:  # on_timeout:skip (issue 43)
            state = _("your time ran out: your turns are skipped since move {move}",
                      move=skipped)
        elif m.status.is_waiting:
            state = _("waiting for players ({joined}/{seats})", joined=len(m.joined),
                      seats=m.seat_count)
        elif user_id in m.to_move:
            state = _("**your move**, {deadline}", deadline=clock_status(m, now, user_id))
        else:
            state = _("{players} to move, {deadline}", players=mentions(m.to_move),
                      deadline=clock_status(m, now))
        mates = m.team_mates(user_id)
        opponents = [u for u in m.players() if u != user_id and u not in mates]
        told: list[Words] = [game_of(m)]  # joined: in Chinese, no space before 對
        if mates:
            told.append(_("with {players}", players=mentions(mates)))
        if opponents:
            shown = listing(as_seated(mention(u), m.stand_in_since(u), m.skipped_since(u))
                            for u in opponents)
            told.append(_("vs {players}", players=shown))
        lines.append(f"`{m.id}` {render(joined(*told), loc)} — {render(state, loc)} · "
                     f"{where}")
    e.description = whole_lines(lines, loc) if lines else \
        render(_("No matches here yet. Start one with `{challenge}`.",
                 challenge=command("challenge")), loc)
    return e


def whole_lines(lines: Sequence[str], loc: str, limit: int = 4096) -> str:
    """``lines`` as one text within ``limit`` (an embed's description: 4096): whole
    lines only (a line cut short breaks its mentions and links), the rest counted.

    >>> whole_lines(["a" * 20, "b" * 20, "c" * 20], "en-US", limit=61)
    'aaaaaaaaaaaaaaaaaaaa\\nbbbbbbbbbbbbbbbbbbbb\\n… and 1 more match.'
    >>> whole_lines(["a" * 20, "b" * 20, "c" * 20], "en-US", limit=60)
    'aaaaaaaaaaaaaaaaaaaa\\n… and 2 more matches.'
    """
    def more(count: int) -> str:
        return render(_n("… and {count} more match.", "… and {count} more matches.",
                         count, count=count), loc)

    kept: list[str] = []
    for n, line in enumerate(lines):
        rest = len(lines) - n - 1
        tail = f"\n{more(rest)}" if rest else ""
        if len("\n".join([*kept, line]) + tail) > limit:
            return "\n".join([*kept, more(len(lines) - n)])
        kept.append(line)
    return "\n".join(kept)


def leaderboard_embed(page: LeaderboardPage, title: Words, loc: str) -> discord.Embed:
    e = discord.Embed(title=render(_("Leaderboard · {ladder}", ladder=title), loc),
                      colour=COLOUR)
    if not page.entries:
        e.description = render(_("Nobody is rated on this ladder yet: play a rated match!"),
                               loc)
    else:
        e.description = "\n".join(
            f"**{x.rank}.** {render(mention(x.user_id), loc)} — {render(x.shown, loc)} "
            f"({render(record_counts(x.wins, x.losses, x.draws), loc)})"
            for x in page.entries)
        e.description += f"\n\n{render(RATING_MEANING, loc)}"
    e.set_footer(text=render(_n("Page {page} of {pages} · {count} rated player",
                                "Page {page} of {pages} · {count} rated players",
                                page.total, page=page.page, pages=page.pages), loc))
    return e


def stats_embed(stats: PlayerStats, titles: dict[str, Words], loc: str) -> discord.Embed:
    summary = _("{player} — {wins}, {losses}, {draws}; {active}",
                player=mention(stats.user_id),
                wins=_n("{count} win", "{count} wins", stats.wins),
                losses=_n("{count} loss", "{count} losses", stats.losses),
                draws=_n("{count} draw", "{count} draws", stats.draws),
                active=_n("{count} active match", "{count} active matches",
                          stats.active_matches))
    e = discord.Embed(title=render(_("Stats"), loc), colour=COLOUR,
                      description=render(summary, loc))
    for key, x in zip(stats.ladder_keys, stats.ladders, strict=False):
        line = _("#{rank} · rating {rating} (μ {mu}, σ {sigma})", rank=x.rank, rating=x.shown,
                 mu=decimal(x.mu), sigma=decimal(x.sigma, 2))
        e.add_field(name=render(titles.get(key, key), loc),
                    value=f"{render(line, loc)}\n"
                          f"{render(record_counts(x.wins, x.losses, x.draws), loc)}",
                    inline=True)
    if any(stats.against_computer):
        won, drawn, lost = stats.against_computer
        counts = render(record_counts(won, lost, drawn), loc)
        if stats.with_hints:
            counts += "\n" + render(_n("Hints taken in {count} of them.",
                                        "Hints taken in {count} of them.", stats.with_hints),
                                     loc)
        e.add_field(name=render(_("Against the computer (casual)"), loc), value=counts,
                    inline=False)
    return e


def history_text(h: HistoryView, loc: str,
                 player: Callable[[int], Words] = mention) -> str:
    """The moves of ``h`` with who played each (``player``: his mention, or an imported
    player's name)."""
    lines = []
    for ply, who, _canonical, display in h.entries:
        shown = render(move_display(display), loc)
        lines.append(f"{ply + 1}. {shown}" + (f" ({render(player(who), loc)})" if who else ""))
    body = "\n".join(lines) or render(_("No moves yet."), loc)
    if len(body) > 1800:
        body = "…\n" + body[-1800:].split("\n", 1)[-1]
    title = render(_("**{title}** · match {match}", title=game_title(h.match),
                     match=h.match.id), loc)
    return f"{title}\n{body}"


def standings_embed(table: ShownTable, loc: str, *, image: bool = True) -> discord.Embed:
    """A tournament's standings: the first 20 places (the table image has them all,
    attached as ``standings.png`` when ``image``)."""
    lines = [render(_("**{place}.** {player} · {points} pts", place=r[0], player=r[1],
                      points=r[2]), loc) for r in table.rows[:20]]
    embed = discord.Embed(title=table.title, description="\n".join(lines) or "-")
    embed.set_footer(text=table.subtitle)
    if image:
        embed.set_image(url="attachment://standings.png")
    return embed


def season_ended(event: SeasonEnded, loc: str) -> tuple[str, discord.Embed]:
    """The announcement of a season's end in ``loc``: a line, and the top of each final
    board."""
    from service.seasons import Schedule, SeasonRecord

    season = SeasonRecord(event.match.guild_id, event.season, Schedule(event.schedule),
                          event.starts_at, event.ends_at, event.match.channel_id)
    content = render(_("🏁 {season} is over: its final leaderboards are archived, and a new "
                       "season begins where seasons go on (the all-time leaderboards go on).",
                       season=season.name()), loc)
    e = discord.Embed(title=render(season.name(), loc), colour=COLOUR)
    if not event.boards:
        e.description = render(_("No rated game ended in this season."), loc)
    for board in event.boards[:25]:
        lines = [f"**{x.rank}.** {render(mention(x.user_id), loc)} — {render(x.shown, loc)} "
                 f"({render(record_counts(x.wins, x.losses, x.draws), loc)})"
                 for x in board.entries]
        if board.total > len(board.entries):
            lines.append(render(_n("and {count} more player", "and {count} more players",
                                   board.total - len(board.entries)), loc))
        e.add_field(name=render(ladder_name(board.ladder), loc),
                    value="\n".join(lines)[:1024], inline=False)
    with plain_commands():  # a footer shows a mention written out
        # the game left to the reader: /leaderboard cannot go without it
        e.set_footer(text=render(_("Each season's ratings start afresh; see them with "
                                   "{leaderboard}", leaderboard=command(
                                       "leaderboard", game="", season=event.season)), loc))
    return content, e
