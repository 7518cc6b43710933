"""The catalogues (``.po``) and the template (``.pot``) as Babel reads them, read once a
process: a dozen test modules read each of them, and Babel takes 55-100 ms of CPU to
read one. What ``read`` returns is shared: read it, never change it."""

from __future__ import annotations

from functools import cache
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po


def read(path: Path, locale: str | None = None) -> Catalog:
    """The catalogue at ``path`` (``locale``: Babel's name, for the plural rules), read
    again only where the file changed since."""
    stat = path.stat()
    return _read(path.resolve(), locale, stat.st_mtime_ns, stat.st_size)


@cache
def _read(path: Path, locale: str | None, _mtime: int, _size: int) -> Catalog:
    with path.open("rb") as f:
        return read_po(f, locale=locale)
