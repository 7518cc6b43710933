"""What became of a question asked with buttons (``OfferSettled``), as the line its post
gets when it is closed: "✅ Accepted by @bob.", "🤝 Draw agreed.", "⌛ Lapsed: a move was
played first.", "🏁 Claimed by @bob.", "🔁 Rematch started: match #12." (rendered in the
post's own language by the notifier); a turn's card gets none."""

from __future__ import annotations

from bot.discordapp.embeds import mention
from locales.i18n import Words, _
from service.computer_seats import is_computer
from service.events import OfferSettled


def outcome_line(event: OfferSettled) -> Words | None:
    """The closing line of ``event``'s post (None: a turn's card, whose words said what
    it was, only loses its buttons)."""
    by, outcome = event.by, event.outcome
    if event.offer == "turn":
        return None
    if outcome == "claimed":
        return _("🏁 Claimed by {player}.", player=mention(by)) if by is not None \
            else _("🏁 Claimed.")
    if outcome == "extended":
        return _("⏳ {player} gave one more day instead.", player=mention(by)) \
            if by is not None else _("⏳ One more day was given instead.")
    if outcome == "taken-back":
        return _("⌛ Lapsed: a move was taken back.")
    if outcome == "left":
        return _("⌛ Lapsed: {player} is out of the game.", player=mention(by)) \
            if by is not None else _("⌛ Lapsed: a player is out of the game.")
    if outcome == "lapsed" and event.offer == "claim":
        return _("⌛ Moot: a move was played before anyone claimed.")
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
        m = event.match
        if not m.rated and any(is_computer(s.user_id) for s in m.seats):
            # the lobby's words above said "rated": computer players made it casual
            return _("✅ The lobby is full: the match has started, casual (it has computer "
                     "players).")
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


def rematch_line(stage: str, rematch: int, by: int | None) -> Words:
    """The line a result post gets where its "Rematch" was: the rematch ``rematch`` was
    asked (``by``: who asked), started, or declined (``by``: who declined); see
    ``service.deliveries.REMATCH_STAGES``."""
    if stage == "asked":
        return _("🔁 Rematch asked by {player}: match #{match}.", player=mention(by),
                 match=str(rematch)) if by is not None else \
            _("🔁 Rematch asked: match #{match}.", match=str(rematch))
    if stage == "started":
        return _("🔁 Rematch started: match #{match}.", match=str(rematch))
    return _("❌ Rematch declined by {player}.", player=mention(by)) \
        if by is not None else _("❌ Rematch declined.")
