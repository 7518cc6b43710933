"""What the service says about a match in words: players named by seat, who is to move,
the line a board image shows when the match is over, a seat's rating beside its player,
and the one-line description of a position (alt text). The sentence for how a match
ended comes from ``locales.results`` (one place for every medium); this module only names
the people in it.

Everything here works from a ``MatchView`` (what the service hands out), so the service
and the adapters that draw boards from events say the same thing.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable, Sequence
from datetime import timedelta

from locales.i18n import Text, Words, _, _n, capitalized, joined, listing, person, render
from locales.results import result_sentence
from locales.terms import game_name, move_display, reason, seat_colour, status
from rules import Position
from service.computer_seats import computer_title, is_computer
from service.imported_seats import imported_title, is_imported
from service.ports import NameResolver
from service.timecontrol import (
    describe_time_control,
    parse_time_control,
    with_claim,
    with_weekends,
)
from service.views import MatchView, ResultView, SeatView

log = logging.getLogger(__name__)


def looked_up(names: NameResolver | None, guild_id: int, user: int) -> str:
    """``user``'s name in ``guild_id`` through ``names`` ("" when none is known, or no
    resolver); a lookup that fails is logged and reads as unknown: a name is decoration,
    never a reason to fail a board or a sentence."""
    if names is None:
        return ""
    try:
        return names(guild_id, user)
    except Exception:
        log.exception("name lookup failed for user %s", user)
        return ""


def seat_names(match: MatchView, names: NameResolver | None) -> list[str] | None:
    """Display names by seat through ``names`` (the seat's colour for an unknown or
    empty seat); None without a resolver (boards then show the colours)."""
    if names is None:
        return None
    out: list[str] = []
    for s in match.seats:
        found = looked_up(names, match.guild_id, s.user_id) if s.user_id is not None else ""
        out.append(found or s.name)
    return out


def named(names: NameResolver | None, guild_id: int, user: int) -> Words:
    """``user``'s name in ``guild_id`` through ``names``; a person whose name nobody has
    seen there is named as his medium can (``locales.i18n.person``: his mention in
    Discord, which shows his name; neutral words elsewhere), never a bare "that player"
    where Discord could have said who.

    >>> named(lambda _g, u: "alice" if u == 1 else "", 9, 1)
    'alice'
    >>> named(None, 9, 2).render("en-US")
    'that player'
    """
    return looked_up(names, guild_id, user) or person(user)


def player_words(match: MatchView, names: NameResolver | None, user: int) -> Words:
    """``user``'s name in ``match`` where a mention would not render (a thread's name, an
    autocomplete choice): his name when known, else his seat's colour, never his id
    ("a player" for one without a seat)."""
    found = looked_up(names, match.guild_id, user)
    if found:
        return found
    seat = match.seat_of(user)
    return _colour(match, seat) if seat is not None else _("a player")


def drawn_names(match: MatchView, names: NameResolver | None,
                locale: str) -> list[str] | None:
    """:func:`seat_names` for a picture drawn in ``locale`` (its chips and alt text): a
    computer seat in the reader's words ("Tablero Stufe 1"), not the English name the
    resolver keeps for files and caches, which a German or Chinese board showed."""
    found = seat_names(match, names)
    if found is None:
        return None
    return [render(computer_title(s.user_id), locale)
            if s.user_id is not None and is_computer(s.user_id) else name
            for s, name in zip(match.seats, found, strict=True)]


def _colour(match: MatchView, seat: int) -> Words:
    if seat < len(match.seats):
        return seat_colour(match.seats[seat].name)
    return _("Seat {seat}", seat=seat)


def _name(match: MatchView, seat: int, names: Sequence[str] | None) -> Words:
    """The name of ``seat`` from ``names`` ("" when unknown); a computer seat's in the
    reader's words (``names`` hold its English name, which files and caches keep), an
    imported player's with the word that says so ("" when his record did not name him)."""
    if not names or seat >= len(names):
        return ""
    view = match.seats[seat] if seat < len(match.seats) else None
    user = view.user_id if view is not None else None
    if user is not None and is_computer(user):
        return computer_title(user)
    if view is not None and is_imported(user):
        return imported_title(view.player) if view.player else ""
    return names[seat]


