"""The Knatsch table, phone first: upright 1080 x 1350, big type, nothing under 1/40 of the width.

Drawn only from the view (see games/knatsch/views.py); every word from the catalogues
(`knatsch.board.po`, and engine texts through `i18n.translate`). Layout:

  +-----------------------------------------+
  | status (whose turn, what to do), large  |
  +--------------------+--------------------+
  | stack 1 top card   | stack 2 top card   |
  +--------------------+--------------------+
  | king: dice to beat                      |
  | the roll: six dice, 3 a row (numbered   |
  | by position, like the buttons) | best,  |
  | what to beat, beats it or not           |
  +-----------------------------------------+
  | one row per player: seat number disc,   |
  | name, the nearest win, card chips       |
  | (a castle's chip names it: its arms and |
  | its dice, "blue 4-4-4+2"), wrapped onto |
  | another line where a player holds many  |
  +-----------------------------------------+

Seat marks carry the seat number; seat colours (renderers.common) differ from the coat-of-arms
colours of the castle cards. The move history lives in the message text, not on the image.
"""
from __future__ import annotations

from functools import lru_cache

from PIL import Image, ImageDraw

from i18n import t, translate
from renderers.common import (BACKGROUND, HIGHLIGHT, INK, MIN_TEXT, MUTED, PHONE_SIZE, SEAT_COLOURS, fixed_palette,
                              font, ink_on, keep_drawn, note_text, seat_names, to_palette, unrecorded)

WIDTH, HEIGHT = PHONE_SIZE
HEADER = 112
MARGIN = 14
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


def _fit(text: str, size: int, width: int, smallest: int = MIN_TEXT) -> tuple[str, int]:
    """Shrink the type down to `smallest`, then cut the text with an ellipsis, to fit `width`."""
    while size > smallest and _width(text, size) > width:
        size -= 1
    if _width(text, size) <= width:
        return text, size
    while text and _width(text + "…", size) > width:
        text = text[:-1]
    return text.rstrip() + "…", size


@keep_drawn(2 * 2**20)
def _text_mask(text: str, size: int, bold: bool, anchor: str) -> tuple[Image.Image, int, int]:
    """The antialiased coverage of a text, drawn once: most labels repeat from board to board,
    and stamping a cached mask is much faster than laying the text out again."""
    face = font(size)
    stroke = 1 if bold else 0
    left, top, right, bottom = face.getbbox(text, anchor=anchor, stroke_width=stroke)
    mask = Image.new("L", (max(1, right - left), max(1, bottom - top)), 0)
    with unrecorded():  # reported where it is pasted (`_text`)
        ImageDraw.Draw(mask).text((-left, -top), text, font=face, fill=255, anchor=anchor,
                                  stroke_width=stroke, stroke_fill=255)
    return mask, left, top


def _text(draw, xy, text, size, fill=INK, width=None, anchor="la", bold=False, smallest=MIN_TEXT):
    if width is not None:
        text, size = _fit(text, size, width, smallest)
    if not text:
        return size
    mask, left, top = _text_mask(text, size, bold, anchor)
    x, y = round(xy[0] + left), round(xy[1] + top)
    draw.bitmap((x, y), mask, fill=fill)
    note_text((x, y, x + mask.width, y + mask.height), text, font(size).size)
    return size


