"""Carcassonne's overview late in a three-player game, measured as drawn: while the tile is
placed, turned or a follower placed, the picture shows the decision close up and the whole
landscape small (in the header, or in a fourth rotation's room). A player finds a square the
texts name ("Bob places a tile on Q14") by its grid marks, and the parts drawn close up and the
other groups of squares by their frames: so every column and row is marked or beside a marked
one, the marks at the text standard, and every frame 40 px wide and tall at least (11 px on a
phone), while the close-ups keep their size."""
from __future__ import annotations

import re
from dataclasses import dataclass

import pytest
from PIL import ImageDraw

from games.carcassonne.closeup import CLOSE_UP
from games.carcassonne.grid import column_name, row_name
from i18n import t
from renderers import carcassonne as board
from renderers.common import INK, MIN_TEXT, MUTED, recording_texts
from tests.renderers.standard import covered_texts, mark_problems, readable_problems, recording_covers
from tests.renderers.test_carcassonne_placing import GAME, NAMES, states_of

Box = tuple[float, float, float, float]
TALL_LANDSCAPE_TILE = 26  # an overview tile over one group close up on the tallest landscapes (7 px on a phone)


@dataclass
class DrawnOverview:
    ground: Box  # the overview's ground (its tiles inside a 6 px rim)
    frames: list[Box]  # the frames drawn on it: the parts drawn close up, the other groups
    columns: dict[str, float]  # its column letters: {letter: x}
    rows: dict[str, float]  # its row numbers: {number: y}
    sizes: list[int]  # the grid marks' type sizes
    card: Box  # the card round the overview and its grid marks
    crossing: list[str]  # texts across the card's edge, or the overview's marks off it


def drawn_overview(view, lang: str, monkeypatch, names=None) -> tuple[DrawnOverview | None, list[str], list]:
    """The overview as drawn on the picture of `view` (None where it has none), every way the
    picture breaks the text standard or covers a text, and the numbers drawn inside pieces."""
    rectangles: list[tuple[Box, dict]] = []
    cards: list[Box] = []
    original = ImageDraw.ImageDraw.rectangle
    original_rounded = ImageDraw.ImageDraw.rounded_rectangle

    def rectangle(self, xy, *args, **kwargs):
        rectangles.append((tuple(xy), kwargs))
        return original(self, xy, *args, **kwargs)

    def rounded_rectangle(self, xy, *args, **kwargs):
        if kwargs.get("outline") == MUTED and kwargs.get("fill") is None:
            cards.append(tuple(xy))
        return original_rounded(self, xy, *args, **kwargs)

    with monkeypatch.context() as patch:
        patch.setattr(ImageDraw.ImageDraw, "rectangle", rectangle)
        patch.setattr(ImageDraw.ImageDraw, "rounded_rectangle", rounded_rectangle)
        with recording_covers() as covers, recording_texts() as texts:
            image = board.render(view, names or NAMES[:view["seats"]], lang)
    problems = readable_problems(texts, image.size) + covered_texts(covers)
    marks = [record for record in texts if record.mark]
    # the overview is drawn last: its ground is the last panel-coloured ground
    grounds = [k for k, (_, kw) in enumerate(rectangles)
               if kw.get("fill") == board.PANEL and kw.get("outline") == MUTED and kw.get("width") == 2]
    if not grounds:
        return None, problems, marks
    ground = rectangles[grounds[-1]][0]
    frames = [xy for xy, kw in rectangles[grounds[-1] + 1:] if kw.get("outline") == INK and kw.get("width") in (2, 5)
              and kw.get("fill") is None]
    left, top, right, bottom = ground

    def middle(record) -> tuple[float, float]:
        return (record.box[0] + record.box[2]) / 2, (record.box[1] + record.box[3]) / 2

    letters = [r for r in texts if re.fullmatch(r"-?[A-Z]{1,2}", r.text) and left <= middle(r)[0] <= right
               and bottom <= r.box[1] <= bottom + 40]
    numbers = [r for r in texts if re.fullmatch(r"-?\d+", r.text) and top <= middle(r)[1] <= bottom
               and left - 80 <= r.box[0] and r.box[2] <= left]
    assert len(cards) == 1, cards
    card = cards[0]

    def within(box) -> bool:
        return card[0] <= box[0] and box[2] <= card[2] and card[1] <= box[1] and box[3] <= card[3]

    def apart(box) -> bool:
        return box[2] <= card[0] or card[2] <= box[0] or box[3] <= card[1] or card[3] <= box[1]

    crossing = [r.text for r in texts if not (within(r.box) or apart(r.box))]
    crossing += [f"{r.text} off the card" for r in letters + numbers if not within(r.box)]
    return DrawnOverview(ground, frames, {r.text: middle(r)[0] for r in letters},
                         {r.text: middle(r)[1] for r in numbers}, [r.size for r in letters + numbers],
                         card, crossing), problems, marks


