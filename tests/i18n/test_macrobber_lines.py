"""Mac Robber's turn message, line by line: each account line and the status take one line of a
390 px phone in both languages, whoever plays. Long names (Discord allows 32 characters, in any
script) are shortened as the turn message shortens them (`bot.presenter.named_on_a_line`); where a
line would wrap even so, the message says its gist (its `.line` form) and `/game log` keeps the
full words."""
from __future__ import annotations

import pytest

from bot.presenter import account_line, named, phone_lines, status_in_message
from bot.turns import ACCOUNT_MARK
from games.core import Msg
from games.macrobber import GAME as MACROBBER
from i18n import translate
from tests.i18n.test_turn_lines_fit import LONG_NAMES, USUAL_NAMES, played, shown, table

GAMES = ((3, 1), (4, 2), (3, 5), (4, 7))
"""Seats and seed of whole games between computer players: together they raid, defend, tie,
plunder, send bards, redraw and end the game."""


def lines_of_whole_games(lang: str, names: list[str]):
    """Every account line and status line the turn message says in `GAMES` with `names`, each
    with the id of its text."""
    for seats, seed in GAMES:
        for state, events in played(MACROBBER, seats, seed):
            for event in events:
                yield event.text.id, ACCOUNT_MARK + account_line(event.text, table(names, seats), lang, ACCOUNT_MARK)
            status = MACROBBER.view(state, None)["status"]
            yield status["id"], status_in_message(status, table(names, seats), lang)


@pytest.mark.parametrize("lang", ["en", "de"])
@pytest.mark.parametrize("names", [USUAL_NAMES, *LONG_NAMES], ids=["usual", "long", "one-word", "cyrillic"])
def test_every_account_line_and_status_of_whole_games_is_one_line(lang, names):
    seen, wrapped = set(), set()
    for text_id, line in lines_of_whole_games(lang, names):
        seen.add(text_id)
        if phone_lines(line) != 1:
            wrapped.add(shown(line))
    assert not wrapped, sorted(wrapped)[:5]
    kinds = {"raid_won", "raid_defended", "refill", "bard_took", "redrew", "scored", "estate", "card_piper",
             "end_estate", "estate_revealed", "display", "exchange", "round_won"}
    assert {f"macrobber.event.{kind}" for kind in kinds} <= seen, sorted(seen)


@pytest.mark.parametrize("lang", ["en", "de"])
def test_with_usual_names_the_lines_that_fit_keep_their_full_words(lang):
    """The gist is for lines that would wrap: with usual names the full words are said wherever
    they fit (most lines), and a gist names no player its full form does not name."""
    said_in_full = said_in_gist = 0
    for seats, seed in GAMES:
        names = USUAL_NAMES[:seats]
        for _, events in played(MACROBBER, seats, seed):
            for event in events:
                full = named(event.text, table(names, seats), lang)
                line = account_line(event.text, table(names, seats), lang, ACCOUNT_MARK)
                if line == full:
                    said_in_full += 1
                    continue
                said_in_gist += 1
                assert phone_lines(ACCOUNT_MARK + full) > 1, (full, line)
                gist = translate(Msg(f"{event.text.id}.line", event.text.params), lang, names)
                assert shown(line) == gist and all(name in full for name in names if name in gist), (full, line)
    assert said_in_full > said_in_gist > 0, (said_in_full, said_in_gist)
