"""What a new player tripped over starting a match: ``/challenge bob querni`` (the name
without ``@``) was answered "what is 'querni'?", the game he had named right; ``/cancel``
on a challenge already cancelled told him to resign it; ``/wait`` where there is no
claim on time told him he could claim."""

from __future__ import annotations

import pytest

from tests.console.test_messages import after, play


@pytest.mark.parametrize(("command", "refused"), [
    ("/challenge bob querni",
     "! there is no game called 'bob': a player is written with @, as in "
     "/challenge @bob querni"),
    ("/challenge bob Damas casual days:2",
     "! there is no game called 'bob': a player is written with @, as in "
     "/challenge @bob Damas"),
    # two words neither of them a game: the word is not understood, as before
    ("/challenge bob carol", "! what is 'carol'? options are written name:value "
                             "(or name=value)"),
    # the game first, the player without @: told how a player is written too
    ("/challenge querni bob", "! what is 'bob'? a player is written with @, as in "
                              "/challenge @bob querni; an option as name:value "
                              "(or name=value)"),
    ("/challenge Damas casual bob days:2",
     "! what is 'bob'? a player is written with @, as in /challenge @bob Damas; an option "
     "as name:value (or name=value)")])
async def test_a_name_without_at_is_told_how_a_player_is_written(command: str,
                                                                 refused: str) -> None:
    out = await play(f"as alice\n{command}\n/games")
    assert after(out, command).strip() == refused
    assert after(out, "/games").strip() == "no live matches (/challenge someone)"


async def test_cancelling_a_finished_match_says_it_is_over_not_to_resign() -> None:
    out = await play("as alice\n/challenge @bob damas\n/cancel\n/cancel #1\n"
                     "/challenge @bob querni\nas bob\n/accept\n/cancel #2\n/resign #1")
    assert after(out, "/cancel #1").strip() == "! match #1 is over (cancelled)"
    # a match in play is still told to resign (and resigning it works)
    assert after(out, "/cancel #2").strip() == \
        "! match #2 has started or ended; resign instead"
    assert after(out, "/resign #1").strip() == "! match #1 is over: cancelled"


async def test_wait_without_claim_on_time_says_so_as_claim_does() -> None:
    """/wait in a match without claim win on time answered "you can claim once it
    has" (/claim in the same match: there is no claim)."""
    no_claim = "! this match has no claim on time: a lapsed clock ends it by itself"
    out = await play("as alice\n/challenge @bob damas\nas bob\n/accept\n/wait\n/claim")
    assert after(out, "/wait").strip() == no_claim
    assert after(out, "/claim").strip() == no_claim
    # with claim on, /wait before the clock lapsed is told so, as before
    out = await play("as alice\n/challenge @bob damas claim:yes\nas bob\n/accept\n/wait")
    assert after(out, "/wait").strip() == \
        "! your opponent's time has not run out yet; you can claim once it has"