def marked_lines(marks: dict[str, float], first: float, tile: float, names: list[str]) -> list[int]:
    """Which of the columns (rows) named `names` carry a mark standing on their middle."""
    found = []
    for k, name in enumerate(names):
        if name in marks:
            assert abs(marks[name] - (first + k * tile + tile / 2)) <= 5, (name, marks[name])
            found.append(k)
    return found


def late_three_player_views():
    """Every picture with an overview from the 100th move of three-player games to their end
    (150 moves and more), every second one: placing (one group of squares close up, or squares
    in panels), turning the tile, placing a follower."""
    for seed in (1, 2, 5):
        for k, state in enumerate(states_of(3, seed)):
            if k >= 100 and k % 2 == 0 and state.phase in ("place", "rotate", "follower"):
                yield k, state, GAME.view(state, None)


@pytest.mark.parametrize("lang", ["en", "de"])
def test_late_in_a_three_player_game_the_overviews_marks_and_frames_are_readable(lang, monkeypatch):
    """Every column and row of the overview carries its grid mark or stands beside one (a
    square named lies on a marked line or next to it), the first and last marked, at the text
    standard; every frame on it 40 px wide and tall at least; over one group of squares its
    tiles GROUP_OVERVIEW_TILE px, or on the tallest landscapes (18 rows) TALL_LANDSCAPE_TILE px
    with the close-up at its least (LATE_GROUP_CLOSE_UP px); nothing covered, no text or number
    in a piece under the standard;
    and the other close-ups keep their size (160 px at least, rotations side by side as before)."""
    checked = {"place": 0, "rotate": 0, "follower": 0}
    tallest = 0  # the most rows of a landscape whose groups are shown one close up
    for k, state, view in late_three_player_views():
        overview, problems, marks = drawn_overview(view, lang, monkeypatch)
        assert problems == [], (k, problems)
        plan = board.layout(view, NAMES[:3], lang)
        if overview is None:
            assert not plan["window"]["part"], k
            continue
        x0, y0, x1, y1 = plan["window"]["bounds"]
        left, top, right, bottom = overview.ground
        tile = (right - left - 12) / (x1 - x0 + 1)
        assert tile == (bottom - top - 12) / (y1 - y0 + 1), (k, overview.ground)
        columns = marked_lines(overview.columns, left + 6, tile, [column_name(x) for x in range(x0, x1 + 1)])
        rows = marked_lines(overview.rows, top + 6, tile, [row_name(y) for y in range(y0, y1 + 1)])
        sizes = [panel["window"]["size"] for panel in plan["panels"]] or [plan["window"]["size"]]
        for marked, count in ((columns, x1 - x0 + 1), (rows, y1 - y0 + 1)):
            assert marked[0] == 0 and marked[-1] == count - 1, (k, marked)
            assert all(b - a <= 3 for a, b in zip(marked, marked[1:])), (k, state.phase, tile, marked)
        assert min(overview.sizes) >= MIN_TEXT
        # its marks on a card of its own, told from the close-up's column letters just under it
        assert overview.crossing == [], (k, overview.crossing)
        assert overview.card[3] <= plan["header"] or plan["overview_slot"], (k, overview.card)
        if state.phase == "place" and state.area is not None:
            # the other groups' frames told apart: GROUP_OVERVIEW_TILE px, or late in a game on the
            # tallest landscapes (the close-up at its least) TALL_LANDSCAPE_TILE px
            assert tile >= board.GROUP_OVERVIEW_TILE or (
                tile >= TALL_LANDSCAPE_TILE and min(sizes) == board.LATE_GROUP_CLOSE_UP), (k, tile, y1 - y0 + 1, sizes)
            tallest = max(tallest, y1 - y0 + 1)
        if state.phase == "place" and state.area is None:  # all squares at once: the landscape found at a glance
            assert tile >= board.OVERVIEW_TILE, (k, tile, sizes)
            # (the close-up gives up its engine's least size only for that)
            assert min(sizes) >= CLOSE_UP or tile == board.OVERVIEW_TILE, (k, tile, sizes)
        assert overview.frames, k  # the part drawn close up at least
        for frame in overview.frames:
            assert frame[2] - frame[0] >= board.FRAME_LEAST and frame[3] - frame[1] >= board.FRAME_LEAST, (k, frame)
        least = (board.LATE_GROUP_CLOSE_UP if state.phase == "place"
                 else 125 if len(plan["panels"]) > 1 and state.phase == "rotate" else CLOSE_UP)
        assert min(sizes) >= least, (k, state.phase, sizes)
        assert mark_problems(marks) == [], k  # numbers in pieces at the marks' standard
        checked[state.phase] += 1
    assert checked["place"] >= 20 and checked["rotate"] >= 20 and checked["follower"] >= 20, checked
    assert tallest >= 18, tallest  # the tallest landscapes late in a game were checked



