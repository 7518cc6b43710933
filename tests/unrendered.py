"""What words look like when they reached a person without being rendered: the Python
object of a lazy text (``Text(msgid=...)``, issue 38's ``/claim``). ``str()`` and
f-strings over lazy words raise (``locales.i18n.Lazy``); a repr (``{x!r}``, a list of
texts put in a string) would still slip through, so every console line (tests/conftest.py)
and every request to Discord (tests/discordapp/wire_contract.py) in the suite is checked
with :func:`unrendered`.

>>> from locales.i18n import _
>>> unrendered(f"#1: {[_('draw')]}")
"Text(msgid='draw', params={}, plural=None, count=None)]"
>>> unrendered("#1: bob won") is None
True
"""

from __future__ import annotations

import re
from typing import Any

_LAZY = re.compile(r"\b(?:Text\(msgid=|Listing\(items=|Joined\(parts=|Capitalized\(words="
                   r"|Decimal\(value=|Command\(qualified=|Option\(english=|_Said\(said=)"
                   r"[^\n]*|<[\w.]+ object at 0x[0-9a-f]+>")


def unrendered(text: str) -> str | None:
    """The first unrendered lazy text in ``text``, or None."""
    found = _LAZY.search(text)
    return found[0] if found is not None else None


def unrendered_in(data: Any) -> list[str]:
    """Every string in JSON-like ``data`` holding an unrendered lazy text."""
    if isinstance(data, str):
        found = unrendered(data)
        return [found] if found is not None else []
    if isinstance(data, dict):
        return [x for v in data.values() for x in unrendered_in(v)]
    if isinstance(data, list | tuple):
        return [x for v in data for x in unrendered_in(v)]
    return []
