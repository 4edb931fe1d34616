"""A main thread that runs short bursts of Python between system calls (as an event loop does),
sampled by bench.phases, for tests/bench/test_phases.py: it prints as JSON whether the main
thread was looked at by its own CPU clock, and the share of its CPU charged to the bursts and
to the calls.

    python -m tests.bench.sampler_bursts_child SECONDS
"""
from __future__ import annotations

import json
import os
import sys
import time

from bench.phases import PhaseSampler

NULL = os.open(os.devnull, os.O_WRONLY)


def burst() -> int:
    total = 0
    for index in range(500):  # some 20-30 µs of Python
        total += index * index
    return total


def system_call() -> None:
    os.write(NULL, b"-" * 100)  # lets go of Python's lock, a µs or two of CPU


def main(seconds: float) -> None:
    sampler = PhaseSampler().start()
    until = time.monotonic() + seconds
    while time.monotonic() < until:
        burst()
        system_call()
    sampler.stop()
    by_function: dict[str, float] = {}
    for (_, code), spent in sampler.where.items():
        if code is not None:
            by_function[code.co_name] = by_function.get(code.co_name, 0.0) + spent
    total = sum(by_function.values()) or 1.0
    print(json.dumps({"by_clock": sampler.by_clock, "burst": by_function.get("burst", 0.0) / total,
                      "system_call": by_function.get("system_call", 0.0) / total}))


if __name__ == "__main__":
    main(float(sys.argv[1]))
