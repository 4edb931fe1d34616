"""The Knatsch table: both stack tops, every player's cards, the current roll and the log.

Drawn only from the view (see games/knatsch/views.py), landscape and with big type so it reads
on a phone. Layout, 1280 x 840:

  +---------------------------------------------------------------+
  | status line                                                   |
  +-------------------+-------------------------------------------+
  | stack 1 | stack 2 | players: name, goals, card chips (2..6)   |
  | king              |                                           |
  | current roll      |                                           |
  +-------------------+-------------------------------------------+
  | last events                                                   |
  +---------------------------------------------------------------+
"""
from __future__ import annotations

from functools import lru_cache

from PIL import Image, ImageDraw

from games.core import name_seats
from renderers.common import BACKGROUND, HIGHLIGHT, INK, MUTED, SEAT_COLOURS, font

WIDTH, HEIGHT = 1280, 840
HEADER = 64
LEFT_WIDTH = 440
LOG_TOP = 752
PAPER = (255, 252, 245)
LINE = (200, 190, 172)
RED_DIE = (196, 30, 36)
YELLOW_DIE = (246, 200, 30)
LOCKED_DIE = (150, 146, 140)
DIE_CARD = (40, 100, 190)
GOOD = (0, 128, 80)
BAD = (190, 40, 30)

ARMS_COLOURS = {
    "red": (200, 40, 40), "blue": (35, 85, 200), "green": (30, 140, 60),
    "yellow": (240, 200, 30), "purple": (125, 55, 165), "black": (30, 30, 30),
}
SPECIAL_FILL = (226, 232, 244)
TOURNAMENT_FILL = (250, 222, 130)
SHORT_NAMES = {
    "die": "Die {value}", "catapult": "Catapult", "champion": "Champion", "stack": "Stack",
    "castle_guard": "Castle grd", "special_guard": "Special grd", "betrayal": "Betrayal",
    "protection": "Protection",
}
ABILITY_HINTS = {
    "catapult": "4 rolls on rival castles", "champion": "4 rolls in tournaments",
    "stack": "2 cards under per turn", "castle_guard": "protects 2 castles",
    "special_guard": "protects 1 special", "betrayal": "stack castles 2-2-2+4",
    "protection": "no king's revenge",
}
PURPOSE_TITLES = {"capture": "Capture", "defence": "Defence", "tournament": "Tournament",
                  "king": "Toppling the king"}

PIPS = {
    1: [(0.5, 0.5)], 2: [(0.27, 0.27), (0.73, 0.73)],
    3: [(0.27, 0.27), (0.5, 0.5), (0.73, 0.73)],
    4: [(0.27, 0.27), (0.73, 0.27), (0.27, 0.73), (0.73, 0.73)],
    5: [(0.27, 0.27), (0.73, 0.27), (0.5, 0.5), (0.27, 0.73), (0.73, 0.73)],
    6: [(0.27, 0.25), (0.73, 0.25), (0.27, 0.5), (0.73, 0.5), (0.27, 0.75), (0.73, 0.75)],
}


def _light(colour) -> bool:
    red, green, blue = colour
    return red * 0.299 + green * 0.587 + blue * 0.114 > 150


@lru_cache(maxsize=8192)
def _width(text: str, size: int) -> float:
    return font(size).getlength(text)


def _fit(text: str, size: int, width: int, smallest: int = 16) -> tuple[str, int]:
    """Shrink the type down to `smallest`, then cut the text with an ellipsis, to fit `width`."""
    while size > smallest and _width(text, size) > width:
        size -= 1
    if _width(text, size) <= width:
        return text, size
    while text and _width(text + "...", size) > width:
        text = text[:-1]
    return text.rstrip() + "...", size


