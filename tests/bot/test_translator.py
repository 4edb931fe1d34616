"""Slash commands in German and English: the catalogue `bot.commands` covers every command,
option and choice of the running bot, and the Translator hands Discord the right words."""
from __future__ import annotations

from collections import defaultdict

import discord
from discord import app_commands

import i18n
from bot.translator import DESCRIPTION_LIMIT, NAME_PATTERN, CatalogueTranslator, walk


def strings(world):
    return list(walk(world.bot.tree))


async def test_every_command_string_has_german_and_english_text(world):
    found = strings(world)
    assert len(found) > 30  # the whole tree, subcommands and options included
    missing = []
    for key, english, kind in found:
        for lang in i18n.LANGUAGES:
            try:
                text = i18n.template(lang, key, strict=True)
            except i18n.MissingMessage:
                missing.append(f"{lang}: {key}")
                continue
            if kind == "name" and key.endswith(".name"):
                assert NAME_PATTERN.match(text) and text == text.lower(), f"{lang} {key}: {text!r} is no command name"
            assert 1 <= len(text) <= DESCRIPTION_LIMIT, f"{lang} {key}: {len(text)} characters"
        # The English catalogue says what the code says: a changed description must change both.
        if f"en: {key}" not in missing:
            assert i18n.template("en", key) == english, f"{key}: the code says {english!r}"
    assert not missing, "add these to i18n/locales/<lang>/bot.commands.po: " + ", ".join(missing)


async def test_german_names_are_unique_where_discord_needs_them(world):
    # Commands under one parent and options of one command must differ in every language.
    by_level = defaultdict(list)
    for key, _, _ in strings(world):
        if key.endswith(".name") and ".param." not in key:
            by_level[key.rsplit(".", 2)[0]].append(i18n.template("de", key))
        elif key.endswith(".name"):
            by_level[key.rsplit(".", 3)[0] + ".param"].append(i18n.template("de", key))
    for level, names in by_level.items():
        assert len(names) == len(set(names)), f"{level}: {sorted(names)}"


async def test_discord_gets_german_and_english_localisations(world):
    tree = world.bot.tree
    translator = tree.translator
    assert isinstance(translator, CatalogueTranslator)
    group = tree.get_command("game")
    payload = await group.get_translated_payload(tree, translator)
    assert payload["name_localizations"]["de"] == "spiel"
    assert payload["name_localizations"]["en-GB"] == "game"
    assert payload["description_localizations"]["de"] == "Brettspiele in diesem Kanal"
    new = next(option for option in payload["options"] if option["name"] == "new")
    assert new["name_localizations"]["de"] == "neu"
    options = {option["name"]: option for option in new["options"]}
    assert options["language"]["name_localizations"]["de"] == "sprache"
    choices = {choice["value"]: choice for choice in options["language"]["choices"]}
    assert choices["de"]["name_localizations"]["de"] == "Deutsch"
    assert choices["en"]["name_localizations"]["de"] == "Englisch"
    stats = next(option for option in payload["options"] if option["name"] == "stats")
    assert stats["description_localizations"]["de"].startswith("Partien gespielt")
    move = await tree.get_command("move").get_translated_payload(tree, translator)
    assert move["name_localizations"]["de"] == "zug"


async def test_strings_without_a_message_stay_untranslated():
    translator = CatalogueTranslator()
    command = app_commands.Command(name="nosuch", description="Not in the catalogue", callback=_nothing)
    context = app_commands.TranslationContext(app_commands.TranslationContextLocation.command_name, command)
    assert await translator.translate(app_commands.locale_str("nosuch"), discord.Locale.german, context) is None
    other = app_commands.TranslationContext(app_commands.TranslationContextLocation.other, None)
    assert await translator.translate(app_commands.locale_str("x"), discord.Locale.german, other) is None


async def _nothing(interaction: discord.Interaction) -> None:
    pass
