"""Shared drawing helpers: the font, the seat colours and small primitives used by every renderer.

The font is Noto Sans CJK (from the `noto-cjk-sans-otc` package, installed with the bot): one
face that draws Latin, Greek, Cyrillic, Chinese, Japanese and Korean, so a player's name is
never a row of empty boxes. What it cannot draw (emoji, rare symbols) is left out of the
drawing by `drawable`, and a name with nothing drawable left becomes its seat label.

Phone first: boards are upright (`PHONE_SIZE`, 4:5) and no text is smaller than
`MIN_TEXT` (40 px at 1080 wide: 11 px where a phone shows the board about 300 px wide).
"""
from __future__ import annotations

import hashlib
import io
import struct
import threading
import unicodedata
import weakref
from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from functools import lru_cache, partial
from typing import TYPE_CHECKING, Any, NamedTuple, Protocol, TypeVar, cast

import noto_cjk_sans_otc
from PIL import Image, ImageChops, ImageColor, ImageDraw, ImageFont, _imaging
from zlib_ng import zlib_ng

if TYPE_CHECKING:
    from PIL._imaging import ImagingCore

BACKGROUND = (245, 239, 226)
INK = (40, 36, 32)
MUTED = (105, 98, 88)
HIGHLIGHT = (255, 196, 0)
WHITE = (255, 255, 255)

Ink = tuple[int, ...] | str
"""A colour to draw with: an RGB(A) tuple or a name Pillow knows ("white")."""
Kept = TypeVar("Kept")
Drawn = TypeVar("Drawn")

PHONE_SIZE = (1080, 1350)
"""Every board's size: upright 4:5, what a phone shows full width in portrait."""
MIN_TEXT = 40
"""The smallest font size on a board: a 390 px phone's client shows a board about 300 px wide, so
40 px at 1080 wide is 11 px there."""
MIN_MARK = 40
"""The smallest a number or letter inside a piece (a disc, a coin, a plate) or an icon a player
must tell apart stands, in pixels of ink from top to bottom: 11 px on the phone, as tall as the
words' type (a digit of `MIN_TEXT` type is only 30 px of ink)."""
MARK_TEXT = 56
"""The font size for numbers and letters inside pieces: its digits are 41 px of ink (`MIN_MARK`)."""

# Seat colours in seat order. Chosen by search so that every pair stays at least ~35 CIELAB
# units apart for normal vision and under simulated deuteranopia, protanopia and tritanopia
# (Machado et al. 2009), and away from Knatsch's coat-of-arms colours (red, blue, green,
# yellow, purple, black). Colour is never the only sign: every mark also carries the seat
# number or the name's initial (tests/renderers/test_common.py checks the distances).
SEAT_COLOURS = [
    (51, 153, 221),    # 1 sky blue
    (187, 34, 102),    # 2 raspberry
    (187, 221, 119),   # 3 lime
    (136, 17, 255),    # 4 violet
    (136, 85, 0),      # 5 brown
    (255, 187, 204),   # 6 pink
]


def ink_on(colour: Sequence[int]) -> tuple[int, int, int]:
    """Black or white, whichever reads better on `colour`."""
    red, green, blue = colour[:3]
    return INK if red * 0.299 + green * 0.587 + blue * 0.114 > 140 else WHITE


FONT_PATH = str(noto_cjk_sans_otc.FONT_PATH)
FONT_INDEX = 0  # the collection's Japanese face: every CJK script plus Latin, Greek and Cyrillic


SIZE_STEPS = (27, 28, 30, 32, 36, 40, 48, 56, 64, 80)
"""Font sizes are rounded down to these steps: each size is a FreeType face of some 3 MB for a
CJK font, so a handful of steps keeps the bot's memory small (sizes under the first step and
over the last are kept as asked, over the last rounded to 16)."""


def font(size: int) -> ImageFont.FreeTypeFont:
    found = _FACES_ASKED.get(size)
    if found is None:
        found = _face(_size_step(size))
        if len(_FACES_ASKED) < 1024:  # sizes asked are a few dozen; a bound all the same
            _FACES_ASKED[size] = found
    return found


_FACES_ASKED: dict[float, ImageFont.FreeTypeFont] = {}
"""The face of each size asked for: a board asks for one some 250 times."""


def _size_step(size: float) -> int:
    step = int(size)
    if step > SIZE_STEPS[-1]:
        return step - step % 16
    if step >= SIZE_STEPS[0]:
        return max(known for known in SIZE_STEPS if known <= step)
    return step


def image_bytes(value: Any) -> int:
    """The pixel bytes an image, a Pillow core image, or a tuple holding them keeps in memory."""
    if isinstance(value, tuple):
        return sum(image_bytes(item) for item in value)
    size, mode = getattr(value, "size", None), getattr(value, "mode", None)
    if not size or not mode:
        return 0
    bands = {"1": 1, "L": 1, "P": 1, "LA": 2, "RGB": 4, "RGBA": 4, "RGBX": 4, "I": 4, "F": 4}.get(mode, 4)
    pixels: int = size[0] * size[1]
    return pixels * bands


class _Forgettable(Protocol):
    def clear(self) -> None: ...


_EVERY_CACHE: weakref.WeakSet[_Forgettable] = weakref.WeakSet()


def forget_kept() -> None:
    """Empty every cache of drawn pixels and compressed bands: the next picture is drawn and
    encoded from scratch (the tests compare the two)."""
    for cache in list(_EVERY_CACHE):
        cache.clear()


class KeptWithin:
    """Values kept for reuse up to a number of bytes (`size` tells a value's), the least
    recently used dropped first. A bot hosts many games at once: caches bounded by entries grew
    with every board size and text seen, so each cache of drawn pixels or compressed bytes gets a
    byte budget instead (thread-safe: boards are drawn and encoded in worker threads)."""

    def __init__(self, budget: int, size: Callable[[Any], int], name: str = "") -> None:
        self.budget = budget
        self.used = 0
        self.name = name
        self.hits = 0  # counted for the benches (`kept_figures`): how often a value was found
        self.misses = 0
        self._size = size
        self._kept: OrderedDict[Any, tuple[Any, int]] = OrderedDict()
        self._lock = threading.Lock()
        _EVERY_CACHE.add(self)

    def get(self, key: Any) -> Any:
        with self._lock:
            found = self._kept.get(key)
            if found is None:
                self.misses += 1
                return None
            self.hits += 1
            self._kept.move_to_end(key)
            return found[0]

    def get_many(self, keys: Sequence[Any]) -> list[Any]:
        """`get` of each key, under one hold of the lock."""
        found: list[Any] = []
        with self._lock:
            for key in keys:
                entry = self._kept.get(key)
                if entry is None:
                    self.misses += 1
                    found.append(None)
                    continue
                self.hits += 1
                self._kept.move_to_end(key)
                found.append(entry[0])
        return found

    def put(self, key: Any, value: Kept) -> Kept:
        size = self._size(value)
        with self._lock:
            if key in self._kept:
                self.used -= self._kept.pop(key)[1]
            if size <= self.budget:
                self._kept[key] = (value, size)
                self.used += size
            while self.used > self.budget:
                self.used -= self._kept.popitem(last=False)[1][1]
        return value

    def __len__(self) -> int:
        return len(self._kept)

    def clear(self) -> None:
        with self._lock:
            self._kept.clear()
            self.used = 0


class KeptImages(KeptWithin):
    """Drawn images kept within a byte budget (`KeptWithin`)."""

    def __init__(self, budget: int, name: str = "") -> None:
        super().__init__(budget, image_bytes, name)


def kept_figures() -> list[tuple[str, int, int, int, int, int]]:
    """Every byte-bounded cache as (name, entries, bytes used, budget, hits, misses), for the
    benches: how much each keeps and how often what was asked for was still there."""
    return sorted((cache.name or "?", len(cache), cache.used, cache.budget, cache.hits, cache.misses)
                  for cache in list(_EVERY_CACHE) if isinstance(cache, KeptWithin))


class KeptDrawing(Protocol[Drawn]):
    """A function whose drawings `keep_drawn` keeps: called like it, with the cache beside it."""

    kept: KeptImages
    cache_clear: Callable[[], None]
    __wrapped__: Callable[..., Drawn]
    __name__: str

    def __call__(self, *args: Any) -> Drawn: ...


def keep_drawn(budget: int) -> Callable[[Callable[..., Drawn]], KeptDrawing[Drawn]]:
    """Like `functools.lru_cache` for functions that return drawn images, bounded in bytes."""
    def decorate(function: Callable[..., Drawn]) -> KeptDrawing[Drawn]:
        kept = KeptImages(budget, f"{function.__module__.rpartition('.')[2]}.{function.__name__}")

        def drawing(*args: Any) -> Drawn:
            found: Drawn | None = kept.get(args)
            return found if found is not None else kept.put(args, function(*args))

        cached = cast(KeptDrawing[Drawn], drawing)
        cached.kept = kept
        cached.cache_clear = kept.clear
        cached.__wrapped__ = function
        cached.__doc__ = function.__doc__
        cached.__name__ = function.__name__
        return cached
    return decorate


TEXT_MASKS = KeptImages(2 * 2**20, "TEXT_MASKS")
"""Text bitmaps of every face together: a few boards' worth of names, labels and numbers (those
of the tables before, compressed, in `PACKED_MASKS`)."""


