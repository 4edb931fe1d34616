"""Knatsch as a phone shows it (about 300 px wide): on the busiest boards, six players in every
phase, whole games and the end, in both languages, every text keeps the standard (40 px on the
1080 px image, on the image, over no other text, under no shape drawn after it) and none is cut
short, every number in a piece and every die's pips stand MIN_MARK tall; the end says what the
cards show; a card's name and its dice read apart."""
from __future__ import annotations

import json
import random
import re

import pytest

from games.knatsch.cards import CARDS, card_label, card_name
from i18n import translate
from renderers.common import HIGHLIGHT, INK, MIN_MARK, PHONE_SIZE, recording_texts
from renderers.knatsch import chip_runs, render
from tests.renderers.standard import (
    colour_span,
    covered_texts,
    mark_problems,
    readable_problems,
    recording_covers_and_stamps,
)
from tests.renderers.test_knatsch_render import GAME, drawn_lines, full_hands, phases, play

SCRIPTS = ["Anna", "王小明", "Дмитрий", "김민준", "Αλέξανδρος", "さくら"]
LONG = ["Maximiliane", "Αλέξανδρος", "Дмитрий", "Anna-Lena", "王小明", "Friederike"]


def problems_on(view, names, lang) -> list[str]:
    with recording_covers_and_stamps() as drawn, recording_texts() as texts:
        image = render(view, names, lang)
    assert image.size == PHONE_SIZE
    found = readable_problems(texts, image.size) + mark_problems(texts) + covered_texts(drawn)
    found += [f"{text.text!r} is cut short" for text in texts if "…" in text.text]
    return found


def busy_six_player_states():
    """Every phase at six players, with few cards and with full hands (six castles, specials,
    tournaments), rolling for each kind of card."""
    yield from ((f"phase {name}", state) for name, state in phases(6))
    full = full_hands(6)
    yield "full hands", full
    yield "full hands, capture", play(full, [(0, "target S12"), (0, "reroll 4,5")], [5, 5, 6, 1, 2, 6, 5, 3])
    yield "full hands, tournament", play(full, [(0, "target T1"), (0, "stop"), (1, "roll"), (1, "reroll 5,6")],
                                         [3, 3, 3, 1, 2, 6, 4, 4, 1, 2, 3, 5, 4, 4])


@pytest.mark.parametrize("lang", ["en", "de"])
@pytest.mark.parametrize("names", [SCRIPTS, LONG], ids=["scripts", "long names"])
def test_six_players_in_every_phase_keep_the_phone_standard(lang, names):
    for label, state in busy_six_player_states():
        for viewer in (None, 2):
            found = problems_on(GAME.view(state, viewer), names, lang)
            assert not found, (label, found[:5])


def drawing_pieces(monkeypatch):
    """Every card chip (its box and words) and every die (its box, value and pip colour) the
    renderer draws, as it draws them."""
    from renderers import knatsch as renderer

    chips, dice = [], []
    chip, die = renderer._chip, renderer._die

    def chip_drawn(draw, x, y, w, h, card, say, text=None):
        chips.append(((x, y, x + w, y + h), text if text is not None else renderer._chip_text(card, say),
                      bool(card.get("guarded_by"))))
        return chip(draw, x, y, w, h, card, say, text)

    def die_drawn(draw, x, y, size, value, fill=(255, 255, 255), pip=INK, *args, **kwargs):
        dice.append(((x, y, x + size, y + size), value, pip))
        return die(draw, x, y, size, value, fill, pip, *args, **kwargs)

    monkeypatch.setattr(renderer, "_chip", chip_drawn)
    monkeypatch.setattr(renderer, "_die", die_drawn)
    return chips, dice


def inside(record, box) -> bool:
    left, top, right, bottom = box
    return left <= record.box[0] and record.box[2] <= right and top <= record.box[1] and record.box[3] <= bottom


@pytest.mark.parametrize("lang", ["en", "de"])
def test_every_number_in_a_piece_is_a_mark_at_the_standard_and_nothing_is_covered(lang, monkeypatch):
    """The seats' numbers, every number on a card chip (a castle's dice "4-4-4+2", a die card's
    value, the tournaments' count, "+2" more) and a die not rolled yet ("?") stand MIN_MARK tall
    (41 px of ink, 11 px on the phone), inside their piece, and no shape or piece is drawn over a
    text after it, in every phase at six players with full hands."""
    chips, dice = drawing_pieces(monkeypatch)
    for label, state in busy_six_player_states():
        for viewer in (None, 2):
            chips.clear(), dice.clear()
            with recording_covers_and_stamps() as drawn, recording_texts() as texts:
                render(GAME.view(state, viewer), SCRIPTS, lang)
            marks = [r for r in texts if r.mark]
            assert {str(seat + 1) for seat in range(6)} <= {r.text for r in marks}, label
            assert chips, label
            for box, words, _ in chips:
                numbers = [part for part, number in chip_runs(words) if number]
                in_chip = [r for r in texts if inside(r, box)]
                assert sorted(r.text for r in in_chip if r.mark) == sorted(numbers), (label, words)
                assert not [r.text for r in in_chip if not r.mark and re.search(r"\d", r.text)], (label, words)
            unrolled = [box for box, value, _ in dice if not value]
            assert all(any(r.text == "?" and inside(r, box) for r in marks) for box in unrolled), label
            assert mark_problems(texts) == [], label
            assert covered_texts(drawn) == [], label


