"""Issue 21, defect 8: in Querni ``setup=choose`` the first arrangement submitted stays
secret until both are in, on every read path: the match view, the SetupSubmitted event,
``position()``, the history and its export, the record, the board image and its alt
text, the MatchEnded event of a match that ends in its setup."""

from __future__ import annotations

import random

from bot.boards import load_renderer
from locales.i18n import render
from service import MatchEnded, MatchService, Repository, SetupSubmitted
from tests.service.conftest import ALICE, BOB, CHANNEL, GUILD, Recorder, SetClock

SECRET = (3, 1, 2, 9, 16, 4, 15, 5, 14, 6, 13, 7, 12, 8, 11, 10)
SECRET_TEXT = ",".join(map(str, SECRET))


def leaks(text: str) -> bool:
    return SECRET_TEXT in text or " ".join(map(str, SECRET)) in text


class RecordingRenderer:
    """The real renderer, remembering the position text and alt text of every image."""

    def __init__(self) -> None:
        real = load_renderer()
        assert real is not None
        self.real = real
        self.seen: list[str] = []

    def render(self, position: object, **kw: object) -> object:
        self.seen.append(position.to_text())  # type: ignore[attr-defined]
        drawn = self.real.render(position, **kw)  # type: ignore[arg-type]
        self.seen.append(drawn.alt_text)
        return drawn


async def test_the_first_arrangement_is_hidden_on_every_read_path(repo: Repository) -> None:
    recorder = Recorder()
    renderer = RecordingRenderer()
    service = MatchService(repo, recorder, SetClock(), rng=random.Random(1),
                           renderer=renderer)  # type: ignore[arg-type]
    m = await service.challenge(GUILD, CHANNEL, ALICE, "querni", opponents=[BOB],
                                options={"setup": "choose"}, seat="blue")
    await service.accept(m.id, BOB)
    await service.submit_setup(m.id, ALICE, " ".join(map(str, SECRET)))

    view = await service.get_match(m.id)
    assert view.position_text.startswith("setup") and not leaks(view.position_text)
    (submitted,) = recorder.of(SetupSubmitted)
    assert isinstance(submitted, SetupSubmitted)
    assert not leaks(submitted.match.position_text)
    p, _ = await service.position(m.id)
    assert p.in_setup and p.has_submitted(0) and not leaks(p.to_text())
    h = await service.history(m.id)
    assert not leaks(h.export) and not any(leaks(" ".join(map(str, e))) for e in h.entries)
    assert not leaks(h.match.position_text)
    rec = await service.record(m.id)
    assert all(x.move is None and not leaks(x.position.to_text()) for x in rec.plies)
    image = await service.board_image(m.id)
    assert image is not None and not leaks(image.alt)
    stepped = await service.board_at(m.id, 1)  # the replay stepper (issue 42)
    assert stepped.image is not None and not leaks(stepped.image.alt)
    assert stepped.step is not None and stepped.step.move is None
    assert not leaks(stepped.position.to_text()) and not leaks(stepped.step.display)
    assert renderer.seen and not any(leaks(t) for t in renderer.seen)
    assert not leaks(render(service.describe(view, p), "en-US"))
    assert not leaks(str([g.position_text for g in await service.games_of(GUILD, BOB)]))

    # A match that ends in its setup (here: Bob resigns) keeps the secret for ever.
    await service.resign(m.id, BOB)
    (ended,) = recorder.of(MatchEnded)
    assert isinstance(ended, MatchEnded)
    assert not leaks(ended.match.position_text)
    assert ended.board is None or not leaks(ended.board.position.to_text())
    assert not leaks((await service.get_match(m.id)).position_text)
    p, _ = await service.position(m.id)
    assert not leaks(p.to_text())


async def test_both_arrangements_show_once_both_are_in(service: MatchService) -> None:
    m = await service.challenge(GUILD, CHANNEL, ALICE, "querni", opponents=[BOB],
                                options={"setup": "choose"}, seat="blue")
    await service.accept(m.id, BOB)
    await service.submit_setup(m.id, ALICE, " ".join(map(str, SECRET)))
    r = await service.submit_setup(m.id, BOB, " ".join(map(str, range(1, 17))))
    assert not r.match.position_text.startswith("setup")
    p, _ = await service.position(m.id)
    assert len(p.pieces()) == 32
    rec = await service.record(m.id)
    assert all(x.move is not None for x in rec.plies)


async def test_after_n_moves_counts_moves_as_players_do(service: MatchService,
                                                        repo: Repository) -> None:
    """Issue 21 (clarity): set-up submissions and resignations are not moves."""
    m = await service.challenge(GUILD, CHANNEL, ALICE, "querni", opponents=[BOB],
                                options={"setup": "choose"}, seat="blue")
    await service.accept(m.id, BOB)
    await service.submit_setup(m.id, ALICE, " ".join(map(str, SECRET)))
    r = await service.submit_setup(m.id, BOB, " ".join(map(str, range(1, 17))))
    p, _ = await service.position(m.id)
    assert ", after 0 moves:" in render(service.describe(r.match, p), "en-US")
    first = (await service.suggest_moves(m.id, ALICE))[0][0]
    moved = await service.move(m.id, ALICE, first)
    assert moved.board is not None and moved.board.moves == 1
    p, _ = await service.position(m.id)
    assert ", after 1 move:" in render(service.describe(moved.match, p), "en-US")
    fresh = MatchService(repo, Recorder(), SetClock())  # a cache miss: counted on replay
    view = await fresh.get_match(m.id)
    p, _ = await fresh.position(m.id)
    assert ", after 1 move:" in render(fresh.describe(view, p), "en-US")
