"""The real bot as its own process (`python -m bot`), pointed at a stand-in Discord: started
with DISCORD_TOKEN, DATABASE_PATH and DISCORD_API_URL in its environment, its log read line by
line (ready is its "Logged in as" line), its memory read from /proc, stopped with SIGTERM (or
killed with SIGKILL, as a crash or the kernel's OOM killer would)."""
from __future__ import annotations

import asyncio
import os
import re
import signal
import sys
import tempfile
import time
from collections import deque
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
READY_LINE = re.compile(r"Logged in as ")
# Settings a developer's .env might hold that must not leak into a measured run.
CLEARED = ("DEV_GUILD_ID", "DATABASE_URL", "SHARD_COUNT", "SHARD_IDS", "BACKUP_DIR")


def rss_mib(pid: int) -> float:
    """The process's resident memory (VmRSS), MiB."""
    return _status_kib(pid, "VmRSS") / 1024


def peak_rss_mib(pid: int) -> float:
    """The most it was resident at any time (VmHWM), MiB."""
    return _status_kib(pid, "VmHWM") / 1024


def _status_kib(pid: int, field: str) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1])
    raise LookupError(field)


def cpu_seconds(pid: int) -> float:
    """User + system CPU time the process has used, seconds."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


class RssSampler:
    """The process's RSS every `every` seconds, to read it at moments found afterwards."""

    def __init__(self, pid: int, every: float = 0.1) -> None:
        self.pid = pid
        self.every = every
        self.samples: list[tuple[float, float]] = []  # (time.monotonic(), MiB)
        self._task = asyncio.create_task(self._run(), name="rss-sampler")

    async def _run(self) -> None:
        while True:
            try:
                self.samples.append((time.monotonic(), rss_mib(self.pid)))
            except (OSError, LookupError):
                return  # the process is gone
            await asyncio.sleep(self.every)

    def at(self, moment: float) -> float:
        """The first sample at or after `moment` (the last one if none is)."""
        for at, mib in self.samples:
            if at >= moment:
                return mib
        return self.samples[-1][1] if self.samples else float("nan")

    def peak(self) -> float:
        return max((mib for _, mib in self.samples), default=float("nan"))

    def stop(self) -> None:
        self._task.cancel()