def labels(match: MatchView, seats: Iterable[int], names: Sequence[str] | None) -> Words:
    """``'Black (bob)'`` per seat (the colour alone when the name is unknown), listed:
    the seats a board line is about."""
    out: list[Words] = []
    for seat in sorted(seats):
        english = match.seats[seat].name if seat < len(match.seats) else ""
        colour = _colour(match, seat)
        name = _name(match, seat, names) or english
        out.append(_("{seat} ({player})", seat=colour, player=name)
                   if name and name != english else colour)
    return listing(out)


def who(match: MatchView, seats: Iterable[int], names: Sequence[str] | None) -> Words:
    """``'alice (Red)'`` per seat (the colour alone without a name), listed: who a
    message is about, as people know them."""
    out: list[Words] = []
    for seat in sorted(seats):
        english = match.seats[seat].name if seat < len(match.seats) else ""
        colour = _colour(match, seat)
        name = _name(match, seat, names)
        out.append(_("{player} ({seat})", player=name, seat=colour)
                   if name and name != english else colour)
    return listing(out)


def _players_labeller(match: MatchView, names: Sequence[str] | None
                      ) -> Callable[[Iterable[int]], Words]:
    """Players (user ids) of ``match`` as a result names them (``labels`` of their
    seats); those holding no seat are left out."""
    seats = {s.user_id: s.seat for s in match.seats if s.user_id is not None}

    def label(users: Iterable[int]) -> Words:
        return labels(match, (seats[u] for u in users if u in seats), names)
    return label


def result_line(match: MatchView, names: Sequence[str] | None) -> Words:
    """How an over match ended, for its board image: ``'Black (bob) wins: opponent
    resigned'``, ``'Draw: agreement'``, ``'Aborted: no move in time'``."""
    r = match.result
    if r is None:
        return capitalized(status(match.status.value))
    label = _players_labeller(match, names)
    return result_sentence("board", r.kind, reason=r.reason, winners=label(r.winners),
                           winner_count=len(r.winners),
                           first=label(r.ranking[0]) if r.ranking else "")


def result_words(match: MatchView, names: Sequence[str] | None) -> Words:
    """How an over match ended, inside a sentence (``'match #1 is over: {result}'``):
    ``'Black (bob) won (opponent resigned)'``, ``'draw (agreement)'``, ``'aborted'``,
    never a board line's capital (``result_line``: 'Aborted' read as a title there)."""
    r = match.result
    if r is None:
        return status(match.status.value)
    label = _players_labeller(match, names)
    places = joined(*(_("{place}. {players}", place=i + 1, players=label(g))
                      for i, g in enumerate(r.ranking)), separator="; ")
    said = result_sentence("console", r.kind, reason=r.reason, winners=label(r.winners),
                           winner_count=len(r.winners), places=places)
    return said or status(match.status.value)


def arranging(match: MatchView, p: Position, names: Sequence[str] | None) -> Words:
    """A set-up phase (Querni ``choose``) as it stands in ``p``: who still arranges his
    stones, and why the board is bare (no stone is on it until both arrangements are in,
    RULES §5)."""
    return _("{players} to arrange their stones; no stone is on the board until both "
             "arrangements are in", players=who(match, p.to_move, names))


