"""Die Glücksritter board renderer: draws only what a view (public or a seat's) holds.

Phone first: an upright 1080 x 1350 image. From the top: the title and round, the sack and the
document pile in words, the status (wrapped, never cut); the six fields, each numbered like the
card buttons, with its prices in words (alone / shared), a small drawing of what it gives, the
coins on 5 and 6 with what this round's Ducat card added, the dungeon on 4 and, after the reveal,
a numbered disc per visitor; column headings, then one row per player (seat number in a coloured
disc, name, Ducats, silver and gold coins, the castle's walls and towers, documents held as a
sealed parchment with the count, their two cards or whether they have chosen); then the haggle or
the raid, on a seat's own image its secret cards and its documents as sealed parchments with their
names (nothing is added when it has neither, so the bot can leave the DM without an image), and
the newest events whole at 30 px in the room that is left.
"""
from __future__ import annotations

from functools import lru_cache

from PIL import Image, ImageDraw

from i18n import t, translate
from games.gluecksritter.data import DOCUMENT_PRICE, DOCUMENTS, TOWER_PRICE, WALL_PRICE, YELLOW
from renderers.common import (BACKGROUND, HIGHLIGHT, INK, MIN_TEXT, MUTED, SEAT_COLOURS, fit, fixed_palette, font,
                              note_text, recording_texts, to_palette, wrap)
from renderers.common import text_width as _measure

WIDTH, HEIGHT = 1080, 1350
MARGIN = 16
SMALL = MIN_TEXT      # the smallest text: 1/36 of the width
WHITE = (255, 255, 255)
PANEL = (236, 229, 214)
ACTIVE = (255, 247, 222)
FIELD_FILL = (226, 214, 190)
SILVER_FILL = (200, 204, 210)
GOLD_FILL = (232, 186, 60)
STONE = (150, 140, 128)
EMPTY_SLOT = (250, 246, 238)
DUNGEON = (90, 84, 80)
CARD_FILL = (252, 250, 244)
SEAL = (190, 40, 40)
SEAL_YELLOW = (226, 184, 30)
PARCHMENT = (244, 232, 200)
P = "gluecksritter."


def render(view: dict, names: list[str], lang: str = "en") -> Image.Image:
    image = _base_for(lang).copy()
    draw = ImageDraw.Draw(image)
    seats = view["seats"]
    seat_names = [names[s] if s < len(names) else f"P{s + 1}" for s in range(seats)]
    _header(draw, view, seat_names, lang)
    y = _fields(draw, view, lang, FIELDS_TOP)
    y = _headings(draw, view, lang, y + 6)
    y = _players(draw, view, seat_names, lang, y)
    _bottom(draw, view, seat_names, lang, y + 4)
    image = to_palette(image, _palette())
    # Below it the seat's documents and the events (private_rows); on the public board only the
    # events, under the same board, so a move's public board and DM images share its drawing.
    image.info["private_top"] = y + 4
    return image


def private_layout(view: dict, lang: str) -> int:
    """What the board above a seat's documents depends on of that seat's view: the room they
    take (renderers.render_pngs draws the board once for seats alike in this)."""
    return _bottom_room(view, lang)


def private_rows(view: dict, names: list[str], lang: str, top: int) -> Image.Image:
    """The rows from `top` down of this seat's image (the raid line, its documents and secret
    choice, the events), as `render` draws them."""
    image = _base_for(lang).crop((0, top, WIDTH, HEIGHT))  # those rows alone
    seat_names = [names[s] if s < len(names) else f"P{s + 1}" for s in range(view["seats"])]
    _bottom(ImageDraw.Draw(image), view, seat_names, lang, 0, HEIGHT - top)
    return to_palette(image, _palette())


_BASES: dict[str, tuple[Image.Image, list]] = {}


def _base_for(lang: str) -> Image.Image:
    """The static layer of `lang`, drawn once; on later boards its texts are reported to the
    layout tests' recorder as if drawn again (`note_text`)."""
    kept = _BASES.get(lang)
    if kept is None:
        with recording_texts() as texts:
            image = _base(lang)
        if len(_BASES) > 8:
            _BASES.clear()
        _BASES[lang] = (image, list(texts))
        return image
    image, texts = kept
    for record in texts:
        note_text(record.box, record.text, record.size)
    return image


