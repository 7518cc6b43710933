"""Reading Xiangqi records (issue 44): WXF (moves like ``C2.5``) and ICCS (``H2-E2``), the
counterpart of :meth:`rules.xiangqi.XiangqiVariant.export_record`, registered as the reader of
the ``wxf`` record format. Kept beside the game rather than inside it so that the game's module
stays the game (its moves, its notation, its end).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from rules.core import NotationError, Position, Variant, detail
from rules.records import (
    COMMON_TAGS,
    ImportedGame,
    RecordError,
    read_standard_record,
    read_tags,
    register_reader,
)
from rules.xiangqi import XiangqiMove, XiangqiVariant, as_xiangqi_position

_ICCS = re.compile(r"^([a-iA-I])([0-9])-?([a-iA-I])([0-9])$")


def _iccs_reader(v: XiangqiVariant) -> Callable[[Position, str], XiangqiMove]:
    """Reads an ICCS move (``H2-E2``: files a-i, ranks 0-9 from Red's side) as the point
    move it names (``h3-e3``); anything else is refused as not ICCS."""
    def read(p: Position, text: str) -> XiangqiMove:
        found = _ICCS.match(text.strip())
        if found is None:
            raise NotationError(detail("iccs_syntax", input=text.strip()), text=text)
        a, r1, b, r2 = found.groups()
        point_move = f"{a.lower()}{int(r1) + 1}-{b.lower()}{int(r2) + 1}"
        return v.parse_move(as_xiangqi_position(p), point_move)
    return read


def read_wxf(v: Variant[Any, Any], text: str) -> ImportedGame:
    """A WXF record (moves like ``C2.5``; point moves are read too) or an ICCS one
    (``[Format "ICCS"]``, moves like ``H2-E2``), the counterpart of
    :meth:`XiangqiVariant.export_record`. A WXF block ``START{ ... }END`` is read as the
    move text.

    >>> import rules
    >>> read_wxf(rules.variant("xiangqi"), '[Format "ICCS"]\\n1. h2-e2 h9-g7 2. h0-g2 *').moves
    ('h3-e3', 'h10-g8', 'h1-g3')
    """
    tags, movetext = read_tags(text, COMMON_TAGS | {"Red", "Black"})
    game = tags.get("Game", "Chinese Chess").strip()
    if game.lower() not in ("chinese chess", "xiangqi"):
        raise RecordError(detail("record_other_game", found=game, game=v.key))
    fmt = tags.get("Format", "WXF").strip().upper()
    if fmt not in ("WXF", "ICCS"):
        raise RecordError(detail("record_format", input=fmt, formats=("WXF", "ICCS")))
    if "START{" in movetext:
        movetext = movetext.split("START{", 1)[1].split("}END", 1)[0]
    return read_standard_record(v, text, tags, movetext,
                                _iccs_reader(_xiangqi(v)) if fmt == "ICCS" else None)


def _xiangqi(v: Variant[Any, Any]) -> XiangqiVariant:
    if not isinstance(v, XiangqiVariant):
        raise TypeError(f"not Xiangqi: {v!r}")
    return v


register_reader("wxf", read_wxf)
