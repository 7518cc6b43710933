"""What a demanding new player and a new server admin tripped over in the school's
commands (puzzles, the opening explorer, imports and /continue) in Discord, through
SimCord, in several languages: each test is one thing they met, walked as they would."""

from __future__ import annotations

from pathlib import Path

import discord
import pytest

import rules
from tests.discordapp.conftest import World
from tests.discordapp.helpers import mention, reply
from tests.discordapp.languages import speaking
from tests.discordapp.test_puzzles import daily_posts, finished, mined
from tests.discordapp.test_school import place
from tests.service.puzzle_games import ALQUERQUE, DAMAS
from tests.service.test_continue_import import _opening


async def test_the_explorer_names_its_game_as_the_menu_does(
        world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    """The explorer's title said the configuration's key ("Opening explorer, xiangqi",
    "开局浏览：alquerque-grande players=4 mode=fast") where the game menu the reader
    picked from says "象棋" and "Alquerque grande · 4 players · fast"."""
    w = world
    langs = speaking(monkeypatch)
    langs[w.bob.id], langs[w.carol.id] = "de", "zh-CN"
    said = reply(await w.alice.slash(w.channel, "explorer", game="xiangqi"))
    assert said.embeds[0].title == "Opening explorer, Xiangqi, from the start (all games)"
    said = reply(await w.bob.slash(w.channel, "explorer", game="damas", games="imported"))
    assert said.embeds[0].title == ("Eröffnungsbuch, Spanische Dame, ab dem Anfang "
                                    "(importierte Partien)")
    said = reply(await w.carol.slash(w.channel, "explorer", game="xiangqi"))
    assert said.embeds[0].title.startswith("开局浏览：象棋，")
    fast = reply(await w.alice.slash(w.channel, "explorer",
                                     game="alquerque-grande:players=4,mode=fast"))
    assert fast.embeds[0].title.startswith(
        "Opening explorer, Alquerque grande · 4 players · fast, from the start")
    assert fast.embeds[0].footer.text is None  # where it stands is in the custom ids
    assert place(fast) == "aalquerque-grande players=4 mode=fast;"


RECORDS = Path(__file__).parents[1] / "rules" / "records"
HOUR = 3600.0


async def test_an_imported_game_is_counted_in_moves_from_import_to_continue(
        world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    """/import said "20 Züge" (moves, as Tablero counts them everywhere), and the very
    next step, Continue as a match and its challenge post, "nach 20 Halbzügen" (plies):
    two counts of the same game a player cannot tell are one."""
    w = world
    speaking(monkeypatch)[w.bob.id] = "de"
    data = (RECORDS / "liu-dianzhong-liu-dahua-1997.wxf").read_bytes()
    done = reply(await w.bob.slash(w.channel, "import", file=("liu-1997.wxf", data)))
    assert done.content.startswith("Als Partie 1 importiert (Xiangqi): 20 Züge.")
    opened = reply(await w.bob.click(done, label="Als Partie fortsetzen"))
    assert opened.content.startswith("Importierte Partie 1 (Xiangqi) ab ihrer letzten "
                                     "Stellung fortsetzen, nach 20 Zügen.")
    reply(await w.alice.slash(w.channel, "continue", match=1, opponent=w.carol))
    post = w.channel.last_message.content
    assert post.startswith("Continuing imported game 1 from its last position, after 20 "
                           "moves:")  # the server speaks English
    assert "plies" not in post and "Halbz" not in opened.content


async def test_a_puzzle_answer_that_is_no_move_points_to_the_puzzle(
        world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    """An answer that is not a move, or not legal, was refused as a match's move is:
    "start typing in /move", "look at /board" (a match's board, not the puzzle's)."""
    w = world
    langs = speaking(monkeypatch)
    await finished(w, ALQUERQUE)
    await finished(w, DAMAS)
    await mined(w)
    langs[w.carol.id], langs[w.dave.id] = "zh-CN", "de"
    erin = w.guild.add_member(w.env.create_user("erin"))
    for solver in (w.carol, w.dave, erin):
        reply(await solver.slash(w.channel, "puzzle next"))
    junk = reply(await erin.slash(w.channel, "puzzle answer", move="hello"))
    assert junk.ephemeral and junk.content.startswith("That is not a move (")
    answer, again = mention(w, "puzzle answer"), mention(w, "puzzle next")
    assert junk.content.endswith(f"Start typing in {answer} to see the legal ones "
                                 "in your puzzle.")
    illegal = reply(await erin.slash(w.channel, "puzzle answer", move="a1-a2"))
    assert illegal.content.startswith("That move is not legal in your puzzle (")
    assert illegal.content.endswith("Pick one of the suggestions that appear as you type "
                                    f"in {answer}; {again} shows the puzzle again.")
    said = reply(await w.dave.slash(w.channel, "puzzle answer", move="a1-a2")).content
    assert said.startswith("Dieser Zug ist") and answer in said and again in said
    said = reply(await w.carol.slash(w.channel, "puzzle answer", move="hello")).content
    assert said.startswith("这不是着法") and answer in said
    for said in (junk.content, illegal.content):
        assert "/move" not in said and "/board" not in said
    right = await w.service.puzzle_moves(w.guild.id, erin.id, "")
    assert right  # the puzzle is still open: a refused answer is no try


CHESS = b'[Event "Club"]\n[White "A"]\n[Black "B"]\n[Result "1-0"]\n\n1. e4 e5 2. Nf3 Nc6 1-0\n'


async def test_a_file_of_another_game_is_asked_for_its_game(
        world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    """A chess PGN was read as Spanish draughts (its "1-0" looked like a move between
    squares 1 and 0) and refused at "move 1 (e4) cannot be played: name the start and
    end points", as though the player had mistyped a draughts move."""
    w = world
    speaking(monkeypatch)[w.bob.id] = "de"
    said = reply(await w.alice.slash(w.channel, "import", file=("club.pgn", CHESS)))
    assert said.ephemeral and said.content.startswith(
        "The record cannot be imported: which game is this? Name it with a tag such as "
        '[Game "xiangqi"], or give a WXF, ICCS or PDN record.')
    said = reply(await w.bob.slash(w.channel, "import", file=("club.pgn", CHESS)))
    assert said.content.startswith("Die Partie kann nicht importiert werden: welches "
                                   "Spiel ist das?")
    assert await w.service.games_of(w.guild.id, w.alice.id) == []


async def test_the_daily_puzzle_turned_on_in_an_empty_server_says_when_it_comes(
        world: World) -> None:
    """A new server's admin turned the daily puzzle on and read "the first within a
    minute"; none came (the server had no puzzle), and nothing said why."""
    w = world
    admins = w.guild.create_role("admins", permissions=discord.Permissions(manage_guild=True))
    admin = w.guild.add_member(w.env.create_user("admin"), roles=[admins])
    on = reply(await admin.slash(w.channel, "puzzle daily", state="on"))
    assert on.content == (f"Daily puzzle on: one a day in <#{w.channel.id}>. There is no "
                          "puzzle to post yet: the first comes within a day of one being "
                          "found in this server's finished games.")
    await w.env.advance_time(2 * HOUR)
    assert not daily_posts(w)
    await finished(w, ALQUERQUE)
    await mined(w)
    await w.env.advance_time(24 * HOUR)
    (posted,) = daily_posts(w)
    assert posted.content.startswith("🧩 Daily puzzle #1 (Alquerque")
    again = reply(await admin.slash(w.channel, "puzzle daily", state="on"))
    assert "There is no puzzle to post yet" in again.content  # the only one was posted
    await finished(w, DAMAS)
    await mined(w)
    fresh = reply(await admin.slash(w.channel, "puzzle daily", state="on"))
    assert fresh.content == f"Daily puzzle on: one a day in <#{w.channel.id}>, the first " \
        "within a minute."


async def test_the_players_of_an_import_are_named_in_the_readers_punctuation(
        world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    """The imported players were written "红方: Liu Dianzhong", an English colon glued in
    by the code, in a Chinese sentence whose every other colon is "："."""
    w = world
    speaking(monkeypatch)[w.carol.id] = "zh-CN"
    data = (RECORDS / "liu-dianzhong-liu-dahua-1997.wxf").read_bytes()
    said = reply(await w.carol.slash(w.channel, "import", file=("liu-1997.wxf", data)))
    assert "棋手：红方：Liu Dianzhong和黑方：Liu Dahua。" in said.content


async def test_a_record_imported_as_another_game_says_which_it_is(
        world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    """A PDN imported with game:xiangqi was refused for "a tag this format does not have:
    White", followed by the 32 tags of a Xiangqi record; the file said plainly that it
    was Spanish draughts."""
    w = world
    speaking(monkeypatch)[w.bob.id] = "de"
    pdn = (RECORDS / "cucujaes-2022.pdn").read_bytes()
    said = reply(await w.alice.slash(w.channel, "import", file=("cup.pdn", pdn),
                                     game="xiangqi"))
    assert said.content.startswith("The record cannot be imported: the record is of Spanish "
                                   "draughts, not Xiangqi: import it without naming the game.")
    said = reply(await w.bob.slash(w.channel, "import", file=("cup.pdn", pdn), game="xiangqi"))
    assert said.content.startswith("Die Partie kann nicht importiert werden: das ist eine "
                                   "Partie Spanische Dame, nicht Xiangqi: importiere sie, "
                                   "ohne das Spiel anzugeben.")
    done = reply(await w.alice.slash(w.channel, "import", file=("cup.pdn", pdn), game="damas"))
    assert done.content.startswith("Imported as match 1 (Spanish draughts): 7 moves.")


async def test_a_puzzle_tried_before_says_it_is_practice_before_the_answer(
        world: World) -> None:
    """Trying the daily's puzzle again (`/puzzle next puzzle:1`) showed "· rated -1.8"
    in its title and nothing else of its standing: read as a rated try, it turned out to
    be practice only once answered ("A puzzle tried before: practice, unrated.")."""
    w = world
    await finished(w, ALQUERQUE)
    await mined(w)
    first = reply(await w.carol.slash(w.channel, "puzzle next"))
    title = first.embeds[0].title
    assert title == "Puzzle #1 · Alquerque · difficulty 3/5 · rating 0.0"  # the puzzle's
    assert "practice" not in first.embeds[0].description  # a first try is rated
    reply(await w.carol.slash(w.channel, "puzzle answer", move="a5-a4"))  # wrong: over
    again = reply(await w.carol.slash(w.channel, "puzzle next", puzzle=1))
    assert "A puzzle tried before: practice, unrated." in again.embeds[0].description
    assert " rated " not in again.embeds[0].title


async def test_the_explorer_says_where_it_stops_counting(world: World) -> None:
    """Following a long game move by move in the explorer, the 41st step said "No
    finished game of this server went on from here." of a game that went on: the
    explorer counts only the first 40 moves of each game, and nothing said so."""
    w = world
    s = w.service
    moves = _opening("xiangqi", 44, seed=3)
    m = await s.challenge(w.guild.id, w.channel.id, w.alice.id, "xiangqi",
                          opponents=[w.bob.id], seat=0)
    m = await s.accept(m.id, w.bob.id)
    for text in moves:
        m = (await s.move(m.id, m.to_move[0], text)).match
    await s.resign(m.id, m.to_move[0])
    await s.explorer_idle()
    fortieth = reply(await w.carol.slash(w.channel, "explorer", game="xiangqi",
                                         line=" ".join(moves[:39])))
    assert "1 game went on from here:" in fortieth.embeds[0].description
    beyond = reply(await w.carol.select(fortieth, [moves[39]]))
    assert beyond.embeds[0].description == ("No game is counted from here: the explorer "
                                            "counts the first 40 moves of each game.")
    # a line too long for the title: cut there, the whole of it in the footer
    assert len(beyond.embeds[0].title) == 256 and beyond.embeds[0].title.endswith("…")
    assert beyond.embeds[0].footer.text == f"after {' '.join(moves[:40])}"
    early = reply(await w.carol.slash(w.channel, "explorer", game="xiangqi", line="h3-e3"))
    assert early.embeds[0].description.startswith("No finished game of this server went on")


async def test_continue_offers_the_seats_of_the_imported_game(
        world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    """/continue's seat option offered nothing: a German player typed "rot" (his
    colour as the game's card names it) and was refused with the English seat names; the
    Continue as a match menu offers the seats, the side to move first."""
    w = world
    speaking(monkeypatch)[w.bob.id] = "de"
    data = (RECORDS / "liu-dianzhong-liu-dahua-1997.wxf").read_bytes()
    reply(await w.alice.slash(w.channel, "import", file=("liu-1997.wxf", data)))
    offered = await w.bob.autocomplete(w.channel, "continue", "seat", "", match=1)
    assert offered == [{"name": "Rot (am Zug)", "value": "0"},
                       {"name": "Schwarz", "value": "1"}]
    assert await w.bob.autocomplete(w.channel, "continue", "seat", "schw", match=1) == [
        {"name": "Schwarz", "value": "1"}]
    assert await w.bob.autocomplete(w.channel, "continue", "seat", "", match=7) == []
    made = reply(await w.bob.slash(w.channel, "continue", match=1, opponent=w.alice,
                                   seat="1"))
    assert made.content == "Herausforderung gepostet (Partie 2)."
    reply(await w.alice.click(w.channel.last_message, label="Accept"))
    m = await w.service.get_match(2)
    assert [s.user_id for s in m.seats] == [w.alice.id, w.bob.id]  # bob plays Black


async def test_an_imported_name_cannot_pass_for_a_member_nor_bury_the_reply(
        world: World) -> None:
    """A record's Red player of 3000 characters filled the /import reply (cut at 2000:
    how to see and continue the game was lost); a Black player called "<@alice's id>"
    showed in /history as alice herself, and a direction override turned "(imported)"
    around after it."""
    w = world
    wxf = (RECORDS / "liu-dianzhong-liu-dahua-1997.wxf").read_text()
    hostile = wxf.replace("Liu Dianzhong", "L" * 3000).replace(
        "Liu Dahua", f"\u202eevil <@{w.alice.id}>")
    done = reply(await w.bob.slash(w.channel, "import", file=("x.wxf", hostile.encode())))
    assert f"Players: Red: {'L' * 64} and Black: evil @{w.alice.id}." in done.content
    assert done.content.endswith(f"{mention(w, 'continue')} `match:1 opponent:@…`.")
    history = reply(await w.bob.slash(w.channel, "history", match=1))
    assert f"2. b10-c8 (H2+3) (evil @{w.alice.id} (imported))" in history.content
    assert "<@" not in history.content and "\u202e" not in history.content


async def test_import_offers_its_games_as_the_other_commands_do() -> None:
    """/import's game was free text described "(e.g. damas)": a German player typed
    "Spanische Dame", the name /challenge's and /explorer's menus had shown him, and was
    refused as an unknown game "spanische dame"."""
    from tests.discordapp.test_command_languages import translated_tree
    (command,) = [c for c in await translated_tree() if c["name"] == "import"]
    (game,) = [o for o in command["options"] if o["name"] == "game"]
    assert [c["value"] for c in game["choices"]] == list(rules.VARIANTS)
    names = {c["value"]: c.get("name_localizations", {}) for c in game["choices"]}
    assert names["damas"]["de"] == "Spanische Dame" and names["xiangqi"]["zh-CN"] == "象棋"
    assert game["description"] == "The game, when the record does not say which"


async def test_an_unknown_tag_is_named_with_the_one_meant_not_every_tag(
        world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    """A PDN with a misspelt tag ("WhiteElo" written "Whiteelo") was refused with the
    32 tags the format has, the one meant somewhere among them; a tag that is nothing
    like one of them is named with what to do."""
    w = world
    speaking(monkeypatch)[w.bob.id] = "de"
    pdn = (RECORDS / "cucujaes-2022.pdn").read_text()
    misspelt = ('[Whiteelo "2100"]\n' + pdn).encode()
    said = reply(await w.alice.slash(w.channel, "import", file=("cup.pdn", misspelt)))
    assert said.content.startswith("The record cannot be imported: the record has a tag "
                                   "this format does not have: Whiteelo (did you mean "
                                   "WhiteElo?).")
    assert "Annotator" not in said.content
    said = reply(await w.bob.slash(w.channel, "import", text='[Trainer "Ana"]\n' + pdn))
    assert said.content.startswith("Die Partie kann nicht importiert werden: die Partie hat "
                                   "ein Tag, das dieses Format nicht kennt: Trainer (lösche "
                                   "seine Zeile und importiere die Partie erneut).")


async def test_the_same_game_imported_twice_is_refused_with_the_match_it_is(
        world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    """The same record imported twice became two matches, and the explorer counted the
    game twice; the second import (here the ICCS record of the same game, by another
    member) is refused with the match it is and how to see it."""
    w = world
    speaking(monkeypatch)[w.bob.id] = "de"
    wxf = (RECORDS / "liu-dianzhong-liu-dahua-1997.wxf").read_bytes()
    reply(await w.alice.slash(w.channel, "import", file=("liu-1997.wxf", wxf)))
    iccs = (RECORDS / "liu-dianzhong-liu-dahua-1997.iccs.pgn").read_bytes()
    said = reply(await w.bob.slash(w.channel, "import", file=("liu.pgn", iccs)))
    history = mention(w, "history")
    assert said.content == ("Diese Partie ist auf diesem Server schon importiert, als "
                            f"Partie 1: sieh sie dir mit {history} partie:1 an.")
    said = reply(await w.alice.slash(w.channel, "import", text=wxf.decode()))
    assert said.content == ("This game is imported in this server already, as match 1: "
                            f"see it with {history} match:1.")
    assert await w.repository.match_ids() == [1]  # one match, nothing stored after


async def test_continue_suggests_the_servers_imported_games(
        world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    """/continue's match option suggested nothing: a player had to remember the number
    /import answered. It suggests the server's imported games that can go on, newest
    first, by number, game, players, moves and day; a record's hostile names (3000
    characters, a mention, a direction override) are cut and cleaned, the rest of the
    label kept; a game the record ends and another server's imports are not offered."""
    w = world
    speaking(monkeypatch)[w.bob.id] = "de"
    wxf = (RECORDS / "liu-dianzhong-liu-dahua-1997.wxf").read_text()
    reply(await w.alice.slash(w.channel, "import", text=wxf))  # 1
    hostile = wxf.replace("Liu Dianzhong", "L" * 3000).replace(
        "Liu Dahua", f"\u202eevil <@{w.alice.id}>").replace(
        "10. C5.4  R4-1", "10. C5.4  R4-1\n 11. R8+1")  # another game: a move more
    reply(await w.alice.slash(w.channel, "import", text=hostile))  # 2
    reply(await w.alice.slash(w.channel, "import", text='[Game "xiangqi"]\n\n1. h3-e3 '
                              '2. h10-g8 3. {Red resigns}'))  # 3: over
    await w.service.import_record(w.guild.id + 1, w.channel.id, w.alice.id, wxf)  # 4
    first = await w.repository.load_match(1)
    day = first.created_at.date().isoformat()
    offered = await w.carol.autocomplete(w.channel, "continue", "match", "")
    assert [c["value"] for c in offered] == [2, 1]
    assert offered[1]["name"] == f"1 · Xiangqi · Liu Dianzhong – Liu Dahua · 20 moves · {day}"
    name = offered[0]["name"]
    assert name.startswith(f"2 · Xiangqi · {'L' * 23}… – evil @")  # each cut at 24
    assert name.endswith(f" · 21 moves · {day}") and len(name) <= 100
    assert "<@" not in name and "\u202e" not in name
    german = await w.bob.autocomplete(w.channel, "continue", "match", "1")
    assert german == [{"name": f"1 · Xiangqi · Liu Dianzhong – Liu Dahua · 20 Züge · {day}",
                       "value": 1}]
    assert await w.bob.autocomplete(w.channel, "continue", "match", "dahua") == german
    made = reply(await w.carol.slash(w.channel, "continue", match=offered[1]["value"],
                                     opponent=w.dave))
    assert made.content == "Challenge posted (match 5)."
