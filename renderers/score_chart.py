"""The scores over a game, as an upright picture for the end-of-game message.

`render_chart(history, names, lang, title)`: `history[i]` holds every seat's score after move i
(index 0: the start). One line per seat in its seat colour, and every line also carries its
seat number (in the markers along it and at its end), so it reads without colour too. Below the
plot, one row per player with the final score in large type.
"""
from __future__ import annotations

import io
from typing import Sequence

from PIL import Image, ImageDraw

import i18n
from renderers.common import BACKGROUND, INK, MUTED, SEAT_COLOURS, font, text_width

WIDTH, HEIGHT = 1080, 1350
MARGIN = 60
ROW = 92           # one legend row per player
MARKERS = 5        # numbered markers along each line (plus the one at its end)


def _nice_step(span: float) -> float:
    """A round tick step giving some 4-6 ticks over `span`."""
    for step in (1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000):
        if span / step <= 6:
            return step
    return max(1.0, span / 5)


def _number(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else f"{value:.1f}"


def _marker(draw: ImageDraw.ImageDraw, centre: tuple[float, float], seat: int, radius: int) -> None:
    x, y = centre
    colour = SEAT_COLOURS[seat % len(SEAT_COLOURS)]
    draw.ellipse((x - radius, y - radius, x + radius, y + radius), fill=colour, outline=INK, width=3)
    draw.text((x, y), str(seat + 1), font=font(int(radius * 1.3)), fill=(255, 255, 255), anchor="mm",
              stroke_width=2, stroke_fill=INK)


def render_chart(history: Sequence[Sequence[float]], names: Sequence[str], lang: str = "en",
                 title: str | None = None) -> Image.Image:
    seats = len(names)
    image = Image.new("RGB", (WIDTH, HEIGHT), BACKGROUND)
    draw = ImageDraw.Draw(image)

    # Heading: what this is, and which game.
    draw.text((MARGIN, MARGIN), i18n.t(lang, "bot.records.chart.title"), font=font(58), fill=INK)
    top = MARGIN + 78
    if title:
        draw.text((MARGIN, top), title, font=font(40), fill=MUTED)
        top += 60

    # Legend rows at the bottom: marker, name, final score (large).
    legend_top = HEIGHT - MARGIN - ROW * seats
    final = history[-1] if history else [0] * seats
    best = max(final) if final else 0
    for seat, name in enumerate(names):
        y = legend_top + seat * ROW + ROW // 2
        _marker(draw, (MARGIN + 30, y), seat, 28)
        score = _number(final[seat])
        score_size = 60
        name_room = WIDTH - 2 * MARGIN - 90 - text_width(draw, score, score_size) - 30
        shown = name
        while text_width(draw, shown, 44) > name_room and len(shown) > 1:
            shown = shown[:-2] + "…"
        draw.text((MARGIN + 80, y), shown, font=font(44), fill=INK, anchor="lm")
        draw.text((WIDTH - MARGIN, y), score, font=font(score_size), fill=INK, anchor="rm",
                  stroke_width=2 if final[seat] == best else 0, stroke_fill=INK)

    # The plot.
    left, right = MARGIN + 80, WIDTH - MARGIN - 20
    plot_top, plot_bottom = top + 30, legend_top - 100
    values = [v for row in history for v in row] or [0]
    low, high = min(0, min(values)), max(values)
    if high == low:
        high = low + 1
    step = _nice_step(high - low)
    high = step * -(-high // step)
    moves = max(1, len(history) - 1)

    def x_of(index: float) -> float:
        return left + (right - left) * index / moves

    def y_of(value: float) -> float:
        return plot_bottom - (plot_bottom - plot_top) * (value - low) / (high - low)

    tick = low
    while tick <= high + 1e-9:
        y = y_of(tick)
        draw.line((left, y, right, y), fill=(215, 207, 192), width=2)
        draw.text((left - 16, y), _number(tick), font=font(34), fill=MUTED, anchor="rm")
        tick += step
    draw.line((left, plot_bottom, right, plot_bottom), fill=INK, width=3)
    draw.line((left, plot_top, left, plot_bottom), fill=INK, width=3)
    draw.text((left, plot_bottom + 14), "0", font=font(34), fill=MUTED, anchor="mt")
    draw.text((right, plot_bottom + 14), str(moves), font=font(34), fill=MUTED, anchor="rt")
    draw.text(((left + right) / 2, plot_bottom + 14), i18n.t(lang, "bot.records.chart.moves"), font=font(34),
              fill=MUTED, anchor="mt")

    # Lines: seats with equal scores would hide each other, so each is nudged a few pixels.
    for seat in range(seats):
        colour = SEAT_COLOURS[seat % len(SEAT_COLOURS)]
        nudge = (seat - (seats - 1) / 2) * 4
        points = []
        for index, row in enumerate(history):
            x, y = x_of(index), y_of(row[seat]) + nudge
            if points:  # steps: a score changes at a move and holds until the next change
                points.append((x, points[-1][1]))
            points.append((x, y))
        if len(points) >= 2:
            draw.line(points, fill=colour, width=7, joint="curve")
        for k in range(1, MARKERS):
            index = round(moves * (k - 0.5 + seat / max(seats, 1)) / MARKERS)  # staggered: ties stay readable
            if index < len(history):
                _marker(draw, (x_of(index), y_of(history[index][seat]) + nudge), seat, 17)
    # End markers: seats that finish level stand side by side instead of on top of each other.
    if history:
        level: dict[float, int] = {}
        for seat in range(seats):
            value = history[-1][seat]
            place = level.get(value, 0)
            level[value] = place + 1
            _marker(draw, (x_of(len(history) - 1) - place * 52, y_of(value)), seat, 24)
    return image


def render_chart_png(history: Sequence[Sequence[float]], names: Sequence[str], lang: str = "en",
                     title: str | None = None) -> bytes:
    image = render_chart(history, names, lang, title)
    buffer = io.BytesIO()
    image.convert("RGB").quantize(colors=64).save(buffer, format="PNG", compress_level=3)
    return buffer.getvalue()
