"""A long run of the real bot process (`python -m bot`) on the stand-in Discord (bench/standin)
under overlapping Discord faults, SIGKILLs and restarts, checking what must always hold.

`--tables` tables of all five games are opened in the stand-in's channels with a pool of
`--players` players, each sitting at two or three tables, and played by clicking the newest
board's buttons and the players' DM buttons (bench/standin/tables.py), each table reopened
when its game ends. Every third table has a deadline, reminders and a reaction window
(`deadline=24h reminder=1h react=15m`) and goes quiet now and then, so reminders, timeouts and
computer substitutes run; the bot gets `TIME_SCALE` (game time shortened: 0.002 makes 24 h
173 s) in its environment.

From a seeded schedule, faults come in storms that overlap: 429s per route and global (with
retry_after), 5xx before and after the request took effect, hangs of 9-20 s before or after
it, Send Messages revoked in a table's channel and given back (CHANNEL_UPDATE), DMs closed
(50007) and reopened, a moderator deleting a board (MESSAGE_DELETE), gateway drops with a
RESUME and with a new session (READY). Every `--kill-every` seconds the bot is SIGKILLed and
restarted on the same database (a board is deleted while it is down, now and then). The last
part of the run has no faults; then the bot gets SIGTERM and must exit 0 within 10 s.

Every minute a line of figures, at the end one PASS/FAIL line per invariant:

- moves lost: a click the bot answered as a move (deferred or its message updated, no refusal)
  whose action is not in the store (`actions`);
- moves applied twice: the action of one click stored at two versions in a row;
- interactions unanswered (within Discord's 3 s) outside fault windows;
- boards behind: a table's newest board shows an older version than the store's for more than
  10 s after the last fault that could hold it up (or no board at all);
- boards going back: a board message redrawn with an older version than it showed before;
- stalls: a table waiting more than 30 s on nobody (only computer seats to act, or nobody with a
  button to press) while it owes Discord nothing;
- stale live buttons: a message other than the newest board (in a channel; per game in a DM)
  that keeps live move buttons for more than 15 s after the faults;
- notices lost: channel notices the bot stored (`deliveries` rows of kind 'notice', logged by a
  trigger the soak adds to its own database) that never appeared in their channel;
- secrets: a seat's private summary (its DM's "Your hand: ..." line, worked out with the
  engine) in a channel message;
- tracebacks in the bot's logs; RSS over time; `PRAGMA integrity_check`; what is still owed
  at the end (games.board_owed, deliveries, seat_dms.owed); the clean stop.

Nothing is asserted: it exits 0 and prints figures.

    python bench/soak.py --minutes N [--tables 10] [--players 16] [--seed S] [--kill-every SECONDS]
        [--time-scale 0.002] [--keep DIR]
"""
from __future__ import annotations

import argparse
import asyncio
import json
import math
import random
import re
import sqlite3
import sys
import tempfile
import time
from collections import Counter, defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.standin import BotProcess, GuildShape, StandIn, StandInConfig
from bench.standin.botview import MOVE_ID, controls
from bench.standin.faults import DM_OPEN_ROUTES, INTERACTION_ROUTES, MESSAGE_ROUTES, Storm
from bench.standin.payloads import DISCORD_EPOCH_MS, DM
from bench.standin.process import rss_mib
from bench.standin.recorder import ACK_DEADLINE, InteractionRecord, MessageEvent
from bench.standin.server import Player
from bench.standin.tables import Table, Tables
from games import REGISTRY
from i18n import translate

GAMES = sorted(REGISTRY)              # knatsch, raubritter, macrobber, gluecksritter, carcassonne
DAY_OPTIONS = "deadline=24h reminder=1h react=15m"
DEADLINE_SECONDS = 24 * 3600          # of the tables with DAY_OPTIONS, before TIME_SCALE

BEHIND_GRACE = 10.0     # seconds a board may lag behind the store after the last fault
STALE_GRACE = 15.0      # seconds an older message may keep live buttons after the last fault
STALL_AFTER = 30.0      # seconds a table may wait on nobody while nothing is owed
ANSWER_GRACE = 5.0      # seconds after a fault window in which unanswered clicks are still excused
NOTICE_GRACE = 20.0     # seconds a stored notice has to appear before it counts as lost
TICK = 1.0              # seconds between two looks at the tables
THINK = (0.5, 2.5)      # seconds a table's players take between two clicks
LAZY_CHANCE = 0.03      # a deadline table goes quiet after a click with this chance ...
LAZY_SHARE = (0.2, 1.3)  # ... for this share of its (scaled) deadline

DEFERRED_UPDATE, UPDATE_MESSAGE = 6, 7
MOVE_NOTICES = ("Your move counts", "Your move #")  # a move's own follow-ups, not refusals

# Faults: per minute of the faulty part of the run, and how long each lasts (seconds). Every
# kind comes at least once, whatever the run's length.
FAULT_RATES: dict[str, tuple[float, tuple[float, float]]] = {
    "429-route": (1.0, (5, 30)),
    "429-global": (0.4, (2, 6)),
    "5xx-before": (0.8, (5, 25)),
    "5xx-after": (0.8, (5, 25)),
    "hang-before": (0.4, (10, 30)),
    "hang-after": (0.4, (10, 30)),
    "revoke": (0.5, (8, 40)),
    "dms-closed": (0.6, (15, 60)),
    "delete-board": (0.8, (0, 0)),
    "drop-resume": (0.3, (0, 0)),
    "drop-new-session": (0.2, (0, 0)),
}
# The storms of REST faults (bench/standin/faults.py): the fault each is, and the share of the
# requests it aims at that it hits.
REST_KINDS = {"429-route": "429", "429-global": "429", "5xx-before": "5xx-before", "5xx-after": "5xx-after",
              "hang-before": "hang-before", "hang-after": "hang-after"}
STORM_SHARES = {"429-route": 0.6, "429-global": 0.8, "5xx-before": 0.4, "5xx-after": 0.4, "hang-before": 0.25,
                "hang-after": 0.25}
HANG_LONGEST = 20.0
RECONNECT_WINDOW = {"drop-resume": 10.0, "drop-new-session": 20.0}  # seconds the bot may take to be back


# ---------------------------------------------------------------------------------- the plan


@dataclass
class SoakTable:
    """A table the soak keeps going: its game, players, channels (its own and spares for when a
    channel jams) and the game being played there now."""

    number: int
    game: str
    players: list[Player]
    channels: list[int]
    with_deadline: bool
    table: Table | None = None
    channel_index: int = 0
    games_started: int = 0
    games_finished: int = 0
    open_failures: int = 0
    outcomes: Counter = field(default_factory=Counter)
    errors: Counter = field(default_factory=Counter)

    @property
    def channel_id(self) -> int:
        return self.channels[self.channel_index]

    @property
    def game_id(self) -> int | None:
        return None if self.table is None else self.table.game_id


def seat_players(rng: random.Random, tables: int, players: int) -> list[tuple[str, list[int]]]:
    """(game, player numbers) per table: games in turn, sizes within each game's limits, each
    player at two or three tables (as far as the limits allow), fewest seats first."""
    games = [GAMES[n % len(GAMES)] for n in range(tables)]
    low = [max(2, REGISTRY[g].min_players) for g in games]
    high = [min(REGISTRY[g].max_players, 5, players) for g in games]
    sizes = list(low)
    target = min(max(round(2.5 * players), 2 * players), 3 * players, sum(high))
    while sum(sizes) < target:
        growable = [n for n in range(tables) if sizes[n] < high[n]]
        if not growable:
            break
        sizes[rng.choice(growable)] += 1
    seats = Counter({p: 0 for p in range(players)})
    seating = []
    for game, size in zip(games, sizes):
        pool = sorted(range(players), key=lambda p: (seats[p], rng.random()))[:size]
        for p in pool:
            seats[p] += 1
        seating.append((game, sorted(pool)))
    return seating


