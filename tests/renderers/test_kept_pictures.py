"""What the renderers keep from one move to the next (drawn pieces, compressed bands of rows)
changes no picture: whole seeded games of every game, drawn move after move the way the bot
draws them, give pixel for pixel the pictures drawn from scratch, and the PNGs, compressed in
bands, decode to the very pixels Pillow's own PNG encoder writes."""
from __future__ import annotations

import io
import random
import zlib
from functools import partial

import pytest
from PIL import Image, ImageDraw
from zlib_ng import zlib_ng

from games import REGISTRY
from renderers import _palette_image, common, render_image, render_pngs
from renderers.common import (
    BAND_LEVEL,
    PNG_BAND_ROWS,
    PNG_BANDS,
    PNG_LEVEL,
    adler32_combine,
    band_key,
    deflated_band,
    encode_png,
    forget_kept,
)

NAMES = ["Anna", "Bernd", "Çelik", "Dora", "Эмиль", "李华"]
TABLES = [("gluecksritter", 4), ("knatsch", 3), ("carcassonne", 3), ("macrobber", 4), ("raubritter", 4),
          ("raubritter", 2)]
COMPARED_EVERY = 7  # moves between pictures compared with pictures drawn from scratch


def whole_game(game, players: int, seed: int):
    """Every state of one whole game between computer players, with the seat to act in it."""
    state = game.new_game(players, seed=seed)
    rng = random.Random(seed)
    while game.outcome(state) is None:
        seat = min(game.to_act(state))
        yield state, seat
        state, _ = game.apply(state, seat, game.suggest(state, seat, rng))
    yield state, 0


def decoded(png: bytes) -> tuple[str, bytes, bytes]:
    image = Image.open(io.BytesIO(png))
    assert image.format == "PNG"
    image.load()
    return image.mode, image.tobytes(), image.convert("RGB").tobytes()


def pillow_png(image: Image.Image) -> bytes:
    buffer = io.BytesIO()
    image.save(buffer, format="PNG", compress_level=PNG_LEVEL)  # as the bot wrote them before the bands
    return buffer.getvalue()


