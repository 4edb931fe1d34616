"""Game titles, table options and final scores in the reader's language."""
from __future__ import annotations

from bot.presenter import option_words
from games import REGISTRY
from games.__main__ import main
from i18n import game_title, has_message, translate


def test_titles_are_the_editions_names_in_each_language():
    assert translate(game_title(REGISTRY["carcassonne"]), "de") == "Carcassonne mit „Die Räuber“"
    assert translate(game_title(REGISTRY["carcassonne"]), "en") == "Carcassonne (with The Robbers)"
    assert translate(game_title(REGISTRY["knatsch"]), "de") == "Knatsch"
    for game in REGISTRY.values():
        for lang in ("en", "de"):
            assert translate(game_title(game), lang, strict=True)


def test_every_option_and_value_has_words_in_both_languages():
    assert option_words(REGISTRY["carcassonne"], "robbers", "all", "de") == "Räuber: alle anderen Spieler"
    for game in REGISTRY.values():
        for option in game.options:
            for value in option.choices:
                for lang in ("en", "de"):
                    assert has_message(f"{game.name}.option_name.{option.name}", lang)
                    assert has_message(f"{game.name}.option_value.{option.name}.{value}", lang)
                    assert f"{option.name}: {value}" not in option_words(game, option.name, value, lang)


def test_the_command_line_lists_and_scores_in_german(capsys):
    assert main(["list", "--lang", "de"]) == 0
    listed = capsys.readouterr().out
    assert "Carcassonne mit „Die Räuber“, 2–5 Spieler" in listed and "players" not in listed
    assert main(["play", "raubritter", "--players", "2", "--computer", "--lang", "de"]) == 0
    played = capsys.readouterr().out
    assert " Punkte" in played.splitlines()[-1] or " Punkt" in played.splitlines()[-1]
