"""Signed links: a spectator's link names a match and its server, signed with the web
secret (HMAC-SHA256, 128 bits kept), so ids are never guessed nor walked through.

A token is URL-safe base64 of ``match id | server id | signature`` (8 + 8 + 16 bytes).
Anything else (wrong length, bad characters, another secret's signature) is no link at
all: the pages answer it like an unknown match.

>>> signer = LinkSigner(b"k" * 32)
>>> token = signer.spectator(42, 7)
>>> signer.read_spectator(token)
(42, 7)
>>> signer.read_spectator(token[:-2] + "AA") is None
True
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import struct

MIN_SECRET = 32
"""The fewest characters a web secret has (``TABLERO_WEB_SECRET``)."""

_IDS = struct.Struct(">QQ")
_MAC = 16


class LinkSigner:
    """Signs and reads the web's links with one secret (shared by every web process)."""

    def __init__(self, secret: bytes) -> None:
        if len(secret) < MIN_SECRET:
            raise ValueError(f"the web secret must have at least {MIN_SECRET} characters")
        self._secret = secret

    def _mac(self, purpose: bytes, body: bytes) -> bytes:
        return hmac.new(self._secret, purpose + b"|" + body, hashlib.sha256).digest()[:_MAC]

    def spectator(self, match_id: int, guild_id: int) -> str:
        """The token of match ``match_id``'s spectator link (it is in server ``guild_id``)."""
        body = _IDS.pack(match_id, guild_id)
        raw = body + self._mac(b"watch", body)
        return base64.urlsafe_b64encode(raw).decode("ascii").rstrip("=")

    def read_spectator(self, token: str) -> tuple[int, int] | None:
        """``(match id, server id)`` of a genuine spectator token, else None."""
        if not isinstance(token, str) or len(token) != 43 or not token.isascii():
            return None
        try:
            raw = base64.urlsafe_b64decode(token + "=")
        except (binascii.Error, ValueError):
            return None
        if len(raw) != _IDS.size + _MAC:
            return None
        body, mac = raw[:_IDS.size], raw[_IDS.size:]
        if not hmac.compare_digest(mac, self._mac(b"watch", body)):
            return None
        match_id, guild_id = _IDS.unpack(body)
        return match_id, guild_id


def spectator_url(base_url: str, token: str) -> str:
    """The public address of a spectator link (``TABLERO_WEB_URL`` + ``/m/`` + token)."""
    return f"{base_url.rstrip('/')}/m/{token}"
