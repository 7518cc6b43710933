"""Alt text: a short description of a drawn position for screen readers and Discord's
image description (at most :data:`MAX_ALT` characters)."""

from __future__ import annotations

from collections.abc import Sequence

from locales.i18n import (
    DEFAULT_LOCALE,
    Text,
    Words,
    _,
    _n,
    capitalized,
    joined,
    listing,
    negotiate,
    render,
)
from locales.results import result_kind, result_sentence
from locales.terms import game_name, option_word, seat_colour
from render.style import spec_for
from rules import MoveMarks, Position
from rules.core import REASONS as _RULES_REASONS
from rules.notation import point_name

MAX_ALT = 1000  # Discord allows 1024 characters of attachment description


REASONS = _RULES_REASONS
"""Outcome reasons in words (``rules.core.REASONS``; unknown ones lose their dashes)."""


def seat_label(position: Position, seat: int, names: Sequence[str] | None) -> Words:
    """``'Red (alice)'`` with names, else ``'Red'``."""
    english = position.variant.seat_name(seat, position.seat_count)
    colour = seat_colour(english)
    if names and seat < len(names) and names[seat] and names[seat] != english:
        return _("{seat} ({player})", seat=colour, player=names[seat])
    return colour


def status(position: Position, names: Sequence[str] | None = None,
           locale: str = DEFAULT_LOCALE) -> str:
    """Whose turn it is, or how the game ended: ``'Red (alice) to move'``,
    ``'Black wins: checkmate'``, ``'Draw: repetition'`` (in ``locale``), with a capital
    where it starts a sentence in that language (Spanish ``'Juega Blanco'``)."""
    return render(capitalized(status_words(position, names)), locale)


def status_words(position: Position, names: Sequence[str] | None = None) -> Words:
    """:func:`status` as words, to be said in any language (and capitalised there)."""
    outcome = position.outcome()
    if outcome is not None:
        def label(seats: frozenset[int]) -> Words:
            return listing(seat_label(position, s, names) for s in sorted(seats))
        return result_sentence(
            "board", result_kind(outcome.winners, outcome.ranking), reason=outcome.reason,
            winners=label(outcome.winners), winner_count=len(outcome.winners),
            first=label(outcome.ranking[0]) if outcome.ranking else "")
    movers = listing(seat_label(position, s, names) for s in sorted(position.to_move))
    if position.in_setup:
        return _("Setup: {players} to arrange their stones", players=movers)
    return _("{players} to move", players=movers)


def piece_word(kind: str, n: int) -> Words:
    """A kind of piece in words, singular or plural by ``n`` (``'horses'``)."""
    words: dict[str, Text] = {
        "K": _n("general", "generals", n), "A": _n("advisor", "advisors", n),
        "B": _n("elephant", "elephants", n), "N": _n("horse", "horses", n),
        "R": _n("chariot", "chariots", n), "C": _n("cannon", "cannons", n),
        "P": _n("soldier", "soldiers", n), "man": _n("man", "men", n),
        "king": _n("king", "kings", n), "stone": _n("stone", "stones", n)}
    return words.get(kind, kind)


def _removal(position: Position) -> Text:
    """The game's word for taking stones off (``Variant.removal_word``)."""
    return _("huffed") if position.variant.removal_word == "huffed" else _("removed")


def _pieces_text(position: Position) -> list[Words]:
    spec = spec_for(position.variant.key)
    hidden = position.in_setup
    by_seat: dict[int, dict[str, list[tuple[int, int]]]] = {}
    for p, pc in position.pieces().items():
        by_seat.setdefault(pc.seat, {}).setdefault(pc.kind, []).append(p)
    out: list[Words] = []
    order = list(spec.kind_names) if spec.kind_names else None
    for seat in range(position.seat_count):
        kinds = by_seat.get(seat, {})
        total = sum(len(v) for v in kinds.values())
        label = seat_colour(position.variant.seat_name(seat, position.seat_count))
        if not total:
            out.append(_("{seat}: no pieces", seat=label))
            continue
        if spec.piece == "numbered":
            if hidden:
                out.append(_n("{seat}: {count} stone, numbers hidden",
                              "{seat}: {count} stones, numbers hidden", total, seat=label))
                continue
            stones = sorted(((int(k) if k.isdigit() else 99, pts[0]) for k, pts in kinds.items()))
            out.append(_("{seat}: {pieces}", seat=label, pieces=joined(
                *(f"{n} {point_name(*p)}" for n, p in stones), separator=", ")))
            continue
        keys = sorted(kinds, key=lambda k: order.index(k) if order and k in order else 99)
        parts: list[Words] = []
        for kind in keys:
            pts = sorted(kinds[kind], key=lambda q: (q[1], q[0]))
            parts.append(joined(piece_word(kind, len(pts)),
                                " ".join(point_name(*q) for q in pts)))
        out.append(_("{seat}: {pieces}", seat=label, pieces=joined(*parts, separator="; ")))
    return out


