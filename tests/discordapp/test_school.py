"""/explorer in Discord (issue 44): a private answer with the next moves, a picture with
arrows, a menu one move deeper and buttons back; clear refusals."""

from __future__ import annotations

import re
from datetime import timedelta
from pathlib import Path
from typing import Any

import discord
import pytest

from bot.discordapp.cogs.school import lost
from bot.discordapp.components import ExplorerBack, ExplorerStep, match_buttons
from locales.i18n import render
from service.explorer import PLACE_KEPT
from tests.discordapp.conftest import World, make_bot, service_of
from tests.discordapp.helpers import mention, reply, start_match
from tests.discordapp.languages import speaking
from tests.service.test_continue_import import _opening


async def finished_game(w: World, moves: list[str]) -> None:
    """Alice (Red) and Bob play ``moves``; the player to move then resigns."""
    match, thread = await start_match(w, w.alice, w.bob, seat=0)
    players = {w.alice.id: w.alice, w.bob.id: w.bob}
    for text in moves:
        m = await w.service.get_match(match.id)
        result = await players[m.to_move[0]].slash(thread, "move", move=text)
        assert "You played" in reply(result).content
    m = await w.service.get_match(match.id)
    await players[m.to_move[0]].slash(thread, "resign")
    await w.service.explorer_idle()  # counted in the background as it ended


def custom_ids(components: Any) -> list[str]:
    """Every custom id in a reply's components (its JSON)."""
    if isinstance(components, list):
        return [i for c in components for i in custom_ids(c)]
    if isinstance(components, dict):
        found = [str(components["custom_id"])] if components.get("custom_id") else []
        return found + custom_ids(components.get("components"))
    return []


def place(message: Any) -> str:
    """Where an explorer answer stands, as its menu's custom id names it (the same in
    every one of its components)."""
    ids = set(custom_ids(message.components))
    places = {i.partition(":x")[2].partition(":")[2] for i in ids}
    assert len(places) == 1 and {i.partition(":x")[2].partition(":")[0] for i in ids} == \
        {"step", "back", "start"}, ids
    return places.pop()


async def test_explorer_steps_deeper_and_back(world: World) -> None:
    w = world
    await finished_game(w, ["h3-e3", "h10-g8", "h1-g3"])  # Black resigns
    await finished_game(w, ["h3-e3", "b10-c8"])  # Red resigns
    shown = await w.carol.slash(w.channel, "explorer", game="xiangqi")
    answer = reply(shown)
    assert answer.ephemeral
    embed = answer.embeds[0]
    assert "Opening explorer" in embed.title and "from the start" in embed.title
    assert "2 games went on from here:" in embed.description
    assert "h3-e3 (C2.5): 2 games, its player won 1, drew 0, lost 1 (50%)" in embed.description
    assert [a.filename for a in answer.attachments] == ["board.png"]
    assert "Arrows: the moves most played here, h3-e3 (C2.5) (2)." in \
        answer.attachments[0].description
    deeper = await w.carol.select(answer, ["h3-e3"])
    after = reply(deeper)
    assert "after h3-e3" in after.embeds[0].title
    description = after.embeds[0].description
    assert "b10-c8 (H2+3): 1 game, its player won 1, drew 0, lost 0 (100%)" in description
    assert "h10-g8 (H8+7): 1 game, its player won 0, drew 0, lost 1 (0%)" in description
    assert place(after) == "axiangqi;h3-e3" and after.embeds[0].footer.text is None
    third = reply(await w.carol.select(after, ["h10-g8"]))
    assert "h1-g3 (H2+3): 1 game, its player won 1, drew 0, lost 0 (100%)" in \
        third.embeds[0].description
    last = reply(await w.carol.select(third, ["h1-g3"]))
    assert "No finished game of this server went on from here." in \
        last.embeds[0].description
    back = reply(await w.carol.click(last, label="◀ One move back"))
    assert place(back) == "axiangqi;h3-e3,h10-g8"
    start = reply(await w.carol.click(back, label="⏮ Start"))
    assert "from the start" in start.embeds[0].title


