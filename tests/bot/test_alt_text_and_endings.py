"""Every board and chart carries alt text in the table's language naming who is to act; every
game's end message says the win once and what the scores count; Die Glücksritter ends with a
score chart too."""
from __future__ import annotations

import random

import pytest

from games import REGISTRY
from i18n import has_message, t
from tests.bot.harness import SketchRenderer, bot_factory, start_table


@pytest.fixture
def make_bot(database_path):
    return bot_factory(database_path, games=REGISTRY, seed=6, render=SketchRenderer())


@pytest.mark.parametrize("lang,word", [("en", "game #1"), ("de", "Partie #1")])
async def test_the_board_has_alt_text_in_the_tables_language_naming_who_acts(world, lang, word):
    anna, bernd = world.player("anna"), world.player("bernd")
    await world.slash(anna, "game new", game="knatsch", language=lang)
    joined = "Mitspielen" if lang == "de" else "Join"
    await world.click(bernd, world.latest(), label=joined)
    await world.click(anna, world.latest(), label="Starten" if lang == "de" else "Start")
    board = world.latest_board()
    description = board.attachments[0].description
    assert description and len(description) <= 1024
    assert word in description and "Knatsch" in description
    acting = next(p for p in (anna, bernd) if p.id in board.raw_mentions)
    assert acting.name.capitalize() in description or acting.display_name in description
    assert "<@" not in description and "**" not in description


def test_every_game_says_what_its_scores_count():
    for name in REGISTRY:
        for lang in ("en", "de"):
            assert has_message(f"{name}.score", lang)
            assert t(lang, f"{name}.score", count=1) != t(lang, f"{name}.score", count=2)


async def test_a_gluecksritter_game_ends_with_a_chart_and_scores_that_say_what_they_count(world):
    game = REGISTRY["gluecksritter"]
    people = [world.player(n) for n in ("anna", "bernd", "clara")]
    await start_table(world, *people, game="gluecksritter")
    seats = world.seats(1)
    by_seat = {seats[p.id]: p for p in people}
    rng = random.Random(1)
    for _ in range(3000):
        state = game.from_dict(world.stored_state(1))
        if game.outcome(state) is not None:
            break
        seat = min(game.to_act(state))
        await world.slash(by_seat[seat], "move", action=rng.choice(game.legal_actions(state, seat)).encode())
    final = world.latest_board()
    assert [a.filename for a in final.attachments] == ["board.png", "scores.png"]
    assert all(a.description for a in final.attachments)
    assert "Final scores:" in final.content
    assert "walls and towers" in final.content or "wall or tower" in final.content
