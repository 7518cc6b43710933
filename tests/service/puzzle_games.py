"""Seeded games holding a known tactic each (issue 44), for the puzzle tests: the engine at
level 2 against itself from the start (``engine.choose_move(p, 2, seed=seed * 1000 + ply,
nodes=300)``), searched position by position with ``engine.puzzles.find_tactic`` (800
nodes) until the wanted tactic came: its moves up to the tactic, then the tactic's
solution as the engine finds it.

* damas (seed 16): Black's king shot c2xf5xc8, two men at once (a multi-capture)
* xiangqi (seed 3): Black's cannon i5-e5 pins the e-file and wins the rook (a cannon
  fork: the knight must go, i9xi6 takes what it left)
* alquerque (seed 1): Black's quiet c3-d3 offers a man; White's forced capture e3xc3
  walks into c4xc2xa2xa4, three men (a capture trap). Level 8's judgement since its
  table of stones' worth (2026-11-29, :class:`engine.models.alquerque.AlquerqueTopModel`)
  no longer mines it (a5-a4 stands within 161 of c3-d3, short of the gap): the scripted
  tests keep it, the real miner is asked for the next
* alquerque (seed 4): Black must take two men, with c3 or with e3; only c3xc1xa1 keeps
  the lead (the other, in the real miner's test)
* querni (seed 8): e1-d2 r14-16 chains the last stones off (a chain removal that wins)
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class SeededTactic:
    game: str
    options: dict[str, object]
    moves: tuple[str, ...]
    line: tuple[str, ...]
    goal: str


DAMAS = SeededTactic("damas", {}, (
    "d3-e4", "c6-d5", "e4xc6", "b7xd5", "e2-d3", "d5-e4", "d3xf5", "e6xg4xe2", "d1xf3",
    "g6-h5", "f3-e4", "a6-b5", "c2-d3", "f7-e6", "b3-c4", "b5-a4", "e4-f5", "e6xg4",
    "h3xf5", "a4-b3", "g2-f3", "e8-f7", "f1-e2", "b3-c2", "c4-b5", "d7-c6", "b5xd7",
    "c8xe6xg4", "h1-g2", "f7-e6", "f3-e4", "c2-d1", "g2-f3", "d1-a4", "b1-c2", "a4xd1",
    "e4-f5", "d1-c2", "f5xd7"), ("c2xf5xc8",), "material")

XIANGQI = SeededTactic("xiangqi", {}, (
    "h3-e3", "h10-g8", "b3-b4", "h8-h3", "b1-a3", "b8-b7", "a3-c2", "b7-b5", "c4-c5",
    "i7-i6", "h1-i3", "b10-c8", "a4-a5", "f10-e9", "i1-i2", "c10-e8", "c2-d4", "b5-b6",
    "b4-b2", "a10-a8", "b2-f2", "g10-i8", "f2-f9", "b6-f6", "a1-a4", "f6-f4", "a4-b4",
    "f4xi4", "i2-c2", "i10-i9", "f9-f6", "h3-h4", "b4-b6", "g7-g6", "f6xi6", "i8-g10",
    "i3-g2", "c7-c6", "b6-b9", "h4-h7", "e3-i3", "h7-h2", "g2-f4", "h2-h9", "b9-b1",
    "c6xc5", "e4-e5", "i4-i5", "b1-b7", "h9-h4", "f4-e2", "h4-h3", "e5-e6"),
    ("i5-e5", "e2-g3", "i9xi6"), "material")

ALQUERQUE = SeededTactic("alquerque", {}, (
    "d2-c3", "d4xd2", "d1xd3", "b4xd2xd4", "b2xb4", "b5xb3", "e1-d2", "b3-b2", "b1xb3",
    "a3xc3xe1", "c2-b2", "a4-b4", "b2-a3", "d4-c3", "c1-b1", "e4-d4", "a2-b2"),
    ("c3-d3", "e3xc3", "c4xc2xa2xa4"), "material")

ALQUERQUE_MINED = SeededTactic("alquerque", {}, (
    "d3-c3", "b3xd3", "e3xc3", "d4-e3", "c3-b3", "a3xc3", "b2xd4", "d5xd3", "d2xd4",
    "e5xc3", "a2-a3", "a4xa2", "a1xa3", "c5-d4", "a3xc5", "b5xd5", "c2-d2", "c4-b4",
    "c1-c2"), ("c3xc1xa1",), "material")

QUERNI = SeededTactic("querni", {"seed": 8}, (
    "j1-i2 r7-10", "i5-i6 r1-3", "h1-i2 r1-3", "c6-a4", "b1-b2 r11-13", "b7-b6",
    "c1-b2 r4-6", "b6-d4", "a2-b2", "a7-b6", "h3-g3", "j5-i5", "b2-b3", "c5-d5", "b3-b4",
    "j6-f2", "g3-e1", "h5-i6"), ("e1-d2 r14-16",), "win")

SEEDED = (DAMAS, XIANGQI, ALQUERQUE_MINED, QUERNI)
"""What the real miner finds (the scripted tests also use :data:`ALQUERQUE`)."""
