"""A message that names one or several players agrees with them: "Anna kann", "Anna und Bo
können", "ihr seid dran"; "Anna keeps", "Anna and Bo each keep".

Every catalogue message where a verb follows a list of players must have forms for one and for
several (chosen by the list's length, or by `count`), and reads right with one, two and three.
"""
from __future__ import annotations

import re

import pytest

from games.core import Msg, SeatRef
from i18n import LANGUAGES, domains, entries, fields, plural_selector, translate

# Verbs that change with the number of their subject: singular -> plural.
VERBS = {
    "en": {"keeps": "keep", "is": "are", "has": "have", "wins": "win", "shares": "share", "goes": "go",
           "takes": "take", "comes": "come"},
    "de": {"kann": "können", "muss": "müssen", "behält": "behalten", "ist": "sind", "hat": "haben",
           "darf": "dürfen", "wird": "werden", "gewinnt": "gewinnen", "bist": "seid", "teilt": "teilen",
           "kommt": "kommen", "nimmt": "nehmen"},
}
LIST_PARAMS = ("players", "winners")
# Lists whose size the rules fix, so one form is always right.
FIXED_SIZE = {
    "gluecksritter.event.both_dungeon": "always the two haggling knights ('both')",
    "gluecksritter.event.knights_crowded": "three or more Black Knights ('all')",
    "gluecksritter.outcome.shared": "a shared win: two or more",
    "macrobber.outcome.shared": "a shared win: two or more",
    "carcassonne.outcome.win": "one winner (a shared win has carcassonne.outcome.shared)",
}
NAMES = ["Anna", "Bo", "Cy"]


def agreeing(lang: str):
    verbs = set(VERBS[lang]) | set(VERBS[lang].values())
    for domain in domains():
        for message_id, text in entries(lang, domain).items():
            for form in (text if isinstance(text, tuple) else (text,)):
                for param in LIST_PARAMS:
                    after = re.findall(r"\{" + param + r"\}((?:\s+\S+){1,3})", form)
                    words = " ".join(after).lower().split()
                    if any(word.strip(",.—-") in verbs for word in words) or (
                            "dran" in form and param in form):
                        yield message_id, param


CASES = sorted({(lang, message_id, param) for lang in LANGUAGES for message_id, param in agreeing(lang)
                if message_id not in FIXED_SIZE})


def test_the_messages_that_need_it_are_found():
    assert ("de", "gluecksritter.status.field1", "players") in CASES
    assert ("de", "bot.table.your_move", "players") in CASES


@pytest.mark.parametrize("lang,message_id,param", CASES, ids=[f"{c[0]}-{c[1]}" for c in CASES])
def test_a_list_of_players_agrees_with_its_verb(lang, message_id, param):
    domain = message_id.split(".", 1)[0]
    text = entries(lang, domain)[message_id]
    assert isinstance(text, tuple), f"{message_id}: a verb follows {{{param}}} but there is one form only"
    selector = plural_selector(lang, message_id)
    assert selector in (param, "count"), f"{message_id}: the form follows {{{selector}}}"
    names = set().union(*(fields(form) for form in text))
    said = []
    for count in (1, 2, 3):
        params = {name: "X" for name in names}
        params[param] = [SeatRef(seat) for seat in range(count)]
        if "count" in names or selector == "count":
            params["count"] = count
        said.append(translate(Msg(message_id, params), lang, NAMES, strict=True))
    singular, several = VERBS[lang], {plural: one for one, plural in VERBS[lang].items()}
    one = said[0].lower().split()
    many = said[1].lower().split() + said[2].lower().split()
    assert not any(word.strip(",.") in several and word.strip(",.") not in singular for word in one), said[0]
    assert not any(word.strip(",.") in singular and word.strip(",.") not in several for word in many), said[1:]