@dataclass
class Planned:
    """A fault of the schedule: `at` seconds after the faults begin, lasting `seconds`, aimed at
    a table (its channel) or a player by number."""

    at: float
    kind: str
    seconds: float
    table: int
    player: int
    aim: str = ""            # REST storms: "channel", "everywhere", "dm-open" or "interactions"
    share: float = 0.5
    retry_after: float = 1.0  # 429
    scope: str = "shared"     # 429: user, shared or global
    status: int = 503         # 5xx


def plan_faults(rng: random.Random, seconds: float, tables: int, players: int) -> list[Planned]:
    """The seeded schedule of faults over `seconds` (they all end by then)."""
    planned = []
    minutes = seconds / 60
    for kind, (rate, (shortest, longest)) in FAULT_RATES.items():
        count = max(1, poisson(rng, rate * minutes))
        for _ in range(count):
            length = rng.uniform(shortest, longest)
            at = rng.uniform(0, max(1.0, seconds - length))
            aim = ""
            if kind in REST_KINDS and kind != "429-global":
                # Boards are mostly redrawn as the answer to a click (the interaction endpoints),
                # new turns and DMs posted (the message routes).
                aim = rng.choices(["channel", "everywhere", "dm-open", "interactions"], [4, 3, 1, 2])[0]
            scope = "global" if kind == "429-global" else rng.choice(["user", "shared"])
            planned.append(Planned(at, kind, length, rng.randrange(tables), rng.randrange(players), aim,
                                   STORM_SHARES.get(kind, 0.0), round(rng.uniform(0.3, 3.0), 2), scope,
                                   rng.choice([500, 502, 503])))
    return sorted(planned, key=lambda p: p.at)


def poisson(rng: random.Random, mean: float) -> int:
    limit, k, product = math.exp(-mean), 0, rng.random()
    while product > limit:
        k += 1
        product *= rng.random()
    return k


# ------------------------------------------------------------------------------ fault windows


@dataclass
class Window:
    """A stretch of time a fault could hold the bot up: answers (clicks), boards, or both; in
    one channel or everywhere (channel None)."""

    kind: str
    start: float
    end: float
    channel_id: int | None = None
    answers: bool = False
    boards: bool = True


class Windows:
    def __init__(self) -> None:
        self.all: list[Window] = []

    def add(self, window: Window) -> Window:
        self.all.append(window)
        return window

    def _touching(self, channel_id: int | None, *, answers: bool) -> Iterable[Window]:
        for window in self.all:
            if answers and not window.answers or not answers and not window.boards:
                continue
            if window.channel_id is None or channel_id is None or window.channel_id == channel_id:
                yield window

    def excuses_answer(self, at: float, channel_id: int) -> bool:
        """Whether a fault could have kept an interaction sent `at` from its answer: one that
        began before Discord's 3 s were up (a click just before a SIGKILL is never answered)."""
        return any(w.start - ACK_DEADLINE <= at <= w.end + ANSWER_GRACE
                   for w in self._touching(channel_id, answers=True))

    def settled_since(self, channel_id: int | None, now: float) -> float | None:
        """When the last fault that could hold up this channel's boards ended (None: one still
        lasts)."""
        last = 0.0
        for window in self._touching(channel_id, answers=False):
            if window.start <= now < window.end:
                return None
            if window.end <= now:
                last = max(last, window.end)
        return last

    def active_kinds(self, now: float) -> list[str]:
        return sorted({w.kind for w in self.all if w.start <= now < w.end})


# ------------------------------------------------------------------------------ the soak


