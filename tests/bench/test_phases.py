"""bench.phases' sampler reads the other threads' stacks without ever crashing the process."""
from __future__ import annotations

import gc
import json
import subprocess
import sys
from pathlib import Path

import pytest

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


def test_the_main_threads_cpu_is_charged_to_the_code_that_used_it():
    # Looked at from the sampler's thread, nearly all of it went to the system call after each
    # burst of Python (where the main thread lets go of Python's lock), which costs a tenth of it.
    child = subprocess.run([sys.executable, "-m", "tests.bench.sampler_bursts_child", "1.5"], cwd=REPO,
                           capture_output=True, text=True, timeout=120)
    assert child.returncode == 0, child.stderr[-3000:]
    shares = json.loads(child.stdout)
    if not shares["by_clock"]:
        pytest.skip("this system has no timers on a thread's CPU clock (Linux's timer_create)")
    assert shares["burst"] > 0.6, shares
    assert shares["system_call"] < 0.3, shares


def test_a_module_run_under_the_sampler_exits_as_it_would_alone():
    # With the main thread's clock still armed at exit, its next signal found SIGPROF's default
    # action again and ended the process ("Profiling timer expired", exit status 155).
    child = subprocess.run([sys.executable, "-m", "bench.phases", "tests.bench.busy_child", "0.2"], cwd=REPO,
                           capture_output=True, text=True, timeout=120)
    assert child.returncode == 0, child.stderr[-3000:]
    assert child.stdout.strip() == "done"


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
