"""The phone standard, measured on what a renderer drew (`renderers.common.recording_texts`).

A 390 px phone shows a board about 300 px wide (the client's avatar column and margins take the
rest), so a 1080 px image is shown at about 0.28 of its size: nothing a player must read may be
drawn under `MIN_TEXT` (40 px there, 11 px on the phone), stand off the image, or overlap another
text. Each game's layout tests call `readable_problems` on its busiest boards and DM images.
"""
from __future__ import annotations

from contextlib import contextmanager
from dataclasses import dataclass

from PIL import Image, ImageChops, ImageDraw

from renderers.common import MIN_MARK, MIN_TEXT, DrawnText, ink_height, overlapping_texts

SHOWN_WIDTH = 300
"""How wide a 390 px phone's client shows a board, in screen pixels."""


def on_screen(pixels: float, image_width: int) -> float:
    """How large `pixels` of a `image_width`-wide image are on the phone's screen."""
    return pixels * SHOWN_WIDTH / image_width


def readable_problems(records: list[DrawnText], size: tuple[int, int], *, smallest: int = MIN_TEXT,
                      margin: int = 1) -> list[str]:
    """Every way the drawn texts break the standard, in words (empty when they keep it): a text
    under `smallest`, a text (partly) off the image, and two texts overlapping by more than
    `margin` pixels."""
    width, height = size
    problems = [f"{record.text!r} drawn at {record.size} px (under {smallest})"
                for record in records if record.size < smallest]
    problems += [f"{record.text!r} off the image at {record.box}" for record in records
                 if record.box[0] < 0 or record.box[1] < 0 or record.box[2] > width or record.box[3] > height]
    problems += [f"{first.text!r} at {first.box} overlaps {second.text!r} at {second.box}"
                 for first, second in overlapping_texts(records, margin)]
    return problems


def mark_problems(records: list[DrawnText], *, smallest: int = MIN_MARK) -> list[str]:
    """Every number or letter inside a piece (a record drawn as a mark: `renderers.common.marks`)
    whose ink stands under `smallest` pixels (11 px on the phone)."""
    return [f"mark {record.text!r} at {record.box}: {ink_height(record.text, record.size)} px of ink "
            f"(under {smallest})" for record in records
            if record.mark and ink_height(record.text, record.size) < smallest]


# ----------------------------------------------------------------------------------------
# Nothing covered: a shape or piece drawn over a text after it


@dataclass
class _Drawn:
    image: object  # the core image drawn on, held: an id alone may be a freed image's, reused by the next
    box: tuple[int, int, int, int]
    text: str = ""
    ink: object = None  # a text's ink as a mask of its box
    shape: object = None  # how to paint the shape again on a mask: a callable taking an ImageDraw and an offset


_SHAPES = ("rectangle", "rounded_rectangle", "ellipse", "polygon", "line", "chord", "arc", "pieslice",
           "regular_polygon")


def _points(xy) -> list[tuple[float, float]]:
    flat = list(xy)
    if flat and isinstance(flat[0], (tuple, list)):
        return [(float(p[0]), float(p[1])) for p in flat]
    return [(float(flat[i]), float(flat[i + 1])) for i in range(0, len(flat) - 1, 2)]


