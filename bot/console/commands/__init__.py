"""The console's commands, grouped by feature as the Discord cogs are: each module holds
one feature's commands as ``async def cmd_NAME(console, args, line)``, and
:data:`COMMANDS` names them all (``/NAME``)."""

from __future__ import annotations

from bot.console.commands import (
    challenges,
    clocks,
    comforts,
    computer,
    info,
    play,
    puzzles,
    school,
    tournaments,
)
from bot.console.session import Command

COMMANDS: dict[str, Command] = {
    "help": info.cmd_help,
    "games-list": info.cmd_games_list,
    "challenge": challenges.cmd_challenge,
    "continue": challenges.cmd_continue,
    "accept": challenges.cmd_accept,
    "join": challenges.cmd_join,
    "decline": challenges.cmd_decline,
    "cancel": challenges.cmd_cancel,
    "move": play.cmd_move,
    "setup": play.cmd_setup,
    "moves": play.cmd_moves,
    "board": play.cmd_board,
    "games": play.cmd_games,
    "open": play.cmd_open,
    "resign": play.cmd_resign,
    "draw": play.cmd_draw,
    "leaderboard": info.cmd_leaderboard,
    "stats": info.cmd_stats,
    "season": info.cmd_season,
    "history": play.cmd_history,
    "rules": info.cmd_rules,
    "settings": info.cmd_settings,
    "notify": comforts.cmd_notify,
    "timezone": info.cmd_timezone,
    "sweep": clocks.cmd_sweep,
    "fill": computer.cmd_fill,
    "hint": computer.cmd_hint,
    "analysis": computer.cmd_analysis,
    "tournament": tournaments.cmd_tournament,
    "tournaments": tournaments.cmd_tournaments,
    "moretime": clocks.cmd_moretime,
    "claim": clocks.cmd_claim,
    "wait": clocks.cmd_wait,
    "next": play.cmd_next,
    "vacation": clocks.cmd_vacation,
    "pause": clocks.cmd_pause,
    "rematch": comforts.cmd_rematch,
    "takeback": comforts.cmd_takeback,
    "premove": comforts.cmd_premove,
    "note": comforts.cmd_note,
    "follow": comforts.cmd_follow,
    "unfollow": comforts.cmd_unfollow,
    "web": info.cmd_web,
    "explorer": school.cmd_explorer,
    "import": school.cmd_import,
    "puzzle": puzzles.cmd_puzzle,
}
"""Every console command by the name typed after ``/``."""
