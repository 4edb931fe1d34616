"""Discord's limits at load: many games on many channels moving at once through the stand-in
Discord (bench/standin), with Discord's rate limits (50 requests/s in all, per-route buckets),
played by the real bot process (`python -m bot`).

`--tables` tables are opened (`/game new`, Join, Start), spread over `--guilds` guilds, then
clicked at rising rates: at each rate, for `--seconds` seconds, a click goes every 1/rate
seconds to a table that is not waiting for its previous click (a button or select of its newest
board, a player's DM or 'My hand' reply, chosen at random; the bot refuses bad ones); a game
that ends is opened again in its channel. Per rate it prints the moves made, the requests per
move (all, and those the global limit counts: interaction callbacks and webhooks are exempt),
the 429s, the share of interactions answered within Discord's 3 s, click-to-board p50/p99 (from
the click to the board posted or redrawn in the channel), the CPU of the bot's process and of
this one (the stand-in and its players, on the same machine), and whether every
channel's boards came in order. Then an estimate of the moves per hour one process serves
before Discord's limits bind, against what its CPU allows. Nothing is asserted.

With `--phases` the bot runs under bench.phases, and the bot's CPU per move is also shown by
phase (the store, the engine, drawing, encoding, building and sending messages, discord.py's
handling of the clicks and the gateway, ...) per rate and over all. With `--without-pictures`
every picture is a one-pixel PNG (bench.without_pictures): the CPU a move costs besides its
images, the floor no drawing saving goes under.

    python bench/discord_load.py [--tables 200] [--rates 1,2,4,8,16] [--seconds 60] [--game all]
        [--guilds 20] [--latency 0.05] [--route-limit "POST /users/@me/channels=5/1" ...] [--phases]
        [--without-pictures]
"""
from __future__ import annotations

import argparse
import asyncio
import json
import math
import random
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.phases import PHASES, difference, heaviest_lines, read_totals, table, where_path
from bench.standin import BotProcess, GuildShape, StandIn, StandInConfig
from bench.standin.process import cpu_seconds
from bench.standin.ratelimits import RateLimiter, describe_limits, exempt_from_global, parse_route_limit
from bench.standin.recorder import ACK_DEADLINE, percentile
from bench.standin.tables import Table, Tables
from games import REGISTRY


@dataclass
class Run:
    """A channel's table as the driver sees it."""

    table: Table
    busy: bool = False
    dead: str = ""
    games_finished: int = 0


def games_to_play(choice: str) -> list[str]:
    return sorted(REGISTRY) if choice == "all" else [name.strip() for name in choice.split(",")]


async def open_tables(tables: Tables, standin: StandIn, count: int, games: list[str], players: int,
                      concurrency: int) -> list[Run]:
    specs = list(standin.world.guilds.values())
    places = [(spec, position) for position in range(max(len(s.channel_ids) for s in specs)) for spec in specs
              if position < len(spec.channel_ids)][:count]
    gate = asyncio.Semaphore(concurrency)
    runs: list[Run] = []

    async def one(number: int) -> None:
        spec, position = places[number]
        game = games[number % len(games)]
        seated = [standin.player(f"t{number}p{seat}") for seat in range(max(players, REGISTRY[game].min_players))]
        async with gate:
            table = await tables.open(spec.channel_ids[position], game, seated)
        runs.append(Run(table))

    await asyncio.gather(*(one(number) for number in range(len(places))))
    return runs


async def reopen(tables: Tables, run: Run) -> None:
    old = run.table
    run.games_finished += 1
    try:
        run.table = await tables.open(old.channel_id, old.game, old.players)
    except Exception as error:  # noqa: BLE001 - a table that cannot reopen leaves the pool
        run.dead = f"could not reopen: {error}"


async def drive(tables: Tables, runs: list[Run], rate: float, seconds: float, rng: random.Random,
                drain: float = 90.0) -> dict:
    """Clicks at `rate` per second for `seconds` seconds; what was offered and missed."""
    started = time.monotonic()
    end = started + seconds
    tick, missed, clicks = 0, 0, 0
    tasks: set[asyncio.Task] = set()

    async def click(run: Run) -> None:
        try:
            await tables.step(run.table)
            if run.table.finished:
                await reopen(tables, run)
            elif run.table.stuck:
                run.dead = run.table.stuck
        except Exception as error:  # noqa: BLE001 - the bench goes on without that table
            run.dead = f"{error.__class__.__name__}: {error}"
        finally:
            run.busy = False

    while (now := time.monotonic()) < end:
        due = started + tick / rate
        if due > now:
            await asyncio.sleep(due - now)
        tick += 1
        idle = [run for run in runs if not run.busy and not run.dead]
        if not idle:
            missed += 1
            continue
        run = rng.choice(idle)
        run.busy = True
        clicks += 1
        task = asyncio.create_task(click(run))
        tasks.add(task)
        task.add_done_callback(tasks.discard)
    if tasks:
        await asyncio.wait(set(tasks), timeout=drain)
    return {"started": started, "end": end, "drained": time.monotonic(), "clicks": clicks, "missed": missed}


