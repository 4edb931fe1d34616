"""The bot's memory measured on the bot alone: `python -m bot` as its own process, logged into
the stand-in Discord (bench/standin) on 127.0.0.1, with many games in its database.

For each number of active games (all five games mixed, each in its own channel, with
`--finished` finished games in the same store): the database is written directly in the bot's
schema (bench/standin/population.py), the bot is started on it, and its resident memory (VmRSS
of its process, nothing of the stand-in's) is read when its imports are done (its first request),
when its commands are synced, when it is ready (its "Logged in as" line), a few seconds later,
and after one move (`/move`) in each of `--moves` games. Also printed: the time from start to
ready and to the last owed board posted (the first `--owed` games owe their board, as after a
crash), the requests the bot made before it was ready, the database's size, and the same guilds
with an empty store (what Discord's caches alone cost). `--cache-grid` then starts the bot on
empty stores with other numbers of guilds and channels and fits what discord.py's caches cost
per guild and per channel.

The guilds are as a big bot sees them (`--guilds` x `--channels` text channels, roles, emojis,
stickers, threads; members as Discord sends them without privileged intents) and stay the same
for every size, so the differences between sizes are the games'. Discord's rate limits apply
(bench/standin/ratelimits.py). Nothing is asserted: the figures are printed.

    python bench/memory_process.py [--games 1000,10000,100000] [--finished 100000] [--moves 1000]
        [--owed 100] [--guilds 2500] [--channels 40] [--cache-grid 100x10,1000x10,1000x40]
"""
from __future__ import annotations

import argparse
import asyncio
import gc
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.standin import BotProcess, GuildShape, StandIn, StandInConfig
from bench.standin.population import database_size, migrate, populate, templates
from bench.standin.process import RssSampler
from bench.standin.ratelimits import RateLimiter, describe_limits
from bench.standin.recorder import Recorder

SETTLE = 3.0  # seconds between a phase's end and reading RSS
OWED_TIMEOUT = 300.0  # seconds the owed boards may take after the start


def mib(value: float) -> str:
    return f"{value:7.1f} MiB"


async def start_world(guilds: int, channels: int, latency: float) -> StandIn:
    config = StandInConfig(guilds=guilds, shape=GuildShape(channels=channels), latency=latency, keep_messages=3)
    return await StandIn(config).start()


def game_channels(standin: StandIn) -> list[tuple[int, int]]:
    """Every text channel, the first channel of each guild first: games spread over the guilds."""
    specs = list(standin.world.guilds.values())
    deepest = max(len(spec.channel_ids) for spec in specs)
    return [(spec.id, spec.channel_ids[position]) for position in range(deepest) for spec in specs
            if position < len(spec.channel_ids)]


async def run_bot(standin: StandIn, database: Path, log_path: Path | None, *,
                  ready_timeout: float) -> tuple[BotProcess, RssSampler, dict]:
    bot = BotProcess(api_url=standin.api_url, token=standin.world.token, database_path=database, log_path=log_path)
    await bot.start()
    sampler = RssSampler(bot.pid)
    seen = {"started": bot.started_at}
    ready_seconds = await bot.wait_ready(ready_timeout)
    requests = standin.recorder.requests
    first = next((r.at for r in requests if r.at >= bot.started_at), None)
    seen.update(first_request=first, synced=standin.rest.commands_synced_at, ready=bot.ready_at,
                ready_seconds=ready_seconds)
    return bot, sampler, seen


