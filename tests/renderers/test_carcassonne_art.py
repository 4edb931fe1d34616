"""Carcassonne's tile art is drawn from the engine's tile data (cities, roads, pennants,
cloisters, robber and crop-circle marks land where the data puts them, in every rotation), the
score track shows every figure's numbered chip even when all share a space, and the board keeps
its texts readable and apart."""
from __future__ import annotations

import random

import pytest

from games import REGISTRY
from games.carcassonne.data import ORIENTED, TILES
from renderers import carcassonne as art
from renderers.carcassonne import render, tile_image
from renderers.common import MIN_TEXT, PHONE_SIZE, SEAT_COLOURS, overlapping_texts, recording_texts

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


def finished_state(seats: int, seed: int):
    state = GAME.new_game(seats, seed=seed)
    rng = random.Random(seed)
    while GAME.outcome(state) is None:
        seat = min(GAME.to_act(state))
        state, _ = GAME.apply(state, seat, GAME.suggest(state, seat, rng))
    return state


@pytest.mark.parametrize("seats", [2, 5])
def test_every_figure_on_one_space_has_its_own_readable_chip(seats):
    view = GAME.view(GAME.new_game(seats, seed=1), None)
    for p in view["players"]:  # everyone on space 7, every robber there too
        p["space"], p["robber"] = 7, 7
    with recording_texts() as drawn:
        image = render(view, NAMES[:seats]).convert("RGB")
    layout = art._track_layout(view)
    chain = [c for c in layout["chains"] if c["space"] == 7]
    assert len(chain) == 1 and len(chain[0]["figures"]) == 2 * seats
    # the chips stand over the first row of spaces, in the track's top lane
    track_top = PHONE_SIZE[1] - art.PLAYER_PAD - seats * art._player_row(view) - 10 - layout["height"]
    numbers = [r for r in drawn if r.text.isdigit() and r.size >= MIN_TEXT
               and chain[0]["left"] - 1 <= r.box[0] and r.box[2] <= chain[0]["left"] + 2 * seats * art.CHIP + 1
               and track_top <= r.box[1] and r.box[3] <= track_top + art.CHIP]
    assert sorted(int(r.text) for r in numbers) == sorted(list(range(1, seats + 1)) * 2)
    assert not overlapping_texts(numbers, margin=0)
    # every seat colour is on the track, as many chips as figures
    colours = {c for _, c in image.crop((0, PHONE_SIZE[1] - 420, PHONE_SIZE[0], PHONE_SIZE[1])).getcolors(1 << 20)}
    for seat in range(seats):
        assert tuple(SEAT_COLOURS[seat]) in colours


def test_chips_of_neighbouring_spaces_take_separate_lanes_not_the_same_place():
    view = GAME.view(GAME.new_game(5, seed=1), None)
    for seat, p in enumerate(view["players"]):
        p["space"], p["robber"] = (3, 4, 5, 5, 6)[seat], None
    chains = art._track_layout(view)["chains"]
    boxes = []
    for chain in chains:
        lane_boxes = [(chain["lane"], chain["left"] + k * art.CHIP, chain["left"] + (k + 1) * art.CHIP)
                      for k in range(len(chain["figures"]))]
        boxes += lane_boxes
    for i, a in enumerate(boxes):
        for b in boxes[i + 1:]:
            assert a[0] != b[0] or a[2] <= b[1] or b[2] <= a[1], (a, b)


@pytest.mark.parametrize("lang", ["en", "de"])
def test_player_lines_are_whole_words_at_least_the_smallest_size(lang):
    state = finished_state(5, 3)
    view = GAME.view(state, None)
    with recording_texts() as drawn:
        render(view, NAMES, lang=lang)
    top = PHONE_SIZE[1] - art.PLAYER_PAD - 5 * art._player_row(view)
    lines = [r for r in drawn if r.box[1] >= top - 4]
    assert len(lines) >= 15  # name, score and the details for each of 5 players
    assert min(r.size for r in lines) >= MIN_TEXT
    assert all(r.box[2] <= PHONE_SIZE[0] and r.box[3] <= PHONE_SIZE[1] for r in lines)
    assert not overlapping_texts(lines, margin=1)
    long_name = [r.text for r in lines if r.text.startswith("Bartholom")]
    assert long_name and long_name[0] in ("Bartholomäus…", "Bartholomäus der…",
                                          "Bartholomäus der Zögerliche…")  # cut at a word's end


def test_the_landscape_fills_the_room_between_header_and_track():
    state = finished_state(5, 9)
    view = GAME.view(state, None)
    image = render(view, NAMES).convert("RGB")
    width, height = image.size
    field = [(x, y) for y in range(0, height, 6) for x in range(0, width, 6)
             if near(image.getpixel((x, y)), art.FIELD, 6)]
    xs, ys = [p[0] for p in field], [p[1] for p in field]
    span_x, span_y = max(xs) - min(xs), max(ys) - min(ys)
    room_y = height - art.PLAYER_PAD - 5 * art._player_row(view) - 10 - art._track_layout(view)["height"] - 150
    assert span_x >= 0.9 * (width - 24) or span_y >= 0.9 * room_y, (span_x, span_y, room_y)


def test_follower_spots_on_the_enlarged_tile_never_cover_each_other():
    for seed in range(1, 30):
        state = GAME.new_game(3, seed=seed)
        rng = random.Random(seed)
        for _ in range(200):
            if state.phase == "follower" and len(GAME.legal_actions(state, state.turn)) > 3:
                break
            seat = min(GAME.to_act(state))
            state, _ = GAME.apply(state, seat, rng.choice(GAME.legal_actions(state, seat)))
        else:
            continue
        with recording_texts() as drawn:
            render(GAME.view(state, None), NAMES[:3])
        panel = [r for r in drawn if r.text.isdigit() and r.box[0] > PHONE_SIZE[0] - art.SIDE_PANEL]
        assert len(panel) >= 2
        assert not overlapping_texts(panel, margin=0)
        return
    pytest.skip("no follower step with several spots reached")


@pytest.mark.parametrize("lang", ["en", "de"])
def test_free_squares_carry_the_numbers_of_the_square_buttons(lang):
    from i18n import translate
    import re

    for seed in range(1, 20):
        state = GAME.new_game(3, seed=seed)
        rng = random.Random(seed)
        for _ in range(120):
            seat = min(GAME.to_act(state))
            if state.phase == "place" and any(a.verb == "at" for a in GAME.legal_actions(state, seat)) \
                    and len(state.board.tiles) > 8:
                break
            state, _ = GAME.apply(state, seat, rng.choice(GAME.legal_actions(state, seat)))
        else:
            continue
        seat = min(GAME.to_act(state))
        labels = [translate(GAME.describe(state, seat, a), lang, NAMES) for a in GAME.legal_actions(state, seat)
                  if a.verb == "at"]
        buttons = [int(re.match(r"(\d+)", label).group(1)) for label in labels]
        with recording_texts() as drawn:
            render(GAME.view(state, None), NAMES[:3], lang=lang)
        on_board = [int(r.text) for r in drawn if r.text.isdigit() and r.size >= MIN_TEXT and r.box[1] > 150
                    and r.box[3] < PHONE_SIZE[1] - 350]
        assert buttons and set(buttons) <= set(on_board), (buttons, on_board)
        return
    pytest.skip("no square step reached")
