"""The Knatsch table renders every phase, for two and six players, as a small upright PNG for phones."""
from __future__ import annotations

import io
import json
import random

import pytest
from PIL import Image

from games.core import Action
from games.knatsch import GAME, KnatschGame
from games.knatsch.cards import CARDS, likeness
from i18n import t
from renderers import knatsch as knatsch_renderer
from renderers import render_png
from renderers.common import MIN_TEXT, PHONE_SIZE, overlapping_texts, recording_texts
from renderers.knatsch import render

NAMES = ["Anna", "Bob", "Chris", "Dave", "Eve", "Frank"]
MAX_PNG_BYTES = 300 * 1024


class Dice:
    def __init__(self, values):
        self.values = list(values)

    def __call__(self, count):
        taken, self.values = self.values[:count], self.values[count:]
        return taken


def table(seats):
    """Seat 0 may challenge the king; seat 1 has three castles (attackable even with two players)."""
    holdings = [["C01", "C04", "C07"], ["C10", "C13", "C15", "S09", "S16", "S19", "S02", "T2"],
                ["C11", "S03"], ["C14"], ["C16", "T3"], ["C12"]][:seats]
    data = GAME.to_dict(GAME.new_game(seats, seed=1))
    placed = {cid for held in holdings for cid in held} | {"T1", "S12"}
    rest = [cid for cid in CARDS if cid not in placed]
    data.update(holdings=holdings, stacks=[["T1"] + rest[0::2], ["S12"] + rest[1::2]],
                castle_guard=[[], ["C10", "C13"]] + [[]] * (seats - 2),
                special_guard=[None, "S09"] + [None] * (seats - 2))
    return GAME.from_dict(json.loads(json.dumps(data)))


def play(state, moves, dice=()):
    game = KnatschGame(dice_source=Dice(dice))
    for seat, text in moves:
        state, _ = game.apply(state, seat, Action.parse(text))
    return state


def phases(seats):
    start = table(seats)
    attack = "C15"
    yield "choose", start
    # Announcing rolls at once: a first roll still to make is a defender's (or a later tournament roller's).
    yield "defence, before rolling", play(start, [(0, f"target {attack}"), (0, "stop")], [5, 5, 5, 5, 1, 2])
    yield "capture, mid-roll", play(start, [(0, "target S12"), (0, "reroll 4,5")],
                                    [5, 5, 6, 1, 2, 6, 5, 3])
    yield "defence", play(start, [(0, f"target {attack}"), (0, "stop"), (1, "roll"),
                                  (1, "reroll 1,2")], [5, 5, 5, 5, 1, 2, 3, 3, 3, 6, 1, 2, 4, 4])
    tournament_moves = [(0, "target T1"), (0, "stop"), (1, "roll"), (1, "reroll 5,6")]
    yield "tournament", play(start, tournament_moves, [3, 3, 3, 1, 2, 6, 4, 4, 1, 2, 3, 5, 4, 4])
    yield "king", play(start, [(0, "topple"), (0, "reroll 4,5")], [5, 5, 5, 2, 1, 6, 5, 3])
    yield "revenge", play(start, [(0, "topple"), (0, "stop")], [1, 2, 3, 4, 5, 6])
    yield "further attempt", play(start, [(0, "target S12"), (0, "stop")], [5, 5, 5, 5, 2, 3])
    yield "over", play(start, [(0, "topple"), (0, "stop")], [5, 5, 5, 5, 5, 1])


CASES = [(seats, name, state) for seats in (2, 6) for name, state in phases(seats)]


@pytest.mark.parametrize("seats,phase,state", CASES, ids=[f"{s}p-{n}" for s, n, _ in CASES])
def test_every_phase_renders_small_and_upright(seats, phase, state):
    for viewer in (None, 0, seats - 1):
        view = GAME.view(state, viewer)
        image = render(view, NAMES[:seats])
        assert image.size == PHONE_SIZE
        png = render_png(view, NAMES[:seats])
        assert png.startswith(b"\x89PNG") and len(png) < MAX_PNG_BYTES
        assert Image.open(io.BytesIO(png)).size == image.size


