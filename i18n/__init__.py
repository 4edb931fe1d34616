"""German and English words for everything a player reads.

Engines describe moves and events as `Msg` (a message id with parameters: i18n.messages, which
`games.core` re-exports); the bot and the renderers turn them into words here. The catalogues
are gettext PO files read with Babel, one per domain and language:
``i18n/locales/<lang>/<domain>.po``, where the domain is the message id's first part
(``knatsch.event.capture`` lives in ``knatsch.po``). A msgstr uses Python format fields named
like the parameters: ``{player} scores {points}.``; a player's name as the owner of what follows
asks for its possessive, ``{owner:poss} {card}`` ("Bob's", "Bobs", "Hans'": `possessive`), and a
term for one of its grammatical forms, ``{card:acc}`` (`_Term`).

A message with a plural has ``msgid_plural`` and two ``msgstr[n]`` forms (German and English
both use "one" for 1, "other" otherwise). The form is chosen by the parameter ``count``, or by
the parameter the ``msgid_plural`` names after a ``#`` (``msgid_plural "x.offer#amount"``: the
form follows ``amount``; a list parameter, such as several players, counts by its length). A
message that counts two different things gives one of them a message of its own, passed in as a
parameter.

Nothing here imports Discord or storage, so the command-line runner and the renderers use it too.
"""
from __future__ import annotations

import logging
import string
from collections.abc import Iterable, Mapping, Sequence
from functools import cache
from pathlib import Path
from typing import Any

from babel.messages.pofile import read_po

from i18n.messages import Msg, SeatRef, fill_seats, msg

log = logging.getLogger(__name__)

LOCALES_DIR = Path(__file__).parent / "locales"
LANGUAGES = ("en", "de")
DEFAULT_LANGUAGE = "en"


class MissingMessage(KeyError):
    """A message id without text in a catalogue (tests run strict; players get a fallback)."""


def language_of(locale: Any) -> str:
    """Our language for a Discord locale ("de", "en-US", "en-GB", ...): German or English."""
    text = str(getattr(locale, "value", locale) or "").lower()
    return "de" if text.startswith("de") else "en"


@cache
def _catalogue(lang: str, domain: str) -> Mapping[str, Any]:
    """A domain's messages: ``<domain>.po`` and any ``<domain>.<part>.po`` (e.g. the words on a
    game's board kept apart from its move labels), merged."""
    folder = LOCALES_DIR / lang
    entries: dict[str, Any] = {}
    for path in sorted([folder / f"{domain}.po", *folder.glob(f"{domain}.*.po")]):
        if not path.exists():
            continue
        with path.open("rb") as handle:
            catalog = read_po(handle, locale=lang)
        for message in catalog:
            if not message.id:
                continue  # the header
            key = str(message.id[0] if isinstance(message.id, tuple) else message.id)
            if key in entries:
                raise ValueError(f"{key} is in two {lang} catalogues")
            entries[key] = message.string
            if isinstance(message.id, tuple) and "#" in str(message.id[1]):
                _SELECTORS[(lang, key)] = str(message.id[1]).split("#", 1)[1].strip()
    return entries


_SELECTORS: dict[tuple[str, str], str] = {}


def plural_selector(lang: str, message_id: str) -> str:
    """The parameter that chooses a plural message's form: ``count`` unless its ``msgid_plural``
    names another after a ``#``."""
    _catalogue(lang, message_id.split(".", 1)[0])
    return _SELECTORS.get((lang, message_id), "count")


def domains() -> list[str]:
    return sorted({path.name.split(".")[0] for lang in LANGUAGES for path in (LOCALES_DIR / lang).glob("*.po")})


def entries(lang: str, domain: str) -> Mapping[str, Any]:
    """Every message of one catalogue: id -> text (or a tuple of plural forms)."""
    return _catalogue(lang, domain)


_FOUND: dict[tuple[str, str], Any] = {}
"""Texts of messages found in their own language's catalogue, by (language, id): looked up once
each (a move's messages ask `template` some 200-300 times). The catalogues never change while
the process runs, so this holds at most every message of both languages once. A text that
falls back to English is not kept here: it is looked up (and warned of) each time."""


def template(lang: str, message_id: str, *, strict: bool = False) -> Any:
    found = _FOUND.get((lang, message_id))
    if found is not None:
        return found
    domain = message_id.split(".", 1)[0]
    for candidate in (lang, DEFAULT_LANGUAGE):
        text = _catalogue(candidate, domain).get(message_id)
        if text and (not isinstance(text, tuple) or all(text)):
            if candidate != lang:
                if strict:
                    raise MissingMessage(f"{message_id} has no {lang} text")
                log.warning("No %s text for %s; using English", lang, message_id)
            else:
                _FOUND[(lang, message_id)] = text
            return text
        if strict:
            raise MissingMessage(f"{message_id} has no {candidate} text")
    raise MissingMessage(message_id)


