"""Per-move handling time through the offline harness, with rendering.

Plays games through the real bot code in simcord's simulated Discord, the way the bot tests do:
every game at two table sizes by default (Carcassonne one whole three-player game), or the game
and table sizes named. Two figures per move:

- handling: from the click or `/move` reaching the move pipeline (`bot.moves.Moves.play`) to the
  move stored and everything it owes Discord delivered (the board rendered and posted, the DMs
  sent: the delivery worker's pass). This is the per-move handling time; Discord's network is
  not in it.
- own work: the handling less the time simcord spends as Discord's servers within it (checking,
  storing and answering the bot's requests: on Discord that is network time, during which the
  bot's process is free). The bot's own drawing, storing and building of messages stay in it.
- whole turn: the simulated player's whole turn through the harness: reading the board or DMs,
  tapping dice toggles, the click itself, and simcord's own bookkeeping.

Prints median, 95th and 99th percentile and the slowest, and the time spent rendering; for a
game longer than 200 moves also the last 100 (the fullest boards); the Discord requests per
move (all of them, and how many read something back: GETs); the store's hand-overs to
aiosqlite's thread per move (each statement, fetch or batch the event loop hands to SQLite's
thread and waits for: some 20-25 us of CPU each way); and the bot's CPU per move by
phase (bench.phases: the store, the engine, drawing, encoding, building and sending messages,
discord.py's handling, ...), which a busy machine disturbs far less than the wall times; and
Python's garbage collections during the moves (`CollectorTimes`: how many of each generation,
their time per move and the longest pause; a collection has no Python frame of its own, so the
phases count its CPU wherever it fell).

With `--without-pictures` every picture is a one-pixel PNG (bench.without_pictures): the handling
and CPU a move costs besides drawing and encoding its images.
With `--no-phases` the sampler is left out (no figures by phase; nothing reads the threads' stacks).
With `--statements`, what the store costs in aiosqlite's thread per move, statement by statement
(bench.store_statements: BEGIN and COMMIT, the reads, the writes and the hand-overs themselves).

    python bench/bot_moves.py [GAME [PLAYERS ...]] [--moves 150] [--detail] [--slowest] [--no-phases]
        [--statements] [--without-pictures]
"""
from __future__ import annotations

import argparse
import asyncio
import gc
import random
import statistics
import sys
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.phases import PhaseSampler, bot_seconds, table
from bench.store_statements import StatementTimes
from bench.without_pictures import WithoutPictures
from games import REGISTRY
from renderers import render_png, render_pngs
from tests.bot.harness import seat_order, simulated_discord, take_turn, to_act


class TimedRenderer:
    """The production renderer, timed (renders run in worker threads); or, with `drawing`, another
    in its shape (`bench.without_pictures.WithoutPictures`: every picture a one-pixel PNG)."""

    def __init__(self, drawing: WithoutPictures | None = None) -> None:
        self.seconds: list[float] = []
        self._lock = threading.Lock()
        self._one = drawing or render_png
        self._many = drawing.many if drawing is not None else render_pngs

    def __call__(self, view, names, lang="en"):
        started = time.perf_counter()
        png = self._one(view, names, lang)
        with self._lock:
            self.seconds.append(time.perf_counter() - started)
        return png

    def many(self, views, names, lang="en"):
        """Several seats' DM images of one move, and its public board, drawn together (each
        counted as its share)."""
        started = time.perf_counter()
        pngs = self._many(views, names, lang)
        with self._lock:
            self.seconds.extend([(time.perf_counter() - started) / len(views)] * len(views))
        return pngs


DETAIL = False  # --detail: the frames that decided the most CPU
SLOWEST = False  # --slowest: what the costliest 1 % of moves held
PHASES = True  # --no-phases: without the sampler
PICTURES = True  # --without-pictures: every picture a one-pixel PNG
STATEMENTS = False  # --statements: the store's statements timed in aiosqlite's thread


