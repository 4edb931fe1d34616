"""How a game's state module tells what is wrong with a stored state (games.core.StoredState)."""
from __future__ import annotations

import pytest

from games.core import InvalidState, StoredState
from games.macrobber.state import from_dict as macrobber_state
from games.raubritter.state import from_dict as raubritter_state

STORED = StoredState("Test")


def test_its_own_checks_say_what_is_wrong_naming_the_game():
    STORED.require(True, "never said")
    with pytest.raises(InvalidState, match=r"^Stored Test state is invalid: no seats\.$"):
        STORED.require(False, "no seats")


def test_a_state_malformed_past_the_checks_is_invalid_not_the_error_it_caused():
    with pytest.raises(InvalidState, match=r"^Stored Test state is malformed: KeyError\('seats'\)$"):
        with STORED.loading():
            {}["seats"]
    with pytest.raises(InvalidState, match="is invalid: no seats"), STORED.loading():
        STORED.invalid("no seats")  # raised as the check said it


def test_the_games_name_themselves():
    with pytest.raises(InvalidState, match="^Stored Mac Robber state is invalid: not a mapping"):
        macrobber_state([])  # type: ignore[arg-type]
    with pytest.raises(InvalidState, match="^Stored Raub Ritter state is"):
        raubritter_state({"game": "raubritter"})
