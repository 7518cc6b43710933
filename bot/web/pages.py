"""The HTML of the web pages, written out in Python (no template engine, no build step):
every value from a match goes through ``esc`` and every sentence through the catalogues,
in the reader's language.

A match page works without JavaScript (the step buttons are links to ``?ply=N``); with it
(``static/match.js``) stepping swaps the picture in place and new moves arrive live.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from html import escape
from typing import TYPE_CHECKING, Any
from urllib.parse import urlencode

from bot.web.clock import Note, clock_notes, seat_notes, seated_name
from bot.web.graph import analysis_section
from locales.i18n import (
    LOCALES,
    Moment,
    Text,
    Words,
    _,
    _n,
    capitalized,
    command,
    listing,
    render,
)
from locales.terms import choice_title, move_display, seat_colour
from service import MatchStatus, texts
from service.imported_seats import imported_title, is_imported, seat_player
from service.plies import PlyBoard, at_ply, headline
from service.states import Recent
from service.views import GameRecord, MatchView, SeatView
from service.web import WebMatch

if TYPE_CHECKING:
    from bot.web.taps import BoardTaps, SetupTaps

LANGUAGE_NAMES = {"en-US": "English (US)", "en-GB": "English (UK)", "de": "Deutsch",
                  "es-ES": "Español (España)", "es-419": "Español (Latinoamérica)",
                  "sv-SE": "Svenska", "zh-CN": "中文（简体）", "zh-TW": "中文（繁體）"}
"""Each language named in itself (a reader looks for his own)."""


MARK = "\ue000"
"""Stands for markup inside a translated sentence until it is escaped (private use)."""


def esc(text: object) -> str:
    return escape(str(text), quote=True)


FORM_KB = 64
"""The most a request's body may hold, in KB (``bot.web.app``: a form to play)."""
SAME_ADDRESS = "?"
"""A language switch to the address the page was asked at (``page``'s ``switch``): its
links are the query alone (``?lang=de``), never a path written back from the request."""


def page(title: str, body: str, locale: str, *, scripts: Sequence[str] = (),
         switch: str = "", stay: dict[str, str] | None = None) -> str:
    """A whole page: the same head everywhere (our style sheet only; strict CSP is sent
    as a header), ``body`` in ``<main>``, a language switch when ``switch`` is a path
    or :data:`SAME_ADDRESS` (``stay``: the query that keeps the reader where he is, the
    ply he stepped to)."""
    script_tags = "".join(f'<script src="/static/{esc(s)}" defer></script>' for s in scripts)
    languages = ""
    if switch:
        current = ' aria-current="true"'
        to = "" if switch == SAME_ADDRESS else switch
        links = " ".join(
            f'<a href="{esc(to)}?{esc(urlencode({**(stay or {}), "lang": x}))}" '
            f'lang="{esc(x)}" hreflang="{esc(x)}"{current if x == locale else ""}>'
            f'{esc(LANGUAGE_NAMES[x])}</a>'
            for x in LOCALES)
        label = render(_("Language"), locale)
        languages = f'<nav class="languages" aria-label="{esc(label)}">{links}</nav>'
    return (f'<!doctype html><html lang="{esc(locale)}"><head><meta charset="utf-8">'
            '<meta name="viewport" content="width=device-width, initial-scale=1">'
            f'<title>{esc(title)}</title><link rel="stylesheet" href="/static/site.css">'
            f'{script_tags}</head><body><main id="main">{body}</main>'
            f'<footer>{languages}<p>Tablero</p></footer></body></html>')


def error_page(status: int, locale: str, words: Words | None = None,
               back: tuple[str, Words] | None = None, *, switch: str = "",
               stay: dict[str, str] | None = None) -> str:
    """A plain page for a refused or failed request: what happened, nothing internal;
    ``words``: what was wrong with it, when it can be said (instead of the status's
    general words); ``back``: a link (an address and its words) to where to go instead;
    ``switch`` and ``stay``: the language switch, as :func:`page`'s (a reader sent a
    link in a language he does not read can read why it does not work)."""
    said: Words
    if status == 404:
        title, said = _("Not found"), _("there is nothing here: the link may be wrong, or "
                                        "its server does not show its matches on the web")
    elif status == 403:
        title, said = _("This link does not work"), _(
            "it has expired or was revoked, or the request did not come from its page: "
            "ask for a new link with {web}", web=command("web"))
    elif status == 429:
        title, said = _("Too many requests"), _("wait a moment and try again")
    elif status == 413:
        title, said = _("Too large"), _("what was sent is larger than these pages take "
                                        "(at most {limit} KB)", limit=FORM_KB)
    elif status < 500:
        title, said = _("Bad request"), _("this address cannot be read")
    else:
        title, said = _("Something went wrong"), _("the page could not be made; try again "
                                                    "in a minute")
    head = render(title, locale)
    # the catalogue's clause, made a sentence of its own on the page
    text = render(capitalized(said if words is None else words), locale)
    link = "" if back is None else \
        f'<p><a href="{esc(back[0])}">{esc(render(capitalized(back[1]), locale))}</a></p>'
    return page(head, f"<h1>{esc(head)}</h1><p>{esc(text)}</p>{link}", locale,
                switch=switch, stay=stay)


