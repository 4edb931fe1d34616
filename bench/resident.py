"""This process's resident memory, as the benches that measure the bot in-process print it."""
from __future__ import annotations

from pathlib import Path


def rss_mib() -> float:
    """VmRSS of this process, MiB (NaN where /proc does not tell it)."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")
