"""Pairings: round robin by Berger tables, and Swiss rounds in the Dutch spirit solved as a
maximum-weight matching (networkx). Pure functions over :class:`Game` values.

Round robin::

    >>> rounds = round_robin([11, 12, 13, 14])
    >>> [(g.first, g.second) for g in rounds[0]]
    [(11, 14), (12, 13)]
    >>> len(round_robin([1, 2, 3, 4], double=True))
    6

Swiss (``players`` in seeding order, e.g. by rating; ``games`` everything played so far)::

    >>> r1 = swiss_round([1, 2, 3, 4, 5, 6, 7, 8], [], 1)
    >>> sorted(tuple(sorted(g.players)) for g in r1)
    [(1, 5), (2, 6), (3, 7), (4, 8)]

The Swiss criteria, strongest first (each one gives way only to those above it):

1. everyone still in is paired, or gets the bye when their number is odd;
2. nobody gets a second bye while someone without one could take it;
3. nobody meets the same opponent twice while that can be avoided;
4. colours: a player's colour difference stays within +-2 and nobody gets the same
   colour three times running, where avoidable;
5. score groups: players meet others on the same score (least total score difference,
   squared, so one long float costs more than two short ones); the bye goes to the
   lowest score;
6. within a score group the top half meets the bottom half (1-5, 2-6... of eight), as the
   Dutch system does, and colour preferences are met where they can be;

Every criterion is an integer cost per edge; the costs are weighted so that no amount of
a weaker cost outweighs one unit of a stronger one, and networkx's
``max_weight_matching(maxcardinality=True)`` (exact with integers) picks the best
perfect matching. An odd field gets one ``bye`` vertex joined to every player.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from service.tournaments.model import Game, Result, TournamentError

__all__ = [
    "ColourState",
    "colour_states",
    "forfeit_unfinished",
    "round_robin",
    "scores",
    "swiss_round",
]

MAX_COLOUR_DIFF = 2


# --------------------------------------------------------------------------- round robin


def round_robin(players: Sequence[int], *, double: bool = False) -> list[list[Game]]:
    """Every round of a round robin by the Berger tables (FIDE C.05 Annex 1): player
    ``players[i]`` is Berger number ``i + 1``. With an odd count a rest round (no point)
    takes the place of the missing player. A double round robin plays the tables twice,
    colours swapped in the second cycle (the first cycle's last two rounds swapped, so
    no colour comes three times running; colours end level).

    In round ``r`` (1-based) of ``n`` numbers, ``i`` and ``j`` (both below ``n``) meet when
    ``i + j = r + 1 (mod n - 1)``, the lower number having seat 0 when ``i + j`` is odd;
    the one left meets ``n``, who has seat 0 in even rounds.
    """
    ids = list(players)
    if len(set(ids)) != len(ids):
        raise TournamentError("a player is listed twice", ids)
    if len(ids) < 2:
        raise TournamentError("a round robin needs at least 2 players", len(ids))
    rest: int | None = None
    slots: list[int | None] = [*ids]
    if len(slots) % 2:
        slots.append(rest)
    n = len(slots)
    cycle: list[list[tuple[int | None, int | None]]] = []
    for r in range(1, n):
        pairs: list[tuple[int | None, int | None]] = []
        target = (r + 1) % (n - 1)
        for i in range(1, n):
            if (2 * i) % (n - 1) == target:
                pairs.append((slots[n - 1], slots[i - 1]) if r % 2 == 0
                             else (slots[i - 1], slots[n - 1]))
        for i in range(1, n):
            for j in range(i + 1, n):
                if (i + j) % (n - 1) == target:
                    low, high = slots[i - 1], slots[j - 1]
                    pairs.append((low, high) if (i + j) % 2 else (high, low))
        cycle.append(pairs)
    cycles = [cycle]
    if double:
        # FIDE's advice: swap the last two rounds of the first cycle, so nobody has the
        # same colour three times running where the cycles meet
        first = cycle[:-2] + cycle[-2:][::-1] if len(cycle) >= 2 else cycle
        cycles = [first, [[(b, a) for a, b in pairs] for pairs in cycle]]
    out: list[list[Game]] = []
    for c in cycles:
        for pairs in c:
            rnd = len(out) + 1
            games = []
            for a, b in pairs:
                if a is None or b is None:
                    alone = a if a is not None else b
                    assert alone is not None
                    games.append(Game(rnd, alone, None, Result.REST))
                else:
                    games.append(Game(rnd, a, b))
            games.sort(key=lambda g: (g.second is None, min(ids.index(p) for p in g.players)))
            out.append(games)
    return out


def forfeit_unfinished(games: Iterable[Game], withdrawn: Iterable[int]) -> list[Game]:
    """Withdrawals forfeit their remaining games: each unfinished game of a withdrawn
    player is scored as a forfeit win for the opponent (a loss for both if both left).
    Finished games are returned unchanged."""
    gone = set(withdrawn)
    out = []
    for g in games:
        if g.result is not None or g.second is None or not gone & set(g.players):
            out.append(g)
            continue
        if g.first in gone and g.second in gone:
            result = Result.BOTH_FORFEIT
        elif g.first in gone:
            result = Result.SECOND_WINS_FORFEIT
        else:
            result = Result.FIRST_WINS_FORFEIT
        out.append(Game(g.round, g.first, g.second, result, g.replay, g.timed_out))
    return out


# --------------------------------------------------------------------------- Swiss


def scores(games: Iterable[Game]) -> dict[int, float]:
    """Points per player over ``games`` (byes and forfeits included)."""
    out: dict[int, float] = {}
    for g in games:
        for p in g.players:
            out[p] = out.get(p, 0.0) + g.points_of(p)
    return out


@dataclass(frozen=True, slots=True)
class ColourState:
    """A player's colours so far: ``diff`` = games in seat 0 minus games in seat 1, and
    the colours of his played games, oldest first (byes and forfeits have none)."""

    diff: int
    history: tuple[int, ...]

    def must(self) -> int | None:
        """The colour he must have next so the limits hold (None: either is fine).

        >>> ColourState(2, (0, 0)).must(), ColourState(0, (1, 0, 0)).must()
        (1, 1)
        """
        if self.diff >= MAX_COLOUR_DIFF:
            return 1
        if self.diff <= -MAX_COLOUR_DIFF:
            return 0
        if len(self.history) >= 2 and self.history[-1] == self.history[-2]:
            return 1 - self.history[-1]
        return None

    def preference(self) -> tuple[int | None, int]:
        """(colour wanted, strength 0-3): 3 absolute, 2 strong (diff +-1), 1 mild
        (alternate), 0 none (no game yet)."""
        m = self.must()
        if m is not None:
            return m, 3
        if self.diff:
            return (1 if self.diff > 0 else 0), 2
        if self.history:
            return 1 - self.history[-1], 1
        return None, 0

    def allows(self, colour: int) -> bool:
        """Whether taking ``colour`` keeps him within the limits."""
        diff = self.diff + (1 if colour == 0 else -1)
        three = len(self.history) >= 2 and self.history[-1] == self.history[-2] == colour
        return abs(diff) <= MAX_COLOUR_DIFF and not three


def colour_states(games: Iterable[Game]) -> dict[int, ColourState]:
    """Each player's :class:`ColourState` over the played games, in round order."""
    hist: dict[int, list[int]] = {}
    for g in sorted(games, key=lambda g: (g.round, g.replay)):
        for p in g.players:
            hist.setdefault(p, [])
            c = g.colour_of(p)
            if c is not None and g.result is not None:
                hist[p].append(c)
    return {p: ColourState(sum(1 if c == 0 else -1 for c in h), tuple(h))
            for p, h in hist.items()}