class Soak:
    def __init__(self, args: argparse.Namespace, standin: StandIn, folder: Path) -> None:
        self.args = args
        self.standin = standin
        self.world = standin.world
        self.folder = folder
        self.database = folder / "bot.sqlite3"
        self.rng = random.Random(args.seed)
        self.windows = Windows()
        self.tables_helper: Tables | None = None
        self.tables: list[SoakTable] = []
        self.bot: BotProcess | None = None
        self.incarnations = 0
        self.logs: list[Path] = []
        self.bot_up = asyncio.Event()
        self.started = time.monotonic()
        self.started_wall = time.time()
        self.stopping = False
        self.faults_fired: Counter = Counter()
        self.kills: list[float] = []                 # when the bot was SIGKILLed
        self.back_after: list[float] = []            # seconds from each kill to ready again
        self.deleted_while_down = 0
        self.integrity_after_kills: list[str] = []
        self.rss: list[tuple[float, int, float]] = []  # (time, incarnation, MiB)
        self.checks = Checks(self)

    def elapsed(self, now: float | None = None) -> float:
        return (now or time.monotonic()) - self.started

    # ------------------------------------------------------------------ the bot process

    async def start_bot(self) -> float:
        self.incarnations += 1
        log_path = self.folder / f"bot-{self.incarnations}.log"
        self.logs.append(log_path)
        self.bot = BotProcess(api_url=self.standin.api_url, token=self.world.token, database_path=self.database,
                              log_path=log_path, extra_env={"TIME_SCALE": repr(self.args.time_scale)},
                              keep_lines=200)
        await self.bot.start()
        seconds = await self.bot.wait_ready(180)
        self.bot_up.set()
        return seconds

    async def kill_and_restart(self, rng: random.Random) -> None:
        """SIGKILL, a few seconds down (a moderator may delete a board meanwhile: the bot hears
        nothing of it), the database checked, then the bot started again on it."""
        assert self.bot is not None
        window = self.windows.add(Window("kill", time.monotonic(), math.inf, answers=True))
        self.bot_up.clear()
        await self.bot.kill()
        killed_at = time.monotonic()
        self.kills.append(killed_at)
        print(f"  [{self.elapsed(killed_at):6.0f} s] bot killed (SIGKILL)", flush=True)
        down = rng.uniform(2.0, 6.0)
        if len(self.kills) == 1 or rng.random() < 0.5:
            number = rng.randrange(len(self.tables))
            if await self.delete_a_board(number):
                self.deleted_while_down += 1
                print(f"  [{self.elapsed():6.0f} s] a moderator deleted table {number}'s board while the bot was down",
                      flush=True)
        await asyncio.sleep(down)
        self.integrity_after_kills.append(integrity(self.database))
        ready = await self.start_bot()
        window.end = time.monotonic() + 5.0  # its owed deliveries start right after ready
        self.back_after.append(time.monotonic() - killed_at)
        print(f"  [{self.elapsed():6.0f} s] bot back: down {down:.1f} s, ready {ready:.1f} s after its restart",
              flush=True)

    def sample_rss(self) -> None:
        if self.bot is not None and self.bot.process is not None and self.bot.process.returncode is None:
            try:
                self.rss.append((time.monotonic(), self.incarnations, rss_mib(self.bot.pid)))
            except (OSError, LookupError):
                pass

    # ------------------------------------------------------------------ tables

    def set_up_tables(self) -> None:
        seating = seat_players(self.rng, self.args.tables, self.args.players)
        players = [self.standin.player(f"soak{n:02d}") for n in range(self.args.players)]
        self.players = players
        specs = list(self.world.guilds.values())
        channels = [cid for spec in specs for cid in spec.channel_ids]
        spares = 2
        for number, (game, seated) in enumerate(seating):
            own = channels[number * (spares + 1):(number + 1) * (spares + 1)]
            self.tables.append(SoakTable(number, game, [players[p] for p in seated], own,
                                         with_deadline=number % 3 == 0))

    async def open_table(self, st: SoakTable) -> None:
        """A new game at the table: in its channel, or the next spare one when that fails (a
        channel can jam: a lobby left open by a kill, Send Messages revoked)."""
        assert self.tables_helper is not None
        while not self.stopping:
            await self.bot_up.wait()
            if st.channel_id in self.world.send_denied:
                await asyncio.sleep(1.0)
                continue
            options = {"options": DAY_OPTIONS} if st.with_deadline else {}
            try:
                st.table = await self.tables_helper.open(st.channel_id, st.game, st.players, **options)
                st.games_started += 1
                return
            except Exception as error:  # noqa: BLE001 - tried again elsewhere
                st.open_failures += 1
                st.errors[f"open: {str(error)[:80]}"] += 1
                st.channel_index = (st.channel_index + 1) % len(st.channels)
                await asyncio.sleep(2.0)

    async def drive(self, st: SoakTable) -> None:
        """Click, think, click; a new game when one ends. A table with a deadline goes quiet
        now and then, long enough for reminders and timeouts."""
        assert self.tables_helper is not None
        rng = random.Random(self.args.seed * 1000 + st.number)
        while not self.stopping:
            if st.table is None or st.table.finished:
                if st.table is not None:
                    st.games_finished += 1
                await self.open_table(st)
                continue
            try:
                outcome = await self.tables_helper.step(st.table)
            except Exception as error:  # noqa: BLE001 - the soak goes on; the error is counted
                outcome = "error"
                st.errors[f"{error.__class__.__name__}: {str(error)[:80]}"] += 1
            st.outcomes[outcome] += 1
            pause = rng.uniform(*THINK)
            if st.with_deadline and rng.random() < LAZY_CHANCE:
                pause = rng.uniform(*LAZY_SHARE) * DEADLINE_SECONDS * self.args.time_scale
            await asyncio.sleep(pause)

    # ------------------------------------------------------------------ faults

    async def delete_a_board(self, number: int) -> bool:
        """A moderator deletes the newest board message of a table (MESSAGE_DELETE)."""
        table = self.tables[number].table
        if table is None or table.game_id is None:
            return False
        board = self.checks.newest_board(table.channel_id, table.game_id)
        if board is None:
            return False
        try:
            await self.standin.delete_message(table.channel_id, int(board["id"]))
        except Exception:  # noqa: BLE001 - deleted already
            return False
        return True

    async def fire(self, planned: Planned) -> None:
        """One fault of the schedule, from its start to its end."""
        now = time.monotonic()
        st = self.tables[planned.table]
        kind = planned.kind
        self.faults_fired[kind] += 1
        if kind in REST_KINDS:
            self.add_storm(planned, st, now)
        elif kind == "revoke":
            channel_id = st.table.channel_id if st.table is not None else st.channel_id
            self.windows.add(Window(kind, now, now + planned.seconds, channel_id))
            await self.standin.revoke_send_messages(channel_id)
            await asyncio.sleep(planned.seconds)
            await self.standin.restore_send_messages(channel_id)
        elif kind == "dms-closed":
            player = self.players[planned.player]
            self.windows.add(Window(kind, now, now + planned.seconds, boards=False))  # a check, not an excuse
            self.standin.close_dms(player.id)
            await asyncio.sleep(planned.seconds)
            self.standin.open_dms(player.id)
        elif kind == "delete-board":
            if await self.delete_a_board(planned.table):
                self.windows.add(Window(kind, now, now, st.table.channel_id))
        elif kind in RECONNECT_WINDOW:
            self.windows.add(Window(kind, now, now + RECONNECT_WINDOW[kind], answers=True))
            await self.standin.gateway.drop(resume=kind == "drop-resume")

    def add_storm(self, planned: Planned, st: SoakTable, now: float) -> None:
        kind = REST_KINDS[planned.kind]
        end = now + planned.seconds
        aim = planned.aim
        channel_id = (st.table.channel_id if st.table is not None else st.channel_id) if aim == "channel" else None
        routes = {"channel": MESSAGE_ROUTES, "everywhere": MESSAGE_ROUTES, "dm-open": DM_OPEN_ROUTES,
                  "interactions": INTERACTION_ROUTES}.get(aim)
        storm = Storm(kind, now, end, None if planned.kind == "429-global" else routes, channel_id,
                      share=planned.share, retry_after=planned.retry_after, scope=planned.scope, status=planned.status,
                      label=f"{planned.kind} {aim or 'all routes'}")
        self.standin.faults.add(storm)
        # A hang begun at the storm's end lasts up to HANG_LONGEST more; a 429 its retry_after.
        tail = HANG_LONGEST if kind.startswith("hang") else planned.retry_after if kind == "429" else 0.0
        answers = aim == "interactions" or planned.kind == "429-global"  # discord.py's global lock holds callbacks too
        boards = aim != "dm-open"
        self.windows.add(Window(storm.label, now, end + tail, channel_id, answers=answers, boards=boards))

    async def run_faults(self, schedule: list[Planned], begin: float) -> None:
        tasks = set()
        for planned in schedule:
            delay = begin + planned.at - time.monotonic()
            if delay > 0:
                await asyncio.sleep(delay)
            await self.bot_up.wait()  # a fault while the bot is down waits for it
            task = asyncio.create_task(self.fire(planned), name=f"fault-{planned.kind}")
            tasks.add(task)
            task.add_done_callback(tasks.discard)
        if tasks:
            await asyncio.gather(*tasks)

    async def run_kills(self, begin: float, until: float) -> None:
        rng = random.Random(self.args.seed + 7)
        at = begin
        while True:
            at += self.args.kill_every * rng.uniform(0.8, 1.2)
            if at >= until:
                return
            await asyncio.sleep(max(0.0, at - time.monotonic()))
            await self.kill_and_restart(rng)

    # ------------------------------------------------------------------ running

    async def run(self) -> None:
        args = self.args
        total = args.minutes * 60
        print(f"Soak: {args.tables} tables of {', '.join(GAMES)} with {args.players} players; {args.minutes:g} min; "
              f"seed {args.seed}; SIGKILL every ~{args.kill_every:.0f} s; TIME_SCALE={args.time_scale:g}; "
              f"work folder {self.folder}", flush=True)
        ready = await self.start_bot()
        install_notice_log(self.database)
        print(f"  bot ready in {ready:.1f} s", flush=True)
        self.tables_helper = Tables(self.standin, self.database, seed=args.seed, answer_timeout=10.0,
                                    move_timeout=20.0)
        self.set_up_tables()
        gate = asyncio.Semaphore(3)

        async def first_open(st: SoakTable) -> None:
            async with gate:
                await self.open_table(st)

        await asyncio.gather(*(first_open(st) for st in self.tables))
        print(f"  {len(self.tables)} tables open after {self.elapsed():.0f} s: "
              + ", ".join(f"{st.game}×{len(st.players)}{'⏳' if st.with_deadline else ''}" for st in self.tables),
              flush=True)
        end = self.started + total
        quiet = min(max(30.0, total * 0.15), 120.0)  # the last part of the run has no faults
        begin = time.monotonic() + 5.0
        faulty = max(10.0, end - quiet - begin)
        schedule = plan_faults(random.Random(args.seed + 1), faulty, len(self.tables), len(self.players))
        print(f"  faults from {self.elapsed(begin):.0f} s to {self.elapsed(begin + faulty):.0f} s: {len(schedule)} "
              f"planned ({', '.join(f'{k} {n}' for k, n in Counter(p.kind for p in schedule).items())}); "
              f"quiet for the last {quiet:.0f} s", flush=True)
        print(f"  schedule: {describe_schedule(schedule, self.elapsed(begin))}", flush=True)
        drivers = [asyncio.create_task(self.drive(st), name=f"table-{st.number}") for st in self.tables]
        background = [
            asyncio.create_task(self.run_faults(schedule, begin), name="faults"),
            asyncio.create_task(self.run_kills(begin, begin + faulty), name="kills"),
            asyncio.create_task(self.checks.watch(), name="checks"),
            asyncio.create_task(self.report_every_minute(), name="report"),
        ]
        try:
            await asyncio.sleep(max(0.0, end - time.monotonic()))
        finally:
            self.stopping = True
            for task in [*drivers, *background[2:]]:
                task.cancel()
            for task in background[:2]:  # a kill or a fault under way is let finish
                if not task.done():
                    await asyncio.wait({task}, timeout=70)
                    task.cancel()
            await asyncio.gather(*drivers, *background, return_exceptions=True)
        await self.finish()

    async def report_every_minute(self) -> None:
        while True:
            await asyncio.sleep(60.0)
            try:
                figures = self.checks.figures(final=False)
            except sqlite3.Error as error:  # the database busy: the next minute's line
                print(f"  [{self.elapsed() / 60:4.1f} min] (no figures: {error})", flush=True)
                continue
            print(f"  [{self.elapsed() / 60:4.1f} min] " + minute_line(figures, self), flush=True)

    async def finish(self) -> None:
        """Settle (what is owed is delivered), the last looks, the clean stop, the figures."""
        settle_until = time.monotonic() + 30.0
        while time.monotonic() < settle_until and self.checks.owed_now() > 0:
            await asyncio.sleep(1.0)
        for _ in range(3):  # boards, buttons and stalls as they are now
            self.checks.look()
            await asyncio.sleep(TICK)
        figures = self.checks.figures(final=True)
        assert self.bot is not None
        stop_started = time.monotonic()
        returncode = await self.bot.stop(timeout=10.0)
        stop_seconds = time.monotonic() - stop_started
        self.checks.close()
        if self.tables_helper is not None:
            self.tables_helper.close()
        final_integrity = integrity(self.database)
        owed = owed_at_end(self.database)
        report(self, figures, returncode, stop_seconds, final_integrity, owed)
        if self.args.keep:
            dump_messages(self, self.folder / "messages.json")