async def measure(args, active: int, finished: int, active_templates, finished_templates, label: str) -> dict:
    """One bot start on a store with `active` and `finished` games: the figures."""
    figures: dict = {"label": label, "active": active, "finished": finished}
    with tempfile.TemporaryDirectory(prefix="memory-process-", dir=args.tmp) as folder:
        database = Path(folder) / "bot.sqlite3"
        standin = await start_world(args.guilds, args.channels, args.latency)
        try:
            channels = game_channels(standin)
            pool = [standin.world.ids.next() for _ in range(max(30, active * 3 // 4, finished // 50))]
            standin.world.add_users(pool)
            await migrate(database)
            ids = iter(standin.world.ids.next, None)
            population = await asyncio.to_thread(
                populate, database, active=active, finished=finished, channels=channels, users=pool,
                message_ids=ids, owed=min(args.owed, active), active_templates=active_templates,
                finished_templates=finished_templates)
            figures["built_seconds"] = population.seconds
            figures["database_mib"] = database_size(database) / 2**20
            figures["actions"] = population.actions
            moved = population.active[::max(1, active // args.moves)][:args.moves] if args.moves and active else []
            owed = [game for game in population.active if game.owed]
            for game in {game.id: game for game in [*moved, *owed]}.values():  # boards the bot edits exist
                standin.world.seed_message(game.channel_id, game.board_message_id, content="…")
            gc.collect()
            log_path = Path(args.logs) / f"bot-{label}.log" if args.logs else None
            bot, sampler, seen = await run_bot(standin, database, log_path, ready_timeout=args.ready_timeout)
            try:
                owed_channels = {game.channel_id for game in owed}

                def owed_boards() -> list[float]:
                    return [b.at for b in standin.recorder.boards if b.channel_id in owed_channels]

                posted_by_ready = len(owed_boards())
                deadline = time.monotonic() + OWED_TIMEOUT  # the owed boards go on after ready
                while len({b.channel_id for b in standin.recorder.boards if b.channel_id in owed_channels}) \
                        < len(owed_channels) and time.monotonic() < deadline:
                    await asyncio.sleep(0.2)
                owed_boards = owed_boards()
                figures["owed_by_ready"] = posted_by_ready
                figures.update(
                    rss_first_request=sampler.at(seen["first_request"] or seen["started"]),
                    rss_synced=sampler.at(seen["synced"] or seen["ready"]), rss_ready=sampler.at(seen["ready"]),
                    ready_seconds=seen["ready_seconds"], owed=len(owed), owed_posted=len(owed_boards),
                    identify_seconds=standin.gateway.ready_sent_at - bot.started_at,
                    guilds_seconds=standin.gateway.guilds_sent_at - standin.gateway.ready_sent_at,
                    last_owed_seconds=(max(owed_boards) - bot.started_at) if owed_boards else None,
                    startup_requests=Recorder.by_route(r for r in standin.recorder.requests
                                                       if r.at <= seen["ready"]))
                await asyncio.sleep(SETTLE)
                figures["rss_settled"] = bot.rss_mib()
                if moved:
                    figures.update(await make_moves(standin, moved, args.concurrency, args.move_timeout))
                    await asyncio.sleep(SETTLE)
                    figures["rss_after_moves"] = bot.rss_mib()
                figures["rss_peak"] = bot.peak_rss_mib()
                figures["heartbeat_gap"] = standin.gateway.longest_heartbeat_gap
                figures["errors"] = bot.errors()[:5]
            finally:
                sampler.stop()
                stop_started = time.monotonic()
                figures["returncode"] = await bot.stop()
                figures["stop_seconds"] = time.monotonic() - stop_started
        finally:
            await standin.stop()
    return figures


async def make_moves(standin: StandIn, games, concurrency: int, timeout: float) -> dict:
    """One `/move` (a legal move of a waiting seat) in each game, `concurrency` at a time."""
    gate = asyncio.Semaphore(concurrency)
    done = {"ok": 0, "refused": 0, "unanswered": 0}
    acks: list[float] = []
    started = time.monotonic()

    async def move(game) -> None:
        seat, action = game.template.move
        async with gate:
            data = standin.command_data(game.channel_id, "move", {"action": action})
            record = await standin.send_interaction(game.user_ids[seat], game.channel_id, 2, data, name="move",
                                                    watch_channel=game.channel_id)
            deadline = time.monotonic() + timeout
            while not any(record.texts()) and time.monotonic() < deadline:
                record.changed.clear()
                try:
                    await asyncio.wait_for(record.changed.wait(), 1.0)
                except TimeoutError:
                    pass
            if record.ack_seconds is not None:
                acks.append(record.ack_seconds)
            texts = [text for text in record.texts() if text]
            key = "ok" if any(t.startswith("✅") for t in texts) else "refused" if texts else "unanswered"
            done[key] += 1

    await asyncio.gather(*(move(game) for game in games))
    return {"moves": len(games), "moves_ok": done["ok"], "moves_refused": done["refused"],
            "moves_unanswered": done["unanswered"], "moves_seconds": time.monotonic() - started,
            "moves_ack_p99": sorted(acks)[int(0.99 * (len(acks) - 1))] if acks else float("nan"),
            "moves_late": sum(a > 3.0 for a in acks)}


def report(figures: dict) -> None:
    f = figures
    print(f"\n== {f['label']}: {f['active']:,} active and {f['finished']:,} finished games "
          f"(database {f['database_mib']:.1f} MiB, {f['actions']:,} moves logged; "
          f"written in {f['built_seconds']:.0f} s)")
    print(f"  RSS at its first request (imports done) {mib(f['rss_first_request'])}")
    print(f"  RSS when its commands were synced       {mib(f['rss_synced'])}")
    print(f"  RSS when ready                          {mib(f['rss_ready'])}   "
          f"ready {f['ready_seconds']:.1f} s after start")
    print(f"  gateway: IDENTIFY {f['identify_seconds']:.1f} s after start, every GUILD_CREATE sent "
          f"{f['guilds_seconds']:.1f} s later (discord.py calls itself ready 2 s after the last)")
    print(f"  RSS {SETTLE:.0f} s later                           {mib(f['rss_settled'])}")
    if "rss_after_moves" in f:
        print(f"  RSS after a move in {f['moves']:,} games          {mib(f['rss_after_moves'])}   "
              f"({f['moves_ok']} stored, {f['moves_refused']} refused, {f['moves_unanswered']} unanswered, "
              f"in {f['moves_seconds']:.0f} s; answered within 3 s: {f['moves'] - f['moves_late']}/{f['moves']}, "
              f"p99 {f['moves_ack_p99']:.2f} s)")
    print(f"  RSS at its peak                         {mib(f['rss_peak'])}")
    if f["owed"]:
        last = f["last_owed_seconds"]
        print(f"  owed boards: {f['owed_posted']}/{f['owed']} posted ({f['owed_by_ready']} by ready), "
              f"the last {last:.1f} s after start"
              if last is not None else f"  owed boards: none of {f['owed']} posted")
    routes = ", ".join(f"{route} x{count}" for route, count in f["startup_requests"].most_common())
    print(f"  requests before ready: {routes}")
    if f["heartbeat_gap"] is not None:
        print(f"  longest gap between two heartbeats: {f['heartbeat_gap']:.1f} s (interval 41.25 s; "
              "much longer and Discord would drop the connection)")
    print(f"  stopped in {f['stop_seconds']:.1f} s (exit code {f['returncode']})")
    for line in f["errors"]:
        print(f"  bot error: {line[:200]}")


def fit_cache_costs(points: list[tuple[int, int, float]]) -> tuple[float, float, float] | None:
    """RSS = base + per_guild * guilds + per_channel * channels, least squares; None if the
    points cannot tell guilds from channels apart."""
    rows = [(1.0, float(g), float(c)) for g, c, _ in points]
    values = [rss for _, _, rss in points]
    normal = [[sum(r[i] * r[j] for r in rows) for j in range(3)] for i in range(3)]
    right = [sum(r[i] * v for r, v in zip(rows, values)) for i in range(3)]
    for column in range(3):  # Gaussian elimination with partial pivoting
        pivot = max(range(column, 3), key=lambda row: abs(normal[row][column]))
        if abs(normal[pivot][column]) < 1e-9:
            return None
        normal[column], normal[pivot] = normal[pivot], normal[column]
        right[column], right[pivot] = right[pivot], right[column]
        for row in range(3):
            if row != column:
                factor = normal[row][column] / normal[column][column]
                normal[row] = [a - factor * b for a, b in zip(normal[row], normal[column])]
                right[row] -= factor * right[column]
    base, per_guild, per_channel = (right[i] / normal[i][i] for i in range(3))
    return base, per_guild, per_channel


async def cache_grid(args) -> None:
    points = []
    print("\n== discord.py's caches: the bot on an empty store, guilds x text channels each")
    for cell in args.cache_grid.split(","):
        guilds, channels = (int(part) for part in cell.lower().split("x"))
        standin = await start_world(guilds, channels, args.latency)
        try:
            with tempfile.TemporaryDirectory(prefix="memory-cache-", dir=args.tmp) as folder:
                database = Path(folder) / "bot.sqlite3"
                await migrate(database)
                bot, sampler, seen = await run_bot(standin, database, None, ready_timeout=args.ready_timeout)
                try:
                    await asyncio.sleep(SETTLE)
                    rss = bot.rss_mib()
                finally:
                    sampler.stop()
                    await bot.stop()
        finally:
            await standin.stop()
        total = guilds * (channels + GuildShape().categories)
        points.append((guilds, total, rss))
        print(f"  {guilds:6,} guilds x {channels:3} channels ({total:8,} channels with categories): "
              f"RSS {mib(rss)}, ready in {seen['ready_seconds']:.1f} s")
    fitted = fit_cache_costs(points)
    if fitted is None:
        print("  (the grid needs sizes that vary guilds and channels apart to fit per-guild and per-channel costs)")
        return
    base, per_guild, per_channel = fitted
    shape = GuildShape()
    print(f"  fitted: {base:.1f} MiB with no guild, {per_guild * 1024:.1f} KiB per guild (with {shape.roles} roles, "
          f"{shape.emojis} emojis, {shape.stickers} stickers, {shape.threads} threads), "
          f"{per_channel * 1024:.2f} KiB per channel")


async def main_async(args) -> None:
    sizes = [int(part) for part in args.games.split(",") if part.strip()]
    print(f"The bot as its own process on the stand-in Discord: {args.guilds:,} guilds x {args.channels} text "
          f"channels; {args.finished:,} finished games in every store; {args.owed} owed boards; "
          f"REST latency {args.latency * 1000:.0f} ms.")
    print("Rate limits: " + "; ".join(describe_limits(RateLimiter())[:3]) + "; ...")
    started = time.monotonic()
    active_templates, finished_templates = templates(seed=args.seed)
    print(f"(template games played in {time.monotonic() - started:.1f} s)")
    capacity = args.guilds * args.channels
    for size in sizes:
        if size > capacity:
            print(f"\n== {size:,} active games need {size:,} channels; the guilds hold {capacity:,}: skipped")
            continue
        report(await measure(args, size, args.finished, active_templates, finished_templates, f"{size}-active"))
    if not args.no_baseline:
        report(await measure(args, 0, 0, active_templates, finished_templates, "no-games"))
    if args.cache_grid:
        await cache_grid(args)
    print(f"\n(all in {time.monotonic() - started:.0f} s)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", default="1000,10000,100000", help="active games, a comma-separated list of sizes")
    parser.add_argument("--finished", type=int, default=100_000)
    parser.add_argument("--moves", type=int, default=1000, help="games that get one move after start-up")
    parser.add_argument("--owed", type=int, default=100, help="active games whose board is owed at start-up")
    parser.add_argument("--guilds", type=int, default=2500)
    parser.add_argument("--channels", type=int, default=40, help="text channels per guild")
    parser.add_argument("--cache-grid", default="100x10,1000x10,1000x40",
                        help="GUILDSxCHANNELS,... runs on an empty store (empty: none)")
    parser.add_argument("--no-baseline", action="store_true", help="skip the run with no games")
    parser.add_argument("--latency", type=float, default=0.05, help="seconds added to each REST answer")
    parser.add_argument("--concurrency", type=int, default=20, help="moves under way at once")
    parser.add_argument("--move-timeout", type=float, default=300.0)
    parser.add_argument("--ready-timeout", type=float, default=1800.0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--tmp", default=None, help="where the databases are written (default: the system's)")
    parser.add_argument("--logs", default=None, help="a folder for the bot's logs")
    asyncio.run(main_async(parser.parse_args()))


if __name__ == "__main__":
    main()
