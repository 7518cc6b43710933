"""SimCord taught Discord's ``enforce_nonce`` (issue 36 §4): SimCord accepts a message's
``nonce`` and ``enforce_nonce`` and ignores them; Discord, when ``enforce_nonce`` is true,
checks the nonce for uniqueness over the past few minutes: if the same author already
created a message with that nonce, that message is returned and no new one is created.

:class:`NonceLedger` is installed over SimCord's router (beside the wire contract's watch)
for every SimCord test: a ``POST /channels/{id}/messages`` carrying ``enforce_nonce``
whose (author, channel, nonce) made a message less than :data:`NONCE_WINDOW` ago, that
still exists, gets that message back (logged like any request; no gateway event, no new
message). Discord documents the window only as "a few minutes"; two are assumed here, so
tests that redeliver within the window see what Discord guarantees and no more.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from simcord.backend import serializers
from simcord.types import HttpLogEntry

NONCE_WINDOW = timedelta(minutes=2)
CHANNEL_MESSAGES = re.compile(r"^/channels/(\d+)/messages$")

Dispatch = Callable[..., Any]


@dataclass
class NonceLedger:
    """The messages created with an enforced nonce: (author, channel, nonce) -> (message
    id, when). ``returned``: how many posts were answered with an earlier message."""

    created: dict[tuple[int, int, str], tuple[int, datetime]] = field(default_factory=dict)
    returned: int = 0

    def wrap(self, dispatch: Dispatch) -> Dispatch:
        """SimCord's ``router.dispatch`` with Discord's nonce check in front of it."""
        def checked(backend: Any, method: str, path: str, **kwargs: Any) -> Any:
            body = kwargs.get("json")
            found = CHANNEL_MESSAGES.match(path) if method == "POST" else None
            if found is None or not isinstance(body, dict) or not body.get("enforce_nonce") \
                    or body.get("nonce") is None:
                return dispatch(backend, method, path, **kwargs)
            channel = int(found.group(1))
            key = (backend.bot_user.id, channel, str(body["nonce"]))  # the bot posts
            now = backend.clock.now()
            earlier = self.created.get(key)
            if earlier is not None and now - earlier[1] <= NONCE_WINDOW:
                message = backend.messages.get(channel, {}).get(earlier[0])
                if message is not None:
                    self.returned += 1
                    backend.http_requests.append(HttpLogEntry(
                        method, path, copy.deepcopy(kwargs.get("params") or {}),
                        copy.deepcopy(body), kwargs.get("reason")))
                    return dict(serializers.message_payload(
                        backend, message, for_user=backend.bot_user.id))
            payload = dispatch(backend, method, path, **kwargs)
            self.created[key] = (int(payload["id"]), now)
            return payload
        return checked