class PackedMasks(KeptWithin):
    """Text bitmaps kept compressed (zlib-ng's fastest level: a text's bitmap is a fourth to a
    fifth of its pixels) within a byte budget, behind `TEXT_MASKS`: a table's texts come back at
    its next move, after every other table's, further back than `TEXT_MASKS` holds (at a hundred
    tables, some 12 MiB of bitmaps: half the texts rasterised would be found there). Unpacking one
    takes 10-35 us, rasterising it 0.2-2 ms."""

    ENTRY = 200  # the key, the tuple and the dictionary's slot, beside the compressed bytes

    def __init__(self, budget: int) -> None:
        super().__init__(budget, lambda packed: len(packed[0]) + self.ENTRY, "TEXT_MASKS_PACKED")

    def pack(self, key: Any, mask: tuple[ImagingCore, tuple[int, int]]) -> None:
        core, offset = mask
        if core.size[0] and core.size[1]:
            pixels = Image.Image()._new(core).tobytes()  # bytes(core) reads pixel by pixel: 20 times longer
            self.put(key, (zlib_ng.compress(pixels, 1), core.mode, core.size, offset))

    def unpacked(self, key: Any) -> tuple[ImagingCore, tuple[int, int]] | None:
        found: tuple[bytes, str, tuple[int, int], tuple[int, int]] | None = self.get(key)
        if found is None:
            return None
        data, mode, size, offset = found
        return Image.frombytes(mode, size, zlib_ng.decompress(data)).im, offset


PACKED_MASKS = PackedMasks(3 * 2**20)
"""3 MiB: some 1,000 texts, 9 MiB of bitmaps; at a hundred tables, 70 % of the texts `TEXT_MASKS`
no longer held, where 2 MiB found 28 % (and 3 + 2 MiB of plain and packed bitmaps drew 2.1 times
as many texts as 2 + 3)."""


class PackedImages(KeptWithin):
    """Drawn images kept compressed (zlib-ng's fastest level) within a byte budget, behind a cache
    of the images themselves: a drawing of flat colours packs to a fiftieth of its pixels (a
    Carcassonne tile's master: 400 KB, some 8 KB packed), and unpacking it costs a fraction of
    drawing it again."""

    ENTRY = 200  # the key, the tuple and the dictionary's slot, beside the compressed bytes

    def __init__(self, budget: int, name: str) -> None:
        super().__init__(budget, lambda packed: len(packed[0]) + self.ENTRY, name)

    def pack(self, key: Any, image: Image.Image) -> Image.Image:
        self.put(key, (zlib_ng.compress(image.tobytes(), 1), image.mode, image.size))
        return image

    def unpacked(self, key: Any) -> Image.Image | None:
        found: tuple[bytes, str, tuple[int, int]] | None = self.get(key)
        if found is None:
            return None
        data, mode, size = found
        return Image.frombytes(mode, size, zlib_ng.decompress(data))


class _MaskCachedFont(ImageFont.FreeTypeFont):
    """A face that keeps the bitmaps of the texts it drew last (in `TEXT_MASKS`, shared by all
    faces): a board draws the same labels, names and numbers every turn, and rasterising text is
    most of a board's drawing time."""

    def getmask2(self, text: str | bytes, mode: str = "", direction: str | None = None,
                 features: list[str] | None = None, language: str | None = None, stroke_width: float = 0,
                 anchor: str | None = None, ink: int = 0, start: tuple[float, float] | None = None, *args: Any,
                 **kwargs: Any) -> tuple[ImagingCore, tuple[int, int]]:
        if mode == "RGBA" or args:  # colour glyphs are changed by the caller: never share them
            return super().getmask2(text, mode, direction, features, language, stroke_width, anchor, ink,
                                    start, *args, **kwargs)
        # Not the ink: it colours the glyphs of "RGBA" alone, so a text drawn in another colour
        # finds its bitmap.
        key = (self.size, text, mode, direction, tuple(features or ()), language, stroke_width, anchor, start,
               tuple(sorted(kwargs.items())) if kwargs else ())
        found: tuple[ImagingCore, tuple[int, int]] | None = TEXT_MASKS.get(key)
        if found is None:
            found = PACKED_MASKS.unpacked(key)
            if found is None:
                found = super().getmask2(text, mode, direction, features, language, stroke_width, anchor, ink,
                                         start, **kwargs)
                PACKED_MASKS.pack(key, found)
            TEXT_MASKS.put(key, found)
        return found

    # Fitting and wrapping measure the same words board after board (each a layout of the text
    # by FreeType): the measures are kept too (`MEASURES`, shared by all faces).

    def getlength(self, text: str | bytes, mode: str = "", direction: str | None = None,
                  features: list[str] | None = None, language: str | None = None) -> float:
        key = (self.size, "length", text, mode, direction, tuple(features or ()), language)
        found: float | None = MEASURES.get(key)
        if found is None:
            found = MEASURES.put(key, super().getlength(text, mode, direction, features, language))
        return found

    def getbbox(self, text: str | bytes | bytearray, mode: str = "", direction: str | None = None,
                features: list[str] | None = None, language: str | None = None, stroke_width: float = 0,
                anchor: str | None = None) -> tuple[float, float, float, float]:
        key = (self.size, "box", bytes(text) if isinstance(text, bytearray) else text, mode, direction,
               tuple(features or ()), language, stroke_width, anchor)
        found: tuple[float, float, float, float] | None = MEASURES.get(key)
        if found is None:
            found = MEASURES.put(key, super().getbbox(text, mode, direction, features, language, stroke_width,
                                                      anchor))
        return found


MEASURE_BYTES = 320
"""What a kept measure holds in memory: its key (a tuple of the text and how it is set), the value
and the cache's entry."""
MEASURES = KeptWithin(2**19, lambda measure: MEASURE_BYTES, "MEASURES")
"""Lengths and boxes of texts the faces measured (every face is `FONT_PATH` at its size), the least
recently used dropped first: some 1,600 (a board measures a few hundred texts; a hundred tables
held some 1,200 at a time; emptied whole at 2,048 instead, they measured 15 % more texts again)."""


@lru_cache(maxsize=24)
def _face(size: int) -> ImageFont.FreeTypeFont:
    return _MaskCachedFont(FONT_PATH, size, index=FONT_INDEX)


@lru_cache(maxsize=1)
def _missing_glyph() -> bytes:
    return _glyph_signature("\U0010fffd")


def _glyph_signature(char: str) -> bytes:
    mask = font(32).getmask(char)
    return hashlib.blake2b(bytes(mask) + repr(mask.size).encode(), digest_size=12).digest()


@lru_cache(maxsize=8192)
def has_glyph(char: str) -> bool:
    """Whether the font draws `char` (spaces and joiners count as drawable)."""
    if char.isspace() or char in "\u200d\ufe0f\ufe0e":
        return True
    return _glyph_signature(char) != _missing_glyph()


def drawable(text: str, fallback: str = "") -> str:
    """`text` without the characters the font cannot draw (emoji), tidied; `fallback` if
    nothing readable is left."""
    kept = "".join(_readable(char) for char in str(text))
    kept = " ".join(kept.split())
    return kept if any(char.isalnum() for char in kept) else fallback


def _readable(char: str) -> str:
    """The character, or its base letters if only the accented form is missing (polytonic
    Greek "Ἀ" -> "Α"), or nothing."""
    if char in "\u200d\ufe0f\ufe0e":
        return ""
    if has_glyph(char):
        return char
    return "".join(part for part in unicodedata.normalize("NFKD", char)
                   if has_glyph(part) and not unicodedata.combining(part))


def seat_label(seat: int) -> str:
    return f"P{seat + 1}"


def seat_names(names: Sequence[str], seats: int) -> list[str]:
    """Drawable names for every seat: emoji dropped, and "P3" for a name that is only emoji."""
    return [drawable(names[seat], seat_label(seat)) if seat < len(names) else seat_label(seat)
            for seat in range(seats)]


def initial(name: str) -> str:
    """The first drawable letter of a name, upper-cased ("A" for "anna", "安" for "安娜")."""
    for char in name:
        if char.isalnum():
            return char.upper()
    return "?"


@lru_cache(maxsize=1024)
def ink_box(text: str, size: int) -> tuple[int, int, int, int]:
    """The box of `text`'s ink at `size`, relative to the left end of its baseline."""
    left, top, right, bottom = font(size).getbbox(text, anchor="ls")  # whole pixels (typed as floats)
    return int(left), int(top), int(right), int(bottom)


def ink_height(text: str, size: int) -> int:
    """How tall `text`'s ink stands at `size`, in pixels (a digit: some 0.73 of the size)."""
    _, top, _, bottom = ink_box(text, size)
    return int(bottom - top)


def mark_text(draw: ImageDraw.ImageDraw, centre: tuple[float, float], text: str, fill: Ink = INK,
              size: int = MARK_TEXT) -> None:
    """A number or letter inside a piece, its ink centred on `centre` and recorded as a mark
    (the layout tests hold marks to `MIN_MARK`)."""
    with marks():
        ink_centred_text(draw, centre, text, size, fill)


def ink_centred_text(draw: ImageDraw.ImageDraw, centre: tuple[float, float], text: str, size: int,
                     fill: Ink = INK) -> None:
    """`text` with its ink (not its line's box) centred on `centre`: a digit sits in the middle of
    its disc or plate whatever the font's ascent."""
    left, top, right, bottom = ink_box(text, size)
    draw.text((centre[0] - (left + right) / 2, centre[1] - (top + bottom) / 2), text, font=font(size),
              fill=fill, anchor="ls")


def text_mask(text: str, size: int, anchor: str = "la", stroke_width: int = 0) -> tuple[ImagingCore, int, int]:
    """The coverage of `text` as `ImageDraw.text` draws it at a whole pixel with `anchor` (stroked
    `stroke_width` wide in the text's own ink), and where its top-left corner stands from that
    pixel: the bitmap the face keeps (`TEXT_MASKS`), for a renderer that stamps text itself
    (`stamp_text`)."""
    mask, (left, top) = font(size).getmask2(text, "L", None, None, None, stroke_width, anchor, 0, (0.0, 0.0),
                                            stroke_filled=True)
    return mask, left, top


