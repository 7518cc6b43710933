"""Names seen on Discord outlive a restart (issue 20 §2): the bot has no member intent, so
after a restart its caches are empty and boards would show seat colours."""

from __future__ import annotations

from tests.discordapp.conftest import World, make_bot
from tests.discordapp.helpers import reply
from tests.discordapp.test_flow import start_xiangqi


async def test_names_seen_in_interactions_are_stored_per_server(world: World) -> None:
    w = world
    await start_xiangqi(w)  # alice challenges bob; bob accepts
    # carol never uses a command: the challenge naming her hands her name with it
    await w.alice.slash(w.channel, "challenge", game="damas", opponent=w.carol)
    restarted = make_bot(w.tmp_path, w.repository)  # a new process: empty caches
    assert restarted.get_user(w.alice.id) is None
    assert restarted.names(w.guild.id, w.alice.id) == ""
    await restarted.names.book.load()
    assert restarted.names(w.guild.id, w.alice.id) == "alice"
    assert restarted.names(w.guild.id, w.bob.id) == "bob"
    assert restarted.names(w.guild.id, w.carol.id) == "carol"  # never "that player"
    assert restarted.names(w.guild.id + 1, w.alice.id) == ""  # per server


def forget_names(w: World) -> None:
    """The bot as after a restart before names were kept (issue 20 §2): nobody's name is
    known, neither in its caches nor in its book."""
    names = w.bot.names
    names._seen.clear()
    names.book._names.clear()
    for guild in w.bot.guilds:
        guild._members.clear()
    w.bot._connection._users.clear()


def member_requests(w: World) -> list[str]:
    """The members asked of Discord, by path, in order."""
    return [r.path for r in w.env.http_requests
            if r.method == "GET" and "/members/" in r.path]


async def test_a_name_nobody_knew_is_asked_of_discord_once_for_a_thread(world: World) -> None:
    w = world
    await w.alice.slash(w.channel, "challenge", game="xiangqi", opponent=w.bob, seat=0)
    forget_names(w)
    assert w.bot.names(w.guild.id, w.alice.id) == ""
    await w.bob.click(w.channel.last_message, label="Accept")  # bob is seen clicking
    (thread,) = w.channel.threads
    assert thread.name == "Xiangqi: alice vs bob"  # not alice's id
    assert member_requests(w) == [f"/guilds/{w.guild.id}/members/{w.alice.id}"]
    restarted = make_bot(w.tmp_path, w.repository)
    await restarted.names.book.load()
    assert restarted.names(w.guild.id, w.alice.id) == "alice"  # kept: asked once


async def test_autocomplete_names_the_unknown_by_seat_then_asks_after_answering(
        world: World) -> None:
    w = world
    match, _ = await start_xiangqi(w)
    forget_names(w)
    first = await w.bob.autocomplete(w.channel, "board", "match", "")
    assert [c["name"] for c in first] == [f"{match.id} · Xiangqi vs Red"]  # never an id
    calls = [(r.method, r.path) for r in w.env.http_requests]
    asked = calls.index(("GET", f"/guilds/{w.guild.id}/members/{w.alice.id}"))
    answered = max(i for i, (_, path) in enumerate(calls) if path.endswith("/callback"))
    assert answered < asked  # within the 3 seconds nothing but the answer
    again = await w.bob.autocomplete(w.channel, "board", "match", "")
    assert [c["name"] for c in again] == [f"{match.id} · Xiangqi vs alice"]
    assert len(member_requests(w)) == 1


async def test_a_history_export_names_a_player_nobody_here_knew(world: World) -> None:
    """/history's file names the players (no mention renders in it): one nobody here
    knew is asked of Discord once the command is acknowledged, never "user <id>"."""
    w = world
    _, thread = await start_xiangqi(w)
    forget_names(w)
    history = reply(await w.bob.slash(thread, "history"))
    export = (await history.attachments[0].read()).decode()
    assert "alice" in export and str(w.alice.id) not in export
    assert member_requests(w) == [f"/guilds/{w.guild.id}/members/{w.alice.id}"]


async def test_one_who_left_is_named_by_his_seat_and_asked_once(world: World) -> None:
    w = world
    await w.alice.slash(w.channel, "challenge", game="xiangqi", opponent=w.bob, seat=0)
    forget_names(w)
    w.guild.remove_member(w.alice)
    await w.bob.click(w.channel.last_message, label="Accept")
    (thread,) = w.channel.threads
    assert thread.name == "Xiangqi: Red vs bob"
    await w.bob.autocomplete(w.channel, "board", "match", "")
    assert member_requests(w) == [f"/guilds/{w.guild.id}/members/{w.alice.id}"]


async def test_an_analysis_picture_names_an_unknown_player_by_his_seat() -> None:
    """The notes the analysis pictures draw (no mention renders there) name a person
    nobody here knows by his seat's colour, in the reader's language."""
    from bot.discordapp.media import move_notes
    from locales.analysis import CostKind
    from locales.i18n import render
    from service import MatchService
    from service.views import AnalysedMove
    from storage.memory import MemoryRepository
    from tests.service.conftest import BOB, GUILD, Recorder, SetClock, start_match

    m = await start_match(MatchService(MemoryRepository(), Recorder(), SetClock()))
    marked = [AnalysedMove(1, 1, BOB, "h8-e8", "h8-h4", 250, CostKind.PAWNS, 250)]
    note = render(move_notes(marked, GUILD, lambda _g, _u: "", m)[1], "de")
    assert note.startswith("Zug 2, Schwarz: h8-e8") and str(BOB) not in note
