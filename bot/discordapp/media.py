"""Rules summaries, the start-position picture for ``/rules`` and replay GIFs (with the
costly moves of a stored analysis marked, issue 42).

Pictures come from ``render`` when it is installed with the functions used here; without
them the commands answer with text only (the service works without a renderer too).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Mapping, Sequence
from functools import partial
from typing import Any

import rules
from bot.boards import AnalysisPictures, analysis_pictures, replay_frames
from locales import i18n, summaries
from locales.i18n import DEFAULT_LOCALE, Words, _, _n, capitalized, joined
from service import Caller, MatchService, NameResolver
from service.computer_seats import computer_title, is_computer
from service.imported_seats import imported_in, is_imported, seat_player
from service.texts import player_words, result_line
from service.views import (
    AnalysedMove,
    EvalPoint,
    GameRecord,
    MatchAnalysis,
    MatchView,
    SeatView,
)

log = logging.getLogger("tablero.discord")

def rules_summary(key: str) -> Words:
    """A short summary of a game's rules, for ``/rules`` (``locales.summaries``)."""
    return summaries.rules_summary(key)


def _render_module() -> Any:
    try:
        import render
    except ImportError:  # pragma: no cover - render is part of the distribution
        return None
    return render


async def start_picture(key: str, seats: int | None = None, locale: str = DEFAULT_LOCALE
                        ) -> tuple[bytes, str] | None:
    """A PNG of the start position (of the first menu option set with ``seats`` seats,
    else the default one) and its alt text in ``locale``, or None without a renderer."""
    render = _render_module()
    if render is None or not hasattr(render, "draw_board"):
        return None
    v = rules.variant(key)
    options = next((o for o in v.option_sets() if v.seat_count(**o) == seats), {})
    try:
        board = await asyncio.to_thread(render.draw_board, v.start(**options), perspective=0,
                                        locale=locale)
    except Exception:
        log.exception("could not draw the start position of %s", key)
        return None
    return bytes(board.png), str(board.alt_text)


MARKED_MOVES = 3
"""The costly moves a replay marks: the costliest, those ``/analysis`` lists."""


def costly_notes(analysis: MatchAnalysis | None, record: GameRecord,
                 name_of: NameResolver | None = None) -> dict[int, Words]:
    """What a replay writes under each of the ``MARKED_MOVES`` costliest moves of a
    stored ``analysis`` of ``record``'s match, by record ply ("Move 12, alice: c3-d4;
    better b2-c3 (costs about 3.0 pawns)"), players named as the boards name them; none
    without an analysis, or with one of another length of record (it would mark the
    wrong moves)."""
    if analysis is None or analysis.plies != len(record.plies):
        return {}
    return move_notes(analysis.costly[:MARKED_MOVES], record.match.guild_id, name_of,
                      record.match)


def move_notes(marked: Sequence[AnalysedMove], guild_id: int,
               name_of: NameResolver | None = None,
               match: MatchView | None = None) -> dict[int, Words]:
    """The pictures' note of each analysed move, by record ply: its line with the player
    named as the boards name him (the computer by its title, an imported player as one,
    by his seat in ``match`` when his record did not name him; a person whose name is
    not known by his seat's colour, "?" without ``match``), its cost in the pieces of
    ``match``'s game."""
    game = match.game if match is not None else ""

    def player(user: int | None) -> Words:
        if user is None:
            return "?"
        if is_computer(user):
            return computer_title(user)
        name = (name_of(guild_id, user) if name_of is not None else "")
        if is_imported(user):
            return imported_in(match, user, name)
        return name or (player_words(match, None, user) if match is not None else "?")
    return {a.ply: capitalized(a.line(player(a.user), game=game)) for a in marked}


