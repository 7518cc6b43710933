"""What became of a question asked with buttons (``OfferSettled``), as the line its post
gets when it is closed: "✅ Accepted by @bob.", "🤝 Draw agreed.", "⌛ Lapsed: a move was
played first." (rendered in the post's own language by the notifier)."""

from __future__ import annotations

from bot.discordapp.embeds import mention
from locales.i18n import Words, _
from service.events import OfferSettled


def outcome_line(event: OfferSettled) -> Words:
    """The closing line of ``event``'s post."""
    by, outcome = event.by, event.outcome
    if outcome == "accepted":
        if event.offer == "draw":
            return _("🤝 Draw agreed.")
        if by is None:
            return _("✅ Accepted.")
        if event.offer == "takeback":
            return _("✅ Accepted by {player}: the move is taken back.", player=mention(by))
        if event.offer == "pause":
            return _("⏸ Accepted by {player}: the match is paused.", player=mention(by))
        return _("✅ Accepted by {player}.", player=mention(by))
    if outcome == "filled":
        return _("✅ The lobby is full: the match has started.")
    if outcome == "declined":
        return _("❌ Declined by {player}.", player=mention(by)) if by is not None \
            else _("❌ Declined.")
    if outcome == "withdrawn":
        return _("↩ Withdrawn by {player}.", player=mention(by)) if by is not None \
            else _("↩ Withdrawn.")
    if outcome == "lapsed":
        return _("⌛ Lapsed: a move was played first.")
    return _("Closed: the match is over.") if event.offer != "challenge" else _("Closed.")