class CollectorTimes:
    """Python's garbage collections while it is installed (`gc.callbacks`): per generation how
    many, their seconds of CPU, and the longest pause (a collection holds the whole process, so
    its wall time is a pause of every move under way). The full collections the bot makes itself when no
    move is in hand (`bot.collector`) are counted apart: they fall between moves."""

    def __init__(self) -> None:
        self.count = [0, 0, 0]
        self.seconds = [0.0, 0.0, 0.0]
        self.longest = 0.0
        self.paused = 0.0  # wall seconds of the collections (not the bot's own between moves)
        self.quiet = 0
        self.quiet_seconds = 0.0
        self._started = (0.0, 0.0)
        self._quiet = False

    def __enter__(self) -> CollectorTimes:
        gc.callbacks.append(self._callback)
        return self

    def __exit__(self, *exc) -> None:
        gc.callbacks.remove(self._callback)

    def _callback(self, phase: str, info: dict) -> None:
        if phase == "start":
            caller = sys._getframe(1).f_code
            self._quiet = caller.co_name == "_collect" and caller.co_filename.endswith("collector.py")
            self._started = (time.perf_counter(), time.thread_time())
            return
        took, cpu = time.perf_counter() - self._started[0], time.thread_time() - self._started[1]
        if self._quiet:
            self.quiet += 1
            self.quiet_seconds += cpu
            return
        generation = info["generation"]
        self.count[generation] += 1
        self.seconds[generation] += cpu
        self.paused += took
        self.longest = max(self.longest, took)


class HandOvers:
    """Counts the calls the store hands to aiosqlite's thread while counting (every aiosqlite
    call goes through `Connection._execute`: a statement, a fetch, a commit, one of the store's
    batches)."""

    def __init__(self) -> None:
        from aiosqlite.core import Connection

        self.count = 0
        self.counting = False
        self.callers: Counter[str] = Counter()  # with --detail: the bot's function outside the store that asked
        self._connection = Connection
        self._execute = Connection._execute
        counter = self

        async def counted(connection, fn, *args, **kwargs):
            if counter.counting:
                counter.count += 1
                if DETAIL:
                    counter.callers[_asking()] += 1
            return await counter._execute(connection, fn, *args, **kwargs)

        Connection._execute = counted

    def close(self) -> None:
        self._connection._execute = self._execute


def _asking() -> str:
    """The innermost frame of the bot outside its store's plumbing (bot.storage.database,
    aiosqlite): the function whose read or write a hand-over is."""
    frame = sys._getframe(2)
    while frame is not None:
        name = frame.f_code.co_filename
        if "/bot/" in name and not name.endswith(("bot/storage/database.py", "bot/postgres.py")):
            return f"{name[name.rindex('/bot/') + 1:]}:{frame.f_code.co_name}"
        frame = frame.f_back
    return "?"


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


async def play(game: str, players: int, moves: int, seed: int, *, target: str | None = None,
               render=None) -> tuple[list[float], list[float], TimedRenderer]:
    """Play `moves` moves; returns (handling times, whole-turn times, the renderer). `target`: the
    store (a PostgreSQL URL; default a fresh SQLite file); `render`: instead of the timed real one."""
    renderer = render or TimedRenderer(None if PICTURES else WithoutPictures())
    with tempfile.TemporaryDirectory() as folder:
        async with simulated_discord(target or Path(folder) / "bench.sqlite3", games={game: REGISTRY[game]},
                                     seed=seed, render=renderer, collect_when_quiet=True) as world:
            members = [world.player(f"player{i}") for i in range(players)]
            await world.slash(members[0], "game new", game=game)
            for member in members[1:]:
                await world.click(member, world.latest(), label="Join")
            await world.click(members[0], world.latest(), label="Start")
            seated = seat_order(world, 1, members)
            rng = random.Random(seed)
            timings = []
            handling: list[float] = []
            own: list[float] = []
            held: list[tuple[float, float, str, float, float, int, int]] = []  # the moves' contents (--slowest)
            moves_part, deliveries = world.parts.moves, world.parts.deliveries
            original_play = moves_part.play
            discord_side = DiscordSide(world.env.backend)

            async def timed_play(*args, **kwargs):
                started, before, cpu = time.perf_counter(), discord_side.seconds, time.process_time()
                paused, rendered = collections.paused, len(renderer.seconds)
                requests = len(world.env.backend.http_requests)
                try:
                    played = await original_play(*args, **kwargs)
                    await deliveries.settled(kwargs["game_id"])
                    return played
                finally:
                    elapsed = time.perf_counter() - started
                    handling.append(elapsed)
                    own.append(elapsed - (discord_side.seconds - before))
                    held.append((elapsed, time.process_time() - cpu, kwargs["action_text"], collections.paused - paused,
                                 sum(renderer.seconds[rendered:]), len(renderer.seconds) - rendered,
                                 len(world.env.backend.http_requests) - requests))

            moves_part.play = timed_play
            collections = CollectorTimes()
            requests_before = len(world.env.backend.http_requests)
            if isinstance(renderer, TimedRenderer):
                renderer.seconds.clear()
            hand_overs = HandOvers()
            hand_overs.counting = True
            statements = StatementTimes() if STATEMENTS else None
            if statements is not None:
                statements.start()
            sampler = PhaseSampler()
            if PHASES:
                sampler.start()
            process_before = time.process_time()
            with collections:
                for _ in range(moves):
                    if "Game over" in world.latest_board().content:
                        break
                    player = to_act(world, seated)[0]
                    started = time.perf_counter()
                    await take_turn(world, player, rng)
                    timings.append(time.perf_counter() - started)
            if PHASES:
                sampler.stop()
            if statements is not None:
                statements.stop()
                statements.close()
            hand_overs.close()
            process_cpu = time.process_time() - process_before
            discord_side.close()
            made = world.env.backend.http_requests[requests_before:]
            renderer.requests = (len(made), sum(1 for entry in made if entry.method == "GET"))
    renderer.own = own
    renderer.collections = collections
    renderer.held = held
    renderer.phases = sampler.totals() if PHASES else {}
    renderer.process_cpu = process_cpu - sampler.own_seconds()
    renderer.heaviest = sampler.heaviest()
    renderer.hand_overs = hand_overs.count
    renderer.hand_over_callers = hand_overs.callers
    renderer.statements = statements.lines(len(timings)) if statements is not None and timings else []
    return handling, timings, renderer


