"""The scores over a game, as an upright picture for the end-of-game message.

`render_chart(history, names, lang, title, winners)`: `history[i]` holds every seat's score after
move i (index 0: the start); `winners` the seats the game's outcome names (`Outcome.winners`).
A score alone cannot say who won (a Knatsch player wins with two castles and three tournaments
while another holds three castles; several games break ties by other counts), so the chart
marks as winners exactly the seats it is given, and none when it is given `None`.

Read on a phone (the client shows the image about 300 px wide), every text and every number on
a mark is at least `MIN_TEXT`, and no two overlap:

- one step line per seat in its seat colour, each shifted a few pixels by seat so that equal
  scores run side by side instead of on top of each other, with numbered markers along it
  (placed where no other marker stands) so it reads without colour too;
- the winners' lines drawn last, thicker and edged in ink;
- at the lines' ends a column of labels, seat number and final score, moved apart where scores
  are level and joined to their line's end;
- below, one row per player in order of places: the place ("1.", ties share it), the seat,
  the name and the final score; a winner's row is framed in gold and says "Winner", so a
  winner stands apart from players merely level with them on score.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import partial
from typing import Any

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
    fit,
    font,
    ink_on,
    seat_names,
)

WIDTH, HEIGHT = 1080, 1350
MARGIN = 44
ROW = 78                # one legend row per player
BADGE = 26              # the radius of a seat's numbered disc (its number at MIN_TEXT)
SPREAD = 12             # pixels between the lines of neighbouring seats
LINE_WIDTH = 6
WINNER_WIDTH = 8
TEXT = MIN_TEXT         # axis numbers, the axis name, the place, "Winner"
NAME = 48               # names and final scores in the legend


def _nice_step(span: float) -> float:
    """A round tick step giving some 4-6 ticks over `span`."""
    for step in (1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000):
        if span / step <= 6:
            return step
    return max(1.0, span / 5)


def _number(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else f"{value:.1f}"


def places(final: Sequence[float], winners: Sequence[int] | None) -> list[int]:
    """Each seat's place: the winners first (all 1), then the others by final score, players
    level on score sharing a place ("1, 2, 2, 4")."""
    won = set(winners or ())
    seats = range(len(final))
    return [1 if seat in won else
            len(won) + 1 + sum(1 for other in seats if other not in won and final[other] > final[seat])
            for seat in seats]


def _badge(draw: ImageDraw.ImageDraw, centre: tuple[float, float], seat: int, radius: int = BADGE) -> None:
    """A seat's disc with its number, the number at the standard's size."""
    x, y = centre
    colour = SEAT_COLOURS[seat % len(SEAT_COLOURS)]
    draw.ellipse((x - radius, y - radius, x + radius, y + radius), fill=colour, outline=INK, width=3)
    draw.text((x, y), str(seat + 1), font=font(TEXT), fill=ink_on(colour), anchor="mm")


def _boxes_apart(box: tuple[float, float, float, float], others: list[Any], gap: float = 4) -> bool:
    left, top, right, bottom = box
    return all(right + gap <= o[0] or o[2] + gap <= left or bottom + gap <= o[1] or o[3] + gap <= top
               for o in others)


def _spread_labels(wanted: list[tuple[float, int]], low: float, high: float, step: float) -> dict[int, float]:
    """Label centres at least `step` apart, each group of labels that would touch centred on
    the heights its labels want, all kept between `low` and `high` (wanted: (height, seat))."""
    groups: list[tuple[list[float], list[int]]] = []

    def first(group: tuple[list[float], list[int]]) -> float:
        heights = group[0]
        top = sum(heights) / len(heights) - (len(heights) - 1) * step / 2
        return max(low, min(top, high - (len(heights) - 1) * step))

    for y, seat in sorted(wanted):
        groups.append(([y], [seat]))
        while len(groups) > 1 and first(groups[-2]) + len(groups[-2][0]) * step > first(groups[-1]):
            last = groups.pop()
            groups[-1] = (groups[-1][0] + last[0], groups[-1][1] + last[1])
    return {seat: first(group) + index * step for group in groups for index, seat in enumerate(group[1])}


def _steps(scores: list[float], x_of: Callable[[int], float],
           y_of: Callable[[float], float]) -> list[tuple[float, float]]:
    """A score's line as steps (it changes at a move and holds until the next change), with a
    corner only where it changes: a long game's line keeps few points, and joints are slow to draw."""
    if not scores:
        return []
    points = [(x_of(0), y_of(scores[0]))]
    for index in range(1, len(scores)):
        if scores[index] != scores[index - 1]:
            x = x_of(index)
            points += [(x, points[-1][1]), (x, y_of(scores[index]))]
    end = x_of(len(scores) - 1)
    if points[-1][0] != end or len(points) == 1:
        points.append((end, points[-1][1]))
    return points


