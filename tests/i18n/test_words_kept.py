"""Words put together once and kept (a message's text, a term, a term with words of its own) read
the same every time they are asked again: in either language, whoever's names the message carries,
in whatever form a text asks of a term; and a message with no text is still refused (strict) or
said plainly every time, however often it was asked before."""
from __future__ import annotations

import pytest

from games.core import Msg, SeatRef
from i18n import MissingMessage, translate
from i18n.messages import msg


def test_a_term_kept_reads_in_each_language_and_in_the_form_a_text_asks():
    red = msg("knatsch.castle.red")
    for _ in range(3):  # the first time worked out, then kept
        assert translate(msg("knatsch.board.against_card", card=red), "de") == "gegen die Rote Burg"
        assert translate(msg("knatsch.board.against_card", card=red), "en") == "against Red castle"  # no form asked
        assert translate(red, "de") == "Rote Burg"
        assert translate(red, "en") == "Red castle"


def test_a_term_with_words_of_its_own_is_kept_by_them():
    from games.raubritter.tiles import face_msg

    said = {face: [translate(msg("raubritter.label.lay", face=face_msg(face), square="D5"), "en") for _ in range(3)]
            for face in ("Fv", "Mc", "Fc")}
    assert all(len(set(texts)) == 1 for texts in said.values())
    assert len({texts[0] for texts in said.values()}) == 3  # each face its own words
    assert translate(msg("raubritter.label.lay", face=face_msg("Fv"), square="E6"), "en") != said["Fv"][0]


def test_the_names_a_message_carries_are_never_kept_with_it():
    message = Msg("bot.table.made_a_move", {"player": SeatRef(0)})
    assert translate(message, "en", ["**Anna**"]) != translate(message, "en", ["**Bo**"])
    assert "**Bo**" in translate(message, "en", ["**Bo**"])


def test_a_message_without_text_is_refused_each_time_it_is_asked():
    missing = msg("bot.table.no_such_words_anywhere")
    for _ in range(2):
        assert translate(missing, "de") == "no such words anywhere"
        with pytest.raises(MissingMessage):
            translate(missing, "de", strict=True)