def window_figures(standin: StandIn, window: dict, cpu: float, own_cpu: float) -> dict:
    recorder = standin.recorder
    start, end, drained = window["started"], window["end"], window["drained"]
    interactions = recorder.interactions_between(start, end)
    moved = [r for r in interactions if r.outcome == "moved"]
    requests = recorder.requests_between(start, drained)
    bound = [r for r in requests if not exempt_from_global(r.route)]
    acks = [r.ack_seconds for r in interactions if r.ack_seconds is not None]
    in_time = sum(1 for r in interactions if r.ack_seconds is not None and r.ack_seconds <= ACK_DEADLINE)
    boards = [r.board_seconds for r in moved if r.board_seconds is not None]
    seconds = end - start
    return {
        "seconds": seconds, "clicks": window["clicks"], "missed": window["missed"],
        "interactions": len(interactions), "moves": len(moved), "moves_per_s": len(moved) / seconds,
        "requests": len(requests), "bound": len(bound),
        "per_move": len(requests) / len(moved) if moved else float("nan"),
        "bound_per_move": len(bound) / len(moved) if moved else float("nan"),
        "bound_per_s": len(bound) / (drained - start),
        "429": {scope: sum(1 for r in requests if r.status == 429 and r.scope == scope)
                for scope in ("global", "user", "shared")},
        "in_time": in_time / len(interactions) if interactions else float("nan"),
        "ack_p99": percentile(acks, 0.99), "board_p50": percentile(boards, 0.5),
        "board_p99": percentile(boards, 0.99), "no_board": len(moved) - len(boards),
        "cpu_share": cpu / (drained - start), "cpu_per_move": cpu / len(moved) if moved else float("nan"),
        "own_cpu_share": own_cpu / (drained - start),
        "routes": standin.recorder.by_route(r for r in requests),
    }


def print_row(rate: float, f: dict) -> None:
    hits = f["429"]
    print(f"{rate:6.1f} {f['moves_per_s']:7.2f} {f['moves']:6d} {f['per_move']:8.2f} {f['bound_per_move']:8.2f} "
          f"{f['bound_per_s']:7.1f} {hits['global']:5d}/{hits['user']}/{hits['shared']:<3d} "
          f"{f['in_time'] * 100:7.1f}% {f['ack_p99']:6.2f} {f['board_p50']:7.2f} {f['board_p99']:7.2f} "
          f"{f['cpu_share'] * 100:5.0f}% {f['own_cpu_share'] * 100:5.0f}% {f['missed']:6d}")


