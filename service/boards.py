"""Drawing a board image of a match from what an event or the service holds: the view, the
position and its last move (``BoardState``) and the players' names. The service's
``board_image`` and the adapters' notifiers draw through this one function, so a board
says the same thing (names, the line saying how the match ended, alt text) wherever it
is drawn. Synchronous (the renderer is): run it in a thread."""

from __future__ import annotations

from collections.abc import Sequence

from locales.i18n import DEFAULT_LOCALE, render
from service import texts
from service.computer_seats import computer_title, is_computer
from service.imported_seats import imported_title, is_imported
from service.ports import BoardRenderer
from service.views import BoardImage, BoardState, MatchView


def draw_board(renderer: BoardRenderer, match: MatchView, board: BoardState,
               names: Sequence[str] | None, perspective: int | None = None,
               locale: str = DEFAULT_LOCALE) -> BoardImage:
    """The PNG and alt text of ``board``, seen from seat ``perspective`` (None: the seat
    to move); ``names`` by seat (``texts.seat_names``). An over match's image says how it
    ended (``texts.result_line``). Its words (drawn and alt text) are in ``locale``."""
    extra = {}
    if not match.status.is_live:
        extra["result"] = render(texts.result_line(match, names), locale)
    # the header names a computer seat, and an imported player, in the reader's words,
    # like every sentence
    drawn_names = None if names is None else [
        render(computer_title(s.user_id), locale)
        if s.user_id is not None and is_computer(s.user_id) else
        render(imported_title(s.player), locale) if s.player and is_imported(s.user_id)
        else name
        for s, name in zip(match.seats, names, strict=False)]
    drawn = renderer.render(board.position, last_move=board.last_marks,
                            perspective=perspective, names=drawn_names, locale=locale,
                            **extra)
    alt = str(drawn.alt_text or "") or render(
        texts.describe(match, board.position, names, board.moves), locale)
    return BoardImage(bytes(drawn.png), alt)