def test_a_guarded_cards_shield_stands_as_tall_as_a_mark(monkeypatch):
    """The shield on a chip whose card a guard covers is an icon to tell apart: MIN_MARK tall."""
    chips, _ = drawing_pieces(monkeypatch)
    state = dict(phases(6))["choose"]  # seat 1's guards cover two castles and a special card
    with recording_texts():  # the players' rows drawn where they stand, not apart (board_with_rows)
        image = render(GAME.view(state, None), SCRIPTS, "en")
    guarded = [box for box, _, shielded in chips if shielded]
    assert len(guarded) == 3
    for box in guarded:
        assert colour_span(image, box, HIGHLIGHT) >= MIN_MARK - 2, box  # less its outline


@pytest.mark.parametrize("lang", ["en", "de"])
def test_every_dies_pips_stand_as_tall_as_a_mark(lang, monkeypatch):
    """A die's value is its pips: from the top of the first row to the bottom of the last they
    stand MIN_MARK tall (11 px on the phone), on the stacks' cards, the king's, the rolled dice
    and the die cards, at six players in every phase and at a crowded roll."""
    _, dice = drawing_pieces(monkeypatch)
    kinds = set()
    for label, state in busy_six_player_states():
        dice.clear()
        image = render(GAME.view(state, None), SCRIPTS, lang)
        for box, value, pip in dice:
            if value and value > 1:
                inset = (box[0] + 6, box[1] + 6, box[2] - 6, box[3] - 6)  # inside the die's rim
                assert colour_span(image, inset, pip) >= MIN_MARK, (label, box, value)
                kinds.add(pip)
        assert dice, label
    assert len(kinds) >= 2  # dark pips on white and yellow dice, light ones on red and die cards


@pytest.mark.parametrize("seed", [3, 8])
@pytest.mark.parametrize("lang", ["en", "de"])
def test_whole_six_player_games_keep_the_phone_standard(seed, lang):
    """Every fourth state of a whole game and its end: rolls, defences, tournaments, the
    king's revenge as they come, a three-line status among them."""
    rng = random.Random(seed)
    state = GAME.new_game(6, seed=seed)
    step = 0
    while True:
        over = GAME.outcome(state) is not None
        if over or step % 4 == 0:
            found = problems_on(GAME.view(state, None), LONG, lang)
            assert not found, (step, state.phase, found[:5])
        if over:
            break
        seat = min(GAME.to_act(state))
        state, _ = GAME.apply(state, seat, rng.choice(GAME.legal_actions(state, seat)))
        step += 1


@pytest.mark.parametrize("seats", [2, 3, 4, 5])
@pytest.mark.parametrize("lang", ["en", "de"])
def test_smaller_tables_keep_the_phone_standard_too(seats, lang):
    states = [state for _, state in phases(seats)] + [full_hands(seats)]
    for state in states:
        found = problems_on(GAME.view(state, None), SCRIPTS[:seats], lang)
        assert not found, (state.phase, found[:5])


def won_with_four_tournaments():
    """Seat 0 holds a castle and four tournaments and wins a second castle from a stack."""
    holdings = [["C01", "T2", "T3", "T4", "T5"], ["C07", "S01"], ["C10"], ["C13"], ["C16"], ["C14"]]
    data = GAME.to_dict(GAME.new_game(6, seed=1))
    placed = {cid for held in holdings for cid in held} | {"C04", "S12"}
    rest = [cid for cid in CARDS if cid not in placed]
    data.update(holdings=holdings, stacks=[["C04"] + rest[0::2], ["S12"] + rest[1::2]],
                castle_guard=[[]] * 6, special_guard=[None] * 6)
    start = GAME.from_dict(json.loads(json.dumps(data)))
    return play(start, [(0, "target C04"), (0, "stop")], [5, 5, 5, 5, 1, 2])


