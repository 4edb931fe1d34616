"""An action checked once (`games.core.check_action`) is applied by every engine without being
checked again, for the state and seat it was checked for only; an illegal one is refused in the
same words as by `apply`."""
from __future__ import annotations

import importlib

import pytest

import games.core
from games import REGISTRY
from games.core import Action, Checked, GameError, check_action

GAMES = sorted(REGISTRY)


def opening(name: str):
    game = REGISTRY[name]
    state = game.new_game(game.min_players, seed=3, options={o.name: o.default for o in game.options})
    seat = min(game.to_act(state))
    return game, state, seat


@pytest.mark.parametrize("name", GAMES)
def test_a_checked_action_is_applied_without_checking_it_again(name, monkeypatch):
    game, state, seat = opening(name)
    action = game.legal_actions(state, seat)[0]
    checked = check_action(game, state, seat, action.encode())
    assert checked.action == action
    expected = game.to_dict(game.apply(state, seat, action)[0])
    asked = []
    engine = importlib.import_module(type(game).__module__)
    # The rules' check, wherever the engine reaches it: through games.core.admitted, or its own name.
    for module in (games.core, engine):
        monkeypatch.setattr(module, "check_turn", lambda *args: asked.append(args), raising=False)

    after, _ = game.apply(state, seat, checked)

    assert asked == []
    assert game.to_dict(after) == expected  # the same move, whichever way it came


@pytest.mark.parametrize("name", GAMES)
def test_a_checked_action_given_for_another_state_or_seat_is_checked_as_usual(name):
    game, state, seat = opening(name)
    other = game.from_dict(game.to_dict(state))  # equal, yet not the state it was checked for
    illegal = Checked(Action("nonsense"), other, seat)
    with pytest.raises(GameError):
        game.apply(state, seat, illegal)
    with pytest.raises(GameError):
        game.apply(other, (seat + 1) % game.min_players, illegal)


@pytest.mark.parametrize("name", GAMES)
def test_checking_refuses_in_the_words_apply_uses(name):
    game, state, seat = opening(name)
    with pytest.raises(GameError) as by_apply:
        game.apply(state, seat, Action("nonsense"))
    with pytest.raises(GameError) as by_check:
        check_action(game, state, seat, "nonsense")
    assert type(by_check.value) is type(by_apply.value)
    assert str(by_check.value) == str(by_apply.value)
