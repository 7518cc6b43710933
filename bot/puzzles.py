"""What the console and Discord show of the puzzles (issue 44): the puzzle's words ("Red to
move and win material"), what an answer did, the leaderboard's lines, and the picture (the
position seen from the puzzle's side, the last reply highlighted; its alt text says the
task too)."""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import rules
from locales.i18n import Words, _, _n, command, command_mentions, decimal, joined, listing, render
from locales.terms import game_name, seat_colour
from rules import MoveMarks, Position
from service import PuzzleAnswer, PuzzleView
from service.records import PuzzlePlayer


def side_name(position: Position[Any], seat: int) -> Words:
    """The puzzle side's colour: Red, Black, White..."""
    return seat_colour(position.variant.seat_name(seat, position.seat_count))


def task(game: str, position: Position[Any], seat: int, goal: str) -> Words:
    """What the puzzle asks: "Red to move and win material"."""
    side = side_name(position, seat)
    if goal == "win":
        return _("{side} to move and win the game", side=side)
    if goal == "save":
        return _("{side} to move and save the game", side=side)
    return _("{side} to move and win material", side=side)


def heading(view: PuzzleView) -> Words:
    """The puzzle's title: its number, game, difficulty and rating."""
    return _("Puzzle #{puzzle} · {game} · difficulty {difficulty}/5 · rating {rating}",
             puzzle=view.id, game=game_name(view.game), difficulty=view.difficulty,
             rating=decimal(view.rating))


def source(view: PuzzleView) -> Words:
    """Where it comes from: the match, the move, its players."""
    players = [n for n in view.players if n]
    if not players:
        return _("From match #{match}, move {move}.", match=view.match_id, move=view.ply + 1)
    return _("From match #{match} ({players}), move {move}.", match=view.match_id,
             players=listing(players), move=view.ply + 1)


def progress(view: PuzzleView) -> Words:
    """How far the solver is, and how to answer; a puzzle he tried before says that this
    try is practice (unrated) before he answers, not only after."""
    said = _progress(view)
    if view.player.rated:
        return said
    return joined(said, _("A puzzle tried before: practice, unrated."), separator="\n")


def _progress(view: PuzzleView) -> Words:
    if view.steps <= 1:
        return _("Find the move: `{answer}`.", answer=command("puzzle answer"))
    return _n("Find the moves: {count} of yours in all, {done} found so far. "
              "Answer with `{answer}`.",
              "Find the moves: {count} of yours in all, {done} found so far. "
              "Answer with `{answer}`.", view.steps, count=view.steps, done=view.step,
              answer=command("puzzle answer"))


def record_line(player: PuzzlePlayer) -> Words:
    """A solver's puzzle record: rating, solved and failed, streak."""
    return _("Your puzzle rating {rating} · solved {solved}, failed {failed} · streak "
             "{streak} (best {best})", rating=decimal(player.rating), solved=player.solved,
             failed=player.failed, streak=player.streak, best=player.best_streak)


def answer_lines(answer: PuzzleAnswer) -> list[Words]:
    """What an answer did, in sentences."""
    view = answer.puzzle
    lines: list[Words] = []
    if answer.right and not answer.solved:
        lines.append(_("✓ {move} is right.", move=answer.move))
        if answer.replies:
            lines.append(_("The answer: {moves}.", moves=" ".join(answer.replies)))
        lines.append(_("{side} to move again: `{answer}`.",
                       side=side_name(view.position, view.seat),
                       answer=command("puzzle answer")))
        return lines
    if answer.solved:
        lines.append(_("✓ {move}: solved!", move=answer.move))
    else:
        lines.append(_("✗ {move} is not it.", move=answer.move))
        if answer.refutation:
            lines.append(_("It is met by {moves}.", moves=" ".join(answer.refutation)))
        lines.append(_("The solution: {moves}.", moves=" ".join(answer.solution)))
    if answer.rating_before is not None and answer.rating_after is not None:
        lines.append(_("Puzzle rating {before} → {after}; streak {streak}.",
                       before=decimal(answer.rating_before),
                       after=decimal(answer.rating_after), streak=view.player.streak))
    else:
        lines.append(_("A puzzle tried before: practice, unrated."))
    lines.append(_("Next: `{next}`.", next=command("puzzle next")))
    return lines


def leaderboard_lines(players: list[PuzzlePlayer], name: Callable[[int], str]) -> list[Words]:
    """The server's puzzle leaderboard, one line a player."""
    if not players:
        return [_("Nobody here has solved or failed a puzzle yet: `{next}`.",
                  next=command("puzzle next"))]
    return [_("{rank}. {player}: {rating} · solved {solved}, failed {failed} · best streak "
              "{best}", rank=n, player=name(p.user_id), rating=decimal(p.rating),
              solved=p.solved, failed=p.failed, best=p.best_streak)
            for n, p in enumerate(players, start=1)]


@dataclass(frozen=True, slots=True)
class PuzzlePicture:
    png: bytes
    alt_text: str


def picture_of(position: Position[Any], seat: int, said: Words, locale: str,
               last: MoveMarks | None = None) -> PuzzlePicture | None:
    """The position seen from ``seat`` (the last move highlighted), its alt text ending
    with ``said`` (the task, or what happened), or None without the renderer."""
    try:
        draw_board = importlib.import_module("render").draw_board
    except (ImportError, AttributeError):
        return None
    drawn = draw_board(position, last_move=last, perspective=seat, locale=locale)
    with command_mentions(None):  # an alt text shows a command mention written out
        alt = render(joined(drawn.alt_text, said), locale)
    return PuzzlePicture(bytes(drawn.png), alt[:1000])


def picture(view: PuzzleView, locale: str) -> PuzzlePicture | None:
    """The puzzle as it stands, its alt text saying the task."""
    return picture_of(view.position, view.seat, caption(view), locale, view.last)


def caption(view: PuzzleView) -> Words:
    """What a puzzle's picture says after the board: its task, then its heading."""
    return joined(task(view.game, view.position, view.seat, view.goal), heading(view),
                  separator=" · ")


def daily_position(game: str, text: str) -> Position[Any] | None:
    """A daily puzzle's position from its stored text (None: it no longer reads)."""
    try:
        position: Position[Any] = rules.variant(game).from_text(text)
    except (rules.RulesError, KeyError, ValueError):
        return None
    return position
