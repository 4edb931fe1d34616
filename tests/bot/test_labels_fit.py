"""Every button and menu label of whole games of all five games, in both languages and with long
names: within Discord's limits, and if shortened at all, then at a word boundary."""
from __future__ import annotations

import random

import pytest

from bot.components import BUTTON_LABEL_LIMIT, _clip
from bot.presenter import clip
from games import REGISTRY
from i18n import translate
from renderers.common import fit

NAMES = ["Wolfgang Amadeus", "Александра", "Zoë-Charlotte", "王小明", "Bartholomäus", "Maximilian"]
MENU_LIMIT = 100


def cut_at_a_word(original: str, shown: str) -> bool:
    if shown == original:
        return True
    kept = shown[:-1]
    return shown.endswith("…") and original.startswith(kept) and (
        len(kept) == len(original) or not original[len(kept)].isalnum() or not kept[-1:].isalnum())


@pytest.mark.parametrize("name", sorted(REGISTRY))
@pytest.mark.parametrize("lang", ["en", "de"])
def test_every_label_fits_and_is_never_cut_inside_a_word(name, lang):
    game = REGISTRY[name]
    players = min(game.max_players, 4)
    rng = random.Random(5)
    state = game.new_game(players, seed=5)
    seen = 0
    for _ in range(400):
        if game.outcome(state) is not None:
            break
        seat = min(game.to_act(state))
        legal = game.legal_actions(state, seat)
        for action in legal[:40]:
            label = translate(game.describe(state, seat, action), lang, NAMES[:players], strict=True)
            assert label and "{" not in label
            shown = _clip(label, BUTTON_LABEL_LIMIT)
            assert len(shown) <= BUTTON_LABEL_LIMIT and cut_at_a_word(label, shown), (label, shown)
            assert len(clip(label, MENU_LIMIT)) <= MENU_LIMIT
            seen += 1
        state, _ = game.apply(state, seat, rng.choice(legal))
    assert seen > 50


def test_shortening_keeps_whole_words():
    assert clip("Wächter für Sonderkarten bewegen", 20) == "Wächter für…"
    assert cut_at_a_word("Wächter für Sonderkarten", clip("Wächter für Sonderkarten", 20))
    text, _ = fit("30 Ritter · 19 im Stapel · 2 auf der Hand", 30, 300)
    assert text.endswith("…") and not text[:-1].endswith("H")
    assert cut_at_a_word("30 Ritter · 19 im Stapel · 2 auf der Hand", text)
