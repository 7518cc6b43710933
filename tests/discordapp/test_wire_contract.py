"""The wire contract (``wire_contract.py``) catches what Discord would refuse, and reads
the requests the bot really sends."""

from __future__ import annotations

from tests.discordapp import wire_contract
from tests.discordapp.conftest import World
from tests.discordapp.helpers import start_match


def test_each_limit_is_caught() -> None:
    def broken(method: str, path: str, body: object) -> list[str]:
        return wire_contract.violations(method, path, body)

    message = "/channels/1/messages"
    assert broken("POST", message, {"content": "x" * 2001})
    assert not broken("POST", message, {"content": "x" * 2000})
    assert broken("POST", message, {"embeds": [{"title": "t" * 257}]})
    assert broken("POST", message, {"embeds": [{"description": "d" * 4097}]})
    assert broken("POST", message, {"embeds": [{"fields": [{"name": "n", "value": "v"}] * 26}]})
    assert broken("POST", message, {"embeds": [{"fields": [{"name": "n", "value": "v" * 1025}]}]})
    assert broken("POST", message, {"embeds": [{"description": "d" * 4000},
                                               {"description": "d" * 2001}]})
    assert broken("POST", message, {"embeds": [{}] * 11})
    assert broken("POST", message, {"attachments": [{"id": i} for i in range(11)]})
    row = {"type": 1, "components": [{"type": 2, "custom_id": "c" * 101}]}
    assert broken("POST", message, {"components": [row]})
    assert broken("POST", message, {"components": [{"type": 1}] * 6})
    callback = "/interactions/1/token/callback"
    choices = [{"name": f"{i}", "value": f"{i}"} for i in range(26)]
    assert broken("POST", callback, {"type": 8, "data": {"choices": choices}})
    assert broken("POST", callback, {"type": 4, "data": {"content": "x" * 2001}})
    assert broken("POST", "/webhooks/1/token", {"content": "x" * 2001})
    assert broken("POST", "/channels/1/messages/2/threads", {"name": "n" * 101})
    commands = "/applications/1/commands"
    assert broken("PUT", commands, [{"type": 1, "name": "Bad Name", "description": "d"}])
    assert broken("PUT", commands, [{"type": 1, "name": "ok", "description": "d" * 101}])


async def test_the_requests_of_a_match_are_read(world: World) -> None:
    w = world
    _, thread = await start_match(w, w.alice, w.bob, seat=0)
    await w.alice.autocomplete(thread, "move", "move", "")
    await w.alice.slash(thread, "move", move="h3-e3")
    kinds = {(r.method, pattern.pattern) for r in w.env.http_requests
             for pattern in (*wire_contract.MESSAGE_PATHS, wire_contract.CALLBACK,
                             wire_contract.THREAD, wire_contract.COMMANDS)
             if pattern.match(r.path)}
    assert {method for method, _ in kinds} >= {"POST", "PUT"}
    assert len(kinds) >= 5  # messages, follow-ups, callbacks, a thread, the commands
