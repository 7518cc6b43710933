"""The ``tablero`` command line."""

from __future__ import annotations

import argparse
import sys

import rules


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="tablero",
        description="Tablero: abstract board games on Discord, played over days.")
    sub = parser.add_subparsers(dest="command")
    sub.add_parser("games", help="list the games the rules core knows")
    sub.add_parser("run", help="start the bot (the console when no DISCORD_TOKEN is set)")
    sync = sub.add_parser("sync", help="register the slash commands with Discord now")
    sync.add_argument("--guild", type=int, default=None,
                      help="register them in this server only (instant; for testing)")
    invite = sub.add_parser("invite", help="print the URL that adds the bot to a server")
    invite.add_argument("--client-id", type=int, default=None,
                        help="the Application ID (default: read from DISCORD_TOKEN)")
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command == "games":
        for key, v in rules.VARIANTS.items():
            print(f"{key:18} {v.name}")
        return 0
    if args.command in ("run", "sync", "invite"):
        return discord_command(args)
    parser.print_help()
    print("\nThe local console (`tablero console`) and the Discord bot (`tablero run`) "
          "are being built; `tablero games` lists the games available so far.")
    return 0


def discord_command(args: argparse.Namespace) -> int:
    """``run`` / ``sync`` / ``invite``: the Discord side (imported only when used)."""
    import asyncio
    import logging

    from bot.discordapp import cli

    logging.basicConfig(level=logging.INFO,
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    token, database = cli.settings_values()
    if args.command == "invite":
        print(cli.invite(token, args.client_id))
        return 0
    if token is None:
        if args.command == "run":
            print("No DISCORD_TOKEN set: the Discord bot needs one (see README).")
            return 2
        print("tablero sync needs DISCORD_TOKEN (see README).")
        return 2
    if args.command == "sync":
        count = asyncio.run(cli.sync_now(token, database, args.guild))
        where = f"server {args.guild}" if args.guild else "all servers (global)"
        print(f"Registered {count} commands for {where}.")
        return 0
    return cli.run(token, database)


if __name__ == "__main__":
    sys.exit(main())