class BotProcess:
    def __init__(self, *, api_url: str, token: str, database_path: str | Path, log_level: str = "INFO",
                 extra_env: dict[str, str] | None = None, log_path: str | Path | None = None,
                 keep_lines: int = 2000, module: tuple[str, ...] = ("bot",)) -> None:
        self.api_url = api_url
        self.token = token
        self.database_path = str(database_path)
        self.log_level = log_level
        self.extra_env = extra_env or {}
        self.log_path = Path(log_path) if log_path else None
        self.module = module  # what `python -m` runs: the bot, or the bot under bench.phases
        self.lines: deque[str] = deque(maxlen=keep_lines)
        self.process: asyncio.subprocess.Process | None = None
        self.started_at: float | None = None
        self.ready_at: float | None = None
        self.ready = asyncio.Event()
        self._watches: list[tuple[re.Pattern, asyncio.Future]] = []
        self._reader: asyncio.Task | None = None
        self._log_file = None
        self._folder = tempfile.TemporaryDirectory(prefix="standin-bot-")

    @property
    def pid(self) -> int:
        assert self.process is not None
        return self.process.pid

    def environment(self) -> dict[str, str]:
        env = {key: value for key, value in os.environ.items() if key not in CLEARED}
        env.update({
            "DISCORD_TOKEN": self.token, "DATABASE_PATH": self.database_path, "DISCORD_API_URL": self.api_url,
            "LOG_LEVEL": self.log_level,
            # A back-up at start-up would read the whole database while the figures are taken.
            "BACKUP_HOURS": "0", "PYTHONUNBUFFERED": "1",
            # The bot of this checkout, whichever checkout the environment was installed from.
            "PYTHONPATH": os.pathsep.join(filter(None, (str(REPO), os.environ.get("PYTHONPATH", "")))),
            **{name: "" for name in CLEARED},
        })
        env.update(self.extra_env)
        return env

    async def start(self) -> None:
        # The bot reads a .env from the folder it starts in and above: start it in an empty one.
        self.process = await asyncio.create_subprocess_exec(
            sys.executable, "-m", *self.module, cwd=self._folder.name, env=self.environment(),
            stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT, limit=2**20)
        self.started_at = time.monotonic()
        if self.log_path is not None:
            self._log_file = open(self.log_path, "w", encoding="utf-8")
        self._reader = asyncio.create_task(self._read(), name="bot-log")

    async def _read(self) -> None:
        assert self.process is not None and self.process.stdout is not None
        while line := await self.process.stdout.readline():
            text = line.decode("utf-8", "replace").rstrip("\n")
            self.lines.append(text)
            if self._log_file is not None:
                self._log_file.write(text + "\n")
            if self.ready_at is None and READY_LINE.search(text):
                self.ready_at = time.monotonic()
                self.ready.set()
            for pattern, future in list(self._watches):
                if not future.done() and pattern.search(text):
                    future.set_result(text)
        if self._log_file is not None:
            self._log_file.flush()

    def expect(self, pattern: str) -> asyncio.Future:
        """A future for the next log line matching `pattern`."""
        future = asyncio.get_running_loop().create_future()
        self._watches.append((re.compile(pattern), future))
        return future

    async def wait_ready(self, timeout: float = 120.0) -> float:
        """Seconds from start to the bot's "Logged in as" line."""
        waiter = asyncio.create_task(self.ready.wait())
        # The log ends when the process does.
        await asyncio.wait({waiter, self._reader}, timeout=timeout, return_when=asyncio.FIRST_COMPLETED)
        waiter.cancel()
        if not self.ready.is_set():
            tail = "\n".join(list(self.lines)[-30:])
            state = "exited" if self._reader.done() else "not ready"  # type: ignore[union-attr]
            raise RuntimeError(f"the bot {state} after {timeout:.0f} s; its log ends:\n{tail}")
        return self.ready_at - self.started_at  # type: ignore[operator]

    def rss_mib(self) -> float:
        return rss_mib(self.pid)

    def peak_rss_mib(self) -> float:
        return peak_rss_mib(self.pid)

    def errors(self) -> list[str]:
        """Log lines at ERROR or worse, and tracebacks' last lines."""
        return [line for line in self.lines
                if " ERROR " in line or " CRITICAL " in line or line.startswith("Traceback")]

    async def stop(self, timeout: float = 20.0) -> int | None:
        """SIGTERM (the bot stops cleanly), SIGKILL if it does not within `timeout`."""
        if self.process is None:
            self._folder.cleanup()
            return None
        if self.process.returncode is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                await asyncio.wait_for(self.process.wait(), timeout)
            except TimeoutError:
                self.process.kill()
                await self.process.wait()
        return await self._ended()

    async def kill(self) -> int | None:
        """SIGKILL: the process ends at once, nothing flushed or delivered (a crash)."""
        if self.process is None:
            self._folder.cleanup()
            return None
        if self.process.returncode is None:
            self.process.kill()
            await self.process.wait()
        return await self._ended()

    async def _ended(self) -> int | None:
        """After the process ended: its last log lines read, the log file closed."""
        assert self.process is not None
        if self._reader is not None:
            try:
                await asyncio.wait_for(self._reader, 5)
            except TimeoutError:
                self._reader.cancel()
        if self._log_file is not None:
            self._log_file.close()
            self._log_file = None
        self._folder.cleanup()
        return self.process.returncode

    async def __aenter__(self) -> BotProcess:
        await self.start()
        return self

    async def __aexit__(self, *exc) -> None:
        await self.stop()
