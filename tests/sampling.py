"""Exhaustive tests and the sample the suite runs by default.

Some tests play many whole games (every seed, every number of players, whole games under a
failing Discord). By default they play a sample, so the suite stays under ten minutes on a
2-core machine; `python -m pytest --exhaustive` plays them all (before a release, or after a
change to an engine or to the move pipeline).
"""
from __future__ import annotations

_exhaustive = False


def set_exhaustive(value: bool) -> None:
    global _exhaustive
    _exhaustive = value


def exhaustive() -> bool:
    """Whether this run plays every case (`--exhaustive`), not the default sample."""
    return _exhaustive


def sample(cases, every: int):
    """Every case with --exhaustive, else every `every`-th one (the first always among them)."""
    cases = list(cases)
    return cases if _exhaustive else cases[::every]
