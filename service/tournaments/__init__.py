"""The tournament core: pure functions over plain values, no I/O and no clock.

* ``model.py`` - ``Format``, ``Game``, ``Result``, ``TournamentError`` and the checks a
  creation runs (two-player games only; sensible player and round counts)
* ``pairing.py`` - round robin by Berger tables (single, double); Swiss rounds in the
  Dutch spirit, solved as a maximum-weight matching (networkx); forfeits of withdrawals
* ``knockout.py`` - a seeded bracket; draws replayed with colours swapped
* ``standings.py`` - points, games and tie-breaks (Sonneborn-Berger; Buchholz, median
  Buchholz, wins)
* ``table.py`` - the standings as plain rows of text (for the image and the CSV export)

Players are plain ints. The service stores the games and calls these functions; the
drawing of the table lives in ``render.table`` and takes the rows of ``table.py``.
"""

from service.tournaments.knockout import (
    bracket_order,
    knockout_round,
    next_replay,
    rounds_needed,
    tie_winner,
)
from service.tournaments.model import (
    MAX_SWISS_ROUNDS,
    TIMEOUTS_TO_WITHDRAW,
    Format,
    Game,
    Result,
    TournamentError,
    check_players,
    check_seat_count,
    parse_format,
    timed_out_twice,
)
from service.tournaments.pairing import (
    ColourState,
    colour_states,
    forfeit_unfinished,
    round_robin,
    scores,
    swiss_round,
)
from service.tournaments.standings import StandingRow, standings, tiebreak_names

__all__ = [
    "MAX_SWISS_ROUNDS",
    "TIMEOUTS_TO_WITHDRAW",
    "ColourState",
    "Format",
    "Game",
    "Result",
    "StandingRow",
    "TournamentError",
    "bracket_order",
    "check_players",
    "check_seat_count",
    "colour_states",
    "forfeit_unfinished",
    "knockout_round",
    "next_replay",
    "parse_format",
    "round_robin",
    "rounds_needed",
    "scores",
    "standings",
    "swiss_round",
    "tie_winner",
    "tiebreak_names",
    "timed_out_twice",
]