def _die(draw, x, y, size, value, fill=(255, 255, 255), pip=INK, outline=INK, width=2):
    draw.rounded_rectangle((x, y, x + size, y + size), radius=max(3, size // 6), fill=fill,
                           outline=outline, width=width)
    if not value:
        _text(draw, (x + size / 2, y + size / 2), "?", max(MIN_TEXT, int(size * 0.6)), fill=MUTED, anchor="mm")
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
# Words


class Words:
    """The board's words in one language, with the seats' drawable names."""

    def __init__(self, lang: str, names: list[str]) -> None:
        self.lang, self.names = lang, names

    def __call__(self, message_id: str, **params) -> str:
        return t(self.lang, f"knatsch.board.{message_id}", **params)

    def say(self, text) -> str:
        """Engine text (a Msg, its JSON, or a legacy string with {s0} placeholders)."""
        return translate(text, self.lang, self.names) if text is not None else ""

    def name(self, seat) -> str:
        if seat is None:
            return "?"
        return self.names[seat] if 0 <= seat < len(self.names) else f"P{seat + 1}"


def _card_detail(card, say: Words) -> str:
    if card["kind"] == "castle":
        return say("arms", arms=say(f"arms_{card['arms']}") if card.get("arms") else "?")
    if card["kind"] == "tournament":
        return say("tournament_rule")
    if card.get("ability") == "die":
        return say("ability_die", value=card["value"])
    if card.get("ability"):
        return say(f"ability_{card['ability']}")
    return ""


# ----------------------------------------------------------------------------------------
# Stacks and king


def _stack_tile(draw, x, y, w, h, stack, say: Words, dice: int = 56):
    _text(draw, (x, y), say("stack", number=stack["number"], count=stack["size"]), 30, bold=True, width=w)
    top = y + 44
    h -= 44
    card = stack["top"]
    if card is None:
        draw.rounded_rectangle((x, top, x + w, top + h), radius=14, outline=LINE, width=3)
        _text(draw, (x + w / 2, top + h / 2), say("empty"), 32, fill=MUTED, anchor="mm")
        return
    fill, ink = _card_colours(card)
    draw.rounded_rectangle((x, top, x + w, top + h), radius=14, fill=PAPER, outline=INK, width=3)
    draw.rounded_rectangle((x + 3, top + 3, x + w - 3, top + 56), radius=12, fill=fill)
    _text(draw, (x + w / 2, top + 30), say.say(card["name"]), 32, fill=ink, anchor="mm", width=w - 20, bold=True)
    if card["combination"]:
        size = dice
        count = card["combination"]["count"]
        drawn = (count + 1) * (size + 6) + 6
        _combination(draw, x + (w - drawn) / 2, top + 66, size, card["combination"], gap=6)
    else:
        _text(draw, (x + w / 2, top + 98), say("everyone_rolls"), 30, anchor="mm", width=w - 20)
    detail = _card_detail(card, say)
    if detail:
        _text(draw, (x + w / 2, top + h - 26), detail, MIN_TEXT + 1, anchor="mm", width=w - 16)


def _king_row(draw, x, y, w, king, say: Words):
    label = say("king")
    _text(draw, (x, y + 26), label, 32, anchor="lm", bold=True)
    start = x + _width(label, 32) + 18
    drawn = _combination(draw, start, y + 4, 44, king["combination"], gap=5)
    _text(draw, (start + drawn + 16, y + 26), say("king_needs"), MIN_TEXT + 1, fill=MUTED, anchor="lm",
          width=x + w - start - drawn - 16)


# ----------------------------------------------------------------------------------------
# The roll (or what the player to act may do)


def _roll_panel(draw, x, y, w, h, view, say: Words):
    draw.rounded_rectangle((x, y, x + w, y + h), radius=14, fill=PAPER, outline=LINE, width=2)
    x0, x1 = x + 18, x + w - 18
    roll, tournament, outcome = view.get("roll"), view.get("tournament"), view.get("outcome")
    if outcome:
        winners = [say.name(s) for s in outcome["winners"]]
        _text(draw, (x0, y + 16), say("game_over"), 36, bold=True)
        _text(draw, (x0, y + 66), say("winner", names=", ".join(winners)) if winners else say("no_winner"),
              34, fill=GOOD, width=w - 36, bold=True)
        line_y = _wrapped(draw, x0, y + 120, w - 36, say.say(outcome["reason"]), 30, 3) + 16
        if line_y + 4 * 40 <= y + h:
            _text(draw, (x0, line_y), say("win_with"), 30, bold=True)
            for i, goal in enumerate((say("goal_four"), say("goal_king"), say("goal_mixed"))):
                _text(draw, (x0 + 16, line_y + 40 * (i + 1)), "• " + goal, 30, width=w - 52)
        return
    if roll is None:
        turn = view["turn"]
        seat = turn["seat"]
        if view["phase"] == "revenge":
            title = say("revenge", player=say.name(seat))
            lines = [say("revenge_rule")]
        else:
            title = say("to_choose", player=say.name(seat))
            lines = [say("unders", used=turn["unders_used"], allowed=turn["unders_allowed"])]
            if turn["further_attempt"]:
                lines.append(say("further_attempt"))
            if turn["may_topple"]:
                lines.append(say("may_topple"))
        roomy = h >= 420
        size, step = (36, 48) if roomy else (30, 40)
        _text(draw, (x0, y + 16), title, size + 4, width=w - 36, bold=True)
        line_y = y + 30 + step
        for line in lines:
            line_y = _wrapped(draw, x0, line_y, w - 36, line, size, 2) + 4
        goals_y = line_y + (step if roomy else 10)
        if goals_y + step * 4 <= y + h:  # the three ways to win, all or none
            _text(draw, (x0, goals_y), say("win_with"), size, bold=True)
            for i, goal in enumerate((say("goal_four"), say("goal_king"), say("goal_mixed"))):
                _text(draw, (x0 + 16, goals_y + step * (i + 1)), "• " + goal, size, width=w - 52)
        elif goals_y + 2 * (MIN_TEXT + 10) <= y + h:  # a crowded table: the same in a sentence
            ways = " ".join((say("win_with"), say("goal_four"), say("goal_king"), say("goal_mixed")))
            _wrapped(draw, x0, goals_y, w - 36, ways, MIN_TEXT, (y + h - goals_y) // (MIN_TEXT + 10))
        return

    roller = roll["roller"]
    _text(draw, (x0, y + 12), say(f"purpose_{roll['purpose']}", player=say.name(roller)), 34, width=w - 250,
          bold=True)
    # Rolls used, as filled / empty circles, top right, with the count in words beside them.
    for i in range(roll["rolls_allowed"]):
        cx = x1 - 14 - (roll["rolls_allowed"] - 1 - i) * 34
        draw.ellipse((cx - 13, y + 18, cx + 13, y + 44), outline=INK, width=3,
                     fill=INK if i < roll["rolls_used"] else None)
    _text(draw, (x1 - roll["rolls_allowed"] * 34 - 6, y + 31),
          say("roll_count", used=roll["rolls_used"], allowed=roll["rolls_allowed"]), MIN_TEXT, anchor="rm")

    target = roll["target"]
    if roll["purpose"] == "tournament":
        where = say("for_tournament", stack=roll["from_stack"])
    elif roll["from_stack"]:
        where = say("for_stack_card", card=target["name"], stack=roll["from_stack"])
    elif roll["owner"] is not None:
        where = say("for_owned_card", card=target["name"], owner=say.name(roll["owner"]))
    else:
        where = say("against_card", card=target["name"])
    _text(draw, (x0, y + 60), where, 30, width=w - 36)

    # The six dice in their fixed positions, three a row like the buttons, numbered.
    size, gap = max(56, min(92, (h - 110 - 2 * 50) // 2)), 16
    top = y + 110 if size >= 80 else y + 102
    for i, die in enumerate(roll["dice"]):
        dx = x0 + (i % 3) * (size + gap)
        dy = top + (i // 3) * (size + 44)
        roomy = size >= 80
        if die["locked"]:
            _die(draw, dx, dy, size, die["value"], fill=LOCKED_DIE, pip=(235, 235, 235), outline=(90, 90, 90))
            draw.line((dx + 8, dy + 8, dx + size - 8, dy + size - 8), fill=BAD, width=6)
            label = say("die_six", position=die["position"]) if roomy else str(die["position"])
            colour = BAD
        elif die["kept"]:
            _die(draw, dx, dy, size, die["value"], outline=HIGHLIGHT, width=7)
            label = say("die_kept", position=die["position"]) if roomy else str(die["position"])
            colour = INK
        else:
            _die(draw, dx, dy, size, die["value"])
            label, colour = str(die["position"]), INK
        if _width(label, MIN_TEXT) > size + gap:  # "1: bleibt" too wide under its die: the number alone
            label = str(die["position"])
        _text(draw, (dx + size / 2, dy + size + 19), label, MIN_TEXT, fill=colour, anchor="mm", width=size + gap)
    dice_bottom = top + 2 * (size + 44)
    rx = x0 + 3 * (size + gap) + 10
    rw = x1 - rx
    line_y = top
    if roll["die_cards"]:
        _text(draw, (rx, line_y + 20), say("die_cards"), MIN_TEXT, anchor="lm")
        start = rx + _width(say("die_cards"), MIN_TEXT) + 10
        for i, value in enumerate(roll["die_cards"]):
            _die(draw, start + i * 48, line_y, 40, value, fill=DIE_CARD, pip=(255, 255, 255))
        line_y += 54
    best, to_beat = roll["best"], roll["to_beat"]
    roomy = size >= 80
    value_size = 36 if roomy else 30
    best_text = say.say(best["text"]) if best else say("not_rolled")
    if roomy:  # label above value
        _text(draw, (rx, line_y), say("best"), MIN_TEXT, fill=MUTED)
        _text(draw, (rx, line_y + 30), best_text, value_size, width=rw, bold=True)
        line_y += 88
    else:  # a crowded table: one line each
        _text(draw, (rx, line_y), f"{say('best')}: {best_text}", MIN_TEXT + 1, width=rw, bold=True)
        line_y += 42
    if to_beat:
        holder = to_beat.get("seat")
        whose = {"card": say("whose_card"), "king": say("whose_king")}.get(to_beat["against"], say.name(holder))
        if roomy:
            _text(draw, (rx, line_y), say("to_beat", whose=whose), MIN_TEXT, fill=MUTED, width=rw)
            _text(draw, (rx, line_y + 30), say.say(to_beat["text"]), value_size, width=rw, bold=True)
            line_y += 88
        else:
            _text(draw, (rx, line_y), f"{say('to_beat', whose=whose)}: {say.say(to_beat['text'])}", MIN_TEXT + 1,
                  width=rw, bold=True)
            line_y += 42
        if best:
            verdict = say("beats_it") if roll["beating"] else say("not_yet")
            _text(draw, (rx, line_y), verdict, value_size, fill=GOOD if roll["beating"] else BAD, bold=True, width=rw)
    elif roll["purpose"] == "tournament":
        _wrapped(draw, rx, line_y, rw, say("organiser_sets"), MIN_TEXT, 2)




# ----------------------------------------------------------------------------------------
# Players


def nearest_goal(player) -> tuple[int, str, dict]:
    """The player's closest way to win: (cards still missing, message id, params)."""
    castles, tournaments = player["castles"], player["tournaments"]
    king = player["goals"]["king"]
    options = [
        (max(0, 4 - castles), "goal_left_castles", {"count": max(0, 4 - castles)}),
        (max(0, 3 - castles) + 1, "goal_left_king", {"count": max(0, 3 - castles)}) if not king["ready"]
        else (1, "goal_king_ready", {}),
        (max(0, 2 - castles) + max(0, 3 - tournaments), "goal_left_mixed",
         {"castles": max(0, 2 - castles), "tournaments": max(0, 3 - tournaments)}),
    ]
    return min(options, key=lambda option: option[0])


def _player_row(draw, x, y, w, h, player, view, say: Words, lines: int | None = None):
    seat = player["seat"]
    acting = seat in view["to_act"]
    winner = view["over"] and view["outcome"] and seat in view["outcome"]["winners"]
    fill = (255, 246, 214) if acting else PAPER
    border = HIGHLIGHT if acting else (GOOD if winner else LINE)
    draw.rounded_rectangle((x, y, x + w, y + h), radius=12, fill=fill, outline=border,
                           width=6 if acting or winner else 2)
    colour = SEAT_COLOURS[seat % len(SEAT_COLOURS)]
    radius = 21
    cx, cy = x + 10 + radius, y + 8 + radius
    draw.ellipse((cx - radius, cy - radius, cx + radius, cy + radius), fill=colour, outline=INK, width=2)
    _text(draw, (cx, cy), str(seat + 1), 30, fill=ink_on(colour), anchor="mm", bold=True)

    tournament = view.get("tournament")
    if winner:
        goal = say(f"won_{view['outcome'].get('kind', 'goal')}") if view["outcome"].get("kind") else say("won")
    elif view["over"]:
        goal = say("owned", castles=player["castles"], tournaments=player["tournaments"])
    elif tournament and seat in tournament["order"]:
        # During a tournament every player's row says where they stand in it: the dice panel
        # has no room for six players, but every row does.
        standing = {entry["seat"]: entry for entry in tournament["standings"]}.get(seat)
        if standing is not None:
            goal = say("in_tournament", result=say.say(standing["text"]))
        else:
            roller = (view.get("roll") or {}).get("roller")
            goal = say("in_tournament_rolling") if seat == roller else say("in_tournament_waiting")
    else:
        _, message_id, params = nearest_goal(player)
        goal = say(message_id, **params)
    goal_size = MIN_TEXT
    goal_w = min(w * 0.55, _width(goal, goal_size) + 20)
    name = say.name(seat) + (f" — {say('acting')}" if acting else "")
    _text(draw, (cx + radius + 12, cy), name, 31, anchor="lm", width=w - goal_w - 2 * radius - 40, bold=True)
    badge_fill = GOOD if winner else ((255, 222, 140) if not view["over"] and nearest_goal(player)[0] <= 1 else
                                      (236, 230, 216))
    draw.rounded_rectangle((x + w - goal_w - 8, y + 8, x + w - 8, y + 50), radius=10, fill=badge_fill)
    _text(draw, (x + w - goal_w / 2 - 8, y + 29), goal, goal_size, fill=(255, 255, 255) if winner else INK,
          anchor="mm", width=goal_w - 14)

    # Card chips: castles, then specials, then one chip for all tournaments, as wide as their
    # words, wrapped onto as many lines as the row has.
    if lines is None:
        lines = max(1, (h - CHIP_TOP - 4 + CHIP_GAP) // (CHIP_H + CHIP_GAP))
    for line, placed in enumerate(_chip_lines(player, say, w - 20, lines)):
        cx = x + 10
        for chip, text, width in placed:
            _chip(draw, cx, y + CHIP_TOP + line * (CHIP_H + CHIP_GAP), width, CHIP_H, chip, say, text)
            cx += width + CHIP_GAP


CHIP_TOP, CHIP_H, CHIP_GAP = 54, 44, 6


def _chip_text(chip, say: Words) -> str:
    kind = chip["kind"]
    if kind == "more":
        return say("more", count=chip["count"])
    if kind == "tournament":
        return say("tournaments", count=chip["count"])
    if kind == "castle":  # which castle: its coat of arms in words, then its dice ("blue 4-4-4+2")
        arms = say(f"arms_{chip['arms']}") if chip.get("arms") else "?"
        return say("chip_castle", arms=arms, combination=say.say(chip["combination"]["text"]))
    if chip.get("ability") == "die":
        return say("chip_die", value=chip["value"])
    return say(f"chip_{chip.get('ability')}")


def _chip_width(chip, text: str) -> int:
    guard = 24 if chip.get("guarded_by") else 0
    return max(90, int(_width(text, MIN_TEXT)) + 18 + (4 if chip["kind"] == "castle" else 0) + guard)


def _chip_lines(player, say: Words, width: int, lines: int) -> list[list[tuple[dict, str, int]]]:
    """The player's chips flowed onto at most `lines` lines of `width`: (chip, words, width) each.
    What does not fit ends in a "+N more" chip; a chip wider than a line is shortened."""
    cards = player["cards"]
    chips = [c for c in cards if c["kind"] == "castle"] + [c for c in cards if c["kind"] == "special"]
    if player["tournaments"]:
        chips.append({"kind": "tournament", "count": player["tournaments"]})
    items = [(chip, _chip_text(chip, say)) for chip in chips]
    flowed = _flow(items, width)
    if len(flowed) <= lines:
        return flowed
    # Too many: keep what fits with room for the "+N more" chip at the end of the last line.
    for keep in range(len(items) - 1, -1, -1):
        more = {"kind": "more", "count": len(items) - keep}
        flowed = _flow(items[:keep] + [(more, _chip_text(more, say))], width)
        if len(flowed) <= lines:
            return flowed
    return flowed[:lines]


def _flow(items, width: int) -> list[list[tuple[dict, str, int]]]:
    rows: list[list[tuple[dict, str, int]]] = []
    used = width + 1
    for chip, text in items:
        chip_w = min(width, _chip_width(chip, text))
        if rows and used + CHIP_GAP + chip_w <= width:
            rows[-1].append((chip, text, chip_w))
            used += CHIP_GAP + chip_w
        else:
            rows.append([(chip, text, chip_w)])
            used = chip_w
    return rows


def chip_lines_needed(player, say: Words, width: int) -> int:
    """How many chip lines a player's cards take at their natural widths."""
    return max(1, len(_chip_lines(player, say, width, 99)))


def _chip(draw, x, y, w, h, card, say: Words, text: str | None = None):
    kind = card["kind"]
    text = _chip_text(card, say) if text is None else text
    if kind == "more":
        draw.rounded_rectangle((x, y, x + w, y + h), radius=8, outline=LINE, width=2)
        _text(draw, (x + w / 2, y + h / 2), text, MIN_TEXT, anchor="mm", width=w - 8)
        return
    if kind == "tournament":
        draw.rounded_rectangle((x, y, x + w, y + h), radius=8, fill=TOURNAMENT_FILL, outline=INK, width=2)
        _text(draw, (x + w / 2, y + h / 2), text, MIN_TEXT, anchor="mm", width=w - 8)
        return
    fill, ink = _card_colours(card)
    draw.rounded_rectangle((x, y, x + w, y + h), radius=8, fill=fill, outline=INK, width=2)
    guarded = bool(card.get("guarded_by"))
    _text(draw, (x + 8, y + h / 2), text, MIN_TEXT, fill=ink, anchor="lm", width=w - (34 if guarded else 14),
          bold=kind == "castle")
    if guarded:
        _shield(draw, x + w - 24, y + 6, 16)


# ----------------------------------------------------------------------------------------
# Whole image


def _wrapped(draw, x, y, width, text, size, max_lines) -> int:
    """Draw `text` wrapped to `width`, at most `max_lines`; returns the y under the last line."""
    from renderers.common import wrap

    lines = wrap(text, size, width)
    if len(lines) > max_lines:
        lines = lines[:max_lines - 1] + [_fit(" ".join(lines[max_lines - 1:]), size, width)[0]]
    for i, line in enumerate(lines):
        _text(draw, (x, y + i * (size + 10)), line, size, width=width)
    return y + len(lines) * (size + 10)


ROLL_MIN = 306
"""The roll panel's least height while dice are rolled (two rows of its smallest dice); other
phases get along with less (OTHER_MIN)."""
OTHER_MIN = 240


def _row_heights(view: dict, say: Words, room: int) -> list[tuple[int, int]]:
    """Each player's row (height, chip lines): one chip line (two with up to three players),
    and another line for each player whose castles and cards need it, as long as the roll
    panel keeps its room."""
    players = view["players"]
    base_lines = 2 if len(players) <= 3 else 1
    base = {1: 170, 2: 170, 3: 158}.get(len(players), 100 if len(players) >= 5 else 108)
    heights = [base] * len(players)
    spare = room - 6 * len(players) - sum(heights) - (ROLL_MIN if view.get("roll") else OTHER_MIN)
    step = CHIP_H + CHIP_GAP
    width = WIDTH - 2 * MARGIN - 20
    needs = [max(0, chip_lines_needed(player, say, width) - base_lines) for player in players]
    while spare >= step and any(needs):
        for i, need in enumerate(needs):  # a line each in turn, seat order
            if need > 0 and spare >= step:
                heights[i] += step
                needs[i] -= 1
                spare -= step
        needs = [need if spare >= step else 0 for need in needs]
    return [(height, base_lines + (height - base) // step) for height in heights]


def render(view: dict, names: list[str], lang: str = "en") -> Image.Image:
    image = Image.new("RGB", (WIDTH, HEIGHT), BACKGROUND)
    draw = ImageDraw.Draw(image)
    say = Words(lang, seat_names(names, view["seats"]))

    # Header: the status line, large, on two lines at most.
    draw.rectangle((0, 0, WIDTH, HEADER), fill=INK)
    status = say.say(view["status"])
    from renderers.common import wrap

    size = 36
    lines = wrap(status, size, WIDTH - 2 * MARGIN - 10)
    if len(lines) > 2:
        size = 30
        lines = wrap(status, size, WIDTH - 2 * MARGIN - 10)
    if len(lines) > 2:
        lines = [lines[0], _fit(" ".join(lines[1:]), size, WIDTH - 2 * MARGIN - 10)[0]]
    first = (HEADER - len(lines) * (size + 8)) / 2
    for i, line in enumerate(lines):
        _text(draw, (MARGIN + 4, first + i * (size + 8)), line, size, fill=(255, 255, 255))

    # Stacks side by side, then the king; a little tighter at a crowded table.
    players = view["players"]
    crowded = len(players) >= 5
    tile_w = (WIDTH - 3 * MARGIN) // 2
    tile_h = 200 if crowded else (250 if len(players) == 4 else 290)
    y = HEADER + 12
    for i, stack in enumerate(view["stacks"][:2]):
        _stack_tile(draw, MARGIN + i * (tile_w + MARGIN), y, tile_w, tile_h, stack, say,
                    dice=44 if crowded else (56 if len(players) == 4 else 66))
    y += tile_h + 12
    _king_row(draw, MARGIN, y, WIDTH - 2 * MARGIN, view["king"], say)
    y += 60

    # Players at the bottom: two chip rows with up to three players, one with more; the rest is
    # for the roll.
    gap = 6
    rows = _row_heights(view, say, HEIGHT - y - 10)
    players_h = sum(row_h for row_h, _ in rows) + gap * len(players)
    _roll_panel(draw, MARGIN, y, WIDTH - 2 * MARGIN, HEIGHT - y - players_h - 10, view, say)
    py = HEIGHT - players_h - 2
    for player, (row_h, lines) in zip(players, rows):
        _player_row(draw, MARGIN, py, WIDTH - 2 * MARGIN, row_h, player, view, say, lines)
        py += row_h + gap
    return to_palette(image, _palette())


@lru_cache(maxsize=1)
def _palette() -> Image.Image:
    return fixed_palette(BACKGROUND, INK, MUTED, HIGHLIGHT, PAPER, LINE, RED_DIE, YELLOW_DIE, LOCKED_DIE, DIE_CARD,
                         GOOD, BAD, SPECIAL_FILL, TOURNAMENT_FILL, *ARMS_COLOURS.values(), *SEAT_COLOURS,
                         *_OTHER_PAINTS)


_OTHER_PAINTS = [
    (0, 128, 80), (110, 10, 10), (125, 55, 165), (140, 110, 0), (150, 146, 140), (190, 40, 30), (196,
    30, 36), (200, 190, 172), (200, 40, 40), (226, 232, 244), (235, 235, 235), (236, 230, 216), (240,
    200, 30), (246, 200, 30), (250, 222, 130), (255, 222, 140), (255, 246, 214), (255, 252, 245), (255,
    255, 255), (30, 140, 60), (30, 30, 30), (35, 85, 200), (40, 100, 190), (90, 90, 90)
]
"""Colours painted once in this module, kept exact in the palette too."""
