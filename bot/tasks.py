"""Work done in one task a key (a game's deliveries, a kept message, a tournament's rounds): a
kick while the key's task is under way asks it for one more pass instead of starting another."""
from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine, Iterable
from typing import Any, TypeVar

K = TypeVar("K")


def start_or_again(tasks: dict[K, asyncio.Task[Any]], again: set[K], key: K,
                   run: Callable[[K], Coroutine[Any, Any, None]], name: str) -> asyncio.Task[Any] | None:
    """Start `run(key)` as the key's task in `tasks`; while one is under way, put the key in
    `again` (its loop looks there before it ends) and return that task."""
    task = tasks.get(key)
    if task is not None and not task.done():
        again.add(key)
        return task
    tasks[key] = asyncio.get_running_loop().create_task(run(key), name=name)
    return None


async def cancel_all(tasks: Iterable[asyncio.Task[Any] | None]) -> None:
    """Cancel the tasks (None: no task) and wait until each has ended."""
    started = [task for task in tasks if task is not None]
    for task in started:
        task.cancel()
    await asyncio.gather(*started, return_exceptions=True)
