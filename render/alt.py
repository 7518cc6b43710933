"""Alt text: a short description of a drawn position for screen readers and Discord's
image description (at most :data:`MAX_ALT` characters)."""

from __future__ import annotations

from collections.abc import Sequence

from locales.results import result_kind, result_sentence
from render.style import spec_for
from rules import MoveMarks, Position
from rules.core import REASONS as _RULES_REASONS
from rules.notation import point_name

MAX_ALT = 1000  # Discord allows 1024 characters of attachment description


REASONS = _RULES_REASONS
"""Outcome reasons in words (``rules.core.REASONS``; unknown ones lose their dashes)."""


def seat_label(position: Position, seat: int, names: Sequence[str] | None) -> str:
    """``'Red (alice)'`` with names, else ``'Red'``."""
    colour = position.variant.seat_name(seat, position.seat_count)
    if names and seat < len(names) and names[seat] and names[seat] != colour:
        return f"{colour} ({names[seat]})"
    return colour


def status(position: Position, names: Sequence[str] | None = None) -> str:
    """Whose turn it is, or how the game ended: ``'Red (alice) to move'``,
    ``'Black wins by checkmate'``, ``'Draw by repetition'``."""
    outcome = position.outcome()
    if outcome is not None:
        def label(seats: frozenset[int]) -> str:
            return " and ".join(seat_label(position, s, names) for s in sorted(seats))
        return result_sentence(
            "board", result_kind(outcome.winners, outcome.ranking), reason=outcome.reason,
            winners=label(outcome.winners), winner_count=len(outcome.winners),
            first=label(outcome.ranking[0]) if outcome.ranking else "")
    movers = sorted(position.to_move)
    if position.in_setup:
        return "Setup: " + " and ".join(seat_label(position, s, names) for s in movers) + \
            " to arrange their stones"
    who = " and ".join(seat_label(position, s, names) for s in movers)
    return f"{who} to move"


def _plural(word: str, n: int) -> str:
    if n == 1 or not word:
        return word
    if word.endswith("man"):
        return word[:-3] + "men"
    return word + "s"


def _pieces_text(position: Position) -> list[str]:
    spec = spec_for(position.variant.key, position.variant.board_size)
    hidden = position.in_setup
    by_seat: dict[int, dict[str, list[tuple[int, int]]]] = {}
    for p, pc in position.pieces().items():
        by_seat.setdefault(pc.seat, {}).setdefault(pc.kind, []).append(p)
    out = []
    order = list(spec.kind_names) if spec.kind_names else None
    for seat in range(position.seat_count):
        kinds = by_seat.get(seat, {})
        total = sum(len(v) for v in kinds.values())
        label = position.variant.seat_name(seat, position.seat_count)
        if not total:
            out.append(f"{label}: no pieces")
            continue
        if spec.piece == "querni":
            if hidden:
                out.append(f"{label}: {total} stones, numbers hidden")
                continue
            stones = sorted(((int(k) if k.isdigit() else 99, pts[0]) for k, pts in kinds.items()))
            out.append(f"{label}: " + ", ".join(f"{n} {point_name(*p)}" for n, p in stones))
            continue
        keys = sorted(kinds, key=lambda k: order.index(k) if order and k in order else 99)
        parts = []
        for kind in keys:
            pts = sorted(kinds[kind], key=lambda q: (q[1], q[0]))
            word = spec.kind_names.get(kind, kind)
            parts.append(f"{_plural(word, len(pts))} " + " ".join(point_name(*q) for q in pts))
        out.append(f"{label}: " + "; ".join(parts))
    return out


def move_text(position: Position, marks: MoveMarks) -> str:
    """The last move from its marks, e.g. ``'c3xe5xc7, capturing d4 d6'``."""
    sep = "x" if marks.captured else "-"
    text = sep.join(point_name(*p) for p in marks.path)
    if marks.removed and not marks.path:
        return f"{position.variant.removal_word} " + " ".join(point_name(*p)
                                                             for p in marks.removed)
    if marks.captured:
        text += ", capturing " + " ".join(point_name(*p) for p in marks.captured)
    if marks.removed:
        text += f", {position.variant.removal_word} " + \
            " ".join(point_name(*p) for p in marks.removed)
    return text


def describe(position: Position, *, last_move: MoveMarks | None = None,
             perspective: int | None = None, names: Sequence[str] | None = None,
             deadline: str | None = None, caption: str | None = None,
             result: str | None = None) -> str:
    """The alt text of a board image (see :func:`render.alt_text`)."""
    v = position.variant
    seat = perspective if perspective is not None else _default_perspective(position)
    parts = [f"{v.name} board seen from {v.seat_name(seat, position.seat_count)}.",
             (result or status(position, names)) + "."]
    n = position.seat_count
    if position.teams:
        parts.append("Teams: " + " against ".join(
            " and ".join(v.seat_name(s, n) for s in sorted(team)) for team in position.teams)
            + ".")
    elif position.mode is not None:
        parts.append(f"Four players each for himself, {position.mode} end.")
    if (rule_set := position.rule_set) is not None:
        parts.append(f"Rules: {rule_set}.")
    general = position.checked_point()
    if general is not None:
        # After a checkmate nobody is to move, so name the checked general's owner.
        checked = position.pieces()[general].seat
        parts.append(f"{v.seat_name(checked, position.seat_count)} is in check.")
    if caption:
        parts.append(f"Last move: {caption}.")
    elif last_move is not None and (last_move.path or last_move.removed):
        parts.append(f"Last move: {move_text(position, last_move)}.")
    elif last_move is not None and not position.in_setup:
        parts.append("Last move: pass.")
    elif last_move is None and (removed := position.last_removal()):
        stones = "the stone on" if len(removed) == 1 else "the stones on"
        parts.append(f"The last move {v.removal_word} {stones} "
                     + " ".join(point_name(*p) for p in removed) + ".")
    out = position.out_seats()
    if out:
        parts.append("Out: " + ", ".join(v.seat_name(s, position.seat_count)
                                         for s in sorted(out)) + ".")
    if deadline:
        parts.append(f"Deadline: {deadline}.")
    parts.extend(t + "." for t in _pieces_text(position))
    text = " ".join(parts)
    if len(text) > MAX_ALT:
        text = text[:MAX_ALT - 1].rsplit(" ", 1)[0] + "…"
    return text


def _default_perspective(position: Position) -> int:
    movers = sorted(position.to_move)
    return movers[0] if len(movers) == 1 else 0