def fields(text: str) -> set[str]:
    """The parameter names a catalogue text uses."""
    return {name.split(".")[0].split("[")[0] for _, name, _, _ in string.Formatter().parse(text) if name}


class _Params(dict[str, Any]):
    """Format arguments; a field the text names but the caller did not give is an error."""

    def __missing__(self, key: str) -> Any:
        raise MissingMessage(f"parameter {key!r} not given")


def translate(text: Any, lang: str = DEFAULT_LANGUAGE, names: Sequence[str] = (), *,
              strict: bool = False) -> str:
    """Words for an engine's text: a `Msg`, its JSON dict, or a legacy string.

    `names` are the seats' display names (already formatted: bold, or mentions). Seat
    references and legacy `{s0}` placeholders become those names. With `strict`, a missing
    message or parameter raises `MissingMessage` (tests); otherwise the player gets the English
    text, and at worst a plain rendering of the id that never shows a code with braces.
    """
    if isinstance(text, dict):
        text = Msg.from_json(text)
    if isinstance(text, Msg):
        try:
            return _format(text, lang, names, strict)
        except MissingMessage:
            if strict:
                raise
            log.warning("Could not translate %s into %s", text.id, lang, exc_info=True)
            return text.id.rsplit(".", 1)[-1].replace("_", " ")
    return fill_seats(str(text), list(names))


def _format(message: Msg, lang: str, names: Sequence[str], strict: bool) -> str:
    params = message.params
    if not params:  # a term, a label, a heading: the same words every time
        said = _SAID.get((lang, message.id))
        if said is not None:
            return said
    pattern = template(lang, message.id, strict=strict)
    if isinstance(pattern, tuple):
        # `template` read the language's catalogue, and with it the plural's selector (`plural_selector`).
        count = params.get(_SELECTORS.get((lang, message.id), "count"), 0)
        if isinstance(count, (list, tuple)):
            count = len(count)  # a list of players: "Anna kann", "Anna und Bo können"
        pattern = pattern[0] if count == 1 else pattern[1]
    said = str(pattern.format_map(_Params({key: _value(value, lang, names, strict) for key, value in params.items()})))
    if not params and (lang, message.id) in _FOUND:
        _SAID[(lang, message.id)] = said
    return said


_SAID: dict[tuple[str, str], str] = {}
"""The words of messages without parameters found in their own language (`_FOUND`), by (language,
id): the same whoever reads them. At most every message of both languages once."""


class _Term(str):
    """A translated term put into a message. A catalogue text may ask for one of its grammatical
    forms with a format spec, ``{card:acc}``: the term's message id plus ``.acc``
    (``knatsch.castle.red.acc`` = "die Rote Burg"), with the term's own parameters; a term
    without that form is put in as it is."""

    _source: tuple[Msg, str, Sequence[str], bool]

    def __new__(cls, text: str, message: Msg, lang: str, names: Sequence[str], strict: bool) -> _Term:
        term = super().__new__(cls, text)
        term._source = (message, lang, names, strict)
        return term

    def __format__(self, spec: str) -> str:
        if not spec:
            return str(self)
        message, lang, names, strict = self._source
        domain = message.id.split(".", 1)[0]
        form = f"{message.id}.{spec}"
        if form not in _catalogue(lang, domain):
            return str(self)
        return _format(Msg(form, message.params), lang, names, strict)


POSSESSIVE = "poss"
"""The form a catalogue text asks of a name to say what it owns: ``{owner:poss} {card}``."""
GERMAN_S_SOUNDS = ("s", "ß", "x", "z", "ce")
"""Endings after which German writes a name's possessive with an apostrophe alone ("Hans'
Ritter", "Max' Turm", "Fritz' Burg", "Alice' Veto"), where others take an "s" ("Bobs Ritter")."""
_MARKUP = "*"
"""What may stand around a name in a message (bold, ``**Hans**``): not part of its ending."""


def possessive(name: str, lang: str = DEFAULT_LANGUAGE) -> str:
    """`name` as the owner of what follows it: "Bob's", "Hans's" in English; "Bobs", "Hans'",
    "Max'" in German. A name in bold keeps its mark around the name alone ("**Hans**'"); a name
    that does not end in a letter (a mention, a digit, a shortened "Bartholo…") takes an "s"."""
    if lang != "de":
        return f"{name}'s"
    ending = name.rstrip(_MARKUP).lower()
    return f"{name}'" if ending.endswith(GERMAN_S_SOUNDS) else f"{name}s"


class _Word(str):
    """A plain word or name put into a message: it has no other forms but its possessive
    (`POSSESSIVE`), whatever form is asked. One class a language (`_WORD_IN`), so that making one
    costs what making a str does: messages put in thousands of them."""

    lang = DEFAULT_LANGUAGE

    def __format__(self, spec: str) -> str:
        if spec == POSSESSIVE:
            return possessive(str(self), self.lang)
        return str(self)