def stamp_text(draw: ImageDraw.ImageDraw, xy: tuple[int, int], mask: ImagingCore, fill: Ink) -> None:
    """A text's coverage (`text_mask`) stamped in `fill` with its top-left corner at `xy`, as
    `ImageDraw.text` stamps it (the layout tests learn of it by `note_text`). On an RGB image the
    ink is pasted through the coverage from a plain image of it: the same blend of each channel
    (`BLEND` of Pillow's Paste.c), at half the CPU of `draw_bitmap`, whose fill compares the
    image's mode for every channel of every pixel (some 5 ns a pixel: Knatsch stamps 35 texts, some
    400,000 pixels of coverage, a board)."""
    width, height = mask.size
    if isinstance(draw, PaletteDraw):
        draw.stamp(xy, mask, fill)
        return
    if draw._image.mode == "RGB" and width and height:
        colour = ImageColor.getrgb(fill) if isinstance(fill, str) else tuple(fill[:3])
        draw._image.im.paste(_imaging.fill("RGB", (width, height), colour),
                             (xy[0], xy[1], xy[0] + width, xy[1] + height), mask)
        return
    ink, fill_ink = draw._getink(fill)
    draw.draw.draw_bitmap(xy, mask, fill_ink if ink is None else ink)


def text_width(draw: ImageDraw.ImageDraw, text: str, size: int) -> int:
    left, _, right, _ = draw.textbbox((0, 0), text, font=font(size))
    return int(right - left)


def centred_text(draw: ImageDraw.ImageDraw, centre: tuple[float, float], text: str, size: int,
                 fill: Ink = INK) -> None:
    draw.text(centre, text, font=font(size), fill=fill, anchor="mm")


def fit(text: str, size: int, width: float, smallest: int = MIN_TEXT) -> tuple[str, int]:
    """Shrink the type down to `smallest`, then cut the text with an ellipsis, to fit `width`."""
    while size > smallest and font(size).getlength(text) > width:
        size -= 1
    if font(size).getlength(text) <= width:
        return text, size
    # Whole words go first, so nothing is cut inside a word ("2 auf der…", not "2 auf der H…").
    words = text.split(" ")
    while len(words) > 1 and font(size).getlength(" ".join(words) + "…") > width:
        words.pop()
    text = " ".join(words)
    while text and font(size).getlength(text + "…") > width:
        text = text[:-1]  # one word longer than the line: no boundary to cut at
    return text.rstrip(" ,;:·—-") + "…", size


def wrap(text: str, size: int, width: float) -> list[str]:
    """Lines of `text` no wider than `width` (words kept whole where they fit; CJK text, which
    has no spaces, is broken between characters)."""
    face = font(size)
    lines: list[str] = []
    line = Line(face, width)
    for word in str(text).split(" "):
        longer = line.joined(f" {word}") if line.text else line.started(word)
        if longer is not None:
            line = longer
            continue
        if line.text:
            lines.append(line.text)
        line = Line(face, width)
        for char in word:  # a word wider than a line: broken where the line is full
            longer = line.joined(char) if line.text else line.alone(char)
            if longer is None:
                lines.append(line.text)
                longer = line.alone(char)
            line = longer
    if line.text:
        lines.append(line.text)
    return lines


JOIN_SLACK = 0.5
"""How far, in ems, the length of two texts set one after the other may stand from the sum of
their lengths (shaping moves the glyphs where they meet: the font's widest kerning pair, "PJ", is
a sixth of an em)."""


@dataclass(frozen=True)
class Line:
    """A line of text being filled word by word up to `width`, its length known within `error`
    pixels. Each word (or character) is measured alone, words come back board after board, so
    its measure is mostly kept, and the line's length is the sum; a line is measured whole only
    where the sum cannot tell whether it fits. A line laid out by FreeType costs the same whatever
    its length (the shaper's setting up): measuring the growing line at every word was most of
    the measuring a board did, its status lines being new every move."""

    face: ImageFont.FreeTypeFont
    width: float
    text: str = ""
    length: float = 0.0
    error: float = 0.0

    def alone(self, text: str) -> Line:
        """A line of `text` alone, measured."""
        return Line(self.face, self.width, text, self.face.getlength(text))

    def started(self, text: str) -> Line | None:
        """A line of `text` alone, if it fits."""
        line = self.alone(text)
        return line if line.length <= self.width else None

    def joined(self, text: str) -> Line | None:
        """This line with `text` after it, if the two fit: what measuring them together says."""
        length = self.length + self.face.getlength(text)
        error = self.error + JOIN_SLACK * self.face.size
        if length - error > self.width:
            return None
        if length + error > self.width:  # too close to tell: the line measured whole
            length, error = self.face.getlength(self.text + text), 0.0
            if length > self.width:
                return None
        return Line(self.face, self.width, self.text + text, length, error)


