"""The command tree: slash commands, their options and autocomplete, one context menu.

Commands only parse options and hand over to :class:`bot.discordapp.handlers.Handlers`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal, TypeAlias

import discord
from discord import app_commands

from bot.discordapp.catalog import game_choices

if TYPE_CHECKING:
    from bot.discordapp.client import TableroBot
    from bot.discordapp.handlers import Handlers

Interaction: TypeAlias = "discord.Interaction[TableroBot]"


def _game_choices() -> list[app_commands.Choice[str]]:
    return [app_commands.Choice(name=c.label, value=c.value) for c in game_choices()][:25]


def register_commands(tree: app_commands.CommandTree[Any], h: Handlers) -> None:
    """Add every Tablero command to ``tree``."""
    games = _game_choices()

    async def game_autocomplete(interaction: Interaction,
                                current: str) -> list[app_commands.Choice[str]]:
        needle = current.lower()
        return [c for c in _game_choices() if needle in c.name.lower()][:25]

    async def match_autocomplete(interaction: Interaction,
                                 current: str) -> list[app_commands.Choice[int]]:
        return await h.match_choices(interaction, current)

    async def move_autocomplete(interaction: Interaction,
                                current: str) -> list[app_commands.Choice[str]]:
        return await h.move_choices(interaction, current)

    async def seat_autocomplete(interaction: Interaction,
                                current: str) -> list[app_commands.Choice[int]]:
        return h.seat_choices(interaction, current)

    async def ladder_autocomplete(interaction: Interaction,
                                  current: str) -> list[app_commands.Choice[str]]:
        return h.ladder_choices(current)

    @app_commands.command(name="challenge", description="Challenge someone (or anyone) to a game")
    @app_commands.guild_only()
    @app_commands.describe(
        game="The game and its options",
        opponent="Who you challenge (leave empty for an open challenge anyone may join)",
        opponent2="A second opponent (4-player games)",
        opponent3="A third opponent (4-player games)",
        days="Days per move (1-14; the server's default if empty)",
        rated="Rated (counts for the leaderboard) or casual",
        seat="The colour or seat you want (random if empty)")
    async def challenge(interaction: Interaction, game: str,
                        opponent: discord.Member | None = None,
                        opponent2: discord.Member | None = None,
                        opponent3: discord.Member | None = None,
                        days: app_commands.Range[int, 1, 14] | None = None,
                        rated: bool = True, seat: int | None = None) -> None:
        opponents = [o for o in (opponent, opponent2, opponent3) if o is not None]
        await h.challenge(interaction, game, opponents, days, rated, seat)

    if 0 < len(games) <= 25:
        challenge = app_commands.choices(game=games)(challenge)
    else:
        challenge.autocomplete("game")(game_autocomplete)
    challenge.autocomplete("seat")(seat_autocomplete)
    tree.add_command(challenge)

    @tree.context_menu(name="Challenge to a game")
    @app_commands.guild_only()
    async def challenge_menu(interaction: Interaction, member: discord.Member) -> None:
        await h.challenge_menu(interaction, member)

    @tree.command(name="move", description="Play a move (start typing to see the legal ones)")
    @app_commands.guild_only()
    @app_commands.describe(move="Your move, e.g. h3-e3 or f3xd5", match="The match "
                           "(not needed inside its thread)")
    async def move(interaction: Interaction, move: str, match: int | None = None) -> None:
        await h.move(interaction, move, match)

    move.autocomplete("move")(move_autocomplete)
    move.autocomplete("match")(match_autocomplete)

    @tree.command(name="board", description="Show a match's board")
    @app_commands.guild_only()
    @app_commands.autocomplete(match=match_autocomplete)
    async def board(interaction: Interaction, match: int | None = None) -> None:
        await h.board(interaction, match)

    @tree.command(name="games", description="Your matches here, the ones waiting on you first")
    @app_commands.guild_only()
    async def games_cmd(interaction: Interaction) -> None:
        await h.games(interaction)

    @tree.command(name="resign", description="Resign a match")
    @app_commands.guild_only()
    @app_commands.autocomplete(match=match_autocomplete)
    async def resign(interaction: Interaction, match: int | None = None) -> None:
        await h.resign(interaction, match)

    @tree.command(name="draw", description="Offer, accept or decline a draw")
    @app_commands.guild_only()
    @app_commands.autocomplete(match=match_autocomplete)
    async def draw(interaction: Interaction, action: Literal["offer", "accept", "decline"],
                   match: int | None = None) -> None:
        await h.draw(interaction, action, match)

    @tree.command(name="setup", description="Querni 'choose' setup: your 16 numbers in "
                                            "start-cell order")
    @app_commands.guild_only()
    @app_commands.describe(arrangement="16 numbers, e.g. 5 1 9 … 12 (cell order a1 b1 c1 "
                                       "h1 i1 j1 a2 c2 …; see /rules querni)")
    @app_commands.autocomplete(match=match_autocomplete)
    async def setup(interaction: Interaction, arrangement: str,
                    match: int | None = None) -> None:
        await h.setup(interaction, arrangement, match)

    @tree.command(name="leaderboard", description="The server's ladder for a game")
    @app_commands.guild_only()
    @app_commands.autocomplete(game=ladder_autocomplete)
    async def leaderboard(interaction: Interaction, game: str) -> None:
        await h.leaderboard(interaction, game)

    @tree.command(name="stats", description="Ratings and results of a player here")
    @app_commands.guild_only()
    async def stats(interaction: Interaction, user: discord.Member | None = None) -> None:
        await h.stats(interaction, user)

    @tree.command(name="history", description="A match's moves, export file and replay")
    @app_commands.guild_only()
    @app_commands.autocomplete(match=match_autocomplete)
    async def history(interaction: Interaction, match: int | None = None) -> None:
        await h.history(interaction, match)

    @tree.command(name="rules", description="How a game is played")
    async def rules_cmd(interaction: Interaction, game: str) -> None:
        await h.rules(interaction, game)

    rules_cmd.autocomplete("game")(ladder_autocomplete)

    @tree.command(name="settings", description="Server settings for Tablero (Manage Server)")
    @app_commands.guild_only()
    @app_commands.default_permissions(manage_guild=True)
    @app_commands.checks.has_permissions(manage_guild=True)
    @app_commands.describe(days="Default days per move (1-14)",
                           threads="Open a thread per match",
                           channel="Post new challenges in this channel",
                           reminders="Remind players before their time runs out",
                           clear_channel="Post challenges where /challenge is used again "
                                         "(forget the games channel)")
    async def settings(interaction: Interaction,
                       days: app_commands.Range[int, 1, 14] | None = None,
                       threads: bool | None = None,
                       channel: discord.TextChannel | None = None,
                       reminders: bool | None = None,
                       clear_channel: bool = False) -> None:
        await h.settings(interaction, days, threads, channel, reminders, clear_channel)

    @tree.command(name="notify", description="How you are told it's your move")
    @app_commands.describe(mode="A mention in the match thread, or a direct message")
    async def notify(interaction: Interaction, mode: Literal["mention", "dm"]) -> None:
        await h.notify(interaction, mode)