def shown(message: Any) -> list[str]:
    """Every text a reader sees of an explorer answer: its embeds and the labels,
    placeholders and options of its components (not their custom ids)."""
    seen = [str(message.content or "")]
    for e in message.embeds:
        seen += [str(e.title or ""), str(e.description or ""), str(e.footer.text or "")]
        seen += [f"{f.name} {f.value}" for f in e.fields]

    def visit(items: Any) -> None:
        for c in items or []:
            seen.extend(str(c.get(k) or "") for k in ("label", "placeholder"))
            seen.extend(f"{o.get('label')} {o.get('description') or ''}"
                        for o in c.get("options") or [])
            visit(c.get("components"))
    visit(message.components)
    return [s for s in seen if s]


def hidden(message: Any) -> None:
    """Nothing of where the answer stands is shown as machine text."""
    token = place(message)
    for text in shown(message):
        assert token not in text and "explorer ·" not in text and " · all · " not in text, \
            text
    assert all(e.footer.text is None for e in message.embeds)


async def test_the_explorer_keeps_its_place_out_of_sight_in_german_and_chinese(
        world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    """The answer's footer said where it stood in English for every reader (``explorer
    · xiangqi · all · h3-e3, …``) because its buttons read it back: now the place is in
    the custom ids of the menu and the buttons, a line too long for them by a short mark
    the database keeps (the buttons work after a restart, until the mark is unused for a
    month), and nothing of it shows."""
    w = world
    langs = speaking(monkeypatch)
    langs[w.bob.id], langs[w.carol.id] = "de", "zh-TW"
    moves = _opening("xiangqi", 17, seed=3)
    m = await w.service.challenge(w.guild.id, w.channel.id, w.alice.id, "xiangqi",
                                  opponents=[w.bob.id], seat=0)
    m = await w.service.accept(m.id, w.bob.id)
    for text in moves:
        m = (await w.service.move(m.id, m.to_move[0], text)).match
    await w.service.resign(m.id, m.to_move[0])
    await w.service.explorer_idle()

    long = reply(await w.bob.slash(w.channel, "explorer", game="xiangqi",
                                   line=" ".join(moves[:16])))
    mark = place(long)
    assert mark.startswith("#") and len(mark) == 17  # the line: 100 characters and more
    assert long.embeds[0].title.startswith("Eröffnungsbuch, Xiangqi, nach ")
    hidden(long)
    deeper = reply(await w.bob.select(long, [moves[16]]))
    assert place(deeper).startswith("#") and place(deeper) != mark
    assert f"nach {' '.join(moves[:17])}" in deeper.embeds[0].title
    hidden(deeper)
    w.bot = make_bot(w.tmp_path, w.repository)  # the mark outlives the process
    await w.env.restart_bot(w.bot)
    await w.env.settle()
    back = reply(await w.bob.click(deeper, custom_id=f"tablero:xback:{place(deeper)}"))
    assert place(back) == mark and f"nach {' '.join(moves[:16])} (" in back.embeds[0].title

    short = reply(await w.carol.slash(w.channel, "explorer", game="xiangqi",
                                      line=moves[0]))
    assert place(short) == f"axiangqi;{moves[0]}"
    assert short.embeds[0].title.startswith("開局瀏覽：象棋，")
    hidden(short)
    step = reply(await w.carol.select(short, [moves[1]]))
    assert place(step) == f"axiangqi;{moves[0]},{moves[1]}"
    hidden(step)
    for text in shown(step):  # in Chinese but for the moves' notation and command
        # mentions (</leaderboard:id>), which the reader's Discord shows in his language
        assert not re.findall(r"[A-Za-z]{3,}", re.sub(r"</[^<>]+:\d+>", "", text)), text

    # no answer showed the long line for a month: the sweep removed its mark, and the
    # buttons that name it say privately to run /explorer again
    await w.service.sweep(w.service.clock.now() + PLACE_KEPT + timedelta(minutes=1))
    gone = reply(await w.bob.click(back, custom_id=f"tablero:xback:{mark}"))
    assert gone.ephemeral and gone.content.startswith(
        render(lost(), "de").split("{")[0][:40]), gone.content


async def test_an_explorer_answer_posted_before_steps_on_from_its_footer(
        world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    """An answer posted before the place moved into the custom ids (its footer
    ``explorer · xiangqi · all · h3-e3``, ids without a place) still steps: its footer is
    read, and the answer becomes a new one. One whose footer says nothing readable, or
    whose mark this database never kept, says privately that it cannot be followed."""
    w = world
    langs = speaking(monkeypatch)
    langs[w.dave.id] = "de"
    await finished_game(w, ["h3-e3", "h10-g8", "h1-g3"])
    channel: Any = w.bot.get_channel(w.channel.id)

    async def old_answer(footer: str, place: str | None = None) -> Any:
        embed = discord.Embed(title="Opening explorer, Xiangqi, after h3-e3 (all games)")
        embed.set_footer(text=footer)
        view = discord.ui.View(timeout=None)
        view.add_item(ExplorerStep([discord.SelectOption(label="h10-g8", value="h10-g8")],
                                   place=place))
        view.add_item(ExplorerBack("back", place=place))
        await channel.send(embed=embed, view=view)
        return w.channel.history()[-1]

    old = await old_answer("explorer · xiangqi · all · h3-e3")
    stepped = reply(await w.dave.select(old, ["h10-g8"]))
    assert "nach h3-e3 h10-g8" in stepped.embeds[0].title
    assert place(stepped) == "axiangqi;h3-e3,h10-g8"
    hidden(stepped)
    refusal = render(lost(), "de").split("{")[0][:40]
    for broken in (await old_answer("Eröffnungsbuch"),
                   await old_answer("", place="#" + "a" * 16)):
        said = reply(await w.dave.click(broken, custom_id=buttons_of(broken)[0]))
        assert said.ephemeral and said.content.startswith(refusal), said.content


def buttons_of(message: Any) -> list[str]:
    return [c.custom_id for row in message.components for c in row.children
            if isinstance(c, discord.Button)]


async def test_explorer_takes_a_line_and_refuses_bad_ones(world: World) -> None:
    w = world
    await finished_game(w, ["h3-e3", "h10-g8", "h1-g3"])
    shown = reply(await w.alice.slash(w.channel, "explorer", game="xiangqi",
                                      line="1. h3-e3 (C2.5) h10-g8"))
    assert "after h3-e3 h10-g8" in shown.embeds[0].title
    assert "h1-g3 (H2+3): 1 game" in shown.embeds[0].description
    bad = reply(await w.alice.slash(w.channel, "explorer", game="xiangqi", line="h3-e9"))
    assert bad.ephemeral and "Move 1 of the line (h3-e9) cannot be played" in bad.content
    imported = reply(await w.alice.slash(w.channel, "explorer", game="damas",
                                         games="imported"))
    assert "No finished game of this server went on from here." in \
        imported.embeds[0].description


RECORDS = Path(__file__).parents[1] / "rules" / "records"


async def test_import_a_file_and_pasted_text(world: World) -> None:
    w = world
    data = (RECORDS / "liu-dianzhong-liu-dahua-1997.wxf").read_bytes()
    done = reply(await w.alice.slash(w.channel, "import", file=("liu-1997.wxf", data)))
    assert done.ephemeral
    assert "Imported as match 1 (Xiangqi): 20 moves." in done.content
    assert "Players: Red: Liu Dianzhong and Black: Liu Dahua." in done.content
    assert f"{mention(w, 'history')} `match:1`" in done.content
    history = reply(await w.alice.slash(w.channel, "history", match=1))
    assert "C2.5" in str(history.content) + "".join(
        str(e.description) for e in history.embeds) + "".join(
        a.filename for a in history.attachments)
    pasted = reply(await w.bob.slash(w.channel, "import",
                                     text='[White "Ana"] [Black "Luis"] 1. 9-13 24-20 0-1'))
    assert "Imported as match 2 (Spanish draughts): 2 moves." in pasted.content
    shown = reply(await w.carol.slash(w.channel, "explorer", game="damas", games="imported"))
    assert "h3-g4 (9-13): 1 game" in shown.embeds[0].description


async def test_import_refuses_bad_records(world: World) -> None:
    w = world
    both = reply(await w.alice.slash(w.channel, "import", text="x", file=("a.pdn", b"x")))
    assert both.ephemeral and "either as a file or as text" in both.content
    big = reply(await w.alice.slash(w.channel, "import",
                                    file=("big.pgn", b" " * (64 * 1024 + 1))))
    assert "The record is too large (65 KB): at most 64 KB are read" in big.content
    gb = '[Game "Chinese Chess"]\n[Red "胡荣华"]\n1. C2.5'.encode("gb2312")
    wrong = reply(await w.alice.slash(w.channel, "import", file=("gb.pgn", gb)))
    assert "not UTF-8 text (byte 30 is not)" in wrong.content
    illegal = reply(await w.alice.slash(w.channel, "import",
                                        text='[Game "Chinese Chess"] 1. C2.5 H8+7 2. C5+9'))
    assert "move 3 (C5+9) cannot be played" in illegal.content
    assert await w.service.verify_all() == []
    assert (await w.service.games_of(w.guild.id, w.alice.id)) == []


async def test_imported_players_are_named_in_history_and_replay(world: World) -> None:
    """The moves of an imported game and its replay name its players as the record did,
    marked imported (they have no Discord account to mention)."""
    from tests.discordapp.test_stepper import restart, step
    w = world
    data = (RECORDS / "liu-dianzhong-liu-dahua-1997.wxf").read_bytes()
    reply(await w.alice.slash(w.channel, "import", file=("liu-1997.wxf", data)))
    repository = await restart(w)  # the names come back from the database
    history = reply(await w.bob.slash(w.channel, "history", match=1))
    assert "1. h3-e3 (C2.5) (Liu Dianzhong (imported))" in history.content
    assert "2. b10-c8 (H2+3) (Liu Dahua (imported))" in history.content
    assert "<@" not in history.content
    export = next(a for a in history.attachments if a.filename == "match-1.wxf")
    assert '[Red "Liu Dianzhong"]' in (await export.read()).decode()
    first = reply(await step(w.bob, history, "⏭"))
    assert first.embeds[0].description.startswith(
        "After move 20 of 20: Liu Dahua (imported) played **d6-d7")
    players = first.embeds[0].fields[0].value
    assert players == "**Red**: Liu Dianzhong (imported)\n**Black**: Liu Dahua (imported)"
    await repository.close()


async def test_continue_an_imported_game_with_the_challenge_buttons(world: World) -> None:
    """/import offers /continue; /continue posts a challenge with Accept and Decline; Bob
    declines one (nothing starts) and accepts the next: the match starts from the
    imported position, in its thread, Alice (Red, the side to move) to play."""
    w = world
    data = (RECORDS / "liu-dianzhong-liu-dahua-1997.wxf").read_bytes()
    done = reply(await w.alice.slash(w.channel, "import", file=("liu-1997.wxf", data)))
    assert f"{mention(w, 'continue')} `match:1 opponent:@…`" in done.content
    first = reply(await w.alice.slash(w.channel, "continue", match=1, opponent=w.bob))
    assert first.ephemeral and "Challenge posted (match 2)." in first.content
    post = w.channel.last_message
    assert post.content.startswith("Continuing imported game 1 from its last position, "
                                   "after 20 moves:")
    assert f"<@{w.bob.id}>" in post.content
    declined = await w.bob.click(post, label="Decline")
    assert reply(declined).ephemeral and w.channel.threads == []
    assert await w.service.games_of(w.guild.id, w.bob.id) == []
    reply(await w.alice.slash(w.channel, "continue", match=1, opponent=w.bob))
    accepted = await w.bob.click(w.channel.last_message, label="Accept")
    assert reply(accepted).ephemeral
    (thread,) = w.channel.threads
    m = await w.service.match_in_thread(thread.id)
    assert m is not None and m.id == 3 and m.ply == 20 and m.to_move == (w.alice.id,)
    p, _ = await w.service.position(3)
    move = p.variant.format_move(p, next(iter(p.legal_moves())))
    await w.alice.slash(thread, "move", move=move)
    assert (await w.service.get_match(3)).ply == 21
    over = reply(await w.alice.slash(w.channel, "continue", match=2, opponent=w.carol))
    assert over.ephemeral and "Match #2 is not an imported game" in over.content


def parts(message: Any) -> list[dict[str, Any]]:
    """The components under a reply, as Discord sends them (rows taken apart)."""
    rows = [r if isinstance(r, dict) else r.to_dict() for r in message.components]
    return [c for row in rows for c in row["components"]]


def menus(message: Any) -> list[dict[str, Any]]:
    """The select menus under a reply (the seat menu, then the opponents')."""
    return [c for c in parts(message) if c["type"] in (3, 5)]


async def test_continue_as_a_match_from_the_import_reply(world: World) -> None:
    """The /import reply's **Continue as a match** (persistent: it works after a
    restart) opens, privately, a seat menu (the side to move first) and a menu of the
    opponents; the same refusals as /continue, privately, leaving the menus as they
    were; once the challenge is made they show the choice, disabled; Bob accepts and the
    match goes on from the imported position with Alice on the seat she picked."""
    from tests.discordapp.test_stepper import restart
    w = world
    data = (RECORDS / "liu-dianzhong-liu-dahua-1997.wxf").read_bytes()
    done = reply(await w.alice.slash(w.channel, "import", file=("liu-1997.wxf", data)))
    assert "**Continue as a match** below, or " \
        f"{mention(w, 'continue')} `match:1 opponent:@…`" in done.content
    (button,) = parts(done)
    assert (button["label"], button["custom_id"]) == ("Continue as a match",
                                                      "tablero:continue:1:20")
    repository = await restart(w)  # the button outlives the process
    try:
        opened = reply(await w.alice.click(done, label="Continue as a match"))
        assert opened.ephemeral and opened.id != done.id
        assert opened.content.splitlines() == [
            "Continue imported game 1 (Xiangqi) from its last position, after 20 moves.",
            "You play Red, the side to move.",
            "Pick who plays on with you: they accept or decline, as any challenge.",
            f"The clock is the server's default; {mention(w, 'continue')} sets days per move "
            "or a time control."]
        seat, who = menus(opened)
        assert [(o["label"], o["value"], o.get("default")) for o in seat["options"]] == [
            ("Red (to move)", "0", True), ("Black", "1", False)]
        assert (who["type"], who["min_values"], who["max_values"], who["custom_id"]) == (
            5, 1, 1, "tablero:cwho:1:0")  # 5: a menu of users

        black = await w.alice.select(opened, ["1"], custom_id="tablero:cseat:1")
        assert black.response is not None and black.response.id == opened.id
        edited = black.response
        assert edited.content.splitlines()[1] == "You play Black; Red moves next."
        seat, who = menus(edited)
        assert [o.get("default") for o in seat["options"]] == [False, True]
        assert who["custom_id"] == "tablero:cwho:1:1"

        bot = w.guild.add_member(w.env.create_user("helper", bot=True))
        for wrong, said in ((bot, "Bots can't play: challenge a person."),
                            (w.alice, "You cannot challenge yourself.")):
            refused = reply(await w.alice.select(edited, [wrong],
                                                 custom_id="tablero:cwho:1:1"))
            assert refused.ephemeral and said in refused.content
            assert not any(m.get("disabled") for m in menus(edited))  # pick again
        assert await service_of(w.bot).games_of(w.guild.id, w.alice.id) == []

        made = await w.alice.select(edited, [w.bob], custom_id="tablero:cwho:1:1")
        said = reply(made)
        assert said.ephemeral and said.content == "Challenge posted (match 2)."
        seat, who = menus(edited)
        assert seat["disabled"] and who["disabled"]  # one challenge per menu
        assert [(int(v["id"]), v["type"]) for v in who["default_values"]] == [
            (w.bob.id, "user")]
        post = w.channel.last_message
        assert post.content.startswith("Continuing imported game 1 from its last "
                                       "position, after 20 moves:")
        assert f"<@{w.bob.id}>" in post.content
        reply(await w.bob.click(post, label="Accept"))
        m = await service_of(w.bot).get_match(2)
        assert m.ply == 20 and m.continued_from == 1
        assert [(s.name, s.user_id) for s in m.seats] == [
            ("Red", w.bob.id), ("Black", w.alice.id)]
        assert m.to_move == (w.bob.id,)  # Red to move, as the record left it
    finally:
        await repository.close()


async def test_continue_as_a_match_is_offered_and_answered_only_where_it_can_go_on(
        world: World) -> None:
    """An import its record ends has no button; a Continue click on a match that is not
    an import (a forged or old custom id) is refused privately as /continue refuses it;
    the side to move is offered first whichever it is; a four-player import asks for
    its three opponents at once."""
    w = world
    ended = reply(await w.alice.slash(w.channel, "import", text=(
        '[Game "xiangqi"]\n\n1. h3-e3 2. h10-g8 3. {Red resigns}')))
    assert "Imported as match 1" in ended.content
    assert parts(ended) == [] and "/continue" not in ended.content
    match, _thread = await start_match(w, w.alice, w.bob, seat=0)
    channel: Any = w.bot.get_channel(w.channel.id)
    forged = await channel.send("?", view=match_buttons(match.id, 0, ["continue"]))
    refused = reply(await w.carol.click(forged, label="Continue as a match"))
    assert refused.ephemeral and f"Match #{match.id} is not an imported game" in \
        refused.content

    black = reply(await w.alice.slash(w.channel, "import", text=(
        '[Game "xiangqi"]\n\n1. h3-e3 2. h10-g8 3. h1-g3')))  # Black to move
    opened = reply(await w.alice.click(black, label="Continue as a match"))
    assert opened.content.splitlines()[1] == "You play Black, the side to move."
    seat, who = menus(opened)
    assert [(o["label"], o.get("default")) for o in seat["options"]] == [
        ("Red", False), ("Black (to move)", True)]
    assert who["custom_id"] == "tablero:cwho:3:1"

    moves = _opening("alquerque-grande", 6, 2, players=4, mode="teams")
    text = ('[Game "alquerque-grande"]\n[Options "{\\"players\\": 4, \\"mode\\": '
            '\\"teams\\"}"]\n\n' + " ".join(f"{i + 1}. {m}" for i, m in enumerate(moves)))
    four = reply(await w.carol.slash(w.channel, "import", text=text))
    opened = reply(await w.carol.click(four, label="Continue as a match"))
    assert "Pick the 3 who play on with you" in opened.content
    seat, who = menus(opened)
    assert len(seat["options"]) == 4 and (who["min_values"], who["max_values"]) == (3, 3)


async def test_continue_as_a_match_offers_only_the_seats_still_in(world: World) -> None:
    """An imported four-player game where a seat was skipped (Tablero's own export of
    it): the menus offer the three seats still in and ask for two opponents; the seat
    out stays the record's."""
    w = world
    skipped = reply(await w.alice.slash(w.channel, "import", text=(
        '[Game "alquerque-grande"]\n[Options \'{"mode": "slow", "players": 4}\']\n\n'
        "1. c3-d4 2. {Turquoise is skipped} 3. e5xc3")))
    assert "Imported as match 1" in skipped.content
    opened = reply(await w.alice.click(skipped, label="Continue as a match"))
    assert "Pick the 2 who play on with you" in opened.content
    assert opened.content.splitlines()[1] == "You play Red, the side to move."
    seat, who = menus(opened)
    assert [o["label"] for o in seat["options"]] == ["White", "Black", "Red (to move)"]
    assert (who["min_values"], who["max_values"]) == (2, 2)


async def test_the_stepper_names_the_record_players_at_the_record_plies(
        world: World) -> None:
    """A continued game stepped back to a ply of the record: its seats are the record's
    players ("Red: alice" was said of Liu Dianzhong's game), from the continuation on
    today's, in the seat list and in the picture's words."""
    from tests.discordapp.test_stepper import step
    w = world
    data = (RECORDS / "liu-dianzhong-liu-dahua-1997.wxf").read_bytes()
    reply(await w.alice.slash(w.channel, "import", file=("liu-1997.wxf", data)))
    reply(await w.alice.slash(w.channel, "continue", match=1, opponent=w.bob))
    reply(await w.bob.click(w.channel.last_message, label="Accept"))
    p, _ = await w.service.position(2)
    (thread,) = w.channel.threads
    await w.alice.slash(thread, "move", move=p.variant.format_move(p, p.legal_moves()[0]))
    start = reply(await w.bob.slash(thread, "board", ply=0))
    assert start.embeds[0].description.startswith("Start position (21 moves played)")
    assert start.embeds[0].fields[0].value == \
        "▶ **Red**: Liu Dianzhong (imported)\n**Black**: Liu Dahua (imported)"
    (picture,) = start.attachments
    assert "Red (Liu Dianzhong (imported)) to move" in picture.description
    second = reply(await step(w.bob, start, "▶"))
    assert second.embeds[0].description.startswith(
        "After move 1 of 21: Liu Dianzhong (imported) played **h3-e3")
    assert "Liu Dahua (imported)" in second.embeds[0].fields[0].value
    assert "<@" not in second.embeds[0].fields[0].value
    last = reply(await step(w.bob, second, "⏭"))
    players = last.embeds[0].fields[0].value
    assert players == f"**Red**: <@{w.alice.id}> · no rating yet\n" \
                      f"▶ **Black**: <@{w.bob.id}> · no rating yet"


async def test_continue_takes_on_timeout_as_challenge_does(world: World) -> None:
    """/continue's on_timeout (and level with computer): the continued four-player game
    skips a late seat, or the computer plays it, as /challenge's lobbies do; refused in
    the service's words where it cannot apply."""
    w = world
    four = ('[Game "alquerque-grande"]\n[Options \'{"mode": "fast", "players": 4}\']\n\n'
            "1. c3-d4 2. e3xc3\n")
    reply(await w.alice.slash(w.channel, "import", text=four))
    skip = reply(await w.alice.slash(w.channel, "continue", match=1, opponent=w.bob,
                                     opponent2=w.carol, opponent3=w.dave,
                                     on_timeout="skip"))
    assert skip.ephemeral and "Challenge posted (match 2)." in skip.content
    assert (await w.service.get_match(2)).on_timeout == "skip"
    await w.service.cancel(2, w.alice.id)  # (one challenge per person and game waits)
    computer = reply(await w.alice.slash(w.channel, "continue", match=1, opponent=w.bob,
                                         opponent2=w.carol, opponent3=w.dave,
                                         on_timeout="computer", level=2))
    assert "Challenge posted (match 3)." in computer.content
    assert (await w.service.get_match(3)).on_timeout == "computer"
    stray = reply(await w.alice.slash(w.channel, "continue", match=1, opponent=w.bob,
                                      opponent2=w.carol, opponent3=w.dave, level=2))
    assert stray.ephemeral and stray.content == (
        "A level is for the computer that plays a late player's seat: it goes with "
        f"on_timeout:computer. Check the options and run {mention(w, 'continue')} again.")
    assert await w.service.games_of(w.guild.id, w.bob.id) != []


async def test_unnamed_imported_players_are_told_apart_by_their_seats(world: World) -> None:
    """A four-player import that names nobody: the moves and the stepper name each
    player by his seat ("an imported player (Turquoise)"; all four read "an imported
    player"), the seat lines keep the plain words beside the seat, and a team-mate is
    named by his seat too (he read "an imported player" even when the record named him)."""
    from tests.discordapp.test_stepper import step
    w = world
    four = ('[Game "alquerque-grande"]\n[Options \'{"mode": "teams", "players": 4}\']\n'
            '[Black "Bea"]\n\n1. c3-d4 2. e3xc3\n')
    reply(await w.alice.slash(w.channel, "import", text=four))
    history = reply(await w.bob.slash(w.channel, "history", match=1))
    assert "1. c3-d4 (an imported player (White))" in history.content
    assert "2. e3xc3 (an imported player (Turquoise))" in history.content
    last = reply(await step(w.bob, history, "⏭"))
    assert last.embeds[0].description.startswith(
        "After move 2 of 2: an imported player (Turquoise) played **e3xc3")
    players = last.embeds[0].fields[0].value
    assert "**White**: an imported player · team 1 with Bea (imported)" in players
    assert "**Black**: Bea (imported) · team 1 with an imported player (White)" in players
    assert "**Turquoise**: an imported player · team 2 with an imported player (Red)" \
        in players
