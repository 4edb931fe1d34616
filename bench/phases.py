"""Where the bot's CPU goes, by phase: a sampling profiler for the benches.

A thread wakes every `interval` seconds, reads how much CPU each other thread of the process
used since its last look (each thread's own CPU clock) and charges it to the phase that thread
is in now, judged from its stack: the innermost frame of a file that belongs to a phase decides
(library frames that serve whoever called them, such as Pillow, json or aiohttp, are looked
through). So the figures add up to the CPU the process used (less the sampler's own), and
drawing in the drawing thread or SQLite in aiosqlite's thread count where they run.

The main thread (the event loop's) is looked at differently where the system allows it (Linux):
a timer on its own CPU clock interrupts it every `interval` of CPU it uses, and the look is made
in the signal's handler, in the middle of whatever Python code it runs (`MainThreadClock`). A
look from the sampler's thread can only be made when the looked-at thread lets go of Python's
lock, and a thread running short bursts of Python between system calls (an event loop: a socket
written, a log line, a store call handed over) lets go of it mostly at those calls; such looks
charged the bursts before them to the calls (in a test, 85-99 % of a loop's CPU went to a write
that took 5 % of it). Other threads mostly wait in long C calls (Pillow, zlib, SQLite), where
a look from the sampler's thread finds them rightly.

Phases (PHASES, in this order): the store (reading and writing it: bot.storage, aiosqlite,
sqlite3), the engine (games/), drawing (renderers/), encoding the images (palette and PNG:
`renderers._png`, `_palette_image`, `renderers.common.encode_png(s)` and its bands, `to_palette`,
`quantized_piece`), building the messages (bot.delivery.content, presenter, i18n, bot.components,
bot.turns' planning, discord.ui), sending them (the delivery worker, discord.py's HTTP), discord.py's own handling of
the click and the gateway (the rest of discord/), the bot's move pipeline and commands (the rest
of bot/), logging, and the event loop with whatever else. Frames of the simulated Discord and of
the bench's players are "not the bot" and left out of the bot's figures.

    sampler = PhaseSampler(); sampler.start(); ...; sampler.stop(); sampler.totals()

`python -m bench.phases MODULE [ARGS]` runs a module (the bot: `-m bench.phases bot`) with a
sampler, which writes its running totals as JSON to $PHASES_OUT every quarter second (and its
seconds by deciding frame beside them, `where_path`), for a driver to read before and after a
measured window (`read_totals`, `difference`, `heaviest_lines`).
"""
from __future__ import annotations

import ctypes
import gc
import json
import os
import runpy
import signal
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from types import CodeType, FrameType
from typing import Any

REPO = str(Path(__file__).resolve().parents[1])

PHASES = ("store", "engine", "drawing", "encoding", "messages", "sending", "discord.py", "bot", "logging",
          "loop/other")
LABELS = {
    "store": "store (read/write)",
    "engine": "engine (games/)",
    "drawing": "drawing (renderers/)",
    "encoding": "encoding images",
    "messages": "building messages",
    "sending": "sending (worker, HTTP)",
    "discord.py": "discord.py click+gateway",
    "bot": "bot: move pipeline, rest",
    "logging": "logging",
    "loop/other": "event loop, other",
}
NOT_THE_BOT = "not the bot"

ENCODING = {("renderers/__init__.py", "_png"), ("renderers/__init__.py", "_palette_image"),
            ("renderers/common.py", "encode_pngs"), ("renderers/common.py", "to_palette"),
            ("renderers/common.py", "encode_png"), ("renderers/common.py", "palette_png"),
            ("renderers/common.py", "deflated_band"), ("renderers/common.py", "_bands"),
            ("renderers/common.py", "_scanlines"), ("renderers/common.py", "_chunk"),
            ("renderers/common.py", "band_key"), ("renderers/common.py", "_rows"), ("renderers/common.py", "get_all"),
            ("renderers/common.py", "quantized_piece")}
MESSAGES = ("bot/delivery/content.py", "bot/presenter.py", "bot/components.py", "bot/choices.py", "bot/turns.py",
            "bot/records.py", "bot/info.py", "bot/translator.py", "bot/locale.py", "i18n/")
