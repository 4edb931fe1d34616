"""Small tools to set up Mac Robber positions for rule tests (cubes and cards stay conserved)."""
from __future__ import annotations

from games import REGISTRY
from games.core import Action
from games.macrobber.data import BUILDINGS

GAME = REGISTRY["macrobber"]


def fresh(players: int = 4, seed: int = 1, **options):
    return GAME.new_game(players, seed=seed, options=options or None)


def move(state, seat, text):
    return GAME.apply(state, seat, Action.parse(text))


def _take(state, counts):
    for c in range(4):
        state.bag[c] -= counts[c]
        assert state.bag[c] >= 0


def _give(state, counts):
    for c in range(4):
        state.bag[c] += counts[c]


def set_display(state, y=0, b=0, g=0, r=0):
    _give(state, state.display)
    state.display = [y, b, g, r]
    _take(state, state.display)


def set_yard(state, seat, y=4, b=2, g=0):
    _give(state, state.courtyards[seat])
    state.courtyards[seat] = [y, b, g, 0]
    _take(state, state.courtyards[seat])
    fit_hand(state, seat)


def set_estates(state, seat, kinds):
    """kinds: list of "", "cattle", "castle", "monastery" (at least 2 places)."""
    placed_before = len(state.estates[seat]) - 2
    for kind in state.estates[seat]:
        if kind:
            _give(state, BUILDINGS[kind])
    state.estates[seat] = list(kinds)
    for kind in kinds:
        if kind:
            _take(state, BUILDINGS[kind])
    extra = (len(kinds) - 2) - placed_before
    assert extra >= 0, "positions only ever add estates"
    del state.supply[:extra]


def set_hand(state, seat, cards):
    state.deck += state.hands[seat]
    for card in cards:
        state.deck.remove(card)
    state.hands[seat] = list(cards)


def fit_hand(state, seat):
    want = state.courtyards[seat][0]
    while len(state.hands[seat]) < want:
        state.hands[seat].append(state.deck.pop())
    while len(state.hands[seat]) > want:
        state.deck.append(state.hands[seat].pop())


def check(state):
    """The state is valid (conservation of cubes, cards and estates) and survives JSON."""
    return GAME.from_dict(GAME.to_dict(state))


def labels(state, seat):
    return [a.encode() for a in GAME.legal_actions(state, seat)]
