"""Every message has German and English text with the same parameters."""
from __future__ import annotations

import pytest

from games.core import SeatRef, msg
from i18n import LANGUAGES, MissingMessage, domains, entries, fields, translate


def forms(text) -> tuple[str, ...]:
    return text if isinstance(text, tuple) else (text,)


@pytest.mark.parametrize("domain", domains())
def test_every_message_in_both_languages_with_the_same_parameters(domain):
    english, german = entries("en", domain), entries("de", domain)
    assert set(english) == set(german), (
        f"{domain}: only English: {sorted(set(english) - set(german))}; "
        f"only German: {sorted(set(german) - set(english))}")
    for message_id, text in english.items():
        other = german[message_id]
        assert isinstance(text, tuple) == isinstance(other, tuple), f"{message_id}: plural in one language only"
        for form in (*forms(text), *forms(other)):
            assert form, f"{message_id}: empty text"
        english_fields = set().union(*(fields(form) for form in forms(text)))
        german_fields = set().union(*(fields(form) for form in forms(other)))
        assert english_fields == german_fields, f"{message_id}: {english_fields} vs {german_fields}"


def test_both_languages_have_catalogues():
    assert set(LANGUAGES) == {"en", "de"}
    assert "core" in domains()


def test_translate_names_seats_nests_terms_and_picks_plurals():
    assert translate(msg("core.points", count=1), "de") == "1 Punkt"
    assert translate(msg("core.points", count=2), "en") == "2 points"
    assert translate(msg("core.points", count=2).to_json(), "de") == "2 Punkte"
    assert translate("{s1} wins", "en", ["Ann", "Bo"]) == "Bo wins"


def test_strict_mode_refuses_unknown_ids_and_missing_parameters():
    with pytest.raises(MissingMessage):
        translate(msg("core.no_such_message"), "en", strict=True)
    with pytest.raises(MissingMessage):
        translate(msg("core.points"), "en", strict=True)  # {count} not given


def test_a_player_never_sees_braces_for_an_unknown_message():
    text = translate(msg("core.no_such_message", who=SeatRef(0)), "de", ["Ann"])
    assert "{" not in text and "core." not in text


@pytest.mark.parametrize("lang", LANGUAGES)
def test_commands_named_in_a_text_are_the_ones_discord_shows_in_that_language(lang):
    """A German client shows `/spiel neu`, an English one `/game new`: texts name the commands
    (and their options) as the reader's Discord shows them."""
    import re

    commands = entries(lang, "bot.commands")
    known = {text for message_id, text in commands.items() if message_id.endswith(".name")}
    for domain in domains():
        if domain == "bot.commands":
            continue
        for message_id, text in entries(lang, domain).items():
            for form in forms(text):
                for command in re.findall(r"`/([^`]*)`", form):
                    words = [word.split(":")[0] for word in command.split() if not word.startswith("<")]
                    assert all(word in known for word in words if word.isalpha()), (message_id, command)
