"""Where a jammed follower's mark goes on a crowded Carcassonne landscape (`_free_place`): the
nearest place touching no other mark, within the landscape. The search looks at thousands of
places a crowded board, so its test of each place is written out for speed; here it must pick
the very place the plain test picks (each place tried against every near mark with `_apart`), on
random crowds of marks: crowded, sparse, at the landscape's edges, marks of several sizes."""
from __future__ import annotations

import random
from typing import Any

from renderers.carcassonne_landscape import _apart, _free_place, box, places_round

KINDS = ("road", "field", "cloister", "city")


def plain_free_place(mark: dict[str, Any], window: dict[str, Any],
                     others: list[tuple[float, float, float, float]]) -> tuple[float, float] | None:
    """The search as first written: the places in order, each tried against every near mark."""
    (x0, y0, x1, y1), near, places = places_round(mark, window, others)
    for dx, dy in places:
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