SENDING = ("bot/delivery/", "discord/http.py", "discord/webhook/")
STORE = ("bot/storage/", "bot/delivery/storage.py", "bot/days/storage", "bot/league/storage", "bot/postgres.py",
         "bot/tournaments/storage")


def _relative(filename: str) -> str:
    """A file's path in its package's folder or the repository ("discord/http.py", "bot/moves.py")."""
    marker = "site-packages/"
    at = filename.find(marker)
    if at >= 0:
        return filename[at + len(marker):]
    if filename.startswith(REPO):
        return filename[len(REPO) + 1:]
    return filename


def classify(code: CodeType) -> str | None:
    """The phase a frame of `code` puts its thread in, or None to look at its caller."""
    path = _relative(code.co_filename)
    if (path, code.co_name) in ENCODING:
        return "encoding"
    if path.startswith(("simcord/", "tests/", "bench/")) or "/simcord/" in path:
        return NOT_THE_BOT
    if path.startswith("renderers/"):
        return "drawing"
    if path.startswith("games/"):
        return "engine"
    if path.startswith(STORE) or path.startswith(("aiosqlite/", "sqlite3/", "asyncpg/")) or "/sqlite3/" in path:
        return "store"
    if path.startswith(MESSAGES) or path.startswith(("discord/ui/", "discord/file.py", "discord/embeds.py")):
        return "messages"
    if path.startswith(SENDING):
        return "sending"
    if path.startswith("discord/"):
        return "discord.py"
    if path.startswith("bot/"):
        return "bot"
    if "/logging/" in path:
        return "logging"
    if "/asyncio/" in path or path.endswith("/selectors.py"):
        return "loop/other"  # the event loop's own work, and what asyncio does for its callers
    return None  # a library working for its caller (Pillow, json, aiohttp, the standard library)


IDLE = {("selectors.py", "select"), ("threading.py", "wait"), ("queue.py", "get"),
        ("concurrent/futures/thread.py", "_worker")}
"""Top frames of a thread that waits (for the event loop's sockets, a lock, a queue)."""


@contextmanager
def collections_held() -> Iterator[None]:
    """No automatic garbage collection inside: for reading other threads' frames safely.

    Python 3.11 makes a frame object for another thread's frame (`sys._current_frames()`, each
    `f_back`) from a pointer to that frame taken before it allocates the object; the allocation
    can start a collection, which runs Python code (`gc.callbacks`, finalizers) that hands the
    GIL to other threads; a thread that returns from that frame meanwhile leaves the new frame
    object tied to freed memory, and the next read of it crashes the process (SIGSEGV) or
    hands back a wrong caller. Without collections nothing runs inside those allocations.
    Collections due meanwhile happen at the first allocation after."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


class _Sigevent(ctypes.Structure):
    """Linux's `struct sigevent` with the thread to signal (`SIGEV_THREAD_ID`)."""
    _fields_ = [("value", ctypes.c_void_p), ("signo", ctypes.c_int), ("notify", ctypes.c_int),
                ("thread_id", ctypes.c_int), ("padding", ctypes.c_int * 11)]


class _Timespec(ctypes.Structure):
    _fields_ = [("seconds", ctypes.c_long), ("nanoseconds", ctypes.c_long)]


class _Itimerspec(ctypes.Structure):
    _fields_ = [("interval", _Timespec), ("value", _Timespec)]


SIGEV_THREAD_ID = 4
CLOCK_THREAD_CPUTIME_ID = 3  # the calling thread's CPU clock