# ------------------------------------------------------------------------------ the checks


@dataclass
class Episode:
    """A stretch during which something was wrong at a table or on a message."""

    since: float
    detail: str
    counted: bool = False
    key: Any = None  # what must stay the same for it to go on


class Checks:
    """Looks at the stand-in's messages and the bot's database every TICK seconds: boards behind,
    stale live buttons, stalls, the seats' secrets; the rest is worked out from the records."""

    def __init__(self, soak: Soak) -> None:
        self.soak = soak
        self.world = soak.world
        self._db: sqlite3.Connection | None = None
        self.behind: dict[int, Episode] = {}                 # table number -> episode
        self.behind_incidents: list[str] = []
        self.longest_behind = 0.0
        self.stale: dict[tuple[int, int], Episode] = {}      # (channel, message) -> episode
        self.stale_incidents: list[str] = []
        self.stalls: dict[int, Episode] = {}                 # table number -> episode
        self.stall_incidents: list[str] = []
        self.secrets: dict[int, dict[str, int]] = defaultdict(dict)  # channel -> secret text -> game id
        self._seen_versions: dict[int, int] = {}             # game id -> version whose secrets are known
        self._to_act: dict[tuple[int, int], frozenset[int]] = {}  # (game, version) -> seats to act
        self._scanned = 0                                    # messages looked through (scan_messages)
        self._versions_shown = VersionsShown()
        self.leaks: list[str] = []
        self.backwards: list[str] = []
        self.own_errors: Counter = Counter()                 # the checks' own failures (bugs of the soak)

    def db(self) -> sqlite3.Connection:
        if self._db is None:
            self._db = sqlite3.connect(f"file:{self.soak.database}?mode=ro", uri=True, timeout=10)
            self._db.row_factory = sqlite3.Row
        return self._db

    def close(self) -> None:
        if self._db is not None:
            self._db.close()
            self._db = None

    async def watch(self) -> None:
        rss_every = 5.0
        last_rss = 0.0
        while True:
            await asyncio.sleep(TICK)
            try:
                self.look()
            except sqlite3.Error:
                pass  # the database is busy (a checkpoint, a restart): the next look
            except Exception as error:  # noqa: BLE001 - a bug of the soak's must not end its checks
                self.own_errors[f"{error.__class__.__name__}: {error}"[:160]] += 1
            if time.monotonic() - last_rss >= rss_every:
                self.soak.sample_rss()
                last_rss = time.monotonic()

    # ------------------------------------------------------------------ the store

    def games(self, game_ids: list[int]) -> dict[int, sqlite3.Row]:
        if not game_ids:
            return {}
        marks = ",".join("?" * len(game_ids))
        return {row["id"]: row for row in self.db().execute(
            f"SELECT id, game, status, version, state, board_owed, board_message_id, channel_id "
            f"FROM games WHERE id IN ({marks})", game_ids)}

    def owed_games(self) -> set[int]:
        rows = self.db().execute(
            "SELECT id FROM games WHERE board_owed = 1 UNION SELECT game_id FROM deliveries "
            "UNION SELECT game_id FROM seat_dms WHERE owed IS NOT NULL")
        return {row[0] for row in rows}

    def owed_now(self) -> int:
        try:
            return len(self.owed_games())
        except sqlite3.Error:
            return 1

    def computer_seats(self, game_id: int) -> set[int]:
        found = {row[0] for row in self.db().execute(
            "SELECT seat FROM day_seats WHERE game_id = ? AND computer IS NOT NULL", (game_id,))}
        found |= {row[0] for row in self.db().execute(
            "SELECT seat FROM seats WHERE game_id = ? AND user_id < 0", (game_id,))}
        return found

    def to_act(self, row: sqlite3.Row) -> frozenset[int]:
        key = (row["id"], row["version"])
        if key not in self._to_act:
            game = REGISTRY[row["game"]]
            self._to_act[key] = frozenset(game.to_act(game.from_dict(json.loads(row["state"]))))
        return self._to_act[key]

    # ------------------------------------------------------------------ the channel's messages

    def newest_board(self, channel_id: int, game_id: int) -> dict | None:
        """The channel's newest board of the game: the newest message with the game's buttons, or
        with an image and no buttons at all (a board whose decisions are all private)."""
        channel = self.world.channels.get(channel_id)
        if channel is None:
            return None
        for message in reversed(channel.messages.values()):
            ours = [c for c in controls(message) if c.game_id == game_id]
            if ours:
                return message
            if message.get("attachments") and not message.get("components"):
                return message  # a board without buttons (or another game's end)
        return None

    def look(self) -> None:
        now = time.monotonic()
        soak = self.soak
        if not soak.bot_up.is_set():
            return  # the bot is down: nothing it could do is owed of it yet
        current = [st for st in soak.tables if st.game_id is not None]
        rows = self.games([st.game_id for st in current])
        owed = self.owed_games()
        for st in current:
            row = rows.get(st.game_id)
            if row is None:
                continue
            self._learn_secrets(row)
            self._look_at_board(st, row, now)
            self._look_for_stall(st, row, row["id"] in owed, now)
        self._look_for_stale_buttons(now)

    def _settled(self, channel_id: int | None, since: float, now: float) -> float | None:
        """Seconds something has been wrong since the later of `since` and the last fault that
        could cause it (None while such a fault lasts)."""
        calm = self.soak.windows.settled_since(channel_id, now)
        return None if calm is None else now - max(since, calm)

    def _look_at_board(self, st: SoakTable, row: sqlite3.Row, now: float) -> None:
        if row["status"] != "active":
            self.behind.pop(st.number, None)
            return
        board = self.newest_board(st.table.channel_id, row["id"])
        shown = None
        if board is not None:
            versions = [c.version for c in controls(board) if c.game_id == row["id"] and c.version is not None]
            shown = max(versions) if versions else None
        if board is None:
            problem = "no board in the channel"
        elif shown is not None and shown < row["version"]:
            problem = f"board shows version {shown}, the store {row['version']}"
        elif shown is None and (row["board_owed"] or row["board_message_id"] != int(board["id"])):
            problem = f"board owed at version {row['version']}" if row["board_owed"] else \
                "the newest board is not the one the bot keeps"
        else:
            self.behind.pop(st.number, None)
            return
        episode = self.behind.setdefault(st.number, Episode(now, problem))
        episode.detail = problem
        lag = self._settled(st.table.channel_id, episode.since, now)
        if lag is None:
            return
        self.longest_behind = max(self.longest_behind, lag)
        if lag > BEHIND_GRACE and not episode.counted:
            episode.counted = True
            self.behind_incidents.append(f"table {st.number} ({st.game}, game {row['id']}) at "
                                         f"{self.soak.elapsed(episode.since):.0f} s: {problem}")

    def _look_for_stall(self, st: SoakTable, row: sqlite3.Row, owed: bool, now: float) -> None:
        if row["status"] != "active" or owed:
            self.stalls.pop(st.number, None)
            return
        to_act = self.to_act(row)
        people = to_act - self.computer_seats(row["id"])
        if not people:
            problem = "only computer seats to act" if to_act else "nobody to act"
        elif st.table is not None and not self.soak.tables_helper.candidates(st.table, row["version"]):
            problem = f"seats {sorted(people)} to act and no button for them (none, or only ones the bot refused)"
        else:
            self.stalls.pop(st.number, None)
            return
        episode = self.stalls.get(st.number)
        key = (row["id"], row["version"], problem)
        if episode is None or episode.key != key:
            episode = self.stalls[st.number] = Episode(now, problem, key=key)
        lag = self._settled(st.table.channel_id, episode.since, now)
        if lag is not None and lag > STALL_AFTER and not episode.counted:
            episode.counted = True
            self.stall_incidents.append(f"table {st.number} ({st.game}, game {row['id']}, version {row['version']}) "
                                        f"from {self.soak.elapsed(episode.since):.0f} s: {problem}")

    def _look_for_stale_buttons(self, now: float) -> None:
        """Messages with live move buttons that are not their game's newest board (channel) or
        newest DM (per DM channel and game). The bot takes them off in the same pass that posts
        the newer message: one still live well after the last fault was forgotten."""
        channel_ids = {cid for st in self.soak.tables for cid in st.channels}
        dm_ids = {cid for p in self.soak.players if (cid := p.dm_channel_id()) is not None}
        statuses: dict[int, str] = {}
        seen_now: set[tuple[int, int]] = set()
        for channel_id in channel_ids | dm_ids:
            channel = self.world.channels.get(channel_id)
            if channel is None:
                continue
            allowed: dict[int, int] = {}  # game -> the one message that may show its buttons
            for message in reversed(channel.messages.values()):
                live = {c.game_id for c in controls(message) if c.is_move}
                for game_id in live:
                    if game_id not in statuses:
                        statuses.update({g: r["status"] for g, r in self.games([game_id]).items()})
                    if game_id not in allowed:
                        # In a channel, the game's newest board; in a DM, its newest DM with buttons.
                        board = self.newest_board(channel_id, game_id) if channel.type != DM else message
                        allowed[game_id] = int(board["id"]) if board is not None else 0
                    if statuses.get(game_id) == "active" and int(message["id"]) == allowed[game_id]:
                        continue
                    key = (channel_id, int(message["id"]))
                    seen_now.add(key)
                    versions = sorted({c.version for c in controls(message) if c.game_id == game_id and c.is_move})
                    episode = self.stale.setdefault(key, Episode(now, (
                        f"{'DM' if channel.type == DM else 'channel'} {channel_id} message {message['id']} of game "
                        f"{game_id} ({statuses.get(game_id)}): buttons of version {', '.join(map(str, versions))}; "
                        f"the live one is {allowed[game_id] or 'none'}")))
                    lag = self._settled(None if channel.type == DM else channel_id, episode.since, now)
                    if lag is not None and lag > STALE_GRACE and not episode.counted:
                        episode.counted = True
                        self.stale_incidents.append(f"{episode.detail}, live since "
                                                    f"{self.soak.elapsed(episode.since):.0f} s")
        for key in list(self.stale):
            if key not in seen_now:
                del self.stale[key]

    def _learn_secrets(self, row: sqlite3.Row) -> None:
        """Each seat's private summary at this version, as its DM says it (English, names bold)."""
        if self._seen_versions.get(row["id"]) == row["version"] or row["state"] is None:
            return
        self._seen_versions[row["id"]] = row["version"]
        game = REGISTRY[row["game"]]
        state = game.from_dict(json.loads(row["state"]))
        names = [f"**{name}**" for (name,) in self.db().execute(
            "SELECT name FROM seats WHERE game_id = ? AND seat IS NOT NULL ORDER BY seat", (row["id"],))]
        for seat in range(len(names)):
            summary = (game.view(state, seat).get("private") or {}).get("summary")
            if summary:
                text = translate(summary, "en", names)
                if len(text) >= 12:
                    self.secrets[row["channel_id"]][text] = row["id"]

    # ------------------------------------------------------------------ the figures

    def figures(self, *, final: bool) -> dict[str, Any]:
        soak = self.soak
        recorder = soak.standin.recorder
        now = time.monotonic()
        figures: dict[str, Any] = {}
        clicks = [r for r in list(recorder.interactions.values())
                  if r.kind == "component" and MOVE_ID.match(r.name) and (final or now - r.sent_at > 30)]
        acknowledged = [r for r in clicks if answered_as_move(r)]
        figures["clicks"] = len(clicks)
        figures["acknowledged"] = len(acknowledged)
        lost, unclear, twice = self.compare_with_store(acknowledged, clicks)
        figures["lost"], figures["lost_in_faults"], figures["twice"] = lost, unclear, twice
        interactions = [r for r in list(recorder.interactions.values()) if now - r.sent_at > ACK_DEADLINE + 1]
        unanswered = [r for r in interactions if r.acked_at is None]
        figures["interactions"] = len(interactions)
        figures["unanswered"] = unanswered
        figures["unanswered_outside"] = [r for r in unanswered
                                         if not soak.windows.excuses_answer(r.sent_at, r.channel_id)]
        figures["late_answers"] = sum(1 for r in interactions if r.late)
        figures["behind"] = list(self.behind_incidents)
        figures["longest_behind"] = self.longest_behind
        self.scan_messages(final)
        figures["backwards"] = list(self.backwards)
        figures["stalls"] = list(self.stall_incidents)
        figures["stale"] = list(self.stale_incidents)
        figures["stale_now"] = [e.detail for e in self.stale.values()] if final else []
        figures["notices"] = self.notices(final)
        figures["secrets"] = sorted(set(self.leaks))
        figures["tracebacks"] = tracebacks(soak.logs)
        figures["errors"] = error_lines(soak.logs)
        figures["moves_stored"] = self.db().execute("SELECT COUNT(*) FROM actions").fetchone()[0]
        return figures

    def compare_with_store(self, acknowledged: list[InteractionRecord],
                           clicks: list[InteractionRecord]) -> tuple[list[str], list[str], list[str]]:
        """Acknowledged moves whose action the store lacks (outside and inside windows where a
        refusal's reply could be lost), and actions stored twice for one click. A second click
        whose answer was lost (not acknowledged) still accounts for a second stored move."""
        db = self.db()
        by_game: dict[int, dict[int, tuple[int, str]]] = {}
        seats: dict[tuple[int, int], int | None] = {}
        lost, unclear, twice = [], [], []
        made_by_the_bot = automatic_moves(self.soak.logs)
        clicked = Counter()
        for record in clicks:
            game_id, version, action = move_of(record)
            clicked[(game_id, record.user_id, action, version)] += 1
        for record in acknowledged:
            game_id, version, action = move_of(record)
            if game_id not in by_game:
                by_game[game_id] = {row[0]: (row[1], row[2]) for row in db.execute(
                    "SELECT version, seat, action FROM actions WHERE game_id = ?", (game_id,))}
            if (game_id, record.user_id) not in seats:
                found = db.execute("SELECT seat FROM seats WHERE game_id = ? AND user_id = ?",
                                   (game_id, record.user_id)).fetchone()
                seats[(game_id, record.user_id)] = None if found is None else found[0]
            seat = seats[(game_id, record.user_id)]
            actions = by_game[game_id]
            made = sorted(v for v, (s, a) in actions.items() if v > version and s == seat and a == action)
            where = f"game {game_id} seat {seat} {action!r} clicked at version {version} " \
                    f"({self.soak.elapsed(record.sent_at):.0f} s)"
            if not made:
                (unclear if self.soak.windows.excuses_answer(record.sent_at, record.channel_id) else lost).append(where)
                continue
            first = made[0]
            # The second is a click's, or the bot's own for the seat (a decision made at once, a
            # standing order, the reaction window: the second of two discards owed, say).
            if first + 1 in made and not clicked[(game_id, record.user_id, action, first)] \
                    and (game_id, first + 1) not in made_by_the_bot:
                twice.append(f"{where}: stored at versions {first} and {first + 1}")
        return lost, unclear, twice

    def notices(self, final: bool) -> dict[str, Any]:
        """Stored notices against the messages that appeared in their games' channels."""
        db = self.db()
        try:
            stored = db.execute("SELECT n.delivery_id, n.game_id, n.payload, n.created_at, n.at, g.channel_id "
                                "FROM soak_notices n JOIN games g ON g.id = n.game_id ORDER BY n.id").fetchall()
        except sqlite3.Error:
            return {"stored": 0, "appeared": 0, "owed": 0, "lost": []}
        posted: dict[int, list[tuple[float, int, str]]] = defaultdict(list)
        for event in self.soak.standin.recorder.messages:
            if event.created and not event.in_dm:
                posted[event.channel_id].append((snowflake_seconds(event.message_id), event.message_id, event.content))
        used: set[int] = set()
        appeared, owed, lost = 0, 0, []
        now = time.time()
        for delivery_id, game_id, payload, _created_at, at, channel_id in stored:
            content = json.loads(payload).get("content", "")
            match = next((mid for when, mid, text in posted[channel_id]
                          if mid not in used and text == content and when >= at - 2.0), None)
            if match is not None:
                used.add(match)
                appeared += 1
                continue
            still = db.execute("SELECT 1 FROM deliveries WHERE id = ? AND game_id = ? AND payload = ?",
                               (delivery_id, game_id, payload)).fetchone()
            if still is not None or (not final and now - at < NOTICE_GRACE):
                owed += 1
                continue
            lost.append(f"game {game_id} notice #{delivery_id} stored at {at - self.soak.started_wall:.0f} s: "
                        f"{content[:90]!r}")
        return {"stored": len(stored), "appeared": appeared, "owed": owed, "lost": lost}

    def scan_messages(self, final: bool) -> None:
        """The channel messages made or edited since the last scan, for secrets and for boards
        going back. Those of the last seconds wait for the next scan (their state's secrets may
        not be learnt yet), but for the final one."""
        messages = self.soak.standin.recorder.messages
        settled = time.monotonic() - 10.0
        while self._scanned < len(messages) and (final or messages[self._scanned].at < settled):
            event = messages[self._scanned]
            self._scanned += 1
            if event.in_dm:
                continue
            for text, game_id in self.secrets.get(event.channel_id, {}).items():
                if text in event.content:
                    self.leaks.append(f"game {game_id}: message {event.message_id} shows {text[:80]!r}")
            self.backwards.extend(self._versions_shown.went_back(event))