async def main_async(args) -> None:
    limiter = RateLimiter()
    for text in args.route_limit:
        key, limit = parse_route_limit(text)
        limiter.limits[key] = limit
    games = games_to_play(args.game)
    per_guild = math.ceil(args.tables / args.guilds) + 2
    config = StandInConfig(guilds=args.guilds, shape=GuildShape(channels=per_guild), latency=args.latency,
                           keep_messages=20)
    rates = [float(part) for part in args.rates.split(",")]
    print(f"The bot as its own process on the stand-in Discord: {args.tables} tables of {', '.join(games)} "
          f"({args.players} players) on {args.guilds} guilds; REST latency {args.latency * 1000:.0f} ms; "
          f"{args.seconds:.0f} s per rate.")
    print("Rate limits (the stand-in's; Discord's per-route numbers are not published):")
    for line in describe_limits(limiter):
        print(f"  {line}")
    started = time.monotonic()
    rng = random.Random(args.seed)
    with tempfile.TemporaryDirectory(prefix="discord-load-", dir=args.tmp) as folder:
        database = Path(folder) / "bot.sqlite3"
        phases_out = str(Path(folder) / "phases.json")
        async with StandIn(config, limiter=limiter) as standin:
            bot = BotProcess(api_url=standin.api_url, token=standin.world.token, database_path=database,
                             log_path=Path(args.logs) / "bot-discord-load.log" if args.logs else None,
                             module=bot_module(args),
                             extra_env={"PHASES_OUT": phases_out} if args.phases else None)
            await bot.start()
            tables = Tables(standin, database, seed=args.seed)
            try:
                print(f"bot ready in {await bot.wait_ready(300):.1f} s")
                opened = time.monotonic()
                runs = await open_tables(tables, standin, args.tables, games, args.players, args.open_concurrency)
                print(f"{len(runs)} tables opened in {time.monotonic() - opened:.0f} s")
                print("\n  rate  moves/s  moves  req/move  global/move  global/s  429 g/u/s  in 3 s  "
                      "ack p99  board p50  p99    CPU  bench  missed")
                results = []
                where_before = read_totals(where_path(phases_out))
                for rate in rates:
                    cpu_before, own_before = cpu_seconds(bot.pid), time.process_time()
                    phases_before = read_totals(phases_out)
                    kept_before = read_kept(phases_out)
                    window = await drive(tables, runs, rate, args.seconds, rng)
                    await asyncio.sleep(0.5 if args.phases else 0)  # the sampler's next totals
                    phases = difference(read_totals(phases_out), phases_before) if args.phases else {}
                    # The sampler's own CPU is not the bot's.
                    figures = window_figures(standin, window, cpu_seconds(bot.pid) - cpu_before
                                             - phases.get("sampler", 0.0), time.process_time() - own_before)
                    figures["phases"] = phases
                    figures["by_game"] = moves_by_game(standin, window, runs)
                    figures["kept"] = (kept_before, read_kept(phases_out))
                    results.append((rate, figures))
                    print_row(rate, figures)
                    standin.recorder.forget(window["started"] - 1)
                summarize(results, runs, standin, bot)
                if args.phases and args.heaviest:
                    await asyncio.sleep(0.5)  # the sampler's next dump
                    moves = sum(f["moves"] for _, f in results)
                    where = difference(read_totals(where_path(phases_out)), where_before)
                    print("\nthe functions that decided the most of the bot's CPU, ms per move over all rates:")
                    print("\n".join(heaviest_lines(where, moves, args.heaviest)))
            finally:
                tables.close()
                await bot.stop()
    print(f"\n(all in {time.monotonic() - started:.0f} s)")


def moves_by_game(standin: StandIn, window: dict, runs: list[Run]) -> Counter:
    """The moves made in the window, by game (a move's click names its table's channel)."""
    game_of = {run.table.channel_id: run.table.game for run in runs}
    return Counter(game_of.get(r.watch_channel or 0, "?") for r in
                   standin.recorder.interactions_between(window["started"], window["end"]) if r.outcome == "moved")


def summarize(results: list[tuple[float, dict]], runs: list[Run], standin: StandIn, bot: BotProcess) -> None:
    measured = [(rate, f) for rate, f in results if f["moves"]]
    if not measured:
        print("\nno moves were made")
        return
    moves = sum(f["moves"] for _, f in measured)
    bound = sum(f["bound"] for _, f in measured)
    cpu = sum(f["cpu_per_move"] * f["moves"] for _, f in measured)
    bound_per_move = bound / moves
    cpu_per_move = cpu / moves
    discord_ceiling = limiter_global(standin) / bound_per_move * 3600
    cpu_ceiling = 3600 / cpu_per_move
    good = [rate for rate, f in measured if f["in_time"] >= 0.99 and f["board_p99"] <= ACK_DEADLINE]
    all_per_move = sum(f["requests"] for _, f in measured) / moves
    print(f"\nper move: {bound_per_move:.2f} requests the global limit counts, {all_per_move:.2f} in all; "
          f"{cpu_per_move * 1000:.1f} ms of the bot's CPU")
    if any(f["phases"] for _, f in measured):
        overall = {phase: sum(f["phases"].get(phase, 0.0) for _, f in measured) for phase in PHASES}
        print("the bot's CPU per move by phase (bench.phases; the sampler's own CPU left out):")
        print(table([*((f"{rate:g}/s", f["phases"], f["moves"]) for rate, f in measured), ("all", overall, moves)]))
    top_routes = sum((f["routes"] for _, f in measured), start=type(measured[0][1]["routes"])())
    print("requests by route over all rates: " + ", ".join(f"{route} {count / moves:.2f}/move"
                                                           for route, count in top_routes.most_common(8)))
    print(f"Discord's global limit ({limiter_global(standin):.0f}/s) allows {discord_ceiling:,.0f} moves/h; "
          f"the bot's CPU (one core, all of it) {cpu_ceiling:,.0f} moves/h: "
          f"{'Discord binds first' if discord_ceiling < cpu_ceiling else 'the CPU binds first'}.")
    print(f"highest rate with >= 99 % answered in 3 s and board p99 <= 3 s: "
          f"{max(good):g} clicks/s" if good else "no rate kept 99 % within 3 s and board p99 <= 3 s")
    kept = [f["kept"] for _, f in measured if f["kept"][1]]
    if kept:
        print_kept(kept[0][0], kept[-1][1])
    in_order, wrong = standin.recorder.boards_in_order()
    print(f"boards in order in every channel: {'yes' if in_order else 'NO: ' + '; '.join(wrong[:3])}")
    dead = [run.dead for run in runs if run.dead]
    finished = sum(run.games_finished for run in runs)
    by_game = sum((f["by_game"] for _, f in measured), start=Counter())
    print("moves by game: " + ", ".join(f"{game} {count}" for game, count in sorted(by_game.items())))
    print(f"games finished and reopened: {finished}; tables given up: {len(dead)}"
          + (f" ({dead[0][:120]})" if dead else ""))
    gap = standin.gateway.longest_heartbeat_gap
    interval = standin.gateway.heartbeat_interval_ms / 1000
    if gap is not None:
        print(f"longest gap between two heartbeats: {gap:.1f} s (interval {interval:g} s"
              + ("; Discord would have dropped the connection)" if gap > 1.5 * interval else ")"))
    errors = bot.errors()
    print(f"bot log errors: {len(errors)}" + (f" (first: {errors[0][:160]})" if errors else ""))