class MainThreadClock:
    """A SIGPROF each `interval` of the main thread's own CPU, handled in the main thread: the
    handler gets the frame it interrupted. Only while the main thread uses CPU, so an idle
    event loop is not woken. `start` says whether the system has such timers (Linux)."""

    def __init__(self, interval: float, handler: Any) -> None:
        self.interval = interval
        self.handler = handler
        self._timer = ctypes.c_void_p()
        self._previous: Any = None
        self._libc: Any = None

    def start(self) -> bool:
        if threading.current_thread() is not threading.main_thread() or not sys.platform.startswith("linux"):
            return False
        try:
            libc = ctypes.CDLL(None, use_errno=True)
            create, arm = libc.timer_create, libc.timer_settime
        except (OSError, AttributeError):
            return False
        event = _Sigevent(signo=signal.SIGPROF, notify=SIGEV_THREAD_ID, thread_id=threading.get_native_id())
        if create(CLOCK_THREAD_CPUTIME_ID, ctypes.byref(event), ctypes.byref(self._timer)) != 0:
            return False
        self._libc = libc
        self._previous = signal.signal(signal.SIGPROF, self.handler)
        signal.siginterrupt(signal.SIGPROF, False)  # system calls it interrupts go on
        seconds, fraction = divmod(self.interval, 1.0)
        every = _Timespec(int(seconds), int(fraction * 1e9))
        arm(self._timer, 0, ctypes.byref(_Itimerspec(every, every)), None)
        return True

    def stop(self) -> None:
        if self._libc is None:
            return
        self._libc.timer_delete(self._timer)
        self._libc = None
        signal.signal(signal.SIGPROF, self._previous if self._previous is not None else signal.SIG_DFL)


OTHER_THREADS_EVERY = 0.004
"""How often the sampler's thread looks at the other threads once the main thread looks at itself:
each look takes Python's lock from the main thread at its next system call, which costs it some
3 µs of CPU there (charged to that call); its drawing and store threads wait in long C calls,
where looks this far apart still find them often enough (60 a block)."""


