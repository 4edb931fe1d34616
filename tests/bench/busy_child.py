"""A main thread that uses some CPU and then exits, for tests/bench/test_phases.py to run under
`python -m bench.phases` (the sampler's timer on the main thread's CPU clock armed all along).

    python -m bench.phases tests.bench.busy_child SECONDS
"""
from __future__ import annotations

import sys
import time

# What the process frees at exit costs CPU after Python gave SIGPROF back its default.
HELD = [{"index": index, "text": str(index)} for index in range(200_000)]

deadline = time.process_time() + float(sys.argv[1])
while time.process_time() < deadline:
    pass
print("done")