@pytest.mark.parametrize("name, players", TABLES)
def test_pictures_of_a_whole_game_drawn_move_after_move_are_the_pictures_drawn_from_scratch(name, players,
                                                                                            monkeypatch):
    monkeypatch.setattr(common, "VERIFY_KEPT_PARTS", True)  # every kept part pasted is checked against its drawing
    game = REGISTRY[name]
    forget_kept()
    compared = 0
    for step, (state, seat) in enumerate(whole_game(game, players, seed=players + 3)):
        lang = ("en", "de")[step // COMPARED_EVERY % 2]
        views = [game.view(state, None), game.view(state, seat)]
        kept = render_pngs(views, NAMES[:players], lang)  # the bot's way: caches as the game left them
        if step % COMPARED_EVERY:
            continue
        forget_kept()
        fresh = [pillow_png(_palette_image(render_image(view, NAMES[:players], lang))) for view in views]
        for with_caches, from_scratch in zip(kept, fresh):
            assert decoded(with_caches) == decoded(from_scratch), (name, step)
            compared += 1
    assert compared >= 10


@pytest.mark.parametrize("name, players", [("knatsch", 3), ("knatsch", 5)])
def test_boards_whose_rows_are_drawn_apart_are_the_boards_drawn_whole(name, players, monkeypatch):
    """Rows drawn on images of their own and pasted as kept (`common.board_with_rows`) give the
    very pixels of the board drawn whole, rows in place (as while the tests verify kept parts)."""
    game = REGISTRY[name]
    forget_kept()
    hits = common.KEPT_PARTS.hits
    compared = 0
    for step, (state, seat) in enumerate(whole_game(game, players, seed=players)):
        lang = ("en", "de")[step // 3 % 2]
        views = [game.view(state, None), game.view(state, seat)]
        apart = [pillow_png(render_image(view, NAMES[:players], lang)) for view in views]
        if step % 3:
            continue
        monkeypatch.setattr(common, "VERIFY_KEPT_PARTS", True)
        whole = [pillow_png(render_image(view, NAMES[:players], lang)) for view in views]
        monkeypatch.setattr(common, "VERIFY_KEPT_PARTS", False)
        for drawn_apart, drawn_whole in zip(apart, whole):
            assert decoded(drawn_apart) == decoded(drawn_whole), (name, step)
            compared += 1
    assert compared >= 10 and common.KEPT_PARTS.hits - hits >= 20  # rows found and pasted too


def test_a_board_with_rows_drawn_apart_is_the_board_drawn_whole_and_draws_a_kept_row_once(monkeypatch):
    palette = common.fixed_palette(common.BACKGROUND, common.INK, (200, 30, 90))
    drawn = []

    def row(label, draw, y):
        drawn.append(label)
        draw.rounded_rectangle((10.5, y + 3.25, 300.7, y + 40.5), radius=9, fill=(200, 30, 90), outline=common.INK)
        draw.ellipse((320.3, y + 2.6, 360.8, y + 43.1), outline=common.INK, width=3)
        draw.text((380.5, y + 22.3), label, font=common.font(40), fill=common.INK, anchor="lm")

    def board():
        top = Image.new("RGB", (400, 60), common.BACKGROUND)
        ImageDraw.Draw(top).line((0, 0, 400, 59), fill=common.INK, width=5)
        parts = [common.RowsPart(60 + 50 * i, 110 + 50 * i, ("row", label), partial(row, label))
                 for i, label in enumerate(("Anna", "Bernd", "李华"))]
        return common.board_with_rows(top, (400, 210), parts, palette)

    forget_kept()
    apart, again = board(), board()
    assert drawn == ["Anna", "Bernd", "李华"]  # the second board pasted every row as kept
    monkeypatch.setattr(common, "VERIFY_KEPT_PARTS", True)
    forget_kept()
    whole = board()
    for image in (apart, again):
        assert image.size == whole.size and image.getpalette() == whole.getpalette()
        assert image.tobytes() == whole.tobytes()
    top = Image.new("RGB", (400, 60), common.BACKGROUND)
    with pytest.raises(ValueError):  # a row left out would be left unpainted
        common.board_with_rows(top, (400, 210), [common.RowsPart(60, 110, "a", partial(row, "a")),
                                                 common.RowsPart(160, 210, "b", partial(row, "b"))], palette)


def test_a_board_encoded_in_bands_decodes_to_the_pixels_pillow_writes_and_reuses_unchanged_bands():
    game = REGISTRY["raubritter"]
    states = [state for state, _ in whole_game(game, 3, seed=1)]
    forget_kept()
    before = render_image(game.view(states[20], None), NAMES[:3])
    first = encode_png(before)
    assert decoded(first) == decoded(pillow_png(before))
    assert len(first) < 1.05 * len(pillow_png(before))  # bands cost a few bytes
    compressed = len(PNG_BANDS)
    after = before.copy()
    after.paste(7, (100, PNG_BAND_ROWS * 3 + 2, 180, PNG_BAND_ROWS * 3 + 9))  # a change inside one band
    second = encode_png(after)
    assert decoded(second) == decoded(pillow_png(after)) != decoded(first)
    assert len(PNG_BANDS) == compressed + 1  # that band alone was compressed again
    assert encode_png(after) == second and len(PNG_BANDS) == compressed + 1


def test_a_band_compressed_after_others_is_the_band_compressed_alone():
    """`deflated_band` serves band after band with one compressor: each band's bytes are those
    of a compressor of its own (nothing refers back to a band before it), so the bands of a PNG
    may come from any moves in any order."""
    rng = random.Random(7)
    rows = [bytes([0]) + rng.randbytes(40) * 7 for _ in range(6)]
    bands = [b"".join(rng.choice(rows) for _ in range(PNG_BAND_ROWS)) for _ in range(8)]
    bands += [bands[0], bands[3]]  # a band again right after others that hold its rows
    for band in bands:
        pieces = deflated_band(band)
        assert pieces[1:] == (zlib.adler32(band), len(band))
        assert zlib.decompressobj(-15).decompress(pieces[0]) == band
        alone = zlib_ng.compressobj(BAND_LEVEL, zlib_ng.DEFLATED, -15)
        assert pieces[0] == alone.compress(band) + alone.flush(zlib_ng.Z_SYNC_FLUSH)
    order = [9, 2, 0, 8, 5]
    stream = b"".join(deflated_band(bands[index])[0] for index in order) + b"\x03\x00"
    assert zlib.decompressobj(-15).decompress(stream) == b"".join(bands[index] for index in order)


def test_a_seat_strip_below_the_shared_rows_keeps_its_place():
    image = Image.new("P", (50, 70), 3)
    image.putpalette([channel for index in range(256) for channel in (index, 255 - index, index // 2)])
    image.paste(9, (0, 40, 50, 70))
    image.putpixel((7, 41), 200)
    image.info["private_top"] = 40
    assert decoded(encode_png(image)) == decoded(pillow_png(image))


def test_checksums_of_pieces_combine_into_the_checksum_of_the_whole():
    rng = random.Random(5)
    for _ in range(50):
        first, second = (bytes(rng.randrange(256) for _ in range(rng.randrange(0, 70000, 7))) for _ in range(2))
        assert adler32_combine(zlib.adler32(first), zlib.adler32(second), len(second)) == zlib.adler32(first + second)


@pytest.mark.parametrize("players", [3, 5])
def test_a_gluecksritter_seat_image_drawn_right_after_its_board_is_the_image_drawn_from_scratch(players):
    """A seat's image drawn alone right after its state's board (a DM after the move's board),
    with the board's parts kept and its bands compressed, is pixel for pixel the image drawn
    from scratch."""
    from renderers import render_png

    game = REGISTRY["gluecksritter"]
    compared = 0
    for step, (state, _) in enumerate(whole_game(game, players, seed=players)):
        if step % 5:
            continue
        lang = ("en", "de")[step // 5 % 2]
        forget_kept()
        render_png(game.view(state, None), NAMES[:players], lang)  # the move's board
        for seat in range(players):
            view = game.view(state, seat)
            with_board = render_png(view, NAMES[:players], lang)
            forget_kept()
            assert decoded(with_board) == decoded(render_png(view, NAMES[:players], lang)), (step, seat)
            compared += 1
            render_png(game.view(state, None), NAMES[:players], lang)
    assert compared >= 10


def test_bands_that_differ_in_a_moved_shape_are_kept_apart():
    """The bands' keys are checksums (`band_key`): a change that keeps a band's sum of pixels (a
    shape moved), or its sums weighted by place as well (two shapes moved symmetrically apart),
    still gives another key, and so another band in the PNG."""
    width, rows = 1080, PNG_BAND_ROWS
    band = bytearray(width * rows)
    for x in (300, 700):
        band[5 * width + x:5 * width + x + 20] = bytes([9]) * 20
    moved = bytearray(band)
    moved[5 * width + 300:5 * width + 320] = bytes(20)
    moved[5 * width + 301:5 * width + 321] = bytes([9]) * 20
    apart = bytearray(width * rows)
    apart[5 * width + 299:5 * width + 319] = bytes([9]) * 20
    apart[5 * width + 701:5 * width + 721] = bytes([9]) * 20
    assert sum(apart) == sum(moved) == sum(band)
    assert zlib.adler32(bytes(apart)) == zlib.adler32(bytes(band))  # the weighted sum kept too
    keys = {band_key(bytes(pixels), width) for pixels in (band, moved, apart)}
    assert len(keys) == 3
    assert band_key(bytes(band), width) != band_key(bytes(band), width // 2)
    images = [Image.frombytes("P", (width, rows), bytes(pixels)) for pixels in (band, moved, apart)]
    for image in images:
        image.putpalette([channel for index in range(256) for channel in (index, index, index)])
    forget_kept()
    pngs = [encode_png(image) for image in images]
    assert [decoded(png) for png in pngs] == [decoded(pillow_png(image)) for image in images]


def test_a_palette_images_rows_read_at_once_are_the_rows_of_its_crop():
    rng = random.Random(3)
    for width, height in ((1080, 1350), (7, 5), (300, 1), (1, 90)):
        image = Image.frombytes("P", (width, height), rng.randbytes(width * height))
        for top, bottom in ((0, height), (0, height // 2), (height // 3, height), (height // 2, height // 2)):
            assert bytes(common._rows(image, top, bottom)) == image.crop((0, top, width, bottom)).tobytes()
