"""Shared drawing helpers: fonts, colours and small primitives used by every game renderer."""
from __future__ import annotations

from functools import lru_cache

from PIL import ImageDraw, ImageFont

BACKGROUND = (245, 239, 226)
INK = (40, 36, 32)
MUTED = (120, 112, 100)
HIGHLIGHT = (255, 196, 0)

# Seat colours, distinct for colour-blind players too (Okabe-Ito palette), in seat order.
SEAT_COLOURS = [
    (0, 114, 178),    # blue
    (230, 159, 0),    # orange
    (0, 158, 115),    # green
    (204, 121, 167),  # pink
    (213, 94, 0),     # vermilion
    (86, 180, 233),   # sky
]


@lru_cache(maxsize=32)
def font(size: int) -> ImageFont.FreeTypeFont:
    """Pillow's bundled scalable font: no system fonts needed on a fresh VPS."""
    return ImageFont.load_default(size=size)


def text_width(draw: ImageDraw.ImageDraw, text: str, size: int) -> int:
    left, _, right, _ = draw.textbbox((0, 0), text, font=font(size))
    return int(right - left)


def centred_text(draw: ImageDraw.ImageDraw, centre: tuple[float, float], text: str, size: int,
                 fill=INK) -> None:
    draw.text(centre, text, font=font(size), fill=fill, anchor="mm")