class DiscordSide:
    """Time simcord spends as Discord's servers inside the bot's requests (checking, storing and
    answering them; on Discord this is network time, when the bot's process is free). The
    gateway events a request sends back are parsed by discord.py in the bot: that stays the bot's."""

    def __init__(self, backend) -> None:
        import simcord.http.router as router

        self.seconds = 0.0
        self._fed = 0.0
        self._router = router
        self._dispatch = router.dispatch
        self._backend = backend
        self._subscribers = list(backend.subscribers)

        def dispatch(*args, **kwargs):
            started, fed = time.perf_counter(), self._fed
            try:
                return self._dispatch(*args, **kwargs)
            finally:
                self.seconds += (time.perf_counter() - started) - (self._fed - fed)

        def timed(feed):
            def fed(*args, **kwargs):
                started = time.perf_counter()
                try:
                    return feed(*args, **kwargs)
                finally:
                    self._fed += time.perf_counter() - started
            return fed

        router.dispatch = dispatch
        backend.subscribers[:] = [timed(feed) for feed in self._subscribers]

    def close(self) -> None:
        self._router.dispatch = self._dispatch
        self._backend.subscribers[:] = self._subscribers


def report(label: str, handling: list[float], timings: list[float], renderer: TimedRenderer) -> None:
    render_ms = [t * 1000 for t in renderer.seconds]
    print(f"{label}: {len(timings)} moves, {len(render_ms)} renders")
    for name, values in (("handling ", handling), ("  own work", getattr(renderer, "own", None) or handling),
                         ("whole turn", timings)):
        ms = [t * 1000 for t in values]
        print(f"  {name} median {statistics.median(ms):6.1f} ms   p95 {percentile(ms, .95):6.1f} ms   "
              f"p99 {percentile(ms, .99):6.1f} ms   max {max(ms):6.1f} ms")
    ms = [t * 1000 for t in timings]
    print(f"  rendering median {statistics.median(render_ms):6.1f} ms   p99 {percentile(render_ms, .99):6.1f} ms"
          f"   ({sum(render_ms) / len(ms):.1f} ms per move, public board and any DM images)")
    requests, reads = getattr(renderer, "requests", (0, 0))
    if timings:
        print(f"  Discord requests per move {requests / len(timings):.2f} (reads back: {reads / len(timings):.2f})")
    if getattr(renderer, "hand_overs", 0) and timings:
        print(f"  store hand-overs to SQLite's thread per move {renderer.hand_overs / len(timings):.1f}")
    for line in getattr(renderer, "statements", ()):
        print(line)
    collections = getattr(renderer, "collections", None)
    if collections and timings:
        per_move = [f"{count / len(timings):.2f}" for count in collections.count]
        print(f"  garbage collections per move {' / '.join(per_move)} (generations 0 / 1 / 2), "
              f"{sum(collections.seconds) * 1000 / len(timings):.2f} ms of CPU per move "
              f"({' / '.join(f'{seconds * 1000 / len(timings):.2f}' for seconds in collections.seconds)}), "
              f"longest {collections.longest * 1000:.1f} ms; the bot's own between moves "
              f"{collections.quiet / len(timings):.2f} per move, "
              f"{collections.quiet_seconds * 1000 / len(timings):.2f} ms")
    if len(handling) > 200:
        tail = [t * 1000 for t in handling[-100:]]
        print(f"  last 100 moves: handling p99 {percentile(tail, .99):6.1f} ms, max {max(tail):6.1f} ms")
    phases = getattr(renderer, "phases", None)
    if phases and timings:
        print(f"  the bot's CPU per move {bot_seconds(phases) * 1000 / len(timings):.1f} ms (the whole process's, "
              f"the simulated Discord and players too: {renderer.process_cpu * 1000 / len(timings):.1f} ms), by phase:")
        print(table([("", phases, len(timings))]))
        if SLOWEST:
            # By CPU: on a busy machine the wall times say more of the machine than of the move.
            cpu = [entry[1] * 1000 for entry in renderer.held]
            slowest = sorted(renderer.held, key=lambda entry: -entry[1])[:max(3, len(renderer.held) // 100)]
            print(f"  the process's CPU in a move (simcord's too): median {statistics.median(cpu):.1f} ms, "
                  f"p99 {percentile(cpu, .99):.1f} ms; the costliest moves: handling, CPU, the collections' "
                  "pauses, rendering (images), requests")
            for elapsed, cpu, action, paused, rendering, images, requests in slowest:
                print(f"    {elapsed * 1000:6.1f} ms  CPU {cpu * 1000:5.1f} ms  collections {paused * 1000:5.1f} ms  "
                      f"rendering {rendering * 1000:5.1f} ms ({images})  requests {requests:2}  {action[:50]}")
        if DETAIL:
            for phase, where, seconds in renderer.heaviest:
                print(f"    {seconds * 1000 / len(timings):6.2f} ms  {phase:<12} {where}")
            callers = getattr(renderer, "hand_over_callers", None)
            if callers:
                print("  store hand-overs per move by the function that asked:")
                for where, count in callers.most_common(25):
                    print(f"    {count / len(timings):6.2f}  {where}")


# (game, table size, moves): the default runs; Carcassonne is played whole (its board grows).
DEFAULT_RUNS = (("knatsch", 3, None), ("knatsch", 6, None), ("raubritter", 4, None), ("macrobber", 4, None),
                ("macrobber", 5, None), ("gluecksritter", 4, None), ("gluecksritter", 6, None),
                ("carcassonne", 3, 2000))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game", nargs="?", choices=sorted(REGISTRY))
    parser.add_argument("players", nargs="*", type=int)
    parser.add_argument("--moves", type=int, default=150)
    parser.add_argument("--detail", action="store_true", help="the functions that took the most CPU, per run")
    parser.add_argument("--slowest", action="store_true", help="what the costliest 1 %% of moves held, per run")
    parser.add_argument("--no-phases", action="store_true", help="leave the sampler of the CPU by phase out")
    parser.add_argument("--without-pictures", action="store_true",
                        help="every picture a one-pixel PNG: what a move costs besides drawing and encoding")
    parser.add_argument("--statements", action="store_true",
                        help="the store's CPU in aiosqlite's thread per move, statement by statement")
    args = parser.parse_args()
    global DETAIL, SLOWEST, PHASES, STATEMENTS, PICTURES
    DETAIL, SLOWEST, PHASES, STATEMENTS = args.detail, args.slowest, not args.no_phases, args.statements
    PICTURES = not args.without_pictures
    if args.game is None:
        runs = [(game, players, moves or args.moves) for game, players, moves in DEFAULT_RUNS]
    else:
        game = REGISTRY[args.game]
        runs = [(args.game, players, args.moves) for players in args.players or (game.min_players, game.max_players)]
    columns = []
    for game, players, moves in runs:
        handling, timings, renderer = asyncio.run(play(game, players, moves, seed=3))
        report(f"{REGISTRY[game].title}, {players} players", handling, timings, renderer)
        columns.append((f"{game[:10]} {players}", renderer.phases, len(timings)))
    if len(columns) > 1 and PHASES:
        print("\nThe bot's CPU per move by phase (all its threads; the simulated Discord and the players left out):")
        print(table(columns))


if __name__ == "__main__":
    main()
