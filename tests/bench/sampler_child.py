"""A process sampled by bench.phases while collections hand the GIL to other threads (as
bench/bot_moves.py's `gc.callbacks` do), for tests/bench/test_phases.py: it prints the sampler's
figures as JSON, or dies (SIGSEGV) if the sampler reads a frame another thread has left.

    python -m tests.bench.sampler_child SECONDS
"""
from __future__ import annotations

import gc
import json
import random
import sys
import threading
import time

from bench.phases import NOT_THE_BOT, PhaseSampler


def hand_over(phase: str, info: dict) -> None:
    time.sleep(0)  # inside a collection: another thread runs and returns from its frames


def allocate(count: int) -> int:
    return len([[index] for index in range(count)])  # objects a collection follows: collections


def few_locals(depth: int, rng: random.Random) -> int:
    if depth == 0:
        return allocate(30)
    return (many_locals if rng.random() < 0.5 else few_locals)(depth - 1, rng) + 1


def many_locals(depth: int, rng: random.Random) -> int:
    a = b = c = d = e = f = g = h = depth  # a frame of another size where a caller's was
    if depth == 0:
        return allocate(10)
    return (few_locals if rng.random() < 0.5 else many_locals)(depth - 1, rng) + a + b + c + d + e + f + g + h


def work(stop: threading.Event, seed: int) -> None:
    rng = random.Random(seed)
    while not stop.is_set():
        few_locals(rng.randint(1, 20), rng)


def main(seconds: float) -> None:
    gc.callbacks.append(hand_over)
    gc.set_threshold(50)
    stop = threading.Event()
    workers = [threading.Thread(target=work, args=(stop, seed)) for seed in range(3)]
    for worker in workers:
        worker.start()
    sampler = PhaseSampler(interval=0.0002).start()
    work_until = time.monotonic() + seconds
    rng = random.Random(99)
    while time.monotonic() < work_until:
        few_locals(rng.randint(1, 20), rng)
    stop.set()
    for worker in workers:
        worker.join()
    sampler.stop()
    gc.callbacks.remove(hand_over)
    print(json.dumps({"samples": sampler.samples, "missed": sampler.missed,
                      "not_the_bot": sampler.totals()[NOT_THE_BOT]}))


if __name__ == "__main__":
    main(float(sys.argv[1]))
