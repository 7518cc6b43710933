"""Interaction → response latency of ``/move`` through SimCord, the real discord.py code
paths, the match service, SQLite on a temp file and board rendering.

Each sample is one ``/move`` slash command as a user sends it. Two figures per sample:

* response: from the interaction to the moment the bot's reply to the mover ("You played
  …") has been sent (the deferral, the match found, the move stored in SQLite, then the
  ephemeral confirmation; the board is drawn and posted after it);
* settled: until SimCord has settled every piece of bot work the move caused (the board
  rendered and posted with its embed and the mention of the next player, and the replay
  GIF drawn in the background when a move ends a match).
 Xiangqi games between two members, random legal moves (seeded);
a new match starts when one ends.

    /work/venv/bin/python bench/bench_discord.py [--moves 400] [--game xiangqi]
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import discord
import simcord

from bot.boards import load_renderer
from bot.discordapp import create_bot
from storage import open_repository
from tests.discordapp.conftest import DiscordClock, service_of


def percentile(samples: list[float], q: float) -> float:
    ordered = sorted(samples)
    index = min(len(ordered) - 1, max(0, round(q / 100 * (len(ordered) - 1))))
    return ordered[index]


async def bench(moves: int, game: str, warmup: int, seed: int) -> None:
    rng = random.Random(seed)
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "bench.db"
        repository = await open_repository(db)
        renderer = load_renderer()
        bot = create_bot(repository, DiscordClock(), renderer=renderer, database=db,
                         sweep_seconds=3600, rng=random.Random(seed), shard_count=1)
        async with simcord.run(bot) as env:
            service = service_of(bot)
            guild = env.create_guild("bench")
            channel = guild.create_text_channel("games")
            alice = guild.add_member(env.create_user("alice"))
            bob = guild.add_member(env.create_user("bob"))
            people = {alice.id: alice, bob.id: bob}
            samples: list[float] = []
            settled: list[float] = []
            matches = 0
            replied: list[float] = []
            original_send = discord.Webhook.send

            async def timed_send(self: discord.Webhook, content: object = None,
                                 **kwargs: object) -> object:
                sent = await original_send(self, content, **kwargs)  # type: ignore[call-overload]
                if isinstance(content, str) and content.startswith("You played"):
                    replied.append(time.perf_counter())
                return sent

            discord.Webhook.send = timed_send  # type: ignore[assignment,method-assign]

            async def new_match() -> tuple[int, object]:
                nonlocal matches
                await alice.slash(channel, "challenge", game=game, opponent=bob)
                await bob.click(channel.last_message, label="Accept")
                thread = channel.threads[-1]
                view = await service.match_in_thread(thread.id)
                matches += 1
                return view.id, thread

            match_id, thread = await new_match()
            total = warmup + moves
            while len(samples) < total:
                view = await service.get_match(match_id)
                if view.is_over:
                    match_id, thread = await new_match()
                    continue
                position, _ = await service.position(match_id)
                v = position.variant
                move = rng.choice(list(position.legal_moves()))
                text = v.format_move(position, move)
                actor = people[view.to_move[0]]
                replied.clear()
                started = time.perf_counter()
                result = await actor.slash(thread, "move", move=text)
                settled.append((time.perf_counter() - started) * 1000)
                samples.append((replied[-1] - started) * 1000)
                answer = result.followups[-1] if result.followups else result.response
                assert answer is not None and "You played" in answer.content, answer
            measured = samples[warmup:]
            whole = settled[warmup:]
        await repository.close()
    print(f"/move through SimCord + SQLite + rendering ({game}, renderer "
          f"{'on' if renderer else 'OFF'}): {len(measured)} moves in {matches} matches "
          f"after {warmup} warm-up moves")
    for label, data in (("response", measured), ("settled ", whole)):
        print(f"  {label}  p50 {statistics.median(data):6.1f} ms   p90 "
              f"{percentile(data, 90):6.1f} ms   p99 {percentile(data, 99):6.1f} ms   "
              f"mean {statistics.fmean(data):6.1f} ms   max {max(data):6.1f} ms")
    print("  targets (response): p50 <= 30 ms, p99 <= 100 ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--moves", type=int, default=400)
    parser.add_argument("--warmup", type=int, default=20)
    parser.add_argument("--game", default="xiangqi")
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    asyncio.run(bench(args.moves, args.game, args.warmup, args.seed))


if __name__ == "__main__":
    main()