def read_kept(phases_out: str) -> dict[str, list[int]]:
    """The bot's drawing caches as it wrote them last (`renderers.common.kept_figures`): by name,
    entries, bytes used, budget, hits, misses (empty without --phases)."""
    try:
        rows = json.loads(Path(phases_out + ".kept").read_text())
    except (OSError, ValueError):
        return {}
    return {row[0]: row[1:] for row in rows}


def print_kept(before: dict[str, list[int]], after: dict[str, list[int]]) -> None:
    """Each drawing cache's hits over the measured windows, and what it held at the end."""
    print("the bot's drawing caches over the measured windows (hits, misses, hit rate; held at the end):")
    for name, (entries, used, budget, hits, misses) in sorted(after.items()):
        hits -= before.get(name, [0, 0, 0, 0, 0])[3]
        misses -= before.get(name, [0, 0, 0, 0, 0])[4]
        rate = f"{hits / (hits + misses) * 100:5.1f} %" if hits + misses else "    -  "
        print(f"  {name:34} {hits:8d} {misses:8d}  {rate}   {entries:6d} entries, "
              f"{used / 2**20:5.2f} of {budget / 2**20:5.2f} MiB")


def bot_module(args: argparse.Namespace) -> tuple[str, ...]:
    """How the bot process is started: `python -m bot`, under the sampler (`--phases`), with
    every picture a one-pixel PNG (`--without-pictures`), or both."""
    module: tuple[str, ...] = ("bot",)
    if args.without_pictures:
        module = ("bench.without_pictures", *module)
    return ("bench.phases", *module) if args.phases else module


def limiter_global(standin: StandIn) -> float:
    return standin.limiter.global_limit / standin.limiter.global_per


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--rates", default="1,2,4,8,16", help="clicks per second, a comma-separated list")
    parser.add_argument("--seconds", type=float, default=60.0, help="per rate")
    parser.add_argument("--game", default="all", help="'all' or comma-separated game names")
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--guilds", type=int, default=20)
    parser.add_argument("--latency", type=float, default=0.05, help="seconds added to each REST answer")
    parser.add_argument("--route-limit", action="append", default=[],
                        help='override a route\'s limit, e.g. "POST /users/@me/channels=10/1"')
    parser.add_argument("--open-concurrency", type=int, default=4)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--tmp", default=None)
    parser.add_argument("--logs", default=None, help="a folder for the bot's log")
    parser.add_argument("--phases", action="store_true",
                        help="run the bot under bench.phases and print where its CPU goes, by phase")
    parser.add_argument("--without-pictures", action="store_true",
                        help="every picture a one-pixel PNG (bench.without_pictures): what a move costs "
                        "besides drawing and encoding its images")
    parser.add_argument("--heaviest", type=int, default=30,
                        help="with --phases: list this many functions that decided the most CPU")
    asyncio.run(main_async(parser.parse_args()))


if __name__ == "__main__":
    main()