def home_page(locale: str) -> str:
    """What is at ``/``: what these pages are and how one comes to a match's page (its
    link, from ``/web`` in Discord): there is no list of matches to browse."""
    title = render(_("Tablero's match pages"), locale)
    what = render(_("Tablero is a Discord bot for board games. Here it shows the matches "
                    "of the servers that turned its web pages on, to watch them or to "
                    "play them."), locale)
    how = render(_("Each match has a page of its own, reached by its link: ask for it in "
                   "Discord with {web}.", web=command("web")), locale)
    return page(title, f"<h1>{esc(title)}</h1><p>{esc(what)}</p><p>{esc(how)}</p>",
                locale, switch="/")


def board_alt(found: WebMatch, ply: int, locale: str) -> str:
    """The alt text of the board after ``ply`` plies, as in Discord (``texts.describe``)
    of the match as it stood then (``plies.at_ply``)."""
    return _alt(found, at_ply(found.record, ply), locale)


def _alt(found: WebMatch, board: PlyBoard, locale: str) -> str:
    names = list(found.names) if any(found.names) else None
    return render(texts.describe(board.match, board.position, names, board.moves), locale)


def _stepper_who(found: WebMatch, board: PlyBoard) -> Words | None:
    """The player of the entry that led to ``board``, named as the page names him: the
    seat's holder then (a continued match's first plies: the imported record's), by his
    colour where no name is known; None at the start or for an entry of nobody's."""
    step = board.step
    if step is None or step.seat is None or step.user_id is None:
        return None
    held = next((s for s in board.match.seats if s.seat == step.seat), None)
    if held is None:
        return None
    today = found.record.match.seats
    name = found.names[held.seat] if held.seat < len(found.names) and \
        held.seat < len(today) and today[held.seat].user_id == held.user_id else ""
    named = seat_player(held, name)
    return named if named else seat_colour(held.name)


@dataclass(frozen=True, slots=True)
class Stood:
    """What the page says of the players at a ply (the match as it stood then,
    ``plies.at_ply``): the seats to move, the seats out and the seats whose name says a
    timeout's stand-in or skip. Each ply's link carries them, so the page's script steps
    by the same facts the server wrote the page with."""

    turn: frozenset[int]
    out: frozenset[int]
    aside: frozenset[int]

    @classmethod
    def of(cls, match: MatchView) -> Stood:
        to_move = {s.seat for s in match.seats if s.user_id is not None
                   and s.user_id in match.to_move} if match.status.is_live else set()
        aside = {s.seat for s in match.seats
                 if match.stand_in_since(s.user_id) is not None
                 or match.skipped_since(s.user_id) is not None}
        return cls(frozenset(to_move), frozenset(s.seat for s in match.seats if s.out),
                   frozenset(aside))

    def attributes(self, prefix: str = "data-") -> str:
        """The facts as attributes (``data-turn="1"``; none for an empty one)."""
        return "".join(f' {prefix}{name}="{" ".join(map(str, sorted(seats)))}"'
                       for name, seats in (("turn", self.turn), ("out", self.out),
                                           ("aside", self.aside)) if seats)


STEPPERS = 256
"""Matches whose stepper (:class:`Stepper`) a web process keeps, by version."""
STEPPER_WORDS = 8
"""The languages and names of one match's stepper kept in words (:meth:`Stepper.said`)."""
TOTAL = "\ue001"
"""Stands for the record's moves in a ply's line kept (``After move 3 of {total}``) until
the line is said: the number grows with every move, the rest of the line does not."""
TODAY = frozenset({
    "ply", "to_move", "last_move", "last_move_by", "specials", "result",  # as it stood
    "deadline", "position_text", "draw_offer_by", "draw_accepted", "version", "claim_win",
    "lapsed", "away", "takeback_by", "own_deadlines", "paused", "pause_offer_by",
    "pause_offer_days", "notify_by_dm"})
"""The facts of a match that play changes and an earlier ply's board does not show:
``plies.as_it_stood`` gives that ply's own (whose move, the last move...), and the rest
are today's (the clock, a draw offer, the stored version), said at the latest ply only."""


def _settled(match: MatchView) -> MatchView:
    """What an earlier ply's board and words are made of besides its position and entry
    (the players, their seats, stand-ins and skips, the status...): the match with the
    facts of :data:`TODAY` blanked (compared, never shown)."""
    return replace(match, **_BLANK)


_BLANK: dict[str, Any] = dict.fromkeys(TODAY)


