"""The phone standard, measured on what a renderer drew (`renderers.common.recording_texts`).

A 390 px phone shows a board about 300 px wide (the client's avatar column and margins take the
rest), so a 1080 px image is shown at about 0.28 of its size: nothing a player must read may be
drawn under `MIN_TEXT` (40 px there, 11 px on the phone), stand off the image, or overlap another
text. Each game's layout tests call `readable_problems` on its busiest boards and DM images.
"""
from __future__ import annotations

from renderers.common import MIN_TEXT, DrawnText, overlapping_texts

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