# ------------------------------------------------------------------------------ helpers


def answered_as_move(record: InteractionRecord) -> bool:
    """The bot took the click for a move: it answered in time with an update (the message
    edited) or a deferred update, and told its player no refusal."""
    if record.acked_at is None or record.ack_type not in (DEFERRED_UPDATE, UPDATE_MESSAGE):
        return False
    if record.name.startswith("rk:tog:"):
        return False  # a toggle changes the message, not the game
    for message in record.ephemeral:
        text = (message.get("content") or "").lstrip("⚠️ ").strip()
        if not text.startswith(MOVE_NOTICES):
            return False
    return True


def move_of(record: InteractionRecord) -> tuple[int, int, str]:
    """(game id, version clicked at, action text) of a move or pick click."""
    parts = record.name.split(":", 4)
    game_id, version = int(parts[2]), int(parts[3])
    action = record.value if parts[1] == "pick" else parts[4]
    return game_id, version, action or ""


def snowflake_seconds(snowflake: int) -> float:
    return ((snowflake >> 22) + DISCORD_EPOCH_MS) / 1000


class VersionsShown:
    """The newest version of its game each board message has shown: a message redrawn with an
    older one had an edit land after a newer one."""

    def __init__(self) -> None:
        self.newest: dict[tuple[int, int], int] = {}  # (message, game) -> version

    def went_back(self, event: MessageEvent) -> list[str]:
        versions: dict[int, int] = {}
        for control in controls({"components": event.components}):
            if control.version is not None:
                versions[control.game_id] = max(versions.get(control.game_id, -1), control.version)
        found = []
        for game_id, version in versions.items():
            key = (event.message_id, game_id)
            if version < self.newest.get(key, -1):
                found.append(f"message {event.message_id} (game {game_id}) went from version {self.newest[key]} "
                             f"back to {version}")
            self.newest[key] = max(version, self.newest.get(key, -1))
        return found