@dataclass(frozen=True, slots=True)
class Said:
    """What the page says of each ply in one language with one set of names: the board's
    words (``alts``), where it is in moves and who played it (``saids``), and each
    entry of the moves list (``moves``: its mover's colour and how it reads);
    ``lines``: each ply's ``saids`` with :data:`TOTAL` for the record's moves (the
    start's is ``saids``' own), kept to say the lines again when the record grows."""

    alts: tuple[str, ...]
    saids: tuple[str, ...]
    moves: tuple[tuple[str, str], ...]
    lines: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Stepper:
    """What a match page needs of each ply of one version of a match (``record``): the
    match as it stood at each ply (``plies.at_ply``, the stepper's one notion) and the
    page's facts of it, made once per version (:class:`Steppers`), not at each request,
    and the words of it, once per language and names. ``before``: the words of the
    version it was played on from (:meth:`played_on`) and the plies they still hold."""

    record: GameRecord
    boards: tuple[PlyBoard, ...]
    stood: tuple[Stood, ...]
    _said: Recent[tuple[str, tuple[str, ...]], Said] = field(
        default_factory=lambda: Recent(STEPPER_WORDS))
    before: tuple[Recent[tuple[str, tuple[str, ...]], Said], int] | None = None

    @classmethod
    def of(cls, record: GameRecord) -> Stepper:
        boards = tuple(at_ply(record, n) for n in range(len(record.plies) + 1))
        return cls(record, boards, tuple(Stood.of(b.match) for b in boards))

    def played_on(self, record: GameRecord) -> Stepper | None:
        """The stepper of ``record``, a later version of this one's match whose plies
        are this one's (the same replayed plies: ``states.Replays`` played it on) and
        more, from the same start, the players and the match otherwise as they were
        (:func:`_settled`): this one's boards but the last kept (the last is the match as
        it stands now, no longer so), its words made again only for the new plies.
        None when it is not such a version (a takeback, an undo, the match ended, a
        player joined...): ``Stepper.of`` makes it whole."""
        old, kept = self.record, len(self.record.plies)
        if len(record.plies) < kept or record.start is not old.start \
                or record.record_plies != old.record_plies \
                or record.record_seats != old.record_seats \
                or any(a is not b for a, b in zip(old.plies, record.plies, strict=False)) \
                or _settled(record.match) != _settled(old.match):
            return None
        last = len(record.plies)
        total, live = record.moves_at(last), record.match.status.is_live
        boards = self.boards[:kept]
        if boards and (boards[0].last, boards[0].total, boards[0].live) != (last, total, live):
            boards = tuple(replace(b, last=last, total=total, live=live) for b in boards)
        new = tuple(at_ply(record, n) for n in range(kept, last + 1))
        return Stepper(record, boards + new, self.stood[:kept] + tuple(
            Stood.of(b.match) for b in new), before=(self._said, kept))

    def said(self, found: WebMatch, locale: str) -> Said:
        """The words of every ply in ``locale`` with ``found``'s names."""
        key = (locale, found.names)
        kept = self._said.get(key, None)  # (words do not change within a version)
        if kept is not None:
            return kept
        # the earlier version's words of the plies it shares, where it has them
        earlier = self.before[0].get(key, None) if self.before is not None else None
        start = self.before[1] if earlier is not None and self.before is not None else 0
        seats = self.record.match.seats
        moves = list(earlier.moves[:start]) if earlier is not None else []
        for p in self.record.plies[start:]:
            # the mover's colour beside a move or an arrangement; an entry that is no move
            # (a resignation, a timeout, a skip) names its seat itself ('Black resigns')
            by_mover = p.move is not None or self.boards[p.ply + 1].setup
            who = render(seat_colour(seats[p.seat].name), locale) \
                if by_mover and p.seat is not None and p.seat < len(seats) else ""
            moves.append((who, render(move_display(p.display), locale)))
        fresh = self.boards[start:]
        alts = (earlier.alts[:start] if earlier is not None else ()) + tuple(
            _alt(found, b, locale) for b in fresh)
        # each ply's line with a mark for the record's moves, said with today's number;
        # the start's says the number itself (its plural form)
        lines = (earlier.lines[:start] if earlier is not None else ()) + tuple(
            render(headline(b, _stepper_who(found, b), total=TOTAL), locale)
            for b in fresh)
        total = str(self.boards[0].total)
        saids = (render(headline(self.boards[0], None), locale),
                 *(line.replace(TOTAL, total) for line in lines[1:]))
        return self._said.keep(key, None, Said(alts, saids, tuple(moves), lines))


class Steppers:
    """The steppers of the matches a web process showed lately (least recently used
    first out), each valid for the match's stored version it was made at (the version
    the page's record was read at: another process's move is a new one); a version that
    only added plies to the one kept is played on from it (:meth:`Stepper.played_on`)."""

    def __init__(self, size: int = STEPPERS) -> None:
        self._kept = Recent[int, Stepper](size)

    def of(self, record: GameRecord) -> Stepper:
        match = record.match
        kept = self._kept.get(match.id, match.version)
        if kept is not None:
            return kept
        earlier = self._kept.latest(match.id)
        stepper = earlier.played_on(record) if earlier is not None else None
        return self._kept.keep(match.id, match.version, stepper or Stepper.of(record))


def _time(when: datetime) -> str:
    """A deadline: exact, in UTC for the page; the script shows it in the reader's zone."""
    iso = when.isoformat(timespec="seconds")
    shown = when.strftime("%Y-%m-%d %H:%M UTC")
    return f'<time datetime="{esc(iso)}" class="deadline">{esc(shown)}</time>'


_MOMENT = re.compile("\ue010([^\ue011]*)\ue011([^\ue012]*)\ue012")
"""An instant as :func:`_marked` wraps it, its ISO form and its words between characters
of Unicode's private use area, which no sentence or name holds and escaping leaves alone."""


def _marked(words: Words, locale: str) -> Words:
    """``words`` with each instant they name (a :class:`Moment` among a sentence's values,
    at any depth) as its UTC words marked for :data:`_MOMENT` with its ISO form."""
    if not isinstance(words, Text):
        return words

    def marked(value: object) -> object:
        if isinstance(value, Moment):
            iso = value.when.astimezone(UTC).isoformat(timespec="seconds")
            return f"\ue010{iso}\ue011{value.render(locale)}\ue012"
        return _marked(value, locale) if isinstance(value, Text) else value
    return replace(words, params={k: marked(v) for k, v in words.params.items()})


def alert(error: Words, locale: str) -> str:
    """Why what a player sent was refused, escaped, each instant it names (a pause's
    end: ``moment``) a ``<time>`` as the clock's note writes one: its UTC words for a
    reader without scripts, which the page's script shows in the reader's own zone."""
    text = esc(render(capitalized(_marked(error, locale)), locale))
    return _MOMENT.sub(lambda m: f'<time datetime="{m[1]}" class="deadline">{m[2]}</time>',
                       text)


