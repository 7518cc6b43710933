"""The registry of variants: one :class:`~rules.core.Variant` instance per key."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any, TypeVar

from rules.core import UnknownVariantError, Variant, detail

_VARIANTS: dict[str, Variant[Any, Any]] = {}
VARIANTS: Mapping[str, Variant[Any, Any]] = MappingProxyType(_VARIANTS)
"""Every registered variant by key, in registration order (read-only)."""


V = TypeVar("V", bound=Variant[Any, Any])


def register(v: V) -> V:
    """Add ``v`` under ``v.key``; a key may be registered once."""
    if v.key in _VARIANTS:
        raise ValueError(f"variant {v.key!r} is already registered")
    _VARIANTS[v.key] = v
    return v


def variant(key: str) -> Variant[Any, Any]:
    """The variant registered under ``key``.

    >>> import rules
    >>> rules.variant("nope")
    Traceback (most recent call last):
    ...
    rules.core.UnknownVariantError: unknown game 'nope' (games: ...)
    """
    try:
        return _VARIANTS[key.strip().lower()]
    except (KeyError, AttributeError):
        raise UnknownVariantError(detail("unknown_game", input=str(key),
                                         games=tuple(_VARIANTS)), text=str(key)) from None
