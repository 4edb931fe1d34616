"""What the one scheduler costs while nothing is due, with 1,000 active games with deadlines.

Stores 1,000 two-player Knatsch games, each with a 24-hour deadline and the default 12-hour
reminder (so 2,000+ stored timers), computes their timers the way the bot does after a move
(`Days.after_change`), then runs the real scheduler loop on the real clock for a while and
prints: the process CPU time used while idle, the number of times the loop woke up, resident
memory, the cost of one "what is due next" query, and of one pass that finds nothing due.
Then it moves the clock by a day in one step and times the pass that handles the 1,000
reminders that fell due (DMs go nowhere: a stub bot), i.e. the start-up after a long outage.

    python bench/idle_scheduler.py [--games 1000] [--idle 10]
"""
from __future__ import annotations

import argparse
import asyncio
import random
import sys
import tempfile
import time
from pathlib import Path
from types import SimpleNamespace

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.resident import rss_mib
from bot.changes import Done, Start
from bot.days.reminders import Reminders
from bot.days.timers import DueTimers, Timers
from bot.scheduler import Scheduler, SystemClock
from bot.store import Storage
from games import REGISTRY


class OffsetClock(SystemClock):
    """The real clock, plus a jump forward (for the catch-up figure)."""

    def __init__(self) -> None:
        self.offset = 0.0

    def now(self) -> float:
        return time.time() + self.offset


class NoDiscord:
    """Enough of the bot for reminders to run without a network: DMs vanish."""

    def __init__(self, games) -> None:
        self.sent = 0
        self.moves = SimpleNamespace(engine=games.__getitem__)

    async def create_dm(self, user):
        bench = self

        class DM:
            async def send(self, text, view=None):  # a reminder carries its standing orders
                bench.sent += 1
        return DM()


async def main(games_count: int, idle: float) -> None:
    game = REGISTRY["knatsch"]
    with tempfile.TemporaryDirectory() as folder:
        storage = await Storage.open(Path(folder) / "bench.sqlite3")
        clock = OffsetClock()
        scheduler = Scheduler(clock)
        bot = NoDiscord({"knatsch": game})
        timers = Timers(storage, scheduler)
        due = DueTimers(timers, {"reminder": Reminders(bot, storage, bot.moves, None, timers.now).remind})
        scheduler.add_source(due.next_due, due.run_due)
        rng = random.Random(1)
        started = time.perf_counter()
        for number in range(games_count):
            table = await storage.games.create_lobby(guild_id=1, channel_id=1000 + number, game="knatsch",
                                                     host_id=10 + 2 * number, host_name=f"p{number}a", options={})
            await storage.games.add_player(table.id, 11 + 2 * number, f"p{number}b")
            await storage.days.set_table(table.id, deadline=24 * 3600, timeout="computer", reminder=12 * 3600)
            state = game.new_game(2, seed=rng.getrandbits(63), options={})
            await storage.games.start_game(table.id, seat_order=[10 + 2 * number, 11 + 2 * number], seed=1,
                                     state=game.to_dict(state))
            started_row = await storage.games.get_game(table.id)
            start = Start(table=started_row, game=game, state=state, seat_order=(10 + 2 * number, 11 + 2 * number),
                          seed=1, text="")
            done = Done(start, 0, None, frozenset(), game.to_act(state), None, await storage.days.seats(table.id))
            await storage.apply(await timers.prepare(done))
        setup = time.perf_counter() - started
        first_due = await storage.days.next_due()
        print(f"{games_count} active games with deadlines stored in {setup:.1f} s "
              f"({setup / games_count * 1000:.2f} ms per game's timers worked out incl. the game's own writes)")

        n = 200
        t0 = time.perf_counter()
        for _ in range(n):
            await scheduler.next_due()
        print(f"next due query (MIN over the timers index): {(time.perf_counter() - t0) / n * 1e6:.0f} µs")
        t0 = time.perf_counter()
        for _ in range(n):
            await scheduler.run_due()
        print(f"a pass that finds nothing due: {(time.perf_counter() - t0) / n * 1e6:.0f} µs")

        scheduler.start()
        await asyncio.sleep(0.5)  # its first pass
        cpu0, wake0 = time.process_time(), scheduler.wakeups
        await asyncio.sleep(idle)
        cpu = time.process_time() - cpu0
        print(f"idle for {idle:.0f} s: {cpu * 1000:.1f} ms CPU ({cpu / idle * 100:.3f} % of one core), "
              f"{scheduler.wakeups - wake0} wake-ups; next timer due in {(first_due - clock.now()) / 3600:.1f} h")
        print(f"resident memory: {rss_mib():.0f} MiB (Python, discord.py, the engines, 1,000 games' timers)")

        clock.offset = 13 * 3600  # as if the bot had been down for 13 hours: every reminder is overdue
        t0 = time.perf_counter()
        scheduler.poke()
        for _ in range(600):
            await asyncio.sleep(0.05)
            if bot.sent >= games_count:
                break
        took = time.perf_counter() - t0
        print(f"after 13 h down: {bot.sent} overdue reminders handled once each in {took:.1f} s")
        await scheduler.stop()
        await storage.close()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--idle", type=float, default=10.0)
    arguments = parser.parse_args()
    asyncio.run(main(arguments.games, arguments.idle))
