"""Boards put together from parts (`renderers.common.board_of_parts`): each part drawn on an
image of its own rows and quantized alone, or pasted as kept, gives the very pixels of the board
drawn whole; Mac Robber's and Die Glücksritter's boards and seat strips, drawn so move after
move over whole games, are the boards drawn whole, each part within its own rows."""
from __future__ import annotations

import random
from functools import partial

import pytest
from PIL import Image, ImageDraw

from games import REGISTRY
from renderers import common, render_image, render_pngs
from renderers.common import RowsPart, board_of_parts, forget_kept

NAMES = ["Anna", "Bernd", "Çelik", "Dora", "Эмиль", "李华"]
PALETTE = common.fixed_palette(common.BACKGROUND, common.INK, (200, 30, 90))


def _row(label: str, drawn: list[str], draw: ImageDraw.ImageDraw, y: int) -> None:
    drawn.append(label)
    draw.rounded_rectangle((10.5, y + 3.25, 300.7, y + 40.5), radius=9, fill=(200, 30, 90), outline=common.INK)
    draw.ellipse((320.3, y + 2.6, 360.8, y + 43.1), outline=common.INK, width=3)
    draw.text((380.5, y + 22.3), label, font=common.font(40), fill=common.INK, anchor="lm")


def _board(drawn: list[str], status: str) -> Image.Image:
    parts = [RowsPart(0, 50, None, partial(_row, status, drawn))]  # new at every move: never kept
    parts += [RowsPart(50 + 50 * i, 100 + 50 * i, ("row", label), partial(_row, label, drawn))
              for i, label in enumerate(("Anna", "Bernd", "李华"))]
    parts.append(RowsPart(200, 200, ("empty",), partial(_row, "never", drawn)))  # no rows: left out
    parts.append(RowsPart(200, 230, None, partial(_row, "foot", drawn)))
    return board_of_parts((600, 230), parts, PALETTE)


def test_a_board_of_parts_is_the_board_drawn_whole_and_draws_a_kept_part_once(monkeypatch):
    forget_kept()
    drawn: list[str] = []
    first, second = _board(drawn, "move 1"), _board(drawn, "move 2")
    assert drawn == ["move 1", "Anna", "Bernd", "李华", "foot", "move 2", "foot"]  # the kept rows pasted
    monkeypatch.setattr(common, "VERIFY_KEPT_PARTS", True)
    for board, status in ((first, "move 1"), (second, "move 2")):
        whole = _board([], status)
        assert board.size == whole.size and board.getpalette() == whole.getpalette()
        assert board.tobytes() == whole.tobytes()
    assert first.tobytes() != second.tobytes()


def test_a_part_that_draws_outside_its_rows_or_parts_that_leave_rows_out_are_refused(monkeypatch):
    def spilling(draw: ImageDraw.ImageDraw, y: int) -> None:
        draw.rectangle((0, y + 40, 20, y + 60), fill=common.INK)  # 10 rows into the next part

    blank = partial(_row, "", [])
    monkeypatch.setattr(common, "VERIFY_KEPT_PARTS", True)
    with pytest.raises(AssertionError, match="drawn alone differs"):
        board_of_parts((100, 100), [RowsPart(0, 50, None, spilling), RowsPart(50, 100, None, blank)], PALETTE)
    with pytest.raises(ValueError):  # rows 50 to 60 would be left unpainted
        board_of_parts((100, 100), [RowsPart(0, 50, None, blank), RowsPart(60, 100, None, blank)], PALETTE)


def _states(game, players: int, seed: int):
    state = game.new_game(players, seed=seed)
    rng = random.Random(seed)
    while game.outcome(state) is None:
        yield state
        seat = min(game.to_act(state))
        state, _ = game.apply(state, seat, game.suggest(state, seat, rng))
    yield state


@pytest.mark.parametrize("name, players", [("macrobber", 3), ("macrobber", 5), ("gluecksritter", 3),
                                           ("gluecksritter", 5)])