def install_notice_log(database: Path) -> None:
    """A trigger in the soak's own database copies every notice the bot stores, with the time,
    into `soak_notices`: the bot deletes a delivery once sent, and a notice often lives for less
    than any poll would see."""
    db = sqlite3.connect(database, timeout=30)
    try:
        db.executescript("""
            CREATE TABLE IF NOT EXISTS soak_notices (
                id          INTEGER PRIMARY KEY AUTOINCREMENT,
                delivery_id INTEGER NOT NULL,
                game_id     INTEGER NOT NULL,
                payload     TEXT    NOT NULL,
                created_at  INTEGER NOT NULL,
                at          REAL    NOT NULL   -- Unix time, with fractions
            );
            CREATE TRIGGER IF NOT EXISTS soak_notice_stored AFTER INSERT ON deliveries WHEN NEW.kind = 'notice'
            BEGIN
                INSERT INTO soak_notices (delivery_id, game_id, payload, created_at, at)
                VALUES (NEW.id, NEW.game_id, NEW.payload, NEW.created_at, (julianday('now') - 2440587.5) * 86400.0);
            END;
        """)
    finally:
        db.close()


def dump_messages(soak: Soak, path: Path) -> None:
    """Every message the stand-in still holds in the tables' channels and the players' DMs, for
    looking into what the checks found (with --keep)."""
    channels = {cid for st in soak.tables for cid in st.channels}
    channels |= {cid for p in soak.players if (cid := p.dm_channel_id()) is not None}
    dump = {}
    for channel_id in sorted(channels):
        channel = soak.world.channels.get(channel_id)
        if channel is None:
            continue
        dump[str(channel_id)] = [{
            "id": message["id"], "at": round(snowflake_seconds(int(message["id"])) - soak.started_wall, 1),
            "edited": message.get("edited_timestamp"), "content": message.get("content", "")[:400],
            "live": [c.custom_id + (f" = {c.value}" if c.value else "") for c in controls(message)],
            "attachments": [a["filename"] for a in message.get("attachments", [])],
        } for message in channel.messages.values()]
    path.write_text(json.dumps(dump, indent=1, ensure_ascii=False))