def _said(note: Note, locale: str) -> str:
    """A note of ``bot.web.clock`` escaped, its time (at :data:`MARK`) a ``<time>``."""
    words, when = note
    text = esc(render(words, locale))
    return text.replace(MARK, _time(when)) if when is not None else text


RECORD_FORMATS = {"wxf": "WXF", "pdn": "PDN"}
"""The standard record formats a page offers, as their users write them."""


def record_section(export: tuple[str, str] | None, base: str, locale: str) -> str:
    """The match in its game's standard record format (WXF, PDN), to read or download;
    nothing for a game without one."""
    if export is None or export[0] not in RECORD_FORMATS:
        return ""
    fmt, text = export
    heading = render(_("Record ({format})", format=RECORD_FORMATS[fmt]), locale)
    download = render(_("Download the record"), locale)
    return (f'<section class="record"><details><summary>{esc(heading)}</summary>'
            f'<pre>{esc(text)}</pre><p><a href="{esc(base)}/record.{fmt}" download>'
            f'{esc(download)}</a></p></details></section>')


def never_started_words(found: WebMatch) -> tuple[Words, list[Words]]:
    """What a match that never started is (``MatchStatus.never_started``), said where a
    board would be: whose challenge to whom, waiting for whom or declined or withdrawn; a
    lobby waiting for players, with who is in, who is invited and the places still open.
    The sentence, and the lobby's details."""
    match = found.record.match

    def name(user: int) -> Words:  # nobody knows it: "a player", never "?" nor an id
        return found.name_of(user) or _("a player")

    def named(users: Sequence[int]) -> Words:
        return listing(name(u) for u in users)

    challenger = name(match.challenger_id)
    others = [u for u in (*match.joined, *match.invited) if u != match.challenger_id]
    if match.seat_count > 2:  # a lobby filling its seats
        if match.status is MatchStatus.LOBBY:
            said: Words = _n("Lobby of {challenger} for {count} player, waiting for players",
                             "Lobby of {challenger} for {count} players, waiting for players",
                             match.seat_count, challenger=challenger)
            free = match.seat_count - len(match.joined) - len(match.invited)
            details: list[Words] = [_("{players} in", players=named(match.joined))]
            if match.invited:
                details.append(_("{players} invited", players=named(match.invited)))
            if free > 0:
                details.append(_n("{count} open place", "{count} open places", free))
            return said, details
        return _n("Lobby of {challenger} for {count} player: cancelled",
                  "Lobby of {challenger} for {count} players: cancelled", match.seat_count,
                  challenger=challenger), []
    if not others:  # open to anyone
        if match.status is MatchStatus.OPEN:
            return _("Open challenge from {challenger}, waiting for anyone to accept",
                     challenger=challenger), []
        return _("Open challenge from {challenger}: withdrawn", challenger=challenger), []
    if match.status is MatchStatus.OPEN:
        waiting = [u for u in match.invited if u != match.challenger_id] or others
        return _("Challenge from {challenger} to {players}, waiting for {waiting} to "
                 "accept", challenger=challenger, players=named(others),
                 waiting=named(waiting)), []
    if match.status is MatchStatus.DECLINED:
        return _("Challenge from {challenger} to {players}: declined",
                 challenger=challenger, players=named(others)), []
    return _("Challenge from {challenger} to {players}: withdrawn", challenger=challenger,
             players=named(others)), []


def never_started_page(found: WebMatch, *, token: str, locale: str,
                       server_path: str = "", page_path: str = "") -> str:
    """The page of a match that never started (a challenge not yet accepted, declined or
    withdrawn; a lobby waiting for players): what it is and on what terms, no board, no
    steps, no moves, nobody "to move". While it waits, the page's script loads it again
    when it changes (accepted: the board appears)."""
    match = found.record.match
    game = render(choice_title(found.record.variant.key, match.options,
                                fallback=found.record.variant.name), locale)
    title = render(_("Match #{match}: {game}", match=match.id, game=game), locale)
    said, details = never_started_words(found)
    listed = "".join(f"<li>{esc(render(d, locale))}</li>" for d in details)
    listed = f'<ul class="list">{listed}</ul>' if listed else ""
    terms = render(capitalized(texts.terms(match)), locale)
    note = render(_("The board appears here when the match starts.")
                  if match.status.is_waiting else _("This match never started."), locale)
    lang = urlencode({"lang": locale})
    server_link = ""
    if server_path:
        games = render(_("This server's games"), locale)
        server_link = (f'<p class="server"><a href="{esc(server_path)}?{lang}">{esc(games)}'
                       f'</a></p>')
    # waiting: the script listens for the change that starts it (the page's own events)
    waiting = f'<div id="waiting" data-base="/m/{esc(token)}" hidden></div>' \
        if match.status.is_waiting else ""
    return page(title, (
        f'<h1>{esc(title)}</h1>{server_link}'
        f'<p class="status" id="status"><strong>{esc(render(said, locale))}</strong></p>'
        f'{listed}'
        f'<p>{esc(terms)}</p><p>{esc(note)}</p>{waiting}'),
        locale, scripts=("match.js",) if waiting else (), switch=page_path or f"/m/{token}")


