"""The cogs: each receives the match service and its collaborators in ``__init__``;
``bot.discordapp.app.create_bot`` builds them and the bot adds them in ``setup_hook``."""

from bot.discordapp.cogs.challenges import ChallengesCog
from bot.discordapp.cogs.clocks import ClocksCog
from bot.discordapp.cogs.comforts import ComfortsCog
from bot.discordapp.cogs.deadlines import DeadlinesCog
from bot.discordapp.cogs.deliveries import DeliveriesCog
from bot.discordapp.cogs.info import InfoCog
from bot.discordapp.cogs.play import PlayCog
from bot.discordapp.cogs.puzzles import PuzzlesCog
from bot.discordapp.cogs.replays import ReplaysCog
from bot.discordapp.cogs.school import SchoolCog
from bot.discordapp.cogs.seasons import SeasonsCog
from bot.discordapp.cogs.settings import SettingsCog
from bot.discordapp.cogs.tournaments import TournamentsCog
from bot.discordapp.cogs.web import WebPagesCog

__all__ = ["ChallengesCog", "ClocksCog", "ComfortsCog", "DeadlinesCog", "DeliveriesCog",
           "InfoCog", "PlayCog", "PuzzlesCog", "ReplaysCog", "SchoolCog", "SeasonsCog",
           "SettingsCog", "TournamentsCog", "WebPagesCog"]