@pytest.fixture(scope="module")
def tallest_group_step():
    """A group of squares close up on the tallest landscape of the three-player games above (18
    rows, late in seed 2's game)."""
    for k, state in enumerate(states_of(3, 2)):
        if k >= 250 and state.phase == "place" and state.area is not None:
            view = GAME.view(state, None)
            x0, y0, x1, y1 = board.layout(view, NAMES[:3])["window"]["bounds"]
            if y1 - y0 + 1 >= 18:
                return view
    raise AssertionError("no group step on an 18-row landscape")


@pytest.mark.parametrize("names", [["Al", "Bo", "Cy"], NAMES[:3]])
@pytest.mark.parametrize("lang", ["en", "de"])
def test_on_the_tallest_landscape_the_players_table_stands_beside_the_overview(tallest_group_step, lang, names,
                                                                               monkeypatch):
    """On an 18-row landscape the overview finding the other groups takes the header's full
    height, its tiles TALL_LANDSCAPE_TILE px at least (19 px under a header as tall as the
    players' table at the foot left it): the table stands under the status, left of the
    overview's card, with every player's points and followers at home (a short name whole); the
    legend says what the last tile's frame means; the close-up keeps its size; nothing covered,
    nothing crossing the card."""
    view = tallest_group_step
    plan = board.layout(view, names, lang)
    assert plan["table_beside"] is not None and plan["table_top"] < plan["header"]
    assert plan["window"]["size"] >= board.LATE_GROUP_CLOSE_UP
    overview, problems, _ = drawn_overview(view, lang, monkeypatch, names)
    assert overview is not None and problems == [] and overview.crossing == []
    x0, _, x1, _ = plan["window"]["bounds"]
    assert (overview.ground[2] - overview.ground[0] - 12) / (x1 - x0 + 1) >= TALL_LANDSCAPE_TILE
    with recording_texts() as texts:
        board.render(view, names, lang)
    table_bottom = plan["table_top"] + board.TABLE_HEADING + len(view["players"]) * board.TABLE_ROW
    table = [r for r in texts if plan["table_top"] <= (r.box[1] + r.box[3]) / 2 <= table_bottom
             and r.box[0] < overview.card[0]]  # (not the overview's row numbers)
    assert max(r.box[2] for r in table) <= plan["table_beside"] < overview.card[0]
    words = {r.text for r in table}
    for player in view["players"]:
        assert str(player["score"]) in words
        assert t(lang, "carcassonne.board.followers", count=player["followers"]) in words
    if names[0] == "Al":
        assert set(names) <= words  # short names whole
    legend = {r.text for r in texts if plan["legend_top"] <= r.box[1] < plan["header"]}
    assert t(lang, "carcassonne.board.legend.last_tile") in legend


