"""A tournament's final standings as an upright picture, attached to its last message.

`render_standings_chart(rows, lang, title, subtitle, kind)`: one row per player in the order of
the standings (`rows`), each with its place, its name and a bar: the points of a Swiss or round
robin tournament (`kind="points"`), or for a knockout the round a player went out in
(`kind="knockout"`, the winner's bar the longest). The winner's row is framed in gold and carries
a crown and the word, so it does not stand apart by colour alone; a player who withdrew (or left
the server) is drawn muted with a hollow bar. More players than fit are cut after the last row
that fits with a line saying how many more there are.

Read on a phone (the client shows the image about 300 px wide): upright 4:5, every text at least
`MIN_TEXT` (40 px on the 1080 px image), names in any script the font draws (what it cannot draw,
such as emoji, is left out; a name of nothing drawable becomes "P" and its place).
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from babel.numbers import format_decimal
from PIL import Image, ImageDraw

import i18n
from renderers.common import (
    BACKGROUND,
    CHART_GRID,
    HIGHLIGHT,
    INK,
    MIN_TEXT,
    MUTED,
    SEAT_COLOURS,
    WINNER_FILL,
    chart_png,
    crown,
    drawable,
    fit,
    font,
)

WIDTH, HEIGHT = 1080, 1350
MARGIN = 50
HEADING = 64
ROW_MOST, ROW_LEAST = 120, 58   # a row's height: as roomy as the field allows, never tighter than this
ROW_TEXT = ((100, 56), (70, 48), (0, MIN_TEXT))  # (a row at least this high, its places, names and values)
NAME_WIDTH = 430        # the name column
BAR = SEAT_COLOURS[0]
WINNER_BAR = HIGHLIGHT
HOLLOW = (190, 182, 168)
CROWN = 44

Kind = Literal["points", "knockout"]


@dataclass(frozen=True)
class Standing:
    """One row: `value` is the player's points, or in a knockout the round they went out in (the
    winner's: the rounds played + 1)."""

    place: int
    name: str
    value: float
    winner: bool = False
    withdrew: bool = False


def _number(value: float, lang: str) -> str:
    return format_decimal(value, format="#,##0.#", locale=lang)


def _label(row: Standing, kind: Kind, lang: str) -> str:
    """The row's value as the last column shows it: the points, or in a knockout the round the
    player went out in (the winner was never out: the word)."""
    if row.winner and kind == "knockout":
        return i18n.t(lang, "bot.tournaments.chart.winner")
    return _number(row.value, lang)


def render_standings_chart(rows: Sequence[Standing], lang: str = "en", title: str = "", subtitle: str = "",
                           kind: Kind = "points") -> Image.Image:
    image = Image.new("RGB", (WIDTH, HEIGHT), BACKGROUND)
    draw = ImageDraw.Draw(image)
    inner = WIDTH - 2 * MARGIN

    # Heading: what this is, which tournament, how it was played.
    heading, size = fit(i18n.t(lang, "bot.tournaments.chart.title"), HEADING, inner)
    draw.text((MARGIN, MARGIN), heading, font=font(size), fill=INK, anchor="lt")
    top = MARGIN + 86
    for line, line_size, colour in ((title, 48, INK), (subtitle, MIN_TEXT, MUTED)):
        if line:
            shown, size = fit(drawable(line, "–"), line_size, inner)
            draw.text((MARGIN, top), shown, font=font(size), fill=colour, anchor="lt")
            top += line_size + 18
    head = i18n.t(lang, f"bot.tournaments.chart.head_{kind}")
    top += 14
    draw.text((WIDTH - MARGIN, top), head, font=font(MIN_TEXT), fill=MUTED, anchor="rt")
    top += MIN_TEXT + 22
    draw.line((MARGIN, top - 10, WIDTH - MARGIN, top - 10), fill=CHART_GRID, width=3)

    # As many rows as fit; the rest is one line saying how many more there are.
    room = HEIGHT - MARGIN - top
    shown_rows = list(rows)
    if len(shown_rows) * ROW_LEAST > room:
        shown_rows = shown_rows[:room // ROW_LEAST - 1]
    row_height = min(ROW_MOST, room // max(1, len(shown_rows) + (len(shown_rows) < len(rows))))
    text_size = next(size for least, size in ROW_TEXT if row_height >= least)

    labels = [_label(row, kind, lang) for row in shown_rows]
    label_width = max((font(text_size).getlength(label) for label in labels), default=0)
    value_left = WIDTH - MARGIN - label_width
    place_right = MARGIN + font(text_size).getlength(f"{max((row.place for row in shown_rows), default=1)}.") + 4
    name_left = place_right + 18
    bar_left = name_left + NAME_WIDTH
    bar_right = value_left - 24
    largest = max((row.value for row in rows), default=0.0) or 1.0

    for index, (row, label) in enumerate(zip(shown_rows, labels)):
        y = top + index * row_height + row_height / 2
        ink = MUTED if row.withdrew else INK
        if row.winner:
            draw.rounded_rectangle((MARGIN - 16, y - row_height / 2 + 4, WIDTH - MARGIN + 16, y + row_height / 2 - 4),
                                   radius=14, fill=WINNER_FILL, outline=HIGHLIGHT, width=4)
        draw.text((place_right, y), f"{row.place}.", font=font(text_size), fill=ink, anchor="rm")
        left = name_left
        if row.winner:
            crown(draw, left, y + CROWN * 0.36, CROWN)
            left += CROWN + 12
        name, size = fit(drawable(row.name, f"P{row.place}"), text_size, bar_left - 20 - left)
        draw.text((left, y), name, font=font(size), fill=ink, anchor="lm")
        # The bar: from the left of its column, as long as the value allows; never under a
        # sliver, so a zero still shows where the row's bar would be.
        length = max(10.0, (bar_right - bar_left) * max(0.0, row.value) / largest)
        thickness = min(64.0, row_height - 30.0)
        box = (bar_left, y - thickness / 2, bar_left + length, y + thickness / 2)
        if row.withdrew:
            draw.rectangle(box, outline=HOLLOW, width=4)
        else:
            draw.rectangle(box, fill=WINNER_BAR if row.winner else BAR, outline=INK, width=2)
        word = i18n.t(lang, "bot.tournaments.chart.winner")
        if row.winner and kind == "points" and thickness >= 54 and font(MIN_TEXT).getlength(word) + 24 <= length:
            draw.text((bar_left + 12, y), word, font=font(MIN_TEXT), fill=INK, anchor="lm")
        draw.text((WIDTH - MARGIN, y), label, font=font(text_size), fill=ink, anchor="rm",
                  stroke_width=1 if row.winner else 0, stroke_fill=INK)
    if len(shown_rows) < len(rows):
        y = top + len(shown_rows) * row_height + row_height / 2
        more = i18n.t(lang, "bot.tournaments.chart.more", count=len(rows) - len(shown_rows))
        draw.text((name_left, y), more, font=font(MIN_TEXT), fill=MUTED, anchor="lm")
    return image


def render_standings_chart_png(rows: Sequence[Standing], lang: str = "en", title: str = "", subtitle: str = "",
                               kind: Kind = "points") -> bytes:
    return chart_png(render_standings_chart(rows, lang, title, subtitle, kind), HOLLOW, BAR, (255, 255, 255))
