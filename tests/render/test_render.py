"""Board images: sizes, overlays where they belong (sampled pixels), perspective, alt
text, GIF replays, and every position of seeded random games of every variant."""

from __future__ import annotations

import io
import random
from collections.abc import Iterator
from typing import Any

import pytest
from fontTools.ttLib import TTFont
from PIL import Image

import render
import rules
from render import style
from rules import MoveMarks, Position, Variant

CASES = [pytest.param(v, dict(o), id=f"{key}-{i}")
         for key, v in rules.VARIANTS.items() for i, o in enumerate(v.example_options)]


def rgb(board: render.RenderedBoard) -> Image.Image:
    img = Image.open(io.BytesIO(board.png))
    assert img.format == "PNG"
    assert img.mode == "P"  # a palette PNG
    assert img.size == (board.width, board.height)
    return img.convert("RGB")


def dist(a: tuple[int, ...], b: tuple[int, ...]) -> int:
    return sum(abs(x - y) for x, y in zip(a, b, strict=True))


def walk(v: Variant, start: Position, seed: int, plies: int,
         prefer_capture: bool = False) -> Iterator[tuple[Position, Any, Position]]:
    rng = random.Random(seed)
    p = start
    for _ in range(plies):
        if p.outcome() is not None or len(p.to_move) != 1:
            return
        moves = list(p.legal_moves())
        if not moves:
            return
        caps = [m for m in moves if v.move_marks(p, m).captured] if prefer_capture else []
        m = rng.choice(caps or moves)
        after = p.play(m)
        yield p, m, after
        p = after


# --------------------------------------------------------------------------- sizes


@pytest.mark.parametrize(("v", "options"), CASES)
def test_board_is_about_the_requested_size(v: Variant, options: dict[str, object]) -> None:
    p = v.start(**options)
    for size in (700, 400):
        board = render.draw_board(p, size=size)
        img = rgb(board)
        assert size * 0.95 <= max(img.size) <= size
        assert min(img.size) >= size * 0.6
        assert len(board.png) <= 30 * 1024


def test_bundled_font_has_every_xiangqi_glyph() -> None:
    font = TTFont(io.BytesIO(style._font_bytes("TableroHan-Bold.otf")))
    cmap = font.getBestCmap()
    needed = "".join(c for side in style.XIANGQI_CHARS.values() for c in side.values())
    for char in needed + "楚河漢界":
        assert ord(char) in cmap, char


# --------------------------------------------------------------------------- overlays


def test_last_move_highlights_start_point_of_a_point_board() -> None:
    v = rules.variant("xiangqi")
    p = v.start()
    m = v.parse_move(p, "h3-e3")
    board = render.draw_board(p.play(m), last_move=v.move_marks(p, m), perspective=0)
    img = rgb(board)
    moved_from = img.getpixel(board.point_centre((7, 2)))
    plain = img.getpixel(board.point_centre((3, 2)))  # d3: an empty point, same rank
    assert dist(moved_from, style.LAST_MOVE) < dist(plain, style.LAST_MOVE) - 60
    # the same image without the move marks has no highlight there
    bare = rgb(render.draw_board(p.play(m), perspective=0))
    assert dist(bare.getpixel(board.point_centre((7, 2))), plain) < 30


def test_last_move_tints_both_squares_on_a_draughts_board() -> None:
    v = rules.variant("damas")
    p = v.start()
    m = v.parse_move(p, "b3-c4")
    board = render.draw_board(p.play(m), last_move=v.move_marks(p, m), perspective=0)
    img = rgb(board)
    step = board.layout.step

    def corner(point: tuple[int, int]) -> tuple[int, int]:  # inside the square, off the piece
        x, y = board.point_centre(point)
        return x + round(step * 0.42), y + round(step * 0.42)

    plain = img.getpixel(corner((4, 3)))  # e4: an empty playing square
    for point in ((1, 2), (2, 3)):
        tinted = img.getpixel(corner(point))
        assert dist(tinted, plain) > 25
        assert dist(tinted, style.LAST_MOVE) < dist(plain, style.LAST_MOVE)