def seat_badge(draw: ImageDraw.ImageDraw, centre: tuple[float, float], radius: float, seat: int,
               *, outline: Ink = INK) -> None:
    """A player's mark: a disc in the seat colour with the seat number inside."""
    x, y = centre
    colour = SEAT_COLOURS[seat % len(SEAT_COLOURS)]
    draw.ellipse((x - radius, y - radius, x + radius, y + radius), fill=colour, outline=outline,
                 width=max(2, int(radius // 8)))
    draw.text((x, y), str(seat + 1), font=font(max(MIN_TEXT, int(radius * 1.3))), fill=ink_on(colour), anchor="mm")


MARK_RADIUS = 30
"""A disc that holds a `MARK_TEXT` digit with room round its corners."""


PLATE = (44, 46)
"""A seat plate's width and height: a `MARK_TEXT` digit with a rim, in a line of 40 px type."""


def seat_plate(draw: ImageDraw.ImageDraw, centre: tuple[float, float], seat: int, size: tuple[int, int] = PLATE,
               *, outline: Ink = INK) -> None:
    """A player's mark in a line of text (a disc of `MARK_RADIUS` would not fit it): a rounded plate
    in the seat colour, the seat number inside at `MARK_TEXT` (41 px of ink)."""
    x, y = centre
    width, height = size
    colour = SEAT_COLOURS[seat % len(SEAT_COLOURS)]
    draw.rounded_rectangle((x - width / 2, y - height / 2, x + width / 2, y + height / 2),
                           radius=min(width, height) // 4, fill=colour, outline=outline, width=2)
    mark_text(draw, centre, str(seat + 1), ink_on(colour))


def plate_size(text: str) -> tuple[int, int]:
    """A number plate's width and height: `text` at the text standard (`MIN_TEXT`) with a rim."""
    left, top, right, bottom = ink_box(text, MIN_TEXT)
    return int(right - left) + 16, int(bottom - top) + 14


def number_plate(draw: ImageDraw.ImageDraw, centre: tuple[float, float], text: str, fill: Ink = INK,
                 ink: Ink = WHITE) -> None:
    """A number standing on a small drawing (a group's on a map): `text` at the text standard on a
    rounded plate, ringed in the ink's colour so that it reads on any ground."""
    x, y = centre
    width, height = plate_size(text)
    draw.rounded_rectangle((x - width / 2 - 2, y - height / 2 - 2, x + width / 2 + 2, y + height / 2 + 2),
                           radius=height // 4 + 2, fill=ink)
    draw.rounded_rectangle((x - width / 2, y - height / 2, x + width / 2, y + height / 2), radius=height // 4,
                           fill=fill)
    ink_centred_text(draw, centre, text, MIN_TEXT, ink)


# ----------------------------------------------------------------------------------------
# What a renderer drew, for the layout tests: every text's box, words and size.


@dataclass(frozen=True)
class DrawnText:
    box: tuple[int, int, int, int]  # left, top, right, bottom on the image
    text: str
    size: int  # the font size asked for
    mark: bool = False  # a number or letter inside a piece (drawn within `marks`)

    def overlaps(self, other: DrawnText, margin: int = 0) -> bool:
        left, top, right, bottom = self.box
        o_left, o_top, o_right, o_bottom = other.box
        return (left + margin < o_right and o_left + margin < right
                and top + margin < o_bottom and o_top + margin < bottom)


_drawn_texts: list[list[DrawnText]] = []
_drawn_lock = threading.Lock()


@contextmanager
def recording_texts() -> Iterator[list[DrawnText]]:
    """Every text drawn (by any renderer, through `ImageDraw.text`) while the block runs.

    Layout tests use it to check the smallest size, that texts stay on the image and that no
    two texts overlap; renderers need do nothing for it."""
    records: list[DrawnText] = []
    with _drawn_lock:
        if not _drawn_texts:
            original = ImageDraw.ImageDraw.text

            def recording(self: ImageDraw.ImageDraw, xy: tuple[float, float], text: Any, fill: Any = None,
                          font: Any = None, anchor: str | None = None, *args: Any, **kwargs: Any) -> None:
                if _drawn_texts and text and str(text).strip() and not getattr(_unrecorded, "depth", 0):
                    measured = {k: v for k, v in kwargs.items() if k in ("spacing", "align", "stroke_width")}
                    box = self.textbbox(xy, text, font=font, anchor=anchor, **measured)
                    size = int(getattr(font, "size", 0) or 0)
                    mark = bool(getattr(_marking, "depth", 0))
                    left, top, right, bottom = box
                    for sink in _drawn_texts:
                        sink.append(DrawnText((int(left), int(top), int(right), int(bottom)), str(text), size, mark))
                return original(self, xy, text, fill, font, anchor, *args, **kwargs)

            recording.original = original  # type: ignore[attr-defined]
            ImageDraw.ImageDraw.text = recording  # type: ignore[method-assign]
        _drawn_texts.append(records)
    try:
        yield records
    finally:
        with _drawn_lock:
            # by identity: two recorders of the same texts are equal lists (nested recorders)
            del _drawn_texts[next(i for i, sink in enumerate(_drawn_texts) if sink is records)]
            if not _drawn_texts:
                ImageDraw.ImageDraw.text = ImageDraw.ImageDraw.text.original  # type: ignore[attr-defined,method-assign]


def texts_recorded() -> bool:
    """Whether the layout tests are recording the texts drawn (`recording_texts`): a renderer
    that would paste a picture it kept draws it instead, so that every text is recorded."""
    return bool(_drawn_texts)


_unrecorded = threading.local()
_unrecorded.depth = 0


@contextmanager
def unrecorded() -> Iterator[None]:
    """Text drawn meanwhile is not where it will stand (a mask drawn once and pasted later, which
    `note_text` then reports): the layout records leave it out."""
    _unrecorded.depth = getattr(_unrecorded, "depth", 0) + 1
    try:
        yield
    finally:
        _unrecorded.depth -= 1


_marking = threading.local()
_marking.depth = 0


@contextmanager
def marks() -> Iterator[None]:
    """Text drawn (or noted) meanwhile is a number or letter inside a piece: the layout records
    mark it, and the tests hold its ink to `MIN_MARK`."""
    _marking.depth = getattr(_marking, "depth", 0) + 1
    try:
        yield
    finally:
        _marking.depth -= 1


def note_text(box: Sequence[float], text: str, size: int) -> None:
    """For a renderer that pastes text it drew earlier (a cached mask) instead of calling
    `ImageDraw.text`: tell the layout tests what stands where."""
    if _drawn_texts and str(text).strip():
        mark = bool(getattr(_marking, "depth", 0))
        left, top, right, bottom = box
        for sink in _drawn_texts:
            sink.append(DrawnText((int(left), int(top), int(right), int(bottom)), str(text), int(size), mark))


# ----------------------------------------------------------------------------------------
# Parts of a board kept from one move to the next


Box = tuple[int, int, int, int]

class KeptParts(KeptImages):
    """Drawn parts kept within a byte budget in two segments (a segmented LRU): a part enters on
    probation and is promoted when found again; the promoted keep up to half the budget, the
    least recently used of them going back on probation, and what leaves the budget leaves from
    probation first. So the parts found again and again (a legend: the same at every table of a
    game and language) stay, however many parts of other tables pass through once; with a
    plain LRU a hundred tables' rows and boxes pushed the legends out between two boards."""

    def __init__(self, budget: int, name: str = "") -> None:
        super().__init__(budget, name)
        self._promoted: OrderedDict[Any, tuple[Any, int]] = OrderedDict()
        self._promoted_used = 0

    def get(self, key: Any) -> Any:
        with self._lock:
            found = self._promoted.get(key)
            if found is not None:
                self._promoted.move_to_end(key)
            else:
                found = self._kept.pop(key, None)
                if found is None:
                    self.misses += 1
                    return None
                self._promoted[key] = found
                self._promoted_used += found[1]
                while self._promoted_used > self.budget // 2 and len(self._promoted) > 1:
                    demoted, entry = self._promoted.popitem(last=False)
                    self._promoted_used -= entry[1]
                    self._kept[demoted] = entry  # back on probation, as its most recent
            self.hits += 1
            return found[0]

    def get_many(self, keys: Sequence[Any]) -> list[Any]:
        return [self.get(key) for key in keys]

    def put(self, key: Any, value: Kept) -> Kept:
        size = self._size(value)
        with self._lock:
            for segment in (self._kept, self._promoted):
                replaced = segment.pop(key, None)
                if replaced is not None:
                    self.used -= replaced[1]
                    if segment is self._promoted:
                        self._promoted_used -= replaced[1]
            if size <= self.budget:
                self._kept[key] = (value, size)
                self.used += size
            while self.used > self.budget:
                if self._kept:
                    self.used -= self._kept.popitem(last=False)[1][1]
                else:
                    entry = self._promoted.popitem(last=False)[1]
                    self._promoted_used -= entry[1]
                    self.used -= entry[1]
        return value

    def __len__(self) -> int:
        return len(self._kept) + len(self._promoted)

    def clear(self) -> None:
        with self._lock:
            self._kept.clear()
            self._promoted.clear()
            self.used = self._promoted_used = 0


KEPT_PARTS = KeptParts(2 * 2**20, "KEPT_PARTS")
"""Parts of boards as drawn, in their board's palette (a player's row, a legend: 50 to 250 KB
each): 2 MiB, the parts of the last two or three tables' boards, and the legends found again
and again (`KeptParts`). A table's moves follow each other: with hundreds of tables at once,
keeping a table's parts until its next move would take more memory than redrawing them costs
CPU; kept compressed, a hundred tables' parts were found 64-70 % of the time instead of 44 %,
but unpacking them cost what they saved."""

VERIFY_KEPT_PARTS = False
"""Tests set it: a part found in `KEPT_PARTS` is drawn all the same, and must have drawn nothing
outside its box and come out, in the finished board, as the part kept."""

_PENDING_PARTS = "kept parts"  # an image's info: its parts to keep or paste once in its palette


def kept_part(image: Image.Image, box: Box, key: Hashable, draw_part: Callable[[], object]) -> None:
    """Draw a part of a board, or leave it to be pasted as it was drawn before: most of a board
    (the players a move left alone, a legend) is the same from one move to the next. The board
    must be finished with `to_palette`, which keeps the part, or pastes the kept one over its
    box. So `draw_part` must draw within `box` only, onto the board's plain background (nothing
    drawn there before), nothing may be drawn into the box after it, and the part must depend
    on `key` alone; the tests check all of it (`VERIFY_KEPT_PARTS`). Drawn as ever while the
    layout tests record the texts drawn."""
    if _drawn_texts:
        draw_part()
        return
    full_key = (key, box, image.mode)
    found: Image.Image | None = KEPT_PARTS.get(full_key)
    pending = image.info.setdefault(_PENDING_PARTS, [])
    if found is not None and VERIFY_KEPT_PARTS:
        before = image.copy()
        draw_part()
        before.paste(image.crop(box), box[:2])
        if before.tobytes() != image.tobytes():
            raise AssertionError(f"a kept part drew outside its box: {key!r} at {box}")
    elif found is None:
        draw_part()
    pending.append((full_key, box, found))


def _settle_parts(drawn: Image.Image, finished: Image.Image) -> None:
    """Keep the parts `drawn` drew, and paste the kept ones it left out, on `finished` (the
    board in its palette)."""
    for full_key, box, found in drawn.info.pop(_PENDING_PARTS, ()):
        if found is None:
            KEPT_PARTS.put(full_key, finished.crop(box))
            continue
        if found.getpalette() != finished.getpalette():
            raise AssertionError(f"a kept part of another palette: {full_key!r}")
        if VERIFY_KEPT_PARTS:
            if finished.crop(box).tobytes() != found.tobytes():
                raise AssertionError(f"a kept part differs from its drawing: {full_key!r}")
            continue
        finished.paste(found, box[:2])


@dataclass(frozen=True)
class RowsPart:
    """A part of a board that spans its width from `top` to `bottom` (a player's row, a legend),
    depends on `key` alone, and is drawn by `draw_rows(draw, y)` with its top at row `y` of the
    image `draw` draws on (translated by whole rows, a drawing gives the same pixels)."""

    top: int
    bottom: int
    key: Hashable
    draw_rows: Callable[[ImageDraw.ImageDraw, int], object]
    compose: Callable[[], Image.Image | None] | None = None
    """Its rows put together straight in the board's palette, the very pixels `draw_rows` gives
    once quantized (None where they cannot be: then they are drawn): `board_of_parts` uses it for
    a part it does not keep, and the tests that verify kept parts compare the two."""


def board_with_rows(image: Image.Image, size: tuple[int, int], rows: Sequence[RowsPart], palette: Image.Image,
                    background: Ink = BACKGROUND) -> Image.Image:
    """A board of `size` in `palette`: `image` (RGB, the board down to where `rows` start, its
    kept parts pending as `kept_part` leaves them), with the full-width parts `rows` under it,
    which must cover every row from `image`'s foot to the board's, each kept as `kept_part`
    keeps a part. A row drawn before is pasted as it was kept; one that is not is drawn on an
    image of its own rows and quantized alone: the rows are never part of a whole board's image,
    so a row kept costs neither filling nor quantizing its pixels (the two are most of what a
    board costs beside its text), and quantizing goes pixel by pixel, so the pixels are those of
    drawing the whole board at once. While the layout tests record what is drawn, or the tests
    verify kept parts, the rows are drawn in place on the whole board (`kept_part`)."""
    width, height = size
    if [image.height, *(part.bottom for part in rows)] != [*(part.top for part in rows), height]:
        raise ValueError(f"rows that do not tile the board from row {image.height} down: {rows!r}")
    if _drawn_texts or VERIFY_KEPT_PARTS:
        whole = Image.new(image.mode, size, background)
        whole.paste(image, (0, 0))
        whole.info = image.info.copy()
        draw = ImageDraw.Draw(whole)
        for part in rows:
            kept_part(whole, (0, part.top, width, part.bottom), part.key, partial(part.draw_rows, draw, part.top))
        return to_palette(whole, palette)
    finished = Image.new("P", size, None)  # not filled: every row is pasted over
    finished.putpalette(palette.getpalette() or [])
    if image.height:
        finished.paste(to_palette(image, palette), (0, 0))
    for part in rows:
        full_key = (part.key, (0, part.top, width, part.bottom), image.mode)  # as `kept_part` keeps it
        found: Image.Image | None = KEPT_PARTS.get(full_key)
        if found is None:
            drawn = Image.new(image.mode, (width, part.bottom - part.top), background)
            part.draw_rows(ImageDraw.Draw(drawn), 0)
            found = KEPT_PARTS.put(full_key, to_palette(drawn, palette))
        elif found.getpalette() != finished.getpalette():
            raise AssertionError(f"a kept part of another palette: {part.key!r}")
        finished.paste(found, (0, part.top))
    return finished


def kept_piece(key: Hashable, make_piece: Callable[[], Image.Image]) -> Image.Image:
    """A part of a board drawn on an image of its own and quantized alone (`make_piece` does
    both), kept in `KEPT_PARTS` under `key` for the next board that shows it, so that a board
    composed straight in its palette pastes it as it was drawn before. `key` must tell all the
    piece depends on; while the tests verify kept parts (`VERIFY_KEPT_PARTS`) a piece found is
    made again all the same and must come out as the one kept."""
    found: Image.Image | None = KEPT_PARTS.get(key)
    if found is None:
        return KEPT_PARTS.put(key, make_piece())
    if VERIFY_KEPT_PARTS:
        fresh = make_piece()
        if fresh.tobytes() != found.tobytes() or fresh.getpalette() != found.getpalette():
            raise AssertionError(f"a kept piece differs from its drawing: {key!r}")
    return found


def board_of_parts(size: tuple[int, int], parts: Sequence[RowsPart], palette: Image.Image,
                   drawing: Callable[[Image.Image], ImageDraw.ImageDraw] = ImageDraw.Draw,
                   background: Ink = BACKGROUND) -> Image.Image:
    """A board of `size` in `palette` put together from full-width `parts` that tile it from its
    top row to its foot, straight into the palette image: a part kept before (`KEPT_PARTS`) is
    pasted; any other is drawn on an RGB image of its own rows (with `drawing(image)`, its top at
    row 0) and quantized alone, then kept, unless its key is None (a part new at every move: the
    status, the newest events). So a move costs the filling and quantizing of the parts it
    changed, not of the whole board; quantizing goes pixel by pixel, so the pixels are those of
    the board drawn whole, as long as each part draws within its own rows. A part is kept by its
    key and its height, wherever it stands: drawn on its own image, a part moved up or down
    (under a taller status, say) is the same part. While the layout tests record what is drawn,
    or the tests verify kept parts, the parts are drawn in place on the whole board; verifying,
    each is drawn alone as well and must give its rows of the whole board, and a part kept must
    be what drawing it gives."""
    width, height = size
    parts = [part for part in parts if part.bottom > part.top]
    if [0, *(part.bottom for part in parts)] != [*(part.top for part in parts), height]:
        raise ValueError(f"parts that do not tile the board: {parts!r}")
    if _drawn_texts or VERIFY_KEPT_PARTS:
        whole = Image.new("RGB", size, background)
        draw = drawing(whole)
        for part in parts:
            part.draw_rows(draw, part.top)
        finished = to_palette(whole, palette)
        if VERIFY_KEPT_PARTS and not _drawn_texts:
            for part in parts:
                _verify_part(part, width, palette, drawing, background, finished)
        return finished
    finished = Image.new("P", size, None)  # not filled: every row is pasted over
    finished.putpalette(palette.getpalette() or [])
    # Every part looked up before any is kept: a part kept first could push out a later part of
    # the same board, the least recently used since the board before.
    kept: list[Image.Image | None] = [None if part.key is None else KEPT_PARTS.get(_part_key(part, width))
                                      for part in parts]
    for part, found in zip(parts, kept):
        if found is None:
            found = _part_alone(part, width, palette, drawing, background)
        elif found.getpalette() != finished.getpalette():
            raise AssertionError(f"a kept part of another palette: {part.key!r}")
        finished.paste(found, (0, part.top))
    for part, found in zip(parts, kept):
        if found is None and part.key is not None:
            KEPT_PARTS.put(_part_key(part, width), finished.crop((0, part.top, width, part.bottom)))
    return finished


def _part_key(part: RowsPart, width: int) -> tuple[Hashable, int, int, str]:
    """What `board_of_parts` keeps a part by: its key and its size, not where it stands."""
    return (part.key, width, part.bottom - part.top, "board part")


def _part_alone(part: RowsPart, width: int, palette: Image.Image,
                drawing: Callable[[Image.Image], ImageDraw.ImageDraw], background: Ink) -> Image.Image:
    """A part of a board drawn on an image of its own rows and quantized alone (or composed in
    the palette, where the part can be: `RowsPart.compose`)."""
    composed = part.compose() if part.compose is not None else None
    if composed is not None:
        return composed
    alone = Image.new("RGB", (width, part.bottom - part.top), background)
    part.draw_rows(drawing(alone), 0)
    return to_palette(alone, palette)


def _verify_part(part: RowsPart, width: int, palette: Image.Image,
                 drawing: Callable[[Image.Image], ImageDraw.ImageDraw], background: Ink,
                 finished: Image.Image) -> None:
    """That a part drawn alone is its rows of the board `finished` drawn whole, and is the part
    kept under its key (kept now if none is)."""
    alone = _part_alone(part, width, palette, drawing, background)
    if alone.tobytes() != finished.crop((0, part.top, width, part.bottom)).tobytes():
        raise AssertionError(f"a board's part drawn alone differs from its rows drawn whole (drawn outside "
                             f"its rows?): {part.key!r} at rows {part.top} to {part.bottom}")
    if part.key is None:
        return
    found = KEPT_PARTS.get(_part_key(part, width))
    if found is None:
        KEPT_PARTS.put(_part_key(part, width), alone)
    elif found.tobytes() != alone.tobytes():
        raise AssertionError(f"a kept part differs from its drawing: {part.key!r}")


class NotComposable(Exception):
    """A drawing on a palette image (`PaletteDraw`) that might come out otherwise than the board
    drawn in RGB and quantized: the caller draws the board in RGB instead."""


class PaletteDraw(ImageDraw.ImageDraw):
    """Draws straight onto a board in its palette what drawing it in RGB and quantizing it
    (`to_palette`) gives, pixel for pixel, so the board is never quantized whole (some 2 ms for a
    1080 x 1350 board, most of it flat paint). Shapes (not anti-aliased: each pixel takes the ink
    or is left) take the index their colour quantizes to, and only colours the palette holds
    exactly are allowed, so every pixel not inked by text has its RGB colour as its palette entry.
    A text's pixels are its coverage blended over that colour and quantized, as in RGB: over one
    colour, a table of the 256 blends (`_blend_table`, shared by every board); over several, the
    text's box drawn in RGB and quantized alone. Text over another text's ink (whose blend the
    palette lost) raises `NotComposable`, as does any colour or call it cannot give exactly."""

    def __init__(self, image: Image.Image, palette: Image.Image) -> None:
        super().__init__(image)
        self.palette = None  # colours are mapped here (`index`), never added to the image's palette
        self.board_palette = palette
        self._colours = bytes(palette.getpalette() or [])
        self._exact = _exact_indices(self._colours)
        self._texts: list[tuple[Box, ImagingCore]] = []
        # Where pieces quantized alone lie (`paste_quantized`) and no shape has painted since: 255.
        self._quantized: Image.Image | None = None
        self._quantized_draw: ImageDraw.ImageDraw | None = None

    @property
    def colours(self) -> bytes:
        """The board's palette, three bytes a colour (what `quantized_piece` quantizes to)."""
        return self._colours

    def index(self, colour: Ink) -> int:
        """The palette index of a colour the palette holds exactly."""
        rgb = ImageColor.getrgb(colour) if isinstance(colour, str) else tuple(colour)
        found = self._exact.get(rgb[:3]) if len(rgb) == 3 or (len(rgb) == 4 and rgb[3] == 255) else None
        if found is None:
            raise NotComposable(f"a colour the palette does not hold exactly: {colour!r}")
        return found

    def _getink(self, ink: Any, fill: Any = None) -> tuple[int | None, int | None]:
        if ink is None and fill is None:
            raise NotComposable("a drawing in the default ink")
        if type(ink) is int and ink == 1 and fill is None:  # Pillow's polygon with a wide outline, for its mask
            return self.draw.draw_ink(1), None
        return (None if ink is None else self.draw.draw_ink(self.index(ink)),
                None if fill is None else self.draw.draw_ink(self.index(fill)))

    def text(self, xy: tuple[float, float], text: Any, fill: Any = None, font: Any = None,
             anchor: str | None = None, *args: Any, **kwargs: Any) -> None:
        """A line of text as `ImageDraw.text` sets it on an RGB image (its bitmap from the face at
        the fraction of a pixel `xy` asks, stamped at the whole pixel), stamped in the palette; with
        a stroke, the stroke's bitmap first and the text's over it (`stamp_stroked`)."""
        stroke_width, stroke_fill = kwargs.pop("stroke_width", 0), kwargs.pop("stroke_fill", None)
        if args or kwargs or not isinstance(font, ImageFont.FreeTypeFont) or not isinstance(text, str) \
                or "\n" in text or fill is None or (stroke_width and stroke_fill is None):
            raise NotComposable("text set otherwise than one line in a face")
        start = (xy[0] - int(xy[0]), xy[1] - int(xy[1]))  # math.modf's fractions, as `ImageDraw.text` takes them
        mask, (left, top) = font.getmask2(text, "L", None, None, None, 0, anchor or "la", 0, start,
                                          stroke_filled=True)
        if not stroke_width:
            self.stamp((int(xy[0]) + left, int(xy[1]) + top), mask, fill)
            return
        stroke, (stroke_left, stroke_top) = font.getmask2(text, "L", None, None, None, stroke_width, anchor or "la",
                                                          0, start, stroke_filled=True)
        self.stamp_stroked((int(xy[0]) + stroke_left, int(xy[1]) + stroke_top), stroke, stroke_fill,
                           (int(xy[0]) + left, int(xy[1]) + top), mask, fill)

    def stamp_stroked(self, stroke_xy: tuple[int, int], stroke: ImagingCore, stroke_fill: Ink,
                      xy: tuple[int, int], mask: ImagingCore, fill: Ink) -> None:
        """A stroked text: its stroke's coverage in `stroke_fill`, then the text's in `fill` over it, as
        `ImageDraw.text` blends them on an RGB image one after the other; the two blends are made in
        RGB on the text's box alone and quantized (a text's box: some 20 us)."""
        width, height = stroke.size
        box = (stroke_xy[0], stroke_xy[1], stroke_xy[0] + width, stroke_xy[1] + height)
        inner = (xy[0] - box[0], xy[1] - box[1], xy[0] - box[0] + mask.size[0], xy[1] - box[1] + mask.size[1])
        if not width or not height or box[0] < 0 or box[1] < 0 or box[2] > self._image.width \
                or box[3] > self._image.height or inner[0] < 0 or inner[1] < 0 or inner[2] > width \
                or inner[3] > height:
            raise NotComposable("a stroked text clipped, or its text outside its stroke")
        if self._quantized is not None and self._quantized.im.crop(box).histogram((0, 0), stroke)[255]:
            raise NotComposable("a stroked text over a piece quantized alone")
        self._alone(box, stroke)
        stroke_ink = ImageColor.getrgb(stroke_fill) if isinstance(stroke_fill, str) else tuple(stroke_fill[:3])
        ink = ImageColor.getrgb(fill) if isinstance(fill, str) else tuple(fill[:3])
        # Under the ink every pixel is in a colour the palette holds exactly (no text's, no piece's):
        # the box in RGB is what the board drawn in RGB holds there.
        blended = Image.Image()._new(self.im.crop(box)).convert("RGB").im
        blended.paste(_imaging.fill("RGB", (width, height), stroke_ink), (0, 0, width, height), stroke)
        if ink != stroke_ink:  # as `ImageDraw.text`: a text in its stroke's ink is the stroke alone
            blended.paste(_imaging.fill("RGB", mask.size, ink), inner, mask)
        quantized = Image.Image()._new(blended).quantize(palette=self.board_palette, dither=Image.Dither.NONE)
        self.im.paste(quantized.im, box, stroke.point(_INKED, "L"))

    def paste_quantized(self, piece: Image.Image, xy: tuple[int, int]) -> None:
        """A piece already in the board's palette, quantized alone (`quantized_piece`), pasted with its
        top left corner at `xy`: quantizing is pixel by pixel, so these are the indices the board
        drawn in RGB takes there. Its pixels are no colours the palette holds exactly, so no text is
        stamped over them (`stamp`) unless a shape has painted them since."""
        if piece.mode != "P":
            raise NotComposable(f"a piece of mode {piece.mode} pasted on a palette board")
        box = (xy[0], xy[1], xy[0] + piece.width, xy[1] + piece.height)
        self.im.paste(piece.im, box)
        if self._quantized is None:
            self._quantized = Image.new("L", self._image.size, 0)
            self._quantized_draw = ImageDraw.Draw(self._quantized)
        self._quantized.paste(255, box)

    # Shapes paint colours the palette holds exactly: where they paint over a piece quantized
    # alone, a text may be stamped again (their pixels cleared in `_quantized` as well).

    def rectangle(self, xy: Any, fill: Any = None, outline: Any = None, width: int = 1) -> None:
        super().rectangle(xy, fill, outline, width)
        if self._quantized_draw is not None:
            self._quantized_draw.rectangle(xy, _painted(fill), _painted(outline), width)

    def rounded_rectangle(self, xy: Any, radius: float = 0, fill: Any = None, outline: Any = None,
                          width: int = 1, *, corners: tuple[bool, bool, bool, bool] | None = None) -> None:
        super().rounded_rectangle(xy, radius, fill, outline, width, corners=corners)
        if self._quantized_draw is not None:
            self._quantized_draw.rounded_rectangle(xy, radius, _painted(fill), _painted(outline), width,
                                                   corners=corners)

    def ellipse(self, xy: Any, fill: Any = None, outline: Any = None, width: int = 1) -> None:
        super().ellipse(xy, fill, outline, width)
        if self._quantized_draw is not None:
            self._quantized_draw.ellipse(xy, _painted(fill), _painted(outline), width)

    def polygon(self, xy: Any, fill: Any = None, outline: Any = None, width: int = 1) -> None:
        super().polygon(xy, fill, outline, width)
        if self._quantized_draw is not None:
            self._quantized_draw.polygon(xy, _painted(fill), _painted(outline), width)

    def line(self, xy: Any, fill: Any = None, width: int = 0, joint: str | None = None) -> None:
        super().line(xy, fill, width, joint)
        if self._quantized_draw is not None:
            self._quantized_draw.line(xy, _painted(fill), width, joint)

    def stamp(self, xy: tuple[int, int], mask: ImagingCore, fill: Ink) -> None:
        """A text's coverage stamped at `xy` in `fill` (`stamp_text`)."""
        width, height = mask.size
        if not width or not height:
            return
        x, y = xy
        box = (max(0, x), max(0, y), min(self._image.width, x + width), min(self._image.height, y + height))
        if box[0] >= box[2] or box[1] >= box[3]:
            return
        if box != (x, y, x + width, y + height):  # clipped at the edges, as a paste clips it
            mask = mask.crop((box[0] - x, box[1] - y, box[2] - x, box[3] - y))
            width, height = mask.size
        if self._quantized is not None and self._quantized.im.crop(box).histogram((0, 0), mask)[255]:
            raise NotComposable("a text over a piece quantized alone (its blend needs the piece's own colours)")
        self._alone(box, mask)
        ink = ImageColor.getrgb(fill) if isinstance(fill, str) else tuple(fill[:3])
        under = self.im.crop(box)
        lowest, highest = under.getextrema()
        ground: int | None = lowest
        if lowest != highest:
            counts = under.histogram((0, 0), mask)  # the colours under the ink alone (a digit's plate, not its rim)
            ground = counts.index(max(counts)) if counts.count(0) == len(counts) - 1 else None
        if ground is not None:
            table = _blend_table(self.board_palette, self._colours, tuple(self._colours[3 * ground:3 * ground + 3]),
                                 ink)
            if lowest == highest and table[0] == ground:  # what no ink covers comes out as it was
                self.im.paste(mask.point(table, "L"), box)
            else:
                self.im.paste(mask.point(table, "L"), box, mask.point(_INKED, "L"))
            return
        drawn = Image.Image()._new(under).convert("RGB")
        drawn.im.paste(_imaging.fill("RGB", (width, height), ink), (0, 0, width, height), mask)
        self.im.paste(drawn.quantize(palette=self.board_palette, dither=Image.Dither.NONE).im, box,
                      mask.point(_INKED, "L"))

    def _alone(self, box: Box, mask: ImagingCore) -> None:
        """That no ink of `mask` at `box` falls on ink of a text stamped before (whose blended
        colour the palette lost); kept for the texts after it."""
        x0, y0, x1, y1 = box
        for other_box, other in self._texts:
            if other_box[0] >= x1 or x0 >= other_box[2] or other_box[1] >= y1 or y0 >= other_box[3]:
                continue
            left, top = max(x0, other_box[0]), max(y0, other_box[1])
            right, bottom = min(x1, other_box[2]), min(y1, other_box[3])
            mine = mask.crop((left - box[0], top - box[1], right - box[0], bottom - box[1]))
            theirs = other.crop((left - other_box[0], top - other_box[1], right - other_box[0], bottom - other_box[1]))
            if Image.Image()._new(mine.chop_darker(theirs)).getbbox() is not None:
                raise NotComposable("a text over another text's ink")
        self._texts.append((box, mask))


_INKED = [0] + [255] * 255
"""A coverage's pixels that a stamp changes (any coverage above 0): a paste through 255 is a copy."""


def _painted(colour: Any) -> int | None:
    """A shape's fill or outline as it clears `PaletteDraw._quantized` (0 where it paints)."""
    return None if colour is None else 0


@lru_cache(maxsize=4)
def _palette_of(colours: bytes) -> Image.Image:
    palette = Image.new("P", (1, 1))
    palette.putpalette(colours)
    return palette


def quantized_piece(piece: Image.Image, colours: bytes) -> Image.Image:
    """An RGB piece (a tile's art) quantized alone to the palette of `colours` (a `PaletteDraw`'s
    `colours`), to be pasted by `PaletteDraw.paste_quantized`."""
    return piece.quantize(palette=_palette_of(colours), dither=Image.Dither.NONE)


@lru_cache(maxsize=4)
def _exact_indices(palette: bytes) -> dict[tuple[int, ...], int]:
    """The colours a palette holds exactly, each with the index it quantizes to (its own, or its
    twin's where a colour stands twice)."""
    colours = [tuple(palette[i:i + 3]) for i in range(0, min(len(palette), 768), 3)]
    swatch = Image.new("RGB", (len(colours), 1))
    swatch.putdata(colours)
    board = Image.new("P", (1, 1))
    board.putpalette(palette)
    indices = swatch.quantize(palette=board, dither=Image.Dither.NONE).tobytes()
    return {colour: index for colour, index in zip(colours, indices) if colours[index] == colour}


BLEND_TABLES = KeptWithin(2**17, lambda table: 256 + 200, "BLEND_TABLES")
"""The palette index of each of the 256 blends of an ink over a ground (`_blend_table`), for some 280
pairs (a table's bytes and the key): a board's texts come in a few inks over a few grounds, the same
at every table."""


def _blend_table(palette: Image.Image, colours: bytes, background: tuple[int, ...], ink: tuple[int, ...]) -> bytes:
    """What a text's coverage 0-255 in `ink` over `background` quantizes to in `palette` (its
    `colours`): the coverage pasted from a plain image of the ink, as `stamp_text` blends it, and
    quantized, as `to_palette` does."""
    key = (colours, background, ink)
    found: bytes | None = BLEND_TABLES.get(key)
    if found is None:
        blends = Image.new("RGB", (256, 1), background)
        blends.im.paste(_imaging.fill("RGB", (256, 1), ink), (0, 0, 256, 1),
                        Image.frombytes("L", (256, 1), bytes(range(256))).im)
        found = BLEND_TABLES.put(key, blends.quantize(palette=palette, dither=Image.Dither.NONE).tobytes())
    return found


def palette_board(size: tuple[int, int], palette: Image.Image,
                  background: Ink = BACKGROUND) -> tuple[Image.Image, PaletteDraw]:
    """A board of `size` in `palette`, filled with `background` (a colour it holds exactly), and a
    `PaletteDraw` on it; finish it with `settled`."""
    board = Image.new("P", size)
    board.putpalette(palette.getpalette() or [])
    draw = PaletteDraw(board, palette)
    board.paste(draw.index(background), (0, 0, *size))
    return board, draw


def rows_in_palette(image: Image.Image, size: tuple[int, int], rows: Sequence[RowsPart], palette: Image.Image,
                    background: Ink = BACKGROUND) -> Image.Image:
    """`board_with_rows` for a board drawn in its palette: `image` (a `palette_board`, the board
    down to where `rows` start) with the full-width parts `rows` under it, each pasted as it was
    kept or drawn on a palette board of its own rows (so, as there, nothing drawn above a row
    reaches into it, nor a row out of its own rows) and kept."""
    width, height = size
    if [image.height, *(part.bottom for part in rows)] != [*(part.top for part in rows), height]:
        raise ValueError(f"rows that do not tile the board from row {image.height} down: {rows!r}")
    finished = Image.new("P", size, None)  # not filled: every row is pasted over
    finished.putpalette(palette.getpalette() or [])
    if image.height:
        finished.paste(settled(image), (0, 0))
    for part in rows:
        full_key = (part.key, (0, part.top, width, part.bottom), "P")  # as `kept_part` keeps it
        found: Image.Image | None = KEPT_PARTS.get(full_key)
        if found is None:
            drawn, draw = palette_board((width, part.bottom - part.top), palette, background)
            part.draw_rows(draw, 0)
            found = KEPT_PARTS.put(full_key, settled(drawn))
        elif found.getpalette() != finished.getpalette():
            raise AssertionError(f"a kept part of another palette: {part.key!r}")
        finished.paste(found, (0, part.top))
    return finished


def settled(board: Image.Image) -> Image.Image:
    """A board drawn in its palette (`palette_board`) with the parts it drew kept and the kept parts
    it left out (`kept_part`) pasted: what `to_palette` does for a board drawn in RGB."""
    _settle_parts(board, board)
    return board


def piece_in_palette(piece: Image.Image, palette: Image.Image) -> tuple[Image.Image, Image.Image]:
    """An RGBA piece (a die's face) in `palette` and its opacity, to paste through it on a
    `palette_board` as `Image.paste(piece, xy, piece)` pastes it on an RGB board: its pixels wholly
    opaque or wholly clear, in colours `palette` holds exactly."""
    opacity = piece.getchannel("A")
    if any(level not in (0, 255) for _, level in opacity.getcolors() or []):
        raise NotComposable("a piece partly transparent")
    exact = _exact_indices(bytes(palette.getpalette() or []))
    colours = cast(list[tuple[int, tuple[int, int, int, int]]], piece.getcolors(piece.width * piece.height) or [])
    if any(colour[3] and colour[:3] not in exact for _, colour in colours):
        raise NotComposable("a piece in colours the palette does not hold exactly")
    return piece.convert("RGB").quantize(palette=palette, dither=Image.Dither.NONE), opacity


PIECES_ON_PLAIN = KeptImages(400 * 2**10, "PIECES_ON_PLAIN")
"""Small things drawn on a plain ground (a cube, a number, a word, an estate) as the pixels they
change, in a board's palette (`ink_piece`): the same few hundred at every table of a game, so a
board composed of them at a table's cold move finds them (400 KiB: some 200 pieces)."""


def ink_piece(key: Hashable, at: tuple[float, float], reach: Box, background: Ink, palette: Image.Image,
              draw_item: Callable[[ImageDraw.ImageDraw, float, float], object],
              drawing: Callable[[Image.Image], ImageDraw.ImageDraw] = ImageDraw.Draw,
              ) -> tuple[Image.Image, int, int] | None:
    """What `draw_item(draw, x, y)` changes of a plain `background` when it draws at `at`: the
    box of the pixels it changes, quantized alone into `palette`, and where that box's corner
    stands, or None if it changes none. Pasted over that plain ground in the palette image, the
    pixels are those of drawing the item there and quantizing (pixel by pixel) the whole, as long
    as nothing else is drawn into its box. Drawn once at the same fraction of a pixel (a text's
    rasterising depends on it) and whole pixels translate it: kept in `PIECES_ON_PLAIN` under
    `key`, which must tell all the item and the palette depend on (say, the game's name, the
    words and the size) but its place. `reach` (left, top, right, bottom from `at`) is where the
    item is drawn, roughly: it is drawn again with more room if its ink reaches the edge."""
    floor_x, floor_y = int(at[0] // 1), int(at[1] // 1)
    full_key = (key, at[0] - floor_x, at[1] - floor_y, background)
    found: tuple[Image.Image | None, int, int] | None = PIECES_ON_PLAIN.get(full_key)
    if found is None:
        found = PIECES_ON_PLAIN.put(full_key, _ink_piece(at[0] - floor_x, at[1] - floor_y, reach, background,
                                                         palette, draw_item, drawing))
    piece, left, top = found
    return None if piece is None else (piece, floor_x + left, floor_y + top)


def _ink_piece(fraction_x: float, fraction_y: float, reach: Box, background: Ink, palette: Image.Image,
               draw_item: Callable[[ImageDraw.ImageDraw, float, float], object],
               drawing: Callable[[Image.Image], ImageDraw.ImageDraw]) -> tuple[Image.Image | None, int, int]:
    left, top, right, bottom = reach
    room = 8
    while True:
        size = (right - left + 2 * room, bottom - top + 2 * room)
        plain = Image.new("RGB", size, background)
        scratch = plain.copy()
        with unrecorded():  # drawn off the board: no text of it stands where the layout tests look
            draw_item(drawing(scratch), fraction_x - left + room, fraction_y - top + room)
        box = ImageChops.difference(scratch, plain).getbbox()
        if box is None:
            return None, 0, 0
        if 0 < box[0] and 0 < box[1] and box[2] < size[0] and box[3] < size[1]:
            piece = to_palette(scratch.crop(box), palette)
            return piece, box[0] + left - room, box[1] + top - room
        if room > 512:
            raise ValueError(f"an item drawn far beyond its reach {reach}")
        room *= 4


class PieceOnPlain(NamedTuple):
    """A thing drawn on a plain ground (a disc, a word, a cube): by `draw(draw, x, y)` at `at`,
    told apart from others by `key` (`ink_piece`), roughly within `reach` of `at`."""

    key: Hashable
    at: tuple[float, float]
    reach: Box
    draw: Callable[[Any, float, float], object]


def composed_on_plain(size: tuple[int, int], palette: Image.Image, index: Callable[[Ink], int],
                      paint: Callable[[Image.Image], object], plain: Ink, pieces: Sequence[PieceOnPlain],
                      key: Hashable, drawing: Callable[[Image.Image], ImageDraw.ImageDraw] = ImageDraw.Draw,
                      background: Ink = BACKGROUND) -> Image.Image | None:
    """A part of a board put together in its palette: an image of `size` in the palette index
    quantizing gives the background (`index(colour)`), `paint`ed (with ImageDraw's shapes, which
    have no anti-aliasing, in the indices of their colours: the pixels quantizing gives), then
    each of `pieces` pasted as the pixels it changes on the `plain` colour (`ink_piece`, under
    `key` and its own key). The same as drawing it all in RGB and quantizing, pixel by pixel, as
    long as each piece lands on the plain colour alone and no two pieces meet: where one would
    not (None), the part is to be drawn."""
    image = Image.new("P", size, index(background))
    image.putpalette(palette.getpalette() or [])
    paint(image)
    boxes: list[Box] = []
    extrema = (index(plain), index(plain))
    pixels = image.im  # the core's crop and paste: the Image's copy the palette each time (a third of the time)
    for piece_on in pieces:
        found = ink_piece((key, piece_on.key), piece_on.at, piece_on.reach, plain, palette, piece_on.draw, drawing)
        if found is None:
            continue
        piece, left, top = found
        box = (left, top, left + piece.width, top + piece.height)
        if any(box[0] < other[2] and other[0] < box[2] and box[1] < other[3] and other[1] < box[3] for other in boxes):
            return None
        if box[0] < 0 or box[1] < 0 or box[2] > size[0] or box[3] > size[1] or \
                pixels.crop(box).getextrema() != extrema:
            return None
        boxes.append(box)
        pixels.paste(piece.im, box)
    return image


def overlapping_texts(records: list[DrawnText], margin: int = 1) -> list[tuple[DrawnText, DrawnText]]:
    """Pairs of drawn texts whose boxes overlap by more than `margin` pixels."""
    pairs = []
    for index, first in enumerate(records):
        for second in records[index + 1:]:
            if first.overlaps(second, margin):
                pairs.append((first, second))
    return pairs


def crown(draw: ImageDraw.ImageDraw, x: float, y: float, size: float) -> None:
    """A small crown with its base-left corner at (x, y), `size` wide: a winner's mark beside
    the word, so the winner does not stand apart by colour alone."""
    w, h = size, size * 0.75
    points = [(x, y), (x, y - h), (x + w * 0.27, y - h * 0.45), (x + w * 0.5, y - h),
              (x + w * 0.73, y - h * 0.45), (x + w, y - h), (x + w, y)]
    draw.polygon(points, fill=HIGHLIGHT, outline=INK, width=3)


CHART_GRID = (215, 207, 192)
"""A chart's grid and rules."""
WINNER_FILL = (255, 238, 178)
"""Behind a chart's winners (ringed in `HIGHLIGHT`, beside a `crown`)."""


def chart_png(image: Image.Image, *colours: tuple[int, int, int]) -> bytes:
    """A finished chart (scores, standings) as a PNG in its palette: the charts' shared colours
    first, then `colours`, the chart's own."""
    buffer = io.BytesIO()
    to_palette(image, _chart_palette(colours)).save(buffer, format="PNG", compress_level=PNG_LEVEL)
    return buffer.getvalue()


@lru_cache(maxsize=4)
def _chart_palette(colours: tuple[tuple[int, int, int], ...]) -> Image.Image:
    return fixed_palette(BACKGROUND, INK, MUTED, HIGHLIGHT, CHART_GRID, WINNER_FILL, *colours)


def fixed_palette(*exact: Sequence[int]) -> Image.Image:
    """A board's palette: the colours it paints exactly first, then a colour cube and greys for
    the anti-aliased edges of shapes and text. Quantizing to a fixed palette is some thirty
    times faster than an adaptive median cut and keeps the PNG small."""
    colours = list(dict.fromkeys(tuple(colour[:3]) for colour in exact))
    colours += [(r * 51, g * 51, b * 51) for r in range(6) for g in range(6) for b in range(6)]
    colours = list(dict.fromkeys(colours))
    grey = 0
    while len(colours) < 256:
        grey = (grey + 37) % 256
        colours.append((grey, grey, grey))
    palette = Image.new("P", (1, 1))
    palette.putpalette([channel for colour in colours[:256] for channel in colour])
    return palette


def to_palette(image: Image.Image, palette: Image.Image) -> Image.Image:
    """The finished board in its palette (no dithering: flat colours stay flat), with the parts
    it left to be pasted (`kept_part`). Quantizing is pixel by pixel, so a part kept in the
    palette is what quantizing it drawn again gives."""
    finished = image.quantize(palette=palette, dither=Image.Dither.NONE)
    _settle_parts(image, finished)
    return finished


# ----------------------------------------------------------------------------------------
# PNGs of palette images, compressed in bands of rows kept for the next move


PNG_LEVEL = 3  # zlib level of the PNGs Pillow writes: half the time of the default 6 for some 20 % more bytes
BAND_LEVEL = 2
"""zlib-ng's level for the bands (`deflated_band`): a third less CPU than zlib's level 3 for some 3 %
fewer bytes (zlib-ng's level 1 is twice as fast again, but 40 % larger)."""
PNG_BAND_ROWS = 32
"""Rows compressed together as one piece of a PNG's data (`deflated_band`): some 35 KB of pixels,
as far back as zlib looks anyway, so cutting the data into bands costs under 1 % of the bytes."""
_ADLER_BASE = 65521


class KeptBands(KeptWithin):
    """Compressed bands of rows kept by what they hold (`band_key`) within a byte budget
    (`KeptWithin`). A move changes a few bands of a board: its next PNG compresses those alone."""

    ENTRY = 200  # the key, the tuple and the dictionary's slot, beside the compressed bytes

    def __init__(self, budget: int) -> None:
        super().__init__(budget, lambda band: len(band[0]) + self.ENTRY, "PNG_BANDS")

    def get(self, key: bytes) -> tuple[bytes, int, int] | None:
        found: tuple[bytes, int, int] | None = super().get(key)
        return found

    def get_all(self, keys: list[bytes]) -> list[tuple[bytes, int, int] | None]:
        """The bands kept for `keys` (None where there is none), looked up at once (one hand on the lock)."""
        return cast(list[tuple[bytes, int, int] | None], self.get_many(keys))


PNG_BANDS = KeptBands(2**20)
"""1 MiB: the bands of the last dozen or so boards (a board is 50-100 KB; a move changes a few
bands of each)."""


_BAND_COMPRESSORS = threading.local()  # each thread's compressor for `deflated_band`


def deflated_band(scanlines: bytes | memoryview) -> tuple[bytes, int, int]:
    """A band of PNG scanlines compressed on its own: raw deflate blocks that end on a byte (no
    final block), with the scanlines' Adler-32 and length; such pieces put one after the other
    are one deflate stream (`palette_png`). zlib-ng writes deflate that any inflater reads, with
    the same API as zlib's, in less CPU (its checksums ten times faster).

    One compressor per thread serves band after band: a full flush ends each band on a byte and
    forgets what came before it (no match reaches back past it), so a band's bytes are those a
    compressor of its own writes, without setting up some 270 KB of fresh state (the window
    and its hash tables) for each: 54 -> 50 us a band compressed."""
    compressor = getattr(_BAND_COMPRESSORS, "compressor", None)
    if compressor is None:
        compressor = _BAND_COMPRESSORS.compressor = zlib_ng.compressobj(BAND_LEVEL, zlib_ng.DEFLATED, -15)
    try:
        data = compressor.compress(scanlines) + compressor.flush(zlib_ng.Z_FULL_FLUSH)
    except BaseException:
        _BAND_COMPRESSORS.compressor = None  # half a band in it: the next band starts afresh
        raise
    return data, zlib_ng.adler32(scanlines), len(scanlines)


def adler32_combine(first: int, second: int, second_length: int) -> int:
    """The Adler-32 of two pieces of data one after the other, from theirs (zlib's adler32_combine)."""
    rem = second_length % _ADLER_BASE
    low = first & 0xFFFF
    high = (rem * low) % _ADLER_BASE
    low += (second & 0xFFFF) + _ADLER_BASE - 1
    high += (first >> 16) + (second >> 16) + _ADLER_BASE - rem
    low %= _ADLER_BASE
    high %= _ADLER_BASE
    return (high << 16) | low


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib_ng.crc32(kind + data))


def band_key(pixels: bytes | memoryview, width: int) -> bytes:
    """What a band of a palette image's rows is kept by: its CRC-32 and Adler-32, its length and
    its width (16 bytes; some 1 us for a band of 1,080 x 32 pixels, a SHA-256 18 us). Why no band
    is taken for another: a band and one of another board (another table, seat or view) share
    nothing, so both 32-bit checksums match by chance alone, 2^-64 a pair (650 bands kept, 20
    compressed anew a move: once in 10^7 years at 100,000 moves a day). A band and its own
    version of the move before differ in a few shapes: CRC-32 finds every change within 32
    bits of a row and, on bands far shorter than its period (2^32 bits), lets any other through
    once in 2^32; Adler-32's sums (plain and weighted by place, modulo a prime) change too
    unless the change keeps both, which takes ink moved symmetrically apart (say one change in a
    thousand), so once in 2^42 (2 million bands a day: once in 5,000 years). The pixels are
    the renderers' drawing of a view, not bytes anyone chooses, so no one can aim at a match."""
    return struct.pack(">IIII", zlib_ng.crc32(pixels), zlib_ng.adler32(pixels), len(pixels), width)


def _rows(image: Image.Image, top: int = 0, bottom: int | None = None) -> memoryview:
    """The pixels of a palette image's rows from `top` to `bottom` as bytes: what `tobytes` gives
    of a crop of them, without the crop, in one piece (`tobytes` gathers 64 KB pieces and joins
    them: twice the time)."""
    bottom = image.height if bottom is None else bottom
    if bottom <= top or not image.width:
        return memoryview(b"")
    image.load()
    encoder = Image._getencoder(image.mode, "raw", image.mode)
    encoder.setimage(image.im, (0, top, image.width, bottom))
    pieces = []
    while True:
        _, done, data = encoder.encode(max(image.width * (bottom - top), 1))
        pieces.append(data)
        if done:
            break
    if done < 0:
        raise OSError(f"encoder error {done} reading a palette image's rows")
    return memoryview(pieces[0] if len(pieces) == 1 else b"".join(pieces))


def _bands(pixels: memoryview, width: int) -> list[tuple[bytes, int, int]]:
    """Rows of a palette image's pixels (`_rows`) compressed in bands of `PNG_BAND_ROWS`, each kept
    in `PNG_BANDS` by what its pixels hold (`band_key`): a band a move left unchanged is not
    compressed again, nor made into scanlines."""
    step = width * PNG_BAND_ROWS
    keys = [band_key(pixels[start:start + step], width) for start in range(0, len(pixels), step)]
    bands = PNG_BANDS.get_all(keys)
    if all(bands):
        return cast(list[tuple[bytes, int, int]], bands)
    return [band or PNG_BANDS.put(key, deflated_band(_scanlines(pixels[index * step:(index + 1) * step], width)))
            for index, (key, band) in enumerate(zip(keys, bands))]


def _scanlines(pixels: memoryview, width: int) -> bytes:
    """Rows of a palette image's pixels as PNG scanlines: each row after a filter byte 0."""
    return b"\x00" + b"\x00".join([pixels[start:start + width] for start in range(0, len(pixels), width)])


def palette_png(width: int, height: int, palette: bytes, bands: Sequence[tuple[bytes, int, int]]) -> bytes:
    """A PNG of a palette image (256 colours, `palette` RGB) from its rows' compressed bands, top to bottom."""
    header = b"\x89PNG\r\n\x1a\n" + _chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 3, 0, 0, 0)) \
        + _chunk(b"PLTE", palette[:3 * 256])
    checksum = 1
    for _, adler, length in bands:
        checksum = adler32_combine(checksum, adler, length)
    # zlib's header (deflate, 32 KB window), the bands, an empty final block, the Adler-32: the
    # image data, checksummed piece by piece and copied once, into the whole PNG.
    data = (b"\x78\x5e", *(band[0] for band in bands), b"\x03\x00", struct.pack(">I", checksum))
    crc = zlib_ng.crc32(b"IDAT")
    for piece in data:
        crc = zlib_ng.crc32(piece, crc)
    return b"".join((header, struct.pack(">I", sum(map(len, data))), b"IDAT", *data, struct.pack(">I", crc),
                     _chunk(b"IEND", b"")))


def encode_png(image: Image.Image) -> bytes:
    """The PNG of a palette image (its rows from `image.info["private_top"]` down banded apart, so
    a seat's image and the public board share the bands above them)."""
    top = image.info.get("private_top")
    pixels, width = _rows(image), image.width
    if top is None or not 0 < top < image.height:
        bands = _bands(pixels, width)
    else:
        bands = _bands(pixels[:top * width], width) + _bands(pixels[top * width:], width)
    return palette_png(image.width, image.height, bytes(image.getpalette() or []), bands)


def encode_pngs(first: Image.Image, shared_rows: int, strips: list[Image.Image]) -> list[bytes]:
    """PNGs of palette images that share their first `shared_rows` rows (a move's DM images: the
    same board above each seat's own strip): `first` is one whole image, `strips` each image's
    rows from `shared_rows` down, in the same palette. The shared rows are compressed once and
    only each strip after them, so an extra image costs its strip alone, and no whole image but
    the first is ever held. Each result is a complete PNG on its own."""
    palette = bytes(first.getpalette() or [])
    shared = _bands(_rows(first, 0, shared_rows), first.width)
    return [palette_png(first.width, first.height, palette, shared + _bands(_rows(strip), strip.width))
            for strip in strips]