def match_page(found: WebMatch, *, token: str, ply: int, locale: str,
               live: bool, play: str = "", page_path: str = "", seat: int = 0,
               export: tuple[str, str] | None = None, server_path: str = "",
               now: datetime | None = None, turn: Words | None = None,
               stepper: Stepper | None = None) -> str:
    """The match page at ``ply`` (the record's length: the latest position); ``play``:
    a player's own part (``play_section``), on his page at ``page_path``, the board seen
    from his ``seat``; ``export``: the match in its game's record format (WXF, PDN);
    ``server_path``: its server's page (each player's name links his own); ``now``: the
    service's time, for the clock's state (``bot.web.clock``); ``turn``: what the reader
    is to do now, on his own page when it is his turn (``turn_words``), said first in
    the browser tab's title so he sees it among his tabs; ``stepper``: the record's,
    kept by the web process (:class:`Steppers`; made here without it)."""
    record = found.record
    match = record.match
    if match.status.never_started:  # no board was ever played on: say what it is
        return never_started_page(found, token=token, locale=locale,
                                  server_path=server_path, page_path=page_path)
    last = len(record.plies)
    lang = urlencode({"lang": locale})
    base = f"/m/{token}"
    spectating = not page_path  # the spectators' page (a player's is his own link's)
    page_path = page_path or base
    game = render(choice_title(record.variant.key, match.options, fallback=record.variant.name),
                  locale)
    title = render(_("Match #{match}: {game}", match=match.id, game=game), locale)
    # the match as it stood at each ply (the stepper's one notion, ``plies.at_ply``): the
    # board's words, and the players' at the ply shown; each ply's link carries its facts
    stepper = stepper or Stepper.of(record)
    boards, stood = stepper.boards, stepper.stood
    words = stepper.said(found, locale)
    alts, saids = words.alts, words.saids
    alt, shown = alts[ply], stood[ply]
    now = now or datetime.now(UTC)
    to_move, out = render(_("to move"), locale), render(_("out"), locale)

    def plain_name(held: SeatView, name: str) -> str:
        # beside his colour, an imported player the record did not name is one
        return render(imported_title(held.player) if is_imported(held.user_id)
                      else seat_player(held, name), locale) \
            or render(seat_colour(held.name), locale)

    plains = [plain_name(held, name) for held, name in zip(match.seats, found.names,
                                                           strict=False)]
    players = []
    for held, plain in zip(match.seats, plains, strict=False):
        colour = render(seat_colour(held.name), locale)
        # after a timeout: 'alice (computer since move 40)', from that move on
        aside = render(seated_name(match, held, plain), locale)
        facts = f' data-seat="{held.seat}"'
        if aside != plain:
            facts += f' data-name="{esc(plain)}" data-aside="{esc(aside)}"'
        named = f'<span class="name">{esc(aside if held.seat in shown.aside else plain)}</span>'
        if held.user_id is not None:
            named = f'<a href="{esc(base)}/player/{held.seat}?{lang}">{named}</a>'
        bits = [f'<span class="seat seat{held.seat}">{esc(colour)}</span> {named}']
        mates = [plains[s.seat] for s in match.seats  # teams: his partner, as Discord says
                 if held.team is not None and s.team == held.team and s.seat != held.seat
                 and s.seat < len(plains)]
        if mates:
            said = render(_("with {players}", players=listing(mates)), locale)
            bits.append(f'<span class="team">{esc(said)}</span>')
        # as Discord's card says it ('rating 4.1?' while provisional, 'no rating yet'),
        # and nothing once the match is over: today's number is not the one it was played at
        rating = texts.seat_rating(match, held)
        if rating is not None:
            bits.append(f'<span class="rating">{esc(render(rating, locale))}</span>')
        marks = [f'<strong class="turn">{esc(to_move)}</strong>'] \
            if held.seat in shown.turn else []
        marks += [esc(out)] if held.seat in shown.out else []
        bits.append(f'<span class="stood">{" ".join(marks)}</span>')
        if held.user_id is not None and held.user_id in match.to_move and match.status.is_live:
            due = match.due_for(held.user_id)
            if due is not None:  # today's deadline: said at the latest ply only
                said = esc(render(_("due {when}", when=MARK), locale))
                hidden = "" if ply == last else " hidden"
                bits.append(f'<span class="due"{hidden}>{said.replace(MARK, _time(due))}'
                            f'</span>')
        bits += [f'<span class="note">{_said(n, locale)}</span>'
                 for n in seat_notes(match, held, now, MARK)]
        players.append(f"<li{facts}>{' '.join(bits)}</li>")

    # where each ply is in moves, as the stepper in Discord and the console says it
    moves = []
    for p, (who, shown_move) in zip(record.plies, words.moves, strict=True):
        after = boards[p.ply + 1]
        current = ' aria-current="step"' if p.ply + 1 == ply else ""
        # numbered as moves: a set-up, a resignation or a skip is listed, never counted
        counted = after.step is not None and after.step.move is not None and not after.setup
        number = f' value="{after.moves}"' if counted else ' class="aside"'
        moves.append(
            f'<li{number}><a href="{esc(page_path)}?ply={p.ply + 1}&amp;{lang}" '
            f'data-ply="{p.ply + 1}" data-alt="{esc(alts[p.ply + 1])}" '
            f'data-said="{esc(saids[p.ply + 1])}"{stood[p.ply + 1].attributes()}{current}>'
            + (f'<span class="who">{esc(who)}</span> ' if who else "") +
            f'{esc(shown_move)}</a></li>')

    def step(target: int, label: Words, sign: str, key: str) -> str:
        # a sign for the eye; its words for a screen reader and under a pointer
        target = max(0, min(last, target))
        said = esc(render(label, locale))
        return (f'<a class="step" data-step="{key}" '
                f'href="{esc(page_path)}?ply={target}&amp;{lang}" '
                f'aria-label="{said}" title="{said}">{sign}</a>')

    # the board's words at the ply shown; how the match ended at its last ply only
    status_line = esc(alt)
    result = ""
    if not match.status.is_live:  # how it ended, winners named, as the final board says
        said = render(texts.result_line(match, list(found.names) if any(found.names)
                                        else None), locale)
        hidden = "" if ply == last else " hidden"
        result = f'<p class="result" id="result"{hidden}><strong>{esc(said)}</strong></p>'
    offer = ""
    offerer = match.seat_of(match.draw_offer_by) if match.draw_offer_by is not None else None
    if match.status.is_live and offerer is not None:  # today's offer: the latest ply only
        known = list(found.names) if any(found.names) else None
        offered: Words = _("{player} offers a draw; it lapses when the next move is played",
                           player=texts.who(match, [offerer], known))
        agreed = [s for u in match.draw_accepted if (s := match.seat_of(u)) is not None]
        if agreed:  # four players: every other must agree; who has so far
            offered = _("{offer}; agreed so far: {players}", offer=offered,
                        players=texts.who(match, agreed, known))
        said = render(offered, locale)
        hidden = "" if ply == last else " hidden"
        offer = f'<p class="offer" id="offer"{hidden}>{esc(said)}</p>'
    live_note = ""
    if live and match.status.is_live:
        said = render(_("live: new moves appear by themselves"), locale)
        # shown by the script that brings the moves (without it, nothing comes live)
        live_note = f'<p class="live" id="live" role="status" hidden>{esc(said)}</p>'
    start_alt = esc(alts[0])
    moves_heading = esc(render(_("Moves"), locale))
    # an empty list under its heading reads as a page that failed to load
    none_yet = render(_("No moves yet."), locale)  # (outside the f-string: extracted)
    no_moves = "" if moves else f"<p>{esc(none_yet)}</p>"
    players_heading = esc(render(_("Players"), locale))
    invite = ""
    if spectating and match.status.is_live:  # a player who came by the turn post's link
        said = render(capitalized(_("to play this match here, ask for your own link with "
                                    "{web}", web=command("web"))), locale)
        invite = f'<p class="invite">{esc(said)}</p>'
    clock = "".join(f"<li>{_said(n, locale)}</li>"
                    for n in clock_notes(match, found.names, locale, now, MARK))
    clock_heading = esc(render(_("Clock"), locale))
    # each stop is a position of the record: after a move, and after an entry that is no
    # move too (a set-up arrangement, a resignation, a skip; ``plies.headline``)
    steps = (step(0, _("first position"), "|◀", "first")
             + step(ply - 1, _("previous position"), "◀", "back")
             + step(ply + 1, _("next position"), "▶", "next")
             + step(last, _("latest position"), "▶|", "last"))
    server_link = ""
    if server_path:
        said = render(_("This server's games"), locale)
        server_link = (f'<p class="server"><a href="{esc(server_path)}?{lang}">{esc(said)}'
                       f'</a></p>')
    tab = title if turn is None else render(_("({turn}) {title}", turn=turn, title=title),
                                            locale)
    return page(tab, (
        f'<h1>{esc(title)}</h1>{server_link}'
        f'<p class="status" id="status">{status_line}</p>{result}{offer}{live_note}'
        f'<div class="layout" id="match" data-base="{esc(base)}" data-lang="{esc(locale)}" '
        f'data-ply="{ply}" data-last="{last}" data-version="{match.version}" '
        f'data-page="{esc(page_path)}" data-seat="{seat}" '
        f'data-start-alt="{start_alt}" data-start-said="{esc(saids[0])}"'
        f'{stood[0].attributes("data-start-")} '
        f'data-turn-word="{esc(to_move)}" data-out-word="{esc(out)}">'
        # two columns on a wide screen: the board with its steps and the player's part;
        # beside it the players, the clock and the moves (one after the other on a phone)
        f'<div class="main-column"><figure class="board"><div class="frame" id="frame">'
        f'<img id="board" src="{base}/board/{ply}.png?{lang}&amp;seat={seat}" '
        f'alt="{esc(alt)}" width="600"></div></figure>'
        f'<nav class="steps" aria-label="{moves_heading}">{steps}</nav>'
        f'<p class="stepped" id="stepped">{esc(saids[ply])}</p>{play}</div>'
        f'<div class="side-column"><section class="players"><h2>{players_heading}</h2>'
        f'<ul>{"".join(players)}</ul>{invite}</section>'
        f'<section class="clock"><h2>{clock_heading}</h2><ul>{clock}</ul></section>'
        f'<section class="moves"><h2>{moves_heading}</h2>'
        f'<ol id="moves">{"".join(moves)}</ol>{no_moves}</section>'
        f'{record_section(export, base, locale)}</div>'
        f'{analysis_section(found, link=page_path, locale=locale)}</div>'),
        locale, scripts=("match.js",), switch=page_path,
        stay={"ply": str(ply)} if ply != last else None)  # at the latest: follow it


