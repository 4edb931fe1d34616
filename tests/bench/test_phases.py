"""bench.phases' sampler reads the other threads' stacks without ever crashing the process."""
from __future__ import annotations

import gc
import json
import subprocess
import sys
from pathlib import Path

from bench.phases import collections_held

REPO = Path(__file__).resolve().parents[2]


def test_sampling_survives_collections_that_hand_the_gil_to_other_threads():
    # Reading frames unguarded, such a process died with SIGSEGV within a second, every time.
    child = subprocess.run([sys.executable, "-m", "tests.bench.sampler_child", "2"], cwd=REPO,
                           capture_output=True, text=True, timeout=120)
    assert child.returncode == 0, child.stderr[-3000:]
    figures = json.loads(child.stdout)
    assert figures["samples"] > 0
    assert figures["missed"] == 0  # no walk of a stack went wrong
    assert figures["not_the_bot"] > 0  # the busy threads were seen (their frames are the tests')


def test_collections_held_restores_what_it_found():
    assert gc.isenabled()
    with collections_held():
        assert not gc.isenabled()
    assert gc.isenabled()
    gc.disable()
    try:
        with collections_held():
            assert not gc.isenabled()
        assert not gc.isenabled()  # left off as someone else wanted it
    finally:
        gc.enable()