async def replay_gif(service: MatchService, match_id: int,
                     name_of: NameResolver | None = None, caller: Caller | None = None,
                     locale: str = DEFAULT_LOCALE) -> tuple[bytes, bool, Words] | None:
    """An animated replay of the match's record (``service.record``, as ``caller`` may
    see it), players named by ``name_of(guild_id, user_id)``, its costliest moves marked
    when an analysis of the match is stored (``/analysis`` made one); with whether it
    marks any and its alt text (:func:`replay_description`). None without a
    renderer."""
    if _render_module() is None:
        return None
    try:
        record = await service.record(match_id, caller)
    except Exception:
        log.exception("could not read the record of match %s", match_id)
        return None
    try:
        analysis = await service.stored_analysis(match_id, caller=caller)
    except Exception:  # the marks are optional: the replay goes without them
        log.exception("could not read the analysis of match %s", match_id)
        analysis = None
    notes = costly_notes(analysis, record, name_of)
    gif = await replay_gif_of(record, name_of, locale, costly=notes)
    if gif is None:
        return None
    said = _("Replay of match {match}: the marked moves are framed in red.",
             match=str(match_id)) if notes else \
        _("{sentence}.", sentence=_("Replay of match {match}", match=match_id))
    return gif, bool(notes), replay_description(record, said,
                                                drawn_names(record, name_of, locale))


def replay_description(record: GameRecord, said: Words,
                       names: Sequence[str] | None = None) -> Words:
    """A replay GIF's alt text: ``said`` (which replay, a sentence), then how many moves
    it shows and, once the match is over, how it ended: what the animation tells a
    reader who cannot see it ("Replay of match 7. It shows 42 moves, one frame each.
    Black (bob) wins: checkmate."); ``names`` by seat, as its chips name them."""
    moves = sum(1 for ply in record.plies if ply.move is not None)
    parts: list[Words] = [said, _n("It shows {count} move, one frame each.",
                                   "It shows {count} moves, one frame each.", moves)]
    if not record.match.status.is_live:
        # TRANSLATORS: a sentence of a board's alt text: the full stop of your language
        parts.append(_("{sentence}.", sentence=result_line(record.match, names)))
    return joined(*parts)


def drawn_names(record: GameRecord, name_of: NameResolver | None,
           locale: str = DEFAULT_LOCALE) -> list[str] | None:
    """Each seat's player for a whole game's pictures (the replay's and the analysis's
    chips): in a match continued from an imported game, whose first plies the record's
    players played, the record's player, an arrow, then today's ("Ana (imported) →
    alice") where they differ."""
    if name_of is None:
        return None

    def named(s: SeatView) -> str:
        if is_computer(s.user_id):  # in the reader's words, not the caches' English
            return i18n.render(computer_title(s.user_id or 0), locale)
        return i18n.render(seat_player(s, (name_of(record.match.guild_id, s.user_id)
                                           if s.user_id else "") or s.name), locale)
    names = []
    for s in record.match.seats:
        today = named(s)
        earlier = named(record.holder(s.seat, 0) or s)
        names.append(today if earlier == today else f"{earlier} → {today}")
    return names or None


async def replay_gif_of(record: GameRecord, name_of: NameResolver | None = None,
                        locale: str = DEFAULT_LOCALE, *,
                        costly: Mapping[int, Words] | None = None) -> bytes | None:
    """An animated replay of a replayed record (``GameRecord``), players named by
    ``name_of(guild_id, user_id)``; ``costly``: notes by record ply (``costly_notes``),
    whose frames are framed in red and held longer with the note below the board
    (without any, the replay is drawn as it always was). None without a renderer."""
    render = _render_module()
    if render is None or not hasattr(render, "replay_gif"):
        return None
    try:
        frames, frame_of = replay_frames(record)
        flagged = {frame_of[ply]: note for ply, note in (costly or {}).items()
                   if ply in frame_of}
        return bytes(await asyncio.to_thread(partial(render.replay_gif,
                                                      flagged=flagged or None),
                                             record.variant, record.start, frames,
                                             names=drawn_names(record, name_of, locale),
                                             locale=locale))
    except Exception:
        log.exception("could not draw the replay of match %s", record.match.id)
        return None


async def analysis_pictures_of(record: GameRecord, notes: Mapping[int, Words],
                               name_of: NameResolver | None = None,
                               locale: str = DEFAULT_LOCALE, *,
                               better: Mapping[int, str] | None = None,
                               curve: Sequence[EvalPoint] = ()) -> AnalysisPictures | None:
    """``bot.boards.analysis_pictures`` off the event loop, players named by
    ``name_of``; None without a renderer, a noted move, or when drawing fails."""
    try:
        return await asyncio.to_thread(partial(analysis_pictures, better=better,
                                               curve=curve),
                                       record, notes, drawn_names(record, name_of, locale), locale)
    except Exception:
        log.exception("could not draw the analysis of match %s", record.match.id)
        return None
