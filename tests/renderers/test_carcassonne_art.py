"""Carcassonne's tile art is drawn from the engine's tile data (cities, roads, pennants,
cloisters, robber and crop-circle marks land where the data puts them, in every rotation), and
the score track of the robber step shows every figure's numbered chip even when all share a
space."""
from __future__ import annotations

import pytest

from games import REGISTRY
from games.carcassonne.data import ORIENTED, TILES
from renderers import carcassonne as board
from renderers import carcassonne_tiles as art
from renderers.carcassonne import render
from renderers.carcassonne_tiles import tile_image
from renderers.common import MIN_TEXT, SEAT_COLOURS, overlapping_texts, recording_texts

GAME = REGISTRY["carcassonne"]
NAMES = ["Anna", "王小明", "さくら", "Bartholomäus der Zögerliche von Irgendwo", "Дмитрий"]
SIZE = 160


def near(colour, wanted, tolerance=30) -> bool:
    return all(abs(a - b) <= tolerance for a, b in zip(colour, wanted))


def colours_of(image) -> dict[tuple[int, int, int], int]:
    return {c: n for n, c in image.getcolors(SIZE * SIZE)}


@pytest.mark.parametrize("code", sorted(TILES))
def test_every_side_shows_what_the_tile_data_says_in_every_rotation(code):
    for rot in range(4):
        edges = ORIENTED[(code, rot)].edges
        image = tile_image(code, rot, SIZE)
        for side, (u, v) in enumerate(art.SIDE_MID):
            # a little inside the tile, in the middle of the side
            x = min(SIZE - 1, max(0, round(u * SIZE + (0.5 - u) * SIZE * 0.06)))
            y = min(SIZE - 1, max(0, round(v * SIZE + (0.5 - v) * SIZE * 0.06)))
            pixel = image.getpixel((x, y))
            wanted = {"C": art.CITY_FILL, "R": art.ROAD, "F": art.FIELD}[edges[side]]
            assert near(pixel, wanted), (code, rot, "NESW"[side], pixel, edges)


@pytest.mark.parametrize("code", sorted(TILES))
def test_pennants_cloisters_robbers_and_crop_circle_are_drawn_where_the_data_has_them(code):
    tile = TILES[code]
    colours = colours_of(tile_image(code, 0, SIZE))

    def shows(wanted, tolerance=12) -> bool:
        return sum(n for c, n in colours.items() if near(c, wanted, tolerance)) >= 20  # more than a smoothed edge

    assert shows(art.PENNANT) == any(seg.pennant for seg in tile.segments), "blue shield iff a pennant"
    assert shows(art.CLOISTER) == any(seg.kind == "cloister" for seg in tile.segments), "chapel roof iff cloister"
    assert shows(art.ROBBER_MARK) == tile.robber, "robber mask iff robber tile"
    assert shows(art.CROP) == tile.crop_circle, "crop circle iff the crop-circle tile"
    walled = any(seg.kind == "city" and len(seg.ports) < 4 for seg in tile.segments)
    assert shows(art.WALL, 5) == walled, "a wall along every city's edge inside the tile"


def test_tile_art_is_kept_per_kind_rotation_and_size():
    assert tile_image("D", 1, 64) is tile_image("D", 1, 64)
    assert tile_image("D", 1, 64).tobytes() != tile_image("D", 0, 64).tobytes()
    assert tile_image("D", 1, 80).size == (80, 80)


def test_an_overviews_small_tiles_stay_kept_while_close_ups_scale_many_large_ones():
    """At a hundred tables every board's close-up scales large tiles anew: they must not push out
    the small tiles every overview pastes (nor the halvings those are scaled from)."""
    small = tile_image("D", 1, 32)
    for code in sorted(TILES)[:16]:  # 64 large tiles: more bytes than every tile was kept in
        for rot in range(4):
            tile_image(code, rot, 200)
    assert tile_image("D", 1, 32) is small


def robber_step_view(seats: int) -> dict:
    """A view of the robber step (where the track is drawn), made from a new game's."""
    view = GAME.view(GAME.new_game(seats, seed=1), None)
    view["phase"] = "robber"
    return view


