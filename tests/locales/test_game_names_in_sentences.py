"""A game's name is a noun phrase of its own ("Spanische Dame", "Damas españolas",
"Spansk dam"), and a tournament's default name is built of one: a sentence that names
them must read right whichever it names. "Du bist in Spanische Dame am Zug" did not (a
German game takes an article, and an article the name's case); now the match carries
the preposition and the game stands beside it ("Du bist in Partie 12 (Spanische Dame)
am Zug"). Every message that names a game, or a tournament by its name, is rendered
here with every game's (and every default tournament's) name in every language, and
read for a name straight after a preposition or an article that would have to agree
with it, or glued into a German compound."""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import cache

import pytest

import rules
from locales.i18n import CATALOGUES, DOMAIN, LOCALES, Text, _, render
from locales.terms import game_name
from service.tournaments.model import Format, tournament_title
from tests.catalogues import read

PLACEHOLDER = re.compile(r"\{(\w+)\}")

AGREEING: dict[str, str] = {
    "de": r"in|im|zu|zum|zur|von|vom|für|mit|aus|bei|beim|nach|der|die|das|dem|den|des"
          r"|ein|eine|einer|einem|eines|kein|keine|keinem|keinen|keiner",
    "es": r"en|a|al|para|con|por|el|la|los|las|un|una|del",
    "sv": r"ett|en|inget|ingen|det|den",
}
"""The words a name may not follow in each language: they would need the name's gender,
case or article ("in der Spanischen Dame"), so the sentence names the match, the
tournament or the game ("eine Partie Spanische Dame", "el torneo …") instead."""


def names(locale: str) -> list[str]:
    """Every game's name in ``locale``."""
    return [render(game_name(key), locale) for key in rules.VARIANTS]


def titles(locale: str) -> list[str]:
    """Every default tournament name (``'Xiangqi Swiss'``) in ``locale``."""
    return [render(tournament_title(f"{v.name} {fmt.label}", v.key, v.name, fmt), locale)
            for v in rules.VARIANTS.values() for fmt in Format]


def misread(said: str, name: str, locale: str) -> list[str]:
    """What reads wrong about ``name`` where ``said`` (a sentence in ``locale``) names it."""
    found = []
    words = AGREEING.get(locale[:2])
    if words and re.search(rf"(?<!\w)(?i:{words})\s+{re.escape(name)}(?!\w)", said):
        found.append("after a word that must agree with it")
    if locale == "de" and " " in name and f"{name}-" in said:
        found.append("a compound of several words without their hyphens")
    return found


@cache
def messages() -> list[tuple[str, str | None, tuple[str, ...]]]:
    """(message id, plural, placeholders) of every message that names a game, a
    tournament by its name, or a tournament's default name's parts."""
    template = read(CATALOGUES / f"{DOMAIN}.pot")
    found = []
    for m in template:
        if not m.id or m.context:
            continue
        msgid, plural = (m.id, None) if isinstance(m.id, str) else (m.id[0], m.id[1])
        fields = tuple(PLACEHOLDER.findall(msgid))
        about_tournaments = any("tournament" in path for path, _line in m.locations)
        if "game" in fields or (about_tournaments and ("name" in fields or re.search(
                r"(?<!#)\{tournament\}", msgid))):
            found.append((msgid, plural, fields))
    return found


def renderings(locale: str) -> Iterator[tuple[str, str, str]]:
    """(message id, a name, the message in ``locale`` naming it) for every message of
    :func:`messages` and every name it may carry."""
    for msgid, plural, fields in messages():
        tournament = "game" not in fields
        for name in titles(locale) if tournament else names(locale):
            values: dict[str, object] = {f: "X" for f in fields}
            values.update({"game": name} if not tournament else {
                f: name for f in ("name", "tournament") if f in fields})
            text = Text(msgid, values, plural, 2 if plural is not None else None)
            yield msgid, name, text.render(locale)


def test_the_reading_finds_a_name_that_does_not_fit() -> None:
    assert misread("Du bist in Spanische Dame am Zug", "Spanische Dame", "de")
    assert misread("Spanische Dame-Lobby", "Spanische Dame", "de") == [
        "a compound of several words without their hyphens"]
    assert misread("Te toca en Damas españolas", "Damas españolas", "es-ES")
    assert misread("utforskaren har inget Spansk dam", "Spansk dam", "sv-SE")
    assert not misread("Du bist in Partie 12 (Spanische Dame) am Zug.", "Spanische Dame",
                       "de")
    assert not misread("Xiangqi-Brett", "Xiangqi", "de")
    assert not misread("Tablero de Damas españolas", "Damas españolas", "es-419")


def test_every_message_that_names_a_game_or_a_tournament_is_read() -> None:
    said = {msgid for msgid, _p, _f in messages()}
    assert {"Your move in {game} (match {match}).", "You are in {name}.",
            "you are already in {tournament}", "{game} {format}"} <= said
    assert "🏆 Tournament #{tournament} is over: {player} wins!" not in said


@pytest.mark.parametrize("locale", [x for x in LOCALES if x[:2] in AGREEING])
def test_every_game_and_tournament_name_reads_right_in_every_sentence(locale: str) -> None:
    """(English needs no agreement, Chinese no articles: they are not read.)"""
    found = [f"{problem}: {msgid!r} -> {text!r}" for msgid, name, text in renderings(locale)
             for problem in misread(text, name, locale)]
    assert not found, "\n".join(found)


@pytest.mark.parametrize(("locale", "expected"), [
    ("de", "Du bist in Partie 12 (Spanische Dame) am Zug."),
    ("es-ES", "Te toca en la partida 12 (Damas españolas)."),
    ("es-419", "Te toca en la partida 12 (Damas españolas)."),
    ("sv-SE", "Ditt drag i parti 12 (Spansk dam)."),
    ("en-GB", "Your move in Spanish draughts (match 12)."),
    ("zh-TW", "西班牙跳棋（對局 12）輪到你走棋。"),
])
def test_the_turn_by_direct_message_names_the_match_and_its_game(locale: str,
                                                                 expected: str) -> None:
    said = _("Your move in {game} (match {match}).", game=game_name("damas"), match=12)
    assert said.render(locale) == expected


def test_a_challenge_a_lobby_and_a_tournament_read_right_in_german() -> None:
    damas = game_name("damas")
    assert _("{players}: {challenger} challenges you to {game}.", players="@bob",
             challenger="@alice", game=damas).render("de") == \
        "@bob: @alice fordert dich zu einer Partie Spanische Dame heraus."
    assert _("{player} joined the {game} lobby ({joined}/{seats}).", player="bob",
             game=game_name("alquerque-grande"), joined=2, seats=4).render("de") == \
        "bob ist der Lobby für eine Partie Alquerque grande beigetreten (2/4)."
    swiss = tournament_title("Spanish draughts Swiss", "damas", "Spanish draughts",
                             Format.SWISS)
    assert render(swiss, "de") == "Spanische Dame (Schweizer System)"
    assert _("You are in {name}.", name=swiss).render("de") == \
        "Du bist beim Turnier Spanische Dame (Schweizer System) dabei."
    assert _("You are in {name}.", name=swiss).render("es-ES") == \
        "Estás inscrito en el torneo Damas españolas (suizo)."
    assert _("You are in {name}.", name=swiss).render("sv-SE") == \
        "Du är med i turneringen Spansk dam (schweizisk)."
