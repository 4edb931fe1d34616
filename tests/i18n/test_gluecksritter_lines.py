"""Die Glücksritter's turn message says each status and each account line on one line of a
390 px phone (`bot.presenter.PHONE_LINE`) in both languages: in full where it fits, else in its
`.line` form; the board and `/game log` keep the full words (issue 36)."""
from __future__ import annotations

import pytest

from bot.presenter import account_line, phone_lines, status_in_message
from bot.turns import ACCOUNT_MARK
from games.core import Msg, SeatRef, msg
from games.gluecksritter import GAME as GLUECKSRITTER
from tests.i18n.test_turn_lines_fit import LONG_NAMES, USUAL_NAMES, played, shown, table

MOST_NAMES = 3
"""Players a line of whole games may list, with any usual names, and fit a phone's line. Four fit
where their names are not all long (`test_a_buying_field_names_four_players_on_one_line`); five or
six ("Document: Alice, Bob, Carol, Dave and Erin.") take two, however few words go around them."""
SHORT_FORMS = {f"gluecksritter.{kind}" for kind in (
    "event.cards", "event.raid", "event.haggle", "event.knights_crowded", "event.both_dungeon", "event.raid_nothing",
    "status.field1", "status.field2", "status.field3", "status.favour", "status.choose")}
"""Lines that needed their `.line` form at the phone's true width and that these games reach."""


def lines_of_whole_games(lang: str):
    """(message id, line as the turn message says it) of every status and public event of whole
    games of three to six, with usual names and, where at most four play, long ones (shortened)."""
    for seats, seed in ((3, 1), (3, 2), (4, 2), (4, 3), (5, 1), (5, 2), (6, 3)):
        for names in [USUAL_NAMES, *(LONG_NAMES if seats <= 4 else [])]:
            seated = table(names, seats)
            for state, events in played(GLUECKSRITTER, seats, seed):
                if GLUECKSRITTER.outcome(state) is None:
                    status = GLUECKSRITTER.view(state, None)["status"]
                    yield status["id"], status_in_message(status, seated, lang)
                for event in events:
                    if not event.text.id.startswith("gluecksritter.outcome."):  # the final message's
                        yield event.text.id, ACCOUNT_MARK + account_line(event.text, seated, lang, ACCOUNT_MARK)


@pytest.mark.parametrize("lang", ["en", "de"])
def test_every_status_and_account_line_of_whole_games_is_one_line_of_a_phone(lang):
    seen, wrapped = set(), set()
    for message_id, line in lines_of_whole_games(lang):
        seen.add(message_id)
        listed = sum(f"**{name}**" in line for name in USUAL_NAMES)
        if phone_lines(line) != 1 and listed <= MOST_NAMES:
            wrapped.add(shown(line))
    assert not wrapped, sorted(wrapped)[:5]
    assert SHORT_FORMS <= seen, SHORT_FORMS - seen


@pytest.mark.parametrize("lang", ["en", "de"])
@pytest.mark.parametrize("field", [1, 2, 3])
def test_a_buying_field_names_four_players_on_one_line(lang, field):
    """Where four players may buy at the same field, the status names them all on one line: its
    words leave room for four names of four or five letters."""
    for names in (USUAL_NAMES[:4], USUAL_NAMES[1:5]):
        status = msg(f"gluecksritter.status.field{field}", players=[SeatRef(seat) for seat in range(4)])
        line = status_in_message(status, table(names, 4), lang)
        assert phone_lines(line) == 1 and all(f"**{name}**" in line for name in names), line


@pytest.mark.parametrize("lang", ["en", "de"])
def test_the_revealed_cards_are_said_in_a_line_and_listed_in_the_log(lang):
    """The turn message says that the cards are revealed (its board shows each player's); the
    full text, which the log keeps, lists them."""
    from games.gluecksritter.engine import one_after_another
    from i18n import translate

    names = ["Bo", "Cy", "Di"]
    text = msg("gluecksritter.event.cards", plays=one_after_another(
        [msg("gluecksritter.event.plays", player=SeatRef(seat), cards=[seat + 1, 6]) for seat in range(3)]))
    line = shown(account_line(text, table(names, 3), lang, ACCOUNT_MARK))
    assert line == translate(Msg("gluecksritter.event.cards.line", {}), lang)
    assert all(f"{name}: {seat + 1} " in translate(text, lang, names) for seat, name in enumerate(names))