@pytest.mark.parametrize("seats", [2, 5])
def test_every_figure_on_one_space_has_its_own_readable_chip(seats):
    view = robber_step_view(seats)
    for p in view["players"]:  # everyone on space 7, every robber there too
        p["space"], p["robber"] = 7, 7
    with recording_texts() as drawn:
        image = render(view, NAMES[:seats]).convert("RGB")
    layout = board._track_layout(view)
    chain = [c for c in layout["chains"] if c["space"] == 7]
    assert len(chain) == 1 and len(chain[0]["figures"]) == 2 * seats
    # the chips stand in one row over the spaces, each figure's seat number readable and apart
    candidates = [r for r in drawn if r.text.isdigit() and r.size >= MIN_TEXT
                  and chain[0]["left"] - 1 <= r.box[0] and r.box[2] <= chain[0]["left"] + 2 * seats * board.CHIP + 1]

    def middle(r) -> float:
        return (r.box[1] + r.box[3]) / 2

    row = max((middle(r) for r in candidates), key=lambda y: sum(abs(middle(r) - y) <= 4 for r in candidates))
    chips = [r for r in candidates if abs(middle(r) - row) <= 4]
    assert sorted(int(r.text) for r in chips) == sorted(list(range(1, seats + 1)) * 2)
    assert not overlapping_texts(chips, margin=0)
    # every seat colour is on the track, as many chips as figures
    colours = {c for _, c in image.getcolors(1 << 20)}
    for seat in range(seats):
        assert tuple(SEAT_COLOURS[seat]) in colours


def test_chips_of_neighbouring_spaces_take_separate_lanes_not_the_same_place():
    view = robber_step_view(5)
    for seat, p in enumerate(view["players"]):
        p["space"], p["robber"] = (3, 4, 5, 5, 6)[seat], None
    chains = board._track_layout(view)["chains"]
    boxes = []
    for chain in chains:
        lane_boxes = [(chain["lane"], chain["left"] + k * board.CHIP, chain["left"] + (k + 1) * board.CHIP)
                      for k in range(len(chain["figures"]))]
        boxes += lane_boxes
    for i, a in enumerate(boxes):
        for b in boxes[i + 1:]:
            assert a[0] != b[0] or a[2] <= b[1] or b[2] <= a[1], (a, b)


def test_the_track_is_drawn_in_the_robber_step_only():
    view = robber_step_view(3)
    with recording_texts() as drawn:
        render(view, NAMES[:3])
    assert {"0", "5", "45"} <= {r.text for r in drawn}
    view["phase"] = "place"
    with recording_texts() as drawn:
        render(view, NAMES[:3])
    assert "45" not in {r.text for r in drawn}


def test_a_mask_is_read_as_one_band_and_a_colour_image_is_refused():
    mask = art.city_mask("C", 0)  # the city covers the whole tile
    assert art.mask_value(mask, (art.MASTER // 2, art.MASTER // 2)) == 255
    with pytest.raises(TypeError, match="one band"):
        art.mask_value(mask.convert("RGB"), (0, 0))


def test_a_packed_master_unpacks_to_the_master_drawn_pixel_for_pixel():
    from renderers.common import forget_kept

    forget_kept()
    for code, rot in sorted(ORIENTED):
        drawn = art._master(code, rot)  # drawn, and packed
        art._master.cache_clear()
        unpacked = art._master(code, rot)  # unpacked
        assert unpacked is not drawn and unpacked.mode == drawn.mode and unpacked.tobytes() == drawn.tobytes()
    assert art.PACKED_MASTERS.used <= art.PACKED_MASTERS.budget and len(art.PACKED_MASTERS) >= len(ORIENTED) * 9 // 10


def test_a_packed_large_tile_unpacks_to_the_tile_scaled_pixel_for_pixel():
    from renderers.common import forget_kept

    forget_kept()
    for size in (134, 148, 200, 240):
        for code, rot in sorted(ORIENTED)[::9]:
            scaled = tile_image(code, rot, size)  # scaled, and packed
            art._large_tile.cache_clear()
            unpacked = tile_image(code, rot, size)
            assert unpacked is not scaled and unpacked.tobytes() == scaled.tobytes()
            assert unpacked.tobytes() == art._scaled(code, rot, size).tobytes()
    for size in (160, 80, 40):  # the halvings, unpacked, are the master halved
        for code, rot in sorted(ORIENTED)[::9]:
            art._halved.cache_clear()
            art._smallest_halved.cache_clear()
            expected = art._drawn_master(code, rot)
            while expected.width > size:
                expected = expected.reduce(2)
            assert art.halving(code, rot, size).tobytes() == expected.tobytes()