def _base(lang: str) -> Image.Image:
    """The parts that never change: the background and the six fields' frames, numbers, names,
    prices and the dungeon's word (drawn once per language)."""
    image = Image.new("RGB", (WIDTH, HEIGHT), BACKGROUND)
    draw = ImageDraw.Draw(image)
    prices = {1: DOCUMENT_PRICE, 2: WALL_PRICE, 3: TOWER_PRICE}
    for number in range(1, 7):
        x, y, box_w, box_h = _field_box(number)
        draw.rounded_rectangle((x, y, x + box_w, y + box_h), radius=14, fill=FIELD_FILL, outline=STONE, width=2)
        draw.ellipse((x + 8, y + 8, x + 56, y + 56), fill=INK)
        draw.text((x + 32, y + 32), str(number), font=font(36), fill=WHITE, anchor="mm")
        _text(draw, (x + 64, y + 32), t(lang, P + f"field.{number}"), 32, box_w - 72, anchor="lm")
        _picture(draw, number, x + box_w - 44, y + box_h - 42)
        if number in prices:
            alone, shared = prices[number]
            _text(draw, (x + 14, y + 62), t(lang, P + "board.price_alone", count=alone), SMALL, box_w - 80)
            _text(draw, (x + 14, y + 96), t(lang, P + "board.price_shared", count=shared), SMALL, box_w - 80)
        elif number == 4:
            draw.text((x + 14, y + 66), t(lang, P + "board.dungeon"), font=font(SMALL), fill=DUNGEON)
    return image


FIELDS_TOP = 184
FIELD_GAP = 8
FIELD_H = 188


