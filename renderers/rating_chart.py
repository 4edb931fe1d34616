"""A player's rating over their rated games of one game on one server, as an upright picture
for `/game stats`.

`render_rating_chart(points, name, lang, title, provisional)`: `points[0]` is the rating a new
player starts with, `points[i]` the rating after their i-th rated game. The current rating in
large type at the top with its last change, one line over the games below, the first
`provisional` games shaded and named as provisional. Every word is at least 40 px on the 1080 px
image (11 px at the 300 px a phone's Discord client shows it).
"""
from __future__ import annotations

import io
from collections.abc import Sequence

from babel.numbers import format_decimal
from PIL import Image, ImageDraw

import i18n
from renderers.common import BACKGROUND, INK, MUTED, SEAT_COLOURS, drawable, fit, font, text_width

WIDTH, HEIGHT = 1080, 1350
MARGIN = 60
LINE = SEAT_COLOURS[0]
SHADE = (232, 224, 208)
GRID = (215, 207, 192)
GAIN, LOSS = (34, 120, 60), (170, 40, 40)
DOTS_UP_TO = 40      # a dot per game up to this many games


def _number(value: float, lang: str) -> str:
    return format_decimal(round(value), format="#,##0", locale=lang)


def _signed(value: int, lang: str) -> str:
    return "±0" if value == 0 else ("+" if value > 0 else "−") + _number(abs(value), lang)


def _step(span: float) -> int:
    """A round tick step giving at most six ticks over `span`."""
    for step in (10, 20, 25, 50, 100, 200, 250, 500, 1000):
        if span / step <= 5:
            return step
    return 2000


def render_rating_chart(points: Sequence[int], name: str, lang: str = "en", title: str | None = None,
                        provisional: int = 5) -> Image.Image:
    image = Image.new("RGB", (WIDTH, HEIGHT), BACKGROUND)
    draw = ImageDraw.Draw(image)
    points = list(points) or [0]
    games = len(points) - 1

    # Heading: whose rating, of which game.
    heading, size = fit(i18n.t(lang, "bot.league.chart.title", player=drawable(name, "?")), 64, WIDTH - 2 * MARGIN)
    draw.text((MARGIN, MARGIN), heading, font=font(size), fill=INK, anchor="lt")
    top = MARGIN + 90
    if title:
        subtitle, size = fit(title, 48, WIDTH - 2 * MARGIN)
        draw.text((MARGIN, top), subtitle, font=font(size), fill=MUTED, anchor="lt")
        top += 70

    # The rating now, large, with its last change and the best so far.
    now = _number(points[-1], lang)
    draw.text((MARGIN, top), now, font=font(80), fill=INK, anchor="lt")
    right_of_now = MARGIN + text_width(draw, now, 80) + 30
    if games:
        change = points[-1] - points[-2]
        draw.text((right_of_now, top + 8), _signed(change, lang), font=font(48),
                  fill=GAIN if change > 0 else LOSS if change < 0 else MUTED, anchor="lt")
    notes = [i18n.t(lang, "bot.league.chart.games", count=games)]
    if games < provisional:
        notes.append(i18n.t(lang, "bot.league.chart.provisional_now", needed=provisional))
    elif games:
        notes.append(i18n.t(lang, "bot.league.chart.best", rating=_number(max(points[1:]), lang)))
    note, size = fit(" · ".join(notes), 40, WIDTH - 2 * MARGIN)
    draw.text((MARGIN, top + 110), note, font=font(size), fill=MUTED, anchor="lt")

    # The plot: the rating after each game, from the start.
    left, right = MARGIN + 150, WIDTH - MARGIN - 20
    plot_top, plot_bottom = top + 200, HEIGHT - MARGIN - 70
    low, high = min(points), max(points)
    step = _step(max(high - low, 1))
    low = step * (low // step)
    high = step * -(-high // step)
    if high == low:
        high = low + step
    span = max(games, 1)

    def x_of(index: float) -> float:
        return left + (right - left) * index / span

    def y_of(value: float) -> float:
        return plot_bottom - (plot_bottom - plot_top) * (value - low) / (high - low)

    if games and provisional > 0:  # the provisional games, shaded and named
        shaded_right = x_of(min(provisional, games))
        draw.rectangle((left, plot_top, shaded_right, plot_bottom), fill=SHADE)
        label = i18n.t(lang, "bot.league.chart.provisional")
        if shaded_right - left >= text_width(draw, label, 40) + 20:
            draw.text((left + 10, plot_top + 10), label, font=font(40), fill=MUTED, anchor="lt")
        else:  # a narrow band (many games since): named beside it
            draw.text((shaded_right + 10, plot_top + 10), "← " + label, font=font(40), fill=MUTED, anchor="lt")
    tick = low
    while tick <= high:
        y = y_of(tick)
        draw.line((left, y, right, y), fill=GRID, width=2)
        draw.text((left - 16, y), _number(tick, lang), font=font(40), fill=MUTED, anchor="rm")
        tick += step
    draw.line((left, plot_bottom, right, plot_bottom), fill=INK, width=3)
    draw.line((left, plot_top, left, plot_bottom), fill=INK, width=3)
    axis = plot_bottom + 16
    draw.text((left, axis), "0", font=font(40), fill=MUTED, anchor="mt")
    if games:
        draw.text((right, axis), str(games), font=font(40), fill=MUTED, anchor="rt")
    label = i18n.t(lang, "bot.league.chart.axis")
    draw.text(((left + right) / 2, axis), label, font=font(40), fill=MUTED, anchor="mt")

    line = [(x_of(index), y_of(value)) for index, value in enumerate(points)]
    if len(line) >= 2:
        draw.line(line, fill=LINE, width=8, joint="curve")
    if games <= DOTS_UP_TO:
        for x, y in line:
            draw.ellipse((x - 9, y - 9, x + 9, y + 9), fill=LINE, outline=INK, width=2)
    x, y = line[-1]
    draw.ellipse((x - 18, y - 18, x + 18, y + 18), fill=LINE, outline=INK, width=4)  # now
    return image


def render_rating_chart_png(points: Sequence[int], name: str, lang: str = "en", title: str | None = None,
                            provisional: int = 5) -> bytes:
    image = render_rating_chart(points, name, lang, title, provisional)
    buffer = io.BytesIO()
    image.quantize(colors=64).save(buffer, format="PNG", compress_level=3)
    return buffer.getvalue()
