"""Protection from unwanted challenges: blocks, and the bound on the challenges one person
may have waiting.

Decisions:

* **A block is the blocker's, in every server.** Discord's own blocks are; a user id is
  the same in every server; someone who does not want one person's challenges does not
  want them in the next server either. ``/block`` alone lists whom one blocks (names
  read in the server where it is asked).
* **What a block refuses** is what the blocked user starts himself towards the blocker:
  a challenge naming him (``/challenge``, the "Challenge to a game" menu, ``/continue``,
  a rematch), joining a waiting match the blocker is in (his open challenge or lobby, or
  another's lobby he sits in), and following him as a player (a block also ends the
  follows he had of him). The refusal is neutral and says what is refused ("alice does
  not take challenges from you"): it never says more, and never shows elsewhere.
* **What a block leaves alone**: live matches (they are played to the end), tournaments
  (their pairings are mechanical: the organiser's, accepted at once), an invitation the
  blocker made himself (his own challenge to the blocked user stays his to withdraw, and
  may still be accepted), and a lobby a third person made and invited both to.
* **When a block is made**, the blocked user's waiting challenges and lobbies that name
  the blocker (in any server) are declined for him, as his own Decline does (a lobby he
  had joined he leaves): the blocked user is told as of any declined challenge, through
  the outbox, in the same words; the blocker's answer says which matches it declined.
* **Challenges off for now** (``/block challenges:off``; ``on`` again): a person who
  takes no direct challenge from anyone for a while. A challenge, ``/continue`` or
  rematch naming him is refused ("alice takes no challenges for now"); his open
  challenges stay joinable, anyone may still join a lobby he is in, follow him, or be
  paired with him in a tournament; the challenges waiting for him when he switches
  them off stay (he answers them). It is kept as his block of :data:`EVERYONE` (user id
  0, which no person has), in the same table as his blocks, for every server. It is
  ``/block``'s option rather than ``/settings``' because ``/settings`` is the server's
  (Manage Server) in Discord, and this is the person's own.
* **A bound on waiting challenges**: one person may have :data:`MAX_WAITING` challenges
  and lobbies waiting for answers in one server, and one challenge waiting per person
  and game (a second one to the same person at the same game is refused naming the
  first); the refusal says the bound and how to withdraw one. Tournament pairings and
  the computer's games (accepted at once) are not counted and never refused.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Collection, Sequence
from typing import Protocol

import rules
from locales.i18n import Text, Words, _, _n, command, option
from locales.terms import game_name
from service.computer_seats import is_computer
from service.core import ServiceCore
from service.errors import InvalidOption, NotAllowed
from service.imported_seats import is_imported
from service.records import MatchRecord, MatchStatus
from service.texts import named
from service.views import MatchView

MAX_WAITING = 10
"""Challenges and lobbies one person may have waiting for answers at once in one server."""

WAITING = (MatchStatus.OPEN, MatchStatus.LOBBY)

EVERYONE = 0
"""Who a person blocks when he takes no challenges for now (no person has id 0)."""


@dataclasses.dataclass(frozen=True, slots=True)
class BlockMade:
    """What ``/block`` did: whether the block is new, and the blocked user's waiting
    challenges and lobbies it declined for the blocker (match ids, oldest first)."""

    player: int
    new: bool
    declined: tuple[int, ...] = ()


class Guard:
    """The checks every way of starting a match with someone takes (``Challenges``,
    ``Comforts``): blocks and the bound on waiting challenges."""

    def __init__(self, core: ServiceCore) -> None:
        self.repository = core.repository
        self.names = core.names

    def _name(self, guild_id: int, user: int) -> Words:
        """``user``'s name in ``guild_id`` (the console's and Discord's resolver), else
        as the medium can name him (``texts.named``: his mention in Discord)."""
        return named(self.names, guild_id, user)

    async def refuse_blocked(self, guild_id: int, user: int, others: Collection[int]
                             ) -> None:
        """Refuse ``user`` a challenge (or rematch, or continued game) naming ``others``
        when one of them blocks him."""
        people = [o for o in others if o != user and not is_computer(o)
                  and not is_imported(o)]
        if not people:
            return
        found = await self.repository.blockers_of(user, people)
        if found:
            raise NotAllowed(_("{player} does not take challenges from you",
                               player=self._name(guild_id, found[0])))
        resting = await self.repository.blockers_of(EVERYONE, people)
        if resting:
            raise NotAllowed(_("{player} takes no challenges for now: ask again later, or "
                               "post an open challenge", player=self._name(guild_id,
                                                                           resting[0])))

    async def refuse_joining(self, rec: MatchRecord, user: int) -> None:
        """Refuse ``user`` joining waiting match ``rec`` uninvited when someone in it
        blocks him."""
        people = [s.user_id for s in rec.seats if s.user_id != user]
        found = await self.repository.blockers_of(user, people) if people else []
        if found:
            raise NotAllowed(_("{player} does not take challenges from you, so you cannot "
                               "join match #{match}", match=str(rec.id),
                               player=self._name(rec.guild_id, found[0])))

    async def refuse_following(self, guild_id: int, user: int, player: int) -> None:
        """Refuse ``user`` following ``player`` when ``player`` blocks him."""
        if await self.repository.blockers_of(user, [player]):
            raise NotAllowed(_("{player} cannot be followed by you",
                               player=self._name(guild_id, player)))

    async def refuse_too_many(self, guild_id: int, user: int, game: str,
                              invited: Sequence[int]) -> None:
        """Refuse ``user`` one more challenge in ``guild_id`` (of ``game``, inviting
        ``invited``) when :data:`MAX_WAITING` of his wait already, or one of ``game`` to
        one of ``invited`` does."""
        mine = sorted((m for m in await self.repository.matches_of(user, guild_id, WAITING)
                       if m.challenger_id == user), key=lambda m: m.id)
        people = {u for u in invited if not is_computer(u)}
        for m in mine:
            asked = [s.user_id for s in m.seats if not s.accepted and s.user_id in people]
            if m.game == game and asked:
                raise NotAllowed(_(
                    "your challenge to {player} at {game} waits for an answer already "
                    "(match #{match}): withdraw it with {cancel} to ask again",
                    player=self._name(guild_id, asked[0]), match=str(m.id),
                    game=game_name(game, rules.variant(game).name),
                    cancel=command("cancel", match=m.id)))
        if len(mine) >= MAX_WAITING:
            raise NotAllowed(_n(
                "you have {count} challenge waiting for an answer here, the most there may "
                "be: withdraw one with {cancel} (your oldest is match #{match})",
                "you have {count} challenges waiting for an answer here, the most there "
                "may be: withdraw one with {cancel} (your oldest is match #{match})",
                len(mine), match=str(mine[0].id), cancel=command("cancel", match=mine[0].id)))


class Answers(Protocol):
    """What a block answers for the blocker (``Challenges``: it imports this module)."""

    async def decline(self, match_id: int, user: int) -> MatchView: ...

    async def cancel(self, match_id: int, user: int) -> MatchView: ...


class Blocks:
    """``/block`` and ``/unblock``: see the module's decisions."""

    def __init__(self, core: ServiceCore, challenges: Answers) -> None:
        self.repository = core.repository
        self.clock = core.clock
        self._challenges = challenges

    @staticmethod
    def _blockable(user: int, player: int) -> None:
        if player == user:
            raise InvalidOption(_("you cannot block yourself"))
        if is_computer(player) or is_imported(player) or player == EVERYONE:
            raise InvalidOption(_("the computer challenges nobody: there is nothing to "
                                  "block"))

    async def block(self, user: int, player: int) -> BlockMade:
        """``user`` blocks ``player`` (in every server); the blocked user's waiting
        challenges and lobbies naming him are declined for him."""
        self._blockable(user, player)
        new = await self.repository.add_block(user, player, self.clock.now())
        declined: list[int] = []
        for rec in sorted(await self.repository.matches_of(player, None, WAITING),
                          key=lambda m: m.id):
            mine = rec.seat_of(user)
            if rec.challenger_id != player or mine is None:
                continue
            if mine.accepted:
                await self._challenges.cancel(rec.id, user)  # he leaves the lobby
            else:
                await self._challenges.decline(rec.id, user)
            declined.append(rec.id)
        return BlockMade(player, new, tuple(declined))

    async def unblock(self, user: int, player: int) -> bool:
        """``user`` no longer blocks ``player``; False: he did not."""
        return await self.repository.remove_block(user, player)

    async def blocked(self, user: int) -> list[int]:
        """Whom ``user`` blocks, the oldest block first."""
        return [b for b in await self.repository.blocked_by(user) if b != EVERYONE]

    async def set_challenges(self, user: int, on: bool) -> bool:
        """``user`` takes direct challenges again (``on``) or none for now; False: that
        was so already."""
        if not isinstance(on, bool):
            raise InvalidOption(_("challenges must be on or off"))
        if on:
            return await self.repository.remove_block(user, EVERYONE)
        return await self.repository.add_block(user, EVERYONE, self.clock.now())

    async def challenges_on(self, user: int) -> bool:
        """Whether ``user`` takes direct challenges (he did not switch them off)."""
        return not await self.repository.blockers_of(EVERYONE, [user])