def turn_words(match: MatchView, user: int, *, setup: bool, choices: bool
               ) -> Words | None:
    """What ``user`` is to do now in ``match``, said in his page's tab title: arrange his
    stones (a set-up phase he is to hand in), or his move (he has legal moves, as the
    page's own part says "Your move"); None when it is not his turn or the match is not
    being played."""
    if match.status is not MatchStatus.ACTIVE:
        return None
    if setup:
        return _("Arrange your stones") if user in match.to_move else None
    return _("Your move") if choices else None


REMOVAL = re.compile(r"r\d+-\d+")
"""A Querni removal alone (RULES §6: ``r<low>-<high>``, stones by number): no point."""


def origin_of(move: str) -> str:
    """The point a move starts from, as a player taps it: the text before its first
    ``-``, ``x`` or ``:`` (``f3xd5xf7`` -> ``f3``); none ("") for a Querni removal alone,
    which names stones by their numbers (``r3-5``), no point.

    >>> origin_of("f3xd5xf7"), origin_of("c2-e4 r3-5"), origin_of("r11-13")
    ('f3', 'c2', '')
    """
    if REMOVAL.fullmatch(move):
        return ""
    for i, c in enumerate(move):
        if c in "-x:" and i:
            return move[:i]
    return move


def point_order(point: str) -> tuple[str, int, str]:
    """Points in the board's order, file then rank as a number (``a2`` before ``a10``).

    >>> sorted(["a10", "b1", "a2"], key=point_order)
    ['a2', 'a10', 'b1']
    """
    found = re.fullmatch(r"([a-z]+)(\d+)", point)
    return (found[1], int(found[2]), "") if found else ("~", 0, point)


