"""Mac Robber board renderer: draws only what a view (public or a seat's) holds.

Phone first: an upright 1080 x 1350 image. From the top: the status line and the round, bag,
estates left and red zone; the display of cubes (each with its colour's letter; once the actions
are over, the cubes drawn this turn and what was done with them); the score track with a numbered
disc per clan; one panel per clan over the rest of the height (seat number disc, name,
courtyard warriors / pipers / monks as lettered cubes with their counts, cards held and the start
player, score large, six estate places drawn as meadows with cattle, castle or monastery, and
Biggest Following and last round's points); then the raid of this turn round by round (or,
labelled, the last raid of the previous player); at the bottom a band with the legend of the
courtyard letters and the estate pictures, or on a seat's own image its cards.
"""
from __future__ import annotations

from functools import lru_cache

from PIL import Image, ImageDraw

from i18n import t, translate
from renderers.common import (BACKGROUND, HIGHLIGHT, INK, MIN_TEXT, MUTED, SEAT_COLOURS, WHITE, fit, fixed_palette,
                              font, seat_badge, seat_names, to_palette, wrap)

WIDTH, HEIGHT = 1080, 1350
MARGIN = 18
SMALL = MIN_TEXT      # the smallest text: 1/36 of the width
PANEL = (236, 229, 214)
ACTIVE = (255, 244, 205)
SLOT = (214, 206, 190)
RED_ZONE = (226, 120, 110)
MEADOW = (178, 212, 134)
MEADOW_DARK = (120, 160, 82)
STONE = (150, 140, 128)
CUBE = {"y": (236, 196, 40), "b": (52, 104, 204), "g": (58, 150, 72), "r": (196, 48, 40)}
COLOURS = ("y", "b", "g", "r")
ACTIONS = ("warrior", "piper", "monks", "cattle", "castle", "monastery", "bard", "estate")
P = "macrobber."
TRACK_MAX = 50


def render(view: dict, names: list[str], lang: str = "en") -> Image.Image:
    image = Image.new("RGB", (WIDTH, HEIGHT), BACKGROUND)
    draw = ImageDraw.Draw(image)
    seats = view["seats"]
    who = seat_names(names, seats)
    y = _header(draw, view, who, lang)
    y = _display(draw, view, lang, y)
    y = _track(draw, view, y)
    raid_lines = _raid_lines(view, who, lang)
    bottom = (48 * len(raid_lines) + 8 if raid_lines else 0) + 82
    _players(draw, view, who, lang, y, HEIGHT - bottom - MARGIN)
    y = HEIGHT - bottom - MARGIN + 8
    for line in raid_lines:
        _raid_line(draw, line, y)
        y += 48
    # The board above the band is the same on every image, so a move's public board and DM
    # images share its drawing.
    _band(draw, view, lang)
    image = to_palette(image, _palette())
    image.info["private_top"] = PRIVATE_TOP  # below it only the band (private_rows)
    return image


PRIVATE_TOP = HEIGHT - MARGIN - 82  # the band at the bottom: a seat's own cards, or the legend


def private_layout(view: dict, lang: str) -> bool:
    """What the board above the bottom band depends on of a view: nothing (the band holds a
    seat's cards or the public legend), so renderers.render_pngs draws it once for all views."""
    return True


def private_rows(view: dict, names: list[str], lang: str, top: int) -> Image.Image:
    """The rows from `top` down of this seat's image (its cards, or the legend), as `render`
    draws them."""
    image = Image.new("RGB", (WIDTH, HEIGHT - top), BACKGROUND)  # those rows alone
    _band(ImageDraw.Draw(image), view, lang, top)
    return to_palette(image, _palette())