@pytest.mark.parametrize("lang,won,chip,wrong", [
    ("en", "Won: 2 castles + 4 tournaments", "4 tournaments", "3 tournaments"),
    ("de", "Sieg: 2 Burgen + 4 Turniere", "4 Turniere", "3 Turniere"),
])
def test_the_end_names_the_cards_the_winner_holds(lang, won, chip, wrong):
    """A win with two castles and four tournaments says four wherever it counts them (the
    winner's badge, the chip, the reason), not the three the rule asks for."""
    state = won_with_four_tournaments()
    outcome = GAME.outcome(state)
    assert outcome.winners == (0,) and outcome.details["tournaments"][0] == 4
    view = GAME.view(state, None)
    with recording_texts() as texts:
        image = render(view, SCRIPTS, lang)
    written = drawn_lines(texts)
    assert won in written and chip in written
    assert not [text for text in written if wrong in text], written
    reason = translate(outcome.reason, lang, SCRIPTS)
    assert ("2 castles and 4 tournaments" if lang == "en" else "2 Burgen und 4 Turniere") in reason
    assert not readable_problems(texts, image.size)


def test_a_card_and_its_dice_read_apart():
    """"Die card 2 (2-2-2+5)", never "Kartenwürfel 2 2-2-2+5": the dice to beat stand in
    brackets after every card's name, in both languages."""
    for card in CARDS.values():
        if card.combination is None:
            continue
        for lang in ("en", "de"):
            label = translate(card_label(card), lang)
            assert label == f"{translate(card_name(card), lang)} ({card.combination.text})"
            assert not re.search(r"\d [1-6]-[1-6]", label), label
    die_card = next(cid for cid, card in CARDS.items() if card.ability == "die" and card.value == 2
                    and card.combination.text == "2-2-2+5")
    assert translate(card_label(CARDS[die_card]), "de") == "Kartenwürfel 2 (2-2-2+5)"
    assert translate(card_label(CARDS[die_card]), "en") == "Die card 2 (2-2-2+5)"


@pytest.mark.parametrize("lang,words", [("en", "for Die card 2 (2-2-2+5)"), ("de", "den Kartenwürfel 2 (2-2-2+5)")])
def test_the_board_names_a_rolled_for_die_card_apart_from_its_dice(lang, words):
    holdings = [["C01", "C04"], ["C07", "C10", "C13"], ["C16"]]
    data = GAME.to_dict(GAME.new_game(3, seed=1))
    die_card = next(cid for cid, card in CARDS.items() if card.ability == "die" and card.combination.text == "2-2-2+5")
    placed = {cid for held in holdings for cid in held} | {die_card, "T1"}
    rest = [cid for cid in CARDS if cid not in placed]
    data.update(holdings=holdings, stacks=[[die_card] + rest[0::2], ["T1"] + rest[1::2]],
                castle_guard=[[]] * 3, special_guard=[None] * 3)
    start = GAME.from_dict(json.loads(json.dumps(data)))
    rolling = play(start, [(0, f"target {die_card}"), (0, "reroll 4,5")], [2, 2, 6, 1, 3, 6, 5, 3])
    view = GAME.view(rolling, None)
    with recording_texts() as texts:
        render(view, SCRIPTS[:3], lang)
    header = " ".join(text.text for text in sorted(texts, key=lambda text: text.box[1]) if text.box[3] < 170)
    assert words in header, header


NAMES_TOO_LONG = ["Bartholomew the Unready of Some", "Kunigunde von Hohenzollern-Sig", "王小明", "Дмитрий"]


@pytest.mark.parametrize("lang", ["en", "de"])
def test_a_name_too_long_for_its_line_loses_whole_words_and_the_words_after_it_stay(lang):
    """A long name on the board is shortened by whole words ("Bartholomew the…"), and a title
    that names it keeps its own words ("Bartholomew the Unready… attacks", not "… a…")."""
    titles = []
    for _, state in phases(4):
        with recording_texts() as texts:
            render(GAME.view(state, None), NAMES_TOO_LONG, lang)
        for text in texts:
            if "…" not in text.text:
                continue
            kept, _, after = text.text.partition("…")
            name = next((name for name in NAMES_TOO_LONG if name.split()[0][:3] in kept), None)
            if name is None:  # a long status cut after its second line: no name in what is left
                continue
            shown = kept[kept.index(name[:3]):]
            # cut between words, or inside the first where not even that fits
            assert name.startswith(shown) and (name[len(shown)] == " " or " " not in shown), text.text
            if after.strip():
                titles.append(text.text)
    said = {"en": {"attacks", "defends", "rolls", "chooses", "challenges"},
            "de": {"greift", "verteidigt", "würfelt", "wählt", "fordert"}}[lang]
    assert titles and all(any(word in title for word in said) for title in titles), titles
