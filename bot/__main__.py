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
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command == "games":
        for key, v in rules.VARIANTS.items():
            print(f"{key:18} {v.name}")
        return 0
    parser.print_help()
    print("\nThe local console (`tablero console`) and the Discord bot (`tablero run`) "
          "are being built; `tablero games` lists the games available so far.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
