"""The HTML of a server's page (leaderboards, tournaments, matches in play) and of a
player's page (his ratings and newest games in that server), in the reader's language.
Every value goes through ``esc``; a name nobody knows is never shown as an id nor as
"?": a leaderboard row's and a player page's title say "A player" (the words
``texts.player_words`` has for a user without a seat), a tournament's pairings "Player
3" by his place in the tournament's list, as its standings do.
Matches are linked by their signed spectator links (``link``)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from urllib.parse import urlencode

from bot.web.pages import esc, page
from locales.i18n import Words, _, capitalized, render
from locales.terms import game_name, ladder_name
from service import texts
from service.imported_seats import imported_title, seat_player
from service.views import LeaderboardEntry, MatchView
from service.web import WebMember, WebServer

MatchLink = Callable[[int], str]
"""A match's page address by its id (its signed spectator link: the page's server)."""


def _name(name: str, locale: str) -> str:
    """``name``; "A player" in ``locale`` when nobody knows it (never "?" nor an id)."""
    # the word for a player without a seat (``texts.player_words``), starting a cell
    return name or render(capitalized(_("a player")), locale)


def _counts(x: LeaderboardEntry) -> Words:
    # TRANSLATORS: wins, losses, draws with one-letter abbreviations (3W 1L 0D)
    return _("{wins}W {losses}L {draws}D", wins=x.wins, losses=x.losses, draws=x.draws)


def _standing(m: MatchView, names: Sequence[str], locale: str) -> str:
    """Where a listed match stands, as its board says it: who is to move while it is
    played, how it ended once it is over ('White (alice) won (opponent resigned)')."""
    known = list(names) if any(names) else None
    if m.status.is_live:
        seats = [s.seat for s in m.seats if s.user_id is not None and s.user_id in m.to_move]
        if not seats:
            return ""
        said = render(_("{players} to move", players=texts.who(m, seats, known)), locale)
    else:
        said = render(texts.result_words(m, known), locale)
    return f' <span class="standing">· {esc(said)}</span>'


def _matches(found: Sequence[tuple[MatchView, tuple[str, ...]]], link: MatchLink,
             locale: str) -> str:
    items = []
    for m, names in found:
        title = render(_("Match #{match}: {game}", match=m.id,
                         game=game_name(m.game, m.game_name)), locale)
        players = " – ".join(_name(render(seat_player(s, n), locale), locale)
                             for s, n in zip(m.seats, names, strict=False))
        items.append(f'<li><a href="{esc(link(m.id))}?{urlencode({"lang": locale})}">'
                     f'{esc(title)}</a> '
                     f'<span class="who">{esc(players)}</span>{_standing(m, names, locale)}'
                     "</li>")
    return f'<ul class="list">{"".join(items)}</ul>'


def server_page(server: WebServer, link: MatchLink, locale: str, path: str) -> str:
    """A server's page (see the module docstring)."""
    title = render(_("This server's games"), locale)
    parts = [f"<h1>{esc(title)}</h1>"]
    if server.live:
        live = render(_("Matches in play"), locale)
        parts.append(f'<section><h2>{esc(live)}</h2>'
                     f'{_matches(server.live, link, locale)}</section>')
    boards = []
    rating, player = render(_("Rating"), locale), render(_("Player"), locale)
    for board in server.ladders:
        when = _("all time") if board.season is None else _("season {number}",
                                                              number=board.season)
        heading = render(_("{ladder} · {when}", ladder=ladder_name(board.ladder),
                           when=when), locale)
        rows = "".join(
            f"<tr><td>{x.rank}</td><td>{esc(_name(name, locale))}</td>"
            f"<td>{esc(render(x.shown, locale))}</td>"
            f"<td>{esc(render(_counts(x), locale))}</td></tr>" for x, name in board.entries)
        boards.append(f'<h3>{esc(heading)}</h3><table><thead><tr><th>#</th>'
                      f'<th>{esc(player)}</th><th>{esc(rating)}</th><th></th></tr></thead>'
                      f'<tbody>{rows}</tbody></table>')
    if boards:
        said = render(_("Leaderboards"), locale)
        parts.append(f'<section class="ladders"><h2>{esc(said)}</h2>{"".join(boards)}'
                     "</section>")
    tournaments = []
    for t in server.tournaments:
        shown = t.table.shown(locale)
        head = "".join(f"<th>{esc(h)}</th>" for h in shown.headers)
        body = "".join("<tr>" + "".join(f"<td>{esc(c)}</td>" for c in row) + "</tr>"
                       for row in shown.rows)
        pairs = []
        for g, first, second in t.pairings:
            who = f"{render(first, locale)} – {render(second, locale)}" \
                if g.second is not None else render(first, locale)
            watch = ""
            if g.match_id is not None:
                said = render(_("match #{match}", match=g.match_id), locale)
                watch = (f' <a href="{esc(link(g.match_id))}?'
                         f'{urlencode({"lang": locale})}">{esc(said)}</a>')
            pairs.append(f"<li>{esc(who)}{watch}</li>")
        round_words = ""
        if pairs:
            heading = render(_("Round {round}", round=t.record.round), locale)
            round_words = f'<h4>{esc(heading)}</h4><ul class="list">{"".join(pairs)}</ul>'
        tournaments.append(f'<h3>{esc(shown.title)}</h3><p>{esc(shown.subtitle)}</p>'
                           f'<div class="scroll"><table><thead><tr>{head}</tr></thead>'
                           f'<tbody>{body}</tbody></table></div>{round_words}')
    if tournaments:
        said = render(_("Tournaments"), locale)
        parts.append(f'<section class="tournaments"><h2>{esc(said)}</h2>'
                     f'{"".join(tournaments)}</section>')
    if len(parts) == 1:
        nothing = render(_("Nothing to show yet."), locale)
        parts.append(f"<p>{esc(nothing)}</p>")
    return page(title, "".join(parts), locale, switch=path)


def member_page(member: WebMember, link: MatchLink, locale: str, path: str) -> str:
    """A player's page (see the module docstring)."""
    title = render(imported_title(member.name, member.seat), locale) if member.imported \
        else _name(member.name, locale)
    parts = [f"<h1>{esc(title)}</h1>"]
    if member.ratings:
        rating, board = render(_("Rating"), locale), render(_("Leaderboards"), locale)
        rows = "".join(
            f"<tr><td>{esc(render(ladder_name(ladder), locale))}</td><td>{x.rank or ''}</td>"
            f"<td>{esc(render(x.shown, locale))}</td>"
            f"<td>{esc(render(_counts(x), locale))}</td></tr>" for ladder, x in member.ratings)
        parts.append(f'<section><h2>{esc(board)}</h2><table><thead><tr><th></th><th>#</th>'
                     f'<th>{esc(rating)}</th><th></th></tr></thead><tbody>{rows}</tbody>'
                     "</table></section>")
    if member.recent:
        recent = render(_("Recent games"), locale)
        parts.append(f'<section><h2>{esc(recent)}</h2>'
                     f'{_matches(member.recent, link, locale)}</section>')
    return page(title, "".join(parts), locale, switch=path)