def move_text(position: Position, marks: MoveMarks) -> Words:
    """The last move from its marks, e.g. ``'c3xe5xc7, capturing d4 d6'``."""
    sep = "x" if marks.captured else "-"
    text = sep.join(point_name(*p) for p in marks.path)
    removed = " ".join(point_name(*p) for p in marks.removed)
    if marks.removed and not marks.path:
        return joined(_removal(position), removed)
    said: Words = text
    if marks.captured:
        said = _("{move}, capturing {points}", move=text,
                 points=" ".join(point_name(*p) for p in marks.captured))
    if marks.removed:
        said = joined(said, _removal(position), removed, separator=", ")
    return said


def _sentence(words: Words) -> Words:
    """A clause made a sentence: a capital first letter and the language's full stop."""
    # TRANSLATORS: a sentence of a board's alt text: the full stop of your language
    return capitalized(_("{sentence}.", sentence=words))


def describe(position: Position, *, last_move: MoveMarks | None = None,
             perspective: int | None = None, names: Sequence[str] | None = None,
             deadline: str | None = None, caption: Words | None = None,
             result: Words | None = None, locale: str = DEFAULT_LOCALE) -> str:
    """The alt text of a board image (see :func:`render.alt_text`), in ``locale``."""
    v = position.variant
    n = position.seat_count
    seat = perspective if perspective is not None else _default_perspective(position)

    def colour(s: int) -> Words:
        return seat_colour(v.seat_name(s, n))
    parts: list[Words] = [
        _("{game} board seen from {seat}.", game=game_name(v.key, v.name), seat=colour(seat)),
        _sentence(result or status_words(position, names))]
    if position.teams:
        sides = [listing(colour(s) for s in sorted(team)) for team in position.teams]
        parts.append(_("Teams: {teams}.", teams=joined(*sides, separator=" / "))
                     if len(sides) != 2 else
                     _("Teams: {one} against {other}.", one=sides[0], other=sides[1]))
    elif position.mode is not None:
        parts.append(_("Four players each for themselves, {mode} end.",
                       mode=option_word(position.mode)))
    if (rule_set := position.rule_set) is not None:
        parts.append(_("Rules: {rules}.", rules=option_word(rule_set)))
    general = position.checked_point()
    if general is not None:
        # After a checkmate nobody is to move, so name the checked general's owner.
        checked = position.pieces()[general].seat
        parts.append(_("{seat} is in check.", seat=colour(checked)))
    if caption:
        parts.append(_("Last move: {move}.", move=caption))
    elif last_move is not None and (last_move.path or last_move.removed):
        parts.append(_("Last move: {move}.", move=move_text(position, last_move)))
    elif last_move is not None and not position.in_setup:
        parts.append(_("Last move: pass."))
    elif last_move is None and (removed := position.last_removal()):
        parts.append(_n("The last move {removed} the stone on {points}.",
                        "The last move {removed} the stones on {points}.", len(removed),
                        removed=_removal(position),
                        points=" ".join(point_name(*p) for p in removed)))
    out = position.out_seats()
    if out:
        parts.append(_("Out: {seats}.", seats=listing(colour(s) for s in sorted(out))))
    if deadline:
        parts.append(_("Deadline: {deadline}.", deadline=deadline))
    parts.extend(_sentence(t) for t in _pieces_text(position))
    # Chinese sentences end in "。" and follow each other with no space between them
    between = "" if negotiate(locale).startswith("zh") else " "
    text = render(joined(*parts, separator=between), locale)
    if len(text) > MAX_ALT:
        text = text[:MAX_ALT - 1].rsplit(" ", 1)[0] + "…"
    return text


def _default_perspective(position: Position) -> int:
    movers = sorted(position.to_move)
    return movers[0] if len(movers) == 1 else 0