def test_captured_points_get_a_red_cross() -> None:
    v = rules.variant("damas")
    before, m, after = next((b, m, a) for b, m, a in walk(v, v.start(), 3, 200, True)
                            if v.move_marks(b, m).captured)
    marks = v.move_marks(before, m)
    board = render.draw_board(after, last_move=marks, before=before, perspective=0)
    img = rgb(board)
    for point in marks.captured:
        assert dist(img.getpixel(board.point_centre(point)), style.CAPTURE_MARK) < 60
    empty = next((x, y) for x in range(8) for y in range(8)
                 if (x + y) % 2 and (x, y) not in after.pieces()
                 and (x, y) not in marks.path and (x, y) not in marks.captured)
    assert dist(img.getpixel(board.point_centre(empty)), style.CAPTURE_MARK) > 150


def test_removed_points_are_marked() -> None:
    v = rules.variant("querni")
    p = v.start(arrangement=(tuple(range(1, 17)), tuple(range(1, 17))))
    m = v.parse_move(p, "r1-3")
    marks = v.move_marks(p, m)
    assert len(marks.removed) == 3
    board = render.draw_board(p.play(m), last_move=marks, before=p, perspective=0)
    img = rgb(board)
    r = round(board.layout.step * 0.84 * 1.08 / 2 * 0.88)  # on the dashed ring
    for point in marks.removed:
        x, y = board.point_centre(point)
        ring = [img.getpixel((x + dx, y + dy)) for dx, dy in ((r, 0), (-r, 0), (0, r), (0, -r))]
        assert min(dist(c, style.REMOVED_MARK) for c in ring) < 60


def test_check_glows_around_the_general() -> None:
    v = rules.variant("xiangqi")
    checked = v.from_text("4k4/9/9/9/9/9/9/9/4R4/3K5 b - - 0 1")
    calm = v.from_text("4k4/9/9/9/9/9/9/9/3R5/3K5 b - - 0 1")
    for p, glowing in ((checked, True), (calm, False)):
        board = render.draw_board(p, perspective=0)
        img = rgb(board)
        x, y = board.point_centre((4, 9))
        off = round(board.layout.step * 0.52)  # just outside the disc
        ring = [img.getpixel((x + dx, y + dy)) for dx, dy in ((off, 0), (-off, 0), (0, off))]
        reddish = [c for c in ring if c[0] > c[1] + 60 and c[0] > c[2] + 60]
        assert bool(reddish) is glowing
        assert ("in check" in board.alt_text) is glowing


# --------------------------------------------------------------------------- perspective


def ink_count(img: Image.Image, box: tuple[int, int, int, int],
              colour: tuple[int, int, int], tolerance: int = 60) -> int:
    return sum(1 for c in img.crop(box).get_flattened_data() if dist(c, colour) < tolerance)


def test_perspective_turns_the_xiangqi_board() -> None:
    p = rules.variant("xiangqi").start()
    red = style.XIANGQI_INK["red"]
    for seat in (0, 1):
        board = render.draw_board(p, perspective=seat)
        img = rgb(board)
        x, y = board.point_centre((4, 0))  # Red's general, e1
        assert (y > board.height / 2) is (seat == 0)
        s = board.layout.step // 3
        assert ink_count(img, (x - s, y - s, x + s, y + s), red) > 20
        # and the point mirrored through the centre holds Black's general, not red ink
        mx, my = board.width - x + (board.layout.margin - board.layout.edge) * (
            1 if seat == 0 else -1), board.layout.header + board.height - y
        assert ink_count(img, (mx - s, my - s, mx + s, my + s), red) == 0


def test_four_player_perspective_puts_the_seat_edge_at_the_bottom() -> None:
    v = rules.variant("alquerque-grande")
    p = v.start(players=4, mode="teams")
    turquoise = style.SEAT_LOOKS["turquoise"].body
    board = render.draw_board(p, perspective=1)
    img = rgb(board)
    ox, oy = board.layout.origin
    step = board.layout.step
    bottom = (ox, oy + 6 * step, ox + 7 * step, oy + 7 * step)
    top = (ox, oy, ox + 7 * step, oy + step)
    assert ink_count(img, bottom, turquoise) > 5 * ink_count(img, top, turquoise) + 100
    # coordinates turn too: the bottom edge now counts ranks
    assert board.layout.board_point(0, 0) == (6, 0)  # g1 at the viewer's bottom left