def _tag_places_ordering_every_spot(frames: dict[int, board.Frame],
                                    ground: board.Frame) -> dict[int, tuple[float, float]]:
    """`overview_tag_places` as it was written first: every place round a frame ordered at once
    (inside the frame first, then nearest its middle, then top to bottom, left to right)."""
    places: dict[int, tuple[float, float]] = {}
    boxes: list[board.Frame] = []
    for k, (fx0, fy0, fx1, fy1) in sorted(frames.items(), key=lambda item: ((item[1][2] - item[1][0])
                                                                              * (item[1][3] - item[1][1]), item[0])):
        width, height = board.plate_size(str(k + 1))
        half_w, half_h = width / 2 + 3, height / 2 + 3
        mid_x, mid_y = (fx0 + fx1) / 2, (fy0 + fy1) / 2
        step = height / 4
        xs = {min(max(mid_x + i * step, ground[0] + half_w), ground[2] - half_w) for i in range(-40, 41)}
        ys = {min(max(mid_y + j * step, ground[1] + half_h), ground[3] - half_h) for j in range(-40, 41)}
        spots = sorted(((x, y) for x in xs for y in ys),
                       key=lambda spot: (not (fx0 <= spot[0] <= fx1 and fy0 <= spot[1] <= fy1),
                                         abs(spot[0] - mid_x) + abs(spot[1] - mid_y), spot[1], spot[0]))
        x, y = next(((x, y) for x, y in spots
                     if all(x + half_w <= b[0] or b[2] <= x - half_w or y + half_h <= b[1] or b[3] <= y - half_h
                            for b in boxes)), spots[0])
        places[k] = (x, y)
        boxes.append((x - half_w, y - half_h, x + half_w, y + half_h))
    return places


def test_the_groups_numbers_stand_where_ordering_every_place_at_once_puts_them():
    """The overview's group numbers, looked for inside each frame first (the places outside it
    ordered only where none inside is clear), stand where ordering every place at once put them:
    frames far apart, crowded, overlapping, tiny and reaching the overview's edges."""
    import random

    rng = random.Random(5)
    outside = 0
    for _ in range(300):
        ground = (rng.uniform(0, 300), rng.uniform(0, 100), 0.0, 0.0)
        ground = (ground[0], ground[1], ground[0] + rng.uniform(60, 600), ground[1] + rng.uniform(60, 420))
        frames = {}
        for k in range(rng.randint(1, 12)):
            w, h = rng.choice([(8.0, 8.0), (40.0, 40.0)]) if rng.random() < 0.3 else (rng.uniform(5, 200),
                                                                                     rng.uniform(5, 200))
            x0 = rng.uniform(ground[0] - 10, ground[2] - w / 2)
            y0 = rng.uniform(ground[1] - 10, ground[3] - h / 2)
            frames[k] = (x0, y0, x0 + w, y0 + h)
        expected = _tag_places_ordering_every_spot(frames, ground)
        assert board.overview_tag_places(frames, ground) == expected
        outside += any(not (f[0] <= expected[k][0] <= f[2] and f[1] <= expected[k][1] <= f[3])
                       for k, f in frames.items())
    assert outside >= 30  # the places outside a frame were looked for too
