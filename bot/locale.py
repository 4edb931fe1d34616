"""Which language to speak: the table's for channel posts and boards, the user's own for
ephemeral replies and DMs (see i18n for the words themselves)."""
from __future__ import annotations

from typing import Any

import i18n


def table_language(game: Any) -> str:
    """A table's language, chosen at /game new (English for rows without one)."""
    lang = getattr(game, "lang", None)
    return lang if lang in i18n.LANGUAGES else i18n.DEFAULT_LANGUAGE


def user_language(interaction: Any) -> str:
    """The language of the person who clicked or typed: their Discord client's language."""
    return i18n.language_of(getattr(interaction, "locale", None))


def guild_language(guild: Any) -> str:
    """A new table's default: German on a server whose preferred language is German."""
    return i18n.language_of(getattr(guild, "preferred_locale", None))
