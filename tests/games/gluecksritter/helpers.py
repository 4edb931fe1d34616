"""Small tools to set up Die Glücksritter positions for rule tests (coins stay conserved)."""
from __future__ import annotations

from games import REGISTRY
from games.core import Action, chance
from games.gluecksritter.data import SPECIAL_DIE
from i18n import translate

GAME = REGISTRY["gluecksritter"]
NAMES = ["Ann", "Bo", "Cy", "Di", "Ed", "Flo"]


def fresh(players: int = 4, seed: int = 1):
    """A new game with empty fields 5 and 6 (their coins back in the sack) and no documents."""
    state = GAME.new_game(players, seed=seed)
    for where in (state.field5, state.field6):
        state.sack[0] += where[0]
        state.sack[1] += where[1]
        where[0] = where[1] = 0
    return state


def set_money(state, seat: int, silver: int, gold: int) -> None:
    state.sack[0] += state.money[seat][0] - silver
    state.sack[1] += state.money[seat][1] - gold
    state.money[seat] = [silver, gold]
    assert min(state.sack) >= 0


def set_field(state, number: int, silver: int, gold: int) -> None:
    where = state.field5 if number == 5 else state.field6
    state.sack[0] += where[0] - silver
    state.sack[1] += where[1] - gold
    where[0], where[1] = silver, gold


def give_document(state, seat: int, code: str) -> None:
    if code in state.pile:
        state.pile.remove(code)
    else:
        state.discard.remove(code)
    state.hands[seat].append(code)


def act(state, seat: int, text: str):
    new, events = GAME.apply(state, seat, Action.parse(text))
    return new, events


def play_round(state, plays: dict[int, str], before: dict[int, list[str]] | None = None):
    """Everyone chooses: `before` holds toggles (doc, arm, veto, ransom) per seat, then the pair."""
    events = []
    for seat, actions in (before or {}).items():
        for text in actions:
            state, new = act(state, seat, text)
            events += new
    for seat in range(state.seats):
        state, new = act(state, seat, "play " + plays.get(seat, "1,2"))
        events += new
    return state, events


def words(events, lang: str = "en") -> list[str]:
    return [translate(e.text, lang, NAMES, strict=True) for e in events if e.seat is None]


def die_counter(state, face: str) -> int:
    """A chance counter at which the special die shows `face` for this seed."""
    for counter in range(state.chance_counter, state.chance_counter + 200):
        if chance(state.seed, counter).choice(SPECIAL_DIE) == face:
            return counter
    raise AssertionError("no such roll")


def roundtrip(state):
    import json

    return GAME.from_dict(json.loads(json.dumps(GAME.to_dict(state))))


def parts_of(joined):
    """The parts the engine's `one_after_another` set apart with " · ", in order."""
    parts = []
    while joined.id == "gluecksritter.event.one_after_another":
        parts.append(joined.params["first"])
        joined = joined.params["rest"]
    return parts + [joined]