class _EnglishWord(_Word):
    lang = "en"


class _GermanWord(_Word):
    lang = "de"


_WORD_IN: dict[str, type[_Word]] = {"en": _EnglishWord, "de": _GermanWord}


def _value(value: Any, lang: str, names: Sequence[str], strict: bool) -> Any:
    kind = type(value)
    if kind is str:  # the most common kinds first: a square, a number, a player, a term
        return _WORD_IN.get(lang, _Word)(value)
    if kind is int:
        return value
    if kind is SeatRef:
        seat = value.seat
        return _WORD_IN.get(lang, _Word)(names[seat] if 0 <= seat < len(names) else f"P{seat + 1}")
    if kind is Msg:
        if not value.params:
            term = _TERMS.get((lang, value.id, strict))
            if term is None:
                term = _Term(_format(value, lang, names, strict), value, lang, names, strict)
                if (lang, value.id) in _FOUND:
                    _TERMS[(lang, value.id, strict)] = term
            return term
        plain = _plain_params(value.params)
        if plain is not None:  # a term of words and numbers alone ("forest+village" in every label of a tile)
            key = (lang, value.id, strict, plain)
            term = _TERMS_WITH.get(key)
            if term is None:
                term = _Term(_format(value, lang, names, strict), value, lang, names, strict)
                if (lang, value.id) in _FOUND and all((lang, said) in _FOUND for _, kind, said in plain if kind == 2):
                    if len(_TERMS_WITH) >= TERMS_WITH_KEPT:
                        _TERMS_WITH.clear()
                    _TERMS_WITH[key] = term
            return term
    if isinstance(value, dict) and set(value) == {"seat"}:
        value = SeatRef(int(value["seat"]))
    elif isinstance(value, dict) and "id" in value:
        value = Msg.from_json(value)
    word = _WORD_IN.get(lang, _Word)
    if isinstance(value, SeatRef):
        if 0 <= value.seat < len(names):
            return word(names[value.seat])
        return word(f"P{value.seat + 1}")
    if isinstance(value, Msg):
        return _Term(_format(value, lang, names, strict), value, lang, names, strict)
    if isinstance(value, (list, tuple)):
        return word(join_list([_value(item, lang, names, strict) for item in value], lang))
    if isinstance(value, str):
        return word(value)
    return value


_TERMS: dict[tuple[str, str, bool], _Term] = {}
"""Terms without parameters found in their own language (a terrain, a card), by (language, id,
strict), put into messages as they are: neither their words nor their other forms depend on the
names of the message they are put in. At most every message of both languages twice."""


def _plain_params(params: Mapping[str, Any]) -> tuple[tuple[str, int, Any], ...] | None:
    """A term's parameters as a key, where each is a str, an int or a term without parameters of
    its own (by its id), none naming a player: (name, kind, value); None for any other."""
    plain = []
    for name, value in params.items():
        kind = type(value)
        if kind is str:
            plain.append((name, 0, value))
        elif kind is int:
            plain.append((name, 1, value))
        elif kind is Msg and not value.params:
            plain.append((name, 2, value.id))
        else:
            return None
    return tuple(plain)


TERMS_WITH_KEPT = 1024
"""Terms with parameters (`_plain_params`) kept in `_TERMS_WITH` (some 200 bytes each): emptied
when full."""
_TERMS_WITH: dict[tuple[str, str, bool, tuple[tuple[str, int, Any], ...]], _Term] = {}
"""Terms whose parameters are words, numbers and terms of their own (`_plain_params`) found in
their own language, theirs too, by (language, id, strict, parameters): neither their words nor
their other forms depend on names."""


def join_list(items: Iterable[Any], lang: str = DEFAULT_LANGUAGE) -> str:
    """"a, b and c" / "a, b und c"."""
    words = [str(item) for item in items]
    if len(words) <= 1:
        return "".join(words)
    last = template(lang, "core.list_and")
    return f"{', '.join(words[:-1])}{last}{words[-1]}"


def t(lang: str, message_id: str, /, **params: Any) -> str:
    """The bot's and renderers' own words: ``t("de", "bot.refusal.not_your_turn", who=...)``."""
    return translate(msg(message_id, **params), lang)


def game_title(game: Any) -> Any:
    """A game's title as its edition in each language calls it: the message ``core.title.<name>``
    (put in with the other words), or the engine's own title for a game without one."""
    message_id = f"core.title.{getattr(game, 'name', '')}"
    if message_id in _catalogue(DEFAULT_LANGUAGE, "core"):
        return Msg(message_id, {})
    return game.title


def has_message(message_id: str, lang: str = DEFAULT_LANGUAGE) -> bool:
    """Whether a catalogue holds this message (for words that only some games define)."""
    return message_id in _catalogue(lang, message_id.split(".", 1)[0])
