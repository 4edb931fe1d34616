"""What the store's work costs in aiosqlite's thread, statement by statement: every statement,
BEGIN IMMEDIATE and COMMIT of the store's batches (`bot.storage.database._batch_here`) and every
other call handed to that thread, each timed with the thread's own CPU clock; and the thread's
CPU in all, whose rest is the hand-overs themselves (taking the call off the queue, waking the
event loop through its self-pipe, taking Python's lock back). A game's reads are made on the event
loop's own thread (`Database.held_reads`): their statements are timed the same way, and counted
apart. `bench/bot_moves.py --statements` prints it per move.

Timing costs some 1 us a statement, which the figures include.
"""
from __future__ import annotations

import re
import threading
import time
from collections import defaultdict
from collections.abc import Sequence
from typing import Any

from aiosqlite.core import Connection

import bot.storage.database as database

TRANSACTION = ("BEGIN IMMEDIATE", "COMMIT")


def statement_name(sql: str) -> str:
    """A statement's SQL on one line, as far as it tells statements apart in a table."""
    return re.sub(r"\s+", " ", sql).strip()[:110]


def worker_seconds() -> float:
    """The CPU that aiosqlite's threads (one a connection) have used so far."""
    seconds = 0.0
    for thread in threading.enumerate():
        if "_connection_worker_thread" in thread.name and thread.ident is not None:
            try:
                seconds += time.clock_gettime(time.pthread_getcpuclockid(thread.ident))
            except (OSError, ProcessLookupError):  # the thread ended meanwhile
                pass
    return seconds


def _in_worker() -> bool:
    return "_connection_worker_thread" in threading.current_thread().name


class StatementTimes:
    """Times the store's statements in aiosqlite's thread from `start` to `stop` (see the
    module's docstring). Replaces `_batch_here` and `Connection._execute` until `close`."""

    def __init__(self) -> None:
        self.counts: defaultdict[str, int] = defaultdict(int)
        self.seconds: defaultdict[str, float] = defaultdict(float)
        self.calls = 0
        self.worker = 0.0  # the threads' CPU between start and stop
        self.here = 0.0  # the statements' CPU on the event loop's thread (a game's reads)
        self.here_batches = 0
        self.timing = False
        self._batch_here = database._batch_here
        self._execute = Connection._execute
        self._worker_before = 0.0
        times = self

        def timed_batch(connection: Any, statements: Sequence[database.Write], transaction: bool,
                        guarded: bool) -> list[database.Answer] | None:
            # `_batch_here`'s steps, each timed (the same statements in the same order).
            if times.timing and not _in_worker():
                times.here_batches += 1
            if transaction:
                times._run(connection, "BEGIN IMMEDIATE", ())
            try:
                answers = []
                for sql, params in statements:
                    answers.append(times._run(connection, sql, params))
                    if guarded and len(answers) == 1 and answers[0].rowcount != 1:
                        if transaction:
                            connection.execute("ROLLBACK")
                        return None
                if transaction:
                    times._run(connection, "COMMIT", ())
                return answers
            except BaseException:
                if transaction and connection.in_transaction:
                    connection.execute("ROLLBACK")
                raise

        async def timed_execute(connection: Connection, fn: Any, *args: Any, **kwargs: Any) -> Any:
            if not times.timing:
                return await times._execute(connection, fn, *args, **kwargs)
            times.calls += 1
            if fn is timed_batch:
                return await times._execute(connection, fn, *args, **kwargs)
            name = statement_name(args[0]) if args and isinstance(args[0], str) else getattr(fn, "__name__", "?")

            def timed(*call_args: Any, **call_kwargs: Any) -> Any:
                started = time.thread_time()
                try:
                    return fn(*call_args, **call_kwargs)
                finally:
                    times.seconds[name] += time.thread_time() - started
                    times.counts[name] += 1

            return await times._execute(connection, timed, *args, **kwargs)

        database._batch_here = timed_batch
        Connection._execute = timed_execute

    def _run(self, connection: Any, sql: str, params: tuple[Any, ...]) -> database.Answer:
        started = time.thread_time()
        cursor = connection.execute(sql, params)
        answer = database.Answer(cursor.fetchall(), cursor.rowcount)
        if self.timing:
            name = statement_name(sql)
            spent = time.thread_time() - started
            self.seconds[name] += spent
            self.counts[name] += 1
            if not _in_worker():
                self.here += spent
        return answer

    def start(self) -> None:
        self.timing = True
        self._worker_before = worker_seconds()

    def stop(self) -> None:
        self.timing = False
        self.worker = worker_seconds() - self._worker_before

    def close(self) -> None:
        database._batch_here = self._batch_here
        Connection._execute = self._execute

    def lines(self, moves: int, most: int = 25) -> list[str]:
        """The figures per move: the thread's CPU, its parts, and the dearest statements."""
        timed = sum(self.seconds.values()) - self.here  # in aiosqlite's thread
        transactions = sum(self.seconds[name] for name in TRANSACTION)
        reads = sum(seconds for name, seconds in self.seconds.items() if name.upper().startswith("SELECT"))
        reads -= self.here
        counted = sum(count for name, count in self.counts.items() if name not in TRANSACTION)
        lines = [
            f"  aiosqlite's thread: {self.worker * 1000 / moves:.2f} ms of CPU per move: BEGIN and COMMIT "
            f"{transactions * 1000 / moves:.2f} ({self.counts['COMMIT'] / moves:.2f} transactions), "
            f"statements {(timed - transactions) * 1000 / moves:.2f} (reads "
            f"{reads * 1000 / moves:.2f}), the {self.calls / moves:.1f} hand-overs themselves "
            f"{(self.worker - timed) * 1000 / moves:.2f}",
            f"  the event loop's thread: {self.here_batches / moves:.1f} reads of a game per move, "
            f"{self.here * 1000 / moves:.2f} ms of CPU; {counted / moves:.1f} statements per move in all",
            "  us of CPU per move, statements per move, us each (in either thread):",
        ]
        for name in sorted(self.seconds, key=lambda name: -self.seconds[name])[:most]:
            lines.append(f"    {self.seconds[name] * 1e6 / moves:7.0f} {self.counts[name] / moves:6.2f} "
                         f"{self.seconds[name] * 1e6 / self.counts[name]:6.0f}  {name}")
        return lines