class PhaseSampler:
    """Samples the process's other threads (see the module). Each look notes the phase every
    thread that does not wait is in; every `block` seconds each thread's CPU of that block is
    shared out over the phases its looks found it in. (Charging a whole block to where a thread
    is at the moment of a look would charge the work of its short bursts to the wait after them.)
    While sampling, threads hand over Python's lock every 100 µs at most, so a look lands in the
    middle of a burst of Python code rather than at its end. The main thread's looks are made by
    `MainThreadClock` where it works (see the module), the sampler's thread leaving it alone."""

    def __init__(self, interval: float = 0.001, block: float = 0.25) -> None:
        self.interval = interval
        self.block = block
        self.seconds: dict[str, float] = {phase: 0.0 for phase in (*PHASES, NOT_THE_BOT)}
        self.samples = 0
        self.missed = 0  # looks at a thread given up (its stack changed while it was read)
        self.where: dict[tuple[str, CodeType | None], float] = {}  # (phase, the frame that decided it) -> s
        self._kinds: dict[CodeType, str | None] = {}
        self._idle: dict[CodeType, bool] = {}
        self._clocks: dict[int, tuple[int, float]] = {}  # thread id -> (clock id, CPU seconds at the last block)
        self._seen: dict[int, dict[tuple[str, CodeType | None], int]] = {}  # thread id -> looks per (phase, frame)
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()
        self._switch = sys.getswitchinterval()
        self._own = 0.0
        self.on_block = None  # called by the sampler's thread after each block (the wrapper's dumps)
        self._main = threading.main_thread().ident
        self._main_clock = MainThreadClock(interval, self._look_at_main)
        self._by_clock = False  # the main thread looked at by its clock's signal (`by_clock`)
        self._main_seen: dict[tuple[str, CodeType | None], int] = {}
        self._main_own = 0.0  # CPU of the looks made in the main thread
        self._main_own_shared = 0.0

    def start(self) -> PhaseSampler:
        self._switch = sys.getswitchinterval()
        sys.setswitchinterval(float(os.environ.get("PHASES_SWITCH", "0.0001")))
        self._share(skip=None)  # each thread's CPU so far is not counted
        self._by_clock = self._main_clock.start()
        self._thread = threading.Thread(target=self._run, name="phase-sampler", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        self._main_clock.stop()
        self._stop.set()
        if self._thread is not None:
            self._thread.join()
        sys.setswitchinterval(self._switch)

    @property
    def by_clock(self) -> bool:
        """Whether the main thread is looked at by its own CPU clock (see the module)."""
        return self._by_clock

    def own_seconds(self) -> float:
        """The sampler's own CPU so far (not in the totals), the looks made in the main thread too."""
        return self._own + self._main_own

    def _look_at_main(self, signum: int, frame: FrameType | None) -> None:
        """A look at the main thread, from inside it (`MainThreadClock`'s signal)."""
        started = time.thread_time()
        found = self._phase(frame)
        if found is not None:
            seen = self._main_seen
            seen[found] = seen.get(found, 0) + 1
        self._main_own += time.thread_time() - started

    def _run(self) -> None:
        me = threading.get_ident()
        clock = time.pthread_getcpuclockid(me)
        shared = time.monotonic()
        while True:
            stopping = self._stop.wait(max(self.interval, OTHER_THREADS_EVERY) if self._by_clock else self.interval)
            self._look(skip=me)
            if stopping or time.monotonic() - shared >= self.block:
                self._share(skip=me)
                shared = time.monotonic()
                self._own = time.clock_gettime(clock)
                if self.on_block is not None:
                    try:
                        self.on_block()
                    except OSError:  # the totals are written again a block later
                        pass
            if stopping:
                return

    def _phase(self, frame: FrameType | None) -> tuple[str, CodeType | None] | None:
        """The phase of a stack and the code of the frame that decided it; None if it waits."""
        if frame is None:
            return None
        top = frame.f_code
        idle = self._idle.get(top)
        if idle is None:
            path = _relative(top.co_filename)
            idle = self._idle[top] = any(path.endswith(name) and top.co_name == function for name, function in IDLE)
        if idle:
            return None
        while frame is not None:
            code = frame.f_code
            try:
                kind = self._kinds[code]
            except KeyError:
                kind = self._kinds[code] = classify(code)
            if kind is not None:
                return kind, code
            frame = frame.f_back
        return "loop/other", top

    def _look(self, skip: int) -> None:
        with self._lock:
            with collections_held():
                frames = sys._current_frames()
                for ident, frame in frames.items():
                    if ident == skip or (self._by_clock and ident == self._main):
                        continue
                    try:
                        found = self._phase(frame)
                    except Exception:  # noqa: BLE001 - a walk that failed: no look (never seen since
                        self.missed += 1  # the collections are held: `collections_held`)
                        continue
                    if found is not None:
                        seen = self._seen.setdefault(ident, {})
                        seen[found] = seen.get(found, 0) + 1
            self.samples += 1

    def _share(self, skip: int | None) -> None:
        """Each thread's CPU since the last block, shared over the phases its looks found."""
        with self._lock:
            with collections_held():
                idents = list(sys._current_frames())
            for ident in idents:
                if ident == skip:
                    continue
                known = self._clocks.get(ident)
                try:
                    used = time.clock_gettime(known[0]) if known else None
                except OSError:  # a thread that ended, its id now another's
                    known, used = None, None
                if used is None:
                    try:
                        clock = time.pthread_getcpuclockid(ident)
                        used = time.clock_gettime(clock)
                    except (OSError, OverflowError):
                        continue
                    # A thread first seen now: what it used before counts only if it started
                    # after the sampler (its first block).
                    known = (clock, used if skip is None else 0.0)
                spent = used - known[1]
                self._clocks[ident] = (known[0], used)
                if ident == self._main:
                    # The looks the main thread made itself are the sampler's CPU, not the bot's.
                    own, self._main_own_shared = self._main_own - self._main_own_shared, self._main_own
                    spent = max(0.0, spent - own)
                    if self._by_clock:
                        # Its signal adds to a new dict from here on (a look under way may still
                        # count in this one).
                        self._seen[ident], self._main_seen = self._main_seen, {}
                seen = self._seen.pop(ident, None) or {("loop/other", None): 1}
                looks = sum(seen.values())
                for (phase, code), count in seen.items():
                    part = spent * count / looks
                    self.seconds[phase] += part
                    self.where[(phase, code)] = self.where.get((phase, code), 0.0) + part

    def heaviest(self, count: int = 25) -> list[tuple[str, str, float]]:
        """The frames that decided the most CPU: (phase, file:function, seconds)."""
        with self._lock:
            ranked = sorted(self.where.items(), key=lambda item: -item[1])[:count]
        return [(phase, f"{_relative(code.co_filename)}:{code.co_name}" if code else "?", seconds)
                for (phase, code), seconds in ranked]

    def totals(self) -> dict[str, float]:
        with self._lock:
            return dict(self.seconds)

    def where_totals(self) -> dict[str, float]:
        """Seconds so far by the frame that decided them, keyed "phase file:function" (for a
        driver to take differences of, like `totals`)."""
        with self._lock:
            return {f"{phase} {_relative(code.co_filename)}:{code.co_name}" if code else f"{phase} ?": seconds
                    for (phase, code), seconds in self.where.items()}


def bot_seconds(totals: dict[str, float]) -> float:
    return sum(totals.get(phase, 0.0) for phase in PHASES)


def difference(after: dict[str, float], before: dict[str, float]) -> dict[str, float]:
    return {phase: after.get(phase, 0.0) - before.get(phase, 0.0) for phase in after}


def where_path(out: str | Path) -> str:
    """Where a sampled process writes its seconds by deciding frame, beside its totals."""
    return f"{out}.where"


def heaviest_lines(where: dict[str, float], moves: int, count: int) -> list[str]:
    """The `count` frames that decided the most CPU in `where` (a difference of two
    `where_totals`), in ms per move."""
    ranked = sorted(where.items(), key=lambda item: -item[1])[:count]
    return [f"  {seconds * 1000 / max(moves, 1):6.2f}  {name}" for name, seconds in ranked]


def read_totals(path: str | Path) -> dict[str, float]:
    """The running totals a sampled process wrote last (empty if none yet)."""
    try:
        return json.loads(Path(path).read_text())
    except (OSError, ValueError):
        return {}


def table(columns: list[tuple[str, dict[str, float], int]]) -> str:
    """A table of ms of CPU per move by phase: `columns` are (heading, totals in seconds, moves)."""
    width = max(len(label) for label in LABELS.values())
    lines = [f"  {'ms of CPU per move':<{width}}" + "".join(f"{heading:>15}" for heading, _, _ in columns)]
    for phase in PHASES:
        lines.append(f"  {LABELS[phase]:<{width}}" + "".join(
            f"{totals.get(phase, 0.0) * 1000 / max(moves, 1):15.1f}" for _, totals, moves in columns))
    lines.append(f"  {'the bot in all':<{width}}" + "".join(
        f"{bot_seconds(totals) * 1000 / max(moves, 1):15.1f}" for _, totals, moves in columns))
    return "\n".join(lines)


def _run_module() -> None:
    """`python -m bench.phases MODULE [ARGS]`: the module run as __main__ under a sampler."""
    if len(sys.argv) < 2 or sys.argv[1] in ("-h", "--help"):
        raise SystemExit("usage: python -m bench.phases MODULE [ARGS]  (the module run as __main__ under the sampler)")
    out = os.environ.get("PHASES_OUT")
    sampler = PhaseSampler(float(os.environ.get("PHASES_INTERVAL", "0.001"))).start()
    if out:
        def dump() -> None:
            Path(out + ".tmp").write_text(json.dumps({**sampler.totals(), "sampler": sampler.own_seconds()}))
            os.replace(out + ".tmp", out)
            Path(out + ".where.tmp").write_text(json.dumps(sampler.where_totals()))
            os.replace(out + ".where.tmp", where_path(out))
            # The drawing caches' hits, once the bot drew. The module may be in sys.modules while
            # the bot's thread is still importing it, its functions not yet defined.
            kept_figures = getattr(sys.modules.get("renderers.common"), "kept_figures", None)
            if kept_figures is not None:
                Path(out + ".kept.tmp").write_text(json.dumps(kept_figures()))
                os.replace(out + ".kept.tmp", out + ".kept")

        sampler.on_block = dump
    module = sys.argv[1]
    sys.argv = sys.argv[1:]
    try:
        runpy.run_module(module, run_name="__main__", alter_sys=True)
    finally:
        # The clock's signals must end first: at exit Python gives SIGPROF back its default,
        # which ends the process ("Profiling timer expired") instead of letting it exit.
        sampler.stop()


if __name__ == "__main__":
    _run_module()
