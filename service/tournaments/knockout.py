"""Knockout for two-player games: a seeded bracket, byes to the top seeds, and ties that
go on until a game is decisive (a draw is replayed with the colours swapped).

    >>> bracket_order(8)
    [0, 7, 3, 4, 1, 6, 2, 5]
    >>> [(g.first, g.second) for g in knockout_round([10, 20, 30], [], 1)]
    [(10, None), (20, 30)]

A tie is the games of one pairing in one round, ``replay`` 0, 1, 2...:

    >>> g0 = Game(1, 1, 2, Result.DRAW)
    >>> tie_winner([g0]), next_replay([g0])
    (None, Game(round=1, first=2, second=1, result=None, replay=1, timed_out=None))
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from service.tournaments.model import Game, Result, TournamentError

__all__ = ["bracket_order", "knockout_round", "next_replay", "rounds_needed", "tie_winner"]


def rounds_needed(count: int) -> int:
    """Rounds of a knockout of ``count`` players (the bracket is the next power of two)."""
    rounds, size = 0, 1
    while size < count:
        size *= 2
        rounds += 1
    return rounds


def bracket_order(size: int) -> list[int]:
    """Seed indices (0 = top seed) in bracket order for a bracket of ``size`` (a power of
    two): seeds 1 and 2 can only meet in the final, 1-4 in the semi-finals, and so on."""
    if size < 1 or size & (size - 1):
        raise TournamentError("a bracket size is a power of two", size)
    order = [0]
    while len(order) < size:
        n = len(order) * 2
        order = [x for s in order for x in (s, n - 1 - s)]
    return order


def _winner_or_bye(games: Sequence[Game]) -> int | None:
    if len(games) == 1 and games[0].second is None:
        return games[0].first
    return tie_winner(games)


def tie_winner(games: Sequence[Game]) -> int | None:
    """Who goes through from a tie's games (None while it is undecided): the winner of
    its first decisive game, or the one left when a bye."""
    for g in sorted(games, key=lambda g: g.replay):
        if g.second is None and g.result is Result.BYE:
            return g.first
        w = g.winner()
        if w is not None:
            return w
    return None


def next_replay(games: Sequence[Game]) -> Game | None:
    """The next game of a tie whose games so far are all drawn (colours swapped), or
    None when it is decided or a game is still running."""
    if not games:
        raise TournamentError("a tie has at least one game", games)
    last = max(games, key=lambda g: g.replay)
    if last.result is None or not last.result.drawn or tie_winner(games) is not None:
        return None
    assert last.second is not None
    return Game(last.round, last.second, last.first, None, last.replay + 1)


def knockout_round(players: Sequence[int], games: Iterable[Game], round_no: int
                   ) -> list[Game]:
    """The first game of every tie of round ``round_no``. Round 1 seeds ``players``
    (seeding order) into a bracket, the top seeds getting the byes; later rounds pair
    the winners of the previous round's ties in bracket order (which must all be
    decided). The higher seed of a tie has seat 0 in its first game."""
    seed = {p: i for i, p in enumerate(players)}
    if len(seed) != len(players):
        raise TournamentError("a player is listed twice", list(players))
    if len(players) < 2:
        raise TournamentError("a knockout needs at least 2 players", len(players))
    size = 1 << rounds_needed(len(players))
    order = bracket_order(size)
    if round_no == 1:
        slots: list[int | None] = [players[i] if i < len(players) else None for i in order]
    else:
        # a tie of round k covers 2**k bracket places: its index is place >> k
        place = {players[i]: at for at, i in enumerate(order) if i < len(players)}
        ties: dict[int, list[Game]] = {}
        for g in games:
            if g.round == round_no - 1:
                ties.setdefault(place[g.first] >> (round_no - 1), []).append(g)
        slots = []
        for key in sorted(ties):
            w = _winner_or_bye(ties[key])
            if w is None:
                raise TournamentError(f"round {round_no - 1} is not decided yet", round_no)
            slots.append(w)
        if len(slots) < 2:
            raise TournamentError("the knockout is over", round_no)
    out = []
    for a, b in zip(slots[::2], slots[1::2], strict=True):
        if a is None or b is None:
            alone = a if a is not None else b
            if alone is not None:
                out.append(Game(round_no, alone, None, Result.BYE))
            continue
        hi, lo = (a, b) if seed[a] < seed[b] else (b, a)
        out.append(Game(round_no, hi, lo))
    return out