def _band(draw, view: dict, lang: str, top: int = 0) -> None:
    """The band at the bottom: a seat's own cards, or on the public board the legend (on an
    image whose first row is the board's row `top`)."""
    if private_shown(view):
        _hand(draw, view["private"], lang, HEIGHT - MARGIN - 74 - top)
    else:
        _legend(draw, lang, PRIVATE_TOP + (HEIGHT - PRIVATE_TOP - _legend_height(lang)) // 2 - top)


def private_shown(view: dict) -> bool:
    """Whether a seat's image draws anything the public board does not (its cards): without
    it the seat's image is the public board, and a DM needs no image."""
    private = view.get("private") or {}
    return bool(private.get("hand")) or private.get("face_down") is not None


@lru_cache(maxsize=1)
def _palette() -> Image.Image:
    """A fixed palette: the board's own colours first, then a colour cube and greys (a fixed
    palette quantizes several times faster than a median cut)."""
    exact = [BACKGROUND, INK, MUTED, HIGHLIGHT, WHITE, PANEL, ACTIVE, SLOT, RED_ZONE, MEADOW, MEADOW_DARK, STONE,
             (150, 40, 30), (250, 250, 246), *CUBE.values(), *SEAT_COLOURS]
    return fixed_palette(*exact)


@lru_cache(maxsize=2048)
def _fit(text: str, size: int, width: float, smallest: int = SMALL) -> tuple[str, int]:
    """`renderers.common.fit`, remembered (a board fits the same words every turn)."""
    return fit(text, size, int(width), smallest)


@lru_cache(maxsize=512)
def _wrap(text: str, size: int, width: float) -> list[str]:
    return list(wrap(text, size, int(width)))


# ----------------------------------------------------------------------------------------
# Pieces


def _cube(draw, x, y, size, colour, label: str = "", faded: bool = False) -> None:
    """An action cube: a block in its colour with a lighter top face, and its letter."""
    fill = CUBE[colour] if not faded else tuple((c + 245) // 2 for c in CUBE[colour])
    draw.rounded_rectangle((x, y, x + size, y + size), radius=max(3, size // 7), fill=fill, outline=INK, width=2)
    top = tuple(min(255, c + 40) for c in fill)
    draw.rounded_rectangle((x + 4, y + 4, x + size - 4, y + size * 0.34), radius=3, fill=top)
    if label:
        ink = INK if colour == "y" or faded else WHITE
        draw.text((x + size / 2, y + size * 0.58), label, font=font(max(SMALL, int(size * 0.5))), fill=ink,
                  anchor="mm")


def _estate(draw, box, kind: str | None, lang: str) -> None:
    """An estate place: a dashed empty plot (not yet acquired), or a meadow with a hedge, empty
    (free, with the word) or holding its cattle, castle or monastery."""
    x0, y0, x1, y1 = box
    if kind is None:
        for x in range(int(x0), int(x1), 14):
            draw.line((x, y0, min(x + 7, x1), y0), fill=STONE, width=2)
            draw.line((x, y1, min(x + 7, x1), y1), fill=STONE, width=2)
        for y in range(int(y0), int(y1), 14):
            draw.line((x0, y, x0, min(y + 7, y1)), fill=STONE, width=2)
            draw.line((x1, y, x1, min(y + 7, y1)), fill=STONE, width=2)
        return
    draw.rounded_rectangle(box, radius=10, fill=MEADOW, outline=MEADOW_DARK, width=3)
    for k in range(4):  # tufts of grass
        gx = x0 + (k + 0.5) * (x1 - x0) / 4
        draw.line((gx - 4, y1 - 8, gx, y1 - 16), fill=MEADOW_DARK, width=2)
        draw.line((gx + 4, y1 - 8, gx, y1 - 16), fill=MEADOW_DARK, width=2)
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2 - 4
    s = min(x1 - x0, y1 - y0) / 100  # the picture's scale
    if kind == "":
        draw.text((cx, cy), t(lang, P + "board.free"), font=font(SMALL), fill=INK, anchor="mm")
    elif kind == "cattle":
        _cow(draw, cx, cy, s)
    elif kind == "castle":
        _castle(draw, cx, cy, s)
    elif kind == "monastery":
        _monastery(draw, cx, cy, s)


def _cow(draw, cx, cy, s) -> None:
    red = CUBE["r"]
    body = (cx - 30 * s, cy - 14 * s, cx + 22 * s, cy + 14 * s)
    draw.rounded_rectangle(body, radius=10 * s, fill=red, outline=INK, width=2)
    for lx in (-24, -12, 6, 16):  # legs
        draw.rectangle((cx + lx * s, cy + 12 * s, cx + (lx + 6) * s, cy + 30 * s), fill=red, outline=INK)
    draw.rounded_rectangle((cx + 16 * s, cy - 22 * s, cx + 40 * s, cy + 2 * s), radius=6 * s, fill=red, outline=INK,
                           width=2)
    draw.line((cx + 18 * s, cy - 22 * s, cx + 12 * s, cy - 34 * s), fill=(250, 250, 246), width=max(2, int(5 * s)))
    draw.line((cx + 38 * s, cy - 22 * s, cx + 44 * s, cy - 34 * s), fill=(250, 250, 246), width=max(2, int(5 * s)))
    draw.line((cx - 30 * s, cy - 8 * s, cx - 40 * s, cy + 8 * s), fill=INK, width=max(2, int(3 * s)))  # tail


def _castle(draw, cx, cy, s) -> None:
    blue = CUBE["b"]
    draw.rectangle((cx - 30 * s, cy - 12 * s, cx + 30 * s, cy + 30 * s), fill=blue, outline=INK, width=2)
    for tx in (-38, 18):  # two towers with battlements
        draw.rectangle((cx + tx * s, cy - 30 * s, cx + (tx + 20) * s, cy + 30 * s), fill=blue, outline=INK, width=2)
        for bx in (0, 8, 16):
            draw.rectangle((cx + (tx + bx) * s, cy - 38 * s, cx + (tx + bx + 4) * s, cy - 30 * s), fill=blue,
                           outline=INK)
    draw.chord((cx - 10 * s, cy + 6 * s, cx + 10 * s, cy + 44 * s), 180, 360, fill=INK)  # gate
    draw.rectangle((cx - 10 * s, cy + 25 * s, cx + 10 * s, cy + 30 * s), fill=INK)


def _monastery(draw, cx, cy, s) -> None:
    green = CUBE["g"]
    draw.rectangle((cx - 34 * s, cy - 2 * s, cx + 14 * s, cy + 30 * s), fill=green, outline=INK, width=2)
    draw.polygon([(cx - 40 * s, cy - 2 * s), (cx - 10 * s, cy - 22 * s), (cx + 20 * s, cy - 2 * s)], fill=green,
                 outline=INK)
    draw.rectangle((cx + 14 * s, cy - 24 * s, cx + 34 * s, cy + 30 * s), fill=green, outline=INK, width=2)  # bell tower
    draw.line((cx + 24 * s, cy - 44 * s, cx + 24 * s, cy - 26 * s), fill=INK, width=max(2, int(4 * s)))  # cross
    draw.line((cx + 17 * s, cy - 38 * s, cx + 31 * s, cy - 38 * s), fill=INK, width=max(2, int(4 * s)))
    draw.chord((cx - 18 * s, cy + 8 * s, cx - 4 * s, cy + 40 * s), 180, 360, fill=INK)  # door


def _letter(lang: str, colour: str) -> str:
    return t(lang, P + "board.letter." + colour)


# ----------------------------------------------------------------------------------------
# Parts


def _header(draw, view, who, lang) -> int:
    status = translate(view["status"], lang, who)
    y = MARGIN
    text, size = _fit(status, 38, WIDTH - 2 * MARGIN, 34)
    lines = [text] if not text.endswith("…") else _wrap(status, 34, WIDTH - 2 * MARGIN)[:2]
    size = 38 if len(lines) == 1 and size == 38 else 34
    for line in lines:
        draw.text((MARGIN, y), line, font=font(size), fill=INK)
        y += size + 8
    facts = [t(lang, P + "board.round", round=view["round"]),
             t(lang, P + "board.bag", count=view["bag"]),
             t(lang, P + "board.estates_left", count=view["estates_left"]),
             t(lang, P + "board.red_zone", points=view["red_zone"])]
    if view["revealed"]:
        facts.append(t(lang, P + "board.revealed", numbers=", ".join(map(str, view["revealed"]))))
    text, size = _fit(" · ".join(facts), 32, WIDTH - 2 * MARGIN)
    draw.text((MARGIN, y + 2), text, font=font(size), fill=MUTED)
    return y + 48


def _display(draw, view, lang, y) -> int:
    """The display while it lasts; once the actions are over, the cubes drawn (faded) and what
    was done with them, so the row tells the turn's story until the next player draws."""
    height = 64
    draw.rounded_rectangle((MARGIN, y, WIDTH - MARGIN, y + height), radius=12, fill=PANEL, outline=STONE, width=2)
    x = MARGIN + 14
    shown = sum(view["display"])
    drawn = view.get("drawn")
    if shown:
        label = t(lang, P + "board.display")
        draw.text((x, y + height / 2), label, font=font(32), fill=INK, anchor="lm")
        x += font(32).getlength(label) + 16
        marked = list(view["marked"])
        for c, colour in enumerate(COLOURS):
            for index in range(view["display"][c]):
                _cube(draw, x, y + 6, 52, colour, _letter(lang, colour))
                if index < marked[c]:  # chosen to be drawn again
                    draw.line((x + 2, y + 8, x + 50, y + 56), fill=INK, width=5)
                x += 58
        if view["used"]:
            x += 8
            draw.text((x, y + height / 2), t(lang, P + "board.used", count=view["used"]), font=font(SMALL),
                      fill=MUTED, anchor="lm")
        return y + height + 10
    if drawn is None and not view["done"]:
        draw.text((x, y + height / 2), t(lang, P + "board.display") + ": –", font=font(32), fill=MUTED, anchor="lm")
        return y + height + 10
    if drawn is not None:
        label = t(lang, P + "board.drawn")
        draw.text((x, y + height / 2), label, font=font(SMALL), fill=INK, anchor="lm")
        x += font(SMALL).getlength(label) + 12
        for c, colour in enumerate(COLOURS):
            for _ in range(drawn["cubes"][c]):
                _cube(draw, x, y + 10, 44, colour, _letter(lang, colour), faded=True)
                x += 48
        if drawn["redrew"]:
            x += 6
            draw.text((x, y + height / 2), "+", font=font(32), fill=INK, anchor="lm")
            x += 24
            for c, colour in enumerate(COLOURS):
                for _ in range(drawn["redrew"][c]):
                    _cube(draw, x, y + 10, 44, colour, _letter(lang, colour), faded=True)
                    x += 48
    done = [t(lang, P + "board.did." + verb) for verb in view["done"] if verb in ACTIONS]
    if drawn is not None:
        words = t(lang, P + "board.done", actions=", ".join(done)) if done else t(lang, P + "board.no_action")
    else:
        words = t(lang, P + "board.this_turn", actions=", ".join(done))
    x += 12
    text, size = _fit(words, 32, WIDTH - MARGIN - 14 - x)
    draw.text((x, y + height / 2), text, font=font(size), fill=INK, anchor="lm")
    return y + height + 10


def _track(draw, view, y) -> int:
    left, right = MARGIN + 22, WIDTH - MARGIN - 22
    top = y + 36
    span = right - left
    zone = view["red_zone"]
    draw.rectangle((left, top, right, top + 20), fill=SLOT, outline=INK)
    zx = left + span * zone / TRACK_MAX
    draw.rectangle((zx, top, right, top + 20), fill=RED_ZONE, outline=INK)
    for mark in range(0, TRACK_MAX + 1, 10):
        mx = left + span * mark / TRACK_MAX
        draw.line((mx, top, mx, top + 20), fill=INK, width=2)
        draw.text((mx, top - 4), str(mark), font=font(SMALL), fill=MUTED, anchor="mb")
    # One row of discs under the track: each as near its score as the others allow, joined to it
    # by a line, so that equal scores stand side by side instead of on top of each other.
    spots = sorted((left + span * max(0, min(TRACK_MAX, p["score"])) / TRACK_MAX, seat)
                   for seat, p in enumerate(view["players"]))
    gap = 46
    xs = [x for x, _ in spots]
    for k in range(1, len(xs)):
        xs[k] = max(xs[k], xs[k - 1] + gap)
    shift = max(0.0, xs[-1] - (right - 4)) if xs else 0.0
    xs = [x - shift for x in xs]
    for k in range(len(xs) - 2, -1, -1):
        xs[k] = min(xs[k], xs[k + 1] - gap)
    xs = [max(x, MARGIN + 22) for x in xs]
    for (score_x, seat), x in zip(spots, xs):
        draw.line((score_x, top + 20, x, top + 38), fill=INK, width=2)
        seat_badge(draw, (x, top + 58), 21, seat)
    return top + 92


def _legend_items(lang: str) -> list[tuple[str, str]]:
    return [("y", t(lang, P + "board.warriors")), ("b", t(lang, P + "board.pipers")),
            ("g", t(lang, P + "board.monks")), ("cattle", t(lang, P + "board.cattle")),
            ("castle", t(lang, P + "board.castle")), ("monastery", t(lang, P + "board.monastery"))]


@lru_cache(maxsize=4)
def _legend_places(lang: str) -> tuple[tuple[str, str, float, int], ...]:
    """Where each legend entry goes: (key, word, x, line), on one or two lines (measured once
    per language: the band's height and its drawing both need it)."""
    x, line, places = MARGIN, 0, []
    face = font(SMALL)
    for key, word in _legend_items(lang):
        width = 40 + 8 + face.getlength(word) + 22
        if x + width > WIDTH - MARGIN:
            x, line = MARGIN, line + 1
        places.append((key, word, x, line))
        x += width
    return tuple(places)


def _legend_height(lang: str) -> int:
    return 40 + 46 * _legend_places(lang)[-1][3]


def _legend(draw, lang, top) -> None:
    """What the courtyard letters and the estate pictures mean, on one or two lines."""
    face = font(SMALL)
    for key, word, x, line in _legend_places(lang):
        y = top + 46 * line
        if key in CUBE:
            _cube(draw, x, y + 2, 38, key, t(lang, P + "board.yard." + key))
        else:
            draw.rounded_rectangle((x, y, x + 40, y + 40), radius=6, fill=MEADOW, outline=MEADOW_DARK, width=2)
            {"cattle": _cow, "castle": _castle, "monastery": _monastery}[key](draw, x + 20, y + 22, 0.42)
        draw.text((x + 48, y + 20), word, font=face, fill=INK, anchor="lm")


NOTES_LEFTMOST = 550  # the notes' column starts here at the furthest left: six estates of 76 px keep their word
HEADLINE_X = 700  # a clan's cards (and the start) on its top line, after the courtyard


def _players(draw, view, who, lang, top, bottom) -> int:
    seats = view["seats"]
    height = min(260, (bottom - top) // seats)
    active = set(view["to_act"]) if not view["over"] else set(view["winners"] or [])
    # Each clan's cards (and the start) go on its top line; its other notes (Biggest Following,
    # last scoring) under it, on the lines its row has. Their column is as wide as the widest
    # line needs, so no note is cut, and the estates share what is left (the same columns in
    # every row).
    lines = max(1, int((height - 8 - 74) // 36))
    notes = [_note_rows(_clan_notes(view, seat, lang), lines) for seat in range(seats)]
    widest = max([font(SMALL).getlength(row) for rows in notes for row in rows] or [0])
    notes_x = max(NOTES_LEFTMOST, min(780, int(WIDTH - MARGIN - 12 - widest)))
    for seat, player in enumerate(view["players"]):
        y = top + seat * height
        h = height - 8
        fill = ACTIVE if seat in active else PANEL
        current = seat == view["active"] and not view["over"]
        draw.rounded_rectangle((MARGIN, y, WIDTH - MARGIN, y + h), radius=14, fill=fill,
                               outline=HIGHLIGHT if current else STONE, width=4 if current else 2)
        seat_badge(draw, (MARGIN + 36, y + 32), 24, seat)
        name, size = _fit(who[seat], 34, 250)
        draw.text((MARGIN + 70, y + 32), name, font=font(size), fill=INK, anchor="lm")
        score = str(player["score"])
        draw.text((WIDTH - MARGIN - 16, y + 32), score, font=font(56), fill=INK, anchor="rm")
        headline = t(lang, P + "board.cards", count=player["cards"])
        if seat == view["start"]:
            headline += " · " + t(lang, P + "board.start")
        room = WIDTH - MARGIN - 32 - font(56).getlength(score) - HEADLINE_X
        text, size = _fit(headline, SMALL, room)
        draw.text((HEADLINE_X, y + 32), text, font=font(size), fill=INK, anchor="lm")
        # courtyard: warriors, pipers, monks as lettered cubes with their counts
        x = MARGIN + 336
        yard = player["courtyard"]
        for c, colour in enumerate(("y", "b", "g")):
            _cube(draw, x, y + 10, 44, colour, t(lang, P + "board.yard." + colour))
            draw.text((x + 52, y + 32), str(yard[c]), font=font(40), fill=INK, anchor="lm")
            x += 112
        # the rest: estates on the left, the clan's notes on the right
        row_top, row_bottom = y + 64, y + h - 10
        for k, row in enumerate(notes[seat]):
            text, size = _fit(row, SMALL, WIDTH - MARGIN - 12 - notes_x)
            draw.text((notes_x, row_top + 2 + k * 36), text, font=font(size), fill=MUTED if k else INK)
        estates = player["estates"]
        width = (notes_x - 14 - (MARGIN + 12)) / 6
        for index in range(6):
            ex = MARGIN + 12 + index * width
            box = (ex, row_top, ex + width - 8, row_bottom)
            _estate(draw, box, estates[index] if index < len(estates) else None, lang)
    return top + seats * height


def _clan_notes(view, seat: int, lang: str) -> list[str]:
    notes = []
    if seat == view["follower"]:
        notes.append(t(lang, P + "board.follower"))
    scoring = view["last_scoring"]
    if scoring:
        notes.append(t(lang, P + "board.scored", points=scoring["rows"][seat]["total"], round=scoring["round"]))
    return notes


def _note_rows(notes: list[str], lines: int) -> list[str]:
    """The notes one under the other, joined on a line when there are more notes than lines."""
    rows = list(notes)
    while len(rows) > lines and len(rows) > 1:
        shortest = min(range(len(rows) - 1), key=lambda i: len(rows[i]) + len(rows[i + 1]))
        rows[shortest:shortest + 2] = [rows[shortest] + " · " + rows[shortest + 1]]
    return rows


def _raid_lines(view, who, lang) -> list[tuple]:
    """The raid to show: the running raid of this turn round by round, or the raid the previous
    player ended their turn with, labelled as such; an older raid is not shown."""
    raid = view["raid"]
    if raid is None:
        return []
    attacker, defender = raid["attacker"], raid["defender"]
    previous = (view["active"] - 1) % view["seats"]
    if not raid["open"] and not (attacker == previous or view["over"]):
        return []
    rounds = []
    for number, (a, ap, d, dp) in enumerate(raid["rounds"], 1):
        sign = "<" if a + ap < d + dp else (">" if a + ap > d + dp else "=")
        rounds.append(t(lang, P + "board.raid_round", round=number, a=f"{a}{'+1' if ap else ''}", sign=sign,
                        d=f"{d}{'+1' if dp else ''}"))
    if raid["played"]:
        rounds.append(t(lang, P + "board.raid_face_down", round=len(raid["rounds"]) + 1))
    if raid["open"]:
        head = t(lang, P + "board.raid", attacker=who[attacker], defender=who[defender])
    else:
        result = raid.get("result") or "tie"
        loot = raid.get("loot")
        if result == "won" and loot in ("cattle", "castle", "monastery"):
            outcome = t(lang, P + "board.raid_took." + loot, attacker=who[attacker])
        else:
            outcome = t(lang, P + "board.raid_result." + result, attacker=who[attacker], defender=who[defender])
        head = t(lang, P + "board.last_raid", attacker=who[attacker], defender=who[defender])
        return [(head, attacker, defender, True), (" · ".join(rounds), attacker, defender, False),
                (outcome, attacker, defender, False)]
    return [(head, attacker, defender, True), (" · ".join(rounds), attacker, defender, False)]


def _raid_line(draw, line, y) -> None:
    text, attacker, defender, head = line
    x = MARGIN
    if head:
        seat_badge(draw, (x + 20, y + 20), 20, attacker)
        seat_badge(draw, (x + 64, y + 20), 20, defender)
        x += 96
    lines = _wrap(text, 32, WIDTH - MARGIN - x)
    shown, size = _fit(text, 32, WIDTH - MARGIN - x) if len(lines) > 1 else (text, 32)
    draw.text((x, y + 20), shown, font=font(size), fill=INK if head else MUTED, anchor="lm")


def _hand(draw, private, lang, y) -> None:
    """The viewer's cards, drawn as cards with their values (a seat's own image only)."""
    label = t(lang, P + "board.your_cards")
    draw.text((MARGIN, y + 37), label, font=font(34), fill=INK, anchor="lm")
    x = MARGIN + font(34).getlength(label) + 16
    hand = private.get("hand") or []
    if not hand:
        draw.text((x, y + 37), "–", font=font(34), fill=MUTED, anchor="lm")
        return
    for value in hand:
        if x + 56 > WIDTH - MARGIN:
            break
        draw.rounded_rectangle((x, y, x + 54, y + 74), radius=8, fill=(250, 250, 246), outline=INK, width=3)
        draw.text((x + 27, y + 37), str(value), font=font(40), fill=INK, anchor="mm")
        x += 64
    face_down = private.get("face_down")
    if face_down is not None:
        note = t(lang, P + "board.your_face_down", card=face_down)
        text, size = _fit(note, SMALL, WIDTH - MARGIN - x - 12)
        draw.text((x + 12, y + 37), text, font=font(size), fill=MUTED, anchor="lm")