@contextmanager
def recording_covers():
    """Every text and every shape drawn while the block runs, in order, on which image: the
    cover test (`covered_texts`) sees what was painted over a text after it was written."""
    drawn: list[_Drawn] = []
    originals = {name: getattr(ImageDraw.ImageDraw, name) for name in (*_SHAPES, "text")}
    original_paste = Image.Image.paste

    def text(self, xy, text, fill=None, font=None, anchor=None, *args, **kwargs):
        if text and str(text).strip():
            box = self.textbbox(xy, text, font=font, anchor=anchor,
                                **{k: v for k, v in kwargs.items() if k in ("stroke_width",)})
            box = tuple(int(v) for v in box)
            ink = Image.new("L", (max(1, box[2] - box[0]), max(1, box[3] - box[1])), 0)
            originals["text"](ImageDraw.Draw(ink), (xy[0] - box[0], xy[1] - box[1]), text, 255, font, anchor,
                              **{k: v for k, v in kwargs.items() if k in ("stroke_width",)})
            drawn.append(_Drawn(self.im, box, str(text), ink.point(lambda v: 255 if v > 100 else 0)))
        return originals["text"](self, xy, text, fill, font, anchor, *args, **kwargs)

    def shape_of(name):
        def shape(self, xy, *args, **kwargs):
            if name == "regular_polygon":
                return originals[name](self, xy, *args, **kwargs)
            points = _points(xy)
            width = kwargs.get("width", 0) or 0
            pad = width / 2 + 1
            xs, ys = [p[0] for p in points], [p[1] for p in points]
            box = (int(min(xs) - pad), int(min(ys) - pad), int(max(xs) + pad) + 1, int(max(ys) + pad) + 1)
            call_args, call_kwargs = args, dict(kwargs)

            def again(mask_draw, dx, dy):  # as drawn, on a transparent mask: what it paints is opaque
                moved = [(x - dx, y - dy) for x, y in points]
                getattr(mask_draw, name)(moved, *call_args, **call_kwargs)
            drawn.append(_Drawn(self.im, box, shape=again))
            return originals[name](self, xy, *args, **kwargs)
        return shape

    def paste(self, im, box=None, mask=None):
        if isinstance(im, Image.Image) and box is not None and len(box) == 2:
            alpha = mask if mask is not None else (im.getchannel("A") if im.mode == "RGBA" else None)
            left, top = int(box[0]), int(box[1])

            def again(mask_draw, dx, dy, alpha=alpha, size=im.size):
                piece = alpha if alpha is not None else Image.new("L", size, 255)
                solid = Image.new("RGBA", size, (0, 0, 0, 255))
                mask_draw._image.paste(solid, (left - dx, top - dy), piece.point(lambda v: 255 if v > 128 else 0))
            original_paste(self, im, box, mask)
            drawn.append(_Drawn(self.im, (left, top, left + im.width, top + im.height), shape=again))
            return None
        return original_paste(self, im, box, mask)

    ImageDraw.ImageDraw.text = text
    for name in _SHAPES:
        setattr(ImageDraw.ImageDraw, name, shape_of(name))
    Image.Image.paste = paste
    try:
        yield drawn
    finally:
        for name, function in originals.items():
            setattr(ImageDraw.ImageDraw, name, function)
        Image.Image.paste = original_paste


def covered_texts(drawn: list[_Drawn], *, allowed: int = 2) -> list[str]:
    """Texts on which a shape or a pasted piece drawn after them paints more than `allowed` of
    their ink's pixels, in words (empty when nothing a player must read is covered)."""
    problems = []
    for index, item in enumerate(drawn):
        if not item.text:
            continue
        left, top, right, bottom = item.box
        for later in drawn[index + 1:]:
            if later.image is not item.image or later.shape is None:
                continue
            l2, t2, r2, b2 = later.box
            if l2 >= right or r2 <= left or t2 >= bottom or b2 <= top:
                continue
            mask = Image.new("RGBA", (right - left, bottom - top), (0, 0, 0, 0))
            mask_draw = ImageDraw.Draw(mask)
            mask_draw._image = mask
            later.shape(mask_draw, left, top)
            painted = mask.getchannel("A").point(lambda v: 255 if v > 128 else 0)
            hit = sum(ImageChops.multiply(painted, item.ink).histogram()[1:])
            if hit > allowed:
                problems.append(f"{item.text!r} at {item.box} is covered by a shape drawn after it at {later.box}")
                break
    return problems


def colour_span(image: Image.Image, box, colour) -> int:
    """How tall the pixels of exactly `colour` stand inside `box` of `image`, in pixels (0: none
    there): the ink of a mark drawn in one colour, such as a die's pips."""
    left, top, right, bottom = (int(round(v)) for v in box)
    part = image.convert("RGB").crop((left, top, right, bottom))
    mask = Image.new("RGB", part.size, tuple(colour))
    found = ImageChops.difference(part, mask).convert("L").point(lambda v: 255 if v == 0 else 0).getbbox()
    return 0 if found is None else found[3] - found[1]


@contextmanager
def recording_covers_and_stamps():
    """`recording_covers`, with the texts a renderer stamps from masks it drew once
    (`ImageDraw.bitmap`, as renderers.knatsch does) among the texts a later shape may cover."""
    original = ImageDraw.ImageDraw.bitmap
    with recording_covers() as drawn:
        def bitmap(self, xy, bitmap, fill=None):
            left, top = int(round(xy[0])), int(round(xy[1]))
            ink = bitmap.convert("L").point(lambda v: 255 if v > 100 else 0)
            drawn.append(_Drawn(self.im, (left, top, left + bitmap.width, top + bitmap.height),
                                f"the text stamped at {(left, top)}", ink))
            return original(self, xy, bitmap, fill)

        ImageDraw.ImageDraw.bitmap = bitmap
        try:
            yield drawn
        finally:
            ImageDraw.ImageDraw.bitmap = original