def test_phases_are_what_their_names_say():
    found = {name: state for name, state in phases(6)}
    assert found["defence"].roll.purpose == "defence"
    assert found["tournament"].tournament is not None and found["tournament"].roll.roller == 1
    assert found["king"].roll.purpose == "king"
    assert found["revenge"].phase == "revenge"
    assert found["further attempt"].bonus
    assert GAME.outcome(found["over"]) is not None


def test_random_six_player_tables_render():
    state = GAME.new_game(6, seed=8)
    rng = random.Random(8)
    step = 0
    while GAME.outcome(state) is None:
        seat = min(GAME.to_act(state))
        state, _ = GAME.apply(state, seat, rng.choice(GAME.legal_actions(state, seat)))
        step += 1
        if step % 97 == 0:
            assert len(render_png(GAME.view(state, None), NAMES)) < MAX_PNG_BYTES
    assert len(render_png(GAME.view(state, 2), NAMES)) < MAX_PNG_BYTES


def test_long_names_and_missing_names_do_not_break_the_table():
    state = phases(6).__next__()[1]
    view = GAME.view(state, None)
    assert render(view, ["A very long display name that goes on and on " * 2] * 6).size == PHONE_SIZE
    assert render(view, []).size == PHONE_SIZE


# ----------------------------------------------------------------------------------------
# Castle chips name their castle, and rows make room for many cards


SCRIPT_NAMES = ["Anna", "王小明", "Дмитрий", "김민준", "Αλέξανδρος", "さくら"]


def full_hands(seats, castles=(6, 5), specials=(4, 2)):
    """Seat 0 holds `castles[0]` castles (one of each coat of arms: no two alike), seat 1
    `castles[1]`, both with specials and tournaments; everyone else one castle."""
    pool = [cid for cid in CARDS if not cid.startswith("T")]

    def take(castle_count, special_count):
        held, seen = [], set()
        for kind, count in (("C", castle_count), ("S", special_count)):
            for cid in list(pool):
                if count and cid.startswith(kind) and likeness(CARDS[cid]) not in seen:
                    held.append(cid)
                    seen.add(likeness(CARDS[cid]))
                    pool.remove(cid)
                    count -= 1
        return held

    holdings = [take(castles[0], specials[0]) + ["T3"], take(castles[1], specials[1]) + ["T2", "T4"]]
    holdings += [take(1, 0) for _ in range(seats - 2)]
    data = GAME.to_dict(GAME.new_game(seats, seed=1))
    placed = {cid for held in holdings for cid in held} | {"T1", "S12"}
    rest = [cid for cid in CARDS if cid not in placed]
    data.update(holdings=holdings, stacks=[["T1"] + rest[0::2], ["S12"] + rest[1::2]],
                castle_guard=[[]] * seats, special_guard=[None] * seats)
    return GAME.from_dict(json.loads(json.dumps(data)))


def drawn_lines(texts, gap: int = 22) -> list[str]:
    """The drawn texts, those drawn one after the other on one line close together (a chip's
    words and the numbers on its plates: "blue" and "4-4-4+2") joined into one: what a line of
    the board says."""
    lines: list[str] = []
    previous = None
    for text in texts:
        middle = (text.box[1] + text.box[3]) / 2
        if previous is not None and abs(middle - (previous.box[1] + previous.box[3]) / 2) <= 12 \
                and 0 <= text.box[0] - previous.box[2] <= gap:
            lines[-1] += " " + text.text
        else:
            lines.append(text.text)
        previous = text
    return lines


def chip_words(card, lang):
    arms = t(lang, f"knatsch.board.arms_{card['arms']}")
    return t(lang, "knatsch.board.chip_castle", arms=arms, combination=card["combination"]["text"])


