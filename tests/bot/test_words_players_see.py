"""What a player reads on buttons, menus and /move: words with names, never a `{s0}`
placeholder, a message id or an action code, in both languages, over whole random games."""
from __future__ import annotations

import random
import re

import pytest

from bot.choices import choices_for, public_choices
from games import REGISTRY
from games.core import read_action
from i18n import translate

NAMES = ["Анна", "Bob", "明美"]
PLACEHOLDER = re.compile(r"\{s\d|\{[a-z_]+\}")


def message_ids(game_name: str) -> re.Pattern:
    return re.compile(rf"\b{re.escape(game_name)}\.[a-z_]+\.")


@pytest.mark.parametrize("name", sorted(REGISTRY))
@pytest.mark.parametrize("lang", ["en", "de"])
def test_every_label_in_a_random_game_is_words_with_names(name, lang):
    game = REGISTRY[name]
    players = 3
    rng = random.Random(5)
    state = game.new_game(players, seed=11)
    ids = message_ids(name)
    steps = 0
    while game.outcome(state) is None and steps < 400:
        seat = rng.choice(sorted(game.to_act(state)))
        choices = choices_for(game, state, seat, NAMES[:players], lang)
        for choice in [*choices, *public_choices(game, state, players, NAMES[:players], lang)]:
            assert not PLACEHOLDER.search(choice.label), choice.label
            assert not ids.search(choice.label), choice.label
            assert choice.label.strip() and choice.label != choice.action
        pick = rng.choice(choices)
        # /move accepts the label a player saw, in the language they saw it in.
        def words(text):
            return translate(text, lang, NAMES[:players])

        assert read_action(game, state, seat, pick.label, words).encode() == pick.action
        state, _ = game.apply(state, seat, read_action(game, state, seat, pick.action))
        steps += 1
    assert steps > 20
