"""Where a jammed follower's mark goes on a crowded Carcassonne landscape (`_free_place`): the
nearest place touching no other mark, within the landscape. The search looks at thousands of
places a crowded board, so it is written out for speed; here it must pick the very place the
plain search picks (each place tried against every other mark with `_apart`), on random crowds
of marks: crowded, sparse, at the landscape's edges, with marks of several sizes."""
from __future__ import annotations

import random
from typing import Any

from renderers import carcassonne_landscape as landscape
from renderers.carcassonne_landscape import _apart, _free_place, _mark_extent, box

KINDS = ("road", "field", "cloister", "city")


def plain_free_place(mark: dict[str, Any], window: dict[str, Any],
                     others: list[tuple[float, float, float, float]]) -> tuple[float, float] | None:
    """The search as first written: every place in order, tried against every near mark."""
    size = window["size"]
    x0, y0, x1, y1 = box(mark)
    w, h = _mark_extent(mark)
    east = window["left"] + window["cols"] * size + min(window.get("room_right", 0), w)
    low_x, high_x = window["left"] + w + 2 - mark["x"], east - w - 2 - mark["x"]
    low_y = window["top"] + h + 2 - mark["y"]
    high_y = window["top"] + window["rows"] * size - h - 2 - mark["y"]
    near = [o for o in others if o[2] >= x0 - 190 and o[0] <= x1 + 190 and o[3] >= y0 - 190 and o[1] <= y1 + 190]
    beside: set[tuple[float, float]] = set()
    for o in near:
        for dx in (o[0] - 3 - x1, o[2] + 3 - x0):
            beside.update((dx, dy) for dy in (0, o[1] - y0, o[3] - y1))
        for dy in (o[1] - 3 - y1, o[3] + 3 - y0):
            beside.update((dx, dy) for dx in (0, o[0] - x0, o[2] - x1))
    for dx, dy in sorted(beside, key=lambda d: d[0] * d[0] + d[1] * d[1]) + landscape._AROUND:
        if not (low_x <= dx <= high_x and low_y <= dy <= high_y) or dx * dx + dy * dy > 180 * 180:
            continue
        if all(_apart((x0 + dx, y0 + dy, x1 + dx, y1 + dy), other) for other in near):
            return mark["x"] + dx, mark["y"] + dy
    return None


def crowd(rng: random.Random) -> tuple[dict[str, Any], dict[str, Any], list[tuple[float, float, float, float]]]:
    """A mark, the landscape it stands on and the boxes of the marks round it."""
    size = rng.choice((40, 56, 72, 96, 150))
    window = {"size": size, "left": rng.choice((20, 44.5)), "top": rng.choice((100, 131.25)),
              "cols": rng.randint(3, 12), "rows": rng.randint(3, 14), "room_right": rng.choice((0, 30))}

    def random_mark() -> dict[str, Any]:
        return {"kind": rng.choice(KINDS), "m": rng.choice((46, 56, 64.5, 72)), "count": rng.choice((1, 1, 2)),
                "x": window["left"] + rng.uniform(0, window["cols"] * size),
                "y": window["top"] + rng.uniform(0, window["rows"] * size)}

    mark = random_mark()
    crowded = rng.random() < 0.5
    others = []
    for _ in range(rng.randint(0, 60 if crowded else 12)):
        other = random_mark()
        if crowded:  # close round the mark
            other["x"] = mark["x"] + rng.uniform(-150, 150)
            other["y"] = mark["y"] + rng.uniform(-150, 150)
        others.append(box(other))
    return mark, window, others


def test_a_jammed_mark_goes_where_the_plain_search_puts_it():
    rng = random.Random(11)
    found = nowhere = 0
    for _ in range(400):
        mark, window, others = crowd(rng)
        place = _free_place(mark, window, others)
        assert place == plain_free_place(mark, window, others), (mark, window, others)
        found += place is not None
        nowhere += place is None
    assert found >= 100 and nowhere >= 10, (found, nowhere)  # both outcomes were tried