def describe(match: MatchView, p: Position, names: Sequence[str] | None,
             moves: int | None = None) -> Words:
    """A one-line description of the position (alt text): whose move it is (with the
    players' names when known; "check!" where the picture says it), or how the match
    ended, even when the rules did not end it (a resignation, a timeout, an agreed
    draw). ``moves``: the moves played as players count them (set-up submissions and
    resignations are not moves); the record's plies when not known."""
    v = p.variant
    state: Words = _("game over")
    if p.to_move:
        state = arranging(match, p, names) if p.in_setup else \
            _("{players} to move", players=who(match, p.to_move, names))
        if not p.in_setup and p.checked_point() is not None:
            # said as the picture says it: a reader who cannot see it is told too
            state = joined(state, _("check!"), separator=" · ")
    if not match.status.is_live:
        r: ResultView | None = match.result
        state = _("game over ({reason})", reason=reason(r.reason) if r is not None
                  else status(match.status.value))
    n = match.moves_played if moves is None else moves
    game = game_name(v.key, v.name)
    # an arrangement is no move: the first board of play has no last move (as the
    # stepper marks none there)
    if match.last_move and match.ply > match.arranged:
        return _n("{game}, match #{match}, after {count} move: {state}; last move {move}",
                  "{game}, match #{match}, after {count} moves: {state}; last move {move}",
                  n, game=game, match=match.id, state=state,
                  move=move_display(match.last_move))
    return _n("{game}, match #{match}, after {count} move: {state}",
              "{game}, match #{match}, after {count} moves: {state}",
              n, game=game, match=match.id, state=state)


def duration(gap: timedelta) -> Text:
    """A gap in the largest whole unit that fits: days, else hours, else minutes.

    >>> [duration(g).render("en-US") for g in (timedelta(days=2, hours=5),
    ...     timedelta(hours=1), timedelta(seconds=30))]
    ['2 days', '1 hour', '1 minute']
    """
    seconds = gap.total_seconds()
    if seconds >= 86400:
        days = int(seconds // 86400)
        return _n("{count} day", "{count} days", days)
    if seconds >= 3600:
        hours = int(seconds // 3600)
        return _n("{count} hour", "{count} hours", hours)
    minutes = max(1, int(seconds // 60))
    return _n("{count} minute", "{count} minutes", minutes)


def offline_notice(gap: timedelta) -> Text:
    """The one notice a match gets after Tablero was away (``ClocksExtended``).

    >>> offline_notice(timedelta(days=2, minutes=3)).render("en-US")
    'Tablero was offline for 2 days; all clocks were extended'
    """
    return _("Tablero was offline for {duration}; all clocks were extended",
             duration=duration(gap))


def terms(m: MatchView) -> Text:
    """``'3 days per move, rated'``; a bank control and claim-win say so
    (``'3 days + 1 day per move, at most 10 days banked, claim win on time, casual'``)."""
    if "+" not in m.time_control and not m.claim_win and not m.weekends:
        if m.rated:
            return _n("{count} day per move, rated", "{count} days per move, rated",
                      m.days_per_move)
        return _n("{count} day per move, casual", "{count} days per move, casual",
                  m.days_per_move)
    pace: Words = describe_time_control(parse_time_control(m.time_control)) \
        if "+" in m.time_control else \
        _n("{count} day per move", "{count} days per move", m.days_per_move)
    pace = with_weekends(with_claim(pace, m.claim_win), m.weekends)
    return _("{pace}, rated", pace=pace) if m.rated else _("{pace}, casual", pace=pace)


def seat_rating(m: MatchView, s: SeatView) -> Words | None:
    """What a seat's line says of its player's rating on the match's ladder, as it was
    when the match was read (issue 42): the number ladders show, or that he has none yet;
    a seat the computer plays (itself, or standing in for a late player) is not rated.
    Nothing once the match is over (its end may have moved the number: today's would
    pass for the one it was played at), nor for an imported record's player (a seat out
    of a continued game): he is rated never, and his name says "imported" already."""
    if s.user_id is None or m.is_over or is_imported(s.user_id):
        return None
    if is_computer(s.user_id) or m.stand_in_since(s.user_id) is not None:
        return _("not rated (computer)")
    shown = s.shown_rating
    if shown is None:
        return _("no rating yet")
    # TRANSLATORS: a player's rating in a match's seat list, e.g. "rating 12.3"
    return _("rating {rating}", rating=shown)