def board_words(locale: str) -> str:
    """What the board's points to tap are called as one stop of the keyboard (a screen
    reader names the group before its first point)."""
    return render(_("Points of the board (arrow keys move between them)"), locale)


def play_action(token: str, action: str, locale: str) -> str:
    """Where a player's form posts ``action`` (``move``, ``draw``...): in the page's
    language, so the page he comes back to speaks it too (a language chosen with the
    switch is in no header)."""
    return f"/p/{token}/{action}?{urlencode({'lang': locale})}"


def play_section(*, token: str, csrf: str, ply: int, choices: Sequence[tuple[str, str]],
                 draw_offer: bool, offered_by_me: bool, live: bool, error: Words | None,
                 locale: str, taps: BoardTaps | None = None, out: bool = False,
                 accepted_by_me: bool = False, latest: tuple[str, int] | None = None,
                 stepped_back: bool = False) -> str:
    """A player's own part of the page: his legal moves grouped by the piece that makes
    them (tap a piece, then where it goes: each a button that plays it), draw offers and
    resigning. Plain forms (no script needed), each with the link's form token; ``taps``:
    where his moves are tapped on the board picture itself (the script's part); ``out``:
    he is out of the game (a 4-player game goes on without him): nothing to offer.
    ``latest``: the address and ply of the latest position; ``stepped_back``: the page
    shows an earlier one, so his moves (the latest position's) give way to a word that
    they are played there, with a link to it (the script swaps them as he steps)."""
    refused = "" if error is None else \
        f'<p class="error" role="alert">{alert(error, locale)}</p>'
    if not live and not choices:  # the match is over: nothing left to play but why not
        return f'<section class="play">{refused}</section>' if refused else ""
    hidden = (f'<input type="hidden" name="csrf" value="{esc(csrf)}">'
              f'<input type="hidden" name="ply" value="{ply}">')
    # the heading says where he stands: his move, not his move, or out of the game
    heading = render(_("Your move") if choices else capitalized(
        _("you are out of this game") if out else _("not your move now")), locale)
    parts = [f'<section class="play" aria-labelledby="play-h"><h2 id="play-h">'
             f'{esc(heading)}</h2>{refused}']
    if choices:
        groups: dict[str, list[tuple[str, str]]] = {}
        for canonical, display in choices:
            groups.setdefault(origin_of(canonical), []).append((canonical, display))
        tap = render(capitalized(_("tap a piece, then where it goes")), locale)
        hint = f"<p>{esc(tap)}</p>"  # (the words outside the f-string: extracted)
        if taps is not None and taps.removals:  # how a chain is tapped: said, not guessed
            chain = render(capitalized(_("to take a chain off, tap its first and last stone "
                                         "too (after the move, or alone)")), locale)
            hint += f"<p>{esc(chain)}</p>"
        pieces = []
        # each piece by its point (the board's letters and numbers); Querni's removals
        # alone under what they do, last (their notation's "r13" names no point)
        for origin in sorted(groups, key=lambda o: (o == "", point_order(o))):
            if not origin:  # by the stones' numbers: r4-6 before r11-13
                groups[origin].sort(key=lambda m: [int(n) for n in re.findall(r"\d+", m[0])])
            buttons = "".join(
                f'<button name="move" value="{esc(c)}">{esc(render(move_display(d), locale))}'
                f'</button>' for c, d in groups[origin])
            summary = origin or render(_("Take a chain off"), locale)
            pieces.append(f'<details class="piece"><summary>{esc(summary)}</summary>'
                          f'<div class="targets">{buttons}</div></details>')
        data = confirm = ""
        if taps is not None:
            which = render(_("Which move?"), locale)
            # a tapped move is asked for before it is sent (a thumb's slip is a move the
            # opponent must agree to take back): the bar the script shows, "Play e3-e5?"
            # with the move written in, and its switch (the browser remembers it); both
            # hidden without the script, whose buttons a press plays as deliberately
            ask = render(_("Play {move}?", move=MARK), locale)
            # each spot read out as the point and what stands there; the board one stop
            # of the keyboard's Tab, its points reached with the arrow keys
            labels = json.dumps({k: render(w, locale) for k, w in taps.labels.items()},
                                ensure_ascii=False, separators=(",", ":"))
            data = "".join(f' {k}="{esc(v)}"' for k, v in taps.attributes().items()) + \
                f' data-which="{esc(which)}" data-ask="{esc(ask)}"' \
                f' data-labels="{esc(labels)}" data-board="{esc(board_words(locale))}"'
            yes, no = render(_("Confirm"), locale), render(_("Cancel"), locale)
            switch = render(capitalized(_("confirm each tapped move before it is sent")),
                            locale)
            confirm = (f'<p class="confirm-switch" hidden><label><input type="checkbox" '
                       f'id="confirm-moves" checked> {esc(switch)}</label></p>'
                       f'<div class="confirm" id="confirm" role="alertdialog" '
                       f'aria-labelledby="confirm-ask" hidden><p id="confirm-ask"></p>'
                       f'<button type="button" class="yes" id="confirm-yes">{esc(yes)}'
                       f'</button><button type="button" id="confirm-no">{esc(no)}</button>'
                       f'</div>')
        if latest is not None:  # shown while the board is an earlier position
            earlier = render(capitalized(_(
                "you are looking at an earlier position; moves are played on the latest "
                "one")), locale)
            back = render(capitalized(_("latest position")), locale)
            parts.append(f'<div id="earlier"{"" if stepped_back else " hidden"}>'
                         f'<p>{esc(earlier)}</p><p><a class="goto" href="{esc(latest[0])}" '
                         f'data-ply="{latest[1]}">{esc(back)}</a></p></div>')
        shown = " hidden" if stepped_back else ""
        parts.append(f'<form method="post" action="{esc(play_action(token, "move", locale))}" '
                     f'id="play-moves"{data}{shown}>{hidden}{hint}'
                     f'{confirm}<div class="choose" id="choose" hidden></div>'
                     f'<div class="pieces">{"".join(pieces)}</div></form>')
    if live and not out:
        offers: list[tuple[str, Words]] = []
        if draw_offer and accepted_by_me:  # the others have yet to: he may change his mind
            accepted = render(_("You accepted the draw."), locale)
            parts.append(f"<p>{esc(accepted)}</p>")
            offers.append(("decline", _("Decline the draw")))
        elif draw_offer and not offered_by_me:
            offers.append(("accept", _("Accept the draw")))
            offers.append(("decline", _("Decline the draw")))
        elif draw_offer:  # his own offer: he may take it back (the service's decline)
            offers.append(("decline", _("Withdraw the draw offer")))
        else:
            offers.append(("offer", _("Offer a draw")))
        draw = "".join(f'<button name="action" value="{a}">{esc(render(w, locale))}</button>'
                       for a, w in offers)
        parts.append(f'<form method="post" action="{esc(play_action(token, "draw", locale))}" '
                     f'class="offers">'
                     f'{hidden}{draw}</form>')
        sure = render(_("Resign this match"), locale)
        resign = render(_("Resign"), locale)
        parts.append(f'<details class="resign"><summary>{esc(resign)}</summary>'
                     f'<form method="post" action="{esc(play_action(token, "resign", locale))}">'
                     f'{hidden}<button>{esc(sure)}</button></form></details>')
    parts.append("</section>")
    return "".join(parts)