# --------------------------------------------------------------------------- alt text


@pytest.mark.parametrize(("v", "options"), CASES)
def test_alt_text_says_whose_turn_and_what_happened(v: Variant, options: dict) -> None:
    p = v.start(**options)
    names = [f"name{s}" for s in range(p.seat_count)]
    text = render.alt_text(p, names=names)
    (mover,) = p.to_move
    assert f"{v.seat_name(mover, p.seat_count)} (name{mover}) to move" in text
    assert len(text) <= 1000
    steps = list(walk(v, p, 1, 2000, prefer_capture=True))
    before, m, end = steps[-1]
    if end.outcome() is not None:
        final = render.draw_board(end, last_move=v.move_marks(before, m), names=names)
        assert (" win" in final.alt_text) or ("Draw" in final.alt_text)
        assert "Last move" in final.alt_text


def test_querni_setup_shows_who_has_handed_in_without_numbers() -> None:
    v = rules.variant("querni")
    p = v.start(setup="choose")
    rng = random.Random(1)
    moves = p.legal_moves()
    half = p.play(moves[rng.randrange(len(moves))])
    text = render.alt_text(half)
    assert "to arrange" in text
    assert not any(ch.isdigit() for ch in text)
    rgb(render.draw_board(half))


# --------------------------------------------------------------------------- GIF replay


def test_replay_has_one_frame_per_ply_plus_the_start() -> None:
    v = rules.variant("xiangqi")
    start = v.start()
    game = list(walk(v, start, 2, 12))
    moves = [m for _, m, _ in game]
    texts = [v.format_move(b, m) for b, m, _ in game]
    for record in (moves, texts):
        gif = render.replay_gif(v, start, record, size=300)
        img = Image.open(io.BytesIO(gif))
        assert img.format == "GIF"
        assert img.n_frames == len(moves) + 1
        # unchanged pixels use a transparent index that exists in the colour table
        assert img.info["transparency"] < len(img.getpalette() or []) // 3
        img.seek(img.n_frames - 1)
        assert img.info["duration"] > 900  # the last frame is held
    # the last frame shows the final position: same pixels as drawing it directly
    last = render.compose(game[-1][2], last_move=v.move_marks(game[-1][0], moves[-1]),
                          before=game[-1][0], perspective=0, size=300,
                          caption=f"{len(moves)}. {v.display_move(game[-1][0], moves[-1])}")[0]
    frame = img.convert("RGB")
    x, y = last.width // 2, last.height * 3 // 4
    assert dist(frame.getpixel((x, y)), last.getpixel((x, y))) < 40


def test_a_seat_leaving_a_four_player_game_is_captioned_with_who_and_how() -> None:
    """A frame reached without a move (issue 43: a seat skipped, resigned or out of time
    in a four-player game that goes on) says which seat left, by its colour (the chips
    above name its player), and how, as the other frames say the move played, in the
    reader's language; a bare position says what the board shows. The GIF's frame
    carries that caption."""
    from locales.i18n import render as say
    from render.replay import SeatLeft, positions

    v = rules.variant("alquerque-grande")
    start = v.start(players=4, mode="fast")
    first = next(iter(start.legal_moves()))
    moved = start.play(first)
    skipped = v.skip_seat(moved, 2)
    resigned = v.resign(skipped, 3)
    assert isinstance(resigned, Position)
    record = [first, SeatLeft(skipped, 2, "skip"), SeatLeft(resigned, 3, "resign")]
    captions = [c for _p, _m, _b, c in positions(v, start, record)]
    assert [say(c, "en-US") for c in captions[1:]] == [
        f"1. {v.display_move(start, first)}", "2. Black is skipped", "3. Red resigns"]
    assert say(captions[3], "de") == "3. Rot gibt auf"
    assert say(captions[2], "de") == "2. Schwarz wird übersprungen"
    assert say(captions[2], "zh-CN") == "2. 黑方被跳过"
    late = positions(v, start, [first, SeatLeft(skipped, 2, "timeout")])
    assert say(late[2][3], "en-US") == "2. Black ran out of time"
    bare = positions(v, start, [first, skipped])  # a position alone: the board says
    assert say(bare[2][3], "en-US") == "2. Black is skipped"

    names = ["alice", "bob", "carol", "dave"]
    gif = Image.open(io.BytesIO(render.replay_gif(v, start, record, names=names, size=300)))
    assert gif.n_frames == 4
    gif.seek(2)
    frame = gif.convert("RGB")
    drawn, lay = render.compose(skipped, names=names, size=300, caption=captions[2],
                                perspective=0)
    plain = render.compose(skipped, names=names, size=300, caption="2. a player is out",
                           perspective=0)[0]
    differ = [(x, y) for x in range(0, drawn.width, 2) for y in range(0, lay.header, 2)
              if drawn.getpixel((x, y)) != plain.getpixel((x, y))]
    assert differ  # the caption is in the header's status line, and the GIF draws it
    closer = [xy for xy in differ if dist(frame.getpixel(xy), drawn.getpixel(xy))
              < dist(frame.getpixel(xy), plain.getpixel(xy))]
    assert len(closer) > 0.8 * len(differ)  # (the GIF's palette shades the edges)


