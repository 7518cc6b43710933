"""The pages' colours are readable (WCAG AA: 4.5:1 for text), on light pages and on the
dark ones a reader's system asks for: the accent under white text (the move shown in the
list, a piece opened), the accent as text ("to move"), and errors. The accent was 4.3:1
and the errors 3.4:1 on a dark page; the mover's colour in the move shown, faded white on
the accent, under 3:1. Read from the style sheet itself."""

from __future__ import annotations

import re

from tests.web.test_languages_page import ROOT

CSS = (ROOT / "bot/web/static/site.css").read_text("utf-8")
WHITE, DARK = "#ffffff", "#121212"  # the page's backgrounds: light, and Chromium's dark


def luminance(colour: str) -> float:
    def linear(c: float) -> float:
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (int(colour[i:i + 2], 16) / 255 for i in (1, 3, 5))
    return 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b)


def contrast(a: str, b: str) -> float:
    low, high = sorted((luminance(a), luminance(b)))
    return (high + 0.05) / (low + 0.05)


def variables(block: str) -> dict[str, str]:
    return dict(re.findall(r"--([\w-]+):\s*(#[0-9a-fA-F]{6})\b", block))


def test_text_colours_are_readable_on_light_and_dark_pages() -> None:
    light = variables(CSS.split(":root {", 1)[1].split("}", 1)[0])
    dark = {**light, **variables(CSS.partition("prefers-color-scheme: dark")[2]
                                 .split("}", 1)[0])}
    assert contrast(light["accent"], WHITE) >= 4.5  # white text on it, in either scheme
    for scheme, background in ((light, WHITE), (dark, DARK)):
        for name in ("accent-text", "error"):
            assert contrast(scheme[name], background) >= 4.5, (name, background)
    # the rules use them, and the move shown says its mover in full white
    assert ".turn { color: var(--accent-text); }" in CSS
    assert ".error { color: var(--error);" in CSS
    assert "#moves a[aria-current] .who { opacity: 1; }" in CSS
