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
from dataclasses import dataclass

MIN_SECRET = 32
"""The fewest characters a web secret has (``TABLERO_WEB_SECRET``)."""

_IDS = struct.Struct(">QQ")
_SERVER = struct.Struct(">Q")
_PASS = struct.Struct(">QQQII")  # match, server, user, expires (Unix seconds), generation
_MAC = 16
PLAYER_DAYS = 14
"""How long a player's link works (a new one is asked for with /web)."""


@dataclass(frozen=True, slots=True)
class PlayerPass:
    """What a player's link says: it acts for ``user_id`` in match ``match_id`` of server
    ``guild_id`` until ``expires`` (Unix seconds), while his link generation is still
    ``epoch`` (``/web revoke`` moves it on)."""

    match_id: int
    guild_id: int
    user_id: int
    expires: int
    epoch: int


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
        return _encode(body + self._mac(b"watch", body))

    def player(self, grant: PlayerPass) -> str:
        """The token of a player's link."""
        body = _PASS.pack(grant.match_id, grant.guild_id, grant.user_id, grant.expires,
                          grant.epoch)
        return _encode(body + self._mac(b"play", body))

    def read_player(self, token: str) -> PlayerPass | None:
        """What a genuine player token says (its expiry and generation are the caller's
        to check), else None."""
        raw = _decode(token, _PASS.size + _MAC)
        if raw is None:
            return None
        body, mac = raw[:_PASS.size], raw[_PASS.size:]
        if not hmac.compare_digest(mac, self._mac(b"play", body)):
            return None
        return PlayerPass(*_PASS.unpack(body))

    def csrf(self, token: str) -> str:
        """The form token of a player's link: every state-changing request carries it."""
        return _encode(self._mac(b"csrf", token.encode("ascii", "replace")))

    def server(self, guild_id: int) -> str:
        """The token of server ``guild_id``'s page (its leaderboards, tournaments, matches
        in play)."""
        body = _SERVER.pack(guild_id)
        return _encode(body + self._mac(b"server", body))

    def read_server(self, token: str) -> int | None:
        """The server id of a genuine server token, else None."""
        raw = _decode(token, _SERVER.size + _MAC)
        if raw is None:
            return None
        body, mac = raw[:_SERVER.size], raw[_SERVER.size:]
        if not hmac.compare_digest(mac, self._mac(b"server", body)):
            return None
        (guild_id,) = _SERVER.unpack(body)
        return int(guild_id)

    def read_spectator(self, token: str) -> tuple[int, int] | None:
        """``(match id, server id)`` of a genuine spectator token, else None."""
        raw = _decode(token, _IDS.size + _MAC)
        if raw is None:
            return None
        body, mac = raw[:_IDS.size], raw[_IDS.size:]
        if not hmac.compare_digest(mac, self._mac(b"watch", body)):
            return None
        match_id, guild_id = _IDS.unpack(body)
        return match_id, guild_id


@dataclass(frozen=True, slots=True)
class WebLinks:
    """What an adapter needs to give out links: the signer and the public base address
    (``TABLERO_WEB_SECRET``, ``TABLERO_WEB_URL``)."""

    signer: LinkSigner
    base_url: str

    @classmethod
    def configured(cls, secret: str | None, base_url: str) -> WebLinks | None:
        """The links of these settings, None when no usable secret is set."""
        if not secret or len(secret) < MIN_SECRET:
            return None
        return cls(LinkSigner(secret.encode()), base_url)


def _encode(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).decode("ascii").rstrip("=")


def _decode(token: object, length: int) -> bytes | None:
    """The bytes of a token of ``length`` bytes, or None for anything else."""
    chars = -(-length * 4 // 3)
    if not isinstance(token, str) or len(token) != chars or not token.isascii() or \
            not all(c.isalnum() or c in "-_" for c in token):
        return None
    try:
        raw = base64.urlsafe_b64decode(token + "=" * (-len(token) % 4))
    except (binascii.Error, ValueError):
        return None
    return raw if len(raw) == length else None


def spectator_url(base_url: str, token: str) -> str:
    """The public address of a spectator link (``TABLERO_WEB_URL`` + ``/m/`` + token)."""
    return f"{base_url.rstrip('/')}/m/{token}"


def player_url(base_url: str, token: str) -> str:
    """The public address of a player's link (``TABLERO_WEB_URL`` + ``/p/`` + token)."""
    return f"{base_url.rstrip('/')}/p/{token}"