_BYE = -1  # the bye vertex (player ids are user ids, never negative)


def swiss_round(players: Sequence[int], games: Iterable[Game], round_no: int,
                withdrawn: Iterable[int] = ()) -> list[Game]:
    """The games of Swiss round ``round_no``: every player of ``players`` (seeding order)
    not ``withdrawn`` is paired once, or gets the bye (``Result.BYE``, one point). The
    earlier rounds' ``games`` must all be finished. Boards are ordered by score."""
    history = list(games)
    if any(g.result is None for g in history):
        raise TournamentError("the previous round is not finished", round_no)
    gone = set(withdrawn)
    active = [p for p in players if p not in gone]
    if len(set(active)) != len(active):
        raise TournamentError("a player is listed twice", list(players))
    if len(active) < 2:
        raise TournamentError("a Swiss round needs at least 2 players", len(active))
    seed = {p: i for i, p in enumerate(players)}
    points = scores(history)
    colours = colour_states(history)
    met: dict[tuple[int, int], int] = {}
    byes: dict[int, int] = {}
    for g in history:
        if g.second is None:
            if g.result is Result.BYE:
                byes[g.first] = byes.get(g.first, 0) + 1
        elif g.result is not None and g.result is not Result.BOTH_FORFEIT:
            key = (min(g.first, g.second), max(g.first, g.second))
            met[key] = met.get(key, 0) + 1

    half = {p: round(2 * points.get(p, 0.0)) for p in active}  # scores in half points
    ranked = sorted(active, key=lambda p: (-half[p], seed[p]))
    rank = {p: i for i, p in enumerate(ranked)}
    group: dict[int, list[int]] = {}
    for p in ranked:
        group.setdefault(half[p], []).append(p)
    pos = {p: (i, len(members)) for members in group.values() for i, p in enumerate(members)}
    state = {p: colours.get(p, ColourState(0, ())) for p in active}
    odd = len(active) % 2 == 1
    lowest = min(half.values())
    spread = max(half.values()) - lowest + 2

    # Costs per criterion (each bounded); weights make them lexicographic.
    n_edges = len(active) // 2 + 1
    bounds = [1, 1, 1, spread * spread, 2 * len(active) * len(active) + 4]
    weights = [0] * len(bounds)
    unit = 1
    for k in range(len(bounds) - 1, -1, -1):
        weights[k] = unit
        unit *= bounds[k] * n_edges + 1
    top = unit

    def cost(parts: Sequence[int]) -> int:
        return sum(w * c for w, c in zip(weights, parts, strict=True))

    # networkx is imported here, not at the top: every process that imports the service
    # (the bot, its engine workers, each command) would load it, 0.2 s of CPU time each
    import networkx as nx

    graph = nx.Graph()
    graph.add_nodes_from(active)
    for i, a in enumerate(active):
        for b in active[i + 1:]:
            repeat = met.get((min(a, b), max(a, b)), 0)
            ma, mb = state[a].must(), state[b].must()
            clash = int(ma is not None and ma == mb)
            diff = half[a] - half[b]
            fine = _dutch_cost(a, b, pos, half, state)
            parts = [0, min(repeat, 1), clash, diff * diff, fine]
            graph.add_edge(a, b, weight=top - cost(parts))
    if odd:
        for p in active:
            second = int(byes.get(p, 0) > 0)
            above = half[p] - lowest + 1
            # the lowest score, and within it the lowest ranked, gets the bye
            parts = [second, 0, 0, above * above, len(active) - rank[p]]
            graph.add_edge(_BYE, p, weight=top - cost(parts))

    matching = nx.max_weight_matching(graph, maxcardinality=True)
    out: list[Game] = []
    bye_game: Game | None = None
    for a, b in matching:
        if _BYE in (a, b):
            bye_game = Game(round_no, b if a == _BYE else a, None, Result.BYE)
            continue
        first, second = _allocate(a, b, state, rank, round_no)
        out.append(Game(round_no, first, second))
    out.sort(key=lambda g: (-max(half[p] for p in g.players),
                            min(rank[p] for p in g.players)))
    if round_no == 1 or all(s.preference()[1] == 0 for s in state.values()):
        out = [_first_round_colours(g, i, rank) for i, g in enumerate(out)]
    if bye_game is not None:
        out.append(bye_game)
    paired = sorted(p for g in out for p in g.players)
    if paired != sorted(active):  # the matching is perfect by construction; be sure
        raise TournamentError("the pairing left a player out", round_no)
    return out