def _field_box(number: int) -> tuple[int, int, int, int]:
    cols = 3
    box_w = (WIDTH - 2 * MARGIN - (cols - 1) * FIELD_GAP) // cols
    index = number - 1
    x = MARGIN + (index % cols) * (box_w + FIELD_GAP)
    y = FIELDS_TOP + (index // cols) * (FIELD_H + FIELD_GAP)
    return x, y, box_w, FIELD_H


@lru_cache(maxsize=1)
def _palette() -> Image.Image:
    exact = [BACKGROUND, INK, MUTED, HIGHLIGHT, WHITE, PANEL, ACTIVE, FIELD_FILL, SILVER_FILL, GOLD_FILL, STONE,
             EMPTY_SLOT, DUNGEON, CARD_FILL, SEAL, SEAL_YELLOW, PARCHMENT, *SEAT_COLOURS]
    return fixed_palette(*exact)


# ----------------------------------------------------------------------------------------
# Helpers


_WIDTHS: dict[tuple[str, int], int] = {}


def text_width(draw, text: str, size: int) -> int:
    """`renderers.common.text_width`, remembered (the same words are measured on every board)."""
    key = (text, size)
    width = _WIDTHS.get(key)
    if width is None:
        if len(_WIDTHS) > 20_000:
            _WIDTHS.clear()
        width = _WIDTHS[key] = _measure(draw, text, size)
    return width


@lru_cache(maxsize=8192)
def _length(text: str, size: int) -> float:
    return font(size).getlength(text)


@lru_cache(maxsize=2048)
def _fitted(text: str, size: int, width: int) -> tuple[str, int]:
    return fit(text, size, width, SMALL)


@lru_cache(maxsize=1024)
def _wrapped(text: str, size: int, width: int) -> tuple[str, ...]:
    return tuple(wrap(text, size, width))


def _fit(draw: ImageDraw.ImageDraw, text: str, size: int, width: int) -> tuple[str, int]:
    """Shrink the text down to SMALL to fit `width`, then shorten it at a word boundary
    (remembered: a board fits the same names and words every turn)."""
    return _fitted(text, size, int(width))


def _text(draw, xy, text, size, width, fill=INK, anchor="la") -> None:
    text, size = _fit(draw, text, size, width)
    draw.text(xy, text, font=font(size), fill=fill, anchor=anchor)


def _wrap(draw, text: str, size: int, width: int, lines: int) -> list[str]:
    words, out, line = text.split(), [], ""
    for word in words:
        trial = f"{line} {word}".strip()
        if text_width(draw, trial, size) <= width or not line:
            line = trial
        else:
            out.append(line)
            line = word
    if line:
        out.append(line)
    if len(out) > lines:
        out = out[:lines]
        out[-1] = _fit(draw, out[-1] + " …", size, width)[0]
    return out


def _on(colour) -> tuple[int, int, int]:
    r, g, b = colour[:3]
    return INK if (0.299 * r + 0.587 * g + 0.114 * b) > 150 else WHITE


def _marker(draw, centre, seat: int, radius: int) -> None:
    """A seat's mark: its colour and its number (1..n), so colour is never the only clue."""
    colour = tuple(SEAT_COLOURS[seat % len(SEAT_COLOURS)])
    x, y = centre
    draw.ellipse((x - radius, y - radius, x + radius, y + radius), fill=colour, outline=INK, width=2)
    draw.text((x, y), str(seat + 1), font=font(max(SMALL, int(radius * 1.1))), fill=_on(colour), anchor="mm")


def _coin(draw, centre, count: int, gold: bool, radius: int = 26) -> None:
    x, y = centre
    draw.ellipse((x - radius, y - radius, x + radius, y + radius), fill=GOLD_FILL if gold else SILVER_FILL,
                 outline=INK, width=2)
    draw.text((x, y), str(count), font=font(SMALL + 2), fill=INK, anchor="mm")


# ----------------------------------------------------------------------------------------
# Parts


def _header(draw, view, names, lang) -> int:
    """Title and round; the sack and the document pile in words; the status, wrapped, never cut."""
    title = t(lang, P + "board.title")
    draw.text((MARGIN, 10), title, font=font(46), fill=INK)
    x = MARGIN + text_width(draw, title, 46) + 20
    draw.text((x, 34), t(lang, P + "board.round", round=view["round"]), font=font(34), fill=MUTED, anchor="lm")
    sack = view["sack"]
    facts = t(lang, P + "board.sack", silver=sack[0], gold=sack[1]) + " · " + \
        t(lang, P + "board.pile_words", count=view["pile"])
    _text(draw, (MARGIN, 60), facts, 30, WIDTH - 2 * MARGIN, fill=MUTED)
    status = translate(view["status"], lang, names)
    size = 34
    lines = list(_wrapped(status, size, WIDTH - 2 * MARGIN))
    if len(lines) > 2:
        size = SMALL
        lines = list(_wrapped(status, size, WIDTH - 2 * MARGIN))[:2]
    y = 104 if len(lines) < 2 else 96
    for line in lines:
        draw.text((MARGIN, y), line, font=font(size), fill=INK)
        y += size + 4
    return y


def _picture(draw, number: int, cx: int, cy: int) -> None:
    """A small drawing of what a field gives: a sealed document, a wall, a tower, the dungeon's
    grate, a money chest (taxes) and a toll barrier (customs)."""
    if number == 1:
        draw.rounded_rectangle((cx - 22, cy - 28, cx + 18, cy + 24), radius=4, fill=PARCHMENT, outline=INK, width=2)
        for k in range(3):
            draw.line((cx - 14, cy - 16 + 10 * k, cx + 10, cy - 16 + 10 * k), fill=MUTED, width=2)
        draw.ellipse((cx + 4, cy + 10, cx + 26, cy + 32), fill=SEAL, outline=INK)
    elif number == 2:
        for row in range(3):
            off = 0 if row % 2 == 0 else 12
            for k in range(3):
                left = cx - 30 + off + k * 22
                if left + 20 <= cx + 34:
                    draw.rectangle((left, cy + 6 - row * 16, left + 20, cy + 20 - row * 16), fill=STONE, outline=INK)
    elif number == 3:
        draw.rectangle((cx - 16, cy - 14, cx + 16, cy + 30), fill=STONE, outline=INK, width=2)
        draw.polygon([(cx - 22, cy - 14), (cx, cy - 38), (cx + 22, cy - 14)], fill=SEAL, outline=INK)
        draw.rectangle((cx - 5, cy + 2, cx + 5, cy + 14), fill=INK)
    elif number == 4:
        draw.rectangle((cx - 28, cy - 28, cx + 28, cy + 28), fill=DUNGEON, outline=INK, width=2)
        for k in range(4):
            draw.line((cx - 18 + 12 * k, cy - 28, cx - 18 + 12 * k, cy + 28), fill=STONE, width=4)
    elif number == 5:
        draw.rounded_rectangle((cx - 30, cy - 10, cx + 30, cy + 28), radius=4, fill=(140, 90, 40), outline=INK, width=2)
        draw.chord((cx - 30, cy - 30, cx + 30, cy + 10), 180, 360, fill=(160, 106, 50), outline=INK)
        draw.rectangle((cx - 6, cy - 4, cx + 6, cy + 8), fill=GOLD_FILL, outline=INK)
    elif number == 6:
        draw.rectangle((cx - 30, cy - 2, cx - 22, cy + 30), fill=STONE, outline=INK)
        draw.polygon([(cx - 26, cy - 6), (cx + 32, cy - 18), (cx + 32, cy - 8), (cx - 26, cy + 4)], fill=WHITE,
                     outline=INK)
        for k in range(3):
            draw.line((cx - 12 + 16 * k, cy - 6 - 3 * k, cx - 6 + 16 * k, cy - 8 - 3 * k), fill=SEAL, width=6)


def _fields(draw, view, lang, top: int) -> int:
    """The changing parts of the fields (the frames come from `_base`)."""
    players = view["players"]
    for number in range(1, 7):
        x, y, box_w, box_h = _field_box(number)
        if number == 4:
            jailed = [s for s, p in enumerate(players) if p["dungeon"]]
            lx = x + 24 + text_width(draw, t(lang, P + "board.dungeon"), SMALL) + 8
            for k, seat in enumerate(jailed):
                cx = lx + 18 + k * 42
                if cx + 20 <= x + box_w - 80:
                    _marker(draw, (cx, y + 84), seat, 20)
        elif number in (5, 6):
            silver, gold = view["fields"][str(number)]
            _coin(draw, (x + 42, y + 88), silver, False)
            _coin(draw, (x + 104, y + 88), gold, True)
            if view.get("ducat_card"):
                added = view["ducat_card"][number - 5]
                _text(draw, (x + 140, y + 88), t(lang, P + "board.card_adds", count=added), SMALL, box_w - 154,
                      fill=MUTED, anchor="lm")
        visitors = [s for s, p in enumerate(players) if p["cards"] and number in p["cards"]]
        for k, seat in enumerate(visitors):
            _marker(draw, (x + 30 + k * 42, y + box_h - 24), seat, 20)
    return FIELDS_TOP + 2 * FIELD_H + FIELD_GAP


COLUMNS = {"coins": 482, "castle": 640, "documents": 778, "cards": 880}  # centres; the cards column: its left


def _headings(draw, view, lang, top: int) -> int:
    """What each column of the player rows shows."""
    cards = "board.col_cards_last" if view["phase"] == "choose" and view.get("previous") else "board.col_cards"
    words = {"coins": t(lang, P + "board.col_coins"), "castle": t(lang, P + "board.col_castle"),
             "documents": t(lang, P + "board.col_documents"), "cards": t(lang, P + cards)}
    right_edge = WIDTH - MARGIN
    for key, centre in COLUMNS.items():
        width = text_width(draw, words[key], SMALL)
        x = centre if key == "cards" else centre - width / 2
        x = min(x, right_edge - width)
        draw.text((x, top), words[key], font=font(SMALL), fill=MUTED)
    return top + 40


def _players(draw, view, names, lang, top: int) -> int:
    seats = view["seats"]
    players = view["players"]
    bottom_room = _bottom_room(view, lang)
    row_h = max(100, min(150, (HEIGHT - top - bottom_room) // seats))
    acting = set(view["to_act"])
    winners = set(view.get("winners") or [])
    for seat, p in enumerate(players):
        y = top + seat * row_h
        fill = ACTIVE if seat in acting else PANEL
        outline = HIGHLIGHT if seat in acting or seat in winners else STONE
        draw.rounded_rectangle((MARGIN, y, WIDTH - MARGIN, y + row_h - 6), radius=14, fill=fill, outline=outline,
                               width=4 if seat in acting else 2)
        mid = y + (row_h - 6) // 2
        _marker(draw, (MARGIN + 40, mid), seat, 30)
        name = names[seat] + (f" – {t(lang, P + 'board.winner')}" if seat in winners else "")
        _text(draw, (MARGIN + 82, mid - 2), name, 34, 318, anchor="lb")
        draw.text((MARGIN + 82, mid + 2), t(lang, P + "board.ducats", ducats=p["ducats"]), font=font(32), fill=INK)
        _coin(draw, (COLUMNS["coins"] - 32, mid), p["silver"], False, 27)
        _coin(draw, (COLUMNS["coins"] + 32, mid), p["gold"], True, 27)
        _castle(draw, 546, mid, p["walls"], p["towers"], seat)
        _document(draw, COLUMNS["documents"], mid, p["documents"])
        _choice(draw, view, p, seat, COLUMNS["cards"], mid, lang)
    return top + seats * row_h


def _document(draw, cx: int, mid: int, count: int) -> None:
    """The documents a player holds: a sealed parchment with the count on it."""
    draw.rounded_rectangle((cx - 24, mid - 32, cx + 24, mid + 30), radius=4, fill=PARCHMENT, outline=INK, width=2)
    draw.text((cx, mid - 4), str(count), font=font(34), fill=INK, anchor="mm")
    draw.ellipse((cx + 10, mid + 18, cx + 30, mid + 38), fill=SEAL, outline=INK)


def _castle(draw, x: int, mid: int, walls: int, towers: int, seat: int) -> None:
    """Walls as blocks on the upper line, towers as blocks with a roof below; built ones solid in
    the seat's colour (the row's disc carries the seat number), missing ones as empty outlines."""
    colour = tuple(SEAT_COLOURS[seat % len(SEAT_COLOURS)])
    for k in range(4):
        left = x + k * 50
        box = (left, mid - 40, left + 44, mid - 6)
        built = k < walls
        draw.rectangle(box, fill=colour if built else EMPTY_SLOT, outline=INK, width=2)
        if built:  # a built piece: solid, with a crenellated top (not only colour)
            draw.rectangle((box[0] + 6, box[1] - 6, box[0] + 14, box[1]), fill=colour, outline=INK)
            draw.rectangle((box[2] - 14, box[1] - 6, box[2] - 6, box[1]), fill=colour, outline=INK)
    for k in range(4):
        left = x + k * 50 + 6
        built = k < towers
        body = (left, mid + 10, left + 32, mid + 42)
        draw.polygon([(left - 2, mid + 10), (left + 16, mid - 2), (left + 34, mid + 10)],
                     fill=colour if built else EMPTY_SLOT, outline=INK)
        draw.rectangle(body, fill=colour if built else EMPTY_SLOT, outline=INK, width=2)


def _choice(draw, view, p, seat: int, x: int, mid: int, lang) -> None:
    """The two cards once revealed; while choosing, who has chosen and last round's cards, small."""
    if p["cards"]:
        for k, card in enumerate(p["cards"]):
            left = x + k * 96
            draw.rounded_rectangle((left, mid - 38, left + 84, mid + 38), radius=10, fill=CARD_FILL, outline=INK,
                                   width=3)
            draw.text((left + 42, mid), str(card), font=font(48), fill=INK, anchor="mm")
        return
    previous = view.get("previous")
    if view["phase"] == "choose":
        word = t(lang, P + ("board.chosen" if p["chosen"] else "board.choosing"))
        top = mid - 22 if previous else mid
        _text(draw, (x, top), word, SMALL, WIDTH - MARGIN - 8 - x, fill=INK if p["chosen"] else MUTED, anchor="lm")
    if previous and view["phase"] in ("choose", "over"):
        for k, card in enumerate(previous["cards"][seat]):
            left = x + k * 54
            draw.rounded_rectangle((left, mid + 2, left + 46, mid + 44), radius=6, fill=PANEL, outline=MUTED, width=2)
            draw.text((left + 23, mid + 23), str(card), font=font(SMALL), fill=MUTED, anchor="mm")


def private_shown(view: dict) -> bool:
    """Whether a seat's image draws anything the public board does not (its documents or its
    secret cards): without it the seat's image is the public board, and a DM needs no image."""
    private = view.get("private")
    return private is not None and bool(private["hand"] or _own_choice(view))


def _bottom_room(view, lang: str) -> int:
    """The room under the players: the raid line, a row of documents and the events. Every
    image keeps room for one row of documents (the public board shows more events there), so a
    seat's image and the public board are the same board above it; only a seat whose documents
    take more rows gets a tighter board."""
    rows = 1
    private = view.get("private")
    if private_shown(view):
        cards = _document_cards(private, lang, _documents_x(view, lang))
        rows += max([box[1] // 90 for _, box, _ in cards] or [0])
    return 150 + 90 * rows + 10


def _own_choice(view) -> list:
    private = view.get("private") or {}
    cards = (private.get("choice") or {}).get("cards") or []
    viewer = view.get("viewer")
    if cards and viewer is not None and not view["players"][viewer]["cards"]:
        return list(cards)
    return []


def _bottom(draw, view, names, lang, top: int, height: int = HEIGHT) -> None:
    """From `top` down to `height`: the haggle or raid line, a seat's own documents and secret
    choice, then the events, newest first, as many as fit."""
    width = WIDTH - 2 * MARGIN
    y = top
    haggle, raid = view.get("haggle"), view.get("raid")
    if raid is None and view["phase"] == "choose" and view.get("previous"):
        raid = view["previous"]["raid"]
    if haggle:
        a, b = haggle["knights"]
        line = t(lang, P + "board.haggle_between", first=names[a], second=names[b])
        _text(draw, (MARGIN, y), line, 32, width)
        y += 40
        offers = ", ".join(f"{names[s]} {n}" for s, n in haggle["offers"]) or t(lang, P + "board.no_offer")
        _text(draw, (MARGIN, y), t(lang, P + "board.offers", offers=offers), SMALL, width)
        y += 38
    elif raid:
        die = {"sack": "board.die_sack", "castle": "board.die_castle", None: "board.die_alibi"}[raid["die"]]
        line = f"{t(lang, P + 'board.raid', thief=names[raid['thief']], victim=names[raid['victim']])} · " \
               f"{t(lang, P + die)}"
        _text(draw, (MARGIN, y), line, 32, width)
        y += 42
    private = view.get("private")
    if private_shown(view):
        y = _private(draw, view, private, lang, y) + 6
    entries = [translate(entry, lang, names) for entry in reversed(view.get("log") or [])]
    for entry in entries:  # newest first; an entry that does not fit whole is left out
        lines = _wrapped(entry, SMALL, width)
        if y + 36 * len(lines) > height - 4:
            break
        for line in lines:
            draw.text((MARGIN, y), line, font=font(SMALL), fill=MUTED)
            y += 36


def _private(draw, view, private, lang, y: int) -> int:
    """The viewer's own documents as sealed parchments with their names, and their secret choice
    of cards (a seat's own image only; nothing is drawn when both are empty)."""
    x = MARGIN
    cards = _own_choice(view)
    if cards:
        label = t(lang, P + "board.your_cards")
        draw.text((x, y + 44), label, font=font(SMALL), fill=INK, anchor="lm")
        x += text_width(draw, label, SMALL) + 10
        for card in cards:
            draw.rounded_rectangle((x, y + 6, x + 64, y + 82), radius=8, fill=CARD_FILL, outline=INK, width=3)
            draw.text((x + 32, y + 44), str(card), font=font(40), fill=INK, anchor="mm")
            x += 72
        x += 16
    armed = private.get("armed") or {}
    rows = 0
    for code, box, lines in _document_cards(private, lang, _documents_x(view, lang)):
        left, top, right, bottom = box
        rows = max(rows, top // 90 + 1)
        top, bottom = y + 4 + top, y + bottom
        yellow = DOCUMENTS.get(code, ("red", 1))[0] == YELLOW
        draw.rounded_rectangle((left, top, right, bottom), radius=8, fill=PARCHMENT, outline=INK, width=2)
        draw.ellipse((right - 26, bottom - 26, right - 4, bottom - 4), fill=SEAL_YELLOW if yellow else SEAL,
                     outline=INK)
        if (code in ("gift", "alibi") and armed.get(code)) or (code == "veto" and armed.get("veto")):
            lines = lines[:1] + [t(lang, P + "board.armed")]
        for k, line in enumerate(lines):
            draw.text((left + 10, top + 4 + k * 36), line, font=font(SMALL), fill=INK)
    return y + 90 * max(1, rows)


def _documents_x(view, lang: str) -> int:
    """Where the viewer's documents start: after their secret cards, if any."""
    cards = _own_choice(view)
    if not cards:
        return MARGIN
    return int(MARGIN + font(SMALL).getlength(t(lang, P + "board.your_cards")) + 10 + 72 * len(cards) + 16)


def _document_cards(private, lang, x: int) -> list:
    """Where each of the viewer's documents goes: (code, box relative to the row's top, lines),
    as wide as its longest word, on a second row when the first is full."""
    cards = []
    draw = ImageDraw.Draw(Image.new("L", (1, 1)))
    left, top = x, 0
    for code in dict.fromkeys(private["hand"]):
        name = t(lang, P + f"doc.{code}")
        copies = private["hand"].count(code)
        if copies > 1:
            name = f"{copies}× {name}"
        lines = list(_wrapped(name, SMALL, 250))[:2]
        width = max(140, max(text_width(draw, line, SMALL) for line in lines) + 44)
        if left + width > WIDTH - MARGIN and left > MARGIN:
            left, top = MARGIN, top + 90
        cards.append((code, (left, top, left + width, top + 80), lines))
        left += width + 8
    return cards