def setup_section(*, token: str, csrf: str, ply: int, setup: SetupTaps | None,
                  error: Words | None, locale: str, typed: str = "") -> str:
    """A player's part of the page in a set-up phase (Querni ``choose``): his arrangement,
    tapped on the picture (his start cells in the order of his numbers, 1 to 16) or
    written as the 16 numbers in the cells' order; once handed in (``setup`` None), the
    word that the game starts when the other has too. ``typed``: the arrangement he
    handed in and was refused (``error``), back in its field for him to correct (the
    script places its numbers on the board's cells again)."""
    # the heading says where he stands: still to arrange, or handed in
    heading = render(_("Arrange your stones") if setup is not None
                     else _("Your arrangement is in"), locale)
    parts = [f'<section class="play" aria-labelledby="play-h"><h2 id="play-h">'
             f'{esc(heading)}</h2>']
    if error is not None:
        parts.append(f'<p class="error" role="alert">{alert(error, locale)}</p>')
    if setup is None:
        said = render(capitalized(_("the game starts when your opponent has handed in "
                                    "theirs")), locale)
        parts.append(f"<p>{esc(said)}</p></section>")
        return "".join(parts)
    how = render(capitalized(_(
        "tap your start cells in the order of your numbers, 1 to 16, or write the 16 "
        "numbers in the order of the cells: {cells}", cells=" ".join(setup.cells))), locale)
    data = "".join(f' {k}="{esc(v)}"' for k, v in setup.attributes().items())
    label = esc(render(_("Arrangement"), locale))
    again = esc(render(_("Start over"), locale))
    hand_in = esc(render(_("Hand in the arrangement"), locale))
    kept = f' value="{esc(typed[:80])}"' if typed else ""
    parts.append(
        f'<form method="post" action="{esc(play_action(token, "setup", locale))}" '
        f'id="play-setup"{data} data-board="{esc(board_words(locale))}" '
        f'data-again="{again}"><input type="hidden" name="csrf" value="{esc(csrf)}">'
        f'<input type="hidden" name="ply" value="{ply}"><p>{esc(how)}</p>'
        f'<p><label for="arrangement">{label}</label> <input id="arrangement" '
        f'name="arrangement" required maxlength="80" autocomplete="off"{kept}></p>'
        f'<button>{hand_in}</button></form>'
        "</section>")
    return "".join(parts)