@lru_cache(maxsize=4096)
def _text_mask(text: str, size: int, bold: bool, anchor: str) -> tuple[Image.Image, int, int]:
    """The antialiased coverage of a text, drawn once: most labels repeat from board to board,
    and stamping a cached mask is much faster than laying the text out again."""
    face = font(size)
    stroke = 1 if bold else 0
    left, top, right, bottom = face.getbbox(text, anchor=anchor, stroke_width=stroke)
    mask = Image.new("L", (max(1, right - left), max(1, bottom - top)), 0)
    ImageDraw.Draw(mask).text((-left, -top), text, font=face, fill=255, anchor=anchor,
                              stroke_width=stroke, stroke_fill=255)
    return mask, left, top


def _text(draw, xy, text, size, fill=INK, width=None, anchor="la", bold=False, smallest=16):
    if width is not None:
        text, size = _fit(text, size, width, smallest)
    if not text:
        return size
    mask, left, top = _text_mask(text, size, bold, anchor)
    draw.bitmap((round(xy[0] + left), round(xy[1] + top)), mask, fill=fill)
    return size


def _die(draw, x, y, size, value, fill=(255, 255, 255), pip=INK, outline=INK, width=2):
    draw.rounded_rectangle((x, y, x + size, y + size), radius=max(3, size // 6), fill=fill,
                           outline=outline, width=width)
    if not value:
        _text(draw, (x + size / 2, y + size / 2), "?", int(size * 0.6), fill=MUTED, anchor="mm")
        return
    radius = max(2, size // 11)
    for px, py in PIPS[value]:
        cx, cy = x + px * size, y + py * size
        draw.ellipse((cx - radius, cy - radius, cx + radius, cy + radius), fill=pip)


def _combination(draw, x, y, size, combination, gap=4) -> int:
    """Three red dice (or four, for the king) and one yellow die; returns the width drawn."""
    if not combination:
        return 0
    for i in range(combination["count"]):
        _die(draw, x + i * (size + gap), y, size, combination["red"], fill=RED_DIE,
             pip=(255, 255, 255), outline=(110, 10, 10))
    x_yellow = x + combination["count"] * (size + gap) + gap
    _die(draw, x_yellow, y, size, combination["yellow"], fill=YELLOW_DIE, outline=(140, 110, 0))
    return x_yellow + size - x


def _card_colours(card) -> tuple[tuple, tuple]:
    if card["kind"] == "castle":
        fill = ARMS_COLOURS.get(card["arms"], MUTED)
    elif card["kind"] == "tournament":
        fill = TOURNAMENT_FILL
    else:
        fill = SPECIAL_FILL
    return fill, INK if _light(fill) else (255, 255, 255)


def _shield(draw, x, y, size, fill=HIGHLIGHT):
    """A small shield: this card is covered by a guard."""
    w = size
    draw.polygon([(x, y), (x + w, y), (x + w, y + w * 0.55), (x + w / 2, y + w * 1.1),
                  (x, y + w * 0.55)], fill=fill, outline=INK)


# ----------------------------------------------------------------------------------------
# Left column


def _stack_tile(draw, x, y, w, h, stack):
    _text(draw, (x, y), f"Stack {stack['number']}: {stack['size']} cards", 20, bold=True)
    top = y + 30
    card = stack["top"]
    if card is None:
        draw.rounded_rectangle((x, top, x + w, top + h), radius=12, outline=LINE, width=3)
        _text(draw, (x + w / 2, top + h / 2), "empty", 22, fill=MUTED, anchor="mm")
        return
    fill, ink = _card_colours(card)
    draw.rounded_rectangle((x, top, x + w, top + h), radius=12, fill=PAPER, outline=INK, width=3)
    draw.rounded_rectangle((x + 3, top + 3, x + w - 3, top + 52), radius=10, fill=fill)
    _text(draw, (x + w / 2, top + 28), card["name"], 22, fill=ink, anchor="mm", width=w - 16, bold=True)
    if card["combination"]:
        size = 38
        drawn = 4 * (size + 4) + 4
        _combination(draw, x + (w - drawn) / 2 + 2, top + 62, size, card["combination"])
        _text(draw, (x + w / 2, top + 120), card["combination"]["text"], 22, anchor="mm")
    else:
        for i, line in enumerate(("no dice to beat:", "everyone rolls,", "the best wins")):
            _text(draw, (x + w / 2, top + 76 + i * 26), line, 19, anchor="mm")
    detail = {"castle": f"{card['arms']} arms", "tournament": "tournament"}.get(card["kind"], "")
    if card.get("ability") == "die":
        detail = f"adds a die: {card['value']}"
    elif card.get("ability"):
        detail = ABILITY_HINTS.get(card["ability"], "special card")
    if detail and card["kind"] != "tournament":
        _text(draw, (x + w / 2, top + h - 50), detail, 18, anchor="mm", width=w - 12)
    _text(draw, (x + w / 2, top + h - 22), card["id"], 16, fill=MUTED, anchor="mm")


def _king_row(draw, x, y, king):
    _text(draw, (x, y + 18), "King:", 20, anchor="lm", bold=True)
    drawn = _combination(draw, x + 64, y + 2, 32, king["combination"], gap=3)
    _text(draw, (x + 64 + drawn + 12, y + 18), "needs 3 castles", 18, fill=MUTED, anchor="lm")


def _roll_panel(draw, x, y, w, h, view, names):
    draw.rounded_rectangle((x, y, x + w, y + h), radius=12, fill=PAPER, outline=LINE, width=2)
    x0, x1 = x + 14, x + w - 14
    roll, tournament, outcome = view.get("roll"), view.get("tournament"), view.get("outcome")
    if outcome:
        _text(draw, (x0, y + 14), "Game over", 26, bold=True)
        winners = [names[s] if s < len(names) else f"P{s + 1}" for s in outcome["winners"]]
        _text(draw, (x0, y + 56), ("Winner: " + ", ".join(winners)) if winners else "No winner",
              24, fill=GOOD, width=w - 28, bold=True)
        _wrapped(draw, x0, y + 96, w - 28, name_seats(outcome["reason"], names), 20, 3)
        return
    if roll is None:
        turn = view["turn"]
        seat = turn["seat"]
        if view["phase"] == "revenge":
            title = f"King's revenge: {_name(names, seat)}"
            lines = ["must give up a castle of their choice", "and put it under a stack"]
        else:
            title = f"{_name(names, seat)} to choose a card"
            lines = [f"Under-stack moves: {turn['unders_used']} of {turn['unders_allowed']} used"]
            if turn["further_attempt"]:
                lines.append("Won a special from a stack: may try again")
            if turn["may_topple"]:
                lines.append("May challenge the king first")
        _text(draw, (x0, y + 14), title, 24, width=w - 28, bold=True)
        for i, line in enumerate(lines):
            _text(draw, (x0, y + 56 + i * 30), line, 20, width=w - 28)
        goals_y = y + h - 150
        _text(draw, (x0, goals_y), "Win at once with", 20, bold=True)
        for i, goal in enumerate(("four different castles,", "three castles + toppling the king,",
                                  "two castles + three tournaments.")):
            _text(draw, (x0 + 12, goals_y + 32 + i * 30), goal, 20, width=w - 40)
        return

    roller = roll["roller"]
    title = PURPOSE_TITLES.get(roll["purpose"], roll["purpose"])
    _text(draw, (x0, y + 10), f"{title}: {_name(names, roller)}", 24, width=w - 150, bold=True)
    # Rolls used, as filled / empty circles, top right.
    for i in range(roll["rolls_allowed"]):
        cx = x1 - 8 - (roll["rolls_allowed"] - 1 - i) * 22
        draw.ellipse((cx - 8, y + 16, cx + 8, y + 32), outline=INK, width=2,
                     fill=INK if i < roll["rolls_used"] else None)
    _text(draw, (x1 - roll["rolls_allowed"] * 22 - 4, y + 24),
          f"roll {roll['rolls_used']}/{roll['rolls_allowed']}", 18, anchor="rm")

    target = roll["target"]
    if roll["purpose"] == "tournament":
        where = f"for the tournament card on stack {roll['from_stack']}"
    elif roll["from_stack"]:
        where = f"for {target['label']} on stack {roll['from_stack']}"
    elif roll["owner"] is not None:
        where = f"for {_name(names, roll['owner'])}'s {target['label']}"
    else:
        where = f"against {target['label']}"
    _text(draw, (x0, y + 44), where, 20, width=w - 28)

    # The six dice, in their fixed positions.
    size, gap = 56, 12
    top = y + 74
    for i, die in enumerate(roll["dice"]):
        dx = x0 + i * (size + gap)
        if die["locked"]:
            _die(draw, dx, top, size, die["value"], fill=LOCKED_DIE, pip=(235, 235, 235), outline=(90, 90, 90))
            draw.line((dx + 6, top + 6, dx + size - 6, top + size - 6), fill=BAD, width=4)
            label, colour = "six", BAD
        elif die["kept"]:
            _die(draw, dx, top, size, die["value"], outline=HIGHLIGHT, width=5)
            label, colour = "kept", INK
        else:
            _die(draw, dx, top, size, die["value"])
            label, colour = str(die["position"]), MUTED
        _text(draw, (dx + size / 2, top + size + 12), label, 17, fill=colour, anchor="mm")
    line_y = top + size + 26
    if roll["die_cards"]:
        _text(draw, (x0, line_y + 14), "Die cards:", 18, anchor="lm")
        for i, value in enumerate(roll["die_cards"]):
            _die(draw, x0 + 96 + i * 36, line_y, 30, value, fill=DIE_CARD, pip=(255, 255, 255))
        line_y += 36

    best, to_beat = roll["best"], roll["to_beat"]
    _text(draw, (x0, line_y), "Best: " + (best["text"] if best else "not rolled yet"), 24,
          width=w - 28, bold=True)
    line_y += 32
    if to_beat:
        holder = to_beat.get("seat")
        whose = {"card": "the card", "king": "the king", "attacker": _name(names, holder),
                 "leader": _name(names, holder)}.get(to_beat["against"], "")
        verdict = ""
        if best:
            verdict = "beats it" if roll["beating"] else "not yet"
            _text(draw, (x1, line_y), verdict, 20, fill=GOOD if roll["beating"] else BAD,
                  anchor="ra", bold=True)
        _text(draw, (x0, line_y), f"To beat: {to_beat['text']} ({whose})", 20,
              width=w - 28 - (90 if verdict else 0))
    elif roll["purpose"] == "tournament":
        _text(draw, (x0, line_y), "The organiser sets the score to beat", 20, fill=MUTED, width=w - 28)
    line_y += 30

    if tournament:
        _tournament_grid(draw, x0, line_y + 2, w - 28, y + h - 6 - line_y, tournament, roller, names)


def _tournament_grid(draw, x, y, w, h, tournament, roller, names):
    """Every seat in rolling order, two columns: result so far, rolling, or waiting."""
    results = {entry["seat"]: entry for entry in tournament["standings"]}
    order = tournament["order"]
    rows = -(-len(order) // 2)
    line = max(18, min(26, h // rows))
    column = w // 2
    for i, seat in enumerate(order):
        cx, cy = x + (i % 2) * column, y + (i // 2) * line
        if seat in results:
            entry = results[seat]
            text = f"{_name(names, seat)}: {entry['text']}"
            colour = GOOD if entry["leader"] else INK
        else:
            text = f"{_name(names, seat)}: " + ("rolling" if seat == roller else "waiting")
            colour = MUTED
        _text(draw, (cx, cy), text, min(19, line - 4), fill=colour, width=column - 8, bold=seat == tournament["leader"],
              smallest=12)


# ----------------------------------------------------------------------------------------
# Players


def _player_row(draw, x, y, w, h, player, view, names):
    seat = player["seat"]
    acting = seat in view["to_act"]
    active = seat == view["active"] and not view["over"]
    winner = view["over"] and view["outcome"] and seat in view["outcome"]["winners"]
    fill = (255, 246, 214) if acting else PAPER
    border = HIGHLIGHT if acting else (GOOD if winner else LINE)
    draw.rounded_rectangle((x, y, x + w, y + h), radius=10, fill=fill, outline=border,
                           width=4 if acting or winner else 2)
    colour = SEAT_COLOURS[seat % len(SEAT_COLOURS)]
    draw.rounded_rectangle((x + 6, y + 6, x + 18, y + h - 6), radius=5, fill=colour)
    name = _name(names, seat) + ("  (turn)" if active else "") + ("  WINNER" if winner else "")
    name_size = 24 if h >= 110 else 22
    _text(draw, (x + 28, y + 6), name, name_size, width=w - 470, bold=True, smallest=20)

    # Goals: four castles, three castles + king, two castles + three tournaments.
    goals = player["goals"]
    castles, tournaments = player["castles"], player["tournaments"]
    badges = [
        (f"Castles {castles}/4", goals["four_castles"]["met"], False),
        ("King ready" if goals["king"]["ready"] else f"King {min(castles, 3)}/3", False, goals["king"]["ready"]),
        (f"Tourn. {min(tournaments, 3)}/3 + castles {min(castles, 2)}/2",
         goals["castles_and_tournaments"]["met"], False),
    ]
    bx = x + w - 10
    for text, met, ready in reversed(badges):
        tw = round(_width(text, 18)) + 16
        bx -= tw
        badge_fill = GOOD if met else (HIGHLIGHT if ready else (236, 230, 216))
        draw.rounded_rectangle((bx, y + 8, bx + tw, y + 34), radius=8, fill=badge_fill)
        _text(draw, (bx + tw / 2, y + 21), text, 18, fill=(255, 255, 255) if met else INK, anchor="mm")
        bx -= 6

    # Card chips: castles, then specials, then one chip for all tournaments.
    cards = player["cards"]
    castle_cards = [c for c in cards if c["kind"] == "castle"]
    specials = [c for c in cards if c["kind"] == "special"]
    chips = castle_cards + specials
    if tournaments:
        chips.append({"kind": "tournament", "count": tournaments})
    gap, top = 5, 38
    room = h - top - 5
    rows = max(1, (room + gap) // (28 + gap))
    chip_w = 108
    if len(chips) > rows * ((w - 34 + gap) // (chip_w + gap)):
        chip_w = 92  # crowded: narrower one-line chips
    per_row = max(1, (w - 34 + gap) // (chip_w + gap))
    rows = max(1, min(rows, -(-len(chips) // per_row)))
    chip_h = min(46, (room - gap * (rows - 1)) // rows)
    capacity = per_row * rows
    if len(chips) > capacity:  # only with very many cards in a six-player game
        chips = chips[:capacity - 1] + [{"kind": "more", "count": len(chips) - capacity + 1}]
    for i, chip in enumerate(chips):
        cx = x + 28 + (i % per_row) * (chip_w + gap)
        cy = y + top + (i // per_row) * (chip_h + gap)
        _chip(draw, cx, cy, chip_w, chip_h, chip)


def _chip(draw, x, y, w, h, card):
    kind = card["kind"]
    if kind == "more":
        draw.rounded_rectangle((x, y, x + w, y + h), radius=7, outline=LINE, width=2)
        _text(draw, (x + w / 2, y + h / 2), f"+{card['count']} more", 17, anchor="mm")
        return
    if kind == "tournament":
        draw.rounded_rectangle((x, y, x + w, y + h), radius=7, fill=TOURNAMENT_FILL, outline=INK, width=2)
        _text(draw, (x + w / 2, y + h / 2), f"Tourn. x{card['count']}", 19, anchor="mm", bold=True)
        return
    fill, ink = _card_colours(card)
    draw.rounded_rectangle((x, y, x + w, y + h), radius=7, fill=fill, outline=INK, width=2)
    combination = card["combination"]["text"]
    if kind == "castle":
        title, detail, title_size = combination, card["arms"], 20
    else:
        title = SHORT_NAMES.get(card["ability"], card["name"]).format(value=card["value"])
        detail, title_size = combination, 17
    if h >= 40:  # two lines: title and detail
        _text(draw, (x + 6, y + 3), title, title_size, fill=ink, width=w - 26, bold=kind == "castle", smallest=13)
        _text(draw, (x + 6, y + h - 3), detail, 15, fill=ink if kind == "castle" else MUTED,
              anchor="ld", width=w - 10, smallest=12)
    else:  # one line, for crowded six-player tables
        _text(draw, (x + 5, y + h / 2), title, 17 if kind == "castle" else 15, fill=ink, anchor="lm",
              width=w - 22, bold=kind == "castle", smallest=12)
    if card.get("guarded_by"):
        _shield(draw, x + w - 17, y + 3, 14)


# ----------------------------------------------------------------------------------------
# Whole image


def _name(names, seat) -> str:
    if seat is None:
        return "?"
    return names[seat] if 0 <= seat < len(names) else f"P{seat + 1}"


def _wrapped(draw, x, y, width, text, size, max_lines):
    words, lines, line = text.split(), [], ""
    for word in words:
        candidate = f"{line} {word}".strip()
        if _width(candidate, size) <= width or not line:
            line = candidate
        else:
            lines.append(line)
            line = word
    if line:
        lines.append(line)
    for i, line in enumerate(lines[:max_lines]):
        _text(draw, (x, y + i * (size + 8)), line, size, width=width)


def render(view: dict, names: list[str], lang: str = "en") -> Image.Image:
    image = Image.new("RGB", (WIDTH, HEIGHT), BACKGROUND)
    draw = ImageDraw.Draw(image)

    # Header: the status line, with names.
    draw.rectangle((0, 0, WIDTH, HEADER), fill=INK)
    _text(draw, (18, HEADER / 2), "Knatsch", 28, fill=HIGHLIGHT, anchor="lm", bold=True)
    _text(draw, (150, HEADER / 2), name_seats(view["status"], names), 26, fill=(255, 255, 255),
          anchor="lm", width=WIDTH - 170, smallest=18)

    # Left column: stacks, king, roll.
    left = 16
    tile_w, tile_h = 200, 198
    for i, stack in enumerate(view["stacks"]):
        _stack_tile(draw, left + i * (tile_w + 24), HEADER + 10, tile_w, tile_h, stack)
    _king_row(draw, left, HEADER + 246, view["king"])
    _roll_panel(draw, left, HEADER + 292, LEFT_WIDTH - left, LOG_TOP - HEADER - 300, view, names)

    # Right: one row per player.
    players = view["players"]
    px, py = LEFT_WIDTH + 12, HEADER + 10
    pw = WIDTH - px - 14
    available = LOG_TOP - py - 8
    gap = 8
    row_h = min(180, (available - gap * (len(players) - 1)) // max(1, len(players)))
    for i, player in enumerate(players):
        _player_row(draw, px, py + i * (row_h + gap), pw, row_h, player, view, names)

    # Bottom: the last events.
    draw.rectangle((0, LOG_TOP, WIDTH, HEIGHT), fill=(232, 224, 206))
    for i, line in enumerate(view.get("log", [])[-3:]):
        _text(draw, (18, LOG_TOP + 8 + i * 27), name_seats(line, names), 20, width=WIDTH - 36, smallest=15)
    # Quantised here with the fast octree method: render_png keeps a palette image as it is,
    # and its default median cut takes several times longer for the same look.
    return image.quantize(colors=256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