def block_words(made: BlockMade, name: object) -> Text:
    """The blocker's answer to ``/block``, in the console's and Discord's words."""
    if not made.new:
        return _("You block {player} already.", player=name)
    if not made.declined:
        return _("You block {player}: their challenges to you are refused, in every server.",
                 player=name)
    return _n("You block {player}: their challenges to you are refused, in every server. "
              "Their waiting challenge to you was declined (match {matches}).",
              "You block {player}: their challenges to you are refused, in every server. "
              "Their {count} waiting challenges to you were declined (matches {matches}).",
              len(made.declined), player=name,
              matches=", ".join(f"#{m}" for m in made.declined))


def challenges_words(on: bool) -> Text:
    """The answer to ``/block challenges:on|off``."""
    if on:
        return _("You take challenges again.")
    return _("You take no challenges for now: a challenge naming you is refused, in every "
             "server; your open challenges can still be joined. {on} takes them again.",
             on=command("block", challenges="on"))


def challenges_off_words() -> Text:
    """What ``/block`` alone adds while one takes no challenges."""
    return _("You take no challenges for now ({on} takes them again).",
             on=command("block", challenges="on"))


def challenges_alone() -> Text:
    """The refusal of ``challenges`` given with a player."""
    return _("Give {challenges} alone: {block}.", challenges=option("challenges"),
             block=command("block", challenges="off"))