def integrity(database: Path) -> str:
    db = sqlite3.connect(database, timeout=30)
    try:
        return "; ".join(row[0] for row in db.execute("PRAGMA integrity_check"))
    finally:
        db.close()


def owed_at_end(database: Path) -> dict[str, Any]:
    db = sqlite3.connect(f"file:{database}?mode=ro", uri=True, timeout=30)
    try:
        return {
            "boards": db.execute("SELECT COUNT(*) FROM games WHERE board_owed = 1").fetchone()[0],
            "deliveries": dict(db.execute("SELECT kind, COUNT(*) FROM deliveries GROUP BY kind").fetchall()),
            "dms": db.execute("SELECT COUNT(*) FROM seat_dms WHERE owed IS NOT NULL").fetchone()[0],
            "dms_held": db.execute("SELECT COUNT(*) FROM seat_dms WHERE owed IS NOT NULL "
                                   "AND closed_until IS NOT NULL").fetchone()[0],
            "games": dict(db.execute("SELECT status, COUNT(*) FROM games GROUP BY status").fetchall()),
            # What game time did (TIME_SCALE): seats the computer holds, and the notices by their
            # first word (⏰ a reminder, ⏱ a reaction window or deadline ran out, ...).
            "computer_seats": dict(db.execute("SELECT computer, COUNT(*) FROM day_seats WHERE computer IS NOT NULL "
                                              "GROUP BY computer").fetchall()),
            "notice_kinds": Counter(json.loads(payload).get("content", "").split(" ", 1)[0][:12]
                                    for (payload,) in db.execute("SELECT payload FROM soak_notices")),
        }
    finally:
        db.close()


TRACEBACK_START = "Traceback (most recent call last):"
LOG_LINE = re.compile(r"^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d+ ")


def tracebacks(logs: list[Path]) -> dict[str, dict[str, Any]]:
    """Tracebacks in the bot's logs, by their last line: how many, and the first lines of the first."""
    found: dict[str, dict[str, Any]] = {}
    for path in logs:
        if not path.exists():
            continue
        lines = path.read_text(encoding="utf-8", errors="replace").splitlines()
        for number, line in enumerate(lines):
            if line != TRACEBACK_START:
                continue
            block = [line]
            for following in lines[number + 1:]:
                if LOG_LINE.match(following):
                    break
                block.append(following)
            ending = next((line for line in reversed(block) if line and not line.startswith(" ")), block[-1])
            logged = next((lines[k] for k in range(number - 1, -1, -1) if LOG_LINE.match(lines[k])), "")
            frames = [line.strip() for line in block if line.strip().startswith("File ") and "/bot/" in line]
            entry = found.setdefault(ending[:200], {"count": 0, "logged": logged[:200],
                                                    "where": frames[-1][:200] if frames else ""})
            entry["count"] += 1
    return found


AUTOMATIC_MOVE = re.compile(r"move game=(\d+) .* version=(\d+) (?:made at once|by the computer)")


def automatic_moves(logs: list[Path]) -> set[tuple[int, int]]:
    """(game id, version) of every move the bot's log says the bot made itself for a seat."""
    found: set[tuple[int, int]] = set()
    for path in logs:
        if path.exists():
            for match in AUTOMATIC_MOVE.finditer(path.read_text(encoding="utf-8", errors="replace")):
                found.add((int(match[1]), int(match[2])))
    return found


def error_lines(logs: list[Path]) -> int:
    count = 0
    for path in logs:
        if path.exists():
            count += sum(1 for line in path.read_text(encoding="utf-8", errors="replace").splitlines()
                         if " ERROR " in line or " CRITICAL " in line)
    return count


# ------------------------------------------------------------------------------ printing


def minute_line(f: dict[str, Any], soak: Soak) -> str:
    notices = f["notices"]
    rss = soak.rss[-1][2] if soak.rss else float("nan")
    moves = sum(st.outcomes["moved"] for st in soak.tables)
    return (f"moves {moves} (checked so far {f['acknowledged']}: lost {len(f['lost'])}, twice {len(f['twice'])}) | "
            f"unanswered {len(f['unanswered'])} ({len(f['unanswered_outside'])} outside faults) | "
            f"behind>10s {len(f['behind'])} | back {len(f['backwards'])} | stalls {len(f['stalls'])} | "
            f"stale buttons {len(f['stale'])} | notices {notices['appeared']}/{notices['stored']} "
            f"lost {len(notices['lost'])} | secrets {len(f['secrets'])} | "
            f"tracebacks {sum(t['count'] for t in f['tracebacks'].values())} | RSS {rss:.0f} MiB | "
            f"kills {len(soak.kills)} | faults now: {', '.join(soak.windows.active_kinds(time.monotonic())) or '-'}")


def verdict(ok: bool, text: str, examples: list[str] = (), limit: int = 5) -> None:
    print(f"{'PASS' if ok else 'FAIL'}  {text}")
    for example in list(examples)[:limit]:
        print(f"        - {example}")
    if len(examples) > limit:
        print(f"        - … {len(examples) - limit} more")


