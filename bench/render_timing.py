"""Shared by the render benchmarks: time a renderer on one view."""
from __future__ import annotations

import statistics
import time
from dataclasses import dataclass
from typing import Callable

from renderers import render_png


@dataclass(frozen=True)
class RenderFigures:
    render_ms: float  # median time of the game's render() (drawing only)
    png_ms: float     # median time of render_png() (drawing and PNG encoding)
    png_bytes: int


def time_renders(render: Callable, view: dict, names: list[str], runs: int) -> RenderFigures:
    render(view, names)  # warm up fonts and palettes
    render_times, png_times, sizes = [], [], []
    for _ in range(runs):
        start = time.perf_counter()
        render(view, names)
        render_times.append(time.perf_counter() - start)
        start = time.perf_counter()
        png = render_png(view, names)
        png_times.append(time.perf_counter() - start)
        sizes.append(len(png))
    return RenderFigures(statistics.median(render_times) * 1000, statistics.median(png_times) * 1000,
                         int(statistics.median(sizes)))
