"""Chinese puts no space between two Chinese characters: the catalogues keep a space only
beside Latin text, a placeholder or a command (``輪到 {players} 走棋``, ``/匯入 的回覆``),
and a placeholder whose value is Chinese itself (a seat, a game, a name) stands against
its Chinese neighbours when the sentence is filled (``輪到紅方走棋``), while a Latin one
keeps its space (``輪到 alice 走棋``)."""

from __future__ import annotations

import re

import pytest

from locales.i18n import _, catalogue_path, command, joined
from locales.terms import game_name, seat_colour
from tests.catalogues import read

HAN = "[\u2e80-\u2fdf\u3000-\u303f\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff" \
    "\uff00-\uffef]"
SPACED = re.compile(f"{HAN}[*_~]*[ \u00a0\u3000]+[*_~]*{HAN}")
COMMAND_BEFORE = re.compile(r"/\w+$")


def spaced_between_chinese(text: str) -> list[str]:
    """Every space in ``text`` (a catalogue's own words) between two Chinese characters,
    but the one that ends a command written in Chinese (``/匯入 的``)."""
    found = []
    for line in text.split("\n"):
        for m in SPACED.finditer(line):
            if not COMMAND_BEFORE.search(line[:m.start() + 1]):
                found.append(line[max(0, m.start() - 12):m.end() + 12])
    return found


def test_the_scan_finds_a_space_between_chinese_characters() -> None:
    assert spaced_between_chinese("請寫成 名稱=值") == ["請寫成 名稱=值"]
    assert spaced_between_chinese("輪到 {players} 走棋；用 /匯入 的編號，或 c2-c3 吃子") == []


@pytest.mark.parametrize("locale", ["zh_CN", "zh_TW"])
def test_no_catalogue_puts_a_space_between_chinese_characters(locale: str) -> None:
    catalogue = read(catalogue_path(locale))
    found = [f"{m.id!r}: {said!r}" for m in catalogue if m.id
             for text in ((m.string,) if isinstance(m.string, str) else tuple(m.string or ()))
             for said in spaced_between_chinese(text or "")]
    assert not found, "\n".join(found)


@pytest.mark.parametrize(("locale", "red"), [("zh-TW", "紅方"), ("zh-CN", "红方")])
def test_a_chinese_value_stands_against_its_chinese_neighbours(locale: str, red: str) -> None:
    seat = seat_colour("Red")
    named = _("{player} ({seat})", player="alice", seat=seat)
    refusal = _("it is not your turn: {players} to move", players=named).render(locale)
    assert f"alice（{red}）走棋" in refusal
    assert f"{red} 走" not in _("it is not your turn: {players} to move",
                                players=seat).render(locale)
    assert " alice" in refusal, "a Latin name keeps the space that sets it apart"
    assert "bob 走棋" in _("it is not your turn: {players} to move",
                          players="bob").render(locale)
    animated = _("Animated replay of {game} match {match}, move by move",
                 game=game_name("xiangqi"), match=1).render(locale)
    assert animated.startswith("象棋對局 1" if locale == "zh-TW" else "象棋对局 1")
    assert _("Animated replay of {game} match {match}, move by move",
             game=game_name("querni"), match=1).render(locale).startswith("Querni ")


def test_sentences_joined_in_chinese_stand_against_each_other() -> None:
    said = joined(_("Draw offered."), _("Draw offered.")).render("zh-TW")
    assert " " not in said and said.count("。") == 2
    assert joined(_("Draw offered."), "c2-c3").render("zh-TW").endswith("。 c2-c3")


def test_a_command_keeps_the_space_that_ends_it() -> None:
    """A command (and its options) is typed: the space after it ends it, Chinese or not."""
    said = _("⏸ {player} agreed: the match is paused until {until}; nobody moves and no "
             "clock runs. {resume} ends it earlier.", player="alice", until="x",
             resume=command("pause", action="resume")).render("zh-TW")
    assert said.endswith("動作:恢復 可提前結束。")