def report(soak: Soak, f: dict[str, Any], returncode: int | None, stop_seconds: float, final_integrity: str,
           owed: dict[str, Any]) -> None:
    minutes = soak.elapsed() / 60
    print(f"\nAfter {minutes:.1f} min: {f['moves_stored']} moves stored; "
          f"{sum(st.games_finished for st in soak.tables)} games finished, "
          f"{sum(st.games_started for st in soak.tables)} started; {f['interactions']} interactions; "
          f"{len(soak.kills)} SIGKILLs ({soak.deleted_while_down} boards deleted while the bot was down); "
          f"ready again {', '.join(f'{s:.1f}' for s in soak.back_after) or '-'} s after each")
    hits = soak.standin.faults.hits_by_kind()
    print("Faults fired: " + ", ".join(f"{kind} {n}" for kind, n in sorted(soak.faults_fired.items()))
          + " | REST requests hit: " + ", ".join(f"{kind} {n}" for kind, n in sorted(hits.items()))
          + f" | gateway: {soak.standin.gateway.counts}")
    outcomes = Counter()
    for st in soak.tables:
        outcomes.update(st.outcomes)
    print("Clicks by outcome: " + ", ".join(f"{k} {n}" for k, n in outcomes.most_common()))
    errors = Counter()
    for st in soak.tables:
        errors.update(st.errors)
    if errors:
        print("Driver errors: " + "; ".join(f"{k} ×{n}" for k, n in errors.most_common(4)))
    if soak.checks.own_errors:
        print("The soak's own checks failed (a bug of the soak's): "
              + "; ".join(f"{k} ×{n}" for k, n in soak.checks.own_errors.most_common(3)))
    print("\nInvariants")
    verdict(not f["lost"], f"moves lost: {len(f['lost'])} of {f['acknowledged']} acknowledged moves not in the store"
            + (f" (and {len(f['lost_in_faults'])} more during faults on interaction replies, where a "
               f"refusal's reply may have been lost)" if f["lost_in_faults"] else ""), f["lost"] + f["lost_in_faults"])
    verdict(not f["twice"], f"moves applied twice: {len(f['twice'])}", f["twice"])
    verdict(not f["unanswered_outside"],
            f"interactions unanswered outside fault windows: {len(f['unanswered_outside'])} "
            f"(of {len(f['unanswered'])} unanswered, {f['interactions']} in all; {f['late_answers']} answered late)",
            [unanswered_detail(soak, r) for r in f["unanswered_outside"]])
    verdict(not f["behind"], f"boards behind the store by more than {BEHIND_GRACE:.0f} s after a fault: "
            f"{len(f['behind'])} (longest lag after the faults {f['longest_behind']:.0f} s)", f["behind"])
    verdict(not f["backwards"], f"boards redrawn with an older version: {len(f['backwards'])}", f["backwards"])
    verdict(not f["stalls"], f"stalls (waiting > {STALL_AFTER:.0f} s on nobody, nothing owed): {len(f['stalls'])}",
            f["stalls"])
    verdict(not f["stale"] and not f["stale_now"],
            f"stale live buttons (> {STALE_GRACE:.0f} s after the faults): {len(f['stale'])}; "
            f"at the end: {len(f['stale_now'])}", f["stale"] + [f"at the end: {s}" for s in f["stale_now"]])
    n = f["notices"]
    verdict(not n["lost"], f"notices lost: {len(n['lost'])} of {n['stored']} stored ({n['appeared']} appeared, "
            f"{n['owed']} still owed)", n["lost"])
    verdict(not f["secrets"], f"secrets in channel messages: {len(f['secrets'])} "
            f"({sum(len(s) for s in soak.checks.secrets.values())} private summaries checked)", f["secrets"])
    traces = f["tracebacks"]
    verdict(not traces, f"tracebacks in the bot's logs: {sum(t['count'] for t in traces.values())} "
            f"({len(traces)} distinct; {f['errors']} ERROR lines)",
            [f"×{t['count']} {ending}  | logged: {t['logged'][24:]}" + (f" | at {t['where']}" if t["where"] else "")
             for ending, t in sorted(traces.items(), key=lambda item: -item[1]["count"])], limit=8)
    kills_ok = all(result == "ok" for result in soak.integrity_after_kills)
    verdict(final_integrity == "ok" and kills_ok, f"PRAGMA integrity_check: at the end {final_integrity!r}; after "
            f"each of {len(soak.integrity_after_kills)} kills: "
            f"{'ok' if kills_ok else '; '.join(soak.integrity_after_kills)}")
    held = owed["dms_held"]
    owed_total = owed["boards"] + sum(owed["deliveries"].values()) + owed["dms"] - held
    verdict(owed_total == 0, f"owed at the end: boards {owed['boards']}, deliveries {owed['deliveries'] or 0}, "
            f"DMs {owed['dms']} (of which {held} held back for closed DMs); games {owed['games']}")
    verdict(returncode == 0 and stop_seconds <= 10.0,
            f"clean stop: SIGTERM -> exit code {returncode} after {stop_seconds:.1f} s (must be 0 within 10 s)")
    print("INFO  RSS (MiB) by minute: " + rss_by_minute(soak))
    print(f"INFO  game time: seats the computer holds {owed['computer_seats'] or 0}; notices stored by first word "
          + (", ".join(f"{word or '?'} {n}" for word, n in owed["notice_kinds"].most_common()) or "none"))


def unanswered_detail(soak: Soak, record: InteractionRecord) -> str:
    """An unanswered interaction: what it was, when, and what the stand-in heard for it."""
    heard = ", ".join(f"{what} +{at - record.sent_at:.1f} s" for at, what in record.responses) or "nothing"
    requests = [f"{r.method} {r.route.split('/')[1]} -> {r.status} +{r.at - record.sent_at:.1f} s"
                for r in soak.standin.recorder.requests if r.token == record.token]
    heard += f"; requests: {', '.join(requests) or 'none'}"
    faults = soak.windows.active_kinds(record.sent_at)
    return (f"{record.kind} {record.name[:60]} at {soak.elapsed(record.sent_at):.0f} s; heard: {heard}"
            + (f"; faults then elsewhere: {', '.join(faults)}" if faults else ""))


def describe_schedule(schedule: list[Planned], begin_elapsed: float) -> str:
    return "; ".join(f"{begin_elapsed + p.at:.0f}s {p.kind}" + (f"/{p.aim}" if p.aim else "")
                     + (f" {p.seconds:.0f}s" if p.seconds else "") + f" t{p.table}" for p in schedule)


def rss_by_minute(soak: Soak) -> str:
    parts = []
    by_minute: dict[int, tuple[int, float]] = {}  # minute -> the most resident in it (and which start)
    for at, incarnation, mib in soak.rss:
        minute = int(soak.elapsed(at) // 60)
        if mib >= by_minute.get(minute, (0, 0.0))[1]:
            by_minute[minute] = (incarnation, mib)
    for minute, (incarnation, mib) in sorted(by_minute.items()):
        parts.append(f"{minute}:{mib:.0f}" + ("" if incarnation == 1 else f"(#{incarnation})"))
    peak = max((mib for _, _, mib in soak.rss), default=float("nan"))
    return " ".join(parts) + f"; peak {peak:.0f} (minute:MiB, the most in that minute; #n: the n-th start of the bot)"


# ------------------------------------------------------------------------------ main


async def main_async(args: argparse.Namespace) -> None:
    per_guild = math.ceil(args.tables * 3 / 2) + 2
    config = StandInConfig(guilds=2, shape=GuildShape(channels=per_guild), latency=args.latency, keep_messages=60)
    with tempfile.TemporaryDirectory(prefix="soak-") as scratch:
        folder = Path(args.keep) if args.keep else Path(scratch)
        folder.mkdir(parents=True, exist_ok=True)
        async with StandIn(config) as standin:
            standin.recorder.keep_messages = True
            standin.faults.random.seed(args.seed + 2)
            soak = Soak(args, standin, folder)
            try:
                await soak.run()
            finally:
                if soak.bot is not None and soak.bot.process is not None and soak.bot.process.returncode is None:
                    await soak.bot.stop(timeout=10.0)
    if args.keep:
        print(f"(the database and the bot's logs are in {args.keep})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=float, default=10.0)
    parser.add_argument("--tables", type=int, default=10)
    parser.add_argument("--players", type=int, default=16)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--kill-every", type=float, default=150.0, help="seconds between SIGKILLs (about)")
    parser.add_argument("--time-scale", type=float, default=0.002, help="TIME_SCALE for the bot: game time shortened")
    parser.add_argument("--latency", type=float, default=0.03, help="seconds added to each REST answer")
    parser.add_argument("--keep", default=None, help="a folder to keep the database and the bot's logs in")
    args = parser.parse_args()
    if args.players < 2 or args.tables < 1:
        parser.error("at least 2 players and 1 table")
    asyncio.run(main_async(args))


if __name__ == "__main__":
    main()
