"""The console offers and plays the two-player rule sets of Alquerque grande (issue 18)."""

from __future__ import annotations

from tests.console.test_messages import after, play


async def test_the_console_lists_and_plays_both_two_player_rule_sets() -> None:
    lines = ["/games-list"]
    for white, black, rule in (("alice", "bob", " rules:grande"), ("carl", "dora", "")):
        lines += [f"as {white}", f"/challenge @{black} alquerque-grande players:2{rule} "
                  "seat:white", f"as {black}", "/accept", f"as {white}", "/move d3-d4",
                  f"as {black}", "/move d5xd3", f"as {white}", "/move e4-d4"]
    out = await play("\n".join(lines))
    assert "players:4|2 mode:teams|fast|slow rules:alquerque|grande" in after(out, "/games-list")
    assert "#1 Alquerque grande players:2 rules:grande" in out
    assert "#2 Alquerque grande players:2 rules:alquerque" in out
    grande, original = out.split("> /move e4-d4\n")[1:]
    # the author's rules allow the step and huff a stone that could have captured
    assert "* #1: alice played e4-d4 (huff" in grande
    # the original rules (the default) make the capture compulsory
    assert original.startswith("! a capture is compulsory: ")