def test_boards_drawn_as_parts_over_whole_games_are_the_boards_drawn_whole(name, players, monkeypatch):
    """The bot's way (the public board and the seats' strips under it, parts kept from move to
    move) against every part drawn in place on the whole board, where each must draw within its
    own rows and the parts kept must be what drawing them gives."""
    game = REGISTRY[name]
    forget_kept()
    hits = common.KEPT_PARTS.hits
    compared = 0
    for step, state in enumerate(_states(game, players, seed=players)):
        if step > 150:  # past the first rounds and into the late game: the boards' every part has changed
            break
        lang = ("en", "de")[step // 5 % 2]
        views = [game.view(state, None)] + [game.view(state, seat) for seat in range(players)]
        apart = render_pngs(views, NAMES[:players], lang)
        if step % 5:
            continue
        monkeypatch.setattr(common, "VERIFY_KEPT_PARTS", True)
        whole = [render_image(view, NAMES[:players], lang) for view in views]
        monkeypatch.setattr(common, "VERIFY_KEPT_PARTS", False)
        for png, image in zip(apart, whole):
            assert common.encode_png(image) == png, (name, step)
            compared += 1
    assert compared >= 40 and common.KEPT_PARTS.hits - hits >= 100  # parts found and pasted too


def _drawn_alone(part: RowsPart, palette: Image.Image, drawing) -> Image.Image:
    alone = Image.new("RGB", (1080, part.bottom - part.top), common.BACKGROUND)
    part.draw_rows(drawing(alone), 0)
    return common.to_palette(alone, palette)


@pytest.mark.parametrize("players", [3, 5])
def test_mac_robbers_panels_composed_in_the_palette_are_the_panels_drawn(players):
    """A clan's panel put together from pieces in the palette (its box painted, its cubes, words
    and estates pasted) against the panel drawn in RGB and quantized, on boards of a whole game,
    lit and not, in both languages; with the pieces kept from table to table."""
    from renderers import macrobber

    game = REGISTRY["macrobber"]
    composed = 0
    for step, state in enumerate(_states(game, players, seed=players + 10)):
        if step % 3:
            continue
        lang = ("en", "de")[step // 3 % 2]
        view = game.view(state, None)
        who = common.seat_names(NAMES[:players], players)
        parts, _ = macrobber._panel_parts(view, who, lang, 300, 1100)
        for part in parts:
            assert part.compose is not None
            image = part.compose()
            assert image is not None, (step, part.key)  # nothing on a panel meets another thing or its rim
            drawn = _drawn_alone(part, macrobber._palette(), macrobber._Canvas)
            assert image.getpalette() == drawn.getpalette() and image.tobytes() == drawn.tobytes(), (step, part.key)
            composed += 1
    assert composed >= 60


@pytest.mark.parametrize("players", [3, 5])
def test_glücksritters_rows_composed_in_the_palette_are_the_rows_drawn(players):
    """A player's row put together from pieces in the palette (its box painted, its disc, coins,
    castle, documents and cards pasted) against the row drawn in RGB and quantized, over a game
    (to its end), in both languages; a row whose pieces would reach its rim is drawn."""
    from renderers import gluecksritter

    game = REGISTRY["gluecksritter"]
    composed = 0
    for step, state in enumerate(_states(game, players, seed=players + 20)):
        lang = ("en", "de")[step // 4 % 2]
        view = game.view(state, None)
        who = common.seat_names(NAMES[:players], players)
        for part in gluecksritter._player_parts(view, who, lang, 500, 100):
            assert part.compose is not None
            image = part.compose()
            if image is None:
                continue
            drawn = _drawn_alone(part, gluecksritter._palette(), ImageDraw.Draw)
            assert image.getpalette() == drawn.getpalette() and image.tobytes() == drawn.tobytes(), (step, part.key)
            composed += 1
    assert composed >= 200



@pytest.mark.parametrize("players", [3, 6])
def test_glücksritters_header_events_and_documents_composed_in_the_palette_are_the_parts_drawn(players, monkeypatch):
    """The parts new at almost every move (the header with the fields' top edge, the fields' rows
    with the dungeon and the coins, the newest events, a seat's documents and secret cards) drawn
    straight in the palette against the same parts drawn in RGB and quantized, on the public
    board and every seat's image over a whole game (a seat's documents alone too), in both
    languages, with long names (the status on three lines)."""
    from renderers import gluecksritter

    game = REGISTRY["gluecksritter"]
    long_names = ["Maximiliane von Hohenstein", "Bartholomäus", "Çelik", "Wolfgang Amadeus", "Эмиль", "李华明"]
    built: list[RowsPart] = []
    real = gluecksritter.board_of_parts

    def capturing(size, parts, palette, *args):
        built.extend(parts)
        return real(size, parts, palette, *args)

    monkeypatch.setattr(gluecksritter, "board_of_parts", capturing)
    composed = 0
    for step, state in enumerate(_states(game, players, seed=players + 30)):
        lang = ("en", "de")[step // 3 % 2]
        names = (long_names if step % 2 else NAMES)[:players]
        for viewer in (None, *range(players)):
            view = game.view(state, viewer)
            if gluecksritter.hand_alone(view):  # its documents alone: composed against drawn
                alone = gluecksritter._hand_alone_image(view, lang)
                drawn_alone = Image.new("RGB", alone.size, common.BACKGROUND)
                gluecksritter._private(ImageDraw.Draw(drawn_alone), view, view["private"], lang, gluecksritter.MARGIN)
                assert alone.tobytes() == common.to_palette(drawn_alone, gluecksritter._palette()).tobytes()
                composed += 1
                continue
            built.clear()
            gluecksritter.render(view, names, lang)
            for part in built:
                if part.compose is None or part.key is not None and part.key[0] == "gluecksritter.row":
                    continue  # the players' rows: above
                image = part.compose()
                assert image is not None, (step, viewer, part.key)  # every text on a plain ground
                drawn = _drawn_alone(part, gluecksritter._palette(), ImageDraw.Draw)
                assert image.getpalette() == drawn.getpalette(), (step, viewer, part.key)
                assert image.tobytes() == drawn.tobytes(), (step, viewer, part.key)
                composed += 1
    assert composed >= 300

def _hand_from(private: dict, lang: str, y: int, draw: ImageDraw.ImageDraw, top: int) -> None:
    from renderers import macrobber

    macrobber._hand(draw, private, lang, top + y)


def test_mac_robbers_hands_composed_in_the_palette_are_the_hands_drawn():
    """A seat's raid cards (its image of its cards alone, and the band under its board) put
    together from pieces in the palette against the cards drawn in RGB and quantized, for hands
    of none to twelve cards (wider hands' cards stand at fractions of a pixel), with a card face
    down or not, in both languages."""
    from renderers import macrobber

    composed = 0
    for count in range(13):
        for face_down in (None, 3):
            for lang in ("en", "de"):
                private = {"hand": [(count * 7 + k * 3) % 15 + 1 for k in range(count)], "face_down": face_down}
                for height, y in ((macrobber.HAND_ALONE_HEIGHT, macrobber.MARGIN),
                                  (macrobber.BAND + macrobber.MARGIN, 4)):
                    image = macrobber._composed_hand(private, lang, height, y)
                    assert image is not None, (count, face_down, lang)
                    part = RowsPart(0, height, None, partial(_hand_from, private, lang, y))
                    drawn = _drawn_alone(part, macrobber._palette(), macrobber._Canvas)
                    assert image.tobytes() == drawn.tobytes(), (count, face_down, lang, height)
                    composed += 1
    assert composed == 13 * 2 * 2 * 2