def test_flagged_plies_are_framed_in_red_on_the_replay_and_the_sheet() -> None:
    from render.replay import FLAG, FLAG_MS

    v = rules.variant("damas")
    start = v.start()
    moves = [m for _, m, _ in walk(v, start, 3, 10)]
    flagged = {3: "about 2.5 pawns lost", 7: "after it the game was lost"}
    img = Image.open(io.BytesIO(render.replay_gif(v, start, moves, size=300,
                                                  flagged=flagged)))
    framed, long = [], []
    for frame in range(img.n_frames):
        img.seek(frame)
        rgb = img.convert("RGB")
        if rgb.getpixel((1, rgb.height // 2)) == FLAG \
                and rgb.getpixel((rgb.width - 2, 3)) == FLAG:
            framed.append(frame)
        if img.info["duration"] == FLAG_MS:
            long.append(frame)
    assert framed == long == [3, 7]  # frame n is the position after move n
    # the note is written whole in a band below the board (every frame has the band,
    # so the GIF keeps one size): written on the flagged frames, blank on the others
    plain = Image.open(io.BytesIO(render.replay_gif(v, start, moves, size=300)))
    assert img.height > plain.height and img.width == plain.width
    band = (10, plain.height + 2, img.width - 10, img.height - 2)
    for frame, inked in ((2, False), (3, True), (4, False), (7, True)):
        img.seek(frame)
        darkest = img.convert("L").crop(band).getextrema()[0]
        assert (darkest < 120) == inked, frame

    sheet = render.flagged_sheet(v, start, moves, flagged, size=300)
    board = render.compose(start, size=300)[0]
    assert sheet.width > 2 * board.width and sheet.height < 2 * board.height  # one row
    assert sheet.alt_text == "about 2.5 pawns lost; after it the game was lost"
    with pytest.raises(ValueError, match="no flagged ply"):
        render.flagged_sheet(v, start, moves, {99: "beyond the record"})


# --------------------------------------------------------------------------- robustness


@pytest.mark.parametrize(("v", "options"), CASES)
def test_every_position_of_random_games_renders(v: Variant, options: dict) -> None:
    for seed in (11, 12):
        start = v.start(**options)
        prev: tuple[Position, MoveMarks] | None = None
        positions = [(start, None, None)] + [(a, v.move_marks(b, m), b)
                                             for b, m, a in walk(v, start, seed, 80, seed == 12)]
        for i, (p, marks, before) in enumerate(positions):
            seat = i % p.seat_count
            board = render.draw_board(p, last_move=marks, before=before, perspective=seat,
                                      names=["x" * 40] * p.seat_count, deadline="soon",
                                      size=260)
            assert board.png.startswith(b"\x89PNG")
            assert board.alt_text
            prev = (p, marks) if marks else prev
        assert prev is not None


def test_a_huff_is_marked_with_or_without_the_move_marks() -> None:
    v = rules.variant("alquerque-grande")
    start = v.start(players=4, mode="teams")
    before, m, after = next((b, m, a) for seed in range(10) for b, m, a in walk(v, start, seed, 200)
                            if v.move_marks(b, m).removed)
    (huff,) = v.move_marks(before, m).removed
    touched = set(v.move_marks(before, m).path)
    plain = next((x, y) for x in range(7) for y in range(7)
                 if (x, y) not in after.pieces() and (x, y) != huff and (x, y) not in touched)

    def blue_ring(board: render.RenderedBoard, img: Image.Image, point: tuple[int, int]) -> int:
        x, y = board.point_centre(point)
        r = round(board.layout.step * 0.64 * 1.08 / 2)
        band = [img.getpixel((x + dx, y + dy)) for dx in range(-r, r + 1)
                for dy in range(-r, r + 1) if (0.7 * r) ** 2 <= dx * dx + dy * dy <= r * r]
        return sum(dist(c, style.REMOVED_MARK) < 60 for c in band)

    for marks in (v.move_marks(before, m), None):
        board = render.draw_board(after, last_move=marks, perspective=0)
        img = rgb(board)
        assert blue_ring(board, img, huff) > 20
        assert blue_ring(board, img, plain) == 0
        assert "huff" in board.alt_text


def test_gallery_draws_every_variant(tmp_path) -> None:
    from render import gallery

    written = {p.name for p in gallery.build(tmp_path, size=240)}
    for key in rules.VARIANTS:
        mine = [n for n in written if n.startswith(key + "-") or n.startswith(key + ".")]
        assert any(n.endswith("-start.png") for n in mine), key
        assert any(n.endswith("-middle.png") for n in mine), key
        assert any(n.endswith("-finished.png") for n in mine), key
        assert any(n.endswith("-replay.gif") for n in mine), key
    assert any("players=4" in n for n in written)
    assert "index.html" in written
    # issue 42's pictures: the analysis graphs, the costly moves, the games at a glance
    assert {"analysis-graph-decisive.png", "analysis-graph-drawn.png",
            "analysis-graph-four-seats.png", "analysis-costly-moves.png",
            "glance-nine-games.png"} <= written


def test_alt_text_of_a_checkmate_names_the_mated_side() -> None:
    # Nobody is to move after a checkmate; the check mark must still name its owner.
    v = rules.variant("xiangqi")
    p = v.from_text("R3k4/R8/9/9/9/9/9/9/9/3K5 b - - 0 1")
    assert p.outcome() is not None and p.outcome().reason == "checkmate"
    board = render.draw_board(p)
    assert "Black is in check" in board.alt_text


def test_a_long_analysis_note_is_drawn_whole_below_a_four_player_board() -> None:
    """Issue 38, item 3: the analysis note no longer goes into the header (where a
    4-player header cut it before its figure): it is drawn whole, wrapped, in a band
    below the board, on the sheet and on every frame of the replay (one size)."""
    from render.replay import _note_layout
    from tests.service.conftest import finishing_game

    v = rules.variant("alquerque-grande")
    options = {"players": 4, "mode": "fast"}
    moves = finishing_game("alquerque-grande", options, 14, 400)
    assert moves
    note = ("Move 21, a player with a rather long name: f1-f2 (huff a5); better g1-g2 "
            "(lets a won game slip: misses a forced win in 3 moves)")
    start = v.start(**options)
    plain = render.flagged_sheet(v, start, moves, {21: "x"}, names=["a", "b", "c", "d"])
    sheet = render.flagged_sheet(v, start, moves, {21: note}, names=["a", "b", "c", "d"])
    assert sheet.alt_text == note
    assert sheet.height > plain.height  # the long note takes more lines, all of them
    _px, lines = _note_layout(note, 380, 400)
    assert " ".join(lines) == note and len(lines) >= 2
    img = Image.open(io.BytesIO(sheet.png)).convert("L")
    band = img.crop((20, sheet.height - (sheet.height - plain.height) - 30, 380,
                     sheet.height - 12))
    assert band.getextrema()[0] < 100  # ink: the last lines are drawn
    gif = Image.open(io.BytesIO(render.replay_gif(v, start, moves, flagged={21: note})))
    sizes = set()
    for frame in range(gif.n_frames):
        gif.seek(frame)
        sizes.add(gif.size)
    assert len(sizes) == 1