@pytest.mark.parametrize("seats", [2, 3, 4, 6])
@pytest.mark.parametrize("lang", ["en", "de"])
def test_every_castle_chip_names_its_castle_readably(seats, lang):
    start = full_hands(seats, castles=(3, 2), specials=(2, 1))
    rolling = play(start, [(0, "target S12"), (0, "reroll 4,5")], [5, 5, 6, 1, 2, 6, 5, 3])
    for state in (start, rolling):
        view = GAME.view(state, None)
        with recording_texts() as texts:
            render(view, SCRIPT_NAMES[:seats], lang)
        written = drawn_lines(texts)
        for player in view["players"]:
            for card in player["cards"]:
                if card["kind"] == "castle":
                    words = chip_words(card, lang)
                    assert words in written, (lang, words)
                    assert t(lang, f"knatsch.board.arms_{card['arms']}") in words
        assert min(text.size for text in texts) >= MIN_TEXT
        assert not overlapping_texts(texts)
        assert not [w for w in written if "…" in w and any(c in w for c in "+-")], "a chip was cut"
        for text in texts:
            assert 0 <= text.box[0] and text.box[2] <= PHONE_SIZE[0] and text.box[3] <= PHONE_SIZE[1], text


@pytest.mark.parametrize("seats", [3, 4, 5])
def test_six_castles_wrap_onto_another_line_instead_of_overflowing(seats):
    view = GAME.view(full_hands(seats), None)
    say = knatsch_renderer.Words("de", SCRIPT_NAMES[:seats])
    heights = [height for height, _ in knatsch_renderer._row_heights(view, say, 1000)]
    width = PHONE_SIZE[0] - 2 * knatsch_renderer.MARGIN - 20
    lines = knatsch_renderer._chip_lines(view["players"][0], say, width, 99)
    assert len(lines) >= 2 and all(sum(w for _, _, w in line) + 6 * (len(line) - 1) <= width for line in lines)
    base_lines = 2 if seats <= 3 else 1  # up to three players, every row has two chip lines
    assert seats <= 3 or len(lines) > base_lines
    if len(lines) > base_lines:
        assert heights[0] > heights[-1], "the row with six castles is taller than a row with one"
    with recording_texts() as texts:
        render(view, SCRIPT_NAMES[:seats], "de")
    written = drawn_lines(texts)
    castles = [card for card in view["players"][0]["cards"] if card["kind"] == "castle"]
    assert len(castles) == 6 and all(chip_words(card, "de") in written for card in castles)
    assert not overlapping_texts(texts)


def test_a_crowded_roll_keeps_its_dice_and_shows_castles_before_other_cards():
    """Six players and a roll leave no room for a second chip line: the castles still come
    first, and a "+N more" chip says how many cards are not shown."""
    state = play(full_hands(6), [(0, "target S12"), (0, "reroll 4,5")], [5, 5, 6, 1, 2, 6, 5, 3])
    view = GAME.view(state, None)
    say = knatsch_renderer.Words("en", SCRIPT_NAMES)
    width = PHONE_SIZE[0] - 2 * knatsch_renderer.MARGIN - 20
    k = knatsch_renderer
    room = PHONE_SIZE[1] - 4 - (14 + 3 * k.LINE + k.GAP + k.stack_tile_height(k.DIE_MIN) + k.GAP)  # under a
    heights = [height for height, _ in k._row_heights(view, say, room)]  # three-line status and the stacks
    assert room - sum(heights) - k.ROW_GAP * 6 >= k.ROLL_MIN
    lines = knatsch_renderer._chip_lines(view["players"][0], say, width, 1)
    shown = [chip for line in lines for chip, _, _ in line]
    assert shown[-1]["kind"] == "more"
    assert all(chip["kind"] == "castle" for chip in shown[:-1])
    total = len(view["players"][0]["cards"]) - view["players"][0]["tournaments"] + 1
    assert len(shown) - 1 + shown[-1]["count"] == total


def test_the_german_board_says_what_is_rolled_for_in_the_accusative():
    start = table(3)
    cases = [(play(start, [(0, "target S12"), (0, "reroll 4,5")], [5, 5, 6, 1, 2, 6, 5, 3]), "um den "),
             (play(start, [(0, "topple"), (0, "reroll 4,5")], [5, 5, 5, 2, 1, 6, 5, 3]), "gegen den König")]
    for state, words in cases:
        with recording_texts() as texts:
            render(GAME.view(state, None), SCRIPT_NAMES[:3], "de")
        assert any(words in text.text for text in texts), [text.text for text in texts]
