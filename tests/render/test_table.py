"""The standings table image (render.table) and its data (tournaments.table, CSV)."""

from __future__ import annotations

import csv
import io

import pytest
from PIL import Image

from render.style import PAPER, TURN_BG
from render.table import FADED, draw_table, drawable
from service.tournaments import Format, Game, Result, standings
from service.tournaments.table import standings_csv, standings_table


def sample() -> tuple[list[int], list[Game]]:
    games = [Game(1, 1, 2, Result.FIRST_WINS), Game(1, 3, 4, Result.DRAW),
             Game(2, 4, 1, Result.SECOND_WINS), Game(2, 2, 3, Result.SECOND_WINS)]
    return [1, 2, 3, 4], games


def test_standings_image_highlights_the_leader_and_fades_withdrawals() -> None:
    players, games = sample()
    rows = standings(players, games, Format.SWISS, withdrawn={4})
    t = standings_table(rows, Format.SWISS, {1: "alice", 2: "bob", 3: "carol", 4: "dan"},
                        title="Club Swiss", subtitle="Damas · round 2 of 3").shown("en-US")
    assert t.rows[0][:3] == ("1", "alice", "2") and t.top_rows == (0,)
    assert t.headers[-3:] == ("Buchholz", "Median", "Wins")
    dan = next(i for i, r in enumerate(t.rows) if r[1].startswith("dan"))
    assert t.rows[dan][1] == "dan (withdrawn)" and t.faded_rows == (dan,)
    img = draw_table(t.headers, t.rows, title=t.title, subtitle=t.subtitle, align=t.align,
                     top_rows=t.top_rows, faded_rows=t.faded_rows)
    pic = Image.open(io.BytesIO(img.png)).convert("RGB")
    assert pic.size == (img.width, img.height)
    colours = {c for _, c in pic.getcolors(maxcolors=1 << 16) or []}
    assert PAPER in colours and TURN_BG in colours and FADED in colours
    assert "alice, 2" in img.alt_text and img.alt_text.startswith("Club Swiss. Damas")


def test_no_leader_is_highlighted_before_any_game_counts() -> None:
    rows = standings([1, 2], [], Format.ROUND_ROBIN)
    t = standings_table(rows, Format.ROUND_ROBIN, {}, title="t").shown("en-US")
    assert t.top_rows == () and t.rows[0][1] == "Player 1"  # never the id
    img = draw_table(t.headers, t.rows, title=t.title, top_rows=t.top_rows)
    colours = {c for _, c in Image.open(io.BytesIO(img.png)).convert("RGB").getcolors(
        maxcolors=1 << 16) or []}
    assert TURN_BG not in colours


def test_long_and_foreign_names_are_cut_and_drawn_in_bundled_glyphs() -> None:
    # Latin-1 and CJK glyphs are bundled (languages, issue 14); what is not: bare or "?"
    assert drawable("Ñandú ŷ 🎲") == "Ñandú y ?"
    long = "x" * 200
    img = draw_table(["#", "Player"], [["1", long]], title="t", max_cell=200)
    assert img.width < 400
    assert long in img.alt_text  # the description keeps the whole name


def test_many_rows_keep_the_alt_text_short() -> None:
    rows = [[str(i), f"player number {i}", "1"] for i in range(200)]
    img = draw_table(["#", "Player", "Pts"], rows, title="Big Swiss")
    assert len(img.alt_text) <= 1000 and img.alt_text.endswith("more.")
    assert img.height > 200 * 20


def test_bad_table_shapes_are_refused() -> None:
    with pytest.raises(ValueError, match="every row needs 2 cells"):
        draw_table(["a", "b"], [["1"]], title="t")
    with pytest.raises(ValueError, match="align"):
        draw_table(["a", "b"], [["1", "2"]], title="t", align="lx")


def test_csv_export_reads_back_and_defuses_formulas() -> None:
    players, games = sample()
    rows = standings(players, games, Format.ROUND_ROBIN, withdrawn={4})
    text = standings_csv(rows, Format.ROUND_ROBIN,
                         {1: "=HYPERLINK(\"x\")", 2: "bob, jr", 3: "@c", 4: "dan"})
    read = list(csv.DictReader(io.StringIO(text)))
    assert [r["player_id"] for r in read] == [str(r.player) for r in rows]
    by = {r["player_id"]: r for r in read}
    assert by["1"]["player"] == "'=HYPERLINK(\"x\")" and by["3"]["player"] == "'@c"
    assert by["2"]["player"] == "bob, jr"
    assert by["1"]["points"] == "2" and by["4"]["withdrawn"] == "yes"
    assert list(read[0]) == ["place", "player", "player_id", "points", "games", "wins",
                             "draws", "losses", "byes", "forfeits_won", "forfeits_lost",
                             "draws_unplayed", "SB", "Wins", "withdrawn"]


def test_a_player_whose_name_is_not_known_is_numbered_never_shown_by_his_id() -> None:
    """A mention does not render in a picture: "Player 3", by his place among the
    tournament's players, in the reader's language; the CSV leaves the name empty
    beside his id; a name learnt later replaces the words (``renamed``), and the
    players of the rows ride the outbox with the table."""
    players, games = sample()
    rows = standings(players, games, Format.ROUND_ROBIN, withdrawn={3})
    names = {1: "alice", 2: "bob", 3: "", 4: ""}
    table = standings_table(rows, Format.ROUND_ROBIN, names, title="t")
    by = {p: r for p, r in zip(table.players, table.shown("de").rows, strict=True)}
    assert [p for p in table.players] == [r.player for r in rows]
    assert by[3][1] == "Spieler 3 (zurückgezogen)" and by[4][1] == "Spieler 4"
    assert by[1][1] == "alice"
    read = {r["player_id"]: r["player"]
            for r in csv.DictReader(io.StringIO(standings_csv(rows, Format.ROUND_ROBIN,
                                                               names)))}
    assert read["3"] == "" and read["1"] == "alice"
    later = table.renamed(lambda p: {3: "carol"}.get(p, ""))
    by = {p: r for p, r in zip(later.players, later.shown("en-US").rows, strict=True)}
    assert by[3][1] == "carol (withdrawn)" and by[4][1] == "Player 4"
    assert by[1][1] == "alice"