def render_chart(history: Sequence[Sequence[float]], names: Sequence[str], lang: str = "en",
                 title: str | None = None, winners: Sequence[int] | None = None) -> Image.Image:
    seats = len(names)
    names = seat_names(names, seats)  # emoji dropped, "P3" for a name of emoji alone
    image = Image.new("RGB", (WIDTH, HEIGHT), BACKGROUND)
    draw = ImageDraw.Draw(image)
    history = [list(row) for row in history if len(row) >= seats]
    final = history[-1][:seats] if history else [0] * seats
    won = [seat for seat in (winners or ()) if 0 <= seat < seats]
    place = places(final, won)

    # Heading: what this is, and which game.
    draw.text((MARGIN, MARGIN - 8), i18n.t(lang, "bot.records.chart.title"), font=font(64), fill=INK)
    top = MARGIN + 76
    if title:
        shown, size = fit(title, TEXT, WIDTH - 2 * MARGIN)
        draw.text((MARGIN, top), shown, font=font(size), fill=MUTED)
        top += 56

    legend_top = HEIGHT - 24 - ROW * seats
    _legend(draw, legend_top, names, final, place, won, lang)

    # The plot's frame: tick numbers to the left, the end labels' column to the right.
    values = [v for row in history for v in row[:seats]] or [0]
    low, high = min(0, min(values)), max(values)
    if high == low:
        high = low + 1
    step = _nice_step(high - low)
    high = step * -(-high // step)
    ticks = []
    tick = low
    while tick <= high + 1e-9:
        ticks.append(tick)
        tick += step
    tick_w = max(font(TEXT).getlength(_number(value)) for value in ticks)
    score_w = max(font(TEXT).getlength(_number(value)) for value in final) if final else 0
    left = MARGIN + tick_w + 16
    column = WIDTH - MARGIN - (2 * BADGE + 10 + score_w)  # the end labels' left edge
    right = column - 30
    plot_top = top + 34
    plot_bottom = legend_top - 92 - SPREAD * (seats - 1) / 2  # room for the lowest line's shift
    moves = max(1, len(history) - 1)
    # Shifts stay well inside a tick step, so a shifted line never reads as another score.
    spread = min(SPREAD, (plot_bottom - plot_top) / max(1, (high - low) / step) / max(2, seats))

    def x_of(index: float) -> float:
        return left + (right - left) * index / moves

    def offset(seat: int) -> float:
        return (seat - (seats - 1) / 2) * spread

    def y_of(value: float, seat: int | None = None) -> float:
        y = plot_bottom - (plot_bottom - plot_top) * (value - low) / (high - low)
        return y if seat is None else y + offset(seat)

    for tick in ticks:
        y = y_of(tick)
        draw.line((left, y, right, y), fill=CHART_GRID, width=2)
        draw.text((left - 14, y), _number(tick), font=font(TEXT), fill=MUTED, anchor="rm")
    draw.line((left, plot_bottom, right, plot_bottom), fill=INK, width=3)
    draw.line((left, plot_top, left, plot_bottom), fill=INK, width=3)
    axis_y = plot_bottom + spread * (seats - 1) / 2 + 30
    taken: list[tuple[float, float, float, float]] = []  # what a marker must not cover
    for xy, text, anchor in (((left, axis_y), "0", "lm"), ((right, axis_y), str(moves), "rm"),
                             (((left + right) / 2, axis_y), i18n.t(lang, "bot.records.chart.moves"), "mm")):
        draw.text(xy, text, font=font(TEXT), fill=MUTED, anchor=anchor)
        taken.append(draw.textbbox(xy, text, font=font(TEXT), anchor=anchor))

    # Lines, as steps (a score changes at a move and holds until the next): winners last, on top.
    order = sorted(range(seats), key=lambda seat: (seat in won, seat))
    for seat in order:
        points = _steps([row[seat] for row in history], x_of, partial(y_of, seat=seat))
        if len(points) < 2:
            continue
        colour = SEAT_COLOURS[seat % len(SEAT_COLOURS)]
        if seat in won:
            draw.line(points, fill=INK, width=WINNER_WIDTH + 4, joint="curve")
            draw.line(points, fill=colour, width=WINNER_WIDTH, joint="curve")
        else:
            draw.line(points, fill=colour, width=LINE_WIDTH, joint="curve")

    # End labels: seat and final score at each line's end, level scores moved apart.
    if history:
        end_x = x_of(len(history) - 1)
        # Labels may rise beside the heading where it leaves the column free.
        heading_right = max(draw.textbbox((MARGIN, MARGIN - 8), i18n.t(lang, "bot.records.chart.title"),
                                          font=font(64))[2], MARGIN + font(TEXT).getlength(title or ""))
        highest = MARGIN + BADGE if heading_right < column - 16 else plot_top - 20
        centres = _spread_labels([(y_of(final[seat], seat), seat) for seat in range(seats)],
                                 highest, plot_bottom + 20, 2 * BADGE + 8)
        for seat, y in centres.items():
            colour = SEAT_COLOURS[seat % len(SEAT_COLOURS)]
            x = column + BADGE
            draw.line((end_x, y_of(final[seat], seat), column - 12, y, x, y), fill=colour, width=4)
            if seat in won:
                draw.rounded_rectangle((column - 8, y - BADGE - 6, WIDTH - MARGIN + 10, y + BADGE + 6),
                                       radius=12, fill=WINNER_FILL, outline=HIGHLIGHT, width=4)
            _badge(draw, (x, y), seat)
            draw.text((x + BADGE + 10, y), _number(final[seat]), font=font(TEXT), fill=INK, anchor="lm",
                      stroke_width=1 if seat in won else 0, stroke_fill=INK)
            taken.append((column - 8, y - BADGE - 6, WIDTH, y + BADGE + 6))

        # Numbered markers along the lines, where no other marker or label stands.
        per_line = 3 if seats <= 3 else 2
        for seat in order:
            for k in range(per_line):
                fraction = (k + (seat + 0.5) / seats) / per_line
                for shift in (0, 0.04, -0.04, 0.08, -0.08, 0.12, -0.12):
                    at = min(max(fraction + shift, 0.02), 0.98) * moves
                    index = min(int(at), len(history) - 1)
                    x, y = x_of(at), y_of(history[index][seat], seat)
                    box = (x - BADGE, y - BADGE, x + BADGE, y + BADGE)
                    if box[0] > left and box[2] < right and _boxes_apart(box, taken):
                        _badge(draw, (x, y), seat)
                        taken.append(box)
                        break
    return image


def _legend(draw: ImageDraw.ImageDraw, top: float, names: Sequence[str], final: Sequence[float],
            place: list[int], won: list[int], lang: str) -> None:
    """One row per player in order of places; the winners' rows framed in gold, with a crown and
    the word."""
    winner_word = i18n.t(lang, "bot.records.chart.winner")
    word_w = font(TEXT).getlength(winner_word)
    rows = sorted(range(len(names)), key=lambda seat: (place[seat], seat))
    for row, seat in enumerate(rows):
        y = top + row * ROW + ROW / 2
        if seat in won:
            draw.rounded_rectangle((MARGIN - 14, y - ROW / 2 + 4, WIDTH - MARGIN + 14, y + ROW / 2 - 4), radius=14,
                                   fill=WINNER_FILL, outline=HIGHLIGHT, width=4)
        draw.text((MARGIN + 52, y), f"{place[seat]}.", font=font(NAME), fill=INK, anchor="rm")
        _badge(draw, (MARGIN + 62 + BADGE, y), seat)
        score = _number(final[seat])
        score_x = WIDTH - MARGIN
        draw.text((score_x, y), score, font=font(NAME), fill=INK, anchor="rm",
                  stroke_width=2 if seat in won else 0, stroke_fill=INK)
        name_x = MARGIN + 62 + 2 * BADGE + 16
        name_end = score_x - font(NAME).getlength(score) - 24
        if seat in won:
            word_x = name_end - word_w
            crown(draw, word_x - 50, y + 14, 40)
            draw.text((word_x, y), winner_word, font=font(TEXT), fill=INK, anchor="lm")
            name_end = word_x - 64
        shown, size = fit(str(names[seat]), NAME, name_end - name_x, smallest=TEXT)
        draw.text((name_x, y), shown, font=font(size), fill=INK, anchor="lm")


def render_chart_png(history: Sequence[Sequence[float]], names: Sequence[str], lang: str = "en",
                     title: str | None = None, winners: Sequence[int] | None = None) -> bytes:
    """The chart as a PNG; `winners` are the outcome's winners (`Outcome.winners`)."""
    return chart_png(render_chart(history, names, lang, title, winners), (255, 255, 255), *SEAT_COLOURS)