def _dutch_cost(a: int, b: int, pos: dict[int, tuple[int, int]], half: dict[int, int],
                state: dict[int, ColourState]) -> int:
    """The finest criteria: in a score group of ``g`` players, the ``i``-th meets the
    ``i + g // 2``-th (top half against bottom half), and colour wishes that clash."""
    cost = 0
    if half[a] == half[b]:
        (ia, size), (ib, _size) = pos[a], pos[b]
        gap = abs(ia - ib)
        cost += 2 * abs(gap - size // 2)
    wa, sa = state[a].preference()
    wb, sb = state[b].preference()
    if wa is not None and wa == wb:
        cost += min(sa, sb)
    return cost


def _allocate(a: int, b: int, state: dict[int, ColourState], rank: dict[int, int],
              round_no: int) -> tuple[int, int]:
    """Seat 0 and seat 1 of a pair: an absolute need first, then the stronger wish, then
    the higher ranked player's wish; without any wish, alternate by the higher ranked
    player's last colour."""
    wa, sa = state[a].preference()
    wb, sb = state[b].preference()
    hi, lo = (a, b) if rank[a] < rank[b] else (b, a)
    if wa is not None and wb is not None and wa != wb:
        return (a, b) if wa == 0 else (b, a)
    if sa != sb:
        strong, want = (a, wa) if sa > sb else (b, wb)
        if want is not None:
            other = b if strong == a else a
            return (strong, other) if want == 0 else (other, strong)
    want_hi = state[hi].preference()[0]
    if want_hi is not None:
        return (hi, lo) if want_hi == 0 else (lo, hi)
    return (hi, lo) if round_no % 2 else (lo, hi)


def _first_round_colours(g: Game, board: int, rank: dict[int, int]) -> Game:
    """Round one: the higher ranked player has seat 0 on odd boards (1, 3...), seat 1 on
    even ones, as the Dutch system does."""
    assert g.second is not None
    hi, lo = (g.first, g.second) if rank[g.first] < rank[g.second] else (g.second, g.first)
    first, second = (hi, lo) if board % 2 == 0 else (lo, hi)
    return Game(g.round, first, second)
